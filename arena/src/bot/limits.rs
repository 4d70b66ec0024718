//! Resource limits applied to every bot process (with `setrlimit`, between
//! fork and exec, and, for the size of a sandboxed bot's private `/tmp`, by
//! the sandbox), so that one bot cannot take the machine down with it.

use nix::sys::resource::{Resource, getrlimit, setrlimit};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::os::unix::process::CommandExt;
use std::process::Stdio;

/// The limits of one bot process; `None` is unlimited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResourceLimits {
    /// CPU seconds the process may use over its whole life (`RLIMIT_CPU`).
    pub cpu_seconds: Option<u64>,
    /// Bytes of virtual address space (`RLIMIT_AS`).
    pub address_space: Option<u64>,
    /// Processes (and threads) of the bot's user (`RLIMIT_NPROC`, which does
    /// not bind root; under the sandbox it bounds the bot's control group too).
    pub processes: Option<u64>,
    /// The largest file the bot may write, in bytes (`RLIMIT_FSIZE`).
    pub file_size: Option<u64>,
    /// Open file descriptors (`RLIMIT_NOFILE`).
    pub open_files: Option<u64>,
    /// Bytes a sandboxed bot may keep in its private `/tmp`, and again in
    /// `/dev/shm`: memory-backed file systems (not an rlimit: the sandbox
    /// sizes them). Read back from a league written before it existed, the default.
    #[serde(default = "default_tmp")]
    pub tmp: Option<u64>,
    /// Processes (and threads) of one sandboxed bot, all its processes
    /// together, where the arena can make a control group for each bot (see
    /// [`super::cgroup`]). Read back from an older league, the default.
    #[serde(default = "default_bot_processes")]
    pub bot_processes: Option<u64>,
    /// Bytes of memory of one sandboxed bot, all its processes together
    /// (their `/tmp` and `/dev/shm` included), likewise.
    #[serde(default = "default_bot_memory")]
    pub bot_memory: Option<u64>,
}

/// 64 MiB.
fn default_tmp() -> Option<u64> {
    Some(64 << 20)
}

/// 256 processes and threads.
fn default_bot_processes() -> Option<u64> {
    Some(256)
}

/// 8 GiB.
fn default_bot_memory() -> Option<u64> {
    Some(8 << 30)
}

impl Default for ResourceLimits {
    /// 8 GiB of address space, 64 MiB files, 1024 open files, 64 MiB of
    /// `/tmp`; CPU time and processes unlimited (long leagues keep a process
    /// for thousands of games, and the process limit counts every process of
    /// the user).
    fn default() -> Self {
        ResourceLimits {
            cpu_seconds: None,
            address_space: Some(8 << 30),
            processes: None,
            file_size: Some(64 << 20),
            open_files: Some(1024),
            tmp: default_tmp(),
            bot_processes: default_bot_processes(),
            bot_memory: default_bot_memory(),
        }
    }
}

/// Why a limit cannot be set, or cannot be given to bots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LimitError {
    /// `--limit` without `=`.
    NotNameValue {
        /// The flag's value.
        text: String,
    },
    /// A name not among [`NAMES`].
    UnknownLimit {
        /// The name, trimmed.
        name: String,
    },
    /// The value is not an amount.
    BadAmount {
        /// The limit's name.
        name: String,
        /// The value, trimmed.
        value: String,
        /// Why.
        why: AmountError,
    },
    /// A `tmp` of 0 bytes (a tmpfs of size 0 would have no bound at all).
    EmptyTmp {
        /// The limit's name.
        name: String,
        /// The value, trimmed.
        value: String,
    },
    /// The arena's own limit cannot be read.
    Unreadable {
        /// The limit's name.
        name: &'static str,
        /// The system's reason.
        error: nix::errno::Errno,
    },
    /// `processes` asked of an arena running as root, which the per-process
    /// limit does not bind, where no control group can bound the bot instead.
    ProcessesAsRoot {
        /// The limit asked for.
        limit: u64,
    },
    /// The limit is above the arena's own hard limit, which only a privileged process may raise.
    AboveHard {
        /// The limit's name.
        name: &'static str,
        /// The limit.
        limit: u64,
        /// The arena's hard limit.
        hard: u64,
    },
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitError::NotNameValue { text } => {
                write!(f, "--limit {text:?}: expected NAME=VALUE, e.g. address-space=2G")
            }
            LimitError::UnknownLimit { name } => {
                write!(f, "--limit: unknown limit {name:?}; the limits are {}", NAMES.join(", "))
            }
            LimitError::BadAmount { name, value, why } => write!(f, "--limit {name}={value}: {why}"),
            LimitError::EmptyTmp { name, value } => {
                write!(f, "--limit {name}={value}: the size must be at least 1 byte, or none")
            }
            LimitError::Unreadable { name, error } => write!(f, "cannot read the arena's {name} limit: {error}"),
            LimitError::ProcessesAsRoot { limit } => write!(
                f,
                "--limit processes={limit}: the arena runs as root, whose processes the kernel's per-process limit \
                 does not bind; as root it holds only under --sandbox bwrap where the arena can make control groups \
                 (/sys/fs/cgroup writable), bounding each bot's processes all together as --limit \
                 bot-processes={limit} does; or run the arena as an ordinary user"
            ),
            LimitError::AboveHard { name, limit, hard } => write!(
                f,
                "--limit {name}={}: the arena's own hard limit is {}, and only a privileged process may raise it; \
                 give bots --limit {name}={} or less (or none), or start the arena with a higher hard limit",
                amount(*limit),
                amount(*hard),
                amount(*hard)
            ),
        }
    }
}

impl std::error::Error for LimitError {}

/// Why a limit's value is not an amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AmountError {
    /// Neither a number nor `none`.
    NotANumber,
    /// A unit other than K, M or G.
    BadUnit,
    /// More than a `u64` holds.
    TooLarge,
}

impl fmt::Display for AmountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AmountError::NotANumber => "expected a number or none",
            AmountError::BadUnit => "the unit must be K, M or G",
            AmountError::TooLarge => "too large",
        })
    }
}

impl std::error::Error for AmountError {}

/// Declares the table of limits: each row the name that `--limit` and a
/// league file's `[limits]` take, the field of [`ResourceLimits`] that
/// holds it, the rlimit that applies it (`None`: the sandbox or the bot's
/// control group does), and what it bounds, in what: a `Count` or `Bytes`
/// (for the help text of `--limit`).
macro_rules! limits {
    ($( $name:literal => $field:ident, $rlimit:expr, $unit:ident $about:literal; )*) => {
        /// The names of the limits, as given to `--limit NAME=VALUE`.
        pub const NAMES: [&str; [$($name),*].len()] = [$($name),*];

        /// What each limit bounds, and in what, in the order of [`NAMES`].
        const ABOUT: [(&str, Unit); NAMES.len()] = [$( ($about, Unit::$unit) ),*];

        impl ResourceLimits {
            /// The field of the limit named `name`, if there is one.
            fn slot(&mut self, name: &str) -> Option<&mut Option<u64>> {
                match name {
                    $( $name => Some(&mut self.$field), )*
                    _ => None,
                }
            }

            /// Every limit: its name, the rlimit that applies it, its value.
            fn rows(&self) -> [(&'static str, Option<Resource>, Option<u64>); NAMES.len()] {
                [$( ($name, $rlimit, self.$field) ),*]
            }
        }
    };
}

/// What a limit is counted in.
#[derive(Debug, Clone, Copy)]
enum Unit {
    /// Things: seconds, processes, descriptors.
    Count,
    /// Bytes, shown with K, M or G.
    Bytes,
}

limits! {
    "cpu" => cpu_seconds, Some(Resource::RLIMIT_CPU), Count "CPU seconds over a process's life";
    "address-space" => address_space, Some(Resource::RLIMIT_AS), Bytes "a process's address space";
    "processes" => processes, Some(Resource::RLIMIT_NPROC), Count "processes and threads of the user";
    "file-size" => file_size, Some(Resource::RLIMIT_FSIZE), Bytes "the largest file written";
    "open-files" => open_files, Some(Resource::RLIMIT_NOFILE), Count "open file descriptors";
    "tmp" => tmp, None, Bytes "a sandboxed bot's /tmp, and again its /dev/shm";
    "bot-processes" => bot_processes, None, Count "processes and threads of a sandboxed bot, together";
    "bot-memory" => bot_memory, None, Bytes "memory of a sandboxed bot's processes, together";
}

/// The help text of `--limit`, for every command that takes it: each limit,
/// what it bounds and its default, from the table.
pub fn help() -> String {
    let defaults = ResourceLimits::default().rows();
    let limits = defaults.iter().zip(ABOUT).map(|((name, _, default), (about, unit))| {
        let default = match (default, unit) {
            (None, _) => "none".to_string(),
            (Some(value), Unit::Count) => value.to_string(),
            (Some(value), Unit::Bytes) => amount(*value),
        };
        format!("{name} ({about}; default {default})")
    });
    format!(
        "A resource limit of the bots, NAME=VALUE (repeatable): {}; a number (sizes may end in K, M or G) or none, \
         which lifts it (see docs/bots.md, \"Bot processes\")",
        limits.collect::<Vec<_>>().join(", ")
    )
}

impl ResourceLimits {
    /// Sets one limit from `NAME=VALUE`: a number (sizes may end in K, M or G) or `none`.
    pub fn set(&mut self, text: &str) -> Result<(), LimitError> {
        let (name, value) = text.split_once('=').ok_or_else(|| LimitError::NotNameValue { text: text.to_string() })?;
        let (name, value) = (name.trim(), value.trim());
        let Some(slot) = self.slot(name) else {
            return Err(LimitError::UnknownLimit { name: name.to_string() });
        };
        let amount = parse_amount(value).map_err(|why| LimitError::BadAmount {
            name: name.to_string(),
            value: value.to_string(),
            why,
        })?;
        if name == "tmp" && amount == Some(0) {
            // A tmpfs of size 0 would have no bound at all.
            return Err(LimitError::EmptyTmp { name: name.to_string(), value: value.to_string() });
        }
        *slot = amount;
        Ok(())
    }

    /// Each limit set with `setrlimit`, with its name and resource (all but
    /// those the sandbox or a control group applies).
    fn entries(&self) -> impl Iterator<Item = (&'static str, Resource, Option<u64>)> {
        self.rows().into_iter().filter_map(|(name, resource, limit)| Some((name, resource?, limit)))
    }

    /// Applies the limits to the calling process (all but `tmp`). Meant for
    /// the child between fork and exec: it makes only `setrlimit` system calls.
    pub fn apply(&self) -> std::io::Result<()> {
        for (_, resource, limit) in self.entries() {
            if let Some(limit) = limit {
                setrlimit(resource, limit, limit).map_err(std::io::Error::from)?;
            }
        }
        Ok(())
    }

    /// The most processes and threads of a sandboxed bot's control group:
    /// `bot-processes`, and `processes` too, which binds no process of root,
    /// so that what the user asked for holds whoever runs the arena.
    pub fn group_processes(&self) -> Option<u64> {
        match (self.bot_processes, self.processes) {
            (Some(bot), Some(each)) => Some(bot.min(each)),
            (bot, each) => bot.or(each),
        }
    }

    /// Checks, before any bot starts, that bot processes can be given these
    /// limits: one above the arena's own hard limit can be set only by a
    /// privileged process, so it is tried in a short-lived child (the arena
    /// printing its version); `processes` asked of an arena running as root
    /// holds only through each bot's control group (see
    /// [`group_processes`](Self::group_processes)), so it is refused where
    /// the bots get none (`grouped` false: no sandbox, or no writable
    /// cgroups). Says which limit cannot be set and what to do.
    pub fn check(&self, grouped: bool) -> Result<(), LimitError> {
        // SAFETY: geteuid takes nothing and cannot fail.
        let root = unsafe { nix::libc::geteuid() } == 0;
        if let (Some(limit), true, false) = (self.processes, root, grouped) {
            return Err(LimitError::ProcessesAsRoot { limit });
        }
        for (name, resource, limit) in self.entries() {
            let Some(limit) = limit else { continue };
            let (_, hard) = getrlimit(resource).map_err(|error| LimitError::Unreadable { name, error })?;
            if hard == nix::sys::resource::RLIM_INFINITY || limit <= hard || can_raise(resource, limit) {
                continue;
            }
            return Err(LimitError::AboveHard { name, limit, hard });
        }
        Ok(())
    }
}

/// Whether a child process may set `resource` to `limit`.
fn can_raise(resource: Resource, limit: u64) -> bool {
    let Ok(arena) = std::env::current_exe() else { return false };
    let mut probe = std::process::Command::new(arena);
    probe.arg("--version").stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    // SAFETY: the closure runs between fork and exec and makes one setrlimit call.
    unsafe {
        probe.pre_exec(move || setrlimit(resource, limit, limit).map_err(std::io::Error::from));
    }
    probe.status().is_ok_and(|status| status.success())
}

/// A limit as `--limit` takes it: with a K, M or G suffix when it is a whole multiple.
fn amount(value: u64) -> String {
    match [(30, "G"), (20, "M"), (10, "K")]
        .iter()
        .find(|&&(shift, _)| value >= 1 << shift && value.is_multiple_of(1 << shift))
    {
        Some(&(shift, unit)) => format!("{}{unit}", value >> shift),
        None => value.to_string(),
    }
}

impl fmt::Display for ResourceLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows =
            self.rows().map(|(name, _, v)| format!("{name}={}", v.map_or("none".to_string(), |v| v.to_string())));
        f.write_str(&rows.join(" "))
    }
}

/// `none`, or a number with an optional K, M or G (binary) suffix.
fn parse_amount(text: &str) -> Result<Option<u64>, AmountError> {
    if text.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (digits, unit) = text.split_at(split);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        _ if digits.is_empty() => return Err(AmountError::NotANumber),
        _ => return Err(AmountError::BadUnit),
    };
    let number: u64 = digits.parse().map_err(|_| AmountError::NotANumber)?;
    number.checked_shl(shift).filter(|v| v >> shift == number).map(Some).ok_or(AmountError::TooLarge)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_limits() {
        let mut limits = ResourceLimits::default();
        limits.set("address-space=512M").unwrap();
        limits.set("cpu=60").unwrap();
        limits.set("open-files=none").unwrap();
        limits.set(" file-size = 2G ").unwrap();
        assert_eq!(limits.tmp, Some(64 << 20), "the default bound of a sandboxed /tmp");
        limits.set("tmp=8M").unwrap();
        assert_eq!(limits.tmp, Some(8 << 20));
        limits.set("bot-processes=500").unwrap();
        limits.set("bot-memory=1G").unwrap();
        assert_eq!((limits.bot_processes, limits.bot_memory), (Some(500), Some(1 << 30)));
        assert_eq!(limits.address_space, Some(512 << 20));
        assert_eq!(limits.cpu_seconds, Some(60));
        assert_eq!(limits.open_files, None);
        assert_eq!(limits.file_size, Some(2 << 30));
        for (bad, why) in [
            ("memory=1G", "unknown limit"),
            ("cpu", "expected NAME=VALUE"),
            ("cpu=fast", "expected a number"),
            ("file-size=3T", "unit"),
            ("file-size=99999999999G", "too large"),
            ("tmp=0", "at least 1 byte"),
        ] {
            let err = limits.set(bad).unwrap_err().to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn a_league_written_before_the_tmp_limit_gets_the_default() {
        let old = r#"{"cpu_seconds":null,"address_space":1024,"processes":null,"file_size":null,"open_files":null}"#;
        let limits: ResourceLimits = serde_json::from_str(old).unwrap();
        assert_eq!(limits.tmp, ResourceLimits::default().tmp);
        assert_eq!(limits.bot_memory, ResourceLimits::default().bot_memory);
        assert_eq!(limits.address_space, Some(1024));
    }

    #[test]
    fn the_help_of_limit_names_each_limit_with_its_default() {
        let help = help();
        for name in NAMES {
            assert!(help.contains(&format!("{name} (")), "{name} is not in {help}");
        }
        assert!(help.contains("open-files (open file descriptors; default 1024)"), "{help}");
        assert!(help.contains("bot-memory (memory of a sandboxed bot's processes, together; default 8G)"), "{help}");
        assert!(help.contains("cpu (CPU seconds over a process's life; default none)"), "{help}");
    }

    #[test]
    fn amounts_read_as_limits_are_written() {
        assert_eq!(amount(8 << 30), "8G");
        assert_eq!(amount(1536 << 20), "1536M");
        assert_eq!(amount(1024), "1K");
        assert_eq!(amount(1000), "1000");
    }

    #[test]
    fn limits_within_the_arena_s_own_pass_the_check() {
        // The arena's hard limits here are at least the defaults' or unlimited;
        // a limit of none is never checked.
        let mut limits = ResourceLimits::default();
        limits.set("address-space=none").unwrap();
        limits.set("file-size=1M").unwrap();
        limits.set("open-files=16").unwrap();
        assert_eq!(limits.check(false), Ok(()));
    }
}
