//! A game of All Fives from a fuzz-chosen variant, seed and moves (illegal
//! indices included), every invariant checked through the public API.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| all_fives::invariants::engine(data));
