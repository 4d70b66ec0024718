//! `arena rules`: the game's variant settings, as its engine describes them.

use super::game::GameArgs;
use super::{Failure, exit, unwritten};
use crate::run::setting::Setting;
use crate::terminal::untrusted::escape;

/// Prints the variant settings of the game of `game`.
pub fn run(game: &GameArgs) -> Result<i32, Failure> {
    let setting = Setting::open(game.game(), game.program()?, None)?;
    let engine = setting.close()?;
    let info = engine.info();
    let mut table = comfy_table::Table::new();
    table.load_style(comfy_table::presets::UTF8_FULL_CONDENSED);
    // Wrapped to fit an 80-column terminal.
    table.set_content_arrangement(comfy_table::ContentArrangement::Dynamic).set_width(80);
    table.set_header(vec!["setting", "values", "default", "meaning"]);
    for option in &info.options {
        // An engine program's words, made safe to show.
        let cells = [&option.key, &option.values, &option.default, &option.help];
        table.add_row(cells.map(|cell| escape(cell).into_owned()));
    }
    // (Set once the columns exist.) The meaning gets the room the values and defaults leave.
    let narrow = comfy_table::ColumnConstraint::UpperBoundary(comfy_table::Width::Fixed(18));
    table.set_constraints(vec![comfy_table::ColumnConstraint::ContentWidth, narrow, narrow]);
    let text = format!("{} variant settings: --variant KEY=VALUE (players also --players N)\n{table}\n", info.name);
    crate::terminal::console::out(format_args!("{text}")).map_err(unwritten)?;
    Ok(exit::SUCCESS)
}
