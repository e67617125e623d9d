//! Times the engine's review of a game while the computer plays: plays a hot-seat game of
//! PLIES random legal moves (then resigns it), starts two games against the computer at a
//! level (answered with random moves as fast as the computer replies), asks for the review,
//! and reports how long it took and the computer's reply times meanwhile. Not part of the
//! tests; `bench/review/run.sh` starts a release server and runs this against it.
//!
//! `cargo run --release -p doska-server --example review_bench -- --addr 127.0.0.1:8080
//!  --rules russian --plies 60 --level hard`
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use futures_util::SinkExt;
use rand::seq::IndexedRandom;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use support::{Side, http, open};
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

struct Args {
    addr: String,
    rules: String,
    plies: usize,
    level: String,
}

fn args() -> Args {
    let mut a = Args {
        addr: "127.0.0.1:8080".into(),
        rules: "russian".into(),
        plies: 60,
        level: "hard".into(),
    };
    let v: Vec<String> = std::env::args().skip(1).collect();
    for pair in v.chunks(2) {
        let val = pair.get(1).cloned().unwrap_or_default();
        match pair[0].as_str() {
            "--addr" => a.addr = val,
            "--rules" => a.rules = val,
            "--plies" => a.plies = val.parse().expect("--plies N"),
            "--level" => a.level = val,
            other => panic!("unknown option {other}: --addr --rules --plies --level"),
        }
    }
    a
}

async fn send(side: &Side, v: Value) {
    side.sink.lock().await.send(Message::Text(v.to_string().into())).await.unwrap();
}

/// Waits until the socket has a state and it satisfies `ok`.
async fn until(side: &Side, ok: impl Fn(&Value) -> bool) -> Value {
    let mut w = side.state.clone();
    let v = tokio::time::timeout(Duration::from_secs(600), w.wait_for(|s| !s.is_null() && ok(s)))
        .await
        .expect("state in time")
        .expect("socket open");
    v.clone()
}

#[tokio::main]
async fn main() {
    let a = args();
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(7);
    // A hot-seat game of random moves, resigned once both sides have moved.
    let body = json!({"rules": a.rules, "opponent": "hotseat"}).to_string();
    let (created, cookie) = http(&a.addr, "POST", "/api/games", "", &body).await;
    let cookie = cookie.expect("cookie");
    let id = serde_json::from_str::<Value>(&created).unwrap()["id"].as_str().unwrap().to_string();
    let board = open(&a.addr, &id, &cookie).await;
    for ply in 0..a.plies {
        let s = until(&board, |s| s["plies"].as_u64() == Some(ply as u64)).await;
        if s["status"] != "playing" {
            break;
        }
        let m = s["legal_moves"].as_array().unwrap().choose(&mut rng).unwrap().clone();
        send(&board, json!({"type": "move", "path": m["path"]})).await;
        // Under the socket's rate limit (10 messages a second).
        tokio::time::sleep(Duration::from_millis(110)).await;
    }
    let s =
        until(&board, |s| s["plies"].as_u64() == Some(a.plies as u64) || s["status"] != "playing")
            .await;
    if s["status"] == "playing" {
        send(&board, json!({"type": "resign"})).await;
    }
    let s = until(&board, |s| s["status"] != "playing").await;
    let plies = s["plies"].as_u64().unwrap();

    // Two games against the computer, which moves first in each.
    let stop = Arc::new(AtomicBool::new(false));
    let replies = Arc::new(Mutex::new(Vec::<f64>::new()));
    let mut players = Vec::new();
    for g in 0..2 {
        let body =
            json!({"rules": a.rules, "opponent": "computer", "level": a.level, "color": "black"})
                .to_string();
        let (created, _) = http(&a.addr, "POST", "/api/games", &cookie, &body).await;
        let cid =
            serde_json::from_str::<Value>(&created).unwrap()["id"].as_str().unwrap().to_string();
        let side = open(&a.addr, &cid, &cookie).await;
        let (stop, replies) = (stop.clone(), replies.clone());
        players.push(tokio::spawn(async move {
            let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(g);
            let mut asked = Instant::now();
            while !stop.load(Ordering::Relaxed) {
                let s = until(&side, |s| s["turn"] == "black" || s["status"] != "playing").await;
                if s["status"] != "playing" {
                    return;
                }
                replies.lock().await.push(asked.elapsed().as_secs_f64());
                let plies = s["plies"].as_u64().unwrap();
                let m = s["legal_moves"].as_array().unwrap().choose(&mut rng).unwrap().clone();
                send(&side, json!({"type": "move", "path": m["path"]})).await;
                until(&side, |s| s["plies"].as_u64() > Some(plies)).await;
                asked = Instant::now();
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(1)).await;

    let started = Instant::now();
    let (started_body, _) =
        http(&a.addr, "POST", &format!("/api/games/{id}/review"), &cookie, "{}").await;
    let answer: Value = serde_json::from_str(&started_body).unwrap_or_default();
    assert!(answer["status"].is_string(), "the review was not started: {started_body}");
    let review = loop {
        let (body, _) = http(&a.addr, "GET", &format!("/api/games/{id}/review"), &cookie, "").await;
        let v: Value = serde_json::from_str(&body).unwrap();
        if v["status"] == "done" {
            break v;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let took = started.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    let r = replies.lock().await.clone();
    let worst = r.iter().copied().fold(0.0, f64::max);
    let mean = if r.is_empty() { 0.0 } else { r.iter().sum::<f64>() / r.len() as f64 };
    println!(
        "{} review of {plies} plies ({} nodes a position): {took:.1} s while 2 {} games were played \
         | computer replies meanwhile: {} (first moves included), mean {mean:.2} s, max {worst:.2} s \
         | marks: white {} / black {}",
        a.rules,
        review["nodes"],
        a.level,
        r.len(),
        review["summary"]["white"],
        review["summary"]["black"],
    );
    for p in players {
        if p.is_finished() {
            if let Err(e) = p.await {
                println!("a computer game's player stopped: {e}");
            }
        } else {
            p.abort();
        }
    }
}
