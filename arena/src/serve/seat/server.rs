//! The seat's page served: the page and its parts, its view as server-sent
//! events, and the posts that take the seat and answer its moves.

use super::desk::{Answer, Desk};
use crate::serve::{PAGE_POLICY, ServeError, refused, typed};
use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use std::convert::Infallible;
use std::net::TcpListener;
use std::sync::Arc;

const SEAT_HTML: &str = include_str!("seat.html");
const SEAT_JS: &str = include_str!("seat.js");
const SEAT_CSS: &str = include_str!("seat.css");

/// Serves `desk`'s page on `listener` from a thread of its own, as long as the process.
pub(super) fn spawn(desk: Arc<Desk>, listener: TcpListener) -> Result<(), ServeError> {
    let listener = move || -> Result<(), ServeError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| ServeError(format!("cannot start the server: {e}")))?;
        runtime.block_on(async {
            let listener =
                tokio::net::TcpListener::from_std(listener).map_err(|e| ServeError(format!("cannot listen: {e}")))?;
            axum::serve(listener, routes(desk)).await.map_err(|e| ServeError(format!("the server failed: {e}")))
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

fn routes(desk: Arc<Desk>) -> Router {
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
