//! The cells of the standings tables, shared by the text and the Markdown
//! renderings so that both show the same thing.

use super::Ranking;

/// What is left blank or unknown: the diagonal, pairs that never met, bots without a rating.
pub const NONE: &str = "—";

/// The main table's title.
pub const MAIN_TITLE: &str =
    "Standings: Elo ± 95% interval, from every game's result; LOS = likelihood of superiority over the next bot";

/// The title of the main table: [`MAIN_TITLE`], saying how the bots are
/// ranked when it is by mean score.
pub fn main_title(ranking: &Ranking) -> String {
    let scoring = &ranking.standings.scoring;
    if scoring.rank_by_mean {
        format!(
            "Standings: Elo ± 95% interval, from every game's result; ranked by {0}/game ± 95% interval; LOS = likelihood of superiority over the next bot, by {0}/game",
            scoring.unit
        )
    } else {
        MAIN_TITLE.to_string()
    }
}
/// The head-to-head matrix's title.
pub const HEAD_TO_HEAD_TITLE: &str = "Head to head: the row bot's score against the column bot (pairwise games)";
/// The LOS matrix's title.
pub const LOS_TITLE: &str =
    "Likelihood of superiority: the probability that the row bot is stronger than the column bot";

/// The title of the LOS matrix: [`LOS_TITLE`], saying that it comes from the
/// Elo ratings when the bots are ranked by mean score.
pub fn los_title(ranking: &Ranking) -> String {
    if ranking.standings.scoring.rank_by_mean {
        format!("{LOS_TITLE}, from the Elo ratings (pairwise results)")
    } else {
        LOS_TITLE.to_string()
    }
}

/// A table as text cells.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Grid {
    /// The column titles.
    pub header: Vec<String>,
    /// The rows.
    pub rows: Vec<Vec<String>>,
    /// Which columns hold numbers (aligned right).
    pub numeric: Vec<bool>,
}

/// `+191 ± 12`, or [`NONE`] without a rating.
pub fn elo(rating: Option<f64>, interval: Option<f64>) -> String {
    match (rating, interval) {
        // Adding 0.0 turns a rounded −0 into +0.
        (Some(r), Some(i)) => format!("{:+.0} ± {:.0}", r.round() + 0.0, i),
        (Some(r), None) => format!("{:+.0}", r.round() + 0.0),
        _ => NONE.to_string(),
    }
}

/// A fraction as a percentage with one decimal, `62.5%`.
pub fn percent(fraction: f64) -> String {
    format!("{:.1}%", fraction * 100.0)
}

/// The main table: one row per bot in rank order.
pub fn main_table(ranking: &Ranking) -> Grid {
    let unit = &ranking.standings.scoring.unit;
    let mut header: Vec<String> = [
        "#".to_string(),
        "bot".to_string(),
        "Elo".to_string(),
        "games".to_string(),
        "wins".to_string(),
        "draws".to_string(),
        "losses".to_string(),
        "win %".to_string(),
        "score %".to_string(),
        format!("{unit}/game"),
        format!("{unit} against"),
        "faults".to_string(),
        "LOS".to_string(),
    ]
    .to_vec();
    let mut numeric = vec![true, false, true, true, true, true, true, true, true, true, true, false, true];
    if ranking.weng_lin.is_some() {
        header.push("Weng-Lin".into());
        numeric.push(true);
    }
    let last = ranking.order.len().saturating_sub(1);
    let rows = ranking
        .bots()
        .enumerate()
        .map(|(position, (i, bot))| {
            let faults = if bot.faults == 0 {
                "0".to_string()
            } else {
                let kinds: Vec<String> = bot.faults_by_kind.iter().map(|(k, n)| format!("{k} {n}")).collect();
                format!("{} ({})", bot.faults, kinds.join(", "))
            };
            let los = match ranking.los_next(position) {
                Some(p) => percent(p),
                None if position == last => String::new(),
                None => NONE.to_string(),
            };
            let mut row = vec![
                (position + 1).to_string(),
                bot.name.clone(),
                elo(ranking.elo.rating(i), ranking.elo.interval(i)),
                bot.games.to_string(),
                bot.wins.to_string(),
                bot.draws.to_string(),
                bot.losses.to_string(),
                format!("{:.1}", bot.win_rate() * 100.0),
                format!("{:.1}", bot.score * 100.0),
                format!("{:.2} ± {:.2}", bot.points_for, bot.points_for_interval),
                format!("{:.2}", bot.points_against),
                faults,
                los,
            ];
            if ranking.weng_lin.is_some() {
                row.push(match ranking.weng_lin(i) {
                    Some(w) => format!("{:.1} ± {:.1}", w.mu, w.sigma),
                    None => NONE.to_string(),
                });
            }
            row
        })
        .collect();
    Grid { header, rows, numeric }
}

/// A bots × bots matrix in rank order, each cell from `cell(row, column)`
/// (indices into the bots), [`NONE`] on the diagonal or where `cell` has nothing.
fn matrix(ranking: &Ranking, cell: impl Fn(usize, usize) -> Option<String>) -> Grid {
    let mut header = vec![String::new()];
    header.extend(ranking.bots().map(|(_, bot)| bot.name.clone()));
    let rows = ranking
        .bots()
        .map(|(i, bot)| {
            let mut row = vec![bot.name.clone()];
            row.extend(
                ranking
                    .order
                    .iter()
                    .map(|&j| if i == j { None } else { cell(i, j) }.unwrap_or_else(|| NONE.to_string())),
            );
            row
        })
        .collect();
    let mut numeric = vec![true; ranking.order.len() + 1];
    numeric[0] = false;
    Grid { header, rows, numeric }
}

/// The row bot's score against the column bot and their games: `62.5% (40)`.
pub fn head_to_head(ranking: &Ranking) -> Grid {
    matrix(ranking, |i, j| {
        let (fraction, games) = ranking.standings.head_to_head(i, j);
        fraction.map(|f| format!("{} ({games})", percent(f)))
    })
}

/// The likelihood that the row bot is stronger than the column bot.
pub fn los_matrix(ranking: &Ranking) -> Grid {
    matrix(ranking, |i, j| ranking.elo.los(i, j).map(percent))
}
