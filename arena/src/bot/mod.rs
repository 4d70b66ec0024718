//! Bot processes: how they are named and launched, and how the arena talks
//! to them. This is the imperative edge of the arena; everything a bot does
//! wrong comes out of here as a [`crate::fault::Fault`], never as a panic.

pub mod census;
pub mod cgroup;
pub mod cpus;
pub mod descriptors;
pub mod limits;
pub mod lines;
pub mod logs;
pub mod orphans;
pub mod process;
pub mod registry;
pub mod sandbox;
pub mod seccomp;
pub mod spec;
pub mod stderr;
pub mod supervisor;
pub mod tree;
pub mod visible;
