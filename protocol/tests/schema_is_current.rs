//! Fails when the checked-in JSON Schema no longer matches the Rust types.

use std::path::Path;

#[test]
fn checked_in_schema_matches_the_types() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
    let update = std::env::var_os("UPDATE_SCHEMA").is_some();
    for (name, generated) in protocol::schema::documents() {
        let path = dir.join(name);
        if update {
            std::fs::write(&path, &generated).unwrap();
            continue;
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == generated,
            "{} is stale: regenerate it with `UPDATE_SCHEMA=1 cargo test -p protocol`",
            path.display()
        );
    }
}
