//! Replays every input kept from the engine fuzz targets
//! (`fuzz/regressions/engine/`, `fuzz/regressions/engine_deals/` and
//! `fuzz/regressions/leduc/` at the repository root) through the targets' own checks, so that what the fuzzer
//! found stays fixed.

use std::path::{Path, PathBuf};

/// The files of `fuzz/regressions/<target>/`, sorted.
fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions").join(target);
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries.map(|entry| entry.expect("a directory entry").path()).collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no inputs", dir.display());
    files
}

/// Runs `check` on every input of `target`; fails naming each input that panics.
fn replay(target: &str, check: fn(&[u8])) {
    let failed: Vec<String> = inputs(target)
        .into_iter()
        .filter(|path| {
            let bytes = std::fs::read(path).expect("a readable input");
            std::panic::catch_unwind(|| check(&bytes)).is_err()
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(failed.is_empty(), "inputs that break the {target} checks: {failed:?}");
}

#[test]
fn engine_regressions_still_pass() {
    replay("engine", arena::games::all_fives::invariants::engine);
}

#[test]
fn engine_deals_regressions_still_pass() {
    replay("engine_deals", arena::games::all_fives::invariants::deals);
}

#[test]
fn leduc_regressions_still_pass() {
    replay("leduc", arena::games::leduc::invariants::check);
}
