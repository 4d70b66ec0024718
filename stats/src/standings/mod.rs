//! Standings: per-bot totals and ratings over finished games, and their
//! rendering. Pure.
//!
//! A bot that holds several seats of one game (partners) counts that game
//! once. A bot *wins* when it alone holds first place, *draws* when it shares
//! first place with another bot, and *loses* otherwise. Its score is
//! `(wins + draws / 2) / games`.
//!
//! Beside them, each bot's mean final score per game (for a payoff game,
//! its mean payoff, e.g. chips won per game) with a 95%
//! confidence interval, which ranks bots by what they win rather than by how
//! often they win.
//!
//! The bots are ranked by their Elo rating (or, for a game whose
//! [`Scoring`] says so, such as a payoff game, by their mean score per game
//! first) ([`crate::ratings::elo`]), from
//! one pairwise result between every two bots of every game; ties are broken
//! by score, then by the order the bots were given. Games of 3 or more sides
//! also give Weng–Lin ratings ([`crate::ratings::weng_lin`]).
//!
//! - [`Standings::table_within`]: the text tables printed after a match ([`text`]).
//! - [`Standings::report`]: JSON (`standings.json`), CSV or Markdown ([`report`]).

pub mod cells;
pub mod repeats;
pub mod report;
pub mod text;
pub mod whole_deals;

pub use report::{ReportFormat, UnknownReportFormat};

use crate::ratings::{Elo, RatingTally, WengLin};
use game::Scoring;
use records::fault::FaultKind;
use records::record::GameSummary;
use repeats::{RepeatedDeals, Repeats};
use std::collections::BTreeMap;

/// One bot's totals.
#[derive(Debug, Clone, PartialEq)]
pub struct BotStanding {
    /// The bot's name.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// `(wins + draws / 2) / games`, 0 before any game.
    pub score: f64,
    /// Mean final score of the bot's side.
    pub points_for: f64,
    /// The half-width of the 95% confidence interval of `points_for`
    /// (1.96 standard errors, from the sample variance of the final scores;
    /// 0 before 2 games).
    pub points_for_interval: f64,
    /// Mean final score of the opposing sides (averaged over them in a free-for-all).
    pub points_against: f64,
    /// Faults in all.
    pub faults: u64,
    /// Faults by kind (kinds that happened only).
    pub faults_by_kind: BTreeMap<FaultKind, u64>,
    /// Games it faulted in, and so forfeited.
    pub forfeits: u64,
    points_for_sum: i64,
    /// The sum of the squared final scores, for the interval.
    points_for_squares: i128,
    /// The sum of each game's mean opposing score, times [`AGAINST_SCALE`]:
    /// kept exact, so that the mean never depends on the order of the games.
    points_against_scaled: i128,
}

/// A multiple of every number of opponents a game can have (the least
/// common multiple of 1 to 16), so that mean opposing scores add up exactly.
const AGAINST_SCALE: i128 = 720_720;

impl BotStanding {
    /// `wins / games`, 0 before any game.
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.wins as f64 / self.games as f64 }
    }
}

/// Totals and ratings for every bot of a match.
#[derive(Debug, Clone, PartialEq)]
pub struct Standings {
    /// Games counted.
    pub games: u64,
    /// The bots, in the order they were given.
    pub bots: Vec<BotStanding>,
    /// How the game's scores are read (its [`Game::SCORING`](game::Game::SCORING)).
    pub scoring: Scoring,
    ratings: RatingTally,
    repeats: Repeats,
}

impl Standings {
    /// Empty standings for these bots, their scores read as `scoring` says.
    pub fn new(names: &[String], scoring: Scoring) -> Standings {
        let bots = names
            .iter()
            .map(|name| BotStanding {
                name: name.clone(),
                games: 0,
                wins: 0,
                losses: 0,
                draws: 0,
                score: 0.0,
                points_for: 0.0,
                points_for_interval: 0.0,
                points_against: 0.0,
                faults: 0,
                faults_by_kind: BTreeMap::new(),
                forfeits: 0,
                points_for_sum: 0,
                points_for_squares: 0,
                points_against_scaled: 0,
            })
            .collect();
        Standings { games: 0, bots, scoring, ratings: RatingTally::new(names), repeats: Repeats::default() }
    }

    /// Adds one finished game. Bots not in the standings are ignored.
    pub fn add(&mut self, game: &GameSummary) {
        self.games += 1;
        self.ratings.add(game);
        let ranks = &game.result.ranks;
        let scores = &game.result.scores;
        let key = records::seeds::play_key(game.origin.seed, game.id);
        for (index, bot) in self.bots.iter_mut().enumerate() {
            let seats: Vec<usize> = (0..game.bots.len()).filter(|&s| game.bots[s] == bot.name).collect();
            let Some(&first_seat) = seats.first() else { continue };
            let rank = seats.iter().map(|&s| ranks[s]).min().unwrap_or(u32::MAX);
            let others_first = (0..game.bots.len()).any(|s| game.bots[s] != bot.name && ranks[s] == 0);
            match (rank, others_first) {
                (0, false) => bot.wins += 1,
                (0, true) => bot.draws += 1,
                _ => bot.losses += 1,
            }
            bot.games += 1;
            bot.points_for_sum += scores[first_seat];
            bot.points_for_squares += i128::from(scores[first_seat]).pow(2);
            let opponents: Vec<i64> = opposing_scores(game, &bot.name);
            if !opponents.is_empty() {
                let sum: i128 = opponents.iter().map(|&s| i128::from(s)).sum();
                let against = sum * (AGAINST_SCALE / opponents.len() as i128);
                bot.points_against_scaled += against;
                let margin = i128::from(scores[first_seat]) * AGAINST_SCALE - against;
                self.repeats.add(index, game.origin.deal, key, margin);
            }
            for fault in game.faults.iter().filter(|f| f.bot == bot.name) {
                bot.faults += 1;
                *bot.faults_by_kind.entry(fault.kind).or_default() += 1;
            }
            bot.forfeits += u64::from(game.faults.iter().any(|f| f.bot == bot.name));
            let games = bot.games as f64;
            bot.score = (bot.wins as f64 + bot.draws as f64 / 2.0) / games;
            bot.points_for = bot.points_for_sum as f64 / games;
            bot.points_for_interval = interval95(bot.games, bot.points_for_sum, bot.points_for_squares);
            bot.points_against = bot.points_against_scaled as f64 / AGAINST_SCALE as f64 / games;
        }
    }

    /// Closes deal `deal`: all its games are in (see [`Repeats::close`]).
    pub fn close_deal(&mut self, deal: u64) {
        self.repeats.close(deal, self.bots.len());
    }

    /// The pairwise results between bots `i` and `j` (indices into [`Standings::bots`]):
    /// `i`'s score against `j` as a fraction (`None` if they never met) and their number.
    pub fn head_to_head(&self, i: usize, j: usize) -> (Option<f64>, u64) {
        (self.ratings.pairwise.fraction(i, j), self.ratings.pairwise.games(i, j))
    }

    /// The ratings and the rank order, computed once for rendering.
    pub fn ranking(&self) -> Ranking<'_> {
        let elo = self.ratings.elo();
        let weng_lin = self.ratings.weng_lin();
        let mut order: Vec<usize> = (0..self.bots.len()).collect();
        // Ratings are compared to a millionth of an Elo point, so that rounding
        // noise between equal records leaves the tie to the score and the given order.
        let key = |i: usize| elo.rating(i).map(|r| (r * 1e6).round() as i64);
        let by_elo = |a: usize, b: usize| key(b).cmp(&key(a)).then(self.bots[b].score.total_cmp(&self.bots[a].score));
        // Bots without games have no mean: after every bot with one.
        let mean = |i: usize| (self.bots[i].games > 0).then_some(self.bots[i].points_for);
        let by_mean = |a: usize, b: usize| match (mean(a), mean(b)) {
            (Some(x), Some(y)) => y.total_cmp(&x),
            (x, y) => y.is_some().cmp(&x.is_some()),
        };
        order.sort_by(|&a, &b| {
            let first = if self.scoring.rank_by_mean { by_mean(a, b).then(by_elo(a, b)) } else { by_elo(a, b) };
            first.then(a.cmp(&b))
        });
        let repeated = self.repeats.tested(self.bots.len(), AGAINST_SCALE as f64);
        Ranking { standings: self, elo, weng_lin, order, repeated }
    }

    /// The bots in rank order: by Elo rating, then score, then the given
    /// order; for a game ranked by mean score, by that mean first.
    pub fn ranked(&self) -> Vec<&BotStanding> {
        self.ranking().order.into_iter().map(|i| &self.bots[i]).collect()
    }

    /// `standings.json` (see [`report`]): the same as `report(ReportFormat::Json, game, seed)`.
    pub fn to_json(&self, game: &str, seed: u64) -> String {
        self.report(ReportFormat::Json, game, seed)
    }

    /// The standings as JSON, CSV or Markdown (see [`report`]).
    pub fn report(&self, format: ReportFormat, game: &str, seed: u64) -> String {
        report::render(&self.ranking(), format, game, seed)
    }

    /// The standings as text: the main table, the head-to-head matrix and,
    /// with 3 bots or more, the likelihood-of-superiority matrix, each under a
    /// title line (see [`text`]), the matrices fitted to `width` columns if
    /// given (a terminal's): where a matrix is wider, its columns are numbered
    /// and split over several tables.
    pub fn table_within(&self, width: Option<usize>) -> String {
        text::render(&self.ranking(), width)
    }
}

/// The standings with their ratings computed and the bots in rank order.
#[derive(Debug, Clone)]
pub struct Ranking<'a> {
    /// The standings ranked.
    pub standings: &'a Standings,
    /// The Elo ratings.
    pub elo: Elo,
    /// The Weng–Lin ratings, when some game had 3 or more sides.
    pub weng_lin: Option<Vec<Option<WengLin>>>,
    /// Indices into `standings.bots`, best first.
    pub order: Vec<usize>,
    /// For each bot, whether it did better on deals it had met before ([`repeats`]).
    pub repeated: Vec<Option<RepeatedDeals>>,
}

impl Ranking<'_> {
    /// The likelihood that the bot at `position` (0 for the first) is stronger
    /// than the one ranked just below it; `None` for the last or an unrated bot.
    /// It is read the way the bots are ranked: from their Elo ratings, or,
    /// for a game ranked by mean score, from their mean scores per game (the
    /// normal approximation of the difference of two means with their
    /// standard errors; `None` for a bot without games).
    pub fn los_next(&self, position: usize) -> Option<f64> {
        let (&a, &b) = (self.order.get(position)?, self.order.get(position + 1)?);
        if !self.standings.scoring.rank_by_mean {
            return self.elo.los(a, b);
        }
        let (x, y) = (&self.standings.bots[a], &self.standings.bots[b]);
        if x.games == 0 || y.games == 0 {
            return None;
        }
        let difference = x.points_for - y.points_for;
        let error = (x.points_for_interval.powi(2) + y.points_for_interval.powi(2)).sqrt() / 1.96;
        Some(if error > 0.0 {
            crate::ratings::normal::normal_cdf(difference / error)
        } else {
            match difference.total_cmp(&0.0) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            }
        })
    }

    /// The Weng–Lin rating of bot `i`, if any.
    pub fn weng_lin(&self, i: usize) -> Option<WengLin> {
        self.weng_lin.as_ref().and_then(|ratings| ratings[i])
    }

    /// The bots in rank order, with their indices.
    pub fn bots(&self) -> impl Iterator<Item = (usize, &BotStanding)> {
        self.order.iter().map(|&i| (i, &self.standings.bots[i]))
    }
}

/// The half-width of the 95% confidence interval of a mean of `n` values
/// with this sum and sum of squares: 1.96 times the standard error, from the
/// sample variance (0 for fewer than 2 values). Computed from exact integer
/// sums, so it never depends on the order of the games.
fn interval95(n: u64, sum: i64, squares: i128) -> f64 {
    if n < 2 {
        return 0.0;
    }
    let n = i128::from(n);
    let sum = i128::from(sum);
    // n * (sum of squares) - sum^2 = n (n - 1) * sample variance, exactly.
    let spread = (n * squares - sum * sum) as f64;
    let variance = spread / (n * (n - 1)) as f64;
    1.96 * (variance / n as f64).sqrt()
}

/// The final scores of the sides that do not include `bot`, one per side.
fn opposing_scores(game: &GameSummary, bot: &str) -> Vec<i64> {
    // Seats of one side share a score and a rank; seats of one bot are one side.
    let mut seen_bots: Vec<&str> = Vec::new();
    let mut scores = Vec::new();
    for (seat, name) in game.bots.iter().enumerate() {
        if name != bot && !seen_bots.contains(&name.as_str()) {
            seen_bots.push(name);
            scores.push(game.result.scores[seat]);
        }
    }
    scores
}

/// Games and standings for the tests of this crate and of the arena
/// (feature `fixtures`).
#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures {
    use super::Standings;
    use records::fault::FaultKind;
    use records::record::{FaultRecord, GameResult, GameSummary};

    /// Game `id` with these bots, final scores and ranks.
    pub fn game_with_id(id: u64, bots: &[&str], scores: &[i64], ranks: &[u32]) -> GameSummary {
        GameSummary {
            id,
            origin: Default::default(),
            bots: bots.iter().map(|b| b.to_string()).collect(),
            result: GameResult { reason: "target".into(), scores: scores.to_vec(), ranks: ranks.to_vec() },
            faults: vec![],
        }
    }

    /// Game 0 with these bots, final scores and ranks.
    pub fn game(bots: &[&str], scores: &[i64], ranks: &[u32]) -> GameSummary {
        game_with_id(0, bots, scores, ranks)
    }

    /// Five games of `a` and `b`: two timeouts of `b` (the second with a
    /// stderr tail), a process of `b` not started, `a` exited, and no fault.
    pub fn faulty_games() -> Vec<GameSummary> {
        vec![
            game_with_faults(&[("b", FaultKind::Timeout, "no ready within 300 ms", &[])]),
            game_with_faults(&[(
                "b",
                FaultKind::Timeout,
                "no ready within 300 ms again",
                &["loading", "Traceback", ""],
            )]),
            game_with_faults(&[("b", FaultKind::NotStarted, "not started: it failed", &[])]),
            game_with_faults(&[("a", FaultKind::Exited, "exited with status 2", &["No such file"])]),
            game_with_faults(&[]),
        ]
    }

    /// A game of `a` and `b` with these faults: (bot, kind, message, stderr).
    pub fn game_with_faults(faults: &[(&str, FaultKind, &str, &[&str])]) -> GameSummary {
        let mut game = game(&["a", "b"], &[0, 0], &[0, 1]);
        game.faults = faults
            .iter()
            .map(|&(bot, kind, message, stderr)| FaultRecord {
                seat: 0,
                bot: bot.to_string(),
                kind,
                message: message.to_string(),
                stderr: stderr.iter().map(|s| s.to_string()).collect(),
            })
            .collect();
        game
    }

    /// The names as owned strings.
    pub fn names(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    /// Two-sided games between `a` and `b`: `a` wins, draws and loses this many.
    pub fn results(a: &str, b: &str, wins: usize, draws: usize, losses: usize) -> Vec<GameSummary> {
        let mut games = Vec::new();
        games.extend((0..wins).map(|_| game(&[a, b], &[250, 100], &[0, 1])));
        games.extend((0..draws).map(|_| game(&[b, a], &[200, 200], &[0, 0])));
        games.extend((0..losses).map(|_| game(&[b, a], &[250, 150], &[0, 1])));
        games
    }

    /// Standings of `names` over `games`, with the games numbered in order.
    pub fn standings(names: &[&str], games: &[GameSummary]) -> Standings {
        let mut standings = Standings::new(&self::names(names), game::Scoring::POINTS);
        for (id, game) in games.iter().enumerate() {
            standings.add(&super::GameSummary { id: id as u64, ..game.clone() });
        }
        standings
    }

    /// Free-for-all games numbered from 0 in which `winner` always wins and
    /// the two others take turns in second place.
    pub fn free_for_all(winner: &str, others: [&str; 2], games: u64) -> Vec<GameSummary> {
        (0..games)
            .map(|id| {
                let (first, second) = if id % 2 == 0 { (1, 2) } else { (2, 1) };
                game_with_id(id, &[others[1], winner, others[0]], &[0, 250, 100], &[second, 0, first])
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::*;
    use super::*;
    use records::record::FaultRecord;

    #[test]
    fn counts_wins_draws_losses_and_points() {
        let names = vec!["a".to_string(), "b".to_string()];
        let mut standings = Standings::new(&names, Scoring::POINTS);
        standings.add(&game(&["a", "b"], &[250, 100], &[0, 1]));
        standings.add(&game(&["b", "a"], &[255, 40], &[0, 1]));
        standings.add(&game(&["a", "b"], &[90, 90], &[0, 0]));
        let a = &standings.bots[0];
        assert_eq!((a.games, a.wins, a.draws, a.losses), (3, 1, 1, 1));
        assert_eq!(a.score, 0.5);
        assert_eq!(a.win_rate(), 1.0 / 3.0);
        assert_eq!(a.points_for, (250.0 + 40.0 + 90.0) / 3.0);
        assert_eq!(a.points_against, (100.0 + 255.0 + 90.0) / 3.0);
        // Scores 250, 40, 90: mean 126.67, sample variance 12033.3, so 1.96 * sqrt(12033.3 / 3).
        assert!((a.points_for_interval - 1.96 * (12_033.333_333 / 3.0f64).sqrt()).abs() < 1e-6);
        assert_eq!(standings.head_to_head(0, 1), (Some(0.5), 3));
    }

    #[test]
    fn a_payoff_game_ranks_by_mean_score() {
        // `a` wins two small pots, `b` one big one: `a` has the better Elo, `b` the better mean.
        let games = [
            game(&["a", "b"], &[1, -1], &[0, 1]),
            game(&["b", "a"], &[-1, 1], &[1, 0]),
            game(&["a", "b"], &[-9, 9], &[1, 0]),
        ];
        let names = names(&["a", "b", "idle"]);
        let mut by_elo = Standings::new(&names, Scoring::POINTS);
        let mut by_mean = Standings::new(&names, Scoring::new("chips", true));
        for game in &games {
            by_elo.add(game);
            by_mean.add(game);
        }
        let order = |s: &Standings| s.ranked().iter().map(|b| b.name.clone()).collect::<Vec<_>>();
        assert_eq!(order(&by_elo), ["a", "b", "idle"]);
        assert_eq!(order(&by_mean), ["b", "a", "idle"]);
        assert!(by_mean.table_within(None).contains("chips/game"));
        // LOS follows the ranking: from the means for a payoff game, where b
        // (mean 7/3) leads a (−7/3), from Elo otherwise, where a leads.
        let (mean_ranking, elo_ranking) = (by_mean.ranking(), by_elo.ranking());
        let (b, a) = (&by_mean.bots[1], &by_mean.bots[0]);
        let error = (a.points_for_interval.powi(2) + b.points_for_interval.powi(2)).sqrt() / 1.96;
        let expected = crate::ratings::normal::normal_cdf((b.points_for - a.points_for) / error);
        assert!((mean_ranking.los_next(0).unwrap() - expected).abs() < 1e-12);
        assert!(expected > 0.5 && expected < 1.0, "{expected}");
        assert_eq!(mean_ranking.los_next(1), None, "idle has no games");
        assert!(elo_ranking.los_next(0).unwrap() > 0.5);
        assert!(
            by_mean.table_within(None).contains("LOS = likelihood of superiority over the next bot, by chips/game")
        );
    }

    #[test]
    fn partners_count_once_and_faults_are_tallied() {
        let names = vec!["x".to_string(), "y".to_string()];
        let mut standings = Standings::new(&names, Scoring::POINTS);
        let mut g = game(&["x", "y", "x", "y"], &[10, 30, 10, 30], &[1, 0, 1, 0]);
        g.result.reason = "forfeit".into();
        g.faults.push(FaultRecord {
            seat: 2,
            bot: "x".into(),
            kind: FaultKind::Timeout,
            message: "slow".into(),
            stderr: vec![],
        });
        g.faults.push(FaultRecord { seat: 0, ..g.faults[0].clone() });
        standings.add(&g);
        let x = &standings.bots[0];
        assert_eq!((x.games, x.losses, x.faults, x.forfeits), (1, 1, 2, 1), "two faults, one game forfeited");
        assert_eq!(standings.bots[1].forfeits, 0);
        assert_eq!(x.faults_by_kind.get(&FaultKind::Timeout), Some(&2));
        assert_eq!(x.points_against, 30.0);
        assert_eq!(standings.ranked()[0].name, "y");
        // One pairwise result, not two, for the partnership game.
        assert_eq!(standings.head_to_head(1, 0), (Some(1.0), 1));
        let json: serde_json::Value = serde_json::from_str(&standings.to_json("all-fives", 9)).unwrap();
        assert_eq!(json["bots"][0]["name"], "y");
        assert_eq!(json["bots"][0]["rank"], 1);
        assert_eq!(json["bots"][1]["faults_by_kind"]["timeout"], 2);
        assert_eq!((json["games"].as_u64(), json["seed"].as_u64()), (Some(1), Some(9)));
        let table = standings.table_within(None);
        assert!(table.contains("timeout 2"), "{table}");
    }

    #[test]
    fn free_for_all_second_place_is_a_loss() {
        let names: Vec<String> = ["p", "q", "r"].iter().map(|s| s.to_string()).collect();
        let mut standings = Standings::new(&names, Scoring::POINTS);
        standings.add(&game(&["p", "q", "r"], &[200, 150, 150], &[0, 1, 1]));
        assert_eq!(standings.bots[0].wins, 1);
        assert_eq!(standings.bots[1].losses, 1);
        assert_eq!(standings.bots[0].points_against, 150.0);
        // Pairwise: p beat both, q and r drew.
        assert_eq!(standings.head_to_head(0, 2), (Some(1.0), 1));
        assert_eq!(standings.head_to_head(1, 2), (Some(0.5), 1));
    }

    #[test]
    fn bots_are_ranked_by_elo_not_by_score() {
        // a beats b 6–4 and never meets c; b beats c 9–1. b has the best score
        // (13/20 against a's 6/10), but a is rated above b.
        let mut games = results("a", "b", 6, 0, 4);
        games.extend(results("b", "c", 9, 0, 1));
        let standings = standings(&["c", "b", "a"], &games);
        let score = |name: &str| standings.bots.iter().find(|b| b.name == name).unwrap().score;
        assert!(score("b") > score("a"));
        let ranked: Vec<&str> = standings.ranked().iter().map(|b| b.name.as_str()).collect();
        assert_eq!(ranked, ["a", "b", "c"]);
        let ranking = standings.ranking();
        assert_eq!(ranking.order, [2, 1, 0]);
        // a over b on 10 games: likely; b over c, 9–1: very likely.
        let (los_ab, los_bc) = (ranking.los_next(0).unwrap(), ranking.los_next(1).unwrap());
        assert!(los_ab > 0.6 && los_ab < 0.8 && los_bc > 0.95 && los_bc < 0.99, "{los_ab} {los_bc}");
        assert_eq!(ranking.los_next(2), None);
    }

    #[test]
    fn ties_go_to_the_score_then_the_given_order() {
        // Equal ratings (all draws), then two bots without games.
        let games = results("a", "b", 0, 4, 0);
        let standings = standings(&["x", "b", "y", "a"], &games);
        let ranking = standings.ranking();
        assert_eq!(ranking.elo.rating(1), Some(0.0));
        assert_eq!(ranking.elo.rating(3), Some(0.0));
        assert_eq!((ranking.elo.rating(0), ranking.elo.interval(2)), (None, None));
        let ranked: Vec<&str> = standings.ranked().iter().map(|b| b.name.as_str()).collect();
        assert_eq!(ranked, ["b", "a", "x", "y"]);
        assert_eq!(ranking.los_next(0), Some(0.5));
        assert_eq!(ranking.los_next(1), None, "x has no rating");
    }

    /// A fixed shuffle (Fisher–Yates with a linear congruential generator).
    fn shuffled<T: Clone>(items: &[T], mut state: u64) -> Vec<T> {
        let mut items = items.to_vec();
        for i in (1..items.len()).rev() {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            items.swap(i, (state >> 33) as usize % (i + 1));
        }
        items
    }

    #[test]
    fn ratings_do_not_depend_on_the_order_of_the_games() {
        // Two-sided games and free-for-alls with ids, as a match records them.
        let mut games = results("a", "b", 7, 3, 5);
        games.extend(results("b", "c", 6, 1, 2));
        games.extend(results("c", "a", 2, 2, 6));
        games.extend(free_for_all("c", ["a", "b"], 12));
        for (id, game) in games.iter_mut().enumerate() {
            game.id = id as u64;
        }
        let add_all = |games: &[GameSummary]| {
            let mut standings = Standings::new(&names(&["a", "b", "c"]), Scoring::POINTS);
            for game in games {
                standings.add(game);
            }
            standings
        };
        let ordered = add_all(&games);
        let ranking = ordered.ranking();
        assert!(ranking.weng_lin.is_some());
        for seed in [1, 2, 3] {
            let other = add_all(&shuffled(&games, seed));
            let other_ranking = other.ranking();
            assert_eq!(ranking.elo, other_ranking.elo, "Elo after shuffle {seed}");
            assert_eq!(ranking.weng_lin, other_ranking.weng_lin, "Weng-Lin after shuffle {seed}");
            assert_eq!(ranking.order, other_ranking.order);
            assert_eq!(ordered.head_to_head(0, 2), other.head_to_head(0, 2));
        }
        let reversed: Vec<GameSummary> = games.iter().rev().cloned().collect();
        assert_eq!(add_all(&reversed).ranking().weng_lin, ranking.weng_lin);
    }

    #[test]
    fn the_elo_of_a_75_percent_score() {
        let standings = standings(&["a", "b"], &results("a", "b", 750, 0, 250));
        let ranking = standings.ranking();
        let difference = ranking.elo.rating(0).unwrap() - ranking.elo.rating(1).unwrap();
        assert!((difference - 400.0 * 3f64.log10()).abs() < 1.0, "{difference}");
        assert_eq!(standings.head_to_head(0, 1), (Some(0.75), 1000));
    }

    #[test]
    fn a_bot_that_always_wins_free_for_alls_ranks_first_in_weng_lin() {
        let standings = standings(&["q", "r", "p"], &free_for_all("p", ["q", "r"], 30));
        let ranking = standings.ranking();
        let weng_lin = ranking.weng_lin.clone().unwrap();
        let (q, r, p) = (weng_lin[0].unwrap(), weng_lin[1].unwrap(), weng_lin[2].unwrap());
        assert!(p.mu > q.mu + 5.0 && p.mu > r.mu + 5.0, "{p:?} {q:?} {r:?}");
        assert_eq!(standings.ranked()[0].name, "p");
        assert!(ranking.elo.rating(2).unwrap() > 300.0);
        // Weng–Lin follows the ids, not the order of `add`.
        let mut backward = Standings::new(&names(&["q", "r", "p"]), Scoring::POINTS);
        for game in free_for_all("p", ["q", "r"], 30).iter().rev() {
            backward.add(game);
        }
        assert_eq!(backward.ranking().weng_lin, ranking.weng_lin);
    }
}
