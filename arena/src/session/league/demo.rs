//! The demo league, which `arena league` runs when it is given no league.

use super::LeagueRequest;
use crate::bot::cpus::cores;
use crate::bot::spec::{BotSpec, binary_dir};
use crate::league::config::LeagueConfig;
use crate::session::exit::Failure;
use crate::session::random_seed;
use crate::terminal::console::errln;
use std::path::{Path, PathBuf};

/// The demo league: a ladder of the sample bots that can run here, from
/// random play through greedy ones (in Rust, and in Python and JavaScript when
/// a checkout and the interpreters are at hand) to `search-bot`, in a round
/// robin. Every other flag given applies to it as to any league.
pub(super) fn demo(args: &LeagueRequest, cwd: &Path) -> Result<LeagueConfig, Failure> {
    let sample = |name| BotSpec::sample(name, cwd);
    let mut bots = vec![sample("random")?, sample("greedy")?];
    // The scripted samples, when a checkout is at hand (around the binary, in
    // the working directory, or where the arena was built) and the interpreters exist.
    let candidates = [binary_dir()?.join("../.."), cwd.to_path_buf(), Path::new(env!("CARGO_MANIFEST_DIR")).join("..")];
    let repo = candidates
        .into_iter()
        .find(|dir| dir.join("sample-bots/python/greedy.py").is_file())
        .unwrap_or_else(|| PathBuf::from("."));
    for (name, interpreter, script) in
        [("greedy-py", "python3", "sample-bots/python/greedy.py"), ("greedy-js", "node", "sample-bots/js/greedy.js")]
    {
        let script = repo.join(script);
        if script.is_file() {
            let command = format!("{interpreter} {}", shell_words::quote(&script.to_string_lossy()));
            if let Ok(bot) = BotSpec::new(name, &command, cwd, Default::default()) {
                bots.push(bot);
            }
        }
    }
    bots.push(sample("search")?);
    let names: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
    errln!("no league given: a demo round robin of the sample bots {}", names.join(", "));
    let mut overrides = args.overrides.clone();
    overrides.bots = bots.iter().map(|b| format!("{}={}", b.name, b.command)).collect();
    Ok(LeagueConfig::resolve(&overrides, cwd, random_seed(), cores())?)
}
