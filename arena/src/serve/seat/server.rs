//! The seat's page served: the page and its parts, its view as server-sent
//! events, and the posts that take the seat and answer its moves. Only to
//! the page itself: a request another site's page makes (its `Origin`
//! another), or that names another host (a name of another site's that
//! resolves to this machine), is refused.

use super::desk::{Answer, Desk};
use crate::serve::{PAGE_POLICY, ServeError, refused, typed};
use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use std::convert::Infallible;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;

const SEAT_HTML: &str = include_str!("seat.html");
const SEAT_JS: &str = include_str!("seat.js");
const SEAT_CSS: &str = include_str!("seat.css");

/// Serves `desk`'s page on `listener` from a thread of its own, as long as the process.
pub(super) fn spawn(desk: Arc<Desk>, listener: TcpListener) -> Result<(), ServeError> {
    let hosts = Arc::new(listener.local_addr().ok().and_then(hosts));
    let listener = move || -> Result<(), ServeError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| ServeError(format!("cannot start the server: {e}")))?;
        runtime.block_on(async {
            let listener =
                tokio::net::TcpListener::from_std(listener).map_err(|e| ServeError(format!("cannot listen: {e}")))?;
            axum::serve(listener, routes(desk, hosts)).await.map_err(|e| ServeError(format!("the server failed: {e}")))
        })
    };
    std::thread::Builder::new()
        .name("seat".into())
        .spawn(move || {
            if let Err(e) = listener() {
                crate::terminal::console::errln!("warning: the page of your seat stopped: {e}");
            }
        })
        .map_err(|e| ServeError(format!("cannot start the server: {e}")))?;
    Ok(())
}

/// The hosts a request to a seat on this machine only (listening on
/// `local`) may name: its address, and `localhost`, at its port; `None` (any)
/// for a seat served beyond this machine.
fn hosts(local: SocketAddr) -> Option<Vec<String>> {
    let port = local.port();
    local.ip().is_loopback().then(|| {
        vec![local.to_string(), format!("127.0.0.1:{port}"), format!("localhost:{port}"), format!("[::1]:{port}")]
    })
}

/// Why a request with these `headers` is refused: it names a host not in
/// `hosts` (when given), or comes from another site's page.
fn foreign(headers: &HeaderMap, hosts: Option<&[String]>) -> Option<String> {
    let host = headers.get(header::HOST).and_then(|host| host.to_str().ok()).unwrap_or_default();
    if let Some(hosts) = hosts
        && !hosts.iter().any(|allowed| allowed == host)
    {
        return Some(format!("{host:?} is not this seat's address: open {}", hosts[0]));
    }
    match headers.get(header::ORIGIN).map(|origin| origin.to_str().unwrap_or_default()) {
        Some(origin) if origin != format!("http://{host}") => {
            Some(format!("a page of {origin:?} may not reach this seat: only its own page may"))
        }
        _ => None,
    }
}

/// Refuses a request from elsewhere than the seat's own page ([`foreign`]).
async fn own_page_only(State(hosts): State<Arc<Option<Vec<String>>>>, request: Request, next: Next) -> Response {
    match foreign(request.headers(), hosts.as_deref()) {
        Some(why) => refused(StatusCode::FORBIDDEN, &why),
        None => next.run(request).await,
    }
}

fn routes(desk: Arc<Desk>, hosts: Arc<Option<Vec<String>>>) -> Router {
    let page = |kind: &'static str, text: &'static str| move || async move { typed(kind, PAGE_POLICY, text) };
    Router::new()
        .route("/", get(page("text/html; charset=utf-8", SEAT_HTML)))
        .route("/seat.js", get(page("text/javascript; charset=utf-8", SEAT_JS)))
        .route("/seat.css", get(page("text/css; charset=utf-8", SEAT_CSS)))
        .route("/board.js", get(page("text/javascript; charset=utf-8", all_fives::BOARD_SCRIPT)))
        .route("/events", get(events))
        .route("/state", get(state))
        .route("/claim", post(claim))
        .route("/move", post(play))
        .route("/leave", post(leave))
        .fallback(|| async { refused(StatusCode::NOT_FOUND, "no such page: your seat is at /") })
        .layer(middleware::from_fn_with_state(hosts, own_page_only))
        .with_state(desk)
}

async fn state(State(desk): State<Arc<Desk>>) -> Response {
    typed("application/json", PAGE_POLICY, desk.view().0)
}

async fn events(State(desk): State<Arc<Desk>>) -> impl IntoResponse {
    let changes = desk.subscribe();
    let stream = futures_util::stream::unfold((desk, changes, true), |(desk, mut changes, first)| async move {
        if !first {
            changes.changed().await.ok()?;
        }
        changes.borrow_and_update();
        let (view, version) = desk.view();
        desk.delivered(version);
        Some((Ok::<_, Infallible>(Event::default().event("view").data(view)), (desk, changes, false)))
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

async fn claim(State(desk): State<Arc<Desk>>) -> Response {
    typed("text/plain; charset=utf-8", PAGE_POLICY, desk.claim().to_string())
}

/// A move posted: the page that posts it and the move it answers; the choice, for a move played.
#[derive(Deserialize)]
struct Posted {
    holder: u64,
    number: u64,
    index: Option<usize>,
}

async fn play(State(desk): State<Arc<Desk>>, posted: Result<Query<Posted>, QueryRejection>) -> Response {
    match posted {
        Ok(Query(Posted { holder, number, index: Some(index) })) => answer(&desk, holder, number, Answer::Play(index)),
        _ => refused(StatusCode::BAD_REQUEST, "a move is posted as /move?holder=H&number=N&index=I (numbers)"),
    }
}

async fn leave(State(desk): State<Arc<Desk>>, posted: Result<Query<Posted>, QueryRejection>) -> Response {
    match posted {
        Ok(Query(Posted { holder, number, index: None })) => answer(&desk, holder, number, Answer::Leave),
        _ => refused(StatusCode::BAD_REQUEST, "leaving is posted as /leave?holder=H&number=N (numbers)"),
    }
}

fn answer(desk: &Desk, holder: u64, number: u64, answer: Answer) -> Response {
    match desk.post(holder, number, answer) {
        Ok(()) => typed("text/plain; charset=utf-8", PAGE_POLICY, "taken\n"),
        Err(refusal) => refused(StatusCode::from_u16(refusal.status).unwrap_or(StatusCode::CONFLICT), &refusal.message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(host: &str, origin: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, host.parse().unwrap());
        if let Some(origin) = origin {
            headers.insert(header::ORIGIN, origin.parse().unwrap());
        }
        headers
    }

    #[test]
    fn only_the_seats_own_page_reaches_it() {
        let here = hosts("127.0.0.1:8123".parse().unwrap());
        let here = here.as_deref();
        assert_eq!(foreign(&headers("127.0.0.1:8123", None), here), None);
        assert_eq!(foreign(&headers("localhost:8123", Some("http://localhost:8123")), here), None);
        let elsewhere = foreign(&headers("127.0.0.1:8123", Some("http://evil.example")), here).unwrap();
        assert!(elsewhere.contains("\"http://evil.example\" may not reach this seat"), "{elsewhere}");
        let rebound = foreign(&headers("evil.example:8123", Some("http://evil.example:8123")), here).unwrap();
        assert!(rebound.contains("is not this seat's address: open 127.0.0.1:8123"), "{rebound}");
        // Served beyond this machine: any host, but still only its own page.
        let anywhere = hosts("0.0.0.0:8123".parse().unwrap());
        assert_eq!(anywhere, None);
        assert_eq!(foreign(&headers("192.0.2.7:8123", Some("http://192.0.2.7:8123")), None), None);
        assert!(foreign(&headers("192.0.2.7:8123", Some("http://evil.example")), None).is_some());
    }
}
