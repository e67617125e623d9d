//! Bad input and abuse: each gets a clear error or is dropped, and the game stays intact.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Db, Server};
use futures_util::SinkExt;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_say_what_is_accepted() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut b = server.browser();
    let cases = [
        ("{\"rules\": ", 400, "expected {\"rules\""),
        ("[1, 2]", 422, "expected {\"rules\""),
        (
            "{\"rules\": \"russian\", \"opponent\": \"friend\", \"colour\": \"white\"}",
            422,
            "unknown field `colour`",
        ),
        ("{\"rules\": \"chess\", \"opponent\": \"friend\"}", 400, "ugolki-brainking"),
        ("{\"rules\": \"ugolki:dirs=5\", \"opponent\": \"friend\"}", 400, "rules:"),
        (
            "{\"rules\": \"russian\", \"opponent\": \"robot\"}",
            400,
            "expected one of computer, friend, hotseat",
        ),
        (
            "{\"rules\": \"russian\", \"opponent\": \"computer\", \"level\": \"god\"}",
            400,
            "easy, medium, hard, insane",
        ),
        (
            "{\"rules\": \"russian\", \"opponent\": \"friend\", \"color\": \"red\"}",
            400,
            "white, black or random",
        ),
        (
            "{\"rules\": \"russian\", \"opponent\": \"friend\", \"position\": \"W:Wz9\"}",
            400,
            "position: bad position",
        ),
        (
            "{\"rules\": \"russian\", \"opponent\": \"friend\", \"position\": \"B:Wc3\"}",
            400,
            "already over",
        ),
    ];
    for (body, status, says) in cases {
        let r = b.request("POST", "/api/games", Some(body)).await;
        assert_eq!(r.status, status, "{body}: {}", r.body);
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(e.contains(says), "{body}: {e}");
    }
    let big = format!(
        "{{\"rules\": \"russian\", \"opponent\": \"friend\", \"position\": \"{}\"}}",
        "x".repeat(70_000)
    );
    assert_eq!(b.request("POST", "/api/games", Some(&big)).await.status, 413);
    let r = b.get("/api/games/nosuchgame").await;
    assert_eq!(
        (r.status, r.json()["error"].as_str()),
        (404, Some("no game with id \"nosuchgame\""))
    );
    assert_eq!(b.get("/api/games/..%2f..%2fetc/replay").await.status, 404);
    let r = b.get("/api/nothing").await;
    assert_eq!(r.status, 404);
    assert!(r.json()["error"].as_str().unwrap().contains("GET /api/nothing"));
    let r = b.request("DELETE", "/api/games/nosuchgame", None).await;
    assert_eq!(r.status, 404);

    // A forged or foreign cookie is replaced, never trusted.
    let mut forged = server.browser();
    forged.cookie = Some(format!("doska_player={}.{}", "0".repeat(32), "1".repeat(64)));
    let r = forged.get("/api/games").await;
    assert_eq!(r.status, 200);
    let set = r.header("set-cookie").unwrap();
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax"), "{set}");
    assert!(!set.starts_with(&format!("doska_player={}", "0".repeat(32))));

    // Operations and the UI.
    assert_eq!(b.get("/healthz").await.body, "ok\n");
    let page = b.get("/").await;
    let ui = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/index.html");
    if ui.exists() {
        assert!(
            page.status == 200 && page.header("content-type").unwrap().starts_with("text/html")
        );
        assert_eq!(b.get("/g/abc").await.status, 200, "UI routes get index.html");
    } else {
        assert_eq!((page.status, page.body.as_str()), (404, "no web UI in this build\n"));
    }
    assert_eq!(b.get("/missing.js").await.status, 404);
    let rules = b.get("/api/rules").await.json();
    assert_eq!(rules["draughts"].as_array().unwrap().len(), 14);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_socket_messages_get_errors_and_the_game_stays_intact() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut me = server.browser();
    let created = me.create(json!({"rules": "russian", "opponent": "hotseat"})).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut s = me.socket(&id, None).await;
    let cases = [
        ("{\"type\": \"move\", \"text\": ", "bad message: EOF"),
        ("not json", "bad message: expected ident"),
        ("{\"type\": \"resign\", \"now\": true}", "unknown field `now`"),
        ("{\"type\": \"teleport\"}", "unknown variant `teleport`"),
        ("{\"text\": \"c3-d4\"}", "missing field `type`"),
        (
            "{\"type\": \"move\", \"text\": \"c3-d4\", \"path\": [\"c3\", \"d4\"]}",
            "not both or neither",
        ),
        ("{\"type\": \"move\"}", "not both or neither"),
        ("{\"type\": \"move\", \"text\": \"c3-c4\"}", "c4 is not a playing square"),
        ("{\"type\": \"move\", \"text\": \"c3-e5\"}", "not a legal move"),
        ("{\"type\": \"move\", \"path\": [\"c3\"]}", "at least a start and an end"),
        ("{\"type\": \"move\", \"text\": \"f6-g5\"}", "and it is white's turn"),
    ];
    for (raw, says) in cases {
        s.send_raw(raw).await;
        let e = s.error().await;
        assert!(e.contains(says), "{raw}: {e}");
    }
    s.ws.send(tokio_tungstenite::tungstenite::Message::Binary(vec![1, 2, 3].into())).await.unwrap();
    assert!(s.error().await.starts_with("binary messages are not accepted"));
    s.send(json!({"type": "ping"})).await;
    assert_eq!(s.next().await.unwrap()["type"], "pong");

    // An oversized message closes the socket; the game is as it was.
    s.play("c3-d4").await;
    s.send_raw(&format!("{{\"type\": \"move\", \"text\": \"{}\"}}", "a".repeat(10_000))).await;
    while s.next().await.is_some() {}
    let mut s = me.socket(&id, None).await;
    assert_eq!(s.state["moves"], json!(["c3-d4"]));
    assert_eq!(s.state["status"], "playing");

    // A forged seat token is refused before the socket opens; without one, a stranger watches.
    let url = format!("ws://{}/api/games/{id}/ws?seat={}", server.addr, "ab".repeat(32));
    match tokio_tungstenite::connect_async(url.into_client_request().unwrap()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
            assert_eq!(r.status(), 403);
            let body = String::from_utf8(r.body().clone().unwrap_or_default()).unwrap();
            assert!(body.contains("opens no seat of this game"), "{body}");
        }
        other => panic!("forged seat accepted: {other:?}"),
    }
    let stranger = server.browser();
    let mut w = stranger.socket(&id, None).await;
    assert_eq!(w.you, "spectator");
    assert_eq!(w.refused(json!({"type": "move", "text": "f6-g5"})).await, "spectators cannot move");
    // The seat token alone opens the seat, from any browser.
    let mut t = stranger.socket(&id, created["token"].as_str()).await;
    assert_eq!(t.you, "both");
    t.play("f6-g5").await;
    s.state_where(|st| st["plies"] == 2).await;

    // A socket closed right after sending a move: the move is committed all the same.
    let mut quick = me.socket(&id, None).await;
    quick.send(json!({"type": "move", "text": "g3-h4"})).await;
    drop(quick);
    s.state_where(|st| st["plies"] == 3).await;
    server.stop().await;
    let again = Server::start(&db).await;
    let s = me.at(&again).socket(&id, None).await;
    assert_eq!(s.state["moves"], json!(["c3-d4", "f6-g5", "g3-h4"]));
    again.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_is_refused_then_closed() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut me = server.browser();
    let created = me.create(json!({"rules": "russian", "opponent": "hotseat"})).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut s = me.socket(&id, None).await;
    // One message after another, each answered (a pong, or an error once the bucket is
    // empty), until the server closes the socket.
    let (mut pongs, mut slow) = (0, 0);
    for _ in 0..200 {
        if s.ws.send(Message::Text("{\"type\":\"ping\"}".into())).await.is_err() {
            break;
        }
        let mut reply = s.next().await;
        while reply.as_ref().is_some_and(|m| m["type"] == "state") {
            reply = s.next().await;
        }
        match reply {
            None => break,
            Some(m) if m["type"] == "pong" => pongs += 1,
            Some(m) if m["message"].as_str().unwrap_or("").starts_with("too many messages") => {
                slow += 1
            }
            Some(m) => panic!("unexpected {m}"),
        }
    }
    while s.next().await.is_some() {}
    assert!((20..=30).contains(&pongs), "{pongs} answered");
    assert!(slow >= 10, "{slow} refused");
    let metrics = me.get("/metrics").await.body;
    assert!(metrics.contains("doska_sockets_closed_for_abuse_total 1"), "{metrics}");
    // The game is untouched and the player can come back.
    let s = me.socket(&id, None).await;
    assert_eq!(s.state["plies"], 0);
    let metrics = me.get("/metrics").await.body;
    for name in [
        "doska_games_open 1",
        "doska_sockets_open 1",
        "doska_engine_queue 0",
        "doska_moves_total 0",
    ] {
        assert!(metrics.contains(name), "{name} in {metrics}");
    }
    server.stop().await;
}
