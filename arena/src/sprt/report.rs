//! What `arena sprt` shows and keeps: the progress status, the final summary
//! and `sprt.json`. Pure: text and values, written by the caller.

use super::pairs::DealSequence;
use super::pentanomial::{Estimate, Model};
use super::test::{Hypothesis, Sprt};
use serde::Serialize;

/// How a test ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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

impl Conclusion {
    /// The conclusion of `sequence` after a run that was (or was not) interrupted.
    pub fn of(sequence: &DealSequence, interrupted: bool) -> Conclusion {
        match sequence.verdict() {
            Some(Hypothesis::H1) => Conclusion::H1,
            Some(Hypothesis::H0) => Conclusion::H0,
            None if interrupted => Conclusion::Interrupted,
            None => Conclusion::Inconclusive,
        }
    }
}

/// `sprt.json`: the test, its counts and its conclusion.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The tested bot.
    pub new: String,
    /// The bot it is compared with.
    pub base: String,
    /// The test's parameters.
    #[serde(flatten)]
    pub sprt: Sprt,
    /// The lower bound of the LLR (H0 at or below it).
    pub lower: f64,
    /// The upper bound of the LLR (H1 at or above it).
    pub upper: f64,
    /// The LLR of the pairs counted.
    pub llr: f64,
    /// Pairs by their score for the new bot: LL, LD, WL+DD, WD, WW.
    pub pentanomial: [u64; 5],
    /// The pairs counted.
    pub pairs: u64,
    /// The games the test counted (whole deals, in schedule order, up to the verdict).
    pub games: u64,
    /// Every game recorded, those finished after the verdict included.
    pub games_played: u64,
    /// The Elo difference on the test's scale, with half its 95% interval.
    pub elo: Option<Estimate>,
    /// How the test ended.
    pub conclusion: Conclusion,
}

impl Summary {
    /// The summary of `sequence`.
    pub fn new(new: &str, base: &str, sequence: &DealSequence, games_played: u64, conclusion: Conclusion) -> Summary {
        let sprt = *sequence.sprt();
        Summary {
            new: new.to_string(),
            base: base.to_string(),
            sprt,
            lower: sprt.lower(),
            upper: sprt.upper(),
            llr: sequence.llr(),
            pentanomial: sequence.counts().counts,
            pairs: sequence.counts().pairs(),
            games: sequence.games(),
            games_played,
            elo: sequence.counts().estimate(sprt.model),
            conclusion,
        }
    }

    /// The summary printed at the end, several lines.
    pub fn text(&self) -> String {
        let (new, base, unit) = (&self.new, &self.base, self.sprt.model.unit());
        let elo1 = self.sprt.elo1;
        // What each hypothesis says depends on where the bounds lie: [0, 5]
        // asks "is it better?", [-10, 0] (no-regression) "is it not worse?".
        let verdict = match self.conclusion {
            Conclusion::H1 if elo1 > 0.0 => format!("H1 accepted: {new} is better than {base}"),
            Conclusion::H1 if elo1 == 0.0 => format!("H1 accepted: {new} is not worse than {base}"),
            Conclusion::H1 => format!("H1 accepted: {new} is at most {} {unit} worse than {base}", -elo1),
            Conclusion::H0 if elo1 > 0.0 => format!("H0 accepted: {new} is not {elo1} {unit} better than {base}"),
            Conclusion::H0 => format!("H0 accepted: {new} is worse than {base}"),
            Conclusion::Inconclusive => "inconclusive: the game limit was reached without a verdict".to_string(),
            Conclusion::Interrupted => "interrupted before a verdict".to_string(),
        };
        format!(
            "SPRT {} vs {}: {}\n\
             LLR {:.2} after {} games ({} pairs; {} played)\n\
             pentanomial [LL, LD, WL+DD, WD, WW]: {:?}\n\
             {}\n\
             {verdict}\n",
            self.new,
            self.base,
            parameters(&self.sprt),
            self.llr,
            self.games,
            self.pairs,
            self.games_played,
            self.pentanomial,
            estimate_text(self.elo, self.sprt.model),
        )
    }
}

/// The progress status of a test running: LLR, bounds, Elo and pentanomial counts.
pub fn status(sequence: &DealSequence) -> String {
    let sprt = sequence.sprt();
    format!(
        "| LLR {:.2} ({:.2}, {:.2}) {} | penta {:?}",
        sequence.llr(),
        sprt.lower(),
        sprt.upper(),
        estimate_text(sequence.counts().estimate(sprt.model), sprt.model),
        sequence.counts().counts
    )
}

/// The test's parameters in words: `nElo [0, 5], alpha 0.05, beta 0.05, LLR bounds (-2.94, 2.94)`.
pub fn parameters(sprt: &Sprt) -> String {
    format!(
        "{} [{}, {}], alpha {}, beta {}, LLR bounds ({:.2}, {:.2})",
        sprt.model.unit(),
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        sprt.lower(),
        sprt.upper()
    )
}

/// `nElo +12.3 ± 4.5`, or `nElo n/a` while every pair has scored the same.
fn estimate_text(estimate: Option<Estimate>, model: Model) -> String {
    match estimate {
        Some(Estimate { elo, margin }) => format!("{} {elo:+.1} ± {margin:.1}", model.unit()),
        None => format!("{} n/a", model.unit()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_text_and_json() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
        let mut sequence = DealSequence::new(sprt, 2, 1).unwrap();
        for (deal, results) in [(0, [2, 2]), (1, [2, 0]), (2, [1, 2])] {
            for (arrangement, half_points) in results.into_iter().enumerate() {
                sequence.add(deal, arrangement, vec![half_points]);
            }
        }
        let summary = Summary::new("new", "base", &sequence, 7, Conclusion::of(&sequence, true));
        let text = summary.text();
        assert!(text.contains("after 6 games (3 pairs; 7 played)"), "{text}");
        assert!(text.contains("pentanomial [LL, LD, WL+DD, WD, WW]: [0, 0, 1, 1, 1]"), "{text}");
        assert!(text.contains("interrupted before a verdict"), "{text}");
        let json = serde_json::to_value(&summary).unwrap();
        assert_eq!(json["conclusion"], "interrupted");
        assert_eq!(json["model"], "normalized");
        assert_eq!(json["pentanomial"], serde_json::json!([0, 0, 1, 1, 1]));
        assert!(status(&sequence).starts_with("| LLR "), "{}", status(&sequence));
    }

    #[test]
    fn the_verdict_reads_as_the_bounds_ask() {
        let verdict = |elo0, elo1, conclusion| {
            let sprt = Sprt::new(elo0, elo1, 0.05, 0.05, Model::Normalized).unwrap();
            let sequence = DealSequence::new(sprt, 2, 1).unwrap();
            let mut summary = Summary::new("new", "old", &sequence, 0, Conclusion::Inconclusive);
            summary.conclusion = conclusion;
            summary.text().lines().last().unwrap().to_string()
        };
        assert_eq!(verdict(0.0, 5.0, Conclusion::H1), "H1 accepted: new is better than old");
        assert_eq!(verdict(0.0, 5.0, Conclusion::H0), "H0 accepted: new is not 5 nElo better than old");
        assert_eq!(verdict(-10.0, 0.0, Conclusion::H1), "H1 accepted: new is not worse than old");
        assert_eq!(verdict(-10.0, 0.0, Conclusion::H0), "H0 accepted: new is worse than old");
        assert_eq!(verdict(-10.0, -3.0, Conclusion::H1), "H1 accepted: new is at most 3 nElo worse than old");
    }
}
