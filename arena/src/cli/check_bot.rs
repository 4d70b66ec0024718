//! `arena check-bot`: the conformance test of one bot (see [`crate::check::conformance`]).
//!
//! Exit status: 0 when every check passed, 1 when a check failed, 2 for a
//! usage error (e.g. the command cannot be run), 130 when interrupted.

use super::flags::TimeFlags;
use super::game::GameArgs;
use super::{Failure, current_dir, exit, unwritten};
use crate::bot::limits::ResourceLimits;
use crate::bot::registry::Registry;
use crate::bot::sandbox::Sandbox;
use crate::bot::signals;
use crate::bot::spec::BotSpec;
use crate::check::conformance::{self, Case, Checked, Settings};
use crate::engine::games::{GameCommand, dispatch};
use crate::engine::sandbox::Confinement;
use crate::engine::spec::Engine;
use crate::run::setting::Setting;
use crate::run::setting::given;
use crate::run::table::Limits;
use crate::run::table::Resolved;
use crate::settings::VariantSetting;
use crate::terminal::console::outln;
use clap::Args;
use game::Game;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;

/// Examples shown by `arena check-bot --help`.
pub const EXAMPLES: &str = "Examples:
  arena check-bot target/release/greedy-bot
  arena check-bot \"python3 sample-bots/python/greedy.py\"
  arena check-bot mine=\"node my-bot.js --depth 2\" --move-timeout 200

Exit status: 0 when every check passed, 1 when a check failed, 2 for a usage error, 130 when interrupted.";

/// The flags of `arena check-bot`.
#[derive(Debug, Args)]
pub struct CheckBotArgs {
    /// The bot: COMMAND or NAME=COMMAND, the command split like a shell splits words (no shell syntax; VAR=value words before the program set its environment).
    #[arg(value_name = "COMMAND")]
    bot: String,
    #[command(flatten)]
    game: GameArgs,
    /// A variant setting of an --engine program's game, KEY=VALUE (repeatable; a built-in game is checked at the tables it names).
    #[arg(long = "variant", value_name = "KEY=VALUE", requires = "engine")]
    variants: Vec<VariantSetting>,
    #[command(flatten)]
    time: TimeFlags,
    /// The seed of the games played (default: a fresh random one, printed, as in a match).
    #[arg(long)]
    seed: Option<u64>,
    /// Checks run at once (default: the number of cores, at least 2).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    jobs: Option<u64>,
    #[arg(long = "limit", value_name = "NAME=VALUE", help = crate::bot::limits::help())]
    limits: Vec<String>,
    /// Run the bot in a sandbox, as `arena match` does.
    #[arg(long, help = crate::league::config::row::sandbox.help())]
    sandbox: Option<Sandbox>,
}

/// Runs `arena check-bot`.
pub fn run(args: CheckBotArgs) -> Result<i32, Failure> {
    let checked = match args.game.program()? {
        // A built-in game: the tables and positions it names.
        None => dispatch(args.game.game(), Tables)?,
        Some(program) => {
            // Under the sandbox, the engine runs sandboxed too, where it cannot see the bot.
            let bot = parse_bot(&args.bot)?;
            let confinement = Confinement::of(args.sandbox.unwrap_or_default(), &program, &[bot], &[])?;
            let mut setting = Setting::open(args.game.game(), Some(program), confinement)?;
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

fn check(args: CheckBotArgs, checked: Checked) -> Result<i32, Failure> {
    let game = checked.engine.name().to_string();
    let bot = parse_bot(&args.bot)?;
    let mut resources = ResourceLimits::default();
    for text in &args.limits {
        resources.set(text)?;
    }
    let sandbox = args.sandbox.unwrap_or_default();
    sandbox.check(std::slice::from_ref(&bot), &[])?;
    let limits = Limits { resources, sandbox, ..args.time.limits() };
    limits.resources.check(limits.sandbox.grouped())?;
    let jobs = args.jobs.unwrap_or_else(|| crate::bot::cpus::cores().max(2)) as usize;
    let seed = args.seed.unwrap_or_else(super::random_seed);
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
