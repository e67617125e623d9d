//! Two server instances on one PostgreSQL database: friends connected to different instances
//! play one game, each instance learning of the other's moves through LISTEN/NOTIFY. Runs when
//! `DOSKA_TEST_POSTGRES_URL` names a database.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Server, test_config};
use doska_server::RandomMover;
use serde_json::json;
use std::sync::Arc;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_one_game() {
    let Ok(url) = std::env::var("DOSKA_TEST_POSTGRES_URL") else {
        eprintln!("DOSKA_TEST_POSTGRES_URL not set: two-instance test skipped");
        return;
    };
    let one = Server::start_with(&url, Arc::new(RandomMover), test_config()).await;
    let two = Server::start_with(&url, Arc::new(RandomMover), test_config()).await;
    let (mut alice, mut bob) = (one.browser(), two.browser());
    let created =
        alice.create(json!({"rules": "russian", "opponent": "friend", "color": "white"})).await;
    let id = created["id"].as_str().unwrap().to_string();
    let joined =
        bob.post(&format!("/api/games/{id}/join"), &json!({"invite": created["invite"]})).await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    let mut a = alice.socket(&id, None).await;
    let mut b = bob.socket(&id, None).await;
    a.state_where(|s| s["status"] == "playing").await;
    for (i, (mover, text)) in
        [("a", "c3-d4"), ("b", "f6-e5"), ("a", "d4xf6"), ("b", "g7xe5")].into_iter().enumerate()
    {
        let (me, other) = if mover == "a" { (&mut a, &mut b) } else { (&mut b, &mut a) };
        me.state_where(|s| s["plies"] == i).await;
        me.send(json!({"type": "move", "text": text})).await;
        other.state_where(|s| s["plies"] == i + 1).await;
    }
    assert_eq!(a.state["moves"], json!(["c3-d4", "f6-e5", "d4:f6", "g7:e5"]));
    // The cookie key is the database's: a browser is the same player on either instance.
    let mut bob_on_one = bob.at(&one);
    let s = bob_on_one.get(&format!("/api/games/{id}")).await.json();
    assert_eq!(s["you"], "black");
    one.stop().await;
    two.stop().await;
}
