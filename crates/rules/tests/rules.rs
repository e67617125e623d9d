//! Rule-article cases: the rules perft cannot reach from the start position. Each case names
//! the rule (its page of docs/rules/ or the federation article) and lists every legal move as
//! its full path in algebraic squares.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use doska_rules::{Position, Variant};
use std::collections::BTreeSet;

fn paths(variant: Variant, fen: &str) -> BTreeSet<String> {
    let pos = match Position::from_fen(variant, fen) {
        Ok(p) => p,
        Err(e) => panic!("{variant} {fen}: {e}"),
    };
    let g = &variant.rules().geometry;
    pos.legal_moves()
        .iter()
        .map(|m| {
            let sep = if m.is_capture() { "x" } else { "-" };
            m.path().iter().map(|s| g.algebraic(*s)).collect::<Vec<_>>().join(sep)
        })
        .collect()
}

fn check(rule: &str, variant: &str, fen: &str, expected: &[&str]) {
    let v: Variant = variant.parse().unwrap_or(Variant::Russian);
    let got = paths(v, fen);
    let want: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
    assert_eq!(got, want, "{rule} ({variant}, {fen})");
}

#[test]
fn capture_is_compulsory() {
    check("general default: capturing is compulsory", "russian", "W:Wc3,h2:Bd4", &["c3xe5"]);
}

#[test]
fn men_capture_backwards_only_where_allowed() {
    check("russian: a man captures backwards (seed 002)", "russian", "W:We5:Bd4", &["e5xc3"]);
    check("american: men capture forward only", "american", "W:We5:Bd4", &["e5-d6", "e5-f6"]);
}

#[test]
fn free_choice_and_majority() {
    let fen = "W:Wc1,g1:Bb2,f2,d4";
    check("russian: any capture may be chosen (seed 002)", "russian", fen, &["c1xa3", "g1xe3xc5"]);
    check("brazilian: the most pieces (FMJD 4.13)", "brazilian", fen, &["g1xe3xc5"]);
}

#[test]
fn promotion_during_a_capture() {
    let fen = "W:Wb6:Bc7,f6";
    check(
        "russian: crowned mid-capture, goes on as a king (seed 002)",
        "russian",
        fen,
        &["b6xd8xg5", "b6xd8xh4"],
    );
    check("brazilian: crowned only if the move ends on the last row", "brazilian", fen, &["b6xd8"]);
    check("american: crowning ends the move", "american", fen, &["b6xd8"]);
}

#[test]
fn russian_king_landing() {
    // Seed 002: if from some square behind the captured piece the king can capture further,
    // it must land there.
    check("russian king landing", "russian", "W:WKa1:Bc3,e7", &["a1xf6xd8"]);
}

#[test]
fn italian_priorities() {
    check("italian: a man never captures a king", "italian", "W:Wd3:BKe4", &["d3-c4"]);
    check("italian: then capture with a king", "italian", "W:Wd3,Kh3:Be4,g4", &["h3xf5"]);
    check("italian: then the most kings", "italian", "W:WKd3:Be4,Kc4", &["d3xb5"]);
    check("italian: then the king met earliest", "italian", "W:WKd3:BKc4,c6,e4,Kg6", &["d3xb5xd7"]);
}

#[test]
fn spanish_most_kings() {
    check("spanish: equal pieces, then the most kings", "spanish", "W:Wd3:Be4,Kc4", &["d3xb5"]);
}

#[test]
fn czech_king_must_capture() {
    let fen = "W:Wc3,Kh6:Bd4,g7";
    check("czech: a king that can capture must", "czech", fen, &["h6xf8"]);
    check("russian: free choice on the same position", "russian", fen, &["c3xe5", "h6xf8"]);
}

#[test]
fn frisian_capture_value_and_orthogonal_jumps() {
    check(
        "frisian art. 11: two men (200) outweigh one king (199)",
        "frisian",
        "W:Wc3,g3:Bd4,f6,Kh4",
        &["c3xe5xg7"],
    );
    check("frisian art. 11: a king outweighs a man", "frisian", "W:Wc3,g3:Bd4,Kh4", &["g3xi5"]);
    check("frisian: a man captures along the column", "frisian", "W:Wc3:Bc5", &["c3xc7"]);
    check("frisian: a man captures along the row", "frisian", "W:Wa3:Bc3", &["a3xe3"]);
}

#[test]
fn frisian_king_move_limit() {
    // Art. 17: the king on f4 made three non-capturing moves in a row; its side has men.
    check("frisian art. 17", "frisian", "W:Wa1,Kf4:Bj10:RWf4=3", &["a1-b2"]);
    // Without men the limit does not apply.
    let free = paths(Variant::Frisian, "W:WKf4:Bj10:RWf4=3");
    assert!(free.len() > 5, "{free:?}");
}

#[test]
fn thai_king_lands_right_behind() {
    check("thai: the king lands right behind the captured piece", "thai", "W:WKa1:Bd4", &["a1xe5"]);
    check(
        "russian: a flying king lands anywhere behind",
        "russian",
        "W:WKa1:Bd4",
        &["a1xe5", "a1xf6", "a1xg7", "a1xh8"],
    );
}

#[test]
fn turkish_no_reversal_and_immediate_removal() {
    check(
        "turkish: no 180-degree turn between jumps (seed 004)",
        "turkish",
        "W:WKd4:Bd5,d3",
        &["d4xd6", "d4xd7", "d4xd8", "d4xd2", "d4xd1"],
    );
    check(
        "turkish: majority, pieces removed as they are jumped",
        "turkish",
        "W:WKd4:Bd6,f4",
        &["d4xd7", "d4xd8", "d4xg4", "d4xh4"],
    );
}

#[test]
fn armenian_men() {
    check(
        "armenian: men step diagonally forward too, capture only straight",
        "armenian",
        "W:Wd4:Bf6",
        &["d4-c4", "d4-e4", "d4-d5", "d4-c5", "d4-e5"],
    );
}

#[test]
fn lasca_columns() {
    let pos = Position::from_fen(Variant::Lasca, "W:Wa1:Bb2/w").unwrap_or_else(|e| panic!("{e}"));
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 1);
    let after = pos.play(&moves[0]);
    // The black top of b2 goes under the white column, freeing the white soldier below.
    assert_eq!(after.to_fen(), "B:Wb2,c3/b:B");
}

#[test]
fn every_board_but_canadian_fits_in_64_bits() {
    // Move generation runs on u64 for these (movegen's dispatch table relies on it).
    for v in Variant::ALL {
        assert_eq!(v.rules().geometry.narrow(), v != Variant::Canadian, "{v}");
    }
}

/// A set of directions reversed at once is the set of its directions each reversed.
#[test]
fn a_reversed_set_reverses_each_direction() {
    use doska_rules::geometry::{Direction, Directions};
    for bits in 0..=u8::MAX {
        let set = Directions(bits);
        let each: Vec<Direction> = set.iter().map(Direction::reverse).collect();
        assert_eq!(set.reversed(), Directions::of(&each), "{bits:08b}");
    }
}
