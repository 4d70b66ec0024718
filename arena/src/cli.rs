//! The `arena` command line: parsing, validation, and the commands.
//!
//! Exit status: 0 on success, 1 when the arena itself fails (e.g. it cannot
//! write its output), 2 for a usage error, 130 when interrupted.

use crate::bot::registry::Registry;
use crate::bot::spec::BotSpec;
use crate::game::Game;
use crate::games::all_fives::AllFives;
use crate::output::OutDir;
use crate::run::{MatchReport, run_match};
use crate::schedule::duplicate_match;
use crate::signals;
use crate::table::{Limits, Table};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A bot arena for All Fives dominoes: bots are programs in any language that
/// speak line-delimited JSON on stdin/stdout (see protocol/PROTOCOL.md).
#[derive(Debug, Parser)]
#[command(name = "arena", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play a match between bots and print the standings.
    ///
    /// Every deal is played in every seat rotation, so each bot holds each
    /// seat's tiles once. Without --bot, plays the sample greedy-bot against
    /// random-bot (built with `cargo build --release`).
    #[command(
        after_help = "Examples:\n  arena match --bot greedy=target/release/greedy-bot --bot random=target/release/random-bot --games 1000\n  arena match --bot py=\"python3 sample-bots/python/greedy.py\" --bot js=\"node sample-bots/js/greedy.js\" --out results\n  arena match --players 4 --bot a=./my-bot --bot b=target/release/greedy-bot --variant hand_end=winner-takes"
    )]
    Match(MatchArgs),
    /// Print the game's variant settings and their defaults.
    Rules {
        /// The game.
        #[arg(long, default_value = "all-fives")]
        game: String,
    },
}

#[derive(Debug, Args)]
struct MatchArgs {
    /// A bot: NAME=COMMAND, the command split like a shell splits words. Give one per side.
    #[arg(long = "bot", value_name = "NAME=COMMAND")]
    bots: Vec<String>,
    /// The game.
    #[arg(long, default_value = "all-fives")]
    game: String,
    /// Number of players (2, 3 or 4; 4 plays partnerships unless --variant partners=false).
    #[arg(long)]
    players: Option<usize>,
    /// Number of games; rounded up to whole seat rotations.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// The match seed (default: a random one, printed so the match can be repeated).
    #[arg(long)]
    seed: Option<u64>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=4096))]
    concurrency: u64,
    /// Time allowed for each move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    move_timeout: u64,
    /// Time allowed for a bot to answer hello after it starts, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    startup_timeout: u64,
    /// A variant setting, KEY=VALUE (repeatable; see `arena rules`).
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    variants: Vec<String>,
    /// Write games.jsonl, standings.json and the bots' stderr logs here.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// A failure with its exit status.
#[derive(Debug)]
pub struct Failure {
    /// The exit status.
    pub status: i32,
    /// The message, one line.
    pub message: String,
}

fn usage(message: impl Into<String>) -> Failure {
    Failure { status: 2, message: message.into() }
}

/// Runs the command line; returns the exit status.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Match(args) => match args.game.as_str() {
            "all-fives" => run::<AllFives>(args),
            other => Err(unknown_game(other)),
        },
        Command::Rules { game } => match game.as_str() {
            "all-fives" => {
                print!("{}", rules::<AllFives>());
                Ok(0)
            }
            other => Err(unknown_game(other)),
        },
    };
    match result {
        Ok(status) => status,
        Err(failure) => {
            eprintln!("error: {}", failure.message);
            failure.status
        }
    }
}

fn unknown_game(name: &str) -> Failure {
    usage(format!("unknown game {name:?}; the games are: all-fives"))
}

/// The text of `arena rules`.
fn rules<G: Game>() -> String {
    let mut table = comfy_table::Table::new();
    table.load_style(comfy_table::presets::UTF8_FULL_CONDENSED);
    table.set_header(vec!["setting", "values", "default", "meaning"]);
    for option in G::variant_options() {
        table.add_row(vec![option.key, option.values, option.default, option.help]);
    }
    format!("{}: variant settings, given as --variant KEY=VALUE (players also as --players N)\n{table}\n", G::NAME)
}

fn run<G: Game>(args: MatchArgs) -> Result<i32, Failure> {
    let mut settings = Vec::new();
    if let Some(players) = args.players {
        settings.push(("players".to_string(), players.to_string()));
    }
    for pair in &args.variants {
        let (key, value) =
            pair.split_once('=').ok_or_else(|| usage(format!("--variant {pair:?}: expected KEY=VALUE")))?;
        settings.push((key.trim().to_string(), value.trim().to_string()));
    }
    let variant = G::parse_variant(&settings).map_err(|e| usage(format!("variant: {e}")))?;
    let teams = G::teams(&variant);
    let bots = if args.bots.is_empty() { demo_bots()? } else { parse_bots(&args.bots)? };
    if bots.len() != teams.len() {
        return Err(usage(format!(
            "this game has {} sides, so give {} --bot (got {}){}",
            teams.len(),
            teams.len(),
            bots.len(),
            if teams.iter().any(|t| t.len() > 1) { "; each bot plays both seats of its side" } else { "" }
        )));
    }
    let seed = args.seed.unwrap_or_else(random_seed);
    let limits = Limits {
        move_timeout: Duration::from_millis(args.move_timeout),
        startup_timeout: Duration::from_millis(args.startup_timeout),
        ..Limits::default()
    };
    let out = match &args.out {
        Some(dir) => Some(OutDir::create(dir).map_err(usage)?),
        None => None,
    };
    let registry = Registry::new();
    let cancel = Arc::new(AtomicBool::new(false));
    signals::watch(Arc::clone(&cancel), registry.clone());

    let schedule = duplicate_match(seed, &teams, args.games);
    let total = schedule.len();
    let names: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
    eprintln!("{}: {} games, {} — seed {seed}", G::NAME, total, names.join(" vs "));
    let logs = out.as_ref().map(OutDir::logs);
    let table = Table::<G>::new(bots, variant, seed, limits, logs, registry);
    let mut progress = crate::progress::Progress::new(total as u64);
    let report =
        run_match(table, schedule, args.concurrency as usize, out, cancel, |finished| progress.finished(finished))
            .map_err(|message| Failure { status: 1, message })?;
    progress.clear();
    print_report(&report, seed, args.out.as_deref());
    Ok(if report.interrupted { signals::INTERRUPTED } else { 0 })
}

fn parse_bots(given: &[String]) -> Result<Vec<BotSpec>, Failure> {
    let mut bots: Vec<BotSpec> = Vec::new();
    for text in given {
        let bot = BotSpec::parse(text).map_err(usage)?;
        if bots.iter().any(|b| b.name == bot.name) {
            return Err(usage(format!("two bots are named {:?}; give each --bot a different NAME", bot.name)));
        }
        bots.push(bot);
    }
    Ok(bots)
}

/// The sample bots next to the arena binary: greedy-bot against random-bot.
fn demo_bots() -> Result<Vec<BotSpec>, Failure> {
    let exe =
        std::env::current_exe().map_err(|e| usage(format!("no --bot given, and cannot locate the arena: {e}")))?;
    let dir = exe.parent().unwrap_or(std::path::Path::new("."));
    let mut bots = Vec::new();
    for name in ["greedy", "random"] {
        let path = dir.join(format!("{name}-bot"));
        let quoted = shell_words::quote(&path.to_string_lossy()).into_owned();
        bots.push(BotSpec::parse(&format!("{name}={quoted}")).map_err(|e| {
            usage(format!("no --bot given and the sample bots are not built ({e}); run `cargo build --release` first"))
        })?);
    }
    eprintln!("no --bot given: playing the sample bots greedy-bot and random-bot");
    Ok(bots)
}

fn random_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    // RandomState is seeded from the operating system's randomness.
    RandomState::new().hash_one(std::time::SystemTime::now())
}

fn print_report(report: &MatchReport, seed: u64, out: Option<&std::path::Path>) {
    println!("{}", report.standings.table());
    let seconds = report.elapsed.as_secs_f64().max(1e-9);
    println!(
        "{} games, {} decisions in {:.2} s: {:.1} games/s, {:.0} decisions/s; seed {seed}",
        report.games,
        report.decisions,
        seconds,
        report.games as f64 / seconds,
        report.decisions as f64 / seconds
    );
    if let Some(dir) = out {
        println!("records: {}", dir.join("games.jsonl").display());
    }
    if report.interrupted {
        println!("interrupted: the standings cover the {} games finished", report.games);
    }
}
