//! A learning or Swiss league played round by round, each round chosen
//! from the games before it.

use super::play::play;
use super::rounds::{next_round, round_finished, stop_note};
use super::{LeagueRequest, Prepared, taking_changes};
use crate::bot::signals;
use crate::league::learning::Next;
use crate::session::exit::Failure;
use crate::store::output;
use crate::terminal::console::outln;
use std::path::Path;

/// Runs a learning or Swiss league (see [`crate::league::learning`],
/// [`crate::league::swiss`]) round after round: each
/// round is chosen from the results of those before it, written to
/// `league.json` and played as a resumed league plays, until the chooser
/// stops; then the standings follow. A league resumed in the middle of a
/// round finishes it first; one whose field changed while it ran takes the
/// change in and goes on.
pub(super) fn learn(mut prepared: Prepared, args: &LeagueRequest, cwd: &Path) -> Result<i32, Failure> {
    loop {
        let config = &prepared.config;
        let stop = match round_finished(config, &prepared.played)? {
            false => None,
            true => match next_round(config, &prepared.played)? {
                Next::Round(pairs) => {
                    prepared.config.rounds.push(pairs);
                    prepared.chose = true;
                    None
                }
                stop => Some(stop),
            },
        };
        let config = prepared.config.clone();
        let played = play(prepared, stop.is_none(), args.fail_on_fault)?;
        if let Some(dir) = played.changing {
            prepared = taking_changes(&dir, args, cwd, played.reports, played.earlier)?;
            continue;
        }
        if let Some(stop) = stop {
            if !played.interrupted {
                let _ = outln!("{}", stop_note(&config, &stop, played.games.len() as u64));
            }
            return Ok(played.ended());
        }
        if played.interrupted || signals::stopped() {
            return Ok(played.status);
        }
        let (out, games) = match &played.config.out {
            Some(dir) => {
                let (out, games) = output::resume(dir)?;
                (Some(out), games)
            }
            None => (None, played.games),
        };
        prepared = Prepared {
            changes: played.config.history.len(),
            config: played.config,
            out,
            played: games,
            fresh: false,
            taken: Vec::new(),
            chose: false,
            reports: played.reports,
            earlier: played.earlier,
        };
    }
}
