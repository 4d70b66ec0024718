//! `arena serve`: a live page of a run, served over HTTP while the run
//! writes its directory (or after it ended), that updates as games end.
//!
//! The server is axum's, on a single-threaded tokio runtime of its own
//! thread. A task reads the run's directory ([`watch::Watch`]) every
//! [`POLL`] and, while a page follows the run and what it shows has
//! changed, sends it to every page as a server-sent event (`/events`, one
//! JSON object, the state; with no page open, the state is not made). A
//! run served by its own process hands the server the summaries of the
//! games it records, which it reads back from the directory otherwise, and
//! a copy of its own standings and SPRT at each read, which it counts from
//! the games otherwise. The
//! page (`live.html`, `live.js`, `live.css`) draws it. A recorded game opens
//! in its game's viewer (`/game/ID`); a game in flight (only a run served
//! with `--serve`, whose process keeps them: [`crate::run::flights`]) is
//! drawn as it stands (`/flight/ID`), and the page reloads it as it moves.
//!
//! Only reading: nothing is written to the directory. What is served is the
//! page, its state, the viewers' pages and a few files of the directory
//! itself by name (`/files/NAME`), never a path outside it nor one through
//! a symbolic link. Every text a bot or an engine wrote reaches the page
//! as JSON and is put in as text (`textContent`), never as HTML, and every
//! page is sent with a content security policy that lets no script run but
//! the page's own, and nothing load from the network.

pub(crate) mod plan;
pub mod seat;
pub(crate) mod watch;

use crate::engine::page::{drawn_page, event_count, opening_at};
use crate::engine::program::Program;
use crate::run::flights::{Flight, Flights};
use axum::Router;
use axum::extract::{Path as UrlPath, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::convert::Infallible;
use std::net::{SocketAddr, TcpListener};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use watch::{NotARun, Watch};

/// How often the directory is read for new games.
pub const POLL: Duration = Duration::from_millis(200);
/// The address `arena serve` listens on unless told otherwise.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8000";

const LIVE_HTML: &str = include_str!("live.html");
const LIVE_JS: &str = include_str!("live.js");
const LIVE_CSS: &str = include_str!("live.css");

/// The live page's policy: its own script and style, its events, and
/// frames of its own pages; nothing else, from nowhere else.
pub(crate) const PAGE_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; \
     img-src 'self' data:; frame-src 'self'; base-uri 'none'; form-action 'none'";
/// A game viewer's policy: its inline script and style only, in a sandbox
/// of its own (no access to the live page), nothing from the network.
const VIEWER_POLICY: &str = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
     img-src data:; base-uri 'none'; form-action 'none'; sandbox allow-scripts";
/// A file's policy: shown as text, nothing runs.
const FILE_POLICY: &str = "default-src 'none'; sandbox";

/// What a served run adds to its directory: the games it plays and the
/// games in flight.
#[derive(Default, Clone)]
pub struct Live {
    /// How many games the run plays (for the time left), when known; for
    /// `arena serve DIR`, as many as the directory plans ([`plan`]).
    pub total: Option<u64>,
    /// Its games in flight.
    pub flights: Option<Arc<Flights>>,
    /// The run's engine program, when it draws its games' pages: its games,
    /// in flight and recorded, are shown in its page.
    pub pages: Option<Program>,
}

/// Why a run cannot be served: the message says why and what to do.
#[derive(Debug)]
pub struct ServeError(pub String);

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<NotARun> for ServeError {
    fn from(NotARun(why): NotARun) -> ServeError {
        ServeError(why)
    }
}

/// Listens on `addr` (`HOST:PORT`; port 0 for any free one).
///
/// # Errors
/// When `addr` is not an address, is in use or may not be listened on.
pub fn bind(addr: &str) -> Result<TcpListener, ServeError> {
    let parsed: SocketAddr = addr.parse().map_err(|_| {
        ServeError(format!("{addr:?} is not an address to listen on: give HOST:PORT, e.g. {DEFAULT_ADDR}"))
    })?;
    let listener = TcpListener::bind(parsed).map_err(|e| {
        let fix = match e.kind() {
            std::io::ErrorKind::AddrInUse => "another program (or another arena serve) uses it: give another port, e.g. 127.0.0.1:8001, or 127.0.0.1:0 for any free one",
            std::io::ErrorKind::AddrNotAvailable => "it is not an address of this machine: give 127.0.0.1:PORT",
            std::io::ErrorKind::PermissionDenied => "ports below 1024 need privileges: give a port above 1024",
            _ => "give another address",
        };
        ServeError(format!("cannot listen on {parsed}: {e}; {fix}"))
    })?;
    listener.set_nonblocking(true).map_err(|e| ServeError(format!("cannot listen on {parsed}: {e}")))?;
    Ok(listener)
}

/// The address the page is at.
pub fn url(listener: &TcpListener) -> String {
    listener.local_addr().map_or_else(|_| "http://?".to_string(), |addr| format!("http://{addr}/"))
}

/// Serves the run in `dir` on `listener` until the process ends.
///
/// # Errors
/// When `dir` is not a run's directory, or the server fails.
pub fn serve(dir: &Path, listener: TcpListener, live: Live) -> Result<(), ServeError> {
    let shared = Shared::new(dir, live)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ServeError(format!("cannot start the server: {e}")))?;
    runtime.block_on(run(shared, listener))
}

/// [`serve`] on a thread of its own, for a run served while it runs: the
/// directory is read once the run has begun writing its games, and the
/// serving goes on as long as the process.
///
/// # Errors
/// When the thread cannot be started.
pub fn spawn(dir: &Path, listener: TcpListener, live: Live) -> Result<(), ServeError> {
    let shared = Shared::waiting(dir, live);
    std::thread::Builder::new()
        .name("serve".into())
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build();
            if let Ok(runtime) = runtime
                && let Err(e) = runtime.block_on(run(shared, listener))
            {
                crate::terminal::console::errln!("warning: the live page stopped: {e}");
            }
        })
        .map_err(|e| ServeError(format!("cannot start the server: {e}")))?;
    Ok(())
}

/// What every request shares.
struct Shared {
    /// The run's directory.
    dir: PathBuf,
    /// The directory read, once it holds a run (a served run's, once its games begin).
    watch: Mutex<Option<Watch>>,
    live: Live,
    state: tokio::sync::watch::Sender<Arc<String>>,
}

impl Shared {
    /// The run in `dir`, which must be there: the games it plans, unless
    /// `live` says, as far as its directory says.
    fn new(dir: &Path, mut live: Live) -> Result<Arc<Shared>, ServeError> {
        let mut watch = Watch::new(dir)?;
        if live.total.is_none() {
            watch.poll();
            live.total = watch.planned();
        }
        let shared = Shared::waiting(dir, live);
        *shared.watch() = Some(watch);
        shared.refresh(true);
        Ok(shared)
    }

    /// The run that will write `dir`.
    fn waiting(dir: &Path, live: Live) -> Arc<Shared> {
        let (state, _) = tokio::sync::watch::channel(Arc::new(String::new()));
        Arc::new(Shared { dir: dir.to_path_buf(), watch: Mutex::new(None), live, state })
    }

    fn watch(&self) -> std::sync::MutexGuard<'_, Option<Watch>> {
        self.watch.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The game's name and whether an engine program played it, once known.
    fn game(&self) -> Option<(String, bool)> {
        self.watch().as_ref()?.game().map(|(name, program)| (name.to_string(), program))
    }

    /// Reads the directory; makes the state again and sends it when it
    /// changed, if a page follows it or `asked` (a page asks for it): with
    /// no page open, the state is not made.
    fn refresh(&self, asked: bool) {
        let mut watch = self.watch();
        // A served run's configuration is written before its first game.
        if watch.is_none() && self.dir.join(crate::store::output::GAMES).is_file() {
            // The run of this process hands over the games it records.
            let fed = |watch: Watch| match &self.live.flights {
                Some(flights) => watch.fed(Arc::clone(flights)),
                None => watch,
            };
            *watch = Watch::new(&self.dir).ok().map(fed);
        }
        if let Some(watch) = watch.as_mut() {
            watch.poll();
        }
        if !asked && self.state.receiver_count() == 0 {
            return;
        }
        let state = match watch.as_mut() {
            Some(watch) => {
                let flights = self.live.flights.as_ref().map(|flights| flights.list());
                watch.state(self.live.total, flights).to_string()
            }
            None => serde_json::json!({"waiting": self.dir.display().to_string()}).to_string(),
        };
        drop(watch);
        self.state.send_if_modified(|current| {
            let changed = **current != state;
            if changed {
                *current = Arc::new(state);
            }
            changed
        });
    }
}

async fn run(shared: Arc<Shared>, listener: TcpListener) -> Result<(), ServeError> {
    let listener =
        tokio::net::TcpListener::from_std(listener).map_err(|e| ServeError(format!("cannot listen: {e}")))?;
    let poller = Arc::clone(&shared);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(POLL);
        loop {
            tick.tick().await;
            poller.refresh(false);
        }
    });
    let app = Router::new()
        .route("/", get(page))
        .route("/live.js", get(|| async { asset("text/javascript; charset=utf-8", LIVE_JS) }))
        .route("/live.css", get(|| async { asset("text/css; charset=utf-8", LIVE_CSS) }))
        .route("/events", get(events))
        .route("/state", get(state))
        .route("/game/{id}", get(game))
        .route("/flight/{id}", get(flight))
        .route("/files/{*path}", get(file))
        .fallback(|| async { refused(StatusCode::NOT_FOUND, "no such page: the live page is at /") })
        .with_state(shared);
    axum::serve(listener, app).await.map_err(|e| ServeError(format!("the server failed: {e}")))
}

/// A response with its type and policy.
pub(crate) fn typed(kind: &'static str, policy: &'static str, body: impl Into<axum::body::Body>) -> Response {
    let mut response = Response::new(body.into());
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(policy));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn asset(kind: &'static str, text: &'static str) -> Response {
    typed(kind, PAGE_POLICY, text)
}

pub(crate) fn refused(status: StatusCode, why: &str) -> Response {
    let mut response = typed("text/plain; charset=utf-8", FILE_POLICY, format!("{why}\n"));
    *response.status_mut() = status;
    response
}

async fn page() -> Response {
    asset("text/html; charset=utf-8", LIVE_HTML)
}

async fn state(State(shared): State<Arc<Shared>>) -> Response {
    shared.refresh(true);
    let state = shared.state.borrow().clone();
    typed("application/json", FILE_POLICY, state.as_str().to_string())
}

async fn events(State(shared): State<Arc<Shared>>) -> impl IntoResponse {
    let receiver = shared.state.subscribe();
    // The state as it stands now, which is not made while no page follows.
    shared.refresh(true);
    let stream = futures_util::stream::unfold((receiver, true), |(mut receiver, first)| async move {
        if !first {
            receiver.changed().await.ok()?;
        }
        let state = receiver.borrow_and_update().clone();
        Some((Ok::<_, Infallible>(Event::default().event("state").data(state.as_str())), (receiver, false)))
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

/// A recorded game in its game's viewer.
async fn game(State(shared): State<Arc<Shared>>, UrlPath(id): UrlPath<String>) -> Response {
    let Ok(id) = id.parse::<u64>() else { return refused(StatusCode::BAD_REQUEST, "a game's id is a number") };
    let span = shared.watch().as_ref().and_then(|watch| watch.span(id));
    let game = shared.game();
    let (Some((offset, length)), Some((name, program))) = (span, game) else {
        return refused(StatusCode::NOT_FOUND, &format!("game {id} is not in the records yet"));
    };
    let games = inside(&shared.dir, crate::store::output::GAMES).map_err(std::io::Error::other);
    match games.and_then(|games| read_span(&games, offset, length)) {
        Ok(record) => {
            // At its end, its result shown, the steps to go back through (an address giving a step wins).
            let steps = event_count(&record);
            let page = viewer(&shared, name, program, record).await;
            typed("text/html; charset=utf-8", VIEWER_POLICY, opening_at(page, steps))
        }
        Err(e) => refused(StatusCode::INTERNAL_SERVER_ERROR, &format!("cannot read game {id}: {e}")),
    }
}

/// The page of `record`, a game of `name` (`program`: of an engine
/// program): the engine program's own page when the run's engine draws
/// pages ([`Live::pages`]; its process is one of the run's), else the
/// built-in game's, or the generic page of its events (also when the
/// engine fails to draw it).
async fn viewer(shared: &Shared, name: String, program: bool, record: String) -> String {
    let registry = shared.live.flights.as_ref().and_then(|flights| flights.registry());
    if let (true, Some(engine), Some(registry)) = (program, shared.live.pages.clone(), registry) {
        let line = record.clone();
        let drawn = tokio::task::spawn_blocking(move || drawn_page(&engine, &line, &registry)).await;
        if let Ok(Ok(Some(page))) = drawn {
            return page;
        }
    }
    crate::engine::games::html_page(&name, program, &record)
}

/// The bytes at `offset` of `path`, `length` of them, as text.
fn read_span(path: &Path, offset: u64, length: usize) -> std::io::Result<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path)?;
    file.seek(SeekFrom::Start(offset))?;
    let mut bytes = vec![0; length];
    file.read_exact(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// A game in flight, as it stands, in its game's viewer: a record of its
/// events so far, its result `in flight` with no scores yet.
async fn flight(State(shared): State<Arc<Shared>>, UrlPath(id): UrlPath<String>) -> Response {
    let Ok(id) = id.parse::<u64>() else { return refused(StatusCode::BAD_REQUEST, "a game's id is a number") };
    let flight = shared.live.flights.as_ref().filter(|flights| flights.follow(id)).and_then(|flights| flights.get(id));
    let Some(flight) = flight else {
        return refused(
            StatusCode::NOT_FOUND,
            &format!("game {id} is not in flight: it may have ended (see /game/{id})"),
        );
    };
    let (name, program) = flight.game.clone();
    let record = flight_record(id, &name, &flight).to_string();
    typed("text/html; charset=utf-8", VIEWER_POLICY, viewer(&shared, name, program, record).await)
}

/// Game `id` of `game` in flight as a record of its events so far (each as
/// a record holds it), its result `in flight` with no scores yet.
fn flight_record(id: u64, game: &str, flight: &Flight) -> serde_json::Value {
    let (deal, arrangement, seed) = flight.origin;
    let seats = flight.bots.len();
    let parse = |json: &str| serde_json::from_str::<serde_json::Value>(json).unwrap_or_default();
    let events: Vec<serde_json::Value> = flight.events.iter().map(|event| parse(event)).collect();
    serde_json::json!({
        "id": id, "game": game, "deal": deal, "arrangement": arrangement, "seed": seed,
        "variant": parse(&flight.variant), "bots": flight.bots, "events": events,
        "result": {"reason": "in flight", "scores": vec![0; seats], "ranks": vec![0; seats]},
        "faults": [],
    })
}

/// A file of the run's directory, as text: `path` must name a file inside
/// it, through no symbolic link.
async fn file(State(shared): State<Arc<Shared>>, UrlPath(path): UrlPath<String>) -> Response {
    match inside(&shared.dir, &path) {
        Ok(found) => match std::fs::read(&found) {
            Ok(bytes) => typed("text/plain; charset=utf-8", FILE_POLICY, bytes),
            Err(e) => refused(StatusCode::NOT_FOUND, &format!("cannot read {path}: {e}")),
        },
        Err(why) => refused(StatusCode::FORBIDDEN, &why),
    }
}

/// `relative` as a file inside `root`, or why it is refused: a part that is
/// not a plain name (`..`, a root), or a symbolic link on the way.
fn inside(root: &Path, relative: &str) -> Result<PathBuf, String> {
    let mut path = root.to_path_buf();
    for component in Path::new(relative).components() {
        match component {
            Component::Normal(name) => path.push(name),
            _ => return Err(format!("{relative:?}: only names inside the run's directory are served")),
        }
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(format!("{relative:?} goes through a symbolic link, which is not served"));
            }
            Ok(_) => {}
            Err(_) => return Err(format!("{relative:?} is not in the run's directory")),
        }
    }
    if path.is_file() { Ok(path) } else { Err(format!("{relative:?} is not a file")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_inside_the_directory_through_no_link_are_served() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join("standings.json"), "{}").unwrap();
        std::fs::create_dir(root.join("logs")).unwrap();
        std::fs::write(root.join("logs/a.log"), "x").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", root.join("logs/link")).unwrap();
        std::os::unix::fs::symlink("/etc", root.join("up")).unwrap();
        assert_eq!(inside(&root, "standings.json"), Ok(root.join("standings.json")));
        assert_eq!(inside(&root, "logs/a.log"), Ok(root.join("logs/a.log")));
        for refused in ["../etc/passwd", "/etc/passwd", "logs/../../x", "logs/link", "up/passwd", "logs", "none"] {
            assert!(inside(&root, refused).is_err(), "{refused} was served");
        }
    }

    #[test]
    fn a_game_in_flight_is_a_record_of_its_events_so_far() {
        let flight = Flight {
            game: ("all-fives".into(), false),
            origin: (3, 1, 9),
            bots: vec!["a".into(), "b".into()],
            variant: "{\"target\":250}".into(),
            count: 1,
            events: vec!["{\"type\":\"play\",\"seat\":0}".into()],
            followed: true,
        };
        let record = flight_record(7, "all-fives", &flight);
        assert_eq!(record["events"], serde_json::json!([{"type": "play", "seat": 0}]), "as a record holds them");
        assert_eq!(
            (record["deal"].as_u64(), record["arrangement"].as_u64(), record["seed"].as_u64()),
            (Some(3), Some(1), Some(9))
        );
        assert_eq!(record["variant"]["target"], 250);
        assert_eq!(record["result"]["scores"], serde_json::json!([0, 0]));
    }

    #[test]
    fn an_address_in_use_says_to_give_another() {
        let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = taken.local_addr().unwrap().to_string();
        let why = bind(&addr).unwrap_err().0;
        assert!(why.contains("give another port"), "{why}");
        assert!(bind("localhost").unwrap_err().0.contains("HOST:PORT"));
    }
}
