//! Replays every input kept from the All Fives fuzz targets
//! (`fuzz/regressions/engine/`, `engine_deals/` and `protocol_line/` at the
//! repository root) through the targets' own checks, so that what the fuzzer
//! found stays fixed.

use game::fuzz_input::replay_kept;
use std::path::PathBuf;

/// `fuzz/regressions/<target>/`.
fn kept(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions").join(target)
}

#[test]
fn engine_regressions_still_pass() {
    replay_kept(&kept("engine"), all_fives::invariants::engine);
}

#[test]
fn engine_deals_regressions_still_pass() {
    replay_kept(&kept("engine_deals"), all_fives::invariants::deals);
}

#[test]
fn protocol_line_regressions_still_pass() {
    replay_kept(&kept("protocol_line"), protocol::invariants::line::<all_fives::wire::Move, all_fives::wire::ToBot>);
}
