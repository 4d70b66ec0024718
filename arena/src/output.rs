//! The output directory: `games.jsonl` (every finished game, made durable
//! before it counts), `standings.json`, the configuration of a league
//! (`league.json`) and the bots' stderr logs under `logs/`.

use crate::record::GameSummary;
use nix::fcntl::{Flock, FlockArg};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// The name of the game records file.
pub const GAMES: &str = "games.jsonl";
/// The name of a league's configuration file.
pub const LEAGUE: &str = "league.json";

/// An output directory being written. It is locked while this value lives,
/// so that two arenas never write to one directory.
pub struct OutDir {
    dir: PathBuf,
    _lock: Flock<File>,
    games: File,
    /// Where each game's line is: (id, byte offset, length without newline),
    /// in file order, so the file can be put in id order a line at a time.
    index: Vec<(u64, u64, usize)>,
    /// The size of the file.
    end: u64,
}

impl OutDir {
    /// Creates (or reuses) `dir` for a new run, refusing one that already holds games.
    pub fn create(dir: &Path) -> Result<OutDir, String> {
        fs::create_dir_all(dir.join("logs"))
            .map_err(|e| format!("cannot create output directory {}: {e}", dir.display()))?;
        let lock = lock(dir)?;
        let games_path = dir.join(GAMES);
        if fs::metadata(&games_path).map(|m| m.len() > 0).unwrap_or(false) {
            return Err(format!(
                "{} already holds games; choose another output directory, or continue a league with --resume",
                games_path.display()
            ));
        }
        let games = OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .truncate(true)
            .open(&games_path)
            .map_err(|e| format!("cannot write {}: {e}", games_path.display()))?;
        Ok(OutDir { dir: dir.to_path_buf(), _lock: lock, games, index: Vec::new(), end: 0 })
    }

    /// Opens the games of a stopped run to append to them. A torn last line
    /// (a write cut short) is cut off; any other damage is an error and
    /// nothing is changed. Returns the directory and the games already played.
    pub fn reopen(dir: &Path) -> Result<(OutDir, Vec<GameSummary>, Option<String>), String> {
        let lock = lock(dir)?;
        let path = dir.join(GAMES);
        let scan = scan_file(&path)?;
        let games = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let note = if scan.good_bytes < scan.total_bytes {
            games.set_len(scan.good_bytes).map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
            games.sync_all().map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
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
        games.seek(io::SeekFrom::End(0)).map_err(|e| e.to_string())?;
        fs::create_dir_all(dir.join("logs")).map_err(|e| format!("cannot create {}/logs: {e}", dir.display()))?;
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

    /// Puts `games.jsonl` in game-id order (games finish out of order when
    /// several run at once), a line at a time, and writes `standings.json`.
    /// Both files are replaced atomically.
    pub fn finish(mut self, standings_json: &str) -> io::Result<()> {
        self.games.sync_all()?;
        if !self.index.windows(2).all(|w| w[0].0 < w[1].0) {
            self.index.sort_by_key(|&(id, ..)| id);
            let path = self.dir.join(GAMES);
            let tmp = path.with_extension("tmp");
            let mut sorted = io::BufWriter::new(File::create(&tmp)?);
            let mut line = Vec::new();
            for &(_, offset, len) in &self.index {
                use std::os::unix::fs::FileExt;
                line.resize(len, 0);
                self.games.read_exact_at(&mut line, offset)?;
                sorted.write_all(&line)?;
                sorted.write_all(b"\n")?;
            }
            sorted.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            fs::rename(&tmp, &path)?;
        }
        write_atomically(&self.dir.join("standings.json"), standings_json.as_bytes())
    }
}

/// Takes the lock of an output directory, or says who holds it.
fn lock(dir: &Path) -> Result<Flock<File>, String> {
    let path = dir.join("arena.lock");
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    Flock::lock(file, FlockArg::LockExclusiveNonblock).map_err(|_| {
        format!(
            "{} is in use by another arena process (it holds {}); wait for it to finish",
            dir.display(),
            path.display()
        )
    })
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
/// `good_bytes < total_bytes`. A bad line followed by others is an error
/// naming its line number. Memory use does not grow with the events.
pub fn scan(reader: impl BufRead, name: &str) -> Result<Scan, String> {
    let mut reader = reader;
    let mut games = Vec::new();
    let mut spans = Vec::new();
    let mut good_bytes = 0u64;
    let mut total_bytes = 0u64;
    let mut bad: Option<(usize, String)> = None;
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let read = reader.read_until(b'\n', &mut line).map_err(|e| format!("cannot read {name}: {e}"))?;
        if read == 0 {
            break;
        }
        total_bytes += read as u64;
        if let Some((bad_line, why)) = bad.take() {
            return Err(format!(
                "{name} line {bad_line} is corrupt ({why}); later lines follow it, so it was not cut short by an interruption: fix or remove that line"
            ));
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
pub fn scan_file(path: &Path) -> Result<Scan, String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    scan(BufReader::new(file), &path.display().to_string())
}

/// Writes `bytes` to a temporary file beside `path`, syncs it, and renames it over `path`.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = path.with_extension("tmp");
    let mut file = File::create(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    fs::rename(&tmp, path)
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
        let err = OutDir::create(&dir).err().unwrap();
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
        let err = scan(text.as_bytes(), "games.jsonl").unwrap_err();
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
        let err = OutDir::reopen(&dir).err().unwrap();
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
        let err = OutDir::reopen(&dir).err().unwrap();
        assert!(err.contains("line 2 is corrupt"), "{err}");
        assert_eq!(fs::read_to_string(dir.join(GAMES)).unwrap(), damaged);
        fs::remove_dir_all(&dir).unwrap();
    }
}
