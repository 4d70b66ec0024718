//! A built-in game's record read with the game's types, so that it replays
//! through the engine protocol like any other: the game set up again as the
//! record says (a built-in game's setup is read off its events), and each
//! recorded move found among the legal moves (records of earlier versions
//! hold no choices). Pure.

use game::{Game, VariantError};
use serde_json::Value;
use serde_json::value::RawValue;
use std::fmt;

/// The parts of a record a built-in game reads.
#[derive(Debug, Clone, Copy)]
pub struct Recorded<'a> {
    /// Every variant setting in force.
    pub variant: &'a Value,
    /// The seed the game was set up from (unless `preset`).
    pub seed: u64,
    /// Whether the game was set up in advance (its setup is then read off its events).
    pub preset: bool,
    /// How many bots the record names.
    pub bots: usize,
    /// How many bot seeds it holds.
    pub bot_seeds: usize,
}

/// A record made ready for a replay through the engine protocol.
#[derive(Debug, Clone, PartialEq)]
pub struct Annotation {
    /// The game's setup, when it was set up in advance.
    pub setup: Option<Value>,
    /// The sides of the recorded variant.
    pub teams: Vec<Vec<usize>>,
    /// The choice of each recorded move, by event index, up to the end of
    /// the game or of the record, or to the first move that cannot be read.
    pub choices: Vec<(usize, usize)>,
    /// Why the moves from that one on cannot be read, if they cannot.
    pub misread: Option<Misread>,
}

/// Why a record cannot be replayed: at one of its events, or as a whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Misread {
    /// The event, when it is about one.
    pub event: Option<usize>,
    /// Why.
    pub error: VerifyError,
}

/// Why a record's game cannot be set up again, or its decision at an event
/// cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VerifyError {
    /// The variant or an event is not one of this game's.
    Unreadable {
        /// What cannot be read ("variant", "event").
        what: &'static str,
        /// The game's name.
        game: &'static str,
        /// Why.
        error: String,
    },
    /// The game does not play the recorded variant.
    Variant(VariantError),
    /// The record of an engine program's game names no engine.
    NoEngine,
    /// The record names another number of bots or bot seeds than the variant has seats.
    Seats {
        /// The variant's seats.
        seats: usize,
        /// The bots the record names.
        bots: usize,
        /// The bot seeds it holds.
        bot_seeds: usize,
    },
    /// The game cannot be set up from the recorded deals.
    Deals {
        /// The game's reason.
        error: String,
    },
    /// A seat must move, but the record's event is no decision.
    NoDecision {
        /// The seat to move.
        seat: usize,
        /// The recorded event, as JSON.
        event: String,
    },
    /// The record has another seat move.
    OtherSeat {
        /// The seat that moves in the record.
        mover: usize,
        /// The seat to move.
        seat: usize,
    },
    /// The recorded move is not legal.
    Illegal {
        /// The seat to move.
        seat: usize,
        /// The recorded event, as JSON.
        event: String,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Unreadable { what, game, error } => write!(f, "not a {game} {what}: {error}"),
            VerifyError::NoEngine => f.write_str("the record names no engine program"),
            VerifyError::Variant(error) => write!(f, "the variant cannot be played: {error}"),
            VerifyError::Seats { seats, bots, bot_seeds } => {
                write!(f, "the variant has {seats} seats, but the record names {bots} bots and {bot_seeds} bot seeds")
            }
            VerifyError::Deals { error } => write!(f, "the recorded deals cannot be played: {error}"),
            VerifyError::NoDecision { seat, event } => {
                write!(f, "seat {seat} must move here, but the record has {event}")
            }
            VerifyError::OtherSeat { mover, seat } => {
                write!(f, "the record has seat {mover} move, but it is seat {seat}'s turn")
            }
            VerifyError::Illegal { seat, event } => write!(f, "seat {seat} cannot play {event} here"),
        }
    }
}

impl std::error::Error for VerifyError {}

/// A misreading of the record as a whole.
fn whole(error: VerifyError) -> Misread {
    Misread { event: None, error }
}

/// `what` cannot be read as game `G`'s.
fn unreadable<G: Game>(what: &'static str, error: serde_json::Error) -> VerifyError {
    VerifyError::Unreadable { what, game: G::NAME, error: error.to_string() }
}

/// The record's variant and events read as game `G`'s.
fn typed<G: Game>(recorded: &Recorded<'_>, events: &[&Value]) -> Result<(G::Variant, Vec<G::Event>), Misread> {
    let variant: G::Variant =
        serde_json::from_value(recorded.variant.clone()).map_err(|e| whole(unreadable::<G>("variant", e)))?;
    let events = events
        .iter()
        .enumerate()
        .map(|(at, &event)| {
            serde_json::from_value(event.clone())
                .map_err(|e| Misread { event: Some(at), error: unreadable::<G>("event", e) })
        })
        .collect::<Result<Vec<G::Event>, Misread>>()?;
    Ok((variant, events))
}

/// The sides of a game of `G` of the variant `variant` (as records and
/// `league.json` store it).
///
/// # Errors
/// When it is not a variant `G` plays.
pub fn teams<G: Game>(variant: &Value) -> Result<Vec<Vec<usize>>, VerifyError> {
    let variant: G::Variant = serde_json::from_value(variant.clone()).map_err(|e| unreadable::<G>("variant", e))?;
    G::check_variant(&variant).map_err(VerifyError::Variant)?;
    Ok(G::teams(&variant))
}

/// Checks that the record's variant and events are game `G`'s.
///
/// # Errors
/// When one is not, naming it.
pub fn reads<G: Game>(recorded: &Recorded<'_>, events: &[&Value]) -> Result<(), Misread> {
    typed::<G>(recorded, events).map(|_| ())
}

/// The game set up again as its record says it was: from the recorded deals
/// (`events`) when it was set up in advance, else from its seed; and its setup then.
fn set_up<G: Game>(
    recorded: &Recorded<'_>,
    variant: &G::Variant,
    events: &[G::Event],
) -> Result<(G, Option<G::Setup>), Misread> {
    G::check_variant(variant).map_err(|e| whole(VerifyError::Variant(e)))?;
    let seats = G::seats(variant);
    if recorded.bots != seats || recorded.bot_seeds != seats {
        return Err(whole(VerifyError::Seats { seats, bots: recorded.bots, bot_seeds: recorded.bot_seeds }));
    }
    if recorded.preset {
        let setup = G::recorded_setup(events);
        let game = G::from_setup(variant, &setup).map_err(|error| whole(VerifyError::Deals { error }))?;
        Ok((game, Some(setup)))
    } else {
        Ok((G::new(variant, recorded.seed), None))
    }
}

/// The recorded decision `event`, the next event of `game`, as the index
/// of the move among its legal moves.
fn recorded_move<G: Game>(game: &G, event: &G::Event) -> Result<usize, VerifyError> {
    let seat = game.to_act().expect("the game awaits a move");
    let json = || serde_json::to_value(event).expect("events serialize").to_string();
    let Some((mover, named)) = G::decision(event) else {
        return Err(VerifyError::NoDecision { seat, event: json() });
    };
    if mover != seat {
        return Err(VerifyError::OtherSeat { mover, seat });
    }
    game.find_move(&named).ok_or_else(|| VerifyError::Illegal { seat, event: json() })
}

/// The record of a game of `G` (its parts, and its events' JSON objects)
/// made ready for a replay through the engine protocol.
///
/// # Errors
/// When the game cannot be set up again as the record says; a move that
/// cannot be read is not an error, but where the annotation stops.
pub fn annotate<G: Game>(recorded: &Recorded<'_>, events: &[&Value]) -> Result<Annotation, Misread> {
    let (variant, typed_events) = match typed::<G>(recorded, events) {
        Ok(typed) => typed,
        // Without its events, a game set up in advance cannot be set up again.
        Err(misread) if misread.event.is_none() || recorded.preset => return Err(misread),
        Err(misread) => {
            let teams = teams::<G>(recorded.variant).map_err(whole)?;
            return Ok(Annotation { setup: None, teams, choices: Vec::new(), misread: Some(misread) });
        }
    };
    annotate_typed::<G>(recorded, &variant, &typed_events)
}

/// [`annotate`] for a record's events as their text (each as the record
/// holds it, its move's time and choice spliced in), read straight into
/// `G`'s types; `None` when the variant or an event cannot be read so
/// ([`annotate`] then says why).
pub fn annotate_text<G: Game>(recorded: &Recorded<'_>, events: &[&RawValue]) -> Option<Result<Annotation, Misread>> {
    let variant: G::Variant = serde_json::from_value(recorded.variant.clone()).ok()?;
    let typed_events =
        events.iter().map(|event| serde_json::from_str(event.get()).ok()).collect::<Option<Vec<G::Event>>>()?;
    Some(annotate_typed::<G>(recorded, &variant, &typed_events))
}

/// [`annotate`] once the variant and the events are read as `G`'s.
fn annotate_typed<G: Game>(
    recorded: &Recorded<'_>,
    variant: &G::Variant,
    typed_events: &[G::Event],
) -> Result<Annotation, Misread> {
    let (mut game, setup) = set_up::<G>(recorded, variant, typed_events)?;
    let setup = setup.map(|setup| serde_json::to_value(setup).expect("setups serialize"));
    let mut choices = Vec::new();
    let mut misread = None;
    while game.to_act().is_some() && game.event_count() < typed_events.len() {
        let at = game.event_count();
        match recorded_move(&game, &typed_events[at]) {
            Ok(index) => {
                choices.push((at, index));
                game.play(index).expect("a recorded move the game found is legal");
            }
            Err(error) => {
                misread = Some(Misread { event: Some(at), error });
                break;
            }
        }
    }
    Ok(Annotation { setup, teams: G::teams(variant), choices, misread })
}
