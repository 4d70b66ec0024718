//! No two modules import each other, directly or round a loop: this test
//! reads every source file of the arena, `stats` and `records` (outside
//! their `mod tests`), takes each path that starts with `crate::` or
//! `super::` (in a `use` or in code, brace groups expanded), resolves it to
//! the file of the deepest module it names, and fails naming the files of
//! any cycle of that import graph. A module naming its own submodules (a
//! parent re-exporting a child) is not counted: the cycles it looks for are
//! between siblings and cousins, which a reader has to understand together.
//! It is pure text parsing, and runs in a fraction of a second.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module's path from its crate's root, as its names (`["sprt", "kind"]`).
type Module = Vec<String>;

/// The source files below `dir`.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The module a file under a crate's `src` holds: `sprt/kind.rs` and
/// `sprt/kind/mod.rs` hold `sprt::kind`, `lib.rs` and `main.rs` the root.
fn module_of(relative: &Path) -> Module {
    let mut names: Module = relative.iter().map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string()).collect();
    if matches!(names.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        names.pop();
    }
    names
}

/// The code of a file without comments and without its `#[cfg(test)] mod`.
fn code_of(text: &str) -> String {
    let mut code = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]" && lines.peek().is_some_and(|next| next.trim_start().starts_with("mod ")) {
            break;
        }
        code.push_str(line.split("//").next().unwrap_or(""));
        code.push('\n');
    }
    code
}

/// Every path in `code` that starts with `crate::` or `super::`, brace
/// groups expanded: `use super::{a::B, c}` gives `super::a::B` and `super::c`.
fn paths(code: &str) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let starts = ["crate::", "super::"].iter().any(|start| {
            chars[at..].starts_with(&start.chars().collect::<Vec<_>>())
                && (at == 0 || !(chars[at - 1].is_alphanumeric() || chars[at - 1] == '_' || chars[at - 1] == ':'))
        });
        if starts {
            at = tree(&chars, at, Vec::new(), &mut found);
        } else {
            at += 1;
        }
    }
    found
}

/// Reads the use tree at `at` after the path `prefix`, adding its paths to
/// `found`; returns where it ends.
fn tree(chars: &[char], mut at: usize, mut prefix: Vec<String>, found: &mut Vec<Vec<String>>) -> usize {
    let skip_space = |at: &mut usize| {
        while *at < chars.len() && chars[*at].is_whitespace() {
            *at += 1;
        }
    };
    loop {
        skip_space(&mut at);
        if chars.get(at) == Some(&'{') {
            at += 1;
            loop {
                skip_space(&mut at);
                match chars.get(at) {
                    Some('}') => return at + 1,
                    Some(',') => at += 1,
                    Some(_) => at = tree(chars, at, prefix.clone(), found),
                    None => return at,
                }
            }
        }
        let name: String = chars[at..].iter().take_while(|c| c.is_alphanumeric() || **c == '_').collect();
        at += name.chars().count();
        if name.is_empty() {
            found.push(prefix);
            return at;
        }
        prefix.push(name);
        if chars[at..].starts_with(&[':', ':']) {
            at += 2;
        } else {
            found.push(prefix);
            return at;
        }
    }
}

/// The deepest module of `modules` that `path`, named in `module`, reaches.
fn resolve(module: &Module, path: &[String], modules: &BTreeSet<Module>) -> Module {
    let mut at: Module = Vec::new();
    let mut names = path.iter().peekable();
    if names.peek().map(|n| n.as_str()) == Some("crate") {
        names.next();
    } else {
        at = module.clone();
        while names.peek().map(|n| n.as_str()) == Some("super") {
            names.next();
            at.pop();
        }
    }
    for name in names {
        let mut deeper = at.clone();
        deeper.push(name.clone());
        if !modules.contains(&deeper) {
            break;
        }
        at = deeper;
    }
    at
}

/// The import graph of the crate whose sources are in `src`: each file's
/// module and the modules it imports, but its own and its descendants.
fn graph(files: &[(Module, String)]) -> BTreeMap<Module, BTreeSet<Module>> {
    let modules: BTreeSet<Module> = files.iter().map(|(module, _)| module.clone()).collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, text) in files {
        let imported = edges.entry(module.clone()).or_default();
        for path in paths(&code_of(text)) {
            let target = resolve(module, &path, &modules);
            if !target.starts_with(module) {
                imported.insert(target);
            }
        }
    }
    edges
}

/// A loop of `edges` through modules of `within` only, as the modules round
/// it (the first again at the end), if there is one.
fn cycle(edges: &BTreeMap<Module, BTreeSet<Module>>, within: &BTreeSet<Module>) -> Option<Vec<Module>> {
    // Depth first, in order: 1 on the current path, 2 finished.
    fn visit(
        module: &Module,
        edges: &BTreeMap<Module, BTreeSet<Module>>,
        within: &BTreeSet<Module>,
        state: &mut BTreeMap<Module, u8>,
        path: &mut Vec<Module>,
    ) -> Option<Vec<Module>> {
        state.insert(module.clone(), 1);
        path.push(module.clone());
        for next in edges.get(module).into_iter().flatten().filter(|next| within.contains(*next)) {
            match state.get(next) {
                Some(1) => {
                    let from = path.iter().position(|m| m == next).expect("on the path");
                    let mut round = path[from..].to_vec();
                    round.push(next.clone());
                    return Some(round);
                }
                Some(_) => {}
                None => {
                    if let Some(round) = visit(next, edges, within, state, path) {
                        return Some(round);
                    }
                }
            }
        }
        path.pop();
        state.insert(module.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    within.iter().find_map(|module| {
        if state.contains_key(module) { None } else { visit(module, edges, within, &mut state, &mut Vec::new()) }
    })
}

/// The modules reachable from `from` along `edges` (itself included).
fn reachable(from: &Module, edges: &BTreeMap<Module, BTreeSet<Module>>) -> BTreeSet<Module> {
    let mut seen = BTreeSet::from([from.clone()]);
    let mut next = vec![from.clone()];
    while let Some(module) = next.pop() {
        for target in edges.get(&module).into_iter().flatten() {
            if seen.insert(target.clone()) {
                next.push(target.clone());
            }
        }
    }
    seen
}

/// One loop in each group of modules that reach each other (a strongly
/// connected component of more than one module).
fn cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    let reach: BTreeMap<&Module, BTreeSet<Module>> = edges.keys().map(|m| (m, reachable(m, edges))).collect();
    let mut grouped = BTreeSet::new();
    let mut loops = Vec::new();
    for (module, reached) in &reach {
        if grouped.contains(*module) {
            continue;
        }
        let group: BTreeSet<Module> = reached
            .iter()
            .filter(|other| reach.get(other).is_some_and(|back| back.contains(*module)))
            .cloned()
            .collect();
        if group.len() > 1 {
            loops.extend(cycle(edges, &group));
        }
        grouped.extend(group);
    }
    loops
}

/// `sprt::kind`, or `the root`.
fn name(module: &Module) -> String {
    if module.is_empty() { "the root".to_string() } else { module.join("::") }
}

#[test]
fn no_modules_import_each_other_round_a_loop() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let (mut files_read, mut edges_read) = (0, 0);
    let mut found_cycles = Vec::new();
    for krate in ["arena", "stats", "records"] {
        let src = root.join(krate).join("src");
        let mut found = Vec::new();
        sources(&src, &mut found);
        let files: Vec<(Module, String)> = found
            .iter()
            .map(|file| (module_of(file.strip_prefix(&src).unwrap()), fs::read_to_string(file).unwrap()))
            .collect();
        let edges = graph(&files);
        files_read += files.len();
        edges_read += edges.values().map(BTreeSet::len).sum::<usize>();
        for round in self::cycles(&edges) {
            found_cycles.push(format!("{krate}: {}", round.iter().map(name).collect::<Vec<_>>().join(" -> ")));
        }
    }
    assert!(files_read > 100 && edges_read > 100, "only {files_read} files and {edges_read} imports read");
    assert!(
        found_cycles.is_empty(),
        "modules that import each other (move what they share into one of them, or below both):\n{}\n\
         (the import graph: {files_read} files, {edges_read} imports between them)",
        found_cycles.join("\n")
    );
}

#[test]
fn reads_brace_groups_and_finds_a_loop_of_siblings_but_not_a_parent_naming_its_child() {
    let files: Vec<(Module, String)> = [
        ("lib", "pub mod sprt;\nuse crate::sprt::kind::Test; // crate::sprt::pairs"),
        ("sprt", "pub mod kind;\npub mod pairs;\npub use crate::sprt::kind::Test;\npub struct Error;"),
        ("sprt/kind", "use super::{Error, pairs::{half, Deal}};\n#[cfg(test)]\nmod tests { use crate::x; }"),
        ("sprt/pairs", "fn f() { crate::sprt::kind::Test::new() }"),
    ]
    .into_iter()
    .map(|(path, text)| (module_of(Path::new(&format!("{path}.rs"))), text.to_string()))
    .collect();
    assert_eq!(paths("use super::{Error, pairs::{half, Deal}};").len(), 3);
    let edges = graph(&files);
    let names = |module: &str| -> Vec<String> { edges[&module_of(Path::new(module))].iter().map(name).collect() };
    assert_eq!(names("sprt/kind.rs"), ["sprt", "sprt::pairs"]);
    assert_eq!(names("sprt/mod.rs"), Vec::<String>::new(), "a parent naming its child is no edge");
    assert_eq!(names("lib.rs"), Vec::<String>::new());
    let rounds: Vec<Vec<String>> = cycles(&edges).iter().map(|round| round.iter().map(name).collect()).collect();
    assert_eq!(rounds, [["sprt::kind", "sprt::pairs", "sprt::kind"]], "kind and pairs import each other");
}
