//! A bot as the user names it: a name, a command, and optionally a working
//! directory and environment variables.

use crate::bot::remote::Remote;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};

/// A bot: its name in the match and how to start it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotSpec {
    /// The name shown in standings and records.
    pub name: String,
    /// The command as given.
    pub command: String,
    /// The working directory the bot runs in (absolute).
    pub dir: PathBuf,
    /// Environment variables set for the bot, beyond those it inherits
    /// (with those the command sets before its program, `VAR=value …`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// The command split into words, like a POSIX shell splits them, without
    /// the `VAR=value` words before the program, and with a relative program
    /// path made absolute against `dir`.
    #[serde(skip)]
    pub argv: Vec<String>,
    /// A bot over the network (`tcp://HOST:PORT`, `listen`): no program
    /// is run then, and `argv` is empty (see [`crate::bot::remote`]).
    #[serde(skip)]
    pub remote: Option<Remote>,
}

/// Why a bot cannot be had as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecError {
    /// The arena cannot tell where its own binary is.
    NoBinary {
        /// The system's reason.
        error: String,
    },
    /// A sample bot cannot be had: not built, most likely.
    SampleNotBuilt(Box<SpecError>),
    /// The name is empty or has characters other than letters, digits, `.`, `_` and `-`.
    BadName {
        /// The name, trimmed.
        name: String,
    },
    /// The command uses a shell's syntax, which no shell reads.
    ShellSyntax {
        /// The bot's name.
        name: String,
        /// The command.
        command: String,
        /// The word of the command that holds the syntax.
        word: String,
        /// What the syntax would do in a shell, and that it is not done.
        what: &'static str,
    },
    /// The command cannot be split into words.
    Unsplittable {
        /// The bot's name.
        name: String,
        /// The command.
        command: String,
        /// Why.
        error: shell_words::ParseError,
    },
    /// The command has no program (nothing, or only `VAR=value` words).
    EmptyCommand {
        /// The bot's name.
        name: String,
    },
    /// The program cannot be run.
    CannotRun {
        /// The bot's name.
        name: String,
        /// The program, as it would be run.
        program: String,
        /// Why.
        why: ProgramError,
    },
    /// The working directory does not exist.
    NoDir {
        /// The bot's name.
        name: String,
        /// The directory.
        dir: PathBuf,
    },
    /// A command naming a bot over the network, malformed.
    Remote {
        /// The bot's name.
        name: String,
        /// Why.
        why: String,
    },
    /// `--bot` without `=`.
    NotNameCommand {
        /// The flag's value.
        text: String,
    },
    /// The bot of `--bot` is refused.
    Flag {
        /// The flag's value.
        text: String,
        /// Why.
        error: Box<SpecError>,
    },
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::NoBinary { error } => write!(f, "cannot locate the arena binary: {error}"),
            SpecError::SampleNotBuilt(error) => {
                write!(f, "the sample bots are not built ({error}); run `cargo build --release` first")
            }
            SpecError::BadName { name } => {
                write!(f, "the bot name {name:?} must be non-empty and use only letters, digits, '.', '_' and '-'")
            }
            SpecError::ShellSyntax { name, command, word, what } => write!(
                f,
                "bot {name:?}: the command {command:?} is not run by a shell, so {word:?} would reach the bot as an \
                 argument: {what}. Run a shell yourself (e.g. sh -c '…' around the whole command) or put the \
                 command in a script; for the working directory and the environment, --bot-dir and --bot-env (a \
                 league file's `dir` and `env` of a bot), and VAR=value words before the program set variables"
            ),
            SpecError::Unsplittable { name, command, error } => {
                write!(f, "bot {name:?}: cannot split command {command:?}: {error}")
            }
            SpecError::EmptyCommand { name } => write!(f, "bot {name:?}: the command is empty"),
            SpecError::Remote { name, why } => write!(f, "bot {name:?}: {why}"),
            SpecError::CannotRun { name, program, why } => write!(f, "bot {name:?}: cannot run {program:?}: {why}"),
            SpecError::NoDir { name, dir } => {
                write!(f, "bot {name:?}: the working directory {} does not exist", dir.display())
            }
            SpecError::NotNameCommand { text } => {
                write!(f, "--bot {text:?}: expected NAME=COMMAND, e.g. greedy=target/release/greedy-bot")
            }
            SpecError::Flag { text, error } => write!(f, "--bot {text:?}: {error}"),
        }
    }
}

impl std::error::Error for SpecError {}

/// Why a program cannot be run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProgramError {
    /// A bare name that no directory of `PATH` holds as an executable.
    NotInPath,
    /// No file at the path.
    NoSuchFile,
    /// The path cannot be looked at.
    Unreadable {
        /// The system's reason.
        error: String,
    },
    /// The path is not a file (a directory, most likely).
    NotAFile,
    /// The file may not be executed.
    NotExecutable,
}

impl fmt::Display for ProgramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProgramError::NotInPath => f.write_str("not found in PATH"),
            ProgramError::NoSuchFile => f.write_str("no such file"),
            ProgramError::Unreadable { error } => f.write_str(error),
            ProgramError::NotAFile => f.write_str("not a file"),
            ProgramError::NotExecutable => {
                f.write_str("not executable (chmod +x it, or name its interpreter first, e.g. \"python3 bot.py\")")
            }
        }
    }
}

impl std::error::Error for ProgramError {}

/// The directory of the arena binary, where `cargo build` puts the sample bots too.
pub fn binary_dir() -> Result<PathBuf, SpecError> {
    let exe = std::env::current_exe().map_err(|e| SpecError::NoBinary { error: e.to_string() })?;
    Ok(exe.parent().unwrap_or(Path::new(".")).to_path_buf())
}

impl BotSpec {
    /// A sample Rust bot built next to the arena, e.g. `greedy` for
    /// `greedy-bot`, run in `cwd`.
    pub fn sample(name: &str, cwd: &Path) -> Result<BotSpec, SpecError> {
        let dir = binary_dir()?;
        let quoted = shell_words::quote(&dir.join(format!("{name}-bot")).to_string_lossy()).into_owned();
        BotSpec::parse(&format!("{name}={quoted}"), cwd).map_err(|e| SpecError::SampleNotBuilt(Box::new(e)))
    }

    /// A bot named `name` running `command` in `dir` (absolute): checks the
    /// name, refuses shell syntax (the command is not run by a shell), splits
    /// the command like a shell, takes the `VAR=value` words before the
    /// program as environment variables (they win over `env`), and checks
    /// that the program exists and is executable.
    pub fn new(name: &str, command: &str, dir: &Path, mut env: BTreeMap<String, String>) -> Result<BotSpec, SpecError> {
        let name = name.trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)) {
            return Err(SpecError::BadName { name: name.to_string() });
        }
        if let Some(remote) = Remote::parse(command, dir) {
            let remote = remote.map_err(|why| SpecError::Remote { name: name.to_string(), why })?;
            let (name, command, dir) = (name.to_string(), command.to_string(), dir.to_path_buf());
            return Ok(BotSpec { name, command, dir, env, argv: Vec::new(), remote: Some(remote) });
        }
        if let Some((word, what)) = shell_syntax(command) {
            return Err(SpecError::ShellSyntax { name: name.to_string(), command: command.to_string(), word, what });
        }
        let mut argv = shell_words::split(command).map_err(|error| SpecError::Unsplittable {
            name: name.to_string(),
            command: command.to_string(),
            error,
        })?;
        let assignments = argv.iter().take_while(|word| assignment(word).is_some()).count();
        for word in argv.drain(..assignments) {
            let (key, value) = assignment(&word).expect("counted as an assignment");
            env.insert(key.to_string(), value.to_string());
        }
        let Some(program) = argv.first_mut() else {
            return Err(SpecError::EmptyCommand { name: name.to_string() });
        };
        if program.contains('/') && !program.starts_with('/') {
            *program = dir.join(&*program).to_string_lossy().into_owned();
        }
        check_program(program).map_err(|why| SpecError::CannotRun {
            name: name.to_string(),
            program: program.clone(),
            why,
        })?;
        if !dir.is_dir() {
            return Err(SpecError::NoDir { name: name.to_string(), dir: dir.to_path_buf() });
        }
        let (name, command, dir) = (name.to_string(), command.to_string(), dir.to_path_buf());
        Ok(BotSpec { name, command, dir, env, argv, remote: None })
    }

    /// Parses the flag form `NAME=COMMAND`, the bot running in `dir`.
    pub fn parse(text: &str, dir: &Path) -> Result<BotSpec, SpecError> {
        let (name, command) =
            text.split_once('=').ok_or_else(|| SpecError::NotNameCommand { text: text.to_string() })?;
        BotSpec::new(name, command, dir, BTreeMap::new())
            .map_err(|e| SpecError::Flag { text: text.to_string(), error: Box::new(e) })
    }

    /// The same bot re-checked after being read back (fills in `argv`).
    pub fn revalidated(&self) -> Result<BotSpec, SpecError> {
        BotSpec::new(&self.name, &self.command, &self.dir, self.env.clone())
    }

    /// The file the bot's program runs from: the path its command names, or
    /// the first executable of that name in the bot's `PATH` (its own, else
    /// the arena's).
    pub fn program(&self) -> Option<PathBuf> {
        let program = self.argv.first()?;
        if program.contains('/') {
            return Some(PathBuf::from(program));
        }
        find_in_path(program, &self.search_path())
    }

    /// The bot's `PATH`: its own, else the arena's.
    pub fn search_path(&self) -> OsString {
        self.env.get("PATH").map(OsString::from).or_else(|| std::env::var_os("PATH")).unwrap_or_default()
    }
}

/// The first executable file named `program` in the directories of `path`.
pub fn find_in_path(program: &str, path: &OsStr) -> Option<PathBuf> {
    std::env::split_paths(path).map(|dir| dir.join(program)).find(|candidate| check_executable(candidate).is_ok())
}

/// `VAR=value`, as a shell reads a word before the program: the name and the value.
fn assignment(word: &str) -> Option<(&str, &str)> {
    let (key, value) = word.split_once('=')?;
    let mut chars = key.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then_some((key, value))
}

/// Why `command` cannot be run without a shell, if it uses a shell's syntax
/// (the word that holds it, and what it would do): an operator outside quotes (a redirection, a pipe, `&&`, `;`, `&`, a
/// subshell), an expansion outside single quotes (`$`, a backquote) or a
/// `~` starting a word. The arena runs the program itself, so each of them
/// would reach the bot as an argument (or a `cd` would be a program).
fn shell_syntax(command: &str) -> Option<(String, &'static str)> {
    let chars: Vec<char> = command.chars().collect();
    let (mut single, mut double) = (false, false);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let word_start = i == 0 || chars[i - 1].is_whitespace();
        let what = match c {
            '\\' if !single => {
                i += 2;
                continue;
            }
            '\'' if !double => {
                single = !single;
                None
            }
            '"' if !single => {
                double = !double;
                None
            }
            _ if single => None,
            '$' | '`' => Some("expansions ($VAR, $(…), `…`) are not done"),
            _ if double => None,
            '<' | '>' => Some("redirections are not done (a bot's stderr is kept in logs/ of --out anyway)"),
            '|' => Some("pipes and || are not done"),
            '&' => Some("&& and backgrounding (&) are not done"),
            ';' => Some("command lists (;) are not done"),
            '(' | ')' => Some("subshells are not done"),
            '~' if word_start => Some("~ is not expanded: give the path in full"),
            _ => None,
        };
        if let Some(what) = what {
            let start = chars[..i].iter().rposition(|c| c.is_whitespace()).map_or(0, |p| p + 1);
            let end = chars[i..].iter().position(|c| c.is_whitespace()).map_or(chars.len(), |p| i + p);
            return Some((chars[start..end].iter().collect(), what));
        }
        i += 1;
    }
    None
}

/// Checks that `program` names an executable file, directly or through `PATH`.
fn check_program(program: &str) -> Result<(), ProgramError> {
    if program.contains('/') {
        return check_executable(Path::new(program));
    }
    match find_in_path(program, &std::env::var_os("PATH").unwrap_or_default()) {
        Some(_) => Ok(()),
        None => Err(ProgramError::NotInPath),
    }
}

/// Checks that `path` is an executable file.
fn check_executable(path: &Path) -> Result<(), ProgramError> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => ProgramError::NoSuchFile,
        _ => ProgramError::Unreadable { error: e.to_string() },
    })?;
    if !meta.is_file() {
        return Err(ProgramError::NotAFile);
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Err(ProgramError::NotExecutable);
    }
    Ok(())
}

/// A bot's whole environment: `PATH`, `HOME` and `LANG` from the arena's
/// (`LANG` defaulting to `C.UTF-8`), then the bot's own variables.
pub(crate) fn bot_environment(own: &std::collections::BTreeMap<String, String>) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = ["PATH", "HOME", "LANG"]
        .iter()
        .filter_map(|&key| std::env::var(key).ok().map(|value| (key.to_string(), value)))
        .collect();
    if !env.iter().any(|(key, _)| key == "LANG") {
        env.push(("LANG".to_string(), "C.UTF-8".to_string()));
    }
    env.extend(own.iter().map(|(k, v)| (k.clone(), v.clone())));
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    fn here() -> PathBuf {
        std::env::current_dir().unwrap()
    }

    #[test]
    fn splits_like_a_shell() {
        let spec = BotSpec::parse("py=sh -c 'echo \"a b\"' extra", &here()).unwrap();
        assert_eq!(spec.name, "py");
        assert_eq!(spec.argv, vec!["sh", "-c", "echo \"a b\"", "extra"]);
    }

    #[test]
    fn relative_programs_resolve_against_the_working_directory() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let spec = BotSpec::parse("t=tests/bots/first_legal.py --flag", dir).unwrap();
        assert_eq!(spec.argv[0], dir.join("tests/bots/first_legal.py").to_string_lossy());
        assert_eq!(spec.argv[1], "--flag");
        let err = BotSpec::parse("t=tests/bots/first_legal.py", &dir.join("arena")).unwrap_err().to_string();
        assert!(err.contains("no such file"), "{err}");
        let err = BotSpec::new("t", "sh", &dir.join("no-such-dir"), BTreeMap::new()).unwrap_err().to_string();
        assert!(err.contains("does not exist"), "{err}");
    }

    #[test]
    fn refuses_shell_syntax_outside_quotes() {
        for command in [
            "./bot 2>debug.log",
            "sh bot > /tmp/x",
            "cd dir && ./bot",
            "sh a | tee log",
            "sh a; sh b",
            "sh bot &",
            "sh < input",
            "(sh bot)",
            "sh $HOME/bot",
            "sh \"$HOME/bot\"",
            "sh `pwd`/bot",
            "sh ~/bot",
        ] {
            let err = BotSpec::new("x", command, &here(), BTreeMap::new()).unwrap_err().to_string();
            assert!(err.contains("is not run by a shell") && err.contains("sh -c"), "{command}: {err}");
        }
        let err = BotSpec::parse("me=./bot 2>debug.log", &here()).unwrap_err().to_string();
        assert!(err.contains("\"2>debug.log\" would reach the bot as an argument"), "{err}");
        let err = BotSpec::parse("me=cd dir && ./bot", &here()).unwrap_err().to_string();
        assert!(err.contains("\"&&\"") && !err.contains("cannot run"), "{err}");
        // Quoted, escaped or inside a word, the same characters are ordinary arguments.
        for command in ["sh -c 'a > b && c | d; e & $F'", "sh x\\>y", "sh \"a|b\" \"c>d\"", "sh a~b"] {
            let spec = BotSpec::new("x", command, &here(), BTreeMap::new()).unwrap();
            assert_eq!(spec.argv[0], "sh", "{command}");
        }
    }

    #[test]
    fn variables_before_the_program_are_its_environment() {
        let env = BTreeMap::from([("DEPTH".to_string(), "1".to_string())]);
        let spec = BotSpec::new("x", "DEPTH=3 _X1='a b' sh -c 'exit 0' Y=2", &here(), env).unwrap();
        assert_eq!(spec.argv, vec!["sh", "-c", "exit 0", "Y=2"]);
        let env: Vec<(&str, &str)> = spec.env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(env, vec![("DEPTH", "3"), ("_X1", "a b")]);
        assert_eq!(spec.revalidated().unwrap(), spec);
        let err = BotSpec::new("x", "A=1 B=2", &here(), BTreeMap::new()).unwrap_err().to_string();
        assert!(err.contains("the command is empty"), "{err}");
        let err = BotSpec::new("x", "1A=2 sh", &here(), BTreeMap::new()).unwrap_err().to_string();
        assert!(err.contains("cannot run \"1A=2\""), "{err}");
    }

    #[test]
    fn names_the_problem() {
        let cases = [
            ("nocommand", "expected NAME=COMMAND"),
            ("=sh", "must be non-empty"),
            ("a b=sh", "must be non-empty"),
            ("x=", "the command is empty"),
            ("x=sh 'unclosed", "cannot split"),
            ("x=surely-no-such-program-here", "not found in PATH"),
            ("x=./no/such/file", "no such file"),
        ];
        let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        let dir = env!("CARGO_MANIFEST_DIR");
        let local = [(format!("x={manifest}"), "not executable"), (format!("x={dir}"), "not a file")];
        let all = cases.iter().map(|(i, e)| (i.to_string(), *e)).chain(local);
        for (input, expected) in all {
            let err = BotSpec::parse(&input, &here()).unwrap_err().to_string();
            assert!(err.contains(expected), "{input}: {err}");
        }
    }
}
