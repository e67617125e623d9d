//! The engine's review of a finished game over the API: refused while the game is played,
//! computed once it is over (the blunder marked with its better move), stored and served again
//! after a restart; and a review under way does not hold back a computer game's replies.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Browser, Db, Server, test_config};
use doska_server::{Computer, Config, Level, RandomMover};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Polls the review until it is done.
async fn done(me: &mut Browser, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let r = me.get(&format!("/api/games/{id}/review")).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let v = r.json();
        if v["status"] == "done" {
            return v;
        }
        assert!(Instant::now() < deadline, "review not done: {v}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_reviewed_once_and_the_blunder_marked() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut me = server.browser();
    // White to move gives away two men: e3-d4?? c5:g5.
    let g = me
        .create(
            json!({"rules": "russian", "opponent": "hotseat", "position": "W:Wa1,e3,f4:Bc5,a7,h8"}),
        )
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut s = me.socket(&id, None).await;

    // Not while it is played.
    let r = me.post(&format!("/api/games/{id}/review"), &json!({})).await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.json()["error"].as_str().unwrap().contains("once it is over"), "{}", r.body);

    s.play("e3-d4").await;
    s.play("c5:g5").await;
    s.send(json!({"type": "resign"})).await;
    s.state_where(|s| s["status"] == "finished").await;

    let none = me.get(&format!("/api/games/{id}/review")).await.json();
    assert_eq!((none["status"].as_str(), none["plies"].as_u64()), (Some("none"), Some(2)));
    let started = me.post(&format!("/api/games/{id}/review"), &json!({})).await;
    assert_eq!(started.status, 200, "{}", started.body);
    assert!(["queued", "running", "done"].contains(&started.json()["status"].as_str().unwrap()));
    let v = done(&mut me, &id).await;
    assert_eq!(v["unit"], "man");
    let first = &v["moves"][0];
    assert_eq!((first["move"].as_str(), first["side"].as_str()), (Some("e3-d4"), Some("white")));
    assert_eq!(
        (first["mark"].as_str(), first["nag"].as_str()),
        (Some("blunder"), Some("??")),
        "{v}"
    );
    let best = first["best"].as_str().unwrap();
    assert!(["f4-e5", "f4-g5", "a1-b2"].contains(&best), "{v}");
    assert_eq!(first["best_path"][0].as_str(), best.get(..2));
    assert!(first["loss"].as_f64().unwrap() >= 1.5, "{v}");
    assert!(first["before"].as_f64().unwrap() > first["after"].as_f64().unwrap());
    assert_eq!(v["moves"][1]["mark"], Value::Null, "the capture is the best move: {v}");
    assert_eq!(v["summary"]["white"]["blunders"], 1);
    assert_eq!(v["summary"]["black"]["blunders"], 0);
    assert!(
        v["summary"]["white"]["accuracy"].as_f64().unwrap()
            < v["summary"]["black"]["accuracy"].as_f64().unwrap()
    );

    // The PDN carries the marks and evaluations, and reads back as the same game.
    let pdn = me.get(&format!("/api/games/{id}/pdn")).await.body;
    assert!(pdn.contains("e3-d4?? {[%eval "), "{pdn}");
    assert!(pdn.contains("1... c5:e3:g5 {[%eval "), "{pdn}");
    let back = me.create(json!({"rules": "russian", "opponent": "hotseat", "position": pdn})).await;
    let back = me.get(&format!("/api/games/{}", back["id"].as_str().unwrap())).await.json();
    assert_eq!(back["moves"], s.state["moves"]);

    // Stored: the same answer after a restart, at once, without thinking again.
    server.stop().await;
    let server = Server::start(&db).await;
    let mut me = me.at(&server);
    let again = me.get(&format!("/api/games/{id}/review")).await.json();
    assert_eq!(again, v);
    let again = me.post(&format!("/api/games/{id}/review"), &json!({})).await.json();
    assert_eq!(again, v);
    let missing = me.get("/api/games/nosuchgame/review").await;
    assert_eq!(missing.status, 404, "{}", missing.body);
    server.stop().await;
}

/// A computer that holds its thread for a while before playing a random move.
#[derive(Debug)]
struct Slow;

impl Computer for Slow {
    fn choose(&self, game: &doska_rules::AnyGame, level: Level, seed: u64) -> Option<String> {
        std::thread::sleep(Duration::from_millis(150));
        RandomMover.choose(game, level, seed)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_does_not_hold_back_the_computer() {
    let db = Db::new();
    // A heavy review (300,000 nodes a position) and a computer that thinks 150 ms.
    let config = Config { review_nodes: 300_000, ..test_config() };
    let server = Server::start_with(&db.url(), Arc::new(Slow), config).await;
    let mut me = server.browser();
    let g = me.create(json!({"rules": "international", "opponent": "hotseat"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut s = me.socket(&id, None).await;
    for _ in 0..6 {
        let m = s.state["legal_moves"][0]["notation"].as_str().unwrap().to_string();
        s.play(&m).await;
    }
    s.send(json!({"type": "resign"})).await;
    s.state_where(|s| s["status"] == "finished").await;
    me.post(&format!("/api/games/{id}/review"), &json!({})).await;

    // Meanwhile a game against the computer: each reply comes in the computer's own time.
    let c = me
        .create(
            json!({"rules": "russian", "opponent": "computer", "level": "easy", "color": "black"}),
        )
        .await;
    let cid = c["id"].as_str().unwrap().to_string();
    let mut cs = me.socket(&cid, None).await;
    let mut worst = Duration::ZERO;
    for ply in [1u64, 3, 5] {
        let t = Instant::now();
        let st = cs.state_where(|s| s["plies"] == ply).await;
        worst = worst.max(t.elapsed());
        let m = st["legal_moves"][0]["notation"].as_str().unwrap().to_string();
        cs.play(&m).await;
    }
    eprintln!("slowest computer reply during a review: {} ms", worst.as_millis());
    assert!(worst < Duration::from_secs(3), "{worst:?}");
    let v = done(&mut me, &id).await;
    assert_eq!(v["moves"].as_array().unwrap().len(), 6);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_board_gets_the_best_lines_and_the_exact_race() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut me = server.browser();
    let ask = |rules: &str, fen: &str, extra: &str| {
        let fen: String = fen
            .bytes()
            .map(|b| match b {
                b':' => "%3A".to_string(),
                b',' => "%2C".to_string(),
                _ => char::from(b).to_string(),
            })
            .collect();
        format!("/api/analysis?rules={rules}&fen={fen}{extra}")
    };
    let v = me.get(&ask("russian", "W:Wa1,e3,f4:Bc5,a7,h8", "&depth=8&lines=3")).await.json();
    assert_eq!(
        (v["depth"].as_u64(), v["unit"].as_str(), v["turn"].as_str()),
        (Some(8), Some("man"), Some("white"))
    );
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{v}");
    let values: Vec<f64> = lines.iter().map(|l| l["value"].as_f64().unwrap()).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "best first: {v}");
    assert!(
        lines.iter().all(|l| l["moves"][0] != "e3-d4"),
        "the blunder is not among the best: {v}"
    );
    assert_eq!(lines[0]["path"][0].as_str(), lines[0]["moves"][0].as_str().unwrap().get(..2));
    // Deeper on request.
    let deeper = me.get(&ask("russian", "W:Wa1,e3,f4:Bc5,a7,h8", "&depth=10&lines=1")).await.json();
    assert_eq!(
        (deeper["depth"].as_u64(), deeper["lines"].as_array().unwrap().len()),
        (Some(10), 1)
    );

    // Ugolki, separated: each side's exact count and the winner.
    let fen = "W:Wg5,f6,g6,e7,g7,e8,f8,g8,h8:Ba1,c1,d1,a2,a3,b3,d3,b4,d5:N31";
    let u = me.get(&ask("ugolki", fen, "&depth=3&lines=2")).await.json();
    assert_eq!(u["race"], json!({"white": 5, "black": 6, "winner": "white"}), "{u}");
    assert_eq!(u["unit"], "race-move");

    // Bad input says what was wrong.
    let bad = me.get(&ask("russian", "W:Wz9", "")).await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(bad.json()["error"].as_str().unwrap().contains("z9"), "{}", bad.body);
    let over = me.get(&ask("russian", "B:Wa1:B", "")).await;
    assert_eq!(over.status, 409, "{}", over.body);
    assert!(over.json()["error"].as_str().unwrap().contains("over"), "{}", over.body);
    let rules = me.get(&ask("chess", "W:Wa1:Bh8", "")).await;
    assert_eq!(rules.status, 400, "{}", rules.body);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_shows_the_best_move_and_marks_the_game_in_the_stats() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut me = server.browser();
    // White (the player) must take c3:e5 and wins at once.
    let g = me
        .create(json!({"rules": "russian", "opponent": "computer", "level": "easy",
                       "color": "white", "position": "W:Wc3,h2:Bd4"}))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut s = me.socket(&id, None).await;
    assert_eq!(s.state["hints"], 0);
    s.send(json!({"type": "hint"})).await;
    let hint = loop {
        let v = s.next().await.unwrap();
        if v["type"] == "hint" {
            break v;
        }
        assert_ne!(v["type"], "error", "{v}");
    };
    assert_eq!((hint["move"].as_str(), hint["hints"].as_i64()), (Some("c3:e5"), Some(1)), "{hint}");
    assert_eq!(hint["path"], json!(["c3", "e5"]));
    s.state_where(|s| s["hints"] == 1).await;

    // Spectators and the computer's turn get no hint.
    let other = server.browser();
    let mut watcher = other.socket(&id, None).await;
    assert_eq!(
        watcher.refused(json!({"type": "hint"})).await,
        "only the player can ask for a hint"
    );
    s.play("c3:e5").await;
    s.state_where(|s| s["status"] == "finished").await;
    assert!(s.refused(json!({"type": "hint"})).await.contains("over"));

    // A win with a hint: a win and a streak, but not a clean streak.
    let stats = me.get("/api/stats").await.json();
    let b =
        stats["mine"].as_array().unwrap().iter().find(|b| b["bucket"] == "computer:easy").unwrap();
    assert_eq!((b["wins"].as_u64(), b["streak"].as_u64()), (Some(1), Some(1)), "{b}");
    assert_eq!((b["hinted"].as_u64(), b["clean_streak"].as_u64()), (Some(1), Some(0)), "{b}");

    // No hints between friends.
    let f = me.create(json!({"rules": "russian", "opponent": "friend", "color": "white"})).await;
    let mut fs = me.socket(f["id"].as_str().unwrap(), None).await;
    assert_eq!(
        fs.refused(json!({"type": "hint"})).await,
        "hints are for games against the computer"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_position_alone_has_its_legal_moves_and_the_position_after_each() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut me = server.browser();
    let v = me.get("/api/position?rules=russian&fen=W%3AWc3%3ABd4%2Ch8").await.json();
    assert_eq!((v["turn"].as_str(), v["must_capture"].clone()), (Some("white"), json!(["c3"])));
    let m = &v["legal_moves"][0];
    assert_eq!((m["notation"].as_str(), m["fen"].as_str()), (Some("c3:e5"), Some("B:We5:Bh8")));
    let after = me.get("/api/position?rules=russian&fen=B%3AWe5%3ABh8").await.json();
    assert_eq!(after["outcome"], Value::Null);
    let over = me.get("/api/position?rules=russian&fen=B%3AWe5%3AB").await.json();
    assert_eq!(over["outcome"]["winner"], "white");
    assert_eq!(over["legal_moves"], json!([]));
    let bad = me.get("/api/position?rules=russian&fen=nonsense").await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_brought_in_is_stored_as_it_ended_and_can_be_reviewed() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut me = server.browser();
    let pdn = "[FEN \"W:We3,f4:Bc5,h8\"]\n1. e3-d4 c5:g5 0-1";
    let g = me.create(json!({"rules": "russian", "opponent": "hotseat", "position": pdn})).await;
    let id = g["id"].as_str().unwrap().to_string();
    let s = me.get(&format!("/api/games/{id}")).await.json();
    assert_eq!(
        (s["status"].as_str(), s["outcome"]["winner"].as_str()),
        (Some("finished"), Some("black"))
    );
    me.post(&format!("/api/games/{id}/review"), &json!({})).await;
    let v = done(&mut me, &id).await;
    assert_eq!(v["moves"][0]["nag"], "??", "{v}");
    // Only on one device: a game against the computer or a friend needs moves left.
    let r = me
        .post("/api/games", &json!({"rules": "russian", "opponent": "computer", "position": pdn}))
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("already over"), "{}", r.body);
    server.stop().await;
}
