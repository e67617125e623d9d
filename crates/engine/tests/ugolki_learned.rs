//! The learned Ugolki evaluation: the search's evaluator gives the definition's score on
//! every preset, the score is the same for either colour's view of one race, weights files
//! are read back and refused when they do not fit, custom rules keep the hand-set terms, and
//! `doska learn`'s Ugolki pipeline (self-play, fit) works on a few games.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::mix;

use doska_engine::eval::{Terms, ugolki, ugolki_learned};
use doska_engine::learn::{self, Selfplay};
use doska_rules::ugolki::{PRESETS, UgolkiMove, UgolkiPosition, UgolkiRules};

/// Every third position of a few random playouts under `rules`.
fn random_positions(rules: UgolkiRules, games: u64) -> Vec<UgolkiPosition> {
    let mut out = Vec::new();
    let mut moves: Vec<UgolkiMove> = Vec::new();
    for g in 0..games {
        let mut pos = UgolkiPosition::start(rules);
        let mut x = mix(g + 3);
        for ply in 0..120 {
            pos.legal_moves_into(&mut moves);
            x = mix(x);
            pos = pos.play(moves[(x % moves.len() as u64) as usize]).unwrap();
            if ply % 3 == 0 {
                out.push(pos);
            }
        }
    }
    out
}

/// Weights that make every feature count differently.
fn arbitrary_weights(len: usize, seed: u64) -> Vec<i32> {
    (0..len).map(|i| (mix(i as u64 ^ seed) % 4001) as i32 - 2000).collect()
}

#[test]
fn the_search_evaluator_gives_the_definitions_score_on_every_preset() {
    for (name, rules) in PRESETS {
        let layout = ugolki_learned::layout(&rules).unwrap();
        let weights = arbitrary_weights(layout.len(), 7);
        let fast = ugolki_learned::Evaluator::new(layout, &weights);
        let positions = random_positions(rules, 12);
        let mut scores = std::collections::HashSet::new();
        for pos in &positions {
            let want = ugolki_learned::evaluate(pos, &weights).unwrap();
            assert_eq!(fast.evaluate(pos), want, "{name}: {}", pos.to_fen());
            scores.insert(want);
        }
        assert!(
            scores.len() > positions.len() / 2,
            "{name}: the score hardly depends on the position"
        );
    }
}

#[test]
fn both_colours_see_one_race_the_same_way() {
    // The board turned half a turn with the colours swapped is the same race seen from the
    // other side, so White's score there is the negation of White's score here. Both are
    // compared with White to move at move 1 (nobody has moved, so the move number and the
    // leave-home deadline are the same for both), and the move's bonus is left at zero.
    let rules = UgolkiRules::UGOLKI;
    let layout = ugolki_learned::layout(&rules).unwrap();
    let mut weights = arbitrary_weights(layout.len(), 11);
    for (i, w) in weights.iter_mut().enumerate() {
        if layout.name(i) == "the move" {
            *w = 0;
        }
    }
    let list = |bits: u128, turn: bool| {
        (0..64u32)
            .filter(|i| bits >> i & 1 != 0)
            .map(|i| if turn { 63 - i } else { i })
            .map(|i| format!("{}{}", (b'a' + (i % 8) as u8) as char, i / 8 + 1))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut checked = 0;
    for pos in random_positions(rules, 8) {
        let (white, black, _) = pos.placement();
        let at_move_one = |text: String| UgolkiPosition::from_fen(rules, &text).unwrap();
        let here = at_move_one(format!("W:W{}:B{}:N1", list(white, false), list(black, false)));
        let turned = at_move_one(format!("W:W{}:B{}:N1", list(black, true), list(white, true)));
        let a = ugolki_learned::evaluate(&here, &weights).unwrap();
        assert_eq!(a, -ugolki_learned::evaluate(&turned, &weights).unwrap(), "{}", here.to_fen());
        checked += usize::from(a != 0);
    }
    assert!(checked > 20, "{checked} positions compared");
}

#[test]
fn weights_files_are_read_back_exactly_and_wrong_ones_refused() {
    let rules = UgolkiRules::UGOLKI;
    let layout = ugolki_learned::layout(&rules).unwrap();
    let weights = arbitrary_weights(layout.len(), 3);
    let bytes = ugolki_learned::encode(&rules, &weights).unwrap();
    assert_eq!(ugolki_learned::decode(&bytes, &rules).unwrap(), weights);
    // Another preset's board (8 directions: more lines of three) does not take them.
    let err = ugolki_learned::decode(&bytes, &UgolkiRules::BRAINKING).unwrap_err();
    assert!(err.contains("not ugolki-brainking"), "{err}");
    let err = ugolki_learned::decode(&bytes[..bytes.len() - 2], &rules).unwrap_err();
    assert!(err.contains("retrain"), "{err}");
    // Custom rules have no layout, so no weights and the hand-set terms.
    let custom = UgolkiRules { equal_moves: false, ..UgolkiRules::UGOLKI };
    assert!(ugolki_learned::layout(&custom).is_none());
    assert!(ugolki_learned::evaluator(&custom).is_none());
    assert!(ugolki_learned::decode(&bytes, &custom).is_err());
    let err = ugolki_learned::encode(&custom, &weights).unwrap_err();
    assert!(err.contains("per preset") && err.contains("ugolki-brainking"), "{err}");
}

#[test]
fn the_learned_evaluation_is_used_only_where_it_is_on() {
    let rules = UgolkiRules::UGOLKI;
    let e = ugolki_learned::evaluator(&rules).expect("the ugolki preset has weights");
    let hand = Terms { learned: false, ..Terms::ALL };
    let positions = random_positions(rules, 2);
    let mut differ = 0;
    for pos in &positions {
        let learned = ugolki::evaluate(pos, &Terms::ALL);
        // Before the armies pass each other Insane scores with the weights...
        if doska_engine::eval::race::exact_score(pos).is_none() {
            assert_eq!(learned, e.evaluate(pos), "{}", pos.to_fen());
        }
        // ... and with learned off (the levels below Insane) the hand-set terms score.
        differ += usize::from(learned != ugolki::evaluate(pos, &hand));
    }
    assert!(differ > positions.len() / 2, "{differ} of {} differ", positions.len());
}

#[test]
fn learning_plays_ugolki_games_and_fits_weights_that_predict_them() {
    let plan = Selfplay {
        games: 16,
        nodes: 300,
        random_plies: 4,
        threads: 1,
        seed: 2,
        terms: Terms { learned: false, ..Terms::ALL },
    };
    let rules = UgolkiRules::UGOLKI;
    let data = learn::selfplay_ugolki(rules, &plan, |_| {}).unwrap();
    assert_eq!(data.results.iter().sum::<usize>(), 16);
    assert!(data.len() > 16 * 20, "{} positions", data.len());
    let passes = learn::Passes { epochs: 5, schedule: learn::Schedule::Cosine };
    let fit = learn::fit_ugolki(&rules, &data, passes, 1.0, |_, _| {}).unwrap();
    assert_eq!(fit.weights.len(), ugolki_learned::layout(&rules).unwrap().len());
    assert!(fit.train < std::f64::consts::LN_2, "train loss {}", fit.train);
    assert!(fit.piece_means.is_none());
    let custom = UgolkiRules { equal_moves: false, ..rules };
    assert!(learn::selfplay_ugolki(custom, &plan, |_| {}).is_err());
    // Fitted to the players' search scores alone (no result), the opening table runs as the
    // race does: a piece on the far side of the board is worth more than one still at home.
    let searched = learn::fit_ugolki(&rules, &data, passes, 0.0, |_, _| {}).unwrap();
    assert_ne!(searched.weights, fit.weights);
    let early = |sq: usize| searched.weights[2 * sq];
    let home_row = (0..3).map(early).sum::<i32>();
    let far_row = (56..59).map(|sq| early(sq + 4)).sum::<i32>()
        + (48..51).map(|sq| early(sq + 4)).sum::<i32>();
    assert!(far_row / 2 > home_row, "far {far_row} (two rows) against home {home_row}");
}

#[test]
fn the_8x8_presets_have_embedded_weights_and_the_10x10_one_does_not() {
    assert!(ugolki_learned::evaluator(&UgolkiRules::UGOLKI).is_some());
    assert!(ugolki_learned::evaluator(&UgolkiRules::BRAINKING).is_some());
    assert!(ugolki_learned::evaluator(&UgolkiRules::BRAINKING_10).is_none());
}
