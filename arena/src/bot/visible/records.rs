//! Finding another run's records in what a sandboxed bot would see: an
//! earlier run's or another shard's output directory tells the deals (its
//! `games.jsonl`) and the seed (its `league.json`).

use std::path::{Path, PathBuf};

/// The files that make a directory a run's output (each tells the deals or the seed).
const RECORDS: [&str; 3] = ["games.jsonl", "league.json", "standings.json"];
/// How many entries of a directory tree are looked at, at most: enough for
/// any bot's directory, and a bound on the time a huge one takes.
const MOST_ENTRIES: usize = 200_000;

/// The first record file found in `dir` or below it (no link followed),
/// outside `skip` (this run's own paths).
pub fn find(dir: &Path, skip: &[PathBuf]) -> Option<PathBuf> {
    let mut pending = vec![dir.to_path_buf()];
    let mut seen = 0;
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            seen += 1;
            if seen > MOST_ENTRIES {
                return None;
            }
            let path = entry.path();
            if skip.iter().any(|private| path.starts_with(private)) {
                continue;
            }
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => pending.push(path),
                Ok(kind) if kind.is_file() && RECORDS.iter().any(|name| entry.file_name() == *name) => {
                    return Some(path);
                }
                _ => {}
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_found_below_a_directory_except_where_skipped() {
        let root = std::env::temp_dir().join(format!("arena-records-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("bot/shard-1")).unwrap();
        std::fs::create_dir_all(root.join("bot/out")).unwrap();
        std::fs::write(root.join("bot/out/games.jsonl"), "").unwrap();
        assert_eq!(find(&root.join("bot"), &[root.join("bot/out")]), None, "this run's own output");
        std::fs::write(root.join("bot/shard-1/league.json"), "{}").unwrap();
        assert_eq!(find(&root.join("bot"), &[root.join("bot/out")]), Some(root.join("bot/shard-1/league.json")));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
