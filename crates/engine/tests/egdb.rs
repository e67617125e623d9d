//! Endgame databases: the index counts the positions published for checkers, every value
//! agrees with its successors' and with its colour-swapped mirror, wins and losses agree with
//! a full-width search that reaches the end, the rule book's known endings come out as the
//! books say, the file is read back exactly and a wrong one refused, and the search plays by
//! an installed database.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::mirrored;

use doska_engine::egdb::{self, Board, Egdb, Slice, Value};
use doska_engine::{Features, Limits, Searcher, Terms, WIN, WIN_BOUND};
use doska_rules::{AnyGame, Position, RuleSet, Variant};
use std::sync::OnceLock;

fn db(v: Variant, pieces: usize) -> &'static Egdb {
    static RUSSIAN: OnceLock<Egdb> = OnceLock::new();
    static AMERICAN: OnceLock<Egdb> = OnceLock::new();
    let cell = match v {
        Variant::Russian => &RUSSIAN,
        Variant::American => &AMERICAN,
        _ => panic!("no test database for {v}"),
    };
    let db = cell.get_or_init(|| egdb::build(v, pieces, 2, |_| {}).unwrap());
    assert_eq!(db.pieces(), pieces);
    db
}

/// Schaeffer et al., "Checkers is solved" (Science, 2007), table 1: positions with n pieces
/// (men off their crowning row, either side or both, the side to move not counted).
#[test]
fn the_index_counts_the_published_checkers_positions() {
    let board = Board::new(Variant::American);
    for (n, published) in [(1usize, 120u64), (2, 6_972), (3, 261_224), (4, 7_092_774)] {
        let mut count = 0;
        for white in 0..=n {
            for wm in 0..=white {
                for bm in 0..=n - white {
                    let s = Slice {
                        wm: wm as u8,
                        wk: (white - wm) as u8,
                        bm: bm as u8,
                        bk: (n - white - bm) as u8,
                    };
                    count += board.positions(s);
                }
            }
        }
        assert_eq!(count, published, "{n} pieces");
    }
}

/// Every `step`-th position of every slice of `db`.
fn positions(db: &Egdb, step: usize) -> Vec<Position> {
    let board = Board::new(db.variant());
    let mut out = Vec::new();
    for s in db.slices() {
        let size = board.size(s);
        for i in (0..2 * size).step_by(step) {
            let turn = if i < size { doska_rules::Color::White } else { doska_rules::Color::Black };
            out.extend(board.position(s, i % size, turn));
        }
    }
    out
}

#[test]
fn every_value_agrees_with_its_successors_and_its_mirror() {
    for v in [Variant::Russian, Variant::American] {
        let db = db(v, 4);
        // White to move: Black to move is the mirrored slice's.
        let (checked, bad) = db.verify(5, 5);
        assert!(checked > 1_000_000, "{v}: {checked}");
        assert!(bad.is_empty(), "{v}: {bad:?}");
        let mut kinds = [0usize; 3];
        for pos in positions(db, 101) {
            let value = db.probe(&pos).unwrap();
            assert_eq!(db.probe(&mirrored(&pos)), Some(value), "{v} {}", pos.to_fen());
            kinds[match value {
                Value::Win(_) => 0,
                Value::Loss(_) => 1,
                Value::Draw => 2,
            }] += 1;
        }
        assert!(kinds.iter().all(|&k| k > 100), "{v}: won, lost, drawn {kinds:?}");
    }
}

#[test]
fn wins_and_losses_agree_with_a_full_width_search_to_the_end() {
    let terms = Terms { egdb: false, ..Terms::ALL };
    let features = Features::ALL.without("probcut,aspiration,truncation").unwrap();
    for v in [Variant::Russian, Variant::American] {
        let db = db(v, 4);
        let mut tried = [0usize; 3];
        for pos in positions(db, 997) {
            let value = db.probe(&pos).unwrap();
            let game = AnyGame::import(&pos.to_fen(), RuleSet::Draughts(v)).unwrap();
            if game.outcome().is_some() {
                continue;
            }
            let (want, depth) = match value {
                Value::Win(d) if d <= 11 => (Some(WIN - d as i32), d as u32),
                Value::Loss(d) if d <= 11 => (Some(-(WIN - d as i32)), d as u32),
                Value::Draw => (None, 7),
                _ => continue,
            };
            let slot = if want.is_none() { 2 } else { (want < Some(0)) as usize };
            if tried[slot] >= 60 {
                continue;
            }
            tried[slot] += 1;
            let mut s = Searcher::new(4, terms);
            s.set_features(features);
            let limits = Limits { depth: Some(depth + 1), nodes: None, movetime: None };
            let a = doska_engine::analyze(&mut s, &game, limits, |_| {});
            match want {
                Some(score) => assert_eq!(a.score, score, "{v} {}: {value:?}", pos.to_fen()),
                None => assert!(
                    a.score.abs() < WIN_BOUND,
                    "{v} {}: drawn, search {}",
                    pos.to_fen(),
                    a.score
                ),
            }
        }
        assert!(tried.iter().all(|&t| t >= 20), "{v}: {tried:?}");
    }
}

fn probe(v: Variant, fen: &str) -> Value {
    db(v, 4).probe(&Position::from_fen(v, fen).unwrap()).unwrap()
}

#[test]
fn the_books_endings_come_out_as_the_books_say() {
    // Russian: three kings against a lone king win by Petrov's triangle when the lone king is
    // off the main road (a1-h8), inside the 15 moves the rule book gives (30 plies)...
    let Value::Win(d) = probe(Variant::Russian, "W:WKc1,Ke1,Kg1:BKh2") else { panic!() };
    assert!(d <= 30, "{d}");
    // ... and draw when it holds the main road.
    assert_eq!(probe(Variant::Russian, "W:WKc1,Ke1,Kg1:BKa1"), Value::Draw);
    assert_eq!(probe(Variant::Russian, "W:WKb8,Kd8,Kf8:BKd4"), Value::Draw);
    // Two kings against one do not win on a board of flying kings...
    assert_eq!(probe(Variant::Russian, "W:WKc1,Ke1:BKh2"), Value::Draw);
    // ... and do in checkers, whose kings move one square, even from the double corner.
    assert!(matches!(probe(Variant::American, "W:WK18,K19:BK1"), Value::Win(_)));
    assert!(matches!(probe(Variant::American, "B:WK18,K19:BK1"), Value::Loss(_)));
}

#[test]
fn a_position_no_slice_holds_is_not_in_the_database() {
    // A man left on his crowning row (the rules never make one; a hand-built position can).
    let db = db(Variant::Russian, 4);
    let g = &Variant::Russian.rules().geometry;
    let mut pos = Position::empty(Variant::Russian, doska_rules::Color::Black);
    let man = |color| Some(doska_rules::Piece { color, king: false });
    pos.put(g.square_at(7, 7).unwrap(), man(doska_rules::Color::White));
    pos.put(g.square_at(2, 2).unwrap(), man(doska_rules::Color::Black));
    assert_eq!(db.probe(&pos), None);
    // Five pieces: more than it holds.
    let five = Position::from_fen(Variant::Russian, "W:Wa1,c1,e1:Bh8,f8").unwrap();
    assert_eq!(db.probe(&five), None);
}

#[test]
fn the_file_is_read_back_exactly_and_a_wrong_one_refused() {
    let db = db(Variant::Russian, 4);
    let dir = std::env::temp_dir().join(format!("doska-egdb-test-{}", std::process::id()));
    let (file, size) = db.save(&dir).unwrap();
    assert!(size > 1000 && size < 20_000_000, "{size} bytes");
    let back = Egdb::load(&dir, Variant::Russian).unwrap().unwrap();
    for pos in positions(db, 53) {
        assert_eq!(back.probe(&pos), db.probe(&pos));
    }
    // Absent: no database, no error.
    assert!(Egdb::load(&dir, Variant::Brazilian).unwrap().is_none());
    // Another rule set's file, a cut file, not a database: refused, saying why.
    std::fs::copy(&file, egdb::path(&dir, Variant::Czech)).unwrap();
    let err = Egdb::load(&dir, Variant::Czech).unwrap_err().to_string();
    assert!(err.contains("russian") && err.contains("doska egdb build"), "{err}");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let err = Egdb::load(&dir, Variant::Russian).unwrap_err().to_string();
    assert!(err.contains("ends in"), "{err}");
    std::fs::write(&file, b"nonsense").unwrap();
    let err = Egdb::load(&dir, Variant::Russian).unwrap_err().to_string();
    assert!(err.contains("header"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_file_is_refused_and_never_read_wrong() {
    // Every byte changed, and every length cut, of a small database's file: refused with a
    // reason, or (a change the format cannot see, in a length it then checks) never a panic.
    let small = egdb::build(Variant::Russian, 2, 1, |_| {}).unwrap();
    let dir = std::env::temp_dir().join(format!("doska-egdb-damage-{}", std::process::id()));
    let (file, _) = small.save(&dir).unwrap();
    let bytes = std::fs::read(&file).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let whole = Egdb::parse(&bytes, Variant::Russian, &file).unwrap();
    assert_eq!(whole.slices(), small.slices());
    for cut in 0..bytes.len() {
        assert!(Egdb::parse(&bytes[..cut], Variant::Russian, &file).is_err(), "cut at {cut}");
    }
    let mut refused = 0;
    for at in 0..bytes.len() {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x5a;
        refused += Egdb::parse(&damaged, Variant::Russian, &file).is_err() as usize;
    }
    // The compressed tables carry zlib's checksum: a changed byte there is found.
    assert!(refused * 10 >= bytes.len() * 9, "{refused} of {} refused", bytes.len());
}

#[test]
fn the_search_plays_by_an_installed_database() {
    let db = db(Variant::Russian, 4);
    egdb::install(db);
    let game = |fen: &str| AnyGame::import(fen, RuleSet::Draughts(Variant::Russian)).unwrap();
    let limits = Limits { depth: Some(2), nodes: None, movetime: None };
    // Petrov's triangle: at depth 2 the search knows the whole win from the database.
    let Value::Win(d) = probe(Variant::Russian, "W:WKc1,Ke1,Kg1:BKh2") else { panic!() };
    let mut s = Searcher::new(4, Terms::ALL);
    let a = doska_engine::analyze(&mut s, &game("W:WKc1,Ke1,Kg1:BKh2"), limits, |_| {});
    assert_eq!(a.score, WIN - d as i32);
    // Its line is the whole win: played out, Black has nothing left.
    assert_eq!(a.pv.len(), d as usize, "{:?}", a.pv);
    let mut g = game("W:WKc1,Ke1,Kg1:BKh2");
    for m in &a.pv {
        g.play(m).unwrap();
    }
    assert_eq!(g.outcome().map(|o| o.winner), Some(doska_rules::Winner::White), "{:?}", a.pv);
    // Without it, depth 2 sees no win; with it, a drawn ending is a draw.
    let mut s = Searcher::new(4, Terms { egdb: false, ..Terms::ALL });
    let a = doska_engine::analyze(&mut s, &game("W:WKc1,Ke1,Kg1:BKh2"), limits, |_| {});
    assert!(a.score.abs() < WIN_BOUND, "{}", a.score);
    let mut s = Searcher::new(4, Terms::ALL);
    let a = doska_engine::analyze(&mut s, &game("W:WKc1,Ke1,Kg1:BKa1"), limits, |_| {});
    assert_eq!(a.score, 0);
}

#[test]
fn in_poddavki_the_line_gives_every_piece_away() {
    // Poddavki's goal is the opposite: a side left without a piece or a move has won. The
    // database's line plays a win to that end.
    let db: &'static Egdb =
        Box::leak(Box::new(egdb::build(Variant::Poddavki, 3, 1, |_| {}).unwrap()));
    egdb::install(db);
    let (pos, d) = positions(db, 7)
        .into_iter()
        .find_map(|p| match db.probe(&p) {
            Some(Value::Win(d)) if (5..=9).contains(&d) => Some((p, d)),
            _ => None,
        })
        .unwrap();
    let mut game = AnyGame::import(&pos.to_fen(), RuleSet::Draughts(Variant::Poddavki)).unwrap();
    let mut s = Searcher::new(4, Terms::ALL);
    let limits = Limits { depth: Some(2), nodes: None, movetime: None };
    let a = doska_engine::analyze(&mut s, &game, limits, |_| {});
    assert_eq!(a.score, WIN - d as i32, "{}", pos.to_fen());
    assert_eq!(a.pv.len(), d as usize, "{} {:?}", pos.to_fen(), a.pv);
    let winner = game.turn();
    for m in &a.pv {
        game.play(m).unwrap();
    }
    let o = game.outcome().unwrap();
    assert_eq!(
        o.winner,
        if winner == doska_rules::Color::White {
            doska_rules::Winner::White
        } else {
            doska_rules::Winner::Black
        }
    );
}

/// The saved positions of `doska learn`'s games (`Data::save`): each FEN with its game.
fn learned_positions(v: Variant, terms: Terms) -> Vec<(Position, u32)> {
    use doska_engine::learn::{Selfplay, selfplay};
    let plan = Selfplay { games: 16, nodes: 100, random_plies: 2, threads: 1, seed: 3, terms };
    let text = selfplay(v, &plan, |_| {}).save(v).unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            (Position::from_fen(v, cols[0]).unwrap(), cols[3].parse().unwrap())
        })
        .collect()
}

#[test]
fn learning_games_end_where_the_database_knows_the_result() {
    let v = Variant::American;
    let db = db(v, 4);
    egdb::install(db);
    let drawn_in_db = |(p, _): &&(Position, u32)| db.probe(p) == Some(Value::Draw);
    // Played out by the players' small searches, games pass through positions of four pieces
    // or fewer, some of them drawn, and go on.
    let without = learned_positions(v, Terms { egdb: false, ..Terms::ALL });
    assert!(without.iter().filter(drawn_in_db).count() > 0);
    // With the database, a game ends at the first position it holds: a draw there is never
    // played on (a win may be, where the draw rules could end it before the win is complete).
    let with = learned_positions(v, Terms::ALL);
    assert_eq!(with.iter().filter(drawn_in_db).count(), 0);
    let small = |ps: &[(Position, u32)]| ps.iter().filter(|(p, _)| db.probe(p).is_some()).count();
    assert!(small(&with) * 4 < small(&without), "{} {}", small(&with), small(&without));
    // Every game still has its positions before the end.
    let games = |ps: &[(Position, u32)]| {
        ps.iter().map(|(_, g)| *g).collect::<std::collections::BTreeSet<_>>().len()
    };
    assert_eq!(games(&with), 16);
}
