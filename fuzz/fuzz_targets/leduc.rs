//! A game of Leduc Hold'em from a fuzz-chosen player count, seed and moves
//! (refused indices included), then a fuzz-chosen (possibly invalid) deal,
//! every invariant checked through the public API.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| leduc::invariants::check(data));
