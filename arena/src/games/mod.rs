//! The game engines the arena can run.

pub mod all_fives;
