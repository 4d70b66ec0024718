//! What `arena sprt` shows and keeps: the progress status, the final summary
//! and `sprt.json`. Pure: text and values, written by the caller.

use super::kind::{Evidence, Test};
use super::pairs::DealSequence;
use super::pentanomial::{Estimate, Model};
pub use records::sprt::Conclusion;
use records::sprt::{Findings, Parameters};
use serde::{Deserialize, Serialize};

/// What a reader of `sprt.json` needs of a [`Summary`] written before:
/// how the test ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct Ended {
    /// How it ended.
    pub conclusion: Conclusion,
}

/// A test's summary: `sprt.json` ([`records::sprt::Sprt`], which it
/// serializes as), and the test and evidence its text is written from.
#[derive(Debug, Clone)]
pub struct Summary {
    /// What `sprt.json` holds.
    pub file: records::sprt::Sprt,
    /// The test run.
    test: Test,
    /// What it counted.
    evidence: Evidence,
}

impl Serialize for Summary {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.file.serialize(serializer)
    }
}

/// An Elo estimate as `sprt.json` holds it: `null` where unbounded.
fn written(estimate: Option<Estimate>) -> Option<records::sprt::Estimate> {
    let finite = |x: f64| Some(x).filter(|x| x.is_finite());
    estimate.map(|e| records::sprt::Estimate { elo: finite(e.elo), margin: finite(e.margin) })
}

/// The test's parameters as `sprt.json` holds them.
fn written_parameters(test: &Test) -> Parameters {
    let errors = test.errors();
    match test {
        Test::Pentanomial(sprt) => Parameters::Pentanomial {
            elo0: sprt.elo0,
            elo1: sprt.elo1,
            alpha: errors.alpha,
            beta: errors.beta,
            model: sprt.model.name().to_string(),
        },
        Test::Payoff(sprt) => {
            Parameters::Payoff { payoff0: sprt.payoff0, payoff1: sprt.payoff1, alpha: errors.alpha, beta: errors.beta }
        }
    }
}

/// What `sequence` counted, for a game whose scores count `unit`.
fn findings(sequence: &DealSequence, unit: &str) -> Findings {
    match (sequence.evidence(), sequence.test()) {
        (Evidence::Pairs(counts), Test::Pentanomial(sprt)) => Findings::Pairs {
            pentanomial: counts.counts,
            pairs: counts.pairs(),
            elo: written(counts.estimate(sprt.model)),
            logistic_elo: written(counts.estimate(Model::Logistic)),
            normalized_elo: written(counts.estimate(Model::Normalized)),
            los: counts.los(),
            draw_ratio: counts.draw_ratio(),
        },
        (Evidence::Payoffs(payoffs), _) => Findings::Payoffs {
            unit: unit.to_string(),
            deals: payoffs.deals,
            payoff: payoffs.estimate(),
            los: payoffs.los(),
        },
        _ => unreachable!("the evidence of another test"),
    }
}

impl Summary {
    /// The summary of `sequence`, in a game whose scores count `unit`.
    pub fn new(
        new: &str,
        base: &str,
        sequence: &DealSequence,
        unit: &str,
        games_played: u64,
        conclusion: Conclusion,
    ) -> Summary {
        let test = *sequence.test();
        let file = records::sprt::Sprt {
            new: new.to_string(),
            base: base.to_string(),
            test: test.name().to_string(),
            parameters: written_parameters(&test),
            lower: test.errors().lower(),
            upper: test.errors().upper(),
            llr: sequence.llr(),
            findings: findings(sequence, unit),
            games: sequence.games(),
            games_played,
            conclusion,
        };
        Summary { file, test, evidence: sequence.evidence().clone() }
    }

    /// The summary printed at the end, several lines.
    pub fn text(&self) -> String {
        let file = &self.file;
        let (new, base) = (&file.new, &file.base);
        let unit = match &file.findings {
            Findings::Pairs { .. } => self.test.unit(""),
            Findings::Payoffs { unit, .. } => self.test.unit(unit),
        };
        let bound1 = self.test.bounds().1;
        // What each hypothesis says depends on where the bounds lie: [0, 5]
        // asks "is it better?", [-10, 0] (no-regression) "is it not worse?".
        let verdict = match file.conclusion {
            Conclusion::H1 if bound1 > 0.0 => format!("H1 accepted: {new} is better than {base}"),
            Conclusion::H1 if bound1 == 0.0 => format!("H1 accepted: {new} is not worse than {base}"),
            Conclusion::H1 => format!("H1 accepted: {new} is at most {} {unit} worse than {base}", -bound1),
            Conclusion::H0 if bound1 > 0.0 => format!("H0 accepted: {new} is not {bound1} {unit} better than {base}"),
            Conclusion::H0 => format!("H0 accepted: {new} is worse than {base}"),
            Conclusion::Inconclusive => "inconclusive: the game limit was reached without a verdict".to_string(),
            Conclusion::Interrupted => "interrupted before a verdict".to_string(),
        };
        // The standings beside it rate every game played on its own: say
        // which figure this is, and what it is estimated from.
        let (counted, estimates) = match &self.evidence {
            Evidence::Pairs(counts) => (
                format!("{} pairs", counts.pairs()),
                format!(
                    "SPRT estimate from the {} pairs counted: {}, {}\n  \
                     (not the standings' Elo: that rates each bot about their mean, from each of the {} games played on its own)\n\
                     LOS {}, draw ratio {} (pairs scoring 1 point)\n\
                     pentanomial [LL, LD, WL+DD, WD, WW]: {:?}\n",
                    counts.pairs(),
                    estimate_text(counts.estimate(Model::Logistic).map(|e| [e.elo, e.margin]), "Elo", 1),
                    estimate_text(counts.estimate(Model::Normalized).map(|e| [e.elo, e.margin]), "nElo", 1),
                    file.games_played,
                    percent(counts.los()),
                    percent(counts.draw_ratio()),
                    counts.counts,
                ),
            ),
            Evidence::Payoffs(payoffs) => (
                format!("{} deals", payoffs.deals),
                format!(
                    "SPRT estimate from the {} deals counted: {new}'s payoff {}, LOS {}\n",
                    payoffs.deals,
                    estimate_text(payoffs.estimate().map(|e| [e.mean, e.margin]), &unit, 2),
                    percent(payoffs.los())
                ),
            ),
        };
        format!(
            "SPRT {new} vs {base}: {}\n\
             LLR {:.2} after {} games ({counted}; {} played)\n\
             {estimates}\
             {verdict}\n",
            parameters(&self.test, &unit),
            file.llr,
            file.games,
            file.games_played,
        )
    }
}

/// The progress status of a test running, in a game whose scores count
/// `unit`: LLR, bounds, estimate and the pentanomial counts or the deals.
pub fn status(sequence: &DealSequence, unit: &str) -> String {
    let test = sequence.test();
    let errors = test.errors();
    let estimate = estimate_text(sequence.evidence().estimate(test), &test.unit(unit), estimate_digits(test));
    let counts = match sequence.evidence() {
        Evidence::Pairs(counts) => format!("penta {:?}", counts.counts),
        Evidence::Payoffs(payoffs) => format!("{} deals", payoffs.deals),
    };
    format!("| LLR {:.2} ({:.2}, {:.2}) {estimate} | {counts}", sequence.llr(), errors.lower(), errors.upper())
}

/// The test's parameters in words, `unit` being [`Test::unit`]:
/// `nElo [0, 5], alpha 0.05, beta 0.05, LLR bounds (-2.94, 2.94)`.
pub fn parameters(test: &Test, unit: &str) -> String {
    let ((bound0, bound1), errors) = (test.bounds(), test.errors());
    format!(
        "{unit} [{bound0}, {bound1}], alpha {}, beta {}, LLR bounds ({:.2}, {:.2})",
        errors.alpha,
        errors.beta,
        errors.lower(),
        errors.upper()
    )
}

/// Decimals of the test's estimate: Elo to 0.1, payoffs to 0.01.
fn estimate_digits(test: &Test) -> usize {
    match test {
        Test::Pentanomial(_) => 1,
        Test::Payoff(_) => 2,
    }
}

/// `nElo +12.3 ± 4.5`, or `nElo n/a` while there is no estimate.
fn estimate_text(estimate: Option<[f64; 2]>, unit: &str, digits: usize) -> String {
    match estimate {
        Some([value, margin]) => format!("{unit} {value:+.digits$} ± {margin:.digits$}"),
        None => format!("{unit} n/a"),
    }
}

/// `99.81%`, or `n/a`.
fn percent(fraction: Option<f64>) -> String {
    fraction.map_or("n/a".to_string(), |f| format!("{:.2}%", f * 100.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sprt::{PayoffSprt, Sprt};

    fn pentanomial(elo0: f64, elo1: f64) -> Test {
        Test::Pentanomial(Sprt::new(elo0, elo1, 0.05, 0.05, Model::Normalized).unwrap())
    }

    #[test]
    fn summary_text_and_json() {
        let mut sequence = DealSequence::new(pentanomial(0.0, 5.0), 2, 1).unwrap();
        for (deal, results) in [(0, [2.0, 2.0]), (1, [2.0, 0.0]), (2, [1.0, 2.0])] {
            for (arrangement, half_points) in results.into_iter().enumerate() {
                sequence.add(deal, arrangement, vec![half_points]);
            }
        }
        let summary = Summary::new("new", "base", &sequence, "points", 7, sequence.conclusion(true));
        let text = summary.text();
        assert!(text.contains("after 6 games (3 pairs; 7 played)"), "{text}");
        assert!(text.contains("pentanomial [LL, LD, WL+DD, WD, WW]: [0, 0, 1, 1, 1]"), "{text}");
        // Pairs scoring ½, ¾ and 1 of 2 points: μ = 0.75, σ² = 1/24, σ/√3 = 0.117851;
        // LOS Φ(0.25 / 0.117851) = Φ(2.121320) = 98.31%; one pair in three scored 1 point.
        assert!(text.contains("LOS 98.31%, draw ratio 33.33% (pairs scoring 1 point)"), "{text}");
        assert!(text.contains("\nSPRT estimate from the 3 pairs counted: Elo +190.8 ± "), "{text}");
        assert!(
            text.contains(", nElo +")
                && text.contains("(not the standings' Elo: that rates each bot about their mean, from each of the 7 games played on its own)"),
            "{text}"
        );
        assert!(text.contains("interrupted before a verdict"), "{text}");
        let written = serde_json::to_string_pretty(&summary).unwrap();
        let read: records::sprt::Sprt = serde_json::from_str(&written).unwrap();
        assert_eq!(serde_json::to_string_pretty(&read).unwrap(), written, "sprt.json is records' type");
        let json = serde_json::to_value(&summary).unwrap();
        assert_eq!(json["test"], "pentanomial");
        assert_eq!(json["conclusion"], "interrupted");
        assert_eq!(json["model"], "normalized");
        assert_eq!(json["pentanomial"], serde_json::json!([0, 0, 1, 1, 1]));
        assert_eq!(json["elo"], json["normalized_elo"], "the test's scale is nElo");
        assert!(json["logistic_elo"]["margin"].as_f64() > Some(0.0), "{json}");
        assert!((json["los"].as_f64().unwrap() - 0.983052).abs() < 1e-5, "{json}");
        assert!(status(&sequence, "points").starts_with("| LLR "), "{}", status(&sequence, "points"));
    }

    #[test]
    fn a_payoff_summary_is_in_the_games_unit() {
        let test = Test::Payoff(PayoffSprt::new(0.0, 0.5, 0.05, 0.05).unwrap());
        let mut sequence = DealSequence::new(test, 2, 1).unwrap();
        for (deal, payoffs) in [(0, [3.0, 1.0]), (1, [-1.0, 1.0]), (2, [4.0, 2.0]), (3, [-2.0, 0.0])] {
            for (arrangement, payoff) in payoffs.into_iter().enumerate() {
                sequence.add(deal, arrangement, vec![payoff]);
            }
        }
        // The deals of payoff.rs's test by hand: LLR 0.288462, mean 1 ± 2.234703, LOS 80.98%.
        let summary = Summary::new("rules", "random", &sequence, "chips", 9, sequence.conclusion(false));
        let text = summary.text();
        assert!(text.starts_with("SPRT rules vs random: chips/game [0, 0.5], alpha 0.05"), "{text}");
        assert!(text.contains("LLR 0.29 after 8 games (4 deals; 9 played)"), "{text}");
        assert!(
            text.contains("SPRT estimate from the 4 deals counted: rules's payoff chips/game +1.00 ± 2.23, LOS 80.98%"),
            "{text}"
        );
        let written = serde_json::to_string_pretty(&summary).unwrap();
        let read: records::sprt::Sprt = serde_json::from_str(&written).unwrap();
        assert_eq!(serde_json::to_string_pretty(&read).unwrap(), written, "sprt.json is records' type");
        let json = serde_json::to_value(&summary).unwrap();
        assert_eq!(json["test"], "payoff");
        assert_eq!((json["payoff0"].as_f64(), json["payoff1"].as_f64()), (Some(0.0), Some(0.5)));
        assert_eq!((&json["unit"], &json["deals"]), (&"chips".into(), &4.into()));
        assert!((json["payoff"]["mean"].as_f64().unwrap() - 1.0).abs() < 1e-12, "{json}");
        assert!(json.get("pentanomial").is_none(), "{json}");
        let status = status(&sequence, "chips");
        assert_eq!(status, "| LLR 0.29 (-2.94, 2.94) chips/game +1.00 ± 2.23 | 4 deals");
        let mut summary = summary;
        summary.file.conclusion = Conclusion::H0;
        assert!(summary.text().ends_with("H0 accepted: rules is not 0.5 chips/game better than random\n"));
    }

    #[test]
    fn the_verdict_reads_as_the_bounds_ask() {
        let verdict = |elo0, elo1, conclusion| {
            let sequence = DealSequence::new(pentanomial(elo0, elo1), 2, 1).unwrap();
            let mut summary = Summary::new("new", "old", &sequence, "points", 0, Conclusion::Inconclusive);
            summary.file.conclusion = conclusion;
            summary.text().lines().last().unwrap().to_string()
        };
        assert_eq!(verdict(0.0, 5.0, Conclusion::H1), "H1 accepted: new is better than old");
        assert_eq!(verdict(0.0, 5.0, Conclusion::H0), "H0 accepted: new is not 5 nElo better than old");
        assert_eq!(verdict(-10.0, 0.0, Conclusion::H1), "H1 accepted: new is not worse than old");
        assert_eq!(verdict(-10.0, 0.0, Conclusion::H0), "H0 accepted: new is worse than old");
        assert_eq!(verdict(-10.0, -3.0, Conclusion::H1), "H1 accepted: new is at most 3 nElo worse than old");
    }
}
