//! `arena-throughput`: how close the arena comes to the physical floor of
//! talking to a bot process through a pipe.
//!
//! In one run it measures
//! 1. the floor: a parent and a child process exchanging a typical `turn`
//!    request line (about 300 bytes) and `move` reply line (about 40 bytes),
//!    both sides parsing JSON with serde — one pair on one core, one pair on
//!    two cores, and two pairs at once, one per core;
//! 2. the arena: `arena match` of `random-bot` against itself, 2 players, at
//!    `--concurrency 1` and `2`, in its default mode (each game in flight
//!    and its bots on a CPU of their own) and, at `--concurrency 2`, unpinned
//!    (`--cpus-per-game 0`, the system placing every process), in decisions
//!    per second and peak memory;
//! 3. the same engine behind the engine protocol: the arena's own All
//!    Fives served as a process (`--engine "arena engine all-fives"`),
//!    against the engine built in, at `--concurrency 1` and `2`;
//! 4. the arena with 64 games in flight (peak memory);
//!
//! and prints each figure with its ratio to the floor. Run it with
//! `bench/arena-throughput` (which builds everything in release mode first).

use all_fives::wire::{Choice, End, FromBot, State, ToBot};
use nix::sched::{CpuSet, sched_setaffinity};
use nix::unistd::Pid;
use protocol::messages::{MoveReply, Turn};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Round trips per floor measurement.
const ROUND_TRIPS: u64 = 200_000;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--pong") {
        pong();
        return;
    }
    let games: u64 = args.get(1).and_then(|g| g.parse().ok()).unwrap_or(2000);
    let dir = std::env::current_exe().expect("own path").parent().expect("a directory").to_path_buf();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("machine: {cores} cores, {}", cpu_model());
    println!();

    // The machine may be shared and noisy: measure floor and arena in
    // alternation, several rounds, and compare each arena figure with the
    // floor measured next to it.
    let random = dir.join("random-bot");
    let served = format!("{} engine all-fives", dir.join("arena").display());
    let engine_mode = ["--engine", served.as_str()];
    let mut rounds = Vec::new();
    for round in 1..=ROUNDS {
        let r = Round {
            same_core: ping_pairs(1, true),
            c1: arena(&dir, &random, games, 1, DEFAULT_MODE),
            two_pairs: ping_pairs(2, true),
            c2: arena(&dir, &random, games, 2, DEFAULT_MODE),
            c2_unpinned: arena(&dir, &random, games, 2, UNPINNED),
            c1_process: arena(&dir, &random, games, 1, &engine_mode),
            c2_process: arena(&dir, &random, games, 2, &engine_mode),
        };
        println!(
            "round {round}: floor {:.0} rt/s, c1 {:.0} decisions/s ({:.2}×); floor of 2 pairs {:.0} rt/s, c2 {:.0} decisions/s ({:.2}×), unpinned {:.0} ({:.2}×)",
            r.same_core,
            r.c1.decisions_per_second,
            r.c1.decisions_per_second / r.same_core,
            r.two_pairs,
            r.c2.decisions_per_second,
            r.c2.decisions_per_second / r.two_pairs,
            r.c2_unpinned.decisions_per_second,
            r.c2_unpinned.decisions_per_second / r.two_pairs,
        );
        rounds.push(r);
    }
    let cross_core = ping_pairs(1, false);
    let c64 = arena(&dir, &random, games.max(640), 64, DEFAULT_MODE);
    println!();
    let same_core = median(rounds.iter().map(|r| r.same_core));
    let two_pairs = median(rounds.iter().map(|r| r.two_pairs));
    println!("floor (serde ping-pong between two processes, {ROUND_TRIPS} round trips; medians of {ROUNDS} rounds)");
    println!("  1 pair, one core:          {:>9.0} round trips/s  ({:.2} µs each)", same_core, 1e6 / same_core);
    println!("  1 pair, two cores:         {:>9.0} round trips/s  ({:.2} µs each)", cross_core, 1e6 / cross_core);
    println!("  2 pairs, one core each:    {:>9.0} round trips/s in total", two_pairs);
    println!();
    println!(
        "arena match (no flags: each game and its bots on a CPU of their own), random-bot against itself, 2 players, {games} games (medians of {ROUNDS} rounds)"
    );
    let verdict = |ok: bool| if ok { "met" } else { "NOT met" };
    let c1 = median(rounds.iter().map(|r| r.c1.decisions_per_second));
    let c2 = median(rounds.iter().map(|r| r.c2.decisions_per_second));
    let c1_ratio = median(rounds.iter().map(|r| r.c1.decisions_per_second / r.same_core));
    let c2_ratio = median(rounds.iter().map(|r| r.c2.decisions_per_second / r.two_pairs));
    let unpinned = median(rounds.iter().map(|r| r.c2_unpinned.decisions_per_second));
    let unpinned_ratio = median(rounds.iter().map(|r| r.c2_unpinned.decisions_per_second / r.two_pairs));
    let scaling = median(rounds.iter().map(|r| r.c2.decisions_per_second / r.c1.decisions_per_second));
    let peak = rounds.iter().map(|r| r.c1.peak_memory_mb.max(r.c2.peak_memory_mb)).fold(0.0, f64::max);
    println!(
        "  --concurrency 1:   {c1:>9.0} decisions/s = {c1_ratio:.2} × the 1-pair floor (target ≥ 0.25: {})",
        verdict(c1_ratio >= 0.25)
    );
    println!(
        "  --concurrency 2:   {c2:>9.0} decisions/s = {c2_ratio:.2} × the 2-pair floor (target ≥ 0.50: {})",
        verdict(c2_ratio >= 0.5)
    );
    println!(
        "  --concurrency 2 --cpus-per-game 0 (unpinned): {unpinned:.0} decisions/s = {unpinned_ratio:.2} × the 2-pair floor"
    );
    println!("  scaling c2/c1:     {scaling:.2} × (target ≥ 1.70: {})", verdict(scaling >= 1.7));
    for (label, process, ratio) in [
        (
            "1",
            median(rounds.iter().map(|r| r.c1_process.decisions_per_second)),
            median(rounds.iter().map(|r| r.c1_process.decisions_per_second / r.c1.decisions_per_second)),
        ),
        (
            "2",
            median(rounds.iter().map(|r| r.c2_process.decisions_per_second)),
            median(rounds.iter().map(|r| r.c2_process.decisions_per_second / r.c2.decisions_per_second)),
        ),
    ] {
        println!(
            "  --concurrency {label}, the engine as a process (--engine \"arena engine all-fives\"): {process:.0} decisions/s = \
             {ratio:.2} × built in (target ≥ 0.40: {})",
            verdict(ratio >= 0.4)
        );
    }
    println!("  peak memory:       {peak:.1} MB");
    println!(
        "  --concurrency 64:  {:>9.0} decisions/s, peak memory {:.1} MB (target < 50 MB: {})",
        c64.decisions_per_second,
        c64.peak_memory_mb,
        verdict(c64.peak_memory_mb < 50.0)
    );
}

/// Measurement rounds.
const ROUNDS: usize = 3;

/// One round of measurements, taken one after the other.
struct Round {
    same_core: f64,
    c1: Run,
    two_pairs: f64,
    c2: Run,
    c2_unpinned: Run,
    c1_process: Run,
    c2_process: Run,
}

/// The arena's flags of its default mode (none).
const DEFAULT_MODE: &[&str] = &[];
/// The flags of the unpinned mode.
const UNPINNED: &[&str] = &["--cpus-per-game", "0"];

fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// A typical request line and a typical reply line.
fn sample_lines() -> (Vec<u8>, Vec<u8>) {
    let turn = ToBot::Turn(Turn {
        id: 1234,
        time_ms: 1000,
        clock_ms: None,
        increment_ms: None,
        state: State {
            hand_number: 3,
            hand: vec![[0, 3], [1, 4], [2, 5], [3, 3], [4, 6]],
            ends: vec![End { id: 0, pips: 3, counts: 3 }, End { id: 1, pips: 4, counts: 8 }],
            scores: vec![55, 40],
            hand_sizes: vec![5, 6],
            boneyard: 7,
            drawable: 7,
        },
        legal: vec![
            Choice { tile: [0, 3], end: Some(0), points: 0 },
            Choice { tile: [1, 4], end: Some(1), points: 0 },
            Choice { tile: [3, 3], end: Some(0), points: 0 },
            Choice { tile: [4, 6], end: Some(1), points: 5 },
        ],
    });
    let reply = FromBot::Move(MoveReply { id: 1234, index: Some(3), value: None });
    (protocol::line::encode(&turn), protocol::line::encode(&reply))
}

/// The child side: parse each request, answer with a reply line.
fn pong() {
    let (_, reply) = sample_lines();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line).unwrap_or(0) == 0 {
            return;
        }
        let parsed = ToBot::decode(line.trim_ascii_end()).expect("a turn");
        std::hint::black_box(parsed);
        output.write_all(&reply).and_then(|_| output.flush()).expect("write");
    }
}

fn pin(pid: u32, core: usize) {
    let mut set = CpuSet::new();
    if set.set(core).is_ok() {
        let _ = sched_setaffinity(Pid::from_raw(pid as i32), &set);
    }
}

/// Round trips per second of `pairs` parent/child pairs run at once; with
/// `same_core`, pair `i` runs both its processes on core `i`, otherwise the
/// parent on core 0 and the child on core 1.
fn ping_pairs(pairs: usize, same_core: bool) -> f64 {
    let start = Instant::now();
    let threads: Vec<_> = (0..pairs)
        .map(|i| {
            std::thread::spawn(move || {
                let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                let (request, _) = sample_lines();
                let mut child = Command::new(std::env::current_exe().unwrap())
                    .arg("--pong")
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .spawn()
                    .expect("the pong child starts");
                let (parent_core, child_core) = if same_core { (i % cores, i % cores) } else { (0, 1 % cores) };
                pin(0, parent_core); // 0: this thread
                pin(child.id(), child_core);
                let mut to_child = child.stdin.take().unwrap();
                let mut from_child = BufReader::new(child.stdout.take().unwrap());
                let mut line = Vec::new();
                for _ in 0..ROUND_TRIPS {
                    to_child.write_all(&request).and_then(|_| to_child.flush()).unwrap();
                    line.clear();
                    from_child.read_until(b'\n', &mut line).unwrap();
                    let reply: FromBot = protocol::line::decode(line.trim_ascii_end()).expect("a move");
                    std::hint::black_box(reply);
                }
                drop(to_child);
                child.wait().unwrap();
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    (ROUND_TRIPS * pairs as u64) as f64 / start.elapsed().as_secs_f64()
}

/// What one arena run printed.
struct Run {
    decisions_per_second: f64,
    peak_memory_mb: f64,
}

fn arena(dir: &Path, random: &Path, games: u64, concurrency: usize, mode: &[&str]) -> Run {
    let output = Command::new(dir.join("arena"))
        .args(["match", "--seed", "1", "--games", &games.to_string(), "--concurrency", &concurrency.to_string()])
        .args(mode)
        .arg("--bot")
        .arg(format!("a={}", random.display()))
        .arg("--bot")
        .arg(format!("b={}", random.display()))
        .output()
        .expect("the arena runs (build it with cargo build --release)");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "arena failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let number_before = |marker: &str| -> f64 {
        let at = stdout.find(marker).unwrap_or_else(|| panic!("no {marker:?} in:\n{stdout}"));
        stdout[..at].rsplit([' ', ',', ':']).find(|w| !w.is_empty()).unwrap().parse().unwrap()
    };
    let number_after = |marker: &str| -> f64 {
        let at = stdout.find(marker).unwrap_or_else(|| panic!("no {marker:?} in:\n{stdout}")) + marker.len();
        stdout[at..].split_whitespace().next().unwrap().parse().unwrap()
    };
    Run { decisions_per_second: number_before(" decisions/s"), peak_memory_mb: number_after("peak memory ") }
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("model name").map(|m| m.trim_start_matches([' ', '\t', ':']).to_string()))
        })
        .unwrap_or_else(|| "unknown CPU".to_string())
}
