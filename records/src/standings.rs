//! `standings.json`: the standings of a run, bot by bot in rank order, with
//! the head-to-head and likelihood-of-superiority matrices, as the arena
//! writes them and any tool reads them back (`arena/RECORDS.md` documents
//! every field). The matrices are [`IndexMap`]s, so that they keep the rank
//! order both ways.

use crate::fault::FaultKind;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A value for pairs of bots, `matrix[row][column]`, both in the order given.
pub type Matrix<V> = IndexMap<String, IndexMap<String, V>>;

/// `standings.json` (`arena/RECORDS.md`): the standings of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standings {
    /// The game's name.
    pub game: String,
    /// The match seed.
    pub seed: u64,
    /// Games counted.
    pub games: u64,
    /// The bots, in rank order.
    pub bots: Vec<Standing>,
    /// Each bot's score against each other bot it met, by row bot then
    /// column bot, both in rank order.
    pub head_to_head: Matrix<HeadToHead>,
    /// The likelihood of superiority of the row bot over the column bot,
    /// for every pair of rated bots, both in rank order.
    pub los: Matrix<f64>,
}

impl Standings {
    /// The standing of bot `name`, if it is in the standings.
    pub fn standing(&self, name: &str) -> Option<&Standing> {
        self.bots.iter().find(|bot| bot.name == name)
    }

    /// The bots' names, in rank order.
    pub fn names(&self) -> Vec<&str> {
        self.bots.iter().map(|bot| bot.name.as_str()).collect()
    }
}

/// One bot's line of [`Standings`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// Its place, from 1.
    pub rank: u64,
    /// Its name.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// (wins + draws / 2) / games.
    pub score: f64,
    /// The mean final score of its side.
    pub points_for: f64,
    /// The half-width of the 95% interval of `points_for`.
    pub points_for_interval: f64,
    /// The mean final score of the other sides.
    pub points_against: f64,
    /// Faults in all.
    pub faults: u64,
    /// Faults by kind (kinds that happened only).
    pub faults_by_kind: BTreeMap<FaultKind, u64>,
    /// wins / games.
    pub win_rate: f64,
    /// The Elo rating; `None` without games.
    pub rating: Option<f64>,
    /// The half-width of the rating's 95% interval.
    pub rating_interval: Option<f64>,
    /// The likelihood of superiority over the next bot; `None` for the last.
    pub los_next: Option<f64>,
    /// The Weng–Lin rating: absent (`None`) unless some game had 3 or more
    /// sides, then `Some(None)` for a bot that played no such game.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub weng_lin: Option<Option<WengLin>>,
    /// The test of a bot doing better on deals it met before; `None` before 20 such deals.
    pub repeated_deals: Option<RepeatedDeals>,
}

/// A field that is there, even as `null` (so that `Option<Option<T>>`
/// tells an absent field, `None`, from a `null` one, `Some(None)`).
fn present<'de, T: Deserialize<'de>, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Option<T>>, D::Error> {
    <Option<T> as Deserialize>::deserialize(deserializer).map(Some)
}

/// One bot's score against another.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct HeadToHead {
    /// The row bot's score against the column bot.
    pub score: f64,
    /// Their games.
    pub games: u64,
}

/// A Weng–Lin rating.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WengLin {
    /// Its mean.
    pub mu: f64,
    /// Its standard deviation.
    pub sigma: f64,
}

/// Whether a bot did better on deals it had met before (`repeated_deals`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RepeatedDeals {
    /// The deals it played twice or more.
    pub deals: u64,
    /// Its mean margin in later games of a deal minus that in its first.
    pub gain: f64,
    /// The half-width of the 95% interval of `gain`.
    pub interval: f64,
    /// The one-sided p-value of "no gain".
    pub p: f64,
    /// Whether `p` is below the threshold.
    pub flagged: bool,
}
