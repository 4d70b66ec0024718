//! Parsing `KEY=VALUE` variant settings into a [`Variant`].

use crate::wire::Variant;
use game::{VariantError, VariantOption};

/// One [`VariantOption`] per key, with help text.
pub(crate) fn options() -> Vec<VariantOption> {
    vec![VariantOption {
        key: "players",
        values: "2, 3 or 4",
        default: "2",
        help: "Number of players. The deck holds one rank more than there are players, \
               in 2 suits: J Q K with 2 players, J Q K A with 3, T J Q K A with 4.",
    }]
}

/// Resolves settings, later ones winning, into a full variant with defaults
/// filled in (`players=2`). Keys are exact; values are trimmed.
pub(crate) fn parse(settings: &[(String, String)]) -> Result<Variant, VariantError> {
    let mut players = 2;
    for (key, value) in settings {
        let value = value.trim();
        match key.as_str() {
            "players" => {
                players = match value {
                    "2" => 2,
                    "3" => 3,
                    "4" => 4,
                    _ => {
                        return Err(VariantError(format!(
                            "invalid value `{value}` for variant setting `players`: expected 2, 3 or 4"
                        )));
                    }
                }
            }
            other => {
                return Err(VariantError(format!(
                    "unknown variant setting `{other}` for leduc; the settings are: players"
                )));
            }
        }
    }
    Ok(Variant { players })
}

/// Checks a variant read from a record.
pub(crate) fn check(variant: &Variant) -> Result<(), VariantError> {
    if (2..=4).contains(&variant.players) {
        Ok(())
    } else {
        Err(VariantError(format!("leduc is played by 2, 3 or 4 players, not {}", variant.players)))
    }
}
