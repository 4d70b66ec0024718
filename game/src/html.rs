//! Helpers for the self-contained HTML pages that show game records (see
//! [`Game::html_page`](crate::Game::html_page)).

/// A `<script type="application/json">` element with this `id` holding `json`.
///
/// Every `<`, `>` and `&` is written as a JSON escape (`\u003c`, …): in JSON
/// they can only stand inside strings, where the escape means the same
/// character, and without them no bot name, fault message or stderr line in
/// a record can close the element (`</script`) or open a comment (`<!--`).
/// The page reads it back with `parseExact(element.textContent)` ([`EXACT_JSON`]).
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

/// The script every page runs first: `parseExact(text)`, the `JSON.parse`
/// the pages read their JSON with, which keeps an integer beyond 2^53 (a
/// seed) exact as the string of its digits.
pub const EXACT_JSON: &str = include_str!("exact_json.js");

/// A replay page: `template` with its `/* STYLE */`, `/* SCRIPT */` and
/// `<!-- RECORD -->` placeholders replaced by `style`, [`EXACT_JSON`] and
/// the `scripts` joined by newlines, and the record (`record_json`, a
/// `games.jsonl` line) as a [`json_script`] element with the id `record`.
pub fn page(template: &str, style: &str, scripts: &[&str], record_json: &str) -> String {
    let scripts: Vec<&str> = std::iter::once(EXACT_JSON).chain(scripts.iter().copied()).collect();
    template.replacen("/* STYLE */", style, 1).replacen("/* SCRIPT */", &scripts.join("\n"), 1).replacen(
        "<!-- RECORD -->",
        &json_script("record", record_json),
        1,
    )
}

/// Checks, for the tests of a game's viewer, that the page its `page`
/// function makes is complete and self-contained: no placeholder left, the
/// record embedded safely, no script able to end its element, and nothing
/// loaded from elsewhere.
///
/// # Panics
/// When any of that fails.
pub fn assert_self_contained(page: impl Fn(&str) -> String, scripts: &[&str]) {
    let html = page(r#"{"id":7,"bots":["</script>"]}"#);
    assert!(html.starts_with("<!DOCTYPE html>"));
    for placeholder in ["/* STYLE */", "/* SCRIPT */", "<!-- RECORD -->"] {
        assert!(!html.contains(placeholder), "{placeholder} left in the page");
    }
    assert!(html.contains(r#"{"id":7,"bots":["\u003c/script\u003e"]}"#));
    for script in scripts {
        assert!(!script.contains("</script") && !script.contains("<!--"), "the script would end its element");
    }
    for external in ["http://", "https://", "<link", "src=", "@import", "url(h", "url(/"] {
        assert!(!html.contains(external), "the page refers to something outside it: {external}");
    }
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
