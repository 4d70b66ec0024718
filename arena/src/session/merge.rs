//! A merge as the library does it (`arena merge` parses its flags and calls
//! [`run`]): the output directories of a league's shards combined into one,
//! identical to the output of the same league run on one machine.

use crate::engine::spec::{Engine, scoring};
use crate::league::config::LeagueConfig;
use crate::league::{check_played, full_schedule, withdrawn};
use crate::run::setting::Setting;
use crate::schedule::Seating;
use crate::session::exit::{self, Failure, internal, usage};
use crate::session::program;
use crate::stats::standings::Standings;
use crate::store::output::{GAMES, LEAGUE, OutDir, scan_file};
use crate::store::record::GameSummary;
use crate::store::record_file::Header;
use crate::terminal::console::{errln, outln};
use game::Scoring;
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;

/// What `arena merge` asks of a merge.
#[derive(Debug)]
pub struct MergeRequest {
    /// `--out DIR`: where to write the merged league.
    pub out: PathBuf,
    /// `--partial`: merge even if games are missing.
    pub partial: bool,
    /// The shards' output directories.
    pub shards: Vec<PathBuf>,
}

/// One shard's games: their summaries and where their lines are.
struct ShardGames {
    dir: PathBuf,
    games: Vec<GameSummary>,
    spans: Vec<(u64, usize)>,
}

struct Merge {
    args: MergeRequest,
    config: LeagueConfig,
    shards: Vec<ShardGames>,
}

/// Runs `arena merge`.
pub fn run(args: MergeRequest) -> Result<i32, Failure> {
    let mut config: Option<LeagueConfig> = None;
    let mut shards = Vec::new();
    for dir in &args.shards {
        let path = dir.join(LEAGUE);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            usage(format!("{} is not a league's output directory: cannot read {LEAGUE} ({e})", dir.display()))
        })?;
        let theirs: LeagueConfig = serde_json::from_str(&text)
            .map_err(|e| usage(format!("{} is not a league configuration: {e}", path.display())))?;
        match &config {
            None => config = Some(theirs),
            Some(first) => {
                first.same_league(&theirs).map_err(|why| {
                    usage(format!(
                        "cannot merge {} with {}: they are different leagues ({why})",
                        dir.display(),
                        args.shards[0].display()
                    ))
                })?;
                let commands = |c: &LeagueConfig| c.bots.iter().map(|b| b.command.clone()).collect::<Vec<_>>();
                if commands(first) != commands(&theirs) {
                    errln!(
                        "warning: {} ran the bots with other commands than {}",
                        dir.display(),
                        args.shards[0].display()
                    );
                }
            }
        }
        let scan = scan_file(&dir.join(GAMES))?;
        if scan.good_bytes < scan.total_bytes {
            errln!("warning: {}: ignoring a torn last line (that game will be missing)", dir.join(GAMES).display());
        }
        shards.push(ShardGames { dir: dir.clone(), games: scan.games, spans: scan.spans });
    }
    let mut config = config.expect("clap requires at least one shard");
    config.shard = None;
    let merge = Merge { args, config, shards };
    let (teams, scoring) = match merge.config.engine {
        Some(_) => recorded_sides(&merge.shards)?,
        None => built_in_sides(&merge.config)?,
    };
    write_merged(merge, &teams, scoring)
}

/// The sides and scoring of a built-in game's league, from the variant its
/// `league.json` stores (resolved by the engine from the settings, for a
/// `league.json` of an earlier arena that stores none).
fn built_in_sides(config: &LeagueConfig) -> Result<(Vec<Vec<usize>>, Scoring), Failure> {
    if config.variant.is_null() {
        let mut setting = Setting::open(&config.game, None, None)?;
        let resolved = setting.resolve(&config.settings)?;
        let scoring = setting.engine().scoring();
        setting.close()?;
        return Ok((resolved.teams, scoring));
    }
    let engine = Engine::built_in(&config.game)?;
    let game = engine.built_in_game().expect("a built-in engine");
    let teams = game.teams(&config.variant).map_err(|e| usage(format!("{LEAGUE}: variant: {e}")))?;
    Ok((teams, engine.scoring()))
}

/// The sides and scoring of an engine program's game, as its records say
/// (the first game of the shards): a merge runs nothing.
///
/// # Errors
/// When no shard holds a game, or its record does not say.
fn recorded_sides(shards: &[ShardGames]) -> Result<(Vec<Vec<usize>>, Scoring), Failure> {
    let Some((shard, &(offset, len))) = shards.iter().find_map(|shard| Some((shard, shard.spans.first()?))) else {
        return Err(usage(
            "no shard holds a game yet: the sides of an engine program's game are read from its records, so merge \
             once a shard has played one",
        ));
    };
    let path = shard.dir.join(GAMES);
    let cannot = |e: String| internal(format!("cannot read {}: {e}", path.display()));
    let mut line = vec![0u8; len];
    let mut file = std::fs::File::open(&path).map_err(|e| cannot(e.to_string()))?;
    file.seek(SeekFrom::Start(offset)).and_then(|_| file.read_exact(&mut line)).map_err(|e| cannot(e.to_string()))?;
    match serde_json::from_slice::<Header>(&line) {
        Ok(Header { engine: Some(identity), .. }) => Ok((identity.teams, scoring(&identity.scoring))),
        Ok(_) => Err(usage(format!("{}: a game of the engine program's league names no engine", path.display()))),
        Err(e) => Err(usage(format!("{}: a line is not a game record: {e}", path.display()))),
    }
}

/// Writes the merged league, a game of sides `teams` scored as `scoring`.
fn write_merged(merge: Merge, teams: &[Vec<usize>], scoring: Scoring) -> Result<i32, Failure> {
    let Merge { args, mut config, shards } = merge;
    let schedule = full_schedule(&config, teams, Seating::EveryOrder)?;
    let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();

    // Every game once: (id, shard, span), the first copy winning.
    let mut entries: Vec<(u64, usize, (u64, usize))> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut summaries = Vec::new();
    for (index, shard) in shards.iter().enumerate() {
        for (game, &span) in shard.games.iter().zip(&shard.spans) {
            if seen.insert(game.id) {
                entries.push((game.id, index, span));
                summaries.push(game.clone());
            } else {
                errln!("warning: game {} is in more than one shard; keeping the first copy", game.id);
            }
        }
    }
    check_played(&schedule, &names, &summaries).map_err(|e| usage(format!("cannot merge: {e}")))?;
    // The league's games: those it plays, and those its retired bots played
    // (a game of a retired bot that no shard played is not missing).
    let retired = config.retired();
    let owed = |id: &u64| seen.contains(id) || !withdrawn(&schedule, &retired, *id);
    let games = (0..schedule.len()).filter(owed).count();
    let missing = games - entries.len();
    if missing > 0 && !args.partial {
        let first: Vec<String> =
            (0..schedule.len()).filter(|id| !seen.contains(id) && owed(id)).take(5).map(|id| id.to_string()).collect();
        return Err(usage(format!(
            "{missing} of the league's {games} games are in no shard (ids {}{}); finish those shards, or merge with --partial and complete the league with `{} league --resume`",
            first.join(", "),
            if missing > first.len() { ", …" } else { "" },
            program()
        )));
    }
    entries.sort_by_key(|&(id, ..)| id);

    let mut out = OutDir::create(&args.out)?;
    config.out = Some(out.path().to_path_buf());
    let json = serde_json::to_string_pretty(&config).expect("configurations serialize");
    out.write_config(&json).map_err(|e| internal(format!("cannot write {LEAGUE}: {e}")))?;
    let mut files = Vec::new();
    for shard in &shards {
        let path = shard.dir.join(GAMES);
        files.push(std::fs::File::open(&path).map_err(|e| internal(format!("cannot read {}: {e}", path.display())))?);
    }
    for chunk in entries.chunks(512) {
        let mut lines = Vec::with_capacity(chunk.len());
        for &(id, shard, (offset, len)) in chunk {
            let mut line = vec![0u8; len];
            let file = &mut files[shard];
            file.seek(SeekFrom::Start(offset))
                .and_then(|_| file.read_exact(&mut line))
                .map_err(|e| internal(format!("cannot read {}: {e}", shards[shard].dir.join(GAMES).display())))?;
            let line = String::from_utf8(line).map_err(|e| internal(format!("game {id}: {e}")))?;
            lines.push((id, line));
        }
        out.append(lines.iter().map(|(id, line)| (*id, line.as_str())))
            .map_err(|e| internal(format!("cannot write {}: {e}", args.out.join(GAMES).display())))?;
    }
    let mut standings = Standings::new(&names, scoring);
    for game in &summaries {
        standings.add(game);
    }
    out.finish(&standings.to_json(&config.game, config.kept.seed))
        .map_err(|e| internal(format!("cannot finish {}: {e}", args.out.display())))?;
    let _ = outln!("{}", standings.table_within(crate::terminal::console::stdout_width()));
    let _ = outln!(
        "merged {} games from {} shards into {}{}",
        entries.len(),
        shards.len(),
        args.out.display(),
        if missing > 0 {
            format!(" ({missing} missing: complete with `{} league --resume {}`)", program(), args.out.display())
        } else {
            String::new()
        }
    );
    Ok(exit::SUCCESS)
}
