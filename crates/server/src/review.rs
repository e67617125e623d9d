//! The engine's review of a finished game (docs/api.md, "Engine review"): every move judged
//! against the best one of its position, each position with the same node budget on one
//! thread, so a review is the same every time; computed once, stored, then served from the
//! store. Reviews think only while no game waits for the computer (a review never delays a
//! player's opponent by more than one position's search), and a few at a time.

use crate::error::ApiError;
use crate::room;
use crate::{AppState, now_ms};
use doska_engine::review::{self as judge, Mark};
use doska_engine::{Searcher, Terms};
use doska_rules::{AnyGame, Color};
use doska_store::Side;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

/// One judged move, as the API shows it.
#[derive(Clone, Debug, Serialize)]
struct MoveReview {
    ply: usize,
    side: &'static str,
    #[serde(rename = "move")]
    played: String,
    /// Value before the move with best play, from White's side (units).
    before: f64,
    /// Value after the move played, from White's side.
    after: f64,
    /// What the move gave away, from the mover's side.
    loss: f64,
    best: String,
    best_path: Vec<String>,
    line: Vec<String>,
    mark: Option<&'static str>,
    nag: Option<&'static str>,
    accuracy: f64,
}

/// One side's figures.
#[derive(Clone, Debug, Default, Serialize)]
struct SideSummary {
    inaccuracies: u32,
    mistakes: u32,
    blunders: u32,
    accuracy: f64,
}

#[derive(Clone, Debug, Serialize)]
struct Summary {
    white: SideSummary,
    black: SideSummary,
}

/// A review, done or under way.
#[derive(Clone, Debug, Serialize)]
struct ReviewJson {
    status: &'static str,
    plies: usize,
    unit: &'static str,
    nodes: u64,
    moves: Vec<MoveReview>,
    summary: Option<Summary>,
}

/// The reviews being computed, and the gate that bounds how many think at once.
#[derive(Debug)]
pub struct Reviews {
    running: Mutex<HashMap<String, Arc<Mutex<ReviewJson>>>>,
    gate: Semaphore,
}

impl Reviews {
    /// At most `at_once` reviews think at the same time; the others queue.
    pub fn new(at_once: usize) -> Reviews {
        Reviews { running: Mutex::default(), gate: Semaphore::new(at_once.max(1)) }
    }

    fn running(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Mutex<ReviewJson>>>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn lock(r: &Mutex<ReviewJson>) -> std::sync::MutexGuard<'_, ReviewJson> {
    r.lock().unwrap_or_else(|e| e.into_inner())
}

/// The game's start and moves, once it is over; a game still played gets 409.
async fn finished_game(state: &AppState, id: &str) -> Result<(AnyGame, Vec<String>), ApiError> {
    let room = state.0.rooms.get(state, id).await?;
    let live = room.lock().await;
    if !live.rec.status.is_over() {
        return Err(ApiError::Conflict(
            "a game is reviewed once it is over: the engine does not help while it is played"
                .to_string(),
        ));
    }
    let start =
        doska_store::GameRecord { status: doska_store::Status::Playing, ..live.rec.clone() };
    let (game, _) = room::replay(&start, &[])?;
    Ok((game, live.moves.clone()))
}

impl ReviewJson {
    /// A review of `game`'s `plies` moves with nothing judged yet.
    fn empty(status: &'static str, game: &AnyGame, plies: usize, nodes: u64) -> ReviewJson {
        let unit = judge::unit_name(game);
        ReviewJson { status, plies, unit, nodes, moves: Vec::new(), summary: None }
    }
}

/// A game's review as stored, or as far as it has got.
async fn known(state: &AppState, id: &str) -> Result<Option<String>, ApiError> {
    if let Some(body) = state.store().review(id).await? {
        return Ok(Some(body));
    }
    let running = state.0.reviews.running().get(id).cloned();
    Ok(running.map(|r| serde_json::to_string(&*lock(&r)).unwrap_or_default()))
}

/// What is known of a game's review: stored, under way, or nothing yet.
pub async fn get(state: &AppState, id: &str) -> Result<String, ApiError> {
    if let Some(body) = known(state, id).await? {
        return Ok(body);
    }
    let (game, moves) = finished_game(state, id).await?;
    let none = ReviewJson::empty("none", &game, moves.len(), state.config().review_nodes);
    Ok(serde_json::to_string(&none).unwrap_or_default())
}

/// Starts a game's review unless it is stored or under way; what is known of it.
pub async fn start(state: &AppState, id: &str) -> Result<String, ApiError> {
    if let Some(body) = known(state, id).await? {
        return Ok(body);
    }
    let (game, moves) = finished_game(state, id).await?;
    let progress = {
        let mut running = state.0.reviews.running();
        if let Some(r) = running.get(id) {
            return Ok(serde_json::to_string(&*lock(r)).unwrap_or_default());
        }
        let nodes = state.config().review_nodes;
        let r = Arc::new(Mutex::new(ReviewJson::empty("queued", &game, moves.len(), nodes)));
        running.insert(id.to_string(), r.clone());
        r
    };
    let body = serde_json::to_string(&*lock(&progress)).unwrap_or_default();
    let (state, id) = (state.clone(), id.to_string());
    tokio::spawn(async move {
        if let Err(e) = compute(&state, &id, game, moves, &progress).await {
            tracing::error!(game = %id, error = %e, "review failed");
        }
        state.0.reviews.running().remove(&id);
    });
    Ok(body)
}

/// Judges every move in turn, publishing each as it comes, then stores the whole.
async fn compute(
    state: &AppState,
    id: &str,
    mut game: AnyGame,
    moves: Vec<String>,
    progress: &Arc<Mutex<ReviewJson>>,
) -> Result<(), ApiError> {
    let _permit = state.0.reviews.gate.acquire().await.map_err(|_| {
        ApiError::Conflict("the server is stopping: reviews are not taken".to_string())
    })?;
    lock(progress).status = "running";
    let nodes = state.config().review_nodes;
    let mut searcher = Searcher::new(16, Terms::ALL);
    for (ply, played) in moves.iter().enumerate() {
        state.0.computer.idle().await;
        let before = game.clone();
        let text = played.clone();
        let (back, judged) = tokio::task::spawn_blocking(move || {
            let j = judge::judge(&mut searcher, &before, &text, nodes);
            (searcher, j.map(|j| (j, before)))
        })
        .await
        .map_err(|e| ApiError::Corrupt(id.to_string(), format!("review task: {e}")))?;
        searcher = back;
        let Some((j, before)) = judged else {
            return Err(ApiError::Corrupt(
                id.to_string(),
                format!("move {played} cannot be judged"),
            ));
        };
        let mover = before.turn();
        let loss = judge::loss(j.before, j.after);
        let mark = judge::mark(&before, loss);
        let white = |v: f64| if mover == Color::White { v } else { -v };
        let best_path = before
            .legal_moves()
            .into_iter()
            .find(|m| m.notation == j.best)
            .map(|m| m.path)
            .unwrap_or_default();
        let entry = MoveReview {
            ply,
            side: mover.name(),
            played: played.clone(),
            before: round(white(j.before)),
            after: round(white(j.after)),
            loss: round(loss),
            best: j.best,
            best_path,
            line: j.line,
            mark: mark.map(Mark::name),
            nag: mark.map(Mark::nag),
            accuracy: round(judge::accuracy(&before, j.before, j.after)),
        };
        game.play(played)
            .map_err(|e| ApiError::Corrupt(id.to_string(), format!("move {played}: {e}")))?;
        lock(progress).moves.push(entry);
    }
    let body = {
        let mut r = lock(progress);
        r.summary = Some(summarize(&r.moves));
        r.status = "done";
        serde_json::to_string(&*r).unwrap_or_default()
    };
    state
        .store()
        .save_review(id, i64::try_from(nodes).unwrap_or(i64::MAX), &body, now_ms())
        .await?;
    Ok(())
}

fn round(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

fn summarize(moves: &[MoveReview]) -> Summary {
    let of = |s: Side| {
        let mine: Vec<&MoveReview> =
            moves.iter().filter(|m| m.side == room::color(s).name()).collect();
        let count = |k: &str| mine.iter().filter(|m| m.mark == Some(k)).count() as u32;
        let accuracy = if mine.is_empty() {
            100.0
        } else {
            round(mine.iter().map(|m| m.accuracy).sum::<f64>() / mine.len() as f64)
        };
        SideSummary {
            inaccuracies: count("inaccuracy"),
            mistakes: count("mistake"),
            blunders: count("blunder"),
            accuracy,
        }
    };
    Summary { white: of(Side::White), black: of(Side::Black) }
}
