//! Board geometries: which squares are played on, how they are laid out in a bitboard, and how
//! they are named.
//!
//! Every board is stored in a `u128` with *ghost* bits, so that one step in a direction is
//! one constant shift and stepping off the board always lands on a bit that is not a square.
//! A square at row `r`, column `c` (row 0 is White's side, column 0 is file `a`) has
//! `x = r * stride + c`. Boards played on all squares use `x` as the bit; boards played on
//! one colour use `x / 2` (the stride is odd, so every played square has the same parity of
//! `x`). Dark-square boards keep two ghost columns, so that the Frisian orthogonal jump (two
//! columns along a row) also falls off the board onto a ghost.

use crate::bits::{Bits, Set};

/// The eight directions, seen from White's side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Direction {
    /// Towards Black (up the board).
    N = 0,
    /// Up and right.
    NE = 1,
    /// Right along the row.
    E = 2,
    /// Down and right.
    SE = 3,
    /// Towards White.
    S = 4,
    /// Down and left.
    SW = 5,
    /// Left along the row.
    W = 6,
    /// Up and left.
    NW = 7,
}

impl Direction {
    /// All eight, in index order.
    pub const ALL: [Direction; 8] = [
        Direction::N,
        Direction::NE,
        Direction::E,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::W,
        Direction::NW,
    ];

    /// The direction pointing the other way.
    pub const fn reverse(self) -> Direction {
        Direction::ALL[(self as usize + 4) % 8]
    }

    /// The same direction seen from Black's side (north and south swapped).
    pub const fn flip(self) -> Direction {
        Direction::ALL[(8 - self as usize + 4) % 8]
    }

    /// Row and column steps.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::N => (1, 0),
            Direction::NE => (1, 1),
            Direction::E => (0, 1),
            Direction::SE => (-1, 1),
            Direction::S => (-1, 0),
            Direction::SW => (-1, -1),
            Direction::W => (0, -1),
            Direction::NW => (1, -1),
        }
    }

    /// Whether the direction runs along a row or a column.
    pub const fn is_orthogonal(self) -> bool {
        (self as u8).is_multiple_of(2)
    }
}

/// A set of directions, one bit per [`Direction`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Directions(pub u8);

impl Directions {
    /// No direction.
    pub const NONE: Directions = Directions(0);
    /// The four diagonals.
    pub const DIAGONAL: Directions = Directions(0b1010_1010);
    /// The four orthogonals.
    pub const ORTHOGONAL: Directions = Directions(0b0101_0101);
    /// All eight.
    pub const ALL: Directions = Directions(0xff);
    /// The two forward diagonals (for White).
    pub const FORWARD_DIAGONAL: Directions =
        Directions((1 << Direction::NE as u8) | (1 << Direction::NW as u8));

    /// A set of the given directions.
    pub const fn of(dirs: &[Direction]) -> Directions {
        let mut bits = 0u8;
        let mut i = 0;
        while i < dirs.len() {
            bits |= 1 << dirs[i] as u8;
            i += 1;
        }
        Directions(bits)
    }

    /// Union of two sets.
    pub const fn with(self, other: Directions) -> Directions {
        Directions(self.0 | other.0)
    }

    /// Whether `d` is in the set.
    pub const fn contains(self, d: Direction) -> bool {
        self.0 & (1 << d as u8) != 0
    }

    /// Every direction of the set pointing the other way (a rotation of the bits by half a
    /// turn: the directions are numbered round the compass).
    #[inline(always)]
    pub const fn reversed(self) -> Directions {
        Directions(self.0.rotate_left(4))
    }

    /// The set seen from Black's side.
    #[inline(always)]
    pub const fn flip(self) -> Directions {
        Directions(FLIPPED[self.0 as usize])
    }

    const fn flip_slow(self) -> Directions {
        let mut out = 0u8;
        let mut i = 0;
        while i < 8 {
            if self.0 & (1 << i) != 0 {
                out |= 1 << Direction::ALL[i].flip() as u8;
            }
            i += 1;
        }
        Directions(out)
    }

    /// Calls `f` for each direction of the set. With a constant set (the rules and the colour
    /// known at compile time) the loop unrolls to just the set's members.
    #[inline(always)]
    pub fn each(self, mut f: impl FnMut(Direction)) {
        // Written out rather than looped: the optimiser then never keeps a loop over the
        // eight directions when the set is a constant.
        macro_rules! each {
            ($($d:ident)*) => {$(
                if self.contains(Direction::$d) {
                    f(Direction::$d);
                }
            )*};
        }
        each!(N NE E SE S SW W NW);
    }

    /// Iterates over the directions of the set.
    #[inline(always)]
    pub fn iter(self) -> impl Iterator<Item = Direction> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(Direction::ALL[i])
        })
    }
}

/// Every direction set seen from Black's side, by its bits.
const FLIPPED: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = Directions(i as u8).flip_slow().0;
        i += 1;
    }
    t
};

/// Which squares of the board are played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Squares {
    /// The squares with `(row + column) % 2 == parity`; parity 0 puts a playing square on a1.
    Dark {
        /// 0 when a1 is played on, 1 for the mirrored boards (h1 played on).
        parity: u8,
    },
    /// Every square.
    All,
}

/// How the playing squares are numbered in the rule set's own notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Numbering {
    /// Squares are named algebraically (`a1`, `c3`).
    Algebraic,
    /// Numbered from 1, row by row from Black's back row (the top), left to right.
    TopLeft,
    /// Numbered from 1, row by row from White's back row (the bottom), right to left.
    BottomRight,
}

/// Largest board side.
pub const MAX_SIDE: usize = 12;
/// Sentinel for "no square".
pub const NO_BIT: u8 = 255;

/// One board shape with its bitboard layout and its names.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Number of columns.
    pub width: u8,
    /// Number of rows.
    pub height: u8,
    /// Which squares are played on.
    pub squares: Squares,
    /// Numbering used by the rule set's notation.
    pub numbering: Numbering,
    mask: Bits,
    bit_at: [u8; MAX_SIDE * MAX_SIDE],
    row_col: [(u8, u8); 128],
    number_of: [u8; 128],
    bit_of_number: [u8; 80],
    count: u8,
    deltas: [i8; 8],
    rows: [Bits; MAX_SIDE],
    /// Squares a step in each direction may land on (excludes wrapping round the board's edge).
    dmask: [Bits; 8],
    dmask64: [u64; 8],
    narrow: bool,
}

impl Geometry {
    /// Builds the geometry; only called in constant context.
    pub const fn new(width: u8, height: u8, squares: Squares, numbering: Numbering) -> Geometry {
        let (stride, compressed) = match squares {
            // Odd stride so that every played square shares the parity of `x`; two ghost columns
            // so a step (even the Frisian two-column one) off the side lands on a ghost.
            Squares::Dark { .. } => {
                (if width.is_multiple_of(2) { width + 3 } else { width + 2 }, true)
            }
            // No ghosts: the per-direction masks keep steps from wrapping round the edge.
            Squares::All => (width, false),
        };
        let mut g = Geometry {
            width,
            height,
            squares,
            numbering,
            mask: 0,
            bit_at: [NO_BIT; MAX_SIDE * MAX_SIDE],
            row_col: [(NO_BIT, NO_BIT); 128],
            number_of: [0; 128],
            bit_of_number: [NO_BIT; 80],
            count: 0,
            deltas: [0; 8],
            rows: [0; MAX_SIDE],
            dmask: [0; 8],
            dmask64: [0; 8],
            narrow: false,
        };
        let mut r = 0;
        while r < height {
            let mut c = 0;
            while c < width {
                let played = match squares {
                    Squares::Dark { parity } => (r + c) % 2 == parity,
                    Squares::All => true,
                };
                if played {
                    let x = r as u32 * stride as u32 + c as u32;
                    let bit = if compressed { x / 2 } else { x } as u8;
                    g.bit_at[r as usize * width as usize + c as usize] = bit;
                    g.row_col[bit as usize] = (r, c);
                    g.mask |= 1u128 << bit;
                    g.rows[r as usize] |= 1u128 << bit;
                    g.count += 1;
                }
                c += 1;
            }
            r += 1;
        }
        // Numbers in the rule set's order.
        let mut n = 0u8;
        let mut i = 0;
        while i < height as usize * width as usize {
            let (r, c) = match numbering {
                Numbering::TopLeft | Numbering::Algebraic => {
                    (height as usize - 1 - i / width as usize, i % width as usize)
                }
                Numbering::BottomRight => {
                    (i / width as usize, width as usize - 1 - i % width as usize)
                }
            };
            let bit = g.bit_at[r * width as usize + c];
            if bit != NO_BIT {
                n += 1;
                g.number_of[bit as usize] = n;
                g.bit_of_number[n as usize] = bit;
            }
            i += 1;
        }
        // Landing squares per direction: everything, less the first (last) column for steps to
        // the right (left) on boards without ghost columns.
        let (mut first_col, mut last_col) = (0u128, 0u128);
        let mut r = 0;
        while r < height {
            let a = g.bit_at[r as usize * width as usize];
            if a != NO_BIT {
                first_col |= 1u128 << a;
            }
            let h = g.bit_at[r as usize * width as usize + width as usize - 1];
            if h != NO_BIT {
                last_col |= 1u128 << h;
            }
            r += 1;
        }
        g.narrow = g.mask >> 64 == 0;
        let mut d = 0;
        while d < 8 {
            let (_, dc) = Direction::ALL[d].delta();
            let m = if compressed {
                g.mask
            } else if dc > 0 {
                g.mask & !first_col
            } else if dc < 0 {
                g.mask & !last_col
            } else {
                g.mask
            };
            g.dmask[d] = m;
            g.dmask64[d] = m as u64;
            d += 1;
        }
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = Direction::ALL[d].delta();
            let dx = dr * stride as i32 + dc;
            g.deltas[d] = if compressed {
                // Orthogonal neighbours on a one-colour board are two squares away.
                if dr == 0 || dc == 0 { dx as i8 } else { (dx / 2) as i8 }
            } else {
                dx as i8
            };
            d += 1;
        }
        g
    }

    /// The bit mask of all playing squares.
    #[inline(always)]
    pub fn mask(&self) -> Bits {
        self.mask
    }

    /// Number of playing squares.
    pub fn count(&self) -> u8 {
        self.count
    }

    /// The bit shift of one step in direction `d` (on one-colour boards, an orthogonal step
    /// goes to the next playing square along the row or column).
    #[inline(always)]
    pub fn delta(&self, d: Direction) -> i8 {
        self.deltas[d as usize]
    }

    /// Moves every bit of `b` one step in direction `d`; bits that leave the board are
    /// dropped.
    #[inline(always)]
    pub fn shift(&self, b: Bits, d: Direction) -> Bits {
        self.step(b, d)
    }

    /// [`Geometry::shift`] for any bitboard width.
    #[inline(always)]
    pub fn step<B: Set>(&self, b: B, d: Direction) -> B {
        b.shift(self.deltas[d as usize]) & B::pick(self.dmask[d as usize], self.dmask64[d as usize])
    }

    /// Whether the board's layout fits in 64 bits.
    #[inline(always)]
    pub fn narrow(&self) -> bool {
        self.narrow
    }

    /// The square at a row and column, if it is played on.
    pub fn square_at(&self, row: u8, col: u8) -> Option<Square> {
        if row >= self.height || col >= self.width {
            return None;
        }
        let bit = self.bit_at[row as usize * self.width as usize + col as usize];
        (bit != NO_BIT).then_some(Square(bit))
    }

    /// Row and column of a square.
    pub fn row_col(&self, sq: Square) -> (u8, u8) {
        self.row_col[sq.0 as usize]
    }

    /// Row of a square counted from `color`'s side (0 = its back row).
    pub fn row_from(&self, sq: Square, color: crate::Color) -> u8 {
        let r = self.row_col(sq).0;
        match color {
            crate::Color::White => r,
            crate::Color::Black => self.height - 1 - r,
        }
    }

    /// The squares of one row (row 0 is White's side).
    #[inline(always)]
    pub fn row_mask(&self, row: u8) -> Bits {
        self.rows.get(row as usize).copied().unwrap_or(0)
    }

    /// The number of a square in the rule set's numbering (1-based).
    pub fn number(&self, sq: Square) -> u8 {
        self.number_of[sq.0 as usize]
    }

    /// The square with a number, if it exists.
    pub fn square_of_number(&self, n: u32) -> Option<Square> {
        if n == 0 || n > self.count as u32 {
            return None;
        }
        Some(Square(self.bit_of_number[n as usize]))
    }

    /// Algebraic name: file letter and rank number, `a1` being White's bottom-left corner.
    pub fn algebraic(&self, sq: Square) -> String {
        let (r, c) = self.row_col(sq);
        format!("{}{}", (b'a' + c) as char, r + 1)
    }

    /// The name of a square in the rule set's own notation.
    pub fn name(&self, sq: Square) -> String {
        match self.numbering {
            Numbering::Algebraic => self.algebraic(sq),
            _ => self.number(sq).to_string(),
        }
    }

    /// Parses a square given as a number (in numbered rule sets) or algebraically (always).
    pub fn parse_square(&self, text: &str) -> Result<Square, SquareError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(SquareError::Empty);
        }
        let bytes = t.as_bytes();
        if bytes[0].is_ascii_digit() {
            if self.numbering == Numbering::Algebraic {
                return Err(SquareError::NumberNotUsed(t.to_string()));
            }
            let n: u32 = t.parse().map_err(|_| SquareError::Malformed(t.to_string()))?;
            return self
                .square_of_number(n)
                .ok_or(SquareError::NumberOutOfRange { number: t.to_string(), max: self.count });
        }
        let file = bytes[0].to_ascii_lowercase();
        if !file.is_ascii_lowercase() || bytes.len() < 2 {
            return Err(SquareError::Malformed(t.to_string()));
        }
        let rank: u32 = t[1..].parse().map_err(|_| SquareError::Malformed(t.to_string()))?;
        let col = file - b'a';
        if col >= self.width || rank == 0 || rank > self.height as u32 {
            return Err(SquareError::OffBoard { square: t.to_string(), max: self.max_algebraic() });
        }
        self.square_at(rank as u8 - 1, col).ok_or(SquareError::NotPlayed(t.to_string()))
    }

    fn max_algebraic(&self) -> String {
        format!("{}{}", (b'a' + self.width - 1) as char, self.height)
    }

    /// Iterates over all playing squares in bit order.
    pub fn all_squares(&self) -> impl Iterator<Item = Square> + '_ {
        crate::bits::iter(self.mask).map(Square)
    }
}

/// A playing square: its bit index in the geometry's layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square's bit.
    #[inline(always)]
    pub fn bit(self) -> Bits {
        1u128 << self.0
    }
}

/// Why a square could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    /// Nothing was given.
    #[error("empty square: expected a square such as 32 or c3")]
    Empty,
    /// Neither a number nor file+rank.
    #[error("malformed square {0:?}: expected a number such as 32 or a file and rank such as c3")]
    Malformed(String),
    /// A number in a rule set that names squares algebraically.
    #[error("square {0:?}: this rule set names squares algebraically, e.g. c3")]
    NumberNotUsed(String),
    /// A number past the last square.
    #[error("square {number} does not exist: squares are numbered 1 to {max}")]
    NumberOutOfRange {
        /// The number given.
        number: String,
        /// The last number.
        max: u8,
    },
    /// Off the board.
    #[error("square {square} is off the board: files and ranks run from a1 to {max}")]
    OffBoard {
        /// The square given.
        square: String,
        /// The top-right corner.
        max: String,
    },
    /// A square that is not played on.
    #[error("square {0} is not a playing square of this board")]
    NotPlayed(String),
}
