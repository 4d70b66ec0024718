//! The conformance test of one bot as the library runs it (`arena
//! check-bot` parses its flags and calls [`run`]; see
//! [`crate::check::conformance`]): the bot named, the tables and positions
//! of its game checked, the checklist written.

use crate::bot::limits::ResourceLimits;
use crate::bot::registry::Registry;
use crate::bot::sandbox::Sandbox;
use crate::bot::signals;
use crate::bot::spec::BotSpec;
use crate::check::conformance::{self, Case, Checked, Settings};
use crate::engine::games::{GameCommand, dispatch};
use crate::engine::program::Program;
use crate::engine::sandbox::Confinement;
use crate::engine::spec::Engine;
use crate::run::setting::{Setting, given};
use crate::run::table::{Limits, Resolved};
use crate::session::exit::{self, Failure, unwritten};
use crate::session::{current_dir, random_seed};
use crate::settings::VariantSetting;
use crate::terminal::console::outln;
use game::Game;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;

/// What `arena check-bot` asks of a check.
#[derive(Debug)]
pub struct CheckBotRequest {
    /// The bot: COMMAND or NAME=COMMAND.
    pub bot: String,
    /// The built-in game (`--game`, or the default one).
    pub game: String,
    /// The engine program of `--engine`, if given.
    pub program: Option<Program>,
    /// `--variant`: the settings of an engine program's game.
    pub variants: Vec<VariantSetting>,
    /// The limits of `--move-timeout`, `--clock` and `--startup-timeout`.
    pub timed: Limits,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--jobs`: checks run at once.
    pub jobs: Option<u64>,
    /// `--limit NAME=VALUE`: the bot process's limits.
    pub limits: Vec<String>,
    /// `--sandbox`.
    pub sandbox: Option<Sandbox>,
}

/// Runs `arena check-bot`.
pub fn run(args: CheckBotRequest) -> Result<i32, Failure> {
    let checked = match args.program.clone() {
        // A built-in game: the tables and positions it names.
        None => dispatch(&args.game, Tables)?,
        Some(program) => {
            // Under the sandbox, the engine runs sandboxed too, where it cannot see the bot.
            let bot = parse_bot(&args.bot)?;
            let confinement = Confinement::of(args.sandbox.unwrap_or_default(), &program, &[bot], &[])?;
            let mut setting = Setting::open(&args.game, Some(program), confinement)?;
            let variant = setting.resolve(&given(None, &args.variants))?;
            Checked { engine: setting.close()?, tables: vec![("variant".to_string(), variant)], cases: Vec::new() }
        }
    };
    check(args, checked)
}

/// What a built-in game has a bot checked on.
struct Tables;

impl GameCommand for Tables {
    type Output = Checked;
    fn run<G: Game>(self) -> Checked {
        let tables = G::conformance_tables().into_iter().map(|(name, v)| (name.to_string(), Resolved::of::<G>(&v)));
        Checked {
            engine: Arc::new(Engine::of::<G>()),
            tables: tables.collect(),
            cases: G::conformance_positions().into_iter().map(Case::of).collect(),
        }
    }
}

/// The bot from `NAME=COMMAND`, or from a bare COMMAND (named as
/// [`default_name`] says): the text before the first `=` is a name only if
/// it looks like one, and if the rest can be run; otherwise (as in `FOO=1
/// python3 bot.py`) the whole text is the command, its `VAR=value` words the
/// bot's environment.
fn parse_bot(text: &str) -> Result<BotSpec, Failure> {
    let cwd = current_dir()?;
    let named = text.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
    });
    let bare =
        || BotSpec::new("bot", text, &cwd, BTreeMap::new()).map(|spec| BotSpec { name: default_name(&spec), ..spec });
    let bot = if named { BotSpec::parse(text, &cwd).or_else(|named| bare().map_err(|_| named)) } else { bare() };
    Ok(bot?)
}

/// The name of a bot given without one, as its author would call it in a
/// match (so that nothing tells the bot it is being checked): the stem of
/// the last file its command names after the program (`python3 my_bot.py`
/// is `my_bot`), or of the program itself (`./my-bot` is `my-bot`); `bot`
/// when that is not a valid name.
fn default_name(spec: &BotSpec) -> String {
    let script = spec.argv.iter().skip(1).rev().map(|word| spec.dir.join(word)).find(|path| path.is_file());
    let file = script.or_else(|| spec.argv.first().map(std::path::PathBuf::from));
    let stem = file.as_deref().and_then(std::path::Path::file_stem).map(|stem| stem.to_string_lossy().into_owned());
    match stem {
        Some(stem) if !stem.is_empty() && stem.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)) => stem,
        _ => "bot".to_string(),
    }
}

/// Checks the bot of `args` on what `checked` holds, and reports.
fn check(args: CheckBotRequest, checked: Checked) -> Result<i32, Failure> {
    let game = checked.engine.name().to_string();
    let bot = parse_bot(&args.bot)?;
    let mut resources = ResourceLimits::default();
    for text in &args.limits {
        resources.set(text)?;
    }
    let sandbox = args.sandbox.unwrap_or_default();
    sandbox.check(std::slice::from_ref(&bot), &[])?;
    let limits = Limits { resources, sandbox, ..args.timed };
    limits.resources.check(limits.sandbox.grouped())?;
    let jobs = args.jobs.unwrap_or_else(|| crate::bot::cpus::cores().max(2)) as usize;
    let seed = args.seed.unwrap_or_else(random_seed);
    outln!("check-bot: {} ({:?}), {game}", bot.name, bot.command).map_err(unwritten)?;
    let clock = limits.clock.map(|clock| format!(", clock {clock} ms")).unwrap_or_default();
    outln!(
        "move timeout {} ms{clock}, start-up timeout {} ms, exit grace {} ms, seed {}",
        limits.move_timeout.as_millis(),
        limits.startup_timeout.as_millis(),
        limits.exit_grace.as_millis(),
        seed
    )
    .map_err(unwritten)?;
    outln!("limits {}, sandbox {}", limits.resources, limits.sandbox).map_err(unwritten)?;
    let registry = Registry::new();
    let interruption = signals::exit_on_interrupt(registry.clone());
    let program = checked.engine.program_of().is_some();
    let outcomes = conformance::run(Settings { bot, limits, seed, jobs }, checked, registry);
    interruption.settle();
    let mut stdout = std::io::stdout().lock();
    conformance::report::write(&outcomes, &mut stdout).map_err(unwritten)?;
    if let Some(hint) = another_game(&outcomes, &game).filter(|_| !program) {
        writeln!(stdout, "{hint}").map_err(unwritten)?;
    }
    stdout.flush().map_err(unwritten)?;
    Ok(exit::answer(!outcomes.iter().any(conformance::Outcome::failed)))
}

/// A hint when the bot started but no check that plays `game` passed: it
/// may be a bot for another game.
fn another_game(outcomes: &[conformance::Outcome], game: &str) -> Option<String> {
    let passed = |outcome: &&conformance::Outcome| matches!(outcome.verdict, conformance::Verdict::Pass(_));
    let started = outcomes.iter().any(|o| o.name == "handshake" && passed(&o));
    let plays = |o: &&conformance::Outcome| o.name.starts_with("position:") || o.name.starts_with("game:");
    let played = outcomes.iter().filter(plays).any(|o| passed(&o));
    let others: Vec<String> =
        crate::engine::games::NAMES.iter().filter(|&&name| name != game).map(|name| format!("--game {name}")).collect();
    (started && !played && !others.is_empty()).then(|| {
        format!(
            "hint: the bot started, but failed every position and game of {game}: if it plays another game, \
             check it with {}",
            others.join(" or ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_optional() {
        assert_eq!(parse_bot("sh -c 'exit 0'").unwrap().name, "sh");
        assert_eq!(parse_bot("sh src/main.rs --depth 3").unwrap().name, "main", "the script's stem");
        assert_eq!(parse_bot("me=sh -c 'exit 0'").unwrap().name, "me");
        let spec = parse_bot("sh -c 'a=b'").unwrap();
        assert_eq!((spec.name.as_str(), spec.argv.len()), ("sh", 3));
        assert_eq!(parse_bot("no-such-program-here").unwrap_err().status, 2);
        let spec = parse_bot("FOO=1 sh -c 'exit 0'").unwrap();
        assert_eq!((spec.name.as_str(), spec.env["FOO"].as_str(), spec.argv[0].as_str()), ("sh", "1", "sh"));
        let spec = parse_bot("me=FOO=1 sh -c 'exit 0'").unwrap();
        assert_eq!((spec.name.as_str(), spec.env["FOO"].as_str()), ("me", "1"));
        let err = parse_bot("me=no-such-program-here").unwrap_err().message;
        assert!(err.starts_with("--bot \"me=no-such-program-here\": bot \"me\": cannot run"), "{err}");
    }

    #[test]
    fn a_bot_that_starts_but_plays_nothing_may_be_for_another_game() {
        use conformance::{Outcome, Timing, Verdict};
        let outcome = |name: &str, pass: bool| Outcome {
            name: name.to_string(),
            expect: None,
            verdict: if pass { Verdict::Pass(String::new()) } else { Verdict::Skip(String::new()) },
            timing: Timing::default(),
        };
        let run = |game: bool| {
            vec![outcome("handshake", true), outcome("position:lead", false), outcome("game:2-players", game)]
        };
        let hint = another_game(&run(false), "all-fives").unwrap();
        assert!(hint.ends_with("check it with --game leduc"), "{hint}");
        assert_eq!(another_game(&run(true), "all-fives"), None, "it played a game");
        assert_eq!(another_game(&[outcome("handshake", false)], "leduc"), None, "it did not start");
    }
}
