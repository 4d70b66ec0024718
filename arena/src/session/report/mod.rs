//! A report as the library writes it (`arena report` parses its flags and
//! calls [`run`]): the output directory of a match, a league or an SPRT as
//! an HTML page (see [`crate::report`]), with its records in a directory
//! beside it for the replays. A directory still being written is reported
//! as it stands, and called partial.
//!
//! - [`mod@request`]: what is asked, and what the directory holds;
//! - [`job`]: the report to write, once its game is known;
//! - [`games`]: its records read once, and those replayed written beside the page;
//! - [`mod@write`]: the page built, checked and written.

mod games;
mod job;
mod request;
mod write;

pub use request::{ReportRequest, run};
