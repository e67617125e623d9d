//! Tests. Each rule test names the seed sentence it checks; `naive` is a second, deliberately
//! simple move generator the fast one is compared with.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod endings;
mod movegen;
mod naive;
mod perft;
mod text;

use super::{Square, UgolkiMove, UgolkiPosition, UgolkiRules};

/// A square from its name.
fn sq(name: &str) -> Square {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// A position from FEN text, panicking with the error.
fn pos(rules: UgolkiRules, fen: &str) -> UgolkiPosition {
    UgolkiPosition::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Rules from text, panicking with the error.
fn rules(text: &str) -> UgolkiRules {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The destinations of the piece on `from`, as square names, sorted.
fn targets(position: &UgolkiPosition, from: &str) -> Vec<String> {
    let mut out: Vec<String> = position
        .moves_from(sq(from))
        .iter()
        .filter_map(|mv| mv.to())
        .map(|to| to.to_string())
        .collect();
    out.sort();
    out
}

/// A step move.
fn step(from: &str, to: &str) -> UgolkiMove {
    UgolkiMove::Step { from: sq(from), to: sq(to) }
}

/// A jump move.
fn jump(from: &str, to: &str) -> UgolkiMove {
    UgolkiMove::Jump { from: sq(from), to: sq(to) }
}

/// Deterministic xorshift64 generator for random playouts and positions.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
