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
    let mut args = match_args(scratch, &[("probe", &probe), ("g", &greedy)], &["--games", "2", "--out", &out]);
    args[0] = "league".to_string();
    args.extend(extra.iter().map(|s| s.to_string()));
    let output =
        output(std::process::Command::new(bin("arena")).args(&args).env("ARENA_TEST_SECRET", "must not reach the bot"));
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let standings = standings(&out);
    assert_eq!(standing(&standings, "probe")["faults"], 0, "{standings}");
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
