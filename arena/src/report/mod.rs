//! `arena report`: the results of a match, a league or an SPRT as one HTML
//! page (with its records in files beside it). Pure: [`build`] turns the
//! games' summaries into the page's data with the same code the runs use
//! (standings, ratings, the SPRT), so that every number on the page is the
//! one in `standings.json` and `sprt.json`; the command
//! (`crate::cli`) reads the directory and writes the files.
//!
//! - [`history`]: the Elo ratings after each batch of games.
//! - [`course`]: the SPRT's LLR and Elo estimate after each deal.
//! - [`move_times`]: each bot's median, p99 (within 1%) and longest move time, and the least clock it left.
//! - [`rounds`]: a learning league's rounds, and how well its table was known after each.
//! - [`store`]: the games, held compactly (a million fit in about 130 MB).
//! - [`page`]: the page, the replay viewer and the record chunks.

pub(crate) mod course;
pub(crate) mod history;
pub(crate) mod move_times;
pub(crate) mod page;
pub(crate) mod rounds;
pub(crate) mod store;

use crate::bot::fault::FaultKind;
use crate::stats::fault_summary::{FaultSummary, KindSummary};
use crate::stats::sprt::report::Summary;
use crate::stats::sprt::{SprtError, Test};
use crate::stats::standings::Standings;
use crate::stats::standings::cells::{self, Grid};
use course::Step;
use game::Scoring;
use history::Checkpoint;
use move_times::{MoveTimes, Recorder};
use page::Viewer;
use serde::Serialize;
use serde::ser::SerializeSeq;
use std::collections::BTreeMap;
use store::GameStore;

/// At most about this many points on the charts of the ratings' and the SPRT's course.
pub const POINTS: usize = 400;

/// What ran in an output directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// `arena match`.
    Match,
    /// `arena league`.
    League,
    /// `arena sprt`.
    Sprt,
}

/// The test of an SPRT directory.
#[derive(Debug, Clone, Copy)]
pub struct SprtSetup {
    /// The test.
    pub test: Test,
    /// Games per deal.
    pub games_per_deal: usize,
    /// The new bot's results per game (one per opponent).
    pub results_per_game: usize,
    /// Whether the run stopped before its end (so no verdict means "interrupted").
    pub interrupted: bool,
}

/// What the report is made from.
pub struct Input<'a> {
    /// The game's name.
    pub game: &'a str,
    /// How the game's scores are read (its `Game::SCORING`).
    pub scoring: Scoring,
    /// What ran.
    pub kind: Kind,
    /// The directory, as the user named it.
    pub source: String,
    /// The bots, in the order they were given (the new bot first in an SPRT).
    pub names: Vec<String>,
    /// The seed of the run, when known.
    pub seed: Option<u64>,
    /// Why the results are partial, when they are.
    pub partial: Option<String>,
    /// Every game, in id order.
    pub games: &'a GameStore,
    /// Whether each game (in the same order) has its replay (see [`replayed`]).
    pub replayed: &'a [bool],
    /// Each bot's move times.
    pub move_times: BTreeMap<String, Recorder>,
    /// Each bot's least clock left after a move, in microseconds (a bot
    /// that never played under a clock is absent).
    pub least_clock: BTreeMap<String, u64>,
    /// The test, for an SPRT.
    pub sprt: Option<SprtSetup>,
    /// The rounds of a learning league, and the games of a pair in a round.
    pub rounds: Option<(&'a [Vec<Vec<usize>>], u64)>,
    /// The replay page cut around its record, when the engine's page allows it.
    pub viewer: Option<Viewer>,
    /// The directory of the record chunks, relative to the page.
    pub files: String,
}

/// The report: everything the page shows.
#[derive(Debug, Serialize)]
pub struct Report<'a> {
    /// The game's name.
    pub game: String,
    /// What ran.
    pub kind: Kind,
    /// The directory.
    pub source: String,
    /// Why the results are partial, when they are.
    pub partial: Option<String>,
    /// `standings.json` as the run writes it (its `seed` `null` when unknown).
    pub standings: serde_json::Value,
    /// The standings tables as the terminal shows them.
    pub tables: Tables,
    /// The bots of the game list (`bots` of each row are indices into it).
    pub bots: Vec<String>,
    /// Each bot's faults and move times, in rank order.
    pub details: Vec<BotDetail>,
    /// The Elo ratings' course: `elo[i]` is bot `bots[i]`'s.
    pub history: Vec<Checkpoint>,
    /// The SPRT, for an SPRT directory.
    pub sprt: Option<SprtReport>,
    /// A learning league's rounds (empty for any other run).
    pub rounds: Vec<rounds::Round>,
    /// Every game, in id order.
    pub games: GameList<'a>,
    /// The replay page, when the engine's page can be shared.
    pub viewer: Option<Viewer>,
    /// The directory of the record chunks, relative to the page.
    pub files: String,
    /// Records per chunk.
    pub chunk: usize,
}

/// The standings tables, as text cells.
#[derive(Debug, Serialize)]
pub struct Tables {
    /// What a game's score counts, in the plural (`"points"`, `"chips"`).
    pub unit: String,
    /// Whether the bots are ranked by their mean score per game (else by Elo).
    pub rank_by_mean: bool,
    /// The main table's title, saying how the bots are ranked.
    pub main_title: String,
    /// The main table.
    pub main: Grid,
    /// The LOS matrix's title, saying what it is read from.
    pub los_title: String,
    /// The head-to-head matrix.
    pub head_to_head: Grid,
    /// The likelihood-of-superiority matrix (3 bots or more).
    pub los: Option<Grid>,
    /// A warning for each bot that did better on deals it had met before
    /// ([`crate::stats::standings::repeats`]).
    pub warnings: Vec<String>,
}

/// One bot's faults and move times.
#[derive(Debug, Serialize)]
pub struct BotDetail {
    /// The bot.
    pub name: String,
    /// Its faults by kind.
    pub faults: BTreeMap<FaultKind, KindSummary>,
    /// Its move times, if it moved.
    pub moves: Option<move_times::MoveTimes>,
}

/// An SPRT's summary and course.
#[derive(Debug, Serialize)]
pub struct SprtReport {
    /// `sprt.json` as the run writes it.
    pub summary: Summary,
    /// The test after each deal (or every `every` deals).
    pub course: Vec<Step>,
    /// Deals per step.
    pub every: u64,
}

/// The game list: each game as a row of id, deal, the bot of each seat (an
/// index into [`Report::bots`]), each seat's place and score, why it ended,
/// its faults (seat, kind), and its place among the replayed games (which
/// chunk holds its record), `null` when it has no replay. Written as the page
/// is, row by row from the store, so that a million games need no second copy.
#[derive(Debug)]
pub struct GameList<'a> {
    games: &'a GameStore,
    replayed: &'a [bool],
    /// The index into [`Report::bots`] of each of the store's bots.
    index: Vec<usize>,
}

impl Serialize for GameList<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.games.len()))?;
        let mut replays = 0;
        for (at, &replayed) in self.replayed.iter().enumerate() {
            let game = self.games.listed(at);
            let position = replayed.then(|| {
                replays += 1;
                replays - 1
            });
            let seats: Vec<usize> = game.bots.iter().map(|&b| self.index[b as usize]).collect();
            let faults: Vec<(usize, FaultKind)> = game.faults.iter().map(|f| (f.seat, f.kind)).collect();
            seq.serialize_element(&(
                game.id,
                game.deal,
                seats,
                game.ranks,
                game.scores,
                game.reason,
                faults,
                position,
            ))?;
        }
        seq.end()
    }
}

/// Which games (in id order, `faulty` telling which have a fault) get a replay, at most `limit`: every game
/// when there are no more; else the games with a fault, up to half the
/// limit, and evenly spaced games among the others for the rest.
pub fn replayed(faulty: &[bool], limit: usize) -> Vec<bool> {
    let n = faulty.len();
    if n <= limit {
        return vec![true; n];
    }
    let mut chosen = vec![false; n];
    let faulty = (0..n).filter(|&i| faulty[i]).take(limit / 2);
    faulty.for_each(|i| chosen[i] = true);
    let others: Vec<usize> = (0..n).filter(|&i| !chosen[i]).collect();
    let left = limit - chosen.iter().filter(|&&c| c).count();
    for k in 0..left {
        chosen[others[k * others.len() / left]] = true;
    }
    chosen
}

/// The report of `input`, with `standings.json` and (for an SPRT)
/// `sprt.json` as the run would write them, to compare with the files.
///
/// # Errors
/// When the games of an SPRT do not pair up (see [`DealSequence::new`](crate::stats::sprt::DealSequence::new)).
pub fn build(input: Input<'_>) -> Result<(Report<'_>, String, Option<String>), SprtError> {
    let Input {
        game,
        scoring,
        kind,
        source,
        names,
        seed,
        partial,
        games,
        replayed,
        move_times,
        least_clock,
        sprt,
        rounds: chosen,
        viewer,
        files,
    } = input;
    let mut standings = Standings::new(&names, scoring.clone());
    let mut faults = FaultSummary::default();
    for summary in games.iter() {
        standings.add(&summary);
        faults.add(&summary);
    }
    let standings_json = standings.to_json(game, seed.unwrap_or_default());
    let mut standings_value: serde_json::Value = serde_json::from_str(&standings_json).expect("standings are JSON");
    if seed.is_none() {
        standings_value["seed"] = serde_json::Value::Null;
    }
    let ranking = standings.ranking();
    let tables = Tables {
        unit: scoring.unit.to_string(),
        rank_by_mean: scoring.rank_by_mean,
        main_title: cells::main_title(&ranking).trim_start_matches("Standings: ").to_string(),
        main: cells::main_table(&ranking),
        los_title: cells::los_title(&ranking).trim_start_matches("Likelihood of superiority: ").to_string(),
        head_to_head: cells::head_to_head(&ranking),
        los: (ranking.order.len() >= 3).then(|| cells::los_matrix(&ranking)),
        warnings: crate::stats::standings::repeats::warnings(&ranking),
    };
    let mut move_times = move_times;
    let details = ranking
        .bots()
        .map(|(_, bot)| BotDetail {
            name: bot.name.clone(),
            faults: faults.of(&bot.name).cloned().unwrap_or_default(),
            moves: move_times
                .remove(&bot.name)
                .and_then(|times| times.times())
                .map(|moves| MoveTimes { least_clock_us: least_clock.get(&bot.name).copied(), ..moves }),
        })
        .collect();
    let (sprt, sprt_json) = match sprt {
        Some(setup) => {
            let (sequence, steps, every) =
                course::course(setup.test, setup.games_per_deal, setup.results_per_game, &names, games.iter(), POINTS)?;
            let conclusion = sequence.conclusion(setup.interrupted);
            let played = games.len() as u64;
            let summary = Summary::new(&names[0], &names[1], &sequence, &scoring.unit, played, conclusion);
            let json = serde_json::to_string_pretty(&summary).expect("summaries serialize") + "\n";
            (Some(SprtReport { summary, course: steps, every }), Some(json))
        }
        None => (None, None),
    };
    let history = history::history(&names, games.iter(), POINTS);
    let rounds =
        chosen.map_or_else(Vec::new, |(chosen, per_pair)| rounds::rounds(&names, || games.iter(), chosen, per_pair));
    // The bots the configuration names, then any other that a record names.
    let mut bots = names;
    let mut index = Vec::with_capacity(games.names().len());
    for name in games.names() {
        index.push(bots.iter().position(|b| b == name).unwrap_or_else(|| {
            bots.push(name.clone());
            bots.len() - 1
        }));
    }
    let report = Report {
        game: game.to_string(),
        kind,
        source,
        partial,
        standings: standings_value,
        tables,
        bots,
        details,
        history,
        sprt,
        rounds,
        games: GameList { games, replayed, index },
        viewer,
        files,
        chunk: page::CHUNK,
    };
    Ok((report, standings_json, sprt_json))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::sprt::{Model, Sprt};
    use crate::stats::standings::fixtures::{names, results};
    use crate::store::record::{FaultRecord, GameSummary};

    fn stored(games: &[GameSummary]) -> GameStore {
        let mut store = GameStore::default();
        games.iter().for_each(|game| store.push(game, (0, 0)));
        store
    }

    fn input<'a>(games: &'a GameStore, replayed: &'a [bool]) -> Input<'a> {
        Input {
            game: "g",
            scoring: Scoring::POINTS,
            kind: Kind::League,
            source: "out".into(),
            names: names(&["b", "a"]),
            seed: Some(5),
            partial: None,
            games,
            replayed,
            move_times: BTreeMap::from([(
                "a".to_string(),
                [3, 1, 2].into_iter().fold(Recorder::default(), |mut r, t| {
                    r.record(t);
                    r
                }),
            )]),
            least_clock: BTreeMap::from([("a".to_string(), 40)]),
            sprt: None,
            rounds: None,
            viewer: None,
            files: "report-files".into(),
        }
    }

    fn numbered(mut games: Vec<GameSummary>) -> Vec<GameSummary> {
        for (at, game) in games.iter_mut().enumerate() {
            (game.id, game.origin.deal, game.origin.arrangement) = (at as u64, at as u64 / 2, at % 2);
        }
        games
    }

    #[test]
    fn the_report_holds_the_standings_as_written_and_lists_every_game() {
        let mut games = numbered(results("a", "b", 6, 1, 3));
        games[4].faults.push(FaultRecord {
            seat: 1,
            bot: "b".into(),
            kind: FaultKind::Timeout,
            message: "slow".into(),
            stderr: vec!["thinking".into()],
        });
        games[4].bots[0] = "guest".into();
        let replayed: Vec<bool> = (0..games.len()).map(|i| i % 3 != 0).collect();
        let store = stored(&games);
        let (report, standings_json, sprt_json) = build(input(&store, &replayed)).unwrap();
        let mut expected = Standings::new(&names(&["b", "a"]), Scoring::POINTS);
        games.iter().for_each(|g| expected.add(g));
        assert_eq!(standings_json, expected.to_json("g", 5));
        assert_eq!(report.standings, serde_json::from_str::<serde_json::Value>(&standings_json).unwrap());
        assert_eq!(sprt_json, None);
        assert_eq!(report.tables.main.rows.len(), 2);
        assert!(report.tables.los.is_none(), "two bots: no LOS matrix");
        assert_eq!(report.bots, ["b", "a", "guest"], "a bot only the records name is listed too");
        let list = serde_json::to_value(&report.games).unwrap();
        assert_eq!(list.as_array().map(Vec::len), Some(games.len()), "every game is listed");
        assert_eq!(list[4], serde_json::json!([4, 2, [2, 0], [0, 1], [250, 100], "target", [[1, "timeout"]], 2]));
        assert_eq!(list[3][7], serde_json::Value::Null, "no replay");
        let details: Vec<&str> = report.details.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(details, ["a", "b"], "rank order");
        assert_eq!(report.details[0].moves.map(|m| (m.median_us, m.least_clock_us)), Some((2, Some(40))));
        assert_eq!(report.details[1].faults[&FaultKind::Timeout].stderr, ["thinking"]);
        let last = report.history.last().unwrap();
        assert_eq!(last.games, 10);
        let seedless = build(Input { seed: None, ..input(&store, &replayed) }).unwrap().0;
        assert_eq!(seedless.standings["seed"], serde_json::Value::Null);
    }

    #[test]
    fn replays_go_to_every_game_or_to_the_faulty_and_a_spread_of_the_others() {
        let mut games = numbered(results("a", "b", 10, 0, 10));
        let faulty = |games: &[GameSummary]| -> Vec<bool> { games.iter().map(|g| !g.faults.is_empty()).collect() };
        assert_eq!(replayed(&faulty(&games), 20), vec![true; 20]);
        for faulty in [1, 2, 3, 4, 5] {
            games[faulty].faults.push(FaultRecord {
                seat: 0,
                bot: "a".into(),
                kind: FaultKind::Exited,
                message: "gone".into(),
                stderr: vec![],
            });
        }
        let chosen = |limit| -> Vec<usize> { (0..20).filter(|&i| replayed(&faulty(&games), limit)[i]).collect() };
        // Two faulty games (half of 4), then 2 of the 18 others, evenly spaced.
        assert_eq!(chosen(4), [0, 1, 2, 11]);
        assert_eq!(chosen(19).len(), 19);
        assert!(chosen(0).is_empty());
    }

    #[test]
    fn an_sprt_report_holds_sprt_json() {
        let games = numbered(results("new", "base", 30, 4, 6));
        let replayed = vec![true; games.len()];
        let store = stored(&games);
        let test = Test::Pentanomial(Sprt::new(0.0, 40.0, 0.05, 0.05, Model::Normalized).unwrap());
        let setup = SprtSetup { test, games_per_deal: 2, results_per_game: 1, interrupted: true };
        let sprt_input =
            Input { kind: Kind::Sprt, names: names(&["new", "base"]), sprt: Some(setup), ..input(&store, &replayed) };
        let (report, _, sprt_json) = build(sprt_input).unwrap();
        let sprt = report.sprt.unwrap();
        let sprt_json = sprt_json.unwrap();
        assert_eq!(sprt_json, serde_json::to_string_pretty(&sprt.summary).unwrap() + "\n");
        let json: serde_json::Value = serde_json::from_str(&sprt_json).unwrap();
        assert_eq!(json["llr"].as_f64(), Some(sprt.course.last().unwrap().llr));
        assert_eq!(json["games_played"], 40);
    }
}
