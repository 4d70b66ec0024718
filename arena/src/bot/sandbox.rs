//! Running bots inside a sandbox. With `--sandbox bwrap` each bot process
//! runs under bubblewrap: no network, a read-only view of the whole system,
//! its own empty writable `/tmp` (also its `HOME`), its own process, IPC and
//! host-name namespaces, and it dies with the arena. What the bot needs from
//! the real `/tmp` (its working directory, and the directories of the files
//! its command names) is mounted back into its private `/tmp`, read-only.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;
use std::process::{Command, Stdio};
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

impl FromStr for Sandbox {
    type Err = String;
    fn from_str(text: &str) -> Result<Sandbox, String> {
        match text {
            "none" => Ok(Sandbox::None),
            "bwrap" => Ok(Sandbox::Bwrap),
            other => Err(format!("unknown sandbox {other:?}; the sandboxes are none and bwrap")),
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
    /// Checks that the sandbox can run here, with a message saying how to fix it if not.
    pub fn check(&self) -> Result<(), String> {
        match self {
            Sandbox::None => Ok(()),
            Sandbox::Bwrap => {
                let argv = self.wrap(&["true".to_string()], Path::new("/"));
                let status = Command::new(&argv[0])
                    .args(&argv[1..])
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status();
                match status {
                    Ok(status) if status.success() => Ok(()),
                    Ok(status) => Err(format!(
                        "--sandbox bwrap: bubblewrap cannot create a sandbox here ({status}); it needs unprivileged user namespaces or a setuid bwrap"
                    )),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(
                        "--sandbox bwrap: bubblewrap is not installed (the bwrap command is missing); on Debian or Ubuntu: apt-get install bubblewrap"
                            .to_string(),
                    ),
                    Err(e) => Err(format!("--sandbox bwrap: cannot run bwrap: {e}")),
                }
            }
        }
    }

    /// The command line that runs `argv` in `dir` inside the sandbox.
    pub fn wrap(&self, argv: &[String], dir: &Path) -> Vec<String> {
        match self {
            Sandbox::None => argv.to_vec(),
            Sandbox::Bwrap => {
                let mut wrapped: Vec<String> =
                    ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
                        .iter()
                        .map(|s| s.to_string())
                        .collect();
                for path in needed_under_tmp(argv, dir) {
                    let path = path.to_string_lossy().into_owned();
                    wrapped.extend(["--ro-bind".to_string(), path.clone(), path]);
                }
                let dir = dir.to_string_lossy().into_owned();
                wrapped.extend(
                    [
                        "--unshare-all",
                        "--die-with-parent",
                        "--new-session",
                        "--setenv",
                        "HOME",
                        "/tmp",
                        "--setenv",
                        "TMPDIR",
                        "/tmp",
                        "--chdir",
                        &dir,
                        "--",
                    ]
                    .iter()
                    .map(|s| s.to_string()),
                );
                wrapped.extend(argv.iter().cloned());
                wrapped
            }
        }
    }
}

/// The directories under `/tmp` that a bot running `argv` in `dir` needs:
/// `dir` itself and, for every absolute path in `argv` that exists, the
/// directory it names or holds (a script's imports sit beside it). Outermost
/// only, in order.
fn needed_under_tmp(argv: &[String], dir: &Path) -> Vec<std::path::PathBuf> {
    let tmp = Path::new("/tmp");
    let mut wanted: Vec<std::path::PathBuf> = std::iter::once(dir.to_path_buf())
        .chain(argv.iter().filter(|arg| arg.starts_with('/')).filter_map(|arg| {
            let path = Path::new(arg);
            if path.is_dir() {
                Some(path.to_path_buf())
            } else if path.is_file() {
                path.parent().map(Path::to_path_buf)
            } else {
                None
            }
        }))
        .filter(|path| path.starts_with(tmp) && path != tmp)
        .collect();
    wanted.sort();
    wanted.dedup();
    let outermost: Vec<std::path::PathBuf> =
        wanted.iter().filter(|p| !wanted.iter().any(|q| q != *p && p.starts_with(q))).cloned().collect();
    outermost
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_only_when_asked() {
        let argv = vec!["python3".to_string(), "bot.py".to_string()];
        assert_eq!(Sandbox::None.wrap(&argv, Path::new("/bots")), argv);
        let wrapped = Sandbox::Bwrap.wrap(&argv, Path::new("/bots"));
        assert_eq!(wrapped[0], "bwrap");
        assert!(wrapped.windows(2).any(|w| w == ["--chdir", "/bots"]));
        assert!(wrapped.contains(&"--unshare-all".to_string()));
        assert_eq!(&wrapped[wrapped.len() - 3..], ["--", "python3", "bot.py"]);
        assert_eq!("bwrap".parse::<Sandbox>(), Ok(Sandbox::Bwrap));
        // What the bot needs from the real /tmp comes back in, read-only.
        let scratch = std::env::temp_dir().join(format!("arena-sandbox-test-{}", std::process::id()));
        std::fs::create_dir_all(scratch.join("bots/lib")).unwrap();
        std::fs::write(scratch.join("bots/bot.py"), "").unwrap();
        let script = scratch.join("bots/bot.py").to_string_lossy().into_owned();
        let argv = vec!["python3".to_string(), script, "/tmp".to_string(), "/no/such".to_string()];
        let needed = needed_under_tmp(&argv, &scratch.join("bots/lib"));
        if scratch.starts_with("/tmp") {
            assert_eq!(needed, vec![scratch.join("bots")]);
            let wrapped = Sandbox::Bwrap.wrap(&argv, &scratch.join("bots/lib"));
            let bots = scratch.join("bots").to_string_lossy().into_owned();
            assert!(wrapped.windows(3).any(|w| w == ["--ro-bind", bots.as_str(), bots.as_str()]), "{wrapped:?}");
        }
        std::fs::remove_dir_all(&scratch).unwrap();
        assert!("docker".parse::<Sandbox>().unwrap_err().contains("none and bwrap"));
    }
}
