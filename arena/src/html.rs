//! Helpers for the self-contained HTML pages that show game records (see
//! [`Game::html_page`](crate::game::Game::html_page)).

/// A `<script type="application/json">` element with this `id` holding `json`.
///
/// Every `<`, `>` and `&` is written as a JSON escape (`\u003c`, …): in JSON
/// they can only stand inside strings, where the escape means the same
/// character, and without them no bot name, fault message or stderr line in
/// a record can close the element (`</script`) or open a comment (`<!--`).
/// The page reads it back with `JSON.parse(element.textContent)`.
pub fn json_script(id: &str, json: &str) -> String {
    format!("<script type=\"application/json\" id=\"{id}\">{}</script>", script_safe(json))
}

/// `json` as [`json_script`] writes it inside its element: every `<`, `>`
/// and `&` written as a JSON escape (`\u003c`, …).
pub fn script_safe(json: &str) -> String {
    let mut escaped = String::with_capacity(json.len() + 64);
    for c in json.chars() {
        match c {
            '<' => escaped.push_str("\\u003c"),
            '>' => escaped.push_str("\\u003e"),
            '&' => escaped.push_str("\\u0026"),
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_in_the_json_can_end_the_script_element() {
        let json = r#"{"bots":["</script><script>alert(1)</script>","<!-- x -->","a&b"]}"#;
        let script = json_script("record", json);
        let inside = script
            .strip_prefix(r#"<script type="application/json" id="record">"#)
            .and_then(|rest| rest.strip_suffix("</script>"))
            .expect("one element");
        assert!(!inside.contains('<') && !inside.contains('>') && !inside.contains('&'), "{inside}");
        let back: serde_json::Value = serde_json::from_str(inside).expect("still JSON");
        assert_eq!(back, serde_json::from_str::<serde_json::Value>(json).unwrap());
    }
}
