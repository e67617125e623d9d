//! FEN, move text and PDN: round trips and the errors a person sees.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use doska_rules::notation::{format_move, parse_move};
use doska_rules::{FenError, Game, MoveError, Position, Variant, pdn};

fn pos(v: Variant, fen: &str) -> Position {
    Position::from_fen(v, fen).unwrap_or_else(|e| panic!("{v} {fen}: {e}"))
}

#[test]
fn start_fens_round_trip_for_every_rule_set() {
    for v in Variant::ALL {
        let start = Position::start(v);
        let fen = start.to_fen();
        assert_eq!(pos(v, &fen), start, "{v}: {fen}");
    }
    assert_eq!(
        Position::start(Variant::International).to_fen(),
        "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
    );
    // Ranges and algebraic squares mean the same position.
    assert_eq!(
        pos(Variant::International, "W:W31-50:B1-20"),
        Position::start(Variant::International)
    );
    assert_eq!(
        pos(Variant::American, "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:B1-12"),
        Position::start(Variant::American)
    );
}

#[test]
fn numbering_follows_each_rule_set() {
    let name = |v: Variant, sq: &str| {
        let g = &v.rules().geometry;
        g.name(g.parse_square(sq).unwrap_or_else(|e| panic!("{e}")))
    };
    assert_eq!(name(Variant::American, "b8"), "1");
    assert_eq!(name(Variant::International, "b10"), "1");
    assert_eq!(name(Variant::International, "a1"), "46");
    assert_eq!(name(Variant::Canadian, "b12"), "1");
    assert_eq!(name(Variant::Italian, "a8"), "1");
    assert_eq!(name(Variant::Italian, "h1"), "32");
    assert_eq!(name(Variant::Spanish, "h1"), "1");
    assert_eq!(name(Variant::Russian, "c3"), "c3");
}

#[test]
fn fen_errors_say_what_is_wrong() {
    let err = |v: Variant, fen: &str| Position::from_fen(v, fen).err();
    assert!(matches!(err(Variant::Russian, ""), Some(FenError::Empty)));
    assert!(matches!(err(Variant::Russian, "X:Wc3:Bd4"), Some(FenError::BadTurn(_))));
    assert!(matches!(err(Variant::Russian, "W:Wc3,c3:Bd4"), Some(FenError::Duplicate(_))));
    assert!(matches!(err(Variant::Russian, "W:Wc3:Bc3"), Some(FenError::Duplicate(_))));
    assert!(matches!(err(Variant::Russian, "W:Wa2:B"), Some(FenError::Square { .. })));
    assert!(matches!(err(Variant::Russian, "W:Wz9:B"), Some(FenError::Square { .. })));
    assert!(matches!(err(Variant::International, "W:W51:B1"), Some(FenError::Square { .. })));
    assert!(matches!(err(Variant::International, "W:W40-31:B1"), Some(FenError::BadRange(_))));
    assert!(matches!(err(Variant::Russian, "W:Wb8:B"), Some(FenError::ManOnLastRow { .. })));
    assert!(matches!(err(Variant::Russian, "W:Wc3/b:B"), Some(FenError::BadColumn(_))));
    assert!(matches!(err(Variant::Lasca, "W:Wa1/x:B"), Some(FenError::BadColumn(_))));
    assert!(matches!(err(Variant::Russian, "W:Wc3:Bd4:Q1"), Some(FenError::BadField(_))));
    assert!(matches!(err(Variant::Russian, "W:Wc3:Bd4:Hx"), Some(FenError::BadCounter(_))));
    let msg = err(Variant::International, "W:W51:B1").map(|e| e.to_string()).unwrap_or_default();
    assert!(msg.contains("numbered 1 to 50"), "{msg}");
}

#[test]
fn move_text_resolves_and_explains() {
    let p = Position::start(Variant::International);
    let mv = parse_move(&p, "32-28").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(format_move(&p, &mv, &p.legal_moves()), "32-28");
    // Algebraic squares work in every rule set.
    let alg = parse_move(&p, "d4-e5").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(format_move(&p, &alg, &p.legal_moves()), "32-28");

    let p = pos(Variant::Russian, "W:Wc3,h2:Bd4");
    assert!(matches!(parse_move(&p, "h2-g3"), Err(MoveError::MustCapture(_))));
    assert!(matches!(parse_move(&p, "d4-e3"), Err(MoveError::NotYourPiece { .. })));
    assert!(matches!(parse_move(&p, "a1-b2"), Err(MoveError::NoPiece(_))));
    assert!(matches!(parse_move(&p, "c3"), Err(MoveError::Syntax(_))));
    assert!(matches!(parse_move(&p, "c3-"), Err(MoveError::Syntax(_))));
    assert!(matches!(parse_move(&p, "c3-z9"), Err(MoveError::Square(_))));
    let text = parse_move(&p, "h2-g3").err().map(|e| e.to_string()).unwrap_or_default();
    assert_eq!(text, "capture is compulsory: the piece on c3 must capture");

    // Majority rule: the shorter capture is refused with the reason.
    let p = pos(Variant::Brazilian, "W:Wc1,g1:Bb2,f2,d4");
    let e = parse_move(&p, "c1xa3").err().map(|e| e.to_string()).unwrap_or_default();
    assert_eq!(e, "you must capture the most pieces (2)");
}

#[test]
fn ambiguous_captures_need_the_landing_squares() {
    // American men capture forward only, so neither route can loop back to c1.
    let p = pos(Variant::American, "W:Wc1:Bb2,b4,d2,d4");
    let legal = p.legal_moves();
    assert_eq!(legal.len(), 2);
    let texts: Vec<String> = legal.iter().map(|m| format_move(&p, m, &legal)).collect();
    assert!(texts.contains(&"30x21x14".to_string()), "{texts:?}");
    assert!(texts.contains(&"30x23x14".to_string()), "{texts:?}");
    assert!(matches!(parse_move(&p, "30x14"), Err(MoveError::Ambiguous { .. })));
    let m = parse_move(&p, "c1xe3xc5").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.captured_bits().count_ones(), 2);
    // A capture cut short is refused.
    assert!(matches!(parse_move(&p, "c1xe3"), Err(MoveError::Incomplete(_))));
    // A flying king's full path names its move even where a longer route passes the same
    // landing squares and ends on the same square.
    let p = pos(Variant::Poddavki, "W:WKb8:Bc7,e7,g7,g5,g3");
    for text in ["b8:f4:h2", "b8:f4:h6:f8:d6:h2"] {
        let m = parse_move(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let legal = p.legal_moves();
        assert_eq!(format_move(&p, &m, &legal), text);
    }
    assert!(matches!(parse_move(&p, "b8:h2"), Err(MoveError::Ambiguous { .. })));
    // In Russian the two routes go on round to c1 and become one move of four captures.
    let p = pos(Variant::Russian, "W:Wc1:Bb2,b4,d2,d4");
    let legal = p.legal_moves();
    assert_eq!(legal.len(), 1);
    assert_eq!(legal[0].capture_count(), 4);
}

/// Plays a deterministic pseudo-random game and checks FEN and PDN round trips on the way.
fn random_game(v: Variant, seed: u64, plies: usize) -> Game {
    let mut g = Game::new(v);
    let mut x = seed | 1;
    for _ in 0..plies {
        let legal = g.legal_moves();
        if legal.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mv = legal[(x % legal.len() as u64) as usize];
        let p = g.position().clone();
        let text = format_move(&p, &mv, &legal);
        let back =
            parse_move(&p, &text).unwrap_or_else(|e| panic!("{v} {}: {text}: {e}", p.to_fen()));
        assert!(
            back.from == mv.from && back.to == mv.to && back.captured_bits() == mv.captured_bits()
        );
        assert_eq!(pos(v, &p.to_fen()), p, "{v} FEN round trip");
        if let Err(e) = g.play(&mv) {
            panic!("{v}: {e}");
        }
    }
    g
}

#[test]
fn pdn_round_trips_for_every_rule_set() {
    for v in Variant::ALL {
        for seed in 1..4u64 {
            let g = random_game(v, seed * 7919, 120);
            let text = pdn::write(&g, &[("Event", "doska test")]);
            let back = pdn::read(&text, None).unwrap_or_else(|e| panic!("{v}: {e}\n{text}"));
            assert_eq!(back.game.moves().len(), g.moves().len(), "{v}\n{text}");
            assert_eq!(back.game.position(), g.position(), "{v}\n{text}");
            assert_eq!(back.game.outcome(), g.outcome(), "{v}\n{text}");
        }
    }
}

#[test]
fn pdn_reads_game_types_comments_and_reports_bad_moves() {
    let text = "[GameType \"20\"]\n1. 32-28 {a comment} 19-23 2. 28x19 (2. 33-29) 14x23 1-0\n";
    let g = pdn::read(text, None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.game.variant(), Variant::International);
    assert_eq!(g.game.moves().len(), 4);
    assert_eq!(g.result.as_deref(), Some("1-0"));
    let bad = pdn::read("[Variant \"russian\"]\n1. c3-d4 f6-g5 2. d4-d5 *", None);
    let msg = bad.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(msg.starts_with("move 3 (d4-d5)"), "{msg}");
    assert!(pdn::read("1. 32-28", None).is_err(), "no rule set named");
    assert!(pdn::read("[Variant \"chess\"]\n", None).is_err());
    assert!(pdn::read("[Variant \"russian\"]\n1. c3-d4 {open", None).is_err());
}
