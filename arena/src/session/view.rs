//! A game's page as the library makes it (`arena view` parses its flags,
//! calls [`page`] and writes what it returns): one game of a `games.jsonl`
//! file as a self-contained HTML page, drawn by the game's engine
//! ([`game::Game::html_page`]; an engine program's own page, or the generic
//! page of its events), opening at a step and marking a decision if asked.

use super::exit::{Failure, usage};
use super::recorded::{self, RecordedEngine};
use crate::check::told::told_of;
use crate::engine::spec::Engine;
use crate::settings::ENGINE_TIMEOUT;
use crate::store::record::JsonRecord;
use crate::store::record_file::{self, Header};
use crate::terminal::console::errln;
use crate::terminal::untrusted;
use std::path::PathBuf;

/// What `arena view` is asked.
pub struct ViewRequest {
    /// The games file, or the output directory holding it.
    pub file: PathBuf,
    /// The id of the game to show.
    pub game: u64,
    /// The position the page opens at: after the first N events.
    pub step: Option<usize>,
    /// With `step`: the text marking that position as a decision.
    pub mark: Option<String>,
    /// Which engine program the record may run, for its own page.
    pub recorded: RecordedEngine,
}

/// The page `request` asks for: the game's page, opening at the step asked
/// for (and marked, if asked) when one is.
pub fn page(request: &ViewRequest) -> Result<String, Failure> {
    let path = record_file::resolve(&request.file);
    let name = path.display().to_string();
    let line = record_file::find(&path, request.game)?;
    let header: Header = serde_json::from_str(&line)
        .map_err(|e| usage(format!("{name}: game {} has no game name: {e}", request.game)))?;
    if let Some(identity) = &header.engine {
        // A game of an engine program: its own page, if it draws one, else the generic page of its events.
        serde_json::from_str::<JsonRecord>(&line)
            .map_err(|e| usage(format!("{name}: game {} is not a valid record: {e}", request.game)))?;
        let generic = || crate::engine::page::page(&line, None);
        let page = match request.recorded.chosen(identity, ENGINE_TIMEOUT.default)? {
            None => {
                errln!(
                    "note: {name}: game {}: the page is the generic page of the game's events, since {}",
                    request.game,
                    recorded::refusal(identity)?
                );
                generic()
            }
            Some(program) => match crate::engine::page::engine_page(&program, &line) {
                Ok(Some(page)) => page,
                Ok(None) => match told_of(&program, &identity.teams, &line) {
                    Ok(Ok(told)) => crate::engine::page::page(&line, Some(&told)),
                    Ok(Err(why)) => {
                        errln!(
                            "warning: {name}: game {}: played again, the game does not follow its record ({}); the \
                             page shows the events without what each seat was told (arena verify says where they \
                             part)",
                            request.game,
                            untrusted::escape(&why)
                        );
                        generic()
                    }
                    Err(why) => {
                        let why = request.recorded.failed(why, &program);
                        errln!("warning: {why}; the page shows the events without what each seat was told");
                        generic()
                    }
                },
                Err(why) => {
                    let why = request.recorded.failed(why, &program);
                    errln!("warning: {why}; the page is the generic page of the game's events");
                    generic()
                }
            },
        };
        return opening(request, &line, page);
    }
    let engine = Engine::built_in(&header.game)
        .map_err(|e| usage(format!("{name}: game {} is a record of another game: {e}", request.game)))?;
    let game = engine.built_in_game().expect("a built-in engine");
    let invalid =
        |e: String| usage(format!("{name}: game {} is not a valid {} record: {e}", request.game, header.game));
    let record: JsonRecord = serde_json::from_str(&line).map_err(|e| invalid(e.to_string()))?;
    let (recorded, events) = crate::check::verify::parts(&record);
    game.reads(&recorded, &events).map_err(|misread| {
        invalid(misread.event.map_or_else(|| misread.error.to_string(), |at| format!("event {at}: {}", misread.error)))
    })?;
    opening(request, &line, game.html_page(&line))
}

/// `page`, the page of the record `line`, opening at `request.step` if it is
/// given and the game has that many events, and marked there if asked.
fn opening(request: &ViewRequest, line: &str, page: String) -> Result<String, Failure> {
    let Some(step) = request.step else { return Ok(page) };
    let events = crate::engine::page::event_count(line);
    if step > events {
        return Err(usage(format!(
            "--step {step}: game {} has {events} events, so its steps are 0 to {events}",
            request.game
        )));
    }
    let page = crate::engine::page::opening_at(page, step);
    Ok(match &request.mark {
        Some(text) => marked(page, step, text),
        None => page,
    })
}

/// `page` with a banner at the top of its body marking the decision at
/// `step`: `text` (escaped) and a link back to that position.
fn marked(page: String, step: usize, text: &str) -> String {
    let text = html_escape(&untrusted::escape(text));
    let banner = format!(
        "<div id=\"arena-mark\" data-step=\"{step}\" role=\"note\" style=\"position:sticky;top:0;z-index:1000;\
         background:#fff3bf;color:#222;border:2px solid #f08c00;padding:6px 10px;font:14px sans-serif\">\
         <b>The replayed decision, at step {step}:</b> {text} \
         (<a href=\"#step={step}\" onclick=\"location.hash='step={step}';location.reload();return false\">back to it</a>)</div>"
    );
    let lower = page.to_ascii_lowercase();
    let at = lower.find("<body").and_then(|body| Some(body + lower[body..].find('>')? + 1));
    match at {
        Some(at) => format!("{}{banner}{}", &page[..at], &page[at..]),
        None => format!("{banner}{page}"),
    }
}

/// `text` with the characters HTML gives a meaning written as references.
fn html_escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            c => escaped.push(c),
        }
    }
    escaped
}
