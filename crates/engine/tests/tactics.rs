//! Known winning shots, found at a fixed depth, and every level playing legal moves in every
//! rule set.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use doska_engine::{Level, Limits, Searcher, Terms, analyze, choose};
use doska_rules::{AnyGame, RuleSet, Variant};

fn best(rules: &str, fen: &str, depth: u32) -> (String, i32) {
    let rs: RuleSet = rules.parse().unwrap();
    let game = AnyGame::from_fen(rs, fen).unwrap_or_else(|e| panic!("{rules} {fen}: {e}"));
    let mut s = Searcher::new(8, Terms::ALL);
    let a = analyze(&mut s, &game, Limits { depth: Some(depth), ..Limits::default() }, |_| {});
    (a.best.unwrap_or_default(), a.score)
}

/// "Give one, take two": f4-e5 forces f6xd4, and e3 takes d4 and b6.
const TWO_FOR_ONE: &str = "W:We3,f2,f4:Bf6,b6,h8";

#[test]
fn sacrifice_into_a_double_capture() {
    // The same shot in each rule set's own notation.
    for (rules, want) in [
        ("russian", "f4-e5"),
        ("american", "19-15"),
        ("brazilian", "f4-e5"),
        ("international", "33-28"),
        ("czech", "f4-e5"),
    ] {
        let (mv, score) = best(rules, TWO_FOR_ONE, 6);
        assert_eq!(mv, want, "{rules}");
        assert!(score > 50, "{rules}: the shot wins material, score {score}");
    }
}

#[test]
fn king_breakthrough() {
    // Russian: the man on g5 runs to h8 unless stopped; the only way is the breakthrough
    // g5-h6, after which nothing can catch it. Black's man on a7 is far away.
    let (mv, score) = best("russian", "W:Wg5:Ba7", 8);
    assert_eq!(mv, "g5-h6");
    assert!(score > 100, "{score}");
}

#[test]
fn ugolki_takes_the_long_ladder() {
    // The chain c3-c5-c7-e7 over c4, c6 and d7 gains six steps at once.
    let (mv, _) =
        best("ugolki", "W:Wc3,c4,a1,b1,a2,b2,a3,b3,a4:Bc6,d7,g6,h6,g7,h7,f8,g8,h8:N20", 2);
    assert_eq!(mv, "c3-e7");
}

#[test]
fn every_level_plays_a_legal_move_in_every_rule_set() {
    let mut all: Vec<RuleSet> = Variant::ALL.iter().map(|v| RuleSet::Draughts(*v)).collect();
    all.push("ugolki".parse().unwrap());
    all.push("ugolki-brainking-10".parse().unwrap());
    for rs in all {
        let game = AnyGame::new(rs);
        let legal: Vec<String> = game.legal_moves().into_iter().map(|m| m.notation).collect();
        for level in [Level::Easy, Level::Medium] {
            let mv =
                choose(&game, level, 3, 0.05).unwrap_or_else(|| panic!("{rs} {level}: no move"));
            assert!(legal.contains(&mv), "{rs} {level}: {mv} not in {legal:?}");
        }
        // Easy is deterministic for a seed.
        assert_eq!(choose(&game, Level::Easy, 9, 1.0), choose(&game, Level::Easy, 9, 1.0));
    }
}

#[test]
fn levels_parse_and_differ() {
    assert_eq!("Insane".parse::<Level>().unwrap(), Level::Insane);
    assert!("grandmaster".parse::<Level>().is_err());
    assert!(Level::Easy.recipe().random_margin.is_some());
    assert!(Level::Hard.recipe().terms.back_rank && !Level::Medium.recipe().terms.back_rank);
}
