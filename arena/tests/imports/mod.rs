//! The import graph of a crate's sources, read as text: each file's module
//! and the modules it names with a path that starts with `crate::` or
//! `super::` (in a `use` or in code, brace groups expanded), resolved to the
//! deepest module the path reaches. Shared by the tests that read it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module's path from its crate's root, as its names (`["sprt", "kind"]`).
pub type Module = Vec<String>;

/// The source files below `dir`.
pub fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
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
pub fn module_of(relative: &Path) -> Module {
    let mut names: Module = relative.iter().map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string()).collect();
    if matches!(names.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        names.pop();
    }
    names
}

/// The code of a file without comments and without its `#[cfg(test)] mod`.
pub fn code_of(text: &str) -> String {
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
pub fn paths(code: &str) -> Vec<Vec<String>> {
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
pub fn tree(chars: &[char], mut at: usize, mut prefix: Vec<String>, found: &mut Vec<Vec<String>>) -> usize {
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
pub fn resolve(module: &Module, path: &[String], modules: &BTreeSet<Module>) -> Module {
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
pub fn graph(files: &[(Module, String)]) -> BTreeMap<Module, BTreeSet<Module>> {
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

/// Each source file below `src`, a crate's source folder, as its module and its text.
pub fn crate_files(src: &Path) -> Vec<(Module, String)> {
    let mut found = Vec::new();
    sources(src, &mut found);
    found.iter().map(|file| (module_of(file.strip_prefix(src).unwrap()), fs::read_to_string(file).unwrap())).collect()
}
