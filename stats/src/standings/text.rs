//! The standings as text tables (comfy-table), as printed after a match.

use super::Ranking;
use super::cells::{self, Grid};
use comfy_table::{CellAlignment, Table, presets::UTF8_FULL_CONDENSED};

/// The main table and the head-to-head matrix and, with 3 bots or more, the
/// LOS matrix, each under a title line and separated by a blank line; a
/// matrix wider than `width` columns (if given) is fitted to it: its columns
/// numbered as its rows and split over as few tables as fit.
pub fn render(ranking: &Ranking, width: Option<usize>) -> String {
    let mut main = format!("{}\n{}", cells::main_title(ranking), table(&cells::main_table(ranking)));
    for warning in super::repeats::warnings(ranking) {
        main.push('\n');
        main.push_str(&warning);
    }
    let mut parts = vec![main, fitted(cells::HEAD_TO_HEAD_TITLE, &cells::head_to_head(ranking), width)];
    if ranking.order.len() >= 3 {
        parts.push(fitted(&cells::los_title(ranking), &cells::los_matrix(ranking), width));
    }
    parts.join("\n\n")
}

/// A matrix under its title, in at most `width` columns where it can be:
/// as it is if it fits; otherwise with the column bots numbered by their
/// rows (`3 greedy` is column 3), the columns split over as few tables,
/// one under the other, as fit.
fn fitted(title: &str, grid: &Grid, width: Option<usize>) -> String {
    let whole = table(grid);
    let Some(width) = width.filter(|&width| widest(&whole) > width) else {
        return format!("{title}\n{whole}");
    };
    let bots = grid.rows.len();
    let numbered = Grid {
        header: std::iter::once(String::new()).chain((1..=bots).map(|n| n.to_string())).collect(),
        rows: grid.rows.iter().enumerate().map(|(n, row)| numbered_row(n, row)).collect(),
        numeric: grid.numeric.clone(),
    };
    let split = |per_table: usize| -> Vec<String> {
        (0..bots)
            .step_by(per_table)
            .map(|from| table(&columns(&numbered, from..(from + per_table).min(bots))))
            .collect()
    };
    let per_table = (1..=bots).rev().find(|&n| split(n).iter().all(|t| widest(t) <= width)).unwrap_or(1);
    let parts = split(per_table);
    let note = match parts.len() {
        1 => "columns numbered as the rows".to_string(),
        n => format!("columns numbered as the rows, in {n} tables of {per_table}"),
    };
    format!("{title} ({note})\n{}", parts.join("\n"))
}

/// A row of a matrix with its bot numbered: `3 greedy`.
fn numbered_row(n: usize, row: &[String]) -> Vec<String> {
    let mut row = row.to_vec();
    row[0] = format!("{} {}", n + 1, row[0]);
    row
}

/// The row labels and the matrix columns `bots` (from 0) of `grid`.
fn columns(grid: &Grid, bots: std::ops::Range<usize>) -> Grid {
    let pick = |row: &[String]| -> Vec<String> {
        std::iter::once(row[0].clone()).chain(row[bots.start + 1..bots.end + 1].iter().cloned()).collect()
    };
    Grid {
        header: pick(&grid.header),
        rows: grid.rows.iter().map(|row| pick(row)).collect(),
        numeric: std::iter::once(grid.numeric[0])
            .chain(grid.numeric[bots.start + 1..bots.end + 1].iter().copied())
            .collect(),
    }
}

/// The width of the widest line of `text`, in characters.
fn widest(text: &str) -> usize {
    text.lines().map(|line| line.chars().count()).max().unwrap_or(0)
}

fn table(grid: &Grid) -> String {
    let mut table = Table::new();
    table.load_style(UTF8_FULL_CONDENSED);
    table.set_header(grid.header.clone());
    for row in &grid.rows {
        table.add_row(row.clone());
    }
    for (column, &numeric) in grid.numeric.iter().enumerate() {
        if numeric && let Some(column) = table.column_mut(column) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    table.to_string()
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;
    use super::cells;
    use records::record::GameSummary;

    /// A round robin of 12 bots with long names, each pair 40 games, the
    /// better-placed bot winning more.
    fn twelve_bots() -> super::super::Standings {
        let names: Vec<String> = (0..12).map(|i| format!("search-{}", 100 * (12 - i))).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut games: Vec<GameSummary> = Vec::new();
        for a in 0..12 {
            for b in a + 1..12 {
                let wins = 20 + (b - a);
                games.extend(results(names[a], names[b], wins, 2, 38 - wins));
            }
        }
        standings(&names, &games)
    }

    #[test]
    fn the_matrices_of_twelve_bots_fit_the_width() {
        let standings = twelve_bots();
        let wide = standings.table_within(None);
        assert!(wide.lines().any(|l| l.chars().count() > 150), "unfitted, the matrix is wide:\n{wide}");
        let fitted = standings.table_within(Some(100));
        let at = fitted.find(cells::HEAD_TO_HEAD_TITLE).unwrap();
        let head_to_head = fitted[at..].split("\n\n").next().unwrap();
        assert_eq!(head_to_head, include_str!("snapshots/head_to_head_12_bots_100_columns.txt").trim_end());
        let los = fitted.split(cells::LOS_TITLE).nth(1).unwrap();
        for matrix in [head_to_head, los] {
            let rows = matrix.lines().filter(|l| l.starts_with(['┌', '│', '╞', '└']));
            assert!(rows.clone().count() > 12 && rows.clone().all(|l| l.chars().count() <= 100), "{matrix}");
        }
        assert_eq!(standings.table_within(Some(1000)), wide, "what fits is left as it is");
    }

    #[test]
    fn two_bots_show_ratings_and_the_head_to_head_matrix() {
        let table = standings(&["b", "a"], &results("a", "b", 750, 0, 250)).table_within(None);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines[0], cells::MAIN_TITLE);
        assert!(lines[2].contains("Elo") && lines[2].contains("LOS") && !lines[2].contains("Weng-Lin"), "{table}");
        // Half of +191 each side of the mean; the interval is 1.96 × 12.69 / 2.
        let a = lines.iter().find(|l| l.contains(" a ")).unwrap();
        assert!(a.starts_with("│ 1 ┆ a ") && a.contains("+95 ± 12") && a.contains("100.0%"), "{table}");
        let b = lines.iter().find(|l| l.contains(" b ")).unwrap();
        assert!(b.starts_with("│ 2 ┆ b ") && b.contains("-95 ± 12") && b.trim_end().ends_with("┆        │"), "{table}");
        assert!(table.contains(cells::HEAD_TO_HEAD_TITLE));
        assert!(table.contains("75.0% (1000)") && table.contains("25.0% (1000)"), "{table}");
        assert!(!table.contains(cells::LOS_TITLE), "no LOS matrix for two bots");
    }

    #[test]
    fn free_for_alls_add_weng_lin_and_three_bots_the_los_matrix() {
        let standings = standings(&["q", "r", "p"], &free_for_all("p", ["q", "r"], 30));
        let table = standings.table_within(None);
        assert!(table.contains("Weng-Lin"), "{table}");
        let p = standings.ranking().weng_lin(2).unwrap();
        let row = table.lines().find(|l| l.contains(" p ")).unwrap();
        assert!(row.starts_with("│ 1 ┆ p ") && row.contains(&format!("{:.1} ± {:.1}", p.mu, p.sigma)), "{table}");
        let los = table.split(cells::LOS_TITLE).nth(1).expect("the LOS matrix");
        // q and r are rated alike: 50% either way.
        assert!(los.lines().any(|l| l.contains(" q ") && l.contains("50.0%")), "{table}");
        assert!(table.contains("100.0% (30)") && table.contains("50.0% (30)"), "{table}");
    }
}
