//! What a copy of a bot's view holds, file by file (see [`super::super::copies`]):
//! the bot's own paths as [`Own`] names them, minus what the view hides;
//! of a program or interpreter installed in the system (`/usr/bin/python3`),
//! the program and the directory named after it beside the system's
//! libraries (`/usr/lib/python3.11`) instead of all of `/usr`; the ELF
//! libraries every ELF file of the copy needs, as the system's dynamic
//! loader lists them (`ld.so --list`, which runs no code of the file), taken
//! only from the system or the copy itself; the pieces of `/etc` of
//! [`ETC`] and [`ETC_INTERPRETERS`]; the links of a merged-`/usr` system;
//! and a base every program may need: the dynamic loader, `/bin/sh`,
//! `/usr/bin/env` and the UTC time zone.
//!
//! An installation outside the bot's directory is copied without its
//! third-party packages and what only building or testing it needs
//! ([`LEFT_OUT`]: Python's `site-packages`, its own test suite, its static
//! library for embedding and its graphical tools; a JDK's `jmods`), which no
//! program needs to run and which can weigh a gigabyte: every live process
//! has a copy of its own. A bot that needs packages brings them in its own
//! directory (a virtual environment there is copied whole).

use super::{ETC, ETC_INTERPRETERS, Own, SYSTEM, View, installation, interpreter, lexical, real, view};
use crate::bot::registry::Registry;
use crate::bot::spec::BotSpec;
use std::collections::{BTreeMap, HashSet};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// Directories of an installation that is not the bot's own left out of
/// its copy, by name (a name ending in `*` by its start).
pub const LEFT_OUT: [&str; 10] = [
    "site-packages",
    "dist-packages",
    "jmods",
    "test",
    "config-3*",
    "idlelib",
    "tkinter",
    "turtledemo",
    "ensurepip",
    "lib2to3",
];

/// Whether `name` is one of [`LEFT_OUT`].
fn left_out(name: &OsStr) -> bool {
    let name = name.to_string_lossy();
    LEFT_OUT.iter().any(|left| match left.strip_suffix('*') {
        Some(start) => name.starts_with(start),
        None => name == *left,
    })
}
/// What every copy holds besides the bot's own paths, where it exists.
const BASE: [&str; 6] = [
    "/bin/sh",
    "/usr/bin/env",
    "/usr/share/zoneinfo/UTC",
    "/usr/share/zoneinfo/Etc/UTC",
    "/lib64/ld-linux-x86-64.so.2",
    "/lib/ld-linux-aarch64.so.1",
];
/// The system's dynamic loaders, the first that exists lists libraries.
const LOADERS: [&str; 2] = ["/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1"];
/// Installations that are the system itself: a program there brings only itself and its own directory.
const SYSTEM_PREFIXES: [&str; 3] = ["/", "/usr", "/usr/local"];
/// The most entries a copy may hold.
pub const MOST_ENTRIES: usize = 200_000;
/// The most bytes a copy may hold: 1 GiB, the memory each process of the bot may then take besides its own.
pub const MOST_BYTES: u64 = 1 << 30;

/// One entry of a copy, at a path of the sandbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A directory.
    Dir,
    /// A copy of this host file, of this many bytes.
    File(PathBuf, u64),
    /// A symbolic link to this target.
    Link(PathBuf),
    /// An empty file (a hidden file).
    Empty,
}

/// The entries of one bot's copy, by path in the sandbox.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Every entry, parents before children.
    pub entries: BTreeMap<PathBuf, Entry>,
    /// The bytes of all its files.
    pub bytes: u64,
}

/// Builds a plan, walking host paths.
struct Builder<'a> {
    plan: Plan,
    view: &'a View,
    /// Real paths of the bot's own paths: libraries there may be copied.
    own: Vec<PathBuf>,
    /// Real paths of what the bot never sees.
    private: Vec<PathBuf>,
    /// Directories whose entries have been walked.
    walked: HashSet<PathBuf>,
    /// Whether the walk gave up (too many entries).
    full: bool,
    /// Where the loader listing libraries is recorded while it runs.
    registry: &'a Registry,
}

impl Builder<'_> {
    /// Adds the directory `at` (not its contents), and the links and
    /// directories above it; where it really is, if it exists.
    fn parents(&mut self, at: &Path) -> Option<PathBuf> {
        let mut resolved = PathBuf::from("/");
        for component in at.components().skip(1) {
            let next = resolved.join(component);
            match std::fs::symlink_metadata(&next) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    let target = std::fs::read_link(&next).ok()?;
                    self.plan.entries.entry(next.clone()).or_insert(Entry::Link(target.clone()));
                    let followed = lexical(&next.parent().unwrap_or(Path::new("/")).join(&target));
                    resolved = self.parents(&followed)?;
                }
                Ok(meta) if meta.is_dir() => {
                    self.plan.entries.entry(next.clone()).or_insert(Entry::Dir);
                    resolved = next;
                }
                _ => return None,
            }
        }
        Some(resolved)
    }

    /// Adds `path` with its parents: a file; a link and what it leads to;
    /// or a directory and everything below it (`prune`d of [`LEFT_OUT`],
    /// following links to files of the system and to the bot's own paths
    /// when `follow`).
    fn add(&mut self, path: &Path, prune: bool, follow: bool) {
        let path = lexical(path);
        let Some(parent) = path.parent() else { return };
        let Some(parent) = self.parents(parent) else { return };
        let Some(name) = path.file_name() else { return };
        self.walk(&parent.join(name), prune, follow, true);
    }

    fn walk(&mut self, path: &Path, prune: bool, follow: bool, named: bool) {
        if self.plan.entries.len() >= MOST_ENTRIES {
            self.full = true;
            return;
        }
        let hidden = self.view.hidden.iter().any(|hidden| hidden == path);
        let private = self.private.iter().any(|private| path.starts_with(private));
        let Ok(meta) = std::fs::symlink_metadata(path) else { return };
        if hidden || private || self.view.blanked.iter().any(|blanked| blanked == path) {
            let empty = if meta.is_dir() { Entry::Dir } else { Entry::Empty };
            self.plan.entries.insert(path.to_path_buf(), empty);
            return;
        }
        if meta.file_type().is_symlink() {
            let Ok(target) = std::fs::read_link(path) else { return };
            if self.plan.entries.insert(path.to_path_buf(), Entry::Link(target.clone())).is_none() {
                let followed = path.parent().unwrap_or(Path::new("/")).join(&target);
                let to = real(&followed);
                // A link leads only to what the sandbox shows anyway: a file of the system, or the bot's own.
                let system_file = self.in_system(&to) && to.is_file();
                let wanted = named || (follow && (system_file || self.own.iter().any(|own| to.starts_with(own))));
                if wanted && self.allowed(&to) {
                    self.add(&followed, prune, follow);
                }
            }
        } else if meta.is_dir() {
            self.plan.entries.insert(path.to_path_buf(), Entry::Dir);
            if !self.walked.insert(path.to_path_buf()) {
                return;
            }
            let Ok(entries) = std::fs::read_dir(path) else { return };
            let mut names: Vec<_> = entries.flatten().map(|e| e.file_name()).collect();
            names.sort();
            for name in names {
                if prune && left_out(&name) {
                    continue;
                }
                self.walk(&path.join(name), prune, follow, false);
            }
        } else if meta.is_file() && !self.plan.entries.contains_key(path) {
            self.plan.entries.insert(path.to_path_buf(), Entry::File(path.to_path_buf(), meta.len()));
            self.plan.bytes += meta.len();
        }
    }

    /// Whether (real) `path` is in the system's directories.
    fn in_system(&self, path: &Path) -> bool {
        SYSTEM.iter().filter_map(|dir| Path::new(dir).canonicalize().ok()).any(|dir| path.starts_with(dir))
    }

    /// Whether a library or a link's target at (real) `path` may be copied:
    /// in the system, or in the bot's own paths.
    fn allowed(&self, path: &Path) -> bool {
        let system = SYSTEM.iter().chain(&["/etc"]).filter_map(|dir| Path::new(dir).canonicalize().ok());
        system.into_iter().chain(self.own.iter().cloned()).any(|dir| path.starts_with(dir))
    }

    /// Adds the libraries every ELF file of the plan needs.
    fn libraries(&mut self) {
        let Some(loader) = LOADERS.iter().map(Path::new).find(|loader| loader.exists()) else { return };
        let elves: Vec<PathBuf> = self
            .plan
            .entries
            .values()
            .filter_map(|entry| match entry {
                Entry::File(source, bytes) if *bytes > 64 && is_elf(source) => Some(source.clone()),
                _ => None,
            })
            .collect();
        let mut needed: Vec<PathBuf> = Vec::new();
        for elf in elves {
            needed.extend(listed(loader, &elf, self.registry));
        }
        needed.sort();
        needed.dedup();
        for library in needed {
            if self.allowed(&real(&library)) {
                self.add(&library, false, false);
            }
        }
    }
}

/// Whether `path` starts as an ELF file does.
fn is_elf(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 4];
    std::fs::File::open(path).and_then(|mut file| file.read_exact(&mut magic)).is_ok() && magic == *b"\x7fELF"
}

/// The libraries `loader --list` finds for `elf` (it maps them, and runs no code).
fn listed(loader: &Path, elf: &Path, registry: &Registry) -> Vec<PathBuf> {
    let mut command = std::process::Command::new(loader);
    command
        .arg("--list")
        .arg(elf)
        .env_clear()
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    let Ok(child) = registry.start_companion(&mut command) else { return Vec::new() };
    let pid = child.id() as i32;
    let output = child.wait_with_output();
    registry.forget_companion(pid);
    let Ok(output) = output else { return Vec::new() };
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let path = line.split_once("=> ").map_or(line, |(_, found)| found);
            let path = path.split(" (0x").next()?.trim();
            path.starts_with('/').then(|| PathBuf::from(path))
        })
        .collect()
}

/// The programs of the system that the `#!` line of the bot's own script
/// `script` may run: the interpreter it names, if it is the system's, and
/// through `/usr/bin/env` each word that names a program of the system found
/// in `path`'s system directories (the sandbox's `env` finds nothing else).
fn system_interpreters(script: &Path, path: &OsStr, system: &[PathBuf]) -> Vec<PathBuf> {
    use std::io::Read;
    let mut start = [0u8; 256];
    let Ok(read) = std::fs::File::open(script).and_then(|mut file| file.read(&mut start)) else { return Vec::new() };
    let Some(line) = start[..read].strip_prefix(b"#!") else { return Vec::new() };
    let line = String::from_utf8_lossy(line.split(|&b| b == b'\n').next().unwrap_or_default()).into_owned();
    let in_system = |path: &Path| system.iter().any(|dir| real(path).starts_with(dir));
    let mut words = line.split_whitespace();
    let Some(first) = words.next().map(PathBuf::from) else { return Vec::new() };
    let mut found: Vec<PathBuf> = vec![first.clone()];
    if first.file_name() == Some(OsStr::new("env")) {
        for word in words.filter(|word| !word.starts_with('-') && !word.contains('=') && !word.contains('/')) {
            let dirs = std::env::split_paths(path).filter(|dir| dir.is_absolute() && in_system(dir));
            found.extend(dirs.map(|dir| dir.join(word)).find(|program| program.is_file()));
        }
    }
    found.retain(|program| program.is_absolute() && in_system(program));
    found
}

/// The paths a program brings: its installation, or, when that is the system
/// itself, the program and the directories named after it in the system's
/// `lib` and `share` (`/usr/lib/python3.11`).
fn brought(program: &Path) -> Vec<PathBuf> {
    let dir = installation(program);
    if !SYSTEM_PREFIXES.iter().any(|prefix| dir == Path::new(prefix)) && !SYSTEM.iter().any(|s| dir == Path::new(s)) {
        return vec![dir];
    }
    let mut paths = vec![program.to_path_buf()];
    if let Some(name) = program.file_name() {
        for prefix in ["/usr/lib", "/usr/share", "/usr/local/lib"] {
            let named = Path::new(prefix).join(name);
            if named.is_dir() {
                paths.push(named);
            }
        }
    }
    paths
}

/// What bot `bot` of `bots` is shown in a copy of its own, with `private`
/// (the output directory, the league file, the deals file) hidden; `None`
/// if it would hold more than [`MOST_ENTRIES`] entries.
///
/// The dynamic loader that lists libraries runs as a helper of the arena's
/// own in `registry` (see [`Registry::start_companion`]), which no sweep for
/// leftover processes kills while a run lasts.
pub fn plan(bots: &[BotSpec], bot: usize, private: &[PathBuf], registry: &Registry) -> Option<Plan> {
    let view = view(bots, bot, private);
    let spec = &bots[bot];
    let own = Own::of(spec);
    let system: Vec<PathBuf> = SYSTEM.iter().filter_map(|dir| Path::new(dir).canonicalize().ok()).collect();
    let in_system = |path: &Path| system.iter().any(|dir| real(path).starts_with(dir));
    let dir = lexical(&spec.dir);
    // The bot's own paths (an installation outside its directory pruned),
    // and what its program and interpreter bring from the system.
    let mut paths: Vec<(PathBuf, bool)> = Vec::new();
    // The kernel's file systems and `/tmp` are the sandbox's own.
    let kernel = ["/proc", "/sys", "/dev"].map(Path::new);
    for path in own.all() {
        let at = real(path);
        if !in_system(path) && at != Path::new("/tmp") && !kernel.iter().any(|dir| at.starts_with(dir)) {
            paths.push((path.clone(), !lexical(path).starts_with(&dir)));
        }
    }
    if let Some(program) = spec.program() {
        let mut programs = vec![program.clone(), real(&program)];
        if !lexical(&program).starts_with(&dir) {
            if let Some(interpreter) = interpreter(&real(&program), &spec.search_path()) {
                programs.extend([real(&interpreter), interpreter]);
            }
        } else {
            programs.extend(system_interpreters(&program, &spec.search_path(), &system));
        }
        for program in programs.iter().filter(|program| in_system(program)) {
            paths.push((program.clone(), true));
            paths.extend(brought(&real(program)).into_iter().map(|path| (path, true)));
        }
    }
    let own_real: Vec<PathBuf> = paths.iter().map(|(path, _)| real(path)).filter(|p| !in_system(p)).collect();
    let private = private.iter().map(|path| real(path)).collect();
    let mut builder = Builder {
        plan: Plan::default(),
        view: &view,
        own: own_real,
        private,
        walked: HashSet::new(),
        full: false,
        registry,
    };
    for (target, at) in &view.links {
        builder.plan.entries.insert(at.clone(), Entry::Link(target.clone()));
    }
    for dir in ["/dev", "/proc", "/tmp"] {
        builder.plan.entries.insert(PathBuf::from(dir), Entry::Dir);
    }
    for base in BASE {
        builder.add(Path::new(base), false, false);
    }
    let etc = Path::new("/etc");
    for name in ETC {
        builder.add(&etc.join(name), false, false);
    }
    if let Ok(entries) = std::fs::read_dir(etc) {
        for entry in entries.flatten() {
            if ETC_INTERPRETERS.iter().any(|start| entry.file_name().to_string_lossy().starts_with(start)) {
                builder.add(&entry.path(), false, false);
            }
        }
    }
    for (path, prune) in &paths {
        builder.add(path, *prune, true);
    }
    builder.libraries();
    (!builder.full).then_some(builder.plan)
}
