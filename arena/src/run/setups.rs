//! Games set up in advance: a file of setups (for All Fives, every hand's
//! deal), read before any bot starts and checked by the engine itself
//! ([`crate::run::setting::Setting::read_setups`]).
//!
//! The file holds one JSON value per game, one after another: one per line,
//! or spread over several lines, separated by whitespace.

use serde_json::Value;
use std::fmt;

/// Why the text of a setups file is refused.
#[derive(Debug)]
pub enum SetupsError {
    /// A game's setup is not JSON.
    Malformed {
        /// The game, from 1.
        game: usize,
        /// Why.
        error: serde_json::Error,
    },
    /// The file holds no games.
    Empty,
}

impl fmt::Display for SetupsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupsError::Malformed { game, error } => write!(f, "game {game}: {error}"),
            SetupsError::Empty => f.write_str("no games in the file"),
        }
    }
}

impl std::error::Error for SetupsError {}

/// The setups in the text of a setups file, each with the line (from 1) it starts on.
///
/// # Errors
/// When the text is not a sequence of JSON values, or holds none.
pub fn parse(text: &str) -> Result<Vec<(usize, Value)>, SetupsError> {
    let mut setups = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    loop {
        let start = stream.byte_offset();
        let Some(next) = stream.next() else { break };
        let number = setups.len() + 1;
        let setup = next.map_err(|error| SetupsError::Malformed { game: number, error })?;
        setups.push((line_of(text, start), setup));
    }
    if setups.is_empty() {
        return Err(SetupsError::Empty);
    }
    Ok(setups)
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

    #[test]
    fn reads_one_game_per_line_or_spread_over_lines() {
        let text = "{\"deals\": [1]}\n{\n  \"deals\": [\n    2\n  ]\n}\n";
        let parsed = parse(text).expect("parsed");
        assert_eq!(parsed.iter().map(|(line, _)| *line).collect::<Vec<_>>(), vec![1, 2]);
        assert_eq!(parsed[1].1, serde_json::json!({"deals": [2]}));
    }

    #[test]
    fn refuses_malformed_files() {
        assert!(matches!(parse(" \n"), Err(SetupsError::Empty)));
        assert_eq!(SetupsError::Empty.to_string(), "no games in the file");
        let error = parse("{\"deals\": []}\n{\"deals\": [").expect_err("refused").to_string();
        assert!(error.starts_with("game 2: "), "{error}");
    }
}
