//! The analysis board with an endgame database installed: the exact result of a position in
//! it, and none for one that is not. (Its own test binary: a database is installed for the
//! whole process.)
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Db, Server};
use doska_engine::egdb;
use doska_rules::Variant;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_board_gives_the_databases_exact_result() {
    let built = egdb::build(Variant::American, 3, 1, |_| {}).unwrap();
    assert!(egdb::install(Box::leak(Box::new(built))));
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut me = server.browser();
    // Two kings against one in checkers: a win even from the double corner.
    let v = me.get("/api/analysis?rules=american&fen=W%3AWK18%2CK19%3ABK1&depth=2").await.json();
    assert_eq!(v["endgame"], json!({"winner": "white", "plies": 21}), "{v}");
    assert_eq!(v["value"], json!(10.0), "a forced win: {v}");
    assert_eq!(v["complete"], json!(true), "{v}");
    let v = me.get("/api/analysis?rules=american&fen=B%3AWK18%2CK19%3ABK1&depth=2").await.json();
    assert_eq!(v["endgame"], json!({"winner": "white", "plies": 22}), "{v}");
    // More pieces than the database holds, or a rule set without one: no exact result.
    let v =
        me.get("/api/analysis?rules=american&fen=W%3AWK18%2CK19%2C20%3ABK1&depth=2").await.json();
    assert_eq!(v["endgame"], json!(null), "{v}");
    let v = me.get("/api/analysis?rules=russian&fen=W%3AWKc1%2CKe1%3ABKh2&depth=2").await.json();
    assert_eq!(v["endgame"], json!(null), "{v}");
    server.stop().await;
}
