//! Replays every input kept from the Leduc fuzz target
//! (`fuzz/regressions/leduc/` at the repository root) through the target's
//! own checks, so that what the fuzzer found stays fixed.

#[test]
fn leduc_regressions_still_pass() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions/leduc");
    game::fuzz_input::replay_kept(&dir, leduc::invariants::check);
}
