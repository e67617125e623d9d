//! A move of a draughts rule set.

use crate::bits::{self, Bits};
use crate::geometry::{Direction, Geometry, Square};

/// The most jumps one move can hold: more than any side has pieces (Canadian: 30).
pub const MAX_JUMPS: usize = 32;

/// One turn of one side: a plain step or slide, or a capture sequence.
///
/// A capture keeps one route (its landing squares); other routes that start and end on the
/// same squares and take the same pieces are the same move (docs/rules/README.md, "What a
/// move is").
#[derive(Clone, Copy, Debug)]
pub struct Move {
    /// The captured squares.
    pub(crate) captured: Bits,
    /// Where the piece starts.
    pub from: Square,
    /// Where it ends.
    pub to: Square,
    /// Number of jumps (0 for a plain move).
    pub(crate) jumps: u8,
    /// Whether the moving man is crowned by this move.
    pub(crate) promotes: bool,
    /// Landing square of each jump.
    pub(crate) landings: [u8; MAX_JUMPS],
}

impl Move {
    /// A plain (non-capturing) move.
    pub(crate) fn plain(from: u8, to: u8, promotes: bool) -> Move {
        Move {
            captured: 0,
            from: Square(from),
            to: Square(to),
            jumps: 0,
            promotes,
            landings: [0; MAX_JUMPS],
        }
    }

    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        self.jumps > 0
    }

    /// The set of captured squares.
    pub fn captured_bits(&self) -> Bits {
        self.captured
    }

    /// Number of pieces captured.
    pub fn capture_count(&self) -> u32 {
        bits::count(self.captured)
    }

    /// Whether the moving man is crowned.
    pub fn promotes(&self) -> bool {
        self.promotes
    }

    /// The landing squares of each jump, in order (empty for a plain move).
    pub fn landings(&self) -> impl Iterator<Item = Square> + '_ {
        self.landings[..self.jumps as usize].iter().map(|&b| Square(b))
    }

    /// The start square and every landing square, in order (`[from, to]` for a plain move).
    pub fn path(&self) -> Vec<Square> {
        let mut p = vec![self.from];
        if self.jumps == 0 {
            p.push(self.to);
        } else {
            p.extend(self.landings());
        }
        p
    }

    /// The captured squares in the order they are jumped.
    pub fn captures_in_order(&self, g: &Geometry) -> Vec<Square> {
        let mut out = Vec::with_capacity(self.jumps as usize);
        let mut at = self.from;
        // Where pieces leave as they are jumped, a king may later cross an emptied square:
        // each segment's capture is the one not taken before.
        let mut left = self.captured;
        for land in self.landings() {
            if let Some(sq) = jumped_between(g, at, land, left) {
                out.push(sq);
                left &= !sq.bit();
            }
            at = land;
        }
        out
    }

    /// Same start, end and captured set: the same move wherever the position after it does
    /// not depend on the route (every rule set but Lasca, where the caller compares the
    /// positions).
    pub(crate) fn same_as(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }
}

/// The direction from `a` towards `b` if they share a line of one of the eight directions.
pub(crate) fn direction_between(g: &Geometry, a: Square, b: Square) -> Option<Direction> {
    let (ar, ac) = g.row_col(a);
    let (br, bc) = g.row_col(b);
    let dr = (br as i32 - ar as i32).signum();
    let dc = (bc as i32 - ac as i32).signum();
    let d = Direction::ALL.into_iter().find(|d| d.delta() == (dr, dc))?;
    let rows = (br as i32 - ar as i32).abs();
    let cols = (bc as i32 - ac as i32).abs();
    if rows != 0 && cols != 0 && rows != cols {
        return None;
    }
    Some(d)
}

/// The captured square on the line from `a` to `b`.
fn jumped_between(g: &Geometry, a: Square, b: Square, captured: Bits) -> Option<Square> {
    let d = direction_between(g, a, b)?;
    let mut at = a.bit();
    loop {
        at = g.shift(at, d);
        if at == 0 || at & g.mask() == 0 || at == b.bit() {
            return None;
        }
        if at & captured != 0 {
            return Some(Square(at.trailing_zeros() as u8));
        }
    }
}
