//! `GET /api/analysis`: the engine's best lines for any position (the analysis board), one
//! depth at a time, so that a page shows them deepening by asking again with a greater depth
//! until its player stops it. Each answer is bounded in nodes; it waits while a game waits
//! for the computer. The engine is not offered on a game in progress (the page offers the
//! board from finished games, a pasted FEN or PDN, or the home page).

use crate::AppState;
use crate::error::ApiError;
use axum::Json;
use axum::extract::{Query, State};
use doska_engine::egdb;
use doska_engine::eval::race::{self, Distance, RaceSolver};
use doska_engine::review::{unit, unit_name, value};
use doska_engine::{Limits, Searcher, Terms, analyze_lines};
use doska_rules::game::Winner;
use doska_rules::{AnyGame, Color, RuleSet};
use serde::{Deserialize, Serialize};

/// The deepest depth asked for, and the nodes one answer may search.
const MAX_DEPTH: u32 = 40;
const MAX_NODES: u64 = 3_000_000;
const MAX_LINES: usize = 5;

/// `?rules=russian&fen=W:...&depth=8&lines=3`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisQuery {
    rules: String,
    /// A FEN, or a PDN (its last position is analysed).
    fen: String,
    depth: Option<u32>,
    lines: Option<usize>,
}

#[derive(Debug, Serialize)]
struct LineJson {
    /// From White's side, in units, clamped to ±10 (a forced win).
    value: f64,
    moves: Vec<String>,
    /// The squares of the line's first move, for an arrow.
    path: Vec<String>,
}

#[derive(Debug, Serialize)]
struct RaceJson {
    /// Moves each side still needs to fill the opposite corner (exact).
    white: u32,
    black: u32,
    /// `white`, `black` or `draw`, with best play from here.
    winner: &'static str,
}

#[derive(Debug, Serialize)]
struct AnalysisJson {
    rules: String,
    fen: String,
    turn: &'static str,
    unit: &'static str,
    depth: u32,
    nodes: u64,
    /// Whether more depth would not change anything (a forced end found, or the depth cap).
    complete: bool,
    /// The best line's value from White's side.
    value: f64,
    lines: Vec<LineJson>,
    /// Ugolki once the armies have separated: the exact race.
    race: Option<RaceJson>,
    /// Draughts with few pieces, where the server has the rule set's endgame database: the
    /// exact result.
    endgame: Option<EndgameJson>,
    /// In the first moves of a rule set with an opening book: its moves, best first.
    book: Option<Vec<BookJson>>,
}

#[derive(Debug, Serialize)]
struct BookJson {
    #[serde(rename = "move")]
    mv: String,
    /// From White's side, in units (as a line's value).
    value: f64,
}

#[derive(Debug, Serialize)]
struct EndgameJson {
    /// `white`, `black` or `draw`, with best play from here.
    winner: &'static str,
    /// Plies to the end with best play (0 for a draw).
    plies: u16,
}

/// The position a query names: a rule set and a FEN or PDN; 400 saying what is wrong.
fn read_position(rules: &str, fen: &str) -> Result<AnyGame, ApiError> {
    let rules: RuleSet = rules
        .parse()
        .map_err(|e: doska_rules::RuleSetError| ApiError::BadRequest(format!("rules: {e}")))?;
    AnyGame::import(fen, rules)
        .map_err(|e| ApiError::BadRequest(format!("fen: {e}; expected a FEN or PDN of {rules}")))
}

pub async fn analyze(
    State(state): State<AppState>,
    Query(q): Query<AnalysisQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let game = read_position(&q.rules, &q.fen)?;
    if let Some(o) = game.outcome() {
        return Err(ApiError::Conflict(format!("the game is over in this position: {}", o.text)));
    }
    let depth = q.depth.unwrap_or(6).clamp(1, MAX_DEPTH);
    let lines = q.lines.unwrap_or(3).clamp(1, MAX_LINES);
    state.0.computer.idle().await;
    let out = tokio::task::spawn_blocking(move || run(&game, depth, lines))
        .await
        .map_err(|e| ApiError::BadRequest(format!("analysis failed: {e}")))?;
    Ok(Json(serde_json::to_value(out).unwrap_or_default()))
}

fn run(game: &AnyGame, depth: u32, lines: usize) -> AnalysisJson {
    let mut searcher = Searcher::new(16, Terms::ALL);
    let limits = Limits { depth: Some(depth), nodes: Some(MAX_NODES), movetime: None };
    let a = analyze_lines(&mut searcher, game, limits, lines, |_| {});
    let white = |score: i32| white_value(game, score);
    let legal = game.legal_moves();
    let line_json = a
        .lines
        .iter()
        .map(|l| LineJson {
            value: white(l.score),
            path: l
                .moves
                .first()
                .and_then(|m| legal.iter().find(|v| &v.notation == m))
                .map(|v| v.path.clone())
                .unwrap_or_default(),
            moves: l.moves.clone(),
        })
        .collect();
    let forced = a.score.abs() >= doska_engine::WIN_BOUND;
    AnalysisJson {
        rules: game.rules().to_string(),
        fen: game.fen(),
        turn: game.turn().name(),
        unit: unit_name(game),
        complete: forced || a.depth >= MAX_DEPTH || legal.len() <= 1 && a.depth >= depth,
        depth: a.depth,
        nodes: a.nodes,
        value: white(a.score),
        lines: line_json,
        race: exact_race(game),
        endgame: endgame(game),
        book: book_moves(game),
    }
}

/// A score for the side to move in `game`, as a value in units from White's side.
fn white_value(game: &AnyGame, score: i32) -> f64 {
    let v = value(score, unit(game));
    if game.turn() == Color::White { v } else { -v }
}

/// The opening book's moves for the position, best first, if the build has it there.
fn book_moves(game: &AnyGame) -> Option<Vec<BookJson>> {
    let entries = doska_engine::book::embedded(game.rules())?.get(game)?;
    let book =
        entries.iter().map(|e| BookJson { mv: e.mv.clone(), value: white_value(game, e.score) });
    Some(book.collect())
}

/// The exact result from the installed endgame database, if the position is in it.
fn endgame(game: &AnyGame) -> Option<EndgameJson> {
    let AnyGame::Draughts(g) = game else { return None };
    let (mover, other) = match game.turn() {
        Color::White => ("white", "black"),
        Color::Black => ("black", "white"),
    };
    Some(match egdb::probe(g.position())? {
        egdb::Value::Win(plies) => EndgameJson { winner: mover, plies },
        egdb::Value::Loss(plies) => EndgameJson { winner: other, plies },
        egdb::Value::Draw => EndgameJson { winner: "draw", plies: 0 },
    })
}

/// Each side's exact moves to finish and the winner, once an Ugolki race is separated.
fn exact_race(game: &AnyGame) -> Option<RaceJson> {
    let AnyGame::Ugolki(g) = game else { return None };
    let pos = g.position();
    if !race::separated(pos) {
        return None;
    }
    let rules = pos.rules();
    let (white_bits, black_bits, _) = pos.placement();
    let need = |side: Color, bits: u128| match RaceSolver::new(rules, side, 2_000_000).solve(bits) {
        Distance::Exact(d) => Some(d),
        Distance::AtLeast(_) => None,
    };
    let (w, b) = (need(Color::White, white_bits)?, need(Color::Black, black_bits)?);
    let made = |c: Color| pos.moves_made(c);
    let winner = match race::race_outcome(rules, made(Color::White), made(Color::Black), w, b) {
        Winner::White => "white",
        Winner::Black => "black",
        Winner::Draw => "draw",
    };
    Some(RaceJson { white: w, black: b, winner })
}

/// `?rules=russian&fen=W:...`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionQuery {
    rules: String,
    fen: String,
}

/// `GET /api/position`: a position as the board draws it, with its legal moves and the
/// position after each, so that the analysis board moves from position to position without a
/// game on the server. (A FEN has no history: repetitions are not seen from it.)
pub async fn position(Query(q): Query<PositionQuery>) -> Result<Json<serde_json::Value>, ApiError> {
    let game = read_position(&q.rules, &q.fen)?;
    Ok(Json(crate::view::position_json(&game)))
}
