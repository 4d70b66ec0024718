//! The games in flight, for a run served while it runs (`--serve`): each
//! game's seats and how many events it has, kept from its start to its end,
//! and the events themselves, as the engine wrote them, only of a game a
//! page follows ([`Flights::follow`]): a run at thousands of games a second
//! copies no move that nobody watches. Nothing is kept unless [`watch`] was
//! called: a run that is not served pays one check of a cell per move.
//! What is kept is never a record: the records are written as ever.
//!
//! The games just recorded are handed over too ([`Flights::recorded`]):
//! the server of the same process lists them from their summaries, made
//! by the run, instead of reading each line back from `games.jsonl` and
//! parsing it again ([`Flights::take_recorded`]). And so are the run's own
//! standings and SPRT, which the server does not count again: each time it
//! asks ([`Flights::ask`], a few times a second), the run hands over a copy
//! as its next game is counted ([`Flights::counted`], [`Flights::tested`]).

use crate::bot::registry::Registry;
use crate::stats::sprt::DealSequence;
use crate::stats::standings::Standings;
use crate::store::record::GameSummary;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

/// The games in flight of this process's run, once [`watch`]ed.
static FLIGHTS: OnceLock<Arc<Flights>> = OnceLock::new();

/// Starts keeping the games in flight of this process (for `--serve`);
/// returns what is kept.
pub fn watch() -> Arc<Flights> {
    Arc::clone(FLIGHTS.get_or_init(Arc::default))
}

/// The games in flight, if they are [`watch`]ed.
pub fn watched() -> Option<&'static Arc<Flights>> {
    FLIGHTS.get()
}

/// One game in flight.
#[derive(Debug, Clone, Default)]
pub struct Flight {
    /// Its game's name, and whether an engine program plays it.
    pub game: (String, bool),
    /// Its deal, arrangement and seed, as its record will say.
    pub origin: (u64, usize, u64),
    /// The bot in each seat.
    pub bots: Vec<String>,
    /// The variant in force.
    pub variant: String,
    /// How many events it has had.
    pub count: usize,
    /// Each event so far, as JSON, once it is followed.
    pub events: Vec<String>,
    /// Whether a page follows it.
    pub followed: bool,
}

/// The games in flight, by id.
#[derive(Debug, Default)]
pub struct Flights {
    games: Mutex<BTreeMap<u64, Flight>>,
    /// The run's processes, once it runs: a process the live page starts
    /// (an engine program drawing a page) is recorded there, so that the
    /// run's sweeps leave it alone.
    registry: Mutex<Option<Registry>>,
    /// The games recorded since the server last took them.
    recorded: Mutex<Recorded>,
    /// The run's standings, when the server asks for them.
    standings: Asked<Standings>,
    /// An SPRT's test, when the server asks for it.
    test: Asked<DealSequence>,
}

/// A copy of something the run keeps, made only when the server has asked
/// for one since the last: a run that is not served, or served with no
/// page open for long, copies it a few times a second at most.
#[derive(Debug)]
struct Asked<T> {
    asked: AtomicBool,
    made: Mutex<Option<T>>,
}

impl<T> Default for Asked<T> {
    /// Asked for from the start: the first value offered is kept.
    fn default() -> Asked<T> {
        Asked { asked: AtomicBool::new(true), made: Mutex::new(None) }
    }
}

impl<T: Clone> Asked<T> {
    fn ask(&self) {
        self.asked.store(true, Ordering::Relaxed);
    }

    /// Copies `value` if it was asked for.
    fn offer(&self, value: &T) {
        if self.asked.load(Ordering::Relaxed) && self.asked.swap(false, Ordering::Relaxed) {
            *self.made.lock().unwrap_or_else(PoisonError::into_inner) = Some(value.clone());
        }
    }

    /// The copy made since the last call, if any.
    fn take(&self) -> Option<T> {
        self.made.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

/// A game recorded: its summary, and where its line is in `games.jsonl`
/// (byte offset, length without the newline).
pub type RecordedGame = (GameSummary, (u64, usize));

/// The games recorded and not yet taken: every line of `games.jsonl` from
/// byte `from` on is handed over, once the run says where its lines begin.
/// Once more than [`UNTAKEN`] wait (the server has stopped taking them),
/// none is kept any more.
#[derive(Debug, Default)]
struct Recorded {
    from: Option<u64>,
    games: Vec<RecordedGame>,
    dropped: bool,
}

/// How many recorded games wait for the server at most: it takes them every
/// few hundred milliseconds, so only a server that stopped lets them pile up.
const UNTAKEN: usize = 1 << 16;

impl Flights {
    /// Game `id` of `game` (its name, and whether an engine program plays
    /// it) and `origin` (deal, arrangement, seed) began, with `bots` in its seats.
    pub fn begin(
        &self,
        id: u64,
        game: (String, bool),
        origin: (u64, usize, u64),
        bots: &[String],
        variant: &serde_json::Value,
    ) {
        let flight = Flight {
            game,
            origin,
            bots: bots.to_vec(),
            variant: variant.to_string(),
            count: 0,
            events: Vec::new(),
            followed: false,
        };
        self.lock().insert(id, flight);
    }

    /// Game `id`'s events are now `events`: counted, and copied (those not
    /// copied before) if the game is followed.
    pub fn moved<'e>(&self, id: u64, events: impl ExactSizeIterator<Item = &'e str>) {
        if let Some(flight) = self.lock().get_mut(&id) {
            flight.count = events.len();
            if flight.followed {
                let had = flight.events.len();
                flight.events.extend(events.skip(had).map(str::to_string));
            }
        }
    }

    /// A page follows game `id`: its events are kept from its next move on
    /// (all of them, from its first). Whether it is in flight.
    pub fn follow(&self, id: u64) -> bool {
        self.lock().get_mut(&id).map(|flight| flight.followed = true).is_some()
    }

    /// Game `id` is over (recorded, or not played).
    pub fn end(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// Each game in flight: its id, bots and number of events.
    pub fn list(&self) -> Vec<(u64, Vec<String>, usize)> {
        self.lock().iter().map(|(&id, flight)| (id, flight.bots.clone(), flight.count)).collect()
    }

    /// Game `id` as it stands, if it is in flight.
    pub fn get(&self, id: u64) -> Option<Flight> {
        self.lock().get(&id).cloned()
    }

    /// The run records its processes in `registry` (a league's round, in
    /// a registry of its own).
    pub fn run_in(&self, registry: &Registry) {
        *self.registry.lock().unwrap_or_else(PoisonError::into_inner) = Some(registry.clone());
    }

    /// Where the run records its processes, once it runs.
    pub fn registry(&self) -> Option<Registry> {
        self.registry.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// The run hands over every game it records from now on, whose lines
    /// begin at byte `from` of `games.jsonl` (the lines before are those
    /// of the games played before it).
    pub fn records_from(&self, from: u64) {
        let mut recorded = self.handed();
        recorded.from = Some(recorded.from.map_or(from, |was| was.min(from)));
    }

    /// Games were recorded, each with where its line is in `games.jsonl`.
    pub fn recorded(&self, games: impl Iterator<Item = RecordedGame>) {
        let mut recorded = self.handed();
        if recorded.dropped {
            return;
        }
        recorded.games.extend(games);
        if recorded.games.len() > UNTAKEN {
            *recorded = Recorded { from: None, games: Vec::new(), dropped: true };
        }
    }

    /// The games recorded since the last call, in the order they were
    /// written, and where the lines handed over begin; `None` while the run
    /// hands over nothing (it has not begun, or its games waited too long),
    /// when the records are read from `games.jsonl`.
    pub fn take_recorded(&self) -> Option<(u64, Vec<RecordedGame>)> {
        let mut recorded = self.handed();
        let from = recorded.from.filter(|_| !recorded.dropped)?;
        Some((from, std::mem::take(&mut recorded.games)))
    }

    /// The server asks for the run's standings and test: the run hands
    /// over a copy of each as it next counts a game.
    pub fn ask(&self) {
        self.standings.ask();
        self.test.ask();
    }

    /// The run's standings are now `standings`: a copy is kept if asked for.
    pub fn counted(&self, standings: &Standings) {
        self.standings.offer(standings);
    }

    /// An SPRT's test is now `sequence`: a copy is kept if asked for.
    pub fn tested(&self, sequence: &DealSequence) {
        self.test.offer(sequence);
    }

    /// The run's standings and test handed over since the last call (each
    /// `None` if it was not).
    pub fn take_counted(&self) -> (Option<Standings>, Option<DealSequence>) {
        (self.standings.take(), self.test.take())
    }

    fn handed(&self) -> MutexGuard<'_, Recorded> {
        self.recorded.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn lock(&self) -> MutexGuard<'_, BTreeMap<u64, Flight>> {
        // A panic elsewhere leaves the map whole: every change is one call.
        self.games.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_kept_from_its_start_to_its_end_with_each_event_once() {
        let flights = Flights::default();
        flights.begin(7, ("g".into(), false), (3, 1, 9), &["a".into(), "b".into()], &serde_json::json!({"x": 1}));
        flights.moved(7, ["{\"e\":0}"].into_iter());
        assert_eq!(flights.list(), [(7, vec!["a".to_string(), "b".to_string()], 1)]);
        assert!(flights.get(7).unwrap().events.is_empty(), "nobody follows it: nothing is copied");
        assert!(flights.follow(7) && !flights.follow(8));
        flights.moved(7, ["{\"e\":0}", "{\"e\":1}"].into_iter());
        flights.moved(7, ["{\"e\":0}", "{\"e\":1}", "{\"e\":2}"].into_iter());
        flights.moved(8, ["{}"].into_iter());
        assert_eq!(flights.list(), [(7, vec!["a".to_string(), "b".to_string()], 3)]);
        let game = flights.get(7).unwrap();
        assert_eq!(game.events, ["{\"e\":0}", "{\"e\":1}", "{\"e\":2}"], "each once, from the first");
        assert_eq!((game.variant.as_str(), game.origin), ("{\"x\":1}", (3, 1, 9)));
        flights.end(7);
        assert!(flights.list().is_empty() && flights.get(7).is_none());
    }

    #[test]
    fn the_run_copies_its_standings_only_when_asked_and_once_an_ask() {
        let flights = Flights::default();
        let names = ["a".to_string(), "b".to_string()];
        let standings = Standings::new(&names, crate::engine::spec::Engine::built_in("leduc").unwrap().scoring());
        let mut later = standings.clone();
        later.games = 1;
        flights.counted(&standings);
        flights.counted(&later);
        assert_eq!(flights.take_counted().0.as_ref(), Some(&standings), "the first, asked for from the start");
        flights.counted(&later);
        assert!(flights.take_counted().0.is_none(), "not asked again: nothing copied");
        flights.ask();
        flights.counted(&later);
        flights.counted(&standings);
        assert_eq!(flights.take_counted().0, Some(later), "the first after the ask");
        assert!(flights.take_counted().0.is_none(), "taken once");
    }
}
