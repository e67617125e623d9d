//! The learned evaluation: the same for both colours, its weights file read back exactly and
//! refused when it does not fit, the embedded weights in use, and `doska learn`'s pipeline
//! (self-play, fit) on a few games.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{mirrored, mix};

use doska_engine::eval::{Terms, draughts, learned};
use doska_engine::learn::{self, Selfplay};
use doska_rules::bits;
use doska_rules::{Move, Position, Square, Variant};

/// Positions from random games: every fourth position of a few random playouts.
fn random_positions(v: Variant, games: u64) -> Vec<Position> {
    let mut out = Vec::new();
    let mut moves: Vec<Move> = Vec::new();
    for g in 0..games {
        let mut pos = Position::start(v);
        let mut x = mix(g + 17);
        for ply in 0..160 {
            pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                break;
            }
            x = mix(x);
            pos = pos.play(&moves[(x % moves.len() as u64) as usize]);
            if ply % 4 == 0 {
                out.push(pos.clone());
            }
        }
    }
    out
}

#[test]
fn a_position_and_its_mirror_with_the_other_side_to_move_score_the_same() {
    let weights = learned::weights(Variant::Russian).expect("russian weights are embedded");
    let positions = random_positions(Variant::Russian, 40);
    assert!(positions.len() > 200);
    let mut differ = 0;
    for pos in &positions {
        let a = learned::evaluate(pos, weights);
        assert_eq!(a, learned::evaluate(&mirrored(pos), weights), "{pos:?}");
        differ += (a != learned::evaluate(&Position::start(Variant::Russian), weights)) as usize;
    }
    assert!(differ > positions.len() / 2, "the evaluation hardly depends on the position");
    // And with arbitrary weights on every board (Lasca's columns are not mirrored here).
    for v in Variant::ALL.into_iter().filter(|v| *v != Variant::Lasca) {
        let n = learned::layout(v).len() as u64;
        let weights: Vec<i32> = (0..n).map(|i| (mix(i + 3 * n) % 4001) as i32 - 2000).collect();
        for pos in random_positions(v, 4) {
            let a = learned::evaluate(&pos, &weights);
            assert_eq!(a, learned::evaluate(&mirrored(&pos), &weights), "{v} {pos:?}");
        }
    }
}

#[test]
fn the_embedded_weights_are_what_insane_evaluates_with() {
    let weights = learned::weights(Variant::Russian).unwrap();
    assert_eq!(weights.len(), learned::layout(Variant::Russian).len());
    let hand = Terms { learned: false, ..Terms::ALL };
    let mut differ = 0;
    for pos in random_positions(Variant::Russian, 5) {
        assert_eq!(draughts::evaluate(&pos, &Terms::ALL), learned::evaluate(&pos, weights));
        differ += (draughts::evaluate(&pos, &hand) != learned::evaluate(&pos, weights)) as usize;
    }
    assert!(differ > 0);
}

#[test]
fn the_search_evaluator_gives_the_definitions_score_on_every_board() {
    // The embedded weights, and arbitrary ones on every board (8x8, 10x10, 12x12, the
    // orthogonal boards, Lasca's columns), in positions of random games.
    let russian = learned::weights(Variant::Russian).unwrap();
    let fast = learned::evaluator(Variant::Russian).unwrap();
    for pos in random_positions(Variant::Russian, 20) {
        assert_eq!(fast.evaluate(&pos), learned::evaluate(&pos, russian), "{pos:?}");
    }
    for v in Variant::ALL {
        let n = learned::layout(v).len() as u64;
        let weights: Vec<i32> = (0..n).map(|i| (mix(i + n) % 4001) as i32 - 2000).collect();
        let fast = learned::Evaluator::new(v, &weights);
        let positions = random_positions(v, 6);
        assert!(positions.len() > 20, "{v}");
        if v == Variant::Lasca {
            let tall =
                |p: &&Position| bits::iter(p.occupied()).any(|s| !p.under(Square(s)).is_empty());
            assert!(positions.iter().filter(tall).count() > 5, "too few Lasca columns");
        }
        for pos in positions.iter().chain([&Position::start(v)]) {
            assert_eq!(fast.evaluate(pos), learned::evaluate(pos, &weights), "{v} {pos:?}");
        }
    }
}

#[test]
fn a_man_up_scores_well_and_a_quiet_start_near_even() {
    let weights = learned::weights(Variant::Russian).unwrap();
    let start = Position::start(Variant::Russian);
    assert!(learned::evaluate(&start, weights).abs() < 50);
    let mut down = start.clone();
    // White (to move) is a man down.
    let white = start.pieces(start.turn());
    down.put(Square(white.trailing_zeros() as u8), None);
    let s = learned::evaluate(&down, weights);
    assert!((-250..=-40).contains(&s), "a man down at the start scores {s}");
}

#[test]
fn weights_files_are_read_back_exactly_and_wrong_ones_refused() {
    let layout = learned::layout(Variant::Brazilian);
    let weights: Vec<i32> = (0..layout.len() as i32).map(|i| (i * 37) % 2001 - 1000).collect();
    let bytes = learned::encode(Variant::Brazilian, &weights);
    assert_eq!(learned::decode(&bytes, Variant::Brazilian).unwrap(), weights);
    let err = learned::decode(&bytes, Variant::Russian).unwrap_err();
    assert!(err.contains("brazilian"), "{err}");
    let err = learned::decode(&bytes[..bytes.len() - 2], Variant::Brazilian).unwrap_err();
    assert!(err.contains("retrain"), "{err}");
    assert!(learned::decode(b"nonsense", Variant::Brazilian).unwrap_err().contains("header"));
    // The international board has its own layout: Brazilian weights do not fit it.
    let short = learned::encode(Variant::International, &weights);
    assert!(learned::decode(&short, Variant::International).is_err());
}

#[test]
fn learning_plays_games_and_fits_weights_that_predict_them() {
    let plan = Selfplay {
        games: 40,
        nodes: 300,
        random_plies: 3,
        threads: 1,
        seed: 5,
        terms: Terms { learned: false, ..Terms::ALL },
    };
    let data = learn::selfplay(Variant::Russian, &plan, |_| {});
    assert_eq!(data.results.iter().sum::<usize>(), 40);
    assert!(data.len() > 40 * 10, "{} positions", data.len());
    let plan = learn::FitPlan {
        passes: learn::Passes { epochs: 5, schedule: learn::Schedule::Cosine },
        result_share: 1.0,
        search_scale: learn::SearchScale::HandSet,
        material: learn::Material::Learned,
        units: learn::Units::Man,
        min_count: 0,
    };
    let fit = learn::fit(Variant::Russian, &data, &plan, |_, _| {});
    assert_eq!(fit.weights.len(), learned::layout(Variant::Russian).len());
    // Fitted to these positions, the weights explain them better than a coin.
    assert!(fit.train < std::f64::consts::LN_2, "train loss {}", fit.train);
    let (man, _) = fit.piece_means.expect("draughts fits report the pieces' means");
    assert!((man - 100.0).abs() < 1.0, "a man is worth {man}");
    // Saved and read back, the positions give the same fit to the last weight.
    let text = data.save(Variant::Russian).unwrap();
    assert!(text.starts_with("# doska learn positions: russian\n"));
    let again = learn::Data::load(Variant::Russian, &text).unwrap();
    assert_eq!((again.len(), again.results), (data.len(), data.results));
    assert_eq!(learn::fit(Variant::Russian, &again, &plan, |_, _| {}).weights, fit.weights);
    // A weight whose feature occurs too seldom is held at zero: at one (or none) every weight
    // is fitted; at the most there is, none; at nine tenths of the positions (the fit sees
    // nineteen twentieths, and each side's view counts apart), only the features nearly every
    // position has, as the move and the material shares.
    let counted = |min_count| {
        let plan = learn::FitPlan { min_count, units: learn::Units::HandSet, ..plan };
        learn::fit(Variant::Russian, &data, &plan, |_, _| {})
    };
    assert_eq!(counted(1).weights, counted(0).weights);
    assert_eq!(counted(0).rare, 0);
    let none = counted(usize::MAX);
    assert!(none.weights.iter().all(|w| *w == 0));
    assert_eq!(none.rare, none.weights.len());
    let common = counted(data.len() * 9 / 10);
    let kept = common.weights.iter().filter(|w| **w != 0).count();
    let tempo = learned::layout(Variant::Russian).len() - 1;
    assert!(common.weights[tempo] != 0 && kept < 40, "{kept} weights kept");
    assert!(common.rare + kept <= common.weights.len() && common.rare + 40 > common.weights.len());
    // The schedule reaches the fit: a constant step ends elsewhere.
    let constant = learn::FitPlan {
        passes: learn::Passes { schedule: learn::Schedule::Constant, ..plan.passes },
        ..plan
    };
    assert_ne!(learn::fit(Variant::Russian, &data, &constant, |_, _| {}).weights, fit.weights);
    // Read at their own scale, the players' search scores make the same labels in any units:
    // the same games with every score ten times wider fit to the same weights, where the
    // hand-set scale reads the wider scores as surer.
    let wide = text
        .lines()
        .map(|line| match line.split('\t').collect::<Vec<_>>()[..] {
            [fen, score, result, game] => {
                format!("{fen}\t{}\t{result}\t{game}\n", score.parse::<i32>().unwrap() * 10)
            }
            _ => format!("{line}\n"),
        })
        .collect::<String>();
    let wide = learn::Data::load(Variant::Russian, &wide).unwrap();
    let own =
        learn::FitPlan { result_share: 0.5, search_scale: learn::SearchScale::Searched, ..plan };
    let (narrow_fit, wide_fit) = (
        learn::fit(Variant::Russian, &data, &own, |_, _| {}),
        learn::fit(Variant::Russian, &wide, &own, |_, _| {}),
    );
    let ratio = wide_fit.search_scale / narrow_fit.search_scale;
    assert!((ratio - 10.0).abs() < 0.01, "{ratio}");
    let most_apart = |a: &[i32], b: &[i32]| a.iter().zip(b).map(|(x, y)| (x - y).abs()).max();
    assert!(most_apart(&narrow_fit.weights, &wide_fit.weights) <= Some(1));
    let hand_read = learn::FitPlan { search_scale: learn::SearchScale::HandSet, ..own };
    let (narrow_hand, wide_hand) = (
        learn::fit(Variant::Russian, &data, &hand_read, |_, _| {}),
        learn::fit(Variant::Russian, &wide, &hand_read, |_, _| {}),
    );
    assert_eq!(narrow_hand.search_scale, narrow_hand.scale);
    assert!(most_apart(&narrow_hand.weights, &wide_hand.weights) > Some(16));
    // A wrong file is refused with its line and what is wrong.
    let err = learn::Data::load(Variant::American, &text).unwrap_err();
    assert!(err.contains("russian's, not american's"), "{err}");
    let line = text.lines().nth(3).unwrap();
    let bad = format!("{}\n{}\n", text.lines().next().unwrap(), line.replace('\t', " "));
    let err = learn::Data::load(Variant::Russian, &bad).unwrap_err();
    assert!(err.starts_with("line 2: 1 fields"), "{err}");
    let fields: Vec<&str> = line.split('\t').collect();
    let bad = format!(
        "# doska learn positions: russian\n{}\t{}\t2\t{}\n",
        fields[0], fields[1], fields[3]
    );
    let err = learn::Data::load(Variant::Russian, &bad).unwrap_err();
    assert!(err.contains("line 2: result \"2\""), "{err}");
    assert!(
        learn::Data::load(Variant::Russian, "W:W1:B2\n").unwrap_err().contains("not a file of")
    );
    // In the hand-set units the same fit is written at the hand-set evaluation's scale: each
    // weight is the man-units one times the ratio of the two scales.
    let hand_units = learn::FitPlan { units: learn::Units::HandSet, ..plan };
    let hand = learn::fit(Variant::Russian, &data, &hand_units, |_, _| {});
    assert_eq!(hand.per_unit, hand.scale);
    assert!((fit.per_unit - hand.per_unit).abs() > 1.0, "the two units differ on these games");
    for (a, b) in hand.weights.iter().zip(&fit.weights) {
        let want = *b as f64 * hand.per_unit / fit.per_unit;
        assert!((*a as f64 - want).abs() <= 1.0 + want.abs() * 1e-6, "{a} against {want}");
    }
    // Held at the hand-set material, the pieces' worth stays as it is and the rest is fitted.
    let held = learn::fit(
        Variant::Russian,
        &data,
        &learn::FitPlan { material: learn::Material::HandSet, ..hand_units },
        |_, _| {},
    );
    let material = learned::layout(Variant::Russian).material();
    for &(j, value) in &material {
        assert_eq!(
            held.weights[j],
            (value * 16.0).round() as i32,
            "{}",
            learned::layout(Variant::Russian).name(j)
        );
    }
    let king = draughts::king_value(Variant::Russian.rules()) as f64;
    assert!(material.iter().any(|&(_, v)| v == king), "the king's table is held at {king}");
    let fitted = (0..held.weights.len()).filter(|j| material.iter().all(|(m, _)| m != j));
    assert!(fitted.filter(|&j| held.weights[j] != 0).count() > 100);
    assert!(held.train < std::f64::consts::LN_2, "train loss {}", held.train);
}

#[test]
fn walks_off_the_games_lines_add_quiet_positions_labelled_by_search() {
    let plan = Selfplay {
        games: 6,
        nodes: 200,
        random_plies: 3,
        threads: 1,
        seed: 3,
        terms: Terms { learned: false, ..Terms::ALL },
    };
    let v = Variant::Turkish;
    let data = learn::selfplay(v, &plan, |_| {});
    let explore = learn::Explore { nodes: 200, plies: 4, walks: 1, threads: 2 };
    let off = learn::explore(v, &data, &explore, |_| {});
    // Most walks end in a quiet position that is not already decided.
    assert!(off.len() > data.len() / 2, "{} walks kept of {}", off.len(), data.len());
    assert_eq!(off.off_line(), off.len());
    assert_eq!(off.results, [0, 0, 0], "walks add no games");
    let text = off.save(v).unwrap();
    let games = data.save(v).unwrap();
    let on_line: std::collections::HashSet<&str> =
        games.lines().skip(1).map(|l| l.split('\t').next().unwrap()).collect();
    let mut new = 0;
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields[2], "-", "a walk's position has no result: {line}");
        let pos = doska_rules::Position::from_fen(v, fields[0]).unwrap();
        assert!(!pos.has_capture() && !pos.legal_moves().is_empty(), "{line}");
        new += usize::from(!on_line.contains(fields[0]));
    }
    assert!(new * 2 > off.len(), "only {new} of {} walks left the games' lines", off.len());
    // Read back, they are off the lines again, and a fit takes them in beside the games
    // without counting them as games or measuring by them.
    let again = learn::Data::load(v, &text).unwrap();
    assert_eq!((again.len(), again.off_line(), again.results), (off.len(), off.len(), [0, 0, 0]));
    let mut both = learn::Data::load(v, &games).unwrap();
    both.append(again);
    assert_eq!((both.len(), both.results), (data.len() + off.len(), data.results));
    let fit_plan = learn::FitPlan {
        passes: learn::Passes { epochs: 3, schedule: learn::Schedule::Cosine },
        result_share: 1.0,
        search_scale: learn::SearchScale::HandSet,
        material: learn::Material::Learned,
        units: learn::Units::Spread,
        min_count: 0,
    };
    let alone = learn::fit(v, &data, &fit_plan, |_, _| {});
    let with = learn::fit(v, &both, &fit_plan, |_, _| {});
    assert_ne!(alone.weights, with.weights);
    assert_eq!(alone.scale, with.scale, "the scale is the games' alone");
    assert!(with.train.is_finite() && with.train < std::f64::consts::LN_2, "{}", with.train);
}

#[test]
fn a_weights_file_serves_its_own_board_and_no_other() {
    let russian = include_bytes!("../weights/russian.eval");
    let weights = learned::read_for(russian, Variant::Russian).unwrap();
    assert_eq!(weights, learned::weights(Variant::Russian).unwrap());
    // Brazilian and Czech are played on Russian's board, seen the same way...
    assert_eq!(learned::read_for(russian, Variant::Brazilian).unwrap(), weights);
    assert_eq!(learned::read_for(russian, Variant::Czech).unwrap(), weights);
    // ... Italian and Spanish on its mirror image, international on another board.
    for v in [Variant::Italian, Variant::Spanish, Variant::International] {
        let err = learned::read_for(russian, v).unwrap_err();
        assert!(err.contains("russian") && err.contains(&v.to_string()), "{err}");
    }
    assert!(learned::read_for(b"nonsense", Variant::Russian).unwrap_err().contains("header"));
    // A borrower evaluates with its owner's weights.
    for v in Variant::ALL {
        let owner = learned::weights_of(v);
        if owner != v {
            assert_eq!(learned::weights(v), learned::weights(owner), "{v}");
        }
    }
}

#[test]
fn every_embedded_weights_file_fits_its_board() {
    // A file that no longer fits its layout is dropped silently at run time (Insane falls
    // back to the hand-set terms), so each one the build embeds is checked here.
    let own = [
        Variant::Russian,
        Variant::American,
        Variant::Italian,
        Variant::Spanish,
        Variant::Thai,
        Variant::Frisian,
        Variant::Poddavki,
        Variant::Lasca,
        Variant::International,
        Variant::Canadian,
        Variant::Turkish,
        Variant::Armenian,
    ];
    for v in own {
        assert_eq!(learned::weights_of(v), v);
        assert!(learned::evaluator(v).is_some(), "{v}'s weights file does not fit its layout");
    }
    for v in [Variant::Brazilian, Variant::Czech] {
        assert!(learned::evaluator(v).is_some(), "{v} borrows russian's weights");
    }
    assert_eq!(
        own.len() + 2,
        Variant::ALL.len(),
        "every rule set has weights of its own or borrowed"
    );
}

#[test]
fn the_diamonds_follow_the_way_men_take() {
    // A diamond is the smallest square of the lattice along which men take: on a diagonal
    // board a square, the two diagonally below and the one below those; on an orthogonal one
    // (men take along rows and files) a block of two by two.
    let shape = |v: Variant, squares: &[u8; 4]| {
        let g = &v.rules().geometry;
        let mut cells: Vec<(i32, i32)> = squares
            .iter()
            .map(|s| {
                let (r, c) = g.row_col(Square(*s));
                (r as i32, c as i32)
            })
            .collect();
        let (r0, c0) = cells.iter().fold((i32::MAX, i32::MAX), |m, c| (m.0.min(c.0), m.1.min(c.1)));
        for c in &mut cells {
            *c = (c.0 - r0, c.1 - c0);
        }
        cells.sort_unstable();
        cells
    };
    for (v, want, count) in [
        (Variant::Russian, vec![(0, 1), (1, 0), (1, 2), (2, 1)], 18),
        (Variant::International, vec![(0, 1), (1, 0), (1, 2), (2, 1)], 32),
        (Variant::Turkish, vec![(0, 0), (0, 1), (1, 0), (1, 1)], 49),
        (Variant::Armenian, vec![(0, 0), (0, 1), (1, 0), (1, 1)], 49),
    ] {
        let diamonds = learned::layout(v).diamonds();
        assert_eq!(diamonds.len(), count, "{v}");
        for d in diamonds {
            assert_eq!(shape(v, d), want, "{v} {d:?}");
        }
    }
}

#[test]
fn the_regions_are_blocks_of_four_by_four_that_hold_every_diamond() {
    // On a regioned board the patterns are the blocks of four rows by four columns with their
    // corner on an even row and column: nine on 8x8, eight playing squares each, and every
    // diamond a board without regions would have lies inside one of them.
    assert!(!learned::REGIONED.is_empty());
    for v in learned::REGIONED {
        let layout = learned::layout(*v);
        let g = &v.rules().geometry;
        let regions = layout.regions();
        let kept = learned::DIAMONDS_TOO.contains(v);
        assert_eq!(layout.diamonds().is_empty(), !kept, "{v}: regions replace the diamonds");
        let (h, w) = (g.height as usize, g.width as usize);
        assert_eq!(regions.len(), (h / 2 - 1) * (w / 2 - 1), "{v}");
        let mut corners = Vec::new();
        for r in regions {
            let cells: Vec<(u8, u8)> = r.iter().map(|s| g.row_col(Square(*s))).collect();
            let row = cells.iter().map(|c| c.0).min().unwrap();
            let col = cells.iter().map(|c| c.1).min().unwrap() / 2 * 2;
            assert!(row % 2 == 0, "{v}: a region's corner on row {row}");
            let inside =
                |(r, c): &(u8, u8)| (row..row + 4).contains(r) && (col..col + 4).contains(c);
            assert!(cells.iter().all(inside), "{v}: {cells:?}");
            corners.push((row, col));
        }
        corners.sort_unstable();
        corners.dedup();
        assert_eq!(corners.len(), regions.len(), "{v}: two regions on one block");
        // Every diamond: a square, the two diagonally below it and the one below those.
        for sq in g.all_squares() {
            let (row, col) = g.row_col(sq);
            let at = |dr: u8, dc: i8| g.square_at(row + dr, col.checked_add_signed(dc)?);
            let (Some(b), Some(c), Some(d)) = (at(1, -1), at(1, 1), at(2, 0)) else { continue };
            let diamond = [sq.0, b.0, c.0, d.0];
            assert!(
                regions.iter().any(|r| diamond.iter().all(|s| r.contains(s))),
                "{v}: the diamond {diamond:?} lies in no region"
            );
        }
    }
}
