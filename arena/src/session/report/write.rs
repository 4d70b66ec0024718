//! A report written: its page, built from the records read, checked against
//! the standings and the test the run wrote.

use super::games::{bot_names, existing, prepare_files, read_games, write_chunks};
use super::job::{GameOf, Job, Setup};
use crate::report::page::{self, Viewer};
use crate::report::{self as core, Input, Kind, SprtSetup};
use crate::schedule::Seating;
use crate::session::exit::{self, Failure, usage};
use crate::stats::sprt::report::{Conclusion, Ended};
use crate::stats::standings::report::Written;
use crate::store::output::{GAMES, SPRT_RESULT};
use crate::terminal::console::{errln, outln};
use std::path::Path;

/// Writes the report that `job` asks for, of records of `game`.
pub(super) fn write_report(job: Job, game: GameOf) -> Result<i32, Failure> {
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
        Setup::League(config) => (Kind::League, Some(config.kept.seed), None),
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
            (Kind::Sprt, Some(config.games.kept.seed), Some(setup))
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
            Setup::League(config) if config.kept.format.has_rounds() => {
                Some((config.rounds.as_slice(), crate::league::learning::games_per_pair(config.kept.games)))
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
