//! Bots over the network: a bot the arena dials (`tcp://HOST:PORT`), bots
//! that connect in to `--listen` over TCP and WebSocket, and what each
//! fault of a remote bot makes of its seat. Records of deterministic bots
//! over the network equal those of the same bots over pipes, apart from the
//! timing fields (`duration_ms`, each move's `time_us`).

use e2e::*;
use records::record::FaultRecord;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A bot served over TCP by `tests/bots/tcp_server.py`, one process of
/// `command` for each connection; killed (with what it serves) when dropped.
struct Served {
    server: Child,
    port: u16,
}

impl Served {
    fn start(command: &[&str]) -> Served {
        Served::with(&[], command)
    }

    /// [`Served::start`], the server given `flags`.
    fn with(flags: &[&str], command: &[&str]) -> Served {
        let mut server = Command::new(python())
            .arg(repo_path("tests/bots/tcp_server.py"))
            .args(flags)
            .arg("0")
            .args(command)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let mut line = String::new();
        BufReader::new(server.stdout.take().expect("piped")).read_line(&mut line).expect("the server says its port");
        Served { server, port: line.trim().parse().expect("a port") }
    }

    fn address(&self) -> String {
        format!("tcp://127.0.0.1:{}", self.port)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// `arena match` between `bots` (name, command, untagged), with `extra`.
fn match_of(bots: &[(&str, &str)], extra: &[&str]) -> Vec<String> {
    let mut args = vec!["match".to_string()];
    for (name, command) in bots {
        args.extend(["--bot".to_string(), format!("{name}={command}")]);
    }
    args.extend(extra.iter().map(|arg| arg.to_string()));
    args
}

#[test]
fn a_bot_dialled_over_tcp_plays_as_it_does_over_pipes() {
    let scratch = Scratch::new("net-dial");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let served = Served::start(&[&greedy, &scratch.marker()]);
    let (piped, dialled) = (scratch.join("piped").leak(), scratch.join("dialled").leak());
    let run = |out: &'static str| patient(&["--games", "8", "--seed", "7", "--concurrency", "2", "--out", out]);
    arena_expect(&match_of(&[("net", &greedy), ("random", &random)], &run(piped)), 0);
    let address = served.address();
    arena_expect(&match_of(&[("net", &address), ("random", &random)], &run(dialled)), 0);
    assert_eq!(canonical_records(dialled), canonical_records(piped), "the same games, apart from their timing");
    assert_eq!(Standings::read(dialled).bot("net").faults, 0);
    arena_expect(&["verify", dialled], 0);
    drop(served);
    scratch.assert_nothing_left(LINGER);
}

/// The CPUs each process of `tests/bots/affinity.py` in `dir` was allowed, one entry a process.
fn affinities(dir: &std::path::Path) -> Vec<String> {
    let files = std::fs::read_dir(dir).expect("the scratch directory is read");
    let names = files.map(|entry| entry.expect("an entry").path());
    let noted =
        names.filter(|path| path.file_name().is_some_and(|name| name.to_string_lossy().starts_with("affinity.")));
    noted.map(|path| std::fs::read_to_string(path).expect("a note is read")).collect()
}

/// tcp_server.py starts each bot it serves to an arena on this machine on
/// the CPU the arena plays the bot's games on (at `--concurrency 1`, the
/// first CPU it may use), as the arena pins the bots it starts; with
/// `--no-follow`, where the kernel puts it (every CPU the server may use).
#[test]
fn a_bot_served_on_this_machine_runs_on_the_cpu_of_its_games() {
    let random = bin("random-bot");
    let mut seen = Vec::new();
    for flags in [&["--no-follow"][..], &[]] {
        let scratch = Scratch::new(&format!("net-follow{}", flags.concat()));
        let served = Served::with(flags, &[&python(), &repo_path("tests/bots/affinity.py"), &scratch.marker()]);
        let out = scratch.join("out");
        let address = served.address();
        let args = patient(&["--games", "4", "--seed", "3", "--concurrency", "1", "--out", &out]);
        arena_expect(&match_of(&[("net", &address), ("random", &random)], &args), 0);
        drop(served);
        let noted = affinities(scratch.path());
        assert!(!noted.is_empty(), "no served bot noted its CPUs");
        seen.push(noted);
    }
    let (placed, followed) = (&seen[0], &seen[1]);
    let all = &placed[0];
    assert!(placed.iter().all(|cpus| cpus == all), "{placed:?}");
    let first = all.split(',').next().unwrap();
    assert!(followed.iter().all(|cpus| cpus == first), "followed {followed:?}, not the arena's CPU {first} of {all}");
}

#[test]
fn a_bot_that_cannot_be_dialled_is_a_start_fault() {
    // A port nothing listens on: bound, then closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let scratch = Scratch::new("net-refused");
    let out = scratch.join("out");
    let address = format!("tcp://127.0.0.1:{port}");
    let random = bin("random-bot");
    arena_expect(&match_of(&[("gone", &address), ("random", &random)], &["--games", "2", "--out", &out]), 4);
    let records = Record::all(&out);
    let fault = &records[0].faults[0];
    assert_eq!((fault.bot.as_str(), fault.kind.name()), ("gone", "spawn"), "{fault:?}");
    assert!(
        fault.message.contains(&format!("cannot connect to {address}")) && fault.message.contains("refused"),
        "{}",
        fault.message
    );
}

/// A run that listens for bots: the arena, the address it printed, and
/// the rest of its stderr as it comes.
struct Listening {
    arena: Child,
    address: String,
    stderr: std::thread::JoinHandle<String>,
}

impl Listening {
    /// Starts `arena args`, and reads its stderr up to the address it listens on.
    fn start(args: &[String]) -> Listening {
        let mut arena = arena_command(args).spawn().expect("arena starts");
        let mut stderr = BufReader::new(arena.stderr.take().expect("piped"));
        let mut seen = String::new();
        let address = loop {
            let mut line = String::new();
            if stderr.read_line(&mut line).expect("stderr is read") == 0 {
                panic!("arena {args:?} ended before it listened:\n{seen}");
            }
            seen.push_str(&line);
            if let Some(rest) = line.strip_prefix("listening for bots on ") {
                break rest.split(':').take(2).collect::<Vec<_>>().join(":");
            }
        };
        let stderr = std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = std::io::Read::read_to_string(&mut stderr, &mut rest);
            seen + &rest
        });
        Listening { arena, address, stderr }
    }

    /// Connects `connect.py` to the run as bot `bot` with `token`, and `extra` options.
    fn client(&self, bot: &str, token: &str, extra: &[&str]) -> Child {
        Command::new(python())
            .arg(repo_path("sample-bots/python/connect.py"))
            .args([&self.address, bot, token])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the client starts")
    }

    /// Waits for the run: its exit status and its stderr.
    fn finish(self) -> (Option<i32>, String) {
        let output = finish(self.arena);
        (output.status.code(), self.stderr.join().expect("stderr read"))
    }
}

/// A token file in `scratch`.
fn token_file(scratch: &Scratch) -> String {
    let path = scratch.join("token");
    std::fs::write(&path, "s3cret\n").unwrap();
    path
}

#[test]
fn bots_that_connect_in_over_tcp_and_websocket_play_as_they_do_over_pipes() {
    let scratch = Scratch::new("net-listen");
    let (greedy, token) = (bin("greedy-bot"), token_file(&scratch));
    let run = |out: &str| ["--games", "6", "--seed", "3", "--concurrency", "2", "--out", out].map(str::to_string);
    let piped = scratch.join("piped");
    let python = python_greedy();
    arena_expect(
        &match_of(&[("py", &python), ("greedy", &greedy)], &patient(&run(&piped).each_ref().map(String::as_str))),
        0,
    );
    for (kind, extra) in [("tcp", &[][..]), ("ws", &["--ws"][..])] {
        let out = scratch.join(kind);
        let listen = format!("listen {token}");
        let mut args = match_of(&[("py", &listen), ("greedy", &greedy)], &["--listen", "--startup-timeout", "60000"]);
        args.extend(run(&out));
        let listening = Listening::start(&args);
        let mut client = listening.client("py", "s3cret", extra);
        let (status, stderr) = listening.finish();
        assert_eq!(status, Some(0), "{kind}: {stderr}");
        assert!(client.wait().unwrap().success(), "{kind}: the client ends once the run stops listening");
        assert_eq!(canonical_records(&out), canonical_records(&piped), "{kind}: the same games, apart from timing");
        arena_expect(&["verify", &out], 0);
    }
}

#[test]
fn a_wrong_token_is_refused_and_the_seat_waits_on() {
    let scratch = Scratch::new("net-token");
    let (greedy, token) = (bin("greedy-bot"), token_file(&scratch));
    let out = scratch.join("out");
    let listen = format!("listen {token}");
    let args = match_of(
        &[("py", &listen), ("greedy", &greedy)],
        &["--listen", "--games", "2", "--startup-timeout", "60000", "--out", &out],
    );
    let listening = Listening::start(&args);
    for extra in [&[][..], &["--ws"][..]] {
        let extra = [extra, &["--connections", "1"]].concat();
        let refused = listening.client("py", "wrong", &extra).wait_with_output().unwrap();
        let said = String::from_utf8_lossy(&refused.stderr);
        assert!(said.contains("refused") && said.contains("wrong token for bot \"py\""), "{extra:?}: {said}");
    }
    assert!(!std::path::Path::new(&out).join("games.jsonl").exists() || records(&out).is_empty(), "nothing recorded");
    let mut client = listening.client("py", "s3cret", &[]);
    let (status, stderr) = listening.finish();
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(stderr.matches("wrong token for bot \"py\"").count(), 2, "{stderr}");
    assert!(client.wait().unwrap().success());
    assert!(Record::all(&out).iter().all(|record| record.faults.is_empty()));
}

#[test]
fn a_client_killed_mid_game_or_silent_is_faulted_and_one_never_connecting_times_out() {
    let scratch = Scratch::new("net-faults");
    let (greedy, token) = (bin("greedy-bot"), token_file(&scratch));
    let listen = format!("listen {token}");
    for (file, kind, said) in [
        ("net_killed.py", "exited", "the connection closed while the arena awaited the answer to turn"),
        ("net_silent.py", "timeout", "no complete line as the answer to turn"),
    ] {
        let out = scratch.join(kind);
        let flags = [
            "--listen",
            "--games",
            "2",
            "--concurrency",
            "1",
            "--move-timeout",
            "1000",
            "--startup-timeout",
            "3000",
            "--out",
            &out,
        ];
        let listening = Listening::start(&match_of(&[("net", &listen), ("greedy", &greedy)], &flags));
        let mut client = listening.client(
            "net",
            "s3cret",
            &["--connections", "1", "--bot-file", &repo_path(&format!("tests/bots/{file}"))],
        );
        let (status, stderr) = listening.finish();
        assert_eq!(status, Some(4), "{file}: the bot forfeited every game\n{stderr}");
        let _ = client.kill();
        let _ = client.wait();
        let faults: Vec<FaultRecord> = Record::all(&out).into_iter().flat_map(|record| record.faults).collect();
        let fault =
            faults.iter().find(|fault| fault.message.contains(said)).unwrap_or_else(|| panic!("{file}: {faults:?}"));
        assert_eq!((fault.bot.as_str(), fault.kind.name()), ("net", kind), "{file}: {fault:?}");
        // Nothing connects for the other game: its seat waits out the start-up timeout.
        let waited = faults.iter().find(|fault| fault.message.contains("no client of bot \"net\" connected"));
        assert_eq!(waited.map(|fault| fault.kind.name()), Some("timeout"), "{file}: {faults:?}");
        arena_expect(&["verify", &out], 0);
    }
}

#[test]
fn listening_is_refused_where_it_cannot_be_done_safely() {
    let greedy = bin("greedy-bot");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let taken = taken.local_addr().unwrap().to_string();
    let cases: [(&[&str], &str, &str); 5] = [
        (&["--listen", &taken], "listen", "Address already in use"),
        (&["--listen", "0.0.0.0:0"], "listen", "not a loopback address"),
        (&[], "listen", "give --listen [ADDR]"),
        (&["--listen"], &greedy, "no bot connects in"),
        (&["--sandbox", "bwrap"], "tcp://127.0.0.1:9", "--unsandboxed-remote"),
    ];
    for (flags, command, said) in cases {
        let (_, stderr) = arena_expect(&match_of(&[("net", command), ("greedy", &greedy)], flags), 2);
        assert!(stderr.contains(said), "{flags:?} {command}: {stderr}");
    }
}

/// A league file of bots `g`, `p`, `b` and `r` with these commands, 4 games a pair of seed 9, written to `out`
/// (with time to spare for each move: a busy machine once made random-bot's answer 3 s late).
fn league_file(scratch: &Scratch, name: &str, commands: [&str; 4], out: &str) -> String {
    let path = scratch.join(name);
    let bots: String = ["g", "p", "b", "r"]
        .iter()
        .zip(commands)
        .map(|(name, command)| format!("[[bot]]\nname = \"{name}\"\ncommand = \"{command}\"\n\n"))
        .collect();
    let text = format!(
        "games = 4\nseed = 9\nconcurrency = 2\nout = \"{out}\"\nstartup_timeout = 60000\nmove_timeout = 60000\n\n{bots}"
    );
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_league_of_a_dialled_bot_one_over_websocket_a_session_and_a_process_equals_an_all_pipes_league() {
    let scratch = Scratch::new("net-league");
    let (greedy, random, token) = (bin("greedy-bot"), bin("random-bot"), token_file(&scratch));
    let greedy_py = python_greedy();
    // A deterministic bot that batches its games in one process, or, with 0, plays one game a process.
    let batches = |games: &str| format!("{} {} {games}", python(), repo_path("tests/bots/batches.py"));
    let (piped, mixed) = (scratch.join("piped"), scratch.join("mixed"));
    let config = league_file(&scratch, "piped.toml", [&greedy, &greedy_py, &batches("0"), &random], &piped);
    arena_expect(&["league", "--config", &config], 0);
    let served = Served::start(&[&greedy, &scratch.marker()]);
    let (address, listen) = (served.address(), format!("listen {token}"));
    let config = league_file(&scratch, "mixed.toml", [&address, &listen, &batches("16"), &random], &mixed);
    let listening = Listening::start(&["league", "--config", &config, "--listen"].map(str::to_string));
    let mut client = listening.client("p", "s3cret", &["--ws"]);
    let (status, stderr) = listening.finish();
    assert_eq!(status, Some(0), "{stderr}");
    assert!(client.wait().unwrap().success());
    assert_eq!(canonical_records(&mixed), canonical_records(&piped), "the same games, apart from their timing");
    arena_expect(&["verify", &mixed], 0);
    // The session plays its lane's games together: a process a seat and lane, where
    // the plain process beside it has one for each game played at once (a log each).
    let logs: Vec<String> = std::fs::read_dir(std::path::Path::new(&mixed).join("logs"))
        .expect("logs")
        .flatten()
        .map(|log| log.file_name().to_string_lossy().into_owned())
        .collect();
    let started = |bot: &str| logs.iter().filter(|log| log.starts_with(&format!("{bot}."))).count();
    assert!(started("b") < started("r"), "{logs:?}");
    drop(served);
    scratch.assert_nothing_left(LINGER);
}

#[test]
fn a_sandboxed_run_plays_a_remote_bot_when_told_it_is_not_confined() {
    let scratch = Scratch::new("net-sandbox");
    let greedy = bin("greedy-bot");
    // The bot run here is confined, in a directory of its own; the remote one is not.
    std::fs::copy(&greedy, scratch.path().join("greedy-bot")).expect("copied");
    let served = Served::start(&[&greedy, &scratch.marker()]);
    let out = scratch.join("out");
    let bots = [("far", served.address()), ("near", "./greedy-bot".to_string())];
    let bots: Vec<(&str, &str)> = bots.iter().map(|(name, command)| (*name, command.as_str())).collect();
    let flags = patient(&["--sandbox", "bwrap", "--unsandboxed-remote", "--games", "4", "--out", &out]);
    let output = output(arena_command(&match_of(&bots, &flags)).current_dir(scratch.path()));
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let standings = Standings::read(&out);
    assert_eq!((standings.bot("far").faults, standings.bot("near").faults), (0, 0));
}
