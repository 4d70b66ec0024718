//! Bot processes: how they are named and launched, and how the arena talks
//! to them. This is the imperative edge of the arena; everything a bot does
//! wrong comes out of here as a [`fault::Fault`], never as a panic.
//!
//! - [`spec`]: a bot's command and limits; [`process`], [`supervisor`],
//!   [`sandbox`], [`copies`], [`seccomp`], [`cgroup`], [`limits`], [`cpus`],
//!   [`placement`]: starting it and holding it to its limits; [`tree`], [`orphans`], [`census`],
//!   [`registry`]: making sure nothing it starts is left behind.
//! - [`lines`], [`stderr`], [`logs`]: its pipes; [`remote`]: a bot over the
//!   network, its connection in place of the pipes; [`fault`]: what a bot did
//!   wrong, as data.
//! - [`session`]: many games at once in one process, each line naming its game.
//! - [`pool`]: idle processes kept between games; [`start_failures`]: giving
//!   up on a bot that cannot start; [`signals`]: Ctrl-C and the like, which
//!   stop every bot.

pub(crate) mod census;
pub(crate) mod cgroup;
pub mod copies;
pub(crate) mod cpus;
pub(crate) mod descriptors;
pub use records::fault;
pub(crate) mod limits;
pub(crate) mod lines;
pub(crate) mod logs;
pub(crate) mod orphans;
pub(crate) mod placement;
pub(crate) mod pool;
pub(crate) mod process;
pub(crate) mod registry;
pub(crate) mod remote;
pub(crate) mod sandbox;
pub(crate) mod seccomp;
pub(crate) mod session;
pub mod signals;
pub(crate) mod spec;
pub(crate) mod start_failures;
pub(crate) mod stderr;
pub mod supervisor;
pub(crate) mod tree;
pub(crate) mod visible;
