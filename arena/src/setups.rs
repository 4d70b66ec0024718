//! Games set up in advance: a file of setups (for All Fives, every hand's
//! deal), read and checked against the variant before any bot starts.
//!
//! The file holds one JSON value per game, one after another: one per line,
//! or spread over several lines, separated by whitespace. Each is checked by
//! [`Game::from_setup`], and the first that cannot be played is refused with
//! its number, its line and the game's reason.

use crate::config::LeagueConfig;
use game::Game;
use std::path::Path;

/// Reads the setups in `path` and checks each against `variant`.
pub fn read<G: Game>(path: &Path, variant: &G::Variant) -> Result<Vec<G::Setup>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse::<G>(&text, variant).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses and checks setups from the text of a setups file.
pub fn parse<G: Game>(text: &str, variant: &G::Variant) -> Result<Vec<G::Setup>, String> {
    let mut setups = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<G::Setup>();
    loop {
        let start = stream.byte_offset();
        let Some(next) = stream.next() else { break };
        let number = setups.len() + 1;
        let setup = next.map_err(|e| format!("game {number}: {e}"))?;
        let line = line_of(text, start);
        G::from_setup(variant, &setup).map_err(|e| format!("game {number} (line {line}): {e}"))?;
        setups.push(setup);
    }
    if setups.is_empty() {
        return Err("no games in the file".to_string());
    }
    Ok(setups)
}

/// The setups of a league's configuration: read from its deals file on a
/// new run (and then kept in `config.deals`, so that a resumed run plays the
/// same games whatever became of the file), or read back from `config.deals`.
pub fn of_league<G: Game>(config: &mut LeagueConfig, variant: &G::Variant) -> Result<Option<Vec<G::Setup>>, String> {
    if let Some(path) = &config.deals_file {
        let setups = read::<G>(path, variant)?;
        config.deals = serde_json::to_value(&setups).expect("setups serialize");
        return Ok(Some(setups));
    }
    if config.deals.is_null() {
        return Ok(None);
    }
    let setups: Vec<G::Setup> =
        serde_json::from_value(config.deals.clone()).map_err(|e| format!("the stored deals cannot be read: {e}"))?;
    for (number, setup) in (1..).zip(&setups) {
        G::from_setup(variant, setup).map_err(|e| format!("stored deals, game {number}: {e}"))?;
    }
    Ok(Some(setups))
}

/// The line (from 1) of the first non-blank character at or after `offset`.
fn line_of(text: &str, offset: usize) -> usize {
    let rest = &text[offset..];
    let start = offset + (rest.len() - rest.trim_start().len());
    text[..start].matches('\n').count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use all_fives::wire::Variant;
    use all_fives::{AllFives, Deal, Setup};

    fn variant() -> Variant {
        AllFives::parse_variant(&[("max_hands".to_string(), "1".to_string())]).expect("a variant")
    }

    fn seeded(seed: u64) -> Setup {
        let variant = variant();
        Setup { deals: vec![Deal::seeded(seed, 1, variant.players, variant.hand_size())] }
    }

    #[test]
    fn reads_one_game_per_line_or_spread_over_lines() {
        let (a, b) = (seeded(1), seeded(2));
        let text = format!(
            "{}\n{}\n",
            serde_json::to_string(&a).expect("json"),
            serde_json::to_string_pretty(&b).expect("json")
        );
        assert_eq!(parse::<AllFives>(&text, &variant()), Ok(vec![a, b]));
    }

    #[test]
    fn refuses_a_deal_that_is_not_a_partition_naming_the_game_and_line() {
        let mut bad = seeded(3);
        bad.deals[0].boneyard[0] = bad.deals[0].hands[0][0];
        let text = format!(
            "{}\n\n{}\n",
            serde_json::to_string(&seeded(1)).expect("json"),
            serde_json::to_string(&bad).expect("json")
        );
        let error = parse::<AllFives>(&text, &variant()).expect_err("refused");
        assert!(error.starts_with("game 2 (line 3): hand 1: "), "{error}");
        assert!(error.contains("dealt twice"), "{error}");
    }

    #[test]
    fn refuses_malformed_files() {
        let variant = variant();
        assert_eq!(parse::<AllFives>(" \n", &variant), Err("no games in the file".to_string()));
        let error = parse::<AllFives>(r#"{"deals": [], "extra": 1}"#, &variant).expect_err("refused");
        assert!(error.starts_with("game 1: unknown field `extra`"), "{error}");
        let error = parse::<AllFives>(r#"{"deals": []}"#, &variant).expect_err("refused");
        assert_eq!(error, "game 1 (line 1): no deals given");
    }
}
