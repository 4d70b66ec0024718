//! Running bots inside a sandbox. With `--sandbox bwrap` each bot process
//! runs under bubblewrap: no network, a read-only view of the whole system,
//! its own empty writable `/tmp` (also its `HOME`), its own process, IPC and
//! host-name namespaces, and it dies with the arena.

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
                let dir = dir.to_string_lossy().into_owned();
                let mut wrapped: Vec<String> = [
                    "bwrap",
                    "--ro-bind",
                    "/",
                    "/",
                    "--dev",
                    "/dev",
                    "--proc",
                    "/proc",
                    "--tmpfs",
                    "/tmp",
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
                .map(|s| s.to_string())
                .collect();
                wrapped.extend(argv.iter().cloned());
                wrapped
            }
        }
    }
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
        assert!("docker".parse::<Sandbox>().unwrap_err().contains("none and bwrap"));
    }
}
