//! The output directory of a match: `games.jsonl`, `standings.json` and the
//! bots' stderr logs under `logs/`.

use serde::Deserialize;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// An output directory being written.
pub struct OutDir {
    dir: PathBuf,
    games: File,
    last_id: Option<u64>,
    in_order: bool,
}

impl OutDir {
    /// Creates (or reuses) `dir`, refusing one that already holds games.
    pub fn create(dir: &Path) -> Result<OutDir, String> {
        let games_path = dir.join("games.jsonl");
        if fs::metadata(&games_path).map(|m| m.len() > 0).unwrap_or(false) {
            return Err(format!(
                "{} already holds games; choose another --out directory or remove it",
                games_path.display()
            ));
        }
        fs::create_dir_all(dir.join("logs"))
            .map_err(|e| format!("cannot create output directory {}: {e}", dir.display()))?;
        let games = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .open(&games_path)
            .map_err(|e| format!("cannot write {}: {e}", games_path.display()))?;
        Ok(OutDir { dir: dir.to_path_buf(), games, last_id: None, in_order: true })
    }

    /// Where the bots' stderr logs go.
    pub fn logs(&self) -> PathBuf {
        self.dir.join("logs")
    }

    /// Appends one game record (a JSON object without newline) and flushes it to the OS.
    pub fn append(&mut self, id: u64, record: &str) -> io::Result<()> {
        if self.last_id.is_some_and(|last| last > id) {
            self.in_order = false;
        }
        self.last_id = Some(id);
        let mut line = Vec::with_capacity(record.len() + 1);
        line.extend_from_slice(record.as_bytes());
        line.push(b'\n');
        self.games.write_all(&line)?;
        self.games.flush()
    }

    /// Puts `games.jsonl` in game-id order (games finish out of order when
    /// several run at once) and writes `standings.json`. Both files are
    /// replaced atomically.
    pub fn finish(self, standings_json: &str) -> io::Result<()> {
        self.games.sync_all()?;
        if !self.in_order {
            sort_by_id(&self.dir.join("games.jsonl"))?;
        }
        write_atomically(&self.dir.join("standings.json"), standings_json.as_bytes())
    }
}

#[derive(Deserialize)]
struct IdOnly {
    id: u64,
}

fn sort_by_id(path: &Path) -> io::Result<()> {
    let mut lines: Vec<(u64, String)> = Vec::new();
    for line in BufReader::new(File::open(path)?).lines() {
        let line = line?;
        let id = serde_json::from_str::<IdOnly>(&line).map_err(io::Error::other)?.id;
        lines.push((id, line));
    }
    lines.sort_by_key(|(id, _)| *id);
    let mut text = String::with_capacity(lines.iter().map(|(_, l)| l.len() + 1).sum());
    for (_, line) in lines {
        text.push_str(&line);
        text.push('\n');
    }
    write_atomically(path, text.as_bytes())
}

/// Writes `bytes` to a temporary file beside `path`, syncs it, and renames it over `path`.
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = path.with_extension("tmp");
    let mut file = File::create(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_games_finished_out_of_order_and_refuses_to_overwrite() {
        let dir = std::env::temp_dir().join(format!("arena-out-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut out = OutDir::create(&dir).unwrap();
        out.append(1, r#"{"id":1,"x":"b"}"#).unwrap();
        out.append(0, r#"{"id":0,"x":"a"}"#).unwrap();
        out.append(2, r#"{"id":2,"x":"c"}"#).unwrap();
        out.finish("{}").unwrap();
        let games = fs::read_to_string(dir.join("games.jsonl")).unwrap();
        assert_eq!(games, "{\"id\":0,\"x\":\"a\"}\n{\"id\":1,\"x\":\"b\"}\n{\"id\":2,\"x\":\"c\"}\n");
        assert_eq!(fs::read_to_string(dir.join("standings.json")).unwrap(), "{}");
        let err = OutDir::create(&dir).err().unwrap();
        assert!(err.contains("already holds games"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
