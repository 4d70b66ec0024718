//! The league file as read: a `[[bot]]` table, a value as text, and its
//! TOML errors on one line (its keys are rows of [`super::table`]).

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A `[[bot]]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BotEntry {
    pub(super) name: String,
    pub(super) command: String,
    pub(super) dir: Option<PathBuf>,
    #[serde(default)]
    pub(super) env: BTreeMap<String, String>,
    /// Time odds: its own game clock, BASE+INC.
    pub(super) clock: Option<String>,
    /// Time odds: its own per-move limit, in ms.
    pub(super) move_timeout: Option<u64>,
}

/// A TOML string, integer or boolean as text.
pub(super) fn scalar(value: &toml::Value) -> Option<String> {
    match value {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A TOML error of `text` on one line: where (line and column, counted from
/// 1, in characters), what, and the line it is on. (The parser's own text
/// draws a caret under the line, which a single line cannot keep aligned.)
pub(super) fn toml_error(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ");
    let Some(span) = error.span() else { return message };
    let mut at = span.start.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    let column = before[start..].chars().count() + 1;
    let source = text[start..].lines().next().unwrap_or("").trim_end();
    format!("line {line}, column {column}: {message}: {source:?}")
}
