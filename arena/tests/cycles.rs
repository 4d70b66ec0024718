//! No two modules import each other, directly or round a loop: this test
//! reads every source file of the arena, `stats` and `records` (outside
//! their `mod tests`), takes each path that starts with `crate::` or
//! `super::` (in a `use` or in code, brace groups expanded), resolves it to
//! the file of the deepest module it names, and fails naming the files of
//! any cycle of that import graph. A module naming its own submodules (a
//! parent re-exporting a child) is not counted: the cycles it looks for are
//! between siblings and cousins, which a reader has to understand together.
//! It is pure text parsing, and runs in a fraction of a second.

mod imports;

use imports::{Module, crate_files, graph, module_of, paths};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

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
        let files = crate_files(&root.join(krate).join("src"));
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
