//! Bots over the network: a bot the arena dials (`tcp://HOST:PORT`), bots
//! that connect in to `--listen` over TCP and WebSocket, and what each
//! fault of a remote bot makes of its seat. Records of deterministic bots
//! over the network equal those of the same bots over pipes, apart from the
//! timing fields (`duration_ms`, each move's `time_us`).

use e2e::*;
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
        let mut server = Command::new(python())
            .arg(repo_path("tests/bots/tcp_server.py"))
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
    assert_eq!((fault.bot.as_str(), fault.kind.as_str()), ("gone", "spawn"), "{fault:?}");
    assert!(
        fault.message.contains(&format!("cannot connect to {address}")) && fault.message.contains("refused"),
        "{}",
        fault.message
    );
}
