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

use super::process::{EngineError, EngineProcess};
use super::program::Program;
use crate::bot::registry::Registry;
use protocol::engine::{Answer, Request};
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

/// The page the engine program `program` draws of the record `line`, if
/// it draws pages (its `engine` answer says `page`); every process below
/// the arena is swept afterwards (see [`drawn_page`] for a process that runs games).
///
/// # Errors
/// When the engine cannot be started or answers with no page.
pub fn engine_page(program: &Program, line: &str) -> Result<Option<String>, EngineError> {
    let registry = Registry::new();
    let page = drawn_page(program, line, &registry);
    crate::bot::orphans::sweep(&registry);
    page
}

/// [`engine_page`], its engine process recorded in `registry` (a running
/// run's, whose sweeps then leave it alone) and ended by `bye` or killed,
/// with no sweep of the other processes of the arena.
///
/// # Errors
/// When the engine cannot be started or answers with no page.
pub fn drawn_page(program: &Program, line: &str, registry: &Registry) -> Result<Option<String>, EngineError> {
    let trouble = |message: String| EngineError { message, stderr: Vec::new() };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| trouble(format!("cannot start the runtime: {e}")))?;
    let record: serde_json::Value = serde_json::from_str(line).map_err(|e| trouble(e.to_string()))?;
    let command = &program.command;
    let asked = runtime.block_on(async {
        let (mut engine, info) =
            EngineProcess::start_for_page(command, &program.dir, program.timeout(), registry).await?;
        if !info.page {
            engine.bye().await?;
            return Ok(None);
        }
        let answer = engine.ask(&Request::Page { record }).await?;
        engine.bye().await?;
        Ok(Some(answer))
    });
    match asked? {
        None => Ok(None),
        Some(Answer::Page { html })
            if html.trim_start().starts_with("<!DOCTYPE html") || html.trim_start().starts_with("<html") =>
        {
            Ok(Some(html))
        }
        Some(Answer::Page { .. }) => {
            Err(trouble(format!("engine {command:?} answered page with something that is not HTML")))
        }
        Some(other) => {
            Err(trouble(format!("engine {command:?} answered page with {}", crate::engine::process::name(&other))))
        }
    }
}

/// The events of a record, counted (only their number is read).
#[derive(serde::Deserialize)]
struct Events {
    events: Vec<serde::de::IgnoredAny>,
}

/// How many events the record `line` holds (0 when it is not a record).
pub fn event_count(line: &str) -> usize {
    serde_json::from_str::<Events>(line).map_or(0, |record| record.events.len())
}

/// `page` made to open after the first `step` events: a script at the start
/// of its head gives the address `#step=N` before the page reads it, unless
/// the address already names a step (every page the arena draws, and the
/// built-in games', read the position from `#step=N`).
pub fn opening_at(page: String, step: usize) -> String {
    let script = format!(
        "<script>if (!/(^|[#&])step=/.test(location.hash)) \
         history.replaceState(null, \"\", \"#step={step}\" + (location.hash ? \"&\" + location.hash.slice(1) : \"\"));</script>"
    );
    let lower = page.to_ascii_lowercase();
    let at = lower.find("<head>").map(|at| at + "<head>".len()).or_else(|| {
        let html = lower.find("<html")?;
        Some(html + lower[html..].find('>')? + 1)
    });
    match at {
        Some(at) => format!("{}{script}{}", &page[..at], &page[at..]),
        None => format!("{script}{page}"),
    }
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
