//! `arena rules`: the game's variant settings.

use super::{Failure, unwritten, usage};
use crate::games::{GameCommand, dispatch};
use game::Game;

/// Prints the variant settings of `game`.
pub fn run(game: &str) -> Result<i32, Failure> {
    struct Rules;
    impl GameCommand for Rules {
        type Output = String;
        fn run<G: Game>(self) -> String {
            let mut table = comfy_table::Table::new();
            table.load_style(comfy_table::presets::UTF8_FULL_CONDENSED);
            // Wrapped to fit an 80-column terminal.
            table.set_content_arrangement(comfy_table::ContentArrangement::Dynamic).set_width(80);
            table.set_header(vec!["setting", "values", "default", "meaning"]);
            for option in G::variant_options() {
                table.add_row(vec![option.key, option.values, option.default, option.help]);
            }
            // (Set once the columns exist.) The meaning gets the room the values and defaults leave.
            let narrow = comfy_table::ColumnConstraint::UpperBoundary(comfy_table::Width::Fixed(18));
            table.set_constraints(vec![comfy_table::ColumnConstraint::ContentWidth, narrow, narrow]);
            format!("{} variant settings: --variant KEY=VALUE (players also --players N)\n{table}\n", G::NAME)
        }
    }
    crate::console::out(format_args!("{}", dispatch(game, Rules).map_err(usage)?)).map_err(unwritten)?;
    Ok(0)
}
