//! The review's judgement of a move: a move that gives away two men for nothing is a blunder
//! (`??`) with a better move that keeps them, in three rule sets; in Ugolki a step back that
//! turns a won race into a lost one is a blunder too. Quiet good moves are not marked.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use doska_engine::review::{self, Mark};
use doska_engine::{Searcher, Terms};
use doska_rules::{AnyGame, RuleSet};

const NODES: u64 = 50_000;

fn game(rules: &str, fen: &str) -> AnyGame {
    let rules: RuleSet = rules.parse().unwrap();
    AnyGame::import(fen, rules).unwrap()
}

/// Judges `played`; checks it gets `mark` and that the best move is one of `better`.
fn check(rules: &str, fen: &str, played: &str, mark: Option<Mark>, better: &[&str]) {
    let g = game(rules, fen);
    let mut searcher = Searcher::new(16, Terms::ALL);
    let j = review::judge(&mut searcher, &g, played, NODES).unwrap();
    let loss = review::loss(j.before, j.after);
    assert_eq!(review::mark(&g, loss), mark, "{rules} {played}: {j:?}, loss {loss}");
    assert!(better.contains(&j.best.as_str()), "{rules} {played}: best {} ({j:?})", j.best);
    assert_eq!(j.line.first(), Some(&j.best));
    // The same budget gives the same judgement.
    let again = review::judge(&mut Searcher::new(16, Terms::ALL), &g, played, NODES).unwrap();
    assert_eq!(again, j);
}

// White to move: e3-d4 opens e3 behind the man, and c5 takes both d4 and f4 (c5:e3:g5).
const RUSSIAN: &str = "W:Wa1,e3,f4:Bc5,a7,h8";
// The same on 10x10: 38-32 lets 27 take 32 and 33 (27x29).
const INTERNATIONAL: &str = "W:W38,33,46:B27,1,5";

#[test]
fn giving_away_two_men_is_a_blunder_with_the_better_move() {
    let keeps = ["f4-e5", "f4-g5", "a1-b2"];
    check("russian", RUSSIAN, "e3-d4", Some(Mark::Blunder), &keeps);
    check("brazilian", RUSSIAN, "e3-d4", Some(Mark::Blunder), &keeps);
    check(
        "international",
        INTERNATIONAL,
        "38-32",
        Some(Mark::Blunder),
        &["33-29", "33-28", "46-41"],
    );
}

#[test]
fn a_good_move_is_not_marked() {
    check("russian", RUSSIAN, "f4-e5", None, &["f4-e5", "f4-g5"]);
    check("international", INTERNATIONAL, "33-29", None, &["33-29", "33-28", "46-41"]);
}

#[test]
fn ugolki_a_step_back_that_loses_the_race_is_a_blunder() {
    // White is one move ahead in a separated race; g5-g4 gives the move back and loses.
    let fen = "W:Wg5,f6,g6,e7,g7,e8,f8,g8,h8:Ba1,c1,d1,a2,a3,b3,d3,b4,d5:N31";
    let winning = ["g5-f5", "g5-h5", "g6-h6", "g7-h7"];
    check("ugolki", fen, "g5-g4", Some(Mark::Blunder), &winning);
    check("ugolki", fen, "g5-f5", None, &winning);
}

#[test]
fn values_marks_and_accuracy() {
    let g = game("russian", RUSSIAN);
    assert_eq!(review::value(doska_engine::WIN - 5, 100.0), review::CLAMP);
    assert_eq!(review::value(-250, 100.0), -2.5);
    assert_eq!(review::loss(1.0, -7.0), 6.0, "clamped at five men");
    assert_eq!(review::loss(-6.0, -9.0), 0.0, "lost by far either way");
    assert_eq!(review::mark(&g, 0.3), None);
    assert_eq!(review::mark(&g, 0.5), Some(Mark::Inaccuracy));
    assert_eq!(review::mark(&g, 1.0), Some(Mark::Mistake));
    assert_eq!(review::mark(&g, 2.0), Some(Mark::Blunder));
    assert!(review::accuracy(&g, 0.5, 0.5) > 99.99, "no drop: full accuracy");
    assert!(review::accuracy(&g, 0.0, -2.0) < 40.0);
    assert!(review::accuracy(&g, 0.0, -0.2) > 80.0);
}
