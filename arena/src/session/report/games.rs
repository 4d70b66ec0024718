//! The records of the directory read once for a report, and the chunks of
//! those replayed written beside the page.

use super::job::Setup;
use crate::report::move_times::Recorder;
use crate::report::page::{self, CHUNK};
use crate::report::store::GameStore;
use crate::session::exit::{Failure, internal, usage};
use crate::store::output::read_record_line;
use crate::store::record::{JsonRecord, keep_least};
use std::collections::BTreeMap;
use std::path::Path;

/// The games of a directory, read once.
pub(super) struct Games {
    /// The games with where their lines are, in id order.
    pub(super) summaries: GameStore,
    /// Each bot's move times.
    pub(super) move_times: BTreeMap<String, Recorder>,
    /// Each bot's least clock left after a move, in microseconds, under a clock.
    pub(super) least_clock: BTreeMap<String, u64>,
    /// The first and the last record, to cut the replay page from.
    pub(super) samples: Vec<String>,
    /// Whether the last line was cut short (a record being written).
    pub(super) torn: bool,
}

/// Reads every record of `games` (a damaged last line is taken as one
/// being written), collecting what the report needs.
pub(super) fn read_games(games: &Path, game: &str) -> Result<Games, Failure> {
    let name = games.display();
    let file = std::fs::File::open(games).map_err(|e| usage(format!("cannot read {name}: {e}")))?;
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
    let mut read = Games {
        summaries: GameStore::default(),
        move_times: BTreeMap::new(),
        least_clock: BTreeMap::new(),
        samples: Vec::new(),
        torn: false,
    };
    let (mut bytes, mut offset, mut last) = (Vec::new(), 0u64, String::new());
    let mut damaged: Option<(usize, String)> = None;
    for number in 1.. {
        let length = read_record_line(&mut reader, &mut bytes)
            .map_err(|e| usage(format!("cannot read {name}: {e}")))?
            .map_err(|why| usage(format!("{name} line {number} is damaged: {why}")))?;
        if length == 0 {
            break;
        }
        let span = (offset, bytes.strip_suffix(b"\n").unwrap_or(&bytes).len());
        offset += length as u64;
        if let Some((number, why)) = damaged.take() {
            return Err(usage(format!("{name} line {number} is not a valid {game} record: {why}")));
        }
        let text = String::from_utf8_lossy(&bytes[..span.1]);
        if text.trim().is_empty() {
            continue;
        }
        let record = match serde_json::from_str::<JsonRecord>(&text) {
            Ok(record) => record,
            Err(e) => {
                damaged = Some((number, e.to_string()));
                continue;
            }
        };
        for event in &record.events {
            // A move names its seat (engines/ENGINES.md); the time is the bot's.
            let seat = event.event.get("seat").and_then(serde_json::Value::as_u64);
            let Some(bot) = seat.and_then(|seat| record.bots.get(seat as usize)) else { continue };
            if let Some(time) = event.time_us {
                match read.move_times.get_mut(bot) {
                    Some(times) => times.record(time),
                    None => read.move_times.entry(bot.clone()).or_default().record(time),
                }
            }
            if let Some(left) = event.clock_us {
                keep_least(&mut read.least_clock, bot, left);
            }
        }
        read.summaries.push(&record.summary(), span);
        if read.samples.is_empty() {
            read.samples.push(text.clone().into_owned());
        }
        last = text.into_owned();
    }
    if read.summaries.len() > 1 {
        read.samples.push(last);
    }
    read.torn = damaged.is_some();
    read.summaries.sort();
    Ok(read)
}

/// Writes the records at `spans` of `games` (the replayed games, in id
/// order) to `files` in chunks of [`CHUNK`]; returns how many chunk files.
pub(super) fn write_chunks(games: &Path, spans: &[(u64, usize)], files: &Path) -> Result<usize, Failure> {
    use std::io::{Read, Seek, SeekFrom};
    let unreadable = |e: std::io::Error| internal(format!("cannot read {}: {e}", games.display()));
    let mut file = std::fs::File::open(games).map_err(unreadable)?;
    for (index, chunk) in spans.chunks(CHUNK).enumerate() {
        let mut records = Vec::with_capacity(chunk.len());
        for &(offset, length) in chunk {
            let mut line = vec![0; length];
            file.seek(SeekFrom::Start(offset)).and_then(|_| file.read_exact(&mut line)).map_err(unreadable)?;
            records.push(String::from_utf8_lossy(&line).into_owned());
        }
        let path = files.join(page::chunk_name(index));
        std::fs::write(&path, page::chunk(index, &records))
            .map_err(|e| internal(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(spans.len().div_ceil(CHUNK))
}

/// Makes the directory of the record chunks, emptied of the chunks of an earlier report.
pub(super) fn prepare_files(files: &Path) -> Result<(), Failure> {
    std::fs::create_dir_all(files).map_err(|e| usage(format!("cannot create {}: {e}", files.display())))?;
    let entries = std::fs::read_dir(files).map_err(|e| usage(format!("cannot read {}: {e}", files.display())))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("records-") && name.ends_with(".js") {
            std::fs::remove_file(entry.path())
                .map_err(|e| internal(format!("cannot remove {}: {e}", entry.path().display())))?;
        }
    }
    Ok(())
}

/// The bots in the order they were given: from the configuration, or (a
/// match) in the order they first sit in the games.
pub(super) fn bot_names(setup: &Setup, games: &GameStore) -> Vec<String> {
    match setup {
        Setup::League(config) => config.bots.iter().map(|b| b.name.clone()).collect(),
        Setup::Sprt(config) => config.games.bots.iter().map(|b| b.name.clone()).collect(),
        Setup::Match => {
            let mut names: Vec<String> = Vec::new();
            for game in games.iter() {
                for name in game.bots {
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
            names
        }
    }
}

/// A JSON file of the directory, if it is there.
pub(super) fn existing(path: &Path) -> Result<Option<String>, Failure> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(usage(format!("cannot read {}: {e}", path.display()))),
    }
}
