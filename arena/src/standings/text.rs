//! The standings as text tables (comfy-table), as printed after a match.

use super::Ranking;
use super::cells::{self, Grid};
use comfy_table::{CellAlignment, Table, presets::UTF8_FULL_CONDENSED};

/// The main table and the head-to-head matrix and, with 3 bots or more, the
/// LOS matrix, each under a title line and separated by a blank line.
pub fn render(ranking: &Ranking) -> String {
    let mut parts = vec![
        format!("{}\n{}", cells::main_title(ranking), table(&cells::main_table(ranking))),
        format!("{}\n{}", cells::HEAD_TO_HEAD_TITLE, table(&cells::head_to_head(ranking))),
    ];
    if ranking.order.len() >= 3 {
        parts.push(format!("{}\n{}", cells::los_title(ranking), table(&cells::los_matrix(ranking))));
    }
    parts.join("\n\n")
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

    #[test]
    fn two_bots_show_ratings_and_the_head_to_head_matrix() {
        let table = standings(&["b", "a"], &results("a", "b", 750, 0, 250)).table();
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
        let table = standings.table();
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
