//! Load client for `doska serve`: opens many friend games (two WebSockets each, two players
//! with their own cookies), then plays random legal moves at a target rate across all games and
//! measures each move's round trip (sent -> the mover's socket shows the new state). Not part of
//! the tests; `bench/load/run.sh` starts a server and runs this against it.
//!
//! `cargo run --release -p doska-server --example load -- --addr 127.0.0.1:8080 --games 2000
//!  --rate 500 --seconds 30`
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use futures_util::SinkExt;
use rand::seq::IndexedRandom;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use support::{Side, http, open};
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

struct Args {
    addr: String,
    games: usize,
    rate: f64,
    seconds: u64,
    rules: String,
}

fn args() -> Args {
    let mut a = Args {
        addr: "127.0.0.1:8080".into(),
        games: 2000,
        rate: 500.0,
        seconds: 30,
        rules: "russian".into(),
    };
    let v: Vec<String> = std::env::args().skip(1).collect();
    for pair in v.chunks(2) {
        let val = pair.get(1).cloned().unwrap_or_default();
        match pair[0].as_str() {
            "--addr" => a.addr = val,
            "--games" => a.games = val.parse().expect("--games N"),
            "--rate" => a.rate = val.parse().expect("--rate MOVES_PER_SECOND"),
            "--seconds" => a.seconds = val.parse().expect("--seconds S"),
            "--rules" => a.rules = val,
            other => panic!("unknown option {other}: --addr --games --rate --seconds --rules"),
        }
    }
    a
}

struct Game {
    white: Side,
    black: Side,
}

async fn setup(addr: &str, rules: &str) -> Game {
    let body = json!({"rules": rules, "opponent": "friend", "color": "white"}).to_string();
    let (created, alice) = http(addr, "POST", "/api/games", "", &body).await;
    let created: Value = serde_json::from_str(&created).expect("created");
    let id = created["id"].as_str().expect("id").to_string();
    let join = json!({"invite": created["invite"]}).to_string();
    let (_, bob) = http(addr, "POST", &format!("/api/games/{id}/join"), "", &join).await;
    let (alice, bob) = (alice.expect("cookie"), bob.expect("cookie"));
    Game { white: open(addr, &id, &alice).await, black: open(addr, &id, &bob).await }
}

fn cpu_seconds() -> f64 {
    // utime + stime of this process, in clock ticks (100 a second on Linux).
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = after.split_whitespace().collect();
    let t = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (t(11) + t(12)) / 100.0
}

#[tokio::main]
async fn main() {
    let a = args();
    let started = Instant::now();
    let mut games = Vec::with_capacity(a.games);
    // Open the games a few at a time.
    let mut pending = Vec::new();
    for _ in 0..a.games {
        let (addr, rules) = (a.addr.clone(), a.rules.clone());
        pending.push(tokio::spawn(async move { setup(&addr, &rules).await }));
        if pending.len() == 50 {
            for p in pending.drain(..) {
                games.push(Arc::new(p.await.unwrap()));
            }
        }
    }
    for p in pending {
        games.push(Arc::new(p.await.unwrap()));
    }
    println!(
        "opened {} games ({} sockets) in {:.1} s",
        games.len(),
        2 * games.len(),
        started.elapsed().as_secs_f64()
    );
    println!("READY");
    // Let the run script read the server's memory with every game open.
    tokio::time::sleep(Duration::from_secs(2)).await;

    let latencies = Arc::new(Mutex::new(Vec::<u32>::new()));
    let (moves, errors, ended) =
        (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let per_game = Duration::from_secs_f64(a.games as f64 / a.rate);
    let until = Instant::now() + Duration::from_secs(a.seconds);
    let cpu0 = cpu_seconds();
    let t0 = Instant::now();
    let mut tasks = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let g = g.clone();
        let (lat, moves, errors, ended) =
            (latencies.clone(), moves.clone(), errors.clone(), ended.clone());
        let offset = per_game.mul_f64(i as f64 / a.games as f64);
        tasks.push(tokio::spawn(async move {
            let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(i as u64);
            let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + offset, per_game);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                if Instant::now() >= until {
                    return;
                }
                let state = g.white.state.borrow().clone();
                if state["status"] != "playing" {
                    ended.fetch_add(1, Ordering::Relaxed);
                    return;
                }
                let side = if state["turn"] == "white" { &g.white } else { &g.black };
                let mut watch = side.state.clone();
                let plies = watch.borrow().get("plies").and_then(Value::as_u64).unwrap_or(0);
                let Some(m) =
                    state["legal_moves"].as_array().and_then(|l| l.choose(&mut rng).cloned())
                else {
                    return;
                };
                let msg = json!({"type": "move", "path": m["path"]}).to_string();
                let sent = Instant::now();
                if side.sink.lock().await.send(Message::Text(msg.into())).await.is_err() {
                    errors.fetch_add(1, Ordering::Relaxed);
                    return;
                }
                let seen = matches!(
                    tokio::time::timeout(
                        Duration::from_secs(10),
                        watch.wait_for(|s| s["plies"].as_u64().unwrap_or(0) > plies),
                    )
                    .await,
                    Ok(Ok(_))
                );
                match seen {
                    true => {
                        lat.lock().await.push(sent.elapsed().as_micros() as u32);
                        moves.fetch_add(1, Ordering::Relaxed);
                    }
                    false => {
                        errors.fetch_add(1, Ordering::Relaxed);
                        return;
                    }
                }
                // The other socket must have seen it too before the next move.
                let other = if state["turn"] == "white" { &g.black } else { &g.white };
                let _ = tokio::time::timeout(
                    Duration::from_secs(10),
                    other.state.clone().wait_for(|s| s["plies"].as_u64().unwrap_or(0) > plies),
                )
                .await;
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    // Moves were sent for `seconds`; the rest of the wall time is the last ticks finding the
    // window closed.
    let wall = t0.elapsed().as_secs_f64().min(a.seconds as f64);
    let cpu = cpu_seconds() - cpu0;
    let mut l = latencies.lock().await.clone();
    l.sort_unstable();
    let pct = |p: f64| {
        l.get(((l.len() as f64 * p) as usize).min(l.len().saturating_sub(1)))
            .map_or(0.0, |v| *v as f64 / 1000.0)
    };
    let n = moves.load(Ordering::Relaxed);
    println!(
        "games {} | moves {} in {:.1} s = {:.0}/s (target {:.0}/s) | round trip ms p50 {:.2} p90 {:.2} p99 {:.2} max {:.2} | errors {} | games ended {} | client CPU {:.1}% of one core",
        a.games,
        n,
        wall,
        n as f64 / wall,
        a.rate,
        pct(0.5),
        pct(0.9),
        pct(0.99),
        l.last().map_or(0.0, |v| *v as f64 / 1000.0),
        errors.load(Ordering::Relaxed),
        ended.load(Ordering::Relaxed),
        100.0 * cpu / wall,
    );
}
