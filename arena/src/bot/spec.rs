//! A bot as the user names it: `NAME=COMMAND`.

use std::path::Path;

/// A bot: its name in the match and the command that starts it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotSpec {
    /// The name shown in standings and records.
    pub name: String,
    /// The command as given.
    pub command: String,
    /// The command split into words, like a POSIX shell splits them.
    pub argv: Vec<String>,
}

impl BotSpec {
    /// Parses `NAME=COMMAND`, splitting COMMAND like a shell, and checks that
    /// the program exists and is executable.
    pub fn parse(text: &str) -> Result<BotSpec, String> {
        let (name, command) = text
            .split_once('=')
            .ok_or_else(|| format!("--bot {text:?}: expected NAME=COMMAND, e.g. greedy=target/release/greedy-bot"))?;
        let name = name.trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)) {
            return Err(format!(
                "--bot {text:?}: the name {name:?} must be non-empty and use only letters, digits, '.', '_' and '-'"
            ));
        }
        let argv =
            shell_words::split(command).map_err(|e| format!("bot {name:?}: cannot split command {command:?}: {e}"))?;
        let Some(program) = argv.first() else {
            return Err(format!("bot {name:?}: the command is empty"));
        };
        check_program(program).map_err(|why| format!("bot {name:?}: cannot run {program:?}: {why}"))?;
        Ok(BotSpec { name: name.to_string(), command: command.to_string(), argv })
    }
}

/// Checks that `program` names an executable file, directly or through `PATH`.
fn check_program(program: &str) -> Result<(), String> {
    if program.contains('/') {
        return check_executable(Path::new(program));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        if check_executable(&dir.join(program)).is_ok() {
            return Ok(());
        }
    }
    Err("not found in PATH".to_string())
}

fn check_executable(path: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        _ => e.to_string(),
    })?;
    if !meta.is_file() {
        return Err("not a file".to_string());
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Err("not executable (chmod +x it, or name its interpreter first, e.g. \"python3 bot.py\")".to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        let spec = BotSpec::parse("py=sh -c 'echo \"a b\"' extra").unwrap();
        assert_eq!(spec.name, "py");
        assert_eq!(spec.argv, vec!["sh", "-c", "echo \"a b\"", "extra"]);
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
            let err = BotSpec::parse(&input).unwrap_err();
            assert!(err.contains(expected), "{input}: {err}");
        }
    }
}
