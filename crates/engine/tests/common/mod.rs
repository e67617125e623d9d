//! What several engine test files need.
#![allow(dead_code, clippy::unwrap_used)]

use doska_rules::{Piece, Position};

/// The position with the colours swapped and the board turned half a turn.
pub fn mirrored(pos: &Position) -> Position {
    let g = &pos.rules().geometry;
    let mut out = Position::empty(pos.variant(), pos.turn().opposite());
    for sq in g.all_squares() {
        let (row, col) = g.row_col(sq);
        let to = g.square_at(g.height - 1 - row, g.width - 1 - col).unwrap();
        out.put(to, pos.piece_at(sq).map(|p| Piece { color: p.color.opposite(), ..p }));
    }
    out
}

/// splitmix64's finaliser: the random playouts' generator.
pub fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
