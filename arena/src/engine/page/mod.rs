//! The page `arena view` writes for a game of an engine program: the game's
//! events one step at a time, as the record keeps them, with the seats, the
//! choices and times of the moves, and the result. One HTML file with its
//! styles, script and the record inline, like a built-in game's page.
//!
//! What is shown is also in the DOM, for tests: `#viewer` carries
//! `data-step` and `data-steps`, each item of `#log` `data-seat` when the
//! event names one, and `#meta` the seed exactly as recorded.

/// The page around the record.
const TEMPLATE: &str = include_str!("view.html");
/// Its styles.
const STYLE: &str = include_str!("view.css");
/// Its script.
const SCRIPT: &str = include_str!("view.js");

/// The page for one game, `record_json` being its `games.jsonl` line.
pub fn page(record_json: &str) -> String {
    game::html::page(TEMPLATE, STYLE, &[SCRIPT], record_json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_holds_its_parts_and_loads_nothing() {
        game::html::assert_self_contained(page, &[SCRIPT]);
    }
}
