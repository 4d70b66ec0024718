//! Text a bot wrote (its `ready` name and version, its stderr, an answer
//! quoted in a fault) or that a file holds, made safe to show on a terminal.
//!
//! Shown as it is, such text could set the window title, clear the screen,
//! move the cursor, or start a line of its own that looks like the arena's
//! (a forged "21 checks: 21 passed"). [`escape`] writes every character that
//! controls rather than shows as an escape, like Rust's: line feed, carriage
//! return and tab as `\n`, `\r` and `\t`, and the rest as `\u{1b}`. That
//! covers the C0 controls, DEL and the C1 controls (Unicode's category Cc),
//! the format characters (Cf: bidi overrides and isolates, zero-width
//! characters, the byte order mark, tags) and the line and paragraph
//! separators (Zl, Zp). Everything else, backslashes included, is shown as it
//! is: the escaping is for the reader's safety, not a reversible encoding.
//!
//! Records keep what the bot wrote (JSON escapes it); it is escaped where it
//! is shown: fault lines on the console, `check-bot`'s report, `replay` and
//! `verify`. So is what an engine program wrote: its errors, and in
//! `arena play` its `text`, `texts`, views, states and choices.

use std::borrow::Cow;
use std::fmt::Write;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// `text` with every control, format and separator character escaped.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(controls) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\n' => shown.push_str("\\n"),
            '\r' => shown.push_str("\\r"),
            '\t' => shown.push_str("\\t"),
            c if controls(c) => write!(shown, "\\u{{{:x}}}", c as u32).expect("writing to a String"),
            c => shown.push(c),
        }
    }
    Cow::Owned(shown)
}

/// `text`, lines of it, each line [`escape`]d and the line feeds between
/// them kept (what an engine draws for `arena play` spans several lines).
pub fn escape_lines(text: &str) -> String {
    text.split('\n').map(escape).collect::<Vec<_>>().join("\n")
}

/// Whether `c` acts on the terminal or the layout rather than showing.
fn controls(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control();
    }
    matches!(
        c.general_category(),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_format_and_separator_characters_are_escaped() {
        let hostile =
            "\x1b]0;owned\x07\x1b[2J\r21 checks\n\t\u{7f}\u{9b}2J\u{202e}\u{2066}\u{200b}\u{feff}\u{2028}\u{e0041}";
        assert_eq!(
            escape(hostile),
            "\\u{1b}]0;owned\\u{7}\\u{1b}[2J\\r21 checks\\n\\t\\u{7f}\\u{9b}2J\\u{202e}\\u{2066}\\u{200b}\\u{feff}\\u{2028}\\u{e0041}"
        );
    }

    #[test]
    fn lines_keep_their_line_feeds_and_lose_their_controls() {
        assert_eq!(escape_lines("pot 4\r\n  1. \u{1b}[2Jfold\n"), "pot 4\\r\n  1. \\u{1b}[2Jfold\n");
    }

    #[test]
    fn other_text_is_shown_as_it_is() {
        for text in ["plain", r#"{"type":"move","id":3} \u001b \\ "quoted""#, "é ü 漢字 ✓ … 🂡", ""] {
            assert!(matches!(escape(text), Cow::Borrowed(shown) if shown == text), "{text}");
        }
    }
}
