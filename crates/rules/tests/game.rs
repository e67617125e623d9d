//! End and draw rules of the rule book (docs/rules/), played through the game record.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use doska_rules::game::{Game, Reason, Winner};
use doska_rules::{PlayError, Variant};

fn game(variant: Variant, fen: &str) -> Game {
    Game::from_fen(variant, fen).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"))
}

fn play(g: &mut Game, moves: &[&str]) {
    for m in moves {
        if let Err(e) = g.play_text(m) {
            panic!("{m}: {e} (at {})", g.fen());
        }
    }
}

#[test]
fn no_pieces_loses_and_poddavki_wins() {
    let mut g = game(Variant::Russian, "W:Wc3:Bd4");
    play(&mut g, &["c3:e5"]);
    let o = g.outcome().unwrap_or_else(|| panic!("game goes on"));
    assert_eq!((o.winner, o.reason), (Winner::White, Reason::NoPieces));
    // Poddavki: a side with no pieces wins.
    let mut g = game(Variant::Poddavki, "W:Wc3:Bd4");
    play(&mut g, &["c3:e5"]);
    let o = g.outcome().unwrap_or_else(|| panic!("game goes on"));
    assert_eq!((o.winner, o.reason), (Winner::Black, Reason::NoPieces));
}

#[test]
fn no_legal_move_loses() {
    // Black's man on a1... Black moves down; the man on h2 is blocked by white pieces.
    let g = game(Variant::Russian, "B:Wg1,f2,e3:Bh2");
    let o = g.outcome().unwrap_or_else(|| panic!("game goes on"));
    assert_eq!((o.winner, o.reason), (Winner::White, Reason::NoMoves));
}

#[test]
fn third_repetition_draws() {
    let mut g = game(Variant::Russian, "W:WKa1,Kc1:BKh8,Kf8");
    play(&mut g, &["c1-d2", "f8-e7", "d2-c1", "e7-f8", "c1-d2", "f8-e7", "d2-c1"]);
    assert_eq!(g.outcome(), None, "second repetition");
    play(&mut g, &["e7-f8"]);
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::Repetition));
    // Undo reopens the game.
    g.undo();
    assert_eq!(g.outcome(), None);
}

#[test]
fn quiet_move_rules() {
    // Seed 002: 15 moves each with only kings moving and no capture.
    let mut g = game(Variant::Russian, "W:WKa1,Kc1,e1:BKh8,Kd8,b8:H28");
    play(&mut g, &["c1-d2"]);
    assert_eq!(g.outcome(), None);
    play(&mut g, &["d8-e7"]);
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::QuietMoves { moves: 15 }));
    // A man move resets the count (American: 40 moves each).
    let mut g = game(Variant::American, "W:WK1,K2,31:BK32,K30,5:H78");
    play(&mut g, &["31-27"]);
    assert_eq!(g.counters().quiet, 0);
}

#[test]
fn fmjd_lone_king_endgames() {
    // Three pieces with a king against a lone king: 16 moves each (FMJD art. 6).
    let mut g = game(Variant::International, "W:WK46,K47,K48:BK5:E31");
    play(&mut g, &["46-41"]);
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::LoneKingEndgame { moves: 16 }));
    // Two pieces against a lone king: 5 moves each.
    let mut g = game(Variant::International, "W:WK46,K47:BK5:E9");
    play(&mut g, &["46-41"]);
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::LoneKingEndgame { moves: 5 }));
}

#[test]
fn russian_three_kings_against_one() {
    // Seed 004: three or more kings against a lone king not won within 15 moves.
    let mut g = game(Variant::Russian, "W:WKa1,Kc1,Ke1:BKb8:E26");
    play(&mut g, &["c1-d2"]);
    assert_eq!(g.outcome(), None, "the stronger side has made 14 moves");
    play(&mut g, &["b8-a7", "d2-c1"]);
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::ThreeKingsVsKing));
}

#[test]
fn lone_piece_draws() {
    let g = game(Variant::Turkish, "W:WKa1:Bh8");
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::LonePieces), "turkish king v man");
    let g = game(Variant::Thai, "W:WKa1:BKh8");
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::LonePieces), "thai king v king");
    let g = game(Variant::Thai, "W:WKa1:Bh8");
    assert_eq!(g.outcome(), None, "thai king v man plays on");
    // Frisian: king against king is drawn unless a capture is forced.
    let g = game(Variant::Frisian, "W:WK46:BK15");
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::LonePieces));
    let g = game(Variant::Frisian, "W:WK46:BK41");
    assert_eq!(g.outcome(), None, "white must capture");
    let g = game(Variant::Lasca, "W:WKa1:BKg7");
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::OfficerColumns));
}

#[test]
fn frisian_two_kings_against_one() {
    let mut g = game(Variant::Frisian, "W:WK46,K47:BK5:E13");
    play(&mut g, &["46-41"]);
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::TwoKingsVsKing));
}

#[test]
fn frisian_king_runs_through_a_game() {
    // Art. 17: the fourth non-capturing move of the same king is refused while men remain.
    let mut g = game(Variant::Frisian, "W:WK46,36:B1");
    play(&mut g, &["46-41", "1-6", "41-37", "6-11", "37-32", "11-16"]);
    let refused = g.play_text("32-28");
    assert!(refused.is_err(), "fourth king move must be refused: {refused:?}");
    play(&mut g, &["36-31"]);
    assert_eq!(g.position().king_run(doska_rules::Color::White).count, 0);
}

#[test]
fn game_over_refuses_moves_and_resign_records() {
    let mut g = game(Variant::Russian, "W:Wc3:Bd4");
    play(&mut g, &["c3:e5"]);
    assert!(matches!(g.play_text("e5-f6"), Err(PlayError::GameOver(_))));
    let mut g = Game::new(Variant::International);
    g.resign(doska_rules::Color::White);
    let o = g.outcome().unwrap_or_else(|| panic!("resigned"));
    assert_eq!((o.winner, o.reason), (Winner::Black, Reason::Resignation));
}

#[test]
fn move_numbers_follow_the_first_side() {
    // American: Black moves first; the number goes up after White's reply.
    let mut g = Game::new(Variant::American);
    play(&mut g, &["11-15", "23-19"]);
    assert_eq!(g.counters().move_number, 2);
    assert!(g.fen().ends_with(":N2"), "{}", g.fen());
}

#[test]
fn frisian_king_run_without_men_never_overflows() {
    // Art. 17 limits a king's run only while its side has men; a side without men may move
    // one king as often as it likes, so the run's count must not overflow (it saturates).
    let mut pos = doska_rules::Position::from_fen(Variant::Frisian, "W:WK46:BK15")
        .unwrap_or_else(|e| panic!("{e}"));
    for i in 0..300 {
        for text in if i % 2 == 0 { ["46-41", "15-20"] } else { ["41-46", "20-15"] } {
            let mv =
                doska_rules::notation::parse_move(&pos, text).unwrap_or_else(|e| panic!("{e}"));
            pos = pos.play(&mv);
        }
    }
    assert_eq!(pos.king_run(doska_rules::Color::White).count, 255);
    assert_eq!(pos.king_run(doska_rules::Color::Black).count, 255);
}
