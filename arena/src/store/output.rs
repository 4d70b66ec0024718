//! The output directory: `games.jsonl` (every finished game, made durable
//! before it counts), `standings.json`, the configuration of a league
//! (`league.json`) and the bots' stderr logs under `logs/`.

use crate::store::record::GameSummary;
use crate::terminal::console::errln;
pub use records::files::{GAMES, SPRT_RESULT, STANDINGS};
use serde::de::DeserializeOwned;
use std::collections::BTreeSet;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The name of a league's configuration file.
pub const LEAGUE: &str = "league.json";
/// The name of an SPRT's configuration file.
pub const SPRT_CONFIG: &str = "sprt-config.json";
/// The longest line a record may take in `games.jsonl`, in bytes (without
/// its newline). Readers refuse longer lines without holding them, so what
/// one line can cost them is bounded.
pub const MAX_RECORD_BYTES: usize = 64 << 20;
// An engine's page holds a whole record, and as much again for its drawing.
const _: () = assert!(crate::engine::process::PAGE_LINE_CAP >= 2 * MAX_RECORD_BYTES);

/// A line of a records file that is longer than [`MAX_RECORD_BYTES`].
#[derive(Debug)]
pub struct TooLong;

impl std::fmt::Display for TooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "it is longer than the {MAX_RECORD_BYTES} bytes a record may take, so it is not a record")
    }
}

/// Reads the next line of a records file into `line` (with its newline, if
/// it has one): the bytes read, 0 at the end. A line longer than
/// [`MAX_RECORD_BYTES`] is skipped to its end without being kept, and is
/// `Ok(Err(TooLong))`.
pub fn read_record_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Result<usize, TooLong>> {
    line.clear();
    let read = io::Read::take(&mut *reader, MAX_RECORD_BYTES as u64 + 1).read_until(b'\n', line)?;
    if read <= MAX_RECORD_BYTES || line.last() == Some(&b'\n') {
        return Ok(Ok(read));
    }
    line.clear();
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(Err(TooLong));
        }
        let (used, end) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (buffer.len(), false),
        };
        reader.consume(used);
        if end {
            return Ok(Err(TooLong));
        }
    }
}

/// An output directory being written. It is locked while this value lives,
/// so that two arenas never write to one directory.
pub struct OutDir {
    dir: PathBuf,
    _lock: DirLock,
    games: File,
    /// Where each game's line is: (id, byte offset, length without newline),
    /// in file order, so the file can be put in id order a line at a time.
    index: Vec<(u64, u64, usize)>,
    /// The size of the file.
    end: u64,
}

/// Why an output directory cannot be used: each the user's to change
/// (another directory, a repair, the other arena's end).
#[derive(Debug)]
pub enum OutputError {
    /// A file or directory cannot be created, opened, read, written or
    /// locked: `what` says which (`cannot write games.jsonl`), `error` why.
    Io {
        /// What could not be done, to which path.
        what: String,
        /// The system's reason.
        error: String,
    },
    /// A new run's directory holds the games of another.
    HoldsGames {
        /// Its games file.
        games: PathBuf,
    },
    /// Another arena runs in the directory.
    InUse {
        /// The directory.
        dir: PathBuf,
        /// Its lock file.
        lock: PathBuf,
        /// The process holding the lock, when known.
        holder: Option<i32>,
    },
    /// A line of a games file is too long to be a record.
    Damaged {
        /// The file.
        file: String,
        /// The line, from 1.
        line: usize,
        /// Why.
        why: String,
    },
    /// A line of a games file is not a record, and lines follow it.
    Corrupt {
        /// The file.
        file: String,
        /// The line, from 1.
        line: usize,
        /// Why.
        why: String,
    },
    /// The configuration file `name` of a stopped run cannot be read.
    NotResumable {
        /// The run's directory.
        dir: PathBuf,
        /// The configuration file's name.
        name: String,
        /// Why.
        error: String,
    },
    /// The configuration file `path` does not hold `what`.
    NotConfig {
        /// The file.
        path: PathBuf,
        /// What it should hold (`a league configuration`).
        what: String,
        /// Why it does not.
        error: String,
    },
}

impl OutputError {
    /// `what` could not be done, because of `error`.
    fn io(what: String, error: impl fmt::Display) -> OutputError {
        OutputError::Io { what, error: error.to_string() }
    }
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::Io { what, error } => write!(f, "{what}: {error}"),
            OutputError::HoldsGames { games } => write!(
                f,
                "{} already holds games; choose another output directory, or continue a league with --resume",
                games.display()
            ),
            OutputError::InUse { dir, lock, holder } => {
                let pid = holder.map_or_else(String::new, |pid| format!("process {pid}; "));
                write!(
                    f,
                    "{} is in use by another arena ({pid}it holds {}); wait for it to finish",
                    dir.display(),
                    lock.display()
                )
            }
            OutputError::Damaged { file, line, why } => {
                write!(f, "{file} line {line} is damaged: {why}; fix or remove that line")
            }
            OutputError::Corrupt { file, line, why } => write!(
                f,
                "{file} line {line} is corrupt ({why}); later lines follow it, so it was not cut short by an \
                 interruption: fix or remove that line"
            ),
            OutputError::NotResumable { dir, name, error } => {
                write!(f, "cannot resume from {}: cannot read {name} ({error})", dir.display())
            }
            OutputError::NotConfig { path, what, error } => write!(f, "{} is not {what}: {error}", path.display()),
        }
    }
}

impl std::error::Error for OutputError {}

impl OutDir {
    /// Creates (or reuses) `dir` for a new run, refusing one that already holds games.
    pub fn create(dir: &Path) -> Result<OutDir, OutputError> {
        fs::create_dir_all(dir.join("logs"))
            .map_err(|e| OutputError::io(format!("cannot create output directory {}", dir.display()), e))?;
        let lock = lock(dir)?;
        let games_path = dir.join(GAMES);
        if fs::metadata(&games_path).map(|m| m.len() > 0).unwrap_or(false) {
            return Err(OutputError::HoldsGames { games: games_path });
        }
        let games = OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .truncate(true)
            .custom_flags(nix::libc::O_NOFOLLOW)
            .open(&games_path)
            .map_err(|e| OutputError::io(format!("cannot write {}", games_path.display()), e))?;
        Ok(OutDir { dir: dir.to_path_buf(), _lock: lock, games, index: Vec::new(), end: 0 })
    }

    /// Opens the games of a stopped run to append to them. A torn last line
    /// (a write cut short) is cut off; any other damage is an error and
    /// nothing is changed. Returns the directory and the games already played.
    pub fn reopen(dir: &Path) -> Result<(OutDir, Vec<GameSummary>, Option<String>), OutputError> {
        let lock = lock(dir)?;
        let path = dir.join(GAMES);
        let scan = scan_file(&path)?;
        let games = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(nix::libc::O_NOFOLLOW)
            .open(&path)
            .map_err(|e| OutputError::io(format!("cannot write {}", path.display()), e))?;
        let note = if scan.good_bytes < scan.total_bytes {
            let repair = |e| OutputError::io(format!("cannot repair {}", path.display()), e);
            games.set_len(scan.good_bytes).map_err(repair)?;
            games.sync_all().map_err(repair)?;
            Some(format!(
                "repaired {}: removed a torn last line ({} bytes) left by an interrupted write",
                path.display(),
                scan.total_bytes - scan.good_bytes
            ))
        } else {
            None
        };
        let mut games = games;
        use std::io::Seek;
        games.seek(io::SeekFrom::End(0)).map_err(|e| OutputError::io(format!("cannot write {}", path.display()), e))?;
        fs::create_dir_all(dir.join("logs"))
            .map_err(|e| OutputError::io(format!("cannot create {}/logs", dir.display()), e))?;
        let index = scan.games.iter().zip(&scan.spans).map(|(game, &(offset, len))| (game.id, offset, len)).collect();
        let out = OutDir { dir: dir.to_path_buf(), _lock: lock, games, index, end: scan.good_bytes };
        Ok((out, scan.games, note))
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Where the bots' stderr logs go.
    pub fn logs(&self) -> PathBuf {
        self.dir.join("logs")
    }

    /// Writes `league.json` (atomically).
    pub fn write_config(&self, json: &str) -> io::Result<()> {
        write_atomically(&self.dir.join(LEAGUE), json.as_bytes())
    }

    /// Appends game records (JSON objects without newline, with their ids)
    /// and waits until they are on disk.
    pub fn append<'a>(&mut self, records: impl IntoIterator<Item = (u64, &'a str)>) -> io::Result<()> {
        let mut bytes = Vec::new();
        for (id, record) in records {
            self.index.push((id, self.end + bytes.len() as u64, record.len()));
            bytes.extend_from_slice(record.as_bytes());
            bytes.push(b'\n');
        }
        self.games.write_all(&bytes)?;
        self.games.sync_data()?;
        self.end += bytes.len() as u64;
        Ok(())
    }

    /// The size of `games.jsonl`: where the next line appended begins.
    pub fn end(&self) -> u64 {
        self.end
    }

    /// Where the last `count` lines appended are: (byte offset, length
    /// without the newline) of each, in file order.
    pub fn last_spans(&self, count: usize) -> impl Iterator<Item = (u64, usize)> + '_ {
        self.index[self.index.len().saturating_sub(count)..].iter().map(|&(_, offset, length)| (offset, length))
    }

    /// Puts `games.jsonl` in game-id order (games finish out of order when
    /// several run at once), a line at a time, and writes `standings.json`.
    /// Both files are replaced atomically.
    pub fn finish(mut self, standings_json: &str) -> io::Result<()> {
        self.games.sync_all()?;
        if !self.index.windows(2).all(|w| w[0].0 < w[1].0) {
            self.index.sort_by_key(|&(id, ..)| id);
            let path = self.dir.join(GAMES);
            let mut sorted = io::BufWriter::new(temporary_beside(&path)?);
            let mut line = Vec::new();
            for &(_, offset, len) in &self.index {
                use std::os::unix::fs::FileExt;
                line.resize(len, 0);
                self.games.read_exact_at(&mut line, offset)?;
                sorted.write_all(&line)?;
                sorted.write_all(b"\n")?;
            }
            let sorted = sorted.into_inner().map_err(|e| e.into_error())?;
            sorted.as_file().sync_all()?;
            sorted.persist(&path)?;
        }
        write_atomically(&self.dir.join(STANDINGS), standings_json.as_bytes())
    }
}

/// How long taking the lock of an output directory waits for the arena that
/// holds it to let go, before calling the directory in use.
const LOCK_PATIENCE: Duration = Duration::from_secs(3);

/// How much longer the lock of an output directory is waited for while the
/// arena that holds it is exiting (see [`lock`]).
const EXIT_PATIENCE: Duration = Duration::from_secs(60);

/// The output directories this process holds locked, by (device, inode): a
/// second lock of one of them in this process is refused as another
/// process's would be (a POSIX lock cannot tell, and closing a second
/// descriptor of the lock file would release the first).
static HELD: Mutex<BTreeSet<(u64, u64)>> = Mutex::new(BTreeSet::new());

/// The lock of an output directory: a POSIX record lock on `arena.lock`.
/// Such a lock belongs to the arena process alone: unlike a `flock`, no child
/// forked while it is held shares it, so it never outlives the arena.
struct DirLock {
    file: Option<File>,
    key: (u64, u64),
}

impl Drop for DirLock {
    fn drop(&mut self) {
        // Closing the file releases the lock; only then may this process take it again.
        drop(self.file.take());
        HELD.lock().unwrap_or_else(|e| e.into_inner()).remove(&self.key);
    }
}

/// Takes the lock of an output directory, or says who holds it. An arena
/// that was killed a moment ago may still be exiting: the lock is retried
/// for [`LOCK_PATIENCE`] before the directory is called in use, and for as
/// long as [`EXIT_PATIENCE`] while the process that holds it is exiting (on
/// a busy machine a killed arena may take seconds to let go).
fn lock(dir: &Path) -> Result<DirLock, OutputError> {
    let path = dir.join("arena.lock");
    let in_use = |holder: Option<i32>| OutputError::InUse { dir: dir.to_path_buf(), lock: path.clone(), holder };
    let meta = fs::metadata(dir).map_err(|e| OutputError::io(format!("cannot open {}", dir.display()), e))?;
    let key = (meta.dev(), meta.ino());
    if !HELD.lock().unwrap_or_else(|e| e.into_inner()).insert(key) {
        return Err(in_use(Some(std::process::id() as i32)));
    }
    // From here on, dropping `held` gives the key back.
    let mut held = DirLock { file: None, key };
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .custom_flags(nix::libc::O_NOFOLLOW)
        .open(&path)
        .map_err(|e| OutputError::io(format!("cannot open {}", path.display()), e))?;
    let deadline = Instant::now() + LOCK_PATIENCE;
    loop {
        match record_lock(&file, nix::libc::F_SETLK) {
            Ok(_) => break,
            Err(nix::errno::Errno::EAGAIN | nix::errno::Errno::EACCES)
                if Instant::now() < deadline
                    || (Instant::now() < deadline + EXIT_PATIENCE && holder_exiting(&file)) =>
            {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(nix::errno::Errno::EAGAIN | nix::errno::Errno::EACCES) => {
                let holder = record_lock(&file, nix::libc::F_GETLK).ok().flatten();
                return Err(in_use(holder));
            }
            Err(e) => return Err(OutputError::io(format!("cannot lock {}", path.display()), e)),
        }
    }
    held.file = Some(file);
    remove_stale_temporaries(dir);
    Ok(held)
}

/// Whether the process whose lock of `file` blocks ours is exiting.
fn holder_exiting(file: &File) -> bool {
    record_lock(file, nix::libc::F_GETLK).ok().flatten().is_some_and(crate::bot::tree::dying)
}

/// The process of another arena that holds the output directory `dir` (a
/// running league), if one does; none waits for it.
pub fn holder(dir: &Path) -> Option<i32> {
    let file = File::open(dir.join("arena.lock")).ok()?;
    record_lock(&file, nix::libc::F_GETLK).ok().flatten()
}

/// `F_SETLK` (take a write lock of the whole file) or `F_GETLK` (the pid of
/// a process whose lock would block it, if any).
fn record_lock(file: &File, command: i32) -> nix::Result<Option<i32>> {
    use nix::fcntl::{FcntlArg, fcntl};
    // SAFETY: flock is a plain C struct, for which all zeroes is a valid value.
    let mut flock: nix::libc::flock = unsafe { std::mem::zeroed() };
    flock.l_type = nix::libc::F_WRLCK as _;
    flock.l_whence = nix::libc::SEEK_SET as _;
    if command == nix::libc::F_GETLK {
        fcntl(file, FcntlArg::F_GETLK(&mut flock))?;
        return Ok((flock.l_type != nix::libc::F_UNLCK as nix::libc::c_short).then_some(flock.l_pid));
    }
    fcntl(file, FcntlArg::F_SETLK(&flock))?;
    Ok(None)
}

/// What a scan of `games.jsonl` found.
#[derive(Debug)]
pub struct Scan {
    /// The games, in file order.
    pub games: Vec<GameSummary>,
    /// Where each game's line is in the file: (byte offset, length without the newline).
    pub spans: Vec<(u64, usize)>,
    /// Bytes up to the end of the last good line.
    pub good_bytes: u64,
    /// Bytes in the file.
    pub total_bytes: u64,
}

/// Reads a games file: every line must be a record, except that a last line
/// that is cut short (or fails to parse) is reported as torn through
/// `good_bytes < total_bytes`. A bad line followed by others, and a line
/// longer than [`MAX_RECORD_BYTES`], are errors naming its line number.
/// Memory use does not grow with the events.
pub fn scan(reader: impl BufRead, name: &str) -> Result<Scan, OutputError> {
    let mut reader = reader;
    let mut games = Vec::new();
    let mut spans = Vec::new();
    let mut good_bytes = 0u64;
    let mut total_bytes = 0u64;
    let mut bad: Option<(usize, String)> = None;
    let mut line = Vec::new();
    for number in 1.. {
        let read = read_record_line(&mut reader, &mut line)
            .map_err(|e| OutputError::io(format!("cannot read {name}"), e))?
            .map_err(|why| OutputError::Damaged { file: name.to_string(), line: number, why: why.to_string() })?;
        if read == 0 {
            break;
        }
        total_bytes += read as u64;
        if let Some((bad_line, why)) = bad.take() {
            return Err(OutputError::Corrupt { file: name.to_string(), line: bad_line, why });
        }
        let complete = line.last() == Some(&b'\n');
        match serde_json::from_slice::<GameSummary>(&line) {
            Ok(summary) if complete => {
                games.push(summary);
                spans.push((total_bytes - read as u64, read - 1));
                good_bytes = total_bytes;
            }
            Ok(_) => bad = Some((number, "no newline at the end".to_string())),
            Err(e) => bad = Some((number, e.to_string())),
        }
    }
    Ok(Scan { games, spans, good_bytes, total_bytes })
}

/// [`scan`] of a file.
pub fn scan_file(path: &Path) -> Result<Scan, OutputError> {
    let file = File::open(path).map_err(|e| OutputError::io(format!("cannot read {}", path.display()), e))?;
    scan(BufReader::new(file), &path.display().to_string())
}

/// Reads the configuration of a stopped run: the JSON file `name` in
/// `dir`, which should hold `what` (e.g. "a league configuration").
pub fn read_config<C: DeserializeOwned>(dir: &Path, name: &str, what: &str) -> Result<C, OutputError> {
    let path = dir.join(name);
    let text = fs::read_to_string(&path).map_err(|e| OutputError::NotResumable {
        dir: dir.to_path_buf(),
        name: name.to_string(),
        error: e.to_string(),
    })?;
    serde_json::from_str(&text).map_err(|e| OutputError::NotConfig {
        path,
        what: what.to_string(),
        error: e.to_string(),
    })
}

/// Reopens the output directory of a stopped run to go on with it (see
/// [`OutDir::reopen`]), saying on stderr what was repaired; returns it with
/// the games already played.
pub fn resume(dir: &Path) -> Result<(OutDir, Vec<GameSummary>), OutputError> {
    let (out, played, note) = OutDir::reopen(dir)?;
    if let Some(note) = note {
        errln!("{note}");
    }
    Ok((out, played))
}

/// Writes `bytes` to a temporary file beside `path`, syncs it, and renames it over `path`.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = temporary_beside(path)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path)?;
    Ok(())
}

/// The suffix of temporary files.
const TEMPORARY: &str = ".tmp";
/// The starts of the names of the files an arena replaces in an output directory.
const WRITTEN: [&str; 4] = ["games.jsonl.", "league.json.", "standings.", "sprt"];

/// A new temporary file in the directory of `path`, named `.NAME.XXXXXX.tmp`
/// with a random part: created exclusively (`O_EXCL`, which never follows a
/// link planted under that name), removed if it is dropped.
fn temporary_beside(path: &Path) -> io::Result<tempfile::NamedTempFile> {
    let dir = path.parent().filter(|dir| !dir.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map_or_else(String::new, |name| name.to_string_lossy().into_owned());
    tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(TEMPORARY)
        // As `File::create`: the umask decides.
        .permissions(fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)
}

/// Removes the temporary files that an arena killed while it wrote left in
/// `dir` (the caller holds the directory's lock, so none is being written).
/// Removing a name never follows a link.
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let ours = name.strip_prefix('.').is_some_and(|rest| WRITTEN.iter().any(|own| rest.starts_with(own)));
        if ours && name.ends_with(TEMPORARY) && entry.file_type().is_ok_and(|t| !t.is_dir()) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: u64) -> String {
        format!(
            r#"{{"id":{id},"deal":{id},"arrangement":0,"seed":7,"bot_seeds":[1,2],"bots":["a","b"],"result":{{"reason":"target","scores":[250,10],"ranks":[0,1]}},"faults":[],"events":[{{"type":"x"}}]}}"#
        )
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-out-test-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn sorts_games_finished_out_of_order_and_refuses_to_overwrite() {
        let dir = scratch("sort");
        let mut out = OutDir::create(&dir).unwrap();
        out.append([(1, record(1).as_str()), (0, record(0).as_str())]).unwrap();
        out.append([(2, record(2).as_str())]).unwrap();
        out.finish("{}").unwrap();
        let games = fs::read_to_string(dir.join(GAMES)).unwrap();
        assert_eq!(games, format!("{}\n{}\n{}\n", record(0), record(1), record(2)));
        assert_eq!(fs::read_to_string(dir.join("standings.json")).unwrap(), "{}");
        let err = OutDir::create(&dir).err().unwrap().to_string();
        assert!(err.contains("already holds games"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn scan_reads_summaries_and_finds_a_torn_tail() {
        let text = format!("{}\n{}\n{}", record(0), record(1), &record(2)[..30]);
        let scan = scan(text.as_bytes(), "games.jsonl").unwrap();
        assert_eq!(scan.games.iter().map(|g| g.id).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(scan.spans, vec![(0, record(0).len()), (record(0).len() as u64 + 1, record(1).len())]);
        assert_eq!(scan.good_bytes as usize, record(0).len() + record(1).len() + 2);
        assert_eq!(scan.total_bytes as usize, text.len());
        // A complete last line that does not parse is treated as torn too.
        let text = format!("{}\n{{\"id\":\n", record(0));
        let scan = super::scan(text.as_bytes(), "games.jsonl").unwrap();
        assert_eq!((scan.games.len(), scan.good_bytes as usize), (1, record(0).len() + 1));
    }

    #[test]
    fn scan_refuses_a_corrupt_line_in_the_middle() {
        let text = format!("{}\n{{garbage\n{}\n", record(0), record(2));
        let err = scan(text.as_bytes(), "games.jsonl").unwrap_err().to_string();
        assert!(err.contains("games.jsonl line 2 is corrupt"), "{err}");
    }

    #[test]
    fn reopen_repairs_a_torn_tail_and_appends() {
        let dir = scratch("reopen");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join(GAMES), format!("{}\n{}", record(0), &record(1)[..20])).unwrap();
        let (mut out, games, note) = OutDir::reopen(&dir).unwrap();
        assert_eq!(games.len(), 1);
        assert!(note.unwrap().contains("torn last line"));
        out.append([(1, record(1).as_str())]).unwrap();
        assert_eq!(fs::read_to_string(dir.join(GAMES)).unwrap(), format!("{}\n{}\n", record(0), record(1)));
        let err = OutDir::reopen(&dir).err().unwrap().to_string();
        assert!(err.contains("in use by another arena"), "{err}");
        drop(out);
        // A resumed run that finishes out of order is sorted too.
        let (mut out, ..) = OutDir::reopen(&dir).unwrap();
        out.append([(3, record(3).as_str()), (2, record(2).as_str())]).unwrap();
        out.finish("{}").unwrap();
        let ids: Vec<u64> = scan_file(&dir.join(GAMES)).unwrap().games.iter().map(|g| g.id).collect();
        assert_eq!(ids, [0, 1, 2, 3]);
        // Corruption in the middle: an error, and the file is left as it is.
        let damaged = format!("{}\nnot json\n{}\n", record(0), record(1));
        fs::write(dir.join(GAMES), &damaged).unwrap();
        let err = OutDir::reopen(&dir).err().unwrap().to_string();
        assert!(err.contains("line 2 is corrupt"), "{err}");
        assert_eq!(fs::read_to_string(dir.join(GAMES)).unwrap(), damaged);
        fs::remove_dir_all(&dir).unwrap();
    }
}
