//! Moves, each test naming the seed sentence it checks.

use super::{jump, pos, sq, step, targets};
use crate::Color;
use crate::ugolki::{IllegalReason, UgolkiMove, UgolkiPosition, UgolkiRules};

const UGOLKI: UgolkiRules = UgolkiRules::UGOLKI;
const BRAINKING: UgolkiRules = UgolkiRules::BRAINKING;

/// Seed 000: "Шашка переходит на соседнюю свободную клетку — вправо, влево, вперёд или назад.
/// По диагонали ходить нельзя."
#[test]
fn step_to_an_adjacent_free_square_not_diagonally() {
    let p = pos(UGOLKI, "W:Wd4:Bh8");
    assert_eq!(targets(&p, "d4"), ["c4", "d3", "d5", "e4"]);
    assert!(!p.is_legal(step("d4", "e5")));
    assert_eq!(
        p.play(step("d4", "d6")).unwrap_err().reason,
        IllegalReason::NotAStep { from: sq("d4"), to: sq("d6") }
    );
    // An occupied square is not free.
    let p = pos(UGOLKI, "W:Wd4:Bd5,h8");
    assert!(!p.is_legal(step("d4", "d5")));
}

/// Seed 001: "Шашки можно перемещать в любом направлении на соседнюю пустую клетку."
#[test]
fn brainking_steps_in_all_eight_directions() {
    let p = pos(BRAINKING, "W:Wd4:Bh8");
    assert_eq!(targets(&p, "d4"), ["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"]);
}

/// Seed 000: "Шашка перепрыгивает через соседнюю шашку — свою или соперника — по прямой на
/// свободную клетку сразу за ней. Перепрыгнутая шашка остаётся на месте: в уголках никого не
/// бьют."
#[test]
fn jump_over_own_and_enemy_pieces_captures_nothing() {
    let p = pos(UGOLKI, "W:Wd4,d5:Be4,h8");
    // d6 over White's d5, f4 over Black's e4; from f4 the way back over e4 leads to the start.
    assert_eq!(targets(&p, "d4"), ["c4", "d3", "d6", "f4"]);
    let after = p.play(jump("d4", "f4")).unwrap();
    assert_eq!(after.piece_at(sq("e4")), Some(Color::Black));
    assert_eq!(after.piece_at(sq("d5")), Some(Color::White));
    assert_eq!(after.piece_at(sq("f4")), Some(Color::White));
    assert_eq!(after.piece_at(sq("d4")), None);
    assert_eq!(after.pieces(Color::White).len() + after.pieces(Color::Black).len(), 4);
}

/// Seed 000: "Прыжок — только через одну соседнюю шашку на свободную клетку сразу за ней."
#[test]
fn jump_over_exactly_one_adjacent_piece() {
    // Two pieces in a row cannot be jumped at once.
    let p = pos(UGOLKI, "W:Wa1:Ba2,a3,h8");
    assert_eq!(targets(&p, "a1"), ["b1"]);
    // A piece two squares away is not adjacent: no jump over the gap.
    let p = pos(UGOLKI, "W:Wa1:Ba3,h8");
    assert_eq!(targets(&p, "a1"), ["a2", "b1"]);
}

/// Seed 001: "Перепрыгивать можно во все направления."
#[test]
fn brainking_jumps_diagonally() {
    let p = pos(BRAINKING, "W:Wd4:Be5,h1");
    assert!(targets(&p, "d4").contains(&"f6".to_string()));
    let p = pos(UGOLKI, "W:Wd4:Be5,h1");
    assert!(!targets(&p, "d4").contains(&"f6".to_string()));
}

/// Seed 000: "После прыжка можно прыгать дальше, в любую сторону, пока есть куда." and
/// "Остановиться можно после любого прыжка — продолжать цепочку не обязательно."
#[test]
fn chains_turn_and_may_stop_after_any_jump() {
    let p = pos(UGOLKI, "W:Wc3,c4:Bd5,e6,h8");
    // c3 over c4 to c5, right over d5 to e5, up over e6 to e7: every landing is a move.
    assert_eq!(targets(&p, "c3"), ["b3", "c2", "c5", "d3", "e5", "e7"]);
    assert_eq!(p.path(jump("c3", "e7")).unwrap().to_string(), "c3-c5-e5-e7");
    assert_eq!(p.path(jump("c3", "c5")).unwrap().to_string(), "c3-c5");
    assert_eq!(p.parse_move("c3-c5-e5"), Ok(jump("c3", "e5")));
}

/// Seed 000: "Нельзя возвращаться на клетку, где шашка уже побывала в этом ходу."
#[test]
fn a_chain_never_revisits_a_square() {
    // A ring of pieces around b2: a1-a3-c3-c1 and back to a1 would be a closed chain.
    let p = pos(UGOLKI, "W:Wa1:Ba2,b1,b3,c2");
    assert_eq!(targets(&p, "a1"), ["a3", "c1", "c3"]);
    assert_eq!(p.parse_move("a1-a3-c3-c1"), Ok(jump("a1", "c1")));
    for (text, square) in [("a1-a3-c3-c1-a1", "a1"), ("a1-a3-c3-a3", "a3")] {
        match p.parse_move(text) {
            Err(crate::ugolki::MoveTextError::Illegal(err)) => {
                assert_eq!(err.reason, IllegalReason::Revisit { square: sq(square) }, "{text}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    // The animation path is a shortest one: straight over b1, not round the ring.
    assert_eq!(p.path(jump("a1", "c1")).unwrap().to_string(), "a1-c1");
}

/// Seed 000: "За один ход — либо один шаг, либо прыжки. Сначала шагнуть, а потом прыгнуть
/// (или наоборот) нельзя."
#[test]
fn steps_and_jumps_never_mix() {
    // Step a1-a2 then jump over a3 to a4: not a move.
    let p = pos(UGOLKI, "W:Wa1:Ba3,h8");
    assert!(!p.is_legal(jump("a1", "a4")));
    assert_eq!(targets(&p, "a1"), ["a2", "b1"]);
    // Jump a1-a3 then step to a4 or b3: not a move.
    let p = pos(UGOLKI, "W:Wa1:Ba2,h8");
    assert_eq!(targets(&p, "a1"), ["a3", "b1"]);
    assert!(p.parse_move("a1-a3-a4").is_err());
}

/// Seed 000: "Если ходить некуда, ход пропускается." docs/rules/ugolki.md: "A pass counts as
/// that side's move".
#[test]
fn a_side_without_moves_passes_and_the_pass_counts() {
    let p = pos(UGOLKI, "W:Wa1:Ba2,a3,b1,c1:N7");
    assert_eq!(p.legal_moves(), [UgolkiMove::Pass]);
    assert_eq!(p.parse_move("pass"), Ok(UgolkiMove::Pass));
    let after = p.play(UgolkiMove::Pass).unwrap();
    assert_eq!(after.side_to_move(), Color::Black);
    assert_eq!(after.moves_made(Color::White), 7);
    assert_eq!(after.moves_made(Color::Black), 6);
    assert_eq!(p.path(UgolkiMove::Pass).unwrap().squares(), []);
    assert_eq!(after.path(UgolkiMove::Pass), None);
    // With 8 directions the diagonal must be blocked too.
    let p = pos(BRAINKING, "W:Wa1:Ba2,a3,b1,c1,b2,c3");
    assert_eq!(p.legal_moves(), [UgolkiMove::Pass]);
    // Nobody may pass while a move exists.
    let start = UgolkiPosition::start(UGOLKI);
    assert_eq!(start.play(UgolkiMove::Pass).unwrap_err().reason, IllegalReason::PassNotAllowed);
}

#[test]
fn only_the_side_to_move_moves() {
    let p = UgolkiPosition::start(UGOLKI);
    assert_eq!(
        p.play(step("f6", "e6")).unwrap_err().reason,
        IllegalReason::NotYourPiece { square: sq("f6"), side: Color::White }
    );
    assert!(p.moves_from(sq("f6")).is_empty());
    assert_eq!(p.legal_moves().len(), 12);
}
