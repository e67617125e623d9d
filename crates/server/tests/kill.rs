//! SIGKILL in the middle of a stream of moves: a server (a child process on a SQLite file) is
//! killed five times while twenty games are being played on it as fast as their sockets may
//! send; after each kill a new server on the same file must hold every move any player saw
//! acknowledged, in order. Moves are committed in groups (crates/store/src/batch.rs), and a
//! move is acknowledged only after its group's commit: this is the test of that promise.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Browser, Db, Server, serve_as_child, spawn_child, test_config};
use serde_json::{Value, json};
use std::time::Duration;

/// Not a test on its own: the server the test below kills (see `common::serve_as_child`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn child_server() {
    serve_as_child("DOSKA_TEST_KILL_CHILD", test_config()).await;
}

fn spawn(url: &str) -> (std::process::Child, std::net::SocketAddr) {
    spawn_child("child_server", "DOSKA_TEST_KILL_CHILD", url)
}

/// Plays the game on `id` from its current state until the socket dies or the game ends;
/// answers the moves acknowledged to it (the states showing them).
async fn play(browser: Browser, id: String, seed: usize) -> Vec<String> {
    let mut socket = browser.socket(&id, None).await;
    let mut acked = Vec::new();
    let mut k = seed;
    loop {
        let s = socket.state.clone();
        if s["status"] != "playing" {
            return acked;
        }
        let legal = s["legal_moves"].as_array().unwrap();
        k = k.wrapping_mul(31).wrapping_add(7);
        let m = &legal[k % legal.len()];
        let plies = s["plies"].as_u64().unwrap();
        if !socket.try_send(json!({"type": "move", "path": m["path"]})).await {
            return acked;
        }
        loop {
            match socket.next().await {
                None => return acked,
                Some(v) if v["type"] == "state" && v["plies"].as_u64() == Some(plies + 1) => {
                    acked.push(v["moves"][plies as usize].as_str().unwrap().to_string());
                    break;
                }
                Some(v) if v["type"] == "error" => panic!("move refused: {v}"),
                Some(_) => {}
            }
        }
        // Under the socket's rate limit (10 messages a second).
        tokio::time::sleep(Duration::from_millis(110)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_moves_survive_sigkill_under_load() {
    if std::env::var("DOSKA_TEST_KILL_CHILD").is_ok() {
        return;
    }
    let db = Db::new();
    let url = db.url();
    let mut player: Option<Browser> = None;
    let mut games: Vec<(String, Vec<String>)> = Vec::new();
    for round in 0..5 {
        let (mut child, addr) = spawn(&url);
        let mut me = Browser { addr, cookie: player.as_ref().and_then(|p| p.cookie.clone()) };
        if round == 0 {
            for _ in 0..20 {
                let g = me.create(json!({"rules": "russian", "opponent": "hotseat"})).await;
                games.push((g["id"].as_str().unwrap().to_string(), Vec::new()));
            }
            player = Some(me.clone());
        }
        // Every move acknowledged before the last kill is stored, in order; one more may be (a
        // move committed whose answer the kill cut off). What is stored is what is played on.
        for (id, acked) in &mut games {
            let state: Value = me.get(&format!("/api/games/{id}")).await.json();
            let stored: Vec<String> = serde_json::from_value(state["moves"].clone()).unwrap();
            assert!(
                stored.starts_with(acked),
                "game {id}: acknowledged {acked:?}, stored {stored:?}"
            );
            assert!(stored.len() <= acked.len() + 1, "one move at most in flight per game");
            *acked = stored;
        }
        let mut players = Vec::new();
        for (i, (id, _)) in games.iter().enumerate() {
            players.push(tokio::spawn(play(me.clone(), id.clone(), i * 7 + round)));
        }
        tokio::time::sleep(Duration::from_millis(600 + 150 * round as u64)).await;
        child.kill().unwrap();
        child.wait().unwrap();
        for ((_, acked), p) in games.iter_mut().zip(players) {
            acked.extend(p.await.unwrap());
        }
    }
    let server = Server::start(&db).await;
    let mut me = player.unwrap().at(&server);
    let mut total = 0;
    for (id, acked) in &games {
        let state: Value = me.get(&format!("/api/games/{id}")).await.json();
        let stored: Vec<String> = serde_json::from_value(state["moves"].clone()).unwrap();
        assert!(stored.starts_with(acked), "game {id}: acknowledged {acked:?}, stored {stored:?}");
        total += acked.len();
    }
    assert!(total > 100, "only {total} moves were acknowledged: the test played too little");
    eprintln!(
        "{total} moves (acknowledged, or stored at a restart) in 20 games, 5 kills: none lost"
    );
    server.stop().await;
}
