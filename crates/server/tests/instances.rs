//! Two server instances on one PostgreSQL database behave like one server: friends connected to
//! different instances play one game, see each other's offers and presence, and can claim a
//! game only when the opponent is away from every instance; when one instance is killed with
//! SIGKILL, the other serves both players. Runs when `DOSKA_TEST_POSTGRES_URL` names a
//! database. (A restart of PostgreSQL itself is in tests/postgres_restart.rs.)
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Browser, Server, Socket, friends, serve_as_child, spawn_child, test_config};
use doska_server::{Config, RandomMover};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

fn postgres() -> Option<String> {
    let url = std::env::var("DOSKA_TEST_POSTGRES_URL").ok();
    if url.is_none() {
        eprintln!("DOSKA_TEST_POSTGRES_URL not set: two-instance test skipped");
    }
    url
}

/// Instances that beat every 200 ms (dead after 600 ms) and let a game be claimed after 2 s.
fn config() -> Config {
    Config {
        heartbeat: Duration::from_millis(200),
        claim_after: Duration::from_secs(2),
        ..test_config()
    }
}

/// Plays `moves` alternately from `a` (white) and `b`, each seen by the other.
async fn cross(a: &mut Socket, b: &mut Socket, moves: &[&str]) {
    for text in moves {
        let plies = a.state["plies"].as_u64().unwrap().max(b.state["plies"].as_u64().unwrap());
        let white = plies.is_multiple_of(2);
        let (me, other) = if white { (&mut *a, &mut *b) } else { (&mut *b, &mut *a) };
        me.state_where(|s| s["plies"] == plies).await;
        me.send(json!({"type": "move", "text": text})).await;
        other.state_where(|s| s["plies"] == plies + 1).await;
        me.state_where(|s| s["plies"] == plies + 1).await;
    }
}

const OPENING: [&str; 4] = ["c3-d4", "f6-e5", "d4xf6", "g7xe5"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_one_game() {
    let Some(url) = postgres() else { return };
    let one = Server::start_with(&url, Arc::new(RandomMover), config()).await;
    let two = Server::start_with(&url, Arc::new(RandomMover), config()).await;
    let (id, _alice, bob, mut a, mut b) = friends(one.browser(), two.browser()).await;
    cross(&mut a, &mut b, &OPENING).await;
    assert_eq!(a.state["moves"], json!(["c3-d4", "f6-e5", "d4:f6", "g7:e5"]));
    // The cookie key is the database's: a browser is the same player on either instance.
    let mut bob_on_one = bob.at(&one);
    let s = bob_on_one.get(&format!("/api/games/{id}")).await.json();
    assert_eq!(s["you"], "black");
    one.stop().await;
    two.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offers_presence_and_claims_cross_instances() {
    let Some(url) = postgres() else { return };
    let one = Server::start_with(&url, Arc::new(RandomMover), config()).await;
    let two = Server::start_with(&url, Arc::new(RandomMover), config()).await;
    let (_, alice, bob, mut a, mut b) = friends(one.browser(), two.browser()).await;
    cross(&mut a, &mut b, &OPENING).await;
    assert_eq!(a.state["seats"]["black"]["connected"], true, "black is seen on the other one");

    // Black connected on the other instance: no claim, however long white waits.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let e = a.refused(json!({"type": "claim-win"})).await;
    assert_eq!(e, "your opponent is connected: the game cannot be claimed");

    // A draw offer made on two is seen and accepted on one.
    b.send(json!({"type": "draw-offer"})).await;
    a.state_where(|s| s["draw_offer"] == "black").await;
    a.send(json!({"type": "draw-accept"})).await;
    let over = b.state_where(|s| s["status"] == "finished").await;
    assert_eq!(over["outcome"]["reason"], "agreement", "{over}");

    // Both ask for a rematch, each on their own instance: one game is made, seen by both.
    a.send(json!({"type": "rematch"})).await;
    b.state_where(|s| s["rematch_offer"] == "white").await;
    b.send(json!({"type": "rematch"})).await;
    let next = a.state_where(|s| s["rematch"].is_string()).await["rematch"].clone();
    let seen = b.state_where(|s| s["rematch"].is_string()).await["rematch"].clone();
    assert_eq!(next, seen);
    let next = next.as_str().unwrap().to_string();

    // The rematch (colours swapped: bob is white): bob leaves two, and only once he has been
    // away from every instance for the whole period may alice claim it.
    let mut b2 = bob.socket(&next, None).await;
    let mut a2 = alice.socket(&next, None).await;
    assert_eq!((b2.you.as_str(), a2.you.as_str()), ("white", "black"));
    cross(&mut b2, &mut a2, &OPENING).await;
    drop(b2);
    let away = a2.state_where(|s| s["seats"]["white"]["connected"] == false).await;
    assert!(away["seats"]["white"]["away_since"].is_i64(), "{away}");
    let e = a2.refused(json!({"type": "claim-win"})).await;
    assert!(e.contains("can be claimed after"), "{e}");
    tokio::time::sleep(Duration::from_millis(2200)).await;
    a2.send(json!({"type": "claim-win"})).await;
    let won = a2.state_where(|s| s["status"] == "finished").await;
    assert_eq!(
        (won["outcome"]["reason"].as_str(), won["outcome"]["winner"].as_str()),
        (Some("abandoned"), Some("black"))
    );
    one.stop().await;
    two.stop().await;
}

/// Not a test on its own: the instance the test below kills (see `common::serve_as_child`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn child_instance() {
    serve_as_child("DOSKA_TEST_CHILD_SERVER", config()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_instance_killed_mid_game_leaves_the_other_serving_both() {
    let Some(url) = postgres() else { return };
    let one = Server::start_with(&url, Arc::new(RandomMover), config()).await;
    let (mut child, addr) = spawn_child("child_instance", "DOSKA_TEST_CHILD_SERVER", &url);
    let two = Browser { addr, cookie: None };
    let (id, _alice, bob, mut a, mut b) = friends(one.browser(), two).await;
    cross(&mut a, &mut b, &OPENING[..2]).await;

    // SIGKILL: no goodbye, no presence written. Black's socket dies with it; one notices the
    // instance is dead within three beats and shows black away.
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(b.next().await.is_none(), "black's socket died with its instance");
    let away = a.state_where(|s| s["seats"]["black"]["connected"] == false).await;
    let since = away["seats"]["black"]["away_since"].as_i64().unwrap();
    assert!(since > 0, "{away}");

    // Black reconnects (a proxy sends him to the instance still alive) and the game goes on.
    let mut b = bob.at(&one).socket(&id, None).await;
    assert_eq!(b.you, "black");
    a.state_where(|s| s["seats"]["black"]["connected"] == true).await;
    cross(&mut a, &mut b, &OPENING[2..]).await;
    let e = a.refused(json!({"type": "claim-win"})).await;
    assert_eq!(e, "your opponent is connected: the game cannot be claimed");
    let v: Value = a.state.clone();
    assert_eq!(v["moves"], json!(["c3-d4", "f6-e5", "d4:f6", "g7:e5"]));
    one.stop().await;
}
