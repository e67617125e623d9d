//! Perft from the start of every preset. The numbers come from this generator and are checked
//! against the naive generator in `naive.rs` (depths 1-4 on 8x8, 1-3 on 10x10).

use super::naive::Naive;
use crate::ugolki::{PRESETS, UgolkiPosition, perft, perft_divide};

/// Leaves at depths 1, 2, 3, ... from each preset's start.
const TABLE: [(&str, &[u64]); 3] = [
    ("ugolki", &[12, 144, 2784, 53824]),
    ("ugolki-brainking", &[26, 677, 23547, 828210]),
    ("ugolki-brainking-10", &[40, 1601, 85565]),
];

#[test]
fn perft_from_every_preset_start() {
    for (id, counts) in TABLE {
        let rules = PRESETS.iter().find(|(name, _)| *name == id).unwrap().1;
        let start = UgolkiPosition::start(rules);
        assert_eq!(perft(&start, 0), 1);
        for (depth, &expected) in (1..).zip(counts) {
            assert_eq!(perft(&start, depth), expected, "{id} depth {depth}");
        }
        // The second generator agrees on the first three plies.
        let naive = Naive::of(&start);
        for (depth, &expected) in (1..=3).zip(counts) {
            assert_eq!(naive.perft(depth), expected, "{id} depth {depth} (naive)");
        }
    }
}

#[test]
fn perft_divide_sums_to_perft() {
    for (_, rules) in PRESETS {
        let start = UgolkiPosition::start(rules);
        let divide = perft_divide(&start, 3);
        assert_eq!(divide.len(), start.legal_moves().len());
        assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), perft(&start, 3));
        assert!(perft_divide(&start, 0).is_empty());
    }
}

/// A forced pass is one move in the tree.
#[test]
fn perft_counts_a_pass_as_one_move() {
    let p = super::pos(crate::ugolki::UgolkiRules::UGOLKI, "W:Wa1:Ba2,a3,b1,c1");
    assert_eq!(perft(&p, 1), 1);
    assert_eq!(
        perft(&p, 2),
        p.play(crate::ugolki::UgolkiMove::Pass).unwrap().legal_moves().len() as u64
    );
}

/// The depth-5 numbers checked by the naive generator (slow: run with `--ignored --release`).
#[test]
#[ignore]
fn perft_depth_5_matches_the_naive_generator() {
    for (_, rules) in PRESETS.iter().take(2) {
        let start = UgolkiPosition::start(*rules);
        assert_eq!(perft(&start, 5), Naive::of(&start).perft(5), "{rules}");
    }
}
