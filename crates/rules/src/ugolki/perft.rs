//! Perft: leaf count of the legal-move tree. A forced pass is one move; game ends (completion,
//! leave-home, draws) are ignored, so the tree only depends on the board.

use super::moves::UgolkiMove;
use super::position::UgolkiPosition;

/// Number of leaves of the move tree `depth` plies deep (1 at depth 0).
pub fn perft(position: &UgolkiPosition, depth: u32) -> u64 {
    // One move buffer per ply, reused across the whole tree: no allocation per move.
    let mut buffers = vec![Vec::new(); depth as usize];
    count(position, depth, &mut buffers)
}

/// Perft split by the first move, in generation order (for comparing with another program).
pub fn perft_divide(position: &UgolkiPosition, depth: u32) -> Vec<(UgolkiMove, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut buffers = vec![Vec::new(); depth as usize - 1];
    position
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut next = *position;
            next.apply(mv);
            (mv, count(&next, depth - 1, &mut buffers))
        })
        .collect()
}

fn count(position: &UgolkiPosition, depth: u32, buffers: &mut [Vec<UgolkiMove>]) -> u64 {
    match depth {
        0 => 1,
        // The last ply only needs the number of moves, not the moves.
        1 => position.count_moves(),
        _ => {
            let Some((moves, rest)) = buffers.split_first_mut() else {
                return 0;
            };
            position.legal_moves_into(moves);
            let mut total = 0;
            for &mv in moves.iter() {
                let mut next = *position;
                next.apply(mv);
                total += count(&next, depth - 1, rest);
            }
            total
        }
    }
}
