//! Bitboards of the two Ugolki boards: one `u128` bit per square, rank-major from `a1` (bit 0),
//! so 8x8 uses 64 bits and 10x10 uses 100.

/// Step vectors (file, rank): the four orthogonal directions first, so "4 directions" is the
/// first four entries and "8 directions" the whole table.
pub(crate) const DIRECTIONS: [(i8, i8); 8] =
    [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Precomputed masks of one board size.
#[derive(Debug)]
pub(crate) struct Geometry {
    /// Squares per side.
    pub(crate) width: u8,
    /// All squares of the board.
    pub(crate) board: u128,
    /// Per direction: the squares whose neighbour in that direction is on the board, so a
    /// shift never wraps around an edge.
    can_go: [u128; 8],
    /// Per direction: the change of bit index of one step.
    delta: [i32; 8],
}

const fn build(width: u8) -> Geometry {
    let w = width as i32;
    let mut board = 0u128;
    let mut can_go = [0u128; 8];
    let mut delta = [0i32; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRECTIONS[d];
        delta[d] = dr as i32 * w + df as i32;
        d += 1;
    }
    let mut rank = 0;
    while rank < w {
        let mut file = 0;
        while file < w {
            let bit = 1u128 << (rank * w + file);
            board |= bit;
            let mut d = 0;
            while d < 8 {
                let (df, dr) = DIRECTIONS[d];
                let (f, r) = (file + df as i32, rank + dr as i32);
                if f >= 0 && f < w && r >= 0 && r < w {
                    can_go[d] |= bit;
                }
                d += 1;
            }
            file += 1;
        }
        rank += 1;
    }
    Geometry { width, board, can_go, delta }
}

/// The 8x8 board.
pub(crate) static GEOMETRY_8: Geometry = build(8);
/// The 10x10 board.
pub(crate) static GEOMETRY_10: Geometry = build(10);

impl Geometry {
    /// Moves every bit of `bits` one square in each of the first `directions` directions and
    /// returns the union; bits that would leave the board are dropped.
    #[inline]
    pub(crate) fn neighbours(&self, bits: u128, directions: usize) -> u128 {
        let mut out = 0;
        for d in 0..directions.min(8) {
            out |= self.shift(bits, d);
        }
        out
    }

    /// Moves every bit of `bits` one square in direction `d` (an index into [`DIRECTIONS`]).
    #[inline]
    pub(crate) fn shift(&self, bits: u128, d: usize) -> u128 {
        let (Some(&can_go), Some(&delta)) = (self.can_go.get(d), self.delta.get(d)) else {
            return 0;
        };
        let from = bits & can_go;
        if delta >= 0 { from << delta } else { from >> -delta }
    }

    /// The squares `(file, rank)` of this board for which `keep` holds.
    pub(crate) fn mask(&self, keep: impl Fn(u8, u8) -> bool) -> u128 {
        let mut out = 0u128;
        for rank in 0..self.width {
            for file in 0..self.width {
                if keep(file, rank) {
                    out |= 1u128 << (u32::from(rank) * u32::from(self.width) + u32::from(file));
                }
            }
        }
        out
    }
}

/// The indices of the set bits of `bits`, lowest first.
#[inline]
pub(crate) fn bits(mut bits: u128) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let index = bits.trailing_zeros();
        bits &= bits - 1;
        Some(index)
    })
}
