//! What `arena report` asks, and what the directory it names holds: a
//! match's, a league's or an SPRT's games, and of which game.

use super::job::{GameOf, Job, Setup};
use super::write::write_report;
use crate::engine::spec::Engine;
use crate::session::exit::{Failure, usage};
use crate::store::output::{GAMES, LEAGUE, SPRT_CONFIG};
use crate::store::record_file::{self, Header};
use std::path::{Path, PathBuf};

/// What `arena report` asks of a report.
#[derive(Debug)]
pub struct ReportRequest {
    /// The output directory reported on.
    pub dir: PathBuf,
    /// `-o FILE`: where to write the page (default: `DIR/report.html`).
    pub output: Option<PathBuf>,
    /// `--replays`: how many games get a replay, at most.
    pub replays: usize,
}

/// Runs `arena report`.
pub fn run(args: ReportRequest) -> Result<i32, Failure> {
    let dir = args.dir;
    if !dir.is_dir() {
        return Err(usage(format!(
            "{} is not a directory: give the output directory of `arena match --out`, `arena league --out` or `arena sprt --out`",
            dir.display()
        )));
    }
    let output = args.output.unwrap_or_else(|| dir.join("report.html"));
    if output.is_dir() || output.file_name().is_none() {
        return Err(usage(format!("-o {}: give the name of the page to write, e.g. report.html", output.display())));
    }
    let setup = if dir.join(SPRT_CONFIG).is_file() {
        Setup::Sprt(read_json(&dir.join(SPRT_CONFIG), "an SPRT configuration")?)
    } else if dir.join(LEAGUE).is_file() {
        Setup::League(read_json(&dir.join(LEAGUE), "a league configuration")?)
    } else {
        Setup::Match
    };
    let games = dir.join(GAMES);
    let first = match record_file::lines(&games) {
        Ok(mut lines) => lines.next().transpose()?,
        Err(_) if !games.exists() => {
            return Err(usage(format!(
                "{} holds no {GAMES}: it is not the output directory of a match, a league or an SPRT",
                dir.display()
            )));
        }
        Err(error) => return Err(error.into()),
    };
    let header = first
        .map(|line| line.header.map_err(|e| usage(format!("{} line {}: {e}", games.display(), line.number))))
        .transpose()?;
    let game = match (&setup, &header) {
        (Setup::League(config), _) => config.game.clone(),
        (Setup::Sprt(config), _) => config.games.game.clone(),
        (Setup::Match, Some(header)) => header.game.clone(),
        (Setup::Match, None) => return Err(usage(format!("{} holds no games yet", games.display()))),
    };
    let identity = header.and_then(|header: Header| header.engine);
    let program = match &setup {
        Setup::League(config) => config.engine.is_some(),
        Setup::Sprt(config) => config.games.engine.is_some(),
        Setup::Match => identity.is_some(),
    };
    let scoring = match (program, &identity) {
        (false, _) => Engine::built_in(&game)?.scoring(),
        (true, Some(identity)) => crate::engine::spec::scoring(&identity.scoring),
        (true, None) => return Err(usage(format!("{} holds no games yet", games.display()))),
    };
    write_report(Job { dir, output, setup, limit: args.replays }, GameOf { name: game, program, scoring })
}

/// A configuration file of the directory.
fn read_json<T: serde::de::DeserializeOwned>(path: &Path, what: &str) -> Result<T, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| usage(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| usage(format!("{} is not {what}: {e}", path.display())))
}
