//! `arena verify`: re-plays every recorded game through the engine and
//! reports every disagreement.

use super::record_file::{self, Line};
use super::{Failure, unwritten};
use crate::console::outln;
use crate::games::{GameCommand, dispatch};
use crate::play::Record;
use crate::verify::{self, Disagreement};
use clap::Args;
use game::Game;
use std::path::PathBuf;

/// The flags of `arena verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Record files (games.jsonl), or output directories holding one.
    #[arg(required = true, value_name = "GAMES")]
    files: Vec<PathBuf>,
}

/// Runs `arena verify`: exit status 0 when every record agrees with the
/// engine, 1 when any does not (or a line is not a record).
pub fn run(args: VerifyArgs) -> Result<i32, Failure> {
    let mut failing = 0;
    for given in &args.files {
        let path = record_file::resolve(given);
        let (mut games, mut bad_games, mut disagreements) = (0, 0, 0);
        for line in record_file::lines(&path)? {
            let line = line?;
            games += 1;
            let found = check_line(&line);
            if found.is_empty() {
                continue;
            }
            bad_games += 1;
            disagreements += found.len();
            let game = line.header.as_ref().map_or_else(|_| String::new(), |h| format!(" game {},", h.id));
            for disagreement in found {
                let event = disagreement.event.map_or_else(String::new, |at| format!(" event {at}:"));
                let message = crate::untrusted::escape(&disagreement.message);
                outln!("{}:{}:{game}{event} {message}", path.display(), line.number).map_err(unwritten)?;
            }
        }
        if bad_games == 0 {
            outln!("{}: {games} games verified: every record agrees with the engine", path.display())
                .map_err(unwritten)?;
        } else {
            outln!(
                "{}: {games} games verified: {bad_games} disagree with the engine ({disagreements} disagreements)",
                path.display()
            )
            .map_err(unwritten)?;
        }
        failing += bad_games;
    }
    Ok(if failing == 0 { 0 } else { 1 })
}

/// The disagreements of one line of a records file.
fn check_line(line: &Line) -> Vec<Disagreement> {
    let whole = |message: String| vec![Disagreement { event: None, message }];
    match &line.header {
        Err(e) => whole(e.clone()),
        Ok(header) => dispatch(&header.game, CheckRecord(&line.text)).unwrap_or_else(whole),
    }
}

/// Checks one record of game `G`, given as its JSON text.
struct CheckRecord<'a>(&'a str);

impl GameCommand for CheckRecord<'_> {
    type Output = Vec<Disagreement>;
    fn run<G: Game>(self) -> Vec<Disagreement> {
        match serde_json::from_str::<Record<G>>(self.0) {
            Ok(record) => verify::check::<G>(&record),
            Err(e) => vec![Disagreement { event: None, message: format!("not a {} record: {e}", G::NAME) }],
        }
    }
}
