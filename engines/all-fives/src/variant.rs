//! Parsing `KEY=VALUE` variant settings into a [`Variant`].

use crate::wire::{DealSize, HandEndRule, Variant};
use game::{VariantError, VariantOption};

/// Every key [`parse`] accepts, in the order `arena rules` lists them.
pub(crate) const KEYS: [&str; 7] = ["players", "partners", "deal", "boneyard_keep", "hand_end", "target", "max_hands"];

/// One [`VariantOption`] per key, with help text.
pub(crate) fn options() -> Vec<VariantOption> {
    vec![
        VariantOption { key: "players", values: "2, 3 or 4", default: "2", help: "Number of players." },
        VariantOption {
            key: "partners",
            values: "true | false (also yes/no, 1/0)",
            default: "true with 4 players, else false",
            help: "Two partnerships, seats 0 and 2 against seats 1 and 3; only with 4 players.",
        },
        VariantOption {
            key: "deal",
            values: "standard | five | seven-five",
            default: "standard",
            help: "Hand size. standard: 9 tiles each with 2 players, 7 with 3, 5 with 4; \
                   five: 5 each; seven-five: 7 each with 2 players, 5 with 3 or 4.",
        },
        VariantOption {
            key: "boneyard_keep",
            values: "0, 1 or 2",
            default: "0",
            help: "Tiles that stay in the boneyard for good; a player who cannot play \
                   when only those remain passes.",
        },
        VariantOption {
            key: "hand_end",
            values: "subtract-own | winner-takes",
            default: "subtract-own",
            help: "subtract-own: each player's remaining pips, rounded to a multiple of five, \
                   are subtracted from his own score. winner-takes: the side that went out \
                   (or, when blocked, holds fewest pips) scores the opponents' pips, rounded once.",
        },
        VariantOption {
            key: "target",
            values: "a positive integer",
            default: "250 with 2 players, 200 with 3 or 4",
            help: "The score that wins the game the moment a side reaches it.",
        },
        VariantOption {
            key: "max_hands",
            values: "1 to 5000",
            default: "100",
            help: "After this many hands without a winner the highest score wins \
                   (equal highest scores draw).",
        },
    ]
}

/// The error for a value a key does not accept.
fn bad(key: &str, value: &str, accepted: &str) -> VariantError {
    VariantError(format!("invalid value `{value}` for variant setting `{key}`: expected {accepted}"))
}

/// A boolean: `true/false`, `yes/no` or `1/0`, in any case.
fn boolean(key: &str, value: &str) -> Result<bool, VariantError> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "yes" | "1" => Ok(true),
        "false" | "no" | "0" => Ok(false),
        _ => Err(bad(key, value, "true or false (also yes/no, 1/0)")),
    }
}

/// A positive integer.
fn positive<T: std::str::FromStr + PartialOrd + Default>(key: &str, value: &str) -> Result<T, VariantError> {
    match value.parse::<T>() {
        Ok(n) if n > T::default() => Ok(n),
        _ => Err(bad(key, value, "a positive integer")),
    }
}

/// Resolves settings, later ones winning, into a full variant with defaults
/// filled in. Keys are exact; values are trimmed and compared case-insensitively.
///
/// Defaults: `players=2`, `partners` true iff 4 players, `deal=standard`,
/// `boneyard_keep=0`, `hand_end=subtract-own`, `target` 250 with 2 players and
/// 200 with 3 or 4, `max_hands=100`. `partners=true` with other than 4 players
/// is an error.
pub(crate) fn parse(settings: &[(String, String)]) -> Result<Variant, VariantError> {
    let mut players = None;
    let mut partners = None;
    let mut deal = None;
    let mut boneyard_keep = None;
    let mut hand_end = None;
    let mut target = None;
    let mut max_hands = None;
    for (key, value) in settings {
        let value = value.trim();
        let lower = value.to_ascii_lowercase();
        match key.as_str() {
            "players" => {
                players = Some(match lower.as_str() {
                    "2" => 2,
                    "3" => 3,
                    "4" => 4,
                    _ => return Err(bad(key, value, "2, 3 or 4")),
                })
            }
            "partners" => partners = Some(boolean(key, value)?),
            "deal" => {
                deal = Some(match lower.as_str() {
                    "standard" => DealSize::Standard,
                    "five" => DealSize::Five,
                    "seven-five" => DealSize::SevenFive,
                    _ => return Err(bad(key, value, "standard, five or seven-five")),
                })
            }
            "boneyard_keep" => {
                boneyard_keep = Some(match lower.as_str() {
                    "0" => 0,
                    "1" => 1,
                    "2" => 2,
                    _ => return Err(bad(key, value, "0, 1 or 2")),
                })
            }
            "hand_end" => {
                hand_end = Some(match lower.as_str() {
                    "subtract-own" => HandEndRule::SubtractOwn,
                    "winner-takes" => HandEndRule::WinnerTakes,
                    _ => return Err(bad(key, value, "subtract-own or winner-takes")),
                })
            }
            "target" => target = Some(positive::<i64>(key, value)?),
            "max_hands" => max_hands = Some(positive::<u32>(key, value)?),
            _ => {
                return Err(VariantError(format!(
                    "unknown variant setting `{key}`; the known settings are {}",
                    KEYS.join(", ")
                )));
            }
        }
    }
    let players = players.unwrap_or(2);
    let partners = match partners {
        Some(true) if players != 4 => {
            return Err(VariantError(format!(
                "`partners=true` needs 4 players, not {players}: partnerships exist only with 4 players"
            )));
        }
        Some(partners) => partners,
        None => players == 4,
    };
    let variant = Variant {
        players,
        partners,
        deal: deal.unwrap_or(DealSize::Standard),
        boneyard_keep: boneyard_keep.unwrap_or(0),
        hand_end: hand_end.unwrap_or(HandEndRule::SubtractOwn),
        target: target.unwrap_or(if players == 2 { 250 } else { 200 }),
        max_hands: max_hands.unwrap_or(100),
    };
    check(&variant)?;
    Ok(variant)
}

/// The most hands a game may last: a hand's record takes some 10 KB at most,
/// so a game's record stays well within the 64 MiB the arena allows a record line.
pub(crate) const MAX_HANDS: u32 = 5_000;

/// Checks a variant built some other way (e.g. read back from a record).
pub(crate) fn check(v: &Variant) -> Result<(), VariantError> {
    let fail = |what: String| Err(VariantError(what));
    if !(2..=4).contains(&v.players) {
        return fail(format!("players must be 2, 3 or 4, not {}", v.players));
    }
    if v.partners && v.players != 4 {
        return fail(format!("partners need 4 players, not {}", v.players));
    }
    if v.boneyard_keep > 2 {
        return fail(format!("boneyard_keep must be 0, 1 or 2, not {}", v.boneyard_keep));
    }
    if v.target <= 0 {
        return fail(format!("target must be positive, not {}", v.target));
    }
    if v.max_hands == 0 {
        return fail("max_hands must be positive, not 0".to_string());
    }
    if v.max_hands > MAX_HANDS {
        return fail(format!(
            "max_hands must be at most {MAX_HANDS}, not {} (a game's record must stay within the size a record may take)",
            v.max_hands
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|&(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn parse_ok(pairs: &[(&str, &str)]) -> Variant {
        parse(&settings(pairs)).unwrap()
    }

    fn parse_err(pairs: &[(&str, &str)]) -> String {
        parse(&settings(pairs)).unwrap_err().0
    }

    #[test]
    fn defaults() {
        let v = parse_ok(&[]);
        assert_eq!(
            v,
            Variant {
                players: 2,
                partners: false,
                deal: DealSize::Standard,
                boneyard_keep: 0,
                hand_end: HandEndRule::SubtractOwn,
                target: 250,
                max_hands: 100,
            }
        );
    }

    #[test]
    fn players() {
        assert_eq!(parse_ok(&[("players", "3")]).players, 3);
        assert_eq!(parse_ok(&[("players", " 4 ")]).players, 4);
        for bad in ["1", "5", "two", ""] {
            let e = parse_err(&[("players", bad)]);
            assert!(e.contains("`players`") && e.contains(&format!("`{bad}`")), "{e}");
            assert!(e.contains("2, 3 or 4"), "{e}");
        }
    }

    #[test]
    fn partners_default_and_errors() {
        assert!(parse_ok(&[("players", "4")]).partners);
        assert!(!parse_ok(&[("players", "3")]).partners);
        assert!(!parse_ok(&[("players", "4"), ("partners", "false")]).partners);
        assert!(!parse_ok(&[("players", "4"), ("partners", "No")]).partners);
        assert!(!parse_ok(&[("players", "4"), ("partners", "0")]).partners);
        assert!(parse_ok(&[("partners", "yes"), ("players", "4")]).partners);
        assert!(parse_ok(&[("players", "4"), ("partners", "1")]).partners);
        assert!(parse_ok(&[("players", "4"), ("partners", "TRUE")]).partners);
        assert!(!parse_ok(&[("players", "2"), ("partners", "false")]).partners);
        let e = parse_err(&[("players", "3"), ("partners", "true")]);
        assert!(e.contains("partners") && e.contains("4 players"), "{e}");
        let e = parse_err(&[("partners", "true")]);
        assert!(e.contains("partners"), "{e}");
        let e = parse_err(&[("players", "4"), ("partners", "maybe")]);
        assert!(e.contains("`maybe`") && e.contains("`partners`") && e.contains("true"), "{e}");
    }

    #[test]
    fn deal() {
        assert_eq!(parse_ok(&[("deal", "standard")]).deal, DealSize::Standard);
        assert_eq!(parse_ok(&[("deal", "five")]).deal, DealSize::Five);
        assert_eq!(parse_ok(&[("deal", "seven-five")]).deal, DealSize::SevenFive);
        let e = parse_err(&[("deal", "seven_five")]);
        assert!(e.contains("`deal`") && e.contains("`seven_five`") && e.contains("seven-five"));
    }

    #[test]
    fn boneyard_keep() {
        for (value, keep) in [("0", 0), ("1", 1), ("2", 2)] {
            assert_eq!(parse_ok(&[("boneyard_keep", value)]).boneyard_keep, keep);
        }
        let e = parse_err(&[("boneyard_keep", "3")]);
        assert!(e.contains("`boneyard_keep`") && e.contains("`3`") && e.contains("0, 1 or 2"));
    }

    #[test]
    fn hand_end() {
        assert_eq!(parse_ok(&[("hand_end", "subtract-own")]).hand_end, HandEndRule::SubtractOwn);
        assert_eq!(parse_ok(&[("hand_end", "winner-takes")]).hand_end, HandEndRule::WinnerTakes);
        let e = parse_err(&[("hand_end", "muggins")]);
        assert!(e.contains("`hand_end`") && e.contains("`muggins`") && e.contains("winner-takes"));
    }

    #[test]
    fn target() {
        assert_eq!(parse_ok(&[("players", "3")]).target, 200);
        assert_eq!(parse_ok(&[("players", "4")]).target, 200);
        assert_eq!(parse_ok(&[("players", "4"), ("partners", "no")]).target, 200);
        assert_eq!(parse_ok(&[("target", "61")]).target, 61);
        // An explicit target is not overridden by a later players setting.
        assert_eq!(parse_ok(&[("target", "61"), ("players", "3")]).target, 61);
        for bad in ["0", "-5", "ten", "1.5"] {
            let e = parse_err(&[("target", bad)]);
            assert!(e.contains("`target`") && e.contains("positive integer"), "{e}");
        }
    }

    #[test]
    fn max_hands() {
        assert_eq!(parse_ok(&[]).max_hands, 100);
        assert_eq!(parse_ok(&[("max_hands", "3")]).max_hands, 3);
        for bad in ["0", "-1", "x", "99999999999"] {
            let e = parse_err(&[("max_hands", bad)]);
            assert!(e.contains("`max_hands`") && e.contains("positive integer"), "{e}");
        }
        assert_eq!(parse_ok(&[("max_hands", "5000")]).max_hands, 5000);
        assert!(parse_err(&[("max_hands", "5001")]).contains("max_hands must be at most 5000"));
    }

    #[test]
    fn later_settings_win() {
        let v = parse_ok(&[("players", "4"), ("players", "2"), ("deal", "five"), ("deal", "standard")]);
        assert_eq!((v.players, v.partners, v.deal), (2, false, DealSize::Standard));
        assert_eq!(v.target, 250);
    }

    #[test]
    fn unknown_keys_name_the_known_ones() {
        let e = parse_err(&[("spinner", "yes")]);
        assert!(e.contains("`spinner`"), "{e}");
        for key in KEYS {
            assert!(e.contains(key), "{e}");
        }
    }

    #[test]
    fn options_cover_every_key() {
        let options = options();
        let keys: Vec<_> = options.iter().map(|o| o.key).collect();
        assert_eq!(keys, KEYS);
        assert!(options.iter().all(|o| !o.help.is_empty() && !o.values.is_empty()));
    }

    #[test]
    fn check_rejects_impossible_variants() {
        let mut v = parse_ok(&[]);
        assert_eq!(check(&v), Ok(()));
        v.players = 5;
        assert!(check(&v).is_err());
        v.players = 2;
        v.partners = true;
        assert!(check(&v).is_err());
        v.partners = false;
        v.boneyard_keep = 3;
        assert!(check(&v).is_err());
    }
}
