//! JSON Schema of a game's protocol messages, generated from its Rust types.
//!
//! Each engine crate checks its generated documents in under its own
//! `schema/` folder, with a test ([`check_documents`]) that fails when they
//! are stale (regenerate with `UPDATE_SCHEMA=1 cargo test -p ENGINE`).

use std::path::Path;

/// The schema of `T`, pretty-printed, with a final newline.
pub fn document<T: schemars::JsonSchema>() -> String {
    let mut text = serde_json::to_string_pretty(&schemars::schema_for!(T)).expect("schemas serialize");
    text.push('\n');
    text
}

/// Checks that each `(file name, contents)` of `documents` is what `dir`
/// holds under that name; with `UPDATE_SCHEMA` set in the environment,
/// writes them instead.
///
/// # Panics
/// When a file is missing or stale (that is the test failing), or cannot be written.
pub fn check_documents(dir: &Path, documents: &[(&str, String)]) {
    let update = std::env::var_os("UPDATE_SCHEMA").is_some();
    for (name, generated) in documents {
        let path = dir.join(name);
        if update {
            std::fs::write(&path, generated).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
            continue;
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == *generated,
            "{} is stale: regenerate it with `UPDATE_SCHEMA=1 cargo test` in its crate",
            path.display()
        );
    }
}
