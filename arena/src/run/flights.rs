//! The games in flight, for a run served while it runs (`--serve`): each
//! game's seats and how many events it has, kept from its start to its end,
//! and the events themselves, as the engine wrote them, only of a game a
//! page follows ([`Flights::follow`]): a run at thousands of games a second
//! copies no move that nobody watches. Nothing is kept unless [`watch`] was
//! called: a run that is not served pays one check of a cell per move.
//! What is kept is never a record: the records are written as ever.

use crate::bot::registry::Registry;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

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
}

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
        *self.registry.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(registry.clone());
    }

    /// Where the run records its processes, once it runs.
    pub fn registry(&self) -> Option<Registry> {
        self.registry.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Flight>> {
        // A panic elsewhere leaves the map whole: every change is one call.
        self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
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
}
