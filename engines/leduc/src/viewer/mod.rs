//! The page `arena view` writes for a Leduc game: one HTML file with its
//! styles, script and the record inline.
//!
//! The script replays the record's events in the browser: each seat with its
//! card and what it has put in, the public card, the pot and a log of the
//! actions. The position shown is "after the first N events" (step N);
//! buttons, the slider and the arrow keys move through it, and the page's
//! address may give `#step=N`. What is shown is also in the DOM, for tests:
//! `#viewer` carries `data-step` and `data-steps`, each seat's element
//! `data-seat`, `data-put-in` and `data-card`, `#pot` carries `data-pot`.

/// The page around the record.
const TEMPLATE: &str = include_str!("view.html");
/// Its styles.
const STYLE: &str = include_str!("view.css");
/// Its script.
const SCRIPT: &str = include_str!("view.js");

/// The page for one game, `record_json` being its `games.jsonl` line.
pub(crate) fn page(record_json: &str) -> String {
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
