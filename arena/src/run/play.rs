//! Playing one game of a match with real processes.

use crate::bot::census::Counted;
use crate::bot::fault::{Fault, FaultKind};
use crate::bot::pool::{Pool, Role, Said, Started};
use crate::bot::process::Envelope;
use crate::bot::process::{Awaited, BotProcess};
use crate::bot::session::{Conversation, GameLine, Session};
use crate::bot::start_failures::GiveUp;
use crate::engine::link::Link;
use crate::engine::origin::Origin;
use crate::engine::process::EngineError;
use crate::engine::running::Running;
use crate::engine::spec::Trouble;
use crate::run::game_loop::{Answer, Ended, Seats, play_out};
use crate::run::outcome::forfeit_ranks;
use crate::run::session::{self, Decision};
use crate::run::table::Table;
use crate::schedule::GameSpec;
use crate::schedule::clock::{Clock, Timing};
use crate::store::record::{Entry, FaultRecord, GameRecord, GameResult, Timed};
use protocol::engine::{Raw, StepEvent};
use protocol::messages::{Forfeit, GameEnd, GameStart};
use serde_json::Value;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::task::JoinHandle;

/// The record of a game, whatever the engine: its variant and events as
/// the engine gave them.
pub type Record = GameRecord<Value, Entry>;

/// Why a game could not be played at all, so that the run must stop: a bot
/// process could not be started (too few file descriptors or processes, no
/// memory, a resource limit the arena may not set, a full disk), which is
/// never the bot's doing and so never recorded as its fault; a run that
/// means nothing without a bot gave up on it ([`GiveUp::StopRun`]); or the
/// engine failed, which is never a bot's fault either.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unplayable {
    /// Why, one line.
    pub why: String,
    /// Whether the run gave up on a bot that failed to start again and
    /// again ([`GiveUp::StopRun`]): the bot's doing, not the machine's.
    pub gave_up: bool,
}

impl Unplayable {
    /// A game unplayable for `why`, not a bot's doing.
    pub fn new(why: impl Into<String>) -> Unplayable {
        Unplayable { why: why.into(), gave_up: false }
    }
}

impl From<EngineError> for Unplayable {
    fn from(e: EngineError) -> Self {
        Unplayable::new(format!("{e}; the game was not recorded (fix the engine, then resume)"))
    }
}

/// A seat whose moves come from elsewhere than a bot process: a person at
/// the terminal or in the browser, for `arena play`. It is shown the game
/// as its seat may see it when it is asked to move and when the game is
/// over.
pub trait Person {
    /// The seat it plays.
    fn seat(&self) -> usize;
    /// Its name in the record.
    fn name(&self) -> &str;
    /// Notes the start of a game set up from `origin`.
    fn begin(&mut self, table: &Table, origin: Origin<'_>);
    /// Tells it `event`, which its seat sees (or is told nothing of).
    fn tell(&mut self, event: &StepEvent<Raw>);
    /// Its move in `game`, where its seat is to act: an index into
    /// [`Running::choices`], or `None` when it leaves the game.
    fn choose(&mut self, game: &Running<'_>) -> impl Future<Output = Option<usize>>;
    /// Notes that the seat to act played choice `index` (any seat's move).
    fn played(&mut self, index: usize);
    /// Shows it the end of the game, which came out as `result`.
    fn game_over(&mut self, game: &Running<'_>, result: &GameResult);
}

/// No person: every seat is played by a bot process.
enum Nobody {}

impl Person for Nobody {
    fn seat(&self) -> usize {
        match *self {}
    }
    fn name(&self) -> &str {
        match *self {}
    }
    fn begin(&mut self, _: &Table, _: Origin<'_>) {
        match *self {}
    }
    fn tell(&mut self, _: &StepEvent<Raw>) {
        match *self {}
    }
    async fn choose(&mut self, _: &Running<'_>) -> Option<usize> {
        match *self {}
    }
    fn played(&mut self, _: usize) {
        match *self {}
    }
    fn game_over(&mut self, _: &Running<'_>, _: &GameResult) {
        match *self {}
    }
}

/// Plays the game `spec` of lane `lane` (see [`crate::schedule::lanes`]),
/// as its `copy`th game played at once (see [`Role::copy`]), with that
/// lane's processes from `pool` (starting any that are missing) and the
/// engine on `link`, returns the healthy processes to the pool, and returns
/// the record. A bot that plays many games at once plays it in its lane's
/// session (see [`crate::bot::session`]), whatever the copy.
pub async fn play_game(
    table: &Table,
    pool: &Pool,
    link: &mut dyn Link,
    spec: &GameSpec,
    (lane, copy): (u64, usize),
) -> Result<Record, Unplayable> {
    let record = play_seated::<Nobody>(table, pool, link, spec, (lane, copy), None).await?;
    Ok(record.expect("only a person leaves a game unfinished"))
}

/// [`play_game`] with `person` (if any) in its seat instead of a bot
/// process (`spec.seats` is not read for that seat). `Ok(None)` when the
/// person leaves the game before its end: every process is then killed and
/// nothing is recorded.
pub async fn play_seated<P: Person>(
    table: &Table,
    pool: &Pool,
    link: &mut dyn Link,
    spec: &GameSpec,
    lane: (u64, usize),
    person: Option<&mut P>,
) -> Result<Option<Record>, Unplayable> {
    let started = Instant::now();
    let mut seated = Seated::new(table, spec, person);
    let flights = crate::run::flights::watched();
    if let Some(flights) = flights {
        let game = (table.engine.name().to_string(), table.engine.program_of().is_some());
        flights.begin(spec.id, game, (spec.deal, spec.arrangement, spec.seed), &seated.names, &table.variant);
    }
    seated.flight = flights.map(|_| spec.id);
    let played = seated.play(pool, link, spec, lane).await;
    if let Some(flights) = flights {
        flights.end(spec.id);
    }
    let Ok(Some((game, result))) = played else {
        seated.kill().await;
        return played.map(|_| None);
    };
    if let Some(person) = seated.person {
        person.game_over(&game, &result);
    }
    let forfeits: Vec<Forfeit> =
        seated.faults.iter().map(|f| Forfeit { seat: f.seat, kind: f.kind.name().to_string() }).collect();
    for (seat, line) in seated.processes.iter_mut().enumerate() {
        if let Some(mut line) = line.take() {
            let end = GameEnd {
                id: spec.tag(),
                reason: result.reason.clone(),
                scores: result.scores.clone(),
                ranks: result.ranks.clone(),
                forfeits: forfeits.clone(),
            };
            line.queue(&Envelope::GameEnd(end));
            match line {
                SeatLine::Process(process) => pool.put(role(table, spec, seat, lane), process),
                // A game of a session, faulted or not: its game_end, and the process plays on.
                SeatLine::Game(game) => game.end(),
            }
        }
    }

    Ok(Some(GameRecord {
        id: spec.id,
        game: table.engine.name().to_string(),
        engine: table.engine.identity(&table.teams),
        deal: spec.deal,
        arrangement: spec.arrangement,
        seed: spec.seed,
        preset: table.setups.is_some(),
        setup: match (table.engine.program_of(), table.origin(spec)) {
            (Some(_), Origin::Setup(setup)) => Some(setup.clone()),
            _ => None,
        },
        variant: table.variant.clone(),
        bots: seated.names,
        bot_seeds: spec.bot_seeds.clone(),
        clock: table.limits.clock,
        seat_timing: (!table.limits.odds.is_empty()).then(|| seated.timings.clone()),
        events: seated.times.entries(game.into_events().into_iter().map(|event| event.event).collect()),
        result,
        faults: seated.faults,
        duration_ms: started.elapsed().as_millis() as u64,
    }))
}

/// How the arena talks to a seat's bot: a process of its own, or a game of
/// a session (see [`crate::bot::session`]). One for each seat of a game in
/// play: its size does not matter, and a process is taken from the pool
/// and returned to it by value, unboxed.
#[allow(clippy::large_enum_variant)]
enum SeatLine {
    Process(BotProcess),
    Game(GameLine),
}

impl Conversation for SeatLine {
    fn queue<T: serde::Serialize + ?Sized>(&mut self, message: &T) {
        match self {
            SeatLine::Process(process) => process.queue(message),
            SeatLine::Game(game) => game.queue(message),
        }
    }
    fn next_request_id(&mut self) -> u64 {
        match self {
            SeatLine::Process(process) => process.next_request_id(),
            SeatLine::Game(game) => game.next_request_id(),
        }
    }
    async fn make_way(&mut self) {
        match self {
            SeatLine::Process(process) => process.make_way().await,
            SeatLine::Game(game) => game.make_way().await,
        }
    }
    async fn exchange(
        &mut self,
        deadline: tokio::time::Instant,
        limit: Duration,
        what: Awaited,
    ) -> Result<&[u8], Fault> {
        match self {
            SeatLine::Process(process) => process.exchange(deadline, limit, what).await,
            SeatLine::Game(game) => game.exchange(deadline, limit, what).await,
        }
    }
}

/// The role of `spec`'s bot in `seat`, in `lane` as its `copy`th game at
/// once: the seat it is kept under ([`Table::kept_seat`]).
fn role(table: &Table, spec: &GameSpec, seat: usize, (lane, copy): (u64, usize)) -> Role {
    Role { bot: spec.seats[seat], seat: table.kept_seat(&spec.seats, seat), lane, copy }
}

/// The seats of one game of a match: a bot process in each, or a game of
/// its session (a process's seat is empty once it faulted; a session's
/// game stays, to be told its end), or `person` in its own.
struct Seated<'t, 'p, P> {
    table: &'t Table,
    /// Each seat's name in the record.
    names: Vec<String>,
    processes: Vec<Option<SeatLine>>,
    faults: Vec<FaultRecord>,
    person: Option<&'p mut P>,
    /// The person's seat, if any.
    person_seat: Option<usize>,
    /// Each seat's timing: its bot's per-move limit and clock.
    timings: Vec<Timing>,
    /// Each bot's seat's clock (a person plays without one, at the terminal or in the browser).
    clocks: Vec<Option<Clock>>,
    times: MoveTimes,
    /// The game's id, when the games in flight are watched ([`crate::run::flights`]).
    flight: Option<u64>,
}

impl<'t, 'p, P: Person> Seated<'t, 'p, P> {
    fn new(table: &'t Table, spec: &GameSpec, person: Option<&'p mut P>) -> Self {
        let person_seat = person.as_ref().map(|person| person.seat());
        let names = (0..table.seats())
            .map(|seat| match &person {
                Some(person) if person_seat == Some(seat) => person.name().to_string(),
                _ => table.bots[spec.seats[seat]].name.clone(),
            })
            .collect();
        Seated {
            table,
            names,
            processes: (0..table.seats()).map(|_| None).collect(),
            faults: Vec::new(),
            person,
            person_seat,
            timings: spec.seats.iter().map(|&bot| table.timing(bot)).collect(),
            clocks: (0..table.seats())
                .map(|seat| {
                    let clock = table.timing(spec.seats[seat]).clock;
                    clock.filter(|_| person_seat != Some(seat)).map(|control| control.start())
                })
                .collect(),
            times: MoveTimes::default(),
            flight: None,
        }
    }

    /// Seats the bots, starts the game and plays it out: the game and how it
    /// came out, or `None` when the person left it. Processes may be left
    /// seated either way.
    async fn play(
        &mut self,
        pool: &Pool,
        link: &mut dyn Link,
        spec: &GameSpec,
        lane: (u64, usize),
    ) -> Result<Option<(Running<'t>, GameResult)>, Unplayable> {
        let table = self.table;
        self.seat_bots(pool, spec, lane).await?;
        let origin = table.origin(spec);
        let mut game = Running::start(&table.engine, link, &table.variant, &table.teams, origin, self.person.is_some())
            .await
            .map_err(|trouble| match trouble {
                Trouble::Failed(e) => Unplayable::from(e),
                Trouble::Refused(why) => {
                    table.engine.failed(format!("refused to start game {}: {why}", spec.id)).into()
                }
            })?;
        if let Some(person) = self.person.as_deref_mut() {
            person.begin(table, origin);
        }
        for (seat, process) in self.processes.iter_mut().enumerate() {
            if let Some(process) = process {
                let start = GameStart { id: spec.tag(), seed: spec.bot_seeds[seat], seat };
                process.queue(&Envelope::GameStart(start));
            }
        }
        // A seat that could not start forfeits before the first move.
        if self.faults.is_empty() {
            match play_out(&mut game, link, self).await? {
                Ended::Over => {}
                Ended::Faulted(seat, fault) => self.fault(seat, fault).await,
                Ended::Stopped => return Ok(None),
            }
        }
        let result = game_result(&game, link, &table.teams, &self.faulted_seats()).await?;
        Ok(Some((game, result)))
    }

    /// Takes the processes of `lane` from `pool` into the bots' seats: a
    /// game of the lane's session, for a bot that plays many at once; idle
    /// ones, ones started ahead (once they have answered `hello`), and the
    /// missing ones started all at once, then greeted.
    async fn seat_bots(&mut self, pool: &Pool, spec: &GameSpec, lane: (u64, usize)) -> Result<(), Unplayable> {
        let (table, person_seat) = (self.table, self.person_seat);
        let mut fresh = Vec::new();
        for seat in (0..table.seats()).filter(|&seat| person_seat != Some(seat)) {
            let bot = spec.seats[seat];
            // A session plays every game of its lane at once: its own copy is the first.
            let copy = if table.games(bot) > 1 { 0 } else { lane.1 };
            let role = role(table, spec, seat, (lane.0, copy));
            // Given up before an idle process is taken: none of its processes plays again.
            if let Some(why) = table.starts.given_up(bot) {
                match table.give_up {
                    GiveUp::Never => {}
                    GiveUp::ForfeitRest => {
                        let message =
                            format!("not started: {why}; its remaining games are forfeited without starting it");
                        self.fault(seat, Fault::new(FaultKind::NotStarted, message)).await;
                        continue;
                    }
                    GiveUp::StopRun => {
                        let why = format!("bot {:?} cannot be started: {why}", self.names[seat]);
                        return Err(Unplayable { why, gave_up: true });
                    }
                }
            }
            if let Some(session) = pool.session(role) {
                self.processes[seat] = Some(SeatLine::Game(session.open(spec.tag())));
                continue;
            }
            if let Some(process) = pool.take(role) {
                self.processes[seat] = Some(SeatLine::Process(process));
                continue;
            }
            if let Some(task) = pool.take_ahead(role) {
                match task.await {
                    Ok(Started::Greeted(process, took, said)) => {
                        table.starts.started(bot);
                        table.started_in(bot, took);
                        self.seat_greeted(pool, spec, (seat, role), process, said);
                    }
                    Ok(Started::Faulted(fault, process)) => {
                        self.processes[seat] = process.map(SeatLine::Process);
                        table.starts.failed(bot, &fault);
                        self.fault(seat, fault).await;
                    }
                    Ok(Started::Failed(why)) => return Err(Unplayable::new(why)),
                    Err(e) => {
                        return Err(Unplayable::new(format!(
                            "a process of bot {:?} was not started: {e}",
                            self.names[seat]
                        )));
                    }
                }
                continue;
            }
            match pool.start(&table.launch(bot, seat, pool.placement())).await {
                Ok(process) => {
                    self.processes[seat] = Some(SeatLine::Process(process));
                    fresh.push((seat, role));
                }
                // Killed from outside as it started: the bot's death, as in its handshake.
                Err(fault) if fault.kind == FaultKind::Exited => {
                    table.starts.failed(bot, &fault);
                    self.fault(seat, fault).await;
                }
                Err(fault) => return Err(cannot_start(&self.names[seat], seat, &fault)),
            }
        }
        // Greeted at once, each timed on its own.
        let started = Instant::now();
        let mut greetings = Vec::new();
        for (seat, role) in fresh {
            let bot = spec.seats[seat];
            let Some(SeatLine::Process(mut process)) = self.processes[seat].take() else {
                unreachable!("just started")
            };
            let (hello, limit) = (table.hello(bot, seat), table.limits.startup_timeout);
            let greeting = tokio::spawn(async move {
                let greeted = session::handshake(&mut process, hello, limit)
                    .await
                    .map(|ready| (started.elapsed(), Said::of(&ready)));
                (process, greeted)
            });
            greetings.push((seat, role, greeting));
        }
        for (seat, role, greeting) in greetings {
            let bot = role.bot;
            let (process, greeted) = greeting.await.map_err(|e| {
                Unplayable::new(format!("the greeting of a process of bot {:?} failed: {e}", self.names[seat]))
            })?;
            match greeted {
                Ok((took, said)) => {
                    table.starts.started(bot);
                    table.started_in(bot, took);
                    self.seat_greeted(pool, spec, (seat, role), process, said);
                }
                Err(fault) => {
                    self.processes[seat] = Some(SeatLine::Process(process));
                    table.starts.failed(bot, &fault);
                    self.fault(seat, fault).await;
                }
            }
        }
        Ok(())
    }

    /// Seats `process` in `seat`, just greeted for `role`, saying how it
    /// plays: more than one game at once, in a session kept for the lane's other games.
    fn seat_greeted(
        &mut self,
        pool: &Pool,
        spec: &GameSpec,
        (seat, role): (usize, Role),
        process: BotProcess,
        said: Said,
    ) {
        self.table.note_said(role.bot, said);
        self.processes[seat] = Some(match said.games {
            Some(games) if games > 1 => {
                let session = Arc::new(Session::start(process, self.table.limits.exit_grace));
                let game = session.open(spec.tag());
                pool.keep_session(role, session);
                SeatLine::Game(game)
            }
            _ => SeatLine::Process(process),
        });
    }

    /// Kills the process in `seat` (a session's game stays, to be told its
    /// end: the process plays on, unless it died) and records its fault.
    async fn fault(&mut self, seat: usize, fault: Fault) {
        let stderr = match self.processes[seat].take() {
            Some(SeatLine::Process(process)) => process.kill().await,
            Some(SeatLine::Game(game)) => {
                let stderr = game.stderr().to_vec();
                self.processes[seat] = Some(SeatLine::Game(game));
                stderr
            }
            None => Vec::new(),
        };
        let bot = self.names[seat].clone();
        self.faults.push(FaultRecord { seat, bot, kind: fault.kind, message: fault.message, stderr });
    }

    fn faulted_seats(&self) -> Vec<usize> {
        self.faults.iter().map(|f| f.seat).collect()
    }

    /// Kills every process still seated (a session's game is closed: the process plays on).
    async fn kill(&mut self) {
        for line in self.processes.iter_mut().filter_map(Option::take) {
            if let SeatLine::Process(process) = line {
                process.kill().await;
            }
        }
    }
}

impl<P: Person> Seats for Seated<'_, '_, P> {
    type Error = Unplayable;

    fn tell(&mut self, seat: usize, event: &StepEvent<Raw>) {
        if let (Some(process), Some(view)) = (self.processes[seat].as_mut(), &event.views[seat]) {
            process.queue(view);
        }
        if let Some(person) = self.person.as_deref_mut().filter(|_| self.person_seat == Some(seat)) {
            person.tell(event);
        }
    }

    async fn answer(&mut self, seat: usize, game: &Running<'_>, link: &mut dyn Link) -> Result<Answer, Unplayable> {
        if let Some(person) = self.person.as_deref_mut().filter(|_| self.person_seat == Some(seat)) {
            let asked = Instant::now();
            return Ok(match person.choose(game).await {
                Some(index) => Answer::Play(Decision { index, elapsed: asked.elapsed() }),
                None => Answer::Stop,
            });
        }
        let process = self.processes[seat].as_mut().expect("only faulted seats are empty, and a fault ends the game");
        let limit = self.timings[seat].move_timeout();
        Ok(match session::ask_in_game(process, game, link, limit, self.clocks[seat]).await? {
            Ok(decision) => Answer::Play(decision),
            Err(fault) => Answer::Fault(fault),
        })
    }

    fn played(&mut self, seat: usize, decision: Decision, at: usize, game: &Running<'_>) {
        if let Some(person) = self.person.as_deref_mut() {
            person.played(decision.index);
        }
        if let (Some(id), Some(flights)) = (self.flight, crate::run::flights::watched()) {
            flights.moved(id, game.events().iter().map(|event| event.event.get()));
        }
        let clock_us = self.clocks[seat].as_mut().map(|clock| {
            clock.spend(decision.elapsed);
            clock.left.as_micros() as u64
        });
        self.times.note(at, decision.elapsed.as_micros() as u64, decision.index, clock_us);
    }
}

/// A process of a bot that could not be started, for a reason that is not the bot's doing.
fn cannot_start(name: &str, seat: usize, fault: &Fault) -> Unplayable {
    Unplayable::new(format!("cannot start a process of bot {name:?} for seat {seat}: {}", fault.message))
}

/// Starts a process for `role` ahead of its lane, in the background, and
/// greets it; the lane's first game takes it from `pool` (see
/// [`Pool::take_ahead`]). Started only if the pool has room for it while
/// keeping room for `keep` more, and never for a bot the run gave up on;
/// returns whether it was started.
pub fn start_ahead(table: &Table, pool: &Pool, role: Role, keep: usize) -> bool {
    // A bot that connects in is not asked for a connection before its lane needs one.
    let connects_in = matches!(table.bots[role.bot].remote, Some(crate::bot::remote::Remote::Listen(_)));
    if pool.holds(role) || pool.session(role).is_some() || table.starts.given_up(role.bot).is_some() || connects_in {
        return false;
    }
    let Some(counted) = pool.room_ahead(keep) else { return false };
    pool.adopt_ahead(role, begin_start(table, pool, role, counted));
    true
}

/// Starts a process for `role` in the room `counted` holds, in the
/// background, and greets it: the task's result is how that went.
pub fn begin_start(table: &Table, pool: &Pool, role: Role, counted: Counted) -> JoinHandle<Started> {
    let placement = pool.placement();
    let launch = table.launch(role.bot, role.seat, placement.clone());
    let (hello, limit) = (table.hello(role.bot, role.seat), table.limits.startup_timeout);
    let name = table.bots[role.bot].name.clone();
    let starting = placement.starting();
    tokio::spawn(async move {
        let _starting = starting;
        let started = Instant::now();
        // A new copy of the bot's view is written on a thread of its own: the games in play go on.
        if let Some(Ok(lease)) = &launch.view {
            let lease = Arc::clone(lease);
            let _ = tokio::task::spawn_blocking(move || lease.write()).await;
        }
        let mut process = match Pool::spawn(&launch, counted).await {
            Ok(process) => process,
            Err(fault) if fault.kind == FaultKind::Exited => return Started::Faulted(fault, None),
            Err(fault) => return Started::Failed(cannot_start(&name, role.seat, &fault).why),
        };
        match session::handshake(&mut process, hello, limit).await {
            Ok(ready) => Started::Greeted(process, started.elapsed(), Said::of(&ready)),
            Err(fault) => Started::Faulted(fault, Some(process)),
        }
    })
}

/// How a game came out: the game's own outcome, or, when any seat faulted
/// (`faulted`, the seats that did), a forfeit by the sides of those seats,
/// at the scores the engine says a forfeit costs.
///
/// # Errors
/// When the engine fails to say.
pub async fn game_result(
    game: &Running<'_>,
    link: &mut dyn Link,
    teams: &[Vec<usize>],
    faulted: &[usize],
) -> Result<GameResult, EngineError> {
    match (faulted.is_empty(), game.outcome()) {
        (true, Some(outcome)) => Ok(GameResult {
            reason: outcome.reason.clone(),
            scores: game.scores().to_vec(),
            ranks: outcome.ranks.clone(),
        }),
        _ => {
            let scores = game.forfeit(link, faulted).await?;
            let ranks = forfeit_ranks(teams, &scores, faulted);
            Ok(GameResult { reason: "forfeit".to_string(), scores, ranks })
        }
    }
}

/// The thinking time, the choice and the clock left of each move of a
/// game, kept by the index of the event that is the move (the first event a
/// play appends).
#[derive(Debug, Default)]
pub struct MoveTimes(Vec<Option<Moved>>);

/// A move as [`MoveTimes`] keeps it.
#[derive(Debug, Clone, Copy)]
struct Moved {
    time_us: u64,
    choice: usize,
    clock_us: Option<u64>,
}

impl MoveTimes {
    /// Notes that the move recorded as event `at` was choice `choice`, made
    /// in `time_us` microseconds, leaving `clock_us` on the mover's clock
    /// (under a clock).
    pub fn note(&mut self, at: usize, time_us: u64, choice: usize, clock_us: Option<u64>) {
        self.0.resize(at, None);
        self.0.push(Some(Moved { time_us, choice, clock_us }));
    }

    /// Every event as a run writes it, with its time, choice and clock when it was a move.
    pub fn entries(self, events: Vec<Raw>) -> Vec<Entry> {
        self.attach(events)
            .into_iter()
            .map(|t| Entry { event: t.event, time_us: t.time_us, choice: t.choice, clock_us: t.clock_us })
            .collect()
    }

    /// Every event, with its time, choice and clock when it was a move.
    pub fn attach<E>(mut self, events: Vec<E>) -> Vec<Timed<E>> {
        self.0.resize(events.len(), None);
        events
            .into_iter()
            .zip(self.0)
            .map(|(event, moved)| Timed {
                event,
                time_us: moved.map(|moved| moved.time_us),
                choice: moved.map(|moved| moved.choice),
                clock_us: moved.and_then(|moved| moved.clock_us),
            })
            .collect()
    }
}
