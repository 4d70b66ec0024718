//! A game of All Fives from fuzz-chosen, possibly invalid, variants and
//! deals through `AllFives::from_deals`: refused with an error exactly when
//! invalid, and otherwise played out with every invariant checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| all_fives::invariants::deals(data));
