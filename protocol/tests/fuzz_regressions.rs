//! Replays every input kept from the `protocol_line` fuzz target
//! (`fuzz/regressions/protocol_line/` at the repository root) through the
//! target's own checks, so that what the fuzzer found stays fixed.

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

#[test]
fn protocol_line_regressions_still_pass() {
    let failed: Vec<String> = inputs("protocol_line")
        .into_iter()
        .filter(|path| {
            let bytes = std::fs::read(path).expect("a readable input");
            std::panic::catch_unwind(|| protocol::invariants::line(&bytes)).is_err()
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(failed.is_empty(), "inputs that break the protocol_line checks: {failed:?}");
}
