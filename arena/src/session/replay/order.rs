//! The records of a file replayed several at a time and taken in the file's order.

use super::engines::Engines;
use super::record::GameReplay;
use crate::session::exit::{Failure, usage};
use crate::store::record_file;
use crate::terminal::console::errln;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use tokio::runtime::Runtime;

/// Replays every record with `replay`, as many at once as there are
/// `runtimes` (a thread for each, with engines of its own), and hands each
/// game to `take` in the records' order. Stops at the first failure in that
/// order (of `replay` or `take`), and returns it.
pub(super) fn in_order(
    records: &[String],
    runtimes: Vec<Runtime>,
    replay: impl Fn(&Runtime, &mut Engines, &str) -> Result<GameReplay, Failure> + Sync,
    mut take: impl FnMut(GameReplay) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (send, receive) = mpsc::channel();
        for runtime in runtimes {
            let (send, next, stop, replay) = (send.clone(), &next, &stop, &replay);
            scope.spawn(move || {
                let mut engines = Engines::default();
                while !stop.load(Ordering::Relaxed) {
                    let at = next.fetch_add(1, Ordering::Relaxed);
                    let Some(text) = records.get(at) else { break };
                    if send.send((at, replay(&runtime, &mut engines, text))).is_err() {
                        break;
                    }
                }
                engines.close(&runtime);
            });
        }
        drop(send);
        let mut waiting = BTreeMap::new();
        let mut wanted = 0;
        for (at, replayed) in receive {
            waiting.insert(at, replayed);
            while let Some(replayed) = waiting.remove(&wanted) {
                wanted += 1;
                if let Err(failure) = replayed.and_then(&mut take) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(failure);
                }
            }
        }
        Ok(())
    })
}

/// The text of every record in the file (a last line cut short is skipped).
pub(super) fn every_record(path: &Path) -> Result<Vec<String>, Failure> {
    let mut records = Vec::new();
    let mut lines = record_file::lines(path)?.peekable();
    while let Some(line) = lines.next() {
        let line = line?;
        match &line.header {
            Ok(_) => records.push(line.text),
            Err(e) if lines.peek().is_some() => {
                return Err(usage(format!("{}:{}: {e}", path.display(), line.number)));
            }
            Err(_) => errln!("warning: {}: ignoring a last line that is cut short", path.display()),
        }
    }
    Ok(records)
}
