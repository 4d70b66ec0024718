//! A replay as the library runs it (`arena replay` parses its flags and
//! calls [`run`]): a bot fed recorded games from one seat's point of view,
//! every decision where it now chooses differently listed, each with the
//! command that opens its position in `arena view`, then summed up: by the
//! kind of the recorded move and by what the chosen move scores at once
//! against the recorded one. The games are replayed several at a time
//! (`--jobs`), and listed in the file's order whatever the number; each
//! replay at once keeps the bot's processes from game to game (see
//! [`Kept`](crate::check::replay::Kept)).
//!
//! - [`mod@request`]: what is asked, and the replay run from it;
//! - [`engines`]: the engines the games run through, and the bot's processes kept;
//! - [`order`]: the records replayed several at a time, taken in the file's order;
//! - [`record`]: one record replayed in each seat the bot takes;
//! - [`tally`]: the differences listed and counted, and the summary.

mod engines;
mod order;
mod record;
mod request;
mod tally;

pub use request::{ReplayRequest, run};
