//! `arena serve` and `--serve` end to end, in headless Chromium driven over
//! the DevTools protocol: a running league and a running SPRT followed live
//! (each game's result on the page once its record is written, with the
//! delay measured and printed; a game in flight followed move by move), the
//! page's figures equal to `standings.json` and `sprt.json` at the end, and a
//! hostile bot's stderr and reasons shown as text, running no script.

use e2e::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How long the tests wait for anything, generously: a deadline, not a measure of speed.
const PATIENCE: Duration = Duration::from_secs(300);

fn now_ms() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).expect("after 1970").as_secs_f64() * 1000.0
}

fn test_bot(script: &str) -> String {
    format!("{} {}", python(), repo_path(&format!("tests/bots/{script}")))
}

/// Starts `arena` with `args`, and the address its stderr names on a line
/// starting with `prefix`; the rest of its stderr is kept in the returned thread.
fn start(args: &[String], prefix: &str) -> (Child, String, std::thread::JoinHandle<String>) {
    let mut child = Command::new(bin("arena"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arena starts");
    let (url, rest) = address_on_stderr(&mut child, prefix);
    (child, url, rest)
}

/// `GET path` of the server at `url`: the status line and the body.
fn get(url: &str, path: &str) -> (String, String) {
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = std::net::TcpStream::connect(host).expect("the server answers");
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").expect("the request is sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("the answer reads");
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    (head.lines().next().unwrap_or_default().to_string(), body.to_string())
}

/// What the page showed of a run while it ran.
struct Followed {
    /// Each game's delay from its record line to the page, in ms.
    delays: BTreeMap<u64, f64>,
    /// Each game in flight followed: the counts of events the frame showed, in order.
    moves: BTreeMap<u64, Vec<u64>>,
}

/// Follows the run of `arena` (served with --serve) on its live page until
/// it exits: notes when each record line appears and when the page shows
/// its game, and follows the first game in flight with `min_events` events
/// or more in the frame.
fn follow(args: &[String], out: &str, scratch: &Scratch) -> (Followed, Devtools) {
    let browser = Browser::find(scratch).expect("chromium is installed");
    let (mut arena, url, stderr) = start(args, "live page: ");
    let mut page = browser.open(&url);
    let mut lines: BTreeMap<u64, f64> = BTreeMap::new();
    let mut shown: BTreeMap<u64, f64> = BTreeMap::new();
    let mut following = false;
    let deadline = Instant::now() + PATIENCE;
    let read_lines = |lines: &mut BTreeMap<u64, f64>| {
        let text = std::fs::read_to_string(format!("{out}/games.jsonl")).unwrap_or_default();
        for line in text.lines().filter(|line| line.ends_with('}')) {
            let record: Value = serde_json::from_str(line).expect("a record");
            lines.entry(record["id"].as_u64().expect("an id")).or_insert_with(now_ms);
        }
    };
    let mut last_look = Instant::now();
    loop {
        read_lines(&mut lines);
        let exited = arena.try_wait().expect("arena is waited for").is_some();
        if last_look.elapsed() > Duration::from_millis(100) || exited {
            last_look = Instant::now();
            let seen = page.eval("JSON.stringify({arrivals: window.arrivals || {}, flights: (window.state && window.state.flights) || []})");
            let seen: Value = serde_json::from_str(seen.as_str().expect("a string")).expect("JSON");
            for (id, at) in seen["arrivals"].as_object().expect("arrivals") {
                shown.entry(id.parse().expect("an id")).or_insert(at.as_f64().expect("a time"));
            }
            if !following && seen["flights"].as_array().is_some_and(|f| !f.is_empty()) {
                following = page.eval(
                    "(() => { const b = document.querySelector('#flights button'); if (b) b.click(); return !!b; })()",
                ) == true;
            }
        }
        if exited {
            break;
        }
        assert!(Instant::now() < deadline, "the run did not end in {PATIENCE:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
    read_lines(&mut lines);
    let stderr = stderr.join().expect("stderr is read");
    // Every game recorded reaches the page (the server is gone once the run ends: its last games may not).
    let last_state: Value =
        serde_json::from_str(page.eval("JSON.stringify(window.state)").as_str().expect("a state")).expect("JSON");
    let on_page = last_state["games"].as_u64().expect("a count");
    let delays =
        lines.iter().filter_map(|(id, &line)| shown.get(id).map(|&at| (*id, at - line))).collect::<BTreeMap<_, _>>();
    assert!(
        on_page as usize + 2 >= lines.len() || delays.len() + 2 >= lines.len(),
        "the page showed {on_page} of {} games:\n{stderr}",
        lines.len()
    );
    let seen = page.eval("document.getElementById('following').dataset.seen || ''");
    let mut moves: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for pair in seen.as_str().expect("a string").split(',').filter(|p| !p.is_empty()) {
        let (id, events) = pair.split_once(':').expect("id:events");
        moves.entry(id.parse().expect("an id")).or_default().push(events.parse().expect("a count"));
    }
    (Followed { delays, moves }, page)
}

/// Prints the delays, as the benchmark's figures.
fn report(what: &str, delays: &BTreeMap<u64, f64>) {
    let mut sorted: Vec<f64> = delays.values().copied().collect();
    sorted.sort_by(f64::total_cmp);
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or(f64::NAN);
    let most = sorted.last().copied().unwrap_or(f64::NAN);
    eprintln!(
        "{what}: {} games on the page, record line to page: median {median:.0} ms, at most {most:.0} ms",
        sorted.len()
    );
}

/// The finished run in `out` served by `arena serve`, opened on `page`.
fn serve_finished(out: &str, page: &mut Devtools) -> (Child, String) {
    let args: Vec<String> = ["serve", out, "--listen", "127.0.0.1:0"].iter().map(|s| s.to_string()).collect();
    let (child, url, _) = start(&args, "live page: ");
    page.call("Page.navigate", serde_json::json!({"url": url}));
    let deadline = Instant::now() + PATIENCE;
    while page.eval("(document.getElementById('status') || {dataset: {}}).dataset.status") != "finished" {
        assert!(Instant::now() < deadline, "the page of {out} never said finished");
        std::thread::sleep(Duration::from_millis(50));
    }
    (child, url)
}

/// A row of the standings: the bot, then its rank, Elo, mean score, games,
/// wins, draws, losses, score, faults and LOS (`None` for null).
type Row = (String, Vec<Option<f64>>);

/// The standings table's exact figures, by bot.
fn page_standings(page: &mut Devtools) -> Vec<Row> {
    let rows = page.eval(
        "JSON.stringify([...document.querySelectorAll('#standings tbody tr')].map((tr) => \
         [tr.dataset.bot, [...tr.querySelectorAll('td[data-exact]')].map((td) => td.dataset.exact === 'null' ? null : Number(td.dataset.exact))]))",
    );
    serde_json::from_str(rows.as_str().expect("a string")).expect("JSON")
}

/// The same figures of `standings.json`.
fn file_standings(out: &str) -> Vec<Row> {
    let figures = |b: &Standing| {
        let counts = [b.rank, b.games, b.wins, b.draws, b.losses, b.faults].map(|count| Some(count as f64));
        let [rank, games, wins, draws, losses, faults] = counts;
        vec![rank, b.rating, Some(b.points_for), games, wins, draws, losses, Some(b.score), faults, b.los_next]
    };
    Standings::read(out).bots.iter().map(|b| (b.name.clone(), figures(b))).collect()
}

fn stop(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn a_running_league_is_followed_live_and_its_page_ends_with_its_files() {
    let scratch = Scratch::new("serve-league");
    let out = scratch.join("out");
    let bots = [("g", bin("greedy-bot")), ("s", test_bot("slow.py")), ("h", test_bot("hostile_text.py"))];
    let bots: Vec<(&str, &str)> = bots.iter().map(|(n, c)| (*n, c.as_str())).collect();
    let mut args = match_args(
        &scratch,
        &bots,
        &patient(&["--games", "2", "--concurrency", "2", "--seed", "3", "--out", &out, "--serve", "127.0.0.1:0"]),
    );
    args[0] = "league".to_string();
    let (followed, mut page) = follow(&args, &out, &scratch);
    report("league", &followed.delays);
    assert!(!followed.delays.is_empty(), "no game reached the page");
    let (id, counts) = followed.moves.iter().max_by_key(|(_, c)| c.len()).expect("a game in flight was followed");
    assert!(
        counts.len() >= 3 && counts.windows(2).all(|w| w[0] < w[1]),
        "game {id} was not followed move by move: {counts:?}"
    );

    let (server, url) = serve_finished(&out, &mut page);
    assert_eq!(page_standings(&mut page), file_standings(&out), "the page's standings are standings.json's");
    // The hostile bot's stderr and reason: on the page as text, no script run, no element made.
    let faults = page.eval("document.getElementById('faults').textContent");
    let faults = faults.as_str().expect("text");
    assert!(faults.contains("<script>window.pwned=2</script>") && faults.contains("<img src=x"), "{faults}");
    assert!(faults.contains("illegal") || faults.contains("index"), "the fault's reason is shown: {faults}");
    assert_eq!(page.eval("typeof window.pwned"), "undefined", "a script of the bot's ran");
    assert_eq!(
        page.eval("document.querySelectorAll('#faults img, #faults script').length"),
        0,
        "the bot's HTML made elements"
    );
    assert_eq!(
        page.eval("[...document.querySelectorAll('#faults b')].filter((b) => b.textContent === 'bold').length"),
        0
    );
    // A recorded game opens in its viewer; nothing outside the directory is served.
    let (status, body) = get(&url, &format!("/game/{id}"));
    assert!(status.contains("200") && body.contains("<html"), "{status}");
    for path in ["/files/../../etc/passwd", "/files/%2e%2e/%2e%2e/etc/passwd", "/files//etc/passwd"] {
        let (status, body) = get(&url, path);
        assert!(!status.contains("200") && !body.contains("root:"), "{path}: {status}");
    }
    let (status, body) = get(&url, "/files/standings.json");
    assert!(status.contains("200") && body == std::fs::read_to_string(format!("{out}/standings.json")).unwrap());
    stop(server);
}

#[test]
fn a_running_sprt_is_followed_live_and_its_verdict_is_sprt_json() {
    let scratch = Scratch::new("serve-sprt");
    let out = scratch.join("out");
    let (greedy, slow) = (bin("greedy-bot"), test_bot("slow.py"));
    let mut args = match_args(
        &scratch,
        &[("g", &greedy), ("s", &slow)],
        &patient(&["--max-games", "8", "--concurrency", "2", "--seed", "5", "--out", &out, "--serve", "127.0.0.1:0"]),
    );
    args[0] = "sprt".to_string();
    args[1] = "--new".to_string();
    args[3] = "--base".to_string();
    let (followed, mut page) = follow(&args, &out, &scratch);
    report("sprt", &followed.delays);
    assert!(!followed.delays.is_empty(), "no game reached the page");
    assert!(
        followed.moves.values().any(|c| c.len() >= 3),
        "no game in flight was followed move by move: {:?}",
        followed.moves
    );

    let (server, _) = serve_finished(&out, &mut page);
    let sprt: Value = serde_json::from_str(&std::fs::read_to_string(format!("{out}/sprt.json")).unwrap()).unwrap();
    assert_eq!(page.eval("document.getElementById('llr').dataset.exact"), sprt["llr"].to_string());
    assert_eq!(page.eval("document.getElementById('verdict').dataset.conclusion"), sprt["conclusion"]);
    assert_eq!(page.eval("document.getElementById('sprt-games').dataset.games"), sprt["games"].to_string());
    let estimate = page.eval("document.getElementById('estimate').dataset.exact");
    let estimate: Value = serde_json::from_str(estimate.as_str().unwrap()).unwrap();
    assert_eq!(estimate, sprt["elo"], "the estimate is sprt.json's");
    assert_eq!(page_standings(&mut page), file_standings(&out), "the page's standings are standings.json's");
    stop(server);
}

#[test]
fn a_missing_directory_or_an_address_in_use_says_what_to_give_instead() {
    let scratch = Scratch::new("serve-errors");
    let missing = scratch.join("missing");
    let (_, stderr) = arena_expect(&["serve", &missing, "--listen", "127.0.0.1:0"], 2);
    assert!(stderr.contains("is not a directory") && stderr.contains("--out"), "{stderr}");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let address = taken.local_addr().expect("an address").to_string();
    let (_, stderr) = arena_expect(&["serve", scratch.path().to_str().unwrap(), "--listen", &address], 2);
    assert!(stderr.contains("in use") || stderr.contains("give another port"), "{stderr}");
    let (_, stderr) = arena_expect(&["match", "--games", "2", "--serve", &address], 2);
    assert!(stderr.contains("--serve") && stderr.contains("give another port"), "{stderr}");
}

/// `GET path` of the server at `url` until it answers 200 (the game named
/// may not be read or in flight yet), for at most [`PATIENCE`]: the body.
fn get_found(url: &str, path: impl Fn() -> Option<String>) -> String {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(path) = path() {
            let (status, body) = get(url, &path);
            if status.contains("200") {
                return body;
            }
        }
        assert!(Instant::now() < deadline, "no answer from {url} in {PATIENCE:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn an_engine_programs_games_are_drawn_in_its_own_page_and_a_recorded_one_opens_at_its_end() {
    let scratch = Scratch::new("serve-engine");
    let out = scratch.join("out");
    let slow = test_bot("slow.py");
    let engine = format!("{} engine leduc", bin("arena"));
    let flags = ["--engine", &engine, "--games", "12", "--concurrency", "1", "--seed", "2", "--out", &out];
    let args = match_args(
        &scratch,
        &[("a", &slow), ("b", &slow)],
        &patient(&[&flags[..], &["--serve", "127.0.0.1:0"]].concat()),
    );
    let (mut arena, url, stderr) = start(&args, "live page: ");
    // `arena engine leduc` draws its pages: a game in flight is shown in Leduc's page, not the generic one.
    let in_flight = get_found(&url, || {
        let state: Value = serde_json::from_str(&get(&url, "/state").1).ok()?;
        Some(format!("/flight/{}", state["flights"][0]["id"].as_u64()?))
    });
    let leduc = "<title>Leduc Hold'em game</title>";
    assert!(
        in_flight.contains(leduc) && in_flight.contains("in flight"),
        "{}",
        &in_flight[..in_flight.len().min(2000)]
    );
    // A recorded game opens at its last step, its result shown.
    wait_for_records(&out, 1);
    let line = std::fs::read_to_string(format!("{out}/games.jsonl")).unwrap().lines().next().unwrap().to_string();
    let record: Value = serde_json::from_str(&line).unwrap();
    let (id, steps) = (record["id"].as_u64().unwrap(), record["events"].as_array().unwrap().len());
    let recorded = get_found(&url, || Some(format!("/game/{id}")));
    assert!(recorded.contains(leduc), "{}", &recorded[..recorded.len().min(2000)]);
    assert!(recorded.contains(&format!("\"#step={steps}\"")), "game {id} does not open at its end, step {steps}");
    assert!(arena.wait().expect("arena is waited for").success(), "{}", stderr.join().unwrap());

    // Served from its files, by `arena serve` (which runs no program named in them): the generic page, at the end.
    let serve: Vec<String> = ["serve", &out, "--listen", "127.0.0.1:0"].iter().map(|s| s.to_string()).collect();
    let (server, url, _) = start(&serve, "live page: ");
    let recorded = get_found(&url, || Some(format!("/game/{id}")));
    assert!(!recorded.contains(leduc) && recorded.contains(&format!("\"#step={steps}\"")), "game {id} from the files");
    stop(server);
}

#[test]
fn a_running_league_served_from_its_directory_has_its_games_planned_and_the_time_left() {
    let scratch = Scratch::new("serve-plan");
    let out = scratch.join("out");
    let (greedy, random, slow) = (bin("greedy-bot"), bin("random-bot"), test_bot("slow.py"));
    let mut args = match_args(
        &scratch,
        &[("g", &greedy), ("r", &random), ("s", &slow)],
        &patient(&["--games", "2", "--concurrency", "2", "--seed", "4", "--out", &out]),
    );
    args[0] = "league".to_string();
    let mut league =
        Command::new(bin("arena")).args(&args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    wait_for_records(&out, 1);
    // Not served by the league itself: `arena serve DIR` reads the plan from league.json.
    let serve: Vec<String> = ["serve", &out, "--listen", "127.0.0.1:0"].iter().map(|s| s.to_string()).collect();
    let (server, url, _) = start(&serve, "live page: ");
    let deadline = Instant::now() + PATIENCE;
    let state = loop {
        let state: Value = serde_json::from_str(&get(&url, "/state").1).unwrap_or_default();
        if state["seconds_left"].as_f64().is_some_and(|s| s > 0.0) {
            break state;
        }
        assert!(Instant::now() < deadline && league.try_wait().unwrap().is_none(), "no time left shown: {state}");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(league.wait().unwrap().success());
    stop(server);
    let played = std::fs::read_to_string(format!("{out}/games.jsonl")).unwrap().lines().count() as u64;
    let (total, games) = (state["total"].as_u64(), state["games"].as_u64().unwrap());
    assert_eq!(total, Some(played), "the games planned are those the league played: {state}");
    assert_eq!(state["left"].as_u64(), Some(played - games), "{state}");
    let rate = state["rate"].as_f64().unwrap();
    // (To a few units in the last place: serde_json reads floats back to within one.)
    let expected = (played - games) as f64 / rate;
    let seconds_left = state["seconds_left"].as_f64().unwrap();
    assert!((seconds_left - expected).abs() <= 1e-9 * expected, "{seconds_left} s left, not {expected}: {state}");
}
