//! Which games each bot process plays (`--restart`, docs/matches.md "Bot
//! processes"): by default a process plays one seat order of a block of its
//! group's deals, so no process meets a deal twice, with and without the
//! sandbox, in a match and a league; processes are started per lane, not per
//! game, and no more are alive at once than PROTOCOL.md states.

use e2e::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The witness bot, which tells on stderr each game it is dealt.
fn witness() -> String {
    format!("{} {}", python(), repo_path("tests/bots/witness.py"))
}

/// What each process was told, from its log (one file a process): by log
/// file name (`BOT.seatS.N.log`), the (game tag, seat, seed) of each game it played.
fn told(out: &str) -> BTreeMap<String, Vec<(u64, u64, u64)>> {
    let mut told = BTreeMap::new();
    for entry in std::fs::read_dir(Path::new(out).join("logs")).expect("logs/ exists") {
        let path = entry.expect("an entry").path();
        let text = std::fs::read_to_string(&path).expect("a log");
        let games = text
            .lines()
            .filter_map(|line| line.strip_prefix("witness: "))
            .map(|json| {
                let told: serde_json::Value = serde_json::from_str(json).expect("JSON");
                let number = |key: &str| told[key].as_u64().unwrap_or_else(|| panic!("a {key}: {json}"));
                (number("id"), number("seat"), number("seed"))
            })
            .collect();
        told.insert(path.file_name().unwrap().to_string_lossy().into_owned(), games);
    }
    told
}

/// What each process was dealt: by log file name, the (game tag, seed) of each game it played.
fn dealt(out: &str) -> BTreeMap<String, Vec<(u64, u64)>> {
    told(out)
        .into_iter()
        .map(|(log, games)| (log, games.into_iter().map(|(id, _, seed)| (id, seed)).collect()))
        .collect()
}

/// Checks that every game's seat was played by exactly one process of its
/// bot, which was told that game; returns how many processes met a deal
/// (their seat's seed) twice.
fn meetings_again(out: &str) -> usize {
    let dealt = dealt(out);
    let mut played: BTreeMap<(String, u64), Vec<&String>> = BTreeMap::new();
    for (log, games) in &dealt {
        let (bot, seat) = log.split_once(".seat").expect("BOT.seatS.N.log");
        let seat = seat.split('.').next().unwrap();
        for (tag, _) in games {
            played.entry((format!("{bot} {seat}"), *tag)).or_default().push(log);
        }
    }
    for record in records(out) {
        for (seat, bot) in record.bots.iter().enumerate() {
            let key = (format!("{bot} {seat}"), record.told_id());
            assert_eq!(played.get(&key).map(Vec::len), Some(1), "game {} seat {seat}: {key:?}", record.id);
        }
    }
    dealt
        .values()
        .filter(|games| {
            let seeds: BTreeSet<u64> = games.iter().map(|(_, seed)| *seed).collect();
            seeds.len() < games.len()
        })
        .count()
}

/// Plays `command` (`match` or `league`) of the witness bots named `names`
/// with `extra` flags into a fresh output directory, which it returns.
fn play(scratch: &Scratch, command: &str, names: &[&str], extra: &[&str]) -> String {
    play_bot(scratch, &witness(), command, names, extra)
}

/// [`play`] with `bot` as each bot's command.
fn play_bot(scratch: &Scratch, bot: &str, command: &str, names: &[&str], extra: &[&str]) -> String {
    let out = scratch.join(&format!("out-{}-{}", bot.len(), extra.join("-").replace(['/', ' '], "_")));
    let mut args = vec![command.to_string()];
    for name in names {
        args.extend(["--bot".to_string(), format!("{name}={bot} {}", scratch.marker())]);
    }
    args.extend(patient(&["--seed", "9", "--out", &out]).iter().map(|s| s.to_string()));
    args.extend(extra.iter().map(|s| s.to_string()));
    arena_expect(&args, 0);
    out
}

#[test]
fn no_process_meets_a_deal_twice_in_a_match_or_a_league() {
    let scratch = Scratch::new("lanes-meet");
    // Three players: each bot holds each seat in two of the six orders of a deal.
    let out = play(&scratch, "match", &["a", "b", "c"], &["--players", "3", "--games", "60", "--concurrency", "2"]);
    assert_eq!(meetings_again(&out), 0);
    assert_eq!(records(&out).len(), 60);
    // 10 deals in two units (one for each game slot), each an opening lane
    // of each deal's first game (a process for each bot in each seat it
    // holds there, 9 at most) and a lane for each of the 6 seat orders (3
    // processes): not a process for each game and seat.
    let processes = dealt(&out).len();
    assert!(processes <= 2 * (9 + 6 * 3), "{processes} processes");
    // A league of four bots: each pair plays deals of its own.
    let out = play(&scratch, "league", &["a", "b", "c", "d"], &["--games", "8", "--concurrency", "2"]);
    assert_eq!(meetings_again(&out), 0);
    let deals: BTreeMap<u64, BTreeSet<String>> = records(&out).iter().fold(BTreeMap::new(), |mut deals, record| {
        let mut pair: Vec<&str> = record.bots.iter().map(String::as_str).collect();
        pair.sort_unstable();
        deals.entry(record.deal).or_default().insert(pair.join(" "));
        deals
    });
    assert!(deals.values().all(|pairs| pairs.len() == 1), "a deal of two pairs: {deals:?}");
    assert_eq!(deals.len(), 6 * 4, "4 deals of its own for each of the 6 pairs");
    // Two units (one for each game slot), one of the deals that begin in each
    // seat order, each of two lanes in which the first bot holds seat 0, the
    // last seat 1 and the others both: 2 × 2 × (2 × 4 − 2) processes at most.
    let processes = dealt(&out).len();
    assert!(processes <= 2 * 2 * (2 * 4 - 2), "{processes} processes");
    // docs/matches.md's count at --concurrency 1: a lane of each deal's first
    // games, then one of its second, a process for each bot in each seat of
    // each: 4B.
    let one = play(&scratch, "league", &["a", "b", "c", "d"], &["--games", "8", "--concurrency", "1"]);
    assert_eq!(meetings_again(&one), 0);
    assert_eq!(dealt(&one).len(), 4 * 4, "{:?}", dealt(&one).keys());
    let page = std::fs::read_to_string(repo_path("docs/matches.md")).unwrap();
    assert!(page.contains("4B for each window at `--concurrency 1`"), "docs/matches.md states the count");
    // Kept for the whole run, processes meet their deals again: what the lanes prevent.
    let out = play(&scratch, "match", &["a", "b", "c"], &["--players", "3", "--games", "60", "--restart", "off"]);
    assert!(meetings_again(&out) > 0, "kept processes met no deal again");
    assert!(dealt(&out).len() <= 9, "a process for each bot and seat: {:?}", dealt(&out).keys());
    // One process a game.
    let out = play(&scratch, "match", &["a", "b"], &["--games", "10", "--restart", "game"]);
    assert_eq!(meetings_again(&out), 0);
    assert_eq!(dealt(&out).values().map(Vec::len).collect::<Vec<_>>(), [1; 20]);
    scratch.assert_nothing_left(LINGER);
}

#[test]
fn a_bot_that_plays_any_seat_has_a_process_for_each_lane_not_for_each_seat() {
    let scratch = Scratch::new("lanes-any-seat");
    let any = format!("{} --any-seat", witness());
    let flags = ["--games", "8", "--concurrency", "2"];
    let out = play_bot(&scratch, &any, "league", &["a", "b", "c", "d"], &flags);
    let records = records(&out);
    let deal_of: BTreeMap<u64, u64> = records.iter().map(|record| (record.told_id(), record.deal)).collect();
    // Each seat of each game is played by one process of its bot, told that seat.
    let mut played: BTreeMap<(String, u64, u64), usize> = BTreeMap::new();
    let dealt = told(&out);
    for (log, games) in &dealt {
        let bot = log.split_once(".seat").expect("BOT.seatS.N.log").0;
        for &(tag, seat, _) in games {
            *played.entry((bot.to_string(), tag, seat)).or_default() += 1;
        }
        // A process never meets a deal twice, whatever seat it plays.
        let deals: BTreeSet<u64> = games.iter().map(|(tag, _, _)| deal_of[tag]).collect();
        assert_eq!(deals.len(), games.len(), "{log} met a deal twice: {games:?}");
    }
    for record in &records {
        for (seat, bot) in record.bots.iter().enumerate() {
            assert_eq!(played.get(&(bot.clone(), record.told_id(), seat as u64)), Some(&1), "game {}", record.id);
        }
    }
    // Processes play both seats in a lane.
    assert!(dealt.values().any(|games| games.iter().map(|&(_, seat, _)| seat).collect::<BTreeSet<_>>().len() == 2));
    // Two units (one for each game slot) of two lanes, a process for each
    // bot in each: bots × lanes × games at once, where a process for each
    // seat takes 2 × 2 × (2 × 4 − 2).
    assert!(dealt.len() <= 4 * 2 * 2, "{} processes: {:?}", dealt.len(), dealt.keys());
    // The same games as bots that play one seat a process.
    let seated = play(&scratch, "league", &["a", "b", "c", "d"], &flags);
    assert_eq!(sorted_games(&out), sorted_games(&seated));
    scratch.assert_nothing_left(LINGER);
}

/// Each game's id, bots, deal, arrangement and scores, in id order.
fn sorted_games(out: &str) -> Vec<String> {
    let mut games: Vec<(u64, String)> = records(out)
        .into_iter()
        .map(|r| (r.id, format!("{:?} {} {} {:?}", r.bots, r.deal, r.arrangement, r.result.scores)))
        .collect();
    games.sort();
    games.into_iter().map(|(id, game)| format!("{id} {game}")).collect()
}

#[test]
fn a_sandboxed_process_plays_a_lane_too() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let scratch = Scratch::new("lanes-sandbox");
    for file in ["witness.py", "botlib.py"] {
        std::fs::copy(repo_path(&format!("tests/bots/{file}")), scratch.path().join(file)).expect("copied");
    }
    let out = scratch.join("out");
    let bot = format!("{} witness.py", python());
    let mut args: Vec<String> = ["match", "--sandbox", "bwrap", "--players", "3", "--games", "36", "--out", &out]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for name in ["a", "b", "c"] {
        args.extend(["--bot".to_string(), format!("{name}={bot} {}", scratch.marker())]);
    }
    args.extend(patient(&["--seed", "4", "--concurrency", "1"]).iter().map(|s| s.to_string()));
    let output = output(arena_command(&args).current_dir(scratch.path()));
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(meetings_again(&out), 0);
    // 6 deals, one unit: an opening lane of at most 9 processes, 6 lanes of
    // 3: fewer than a process for each game and seat.
    let processes = dealt(&out).len();
    assert!(processes <= 9 + 6 * 3, "{processes} processes");
    scratch.assert_nothing_left(LINGER);
}

/// The most bot processes of `scratch` alive at once while `args` run.
fn peak_alive(scratch: &Scratch, args: &[String]) -> usize {
    let mut peak = 0;
    let child = arena_command(args).spawn().expect("arena starts");
    let output = finish_watched(child, DEADLINE, |_| {
        let alive = process_table()
            .iter()
            .filter(|p| {
                p.state != 'Z' && p.cmdline.contains(&scratch.marker()) && p.cmdline.starts_with(&bin("random-bot"))
            })
            .count();
        peak = peak.max(alive);
    });
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    peak
}

#[test]
fn no_more_processes_are_alive_than_protocol_md_states() {
    let scratch = Scratch::new("lanes-bound");
    let bot = bin("random-bot");
    // PROTOCOL.md: for each game at once, two lanes' processes (for each bot
    // in each seat, at 3 players and more, whose units open with a lane of
    // each deal's first game, which mixes the seat orders) and six seats'
    // worth started ahead.
    let bound = |seats: usize| 2 * (2 * seats * seats + 6 * seats);
    for (players, names) in [(3, &["a", "b", "c"][..]), (4, &["a", "b", "c", "d"][..])] {
        let bots: Vec<(&str, &str)> = names.iter().map(|&name| (name, bot.as_str())).collect();
        let mut flags = vec!["--players".to_string(), players.to_string()];
        if players == 4 {
            flags.extend(["--variant", "partners=false"].map(String::from));
        }
        flags.extend(["--games", "96", "--concurrency", "2"].map(String::from));
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        let args = match_args(&scratch, &bots, &patient(&flags));
        let peak = peak_alive(&scratch, &args);
        assert!(peak <= bound(players), "{peak} processes alive at once at {players} players");
        eprintln!("{players} players, --concurrency 2: at most {peak} bot processes alive (bound {})", bound(players));
    }
    let page = std::fs::read_to_string(repo_path("protocol/PROTOCOL.md")).unwrap();
    assert!(page.contains("two lanes' processes and six seats' worth started ahead"), "PROTOCOL.md states the bound");
    scratch.assert_nothing_left(LINGER);
}
