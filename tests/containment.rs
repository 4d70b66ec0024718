//! How bot processes are confined: a clean environment, resource limits,
//! and the bubblewrap sandbox (which `.ci/run` installs).

use e2e::*;
use serde_json::Value;

/// Runs a short match of the probe bot against greedy-bot and returns what
/// the probe reported. Both bots run from copies inside the scratch
/// directory (under the temporary directory, which a sandbox replaces).
fn probe(scratch: &Scratch, extra: &[&str]) -> Value {
    let out = scratch.join("out");
    let bots = scratch.path().join("bots");
    std::fs::create_dir_all(&bots).unwrap();
    for file in ["probe.py", "botlib.py"] {
        std::fs::copy(repo_path(&format!("tests/bots/{file}")), bots.join(file)).unwrap();
    }
    std::fs::copy(bin("greedy-bot"), bots.join("greedy-bot")).unwrap();
    let probe = format!("{} {}", python(), bots.join("probe.py").display());
    let greedy = bots.join("greedy-bot").to_string_lossy().into_owned();
    let flags = patient(&["--games", "2", "--out", &out]);
    let mut args = match_args(scratch, &[("probe", &probe), ("g", &greedy)], &flags);
    args[0] = "league".to_string();
    args.extend(extra.iter().map(|s| s.to_string()));
    let output =
        output(std::process::Command::new(bin("arena")).args(&args).env("ARENA_TEST_SECRET", "must not reach the bot"));
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let standings = Standings::read(&out);
    assert_eq!(standings.bot("probe").faults, 0, "{standings:?}");
    let logs = std::fs::read_dir(format!("{out}/logs")).unwrap();
    for entry in logs.flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        if let Some(line) = text.lines().find_map(|l| l.strip_prefix("probe: ")) {
            return serde_json::from_str(line).unwrap();
        }
    }
    panic!("the probe reported nothing");
}

#[test]
fn bots_get_a_clean_environment_and_resource_limits() {
    let scratch = Scratch::new("containment-plain");
    let extra = ["--limit", "open-files=100", "--limit", "address-space=2G", "--bot-env", "probe=DEPTH=3"];
    let report = probe(&scratch, &extra);
    let env: Vec<&str> = report["env"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    // (An interpreter launcher such as a pyenv shim may add its own variables.)
    assert!(!env.contains(&"ARENA_TEST_SECRET"), "the arena's environment leaked: {env:?}");
    for key in ["PATH", "LANG", "DEPTH"] {
        assert!(env.contains(&key), "{key} missing from {env:?}");
    }
    assert_eq!(report["nofile"], 100);
    assert_eq!(report["as"], 2u64 << 30);
    assert_eq!(report["fsize"], 64u64 << 20, "the default file-size limit");
}

#[test]
fn the_bwrap_sandbox_confines_bots() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let scratch = Scratch::new("containment-bwrap");
    let report = probe(&scratch, &["--sandbox", "bwrap"]);
    assert_eq!(report["write_cwd"], false, "the file system is read-only: {report}");
    assert_eq!(report["write_tmp"], true, "/tmp is private and writable: {report}");
    assert_ne!(report["network"], true, "no network: {report}");
    assert_eq!(report["cwd"], scratch_parent_cwd(), "the bot runs in its directory: {report}");
    assert!(scratch.leftover_processes().is_empty(), "{:?}", scratch.leftover_processes());
}

/// The working directory the arena (and so a `--bot` bot) runs in: the test's own.
fn scratch_parent_cwd() -> String {
    std::env::current_dir().unwrap().to_string_lossy().into_owned()
}

#[test]
fn a_missing_bwrap_is_a_clear_usage_error() {
    let output = output(
        std::process::Command::new(bin("arena"))
            .args(["match", "--sandbox", "bwrap", "--bot", &format!("g={}", bin("greedy-bot"))])
            .args(["--bot", &format!("r={}", bin("random-bot"))])
            .env("PATH", "/nonexistent"),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("bubblewrap is not installed"), "{stderr}");
}

/// A scratch directory away from `/tmp` (which the sandbox replaces with a
/// private one, so it would hide what these tests look for anyway).
fn scratch_outside_tmp(test: &str) -> Scratch {
    Scratch::within(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")), test)
}

/// Runs a league from inside `scratch` (so every bot's directory is
/// `scratch`, and the output directory `scratch/out` lies inside it, as for
/// `--bot` bots run from a checkout): the hostile Python bot `script`, copied
/// to `scratch/bots` and run with `args`, against greedy-bot, copied to
/// `scratch/other`. `launch` turns the arena's command into the one to run
/// (to give it descriptors, say). Returns what the hostile bot reported: the JSON after `prefix` on each
/// line of its logs.
fn hostile_league(
    scratch: &Scratch,
    script: &str,
    args: &[&str],
    extra: &[&str],
    prefix: &str,
    launch: impl FnOnce(std::process::Command) -> std::process::Command,
) -> Vec<Value> {
    let bots = scratch.path().join("bots");
    let other = scratch.path().join("other");
    std::fs::create_dir_all(&bots).unwrap();
    std::fs::create_dir_all(&other).unwrap();
    for file in [script, "botlib.py"] {
        std::fs::copy(repo_path(&format!("tests/bots/{file}")), bots.join(file)).unwrap();
    }
    std::fs::copy(bin("greedy-bot"), other.join("greedy-bot")).unwrap();
    let hostile = format!("hostile={} bots/{script} {}", python(), args.join(" "));
    let mut command = std::process::Command::new(bin("arena"));
    command.current_dir(scratch.path());
    command.args(["league", "--bot", &hostile, "--bot", "greedy=other/greedy-bot", "--out", "out"]);
    command.args(["--games", "2", "--seed", "3", "--concurrency", "1"]).args(PATIENT).args(extra);
    let output = output(&mut launch(command));
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let out = scratch.join("out");
    let standings = Standings::read(&out);
    assert_eq!(standings.bot("hostile").faults, 0, "{standings:?}");
    let mut reports = Vec::new();
    for entry in std::fs::read_dir(format!("{out}/logs")).unwrap().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        reports.extend(text.lines().filter_map(|l| l.strip_prefix(prefix)).map(|l| serde_json::from_str(l).unwrap()));
    }
    assert!(!reports.is_empty(), "the hostile bot reported nothing");
    reports
}

/// Whether a bot's report says the attempt worked (`true`) rather than giving
/// the error it met.
fn succeeded(report: &Value, attempt: &str) -> bool {
    report[attempt] == true
}

#[test]
fn a_sandboxed_bot_has_no_capabilities_and_cannot_write_the_host_even_as_root() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let scratch = scratch_outside_tmp("escape-root");
    let target = scratch.path().join("target");
    std::fs::create_dir_all(&target).unwrap();
    let target_file = target.join("written-by-a-bot");
    let target_arg = target_file.to_string_lossy().into_owned();
    let reports =
        hostile_league(&scratch, "escape_root.py", &[&target_arg], &["--sandbox", "bwrap"], "escape: ", |c| c);
    for report in &reports {
        for (set, value) in report["caps"].as_object().unwrap() {
            assert_eq!(value, 0, "{set}: the bot keeps capabilities: {report}");
        }
        for attempt in
            ["remount_root", "remount_cwd", "remount_root_plain", "sysctl", "write_target", "write_cwd", "write_root"]
        {
            assert!(!succeeded(report, attempt), "{attempt} worked: {report}");
        }
    }
    assert!(!target_file.exists(), "a sandboxed bot wrote outside its sandbox");
    assert!(!scratch.path().join("escaped.txt").exists(), "a sandboxed bot wrote in its directory");
    let records = records(&scratch.join("out"));
    assert_eq!(records.len(), 2, "the records are intact");
}

#[test]
fn a_sandboxed_bot_sees_neither_the_output_directory_nor_other_bots() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let scratch = scratch_outside_tmp("spy");
    let out = scratch.path().join("out");
    let other = scratch.path().join("other");
    let paths = [out.join("games.jsonl"), out.join("league.json"), out.join("logs")];
    let paths: Vec<String> = paths.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    // Arguments that name files in the output directory do not make them
    // visible. (Naming another bot's directory would: the operator wrote the
    // command, so the spy looks for the other bot through its environment.)
    let relative = ["out/games.jsonl", "out/league.json"];
    let args: Vec<&str> = paths.iter().map(String::as_str).chain(relative).collect();
    let spy_paths = format!("hostile=SPY_PATHS={}:other:{}", other.display(), scratch.join("bots/../other"));
    let extra = ["--sandbox", "bwrap", "--bot-env", &spy_paths];
    let reports = hostile_league(&scratch, "spy.py", &args, &extra, "spy: ", |c| c);
    assert!(reports.len() >= 2, "the spy looks at hello and at every game_start: {reports:?}");
    assert_blind(&reports);
}

/// Checks that every spy report found nothing: an error, an empty listing or an empty file.
fn assert_blind(reports: &[Value]) {
    for report in reports {
        for (path, seen) in report.as_object().unwrap() {
            let hidden = seen.get("error").is_some()
                || seen.as_array().is_some_and(|listing| listing.is_empty())
                || seen.as_str() == Some("");
            assert!(hidden, "a sandboxed bot saw {path}: {seen}");
        }
    }
}

#[test]
fn a_sandboxed_bot_sees_neither_the_league_file_nor_the_deals_file_nor_the_sandbox_options() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let scratch = scratch_outside_tmp("secrets-spy");
    // As docs/leagues.md's sharding recipe has it: the league file, with its seed, beside the bots.
    std::fs::write(scratch.path().join("league.toml"), "seed = 3\nvariant.max_hands = 1\nvariant.deal = \"five\"\n")
        .unwrap();
    let deal =
        five_tile_deal([&[[5, 5], [0, 5], [1, 4], [2, 3], [6, 6]], &[[0, 0], [1, 1], [2, 2], [3, 3], [4, 4]]], 0);
    std::fs::write(scratch.path().join("deals.json"), serde_json::json!({ "deals": [deal] }).to_string()).unwrap();
    // And the standings an earlier run wrote where this run's report will go, which name its seed.
    std::fs::write(scratch.path().join("standings.md"), "seed 3\n").unwrap();
    let extra = ["--sandbox", "bwrap", "--config", "league.toml", "--deals", "deals.json"];
    let extra = [&extra[..], &["--report", "markdown=standings.md"]].concat();
    let spied = ["league.toml", "deals.json", "standings.md"];
    let reports = hostile_league(&scratch, "spy.py", &spied, &extra, "spy: ", |c| c);
    assert_blind(&reports);
    // bwrap's command line, process 1's inside the sandbox, names no host path but the bot's own command.
    let scratch = scratch_outside_tmp("cmdline-spy");
    let reports = hostile_league(&scratch, "spy.py", &["/proc/1/cmdline"], &["--sandbox", "bwrap"], "spy: ", |c| c);
    for report in &reports {
        let cmdline = report["/proc/1/cmdline"].as_str().expect("process 1's command line is readable");
        assert!(cmdline.starts_with("bwrap\0--args\0"), "{cmdline:?}");
        for host in ["--ro-bind", "--tmpfs", "other"] {
            assert!(!cmdline.contains(host), "{host} in {cmdline:?}");
        }
    }
}

#[test]
fn a_bot_s_own_shebang_line_binds_nothing() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let scratch = scratch_outside_tmp("shebang");
    let elsewhere = scratch_outside_tmp("shebang-secret");
    let secret = elsewhere.path().join("secret");
    std::fs::create_dir_all(secret.join("bin")).unwrap();
    std::fs::write(secret.join("key"), "the secret").unwrap();
    std::fs::copy("/bin/true", secret.join("bin/tool")).unwrap();
    let key = secret.join("key").to_string_lossy().into_owned();
    // The reviewer's attack: env's -u takes `SECRET/bin/tool` as its argument, which the
    // arena once took for the interpreter, showing SECRET (its installation) to the bot.
    let attack = format!("#!/usr/bin/env -S -u {}/bin/tool python3\n", secret.display());
    // The secret's path reaches the bot through its environment: a path its command named would be its own.
    let spy_paths = format!("hostile=SPY_PATHS={key}");
    let extra = ["--sandbox", "bwrap", "--bot-env", &spy_paths];
    let reports = hostile_league(&scratch, "spy.py", &[], &extra, "spy: ", |mut arena| {
        use std::os::unix::fs::PermissionsExt;
        let bots = scratch.path().join("bots");
        let spy = std::fs::read_to_string(bots.join("spy.py")).unwrap();
        let script = bots.join("shebang.py");
        std::fs::write(&script, spy.replacen("#!/usr/bin/env python3\n", &attack, 1)).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let args: Vec<String> = arena.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        let mut direct = std::process::Command::new(arena.get_program());
        direct.current_dir(scratch.path());
        direct.args(args.iter().map(|a| match a.starts_with("hostile=") && a.ends_with("spy.py ") {
            true => "hostile=bots/shebang.py".to_string(),
            false => a.clone(),
        }));
        arena = direct;
        arena
    });
    assert_blind(&reports);
}

#[test]
fn a_sandboxed_bot_whose_directory_shows_too_much_is_refused() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let scratch = Scratch::new("sandbox-too-much");
    let greedy = bin("greedy-bot");
    let league = scratch.path().join("league.toml");
    let bot = |name: &str, dir: &str| format!("[[bot]]\nname = \"{name}\"\ncommand = \"{greedy}\"\ndir = \"{dir}\"\n");
    std::fs::write(&league, bot("root", "/") + &bot("g", ".")).unwrap();
    let league_path = league.to_string_lossy().into_owned();
    let run = |extra: &[&str]| {
        let mut command = std::process::Command::new(bin("arena"));
        command.current_dir(scratch.path()).args(["league", "--sandbox", "bwrap", "--config", &league_path]);
        command.args(["--out", "out", "--games", "2"]).args(extra);
        let output = output(&mut command);
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(!scratch.path().join("out").exists(), "a refused run writes nothing");
        stderr
    };
    let stderr = run(&[]);
    assert!(stderr.contains("bot \"root\" would see all of /"), "{stderr}");
    // Another run's records in the bot's directory (an earlier run, another shard).
    std::fs::write(&league, bot("a", ".") + &bot("g", ".")).unwrap();
    std::fs::create_dir_all(scratch.path().join("shard-1")).unwrap();
    std::fs::write(scratch.path().join("shard-1/league.json"), "{}").unwrap();
    let stderr = run(&[]);
    assert!(stderr.contains("another run's records") && stderr.contains("shard-1/league.json"), "{stderr}");
}

#[test]
fn a_bot_whose_directory_is_the_output_directory_is_refused_under_the_sandbox() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let scratch = Scratch::new("sandbox-out-is-bot-dir");
    let greedy = format!("g={}", bin("greedy-bot"));
    let random = format!("r={}", bin("random-bot"));
    let output = output(std::process::Command::new(bin("arena")).current_dir(scratch.path()).args([
        "match",
        "--sandbox",
        "bwrap",
        "--out",
        ".",
        "--games",
        "2",
        "--bot",
        &greedy,
        "--bot",
        &random,
    ]));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("output directory") && stderr.contains("bot \"g\""), "{stderr}");
    assert!(!scratch.path().join("games.jsonl").exists(), "a refused run writes nothing");
}

#[test]
fn python_node_and_java_bots_play_in_the_sandbox() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    if optional_tool(JAVA).is_none() {
        return;
    }
    let scratch = Scratch::new("sandbox-interpreters");
    let out = scratch.join("out");
    let java = format!("java {}", repo_path("tests/bots/FirstLegal.java"));
    let bots =
        [("py", format!("{} python/greedy.py", python())), ("js", "node js/greedy.js".to_string()), ("java", java)];
    let mut command = std::process::Command::new(bin("arena"));
    // Not from the checkout: the other tests' runs below target/ would be
    // another run's records in the bots' directory, which is refused.
    command.current_dir(root().join("sample-bots")).args([
        "league",
        "--sandbox",
        "bwrap",
        "--out",
        &out,
        "--games",
        "3",
    ]);
    // Generous time limits: Java compiles the bot's source as it starts.
    command.args(["--players", "3", "--concurrency", "1", "--seed", "4"]);
    command.args(["--startup-timeout", "60000", "--move-timeout", "10000"]);
    for (name, bot) in &bots {
        command.args(["--bot", &format!("{name}={bot}")]);
    }
    let output = output(&mut command);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let standings = Standings::read(&out);
    for (name, _) in &bots {
        assert_eq!(standings.bot(name).faults, 0, "{name}: {standings:?}");
        assert!(standings.bot(name).games >= 3, "{name}: {standings:?}");
    }
}

/// Runs the descriptors bot with descriptor 7 open on a secret file and 8 on
/// a file open for appending, both inherited by the arena (as from a shell's
/// `7<secret 8>>log`), and checks that no bot process gets either.
fn inherited_descriptors_stay_out(test: &str, extra: &[&str]) {
    let scratch = Scratch::new(test);
    let secret = scratch.path().join("secret");
    let appended = scratch.path().join("appended");
    std::fs::write(&secret, "the secret").unwrap();
    std::fs::write(&appended, "").unwrap();
    let reports = hostile_league(&scratch, "descriptors.py", &[], extra, "fds: ", |arena| {
        // The shell opens the descriptors without close-on-exec and becomes the arena.
        let mut shell = std::process::Command::new("sh");
        shell.current_dir(scratch.path()).env("SECRET", &secret).env("APPENDED", &appended);
        shell.arg("-c").arg("exec \"$0\" \"$@\" 7<\"$SECRET\" 8>>\"$APPENDED\"").arg(arena.get_program());
        shell.args(arena.get_args());
        shell
    });
    for report in &reports {
        assert_eq!(report["open"], serde_json::json!({}), "a bot inherited descriptors: {report}");
        assert!(report["read_7"].get("error").is_some(), "a bot read the secret: {report}");
        assert!(report["write_8"].get("error").is_some(), "a bot wrote to the arena's file: {report}");
    }
    assert_eq!(std::fs::read_to_string(&appended).unwrap(), "");
}

#[test]
fn bots_inherit_no_descriptor_from_the_arena() {
    inherited_descriptors_stay_out("descriptors-plain", &[]);
}

#[test]
fn sandboxed_bots_inherit_no_descriptor_from_the_arena() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    inherited_descriptors_stay_out("descriptors-bwrap", &["--sandbox", "bwrap"]);
}

#[test]
fn a_sandboxed_bot_cannot_fill_memory_through_its_private_tmp() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let scratch = Scratch::new("tmp-bound");
    // By default each of /tmp and /dev/shm holds at most 64 MiB; the bot tries 160.
    let reports = hostile_league(&scratch, "tmp_filler.py", &["160"], &["--sandbox", "bwrap"], "fill: ", |c| c);
    let mib = 1u64 << 20;
    for report in &reports {
        for place in ["tmp", "shm"] {
            let written = report[place]["written"].as_u64().unwrap();
            assert!(written <= 65 * mib && written >= 32 * mib, "{place}: {report}");
            assert_eq!(report[place]["stop"], "No space left on device", "{place}: {report}");
        }
    }
    let scratch = Scratch::new("tmp-bound-set");
    let extra = ["--sandbox", "bwrap", "--limit", "tmp=8M"];
    for report in hostile_league(&scratch, "tmp_filler.py", &["64"], &extra, "fill: ", |c| c) {
        for place in ["tmp", "shm"] {
            let written = report[place]["written"].as_u64().unwrap();
            assert!(written <= 9 * mib && written >= 4 * mib, "{place}: {report}");
        }
    }
}

#[test]
fn each_game_and_its_bots_run_on_a_cpu_of_their_own_by_default() {
    let mask = nix::sched::sched_getaffinity(nix::unistd::Pid::from_raw(0)).expect("an affinity mask");
    let allowed = (0..nix::sched::CpuSet::count()).filter(|&cpu| mask.is_set(cpu).unwrap_or(false)).count();
    let scratch = Scratch::new("containment-cpus");
    let report = probe(&scratch, &["--concurrency", "1"]);
    assert_eq!(report["cpus"].as_array().map(Vec::len), Some(1), "pinned to one CPU by default: {report}");
    let scratch = Scratch::new("containment-unpinned");
    let report = probe(&scratch, &["--concurrency", "1", "--cpus-per-game", "0"]);
    assert_eq!(report["cpus"].as_array().map(Vec::len), Some(allowed), "0: every allowed CPU: {report}");
}

#[test]
fn another_run_s_records_in_a_bot_s_installation_are_refused() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    // A bot installed as PREFIX/bin/x, an earlier run's records in PREFIX/runs/old:
    // the sandbox shows the installation PREFIX, so the old run's seed would be seen.
    let scratch = scratch_outside_tmp("installed-records");
    let prefix = scratch.path().join("prefix");
    std::fs::create_dir_all(prefix.join("bin")).unwrap();
    std::fs::copy(bin("greedy-bot"), prefix.join("bin/x")).unwrap();
    let work = scratch.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let x = prefix.join("bin/x").to_string_lossy().into_owned();
    let run = |out: &str, sandbox: &[&str]| {
        let mut command = std::process::Command::new(bin("arena"));
        command.current_dir(&work).args(["match", "--games", "2", "--out", out]).args(sandbox);
        command.args(["--bot", &format!("a={x}"), "--bot", &format!("b={}", bin("random-bot"))]);
        output(&mut command)
    };
    let old = prefix.join("runs/old").to_string_lossy().into_owned();
    assert_eq!(run(&old, &[]).status.code(), Some(0));
    let new = prefix.join("runs/new").to_string_lossy().into_owned();
    let refused = run(&new, &["--sandbox", "bwrap"]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("bot \"a\"") && stderr.contains("another run's records"), "{stderr}");
    assert!(stderr.contains(&format!("{old}/")), "names the records found: {stderr}");
    assert!(!std::path::Path::new(&new).join("games.jsonl").exists(), "a refused run writes nothing");
}
