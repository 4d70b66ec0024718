//! What a run serves while it runs: its live page (`--serve`) and a
//! listener for bots that connect in (`--listen`), each bound as the
//! command starts, so that an address in use is refused before any game.

use super::exit::{Failure, internal, usage};
use crate::bot::remote::Remote;
use crate::bot::remote::listener::{Listener, address, current, token};
use crate::bot::sandbox::Sandbox;
use crate::bot::spec::BotSpec;
use crate::terminal::console::errln;
use std::path::PathBuf;

/// The listener of `--serve`, bound as the command starts, until the run begins.
static LISTENER: std::sync::Mutex<Option<std::net::TcpListener>> = std::sync::Mutex::new(None);

/// Listens on `--serve`'s address `serve`, if given, so that an address in
/// use is refused before any game is played.
///
/// # Errors
/// A usage error when the address cannot be listened on.
pub fn listen(serve: Option<&str>) -> Result<(), Failure> {
    let Some(addr) = serve else { return Ok(()) };
    let listener = crate::serve::bind(addr).map_err(|e| usage(format!("--serve: {e}")))?;
    *LISTENER.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(listener);
    Ok(())
}

/// Serves the live page of the run that writes `dir`, if `--serve` was
/// given ([`listen`]): `total` is how many games it plays, when
/// known; its games are drawn by `engine`'s own page when it draws pages.
///
/// # Errors
/// A usage error when the run has no output directory to serve.
pub fn serve_run(
    dir: Option<&std::path::Path>,
    total: Option<u64>,
    engine: &crate::engine::spec::Engine,
) -> Result<(), Failure> {
    let Some(listener) = LISTENER.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take() else {
        return Ok(());
    };
    let Some(dir) = dir else {
        return Err(usage("--serve needs an output directory (--out DIR): the live page is made from the run's files"));
    };
    let pages = engine.program_of().filter(|_| engine.info().page).cloned();
    let live = crate::serve::Live { total, flights: Some(crate::run::flights::watch()), pages };
    crate::terminal::console::errln!("live page: {} (of {})", crate::serve::url(&listener), dir.display());
    crate::serve::spawn(dir, listener, live).map_err(|e| internal(e.0))
}

/// `--listen`'s address and the other remote flags, kept as the command starts.
static REMOTE: std::sync::Mutex<Option<(Option<std::net::SocketAddr>, bool)>> = std::sync::Mutex::new(None);

/// Checks `--listen`'s address `listen` (with `--listen-public`: `public`)
/// and keeps it and `--unsandboxed-remote` (`unsandboxed`) for [`listen_run`].
///
/// # Errors
/// A usage error for an address that is malformed, or not the loopback without `--listen-public`.
pub fn keep(listen: Option<&str>, public: bool, unsandboxed: bool) -> Result<(), Failure> {
    let address = listen.map(|text| address(text, public)).transpose();
    let address = address.map_err(usage)?;
    *REMOTE.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some((address, unsandboxed));
    Ok(())
}

/// Listens for the bots of `bots` that connect in, once for the command,
/// as [`keep`] kept the flags; refuses a remote bot in a run
/// sandboxed as `sandbox` without `--unsandboxed-remote`.
///
/// # Errors
/// A usage error for a bot that connects in without `--listen`, `--listen`
/// without such a bot, a token file that cannot be read, an address that
/// cannot be listened on (one in use), or a remote bot in a sandboxed run.
pub fn listen_run(bots: &[BotSpec], sandbox: Sandbox) -> Result<(), Failure> {
    let (address, unsandboxed) = REMOTE.lock().unwrap_or_else(std::sync::PoisonError::into_inner).unwrap_or_default();
    if let (Sandbox::Bwrap, Some(bot), false) = (sandbox, bots.iter().find(|b| b.remote.is_some()), unsandboxed) {
        return Err(usage(format!(
            "bot {:?} plays over the network ({}), where no sandbox confines it: --sandbox bwrap confines only the \
             bots run here; add --unsandboxed-remote to play it anyway (see docs/sandbox.md)",
            bot.name, bot.command
        )));
    }
    if current().is_some() {
        return Ok(());
    }
    let waiting: Vec<(&BotSpec, &Option<PathBuf>)> = bots
        .iter()
        .filter_map(|bot| match &bot.remote {
            Some(Remote::Listen(file)) => Some((bot, file)),
            _ => None,
        })
        .collect();
    let address = match (address, waiting.first()) {
        (None, None) => return Ok(()),
        (Some(_), None) => {
            return Err(usage("--listen: no bot connects in; give one as NAME=listen (e.g. --bot me=listen)"));
        }
        (None, Some((bot, _))) => {
            return Err(usage(format!(
                "bot {:?} connects in ({}), so give --listen [ADDR] for it to connect to",
                bot.name, bot.command
            )));
        }
        (Some(address), Some(_)) => address,
    };
    let mut tokens = Vec::new();
    for (bot, file) in &waiting {
        let token = match file {
            Some(file) => std::fs::read_to_string(file)
                .ok()
                .and_then(|text| text.lines().next().map(|line| line.trim().to_string()))
                .filter(|token| !token.is_empty())
                .ok_or_else(|| usage(format!("bot {:?}: cannot read a token from {}", bot.name, file.display())))?,
            None => token().map_err(|e| internal(format!("cannot make a token: {e}")))?,
        };
        tokens.push((bot.name.clone(), token));
    }
    let listener = Listener::start(address, &tokens, crate::run::table::Limits::default().line_cap).map_err(usage)?;
    let at = listener.address();
    errln!("listening for bots on {at}: over TCP, an auth line first; over WebSocket, ws://{at}/NAME?token=TOKEN");
    for ((_, file), (name, token)) in waiting.iter().zip(&tokens) {
        match file {
            Some(file) => errln!("bot {name:?}: its token is in {}", file.display()),
            None => errln!("bot {name:?}: token {token}"),
        }
    }
    Ok(())
}
