//! Running bots inside a sandbox. With `--sandbox bwrap` each bot process
//! runs under bubblewrap, whoever runs the arena (root included): in a user
//! namespace of its own with no capabilities at all (nor a way to gain them
//! in a nested one), seeing only what [`super::visible`] shows it, in a copy
//! of its own in memory ([`super::copies`]) as its root, all of it
//! read-only (`/proc/sys` too), with an empty writable `/tmp` (also its
//! `HOME`) and `/dev/shm` of bounded size (the `tmp` limit), no network, its
//! own process, IPC and host-name namespaces and terminal session; it dies
//! with the arena, and it cannot make the system calls [`super::seccomp`]
//! refuses. bubblewrap's options reach it through a descriptor
//! (`--args`), so its command line, which the bot can read as process 1 of
//! its namespace, names none of the host's paths.

use super::copies::Copies;
use super::registry::Registry;
use super::seccomp;
use super::spec::BotSpec;
use super::visible::plan::{MOST_BYTES, plan};
use super::visible::{self, Refusal, View};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::str::FromStr;

/// How bot processes are confined.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sandbox {
    /// Plain processes (resource limits and process groups still apply).
    #[default]
    None,
    /// bubblewrap (`bwrap`).
    Bwrap,
}

impl Sandbox {
    /// Whether each bot's processes get a control group of their own (see
    /// [`super::cgroup`]): under bubblewrap, where the arena may make one.
    pub fn grouped(self) -> bool {
        self == Sandbox::Bwrap && super::cgroup::BotGroups::possible()
    }
}

/// Why a sandbox cannot be had, or cannot hold the bots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SandboxError {
    /// A sandbox the arena does not have.
    Unknown {
        /// The sandbox as given.
        text: String,
    },
    /// bubblewrap runs but cannot create a sandbox here.
    CannotCreate {
        /// How bubblewrap ended.
        status: ExitStatus,
        /// What it said on its stderr, trimmed.
        said: String,
    },
    /// bubblewrap is not installed.
    NotInstalled,
    /// bubblewrap cannot be run.
    CannotRun {
        /// The system's reason.
        error: String,
    },
    /// The bots cannot run sandboxed with the run's private files hidden.
    Refused(Refusal),
    /// The engine program cannot run sandboxed with the run's private files hidden.
    EngineRefused {
        /// The engine's command.
        command: String,
        /// Why.
        why: Box<Refusal>,
    },
    /// There is no tmpfs for the copies of the bots' views.
    NoMemory {
        /// The system's reason.
        error: String,
    },
}

impl fmt::Display for SandboxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SandboxError::Unknown { text } => write!(f, "unknown sandbox {text:?}; the sandboxes are none and bwrap"),
            SandboxError::CannotCreate { status, said } => write!(
                f,
                "--sandbox bwrap: bubblewrap cannot create a sandbox here ({status}: {said}); it needs bubblewrap \
                 0.8 or later, and unprivileged user namespaces or a setuid bwrap"
            ),
            SandboxError::NotInstalled => f.write_str(
                "--sandbox bwrap: bubblewrap is not installed (the bwrap command is missing); on \
                 Debian or Ubuntu: apt-get install bubblewrap",
            ),
            SandboxError::CannotRun { error } => write!(f, "--sandbox bwrap: cannot run bwrap: {error}"),
            SandboxError::Refused(why) => write!(f, "--sandbox bwrap: {why}"),
            SandboxError::EngineRefused { command, why } => match &**why {
                Refusal::NeedsPrivate { path, inside, .. } => write!(
                    f,
                    "--sandbox bwrap: the engine {command:?} needs {}, which is inside {}; a sandboxed engine never \
                     sees the output directory, the league file nor the deals file: write the output elsewhere \
                     (--out) or move the engine",
                    path.display(),
                    inside.display()
                ),
                Refusal::SeesAll { dir, .. } => write!(
                    f,
                    "--sandbox bwrap: the engine {command:?} would see all of {} (its directory, or one its command \
                     names): a sandboxed engine sees its own directories whole; run it from a directory of its own \
                     (run the arena from one, or name the engine in a league file there: it runs from the file's \
                     directory)",
                    dir.display()
                ),
                other => write!(f, "--sandbox bwrap: {other}"),
            },
            SandboxError::NoMemory { error } => write!(f, "--sandbox bwrap: {error}"),
        }
    }
}

impl std::error::Error for SandboxError {}

impl FromStr for Sandbox {
    type Err = SandboxError;
    fn from_str(text: &str) -> Result<Sandbox, SandboxError> {
        match text {
            "none" => Ok(Sandbox::None),
            "bwrap" => Ok(Sandbox::Bwrap),
            other => Err(SandboxError::Unknown { text: other.to_string() }),
        }
    }
}

impl fmt::Display for Sandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Sandbox::None => "none",
            Sandbox::Bwrap => "bwrap",
        })
    }
}

impl Sandbox {
    /// Checks that the sandbox can run here and that `bots` can run in it
    /// with `private` (the output directory, the league file, the deals
    /// file) hidden, with a message saying how to fix it if not.
    pub fn check(&self, bots: &[BotSpec], private: &[PathBuf]) -> Result<(), SandboxError> {
        match self {
            Sandbox::None => Ok(()),
            Sandbox::Bwrap => {
                usable()?;
                // A bot over the network runs elsewhere: nothing here is shown to it.
                let local: Vec<BotSpec> = bots.iter().filter(|spec| spec.remote.is_none()).cloned().collect();
                if let Some(why) = visible::refusal(&local, private) {
                    return Err(SandboxError::Refused(why));
                }
                for (bot, spec) in bots.iter().enumerate().filter(|(_, spec)| spec.remote.is_none()) {
                    let bytes = plan(bots, bot, private, &Registry::new()).map(|plan| plan.bytes);
                    if bytes.is_none_or(|bytes| bytes > MOST_BYTES) {
                        return Err(SandboxError::Refused(Refusal::TooLarge { bot: spec.name.clone(), bytes }));
                    }
                }
                Copies::usable().map_err(|e| SandboxError::NoMemory { error: e.to_string() })
            }
        }
    }

    /// The command that runs `spec` inside the sandbox, seeing the copy of
    /// its view at `view` (see [`super::copies`]) as its root, with the
    /// copy's `in_tmp` (paths in `/tmp`) shown again over its own `/tmp`,
    /// its `/tmp` and `/dev/shm` each holding at most `tmp` bytes.
    pub fn wrap(&self, spec: &BotSpec, view: &Path, in_tmp: &[PathBuf], tmp: Option<u64>) -> Wrapped {
        match self {
            Sandbox::None => Wrapped { argv: spec.argv.clone(), options: 0 },
            Sandbox::Bwrap => confined(rooted(view, in_tmp, tmp), spec),
        }
    }
}

/// The command that runs `spec` inside the bubblewrap sandbox seeing `view`
/// where it lies on the host, read-only, rather than a copy of it, its
/// `/tmp` and `/dev/shm` each holding at most `tmp` bytes: for a program
/// that holds every seat's secrets anyway, a game engine (see
/// `crate::engine::sandbox`), whose interpreter's packages may weigh far
/// more than a copy may take.
pub fn wrap_in_place(spec: &BotSpec, view: &View, tmp: Option<u64>) -> Wrapped {
    confined(bwrap(view, tmp), spec)
}

/// Whether bubblewrap runs here and can create a sandbox.
pub fn usable() -> Result<(), SandboxError> {
    let mut argv = bwrap(&visible::system(), None);
    argv.extend(["--chdir", "/", "--", "true"].map(String::from));
    let output = Command::new(&argv[0]).args(&argv[1..]).stdin(Stdio::null()).output();
    match output {
        Ok(output) if output.status.success() => Ok(()),
        Ok(output) => {
            let said = String::from_utf8_lossy(&output.stderr).trim().to_string();
            Err(SandboxError::CannotCreate { status: output.status, said })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(SandboxError::NotInstalled),
        Err(e) => Err(SandboxError::CannotRun { error: e.to_string() }),
    }
}

/// `mounts` (bubblewrap's command line up to the mounts) followed by the
/// system calls refused, the environment, the working directory and
/// `spec`'s command.
fn confined(mut argv: Vec<String>, spec: &BotSpec) -> Wrapped {
    for _ in 0..seccomp::count() {
        argv.extend(["--add-seccomp-fd".to_string(), seccomp::PLACEHOLDER.to_string()]);
    }
    let dir = spec.dir.to_string_lossy().into_owned();
    argv.extend(["--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp", "--chdir", &dir].map(String::from));
    let options = argv.len() - 1;
    argv.push("--".to_string());
    argv.extend(spec.argv.iter().cloned());
    Wrapped { argv, options }
}

/// A bot's command as the sandbox wraps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wrapped {
    /// The program and its arguments.
    pub argv: Vec<String>,
    /// How many words after the program are the sandbox's own options, to be
    /// passed through a descriptor rather than on its command line (see
    /// [`super::supervisor`]).
    pub options: usize,
}

/// The bubblewrap command line that shows the copy at `root` as the root,
/// up to the working directory and the command: the copy, then the fresh
/// `/dev`, `/proc`, `/tmp` and `/dev/shm`, what the copy holds in `/tmp`
/// (`in_tmp`) shown there again, and last the root and `/dev` made read-only.
fn rooted(root: &Path, in_tmp: &[PathBuf], tmp: Option<u64>) -> Vec<String> {
    let text = |path: &Path| path.to_string_lossy().into_owned();
    let mut argv: Vec<String> = BWRAP_NAMESPACES.map(String::from).to_vec();
    argv.extend(["--ro-bind".to_string(), text(root), "/".to_string()]);
    fresh_mounts(&mut argv, tmp);
    let mut in_tmp: Vec<&PathBuf> = in_tmp.iter().collect();
    in_tmp.sort();
    for at in in_tmp {
        let copied = root.join(at.strip_prefix("/").unwrap_or(at));
        argv.extend(["--ro-bind".to_string(), text(&copied), text(at)]);
    }
    argv.extend(["--remount-ro", "/dev", "--remount-ro", "/"].map(String::from));
    argv
}

/// The sandbox's own `/dev`, `/proc` (`/proc/sys` read-only), and `/tmp`
/// and `/dev/shm` of at most `tmp` bytes each.
fn fresh_mounts(argv: &mut Vec<String>, tmp: Option<u64>) {
    argv.extend(["--dev", "/dev", "--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys"].map(String::from));
    argv.extend(["--ro-bind-try", "/proc/sysrq-trigger", "/proc/sysrq-trigger"].map(String::from));
    for memory in ["/tmp", "/dev/shm"] {
        if let Some(bytes) = tmp {
            argv.extend(["--size".to_string(), bytes.to_string()]);
        }
        argv.extend(["--tmpfs".to_string(), memory.to_string()]);
    }
}

/// bubblewrap's options for the namespaces and capabilities of a sandbox.
const BWRAP_NAMESPACES: [&str; 8] = [
    "bwrap",
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--cap-drop",
    "ALL",
    "--die-with-parent",
    "--new-session",
];

/// The bubblewrap command line that shows `view`, up to the working
/// directory and the command. The order matters: binds outside `/tmp`, then
/// the fresh `/dev`, `/proc` and `/tmp`, binds inside `/tmp`, the hidden
/// directories, and last the root and `/dev` made read-only.
fn bwrap(view: &View, tmp: Option<u64>) -> Vec<String> {
    let text = |path: &Path| path.to_string_lossy().into_owned();
    let mut argv: Vec<String> = BWRAP_NAMESPACES.map(String::from).to_vec();
    for (target, at) in &view.links {
        argv.extend(["--symlink".to_string(), text(target), text(at)]);
    }
    let tmp_dir = Path::new("/tmp");
    let (in_tmp, elsewhere): (Vec<&(PathBuf, PathBuf)>, Vec<_>) =
        view.binds.iter().partition(|(_, at)| at.starts_with(tmp_dir));
    let bind = |argv: &mut Vec<String>, binds: &[&(PathBuf, PathBuf)]| {
        for (source, at) in binds {
            argv.extend(["--ro-bind".to_string(), text(source), text(at)]);
        }
    };
    bind(&mut argv, &elsewhere);
    fresh_mounts(&mut argv, tmp);
    bind(&mut argv, &in_tmp);
    for hidden in &view.hidden {
        argv.extend(["--tmpfs".to_string(), text(hidden), "--remount-ro".to_string(), text(hidden)]);
    }
    for blanked in &view.blanked {
        argv.extend(["--ro-bind".to_string(), "/dev/null".to_string(), text(blanked)]);
    }
    argv.extend(["--remount-ro", "/dev", "--remount-ro", "/"].map(String::from));
    argv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_only_when_asked_in_a_user_namespace_without_capabilities() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let bots = [BotSpec::new("b", "sh -c true", dir, Default::default()).unwrap()];
        let root = Path::new("/dev/shm/a-copy");
        assert_eq!(
            Sandbox::None.wrap(&bots[0], root, &[], Some(1 << 20)),
            Wrapped { argv: bots[0].argv.clone(), options: 0 }
        );
        let in_tmp = [PathBuf::from("/tmp/bots")];
        let Wrapped { argv: wrapped, options } = Sandbox::Bwrap.wrap(&bots[0], root, &in_tmp, Some(1 << 20));
        assert_eq!(wrapped[options + 1], "--", "every option comes before the command: {wrapped:?}");
        assert_eq!(wrapped[0], "bwrap");
        for flag in ["--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session"] {
            assert!(wrapped.contains(&flag.to_string()), "{flag}: {wrapped:?}");
        }
        let has = |pair: [&str; 2]| wrapped.windows(2).any(|w| w == pair);
        assert!(has(["--cap-drop", "ALL"]), "{wrapped:?}");
        assert!(has(["--chdir", &dir.to_string_lossy()]), "{wrapped:?}");
        assert!(has(["--ro-bind", "/proc/sys"]), "{wrapped:?}");
        assert!(
            wrapped.windows(3).any(|w| w == ["--ro-bind", "/dev/shm/a-copy", "/"]),
            "the copy is the root: {wrapped:?}"
        );
        assert!(wrapped.windows(4).any(|w| w == ["--size", "1048576", "--tmpfs", "/tmp"]), "{wrapped:?}");
        let again = ["--ro-bind", "/dev/shm/a-copy/tmp/bots", "/tmp/bots"];
        assert!(wrapped.windows(3).any(|w| w == again), "what the copy holds in /tmp, over the fresh one: {wrapped:?}");
        assert!(wrapped.windows(4).any(|w| w == ["--size", "1048576", "--tmpfs", "/dev/shm"]), "{wrapped:?}");
        let root_read_only = wrapped.windows(2).position(|w| w == ["--remount-ro", "/"]).unwrap();
        let mounts = ["--ro-bind", "--tmpfs", "--symlink", "--dev", "--proc"];
        assert!(wrapped[root_read_only..].iter().all(|arg| !mounts.contains(&arg.as_str())), "{wrapped:?}");
        assert_eq!(&wrapped[wrapped.len() - 4..], ["--", "sh", "-c", "true"]);
        let unbounded = Sandbox::Bwrap.wrap(&bots[0], root, &[], None).argv;
        assert!(!unbounded.contains(&"--size".to_string()), "tmp=none: {unbounded:?}");
        assert_eq!("bwrap".parse::<Sandbox>(), Ok(Sandbox::Bwrap));
        assert!("docker".parse::<Sandbox>().unwrap_err().to_string().contains("none and bwrap"));
    }
}
