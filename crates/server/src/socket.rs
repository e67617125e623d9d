//! A game's WebSocket: `GET /api/games/{id}/ws[?seat=TOKEN]`. The server sends `hello` (who
//! you are), then the state after every change; the client sends moves and the other actions.
//! Each socket is limited: messages of at most `max_message` bytes, a token bucket of
//! `messages_per_second` with bursts of `message_burst` that every frame counts against (text,
//! binary, ping, pong), and it is closed after `strikes` frames refused for speed. It opens only
//! from the site's own pages (`guard::origin_allowed`). The server pings it every `ping_every`;
//! one that has sent nothing for `dead_after` is closed, and its player shown as away.

use crate::AppState;
use crate::api::SeatQuery;
use crate::error::ApiError;
use crate::identity::Player;
use crate::metrics::Metrics;
use crate::room::{self, Access, Action, MoveInput, Room};
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Extension, Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::broadcast::error::RecvError;

/// A message from the client.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
enum ClientMessage {
    /// `{"type":"move","text":"c3-d4"}` or `{"type":"move","path":["c3","e5","g3"]}`.
    Move {
        #[serde(default)]
        text: Option<String>,
        #[serde(default)]
        path: Option<Vec<String>>,
    },
    // Empty struct variants, not unit variants: serde checks unknown fields only on these.
    Resign {},
    DrawOffer {},
    DrawAccept {},
    DrawDecline {},
    Takeback {},
    Rematch {},
    Abort {},
    ClaimWin {},
    Hint {},
    Ping {},
}

const EXPECTED: &str = "expected {\"type\": \"move\", \"text\": \"c3-d4\"} or {\"type\": \"move\", \
    \"path\": [\"c3\", \"d4\"]}, or {\"type\": T} with T one of resign, draw-offer, draw-accept, \
    draw-decline, takeback, rematch, abort, claim-win, hint, ping";

pub async fn upgrade(
    State(state): State<AppState>,
    Extension(player): Extension<Player>,
    Path(id): Path<String>,
    Query(q): Query<SeatQuery>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    crate::guard::origin_allowed(&headers, &state.config().allowed_origins)
        .map_err(ApiError::Forbidden)?;
    let room = state.0.rooms.get(&state, &id).await?;
    let access = {
        let live = room.lock().await;
        room::access(&live.rec, &player.id, q.seat.as_deref())?
    };
    let max = state.config().max_message;
    // Small buffers: tungstenite's defaults (128 KiB each way) would cost a quarter of a
    // megabyte per socket; messages here are a few KiB.
    Ok(ws
        .max_message_size(max)
        .max_frame_size(max)
        .read_buffer_size(4096)
        .write_buffer_size(0)
        .max_write_buffer_size(1 << 20)
        .on_upgrade(move |socket| run(socket, state, room, access)))
}

/// Counts a socket while alive.
struct Open(AppState);

impl Drop for Open {
    fn drop(&mut self) {
        Metrics::add(&self.0.0.metrics.sockets, -1);
    }
}

/// An answer to the sender: a message, or an error (counted in `doska_socket_errors_total`).
enum Reply {
    Json(serde_json::Value),
    Error(String),
}

/// Sends a close frame (the socket may already be gone).
async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let frame = CloseFrame { code, reason: Utf8Bytes::from_static(reason) };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

fn text(value: serde_json::Value) -> Message {
    Message::Text(Utf8Bytes::from(value.to_string()))
}

fn error(message: impl std::fmt::Display) -> Reply {
    Reply::Error(message.to_string())
}

impl Reply {
    fn message(self) -> Message {
        match self {
            Reply::Json(v) => text(v),
            Reply::Error(m) => text(json!({ "type": "error", "message": m })),
        }
    }
}

async fn run(mut socket: WebSocket, state: AppState, room: Arc<Room>, access: Access) {
    Metrics::add(&state.0.metrics.sockets, 1);
    let _open = Open(state.clone());
    // Subscribe before the first state is sent, so no change falls in between.
    let mut changes = room.subscribe();
    room.join(&state, access).await;
    let first = {
        let live = room.lock().await;
        crate::view::state_json(&live, state.config(), None)
    };
    let hello = json!({ "type": "hello", "game": room.id, "you": access.name() });
    if socket.send(text(hello)).await.is_err()
        || socket.send(Message::Text(Utf8Bytes::from(first))).await.is_err()
    {
        room.leave(&state, access).await;
        return;
    }
    let config = state.config().clone();
    let mut bucket = crate::limit::Bucket::new(
        f64::from(config.messages_per_second),
        f64::from(config.message_burst),
    );
    let mut strikes = 0;
    let mut shutdown = state.0.shutdown.subscribe();
    let mut heard = Instant::now();
    let mut ping = tokio::time::interval_at(
        tokio::time::Instant::now() + config.ping_every,
        config.ping_every,
    );
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let msg = match incoming {
                    Some(Ok(m)) => m,
                    // Closed, or a protocol error such as a message over the size limit.
                    Some(Err(e)) => {
                        tracing::debug!(game = %room.id, error = %e, "socket error");
                        break;
                    }
                    None => break,
                };
                heard = Instant::now();
                if let Message::Close(_) = msg {
                    break;
                }
                // Every frame counts against the limit, whatever its kind.
                let reply = if !bucket.take() {
                    strikes += 1;
                    if strikes >= config.strikes {
                        Metrics::add(&state.0.metrics.sockets_closed_for_abuse, 1);
                        let _ = socket.send(error("too many messages: closing").message()).await;
                        close(&mut socket, close_code::POLICY, "too many messages").await;
                        break;
                    }
                    Some(error(format!(
                        "too many messages: at most {} a second; this one was ignored",
                        config.messages_per_second
                    )))
                } else {
                    match msg {
                        Message::Text(t) => handle(&state, &room, access, t.as_str()).await,
                        Message::Binary(_) => Some(error(format!("binary messages are not accepted; {EXPECTED}"))),
                        // tungstenite answers pings itself; a pong says the peer is alive.
                        Message::Ping(_) | Message::Pong(_) | Message::Close(_) => None,
                    }
                };
                if let Some(reply) = reply {
                    if let Reply::Error(_) = reply {
                        Metrics::add(&state.0.metrics.socket_errors, 1);
                    }
                    if socket.send(reply.message()).await.is_err() {
                        break;
                    }
                }
            }
            _ = ping.tick() => {
                if heard.elapsed() >= config.dead_after {
                    tracing::debug!(game = %room.id, "socket silent: closing");
                    close(&mut socket, close_code::AWAY, "no answer to pings").await;
                    break;
                }
                if socket.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
            change = changes.recv() => {
                let msg = match change {
                    Ok(json) => Message::Text(Utf8Bytes::from(json.as_ref())),
                    // A slow socket missed states: send the current one.
                    Err(RecvError::Lagged(_)) => {
                        let live = room.lock().await;
                        Message::Text(Utf8Bytes::from(crate::view::state_json(&live, state.config(), None)))
                    }
                    Err(RecvError::Closed) => break,
                };
                if socket.send(msg).await.is_err() {
                    break;
                }
            }
            _ = shutdown.changed() => {
                close(&mut socket, close_code::AWAY, "the server is restarting").await;
                break;
            }
        }
    }
    room.leave(&state, access).await;
}

/// Does what one client message asks; the answer to the sender, if any (errors and pongs:
/// changes reach everyone as states).
async fn handle(state: &AppState, room: &Arc<Room>, access: Access, raw: &str) -> Option<Reply> {
    let msg: ClientMessage = match serde_json::from_str(raw) {
        Ok(m) => m,
        Err(e) => return Some(error(format!("bad message: {e}; {EXPECTED}"))),
    };
    let action = match msg {
        ClientMessage::Ping {} => return Some(Reply::Json(json!({ "type": "pong" }))),
        ClientMessage::Hint {} => {
            return Some(match room.hint(state, access).await {
                Ok(hint) => Reply::Json(hint),
                Err(e) => error(e),
            });
        }
        ClientMessage::Move { text: Some(t), path: None } => Action::Move(MoveInput::Text(t)),
        ClientMessage::Move { text: None, path: Some(p) } => Action::Move(MoveInput::Path(p)),
        ClientMessage::Move { .. } => {
            return Some(error("a move needs either \"text\" or \"path\", not both or neither"));
        }
        ClientMessage::Resign {} => Action::Resign,
        ClientMessage::DrawOffer {} => Action::DrawOffer,
        ClientMessage::DrawAccept {} => Action::DrawAccept,
        ClientMessage::DrawDecline {} => Action::DrawDecline,
        ClientMessage::Takeback {} => Action::Takeback,
        ClientMessage::Rematch {} => Action::Rematch,
        ClientMessage::Abort {} => Action::Abort,
        ClientMessage::ClaimWin {} => Action::ClaimWin,
    };
    match room.act(state, access, action).await {
        Ok(()) => None,
        Err(e) => Some(error(e)),
    }
}
