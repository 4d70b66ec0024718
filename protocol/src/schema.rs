//! JSON Schema of every protocol message, generated from the Rust types.
//!
//! The generated documents are checked in under `protocol/schema/`; a test
//! fails when they are stale (regenerate with `UPDATE_SCHEMA=1 cargo test -p protocol`).

use crate::{all_fives, leduc};

/// The checked-in schema files: file name and pretty-printed contents.
pub fn documents() -> Vec<(&'static str, String)> {
    vec![
        ("all-fives.to-bot.schema.json", pretty(&schemars::schema_for!(all_fives::ToBot))),
        ("all-fives.from-bot.schema.json", pretty(&schemars::schema_for!(all_fives::FromBot))),
        ("leduc.to-bot.schema.json", pretty(&schemars::schema_for!(leduc::ToBot))),
        ("leduc.from-bot.schema.json", pretty(&schemars::schema_for!(leduc::FromBot))),
    ]
}

fn pretty(schema: &schemars::Schema) -> String {
    let mut text = serde_json::to_string_pretty(schema).expect("schemas serialize");
    text.push('\n');
    text
}
