//! The boundary between the arena and a game engine.
//!
//! The arena core (processes, matches, schedules, records, standings) knows a
//! game only through [`Game`]. An engine is pure and deterministic: the same
//! variant and seed give the same game on every platform, and nothing in it
//! does I/O. Moves are numbered by their index in the list of legal moves, so
//! the core never needs to understand them.
//!
//! Beside the trait, the kit every engine shares:
//! - [`draw`]: the seeded draw (a documented ChaCha8 generator and shuffle)
//!   engines deal from, so another program can reproduce every deal;
//! - [`fuzz_input`]: arbitrary bytes read as a game's choices, for each
//!   engine's `invariants` (shared by the fuzz targets and the tests);
//! - [`html`]: helpers for the self-contained replay page of a game.
#![deny(missing_docs)]

pub mod draw;
pub mod fuzz_input;
pub mod html;

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::borrow::Cow;
use std::fmt::Debug;

/// One variant setting a game accepts, for `arena rules` and error messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantOption {
    /// The key, as given to `--variant KEY=VALUE`.
    pub key: &'static str,
    /// The values it takes, e.g. `"2, 3 or 4"` or `"standard | five | seven-five"`.
    pub values: &'static str,
    /// The default, in words (it may depend on other settings).
    pub default: &'static str,
    /// What it means.
    pub help: &'static str,
}

/// How the standings read a game's final scores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scoring {
    /// What a score counts, in the plural (`"points"`, `"chips"`), for the
    /// standings' per-game means.
    pub unit: Cow<'static, str>,
    /// Whether the bots are ranked by their mean final score per game
    /// (for a game whose score is a payoff, where winning chips matters and
    /// winning often does not) rather than by Elo from pairwise results.
    pub rank_by_mean: bool,
}

impl Scoring {
    /// Points, the bots ranked by Elo.
    pub const POINTS: Scoring = Scoring::new("points", false);

    /// Scores that count `unit`, the bots ranked by their mean score when `rank_by_mean`.
    pub const fn new(unit: &'static str, rank_by_mean: bool) -> Scoring {
        Scoring { unit: Cow::Borrowed(unit), rank_by_mean }
    }
}

/// A variant setting that could not be accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantError(pub String);

impl std::fmt::Display for VariantError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for VariantError {}

/// How a finished game came out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Why it ended, in the game's words (e.g. `"target"`).
    pub reason: &'static str,
    /// Each seat's finishing place, 0 for first; partners and equal scores share a place.
    pub ranks: Vec<u32>,
}

/// A move index that is not in the list of legal moves, or a game that is over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMove {
    /// The index that was refused.
    pub index: usize,
    /// How many legal moves there were.
    pub legal: usize,
}

/// A position for `arena check-bot`: a game set up so that a seat must
/// move, and what a correct bot does there.
pub struct Position<G: Game> {
    /// A short name for the checklist, e.g. `"spinner-sides"`.
    pub name: &'static str,
    /// What a correct bot must do, in a sentence.
    pub expect: &'static str,
    /// The variant in force.
    pub variant: G::Variant,
    /// The game, with a seat to act.
    pub game: G,
}

/// A turn-based game with hidden information, as the arena sees it.
///
/// A game is created from its variant and a seed, then driven by the arena:
/// while [`Game::to_act`] names a seat, that seat is asked to choose one of
/// [`Game::choices`] and the choice is applied with [`Game::play`]. Everything
/// that happens is appended to the full-information record, whose events are
/// numbered from 0 in order: [`Game::event_count`] says how many there are and
/// [`Game::events_since`] hands out the ones the caller has not seen yet.
/// [`Game::view`] says what one seat is told of an event.
///
/// The record is read by value, not borrowed, so that an engine may keep it
/// in whatever compact form suits fast play and build its `Event`s only when
/// asked.
pub trait Game: Sized + Send + Sync + 'static {
    /// The game's name on the command line and in records, e.g. `"all-fives"`.
    const NAME: &'static str;
    /// How the standings read a seat's final score (by default, points of a
    /// race won by finishing first, the bots ranked by Elo).
    const SCORING: Scoring = Scoring::POINTS;
    /// Every variant setting, resolved (defaults filled in).
    type Variant: Serialize + DeserializeOwned + Clone + Debug + Send + Sync + 'static;
    /// A move as a bot names it by value.
    type Move: DeserializeOwned + Debug + Send;
    /// A legal move as listed to the bot.
    type Choice: Serialize + Send;
    /// What the seat to act observes.
    type State: Serialize + Send;
    /// An event with full information, as kept in the game record.
    type Event: Serialize + DeserializeOwned + Clone + PartialEq + Debug + Send;
    /// An event as one seat is told it.
    type View: Serialize + Send;
    /// A game's starting material given in advance instead of drawn from a
    /// seed (for All Fives, the deal of every hand), as read from a file by
    /// `arena match --deals`.
    type Setup: Serialize + DeserializeOwned + Clone + Debug + Send + Sync + 'static;

    /// The settings the game accepts, for `arena rules`.
    fn variant_options() -> Vec<VariantOption>;

    /// Resolves `KEY=VALUE` settings (later ones win) into a full variant.
    fn parse_variant(settings: &[(String, String)]) -> Result<Self::Variant, VariantError>;

    /// Checks a variant read from elsewhere (a record), which
    /// [`Game::new`] may refuse to play.
    fn check_variant(variant: &Self::Variant) -> Result<(), VariantError>;

    /// The number of seats at the table.
    fn seats(variant: &Self::Variant) -> usize;

    /// The sides: each inner list holds the seats that score together.
    fn teams(variant: &Self::Variant) -> Vec<Vec<usize>>;

    /// Sets up a new game from a seed.
    fn new(variant: &Self::Variant, seed: u64) -> Self;

    /// Sets up a game from a given setup instead of a seed, or says why the
    /// setup cannot be played with this variant.
    fn from_setup(variant: &Self::Variant, setup: &Self::Setup) -> Result<Self, String>;

    /// The setup a recorded game was played from, read off its events (so a
    /// game set up either way can be replayed with [`Game::from_setup`]).
    fn recorded_setup(events: &[Self::Event]) -> Self::Setup;

    /// The seat and the move, when a recorded event is a decision (the first
    /// event a [`Game::play`] appends); `None` for every other event.
    fn decision(event: &Self::Event) -> Option<(usize, Self::Move)>;

    /// The seat that must choose a move now, or `None` when the game is over.
    fn to_act(&self) -> Option<usize>;

    /// The legal moves of the seat to act, in a fixed order. Empty when the game is over.
    fn choices(&self) -> Vec<Self::Choice>;

    /// The index in [`Game::choices`] of a move named by value, if it is legal.
    fn find_move(&self, named: &Self::Move) -> Option<usize>;

    /// Why a move named by value is not legal now, in words a bot author
    /// can act on (added to the fault's message), when [`Game::find_move`]
    /// finds it in none of the legal moves. By default nothing is added.
    fn why_illegal(&self, named: &Self::Move) -> Option<String> {
        let _ = named;
        None
    }

    /// Plays the legal move with this index for the seat to act, and anything
    /// that follows without a decision (forced draws, passes, the end of a hand).
    /// The first event it appends is the move itself (the arena attaches the
    /// bot's thinking time to it).
    fn play(&mut self, index: usize) -> Result<(), IllegalMove>;

    /// What `seat` observes now.
    fn state(&self, seat: usize) -> Self::State;

    /// How many events the record holds so far.
    fn event_count(&self) -> usize;

    /// The events from number `start` on, in order (empty when `start` is
    /// [`Game::event_count`] or more). The arena delivers a game's events by
    /// asking for those since the last ones it delivered.
    fn events_since(&self, start: usize) -> Vec<Self::Event>;

    /// Every event so far, in order.
    fn events(&self) -> Vec<Self::Event> {
        self.events_since(0)
    }

    /// What `seat` is told of `event`; `None` when it is told nothing.
    fn view(&self, event: &Self::Event, seat: usize) -> Option<Self::View>;

    /// Each seat's score now.
    fn scores(&self) -> Vec<i64>;

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Each seat's final score when the seats in `faulted` forfeit the game
    /// now (they are ranked last whatever it says). By default, the scores
    /// as they stand ([`Game::scores`]); a game whose scores are settled only
    /// at its end (a payoff game) says here what a forfeit costs, so that a
    /// fault never pays better than playing on.
    fn forfeit_scores(&self, faulted: &[usize]) -> Vec<i64> {
        let _ = faulted;
        self.scores()
    }

    /// What only `seat` may know now, in the form it takes in the game's
    /// states and views (a card as `"Kh"`), for `arena check-engine`'s
    /// hidden-information check (see `engines/ENGINES.md`): no other seat's
    /// state or views may contain it. `None` (the default) when the engine
    /// does not say, and the check cannot run.
    fn private(&self, seat: usize) -> Option<Vec<serde_json::Value>> {
        let _ = seat;
        None
    }

    /// Positions where bots commonly go wrong, for `arena check-bot` (none by default).
    fn conformance_positions() -> Vec<Position<Self>> {
        Vec::new()
    }

    /// The variants `arena check-bot` plays whole games of, each with a short
    /// name; at least one (by default, only the default variant). The first
    /// is also the variant of the checks that play no position.
    fn conformance_tables() -> Vec<(&'static str, Self::Variant)> {
        vec![("default", Self::parse_variant(&[]).expect("a game accepts its default settings"))]
    }

    /// What `seat` sees now that it is to act, as text for a person who
    /// plays it in a terminal (`arena play`): the position as far as the
    /// seat may know it, then its legal moves numbered from 1, in the order
    /// of [`Game::choices`] (so that move `n` is `choices()[n - 1]`).
    /// `names` names each seat. Never shows what the seat may not see.
    ///
    /// By default: the seat's [`Game::state`] and its moves, as JSON.
    fn text_turn(&self, seat: usize, names: &[String]) -> String {
        let _ = names;
        let mut text = format!("{}\n", serde_json::to_string(&self.state(seat)).expect("states serialize"));
        for (number, choice) in self.choices().iter().enumerate() {
            let choice = serde_json::to_string(choice).expect("choices serialize");
            text.push_str(&format!("  {}. {choice}\n", number + 1));
        }
        text
    }

    /// One event as `seat` is told it (a [`Game::view`]), as a line of text
    /// for a person who plays that seat in a terminal (`arena play`).
    /// `names` names each seat.
    ///
    /// By default: the view as JSON.
    fn text_view(view: &Self::View, seat: usize, names: &[String]) -> String {
        let _ = (seat, names);
        serde_json::to_string(view).expect("views serialize")
    }

    /// A self-contained HTML page that replays one finished game: everything
    /// inline (styles, scripts, drawings), nothing loaded from the network.
    /// `record_json` is the game's line of `games.jsonl`, already checked to
    /// be a record of this game; embed it with [`crate::html::json_script`].
    fn html_page(record_json: &str) -> String;
}
