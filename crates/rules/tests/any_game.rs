//! The game facade the CLI and the server share: every rule set, text in and out.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use doska_rules::pdn::Note;
use doska_rules::{AnyGame, Color, RuleSet, Variant, game::Winner};

fn rules(text: &str) -> RuleSet {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays `plies` pseudo-random legal moves, then checks export/import round-trips.
fn round_trip(rs: RuleSet, seed: u64, plies: usize) {
    let mut g = AnyGame::new(rs);
    let mut x = seed | 1;
    for _ in 0..plies {
        let legal = g.legal_moves();
        if legal.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let m = &legal[(x % legal.len() as u64) as usize];
        // Alternate between move text and the path of squares.
        let played = if x.is_multiple_of(2) { g.play(&m.notation) } else { g.play_path(&m.path) };
        let played = played.unwrap_or_else(|e| panic!("{rs} {}: {e}", m.notation));
        assert_eq!(played.fen, m.fen);
    }
    let text = g.export(&[("Event", "test")]);
    let back = AnyGame::import(&text, rs).unwrap_or_else(|e| panic!("{rs}: {e}\n{text}"));
    assert_eq!(back.fen(), g.fen(), "{rs}\n{text}");
    assert_eq!(back.plies(), g.plies());
    assert_eq!(back.outcome(), g.outcome());
    assert_eq!(back.history(), g.history());
    // With a review's notes (marks glued to their moves, evaluations in braces) it reads back
    // the same, and every move keeps its mark on its own line.
    let notes: Vec<Note> = (0..g.plies())
        .map(|i| Note {
            suffix: ["", "?!", "??"][i % 3].to_string(),
            comment: if i % 2 == 0 {
                format!("[%eval {:.2}]", i as f64 / 10.0)
            } else {
                String::new()
            },
        })
        .collect();
    let noted = g.export_notes(&[("Event", "test")], &notes);
    let again = AnyGame::import(&noted, rs).unwrap_or_else(|e| panic!("{rs}: {e}\n{noted}"));
    assert_eq!(again.history(), g.history(), "{rs}\n{noted}");
    assert!(noted.lines().all(|l| !l.starts_with('?')), "{noted}");
}

#[test]
fn every_rule_set_round_trips_through_its_game_text() {
    for v in Variant::ALL {
        round_trip(RuleSet::Draughts(v), 11, 60);
    }
    for u in ["ugolki", "ugolki-brainking", "ugolki-brainking-10", "ugolki:home=4x4,dirs=8"] {
        round_trip(rules(u), 5, 90);
    }
}

#[test]
fn a_bare_fen_imports_as_a_position() {
    let g = AnyGame::import("W:Wc3:Bd4", RuleSet::Draughts(Variant::Russian)).unwrap();
    assert_eq!(g.must_capture(), vec!["c3".to_string()]);
    assert_eq!(g.legal_moves().len(), 1);
    assert!(AnyGame::import("W:Wz9:B", RuleSet::Draughts(Variant::Russian)).is_err());
}

#[test]
fn resignation_and_ugolki_warning() {
    let mut g = AnyGame::new(rules("ugolki"));
    g.resign(Color::White);
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Winner::Black, "resignation"));
    assert!(g.play("b1-d1").is_err());
    // Seed 000: the game warns from move 35 while pieces are still at home.
    let g = AnyGame::from_fen(
        rules("ugolki"),
        "W:Wa1,d4,e4,f4,g4,h4,a5,b5,c5:Bf6,g6,h6,f7,g7,h7,f8,g8,h8:N35",
    )
    .unwrap();
    assert!(g.warning(Color::White));
    assert!(g.warning(Color::Black));
    assert_eq!(g.pieces_left(), (9, 9));
}
