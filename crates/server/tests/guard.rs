//! The usual web attacks, one test per defect: a socket opened from another site's page,
//! missing security headers, silent connections holding descriptors, frames that escaped the
//! rate limit, and the socket error metric.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Db, Server, test_config};
use doska_server::{Config, RandomMover};
use futures_util::SinkExt;
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// Sends a WebSocket handshake for game `id` with `origin` and the cookie; the status line and
/// the rest of the answer.
async fn handshake(server: &Server, cookie: &str, id: &str, origin: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let mut req = format!(
        "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nCookie: {cookie}\r\n",
        server.addr
    );
    if let Some(o) = origin {
        req.push_str(&format!("Origin: {o}\r\n"));
    }
    req.push_str("\r\n");
    stream.write_all(req.as_bytes()).await.unwrap();
    // The head, and the body of a refusal (an upgraded connection stays open: stop at its head).
    let mut raw = Vec::new();
    let mut buf = vec![0u8; 4096];
    loop {
        let wait = if raw.is_empty() { common::WAIT } else { Duration::from_millis(300) };
        match tokio::time::timeout(wait, stream.read(&mut buf)).await {
            Ok(Ok(n)) if n > 0 => raw.extend_from_slice(&buf[..n]),
            _ => break,
        }
        if raw.starts_with(b"HTTP/1.1 101") && raw.windows(4).any(|w| w == b"\r\n\r\n") {
            break;
        }
    }
    let text = String::from_utf8_lossy(&raw).to_string();
    let status = text.split(' ').nth(1).unwrap().parse().unwrap();
    (status, text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_of_another_site_cannot_open_the_socket() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut me = server.browser();
    let created = me.create(json!({"rules": "russian", "opponent": "hotseat"})).await;
    let id = created["id"].as_str().unwrap();
    let cookie = me.cookie.clone().unwrap();
    // Another port of the same host is another origin: refused, saying why.
    let (status, text) = handshake(&server, &cookie, id, Some("http://127.0.0.1:9")).await;
    assert_eq!(status, 403, "{text}");
    assert!(text.contains("opens only from the site's own pages"), "{text}");
    assert!(text.contains("--allowed-origin"), "{text}");
    // The site's own page, and a client that is not a browser, open it.
    let own = format!("http://{}", server.addr);
    assert_eq!(handshake(&server, &cookie, id, Some(&own)).await.0, 101);
    assert_eq!(handshake(&server, &cookie, id, None).await.0, 101);
    server.stop().await;

    // An origin the operator allowed (a proxy setup).
    let config = Config { allowed_origins: vec!["https://play.example".into()], ..test_config() };
    let server = Server::start_with(&db.url(), Arc::new(RandomMover), config).await;
    let mut me = me.at(&server);
    me.get("/api/stats").await;
    let cookie = me.cookie.clone().unwrap();
    assert_eq!(handshake(&server, &cookie, id, Some("https://play.example")).await.0, 101);
    assert_eq!(handshake(&server, &cookie, id, Some("https://evil.example")).await.0, 403);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_response_carries_the_security_headers() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut me = server.browser();
    for path in
        ["/", "/js/app.js", "/api/stats", "/api/games/nope", "/rulebook", "/metrics", "/nope"]
    {
        let r = me.get(path).await;
        let csp = r.header("content-security-policy").unwrap_or_else(|| panic!("no CSP on {path}"));
        assert!(
            csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"),
            "{csp}"
        );
        assert_eq!(r.header("x-content-type-options"), Some("nosniff"), "{path}");
        assert_eq!(r.header("referrer-policy"), Some("same-origin"), "{path}");
        assert_eq!(r.header("x-frame-options"), Some("DENY"), "{path}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_connections_are_closed_and_a_dead_player_shown_away() {
    let db = Db::new();
    let config = Config {
        header_timeout: Duration::from_millis(300),
        idle_timeout: Duration::from_secs(5),
        ping_every: Duration::from_millis(200),
        dead_after: Duration::from_millis(700),
        ..test_config()
    };
    let server = Server::start_with(&db.url(), Arc::new(RandomMover), config).await;
    // A connection that never sends its request line is closed.
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    let started = Instant::now();
    let mut buf = [0u8; 64];
    let n = tokio::time::timeout(common::WAIT, silent.read(&mut buf)).await.unwrap().unwrap_or(0);
    assert_eq!(n, 0, "the silent connection got an answer");
    assert!(started.elapsed() < Duration::from_secs(5), "closed after {:?}", started.elapsed());

    // A friend's socket that stops answering pings (its reader never runs) is closed, and the
    // other player sees that seat away.
    let (mut alice, mut bob) = (server.browser(), server.browser());
    let created =
        alice.create(json!({"rules": "russian", "opponent": "friend", "color": "white"})).await;
    let id = created["id"].as_str().unwrap().to_string();
    bob.post(&format!("/api/games/{id}/join"), &json!({"invite": created["invite"]})).await;
    let mut a = alice.socket(&id, None).await;
    let b = bob.socket(&id, None).await;
    a.state_where(|s| s["seats"]["black"]["connected"] == true).await;
    // Alice keeps reading (her client answers the pings); Bob's does not.
    let away = a.state_where(|s| s["seats"]["black"]["connected"] == false).await;
    assert!(away["seats"]["black"]["away_since"].is_i64());
    assert_eq!(away["seats"]["white"]["connected"], true);
    drop(b);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn binary_frames_and_pings_count_against_the_limit() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut me = server.browser();
    let created = me.create(json!({"rules": "russian", "opponent": "hotseat"})).await;
    let id = created["id"].as_str().unwrap().to_string();
    for frame in [Message::Binary(vec![0u8; 300].into()), Message::Ping(vec![1u8; 100].into())] {
        let mut s = me.socket(&id, None).await;
        let mut sent = 0;
        for _ in 0..3000 {
            if s.ws.send(frame.clone()).await.is_err() {
                break;
            }
            sent += 1;
        }
        // The server gave up on the socket long before 3,000 frames were read.
        while s.next().await.is_some() {}
        assert!(sent > 0);
    }
    let metrics = me.get("/metrics").await.body;
    assert!(metrics.contains("doska_sockets_closed_for_abuse_total 2"), "{metrics}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn socket_errors_are_counted() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut me = server.browser();
    let created = me.create(json!({"rules": "russian", "opponent": "hotseat"})).await;
    let mut s = me.socket(created["id"].as_str().unwrap(), None).await;
    for raw in ["not json", "{\"type\": \"teleport\"}", "{\"type\": \"move\", \"text\": \"c3-e5\"}"]
    {
        s.send_raw(raw).await;
        s.error().await;
    }
    s.ws.send(Message::Binary(vec![1, 2, 3].into())).await.unwrap();
    s.error().await;
    s.send(json!({"type": "ping"})).await;
    assert_eq!(s.next().await.unwrap()["type"], "pong");
    let metrics = me.get("/metrics").await.body;
    assert!(metrics.contains("doska_socket_errors_total 4"), "{metrics}");
    server.stop().await;
}
