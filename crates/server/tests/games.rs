//! Whole games against the real server: two friends over WebSockets with a spectator, the
//! computer, a restart in the middle, and the offers (draw, rematch, abort, claim, takeback).
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Browser, Db, Server, Socket, my_turn, test_config};
use doska_server::{Computer, Level, RandomMover};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use serde_json::{Value, json};
use std::sync::Arc;

/// Plays random legal moves (by path and by text in turn) from the sockets until the game ends.
async fn play_out(sockets: &mut [&mut Socket], seed: u64, limit: usize) -> Value {
    let mut rng = StdRng::seed_from_u64(seed);
    for i in 0..limit {
        let plies = sockets[0].state["plies"].as_u64().unwrap();
        let s = sockets[0].state_where(|s| s["plies"].as_u64() >= Some(plies)).await;
        if s["status"] != "playing" {
            return s;
        }
        let Some(mover) = sockets.iter_mut().find(|k| my_turn(&k.state, &k.you)) else {
            // The computer's turn: wait for its move.
            sockets[0]
                .state_where(|s| s["plies"].as_u64() > Some(plies) || s["status"] != "playing")
                .await;
            continue;
        };
        let m = mover.state["legal_moves"].as_array().unwrap().choose(&mut rng).unwrap().clone();
        let msg = if i % 2 == 0 && !m["path"].as_array().unwrap().is_empty() {
            json!({"type": "move", "path": m["path"]})
        } else {
            json!({"type": "move", "text": m["notation"]})
        };
        mover.send(msg).await;
        for k in sockets.iter_mut() {
            k.state_where(|s| s["plies"].as_u64() > Some(plies) || s["status"] != "playing").await;
        }
    }
    panic!("the game did not end in {limit} moves");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn friends_play_to_the_end_watched_by_a_spectator() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let (mut alice, mut bob, mut eve) = (server.browser(), server.browser(), server.browser());
    let created = alice
        .create(json!({"rules": "russian", "opponent": "friend", "color": "white",
                       "position": "W:Wc3,e3,g3,a1:Bb6,d6,h6,f8"}))
        .await;
    let id = created["id"].as_str().unwrap();
    let invite = created["invite"].as_str().unwrap();
    assert_eq!(created["you"], "white");
    assert!(created["invite_url"].as_str().unwrap().ends_with(&format!("?invite={invite}")));
    assert!(invite.len() >= 32 && created["token"].as_str().unwrap().len() >= 32);

    let mut a = alice.socket(id, None).await;
    assert_eq!((a.you.as_str(), a.state["status"].as_str()), ("white", Some("waiting")));
    assert_eq!(a.state["seats"]["black"]["kind"], "open");
    let m = a.state["legal_moves"].as_array().unwrap().len();
    assert_eq!(m, 0, "no moves are offered while waiting");
    let e = a.refused(json!({"type": "move", "text": "c3-d4"})).await;
    assert!(e.contains("waiting for your friend"), "{e}");

    // The friend takes the seat with the invitation; later visitors only watch.
    let bad = bob.post(&format!("/api/games/{id}/join"), &json!({"invite": "guess"})).await;
    assert_eq!(bad.status, 403, "{}", bad.body);
    let joined = bob.post(&format!("/api/games/{id}/join"), &json!({"invite": invite})).await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    assert_eq!(joined.json()["you"], "black");
    let late = eve.post(&format!("/api/games/{id}/join"), &json!({"invite": invite})).await;
    assert_eq!(late.status, 409);
    assert!(late.json()["error"].as_str().unwrap().contains("watch"));
    let again = alice.post(&format!("/api/games/{id}/join"), &json!({"invite": invite})).await;
    assert_eq!(again.json()["you"], "white", "the creator reopening the link keeps its seat");

    let mut b = bob.socket(id, None).await;
    let mut w = eve.socket(id, None).await;
    assert_eq!((b.you.as_str(), w.you.as_str()), ("black", "spectator"));
    a.state_where(|s| s["status"] == "playing" && s["seats"]["black"]["connected"] == true).await;

    let e = b.refused(json!({"type": "move", "text": "b6-a5"})).await;
    assert_eq!(e, "not your turn: white is to move");
    let e = w.refused(json!({"type": "move", "text": "c3-d4"})).await;
    assert_eq!(e, "spectators cannot move");
    let e = w.refused(json!({"type": "resign"})).await;
    assert_eq!(e, "spectators cannot resign");

    let end = play_out(&mut [&mut a, &mut b], 1, 1000).await;
    assert_eq!(end["status"], "finished");
    assert!(end["outcome"]["reason"].as_str().is_some_and(|r| !r.is_empty()), "{end}");
    assert_eq!(end["legal_moves"].as_array().unwrap().len(), 0);
    let seen = w.state_where(|s| s["status"] == "finished").await;
    assert_eq!(seen["moves"], end["moves"], "the spectator saw the same game");

    // Listed, replayable, exportable, counted.
    let list = alice.get("/api/games").await.json();
    assert_eq!(list["finished"][0]["id"], id);
    assert_eq!(list["unfinished"].as_array().unwrap().len(), 0);
    let replay = eve.get(&format!("/api/games/{id}/replay")).await.json();
    assert_eq!(replay["plies"].as_array().unwrap().len(), end["plies"].as_u64().unwrap() as usize);
    assert_eq!(replay["plies"].as_array().unwrap().last().unwrap()["fen"], end["fen"]);
    let pdn = eve.get(&format!("/api/games/{id}/pdn")).await;
    assert_eq!(pdn.status, 200);
    assert!(
        pdn.body.contains("[FEN \"W:Wc3,e3,g3,a1:Bb6,d6,h6,f8") || pdn.body.contains("[FEN"),
        "{}",
        pdn.body
    );
    let result = match end["outcome"]["winner"].as_str() {
        Some("white") => "1-0",
        Some("black") => "0-1",
        _ => "1/2-1/2",
    };
    assert!(pdn.body.contains(&format!("[Result \"{result}\"]")), "{}", pdn.body);
    let stats = bob.get("/api/stats").await.json();
    let mine = &stats["mine"][0];
    assert_eq!(
        (mine["rules"].as_str(), mine["bucket"].as_str(), mine["games"].as_u64()),
        (Some("russian"), Some("friend"), Some(1))
    );
    assert_eq!(stats["site"][0]["games"], 1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_answers_takes_back_and_plays_to_the_end() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut me = server.browser();
    let created = me
        .create(
            json!({"rules": "russian", "opponent": "computer", "level": "easy", "color": "black"}),
        )
        .await;
    let id = created["id"].as_str().unwrap();
    let mut s = me.socket(id, None).await;
    assert_eq!(s.you, "black");
    assert_eq!(s.state["computer"], "white");
    // The computer has White and moves first, on its own.
    s.state_where(|s| s["plies"] == 1 && s["turn"] == "black").await;
    let first = s.state["moves"][0].clone();
    let e = s.refused(json!({"type": "takeback"})).await;
    assert_eq!(e, "there is no move of yours to take back");
    let e = s.refused(json!({"type": "draw-offer"})).await;
    assert_eq!(e, "the computer does not take draw offers");
    let m = s.state["legal_moves"][0]["notation"].as_str().unwrap().to_string();
    s.play(&m).await;
    s.state_where(|s| s["plies"] == 3).await;
    s.send(json!({"type": "takeback"})).await;
    let back = s.state_where(|s| s["plies"] == 1).await;
    assert_eq!((back["turn"].as_str(), &back["moves"][0]), (Some("black"), &first));

    let end = play_out(&mut [&mut s], 2, 1000).await;
    assert_eq!(end["status"], "finished");

    // A rematch swaps the colours: the player has White now and the computer waits.
    s.send(json!({"type": "rematch"})).await;
    let done = s.state_where(|s| s["rematch"].is_string()).await;
    let next = done["rematch"].as_str().unwrap();
    let r = me.socket(next, None).await;
    assert_eq!((r.you.as_str(), r.state["computer"].as_str()), ("white", Some("black")));
    assert_eq!(r.state["rematch_of"], id);
    let stats = me.get("/api/stats").await.json();
    assert_eq!(stats["mine"][0]["bucket"], "computer:easy");
    assert_eq!(stats["mine"][0]["games"], 1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ugolki_against_the_computer() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut me = server.browser();
    let created = me
        .create(
            json!({"rules": "ugolki", "opponent": "computer", "level": "insane", "color": "white"}),
        )
        .await;
    let mut s = me.socket(created["id"].as_str().unwrap(), None).await;
    assert_eq!(s.state["rules"], "ugolki");
    assert_eq!(s.state["pieces"].as_array().unwrap().len(), 18);
    assert_eq!(s.state["warning"], json!({"white": false, "black": false}));
    let m = s.state["legal_moves"][0].clone();
    s.send(json!({"type": "move", "path": m["path"]})).await;
    s.state_where(|s| s["plies"] == 2).await;
    server.stop().await;
}

/// Never answers: the computer's move stays pending.
#[derive(Debug)]
struct Silent;

impl Computer for Silent {
    fn choose(&self, _: &doska_rules::AnyGame, _: Level, _: u64) -> Option<String> {
        None
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_loses_nothing_and_makes_the_pending_computer_move() {
    let db = Db::new();
    let first = Server::start_with(&db.url(), Arc::new(Silent), test_config()).await;
    let (mut alice, mut bob) = (first.browser(), first.browser());
    let created = alice
        .create(json!({"rules": "international", "opponent": "friend", "color": "white"}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    bob.post(&format!("/api/games/{id}/join"), &json!({"invite": created["invite"]})).await;
    let mut a = alice.socket(&id, None).await;
    let mut b = bob.socket(&id, None).await;
    a.play("32-28").await;
    b.state_where(|s| s["plies"] == 1).await;
    b.play("19-23").await;
    a.state_where(|s| s["plies"] == 2).await;
    a.play("28x19").await;
    // A computer game whose answer is pending when the server stops.
    let cpu =
        alice.create(json!({"rules": "russian", "opponent": "computer", "color": "white"})).await;
    let cpu = cpu["id"].as_str().unwrap().to_string();
    let mut c = alice.socket(&cpu, None).await;
    c.play("c3-d4").await;
    first.stop().await;
    // Sockets are closed on shutdown (after the states still on their way).
    while a.next().await.is_some() {}

    let second = Server::start(&db).await;
    let (mut alice, bob) = (alice.at(&second), bob.at(&second));
    let mut a = alice.socket(&id, None).await;
    assert_eq!(a.state["moves"], json!(["32-28", "19-23", "28x19"]));
    assert_eq!(a.state["turn"], "black");
    let mut b = bob.socket(&id, None).await;
    assert_eq!(b.you, "black");
    b.play("14x23").await;
    a.state_where(|s| s["plies"] == 4).await;
    // The pending computer move is made without anyone connecting.
    let mut made = false;
    for _ in 0..100 {
        let s = alice.get(&format!("/api/games/{cpu}")).await.json();
        if s["plies"] == 2 {
            assert_eq!((s["turn"].as_str(), s["you"].as_str()), (Some("white"), Some("white")));
            made = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(made, "the computer did not move after the restart");
    let list = alice.get("/api/games").await.json();
    assert_eq!(list["unfinished"].as_array().unwrap().len(), 2);
    second.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abort_claim_rematch_and_draw_between_friends() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let (mut alice, mut bob) = (server.browser(), server.browser());

    // Aborted while nobody took the other seat.
    let created =
        alice.create(json!({"rules": "russian", "opponent": "friend", "color": "white"})).await;
    let mut a = alice.socket(created["id"].as_str().unwrap(), None).await;
    assert_eq!(a.state["can_abort"], true);
    let e = a.refused(json!({"type": "resign"})).await;
    assert!(e.contains("abort the game instead"), "{e}");
    a.send(json!({"type": "abort"})).await;
    let s = a.state_where(|s| s["status"] == "aborted").await;
    assert_eq!(s["outcome"]["reason"], "aborted");
    assert_eq!(s["outcome"]["winner"], Value::Null);

    // Claimed when the opponent stays away past the stated time.
    let created =
        alice.create(json!({"rules": "russian", "opponent": "friend", "color": "white"})).await;
    let id = created["id"].as_str().unwrap().to_string();
    bob.post(&format!("/api/games/{id}/join"), &json!({"invite": created["invite"]})).await;
    let mut a = alice.socket(&id, None).await;
    let mut b = bob.socket(&id, None).await;
    a.play("c3-d4").await;
    b.state_where(|s| s["plies"] == 1).await;
    b.play("f6-g5").await;
    let e = a.refused(json!({"type": "abort"})).await;
    assert!(e.starts_with("both sides have moved"), "{e}");
    let e = a.refused(json!({"type": "claim-win"})).await;
    assert_eq!(e, "your opponent is connected: the game cannot be claimed");
    drop(b);
    let away = a.state_where(|s| s["seats"]["black"]["connected"] == false).await;
    assert!(away["seats"]["black"]["away_since"].is_i64());
    assert_eq!(away["claim_after_ms"], 300);
    let e = a.refused(json!({"type": "claim-win"})).await;
    assert!(e.contains("can be claimed after"), "{e}");
    tokio::time::sleep(std::time::Duration::from_millis(350)).await;
    a.send(json!({"type": "claim-win"})).await;
    let won = a.state_where(|s| s["status"] == "finished").await;
    assert_eq!(
        (won["outcome"]["winner"].as_str(), won["outcome"]["reason"].as_str()),
        (Some("white"), Some("abandoned"))
    );

    // Rematch by both, colours swapped, then a draw by agreement.
    a.send(json!({"type": "rematch"})).await;
    a.state_where(|s| s["rematch_offer"] == "white").await;
    let mut b = bob.socket(&id, None).await;
    b.send(json!({"type": "rematch"})).await;
    let s = b.state_where(|s| s["rematch"].is_string()).await;
    let next = s["rematch"].as_str().unwrap().to_string();
    let mut a2 = alice.socket(&next, None).await;
    let mut b2 = bob.socket(&next, None).await;
    assert_eq!((a2.you.as_str(), b2.you.as_str()), ("black", "white"));
    assert_eq!(b2.state["status"], "playing");
    let e = a2.refused(json!({"type": "draw-accept"})).await;
    assert_eq!(e, "there is no draw offer to answer");
    b2.send(json!({"type": "draw-offer"})).await;
    a2.state_where(|s| s["draw_offer"] == "white").await;
    a2.send(json!({"type": "draw-accept"})).await;
    let drawn = b2.state_where(|s| s["status"] == "finished").await;
    assert_eq!(
        (drawn["outcome"]["winner"].as_str(), drawn["outcome"]["reason"].as_str()),
        (Some("draw"), Some("agreement"))
    );

    // Stats: one win and one draw with friends; the site counts both.
    let stats = alice.get("/api/stats").await.json();
    let f = &stats["mine"][0];
    assert_eq!(
        (f["wins"].as_u64(), f["draws"].as_u64(), f["win_pct"].as_f64()),
        (Some(1), Some(1), Some(50.0))
    );
    let site = &stats["site"][0];
    assert_eq!((site["white_wins"].as_u64(), site["draws"].as_u64()), (Some(1), Some(1)));

    // Removed from the list, the game itself stays.
    let r = alice.request("DELETE", &format!("/api/games/{id}"), None).await;
    assert_eq!(r.status, 204);
    let list = alice.get("/api/games").await.json();
    assert!(list["finished"].as_array().unwrap().iter().all(|g| g["id"] != id.as_str()));
    assert_eq!(alice.get(&format!("/api/games/{id}")).await.status, 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hotseat_and_imported_games() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut me: Browser = server.browser();
    let pdn = "[Variant \"russian\"]\n[Result \"*\"]\n\n1. c3-d4 f6-g5 2. d4-e5 *";
    let created =
        me.create(json!({"rules": "international", "opponent": "hotseat", "position": pdn})).await;
    assert_eq!(created["you"], "both");
    let mut s = me.socket(created["id"].as_str().unwrap(), None).await;
    assert_eq!(s.state["rules"], "russian", "the PDN's Variant tag wins");
    assert_eq!(s.state["imported"], 3);
    assert_eq!(s.state["moves"], json!(["c3-d4", "f6-g5", "d4-e5"]));
    assert_eq!(s.state["must_capture"], json!(["d6"]));
    // Black must capture e5: the rules' reason comes back.
    let e = s.refused(json!({"type": "move", "text": "h6-g5"})).await;
    assert!(e.starts_with("capture is compulsory"), "{e}");
    let cap = s.state["legal_moves"][0].clone();
    assert!(!cap["captures"].as_array().unwrap().is_empty());
    s.send(json!({"type": "move", "path": cap["path"]})).await;
    let after = s.state_where(|s| s["plies"] == 4).await;
    // One side has moved since the import: resigning is refused, aborting offered.
    assert_eq!(after["can_abort"], true);
    let e = s.refused(json!({"type": "resign"})).await;
    assert!(e.contains("abort the game instead"), "{e}");
    let reply = after["legal_moves"][0]["path"].clone();
    s.send(json!({"type": "move", "path": reply})).await;
    let after = s.state_where(|s| s["plies"] == 5).await;
    assert_eq!(after["can_abort"], false);
    s.send(json!({"type": "resign"})).await;
    let end = s.state_where(|s| s["status"] == "finished").await;
    assert_eq!(
        (end["outcome"]["winner"].as_str(), end["outcome"]["reason"].as_str()),
        (Some("white"), Some("resignation")),
        "Black, to move, resigned"
    );
    let pdn = me.get(&format!("/api/games/{}/pdn", created["id"].as_str().unwrap())).await;
    assert!(pdn.body.contains("[Result \"1-0\"]"), "{}", pdn.body);
    server.stop().await;
    let _ = RandomMover;
}

/// The project's rule book is served as web pages: every rule set and Ugolki preset has one,
/// the pages link to each other, and an unknown page says which pages there are.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rule_book_is_served() {
    let db = Db::new();
    let server = Server::start(&db).await;
    let mut me = server.browser();
    let index = me.get("/rulebook").await;
    assert_eq!(index.status, 200);
    assert!(index.body.contains("<h1 id=\"doskas-rule-book\">"), "{}", index.body);
    assert!(index.body.contains("href=\"russian.md\""), "the index links the pages");
    for id in ["russian", "international", "lasca", "ugolki", "ugolki-brainking-10"] {
        for path in [format!("/rulebook/{id}"), format!("/rulebook/{id}.md")] {
            let page = me.get(&path).await;
            assert_eq!(page.status, 200, "{path}");
            assert!(page.body.contains("<h2 id="), "{path}: headings with anchors");
        }
    }
    let missing = me.get("/rulebook/checkers-on-the-moon").await;
    assert_eq!(missing.status, 404);
    assert!(missing.body.contains("checkers-on-the-moon") && missing.body.contains("frisian.md"));
    server.stop().await;
}
