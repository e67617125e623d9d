//! Numbering the positions of an endgame: a *slice* is the number of white men, white kings,
//! black men and black kings; within a slice each group's squares are one combination, ranked
//! in the combinatorial number system, and the four ranks make one mixed-radix index.
//!
//! Men are placed only on the squares a man can stand on (not his own last row, where he
//! would have been crowned), kings on every square. Two groups on one square make an index
//! that names no position: such indices are in the table and marked invalid. With one side to
//! move or the other, a slice holds `2 * size` entries.

use doska_rules::bits::{self, Bits};
use doska_rules::{Color, Piece, Position, Square, Variant};

/// The most pieces a database can hold (the binomial table's reach).
pub const MAX_PIECES: usize = 8;

/// The number of men and kings of each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slice {
    /// White men.
    pub wm: u8,
    /// White kings.
    pub wk: u8,
    /// Black men.
    pub bm: u8,
    /// Black kings.
    pub bk: u8,
}

impl Slice {
    /// The slice of a position.
    pub fn of(pos: &Position) -> Slice {
        let (wm, wk) = pos.material(Color::White);
        let (bm, bk) = pos.material(Color::Black);
        Slice { wm: wm as u8, wk: wk as u8, bm: bm as u8, bk: bk as u8 }
    }

    /// Pieces on the board.
    pub fn pieces(self) -> usize {
        (self.wm + self.wk + self.bm + self.bk) as usize
    }

    /// Men on the board.
    pub fn men(self) -> usize {
        (self.wm + self.bm) as usize
    }

    /// The same material with the colours swapped.
    pub fn mirrored(self) -> Slice {
        Slice { wm: self.bm, wk: self.bk, bm: self.wm, bk: self.wk }
    }

    /// `wm,wk,bm,bk` as text, e.g. `2 men + 1 king v 1 king`.
    pub fn describe(self) -> String {
        let side = |m: u8, k: u8| {
            let mut parts = Vec::new();
            if m > 0 {
                parts.push(format!("{m} {}", if m == 1 { "man" } else { "men" }));
            }
            if k > 0 {
                parts.push(format!("{k} {}", if k == 1 { "king" } else { "kings" }));
            }
            parts.join(" + ")
        };
        format!("{} v {}", side(self.wm, self.wk), side(self.bm, self.bk))
    }

    /// Every slice with `pieces` pieces and at least one piece a side, in the order the
    /// generator solves them: a move either stays in its slice or leads to one solved before
    /// (a capture to fewer pieces, a crowning to fewer men).
    pub fn all_with(pieces: usize) -> Vec<Slice> {
        let mut out = Vec::new();
        for white in 1..pieces {
            let black = pieces - white;
            for wm in 0..=white {
                for bm in 0..=black {
                    out.push(Slice {
                        wm: wm as u8,
                        wk: (white - wm) as u8,
                        bm: bm as u8,
                        bk: (black - bm) as u8,
                    });
                }
            }
        }
        out.sort_by_key(|s| (s.men(), *s));
        out
    }
}

/// `C(n, k)` for `n < 128`, `k <= MAX_PIECES`.
fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let mut r = 1u64;
    for i in 0..k {
        r = r * (n - i) as u64 / (i + 1) as u64;
    }
    r
}

/// A rule set's board as the index sees it.
#[derive(Debug)]
pub struct Board {
    variant: Variant,
    /// Dense number -> square.
    squares: Vec<Square>,
    /// Square (bit) -> dense number.
    dense: [u8; 128],
    /// Per colour: the dense numbers a man may stand on, in order, and the way back.
    man_squares: [Vec<u8>; 2],
    man_rank: [[u8; 128]; 2],
    /// `choose[n][k]`.
    choose: Vec<[u64; MAX_PIECES + 1]>,
    /// Square (bit) -> the square half a turn round the board (bit).
    turned: [u8; 128],
}

impl Board {
    /// The board of rule set `v`.
    pub fn new(v: Variant) -> Board {
        let g = &v.rules().geometry;
        // By bit, so that a group's squares taken lowest bit first come in ascending order.
        let mut squares: Vec<Square> = g.all_squares().collect();
        squares.sort_by_key(|s| s.0);
        let mut dense = [u8::MAX; 128];
        for (i, s) in squares.iter().enumerate() {
            dense[s.0 as usize] = i as u8;
        }
        let mut man_squares = [Vec::new(), Vec::new()];
        let mut man_rank = [[u8::MAX; 128]; 2];
        for c in [Color::White, Color::Black] {
            for (i, s) in squares.iter().enumerate() {
                if g.row_from(*s, c) != g.height - 1 {
                    man_rank[c as usize][i] = man_squares[c as usize].len() as u8;
                    man_squares[c as usize].push(i as u8);
                }
            }
        }
        let choose = (0..=squares.len()).map(|n| std::array::from_fn(|k| binomial(n, k))).collect();
        let mut turned = [u8::MAX; 128];
        for s in &squares {
            let (row, col) = g.row_col(*s);
            if let Some(t) = g.square_at(g.height - 1 - row, g.width - 1 - col) {
                turned[s.0 as usize] = t.0;
            }
        }
        Board { variant: v, squares, dense, man_squares, man_rank, choose, turned }
    }

    /// The rule set.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    fn radices(&self, s: Slice) -> [u64; 4] {
        let n = self.squares.len();
        [
            self.choose[self.man_squares[0].len()][s.wm as usize],
            self.choose[n][s.wk as usize],
            self.choose[self.man_squares[1].len()][s.bm as usize],
            self.choose[n][s.bk as usize],
        ]
    }

    /// The number of indices of a slice with one side to move.
    pub fn size(&self, s: Slice) -> u64 {
        self.radices(s).iter().product()
    }

    /// The number of positions of a slice (one side to move): indices that name a position.
    pub fn positions(&self, s: Slice) -> u64 {
        (0..self.size(s)).filter(|&i| self.position(s, i, Color::White).is_some()).count() as u64
    }

    /// Rank of a set of dense numbers (ascending) in the combinatorial number system.
    fn rank(&self, members: impl Iterator<Item = u8>) -> u64 {
        members.enumerate().map(|(i, e)| self.choose[e as usize][i + 1]).sum()
    }

    /// The members of the `k`-set of rank `r` among `n` (ascending) into `out`.
    fn unrank(&self, mut r: u64, k: usize, n: usize, out: &mut Vec<u8>) {
        out.clear();
        let mut top = n;
        for i in (1..=k).rev() {
            let mut e = top - 1;
            while self.choose[e][i] > r {
                e -= 1;
            }
            r -= self.choose[e][i];
            out.push(e as u8);
            top = e;
        }
        out.reverse();
    }

    /// `pos` with the colours swapped and the board turned half a turn: the same game seen
    /// from the other side, so of the same value (its slice is [`Slice::mirrored`]).
    pub fn mirrored(&self, pos: &Position) -> Position {
        let mut out = Position::empty(self.variant, pos.turn().opposite());
        for c in [Color::White, Color::Black] {
            for sq in bits::iter(pos.pieces(c)) {
                let king = pos.kings() & (1 << sq) != 0;
                let to = Square(self.turned[sq as usize]);
                out.put(to, Some(Piece { color: c.opposite(), king }));
            }
        }
        out
    }

    /// The index of `pos` in its slice (with its side to move: `size` added for Black);
    /// none for a position no slice holds (a man on his crowning row).
    pub fn index(&self, pos: &Position) -> Option<u64> {
        let s = Slice::of(pos);
        let [_, rk, rbm, rbk] = self.radices(s);
        let group = |b: Bits| bits::iter(b).map(|sq| self.dense[sq as usize]);
        let men = |c: Color| -> Option<u64> {
            let ranks = &self.man_rank[c as usize];
            let b = pos.pieces(c) & !pos.kings();
            if group(b).any(|d| ranks[d as usize] == u8::MAX) {
                return None;
            }
            Some(self.rank(group(b).map(|d| ranks[d as usize])))
        };
        let kings = |c: Color| self.rank(group(pos.pieces(c) & pos.kings()));
        // Dense numbers ascend with the bits, so each group's members come sorted.
        let i = ((men(Color::White)? * rk + kings(Color::White)) * rbm + men(Color::Black)?) * rbk
            + kings(Color::Black);
        Some(if pos.turn() == Color::White { i } else { i + self.size(s) })
    }

    /// The position of index `i` of slice `s` with `turn` to move, or `None` where two
    /// groups share a square.
    pub fn position(&self, s: Slice, i: u64, turn: Color) -> Option<Position> {
        let [rwm, rwk, rbm, rbk] = self.radices(s);
        let (i, bk) = (i / rbk, i % rbk);
        let (i, bm) = (i / rbm, i % rbm);
        let (wm, wk) = (i / rwk, i % rwk);
        if wm >= rwm {
            return None;
        }
        let n = self.squares.len();
        let mut pos = Position::empty(self.variant, turn);
        let mut seen: Bits = 0;
        let mut members = Vec::with_capacity(MAX_PIECES);
        let groups = [
            (wm, s.wm, Color::White, false),
            (wk, s.wk, Color::White, true),
            (bm, s.bm, Color::Black, false),
            (bk, s.bk, Color::Black, true),
        ];
        for (rank, k, color, king) in groups {
            let pool = if king { n } else { self.man_squares[color as usize].len() };
            self.unrank(rank, k as usize, pool, &mut members);
            for &m in &members {
                let d = if king { m } else { self.man_squares[color as usize][m as usize] };
                let sq = self.squares[d as usize];
                if seen & sq.bit() != 0 {
                    return None;
                }
                seen |= sq.bit();
                pos.put(sq, Some(Piece { color, king }));
            }
        }
        Some(pos)
    }
}
