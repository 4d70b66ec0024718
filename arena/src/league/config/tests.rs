//! The configuration's tests: a file and flags resolved, errors naming their key, a field that changes.

use super::table::Kept;
use super::*;
use crate::bot::sandbox::Sandbox;
use crate::schedule::clock::TimeControl;
use crate::schedule::{Format, Shard};
use crate::stats::sprt::{Model, Sprt, Test};
use serde_json::json;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// A league file holding `text` in a directory of its own, removed when
/// the returned guard is dropped.
fn write_config(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new().prefix("arena-config-test-").tempdir().unwrap();
    let path = dir.path().join("league.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

fn resolve(flags: &Overrides) -> Result<LeagueConfig, ConfigError> {
    LeagueConfig::resolve(flags, &repo(), 99, 2)
}

#[test]
fn file_then_flags() {
    let first_legal = repo().join("tests/bots/first_legal.py");
    let (_dir, path) = write_config(&format!(
        "format = \"gauntlet\"\ngames = 4\nseed = 7\nplayers = 3\nout = \"results\"\nsandbox = \"bwrap\"\n\
             clock = \"10s+100ms\"\n\
             [limits]\ncpu = 30\naddress-space = \"1G\"\n[variant]\ntarget = 100\n\
             hand_end = \"winner-takes\"\n[[bot]]\nname = \"a\"\ncommand = \"python3 {0}\"\nenv = {{ DEPTH = \"3\" }}\n\
             [[bot]]\nname = \"b\"\ncommand = \"{0}\"\ndir = \"..\"\n",
        first_legal.display()
    ));
    let flags = Overrides {
        config: Some(path.clone()),
        games: Some(6),
        bots: vec!["c=sh".into()],
        variants: vec!["target=150".parse().unwrap()],
        ..Overrides::default()
    };
    let config = resolve(&flags).unwrap();
    assert_eq!(config.kept.format, Format::Gauntlet);
    assert_eq!(config.kept.games, 6, "flags override the file");
    assert_eq!(config.kept.seed, 7);
    assert_eq!(config.kept.concurrency, 2, "the default is the number of cores");
    let names: Vec<&str> = config.bots.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"]);
    let dir = path.parent().unwrap();
    assert_eq!(config.bots[0].dir, dir);
    assert_eq!(config.bots[0].env.get("DEPTH").map(String::as_str), Some("3"));
    assert_eq!(config.bots[1].dir, dir.join(".."));
    assert_eq!(config.bots[2].dir, repo());
    assert_eq!(config.out, Some(dir.join("results")));
    let target: Vec<&str> = config.settings.iter().filter(|(k, _)| k == "target").map(|(_, v)| v.as_str()).collect();
    assert_eq!(target, ["100", "150"], "the later setting wins when the variant is parsed");
    assert!(config.settings.contains(&("players".into(), "3".into())));
    assert_eq!(config.kept.sandbox, Sandbox::Bwrap);
    assert_eq!(config.kept.clock, Some(TimeControl { base_ms: 10_000, increment_ms: 100 }));
    assert_eq!(config.kept.move_timeout_ms, 10_000, "under a clock, the per-move limit is its base");
    let flagged = resolve(&Overrides { move_timeout: Some(300), ..flags.clone() }).unwrap();
    assert_eq!((flagged.kept.move_timeout_ms, flagged.limits().clock), (300, config.kept.clock));
    assert_eq!((config.limits.cpu_seconds, config.limits.address_space), (Some(30), Some(1 << 30)));
}

#[test]
fn errors_name_the_key() {
    let cases = [
        ("colour = \"red\"\n", "unknown field `colour`"),
        ("games = \"many\"\n", "games"),
        ("games = 0\n", "games: must be at least 1"),
        ("format = \"knockout\"\n", "format: unknown format \"knockout\""),
        ("swiss_rounds = 3\n", "swiss_rounds: only a swiss league has swiss rounds (this one is a round-robin)"),
        ("format = \"swiss\"\nswiss_rounds = 0\n", "swiss_rounds: a swiss league plays at least 1 round"),
        ("[[bot]]\nname = \"a\"\n", "missing field `command`"),
        ("[[bot]]\nname = \"a\"\ncommand = \"no-such-program-x\"\n", "bot[0]: bot \"a\": cannot run"),
        ("[[bot]]\nname = \"a\"\ncommand = \"sh\"\n[[bot]]\nname = \"a\"\ncommand = \"sh\"\n", "bot[1].name"),
        ("[variant]\ntarget = [1]\n", "variant.target"),
        ("games = \n", "configuration"),
        ("seed = 7\ngames = [1,\n", "line 2, column 12: unclosed array, expected `]`: \"games = [1,\""),
        ("sandbox = \"docker\"\n", "sandbox: unknown sandbox"),
        ("[limits]\nmemory = 5\n", "limits.memory"),
        ("clock = \"fast\"\n", "clock: \"fast\": expected BASE+INC"),
        ("clock = \"1s+0\"\nmove_timeout = 0\n", "move_timeout: must be at least 1"),
    ];
    for (text, expected) in cases {
        let (_dir, path) = write_config(text);
        let err = resolve(&Overrides { config: Some(path), ..Overrides::default() }).unwrap_err().to_string();
        assert!(err.contains(expected), "{text:?}: {err}");
        assert!(!err.contains('\n'), "one line: {err}");
    }
    let err = resolve(&Overrides { config: Some("/no/such/league.toml".into()), ..Overrides::default() })
        .unwrap_err()
        .to_string();
    assert!(err.contains("cannot read the configuration"), "{err}");
    let err = resolve(&Overrides { bot_dirs: vec!["x=/tmp".into()], ..Overrides::default() }).unwrap_err().to_string();
    assert!(err.contains("no bot is named \"x\""), "{err}");
}

#[test]
fn same_league_ignores_shard_and_concurrency() {
    let mut flags = Overrides { bots: vec!["a=sh".into(), "b=sh".into()], ..Overrides::default() };
    flags.shard = Some(Shard { index: 0, count: 2 });
    let err = resolve(&flags).unwrap_err().to_string();
    assert!(err.contains("a sharded league needs a fixed seed"), "{err}");
    flags.seed = Some(3);
    let one = resolve(&flags).unwrap();
    let mut other = one.clone();
    other.shard = Some(Shard { index: 1, count: 2 });
    other.kept.concurrency = 7;
    assert!(one.same_league(&other).is_ok());
    let mut clocked = other.clone();
    clocked.kept.clock = Some(TimeControl { base_ms: 1000, increment_ms: 0 });
    assert_eq!(one.same_league(&clocked), Err(ConfigError::Differs { key: "clock" }));
    other.kept.seed = 4;
    assert_eq!(one.same_league(&other), Err(ConfigError::Differs { key: "seed" }));
}

#[test]
fn a_field_grows_and_keeps_its_history() {
    let flags = Overrides { bots: vec!["a=sh".into(), "b=sh".into()], seed: Some(1), ..Overrides::default() };
    let mut league = resolve(&flags).unwrap();
    assert_eq!(league.changes().len(), 1, "a league without a history started with its bots");
    assert_eq!(league.changes()[0].added, ["a", "b"]);
    league.start("2026-01-01T00:00:00Z".into());
    let before = league.clone();
    let entering = |names: &[&str]| {
        let flags = Overrides { bots: names.iter().map(|n| format!("{n}=sh")).collect(), ..Overrides::default() };
        entering_bots(&flags, &repo()).unwrap()
    };
    let grown = |league: &mut LeagueConfig, names: &[&str], retiring: &[&str]| {
        let retiring: Vec<String> = retiring.iter().map(|r| r.to_string()).collect();
        league.grow(entering(names), &retiring, "2026-01-02T00:00:00Z".into())
    };
    grown(&mut league, &["c"], &["a"]).unwrap();
    let names: Vec<&str> = league.bots.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"]);
    assert_eq!(league.retired(), [true, false, false]);
    let last = league.history.last().unwrap();
    assert_eq!(
        (last.at.as_deref(), &last.added[..], &last.retired[..]),
        (Some("2026-01-02T00:00:00Z"), &["c".to_string()][..], &["a".to_string()][..])
    );
    // What a user may get wrong is refused, and changes nothing.
    let unchanged = league.clone();
    for (names, retiring, expected) in [
        (&["a"][..], &[][..], "this league has had a bot named \"a\""),
        (&["c"], &[], "this league has had a bot named \"c\""),
        (&[], &["z"], "--retire z: this league has no bot of that name"),
        (&[], &["a"], "--retire a: a has retired already"),
        (&[], &["b", "b"], "--retire b: given twice"),
    ] {
        let err = grown(&mut league, names, retiring).unwrap_err().to_string();
        assert!(err.contains(expected), "{err}");
        assert_eq!(league, unchanged);
    }
    grown(&mut league, &[], &[]).unwrap();
    assert_eq!(league, unchanged, "no change, no history");
    // Shards that changed alike are the same league, whenever they changed; others are not.
    let mut later = before.clone();
    later.history[0].at = Some("2026-02-01T00:00:00Z".into());
    grown(&mut later, &["c"], &["a"]).unwrap();
    assert!(league.same_league(&later).is_ok());
    assert_eq!(before.same_league(&league), Err(ConfigError::Differs { key: "bots" }));
    let mut other = before.clone();
    grown(&mut other, &["c"], &[]).unwrap();
    assert_eq!(other.same_league(&league), Err(ConfigError::Differs { key: "history" }));
    let mut unrecorded = before.clone();
    unrecorded.history.clear();
    assert!(unrecorded.same_league(&before).is_ok(), "an older league.json without a history");
}

#[test]
fn a_stored_sprt_configuration_reads_back() {
    let games = LeagueConfig::resolve(
        &Overrides { bots: vec!["new=sh".into(), "base=sh".into()], seed: Some(4), ..Overrides::default() },
        Path::new("/"),
        0,
        1,
    )
    .unwrap();
    let test = Test::Pentanomial(Sprt::new(-1.0, 3.0, 0.1, 0.2, Model::Logistic).unwrap());
    let config = SprtConfig { games, test };
    let json = serde_json::to_string(&config).unwrap();
    let back: SprtConfig = serde_json::from_str(&json).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), json, "argv is not stored, and comes back from revalidation");
    assert_eq!(back.test, config.test);
    assert_eq!(back.games.kept.seed, 4);
}

#[test]
fn every_row_words_its_flag_and_a_number_shows_its_default() {
    for row in ROWS {
        assert!(!row.help().is_empty() && !row.value_name.is_empty(), "the row {} has no help or value name", row.key);
        assert!(row.least <= row.most, "the row {} has an empty range", row.key);
    }
    assert_eq!(row::move_timeout.help(), crate::settings::MOVE_TIMEOUT.help());
    assert_eq!(row::move_timeout.flag(), "move-timeout");
    assert_eq!((row::swiss_rounds.least, row::concurrency.most), (1, crate::settings::CONCURRENCY.most));
    assert_eq!(row::game.conflicts, ["engine"]);
}

#[test]
fn resume_takes_only_the_settings_that_change_how_the_rest_is_played() {
    let keys = ["seed", "concurrency", "budget", "restart", "cpus_per_game", "swiss_rounds", "move_timeout"];
    assert_eq!(fixed_on_resume(&keys), ["seed", "restart", "move_timeout"]);
}

#[test]
fn league_json_keeps_the_table_s_settings_and_an_older_one_reads_their_defaults() {
    let flags = Overrides {
        bots: vec!["a=sh".into(), "b=sh".into()],
        format: Some("learning".into()),
        games: Some(4),
        budget: Some(30),
        seed: Some(5),
        concurrency: Some(3),
        clock: Some(TimeControl { base_ms: 2000, increment_ms: 50 }),
        startup_timeout: Some(500),
        sandbox: Some(Sandbox::None),
        restart: Some(crate::schedule::lanes::Restart::Game),
        cpus_per_game: Some(0),
        ..Overrides::default()
    };
    let config = resolve(&flags).unwrap();
    let mut json = serde_json::to_value(&config).unwrap();
    let kept = [
        ("format", json!("learning")),
        ("games", json!(4)),
        ("budget", json!(30)),
        ("seed", json!(5)),
        ("concurrency", json!(3)),
        ("move_timeout_ms", json!(2000)),
        ("clock", json!({"base_ms": 2000, "increment_ms": 50})),
        ("startup_timeout_ms", json!(500)),
        ("sandbox", json!("none")),
        ("restart", json!("game")),
        ("cpus_per_game", json!(0)),
    ];
    for (key, value) in &kept {
        assert_eq!(&json[key], value, "{key}");
    }
    // A setting not given, and none by default, is left out.
    assert!(json.get("swiss_rounds").is_none());
    let back: LeagueConfig = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back.kept, config.kept);
    // The shards of a league may run on other CPUs, not with another startup timeout.
    let other = LeagueConfig { kept: Kept { cpus_per_game: 2, ..config.kept.clone() }, ..back };
    assert!(other.same_league(&config).is_ok());
    let slower = LeagueConfig { kept: Kept { startup_timeout_ms: 9, ..other.kept.clone() }, ..other };
    assert_eq!(slower.same_league(&config), Err(ConfigError::Differs { key: "startup_timeout" }));
    for key in ["startup_timeout_ms", "cpus_per_game", "clock", "budget", "sandbox", "restart"] {
        json.as_object_mut().unwrap().remove(key);
    }
    let older: LeagueConfig = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(older.kept.startup_timeout_ms, crate::settings::STARTUP_TIMEOUT.default);
    assert_eq!(older.kept.cpus_per_game, crate::settings::CPUS_PER_GAME.default);
    assert_eq!((older.kept.clock, older.kept.budget), (None, None));
    assert_eq!((older.kept.sandbox, older.kept.restart), (Sandbox::default(), Default::default()));
    // A setting every league.json has is missing, not read as a default.
    json.as_object_mut().unwrap().remove("seed");
    let err = serde_json::from_value::<LeagueConfig>(json).unwrap_err().to_string();
    assert!(err.contains("missing field `seed`"), "{err}");
}
