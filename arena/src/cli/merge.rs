//! `arena merge`: combines the output directories of a league's shards into
//! one (see [`crate::session::merge`], which does it).

use super::Failure;
use crate::session::merge::{self, MergeRequest};
use clap::Args;
use std::path::PathBuf;

/// The flags of `arena merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Where to write the merged league (a new directory, or one without games).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Merge even if games are missing (shards that did not finish); the
    /// result can then be completed with `arena league --resume DIR`.
    #[arg(long)]
    partial: bool,
    /// The shards' output directories.
    #[arg(required = true, value_name = "SHARD_DIR")]
    shards: Vec<PathBuf>,
}

/// Runs `arena merge`.
pub fn run(args: MergeArgs) -> Result<i32, Failure> {
    merge::run(MergeRequest { out: args.out, partial: args.partial, shards: args.shards })
}
