//! The web UI's files, embedded from `web/` at build time (read from disk in debug builds).
//! Paths without a file extension that name no file get `index.html`: the UI routes itself
//! (`/g/{id}` opens a game).

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../../web/"]
// A checkout without the UI still builds; it then answers 404 with a note.
#[allow_missing = true]
struct Web;

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        Some("webmanifest") => "application/manifest+json",
        Some("txt" | "md") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    let (path, file) = match Web::get(path) {
        Some(f) => (path, f),
        None if path == "index.html" || !path.rsplit('/').next().unwrap_or("").contains('.') => {
            match Web::get("index.html") {
                Some(f) => ("index.html", f),
                None => {
                    return (StatusCode::NOT_FOUND, "no web UI in this build\n").into_response();
                }
            }
        }
        None => return (StatusCode::NOT_FOUND, "not found\n").into_response(),
    };
    ([(CONTENT_TYPE, content_type(path)), (CACHE_CONTROL, "no-cache")], file.data.into_owned())
        .into_response()
}
