//! The arena's modules form layers (see the module map in `src/lib.rs` and
//! docs/architecture.md): a module imports only from its own layer and the
//! layers below it. This test reads every source file and fails on an import
//! that points up, naming the file and the path.

use std::fs;
use std::path::{Path, PathBuf};

/// The layers, top first.
const LAYERS: [&str; 13] = [
    "cli", "serve", "report", "check", "league", "run", "stats", "store", "engine", "bot", "schedule", "terminal",
    "settings",
];

fn rank(layer: &str) -> Option<usize> {
    LAYERS.iter().position(|&l| l == layer)
}

fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
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
