//! The standings as a document: JSON, CSV or Markdown, holding the same data.
//!
//! - **JSON** is `standings.json` (documented in `arena/RECORDS.md`):
//!   `{"game", "seed", "games", "bots": [...], "head_to_head": {...}, "los": {...}}`,
//!   the bots in rank order, each with `rank` (from 1), `name`, `games`,
//!   `wins`, `losses`, `draws`, `score`, `points_for` (the mean final score
//!   per game: for a payoff game, the mean payoff, e.g. in chips),
//!   `points_for_interval` (the half-width of its 95% interval), `points_against`,
//!   `faults`, `faults_by_kind`, `win_rate`, `rating` and `rating_interval`
//!   (Elo and the half-width of its 95% interval, `null` without a rating),
//!   `los_next` (the likelihood of superiority over the next bot, `null` for
//!   the last) and, when some game had 3 or more sides, `weng_lin`
//!   (`{"mu", "sigma"}`, `null` for a bot without such games), and
//!   `repeated_deals`: whether it did better on deals it had met before
//!   ([`super::repeats`]), `{"deals", "gain", "interval", "p", "flagged"}`,
//!   `null` before it met [`super::repeats::MIN_DEALS`] deals twice.
//!   `head_to_head[row][column]` is `{"score", "games"}`: the row bot's score
//!   against the column bot as a fraction, and their pairwise games, for
//!   every pair that met; `los[row][column]` is the probability that the row
//!   bot is stronger, for every pair of rated bots. Objects keep rank order.
//! - **CSV** is one row per bot in rank order under a header row:
//!   `rank,name,rating,interval,games,wins,draws,losses,win_rate,score,points_for,points_for_interval,points_against,faults,los_next`
//!   and, when some game had 3 or more sides, `wl_mu,wl_sigma`. Numbers are
//!   unrounded, fractions are fractions (not percentages), and an empty field
//!   is a missing value. The matrices (head to head, LOS) are only in the
//!   JSON and Markdown reports.
//! - **Markdown** is a line naming the game, the number of games and the
//!   seed, then the main table and the head-to-head matrix, and with 3 bots
//!   or more the LOS matrix, as GitHub-flavoured Markdown tables under `###`
//!   titles, with the same cells as the text tables.

use super::Ranking;
use super::cells::{self, Grid};
use records::standings::{HeadToHead, Matrix, Standing};
use std::fmt;
use std::str::FromStr;

/// What a reader of a `standings.json` written before needs of it: the
/// games it counts and the seed of their run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
pub struct Written {
    /// The games the standings count.
    pub games: u64,
    /// The seed of the run, when it has one.
    pub seed: Option<u64>,
}

/// A format for [`super::Standings::report`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    /// `standings.json`.
    Json,
    /// One row per bot.
    Csv,
    /// GitHub-flavoured Markdown tables.
    Markdown,
}

/// No report has this format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownReportFormat {
    /// The format as given.
    pub text: String,
}

impl fmt::Display for UnknownReportFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown report format {:?}; the formats are: json, csv, markdown", self.text)
    }
}

impl std::error::Error for UnknownReportFormat {}

impl FromStr for ReportFormat {
    type Err = UnknownReportFormat;

    fn from_str(text: &str) -> Result<ReportFormat, UnknownReportFormat> {
        match text {
            "json" => Ok(ReportFormat::Json),
            "csv" => Ok(ReportFormat::Csv),
            "markdown" => Ok(ReportFormat::Markdown),
            _ => Err(UnknownReportFormat { text: text.to_string() }),
        }
    }
}

impl fmt::Display for ReportFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ReportFormat::Json => "json",
            ReportFormat::Csv => "csv",
            ReportFormat::Markdown => "markdown",
        })
    }
}

/// The report in `format`, ending with a newline.
pub fn render(ranking: &Ranking, format: ReportFormat, game: &str, seed: u64) -> String {
    match format {
        ReportFormat::Json => json(ranking, game, seed),
        ReportFormat::Csv => csv(ranking),
        ReportFormat::Markdown => markdown(ranking, game, seed),
    }
}

/// The bots' lines of `standings.json`, in rank order.
fn rows(ranking: &Ranking) -> Vec<Standing> {
    ranking
        .bots()
        .enumerate()
        .map(|(position, (i, bot))| Standing {
            rank: position as u64 + 1,
            name: bot.name.clone(),
            games: bot.games,
            wins: bot.wins,
            losses: bot.losses,
            draws: bot.draws,
            score: bot.score,
            points_for: bot.points_for,
            points_for_interval: bot.points_for_interval,
            points_against: bot.points_against,
            faults: bot.faults,
            faults_by_kind: bot.faults_by_kind.clone(),
            win_rate: bot.win_rate(),
            rating: ranking.elo.rating(i),
            rating_interval: ranking.elo.interval(i),
            los_next: ranking.los_next(position),
            weng_lin: ranking.weng_lin.as_ref().map(|ratings| ratings[i]),
            repeated_deals: ranking.repeated[i],
        })
        .collect()
}

/// `matrix[row][column]` over the bots in rank order, for the pairs `cell` has a value for.
fn matrix<V>(ranking: &Ranking, cell: impl Fn(usize, usize) -> Option<V>) -> Matrix<V> {
    ranking
        .bots()
        .map(|(i, bot)| {
            let row = ranking
                .bots()
                .filter(|&(j, _)| j != i)
                .filter_map(|(j, other)| cell(i, j).map(|v| (other.name.clone(), v)))
                .collect();
            (bot.name.clone(), row)
        })
        .collect()
}

fn json(ranking: &Ranking, game: &str, seed: u64) -> String {
    let document = records::standings::Standings {
        game: game.to_string(),
        seed,
        games: ranking.standings.games,
        bots: rows(ranking),
        head_to_head: matrix(ranking, |i, j| {
            let (fraction, games) = ranking.standings.head_to_head(i, j);
            fraction.map(|score| HeadToHead { score, games })
        }),
        los: matrix(ranking, |i, j| ranking.elo.los(i, j)),
    };
    let mut json = serde_json::to_string_pretty(&document).expect("standings serialize");
    json.push('\n');
    json
}

/// The CSV header, without the Weng–Lin columns.
pub const CSV_HEADER: &str = "rank,name,rating,interval,games,wins,draws,losses,win_rate,score,points_for,points_for_interval,points_against,faults,los_next";

fn csv(ranking: &Ranking) -> String {
    let number = |x: Option<f64>| x.map(|x| x.to_string()).unwrap_or_default();
    let mut out = String::from(CSV_HEADER);
    if ranking.weng_lin.is_some() {
        out.push_str(",wl_mu,wl_sigma");
    }
    out.push('\n');
    for row in rows(ranking) {
        let mut fields = vec![
            row.rank.to_string(),
            csv_field(&row.name),
            number(row.rating),
            number(row.rating_interval),
            row.games.to_string(),
            row.wins.to_string(),
            row.draws.to_string(),
            row.losses.to_string(),
            row.win_rate.to_string(),
            row.score.to_string(),
            row.points_for.to_string(),
            row.points_for_interval.to_string(),
            row.points_against.to_string(),
            row.faults.to_string(),
            number(row.los_next),
        ];
        if let Some(weng_lin) = row.weng_lin {
            fields.push(number(weng_lin.as_ref().map(|w| w.mu)));
            fields.push(number(weng_lin.as_ref().map(|w| w.sigma)));
        }
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// A CSV field, quoted (RFC 4180) when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text.to_string() }
}

fn markdown(ranking: &Ranking, game: &str, seed: u64) -> String {
    let mut parts = vec![
        format!("{game}: {} games, match seed {seed}\n", ranking.standings.games),
        format!(
            "### {}\n\n{}{}",
            cells::main_title(ranking),
            markdown_table(&cells::main_table(ranking)),
            super::repeats::warnings(ranking).iter().map(|w| format!("\n**{w}**\n")).collect::<String>()
        ),
        format!("### {}\n\n{}", cells::HEAD_TO_HEAD_TITLE, markdown_table(&cells::head_to_head(ranking))),
    ];
    if ranking.order.len() >= 3 {
        parts.push(format!("### {}\n\n{}", cells::los_title(ranking), markdown_table(&cells::los_matrix(ranking))));
    }
    parts.join("\n")
}

/// A GitHub-flavoured Markdown table, ending with a newline.
fn markdown_table(grid: &Grid) -> String {
    let line = |cells: &[String]| {
        let escaped: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
        format!("| {} |\n", escaped.join(" | "))
    };
    let mut out = line(&grid.header);
    let rule: Vec<String> = grid.numeric.iter().map(|&n| if n { "---:" } else { "---" }.to_string()).collect();
    out.push_str(&format!("|{}|\n", rule.join("|")));
    for row in &grid.rows {
        out.push_str(&line(row));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::Standings;
    use super::super::fixtures::*;
    use super::*;

    #[test]
    fn the_written_standings_read_back_typed() {
        let json = two_bots().to_json("all-fives", 7);
        let written: Written = serde_json::from_str(&json).unwrap();
        assert_eq!(written, Written { games: two_bots().games, seed: Some(7) });
    }
    use serde_json::Value;

    /// `standings.json` is written as `records`' type: read back, it writes
    /// the same bytes.
    #[test]
    fn the_written_standings_read_back_as_records_and_write_the_same_bytes() {
        for standings in [two_bots(), standings(&["q", "r", "p"], &free_for_all("p", ["q", "r"], 30))] {
            let json = standings.to_json("all-fives", 7);
            let read: records::standings::Standings = serde_json::from_str(&json).unwrap();
            assert_eq!(serde_json::to_string_pretty(&read).unwrap() + "\n", json);
        }
    }

    fn two_bots() -> Standings {
        standings(&["b", "a", "idle"], &results("a", "b", 750, 0, 250))
    }

    #[test]
    fn formats_parse_by_name() {
        for format in [ReportFormat::Json, ReportFormat::Csv, ReportFormat::Markdown] {
            assert_eq!(format.to_string().parse::<ReportFormat>(), Ok(format));
        }
        assert_eq!("csv".parse(), Ok(ReportFormat::Csv));
        let error = "xml".parse::<ReportFormat>().unwrap_err();
        assert_eq!(error, UnknownReportFormat { text: "xml".to_string() });
        assert_eq!(error.to_string(), "unknown report format \"xml\"; the formats are: json, csv, markdown");
        assert!("JSON".parse::<ReportFormat>().is_err());
    }

    #[test]
    fn json_holds_ratings_and_matrices() {
        let standings = two_bots();
        let text = standings.report(ReportFormat::Json, "all-fives", 7);
        assert_eq!(text, standings.to_json("all-fives", 7));
        let json: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            (json["game"].as_str(), json["seed"].as_u64(), json["games"].as_u64()),
            (Some("all-fives"), Some(7), Some(1000))
        );
        let bots = json["bots"].as_array().unwrap();
        let names: Vec<&str> = bots.iter().map(|b| b["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["a", "b", "idle"]);
        let a = &bots[0];
        assert_eq!((a["rank"].as_u64(), a["wins"].as_u64(), a["score"].as_f64()), (Some(1), Some(750), Some(0.75)));
        assert_eq!(a["win_rate"].as_f64(), Some(0.75));
        assert!((a["rating"].as_f64().unwrap() - 95.4).abs() < 0.1, "{a}");
        assert!((a["rating_interval"].as_f64().unwrap() - 12.43).abs() < 0.01, "{a}");
        assert!(a["los_next"].as_f64().unwrap() > 0.999_999);
        assert!(a.get("weng_lin").is_none(), "no free-for-all games");
        assert!((bots[1]["rating"].as_f64().unwrap() + 95.4).abs() < 0.1);
        assert_eq!(bots[1]["los_next"], Value::Null, "idle has no rating");
        let idle = &bots[2];
        assert_eq!(
            (&idle["rating"], &idle["rating_interval"], &idle["los_next"]),
            (&Value::Null, &Value::Null, &Value::Null)
        );
        assert_eq!(json["head_to_head"]["a"]["b"]["score"].as_f64(), Some(0.75));
        assert_eq!(json["head_to_head"]["b"]["a"]["games"].as_u64(), Some(1000));
        assert!(json["head_to_head"]["a"].get("idle").is_none() && json["head_to_head"]["a"].get("a").is_none());
        assert_eq!(json["head_to_head"]["idle"], serde_json::json!({}));
        let los_ab = json["los"]["a"]["b"].as_f64().unwrap();
        assert_eq!(Some(los_ab), a["los_next"].as_f64());
        assert!((los_ab + json["los"]["b"]["a"].as_f64().unwrap() - 1.0).abs() < 1e-12);
        // Objects keep rank order.
        assert!(text.find("\"head_to_head\": {\n    \"a\"").is_some(), "{text}");
    }

    #[test]
    fn json_has_weng_lin_after_free_for_alls() {
        let standings = standings(&["q", "r", "p"], &free_for_all("p", ["q", "r"], 30));
        let json: Value = serde_json::from_str(&standings.to_json("all-fives", 1)).unwrap();
        let p = standings.ranking().weng_lin(2).unwrap();
        assert_eq!(json["bots"][0]["name"], "p");
        assert_eq!(json["bots"][0]["weng_lin"]["mu"].as_f64(), Some(p.mu));
        assert_eq!(json["bots"][0]["weng_lin"]["sigma"].as_f64(), Some(p.sigma));
        assert!(json["bots"][2]["weng_lin"]["mu"].as_f64().unwrap() < 25.0);
        assert_eq!(json["head_to_head"]["q"]["r"]["score"].as_f64(), Some(0.5));
    }

    #[test]
    fn csv_has_a_header_and_a_row_per_bot() {
        let csv = two_bots().report(ReportFormat::Csv, "all-fives", 7);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], CSV_HEADER);
        let a: Vec<&str> = lines[1].split(',').collect();
        assert_eq!(a.len(), 15);
        assert_eq!(&a[..2], ["1", "a"]);
        assert!((a[2].parse::<f64>().unwrap() - 95.4).abs() < 0.1);
        assert_eq!(&a[4..11], ["1000", "750", "0", "250", "0.75", "0.75", "225"]);
        // Scores of 250 (750 games) and 150 (250): 1.96 * sqrt(0.1875 * 100^2 * 1000 / 999 / 1000).
        assert!((a[11].parse::<f64>().unwrap() - 2.6852).abs() < 1e-3, "{}", a[11]);
        assert_eq!(&a[12..14], ["137.5", "0"]);
        assert!(a[14].parse::<f64>().unwrap() > 0.999_999);
        assert_eq!(lines[2].split(',').nth(14), Some(""), "idle has no rating, so no LOS");
        assert_eq!(lines[3], "3,idle,,,0,0,0,0,0,0,0,0,0,0,");

        let ffa = standings(&["q", "r", "p"], &free_for_all("p", ["q", "r"], 30)).report(ReportFormat::Csv, "x", 1);
        let lines: Vec<&str> = ffa.lines().collect();
        assert_eq!(lines[0], format!("{CSV_HEADER},wl_mu,wl_sigma"));
        assert!(lines[1..].iter().all(|l| l.split(',').count() == 17), "{ffa}");
        assert_eq!(csv_field("a,\"b\""), "\"a,\"\"b\"\"\"");
    }

    #[test]
    fn markdown_has_the_main_table_and_the_matrix() {
        let standings = standings(&["b|x", "a"], &results("a", "b|x", 750, 0, 250));
        let markdown = standings.report(ReportFormat::Markdown, "all-fives", 7);
        assert!(markdown.starts_with("all-fives: 1000 games, match seed 7\n\n### "), "{markdown}");
        let table_lines: Vec<&str> =
            markdown.lines().skip(1).filter(|l| !l.is_empty() && !l.starts_with("### ")).collect();
        assert!(table_lines.iter().all(|l| l.starts_with('|') && l.ends_with('|')), "{markdown}");
        assert_eq!(markdown.matches("\n### ").count(), 2, "two tables for two bots");
        assert!(markdown.contains("| 1 | a | +95 ± 12 | 1000 | 750 | 0 | 250 | 75.0 | 75.0 |"), "{markdown}");
        assert!(markdown.contains("|---:|---|---:|"), "{markdown}");
        assert!(markdown.contains("| b\\|x | 25.0% (1000) | — |"), "{markdown}");
    }
}
