//! Perft: the number of leaves of the legal-move tree, the standard check of move generators.

use crate::moves::Move;
use crate::position::Position;

/// Leaf count at `depth` (game-end and draw rules ignored, as in published perft tables).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    walk(pos, depth, &mut buffers)
}

fn walk(pos: &Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    let Some((buf, rest)) = buffers.split_first_mut() else { return 1 };
    match depth {
        0 => 1,
        1 => pos.count_moves_with(buf),
        _ => {
            pos.legal_moves_into(buf);
            let mut n = 0;
            let mut child = pos.clone();
            for mv in buf.iter() {
                child.clone_from(pos);
                child.apply(mv);
                n += walk(&child, depth - 1, rest);
            }
            n
        }
    }
}

/// Leaf count below each legal move, with the move.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let n = if depth <= 1 { 1 } else { perft(&pos.play(&mv), depth - 1) };
            (mv, n)
        })
        .collect()
}
