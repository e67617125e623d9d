//! Fair to everyone when one visitor is greedy: the computer's time is shared between players,
//! and game creation is limited per player, per address and by the games already waiting for
//! the computer.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Db, Server, test_config};
use doska_rules::AnyGame;
use doska_server::{Computer, Config, Level, RandomMover};
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Insane thinks a second a move; the other levels answer at once.
#[derive(Debug)]
struct Slow;

impl Computer for Slow {
    fn choose(&self, game: &AnyGame, level: Level, seed: u64) -> Option<String> {
        if level == Level::Insane {
            std::thread::sleep(Duration::from_secs(1));
        }
        RandomMover.choose(game, level, seed)
    }
}

/// Holds every Insane move until `release` (at most a minute, so a failed test still ends);
/// the other levels answer at once.
#[derive(Debug, Default)]
struct Held {
    released: AtomicBool,
}

impl Held {
    fn release(&self) {
        self.released.store(true, Ordering::SeqCst);
    }
}

impl Computer for Held {
    fn choose(&self, game: &AnyGame, level: Level, seed: u64) -> Option<String> {
        let started = Instant::now();
        while level == Level::Insane
            && !self.released.load(Ordering::SeqCst)
            && started.elapsed() < Duration::from_secs(60)
        {
            std::thread::sleep(Duration::from_millis(10));
        }
        RandomMover.choose(game, level, seed)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_greedy_player_does_not_delay_another_players_computer() {
    let db = Db::new();
    let config = Config { engine_threads: 1, computer_games_waiting: 100, ..test_config() };
    let server = Server::start_with(&db.url(), Arc::new(Slow), config).await;
    // 15 Insane international games where the computer moves first, as fast as they go: 15
    // seconds of thinking on the one engine thread.
    let mut greedy = server.browser();
    let body = json!({"rules": "international", "opponent": "computer", "level": "insane", "color": "black"});
    for _ in 0..15 {
        greedy.create(body.clone()).await;
    }
    // Another player's Easy game, the computer first: its move comes at once, not after them.
    let mut victim = server.browser();
    let started = Instant::now();
    let created = victim
        .create(
            json!({"rules": "russian", "opponent": "computer", "level": "easy", "color": "black"}),
        )
        .await;
    let mut s = victim.socket(created["id"].as_str().unwrap(), None).await;
    s.state_where(|st| st["plies"] == 1).await;
    let waited = started.elapsed();
    assert!(waited < Duration::from_secs(2), "the Easy reply took {waited:?}");
    eprintln!("the victim's Easy reply under a flood of 15 Insane games: {waited:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn game_creation_is_limited_per_player_per_address_and_by_the_computers_backlog() {
    let db = Db::new();
    let config = Config {
        games_per_minute: 3,
        games_per_minute_per_address: 5,
        computer_games_waiting: 2,
        engine_threads: 1,
        ..test_config()
    };
    let server = Server::start_with(&db.url(), Arc::new(Slow), config).await;
    let hotseat = json!({"rules": "russian", "opponent": "hotseat"});

    // One player: three, then refused with when to come back.
    let mut a = server.browser();
    for _ in 0..3 {
        a.create(hotseat.clone()).await;
    }
    let r = a.post("/api/games", &hotseat).await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(
        r.json()["error"]
            .as_str()
            .unwrap()
            .starts_with("too many new games from you: at most 3 a minute")
    );
    let retry: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=20).contains(&retry), "Retry-After {retry}");

    // New cookies from the same address: two more, then the address is refused.
    let mut b = server.browser();
    b.create(hotseat.clone()).await;
    b.create(hotseat.clone()).await;
    let mut c = server.browser();
    let r = c.post("/api/games", &hotseat).await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(
        r.body.contains("too many new games from your address: at most 5 a minute"),
        "{}",
        r.body
    );
    assert!(r.header("retry-after").is_some());
    server.stop().await;

    // The computer's backlog: two games waiting for its move, the third is refused. The
    // computer holds its Insane moves until the test lets them go, so the two games are still
    // waiting however slowly the machine creates them (a one-second sleep was not enough on a
    // loaded machine: the first move came back before the third request).
    let config = Config { computer_games_waiting: 2, engine_threads: 1, ..test_config() };
    let held = Arc::new(Held::default());
    let server = Server::start_with(&db.url(), held.clone(), config).await;
    let mut d = server.browser();
    let insane =
        json!({"rules": "russian", "opponent": "computer", "level": "insane", "color": "black"});
    d.create(insane.clone()).await;
    d.create(insane.clone()).await;
    let r = d.post("/api/games", &insane).await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body.contains("2 of your games are waiting for the computer's move"), "{}", r.body);
    // A game against a person is not held back by it.
    d.create(hotseat.clone()).await;
    held.release();
    server.stop().await;
}
