//! The page `arena view` writes for an All Fives game: one HTML file with its
//! styles, script and the record inline.
//!
//! The script (`board.js`, `view.js`) replays the record's events in the browser: the
//! layout is drawn around the spinner (or the lead, before a double is
//! played), each of its arms a chain of dominoes going outward that bends
//! back in its own quarter of the board when it runs long; every hand, the
//! boneyard, the scores and a log are shown beside it. The position shown
//! is "after the first N events" (step N): buttons, arrow keys, PageUp and
//! PageDown move through it, and the page's address may give `#step=N` and
//! `#press=next,prev,next-hand,prev-hand,first,last,hand:H,key:KEY` (buttons
//! clicked, or keys pressed, in order once it has loaded), so a headless
//! browser can drive the real controls. What is shown is also in the DOM,
//! for tests: `#viewer` carries `data-step`, `data-steps` and `data-hand`
//! (and `data-error` when a press names no button), each tile on the board
//! is an element with `data-tile="a-b"` and `data-arm` (`center`, `west`,
//! `east`, `north`, `south`), and `#status` says what the last event was.

/// The page around the record.
const TEMPLATE: &str = include_str!("view.html");
/// Its styles.
const STYLE: &str = include_str!("view.css");
/// The board's script: the layout, where each domino goes, and drawing it
/// (`Layout`, `placeHand`, `drawBoard`) on the page's `<svg id="board">`,
/// with the count in its `#count`.
pub const BOARD_SCRIPT: &str = include_str!("board.js");
/// Its script: the board, then the rest (the record, the panels, the controls).
const SCRIPTS: [&str; 2] = [BOARD_SCRIPT, include_str!("view.js")];

/// The page for one game, `record_json` being its `games.jsonl` line.
pub(crate) fn page(record_json: &str) -> String {
    game::html::page(TEMPLATE, STYLE, &SCRIPTS, record_json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_holds_its_parts_and_loads_nothing() {
        game::html::assert_self_contained(page, &SCRIPTS);
    }
}
