//! The arena's modules form layers (see the module map in `src/lib.rs` and
//! docs/architecture.md): a module imports only from its own layer and the
//! layers below it. This test reads every source file and fails on an import
//! that points up, naming the file and the path. Below the arena, the crates
//! `records` and `stats` depend on nothing that runs processes, a runtime or
//! a command line, and the tests read records through `records`, not the
//! arena's library: a test reads their manifests. And the picture of which
//! layer imports which, in docs/architecture.md, is the one the sources give.

mod imports;

use imports::{crate_files, graph, sources};
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// The layers, top first.
const LAYERS: [&str; 14] = [
    "cli", "session", "serve", "report", "check", "league", "run", "stats", "store", "engine", "bot", "schedule",
    "terminal", "settings",
];

fn rank(layer: &str) -> Option<usize> {
    LAYERS.iter().position(|&l| l == layer)
}

/// The top-level modules that `code` names as `crate::NAME`, outside comments.
fn named_layers(code: &str) -> Vec<(String, String)> {
    let mut named = Vec::new();
    for line in code.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            named.push((name, line.trim().to_string()));
            rest = after;
        }
    }
    named
}

#[test]
fn no_module_imports_a_layer_above_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let mut checked = 0;
    let mut up = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let Some(layer) = relative.components().next().and_then(|c| c.as_os_str().to_str()) else { continue };
        let Some(own) = rank(layer.trim_end_matches(".rs")) else {
            assert!(["lib.rs", "main.rs"].contains(&layer), "{layer} is in no layer: add it to LAYERS");
            continue;
        };
        let text = fs::read_to_string(file).unwrap();
        // Tests may reach anywhere for their fixtures.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (named, line) in named_layers(code) {
            checked += 1;
            match rank(&named) {
                Some(theirs) if theirs < own => up.push(format!("{}: {line}", relative.display())),
                Some(_) => {}
                None => up.push(format!("{}: names crate::{named}, which is in no layer: {line}", relative.display())),
            }
        }
    }
    assert!(checked > 100, "only {checked} imports found: is the source where this test looks ({})?", src.display());
    assert!(up.is_empty(), "imports that point up a layer ({LAYERS:?}, top first):\n{}", up.join("\n"));
}

#[test]
fn finds_an_import_in_code_and_not_in_comments() {
    let code = "use crate::run::play; // crate::cli\n/// [`crate::report`]\nlet x = crate::stats::ratings::elo();";
    let names: Vec<String> = named_layers(code).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["run", "stats"]);
}

/// The command modules of `cli/`: each parses its flags and calls the
/// library; the others (`flags`, `game`, `exit`, …) are what the commands
/// share.
const COMMANDS: [&str; 13] = [
    "check_bot",
    "engine",
    "league",
    "match_cmd",
    "merge",
    "play_cmd",
    "replay",
    "report",
    "rules",
    "serve",
    "sprt",
    "verify",
    "view",
];

#[test]
fn no_command_imports_another() {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut imports = Vec::new();
    for command in COMMANDS {
        let text = fs::read_to_string(cli.join(format!("{command}.rs"))).expect("each command has its file");
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for line in code.lines().map(|line| line.split("//").next().unwrap_or("")) {
            for other in COMMANDS.iter().filter(|&&other| other != command) {
                if line.contains(&format!("super::{other}")) || line.contains(&format!("crate::cli::{other}")) {
                    imports.push(format!("cli/{command}.rs: {}", line.trim()));
                }
            }
        }
    }
    assert!(
        imports.is_empty(),
        "a command imports another (move what they share into the library):\n{}",
        imports.join("\n")
    );
}

/// The dependencies each crate below the arena may have, and the tests
/// crate's that it may not.
const BELOW: [(&str, &[&str]); 2] = [
    ("records", &["protocol", "serde", "serde_json", "rand_chacha", "rand_core", "memchr", "indexmap"]),
    ("stats", &["records", "game", "serde", "serde_json", "skillratings", "comfy-table"]),
];

/// The names of the `[dependencies]` of the crate in `dir` (a path from the workspace root).
fn dependencies(dir: &str) -> Vec<String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir).join("Cargo.toml");
    let text = fs::read_to_string(&manifest).unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
    let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
    table.get("dependencies").and_then(|d| d.as_table()).map(|d| d.keys().cloned().collect()).unwrap_or_default()
}

#[test]
fn records_and_stats_depend_on_no_runner_and_the_tests_not_on_the_arena() {
    for (krate, allowed) in BELOW {
        let found = dependencies(krate);
        let other: Vec<&String> = found.iter().filter(|name| !allowed.contains(&name.as_str())).collect();
        assert!(other.is_empty(), "{krate} depends on {other:?}; it may depend on {allowed:?} only");
    }
    let tests = dependencies("tests");
    assert!(tests.iter().any(|name| name == "records"), "the tests read records through records: {tests:?}");
    assert!(!tests.iter().any(|name| name == "arena"), "the tests link the arena's library: {tests:?}");
}

/// Which layer imports which, as the sources give it: a table whose rows
/// import from its columns (both top first), a `●` where any file of the
/// row's layer names a module of the column's.
fn import_picture() -> String {
    let files = crate_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let mut pairs = BTreeSet::new();
    for (from, imported) in graph(&files) {
        for to in imported {
            if let (Some(from), Some(to)) = (from.first(), to.first())
                && from != to
            {
                pairs.insert((from.clone(), to.clone()));
            }
        }
    }
    let name = |layer: &str| if layer == "settings" { "`settings.rs`".to_string() } else { format!("`{layer}/`") };
    let mut table = format!("| imports from → | {} |\n|---|", LAYERS.map(name).join(" | "));
    table.push_str(&"---|".repeat(LAYERS.len()));
    for from in LAYERS {
        table.push_str(&format!("\n| {} |", name(from)));
        for to in LAYERS {
            let mark = if pairs.contains(&(from.to_string(), to.to_string())) { " ● |" } else { " |" };
            table.push_str(mark);
        }
    }
    table
}

#[test]
fn the_picture_of_the_layers_imports_in_the_docs_is_todays() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/architecture.md");
    let text = fs::read_to_string(&docs).unwrap_or_else(|e| panic!("{}: {e}", docs.display()));
    let (start, end) = ("<!-- imports: arena/tests/layers.rs -->\n", "<!-- /imports -->");
    let shown = text
        .split_once(start)
        .and_then(|(_, rest)| rest.split_once(end))
        .map(|(shown, _)| shown.trim_end())
        .unwrap_or_else(|| panic!("docs/architecture.md has no picture between {start:?} and {end:?}"));
    let today = import_picture();
    assert!(
        shown == today,
        "docs/architecture.md's picture of the layers' imports is not today's; today's is:\n{today}"
    );
}
