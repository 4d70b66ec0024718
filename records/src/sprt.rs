//! `sprt.json`, read back: an SPRT's parameters, what it counted and how it
//! ended (`arena/RECORDS.md` documents every field).

use serde::{Deserialize, Serialize};

/// How a test ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Conclusion {
    /// H1 accepted: the new bot is better (with bounds above 0), or not
    /// worse (with bounds that end at 0, as `no-regression`'s).
    #[serde(rename = "H1")]
    H1,
    /// H0 accepted: it is not `elo1` better (or, with bounds that end at or
    /// below 0, it is worse).
    #[serde(rename = "H0")]
    H0,
    /// Every game up to the limit was played without a verdict.
    Inconclusive,
    /// Stopped before a verdict; the run can be resumed.
    Interrupted,
}

/// `sprt.json`: the test, what it counted and its conclusion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// The tested bot.
    pub new: String,
    /// The bot it is compared with.
    pub base: String,
    /// Which test ran: `pentanomial` or `payoff`.
    pub test: String,
    /// The test's parameters.
    #[serde(flatten)]
    pub parameters: Parameters,
    /// The lower bound of the LLR (H0 at or below it).
    pub lower: f64,
    /// The upper bound of the LLR (H1 at or above it).
    pub upper: f64,
    /// The LLR of the deals counted.
    pub llr: f64,
    /// What the test counted, and its estimates.
    #[serde(flatten)]
    pub findings: Findings,
    /// The games the test counted (whole deals, in schedule order, up to the verdict).
    pub games: u64,
    /// Every game recorded, those finished after the verdict included.
    pub games_played: u64,
    /// How the test ended.
    pub conclusion: Conclusion,
}

/// A test's parameters: H0, H1 and the error rates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Parameters {
    /// The pentanomial test's, in Elo on the scale of `model`.
    Pentanomial {
        /// The Elo difference of H0.
        elo0: f64,
        /// The Elo difference of H1.
        elo1: f64,
        /// The probability of accepting H1 when H0 holds.
        alpha: f64,
        /// The probability of accepting H0 when H1 holds.
        beta: f64,
        /// The Elo scale: `logistic` or `normalized`.
        model: String,
    },
    /// The payoff test's, as the new bot's mean payoff per game.
    Payoff {
        /// H0's mean payoff.
        payoff0: f64,
        /// H1's mean payoff.
        payoff1: f64,
        /// The probability of accepting H1 when H0 holds.
        alpha: f64,
        /// The probability of accepting H0 when H1 holds.
        beta: f64,
    },
}

/// What a test counted, and its estimates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Findings {
    /// The pentanomial test's.
    Pairs {
        /// Pairs by their score for the new bot: LL, LD, WL+DD, WD, WW.
        pentanomial: [u64; 5],
        /// The pairs counted.
        pairs: u64,
        /// The Elo difference on the test's scale.
        elo: Option<Estimate>,
        /// The logistic Elo difference.
        logistic_elo: Option<Estimate>,
        /// The normalized Elo difference (nElo).
        normalized_elo: Option<Estimate>,
        /// The likelihood of superiority.
        los: Option<f64>,
        /// The share of pairs scoring 1 point.
        draw_ratio: Option<f64>,
    },
    /// The payoff test's.
    Payoffs {
        /// What a game's score counts (`chips`).
        unit: String,
        /// The deals counted.
        deals: u64,
        /// The new bot's mean payoff per game.
        payoff: Option<PayoffEstimate>,
        /// The likelihood of superiority.
        los: Option<f64>,
    },
}

/// An Elo difference with half its 95% interval (either `null` when unbounded).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The estimate.
    pub elo: Option<f64>,
    /// Half the width of the 95% interval.
    pub margin: Option<f64>,
}

/// A mean payoff per game with half its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PayoffEstimate {
    /// The new bot's mean payoff per game.
    pub mean: f64,
    /// Half the width of the 95% interval.
    pub margin: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two examples of `arena/RECORDS.md` read as a test of each kind,
    /// and written back the same.
    #[test]
    fn reads_both_tests_of_records_md_and_writes_them_back() {
        let pentanomial = r#"{"new": "greedy", "base": "random", "test": "pentanomial",
            "elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05, "model": "normalized",
            "lower": -2.944, "upper": 2.944, "llr": 2.951,
            "pentanomial": [0, 0, 1, 0, 146], "pairs": 147,
            "elo": {"elo": 2968.5, "margin": 39.7}, "logistic_elo": {"elo": 986.7, "margin": null},
            "normalized_elo": {"elo": 2968.5, "margin": 39.7}, "los": 1.0, "draw_ratio": 0.0068,
            "games": 294, "games_played": 314, "conclusion": "H1"}"#;
        let payoff = r#"{"new": "rules", "base": "random", "test": "payoff",
            "payoff0": 0.0, "payoff1": 0.2, "alpha": 0.05, "beta": 0.05,
            "lower": -2.944, "upper": 2.944, "llr": 2.971, "unit": "chips", "deals": 94,
            "payoff": {"mean": 0.883, "margin": 0.450}, "los": 0.9999,
            "games": 188, "games_played": 190, "conclusion": "H1"}"#;
        for text in [pentanomial, payoff] {
            let sprt: Sprt = serde_json::from_str(text).unwrap();
            let written: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::to_value(&sprt).unwrap(), written);
            assert_eq!(sprt.conclusion, Conclusion::H1);
        }
        let sprt: Sprt = serde_json::from_str(payoff).unwrap();
        assert!(matches!(sprt.parameters, Parameters::Payoff { payoff1, .. } if payoff1 == 0.2), "{sprt:?}");
        assert!(matches!(sprt.findings, Findings::Payoffs { deals: 94, .. }), "{sprt:?}");
    }
}
