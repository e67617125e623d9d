//! The JSON a client sees of a game: the state pushed after every change (and answered by
//! `GET /api/games/{id}`), and the lines of a player's game list.

use crate::Config;
use crate::room::{Here, Live, color};
use doska_rules::{Color, MoveView, PieceView};
use doska_store::{GameRecord, Seat, Side, Status};
use serde::Serialize;

/// A piece.
#[derive(Debug, Serialize)]
pub struct PieceJson {
    pub square: String,
    pub color: &'static str,
    pub king: bool,
    /// Lasca: the pieces under it, top down.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub under: Vec<UnderJson>,
}

/// A piece under a Lasca column's top.
#[derive(Debug, Serialize)]
pub struct UnderJson {
    pub color: &'static str,
    pub king: bool,
}

impl From<&PieceView> for PieceJson {
    fn from(p: &PieceView) -> Self {
        PieceJson {
            square: p.square.clone(),
            color: p.color.name(),
            king: p.king,
            under: p.under.iter().map(|&(c, king)| UnderJson { color: c.name(), king }).collect(),
        }
    }
}

/// A move.
#[derive(Debug, Serialize)]
pub struct MoveJson {
    pub notation: String,
    pub from: Option<String>,
    pub to: Option<String>,
    pub path: Vec<String>,
    pub captures: Vec<String>,
}

impl From<&MoveView> for MoveJson {
    fn from(m: &MoveView) -> Self {
        MoveJson {
            notation: m.notation.clone(),
            from: m.from.clone(),
            to: m.to.clone(),
            path: m.path.clone(),
            captures: m.captures.clone(),
        }
    }
}

/// One value for each side.
#[derive(Debug, Serialize)]
pub struct Pair<T> {
    pub white: T,
    pub black: T,
}

/// A seat as everyone may see it (never its secret).
#[derive(Debug, Serialize)]
pub struct SeatJson {
    /// `player`, `computer`, or `open` (a friend's seat nobody has taken yet).
    pub kind: &'static str,
    /// Whether a socket of that seat is connected (the computer always is).
    pub connected: bool,
    /// Since when (ms since the epoch) the seat has had no socket.
    pub away_since: Option<i64>,
}

/// How the game ended.
#[derive(Debug, Serialize)]
pub struct OutcomeJson<'a> {
    /// `white`, `black`, `draw`, or null when aborted.
    pub winner: Option<&'static str>,
    /// A stable id: `no-pieces`, `no-moves`, `repetition`, `resignation`, `agreement`,
    /// `abandoned`, `aborted`, `equal-moves-draw`, `left-at-home`, ...
    pub reason: &'a str,
    /// In English words.
    pub text: &'a str,
}

/// The state of a game.
#[derive(Debug, Serialize)]
pub struct StateJson<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub id: &'a str,
    pub rules: &'a str,
    pub mode: &'static str,
    pub level: Option<&'static str>,
    /// The computer's side.
    pub computer: Option<&'static str>,
    pub status: &'static str,
    /// Who is asking (GET only; on a socket the `hello` message says it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<&'static str>,
    pub turn: &'static str,
    pub move_number: u32,
    pub plies: usize,
    pub fen: String,
    pub start_fen: &'a str,
    pub pieces: Vec<PieceJson>,
    /// Empty unless the game is being played.
    pub legal_moves: Vec<MoveJson>,
    /// Squares of the pieces that must capture.
    pub must_capture: Vec<String>,
    /// Move texts, first to last (`imported` of them came with the game).
    pub moves: &'a [String],
    pub imported: i64,
    pub last_move: Option<MoveJson>,
    pub outcome: Option<OutcomeJson<'a>>,
    pub pieces_left: Pair<usize>,
    /// Ugolki: the side is warned its pieces must leave home soon.
    pub warning: Pair<bool>,
    pub seats: Pair<SeatJson>,
    pub draw_offer: Option<&'static str>,
    pub rematch_offer: Option<&'static str>,
    /// The id of the rematch, once made.
    pub rematch: Option<&'a str>,
    pub rematch_of: Option<&'a str>,
    /// Whether the game may still be aborted (before both sides moved).
    pub can_abort: bool,
    /// How long a side must be away before the other may claim the game.
    pub claim_after_ms: u64,
    /// The computer is choosing its move.
    pub thinking: bool,
    /// Hints the player has asked for (games against the computer).
    pub hints: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

fn seat_json(live: &Live, side: Side, seat: &Seat) -> SeatJson {
    if live.rec.computer_side == Some(side) {
        return SeatJson { kind: "computer", connected: true, away_since: None };
    }
    match &seat.player {
        None => SeatJson { kind: "open", connected: false, away_since: None },
        Some(_) => match live.seat(crate::room::color(side), crate::now_ms()) {
            Here::Connected => SeatJson { kind: "player", connected: true, away_since: None },
            Here::AwaySince(t) => {
                SeatJson { kind: "player", connected: false, away_since: Some(t) }
            }
        },
    }
}

/// The state of a game as JSON text.
pub fn state_json(live: &Live, config: &Config, you: Option<&'static str>) -> String {
    let rec = &live.rec;
    let game = &live.game;
    let playing = rec.status == Status::Playing;
    let (white_left, black_left) = game.pieces_left();
    let outcome = match rec.status {
        Status::Finished | Status::Aborted => Some(OutcomeJson {
            winner: rec.winner.map(|w| w.as_str()),
            reason: rec.reason.as_deref().unwrap_or(""),
            text: rec.result_text.as_deref().unwrap_or(""),
        }),
        _ => None,
    };
    let state = StateJson {
        kind: "state",
        id: &rec.id,
        rules: &rec.rules,
        mode: rec.mode.as_str(),
        level: rec.level.map(|l| l.as_str()),
        computer: rec.computer_side.map(|s| s.as_str()),
        status: rec.status.as_str(),
        you,
        turn: game.turn().name(),
        move_number: game.move_number(),
        plies: live.moves.len(),
        fen: game.fen(),
        start_fen: &rec.start_fen,
        pieces: game.pieces().iter().map(PieceJson::from).collect(),
        legal_moves: if playing {
            game.legal_moves().iter().map(MoveJson::from).collect()
        } else {
            Vec::new()
        },
        must_capture: if playing { game.must_capture() } else { Vec::new() },
        moves: &live.moves,
        imported: rec.imported,
        last_move: live.last.as_ref().map(MoveJson::from),
        outcome,
        pieces_left: Pair { white: white_left, black: black_left },
        warning: Pair { white: game.warning(Color::White), black: game.warning(Color::Black) },
        seats: Pair {
            white: seat_json(live, Side::White, &rec.white),
            black: seat_json(live, Side::Black, &rec.black),
        },
        draw_offer: live.rec.draw_offer.map(|s| color(s).name()),
        rematch_offer: live.rec.rematch_offer.map(|s| color(s).name()),
        rematch: rec.rematch.as_deref(),
        rematch_of: rec.rematch_of.as_deref(),
        can_abort: !rec.status.is_over() && !rec.both_moved(),
        claim_after_ms: u64::try_from(config.claim_after.as_millis()).unwrap_or(u64::MAX),
        thinking: live.thinking,
        hints: live.rec.hints,
        created_at: rec.created_at,
        updated_at: rec.updated_at,
    };
    serde_json::to_string(&state).unwrap_or_else(|e| {
        tracing::error!(error = %e, "state not serialisable");
        String::from("{\"type\":\"error\",\"message\":\"state not available\"}")
    })
}

/// A line of a player's game list.
#[derive(Debug, Serialize)]
pub struct SummaryJson<'a> {
    pub id: &'a str,
    pub url: String,
    pub rules: &'a str,
    pub mode: &'static str,
    pub level: Option<&'static str>,
    /// The player's side: `white`, `black` or `both` (hot-seat).
    pub you: &'static str,
    pub status: &'static str,
    pub turn: &'static str,
    pub plies: i64,
    pub winner: Option<&'static str>,
    pub reason: Option<&'a str>,
    pub result_text: Option<&'a str>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// The line of `rec` in `player`'s list.
pub fn summary<'a>(rec: &'a GameRecord, player: &str) -> SummaryJson<'a> {
    let mine = |s: &Seat| s.player.as_deref() == Some(player);
    let you = match (mine(&rec.white), mine(&rec.black)) {
        (true, true) => "both",
        (true, false) => "white",
        _ => "black",
    };
    SummaryJson {
        id: &rec.id,
        url: format!("/g/{}", rec.id),
        rules: &rec.rules,
        mode: rec.mode.as_str(),
        level: rec.level.map(|l| l.as_str()),
        you,
        status: rec.status.as_str(),
        turn: color(rec.to_move).name(),
        plies: rec.plies,
        winner: rec.winner.map(|w| w.as_str()),
        reason: rec.reason.as_deref(),
        result_text: rec.result_text.as_deref(),
        created_at: rec.created_at,
        updated_at: rec.updated_at,
    }
}

/// A position alone (the analysis board's): the board, the side to move, every legal move
/// with the position after it, the pieces that must capture, and the end if it is over.
pub fn position_json(game: &doska_rules::AnyGame) -> serde_json::Value {
    let over = game.outcome();
    let moves: Vec<serde_json::Value> = if over.is_some() {
        Vec::new()
    } else {
        game.legal_moves()
            .iter()
            .map(|m| {
                let mut v = serde_json::to_value(MoveJson::from(m)).unwrap_or_default();
                v["fen"] = serde_json::Value::String(m.fen.clone());
                v
            })
            .collect()
    };
    let (white_left, black_left) = game.pieces_left();
    serde_json::json!({
        "rules": game.rules().to_string(),
        "fen": game.fen(),
        "turn": game.turn().name(),
        "move_number": game.move_number(),
        "pieces": game.pieces().iter().map(PieceJson::from).collect::<Vec<_>>(),
        "legal_moves": moves,
        "must_capture": if over.is_some() { Vec::new() } else { game.must_capture() },
        "pieces_left": {"white": white_left, "black": black_left},
        "outcome": over.map(|o| serde_json::json!({
            "winner": match o.winner {
                doska_rules::game::Winner::White => "white",
                doska_rules::game::Winner::Black => "black",
                doska_rules::game::Winner::Draw => "draw",
            },
            "reason": o.reason,
            "text": o.text,
        })),
    })
}
