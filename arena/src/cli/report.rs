//! `arena report`: the output directory of a match, a league or an SPRT as
//! an HTML page (see [`crate::report`]), with its records in a directory
//! beside it for the replays. A directory still being written is reported
//! as it stands, and called partial.

use super::record_file::{self, Header};
use super::sprt::{SPRT_CONFIG, SPRT_RESULT, SprtConfig};
use super::{Failure, internal, usage};
use crate::config::LeagueConfig;
use crate::console::{errln, outln};
use crate::game::Game;
use crate::games::{GameCommand, dispatch};
use crate::output::{GAMES, LEAGUE};
use crate::record::{GameRecord, GameSummary};
use crate::report::page::{self, CHUNK, Viewer};
use crate::report::{self as core, Input, Kind, SprtSetup};
use crate::schedule::Seating;
use clap::Args;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Examples shown by `arena report --help`.
pub const EXAMPLES: &str = "Examples:
  arena report results                      # writes results/report.html and results/report-files/
  arena report league-out -o league.html    # league.html and league-files/ in the working directory
  arena report sprt-results -o sprt.html";

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
        Err(failure) => return Err(failure),
    };
    let game = match (&setup, first) {
        (Setup::League(config), _) => config.game.clone(),
        (Setup::Sprt(config), _) => config.games.game.clone(),
        (Setup::Match, Some(line)) => line
            .header
            .map(|h: Header| h.game)
            .map_err(|e| usage(format!("{} line {}: {e}", games.display(), line.number)))?,
        (Setup::Match, None) => return Err(usage(format!("{} holds no games yet", games.display()))),
    };
    dispatch(&game, Job { dir, output, setup }).map_err(usage)?
}

/// A configuration file of the directory.
fn read_json<T: serde::de::DeserializeOwned>(path: &Path, what: &str) -> Result<T, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| usage(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| usage(format!("{} is not {what}: {e}", path.display())))
}

/// The games of a directory, read once.
struct Games {
    /// Summaries with their place among the records, in id order.
    summaries: Vec<(GameSummary, usize)>,
    /// Each bot's move times, in microseconds.
    move_times: BTreeMap<String, Vec<u64>>,
    /// The first and the last record, to cut the replay page from.
    samples: Vec<String>,
    /// Whether the last line was cut short (a record being written).
    torn: bool,
    /// How many chunk files were written.
    chunks: usize,
}

/// Reads every record of `games` (a damaged last line is taken as one
/// being written), collecting what the report needs and writing the
/// records in chunks to `files`.
fn read_games<G: Game>(games: &Path, files: &Path) -> Result<Games, Failure> {
    let name = games.display();
    let mut read =
        Games { summaries: Vec::new(), move_times: BTreeMap::new(), samples: Vec::new(), torn: false, chunks: 0 };
    let mut chunk: Vec<String> = Vec::with_capacity(CHUNK);
    let mut last = String::new();
    let mut damaged: Option<(usize, String)> = None;
    for line in record_file::lines(games)? {
        let line = line?;
        if let Some((number, why)) = damaged.take() {
            return Err(usage(format!("{name} line {number} is not a valid {} record: {why}", G::NAME)));
        }
        let record = match serde_json::from_str::<GameRecord<G::Variant, G::Event>>(&line.text) {
            Ok(record) => record,
            Err(e) => {
                let why = line.header.err().unwrap_or_else(|| e.to_string());
                damaged = Some((line.number, why));
                continue;
            }
        };
        for event in &record.events {
            if let (Some(time), Some((seat, _))) = (event.time_us, G::decision(&event.event)) {
                read.move_times.entry(record.bots[seat].clone()).or_default().push(time);
            }
        }
        let position = read.summaries.len();
        read.summaries.push((record.summary(), position));
        if read.samples.is_empty() {
            read.samples.push(line.text.clone());
        }
        chunk.push(line.text.clone());
        last = line.text;
        if chunk.len() == CHUNK {
            write_chunk(files, read.chunks, &chunk)?;
            read.chunks += 1;
            chunk.clear();
        }
    }
    if !chunk.is_empty() {
        write_chunk(files, read.chunks, &chunk)?;
        read.chunks += 1;
    }
    if read.summaries.len() > 1 {
        read.samples.push(last);
    }
    read.torn = damaged.is_some();
    read.summaries.sort_by_key(|(summary, _)| summary.id);
    Ok(read)
}

fn write_chunk(files: &Path, index: usize, records: &[String]) -> Result<(), Failure> {
    let path = files.join(page::chunk_name(index));
    std::fs::write(&path, page::chunk(index, records))
        .map_err(|e| internal(format!("cannot write {}: {e}", path.display())))
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
fn bot_names(setup: &Setup, games: &[(GameSummary, usize)]) -> Vec<String> {
    match setup {
        Setup::League(config) => config.bots.iter().map(|b| b.name.clone()).collect(),
        Setup::Sprt(config) => config.games.bots.iter().map(|b| b.name.clone()).collect(),
        Setup::Match => {
            let mut names: Vec<String> = Vec::new();
            for name in games.iter().flat_map(|(game, _)| &game.bots) {
                if !names.contains(name) {
                    names.push(name.clone());
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

fn write_report<G: Game>(job: Job) -> Result<i32, Failure> {
    let Job { dir, output, setup } = job;
    let file_name = output.file_name().expect("checked").to_string_lossy().into_owned();
    let files_name = page::files_dir(&file_name);
    let files = output.parent().unwrap_or(Path::new("")).join(&files_name);
    prepare_files(&files)?;
    let read = read_games::<G>(&dir.join(GAMES), &files)?;
    let standings_file = existing(&dir.join("standings.json"))?;
    let written: Option<serde_json::Value> = standings_file.as_deref().and_then(|text| serde_json::from_str(text).ok());
    let count = read.summaries.len() as u64;
    let mut partial = Vec::new();
    match written.as_ref().and_then(|json| json["games"].as_u64()) {
        None => partial.push(format!("there is no standings.json yet (a run in progress, or stopped): these are the standings of the {count} games recorded so far")),
        Some(games) if games != count => partial.push(format!("standings.json counts {games} games but {GAMES} holds {count} (a resumed run in progress): these are the standings of the {count} games recorded")),
        Some(_) => {}
    }
    if read.torn {
        partial.push(format!("the last line of {GAMES} is cut short (a record being written), so it is left out"));
    }
    let sprt_file = existing(&dir.join(SPRT_RESULT))?;
    let (kind, seed, sprt) = match &setup {
        Setup::Match => (Kind::Match, written.as_ref().and_then(|json| json["seed"].as_u64()), None),
        Setup::League(config) => (Kind::League, Some(config.seed), None),
        Setup::Sprt(config) => {
            let variant =
                G::parse_variant(&config.games.settings).map_err(|e| usage(format!("{SPRT_CONFIG}: variant: {e}")))?;
            let sides = G::teams(&variant).len();
            if sprt_file.is_none() {
                partial.push(format!("there is no {SPRT_RESULT} yet: the test is in progress or was stopped"));
            }
            let ended = sprt_file.as_deref().and_then(|text| serde_json::from_str::<serde_json::Value>(text).ok());
            let inconclusive = ended.is_some_and(|json| json["conclusion"] == "inconclusive");
            let setup = SprtSetup {
                test: config.test,
                games_per_deal: Seating::Rotations.games_per_deal(sides) as usize,
                results_per_game: sides - 1,
                interrupted: !inconclusive,
            };
            (Kind::Sprt, Some(config.games.seed), Some(setup))
        }
    };
    let viewer = Viewer::cut(G::html_page, &read.samples.iter().map(String::as_str).collect::<Vec<_>>());
    if viewer.is_none() && count > 0 {
        errln!("warning: the {} replay page cannot be rebuilt from the records, so the report has no replays", G::NAME);
    }
    let names = bot_names(&setup, &read.summaries);
    let (summaries, positions): (Vec<GameSummary>, Vec<usize>) = read.summaries.into_iter().unzip();
    let partial = (!partial.is_empty()).then(|| partial.join("; "));
    let input = Input {
        game: G::NAME,
        kind,
        source: dir.display().to_string(),
        names,
        seed,
        partial: partial.clone(),
        games: &summaries,
        positions: &positions,
        move_times: read.move_times,
        sprt,
        viewer,
        files: files_name.clone(),
    };
    let (report, standings_json, sprt_json) = core::build(input).map_err(usage)?;
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
        "wrote {} ({count} games; their records for the replays in {}, {} files)",
        output.display(),
        files.display(),
        read.chunks
    );
    if let Some(why) = partial {
        let _ = outln!("partial: {why}");
    }
    Ok(0)
}

impl GameCommand for Job {
    type Output = Result<i32, Failure>;
    fn run<G: Game>(self) -> Result<i32, Failure> {
        write_report::<G>(self)
    }
}
