//! Errors a request or a socket message can meet, each with a message saying what was wrong
//! and what is accepted. REST answers `{"error": "..."}` with a status; a socket gets
//! `{"type": "error", "message": "..."}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use doska_store::StoreError;

/// Why a request was refused.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed or names something unknown.
    #[error("{0}")]
    BadRequest(String),
    /// A request body that could not be read (malformed, too large, wrong content type).
    #[error("{1}")]
    Body(StatusCode, String),
    /// No such game.
    #[error("no game with id {0:?}")]
    NoGame(String),
    /// No such endpoint.
    #[error("{0}")]
    NotFound(String),
    /// Not allowed to whoever asked (a spectator moving, a forged seat, a bad invitation).
    #[error("{0}")]
    Forbidden(String),
    /// Not now: not your turn, the seat is taken, the game is over, the game changed.
    #[error("{0}")]
    Conflict(String),
    /// A move the rules refuse, with their reason.
    #[error("{0}")]
    Illegal(String),
    /// Too much asked too fast: refused, and when to try again.
    #[error("{0}")]
    TooMany(String, std::time::Duration),
    /// The database failed.
    #[error("the game could not be saved or read ({0}); try again")]
    Store(#[from] StoreError),
    /// A stored game that no longer replays (should not happen).
    #[error("the stored game {0} cannot be replayed: {1}")]
    Corrupt(String, String),
}

impl ApiError {
    fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Body(status, _) => *status,
            ApiError::NoGame(_) | ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooMany(..) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Store(StoreError::Conflict) => StatusCode::CONFLICT,
            ApiError::Store(_) | ApiError::Corrupt(..) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() {
            tracing::error!(error = %self, "request failed");
        }
        let retry = match &self {
            ApiError::TooMany(_, wait) => Some(wait.as_secs_f64().ceil().max(1.0) as u64),
            _ => None,
        };
        let mut res =
            (status, Json(serde_json::json!({ "error": self.to_string() }))).into_response();
        if let Some(secs) = retry {
            res.headers_mut().insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        res
    }
}
