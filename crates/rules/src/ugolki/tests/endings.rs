//! How games end, each test naming the seed sentence it checks.

use super::rules;
use crate::Color;
use crate::ugolki::{EndReason, Outcome, PlayError, UgolkiGame, UgolkiRules, Winner};

fn game(rules: UgolkiRules, fen: &str) -> UgolkiGame {
    UgolkiGame::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Plays the moves; all but the last must leave the game running; returns the last outcome.
fn play(game: &mut UgolkiGame, moves: &[&str]) -> Option<Outcome> {
    let mut outcome = None;
    for (i, text) in moves.iter().enumerate() {
        assert_eq!(outcome, None, "the game ended before {text}");
        game.play_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        outcome = game.outcome();
        assert!(i + 1 == moves.len() || outcome.is_none(), "{text} ended the game: {outcome:?}");
    }
    outcome
}

fn win(side: Color, reason: EndReason) -> Option<Outcome> {
    Some(Outcome { winner: side.into(), reason })
}

fn draw(reason: EndReason) -> Option<Outcome> {
    Some(Outcome { winner: Winner::Draw, reason })
}

const UGOLKI: UgolkiRules = UgolkiRules::UGOLKI;

/// White one step (e6-f6) from completing; Black one step (d3-c3) from completing.
const BOTH_CLOSE: &str = "W:We6,g6,h6,f7,g7,h7,f8,g8,h8:Ba1,b1,c1,a2,b2,c2,a3,b3,d3:N20";
/// White one step from completing; Black's last piece (d5) cannot reach c3 in one move.
const BLACK_FAR: &str = "W:We6,g6,h6,f7,g7,h7,f8,g8,h8:Ba1,b1,c1,a2,b2,c2,a3,b3,d5:N20";
/// White's last piece (e4) two moves away; Black one step (d3-c3) from completing.
const WHITE_FAR: &str = "W:We4,g6,h6,f7,g7,h7,f8,g8,h8:Ba1,b1,c1,a2,b2,c2,a3,b3,d3:N20";

/// Seed 000: "Если белые заняли угол первыми, у чёрных есть ещё один ход. Если и чёрные им
/// заполнили свой угол — ничья."
#[test]
fn equal_moves_black_completes_on_the_reply_draw() {
    let mut g = game(UGOLKI, BOTH_CLOSE);
    assert_eq!(play(&mut g, &["e6-f6"]), None);
    assert!(g.awaiting_equal_reply());
    assert!(g.position().has_completed(Color::White));
    assert_eq!(play(&mut g, &["d3-c3"]), draw(EndReason::EqualMovesDraw));
    assert_eq!(g.outcome().unwrap().to_string(), "draw: equal moves — draw");
}

/// docs/rules/ugolki.md: "If it goes on, Black's completing reply draws and any other reply
/// loses."
#[test]
fn equal_moves_black_replies_without_completing_white_wins() {
    let mut g = game(UGOLKI, BOTH_CLOSE);
    assert_eq!(play(&mut g, &["e6-f6", "d3-d4"]), win(Color::White, EndReason::AllInCorner));
}

/// Seed 000: "Если чёрным за один ход не успеть, белые побеждают сразу."
#[test]
fn equal_moves_black_cannot_complete_white_wins_at_once() {
    let mut g = game(UGOLKI, BLACK_FAR);
    assert_eq!(play(&mut g, &["e6-f6"]), win(Color::White, EndReason::AllInCorner));
    assert!(!g.awaiting_equal_reply());
    assert_eq!(g.outcome().unwrap().to_string(), "White wins: all pieces in the corner");
    assert!(g.legal_moves().is_empty());
    assert!(matches!(g.play_text("d5-d4"), Err(PlayError::GameOver(_))));
}

/// Seed 000: "Первым перевести все 9 своих шашек в угол соперника"; docs/rules/ugolki.md:
/// "If Black completes first, Black wins at once."
#[test]
fn black_completes_first_and_wins() {
    let mut g = game(UGOLKI, WHITE_FAR);
    assert_eq!(play(&mut g, &["e4-e5", "d3-c3"]), win(Color::Black, EndReason::AllInCorner));
}

/// Seed 001: "Один из игроков переместил все свои шашки в ярд соперника. Этот игрок выиграл
/// игру." With the equal-moves rule off, the first to complete wins.
#[test]
fn without_equal_moves_the_first_to_complete_wins() {
    for rules in [rules("ugolki:equal=off"), UgolkiRules::BRAINKING] {
        let mut g = game(rules, BOTH_CLOSE);
        assert_eq!(play(&mut g, &["e6-f6"]), win(Color::White, EndReason::AllInCorner), "{rules}");
        let mut g = game(rules, WHITE_FAR);
        assert_eq!(
            play(&mut g, &["e4-e5", "d3-c3"]),
            win(Color::Black, EndReason::AllInCorner),
            "{rules}"
        );
    }
}

/// Seed 000: "Начиная с 40-го хода, у кого после хода хоть одна шашка стоит в своём исходном
/// углу, тот проигрывает." and "Когда оба сделали по 40 ходов (и дальше — после каждого
/// ответа чёрных), игра проверяет углы".
#[test]
fn leave_home_a_piece_at_home_after_move_40_loses() {
    let mut g = game(UGOLKI, "W:Wa1,d4,e4:Bc6,d6:N39");
    // Black's 39th reply: not yet checked. White's 40th move: checked only after Black's.
    assert_eq!(play(&mut g, &["d4-d5", "c6-c7", "e4-e5"]), None);
    let lost = win(Color::Black, EndReason::LeftAtHome { side: Color::White, after_move: 40 });
    assert_eq!(play(&mut g, &["c7-c8"]), lost);
    assert_eq!(g.outcome().unwrap().to_string(), "Black wins: pieces left at home after move 40");
    // Black's own piece at home loses the same way.
    let mut g = game(UGOLKI, "W:Wd4:Bh8,d6:N40");
    assert_eq!(
        play(&mut g, &["d4-d3", "d6-d7"]),
        win(Color::White, EndReason::LeftAtHome { side: Color::Black, after_move: 40 })
    );
}

/// Seed 000: "Если такое у обоих — ничья."
#[test]
fn leave_home_both_sides_at_home_draw() {
    let mut g = game(UGOLKI, "W:Wa1,d4:Bh8,d6:N40");
    assert_eq!(
        play(&mut g, &["d4-d5", "d6-e6"]),
        draw(EndReason::BothLeftAtHome { after_move: 40 })
    );
}

/// docs/rules/ugolki.md: "and after every Black move from then on": moving back home later
/// also loses, once Black has replied.
#[test]
fn leave_home_moving_back_home_later_loses_after_blacks_reply() {
    let mut g = game(UGOLKI, "W:Wd1,e4:Bd6:N45");
    assert_eq!(
        play(&mut g, &["d1-c1", "d6-d7"]),
        win(Color::Black, EndReason::LeftAtHome { side: Color::White, after_move: 40 })
    );
}

/// Seed 001: "Один из игроков все еще имеет несколько своих шашек в своём ярде и сделал больше
/// чем 30 (для 8x8) или 50 (для 10x10) ходов. Этот игрок проигрывает игру."
/// docs/rules/ugolki-brainking.md: "from his 31st on", checked right after his own move.
#[test]
fn brainking_a_piece_at_home_after_the_players_30th_move_loses_at_once() {
    let bk = UgolkiRules::BRAINKING;
    let mut g = game(bk, "W:Wa1,d4:Bd6:N30");
    // White's 30th and Black's 30th: allowed. White's 31st: lost at once.
    assert_eq!(
        play(&mut g, &["d4-d5", "d6-d7", "d5-d4"]),
        win(Color::Black, EndReason::LeftAtHome { side: Color::White, after_move: 30 })
    );
    // Only the mover is checked: Black's piece at home does not matter on White's move.
    let mut g = game(bk, "W:Wd4:Bh8,d6:N31");
    assert_eq!(
        play(&mut g, &["d4-d5", "d6-d7"]),
        win(Color::White, EndReason::LeftAtHome { side: Color::Black, after_move: 30 })
    );
    // 10x10: from the 51st move.
    let bk10 = UgolkiRules::BRAINKING_10;
    let mut g = game(bk10, "W:Wa1,e5:Bf6:N50");
    assert_eq!(
        play(&mut g, &["e5-e6", "f6-f5", "e6-e5"]),
        win(Color::Black, EndReason::LeftAtHome { side: Color::White, after_move: 50 })
    );
}

/// Seed 001: "Игрок также проигрывает игру, если он поставил обратно одну из своих шашек
/// обратно в свой ярд после 30-ого (50-ого) ходов."
#[test]
fn brainking_moving_back_home_loses_at_once() {
    let mut g = game(UgolkiRules::BRAINKING, "W:Wd1,e4:Bd6:N35");
    assert_eq!(
        play(&mut g, &["d1-c2"]),
        win(Color::Black, EndReason::LeftAtHome { side: Color::White, after_move: 30 })
    );
}

/// Seed 003: "Если стоит параметр конвенции "Покинуть Половину", то игроки должны убрать все
/// свои фишки из своей половины поля, за указанное число ходов. Игрок не выполневший данное
/// условие - проигрывает."
#[test]
fn leave_half_a_piece_in_the_own_half_after_move_n_loses() {
    // With `ugolki`'s check: after Black's 20th reply. Rank 4 is White's half on 8x8.
    let half = rules("ugolki:half-rule=20");
    let mut g = game(half, "W:Wd4,e6:Be3:N20");
    assert_eq!(
        play(&mut g, &["e6-e5", "e3-e2"]),
        win(Color::Black, EndReason::LeftInHalf { side: Color::White, after_move: 20 })
    );
    assert_eq!(
        g.outcome().unwrap().to_string(),
        "Black wins: pieces left in their own half after move 20"
    );
    // Rank 5 is not.
    let mut g = game(half, "W:Wd5,e6:Be3:N20");
    assert_eq!(play(&mut g, &["e6-e7", "e3-e2"]), None);
    // Both in their own halves: a draw.
    let mut g = game(half, "W:Wd4,e6:Be7:N20");
    assert_eq!(
        play(&mut g, &["e6-e5", "e7-e8"]),
        draw(EndReason::BothLeftInHalf { after_move: 20 })
    );
    // With BrainKing's check: right after the player's 21st move.
    let bk_half = rules("ugolki-brainking:half-rule=20");
    let mut g = game(bk_half, "W:Wd4,e6:Be3:N21");
    assert_eq!(
        play(&mut g, &["e6-e5"]),
        win(Color::Black, EndReason::LeftInHalf { side: Color::White, after_move: 20 })
    );
    // 10x10: ranks 1-5 are White's half.
    let bk10_half = rules("ugolki-brainking-10:half-rule=20");
    let mut g = game(bk10_half, "W:We5,e7:Be4:N21");
    assert_eq!(
        play(&mut g, &["e7-e8"]),
        win(Color::Black, EndReason::LeftInHalf { side: Color::White, after_move: 20 })
    );
}

/// Seed 000: "Ничья также, если ... позиция повторилась трижды"; docs/rules/ugolki.md: third
/// repetition with the same side to move.
#[test]
fn third_repetition_is_a_draw() {
    let mut g = UgolkiGame::new(UGOLKI);
    let shuffle = ["c3-d3", "f6-e6", "d3-c3", "e6-f6"];
    assert_eq!(play(&mut g, &shuffle), None); // the start, second time
    assert_eq!(play(&mut g, &shuffle[..3]), None);
    assert_eq!(play(&mut g, &shuffle[3..]), draw(EndReason::Repetition)); // third time
    // Undo takes the draw back.
    assert_eq!(g.undo(), Some(super::step("e6", "f6")));
    assert_eq!(g.outcome(), None);
    assert_eq!(g.moves().len(), 7);
}

/// Seed 000: "Ничья также, если ... за 150 ходов (у каждого) никто не занял угол."
#[test]
fn move_limit_150_moves_each_is_a_draw() {
    let mut g = game(UGOLKI, "W:Wd4:Bd6:N150");
    assert_eq!(play(&mut g, &["d4-d3"]), None);
    assert_eq!(g.position().moves_made(Color::White), 150);
    assert_eq!(play(&mut g, &["d6-d7"]), draw(EndReason::MoveLimit));
    assert_eq!(g.outcome().unwrap().to_string(), "draw: 150 moves each without a winner");
}

/// Seed 000: "Ближе к 40-му ходу игра заранее предупредит, если ваши шашки ещё в углу."
/// docs/rules/ugolki.md: "from move 35, while any of a player's pieces is still at home, the
/// UI warns that player".
#[test]
fn warning_from_move_35_while_a_piece_is_at_home() {
    let at = |rules, fen| game(rules, fen);
    assert!(!at(UGOLKI, "W:Wa1,d4:Bd6:N34").warning(Color::White));
    assert!(at(UGOLKI, "W:Wa1,d4:Bd6:N35").warning(Color::White));
    assert!(!at(UGOLKI, "W:Wa1,d4:Bd6:N35").warning(Color::Black));
    assert!(at(UGOLKI, "B:Wd4:Bh8,d6:N35").warning(Color::Black));
    assert!(!at(UGOLKI, "W:Wd4:Bd6:N38").warning(Color::White));
    // BrainKing's 30 moves: from move 25.
    assert!(!at(UgolkiRules::BRAINKING, "W:Wa1,d4:Bd6:N24").warning(Color::White));
    assert!(at(UgolkiRules::BRAINKING, "W:Wa1,d4:Bd6:N25").warning(Color::White));
    // No rule, no warning.
    assert!(!at(rules("ugolki:home-rule=off"), "W:Wa1,d4:Bd6:N39").warning(Color::White));
    // The start: nobody is warned yet.
    assert!(!UgolkiGame::new(UGOLKI).warning(Color::White));
}

#[test]
fn a_game_from_a_finished_position_is_finished() {
    // White has just completed and Black cannot equalise.
    let g = game(UGOLKI, "B:Wf6,g6,h6,f7,g7,h7,f8,g8,h8:Ba1,b1,c1,a2,b2,c2,a3,b3,d5:N20");
    assert_eq!(g.outcome(), win(Color::White, EndReason::AllInCorner));
    // ...or can: the game goes on for one reply.
    let g = game(UGOLKI, "B:Wf6,g6,h6,f7,g7,h7,f8,g8,h8:Ba1,b1,c1,a2,b2,c2,a3,b3,d3:N20");
    assert_eq!(g.outcome(), None);
    assert!(g.awaiting_equal_reply());
}

#[test]
fn undo_returns_to_the_start() {
    let mut g = UgolkiGame::new(UGOLKI);
    play(&mut g, &["b1-d1", "f6-e6"]);
    assert_eq!(g.to_string(), "1. b1-d1 f6-e6");
    assert_eq!(g.undo(), Some(super::step("f6", "e6")));
    assert_eq!(g.undo(), Some(super::jump("b1", "d1")));
    assert_eq!(g.undo(), None);
    assert_eq!(g.position(), g.start());
}
