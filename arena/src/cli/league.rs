//! `arena league`: a league from a configuration file and flags, resumable
//! from its output directory.

use super::execute::{ReportRequest, Run, execute};
use super::match_cmd::{binary_dir, sample_bot};
use super::{Failure, cores, current_dir, internal, random_seed, usage};
use crate::bot::spec::BotSpec;
use crate::config::{LeagueConfig, Overrides};
use crate::game::Game;
use crate::games::{GameCommand, dispatch};
use crate::league::{check_played, full_schedule};
use crate::output::{LEAGUE, OutDir};
use crate::record::GameSummary;
use crate::schedule::{Format, Selection, Shard};
use crate::signals;
use crate::standings::Standings;
use crate::table::Limits;
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Examples shown by `arena league --help`.
pub const EXAMPLES: &str = "Examples:
  arena league                                    # the demo league of the sample bots
  arena league --config league.toml --out results
  arena league --bot a=./a --bot b=./b --bot c=./c --games 100 --concurrency 4 --out results
  arena league --resume results                   # continue a stopped league
  arena league --config league.toml --shard 0/4 --out shard0   # one quarter of it";

/// The flags of `arena league`.
#[derive(Debug, Args)]
pub struct LeagueArgs {
    /// Read the league from this TOML file (flags override it).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Continue the stopped league in DIR (its configuration is in DIR/league.json).
    #[arg(long, value_name = "DIR", conflicts_with_all = [
        "config", "bots", "bot_dirs", "bot_envs", "game", "format", "players", "games", "seed",
        "move_timeout", "startup_timeout", "variants", "out", "shard", "limits", "sandbox",
    ])]
    resume: Option<PathBuf>,
    /// A bot: NAME=COMMAND (adds a bot, or replaces the command of one in the file).
    #[arg(long = "bot", value_name = "NAME=COMMAND")]
    bots: Vec<String>,
    /// The working directory of a bot: NAME=DIR.
    #[arg(long = "bot-dir", value_name = "NAME=DIR")]
    bot_dirs: Vec<String>,
    /// An environment variable of a bot: NAME=KEY=VALUE.
    #[arg(long = "bot-env", value_name = "NAME=KEY=VALUE")]
    bot_envs: Vec<String>,
    /// The game (default all-fives).
    #[arg(long)]
    game: Option<String>,
    /// round-robin (every group of bots) or gauntlet (the first bot against the others).
    #[arg(long)]
    format: Option<String>,
    /// Number of players (2, 3 or 4).
    #[arg(long)]
    players: Option<u64>,
    /// Games per group of bots (default 20), rounded up to whole seat rotations.
    #[arg(long)]
    games: Option<u64>,
    /// The league seed (default: a random one, kept in league.json).
    #[arg(long)]
    seed: Option<u64>,
    /// Games played at once (default: the number of cores).
    #[arg(long)]
    concurrency: Option<u64>,
    /// Time allowed for each move, in milliseconds (default 1000).
    #[arg(long, value_name = "MS")]
    move_timeout: Option<u64>,
    /// Time allowed for a bot to answer hello, in milliseconds (default 10000).
    #[arg(long, value_name = "MS")]
    startup_timeout: Option<u64>,
    /// A variant setting, KEY=VALUE (repeatable; see `arena rules`).
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    variants: Vec<String>,
    /// Keep everything here: league.json, games.jsonl, standings.json, logs/.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Play only shard K of N (0 <= K < N): the games whose id is K modulo N.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// A resource limit of every bot process, NAME=VALUE (cpu, address-space, processes, file-size, open-files; `none` lifts it).
    #[arg(long = "limit", value_name = "NAME=VALUE")]
    limits: Vec<String>,
    /// Also write the standings as json, csv or markdown: FORMAT or FORMAT=PATH
    /// (default: standings.<ext> in the output directory, or stdout without one).
    #[arg(long = "report", value_name = "FORMAT[=PATH]")]
    reports: Vec<ReportRequest>,
    /// Run every bot in a sandbox: none (the default) or bwrap (bubblewrap).
    #[arg(long)]
    sandbox: Option<String>,
    /// Pin each worker thread, and the bots of the games it plays, to one CPU
    /// (faster for single-threaded bots; a multi-threaded bot gets one core).
    #[arg(long)]
    pin_cpus: bool,
}

impl LeagueArgs {
    fn is_empty(&self) -> bool {
        self.config.is_none() && self.resume.is_none() && self.bots.is_empty()
    }

    fn overrides(&self) -> Overrides {
        Overrides {
            config: self.config.clone(),
            bots: self.bots.clone(),
            bot_dirs: self.bot_dirs.clone(),
            bot_envs: self.bot_envs.clone(),
            game: self.game.clone(),
            format: self.format.clone(),
            players: self.players,
            games: self.games,
            seed: self.seed,
            concurrency: self.concurrency,
            move_timeout: self.move_timeout,
            startup_timeout: self.startup_timeout,
            variants: self.variants.clone(),
            out: self.out.clone(),
            shard: self.shard,
            limits: self.limits.clone(),
            sandbox: self.sandbox.clone(),
            pin_cpus: self.pin_cpus.then_some(true),
        }
    }
}

/// A league about to run: its configuration, output and the games already played.
struct Prepared {
    config: LeagueConfig,
    out: Option<OutDir>,
    played: Vec<GameSummary>,
    /// A new league, whose configuration is still to be written.
    fresh: bool,
    /// Extra standings reports.
    reports: Vec<ReportRequest>,
}

/// Runs `arena league`.
pub fn run(args: LeagueArgs) -> Result<i32, Failure> {
    let cwd = current_dir()?;
    let mut prepared = if let Some(dir) = &args.resume {
        resume(&cwd.join(dir), args.concurrency, args.pin_cpus)?
    } else {
        let config = if args.is_empty() {
            demo(&args)?
        } else {
            LeagueConfig::resolve(&args.overrides(), &cwd, random_seed(), cores()).map_err(usage)?
        };
        Prepared { config, out: None, played: Vec::new(), fresh: true, reports: Vec::new() }
    };
    prepared.reports = args.reports.clone();
    let game = prepared.config.game.clone();
    dispatch(&game, prepared).map_err(usage)?
}

/// Reads a stopped league back from its output directory.
fn resume(dir: &Path, concurrency: Option<u64>, pin_cpus: bool) -> Result<Prepared, Failure> {
    let path = dir.join(LEAGUE);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| usage(format!("cannot resume from {}: cannot read {LEAGUE} ({e})", dir.display())))?;
    let mut config: LeagueConfig = serde_json::from_str(&text)
        .map_err(|e| usage(format!("{} is not a league configuration: {e}", path.display())))?;
    config.bots = config.bots.iter().map(BotSpec::revalidated).collect::<Result<_, _>>().map_err(usage)?;
    if let Some(concurrency) = concurrency {
        if concurrency == 0 {
            return Err(usage("--concurrency: must be at least 1"));
        }
        config.concurrency = concurrency;
    }
    config.pin_cpus |= pin_cpus;
    config.out = Some(dir.to_path_buf());
    let (out, played, note) = OutDir::reopen(dir).map_err(usage)?;
    if let Some(note) = note {
        eprintln!("{note}");
    }
    Ok(Prepared { config, out: Some(out), played, fresh: false, reports: Vec::new() })
}

/// The demo league: every sample bot that can run here, a round robin.
fn demo(args: &LeagueArgs) -> Result<LeagueConfig, Failure> {
    let mut bots = vec![sample_bot("greedy")?, sample_bot("random")?];
    // The scripted samples, when a checkout is at hand (around the binary, in
    // the working directory, or where the arena was built) and the interpreters exist.
    let candidates = [binary_dir()?.join("../.."), current_dir()?, Path::new(env!("CARGO_MANIFEST_DIR")).join("..")];
    let repo = candidates
        .into_iter()
        .find(|dir| dir.join("sample-bots/python/greedy.py").is_file())
        .unwrap_or_else(|| PathBuf::from("."));
    for (name, interpreter, script) in
        [("greedy-py", "python3", "sample-bots/python/greedy.py"), ("greedy-js", "node", "sample-bots/js/greedy.js")]
    {
        let script = repo.join(script);
        if script.is_file() {
            let command = format!("{interpreter} {}", shell_words::quote(&script.to_string_lossy()));
            if let Ok(bot) = BotSpec::new(name, &command, &current_dir()?, Default::default()) {
                bots.push(bot);
            }
        }
    }
    let names: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
    eprintln!("no league given: a demo round robin of the sample bots {}", names.join(", "));
    Ok(LeagueConfig {
        game: "all-fives".to_string(),
        format: Format::RoundRobin,
        bots,
        settings: Vec::new(),
        variant: serde_json::Value::Null,
        games: 20,
        seed: args.seed.unwrap_or_else(random_seed),
        concurrency: cores(),
        move_timeout_ms: 1000,
        startup_timeout_ms: 10_000,
        limits: Default::default(),
        sandbox: Default::default(),
        pin_cpus: false,
        shard: None,
        out: None,
    })
}

fn play<G: Game>(prepared: Prepared) -> Result<i32, Failure> {
    let Prepared { mut config, mut out, played, fresh, reports } = prepared;
    let variant = G::parse_variant(&config.settings).map_err(|e| usage(format!("variant: {e}")))?;
    let teams = G::teams(&variant);
    let schedule = full_schedule(&config, &teams).map_err(usage)?;
    config.sandbox.check().map_err(usage)?;
    if let (true, Some(dir)) = (fresh, &config.out) {
        // Everything is checked: only now is the output directory made.
        let created = OutDir::create(dir).map_err(usage)?;
        config.variant = serde_json::to_value(&variant).expect("variants serialize");
        let json = serde_json::to_string_pretty(&config).expect("configurations serialize");
        created.write_config(&json).map_err(|e| internal(format!("cannot write {LEAGUE}: {e}")))?;
        out = Some(created);
    }
    let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
    let done = check_played(&schedule, &names, &played).map_err(|e| {
        usage(format!(
            "{}: {e}",
            out.as_ref().map_or(String::new(), |o| o.path().join(crate::output::GAMES).display().to_string())
        ))
    })?;
    let selection = Selection::new(&schedule, config.shard, |id| done.contains(&id));
    let total = selection.count() + played.len() as u64;
    let mut standings = Standings::new(&names);
    for game in &played {
        standings.add(game);
    }
    let already = played.len();
    drop((played, done));
    let shard = config.shard.map_or(String::new(), |s| format!(", shard {s}"));
    eprintln!(
        "{} {} league of {} bots: {total} games{shard}, {} already played — seed {}",
        G::NAME,
        config.format,
        names.len(),
        already,
        config.seed
    );
    let limits = Limits {
        move_timeout: Duration::from_millis(config.move_timeout_ms),
        startup_timeout: Duration::from_millis(config.startup_timeout_ms),
        resources: config.limits.clone(),
        sandbox: config.sandbox,
        pin_cpus: config.pin_cpus,
        ..Limits::default()
    };
    let run = Run::<G> {
        setups: None,
        bots: config.bots.clone(),
        variant,
        seed: config.seed,
        limits,
        schedule,
        selection,
        concurrency: config.concurrency as usize,
        standings,
        out,
        reports,
    };
    let report = execute(run)?;
    match &config.out {
        Some(dir) if report.interrupted => {
            println!(
                "interrupted after {} games; continue with: arena league --resume {}",
                report.games,
                dir.display()
            );
            Ok(signals::INTERRUPTED)
        }
        None if report.interrupted => {
            println!("interrupted after {} games (no --out, so the league cannot be resumed)", report.games);
            Ok(signals::INTERRUPTED)
        }
        Some(dir) => {
            println!("results: {}", dir.display());
            Ok(0)
        }
        None => Ok(0),
    }
}

impl GameCommand for Prepared {
    type Output = Result<i32, Failure>;
    fn run<G: Game>(self) -> Result<i32, Failure> {
        play::<G>(self)
    }
}
