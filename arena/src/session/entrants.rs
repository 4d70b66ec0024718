//! Who plays a league's or an SPRT's run, and under what: read from its configuration.

use crate::league::config::LeagueConfig;
use crate::run::plan::Entrants;

impl From<&LeagueConfig> for Entrants {
    fn from(config: &LeagueConfig) -> Entrants {
        Entrants {
            bots: config.bots.clone(),
            seed: config.kept.seed,
            limits: config.limits(),
            concurrency: config.kept.concurrency as usize,
            secrets: config.secrets.clone(),
        }
    }
}
