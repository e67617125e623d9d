//! Rules text, position text (FEN) and move text.

use std::collections::HashSet;

use super::{Rng, jump, pos, rules, sq, step};
use crate::Color;
use crate::ugolki::{
    BoardSize, Directions, FenError, HomeShape, IllegalReason, LeaveHalf, LeaveHome, MoveTextError,
    PRESETS, RulesError, RulesTextError, UgolkiMove, UgolkiPosition, UgolkiRules,
};

// ---- rules text ----

#[test]
fn presets_print_as_their_ids() {
    for (id, preset) in PRESETS {
        assert_eq!(preset.to_string(), id);
        assert_eq!(rules(id), preset);
        assert_eq!(preset.preset_id(), Some(id));
        assert_eq!(preset.validate(), Ok(()));
    }
    assert_eq!(UgolkiRules::default(), UgolkiRules::UGOLKI);
}

#[test]
fn a_non_canonical_text_of_a_preset_normalises_to_its_id() {
    let long = "ugolki:board=10,home=4x4,dirs=8,home-rule=brainking-50,half-rule=off,equal=off";
    assert_eq!(rules(long), UgolkiRules::BRAINKING_10);
    assert_eq!(rules(long).to_string(), "ugolki-brainking-10");
    // Any order, spaces, case, values equal to the preset's, a key repeated with one value.
    for text in [
        "ugolki:dirs=8,equal=off",
        "ugolki:equal=off,dirs=8",
        "  UGOLKI : Equal = OFF , dirs = 8 ",
        "ugolki:board=8,home=3x3,dirs=8,equal=off,dirs=8",
        "ugolki-brainking:home-rule=ugolki-40",
    ] {
        assert_eq!(rules(text).to_string(), "ugolki-brainking:home-rule=ugolki-40", "{text}");
    }
    assert_eq!(rules("ugolki:board=10x10").to_string(), rules("ugolki:board=10").to_string());
    assert_eq!(rules("ugolki:home=staircase"), rules("ugolki:home=stair"));
}

#[test]
fn custom_rule_sets_have_one_canonical_text_that_round_trips() {
    let mut seen = HashSet::new();
    let mut count = 0;
    for board in [BoardSize::Eight, BoardSize::Ten] {
        for home in
            [HomeShape::Square3, HomeShape::Rect3x4, HomeShape::Staircase, HomeShape::Square4]
        {
            for directions in [Directions::Orthogonal, Directions::All] {
                for leave_home in [
                    LeaveHome::Off,
                    LeaveHome::Ugolki(40),
                    LeaveHome::Ugolki(7),
                    LeaveHome::BrainKing(30),
                    LeaveHome::BrainKing(50),
                ] {
                    for leave_half in [LeaveHalf::Off, LeaveHalf::After(20)] {
                        for equal_moves in [true, false] {
                            let r = UgolkiRules {
                                board,
                                home,
                                directions,
                                leave_home,
                                leave_half,
                                equal_moves,
                            };
                            // Homes never overlap: even a 4x4 home fits an 8x8 board.
                            assert_eq!(r.validate(), Ok(()), "{r:?}");
                            let text = r.to_string();
                            assert_eq!(rules(&text), r, "{text}");
                            assert!(seen.insert(text.clone()), "two rule sets print {text}");
                            count += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(seen.len(), count);
    // A few canonical forms.
    let custom = UgolkiRules { directions: Directions::All, ..UgolkiRules::UGOLKI };
    assert_eq!(custom.to_string(), "ugolki:dirs=8");
    let custom = UgolkiRules { home: HomeShape::Square4, ..UgolkiRules::UGOLKI };
    assert_eq!(custom.to_string(), "ugolki:home=4x4");
    let custom = UgolkiRules { home: HomeShape::Rect3x4, ..UgolkiRules::BRAINKING_10 };
    assert_eq!(custom.to_string(), "ugolki-brainking-10:home=3x4");
    let custom = UgolkiRules {
        leave_home: LeaveHome::Off,
        leave_half: LeaveHalf::After(25),
        ..UgolkiRules::UGOLKI
    };
    assert_eq!(custom.to_string(), "ugolki:home-rule=off,half-rule=25");
}

#[test]
fn bad_rules_texts_say_what_is_wrong() {
    let err = |text: &str| text.parse::<UgolkiRules>().unwrap_err();
    assert_eq!(err(""), RulesTextError::Empty);
    assert_eq!(err("corners"), RulesTextError::UnknownPreset { found: "corners".into() });
    assert_eq!(err("ugolki:dirs"), RulesTextError::NotAParameter { found: "dirs".into() });
    assert_eq!(err("ugolki:"), RulesTextError::NotAParameter { found: "".into() });
    assert_eq!(err("ugolki:size=8"), RulesTextError::UnknownKey { key: "size".into() });
    assert_eq!(err("ugolki:dirs=6"), RulesTextError::BadValue { key: "dirs", found: "6".into() });
    assert_eq!(
        err("ugolki:home-rule=brainking-x"),
        RulesTextError::BadValue { key: "home-rule", found: "brainking-x".into() }
    );
    assert_eq!(
        err("ugolki:home-rule=ugolki-0"),
        RulesTextError::Invalid(RulesError::LeaveHomeMoves { moves: 0 })
    );
    assert_eq!(
        err("ugolki:half-rule=150"),
        RulesTextError::Invalid(RulesError::LeaveHalfMoves { moves: 150 })
    );
    assert_eq!(
        err("ugolki:half-rule=99999"),
        RulesTextError::BadValue { key: "half-rule", found: "99999".into() }
    );
    assert_eq!(
        err("ugolki:dirs=4,dirs=8"),
        RulesTextError::Conflict { key: "dirs", first: "4".into(), second: "8".into() }
    );
    assert_eq!(
        err("ugolki:home=5x5").to_string(),
        "bad value `5x5` for home: expected 3x3, 3x4, stair or 4x4"
    );
    assert_eq!(
        err("ugolki:size=8").to_string(),
        "unknown parameter `size`: expected board, home, dirs, home-rule, half-rule or equal"
    );
    assert!(err("ugolki:home-rule=ugolki-0").to_string().contains("1 to 149"));
    // The overlap check's message (no shape overlaps on today's boards).
    let overlap = RulesError::HomesOverlap { board: BoardSize::Eight, home: HomeShape::Square4 };
    assert_eq!(
        overlap.to_string(),
        "a 4x4 home does not fit the 8x8 board: White's and Black's homes would overlap"
    );
}

// ---- position text ----

#[test]
fn fen_of_the_start_and_round_trips() {
    let start = UgolkiPosition::start(UgolkiRules::UGOLKI);
    let fen = "W:Wa1,b1,c1,a2,b2,c2,a3,b3,c3:Bf6,g6,h6,f7,g7,h7,f8,g8,h8:N1";
    assert_eq!(start.to_fen(), fen);
    assert_eq!(pos(UgolkiRules::UGOLKI, fen), start);
    // Random playouts of every preset: every position round-trips.
    let mut rng = Rng(7);
    for (_, rules) in PRESETS {
        let mut p = UgolkiPosition::start(rules);
        for _ in 0..120 {
            assert_eq!(UgolkiPosition::from_fen(rules, &p.to_fen()), Ok(p));
            let moves = p.legal_moves();
            p = p.play(moves[rng.below(moves.len())]).unwrap();
        }
    }
}

#[test]
fn fen_move_number_gives_both_move_counts() {
    let p = pos(UgolkiRules::UGOLKI, "B:Wa1:Bh8:N12");
    assert_eq!((p.moves_made(Color::White), p.moves_made(Color::Black)), (12, 11));
    assert_eq!(p.fullmove_number(), 12);
    let p = pos(UgolkiRules::UGOLKI, "W:Wa1:Bh8:N12");
    assert_eq!((p.moves_made(Color::White), p.moves_made(Color::Black)), (11, 11));
    // Default move number, spaces, lower-case tags, lists in either order.
    let p = pos(UgolkiRules::UGOLKI, "  b : bh8 , g8 : wa1 ");
    assert_eq!(p.to_fen(), "B:Wa1:Bg8,h8:N1");
    assert_eq!(p.moves_made(Color::White), 1);
    // 10x10 squares.
    let p = pos(UgolkiRules::BRAINKING_10, "W:Wj10,a1:Bb2:N99");
    assert_eq!(p.to_fen(), "W:Wa1,j10:Bb2:N99");
}

#[test]
fn bad_fens_say_what_is_wrong() {
    let err = |rules, text: &str| UgolkiPosition::from_fen(rules, text).unwrap_err();
    let u = UgolkiRules::UGOLKI;
    assert_eq!(err(u, "  "), FenError::Empty);
    assert_eq!(err(u, "X:Wa1:Bh8"), FenError::BadSide { found: "X".into() });
    assert_eq!(err(u, "W:Wa1:Bh8:Q5"), FenError::UnknownPart { part: "Q5".into() });
    assert_eq!(err(u, "W:Wa1:Wb1:Bh8"), FenError::RepeatedPart { tag: 'W' });
    assert_eq!(err(u, "W:Wa1:Bh8:N2:N3"), FenError::RepeatedPart { tag: 'N' });
    assert_eq!(err(u, "W:Wa1"), FenError::MissingPieces { side: Color::Black });
    assert_eq!(err(u, "W:Bh8"), FenError::MissingPieces { side: Color::White });
    assert_eq!(err(u, "W:Wz1:Bh8"), FenError::BadSquare { found: "z1".into() });
    assert_eq!(err(u, "W:Wa1,:Bh8"), FenError::BadSquare { found: "".into() });
    assert_eq!(err(u, "W:Wa9:Bh8"), FenError::OffBoard { square: sq("a9"), width: 8 });
    assert_eq!(err(u, "W:Wj10:Bh8"), FenError::OffBoard { square: sq("j10"), width: 8 });
    assert_eq!(err(u, "W:Wa1,a1:Bh8"), FenError::Duplicate { square: sq("a1") });
    assert_eq!(err(u, "W:Wa1:Ba1"), FenError::Duplicate { square: sq("a1") });
    assert_eq!(
        err(u, "W:Wa1,b1,c1,d1,e1,f1,g1,h1,a2,b2:Bh8"),
        FenError::TooManyPieces { side: Color::White, count: 10, max: 9 }
    );
    assert_eq!(err(u, "W:W:Bh8"), FenError::NoPieces { side: Color::White });
    for n in ["N0", "N", "N-1", "N70000", "N1x", "N+3"] {
        assert!(matches!(err(u, &format!("W:Wa1:Bh8:{n}")), FenError::BadMoveNumber { .. }), "{n}");
    }
    assert_eq!(
        err(u, "W:Wa1,b1,c1,d1,e1,f1,g1,h1,a2,b2:Bh8").to_string(),
        "White has 10 pieces, but these rules give each side at most 9"
    );
    assert_eq!(err(u, "W:Wa9:Bh8").to_string(), "a9 is off the 8x8 board");
}

// ---- move text ----

#[test]
fn move_text_reads_and_writes_moves() {
    let start = UgolkiPosition::start(UgolkiRules::UGOLKI);
    assert_eq!(start.parse_move("c3-d3"), Ok(step("c3", "d3")));
    assert_eq!(start.parse_move(" C3 - D3 "), Ok(step("c3", "d3")));
    assert_eq!(start.parse_move("b1-d1"), Ok(jump("b1", "d1")));
    assert_eq!(step("c3", "c4").to_string(), "c3-c4");
    assert_eq!(jump("c3", "e5").to_string(), "c3-e5");
    assert_eq!(UgolkiMove::Pass.to_string(), "pass");
    for mv in start.legal_moves() {
        assert_eq!(start.parse_move(&mv.to_string()), Ok(mv));
    }
}

#[test]
fn bad_move_texts_say_what_is_wrong() {
    let start = UgolkiPosition::start(UgolkiRules::UGOLKI);
    let illegal = |text: &str| match start.parse_move(text) {
        Err(MoveTextError::Illegal(err)) => err.reason,
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(start.parse_move(" "), Err(MoveTextError::Empty));
    assert_eq!(start.parse_move("c3"), Err(MoveTextError::TooShort { text: "c3".into() }));
    assert_eq!(
        start.parse_move("c3-z9"),
        Err(MoveTextError::BadSquare { text: "c3-z9".into(), part: "z9".into() })
    );
    assert_eq!(
        start.parse_move("c3--d3"),
        Err(MoveTextError::BadSquare { text: "c3--d3".into(), part: "".into() })
    );
    assert_eq!(illegal("pass"), IllegalReason::PassNotAllowed);
    assert_eq!(illegal("a1-i1"), IllegalReason::OffBoard { square: sq("i1"), width: 8 });
    assert_eq!(
        illegal("d4-d5"),
        IllegalReason::NotYourPiece { square: sq("d4"), side: Color::White }
    );
    assert_eq!(illegal("c3-e5"), IllegalReason::Unreachable { from: sq("c3"), to: sq("e5") });
    assert_eq!(illegal("c3-c4-c5"), IllegalReason::NotAJump { from: sq("c3"), to: sq("c4") });
    assert_eq!(
        start.parse_move("c3-e5").unwrap_err().to_string(),
        "illegal move c3-e5: neither a step nor a chain of jumps leads from c3 to e5"
    );
}

/// Parsers never panic, whatever the text.
#[test]
fn parsers_never_panic() {
    let alphabet: Vec<char> =
        "WBNwbn:,-=x 0123456789abcdefghijklz ugolki-brainking.\u{e9}\u{2014}".chars().collect();
    let mut rng = Rng(99);
    let positions: Vec<UgolkiPosition> =
        PRESETS.iter().map(|&(_, r)| UgolkiPosition::start(r)).collect();
    for _ in 0..20_000 {
        let len = rng.below(24);
        let text: String = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
        let _ = text.parse::<UgolkiRules>();
        for p in &positions {
            let _ = UgolkiPosition::from_fen(*p.rules(), &text);
            let _ = p.parse_move(&text);
        }
    }
    // Mutations of valid texts.
    let fen = UgolkiPosition::start(UgolkiRules::BRAINKING_10).to_fen();
    for i in 0..fen.len() {
        for c in [':', ',', 'W', 'B', 'N', '9', 'k', ' '] {
            let mut mutated = fen.clone();
            mutated.replace_range(i..i + 1, &c.to_string());
            let _ = UgolkiPosition::from_fen(UgolkiRules::BRAINKING_10, &mutated);
            let _ = UgolkiPosition::from_fen(UgolkiRules::UGOLKI, &mutated);
        }
    }
}
