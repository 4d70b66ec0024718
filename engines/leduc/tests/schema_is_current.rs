//! Fails when the checked-in JSON Schema no longer matches the Rust types
//! (regenerate it with `UPDATE_SCHEMA=1 cargo test -p leduc`).

#[test]
fn checked_in_schema_matches_the_types() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
    protocol::schema::check_documents(&dir, &leduc::wire::schema_documents());
}
