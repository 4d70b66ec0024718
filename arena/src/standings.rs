//! Standings: per-bot totals over finished games, and their rendering. Pure.
//!
//! A bot that holds several seats of one game (partners) counts that game
//! once. A bot *wins* when it alone holds first place, *draws* when it shares
//! first place with another bot, and *loses* otherwise. Its score is
//! `(wins + draws / 2) / games`.

use crate::fault::FaultKind;
use crate::record::GameSummary;
use comfy_table::{CellAlignment, Table, presets::UTF8_FULL_CONDENSED};
use serde::Serialize;
use std::collections::BTreeMap;

/// One bot's totals.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
    /// Mean final score of the opposing sides (averaged over them in a free-for-all).
    pub points_against: f64,
    /// Faults in all.
    pub faults: u64,
    /// Faults by kind (kinds that happened only).
    pub faults_by_kind: BTreeMap<FaultKind, u64>,
    #[serde(skip)]
    points_for_sum: i64,
    #[serde(skip)]
    points_against_sum: f64,
}

/// Totals for every bot of a match.
#[derive(Debug, Clone, PartialEq)]
pub struct Standings {
    /// Games counted.
    pub games: u64,
    /// The bots, in the order they were given.
    pub bots: Vec<BotStanding>,
}

impl Standings {
    /// Empty standings for these bots.
    pub fn new(names: &[String]) -> Standings {
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
                points_against: 0.0,
                faults: 0,
                faults_by_kind: BTreeMap::new(),
                points_for_sum: 0,
                points_against_sum: 0.0,
            })
            .collect();
        Standings { games: 0, bots }
    }

    /// Adds one finished game. Bots not in the standings are ignored.
    pub fn add(&mut self, game: &GameSummary) {
        self.games += 1;
        let ranks = &game.result.ranks;
        let scores = &game.result.scores;
        for bot in self.bots.iter_mut() {
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
            let opponents: Vec<i64> = opposing_scores(game, &bot.name);
            if !opponents.is_empty() {
                bot.points_against_sum += opponents.iter().sum::<i64>() as f64 / opponents.len() as f64;
            }
            for fault in game.faults.iter().filter(|f| f.bot == bot.name) {
                bot.faults += 1;
                *bot.faults_by_kind.entry(fault.kind).or_default() += 1;
            }
            let games = bot.games as f64;
            bot.score = (bot.wins as f64 + bot.draws as f64 / 2.0) / games;
            bot.points_for = bot.points_for_sum as f64 / games;
            bot.points_against = bot.points_against_sum / games;
        }
    }

    /// `standings.json`: the game, the match seed, the number of games, and
    /// the bots in rank order, each with its `rank` (from 1).
    pub fn to_json(&self, game: &str, seed: u64) -> String {
        #[derive(Serialize)]
        struct Ranked<'a> {
            rank: usize,
            #[serde(flatten)]
            bot: &'a BotStanding,
        }
        #[derive(Serialize)]
        struct Document<'a> {
            game: &'a str,
            seed: u64,
            games: u64,
            bots: Vec<Ranked<'a>>,
        }
        let bots = self.ranked().into_iter().enumerate().map(|(i, bot)| Ranked { rank: i + 1, bot }).collect();
        let document = Document { game, seed, games: self.games, bots };
        let mut json = serde_json::to_string_pretty(&document).expect("standings serialize");
        json.push('\n');
        json
    }

    /// The bots, best score first (ties keep the given order).
    pub fn ranked(&self) -> Vec<&BotStanding> {
        let mut bots: Vec<&BotStanding> = self.bots.iter().collect();
        bots.sort_by(|a, b| b.score.total_cmp(&a.score));
        bots
    }

    /// The standings as a text table.
    pub fn table(&self) -> String {
        let mut table = Table::new();
        table.load_style(UTF8_FULL_CONDENSED);
        table.set_header(vec![
            "#",
            "bot",
            "games",
            "wins",
            "draws",
            "losses",
            "win %",
            "score %",
            "pts for",
            "pts against",
            "faults",
        ]);
        for (place, bot) in self.ranked().into_iter().enumerate() {
            let faults = if bot.faults == 0 {
                "0".to_string()
            } else {
                let kinds: Vec<String> = bot.faults_by_kind.iter().map(|(k, n)| format!("{k} {n}")).collect();
                format!("{} ({})", bot.faults, kinds.join(", "))
            };
            table.add_row(vec![
                (place + 1).to_string(),
                bot.name.clone(),
                bot.games.to_string(),
                bot.wins.to_string(),
                bot.draws.to_string(),
                bot.losses.to_string(),
                format!("{:.1}", percent(bot.wins, bot.games)),
                format!("{:.1}", bot.score * 100.0),
                format!("{:.1}", bot.points_for),
                format!("{:.1}", bot.points_against),
                faults,
            ]);
        }
        for column in 2..10 {
            if let Some(column) = table.column_mut(column) {
                column.set_cell_alignment(CellAlignment::Right);
            }
        }
        table.to_string()
    }
}

/// `part` as a percentage of `whole` (0 when `whole` is 0).
fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 * 100.0 / whole as f64 }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{FaultRecord, GameResult};

    fn game(bots: &[&str], scores: &[i64], ranks: &[u32]) -> GameSummary {
        GameSummary {
            id: 0,
            bots: bots.iter().map(|b| b.to_string()).collect(),
            result: GameResult { reason: "target".into(), scores: scores.to_vec(), ranks: ranks.to_vec() },
            faults: vec![],
        }
    }

    #[test]
    fn counts_wins_draws_losses_and_points() {
        let names = vec!["a".to_string(), "b".to_string()];
        let mut standings = Standings::new(&names);
        standings.add(&game(&["a", "b"], &[250, 100], &[0, 1]));
        standings.add(&game(&["b", "a"], &[255, 40], &[0, 1]));
        standings.add(&game(&["a", "b"], &[90, 90], &[0, 0]));
        let a = &standings.bots[0];
        assert_eq!((a.games, a.wins, a.draws, a.losses), (3, 1, 1, 1));
        assert_eq!(a.score, 0.5);
        assert_eq!(a.points_for, (250.0 + 40.0 + 90.0) / 3.0);
        assert_eq!(a.points_against, (100.0 + 255.0 + 90.0) / 3.0);
    }

    #[test]
    fn partners_count_once_and_faults_are_tallied() {
        let names = vec!["x".to_string(), "y".to_string()];
        let mut standings = Standings::new(&names);
        let mut g = game(&["x", "y", "x", "y"], &[10, 30, 10, 30], &[1, 0, 1, 0]);
        g.result.reason = "forfeit".into();
        g.faults.push(FaultRecord {
            seat: 2,
            bot: "x".into(),
            kind: FaultKind::Timeout,
            message: "slow".into(),
            stderr: vec![],
        });
        standings.add(&g);
        let x = &standings.bots[0];
        assert_eq!((x.games, x.losses, x.faults), (1, 1, 1));
        assert_eq!(x.faults_by_kind.get(&FaultKind::Timeout), Some(&1));
        assert_eq!(x.points_against, 30.0);
        assert_eq!(standings.ranked()[0].name, "y");
        let json: serde_json::Value = serde_json::from_str(&standings.to_json("all-fives", 9)).unwrap();
        assert_eq!(json["bots"][0]["name"], "y");
        assert_eq!(json["bots"][0]["rank"], 1);
        assert_eq!(json["bots"][1]["faults_by_kind"]["timeout"], 1);
        assert_eq!((json["games"].as_u64(), json["seed"].as_u64()), (Some(1), Some(9)));
        let table = standings.table();
        assert!(table.contains("timeout 1"), "{table}");
    }

    #[test]
    fn free_for_all_second_place_is_a_loss() {
        let names: Vec<String> = ["p", "q", "r"].iter().map(|s| s.to_string()).collect();
        let mut standings = Standings::new(&names);
        standings.add(&game(&["p", "q", "r"], &[200, 150, 150], &[0, 1, 1]));
        assert_eq!(standings.bots[0].wins, 1);
        assert_eq!(standings.bots[1].losses, 1);
        assert_eq!(standings.bots[0].points_against, 150.0);
    }
}
