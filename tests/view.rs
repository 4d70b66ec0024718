//! `arena view`: the page it writes for a real game, checked as text, then
//! opened in headless Chromium (Debian's `chromium`): the layout rendered
//! at a given step, the real buttons and keys driven through the page's
//! address (`#step=N&press=…`), and screenshots of two positions.
//!
//! Without `chromium` the browser checks are skipped with a notice (see
//! [`optional_tool`]), unless `ARENA_REQUIRE_TOOLS=1`.

use e2e::*;
use serde_json::Value;
use std::path::Path;

/// A short real match; returns its output directory's `games.jsonl`.
fn play_match(scratch: &Scratch) -> String {
    let out = scratch.join("out");
    let bots = [("greedy", bin("greedy-bot")), ("random", bin("random-bot"))];
    let bots: Vec<(&str, &str)> = bots.iter().map(|(n, c)| (*n, c.as_str())).collect();
    arena_expect(&match_args(scratch, &bots, &["--games", "2", "--seed", "7", "--out", &out]), 0);
    Path::new(&out).join("games.jsonl").to_string_lossy().into_owned()
}

/// The tiles on the board after the first `step` events of `record`, each as "a-b".
fn board_after(record: &Record, step: usize) -> Vec<String> {
    let mut board = Vec::new();
    for event in &record.events[..step] {
        match event["type"].as_str() {
            Some("hand_start") => board.clear(),
            Some("play") => {
                let (a, b) = (event["tile"][0].as_u64().unwrap(), event["tile"][1].as_u64().unwrap());
                board.push(format!("{}-{}", a.min(b), a.max(b)));
            }
            _ => {}
        }
    }
    board.sort();
    board
}

/// Every value of `attribute` inside the element with `id` (to its closing `</tag>`).
fn attributes_in(dom: &str, tag: &str, id: &str, attribute: &str) -> Vec<String> {
    let start = dom.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no #{id} in the page:\n{dom}"));
    let end = start + dom[start..].find(&format!("</{tag}>")).expect("the element ends");
    let needle = format!("{attribute}=\"");
    let mut values = Vec::new();
    let mut rest = &dom[start..end];
    while let Some(at) = rest.find(&needle) {
        rest = &rest[at + needle.len()..];
        let close = rest.find('"').expect("a quoted value");
        values.push(rest[..close].to_string());
        rest = &rest[close..];
    }
    values
}

/// The value of `attribute` on the `<main id="viewer">` element.
fn viewer_attribute(dom: &str, attribute: &str) -> Option<String> {
    let start = dom.find("<main id=\"viewer\"").expect("the viewer element");
    let tag = &dom[start..start + dom[start..].find('>').unwrap()];
    let needle = format!("{attribute}=\"");
    let at = tag.find(&needle)? + needle.len();
    Some(tag[at..at + tag[at..].find('"').unwrap()].to_string())
}

/// The page's DOM after it has run, checked to be the viewer without a press error.
fn viewer_dom(browser: &Browser, page: &str, hash: &str) -> String {
    let dom = browser.run(page, hash, &["--dump-dom"]);
    assert!(dom.contains("<main id=\"viewer\""), "no page was rendered:\n{dom}");
    assert_eq!(viewer_attribute(&dom, "data-error"), None, "#{hash}");
    dom
}

/// Width and height of a PNG, from its header.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let word = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

#[test]
fn the_page_renders_the_layout_and_its_controls_step_through_the_game() {
    let scratch = Scratch::new("view");
    let games = play_match(&scratch);
    let record = records(Path::new(&games).parent().unwrap().to_str().unwrap()).remove(0);
    let page = scratch.join("game.html");
    let (stdout, _) = arena_expect(&["view", &games, "--game", "0", "-o", &page], 0);
    assert!(stdout.contains(&page), "{stdout}");

    // Self-contained: nothing to fetch.
    let html = std::fs::read_to_string(&page).unwrap();
    for external in ["http://", "https://", "<link", "src=", "@import"] {
        assert!(!html.contains(external), "the page refers to something outside it: {external}");
    }
    // Written to standard output without -o.
    let (to_stdout, _) = arena_expect(&["view", &games, "--game", "0"], 0);
    assert_eq!(to_stdout, html);

    let Some(browser) = Browser::find(&scratch) else { return };
    let events = &record.events;
    // A position with the spinner's cross: just after the first play on a short end.
    let cross =
        1 + events.iter().position(|e| e["type"] == "play" && e["end"].as_u64() >= Some(2)).expect("a short end");
    let dom = viewer_dom(&browser, &page, &format!("step={cross}"));
    assert_eq!(viewer_attribute(&dom, "data-step").as_deref(), Some(cross.to_string().as_str()));
    // The tab names the game, the bots and the result.
    let title = dom.split("<title>").nth(1).and_then(|rest| rest.split("</title>").next()).expect("a title");
    let winner = &record.bots[record.result.ranks.iter().position(|&rank| rank == 0).unwrap()];
    let scores = record.result.scores.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let bots = &record.bots;
    let expected = format!("All Fives · game 0: {} · {winner} won {}", bots.join(" vs "), scores.join("–"));
    assert_eq!(title, expected);
    let mut shown = attributes_in(&dom, "svg", "board", "data-tile");
    shown.sort();
    assert_eq!(shown, board_after(&record, cross), "the layout at step {cross}");
    let arms = attributes_in(&dom, "svg", "board", "data-arm");
    for arm in ["center", "west", "east"] {
        assert!(arms.iter().any(|a| a == arm), "no {arm} arm at step {cross}: {arms:?}");
    }
    assert!(arms.iter().any(|a| a == "north" || a == "south"), "no short end taken at step {cross}: {arms:?}");

    // The next play, by the button and by the arrow key; back again.
    let play = cross + events[cross..].iter().position(|e| e["type"] == "play").unwrap();
    for press in ["next", "key:ArrowRight"] {
        let dom = viewer_dom(&browser, &page, &format!("step={play}&press={press}"));
        assert_eq!(viewer_attribute(&dom, "data-step"), Some((play + 1).to_string()), "{press}");
        let mut shown = attributes_in(&dom, "svg", "board", "data-tile");
        shown.sort();
        assert_eq!(shown, board_after(&record, play + 1), "after {press} from step {play}");
        assert_eq!(shown.len(), board_after(&record, play).len() + 1, "{press} played a tile");
    }
    let dom = viewer_dom(&browser, &page, &format!("step={play}&press=next,next,prev,prev"));
    assert_eq!(viewer_attribute(&dom, "data-step"), Some(play.to_string()));

    // Jumping between hands: the hand buttons, PageDown, PageUp.
    let hand_starts: Vec<usize> =
        events.iter().enumerate().filter(|(_, e)| e["type"] == "hand_start").map(|(i, _)| i + 1).collect();
    assert!(hand_starts.len() >= 2, "the game has several hands");
    let dom = viewer_dom(&browser, &page, "press=hand:2");
    assert_eq!(viewer_attribute(&dom, "data-step"), Some(hand_starts[1].to_string()));
    assert_eq!(viewer_attribute(&dom, "data-hand").as_deref(), Some("2"));
    assert!(attributes_in(&dom, "svg", "board", "data-tile").is_empty(), "a fresh hand has an empty layout");
    let dom = viewer_dom(&browser, &page, &format!("step={cross}&press=key:PageDown,key:PageDown,key:PageUp"));
    assert_eq!(viewer_attribute(&dom, "data-step"), Some(hand_starts[1].to_string()));

    // Screenshots of two positions: real images, and different.
    let first = browser.screenshot(&page, &format!("step={cross}"), &scratch.join("cross.png"));
    let second = browser.screenshot(&page, &format!("step={cross}&press=next-hand"), &scratch.join("next.png"));
    for png in [&first, &second] {
        assert_eq!(png_size(png), (1280, 900));
        assert!(png.len() > 20_000, "a screenshot of {} bytes is next to blank", png.len());
    }
    assert_ne!(first, second, "stepping did not change the picture");
}

#[test]
fn mistakes_are_usage_errors_with_clear_messages() {
    let scratch = Scratch::new("view-errors");
    let games = play_match(&scratch);
    let lines: Vec<String> = std::fs::read_to_string(&games).unwrap().lines().map(String::from).collect();
    let write = |name: &str, lines: &[String]| {
        let path = scratch.join(name);
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        path
    };
    let check = |args: &[&str], wanted: &str| {
        let (_, stderr) = arena_expect(args, 2);
        assert!(stderr.contains(wanted), "arena {args:?}: wanted {wanted:?} in\n{stderr}");
    };

    check(&["view", &scratch.join("missing.jsonl"), "--game", "0"], "cannot read");
    check(&["view", &games, "--game", "9"], "has no game 9; its games are 0-1");
    let corrupt = write("corrupt.jsonl", &[lines[0].clone(), "{\"id\": 1, oops".into(), lines[1].clone()]);
    check(&["view", &corrupt, "--game", "1"], "line 2 is corrupt");
    let chess = write("chess.jsonl", &[lines[0].replace("\"game\":\"all-fives\"", "\"game\":\"chess\"")]);
    check(&["view", &chess, "--game", "0"], "is a record of another game: unknown game \"chess\"");
    let broken = write("broken.jsonl", &[lines[0].replace("\"type\":\"play\"", "\"type\":\"jump\"")]);
    check(&["view", &broken, "--game", "0"], "is not a valid all-fives record");
    check(&["view", &games, "--game", "0", "-o", &scratch.join("no/such/dir/game.html")], "cannot write");
    check(&["view", &games], "--game");
    let events = serde_json::from_str::<Value>(&lines[0]).unwrap()["events"].as_array().unwrap().len();
    check(
        &["view", &games, "--game", "0", "--step", &(events + 1).to_string()],
        &format!("--step {}: game 0 has {events} events, so its steps are 0 to {events}", events + 1),
    );
}

/// `--step N`: the page opens after the first N events, unless its address
/// names a step of its own; the page is the same page otherwise.
#[test]
fn step_opens_the_page_at_a_position() {
    let scratch = Scratch::new("view-step");
    let games = play_match(&scratch);
    let (plain, _) = arena_expect(&["view", &games, "--game", "1"], 0);
    let page = scratch.join("game.html");
    arena_expect(&["view", &games, "--game", "1", "--step", "17", "-o", &page], 0);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("\"#step=17\""), "the page names its first position");
    let Some(browser) = Browser::find(&scratch) else { return };
    let dom = viewer_dom(&browser, &page, "");
    assert_eq!(viewer_attribute(&dom, "data-step").as_deref(), Some("17"));
    let dom = viewer_dom(&browser, &page, "press=next");
    assert_eq!(viewer_attribute(&dom, "data-step").as_deref(), Some("18"), "presses start from --step");
    let dom = viewer_dom(&browser, &page, "step=5");
    assert_eq!(viewer_attribute(&dom, "data-step").as_deref(), Some("5"), "the address wins");
    let plain_page = scratch.join("plain.html");
    std::fs::write(&plain_page, plain).unwrap();
    let dom = viewer_dom(&browser, &plain_page, "");
    assert_eq!(viewer_attribute(&dom, "data-step").as_deref(), Some("1"), "without --step, the first position");
}

#[test]
fn a_marked_page_shows_the_decision_over_the_game_escaped() {
    let scratch = Scratch::new("view-mark");
    let games = play_match(&scratch);
    let page = scratch.join("marked.html");
    let mark = "seat 1: recorded <pass>, new chose \"raise\"";
    arena_expect(&["view", &games, "--game", "0", "--step", "5", "--mark", mark, "-o", &page], 0);
    let html = std::fs::read_to_string(&page).unwrap();
    let banner = "<b>The replayed decision, at step 5:</b> seat 1: recorded &lt;pass&gt;, new chose &quot;raise&quot; ";
    assert!(html.contains(banner), "{}", &html[..html.len().min(3000)]);
    assert!(html.contains("\"#step=5\""), "the page opens at the decision");
    let (_, stderr) = arena_expect(&["view", &games, "--game", "0", "--mark", mark], 2);
    assert!(stderr.contains("--step"), "a mark needs its step: {stderr}");
}

/// The items of `#log` in `dom`, each from its `<li` to its `</li>`.
fn log_items(dom: &str) -> Vec<&str> {
    let start = dom.find("id=\"log\"").unwrap_or_else(|| panic!("no #log:\n{dom}"));
    let log = &dom[start..start + dom[start..].find("</ol>").expect("the log ends")];
    log.split("<li").skip(1).map(|item| &item[..item.find("</li>").expect("an item ends")]).collect()
}

#[test]
fn the_generic_page_of_an_engine_game_shows_who_was_told_each_event_and_its_texts_when_the_engine_is_named() {
    let scratch = Scratch::new("view-engine");
    let Some(browser) = Browser::find(&scratch) else { return };
    let engine = format!("{} {}", python(), repo_path("tests/engines/liars_dice.py"));
    let bot = |name: &str| format!("{name}={} {}", python(), repo_path(&format!("tests/bots/{name}.py")));
    let out = scratch.join("out");
    let (first, last) = (bot("first_legal"), bot("last_legal"));
    let args = ["match", "--engine", &engine, "--bot", &first, "--bot", &last, "--games", "2", "--seed", "4"];
    arena_expect(&[&args[..], &["--out", &out], &PATIENT[..]].concat(), 0);
    // Without --engine nothing runs: the page says what it lacks and how to ask for it.
    let bare = scratch.join("bare.html");
    let (_, stderr) = arena_expect(&["view", &out, "--game", "0", "-o", &bare], 0);
    assert!(stderr.contains("runs no program unasked"), "{stderr}");
    let dom = viewer_dom(&browser, &bare, "");
    assert!(dom.contains("are not in the record: arena view --engine COMMAND"), "{dom}");
    assert!(!dom.contains("data-told=\""), "{dom}");
    // With --engine the game is played again with descriptions.
    let page = scratch.join("told.html");
    arena_expect(&["view", &out, "--game", "0", "-o", &page, "--engine", &engine], 0);
    let dom = viewer_dom(&browser, &page, "");
    let items = log_items(&dom);
    let record = &records(&out)[0];
    let bots = &record.bots;
    let events = &record.events;
    assert_eq!(items.len(), events.len(), "{dom}");
    // The two rolls are chance events, each told to its own seat only, with its text.
    for seat in 0..2 {
        let item = items[seat];
        assert_eq!(events[seat]["to"], seat, "{record:?}");
        assert!(item.contains(&format!("data-told=\"{seat}\"")), "{item}");
        assert!(item.contains(&format!("told to seat {seat} ({})", bots[seat])), "{item}");
        let dice: Vec<String> = events[seat]["dice"].as_array().unwrap().iter().map(|d| d.to_string()).collect();
        let text = format!("data-seat=\"{seat}\">seat {seat} ({}): you rolled {}</div>", bots[seat], dice.join(" "));
        assert!(item.contains(&text), "{item}");
        assert_eq!(item.matches("class=\"text\"").count(), 1, "no other seat's text: {item}");
    }
    // A bid is told to every seat, each with its text.
    let bid = items[2];
    assert!(bid.contains("data-told=\"0,1\"") && bid.contains("told to every seat"), "{bid}");
    assert_eq!(bid.matches("seat 0 bids ").count(), 2, "{bid}");
}
