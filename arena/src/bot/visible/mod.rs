//! What a sandboxed bot sees of the file system, all of it read-only: the
//! system directories programs need to run, its own files and its
//! interpreter's installation. Nothing else exists for it: never the arena's
//! output directory, the league file or the deals file, and not the
//! directories of the other bots (unless it shares them).
//!
//! A bot's own files are its working directory and the directories of the
//! files its command names (an argument naming a file shows the directory
//! holding it; one naming a directory shows that directory). Its program is
//! found like a shell finds it (through the bot's `PATH`); a program in a
//! `bin`, `sbin` or `shims` directory is shown with the directory above it,
//! its installation (`lib/` beside `bin/`: a Python, Node or Java installed
//! in a home directory, a virtual environment, pyenv), unless that is `/` or
//! the home directory.
//!
//! Nothing a bot's files say decides what it sees: what the operator's
//! command, `PATH` and the system name is shown, and a link or a `#!` line is
//! followed only where it is not the bot's. A program outside the bot's
//! directory (found through `PATH`, or named there by the command) is shown
//! with its real file's installation and the interpreter its `#!` line
//! names; a program inside the bot's directory is shown where it is, and a
//! path of the bot's directory that is a link leading out of it (to
//! anything but the system) is not shown at all.

use super::spec::{BotSpec, find_in_path};
use std::ffi::OsStr;
use std::fmt;
use std::path::{Component, Path, PathBuf};

pub mod plan;
mod records;

/// The system directories every sandboxed bot sees: the programs and
/// libraries. Those that are symbolic links on the host (`/bin` on a
/// merged-`/usr` system) are links in the sandbox too.
pub const SYSTEM: [&str; 7] = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/// What of `/etc` a sandboxed bot sees: what dynamic linking, time zones,
/// user names and the alternatives of interpreters (`/usr/bin/java` is a link
/// through `/etc/alternatives`) need.
pub const ETC: [&str; 8] =
    ["ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "alternatives", "passwd", "group", "nsswitch.conf"];

/// The directories of `/etc` holding interpreters' own configuration, by the
/// start of their names (`java-17-openjdk`, `python3.11`).
pub const ETC_INTERPRETERS: [&str; 2] = ["java", "python"];

/// Directories that hold an installation's programs.
const PROGRAM_DIRS: [&str; 3] = ["bin", "sbin", "shims"];

/// What one sandboxed bot sees, as the sandbox mounts it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct View {
    /// Symbolic links to recreate: (target, where).
    pub links: Vec<(PathBuf, PathBuf)>,
    /// Host paths shown read-only: (source, where), parents first. Most are
    /// shown where they are; one reached through a symbolic link is shown at
    /// that path too.
    pub binds: Vec<(PathBuf, PathBuf)>,
    /// Directories inside those shown that are covered by an empty one, outermost only.
    pub hidden: Vec<PathBuf>,
    /// Files inside those shown (and outside `hidden`) that are covered by an empty one.
    pub blanked: Vec<PathBuf>,
}

/// A bot's own paths, absolute.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Own {
    /// What it cannot run without: its working directory, and its program's
    /// and interpreter's directories (or installations).
    essential: Vec<PathBuf>,
    /// The directories of the other files its command names.
    named: Vec<PathBuf>,
}

impl Own {
    fn of(bot: &BotSpec) -> Own {
        let mut essential = vec![bot.dir.clone()];
        if let Some(program) = bot.program() {
            essential.push(installation(&program));
            if !lexical(&program).starts_with(lexical(&bot.dir)) {
                let real_program = real(&program);
                essential.push(installation(&real_program));
                if let Some(interpreter) = interpreter(&real_program, &bot.search_path()) {
                    essential.extend([installation(&interpreter), installation(&real(&interpreter))]);
                }
            }
        }
        let named = bot.argv.iter().skip(1).filter(|arg| !arg.starts_with('-')).filter_map(|arg| {
            let path = bot.dir.join(arg);
            let meta = std::fs::metadata(&path).ok()?;
            if meta.is_dir() { Some(path) } else { path.parent().map(Path::to_path_buf) }
        });
        let mut own = Own { essential, named: named.collect() };
        let followed = |path: &PathBuf| !leads_out(bot, path);
        own.essential.retain(followed);
        own.named.retain(followed);
        own
    }

    fn all(&self) -> impl Iterator<Item = &PathBuf> {
        self.essential.iter().chain(&self.named)
    }
}

/// Whether `path`, in `bot`'s directory, is (or goes through) a link that
/// leads out of it, to anything but the system: the bot wrote it, so it
/// decides nothing the bot sees.
fn leads_out(bot: &BotSpec, path: &Path) -> bool {
    let dir = lexical(&bot.dir);
    if !lexical(path).starts_with(&dir) {
        return false;
    }
    let target = real(path);
    let system = SYSTEM.iter().filter_map(|dir| Path::new(dir).canonicalize().ok());
    !target.starts_with(real(&dir)) && !system.into_iter().any(|dir| target.starts_with(dir))
}

/// `path` made absolute with `.` and `..` resolved as written (no link followed).
fn lexical(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut clean = PathBuf::new();
    for component in absolute.components() {
        match component {
            Component::ParentDir => {
                clean.pop();
            }
            Component::CurDir => {}
            other => clean.push(other),
        }
    }
    clean
}

/// The system part of every view: the links and binds of [`SYSTEM`] and
/// [`ETC`] that exist here.
pub fn system() -> View {
    let mut view = View::default();
    for dir in SYSTEM.map(PathBuf::from) {
        match std::fs::symlink_metadata(&dir) {
            Ok(meta) if meta.file_type().is_symlink() => {
                if let Ok(target) = std::fs::read_link(&dir) {
                    view.links.push((target, dir));
                }
            }
            Ok(meta) if meta.is_dir() => view.binds.push((dir.clone(), dir)),
            _ => {}
        }
    }
    let etc = Path::new("/etc");
    let mut pieces: Vec<PathBuf> = ETC.iter().map(|name| etc.join(name)).filter(|path| path.exists()).collect();
    if let Ok(entries) = std::fs::read_dir(etc) {
        let mut interpreters: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| ETC_INTERPRETERS.iter().any(|start| e.file_name().to_string_lossy().starts_with(start)))
            .filter(|e| e.path().is_dir())
            .map(|e| e.path())
            .collect();
        interpreters.sort();
        pieces.extend(interpreters);
    }
    view.binds.extend(pieces.into_iter().map(|path| (path.clone(), path)));
    view
}

/// What bot `bot` of `bots` sees: the system, its own paths, and not
/// `private` (the output directory, the league file, the deals file) nor
/// the other bots' paths.
pub fn view(bots: &[BotSpec], bot: usize, private: &[PathBuf]) -> View {
    let mut view = system();
    let system_dirs: Vec<PathBuf> =
        view.binds.iter().map(|(source, _)| source.clone()).chain([PathBuf::from("/etc")]).collect();
    let private: Vec<PathBuf> = private.iter().map(|path| real(path)).collect();
    let inside_private = |path: &Path| private.iter().any(|dir| path.starts_with(dir));
    let own = Own::of(&bots[bot]);
    let mut shown: Vec<PathBuf> = own.essential.clone();
    shown.extend(own.named.iter().filter(|path| !inside_private(&real(path))).cloned());
    let own_real: Vec<PathBuf> = shown.iter().map(|path| real(path)).collect();
    let mut binds = view.binds.clone();
    for path in &shown {
        let source = real(path);
        if source == Path::new("/tmp") {
            continue; // the bot's own private /tmp stays
        }
        if plain(path) && *path != source {
            binds.push((source.clone(), path.clone()));
        }
        binds.push((source.clone(), source));
    }
    binds.sort_by(|a, b| a.1.cmp(&b.1));
    binds.dedup();
    let redundant = |(source, at): &(PathBuf, PathBuf)| {
        binds.iter().any(|(outer_source, outer_at)| {
            (outer_source, outer_at) != (source, at)
                && at.starts_with(outer_at)
                && *source == outer_source.join(at.strip_prefix(outer_at).expect("at is inside"))
        })
    };
    view.binds = binds.iter().filter(|bind| !redundant(bind)).cloned().collect();

    let others = bots
        .iter()
        .enumerate()
        .filter(|&(index, _)| index != bot)
        .flat_map(|(_, other)| Own::of(other).all().map(|path| real(path)).collect::<Vec<_>>())
        .filter(|path| !system_dirs.iter().any(|dir| path.starts_with(dir)))
        .filter(|path| !own_real.iter().any(|own| own.starts_with(path)));
    let mut hidden: Vec<PathBuf> = Vec::new();
    let mut blanked: Vec<PathBuf> = Vec::new();
    for (target, strictly) in private.iter().map(|dir| (dir.clone(), false)).chain(others.map(|path| (path, true))) {
        let file = target.is_file();
        for (source, at) in &view.binds {
            if target.starts_with(source) && !(strictly && target == *source) {
                let covered = at.join(target.strip_prefix(source).expect("target is inside"));
                if file { blanked.push(covered) } else { hidden.push(covered) }
            }
        }
    }
    hidden.sort();
    hidden.dedup();
    view.hidden = hidden
        .iter()
        .filter(|path| !hidden.iter().any(|outer| outer != *path && path.starts_with(outer)))
        .cloned()
        .collect();
    blanked.sort();
    blanked.dedup();
    blanked.retain(|file| !view.hidden.iter().any(|dir| file.starts_with(dir)));
    view.blanked = blanked;
    view
}

/// Why bots cannot run sandboxed with the files private to the run hidden from them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A system directory that every sandboxed bot needs lies inside a private one.
    HoldsSystem {
        /// The private directory.
        inside: PathBuf,
        /// The system directory.
        dir: PathBuf,
    },
    /// A bot's working directory, program or interpreter lies inside a private one.
    NeedsPrivate {
        /// The bot's name.
        bot: String,
        /// What the bot needs.
        path: PathBuf,
        /// The private directory it is in.
        inside: PathBuf,
    },
    /// A directory of a bot's own is `/` or the home directory.
    SeesAll {
        /// The bot's name.
        bot: String,
        /// The directory.
        dir: PathBuf,
    },
    /// A copy of what a bot sees would be too large.
    TooLarge {
        /// The bot's name.
        bot: String,
        /// The bytes of its files, if they could be counted.
        bytes: Option<u64>,
    },
    /// A directory shown to a bot (its own, or its program's or
    /// interpreter's installation) holds another run's records.
    SeesRecords {
        /// The bot's name.
        bot: String,
        /// The records found.
        found: PathBuf,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::HoldsSystem { inside, dir } => write!(
                f,
                "the output directory {} holds {}, which every sandboxed bot needs; write the output elsewhere (--out)",
                inside.display(),
                dir.display()
            ),
            Refusal::NeedsPrivate { bot, path, inside } => write!(
                f,
                "bot {bot:?} needs {}, which is inside {}; sandboxed bots never see the output directory, the league \
                 file nor the deals file: write the output elsewhere (--out) or move the bot",
                path.display(),
                inside.display()
            ),
            Refusal::SeesAll { bot, dir } => write!(
                f,
                "bot {bot:?} would see all of {} (its directory, or one its command names): a sandboxed bot sees its \
                 own directories whole; give it a directory of its own (`dir` in a league file, or run the arena \
                 from one)",
                dir.display()
            ),
            Refusal::TooLarge { bot, bytes } => write!(
                f,
                "bot {bot:?} would see {} (its directories, its program's and interpreter's installations and their \
                 libraries), more than the {} MiB each of its processes may get as a copy in memory: give it a \
                 directory of its own holding only what it needs to run (`dir` in a league file, or run the arena \
                 from one), and name its interpreter itself rather than a launcher (a pyenv shim shows every \
                 version: `$(pyenv which python3)`)",
                match bytes {
                    Some(bytes) => format!("{} MiB", bytes.div_ceil(1 << 20)),
                    None => format!("more than {} files", plan::MOST_ENTRIES),
                },
                plan::MOST_BYTES >> 20
            ),
            Refusal::SeesRecords { bot, found } => write!(
                f,
                "bot {bot:?} would see {}, another run's records (they tell the deals and the seed); move them out of \
                 the bot's directory, or give the bot a directory of its own (`dir` in a league file)",
                found.display()
            ),
        }
    }
}

impl std::error::Error for Refusal {}

/// Why the bots cannot run sandboxed with `private` (the output directory,
/// the league file, the deals file) hidden from them, if they cannot: a
/// bot's working directory, program or interpreter, or a system directory,
/// lies inside one of them; a directory of a bot's own is `/` or the home
/// directory (it would show everything); or it holds another run's records
/// (another shard's, an earlier run's), which tell the deals.
pub fn refusal(bots: &[BotSpec], private: &[PathBuf]) -> Option<Refusal> {
    let private: Vec<PathBuf> = private.iter().map(|path| real(path)).collect();
    if let Some(why) = system_refusal(&private) {
        return Some(why);
    }
    for bot in bots {
        let own = Own::of(bot);
        let dirs = match own_refusal(bot, &own, &private) {
            Ok(dirs) => dirs,
            Err(why) => return Some(why),
        };
        // Every directory of the bot's own that its copy shows, its program's
        // and interpreter's installations included (the system's are not
        // searched: no run writes there).
        let system: Vec<PathBuf> = SYSTEM.iter().filter_map(|dir| Path::new(dir).canonicalize().ok()).collect();
        let mut shown = dirs.clone();
        shown.extend(
            own.essential.iter().map(|path| real(path)).filter(|path| !system.iter().any(|s| path.starts_with(s))),
        );
        if let Some(found) = shown.iter().find_map(|dir| records::find(dir, &private)) {
            return Some(Refusal::SeesRecords { bot: bot.name.clone(), found });
        }
    }
    None
}

/// Why a game engine program (`engine`, as a bot's command and directory)
/// cannot run sandboxed with `private` hidden from it, if it cannot: as for
/// a bot, a system directory, or its working directory, program or
/// interpreter, lies inside one of them, or a directory of its own is `/` or
/// the home directory. (Other runs' records are no secret from an engine,
/// which deals every game itself.)
pub fn engine_refusal(engine: &BotSpec, private: &[PathBuf]) -> Option<Refusal> {
    let private: Vec<PathBuf> = private.iter().map(|path| real(path)).collect();
    system_refusal(&private).or_else(|| own_refusal(engine, &Own::of(engine), &private).err())
}

/// The refusal when a system directory lies inside one of `private` (real paths).
fn system_refusal(private: &[PathBuf]) -> Option<Refusal> {
    let holder = |path: &Path| private.iter().find(|dir| real(path).starts_with(dir));
    let (dir, inside) = system().binds.iter().find_map(|(dir, _)| holder(dir).map(|p| (dir.clone(), p.clone())))?;
    Some(Refusal::HoldsSystem { inside, dir })
}

/// `bot`'s own directories (its working directory and those its command
/// names, real), or why it cannot have them: what it cannot run without
/// lies inside one of `private` (real paths), or one of them is `/` or the
/// home directory.
fn own_refusal(bot: &BotSpec, own: &Own, private: &[PathBuf]) -> Result<Vec<PathBuf>, Refusal> {
    let holder = |path: &Path| private.iter().find(|dir| real(path).starts_with(dir));
    if let Some((path, inside)) = own.essential.iter().find_map(|path| holder(path).map(|p| (path, p))) {
        return Err(Refusal::NeedsPrivate { bot: bot.name.clone(), path: path.clone(), inside: inside.clone() });
    }
    let home = std::env::var_os("HOME").map(|home| real(Path::new(&home)));
    let dirs: Vec<PathBuf> = [bot.dir.clone()].into_iter().chain(own.named.clone()).map(|dir| real(&dir)).collect();
    if let Some(dir) = dirs.iter().find(|dir| *dir == Path::new("/") || Some(*dir) == home.as_ref()) {
        return Err(Refusal::SeesAll { bot: bot.name.clone(), dir: dir.clone() });
    }
    Ok(dirs)
}

/// `path` made absolute, with every link resolved; a part that does not
/// exist (yet) is kept as it is.
fn real(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    if let Ok(resolved) = absolute.canonicalize() {
        return resolved;
    }
    match (absolute.parent(), absolute.file_name()) {
        (Some(parent), Some(name)) => real(parent).join(name),
        _ => absolute,
    }
}

/// Whether `path` is absolute without `.` or `..` (so the sandbox can show something there).
fn plain(path: &Path) -> bool {
    path.is_absolute() && path.components().all(|c| matches!(c, Component::RootDir | Component::Normal(_)))
}

/// The directory a program runs from, or its installation: the directory
/// above a `bin`, `sbin` or `shims` directory, unless that is `/` or the home directory.
fn installation(program: &Path) -> PathBuf {
    let dir = program.parent().unwrap_or(Path::new("/"));
    let named_for_programs = dir.file_name().is_some_and(|name| PROGRAM_DIRS.iter().any(|p| OsStr::new(p) == name));
    let home = std::env::var_os("HOME").map(PathBuf::from);
    match dir.parent() {
        Some(above) if named_for_programs && above != Path::new("/") && Some(above) != home.as_deref() => {
            above.to_path_buf()
        }
        _ => dir.to_path_buf(),
    }
}

/// The interpreter a script's `#!` line names; through `/usr/bin/env`, the
/// program env would run, found in `path`.
fn interpreter(script: &Path, path: &OsStr) -> Option<PathBuf> {
    use std::io::Read;
    let mut start = [0u8; 256];
    let read = std::fs::File::open(script).and_then(|mut file| file.read(&mut start)).ok()?;
    let line = start[..read].strip_prefix(b"#!")?;
    let line = String::from_utf8_lossy(line.split(|&b| b == b'\n').next()?).into_owned();
    let mut words = line.split_whitespace();
    let named = PathBuf::from(words.next()?);
    if named.file_name() != Some(OsStr::new("env")) {
        return Some(named);
    }
    words.find(|word| !word.starts_with('-') && !word.contains('=')).and_then(|program| find_in_path(program, path))
}

#[cfg(test)]
mod tests;
