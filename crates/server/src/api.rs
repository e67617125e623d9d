//! The JSON API under `/api`: create and join games, read a game, list mine, hide one,
//! replay and export a game, stats, and the accepted rule sets.

use crate::error::ApiError;
use crate::identity::{Player, digest, secret};
use crate::metrics::Metrics;
use crate::room::{self, new_game_id, side};
use crate::{AppState, now_ms, view};
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, Extension, Path, Query, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use doska_rules::{AnyGame, Color, RuleSet, Variant};
use doska_store::{GameRecord, Level, Mode, Seat, Side, Status, stats};
use serde::Deserialize;
use serde_json::json;
use std::net::SocketAddr;

fn body<T>(b: Result<Json<T>, JsonRejection>, expected: &str) -> Result<T, ApiError> {
    b.map(|Json(v)| v)
        .map_err(|e| ApiError::Body(e.status(), format!("{}; expected {expected}", e.body_text())))
}

/// `POST /api/games`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    rules: String,
    opponent: String,
    level: Option<String>,
    color: Option<String>,
    /// A FEN or PDN to start from.
    position: Option<String>,
}

const CREATE_SHAPE: &str = "{\"rules\": \"russian\", \"opponent\": \"computer|friend|hotseat\", \
    \"level\": \"easy|medium|hard|insane\", \"color\": \"white|black|random\", \
    \"position\": \"optional FEN or PDN\"}";

pub async fn create(
    State(state): State<AppState>,
    Extension(player): Extension<Player>,
    peer: Option<Extension<ConnectInfo<crate::guard::Peer>>>,
    headers: HeaderMap,
    b: Result<Json<CreateGame>, JsonRejection>,
) -> Result<Response, ApiError> {
    let address = client_address(peer.map(|Extension(ConnectInfo(p))| p.0), &headers);
    let (by_player, by_address) = &state.0.creations;
    let too_many = |who: &str, per_minute: u32, wait: std::time::Duration| {
        ApiError::TooMany(
            format!(
                "too many new games from {who}: at most {per_minute} a minute; try again in {} s",
                wait.as_secs_f64().ceil().max(1.0)
            ),
            wait,
        )
    };
    by_player.take(&player.id).map_err(|w| too_many("you", state.config().games_per_minute, w))?;
    if let Some(a) = &address {
        by_address.take(a).map_err(|w| {
            too_many("your address", state.config().games_per_minute_per_address, w)
        })?;
    }
    let req = body(b, CREATE_SHAPE)?;
    let rules: RuleSet = req
        .rules
        .parse()
        .map_err(|e: doska_rules::RuleSetError| ApiError::BadRequest(format!("rules: {e}")))?;
    let mode: Mode = req.opponent.parse().map_err(ApiError::BadRequest)?;
    let waiting = state.0.computer.pending(&player.id);
    if mode == Mode::Computer && waiting >= state.config().computer_games_waiting {
        return Err(ApiError::TooMany(
            format!(
                "{waiting} of your games are waiting for the computer's move (at most {}): \
                 play those first",
                state.config().computer_games_waiting
            ),
            std::time::Duration::from_secs(5),
        ));
    }
    let level = match (mode, req.level.as_deref()) {
        (Mode::Computer, Some(l)) => Some(l.parse::<Level>().map_err(ApiError::BadRequest)?),
        (Mode::Computer, None) => Some(Level::Medium),
        _ => None,
    };
    let mine = match req.color.as_deref().map(|c| c.trim().to_ascii_lowercase()).as_deref() {
        None | Some("random") => {
            if rand::random::<bool>() {
                Color::White
            } else {
                Color::Black
            }
        }
        Some("white") => Color::White,
        Some("black") => Color::Black,
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "unknown color {other:?}: expected white, black or random"
            )));
        }
    };
    let game = match req.position.as_deref().map(str::trim) {
        Some(text) if !text.is_empty() => AnyGame::import(text, rules)
            .map_err(|e| ApiError::BadRequest(format!("position: {e}")))?,
        _ => AnyGame::new(rules),
    };
    let moves: Vec<String> = game.history().into_iter().map(|m| m.notation).collect();
    // A whole game brought in to look at (and have the engine review) is stored as it ended,
    // on one device; any other game must have moves left to play.
    let ended = match game.outcome() {
        Some(o) if mode == Mode::Hotseat && !moves.is_empty() => Some(o),
        Some(o) => {
            return Err(ApiError::BadRequest(format!(
                "position: the game is already over ({}); start from a position with moves to \
                 play, or bring a whole game in on one device to replay and review it",
                o.text
            )));
        }
        None => None,
    };
    let token = secret();
    let me = Seat { player: Some(player.id.clone()), token_hash: Some(digest(&token)) };
    let (white, black) = match (mode, mine) {
        (Mode::Hotseat, _) => (me.clone(), me),
        (_, Color::White) => (me, Seat::default()),
        (_, Color::Black) => (Seat::default(), me),
    };
    let invite = (mode == Mode::Friend).then(secret);
    let now = now_ms();
    let rec = GameRecord {
        id: new_game_id(),
        rules: game.rules().to_string(),
        mode,
        level,
        computer_side: (mode == Mode::Computer).then(|| side(mine.opposite())),
        creator: player.id.clone(),
        creator_side: side(mine),
        start_fen: game.start_fen(),
        white,
        black,
        invite_hash: invite.as_deref().map(digest),
        seed: state.config().seed.map_or_else(rand::random::<i64>, |s| s as i64),
        status: match (&ended, mode) {
            (Some(_), _) => Status::Finished,
            (None, Mode::Friend) => Status::Waiting,
            (None, _) => Status::Playing,
        },
        winner: ended.as_ref().map(|o| match o.winner {
            doska_rules::game::Winner::White => doska_store::Winner::White,
            doska_rules::game::Winner::Black => doska_store::Winner::Black,
            doska_rules::game::Winner::Draw => doska_store::Winner::Draw,
        }),
        reason: ended.as_ref().map(|o| o.reason.to_string()),
        result_text: ended.as_ref().map(|o| o.text.clone()),
        plies: moves.len() as i64,
        imported: moves.len() as i64,
        to_move: side(game.turn()),
        rematch_of: None,
        rematch: None,
        created_at: now,
        updated_at: now,
        finished_at: ended.as_ref().map(|_| now),
        draw_offer: None,
        rematch_offer: None,
        hints: 0,
    };
    state.store().touch_player(&player.id, now).await?;
    state.store().create_game(&rec, &moves).await?;
    Metrics::add(&state.0.metrics.games_created, 1);
    tracing::info!(game = %rec.id, rules = %rec.rules, mode = %mode, "game created");
    if mode == Mode::Computer {
        // Loading the room starts the computer if it moves first.
        state.0.rooms.get(&state, &rec.id).await?;
    }
    let you = if mode == Mode::Hotseat { "both" } else { mine.name() };
    let url = format!("/g/{}", rec.id);
    let invite_url = invite.as_ref().map(|i| format!("{url}?invite={i}"));
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "id": rec.id,
            "url": url,
            "token": token,
            "you": you,
            "invite": invite,
            "invite_url": invite_url,
        })),
    )
        .into_response())
}

/// The address a request comes from: the connection's peer, or, when that peer is this
/// machine or a private network (a reverse proxy in front), the last address the proxy added to
/// `X-Forwarded-For`.
fn client_address(peer: Option<SocketAddr>, headers: &HeaderMap) -> Option<String> {
    let peer = peer?.ip();
    let local = match peer {
        std::net::IpAddr::V4(v4) => v4.is_loopback() || v4.is_private(),
        std::net::IpAddr::V6(v6) => v6.is_loopback() || v6.is_unique_local(),
    };
    let forwarded = headers
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .map(str::trim)
        .filter(|v| v.parse::<std::net::IpAddr>().is_ok());
    Some(match forwarded {
        Some(f) if local => f.to_string(),
        _ => peer.to_string(),
    })
}

/// `?seat=TOKEN` on a game's URLs.
#[derive(Debug, Deserialize)]
pub struct SeatQuery {
    pub seat: Option<String>,
}

/// `GET /api/games/{id}`.
pub async fn state(
    State(state): State<AppState>,
    Extension(player): Extension<Player>,
    Path(id): Path<String>,
    Query(q): Query<SeatQuery>,
) -> Result<Response, ApiError> {
    let room = state.0.rooms.get(&state, &id).await?;
    let live = room.lock().await;
    let access = room::access(&live.rec, &player.id, q.seat.as_deref())?;
    let text = view::state_json(&live, state.config(), Some(access.name()));
    Ok(([(CONTENT_TYPE, "application/json")], text).into_response())
}

/// `GET /api/games/{id}/review`: the engine's review, as far as it has got.
pub async fn review(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let text = crate::review::get(&state, &id).await?;
    Ok(([(CONTENT_TYPE, "application/json")], text).into_response())
}

/// `POST /api/games/{id}/review`: starts the engine's review of a game that is over.
pub async fn start_review(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let text = crate::review::start(&state, &id).await?;
    Ok(([(CONTENT_TYPE, "application/json")], text).into_response())
}

/// `POST /api/games/{id}/join`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Join {
    invite: String,
}

pub async fn join(
    State(state): State<AppState>,
    Extension(player): Extension<Player>,
    Path(id): Path<String>,
    b: Result<Json<Join>, JsonRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let req = body(b, "{\"invite\": \"the secret from the invitation link\"}")?;
    let room = state.0.rooms.get(&state, &id).await?;
    let (c, token) = room.take_seat(&state, &player.id, &req.invite).await?;
    Ok(Json(json!({ "id": id, "you": c.name(), "token": token })))
}

/// `GET /api/games`: the player's unfinished and finished games, newest first.
pub async fn list(
    State(state): State<AppState>,
    Extension(player): Extension<Player>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let open = state.store().player_games(&player.id, false, 100).await?;
    let done = state.store().player_games(&player.id, true, 100).await?;
    Ok(Json(json!({
        "unfinished": open.iter().map(|g| view::summary(g, &player.id)).collect::<Vec<_>>(),
        "finished": done.iter().map(|g| view::summary(g, &player.id)).collect::<Vec<_>>(),
    })))
}

/// `DELETE /api/games/{id}`: removes the game from the player's lists (the game stays).
pub async fn hide(
    State(state): State<AppState>,
    Extension(player): Extension<Player>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    if state.store().game(&id).await?.is_none() {
        return Err(ApiError::NoGame(id));
    }
    state.store().hide(&player.id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn stored(state: &AppState, id: &str) -> Result<(GameRecord, AnyGame), ApiError> {
    let Some((rec, moves)) = state.store().game(id).await? else {
        return Err(ApiError::NoGame(id.to_string()));
    };
    let (game, _) = room::replay(&rec, &moves)?;
    Ok((rec, game))
}

/// `GET /api/games/{id}/replay`: the start and the position after every move.
pub async fn replay(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let (rec, game) = stored(&state, &id).await?;
    let mut at = AnyGame::from_fen(game.rules(), &rec.start_fen)
        .map_err(|e| ApiError::Corrupt(id.clone(), e.to_string()))?;
    let pieces = |g: &AnyGame| g.pieces().iter().map(view::PieceJson::from).collect::<Vec<_>>();
    let start = json!({ "fen": at.fen(), "turn": at.turn().name(), "pieces": pieces(&at) });
    let mut plies = Vec::new();
    for (i, m) in game.history().iter().enumerate() {
        at.play(&m.notation).map_err(|e| ApiError::Corrupt(id.clone(), e.to_string()))?;
        plies.push(json!({
            "ply": i,
            "notation": m.notation,
            "path": m.path,
            "captures": m.captures,
            "fen": at.fen(),
            "turn": at.turn().name(),
            "pieces": pieces(&at),
        }));
    }
    Ok(Json(json!({
        "id": rec.id,
        "rules": rec.rules,
        "status": rec.status.as_str(),
        "winner": rec.winner.map(|w| w.as_str()),
        "reason": rec.reason,
        "result_text": rec.result_text,
        "start": start,
        "plies": plies,
    })))
}

/// `GET /api/games/{id}/pdn`: the game as PDN (Ugolki: the same tags-and-moves text).
pub async fn export(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (rec, game) = stored(&state, &id).await?;
    let who = |s: Side| match (rec.computer_side, rec.level) {
        (Some(c), Some(l)) if c == s => format!("Computer ({l})"),
        _ if rec.mode == Mode::Hotseat => "Player".to_string(),
        _ if rec.seat(s).player.is_some() => "Player".to_string(),
        _ => "?".to_string(),
    };
    let (white, black) = (who(Side::White), who(Side::Black));
    let date = pdn_date(rec.created_at);
    let event = format!("doska {} game", rec.mode);
    let site = format!("doska /g/{}", rec.id);
    let tags = [
        ("Event", event.as_str()),
        ("Site", site.as_str()),
        ("Date", date.as_str()),
        ("White", white.as_str()),
        ("Black", black.as_str()),
    ];
    // A reviewed game carries the review: each move's mark and its evaluation afterwards.
    let notes: Vec<doska_rules::pdn::Note> = match state.store().review(&rec.id).await? {
        Some(body) => serde_json::from_str::<serde_json::Value>(&body)
            .ok()
            .and_then(|v| v["moves"].as_array().cloned())
            .unwrap_or_default()
            .iter()
            .map(|m| doska_rules::pdn::Note {
                suffix: m["nag"].as_str().unwrap_or("").to_string(),
                comment: m["after"].as_f64().map(|e| format!("[%eval {e:.2}]")).unwrap_or_default(),
            })
            .collect(),
        None => Vec::new(),
    };
    let text = game.export_notes(&tags, &notes);
    Ok((
        [
            (CONTENT_TYPE, "application/x-pdn; charset=utf-8".to_string()),
            (CONTENT_DISPOSITION, format!("attachment; filename=\"doska-{}.pdn\"", rec.id)),
        ],
        text,
    )
        .into_response())
}

/// `YYYY.MM.DD` of a time in ms since the epoch (UTC).
fn pdn_date(ms: i64) -> String {
    // Howard Hinnant's days-to-civil.
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// `GET /api/stats`: the player's stats per rule set and bucket, and the site's per rule set.
pub async fn stats(
    State(state): State<AppState>,
    Extension(player): Extension<Player>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let mine = stats::player_buckets(&state.store().player_results(&player.id).await?);
    let site = stats::site_stats(&state.store().site_results().await?);
    Ok(Json(json!({ "mine": mine, "site": site })))
}

/// `GET /api/rules`: what `POST /api/games` accepts.
pub async fn rules() -> Json<serde_json::Value> {
    let draughts: Vec<String> = Variant::ALL.iter().map(|v| v.to_string()).collect();
    let ugolki: Vec<&str> = doska_rules::ugolki::PRESETS.iter().map(|(name, _)| *name).collect();
    Json(json!({
        "draughts": draughts,
        "ugolki": ugolki,
        "opponents": Mode::ALL.iter().map(|m| m.as_str()).collect::<Vec<_>>(),
        "levels": Level::ALL.iter().map(|l| l.as_str()).collect::<Vec<_>>(),
        "colors": ["white", "black", "random"],
    }))
}

/// `GET /healthz`: 200 when the database answers.
pub async fn health(State(state): State<AppState>) -> Response {
    match state.store().ping().await {
        Ok(()) => (StatusCode::OK, "ok\n").into_response(),
        Err(e) => ApiError::from(e).into_response(),
    }
}

/// Unknown `/api` paths.
pub async fn no_route(method: Method, uri: Uri) -> ApiError {
    ApiError::NotFound(format!("no API endpoint {method} /api{}; see docs/api.md", uri.path()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn pdn_dates() {
        assert_eq!(super::pdn_date(0), "1970.01.01");
        assert_eq!(super::pdn_date(1_709_251_200_000), "2024.03.01");
        assert_eq!(super::pdn_date(951_782_400_000), "2000.02.29");
    }
}
