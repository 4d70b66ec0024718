//! `arena report`: the output directory of a match, a league or an SPRT as
//! an HTML page (see [`crate::report`]), with its records in a directory
//! beside it for the replays. A directory still being written is reported
//! as it stands, and called partial.

use super::{Failure, exit, internal, usage};
use crate::engine::spec::Engine;
use crate::league::config::{LeagueConfig, SprtConfig};
use crate::report::move_times::Recorder;
use crate::report::page::{self, CHUNK, Viewer};
use crate::report::store::GameStore;
use crate::report::{self as core, Input, Kind, SprtSetup};
use crate::schedule::Seating;
use crate::stats::sprt::report::{Conclusion, Ended};
use crate::stats::standings::report::Written;
use crate::store::output::{GAMES, LEAGUE, SPRT_CONFIG, SPRT_RESULT, read_record_line};
use crate::store::record::JsonRecord;
use crate::store::record::keep_least;
use crate::store::record_file::{self, Header};
use crate::terminal::console::{errln, outln};
use clap::Args;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Examples shown by `arena report --help`.
pub const EXAMPLES: &str = "Examples:
  arena report results                      # writes results/report.html and results/report-files/
  arena report league-out -o league.html    # league.html and league-files/ in the working directory
  arena report sprt-results -o sprt.html
  arena report big-league --replays all     # a replay for every game (the default is 2000 at most)";

/// The flags of `arena report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The output directory of `arena match --out`, `arena league --out` or `arena sprt --out`
    /// (finished, or still being written).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Where to write the page (default: DIR/report.html). The records of
    /// its replays go in a directory beside it, named after it: `NAME-files/`.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// How many games get a replay: `all`, or at most N (every game when
    /// there are no more; else the games with a fault, up to half of N,
    /// and evenly spaced others). Each costs its record's size beside the page.
    #[arg(long, value_name = "N|all", default_value = "2000", value_parser = replay_limit)]
    replays: usize,
}

/// `--replays` is neither a number nor `all`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct NotAReplayLimit {
    /// The flag's value.
    text: String,
}

impl std::fmt::Display for NotAReplayLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "expected a number of games or `all`, not {:?}", self.text)
    }
}

impl std::error::Error for NotAReplayLimit {}

/// `--replays`: a number, or `all`.
fn replay_limit(text: &str) -> Result<usize, NotAReplayLimit> {
    match text {
        "all" => Ok(usize::MAX),
        number => number.parse().map_err(|_| NotAReplayLimit { text: number.to_string() }),
    }
}

/// What the directory holds besides its games.
enum Setup {
    Match,
    League(LeagueConfig),
    Sprt(SprtConfig),
}

/// A report to write, once its game is known.
struct Job {
    dir: PathBuf,
    output: PathBuf,
    setup: Setup,
    limit: usize,
}

/// Runs `arena report`.
pub fn run(args: ReportArgs) -> Result<i32, Failure> {
    let dir = args.dir;
    if !dir.is_dir() {
        return Err(usage(format!(
            "{} is not a directory: give the output directory of `arena match --out`, `arena league --out` or `arena sprt --out`",
            dir.display()
        )));
    }
    let output = args.output.unwrap_or_else(|| dir.join("report.html"));
    if output.is_dir() || output.file_name().is_none() {
        return Err(usage(format!("-o {}: give the name of the page to write, e.g. report.html", output.display())));
    }
    let setup = if dir.join(SPRT_CONFIG).is_file() {
        Setup::Sprt(read_json(&dir.join(SPRT_CONFIG), "an SPRT configuration")?)
    } else if dir.join(LEAGUE).is_file() {
        Setup::League(read_json(&dir.join(LEAGUE), "a league configuration")?)
    } else {
        Setup::Match
    };
    let games = dir.join(GAMES);
    let first = match record_file::lines(&games) {
        Ok(mut lines) => lines.next().transpose()?,
        Err(_) if !games.exists() => {
            return Err(usage(format!(
                "{} holds no {GAMES}: it is not the output directory of a match, a league or an SPRT",
                dir.display()
            )));
        }
        Err(error) => return Err(error.into()),
    };
    let header = first
        .map(|line| line.header.map_err(|e| usage(format!("{} line {}: {e}", games.display(), line.number))))
        .transpose()?;
    let game = match (&setup, &header) {
        (Setup::League(config), _) => config.game.clone(),
        (Setup::Sprt(config), _) => config.games.game.clone(),
        (Setup::Match, Some(header)) => header.game.clone(),
        (Setup::Match, None) => return Err(usage(format!("{} holds no games yet", games.display()))),
    };
    let identity = header.and_then(|header: Header| header.engine);
    let program = match &setup {
        Setup::League(config) => config.engine.is_some(),
        Setup::Sprt(config) => config.games.engine.is_some(),
        Setup::Match => identity.is_some(),
    };
    let scoring = match (program, &identity) {
        (false, _) => Engine::built_in(&game)?.scoring(),
        (true, Some(identity)) => crate::engine::spec::scoring(&identity.scoring),
        (true, None) => return Err(usage(format!("{} holds no games yet", games.display()))),
    };
    write_report(Job { dir, output, setup, limit: args.replays }, GameOf { name: game, program, scoring })
}

/// The game of the records.
struct GameOf {
    name: String,
    /// Whether an engine program played it.
    program: bool,
    scoring: game::Scoring,
}

/// A configuration file of the directory.
fn read_json<T: serde::de::DeserializeOwned>(path: &Path, what: &str) -> Result<T, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| usage(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| usage(format!("{} is not {what}: {e}", path.display())))
}

/// The games of a directory, read once.
struct Games {
    /// The games with where their lines are, in id order.
    summaries: GameStore,
    /// Each bot's move times.
    move_times: BTreeMap<String, Recorder>,
    /// Each bot's least clock left after a move, in microseconds, under a clock.
    least_clock: BTreeMap<String, u64>,
    /// The first and the last record, to cut the replay page from.
    samples: Vec<String>,
    /// Whether the last line was cut short (a record being written).
    torn: bool,
}

/// Reads every record of `games` (a damaged last line is taken as one
/// being written), collecting what the report needs.
fn read_games(games: &Path, game: &str) -> Result<Games, Failure> {
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
fn write_chunks(games: &Path, spans: &[(u64, usize)], files: &Path) -> Result<usize, Failure> {
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
fn prepare_files(files: &Path) -> Result<(), Failure> {
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
fn bot_names(setup: &Setup, games: &GameStore) -> Vec<String> {
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
fn existing(path: &Path) -> Result<Option<String>, Failure> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(usage(format!("cannot read {}: {e}", path.display()))),
    }
}

fn write_report(job: Job, game: GameOf) -> Result<i32, Failure> {
    let Job { dir, output, setup, limit } = job;
    let file_name = output.file_name().expect("checked").to_string_lossy().into_owned();
    let files_name = page::files_dir(&file_name);
    let files = output.parent().unwrap_or(Path::new("")).join(&files_name);
    let read = read_games(&dir.join(GAMES), &game.name)?;
    let standings_file = existing(&dir.join("standings.json"))?;
    let written: Option<Written> = standings_file.as_deref().and_then(|text| serde_json::from_str(text).ok());
    let count = read.summaries.len() as u64;
    let mut partial = Vec::new();
    match written.map(|standings| standings.games) {
        None => partial.push(format!("there is no standings.json yet (a run in progress, or stopped): these are the standings of the {count} games recorded so far")),
        Some(games) if games != count => partial.push(format!("standings.json counts {games} games but {GAMES} holds {count} (a resumed run in progress): these are the standings of the {count} games recorded")),
        Some(_) => {}
    }
    if read.torn {
        partial.push(format!("the last line of {GAMES} is cut short (a record being written), so it is left out"));
    }
    let sprt_file = existing(&dir.join(SPRT_RESULT))?;
    let (kind, seed, sprt) = match &setup {
        Setup::Match => (Kind::Match, written.and_then(|standings| standings.seed), None),
        Setup::League(config) => (Kind::League, Some(config.seed), None),
        Setup::Sprt(config) => {
            // The new bot, and a copy of the base bot for every other side.
            let sides = config.games.bots.len();
            if sprt_file.is_none() {
                partial.push(format!("there is no {SPRT_RESULT} yet: the test is in progress or was stopped"));
            }
            let ended = sprt_file.as_deref().and_then(|text| serde_json::from_str::<Ended>(text).ok());
            let inconclusive = ended.is_some_and(|ended| ended.conclusion == Conclusion::Inconclusive);
            let setup = SprtSetup {
                test: config.test,
                games_per_deal: Seating::Rotations.games_per_deal(sides) as usize,
                results_per_game: sides - 1,
                interrupted: !inconclusive,
            };
            (Kind::Sprt, Some(config.games.seed), Some(setup))
        }
    };
    let page = |record: &str| crate::engine::games::html_page(&game.name, game.program, record);
    let viewer = Viewer::cut(page, &read.samples.iter().map(String::as_str).collect::<Vec<_>>());
    if viewer.is_none() && count > 0 {
        errln!(
            "warning: the {} replay page cannot be rebuilt from the records, so the report has no replays",
            game.name
        );
    }
    let names = bot_names(&setup, &read.summaries);
    let summaries = read.summaries;
    let replayed = core::replayed(&summaries.faulty(), if viewer.is_some() { limit } else { 0 });
    prepare_files(&files)?;
    let spans: Vec<(u64, usize)> = summaries.spans().zip(&replayed).filter(|(_, r)| **r).map(|(s, _)| s).collect();
    let chunks = write_chunks(&dir.join(GAMES), &spans, &files)?;
    let partial = (!partial.is_empty()).then(|| partial.join("; "));
    let input = Input {
        game: &game.name,
        scoring: game.scoring,
        kind,
        source: dir.display().to_string(),
        names,
        seed,
        partial: partial.clone(),
        games: &summaries,
        replayed: &replayed,
        move_times: read.move_times,
        least_clock: read.least_clock,
        sprt,
        rounds: match &setup {
            Setup::League(config) if config.format.has_rounds() => {
                Some((config.rounds.as_slice(), crate::league::learning::games_per_pair(config.games)))
            }
            _ => None,
        },
        viewer,
        files: files_name.clone(),
    };
    let (report, standings_json, sprt_json) = core::build(input)?;
    if partial.is_none() && standings_file.as_deref() != Some(standings_json.as_str()) {
        errln!(
            "warning: standings.json differs from the standings of the records (was a file edited?); the page shows the records'"
        );
    }
    if let (Some(ours), Some(theirs)) = (&sprt_json, &sprt_file)
        && ours != theirs
    {
        errln!(
            "warning: {SPRT_RESULT} differs from the test of the records (was a file edited?); the page shows the records'"
        );
    }
    let data = serde_json::to_string(&report).expect("reports serialize");
    std::fs::write(&output, page::page(&data)).map_err(|e| usage(format!("cannot write {}: {e}", output.display())))?;
    let _ = outln!(
        "wrote {} ({count} games, {} with a replay: their records are in {}, {chunks} files)",
        output.display(),
        spans.len(),
        files.display(),
    );
    if let Some(why) = partial {
        let _ = outln!("partial: {why}");
    }
    Ok(exit::SUCCESS)
}
