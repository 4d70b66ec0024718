//! The page `arena view` writes for a game of an engine program: the game's
//! events one step at a time, as the record keeps them, with the seats, the
//! choices and times of the moves, and the result. One HTML file with its
//! styles, script and the record inline, like a built-in game's page.
//!
//! What is shown is also in the DOM, for tests: `#viewer` carries
//! `data-step` and `data-steps`, each item of `#log` `data-seat` when the
//! event names one, and `#meta` the seed exactly as recorded. When the engine
//! was asked what each seat was told ([`Told`]), each item of `#log` carries
//! `data-told`, the seats told of its event (`0,1`; empty for none), and
//! holds a `.text` element for each seat's text, with its `data-seat`.

use serde::Serialize;

/// What the seats were told of one event of a recorded game, which a record
/// does not keep (a match or a league starts its games with
/// `describe:false`): `arena view` asks the engine for it only when the user
/// names it, by playing the game again with descriptions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Told {
    /// The seats told anything of it (a view that is not `null`), in order.
    pub seats: Vec<usize>,
    /// What each seat was told of it as a line of text (`None` for a seat
    /// told nothing), when the engine gives texts.
    pub texts: Option<Vec<Option<String>>>,
}

/// The page around the record.
const TEMPLATE: &str = include_str!("view.html");
/// Its styles.
const STYLE: &str = include_str!("view.css");
/// Its script.
const SCRIPT: &str = include_str!("view.js");

/// The page for one game, `record_json` being its `games.jsonl` line, and
/// `told` what the seats were told of each of its events, when the engine
/// was asked.
pub fn page(record_json: &str, told: Option<&[Told]>) -> String {
    let told = serde_json::to_string(&told).expect("what was told serializes");
    game::html::page(TEMPLATE, STYLE, &[SCRIPT], record_json).replacen(
        "<!-- TOLD -->",
        &game::html::json_script("told", &told),
        1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_holds_its_parts_and_loads_nothing() {
        game::html::assert_self_contained(|record| page(record, None), &[SCRIPT]);
        let told = [Told { seats: vec![1], texts: Some(vec![None, Some("</script>".to_string())]) }];
        let html = page("{}", Some(&told));
        assert!(!html.contains("<!-- TOLD -->"));
        assert!(html.contains(r#"[{"seats":[1],"texts":[null,"\u003c/script\u003e"]}]"#), "{html}");
    }
}
