//! Arbitrary bytes as a protocol line: decoding never panics, and whatever
//! decodes as a `FromBot` or `ToBot` message survives encode → decode.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| protocol::invariants::line::<all_fives::wire::Move, all_fives::wire::ToBot>(data));
