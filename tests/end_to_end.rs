//! The end-to-end tests: real arena and bot processes. Each module is one
//! area; run one with `cargo test -p e2e --test end_to_end MODULE::`.

mod check_bot;
mod cli_errors;
mod clock;
mod containment;
mod docs;
mod engine_sandbox;
mod engines;
mod environment;
mod fairness;
mod faults;
mod hidden;
mod host_failures;
mod isolation;
mod lanes;
mod league;
mod learning;
#[path = "leduc.rs"]
mod leduc_games;
mod matches;
mod network;
mod openspiel;
mod play;
mod processes;
mod records;
mod report;
mod seccomp;
mod serve;
mod sessions;
mod sprt;
mod terminal;
mod texts;
mod view;
mod views;
mod web_play;
