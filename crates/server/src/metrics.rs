//! `/metrics` in Prometheus' text format: games and moves (the database's totals and this
//! process's counters), open sockets, rooms in memory, and the computer's queue.

use crate::AppState;
use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use std::fmt::Write;
use std::sync::atomic::{AtomicI64, Ordering};

/// This process's counters.
#[derive(Debug, Default)]
pub struct Metrics {
    pub games_created: AtomicI64,
    pub moves: AtomicI64,
    pub sockets: AtomicI64,
    pub socket_errors: AtomicI64,
    pub sockets_closed_for_abuse: AtomicI64,
}

impl Metrics {
    pub fn add(counter: &AtomicI64, n: i64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }
}

pub async fn render(State(state): State<AppState>) -> impl IntoResponse {
    let m = &state.0.metrics;
    let mut out = String::new();
    let mut line = |name: &str, kind: &str, help: &str, value: i64| {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}");
    };
    match state.store().counts().await {
        Ok(c) => {
            line("doska_games_open", "gauge", "Games waiting or being played.", c.open_games);
            line("doska_games_closed", "gauge", "Games finished or aborted.", c.closed_games);
            line("doska_moves_stored", "gauge", "Moves in the database.", c.moves);
        }
        Err(e) => tracing::warn!(error = %e, "metrics: counts"),
    }
    let get = |a: &AtomicI64| a.load(Ordering::Relaxed);
    line(
        "doska_games_created_total",
        "counter",
        "Games created by this process.",
        get(&m.games_created),
    );
    line("doska_moves_total", "counter", "Moves played through this process.", get(&m.moves));
    line("doska_sockets_open", "gauge", "Open game sockets.", get(&m.sockets));
    line(
        "doska_socket_errors_total",
        "counter",
        "Socket messages answered with an error.",
        get(&m.socket_errors),
    );
    line(
        "doska_sockets_closed_for_abuse_total",
        "counter",
        "Sockets closed for flooding.",
        get(&m.sockets_closed_for_abuse),
    );
    line("doska_rooms_loaded", "gauge", "Games held in memory.", state.0.rooms.len() as i64);
    let pool = &state.0.computer;
    line("doska_engine_queue", "gauge", "Computer moves waiting for a thread.", pool.waiting());
    line("doska_engine_running", "gauge", "Computer moves being thought.", pool.running());
    line("doska_engine_threads", "gauge", "Threads the computer may use.", pool.threads() as i64);
    ([(CONTENT_TYPE, "text/plain; version=0.0.4")], out)
}
