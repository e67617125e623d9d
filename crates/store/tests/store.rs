//! The store's contract, run against SQLite always and against PostgreSQL when
//! `DOSKA_TEST_POSTGRES_URL` names a database (e.g. `postgres://doska@localhost/doska_test`).
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use doska_store::{
    GameEnd, GameRecord, Level, Mode, MoveCommit, Offer, Seat, Side, Status, Store, StoreError,
    Winner,
};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

fn unique() -> String {
    let n = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
    format!("{n:x}")
}

fn record(id: &str, rules: &str, mode: Mode, creator: &str) -> GameRecord {
    GameRecord {
        id: id.to_string(),
        rules: rules.to_string(),
        mode,
        level: (mode == Mode::Computer).then_some(Level::Hard),
        computer_side: (mode == Mode::Computer).then_some(Side::Black),
        creator: creator.to_string(),
        creator_side: Side::White,
        start_fen: "W:W21-32:B1-12".to_string(),
        white: Seat { player: Some(creator.to_string()), token_hash: Some("aa".into()) },
        black: match mode {
            Mode::Hotseat => {
                Seat { player: Some(creator.to_string()), token_hash: Some("aa".into()) }
            }
            _ => Seat::default(),
        },
        invite_hash: (mode == Mode::Friend).then(|| "bb".to_string()),
        seed: -42,
        status: if mode == Mode::Friend { Status::Waiting } else { Status::Playing },
        winner: None,
        reason: None,
        result_text: None,
        plies: 0,
        imported: 0,
        to_move: Side::White,
        rematch_of: None,
        rematch: None,
        created_at: 1000,
        updated_at: 1000,
        finished_at: None,
        draw_offer: None,
        rematch_offer: None,
        hints: 0,
    }
}

fn mv(ply: i64, notation: &str, to_move: Side) -> MoveCommit {
    MoveCommit { ply, notation: notation.to_string(), to_move, end: None }
}

async fn contract(store: Arc<dyn Store>) {
    let run = unique();
    let rules = format!("test-{run}");
    let alice = format!("alice-{run}");
    let bob = format!("bob-{run}");
    store.ping().await.unwrap();
    store.touch_player(&alice, 1).await.unwrap();
    store.touch_player(&alice, 2).await.unwrap();
    let key = format!("key-{run}");
    assert_eq!(store.setting_or_insert(&key, "first").await.unwrap(), "first");
    assert_eq!(store.setting_or_insert(&key, "second").await.unwrap(), "first");

    // A friend game: waiting, then the friend sits down; a second taker is refused.
    let friend = format!("f-{run}");
    store.create_game(&record(&friend, &rules, Mode::Friend, &alice), &[]).await.unwrap();
    let (g, moves) = store.game(&friend).await.unwrap().unwrap();
    assert_eq!((g.status, g.plies, moves.len()), (Status::Waiting, 0, 0));
    assert!(matches!(
        store.push_move(&friend, &mv(0, "c3-d4", Side::Black), 5).await,
        Err(StoreError::Conflict)
    ));
    assert!(store.take_seat(&friend, Side::Black, &bob, "cc", 10).await.unwrap());
    assert!(!store.take_seat(&friend, Side::Black, "eve", "dd", 11).await.unwrap());
    let (g, _) = store.game(&friend).await.unwrap().unwrap();
    assert_eq!(g.status, Status::Playing);
    assert_eq!(g.black, Seat { player: Some(bob.clone()), token_hash: Some("cc".into()) });

    // Moves append in order; a writer that expects another length loses.
    store.push_move(&friend, &mv(0, "c3-d4", Side::Black), 20).await.unwrap();
    store.push_move(&friend, &mv(1, "f6-g5", Side::White), 21).await.unwrap();
    assert!(matches!(
        store.push_move(&friend, &mv(1, "d4-e5", Side::Black), 22).await,
        Err(StoreError::Conflict)
    ));
    store.push_move(&friend, &mv(2, "g3-h4", Side::Black), 23).await.unwrap();
    let (g, moves) = store.game(&friend).await.unwrap().unwrap();
    assert_eq!((g.plies, g.to_move), (3, Side::Black));
    assert_eq!(moves, ["c3-d4", "f6-g5", "g3-h4"]);

    // A draw offer is kept where every instance sees it, changes only from what the writer
    // saw, and goes with the next move.
    store.set_offer(&friend, Offer::Draw, 3, None, Some(Side::Black)).await.unwrap();
    assert!(matches!(
        store.set_offer(&friend, Offer::Draw, 3, None, Some(Side::White)).await,
        Err(StoreError::Conflict)
    ));
    assert!(matches!(
        store.set_offer(&friend, Offer::Draw, 2, Some(Side::Black), None).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.game(&friend).await.unwrap().unwrap().0.draw_offer, Some(Side::Black));
    assert!(matches!(
        store.set_offer(&friend, Offer::Rematch, 3, None, Some(Side::Black)).await,
        Err(StoreError::Conflict)
    ));
    store.push_move(&friend, &mv(3, "h6-g5", Side::White), 24).await.unwrap();
    assert_eq!(store.game(&friend).await.unwrap().unwrap().0.draw_offer, None);
    store.truncate(&friend, 4, 3, Side::Black, 25).await.unwrap();

    // Presence: each instance's sockets on each seat, with the instance's last sign of life.
    let (one, two) = (format!("one-{run}"), format!("two-{run}"));
    store.set_presence(&friend, Side::White, &one, 2, 26).await.unwrap();
    store.set_presence(&friend, Side::Black, &two, 1, 27).await.unwrap();
    store.set_presence(&friend, Side::White, &one, 0, 28).await.unwrap();
    let alive = store.beat(&one, 29).await.unwrap();
    assert!(alive.contains(&(one.clone(), 29)));
    let rows = store.presence(&friend).await.unwrap();
    let rows: Vec<_> = rows
        .iter()
        .map(|p| (p.side, p.instance.as_str(), p.sockets, p.seen_at, p.alive_at))
        .collect();
    assert_eq!(
        rows,
        [(Side::Black, two.as_str(), 1, 27, 0), (Side::White, one.as_str(), 0, 28, 29)]
    );
    // Forgetting: rows of dead instances and rows left empty, both older than the cut.
    store.forget_presence(28).await.unwrap();
    let rows = store.presence(&friend).await.unwrap();
    assert_eq!(rows.iter().map(|p| p.side).collect::<Vec<_>>(), [Side::White]);
    store.forget_presence(30).await.unwrap();
    assert!(store.presence(&friend).await.unwrap().is_empty());

    // Moves sent at once are committed in groups, each still checked against its game.
    let many = format!("m-{run}");
    store.create_game(&record(&many, &rules, Mode::Hotseat, &alice), &[]).await.unwrap();
    let racers: Vec<_> = (0..8)
        .map(|i| {
            let (store, many) = (store.clone(), many.clone());
            tokio::spawn(async move {
                store.push_move(&many, &mv(0, &format!("m{i}"), Side::Black), 90).await
            })
        })
        .collect();
    let mut won = 0;
    for r in racers {
        match r.await.unwrap() {
            Ok(()) => won += 1,
            Err(StoreError::Conflict) => {}
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(won, 1, "one writer of ply 0 wins");
    let (g, moves) = store.game(&many).await.unwrap().unwrap();
    assert_eq!((g.plies, moves.len()), (1, 1));
    let chain: Vec<_> = (1..40)
        .map(|p| {
            let (store, many) = (store.clone(), many.clone());
            let side = if p % 2 == 0 { Side::Black } else { Side::White };
            tokio::spawn(async move { store.push_move(&many, &mv(p, "x", side), 91).await })
        })
        .collect();
    for r in chain {
        let _ = r.await.unwrap();
    }
    let (g, moves) = store.game(&many).await.unwrap().unwrap();
    assert_eq!(g.plies as usize, moves.len(), "plies and stored moves agree whatever the order");

    // Takeback keeps a prefix.
    store.truncate(&friend, 3, 1, Side::Black, 30).await.unwrap();
    assert!(matches!(
        store.truncate(&friend, 3, 1, Side::Black, 30).await,
        Err(StoreError::Conflict)
    ));
    let (g, moves) = store.game(&friend).await.unwrap().unwrap();
    assert_eq!((g.plies, moves), (1, vec!["c3-d4".to_string()]));

    // Lists: unfinished, then finished after a resignation.
    let open = store.player_games(&bob, false, 50).await.unwrap();
    assert_eq!(open.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(), [friend.as_str()]);
    let end = GameEnd {
        status: Status::Finished,
        winner: Some(Winner::White),
        reason: "resignation".into(),
        text: "Black resigned".into(),
    };
    assert!(matches!(store.finish(&friend, 5, &end, 40).await, Err(StoreError::Conflict)));
    store.finish(&friend, 1, &end, 40).await.unwrap();
    assert!(matches!(store.finish(&friend, 1, &end, 41).await, Err(StoreError::Conflict)));
    assert!(store.player_games(&bob, false, 50).await.unwrap().is_empty());
    let done = store.player_games(&bob, true, 50).await.unwrap();
    assert_eq!(done[0].winner, Some(Winner::White));
    assert_eq!(done[0].finished_at, Some(40));
    store.set_offer(&friend, Offer::Rematch, 0, None, Some(Side::White)).await.unwrap();
    assert_eq!(store.game(&friend).await.unwrap().unwrap().0.rematch_offer, Some(Side::White));
    assert!(store.set_rematch(&friend, "r1").await.unwrap());
    assert_eq!(store.game(&friend).await.unwrap().unwrap().0.rematch_offer, None);
    assert!(!store.set_rematch(&friend, "r2").await.unwrap());
    assert_eq!(store.review(&friend).await.unwrap(), None);
    store.save_review(&friend, 1000, "{\"status\":\"done\"}", 42).await.unwrap();
    store.save_review(&friend, 1000, "second", 43).await.unwrap();
    assert_eq!(store.review(&friend).await.unwrap().as_deref(), Some("{\"status\":\"done\"}"));
    store.hide(&bob, &friend).await.unwrap();
    store.hide(&bob, &friend).await.unwrap();
    assert!(store.player_games(&bob, true, 50).await.unwrap().is_empty());
    assert_eq!(store.player_games(&alice, true, 50).await.unwrap().len(), 1);

    // A computer game to move: listed as pending; a move that ends it is stored with the end.
    let cpu = format!("c-{run}");
    store
        .create_game(&record(&cpu, &rules, Mode::Computer, &alice), &["c3-d4".into()])
        .await
        .unwrap();
    let (g, moves) = store.game(&cpu).await.unwrap().unwrap();
    assert_eq!((g.plies, g.imported, moves.len()), (1, 1, 1), "imported moves are stored");
    store.push_move(&cpu, &mv(0, "c3-d4", Side::Black), 50).await.unwrap_err();
    store.push_move(&cpu, &mv(1, "f6-g5", Side::White), 50).await.unwrap();
    let mut g = record(&format!("c2-{run}"), &rules, Mode::Computer, &alice);
    g.to_move = Side::Black;
    store.create_game(&g, &[]).await.unwrap();
    assert!(store.pending_computer_games().await.unwrap().contains(&g.id));
    let last = MoveCommit {
        end: Some(GameEnd {
            status: Status::Finished,
            winner: Some(Winner::Black),
            reason: "no-pieces".into(),
            text: "White has no pieces".into(),
        }),
        ..mv(0, "b6:d4", Side::White)
    };
    store.push_move(&g.id, &last, 60).await.unwrap();
    assert!(!store.pending_computer_games().await.unwrap().contains(&g.id));

    // A hot-seat game counts for its creator's side, in its own bucket.
    let hot = format!("h-{run}");
    store.create_game(&record(&hot, &rules, Mode::Hotseat, &alice), &[]).await.unwrap();
    let draw = GameEnd {
        status: Status::Finished,
        winner: Some(Winner::Draw),
        reason: "agreement".into(),
        text: "agreed".into(),
    };
    store.finish(&hot, 0, &draw, 70).await.unwrap();

    let mine = doska_store::stats::player_buckets(&store.player_results(&alice).await.unwrap());
    let summary: Vec<_> =
        mine.iter().map(|b| (b.bucket.as_str(), b.wins, b.losses, b.draws)).collect();
    assert_eq!(summary, [("computer:hard", 0, 1, 0), ("friend", 1, 0, 0), ("hotseat", 0, 0, 1)]);
    let site = doska_store::stats::site_stats(&store.site_results().await.unwrap());
    let ours = site.iter().find(|s| s.rules == rules).unwrap();
    assert_eq!((ours.games, ours.white_wins, ours.black_wins, ours.draws), (3, 1, 1, 1));
    let counts = store.counts().await.unwrap();
    assert!(counts.closed_games >= 3 && counts.moves >= 3);
}

/// Plays `n` games at random through the store (created, moved, taken back, ended by a move or
/// by resignation, agreement or abort, or left open), then checks that the kept aggregates
/// equal a recount from the games.
async fn random_play_keeps_the_aggregates_exact(store: &Arc<dyn Store>, n: usize, seed: u64) {
    let mut x = seed;
    let mut rand = move |k: u64| {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (x >> 33) % k
    };
    let run = unique();
    for i in 0..n {
        let id = format!("agg-{run}-{i}");
        let rules = ["russian", "international", "ugolki"][rand(3) as usize];
        let mode = [Mode::Computer, Mode::Friend, Mode::Hotseat][rand(3) as usize];
        let mut g = record(&id, rules, mode, &format!("p{}", rand(5)));
        g.status = Status::Playing;
        let imported: Vec<String> = (0..rand(3)).map(|p| format!("m{p}")).collect();
        if rand(8) == 0 {
            // A whole game brought in as it ended.
            g.status = Status::Finished;
            g.winner = Some([Winner::White, Winner::Black, Winner::Draw][rand(3) as usize]);
            store.create_game(&g, &imported).await.unwrap();
            continue;
        }
        store.create_game(&g, &imported).await.unwrap();
        let mut plies = imported.len() as i64;
        for _ in 0..rand(6) {
            let to_move = if plies % 2 == 0 { Side::Black } else { Side::White };
            store.push_move(&id, &mv(plies, "x", to_move), 2000).await.unwrap();
            plies += 1;
        }
        if plies > 0 && rand(4) == 0 {
            store.truncate(&id, plies, plies - 1, Side::White, 2100).await.unwrap();
            plies -= 1;
        }
        let winner = [Winner::White, Winner::Black, Winner::Draw][rand(3) as usize];
        let finished = |winner| GameEnd {
            status: Status::Finished,
            winner: Some(winner),
            reason: "no-moves".into(),
            text: "t".into(),
        };
        match rand(4) {
            0 => {
                let mut last = mv(plies, "y", Side::White);
                last.end = Some(finished(winner));
                store.push_move(&id, &last, 2200).await.unwrap();
            }
            1 => store.finish(&id, plies, &finished(winner), 2300).await.unwrap(),
            2 => {
                let abort = GameEnd {
                    status: Status::Aborted,
                    winner: None,
                    reason: "aborted".into(),
                    text: "t".into(),
                };
                store.finish(&id, plies, &abort, 2300).await.unwrap();
                // A game ends once: a second end is refused and counted nowhere.
                let again = store.finish(&id, plies, &finished(winner), 2400).await;
                assert!(matches!(again, Err(StoreError::Conflict)), "{again:?}");
            }
            _ => {}
        }
    }
    let (mut site, counts) = store.recount().await.unwrap();
    let mut kept = store.site_results().await.unwrap();
    let key = |r: &doska_store::stats::SiteRow| (r.rules.clone(), r.winner.as_str().to_string());
    site.sort_by_key(key);
    kept.sort_by_key(key);
    assert_eq!(kept, site);
    assert_eq!(store.counts().await.unwrap(), counts);
}

#[tokio::test]
async fn sqlite_aggregates_stay_exact_through_play_and_a_restart() {
    let dir = std::env::temp_dir().join(format!("doska-store-agg-{}", unique()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.join("t.sqlite").display());
    let store = doska_store::open(&url).await.unwrap();
    random_play_keeps_the_aggregates_exact(&store, 60, 1).await;
    drop(store);
    let again = doska_store::open(&url).await.unwrap();
    random_play_keeps_the_aggregates_exact(&again, 60, 2).await;
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn sqlite_contract_and_reopen() {
    let dir = std::env::temp_dir().join(format!("doska-store-{}", unique()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.join("t.sqlite").display());
    let store = doska_store::open(&url).await.unwrap();
    contract(store.clone()).await;
    drop(store);
    // Migrations run again on an existing file without harm, and the data is there.
    let again = doska_store::open(&url).await.unwrap();
    assert!(again.counts().await.unwrap().closed_games >= 3);
    assert!(again.listen().await.unwrap().is_none());
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn postgres_contract_and_notify() {
    let Ok(url) = std::env::var("DOSKA_TEST_POSTGRES_URL") else {
        eprintln!("DOSKA_TEST_POSTGRES_URL not set: PostgreSQL store test skipped");
        return;
    };
    let a = doska_store::open(&url).await.unwrap();
    contract(a.clone()).await;
    random_play_keeps_the_aggregates_exact(&a, 40, 3).await;
    let restarted = doska_store::open(&url).await.unwrap();
    random_play_keeps_the_aggregates_exact(&restarted, 20, 4).await;
    // A second instance hears the first's writes, and not its own.
    let b = doska_store::open(&url).await.unwrap();
    let mut heard = b.listen().await.unwrap().expect("postgres listens");
    let id = format!("n-{}", unique());
    a.create_game(&record(&id, "russian", Mode::Friend, "p"), &[]).await.unwrap();
    assert!(a.take_seat(&id, Side::Black, "q", "tok", 1).await.unwrap());
    let got = tokio::time::timeout(std::time::Duration::from_secs(5), heard.recv()).await;
    assert_eq!(got.unwrap().as_deref(), Some(id.as_str()));

    // The listening connection is cut (as when PostgreSQL restarts): it says at once, and again
    // once it listens again, that changes may have been missed; then it hears the next ones.
    let cut = std::process::Command::new("psql")
        .args([url.as_str(), "-qtAc"])
        .arg(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
             WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
        )
        .output()
        .expect("psql runs");
    assert!(cut.status.success(), "{}", String::from_utf8_lossy(&cut.stderr));
    let wait = std::time::Duration::from_secs(5);
    let got = tokio::time::timeout(wait, heard.recv()).await.expect("heard after the cut");
    assert_eq!(got.as_deref(), Some(doska_store::EVERYTHING_CHANGED));
    let got = tokio::time::timeout(wait, heard.recv()).await.expect("heard once listening again");
    assert_eq!(got.as_deref(), Some(doska_store::EVERYTHING_CHANGED));
    let id2 = format!("n2-{}", unique());
    a.create_game(&record(&id2, "russian", Mode::Friend, "p"), &[]).await.unwrap();
    assert!(a.take_seat(&id2, Side::Black, "q", "tok", 1).await.unwrap());
    let got = tokio::time::timeout(wait, heard.recv()).await.expect("heard after reconnecting");
    assert_eq!(got.as_deref(), Some(id2.as_str()));
}

#[tokio::test]
async fn bad_url_says_what_is_accepted() {
    let e = doska_store::open("mysql://x").await.unwrap_err();
    assert!(e.to_string().contains("sqlite://FILE or postgres://"), "{e}");
}
