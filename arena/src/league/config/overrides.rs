//! What the user gave on the command line.

use crate::bot::sandbox::Sandbox;
use crate::schedule::Shard;
use crate::schedule::clock::TimeControl;
use crate::schedule::lanes::Restart;
use crate::settings::VariantSetting;
use std::path::PathBuf;

/// What the user gave on the command line (each `None` when absent).
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    /// `--config FILE`.
    pub config: Option<PathBuf>,
    /// `--bot NAME=COMMAND`, in order.
    pub bots: Vec<String>,
    /// `--bot-dir NAME=DIR`.
    pub bot_dirs: Vec<String>,
    /// `--bot-env NAME=KEY=VALUE`.
    pub bot_envs: Vec<String>,
    /// `--bot-clock NAME=BASE+INC`.
    pub bot_clocks: Vec<String>,
    /// `--bot-move-timeout NAME=MS`.
    pub bot_move_timeouts: Vec<String>,
    /// `--game`.
    pub game: Option<String>,
    /// `--engine`.
    pub engine: Option<String>,
    /// `--engine-timeout`.
    pub engine_timeout: Option<u64>,
    /// `--format`.
    pub format: Option<String>,
    /// `--players`.
    pub players: Option<u64>,
    /// `--games` (per group).
    pub games: Option<u64>,
    /// `--budget` (of a learning league).
    pub budget: Option<u64>,
    /// `--swiss-rounds` (of a Swiss league).
    pub swiss_rounds: Option<u64>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--concurrency`.
    pub concurrency: Option<u64>,
    /// `--move-timeout` in ms.
    pub move_timeout: Option<u64>,
    /// `--clock BASE+INC`.
    pub clock: Option<TimeControl>,
    /// `--startup-timeout` in ms.
    pub startup_timeout: Option<u64>,
    /// `--variant KEY=VALUE`, in order.
    pub variants: Vec<VariantSetting>,
    /// `--out`.
    pub out: Option<PathBuf>,
    /// `--shard K/N`.
    pub shard: Option<Shard>,
    /// `--limit NAME=VALUE`, in order.
    pub limits: Vec<String>,
    /// `--sandbox`.
    pub sandbox: Option<Sandbox>,
    /// `--restart`.
    pub restart: Option<Restart>,
    /// `--cpus-per-game`.
    pub cpus_per_game: Option<u64>,
    /// `--deals FILE`.
    pub deals: Option<PathBuf>,
}
