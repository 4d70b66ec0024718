//! A league's field as it changes: bots that enter and retire, kept as its history.

use super::{ConfigError, FlagError, LeagueConfig};
use crate::bot::spec::BotSpec;
use serde::{Deserialize, Serialize};

/// A change of a league's field: its start, or a resume that added or
/// retired bots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// When, in UTC to the second (RFC 3339, e.g. `2026-03-01T12:00:00Z`);
    /// absent for the start of a league begun by an arena that kept no history.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// The bots that entered, by name: the next ones of the league's `bots`, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<String>,
    /// The bots that retired, by name (before those of `added` entered).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retired: Vec<String>,
}

impl LeagueConfig {
    /// The league's history, its start first: [`history`](Self::history),
    /// or, for a league that never changed and whose `league.json` has none
    /// (begun by an earlier arena), its start with every bot.
    pub fn changes(&self) -> Vec<Change> {
        if !self.history.is_empty() {
            return self.history.clone();
        }
        vec![Change { at: None, added: self.bots.iter().map(|b| b.name.clone()).collect(), retired: Vec::new() }]
    }

    /// Records the start of the league, `at` (see [`Change::at`]), with every bot.
    pub fn start(&mut self, at: String) {
        self.history = vec![Change { at: Some(at), ..self.changes().remove(0) }];
    }

    /// For each bot, whether it has retired.
    pub fn retired(&self) -> Vec<bool> {
        let retired: Vec<&String> = self.history.iter().flat_map(|change| &change.retired).collect();
        self.bots.iter().map(|bot| retired.contains(&&bot.name)).collect()
    }

    /// Changes the field of a resumed league, `at` (see [`Change::at`]): the
    /// bots named `retiring` retire, then the bots `entering` enter, after
    /// the others. A name stays its bot's for the life of the league: an
    /// entering bot needs a name no bot has had (a new version of a bot
    /// enters beside the old one, under a name of its own).
    pub fn grow(&mut self, entering: Vec<BotSpec>, retiring: &[String], at: String) -> Result<(), ConfigError> {
        self.grown(entering, retiring, at).map_err(ConfigError::Flag)
    }

    /// [`grow`](Self::grow), with the error said of the flags.
    fn grown(&mut self, entering: Vec<BotSpec>, retiring: &[String], at: String) -> Result<(), FlagError> {
        let retired = self.retired();
        for (i, name) in retiring.iter().enumerate() {
            let name_ = || name.clone();
            match self.bots.iter().position(|bot| bot.name == *name) {
                None => return Err(FlagError::RetiresStranger { name: name_() }),
                Some(bot) if retired[bot] => return Err(FlagError::RetiredAlready { name: name_() }),
                Some(_) if retiring[..i].contains(name) => return Err(FlagError::RetiresTwice { name: name_() }),
                Some(_) => {}
            }
        }
        for name in entering.iter().map(|bot| &bot.name) {
            if self.bots.iter().any(|other| other.name == *name) {
                return Err(FlagError::NameTaken { name: name.clone() });
            }
        }
        if entering.is_empty() && retiring.is_empty() {
            return Ok(());
        }
        let mut history = self.changes();
        history.push(Change {
            at: Some(at),
            added: entering.iter().map(|bot| bot.name.clone()).collect(),
            retired: retiring.to_vec(),
        });
        self.history = history;
        self.bots.extend(entering);
        Ok(())
    }

    /// Whether `other` plays the same games: everything but the shard, the
    /// settings of a shard's own (its rows say `per_shard`: concurrency,
    /// CPUs, sandbox, restart), where the bots' commands live and when the
    /// field changed must agree.
    pub fn same_league(&self, other: &LeagueConfig) -> Result<(), ConfigError> {
        let names = |c: &LeagueConfig| c.bots.iter().map(|b| b.name.clone()).collect::<Vec<_>>();
        let checks = [
            ("game", self.game == other.game),
            ("bots", names(self) == names(other)),
            ("history", without_times(self.changes()) == without_times(other.changes())),
            ("variant", self.variant == other.variant),
            ("rounds", self.rounds == other.rounds),
            ("deals", self.deals == other.deals),
            ("odds", self.odds == other.odds),
        ];
        match checks.iter().find(|(_, same)| !same) {
            Some((key, _)) => Err(ConfigError::Differs { key }),
            None => self.kept.differs(&other.kept).map_or(Ok(()), |key| Err(ConfigError::Differs { key })),
        }
    }
}

/// A league's changes without their times: what they did.
fn without_times(changes: Vec<Change>) -> Vec<Change> {
    changes.into_iter().map(|change| Change { at: None, ..change }).collect()
}
