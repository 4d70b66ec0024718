//! What every game of a match shares: the bots, the variant, the limits, and
//! where processes are recorded and logged.

use crate::bot::cgroup::BotGroups;
use crate::bot::copies::{Copies, Lease};
use crate::bot::limits::ResourceLimits;
use crate::bot::logs::Logs;
use crate::bot::placement::Placement;
use crate::bot::pool::Said;
use crate::bot::process::Launch;
use crate::bot::registry::Registry;
use crate::bot::remote::Peer;
use crate::bot::sandbox::Sandbox;
use crate::bot::spec::BotSpec;
use crate::bot::spec::bot_environment;
use crate::bot::start_failures::{GiveUp, StartFailures};
use crate::bot::visible::plan::{Plan, plan};
use crate::engine::origin::Origin;
use crate::engine::spec::Engine;
use crate::schedule::GameSpec;
use crate::schedule::clock::{TimeControl, Timing};
use crate::schedule::lanes::Restart;
use crate::settings;
use protocol::messages::Hello;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// Limits applied to every bot process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time allowed for each move.
    pub move_timeout: Duration,
    /// The game clock of each seat, if any: a move may use what is left on
    /// it, up to `move_timeout` (see [`crate::schedule::clock`]).
    pub clock: Option<TimeControl>,
    /// Wall-clock time allowed from starting a process to its `ready`.
    pub startup_timeout: Duration,
    /// The longest line accepted from a bot, in bytes.
    pub line_cap: usize,
    /// How much of each process's stderr is kept in its log file, in bytes.
    pub stderr_cap: u64,
    /// How much of the stderr of all the processes of one bot is kept over a
    /// run, in bytes (each log file counting [`crate::bot::logs::FILE_COST`] more).
    pub log_budget: u64,
    /// How long a bot may take to exit after `bye` before it is killed.
    pub exit_grace: Duration,
    /// Operating-system limits of each bot process.
    pub resources: ResourceLimits,
    /// How bot processes are confined.
    pub sandbox: Sandbox,
    /// The CPUs of each game in flight: each worker thread and the bots of
    /// its games run on this many CPUs of their own (0: not pinned, the
    /// system places them).
    pub cpus_per_game: usize,
    /// How long a bot process lives (see [`crate::schedule::lanes`]).
    pub restart: Restart,
    /// Time odds: the timing of each bot that has one of its own, by name;
    /// every other bot plays under `move_timeout` and `clock`.
    pub odds: BTreeMap<String, Timing>,
}

/// The per-move limit of a run: `given` (in ms), else under `clock` its
/// base (so that a move may use all the clock has left, up to the base),
/// else [`settings::MOVE_TIMEOUT`]'s default.
pub fn move_limit(given: Option<u64>, clock: Option<TimeControl>) -> Duration {
    match (given, clock) {
        (Some(ms), _) => Duration::from_millis(ms),
        (None, Some(clock)) => clock.base(),
        (None, None) => settings::MOVE_TIMEOUT.millis(),
    }
}

/// A bot's own time (time odds) as given: its clock and its per-move limit
/// in milliseconds, either absent when it has the run's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OwnTime {
    /// Its own game clock (`--bot-clock`, a league file bot's `clock`).
    pub clock: Option<TimeControl>,
    /// Its own per-move limit (`--bot-move-timeout`, a league file bot's `move_timeout`).
    pub move_timeout_ms: Option<u64>,
}

/// Applies `--bot-clock NAME=BASE+INC` (`clocks`) and `--bot-move-timeout
/// NAME=MS` (`moves`) to `own`, by bot name; `known` tells a bot's name. The
/// error says which flag is wrong, and why.
pub fn apply_odds_flags(
    own: &mut BTreeMap<String, OwnTime>,
    clocks: &[String],
    moves: &[String],
    known: impl Fn(&str) -> bool,
) -> Result<(), String> {
    let named = |flag: &str, text: &str, shape: &str| -> Result<(String, String), String> {
        let (name, value) = text.split_once('=').ok_or_else(|| format!("{flag} {text:?}: expected {shape}"))?;
        match known(name.trim()) {
            true => Ok((name.trim().to_string(), value.to_string())),
            false => Err(format!("{flag} {text:?}: no bot of the run is named {:?}", name.trim())),
        }
    };
    for text in clocks {
        let (name, value) = named("--bot-clock", text, "NAME=BASE+INC")?;
        let clock: TimeControl = value.parse().map_err(|e| format!("--bot-clock {text:?}: {e}"))?;
        own.entry(name).or_default().clock = Some(clock);
    }
    for text in moves {
        let (name, value) = named("--bot-move-timeout", text, "NAME=MS")?;
        let ms = value
            .trim()
            .parse()
            .map_err(|_| format!("--bot-move-timeout {text:?}: {value:?} is not a whole number of milliseconds"))?;
        let ms =
            settings::MOVE_TIMEOUT.or_default(Some(ms)).map_err(|e| format!("--bot-move-timeout {text:?}: {e}"))?;
        own.entry(name).or_default().move_timeout_ms = Some(ms);
    }
    Ok(())
}

/// The timing of each bot with time of its own (`own`), in a run whose clock
/// is `clock` and whose per-move limit was given as `move_timeout` (ms): a
/// bot's clock is its own, else the run's; its per-move limit its own, else
/// the run's as given, else under a clock the clock's base (see [`move_limit`]).
pub fn time_odds(
    own: &BTreeMap<String, OwnTime>,
    clock: Option<TimeControl>,
    move_timeout: Option<u64>,
) -> BTreeMap<String, Timing> {
    let timing = |own: &OwnTime| {
        let clock = own.clock.or(clock);
        Timing { move_timeout_ms: move_limit(own.move_timeout_ms.or(move_timeout), clock).as_millis() as u64, clock }
    };
    own.iter().map(|(name, own)| (name.clone(), timing(own))).collect()
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            move_timeout: settings::MOVE_TIMEOUT.millis(),
            clock: None,
            startup_timeout: settings::STARTUP_TIMEOUT.millis(),
            line_cap: 1 << 20,
            stderr_cap: 1 << 20,
            log_budget: 64 << 20,
            exit_grace: Duration::from_millis(1000),
            resources: ResourceLimits::default(),
            sandbox: Sandbox::default(),
            cpus_per_game: settings::CPUS_PER_GAME.default as usize,
            restart: Restart::default(),
            odds: BTreeMap::new(),
        }
    }
}

impl Limits {
    /// The limits of a run timed as given (each in ms; `None` when not
    /// given): the per-move limit by [`move_limit`], the start-up limit
    /// else [`settings::STARTUP_TIMEOUT`]'s default; every other limit its
    /// default. Every command builds its limits from these.
    pub fn timed(move_timeout: Option<u64>, clock: Option<TimeControl>, startup_timeout: Option<u64>) -> Limits {
        Limits {
            move_timeout: move_limit(move_timeout, clock),
            clock,
            startup_timeout: Duration::from_millis(startup_timeout.unwrap_or(settings::STARTUP_TIMEOUT.default)),
            ..Limits::default()
        }
    }

    /// The timing of a seat whose bot has none of its own.
    pub fn run_timing(&self) -> Timing {
        Timing { move_timeout_ms: self.move_timeout.as_millis() as u64, clock: self.clock }
    }

    /// The timing of the bot named `name`: its own (time odds), else the run's.
    pub fn timing(&self, name: &str) -> Timing {
        self.odds.get(name).copied().unwrap_or_else(|| self.run_timing())
    }
}

/// The shared setting of a match's games.
pub struct Table {
    /// The bots, indexed as in the schedule.
    pub bots: Vec<BotSpec>,
    /// The game's engine.
    pub engine: Arc<Engine>,
    /// The variant in force, as the engine resolved it.
    pub variant: Value,
    /// The sides of the game (from the variant): each the seats that score together.
    pub teams: Vec<Vec<usize>>,
    /// The match seed.
    pub seed: u64,
    /// Process limits.
    pub limits: Limits,
    /// Where stderr logs go, if anywhere.
    pub logs: Option<Arc<Logs>>,
    /// Live process groups.
    pub registry: Registry,
    /// Games set up in advance: a group's `n`th deal is set up from
    /// `setups[n % len]` (see [`GameSpec::nth`]); `None` to set each game
    /// up from its seed.
    pub setups: Option<Vec<Value>>,
    /// What no sandboxed bot sees: the output directory, the league file, the deals file.
    pub private: Vec<PathBuf>,
    /// What the run does with a bot that keeps failing to start.
    pub give_up: GiveUp,
    /// Each bot's start-up failures in a row.
    pub starts: StartFailures,
    /// A control group for each sandboxed bot, where the arena may make them.
    pub groups: BotGroups,
    /// How long each bot's processes have taken to answer `hello`, lately.
    startups: Mutex<Vec<Option<Duration>>>,
    /// Under the sandbox, the copies of the bots' views (see
    /// [`crate::bot::copies`]), or why they cannot be had.
    pub copies: Option<Result<Copies, String>>,
    /// What each bot's copy holds, listed at its first process.
    plans: Vec<OnceLock<Result<Arc<Plan>, String>>>,
    /// How each bot's processes play (games at once, any seat), as its
    /// first `ready` said.
    said: Vec<OnceLock<Said>>,
}

/// A variant as the engine resolved it: the settings and the sides.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// Every setting, as the engine gives it.
    pub variant: Value,
    /// The sides: each the seats that score together.
    pub teams: Vec<Vec<usize>>,
}

impl Resolved {
    /// A variant of the typed game `G`.
    pub fn of<G: game::Game>(variant: &G::Variant) -> Resolved {
        Resolved { variant: serde_json::to_value(variant).expect("variants serialize"), teams: G::teams(variant) }
    }
}

impl Table {
    /// A table for these bots and this variant of `engine`'s game.
    pub fn new(
        bots: Vec<BotSpec>,
        engine: Arc<Engine>,
        resolved: Resolved,
        seed: u64,
        limits: Limits,
        logs: Option<PathBuf>,
        registry: Registry,
    ) -> Self {
        let Resolved { variant, teams } = resolved;
        let logs = logs.map(|dir| Arc::new(Logs::new(dir, limits.log_budget)));
        let starts = StartFailures::new(bots.len());
        let startups = Mutex::new(vec![None; bots.len()]);
        let groups = match limits.sandbox {
            Sandbox::Bwrap => BotGroups::create(bots.len(), &limits.resources),
            Sandbox::None => BotGroups::default(),
        };
        let copies = (limits.sandbox == Sandbox::Bwrap).then(|| {
            Copies::new(bots.len(), &registry).map_err(|e| format!("cannot make the sandbox's copies in /dev/shm: {e}"))
        });
        let plans = bots.iter().map(|_| OnceLock::new()).collect();
        let said = bots.iter().map(|_| OnceLock::new()).collect();
        Table {
            bots,
            engine,
            variant,
            teams,
            seed,
            limits,
            logs,
            registry,
            setups: None,
            private: Vec::new(),
            give_up: GiveUp::Never,
            starts,
            groups,
            startups,
            copies,
            plans,
            said,
        }
    }

    /// Notes how a process of `bot` said it plays (the first to say counts).
    pub fn note_said(&self, bot: usize, said: Said) {
        let _ = self.said[bot].set(said);
    }

    /// How many games at once `bot`'s processes play, once one said
    /// (see [`crate::bot::session`]); else 1.
    pub fn games(&self, bot: usize) -> usize {
        self.said[bot].get().and_then(|said| said.games).map_or(1, |games| games.max(1) as usize)
    }

    /// Whether `bot`'s processes play any seat, as one said.
    pub fn any_seat(&self, bot: usize) -> bool {
        self.said[bot].get().is_some_and(|said| said.any_seat)
    }

    /// The seat under which the process of the bot in `seat` of a game
    /// seated `seats` is kept in a lane: that seat, or for a bot whose
    /// processes play any seat, which of its seats in the game it is (0
    /// where it holds one), so that one process plays all its games of
    /// the lane whatever their seats.
    pub fn kept_seat(&self, seats: &[usize], seat: usize) -> usize {
        let bot = seats[seat];
        match self.any_seat(bot) {
            true => seats[..seat].iter().filter(|&&other| other == bot).count(),
            false => seat,
        }
    }

    /// Notes that a process of `bot` answered `hello` `took` after it was started.
    pub fn started_in(&self, bot: usize, took: Duration) {
        let mut startups = self.startups.lock().expect("start-up lock");
        // Half the last, half what came before: a bot that slows down is soon seen to.
        startups[bot] = Some(startups[bot].map_or(took, |before| (before + took) / 2));
    }

    /// How long a process of `bot` takes to answer `hello`, lately, once one has.
    pub fn startup(&self, bot: usize) -> Option<Duration> {
        self.startups.lock().expect("start-up lock")[bot]
    }

    /// Gives up on a bot that fails to start [`IN_A_ROW`](crate::bot::start_failures::IN_A_ROW)
    /// times in a row as `give_up` says.
    pub fn with_give_up(mut self, give_up: GiveUp) -> Self {
        self.give_up = give_up;
        self
    }

    /// Sets up each group's `n`th deal from `setups[n % len]` instead of from its seed.
    pub fn with_setups(mut self, setups: Option<Vec<Value>>) -> Self {
        self.setups = setups;
        self
    }

    /// Hides `private` (the output directory, the league file, the deals file) from sandboxed bots.
    pub fn with_private(mut self, private: Vec<PathBuf>) -> Self {
        self.private = private;
        if self.copies.is_some() {
            // Listed before the run, not as a bot's first process starts.
            for bot in (0..self.bots.len()).filter(|&bot| self.bots[bot].remote.is_none()) {
                self.plan(bot);
            }
        }
        self
    }

    /// How the game of `spec` is set up: from its setup when the table has
    /// setups, else from its seed.
    pub fn origin(&self, spec: &GameSpec) -> Origin<'_> {
        match &self.setups {
            Some(setups) => Origin::Setup(&setups[(spec.nth % setups.len() as u64) as usize]),
            None => Origin::Seed(spec.seed),
        }
    }

    /// The number of seats.
    pub fn seats(&self) -> usize {
        self.teams.iter().map(Vec::len).sum()
    }

    /// How to start a new process of `bot` for `seat`, placed as `placement`.
    pub fn launch(&self, bot: usize, seat: usize, placement: Placement) -> Launch {
        let spec = &self.bots[bot];
        let remote = spec.remote.as_ref().map(|remote| Peer::of(remote, &spec.name));
        // No copy of a view for a bot that runs elsewhere.
        let copies = self.copies.as_ref().filter(|_| remote.is_none());
        let view = copies.map(|copies| self.lease(copies, bot).map(Arc::new));
        let (root, in_tmp) = match &view {
            Some(Ok(lease)) => (lease.root(), lease.in_tmp()),
            _ => (Path::new("/"), &[][..]),
        };
        let wrapped = self.limits.sandbox.wrap(spec, root, in_tmp, self.limits.resources.tmp);
        Launch {
            argv: wrapped.argv,
            options: wrapped.options,
            dir: spec.dir.clone(),
            env: bot_environment(&spec.env),
            resources: self.limits.resources.clone(),
            groups: self.groups.of(bot).to_vec(),
            placement,
            log: self.logs.as_ref().map(|logs| logs.place(&spec.name, seat)),
            stderr_cap: self.limits.stderr_cap,
            line_cap: self.limits.line_cap,
            registry: self.registry.clone(),
            view,
            remote,
        }
    }

    /// A copy of bot `bot`'s view from `copies`, for a new process (written
    /// as it starts, see [`Lease::write`]).
    fn lease(&self, copies: &Result<Copies, String>, bot: usize) -> Result<Lease, String> {
        let copies = copies.as_ref().map_err(Clone::clone)?;
        let plan = self.plan(bot).as_ref().map_err(Clone::clone)?;
        Ok(copies.lease(bot, plan))
    }

    /// What bot `bot`'s copy holds.
    fn plan(&self, bot: usize) -> &Result<Arc<Plan>, String> {
        self.plans[bot].get_or_init(|| {
            plan(&self.bots, bot, &self.private, &self.registry)
                .map(Arc::new)
                .ok_or_else(|| "its view holds too many files".to_string())
        })
    }

    /// The timing of the seats of bot `bot` (an index into [`bots`](Self::bots);
    /// the run's for a seat no bot plays, a person's).
    pub fn timing(&self, bot: usize) -> Timing {
        self.bots.get(bot).map_or_else(|| self.limits.run_timing(), |spec| self.limits.timing(&spec.name))
    }

    /// The `hello` for a process of `bot` in `seat`.
    pub fn hello(&self, bot: usize, seat: usize) -> Hello<Value> {
        Hello {
            protocol: protocol::VERSION,
            game: self.engine.name().to_string(),
            variant: self.variant.clone(),
            seat,
            seats: self.seats(),
            teams: self.teams.clone(),
            name: self.bots[bot].name.clone(),
            move_timeout_ms: self.timing(bot).move_timeout_ms,
            startup_timeout_ms: self.limits.startup_timeout.as_millis() as u64,
        }
    }
}
