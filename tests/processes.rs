//! What the arena guarantees about the processes of bots beyond their faults
//! (`faults.rs` has those): a bot that hides in another process group cannot
//! hang it, nothing a bot started outlives a run or `check-bot` (and
//! `check-bot` says so truly, of a sandboxed bot too), zombies are reaped as they appear, everything
//! a bot started dies with an arena killed outright, and the processes alive
//! at once are bounded, within the file descriptors the arena may open.
//!
//! Every hostile bot here ends on its own within 25 s (see
//! `tests/bots/botlib.py`), whatever becomes of the arena and of the tests.

use e2e::*;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

/// A move limit that a hider reaches, and that greedy-bot keeps on a busy
/// machine (where, at 500 ms, its moves were read late at load 25).
const MOVE_TIMEOUT: &str = "3000";

/// Arguments of a league of `bots` (name, command), each tagged with the
/// scratch directory's marker, written to `out`, followed by `extra`.
fn league(scratch: &Scratch, bots: &[(&str, &str)], out: &str, extra: &[&str]) -> Vec<String> {
    let mut args = match_args(scratch, bots, extra);
    args[0] = "league".to_string();
    args.extend(["--out".to_string(), out.to_string()]);
    args
}

/// The command of a test bot of `tests/bots`.
fn hostile(script: &str) -> String {
    format!("{} {}", python(), repo_path(&format!("tests/bots/{script}")))
}

/// Runs `arena` with `args` within `limit`, calling `watch` with its pid every few milliseconds.
fn arena_watched(args: &[String], limit: Duration, watch: impl FnMut(u32)) -> Output {
    finish_watched(arena_command(args).spawn().expect("arena starts"), limit, watch)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_bot_that_hides_in_another_process_group_cannot_hang_the_arena() {
    // Each stops answering at its 4th turn, after moving into the arena's
    // process group, or into a new group of its own child's.
    for script in ["joins_arena_group.py", "own_group.py"] {
        let scratch = Scratch::new(&format!("hides-{}", script.trim_end_matches(".py")));
        let out = scratch.join("out");
        let bots = [("hider", hostile(script)), ("g", bin("greedy-bot"))];
        let bots: Vec<(&str, &str)> = bots.iter().map(|(name, command)| (*name, command.as_str())).collect();
        let args = league(&scratch, &bots, &out, &["--games", "2", "--seed", "4", "--move-timeout", MOVE_TIMEOUT]);
        let started = Instant::now();
        let output = arena_watched(&args, DEADLINE, |_| {});
        // Exit status 4: the hider forfeited every game it was in (it hides in both).
        assert_eq!(output.status.code(), Some(4), "{script}: {}", text(&output.stderr));
        // An arena that waited for the hider would end only once it had slept its lifetime out.
        assert_eq!(scratch.lived_out(), Vec::<String>::new(), "{script}: the arena waited for the hider");
        let faults: Vec<String> = records(&out)
            .iter()
            .flat_map(|r| r.faults.clone())
            .map(|fault| format!("{:?} {:?}", fault.bot, fault.kind.name()))
            .collect();
        // The bot hides in each of its two processes (one per seat).
        assert_eq!(faults, ["\"hider\" \"timeout\""; 2], "{script}");
        scratch.assert_nothing_left(LINGER);
        eprintln!("{script}: the league ended {:?} after it started", started.elapsed());
    }
}

#[test]
fn nothing_a_bot_started_outlives_a_run_or_a_check() {
    // escaped_grandchild.py leaves its session and forks a grandchild;
    // pid_chain.py starts chains of processes that keep changing their pid.
    let scratch = Scratch::new("escapes-league");
    let out = scratch.join("out");
    let (family, chain, greedy) = (hostile("escaped_grandchild.py"), hostile("pid_chain.py"), bin("greedy-bot"));
    let bots = [("family", family.as_str()), ("chain", chain.as_str()), ("g", greedy.as_str())];
    let args = league(&scratch, &bots, &out, &patient(&["--games", "2"]));
    let output = arena_watched(&args, DEADLINE, |_| {});
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let faults: Vec<_> = records(&out).into_iter().flat_map(|r| r.faults).collect();
    assert!(faults.is_empty(), "{faults:?}");
    scratch.assert_nothing_left(LINGER);
    for script in ["escaped_grandchild.py", "pid_chain.py"] {
        let scratch = Scratch::new(&format!("escapes-check-{}", script.trim_end_matches(".py")));
        let bot = format!("{} {}", hostile(script), scratch.marker());
        let output = arena(&[&["check-bot"][..], &PATIENT, &[&bot]].concat());
        let stdout = text(&output.stdout);
        assert_eq!(output.status.code(), Some(1), "{script}: {stdout}");
        let verdict = stdout.lines().find(|line| line.contains("no-leftovers")).unwrap_or_default();
        assert!(verdict.contains('✗'), "{script}: {stdout}");
        assert!(stdout.contains("left its process group; all were killed with the bot"), "{script}: {stdout}");
        // What the report says is true: nothing of the bot is left.
        scratch.assert_nothing_left(LINGER);
    }
}

#[test]
fn nothing_inside_a_sandbox_counts_as_having_left_the_bots_group() {
    // bubblewrap starts the bot in a session of its own, inside a pid
    // namespace that nothing it starts can leave.
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let scratch = Scratch::new("sandboxed-check");
    // A copy of the bot in a directory of its own: the sandbox copies what it sees, and target/ is gigabytes.
    let copy = scratch.path().join("greedy-bot");
    std::fs::copy(bin("greedy-bot"), &copy).unwrap();
    let bot = format!("{} {}", copy.display(), scratch.marker());
    let args = [&["check-bot", "--sandbox", "bwrap"][..], &PATIENT, &[&bot]].concat();
    let output = arena(&args);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", text(&output.stderr));
    assert!(stdout.contains("no-leftovers            no process left the bot's process group"), "{stdout}");
    scratch.assert_nothing_left(LINGER);
}

#[test]
fn zombies_are_reaped_while_the_league_runs() {
    let scratch = Scratch::new("zombies");
    let out = scratch.join("out");
    let (factory, greedy) = (hostile("zombie_factory.py"), bin("greedy-bot"));
    // The factory says how many orphans it made (file `made`) once it is
    // done; its first move waits until the test has looked (file `watched`):
    // a zombie left unreaped would still be there to see, however late the
    // look comes on a busy machine.
    let (made, watched) = (scratch.path().join("made"), scratch.path().join("watched"));
    let args = league(&scratch, &[("z", &factory), ("g", &greedy)], &out, &patient(&["--games", "2", "--seed", "3"]));
    let (mut peak, mut once_made) = (0, None);
    let output = arena_watched(&args, DEADLINE, |arena| {
        let count = once_made.is_none().then(|| std::fs::read_to_string(&made).ok()).flatten();
        let zombies = descendants(arena).iter().filter(|p| p.state == 'Z').count();
        peak = peak.max(zombies);
        if let Some(count) = count {
            let count: usize = count.parse().expect("the factory writes a count");
            once_made = Some((count, zombies));
            std::fs::write(&watched, "").expect("the factory is told");
        }
    });
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(Standings::read(&out).bot("z").faults, 0);
    let (orphans, zombies) = once_made.expect("the league ended before the factory had made its orphans");
    // Reaped as they come, only a few exist at any moment; left unreaped,
    // every orphan made would still be a zombie at the look after the last.
    assert!(orphans > 50, "the factory made only {orphans} orphans in its 20 s: too few to tell");
    assert!(zombies <= 50, "{zombies} zombies below the arena once {orphans} orphans were made");
    assert!(peak <= 50, "{peak} zombies below the arena at once");
    eprintln!("{orphans} orphans made; at most {peak} zombies at once, {zombies} once all were made");
    scratch.assert_nothing_left(LINGER);
}

#[test]
fn everything_a_bot_started_dies_with_an_arena_killed_outright() {
    let scratch = Scratch::new("arena-killed");
    let out = scratch.join("out");
    let (family, greedy) = (hostile("escaped_grandchild.py"), bin("greedy-bot"));
    let args = league(&scratch, &[("family", &family), ("g", &greedy)], &out, &["--games", "400", "--seed", "5"]);
    let mut arena = arena_command(&args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("starts");
    // Two processes of the bot (one per seat), each with two children and two grandchildren.
    let bot_processes = || {
        let processes = scratch.leftover_processes();
        processes.iter().filter(|p| p.contains("escaped_grandchild") && !p.contains("__bot-supervisor")).count()
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    while bot_processes() < 10 {
        if Instant::now() > deadline {
            let _ = arena.kill();
            panic!("the bot never started its family: {:?}", scratch.leftover_processes());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    arena.kill().expect("SIGKILL sent");
    arena.wait().expect("the arena is reaped");
    let killed = Instant::now();
    // A few milliseconds on a quiet machine, and far less than the 25 s the
    // bot's processes would live on their own.
    scratch.assert_nothing_left(LINGER);
    eprintln!("nothing left {:?} after the arena was killed", killed.elapsed());
}

/// Runs a league of four greedy and four random bots at `concurrency`;
/// returns its records (without timing) and the most bot processes alive at once.
fn eight_bots(scratch: &Scratch, name: &str, concurrency: &str) -> (Vec<String>, usize) {
    let out = scratch.join(name);
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let names = ["g1", "g2", "g3", "g4", "r1", "r2", "r3", "r4"];
    let bots: Vec<(&str, &str)> = names
        .iter()
        .map(|&name| (name, if name.starts_with('g') { greedy.as_str() } else { random.as_str() }))
        .collect();
    // Timing aside, the games are the same however many processes play them:
    // a move timeout no crowded machine reaches keeps it so.
    let flags = ["--games", "2", "--seed", "6", "--concurrency", concurrency, "--move-timeout", "60000"];
    let args = league(scratch, &bots, &out, &flags);
    let mut peak = 0;
    let output = arena_watched(&args, DEADLINE, |_| {
        // A walk through /proc takes a while, and processes come and go
        // meanwhile: those still running once it is over were all running
        // at the same time (when the walk read the last of them).
        let alive = process_table()
            .iter()
            .filter(|p| p.state != 'Z' && p.cmdline.contains(&scratch.marker()))
            .filter(|p| p.cmdline.starts_with(&greedy) || p.cmdline.starts_with(&random))
            .filter(|p| still_running(p.pid))
            .count();
        peak = peak.max(alive);
    });
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    (canonical_records(&out), peak)
}

/// Whether process `pid` still runs (is neither gone nor a zombie).
fn still_running(pid: u32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    stat.rsplit(')').next().is_some_and(|rest| !rest.trim_start().is_empty() && !rest.trim_start().starts_with('Z'))
}

#[test]
fn the_live_processes_are_capped_without_changing_a_game() {
    let scratch = Scratch::new("pool-cap");
    let (capped, peak) = eight_bots(&scratch, "capped", "2");
    // Two games at once, of two seats, each lane spanning the pairs of the
    // eight bots (16 processes): PROTOCOL.md's bound, two lanes and six seats ahead each.
    assert!(peak <= 2 * (2 * 16 + 6 * 2), "{peak} bot processes alive at once");
    let (roomy, roomy_peak) = eight_bots(&scratch, "roomy", "8");
    assert!(roomy_peak > peak, "the reference run kept no more processes ({roomy_peak})");
    assert_eq!(capped.len(), 56);
    assert_eq!(capped, roomy, "capping the processes changed a game");
    eprintln!("at most {peak} bot processes at --concurrency 2, {roomy_peak} at --concurrency 8");
    scratch.assert_nothing_left(LINGER);
}

/// `arena match` between greedy-bot and random-bot at `--concurrency 10`,
/// after the shell command `limit` (e.g. `ulimit -n 40`).
fn match_with_limit(scratch: &Scratch, limit: &str) -> Output {
    let out = scratch.join("out");
    let args = match_args(
        scratch,
        &[("g", &bin("greedy-bot")), ("r", &bin("random-bot"))],
        // Bots' own limit of open files within any hard limit tried here:
        // what is tested is the arena's own need.
        &["--games", "40", "--concurrency", "10", "--move-timeout", "60000", "--limit", "open-files=32", "--out", &out],
    );
    let script = format!("{limit} && exec \"$0\" \"$@\"");
    output(std::process::Command::new("sh").arg("-c").arg(script).arg(bin("arena")).args(&args))
}

#[test]
fn too_few_file_descriptors_are_a_usage_error_before_the_run() {
    let scratch = Scratch::new("descriptors");
    let output = match_with_limit(&scratch, "ulimit -n 200");
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    for advice in ["ulimit -n", "--concurrency"] {
        assert!(stderr.contains(advice), "the error does not say {advice:?}: {stderr}");
    }
    assert!(!scratch.path().join("out").exists(), "the run started");
    // A soft limit below the hard one is raised as far as the run needs.
    let scratch = Scratch::new("descriptors-soft");
    let output = match_with_limit(&scratch, "ulimit -Sn 40");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let faults: usize = records(&scratch.join("out")).iter().map(|r| r.faults.len()).sum();
    assert_eq!(faults, 0, "{}", text(&output.stderr));
}
