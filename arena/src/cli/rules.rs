//! `arena rules`: the game's variant settings.

use super::{Failure, unwritten, usage};
use crate::game::Game;
use crate::games::{GameCommand, dispatch};

/// Prints the variant settings of `game`.
pub fn run(game: &str) -> Result<i32, Failure> {
    struct Rules;
    impl GameCommand for Rules {
        type Output = String;
        fn run<G: Game>(self) -> String {
            let mut table = comfy_table::Table::new();
            table.load_style(comfy_table::presets::UTF8_FULL_CONDENSED);
            table.set_header(vec!["setting", "values", "default", "meaning"]);
            for option in G::variant_options() {
                table.add_row(vec![option.key, option.values, option.default, option.help]);
            }
            format!(
                "{}: variant settings, given as --variant KEY=VALUE (players also as --players N)\n{table}\n",
                G::NAME
            )
        }
    }
    crate::console::out(format_args!("{}", dispatch(game, Rules).map_err(usage)?)).map_err(unwritten)?;
    Ok(0)
}
