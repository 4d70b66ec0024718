//! Bot processes: how they are named and launched, and how the arena talks
//! to them. This is the imperative edge of the arena; everything a bot does
//! wrong comes out of here as a [`fault::Fault`], never as a panic.
//!
//! - [`spec`]: a bot's command and limits; [`process`], [`supervisor`],
//!   [`sandbox`], [`seccomp`], [`cgroup`], [`limits`], [`cpus`]: starting it
//!   and holding it to its limits; [`tree`], [`orphans`], [`census`],
//!   [`registry`]: making sure nothing it starts is left behind.
//! - [`lines`], [`stderr`], [`logs`]: its pipes; [`fault`]: what a bot did
//!   wrong, as data.
//! - [`pool`]: idle processes kept between games; [`start_failures`]: giving
//!   up on a bot that cannot start; [`signals`]: Ctrl-C and the like, which
//!   stop every bot.

pub mod census;
pub mod cgroup;
pub mod cpus;
pub mod descriptors;
pub mod fault;
pub mod limits;
pub mod lines;
pub mod logs;
pub mod orphans;
pub mod pool;
pub mod process;
pub mod registry;
pub mod sandbox;
pub mod seccomp;
pub mod signals;
pub mod spec;
pub mod start_failures;
pub mod stderr;
pub mod supervisor;
pub mod tree;
pub mod visible;
