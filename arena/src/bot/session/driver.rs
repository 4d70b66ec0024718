//! The task that owns a session's process: it writes what its games ask it
//! to and routes every line the bot writes to the game it names.

use super::{Command, Incoming};
use crate::bot::fault::{Fault, FaultKind};
use crate::bot::lines::excerpt;
use crate::bot::process::BotProcess;
use protocol::session::{Untagged, untag};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::mpsc;

/// What became of a line the bot wrote.
#[derive(Debug, PartialEq)]
enum Routed {
    /// For this open game, without its game.
    To(u64, Vec<u8>),
    /// For a game that ended: dropped (a late answer to a turn that timed out, say).
    Stale,
    /// A fault of the whole process.
    Fault(Fault),
}

/// Where `line` goes, given the games `open` and `ended` in this process.
fn route(line: &[u8], open: impl Fn(u64) -> bool, ended: &HashSet<u64>) -> Routed {
    match untag(line) {
        Ok((game, rest)) if open(game) => Routed::To(game, rest),
        Ok((game, _)) if ended.contains(&game) => Routed::Stale,
        Ok((game, _)) => Routed::Fault(Fault::new(
            FaultKind::Protocol,
            format!("a line naming game {game}, which is not a game of this process: {}", excerpt(line)),
        )),
        Err(Untagged::NoGame) => Routed::Fault(Fault::new(
            FaultKind::BadMessage,
            format!(
                "a line naming no game (a bot that plays many games at once names the game of each of its lines, \
                 \"game\": the id of its game_start): {}",
                excerpt(line)
            ),
        )),
        Err(Untagged::Unreadable(e)) => {
            Routed::Fault(Fault::new(FaultKind::NotJson, format!("{e}, so it names no game: {}", excerpt(line))))
        }
    }
}

/// Runs the session of `process` on `commands` until it is ended, or every
/// game's end and the session are dropped (then it may exit within `grace`).
/// `dead_flag` is set once the process is dead.
pub async fn drive(
    process: BotProcess,
    mut commands: mpsc::UnboundedReceiver<Command>,
    grace: Duration,
    dead_flag: Arc<AtomicBool>,
) {
    let mut process = Some(process);
    let mut open: HashMap<u64, mpsc::UnboundedSender<Incoming>> = HashMap::new();
    let mut ended = HashSet::new();
    // The fault that ended the process, told to every game opened since.
    let mut dead: Option<(Fault, Arc<Vec<String>>)> = None;
    loop {
        let failed = tokio::select! {
            biased;
            command = commands.recv() => match command {
                None => break,
                Some(Command::Open { game, to }) => {
                    if let Some(dead) = &dead {
                        let _ = to.send(Err(dead.clone()));
                    }
                    open.insert(game, to);
                    None
                }
                Some(Command::Write(bytes, deadline)) => match process.as_mut() {
                    Some(live) => live.send(&bytes, deadline).await.err(),
                    None => None,
                },
                Some(Command::Close(game)) => {
                    open.remove(&game);
                    ended.insert(game);
                    None
                }
                Some(Command::End(grace, done)) => {
                    dead_flag.store(true, Ordering::SeqCst);
                    if let Some(mut live) = process.take() {
                        live.queue(&crate::bot::process::Envelope::Bye);
                        live.close(grace).await;
                    }
                    let _ = done.send(());
                    return;
                }
            },
            line = next_line(&mut process) => match line {
                Ok(line) => match route(&line, |game| open.contains_key(&game), &ended) {
                    Routed::To(game, rest) => {
                        let _ = open[&game].send(Ok(rest));
                        None
                    }
                    Routed::Stale => None,
                    Routed::Fault(fault) => Some(fault),
                },
                Err(fault) => Some(fault),
            },
        };
        if let Some(fault) = failed
            && let Some(live) = process.take()
        {
            dead_flag.store(true, Ordering::SeqCst);
            let stderr = Arc::new(live.kill().await);
            for to in open.values() {
                let _ = to.send(Err((fault.clone(), Arc::clone(&stderr))));
            }
            dead = Some((fault, stderr));
        }
    }
    dead_flag.store(true, Ordering::SeqCst);
    if let Some(mut live) = process {
        live.queue(&crate::bot::process::Envelope::Bye);
        live.close(grace).await;
    }
}

/// The next line of the process, if it is alive; never, if not.
async fn next_line(process: &mut Option<BotProcess>) -> Result<Vec<u8>, Fault> {
    match process {
        Some(live) => live.next_line().await.map(<[u8]>::to_vec),
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_goes_to_the_game_it_names() {
        let ended = HashSet::from([5]);
        let open = |game| game == 3;
        let to = route(br#"{"type":"move","game":3,"id":1,"index":0}"#, open, &ended);
        assert_eq!(to, Routed::To(3, br#"{"type":"move","id":1,"index":0}"#.to_vec()));
        assert_eq!(route(br#"{"game":5,"type":"move","id":1,"index":0}"#, open, &ended), Routed::Stale);
        for (line, kind) in [
            (&br#"{"game":4,"type":"move","id":1,"index":0}"#[..], FaultKind::Protocol),
            (br#"{"type":"move","id":1,"index":0}"#, FaultKind::BadMessage),
            (b"", FaultKind::NotJson),
            (b"{\"game\":3", FaultKind::NotJson),
        ] {
            let Routed::Fault(fault) = route(line, open, &ended) else { panic!("{line:?} is routed") };
            assert_eq!(fault.kind, kind, "{fault}");
        }
    }
}
