//! `arena play --web`: a person's seat played in headless Chromium by
//! clicks only (a tile, then an end when it fits more than one; a Leduc
//! action; the leave button) in the tab opened last (an older one only
//! shows the game), the games found in the records and verified;
//! a reload mid-game resumes it where it stands; a post out of date, naming
//! no move, from a page that no longer holds the seat or from another
//! site's page is refused and changes nothing. With
//! `ARENA_DOCS_SCREENSHOT=1` the All Fives game's fourth move is taken as
//! docs/play-web.png.

use e2e::*;
use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long the tests wait for anything, generously: a deadline, not a measure of speed.
const PATIENCE: Duration = Duration::from_secs(60);

/// `arena play --web` with `args` (and patient limits), the address of its
/// seat, and a thread that gathers the rest of its stderr.
fn start_web(args: &[&str]) -> (Child, String, std::thread::JoinHandle<String>) {
    let mut child = Command::new(bin("arena"))
        .args(["play", "--web"])
        .args(args)
        .args(PATIENT)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arena starts");
    let (url, rest) = address_on_stderr(&mut child, "your seat: ");
    assert!(url.starts_with("http://127.0.0.1:"), "bound to this machine only by default: {url}");
    (child, url, rest)
}

/// `POST path` to the seat at `url` (with `extra` header lines): the status code and the body.
fn post(url: &str, path: &str, extra: &str) -> (u16, String) {
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = std::net::TcpStream::connect(host).expect("the seat answers");
    write!(stream, "POST {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Content-Length: 0\r\nConnection: close\r\n\r\n")
        .expect("the post is sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("the answer reads");
    let status = answer.split_whitespace().nth(1).and_then(|code| code.parse().ok()).expect("a status");
    (status, answer.split_once("\r\n\r\n").map_or("", |(_, body)| body).to_string())
}

/// What the page shows now: the move awaited (`""` when none), whether it
/// holds the seat, whether the sitting is over, and the position.
fn seat(page: &mut Devtools) -> serde_json::Value {
    let shown = page.eval(
        "JSON.stringify((() => { const s = document.getElementById('seat'); \
         return s ? {number: s.dataset.number, holds: s.dataset.holds, ended: s.dataset.ended, \
         position: document.getElementById('position').textContent, \
         news: document.getElementById('news').children.length, status: document.getElementById('status').textContent} : {}; })())",
    );
    serde_json::from_str(shown.as_str().unwrap_or("{}")).expect("JSON")
}

/// Waits until the page (holding the seat) awaits a move other than
/// `after`, and returns it; `None` once `arena` has exited.
fn next_move(page: &mut Devtools, arena: &mut Child, after: &str) -> Option<(String, serde_json::Value)> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let shown = seat(page);
        let number = shown["number"].as_str().unwrap_or_default().to_string();
        if !number.is_empty() && number != after && shown["holds"] == "true" {
            return Some((number, shown));
        }
        if arena.try_wait().expect("arena is waited for").is_some() {
            return None;
        }
        assert!(Instant::now() < deadline, "no move awaited after move {after:?} in {PATIENCE:?}: {shown}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Clicks a move as a person would: the first playable tile of the hand
/// that fits more than one end (then the first end offered), or else the
/// first playable tile, or else the first move's button.
const CLICK_A_MOVE: &str = "(() => { \
    const tiles = [...document.querySelectorAll('#hand button[data-tile]:not([disabled])')]; \
    const tile = tiles.find((t) => t.dataset.moves > 1) || tiles[0]; \
    if (tile) { tile.click(); const end = document.querySelector('#ends [data-move]'); \
      if (end) { end.click(); return 'tile and end'; } return 'tile'; } \
    const move = document.querySelector('#moves [data-move]:not([disabled])'); \
    if (move) { move.click(); return 'move'; } return 'nothing'; })()";

/// Plays by clicks until `arena` exits; `each` is called at every move
/// awaited (its number and what the page shows) before the click, and
/// says whether to click a move. Returns how many moves were clicked, and
/// how many of them took a tile and an end.
fn click_through(
    page: &mut Devtools,
    arena: &mut Child,
    mut each: impl FnMut(&mut Devtools, &str, &serde_json::Value) -> bool,
) -> (usize, usize) {
    let (mut clicked, mut with_end, mut last) = (0, 0, String::new());
    while let Some((number, shown)) = next_move(page, arena, &last) {
        last = number.clone();
        if !each(page, &number, &shown) {
            continue;
        }
        let how = page.eval(CLICK_A_MOVE);
        assert_ne!(how, "nothing", "move {number} offered nothing to click: {shown}");
        with_end += usize::from(how == "tile and end");
        clicked += 1;
    }
    (clicked, with_end)
}

#[test]
fn a_game_of_all_fives_is_played_by_clicks_resumed_after_a_reload_and_recorded() {
    let scratch = Scratch::new("web-play-all-fives");
    let Some(browser) = Browser::find(&scratch) else { return };
    let out = scratch.join("out");
    let greedy = format!("greedy={} {}", bin("greedy-bot"), scratch.marker());
    let args = ["--bot", &greedy, "--seed", "63", "--variant", "deal=five", "--variant", "max_hands=1", "--out", &out];
    let (mut arena, url, stderr) = start_web(&args);
    let mut page = browser.open(&url);
    let mut reloaded = false;
    let (clicked, with_end) = click_through(&mut page, &mut arena, |page, number, shown| {
        let position = shown["position"].as_str().expect("a position").to_string();
        assert!(position.contains("  hand:    [") && position.contains("  unseen:  ["), "{position}");
        let drawn = page.eval("document.querySelectorAll('#board .tile').length").as_u64();
        let empty = position.contains("layout:  (empty");
        assert!(empty || drawn > Some(0), "the layout is drawn on the board: {drawn:?}");
        if number == "4" && std::env::var_os("ARENA_DOCS_SCREENSHOT").is_some() {
            let shot = page.call("Page.captureScreenshot", serde_json::json!({"format": "png"}));
            let png = base64::Engine::decode(
                &base64::engine::general_purpose::STANDARD,
                shot["data"].as_str().expect("a screenshot"),
            )
            .expect("base64");
            std::fs::write(repo_path("docs/play-web.png"), png).expect("docs/play-web.png is written");
        }
        if number != "2" || reloaded {
            return true;
        }
        // A post out of date, out of range or from no page holding the seat: refused, nothing changes.
        let holder = page.eval("holder").as_u64().expect("the page holds the seat");
        let (status, said) = post(&url, &format!("/move?holder={holder}&number=1&index=0"), "");
        assert_eq!(status, 409, "{said}");
        assert!(said.contains("move 1 is not the move awaited, which is move 2"), "{said}");
        let (status, said) = post(&url, &format!("/move?holder={holder}&number=2&index=99"), "");
        assert_eq!((status, said.contains("there is no choice 99 in move 2")), (400, true), "{said}");
        let (status, said) = post(&url, &format!("/move?holder={}&number=2&index=0", holder + 7), "");
        assert_eq!((status, said.contains("another page has taken this seat")), (409, true), "{said}");
        let from = "Origin: http://elsewhere.example\r\n";
        let (status, said) = post(&url, &format!("/move?holder={holder}&number=2&index=0"), from);
        assert_eq!((status, said.contains("may not reach this seat")), (403, true), "another site's page: {said}");
        assert_eq!(seat(page)["number"], "2", "still awaiting move 2");
        // Closing and opening again: the same move awaited, the same position, what happened since shown.
        page.call("Page.reload", serde_json::json!({}));
        let deadline = Instant::now() + PATIENCE;
        loop {
            let again = seat(page);
            if again["number"] == "2" && again["holds"] == "true" && again["news"].as_u64() > Some(0) {
                assert_eq!(again["position"], shown["position"], "the game where it stood");
                break;
            }
            assert!(Instant::now() < deadline, "the reloaded page did not resume: {again}");
            std::thread::sleep(Duration::from_millis(20));
        }
        reloaded = true;
        true
    });
    let output = finish(arena);
    let stderr = stderr.join().expect("stderr is read");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(reloaded, "the game ended before move 2 ({clicked} moves)");
    assert!(clicked >= 3, "{clicked} moves clicked");
    eprintln!("all fives by clicks: {clicked} moves, {with_end} of them a tile then an end");
    assert!(stdout.contains("recorded in "), "{stdout}");
    let records = records(&out);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].bots, ["you", "greedy"]);
    let (verified, _) = arena_expect(&["verify", &out], 0);
    assert!(verified.contains("1 games verified: every record agrees"), "{verified}");
    let moves = records[0].events.iter().filter(|e| e["type"] == "play" && e["seat"] == 0);
    assert_eq!(moves.count(), clicked, "every click is a move of the record");
    drop(page);
    scratch.assert_nothing_left(PATIENCE);
}

#[test]
fn leduc_hands_are_played_by_clicks_in_the_tab_opened_last_and_the_leave_button_quits_as_q_does() {
    let scratch = Scratch::new("web-play-leduc");
    let Some(browser) = Browser::find(&scratch) else { return };
    let out = scratch.join("out");
    let rules = format!("rules={} --play rules {}", bin("leduc-bot"), scratch.marker());
    let args = ["--game", "leduc", "--bot", &rules, "--games", "3", "--seed", "1", "--out", &out];
    let (mut arena, url, stderr) = start_web(&args);
    // A second page takes the seat; the first then only shows the game, and says so.
    let other = Scratch::new("web-play-leduc-first-tab");
    let mut first = Browser::find(&other).expect("chromium is installed").open(&url);
    let holds = |page: &mut Devtools, holds: &str| {
        let deadline = Instant::now() + PATIENCE;
        while seat(page)["holds"] != holds {
            assert!(Instant::now() < deadline, "the page never said it holds the seat: {holds}: {}", seat(page));
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    holds(&mut first, "true");
    let mut page = browser.open(&url);
    holds(&mut page, "true");
    holds(&mut first, "false");
    let watching = seat(&mut first);
    assert!(watching["status"].as_str().unwrap().contains("another page has taken this seat"), "{watching}");
    assert_eq!(first.eval("document.querySelectorAll('#moves button:not([disabled])').length"), 0);
    drop(first);
    let mut left = false;
    let (clicked, _) = click_through(&mut page, &mut arena, |page, _, shown| {
        let position = shown["position"].as_str().expect("a position");
        assert!(position.contains("your card ") && position.contains(", pot "), "{position}");
        // The table shows your card, and not the other seat's.
        let cards = page.eval("[...document.querySelectorAll('#seats .card')].map((c) => c.dataset.card).join(',')");
        let cards = cards.as_str().expect("the cards").to_string();
        let (yours, theirs) = cards.split_once(',').expect("two seats");
        assert!(position.contains(&format!("your card {yours}")) && theirs.is_empty(), "{cards}: {position}");
        // Two hands played, the leave button in the third.
        if !left && records_so_far(page) >= 2 {
            assert_eq!(
                page.eval("(() => { const b = document.getElementById('leave'); b.click(); return b.disabled; })()"),
                true
            );
            left = true;
            return false;
        }
        true
    });
    let output = finish(arena);
    let stderr = stderr.join().expect("stderr is read");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(left, "{clicked} moves clicked, the leave button never was:\n{stdout}\n{stderr}");
    assert_eq!(output.status.code(), Some(130), "{stdout}\n{stderr}");
    assert!(stdout.contains("you left game 3: it is not recorded (the 2 before it are)"), "{stdout}");
    assert_eq!(records(&out).len(), 2);
    let (verified, _) = arena_expect(&["verify", &out], 0);
    assert!(verified.contains("2 games verified: every record agrees"), "{verified}");
    drop(page);
    scratch.assert_nothing_left(PATIENCE);
}

/// How many games the page's log says have ended.
fn records_so_far(page: &mut Devtools) -> u64 {
    let ended = page.eval("(document.getElementById('log').textContent.match(/^game over /gm) || []).length");
    ended.as_u64().expect("a count")
}

#[test]
fn an_address_in_use_is_a_usage_error_naming_the_flag() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = taken.local_addr().expect("an address").port().to_string();
    let greedy = format!("greedy={}", bin("greedy-bot"));
    let (_, stderr) = arena_expect(&["play", "--web", &port, "--bot", &greedy], 2);
    assert!(stderr.contains(&format!("--web: cannot listen on 127.0.0.1:{port}")), "{stderr}");
    assert!(stderr.contains("give another port"), "{stderr}");
}
