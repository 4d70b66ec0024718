//! `arena view`: one game of a `games.jsonl` file as a self-contained HTML
//! page, drawn by the game's engine ([`game::Game::html_page`]; an engine
//! program's own page, or the generic page of its events).

use super::{Failure, exit, unwritten, usage};
use crate::check::told::told_of;
use crate::engine::spec::Engine;
use crate::session::recorded::{self, RecordedEngine};
use crate::settings::ENGINE_TIMEOUT;
use crate::store::record::JsonRecord;
use crate::store::record_file::{self, Header};
use crate::terminal::console::{self, errln, outln};
use crate::terminal::untrusted;
use clap::Args;
use std::path::PathBuf;

/// Examples shown by `arena view --help`.
pub const EXAMPLES: &str = "Examples:
  arena view results/games.jsonl --game 3 -o game3.html
  arena view results/games.jsonl --game 0 > game0.html
  arena view results --game 3 --step 41 -o game3.html   # opens after the first 41 events
  arena view results --game 3 --step 41 --mark 'recorded pass, new chose raise' -o game3.html";

/// The flags of `arena view`.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// The games file (`games.jsonl` of `arena match --out` or `arena league --out`), or that directory.
    #[arg(value_name = "GAMES")]
    file: PathBuf,
    /// The id of the game to show.
    #[arg(long, value_name = "ID")]
    game: u64,
    /// The position the page opens at: after the first N events (the page's
    /// `#step=N`; an address that gives a step of its own wins).
    #[arg(long, value_name = "N")]
    step: Option<usize>,
    /// With --step: mark that position as a decision, with TEXT over the
    /// page (what `arena replay` found there: the recorded move and the new one).
    #[arg(long, value_name = "TEXT", requires = "step")]
    mark: Option<String>,
    /// Where to write the page; `-` (the default) is standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE", default_value = "-")]
    output: String,
    /// For a game of an engine program: the engine asked for its own page,
    /// if it draws one (without either flag, the page is the generic page of
    /// the game's events and nothing runs).
    #[command(flatten)]
    recorded: RecordedEngine,
}

/// Runs `arena view`.
pub fn run(args: ViewArgs) -> Result<i32, Failure> {
    let path = record_file::resolve(&args.file);
    let name = path.display().to_string();
    let line = record_file::find(&path, args.game)?;
    let header: Header =
        serde_json::from_str(&line).map_err(|e| usage(format!("{name}: game {} has no game name: {e}", args.game)))?;
    if let Some(identity) = &header.engine {
        // A game of an engine program: its own page, if it draws one, else the generic page of its events.
        serde_json::from_str::<JsonRecord>(&line)
            .map_err(|e| usage(format!("{name}: game {} is not a valid record: {e}", args.game)))?;
        let generic = || crate::engine::page::page(&line, None);
        let page = match args.recorded.chosen(identity, ENGINE_TIMEOUT.default)? {
            None => {
                errln!(
                    "note: {name}: game {}: the page is the generic page of the game's events, since {}",
                    args.game,
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
                            args.game,
                            untrusted::escape(&why)
                        );
                        generic()
                    }
                    Err(why) => {
                        let why = args.recorded.failed(why, &program);
                        errln!("warning: {why}; the page shows the events without what each seat was told");
                        generic()
                    }
                },
                Err(why) => {
                    let why = args.recorded.failed(why, &program);
                    errln!("warning: {why}; the page is the generic page of the game's events");
                    generic()
                }
            },
        };
        write_page(&args, &line, page)?;
        return Ok(exit::SUCCESS);
    }
    let engine = Engine::built_in(&header.game)
        .map_err(|e| usage(format!("{name}: game {} is a record of another game: {e}", args.game)))?;
    let game = engine.built_in_game().expect("a built-in engine");
    let invalid = |e: String| usage(format!("{name}: game {} is not a valid {} record: {e}", args.game, header.game));
    let record: JsonRecord = serde_json::from_str(&line).map_err(|e| invalid(e.to_string()))?;
    let (recorded, events) = crate::check::verify::parts(&record);
    game.reads(&recorded, &events).map_err(|misread| {
        invalid(misread.event.map_or_else(|| misread.error.to_string(), |at| format!("event {at}: {}", misread.error)))
    })?;
    write_page(&args, &line, game.html_page(&line))?;
    Ok(exit::SUCCESS)
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

/// Writes the page of the record `line` to `args.output` (`-`: standard
/// output), opening at `args.step` if it is given and the game has that many events.
fn write_page(args: &ViewArgs, line: &str, page: String) -> Result<(), Failure> {
    let page = match args.step {
        None => page,
        Some(step) => {
            let events = crate::engine::page::event_count(line);
            if step > events {
                return Err(usage(format!(
                    "--step {step}: game {} has {events} events, so its steps are 0 to {events}",
                    args.game
                )));
            }
            let page = crate::engine::page::opening_at(page, step);
            match &args.mark {
                Some(text) => marked(page, step, text),
                None => page,
            }
        }
    };
    let output = args.output.as_str();
    if output == "-" {
        return console::out_bytes(page.as_bytes()).map_err(unwritten);
    }
    std::fs::write(output, &page).map_err(|e| usage(format!("cannot write {output}: {e}")))?;
    outln!("wrote {output}").map_err(unwritten)?;
    Ok(())
}
