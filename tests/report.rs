//! `arena report`: the page of a league, an SPRT and a league still being
//! written. Its data is checked against `standings.json` and `sprt.json`,
//! then the page is opened in headless Chromium (Debian's `chromium`): every
//! number it marks (`data-key`, `data-value`) is the files' number, the
//! charts are drawn, a game of the list opens its replay, and nothing was
//! written to the console (no script error, in the page or its replay).
//!
//! Without `chromium` the browser checks are skipped with a notice (see
//! [`optional_tool`]), unless `ARENA_REQUIRE_TOOLS=1`.

use e2e::*;
use serde_json::Value;
use std::path::Path;

/// A short round robin of the sample bots (search-bot at a small budget); returns its directory.
fn play_league(scratch: &Scratch) -> (String, String) {
    let out = scratch.join("league");
    let search = format!("{} --playouts 20", bin("search-bot"));
    let (stdout, _) = arena_expect(
        &[
            "league",
            "--bot",
            &format!("greedy={}", bin("greedy-bot")),
            "--bot",
            &format!("random={}", bin("random-bot")),
            "--bot",
            &format!("search={search}"),
            "--games",
            "20",
            "--seed",
            "11",
            "--out",
            &out,
        ],
        0,
    );
    (out, stdout)
}

/// The report's data, as embedded in the page.
fn page_data(page: &str) -> Value {
    let html = std::fs::read_to_string(page).expect("the page was written");
    let start = r#"<script type="application/json" id="report">"#;
    let json = html.split(start).nth(1).and_then(|rest| rest.split("</script>").next()).expect("the report's data");
    serde_json::from_str(json).expect("the data is JSON")
}

/// The JSON file `name` of `dir`.
fn json_file(dir: &str, name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(Path::new(dir).join(name)).expect(name)).expect("JSON")
}

/// Every `(data-key, data-value)` pair of the DOM, the key parsed (a JSON path).
fn marked_numbers(dom: &str) -> Vec<(Vec<Value>, f64)> {
    let unescape =
        |text: &str| text.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    let mut found = Vec::new();
    for piece in dom.split("data-key=\"").skip(1) {
        let key = &piece[..piece.find('"').expect("a quoted key")];
        let value = piece.split("data-value=\"").nth(1).and_then(|v| v.split('"').next()).expect("a value by its key");
        let path: Vec<Value> = serde_json::from_str(&unescape(key)).expect("a key is a JSON path");
        // Parsed as serde_json parses the files, so that equal texts give equal numbers.
        let number = serde_json::from_str::<f64>(value).unwrap_or_else(|_| panic!("{value} is not a number"));
        found.push((path, number));
    }
    found
}

/// The value at `path` of `json` (strings name members, numbers index arrays).
fn at<'a>(json: &'a Value, path: &[Value]) -> &'a Value {
    path.iter().fold(json, |value, step| match step {
        Value::Number(n) => &value[n.as_u64().expect("an index") as usize],
        Value::String(key) => &value[key.as_str()],
        other => panic!("not a path step: {other}"),
    })
}

/// The value of `attribute` on the first element whose start tag begins with `tag_start`.
fn attribute(dom: &str, tag_start: &str, attribute: &str) -> Option<String> {
    let start = dom.find(tag_start).unwrap_or_else(|| panic!("no {tag_start} in the page"));
    let tag = &dom[start..start + dom[start..].find('>').unwrap()];
    let needle = format!(" {attribute}=\"");
    let at = tag.find(&needle)? + needle.len();
    Some(tag[at..at + tag[at..].find('"').unwrap()].to_string())
}

/// The markup of the `<svg id="ID">` element.
fn svg<'a>(dom: &'a str, id: &str) -> &'a str {
    let start = dom.find(&format!("<svg id=\"{id}\"")).unwrap_or_else(|| panic!("no #{id}"));
    &dom[start..start + dom[start..].find("</svg>").unwrap()]
}

/// The page's DOM in Chromium, checked to have run without a script error
/// and with nothing written to the console (by the page or its replay).
fn page_dom(browser: &Browser, page: &str, hash: &str) -> String {
    let (dom, console) = browser.run_logged(page, hash, &["--dump-dom"]);
    assert!(console.is_empty(), "console messages at #{hash}:\n{}", console.join("\n"));
    assert_eq!(attribute(&dom, "<main id=\"page\"", "data-state").as_deref(), Some("ready"), "#{hash}");
    assert_eq!(attribute(&dom, "<main id=\"page\"", "data-errors"), None, "script errors at #{hash}");
    assert_eq!(attribute(&dom, "<main id=\"page\"", "data-error"), None, "#{hash}");
    dom
}

#[test]
fn a_league_report_shows_the_files_numbers_and_opens_replays() {
    let scratch = Scratch::new("report-league");
    let (out, league_stdout) = play_league(&scratch);
    let page = scratch.join("league.html");
    let (stdout, stderr) = arena_expect(&["report", &out, "-o", &page], 0);
    assert!(stdout.contains(&format!("wrote {page} (60 games")), "{stdout}");
    assert!(!stdout.contains("partial") && stderr.is_empty(), "{stdout}\n{stderr}");
    assert!(Path::new(&scratch.join("league-files/records-0.js")).is_file());

    let data = page_data(&page);
    let standings = json_file(&out, "standings.json");
    assert_eq!(data["standings"], standings, "the page's standings are standings.json");
    let ranked = Standings::read(&out);
    assert_eq!(data["partial"], Value::Null);
    // The table is the terminal's: every row's cells are on one line of `arena league`'s table.
    for row in data["tables"]["main"]["rows"].as_array().unwrap() {
        let cells: Vec<&str> = row.as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        assert!(league_stdout.lines().any(|line| cells.iter().all(|c| line.contains(c))), "{cells:?}\n{league_stdout}");
    }
    // The ratings' course ends at the standings.
    let last = data["history"].as_array().unwrap().last().unwrap();
    assert_eq!(last["games"], 60);
    for (i, name) in data["bots"].as_array().unwrap().iter().enumerate() {
        let bot = ranked.bot(name.as_str().unwrap());
        assert_eq!(last["elo"][i], serde_json::json!([bot.rating, bot.rating_interval]), "{name}");
    }
    // Move times from the records: every bot moved.
    for detail in data["details"].as_array().unwrap() {
        let moves = &detail["moves"];
        assert!(
            moves["moves"].as_u64() > Some(0) && moves["median_us"].as_u64() <= moves["p99_us"].as_u64(),
            "{detail}"
        );
    }

    // Fewer replays: a sample, in fewer chunk files; every game is still listed.
    let sampled = scratch.join("sampled.html");
    let (stdout, _) = arena_expect(&["report", &out, "-o", &sampled, "--replays", "10"], 0);
    assert!(stdout.contains("(60 games, 10 with a replay"), "{stdout}");
    let listed = page_data(&sampled)["games"].as_array().unwrap().clone();
    let positions: Vec<u64> = listed.iter().filter_map(|game| game[7].as_u64()).collect();
    assert_eq!((listed.len(), positions), (60, (0..10).collect::<Vec<u64>>()));
    assert!(Path::new(&scratch.join("sampled-files/records-0.js")).is_file());
    assert!(!Path::new(&scratch.join("sampled-files/records-1.js")).exists());
    let (_, stderr) = arena_expect(&["report", &out, "--replays", "some"], 2);
    assert!(stderr.contains("expected a number of games or `all`"), "{stderr}");

    let Some(browser) = Browser::find(&scratch) else { return };
    let records = records(&out);
    // The replay loads in a frame of its own, which a busy machine can hold
    // past Chromium's virtual time: look again (a few times) until it has.
    let loaded = |dom: &String| attribute(dom, "<dialog id=\"replay\"", "data-title").is_some();
    let mut dom = page_dom(&browser, &page, "open=7");
    for _ in 0..4 {
        if loaded(&dom) {
            break;
        }
        dom = page_dom(&browser, &page, "open=7");
    }
    let numbers = marked_numbers(&dom);
    // Per bot: its rating, its interval and its last point of the course; each ordered pair: score, games, LOS, games.
    assert!(numbers.len() >= 3 * 3 + 6 * 4, "only {} numbers are marked", numbers.len());
    for (path, value) in &numbers {
        assert_eq!(at(&standings, path).as_f64(), Some(*value), "{path:?} on the page");
    }
    for chart in ["elo-chart", "history-chart"] {
        let svg = svg(&dom, chart);
        assert!(svg.contains("<circle") && svg.contains("<text"), "#{chart} is not drawn: {svg}");
    }
    assert!(svg(&dom, "history-chart").matches("<polyline").count() >= 3, "a line per bot");
    // The course's legend lists the bots in the standings' order, as their colours go.
    let legend = dom.split("id=\"history-legend\">").nth(1).and_then(|rest| rest.split("</div>").next());
    let named: Vec<&str> =
        legend.expect("the course's legend").split("</span>").filter_map(|s| s.rsplit('>').next()).collect();
    assert_eq!(named[..named.len() - 1], ranked.names()[..], "the course's legend in the standings' order");
    // A round robin has no learning rounds: their section stays hidden and empty.
    assert_eq!(data["rounds"], serde_json::json!([]));
    assert!(dom.contains("<section id=\"rounds-section\" hidden"), "a round robin shows no rounds");
    assert!(!svg(&dom, "rounds-chart").contains("<circle"), "a round robin draws no rounds");
    // #open=7 clicked game 7's button: its replay is the viewer's page of that record.
    let record = &records[7];
    assert_eq!(attribute(&dom, "<dialog id=\"replay\"", "data-game").as_deref(), Some("7"));
    let title = attribute(&dom, "<dialog id=\"replay\"", "data-title").expect("the replay loaded");
    assert!(title.starts_with(&format!("All Fives · game 7: {}", record.bots.join(" vs "))), "{title}");
    // The list shows a page of games, each with its replay button.
    assert_eq!(dom.matches("<button data-open=\"").count(), 50);
    // In the sampled report, a game without a replay says so, and cannot be opened.
    let unplayed = listed.iter().find(|game| game[7].is_null()).expect("a game without a replay")[0].to_string();
    let dom = browser.run(&sampled, &format!("open={unplayed}"), &["--dump-dom"]);
    assert_eq!(attribute(&dom, "<main id=\"page\"", "data-errors"), None);
    let error = attribute(&dom, "<main id=\"page\"", "data-error");
    assert_eq!(error, Some(format!("no replay of game {unplayed} here")));
    assert_eq!(dom.matches("no replay here</td>").count() + dom.matches("<button data-open=\"").count(), 50);
    assert!(dom.contains("10 of the 60 games have a replay here"), "the page says how many");
}

/// A learning league's page draws its rounds: Spearman's ρ against the final
/// table and the share of adjacent pairs known, a point per round, by games.
#[test]
fn a_learning_league_report_draws_its_rounds() {
    let scratch = Scratch::new("report-learning");
    let out = scratch.join("learning");
    let greedy = bin("greedy-bot");
    let noisy = format!("{greedy} --noise 0.5");
    let bots = [("g", greedy.as_str()), ("n5", &noisy), ("r", &bin("random-bot"))];
    let flags = ["--format", "learning", "--games", "2", "--seed", "4", "--budget", "16", "--out", &out];
    let mut args = match_args(&scratch, &bots, &patient(&flags));
    args[0] = "league".to_string();
    arena_expect(&args, 0);
    let chosen = json_file(&out, "league.json")["rounds"].as_array().unwrap().len();
    assert!(chosen >= 2, "a draw and a round chosen after it");
    let page = scratch.join("learning.html");
    arena_expect(&["report", &out, "-o", &page], 0);
    let data = page_data(&page);
    let rounds = data["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), chosen, "a round of the page's data per round of league.json");
    assert_eq!(rounds.last().unwrap()["games"], data["standings"]["games"]);

    let Some(browser) = Browser::find(&scratch) else { return };
    let dom = page_dom(&browser, &page, "");
    assert!(!dom.contains("<section id=\"rounds-section\" hidden"), "the rounds' section is shown");
    let chart = svg(&dom, "rounds-chart");
    // ρ after every round; the share known after every round with an adjacent pair.
    let rated = rounds.iter().filter(|round| round["adjacent"].as_u64() > Some(0)).count();
    for (series, points) in [("spearman", chosen), ("known", rated)] {
        let marked = chart.matches(&format!("data-series=\"{series}\"")).count();
        assert_eq!(marked, points + 1, "{series}: its line and a point per round: {chart}");
    }
    let point = |round: usize| format!("data-series=\"spearman\" data-round=\"{round}\"");
    assert!((1..=chosen).all(|round| chart.contains(&point(round))), "a point per round: {chart}");
    let last = rounds.last().unwrap();
    let told = format!("{} games: ρ {:.3}", last["games"], last["spearman"].as_f64().unwrap());
    assert!(chart.contains(&told), "the last point tells its round: {told}");
    for (path, value) in &marked_numbers(&dom) {
        assert_eq!(at(&data["standings"], path).as_f64(), Some(*value), "{path:?} on the page");
    }
}

#[test]
fn an_sprt_report_shows_sprt_json_and_the_llr_course() {
    let scratch = Scratch::new("report-sprt");
    let out = scratch.join("sprt");
    // Bots close enough for pairs that score differently, and an Elo estimate to draw.
    let new = format!("search={} --playouts 20", bin("search-bot"));
    let base = format!("greedy={}", bin("greedy-bot"));
    let run = arena(&[
        "sprt",
        "--new",
        &new,
        "--base",
        &base,
        "--bounds",
        "quick",
        "--seed",
        "3",
        "--max-games",
        "60",
        "--out",
        &out,
    ]);
    assert!(matches!(run.status.code(), Some(0 | 1 | 3)), "{run:?}");
    let page = scratch.join("sprt.html");
    let (stdout, stderr) = arena_expect(&["report", &out, "-o", &page], 0);
    assert!(!stdout.contains("partial") && stderr.is_empty(), "{stdout}\n{stderr}");
    let data = page_data(&page);
    let sprt = json_file(&out, "sprt.json");
    assert_eq!(data["sprt"]["summary"], sprt, "the page's test is sprt.json");
    assert_eq!(data["standings"], json_file(&out, "standings.json"));
    let course = data["sprt"]["course"].as_array().unwrap();
    assert_eq!(data["sprt"]["every"], 1);
    assert!(sprt["elo"]["margin"].as_f64() > Some(0.0), "{sprt}");
    assert_eq!(course.len() as u64, sprt["pairs"].as_u64().unwrap(), "a step per pair (one deal, two games)");
    assert_eq!(course.last().unwrap()["llr"], sprt["llr"]);
    let estimate = &course.last().unwrap()["estimate"];
    assert_eq!((&estimate[0], &estimate[1]), (&sprt["elo"]["elo"], &sprt["elo"]["margin"]));
    for key in ["logistic_elo", "normalized_elo", "los", "draw_ratio"] {
        assert!(!sprt[key].is_null(), "{key}: {sprt}");
    }

    let Some(browser) = Browser::find(&scratch) else { return };
    let dom = page_dom(&browser, &page, "");
    let numbers = marked_numbers(&dom);
    let from_sprt: Vec<&(Vec<Value>, f64)> = numbers.iter().filter(|(path, _)| path[0] == "sprt").collect();
    assert!(from_sprt.len() >= 5 + 10, "only {} SPRT numbers are marked", from_sprt.len());
    for key in ["logistic_elo", "normalized_elo", "los", "draw_ratio", "pentanomial"] {
        assert!(from_sprt.iter().any(|(path, _)| path[1] == key), "{key} is not shown");
    }
    for (path, value) in &numbers {
        let number = match path[0].as_str() {
            Some("sprt") => at(&sprt, &path[1..]).as_f64(),
            _ => at(&data["standings"], path).as_f64(),
        };
        assert_eq!(number, Some(*value), "{path:?} on the page");
    }
    for chart in ["llr-chart", "sprt-elo-chart"] {
        assert!(svg(&dom, chart).contains("<polyline"), "#{chart} is not drawn");
    }
    assert!(!dom.contains("<section id=\"sprt-section\" hidden"), "the SPRT section is shown");
    // The verdict first, and each Elo figure saying what it is estimated from.
    let at = |id: &str| dom.find(&format!("<section id=\"{id}\"")).unwrap_or_else(|| panic!("no #{id}"));
    assert!(at("sprt-section") < at("standings-section"), "the SPRT's verdict comes before the standings");
    let pairs = format!("from the {} pairs counted", sprt["pairs"]);
    assert!(dom.contains(&format!("The test's Elo is estimated {pairs} (pentanomial")), "{dom}");
    let standings =
        format!("rates each bot about their mean, from each of the {} games played on its own", sprt["games_played"]);
    assert!(dom.contains(&standings), "{dom}");
    assert!(dom.contains(&format!("<th>Elo, {}</th>", &pairs[..pairs.len() - " counted".len()])), "{dom}");
    assert!(dom.contains("Elo ± 95% interval, from every game's result"), "{dom}");
}

/// A payoff test's page (Leduc): its numbers are sprt.json's, in chips/game, with no pentanomial.
#[test]
fn a_payoff_sprt_report_shows_sprt_json() {
    let scratch = Scratch::new("report-payoff");
    let out = scratch.join("sprt");
    let rules = format!("rules={} --play rules {}", bin("leduc-bot"), scratch.marker());
    let random = format!("random={} {}", bin("leduc-bot"), scratch.marker());
    arena_expect(&["sprt", "--game", "leduc", "--new", &rules, "--base", &random, "--seed", "2", "--out", &out], 0);
    let page = scratch.join("sprt.html");
    arena_expect(&["report", &out, "-o", &page], 0);
    let data = page_data(&page);
    let sprt = json_file(&out, "sprt.json");
    assert_eq!(data["sprt"]["summary"], sprt, "the page's test is sprt.json");
    let course = data["sprt"]["course"].as_array().unwrap();
    assert_eq!(course.len() as u64, sprt["deals"].as_u64().unwrap(), "a step per deal");
    assert_eq!(course.last().unwrap()["estimate"][0], sprt["payoff"]["mean"]);

    let Some(browser) = Browser::find(&scratch) else { return };
    let dom = page_dom(&browser, &page, "");
    let numbers = marked_numbers(&dom);
    let keys: Vec<String> =
        numbers.iter().filter(|(path, _)| path[0] == "sprt").map(|(path, _)| path[1].to_string()).collect();
    for key in ["payoff0", "payoff1", "llr", "deals", "payoff", "los"] {
        assert!(keys.contains(&format!("\"{key}\"")), "{key} is not shown: {keys:?}");
    }
    for (path, value) in &numbers {
        let number = match path[0].as_str() {
            Some("sprt") => at(&sprt, &path[1..]).as_f64(),
            _ => at(&data["standings"], path).as_f64(),
        };
        assert_eq!(number, Some(*value), "{path:?} on the page");
    }
    assert!(dom.contains("H1 accepted: rules is better than random"), "the verdict is shown");
    assert!(dom.contains("<div id=\"pentanomial-block\" hidden"), "no pentanomial counts");
    assert!(svg(&dom, "sprt-elo-chart").contains("<polyline"), "the payoff's course is drawn");
}

#[test]
fn a_league_being_written_is_reported_as_partial() {
    let scratch = Scratch::new("report-partial");
    let (out, _) = play_league(&scratch);
    // A copy as a league in progress leaves it: no standings.json yet, and a record half written.
    let running = scratch.join("running");
    std::fs::create_dir(&running).unwrap();
    std::fs::copy(Path::new(&out).join("league.json"), Path::new(&running).join("league.json")).unwrap();
    let lines: Vec<String> = std::fs::read_to_string(Path::new(&out).join("games.jsonl"))
        .unwrap()
        .lines()
        .take(25)
        .map(String::from)
        .collect();
    let torn = &lines[24][..lines[24].len() / 2];
    std::fs::write(Path::new(&running).join("games.jsonl"), format!("{}\n{torn}", lines[..24].join("\n"))).unwrap();

    let (stdout, _) = arena_expect(&["report", &running], 0);
    let page = Path::new(&running).join("report.html").to_string_lossy().into_owned();
    assert!(stdout.contains(&format!("wrote {page} (24 games")), "{stdout}");
    assert!(stdout.contains("partial: there is no standings.json yet"), "{stdout}");
    assert!(stdout.contains("the last line of games.jsonl is cut short"), "{stdout}");
    let data = page_data(&page);
    assert!(data["partial"].as_str().unwrap().contains("no standings.json yet"), "{}", data["partial"]);
    assert_eq!(data["standings"]["games"], 24);
    assert_eq!(data["standings"]["seed"], 11, "the seed is the league's");
    assert_eq!(data["games"].as_array().unwrap().len(), 24);

    let Some(browser) = Browser::find(&scratch) else { return };
    let dom = page_dom(&browser, &page, "");
    assert_eq!(attribute(&dom, "<main id=\"page\"", "data-partial").as_deref(), Some("true"));
    assert!(dom.contains("Partial: there is no standings.json yet"), "the page says it is partial");
    assert!(dom.contains("(partial)</h1>"), "and so does its title");
}

#[test]
fn mistakes_are_usage_errors_with_clear_messages() {
    let scratch = Scratch::new("report-errors");
    let check = |args: &[&str], wanted: &str| {
        let (_, stderr) = arena_expect(args, 2);
        assert!(stderr.contains(wanted), "arena {args:?}: wanted {wanted:?} in\n{stderr}");
    };
    check(&["report", &scratch.join("missing")], "is not a directory");
    check(&["report", scratch.path().to_str().unwrap()], "holds no games.jsonl");
    let empty = scratch.join("empty");
    std::fs::create_dir(&empty).unwrap();
    std::fs::write(Path::new(&empty).join("games.jsonl"), "").unwrap();
    check(&["report", &empty], "holds no games yet");
    let (out, _) = play_league(&scratch);
    let games = Path::new(&out).join("games.jsonl");
    let text = std::fs::read_to_string(&games).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[3] = "{\"id\": 3, oops";
    std::fs::write(&games, lines.join("\n") + "\n").unwrap();
    check(&["report", &out], "line 4 is not a valid all-fives record");
    check(&["report", &out, "-o", scratch.path().to_str().unwrap()], "give the name of the page to write");
}

#[test]
fn free_for_alls_show_weng_lin_ratings() {
    let scratch = Scratch::new("report-free-for-all");
    let out = scratch.join("match");
    let search = format!("{} --playouts 20", bin("search-bot"));
    let bots = [("greedy", bin("greedy-bot")), ("random", bin("random-bot")), ("search", search)];
    let bots: Vec<(&str, &str)> = bots.iter().map(|(n, c)| (*n, c.as_str())).collect();
    arena_expect(&match_args(&scratch, &bots, &["--players", "3", "--games", "12", "--seed", "5", "--out", &out]), 0);
    let page = scratch.join("match.html");
    let (stdout, _) = arena_expect(&["report", &out, "-o", &page], 0);
    assert!(!stdout.contains("partial"), "{stdout}");
    let standings = json_file(&out, "standings.json");
    assert_eq!(page_data(&page)["standings"], standings, "the seed is read from standings.json");

    let Some(browser) = Browser::find(&scratch) else { return };
    let dom = page_dom(&browser, &page, "");
    assert!(!dom.contains("<figure id=\"wl-figure\" hidden"), "the Weng–Lin chart is shown");
    assert!(svg(&dom, "wl-chart").matches("<circle").count() == 3, "a point per bot");
    let numbers = marked_numbers(&dom);
    let weng_lin = numbers.iter().filter(|(path, _)| path.len() == 4 && path[2] == "weng_lin").count();
    assert_eq!(weng_lin, 6, "μ and σ of each bot");
    for (path, value) in &numbers {
        assert_eq!(at(&standings, path).as_f64(), Some(*value), "{path:?} on the page");
    }
}

/// The text of the element whose start tag begins with `tag_start`, to its first `<`.
fn text_of<'a>(dom: &'a str, tag_start: &str) -> &'a str {
    let start = dom.find(tag_start).unwrap_or_else(|| panic!("no {tag_start} in the page:\n{dom}"));
    let text = &dom[start + dom[start..].find('>').unwrap() + 1..];
    &text[..text.find('<').unwrap()]
}

/// Seeds are 64-bit: every page shows the records' seeds digit for digit
/// (JavaScript's numbers would round one above 2^53), in both games'
/// replays and in the report; and a chart labels a difference that rounds
/// to zero "0", not "−0".
#[test]
fn pages_show_64_bit_seeds_exactly() {
    let scratch = Scratch::new("report-seeds");
    let Some(browser) = Browser::find(&scratch) else { return };
    let seed = "13469207925531334779";
    let (leduc, greedy, random) = (bin("leduc-bot"), bin("greedy-bot"), bin("random-bot"));
    let rules = format!("{leduc} --play rules");
    for (game, bots) in [("all-fives", [greedy.as_str(), random.as_str()]), ("leduc", [rules.as_str(), leduc.as_str()])]
    {
        let out = scratch.join(game);
        let bots = [("a", bots[0]), ("b", bots[1])];
        arena_expect(&match_args(&scratch, &bots, &["--game", game, "--games", "2", "--seed", seed, "--out", &out]), 0);
        let record = records(&out).remove(0);
        let deal_seed = record.seed;
        assert!(deal_seed > 1 << 53, "{game}: the deal's seed {deal_seed} is beyond 2^53 (try another match seed)");
        let page = scratch.join(&format!("{game}-view.html"));
        arena_expect(&["view", &out, "--game", "0", "-o", &page], 0);
        let dom = browser.run(&page, "", &["--dump-dom"]);
        let meta = text_of(&dom, "<p id=\"meta\"");
        assert!(meta.contains(&format!("seed {deal_seed},")) || meta.contains(&format!("seed {deal_seed} ")), "{meta}");

        let report = scratch.join(&format!("{game}-report.html"));
        arena_expect(&["report", &out, "-o", &report], 0);
        let dom = page_dom(&browser, &report, "");
        let meta = text_of(&dom, "<p id=\"meta\"");
        assert!(meta.ends_with(&format!("seed {seed}")), "{game}: {meta}");
    }
    // A rating that rounds to 0 (put in the page's data) is labelled "0".
    let report = scratch.join("leduc-report.html");
    let html = std::fs::read_to_string(&report).unwrap();
    let data = page_data(&report);
    let rating = data["standings"]["bots"][0]["rating"].to_string();
    let edited = html.replacen(&format!("\"rating\":{rating}"), "\"rating\":-0.3", 1);
    assert_ne!(edited, html, "the rating is in the page's data");
    std::fs::write(&report, edited).unwrap();
    let dom = page_dom(&browser, &report, "");
    let chart = svg(&dom, "elo-chart");
    assert!(chart.contains(">0 ± ") && !chart.contains("−0 ±"), "{chart}");
}
