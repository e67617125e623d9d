//! The learned draughts evaluation: a linear function of position features whose weights
//! `doska learn` fits to the results of doska's own games (logistic regression, as in Texel
//! tuning), one weights file per rule set, embedded in the build.
//!
//! Each side sees the board from its own side (Black's view is the board turned half a
//! turn), and the score is White's view minus Black's, so the function is the same for both
//! colours by construction. A view holds:
//! - a table over the squares for men and one for kings, each twice: for a full board and
//!   for an empty one, blended by the number of pieces left (so a man's worth on a square can
//!   change as the board empties);
//! - the number of kings (a first, second and third king are worth different amounts);
//! - men with a free road to the last row, by row;
//! - men and kings as a share of the pieces left (trading down when ahead);
//! - local patterns: every diamond of four neighbouring squares (a square, the two below it
//!   and the one below those; where men take along rows and files, as in Turkish and
//!   Armenian, every block of two by two) with each square empty, own or the opponent's (81
//!   states per diamond, each with its own weight), as Scan's evaluation does with larger
//!   regions;
//! - or, on the boards in [`REGIONED`], instead of the diamonds (or, in [`DIAMONDS_TOO`],
//!   beside them), such regions: every block of four rows by four columns whose corner is on
//!   an even row and column (nine on 8x8, sixteen on 10x10, each holding eight playing squares,
//!   and every diamond lies inside one), with each square empty, own or the opponent's (6,561
//!   states a region), each state's weight twice, for a full board and an empty one, blended
//!   as the pieces' are;
//! - Lasca: under each column's top, the number of its own side's pieces (reserves) and of
//!   the opponent's (prisoners), and whose piece lies just under the top (whose the column
//!   becomes when the top is taken), apart for a man's and an officer's column;
//! - a bonus for having the move.
//!
//! Weights are in sixteenths of a hundredth of a man; `doska learn` scales them so that a man
//! on a full board is worth 100 on average, as in the hand-set evaluation, so the search's
//! margins and the review's thresholds keep their meaning (or, `--units hand`, to the
//! hand-set evaluation's scale: the same score, the same chance of winning; or, `--units
//! spread`, to the hand-set scores' spread over the positions, as for Poddavki, whose men are
//! worth less than nothing). Where the learned evaluation is on, the hand-set terms
//! (`Terms`) have no effect: `--without learned` brings them back.

use super::draughts;
use doska_rules::bits::{self, Bits};
use doska_rules::geometry::Directions;
use doska_rules::variant::{Removal, Variant};
use doska_rules::{Color, Position, Square};
use std::sync::OnceLock;

/// The common denominator of feature values (a feature of value 1 is `ONE`).
pub const ONE: i32 = 1024;
/// Weights are in 1/16 of a hundredth of a man.
pub const WEIGHT_UNIT: i64 = 16;
const MAGIC: &[u8; 8] = b"DSKEVAL1";

/// Where each kind of feature starts in the weight vector, for one rule set's board.
#[derive(Debug)]
pub struct Layout {
    variant: Variant,
    /// The number of playing squares.
    squares: usize,
    /// Square (bit) -> dense index 0..squares, in White's frame.
    dense: [u8; 128],
    /// Square (bit) -> the square half a turn away (Black's frame).
    flip: [u8; 128],
    /// The diamonds, as squares in White's frame, and the same seen from Black's side.
    diamonds: [Vec<[u8; 4]>; 2],
    /// The regions ([`REGIONED`] boards only), likewise.
    regions: [Vec<[u8; 8]>; 2],
    height: u8,
    /// Pieces at the start: the phase's denominator.
    start_pieces: i32,
    man: usize,
    king: usize,
    kings: usize,
    runaway: usize,
    share: usize,
    diamond: usize,
    region: usize,
    /// Lasca's column weights ([`COLUMN_WEIGHTS`] of them; none on other boards).
    column: usize,
    columns: usize,
    tempo: usize,
    len: usize,
}

/// Lasca's column weights: for a man's column and an officer's, reserves, prisoners, an own
/// piece just under the top, a prisoner just under it.
const COLUMN_WEIGHTS: usize = 8;
const COLUMN_NAMES: [&str; 4] =
    ["reserves", "prisoners", "an own piece just under", "a prisoner just under"];

const DIAMOND_STATES: usize = 81;
const REGION_STATES: usize = 6561;
/// A region state's weights: for a full board and for an empty one.
const REGION_PHASES: usize = 2;

/// The rule sets whose patterns are the regions of four by four rather than the diamonds
/// (where a match showed them stronger: bench/engines/RESULTS.md).
pub const REGIONED: &[Variant] = &[Variant::American, Variant::International];

/// The regioned rule sets that keep the diamonds beside the regions: a region state too rare
/// to be fitted (`doska learn --min-count`) leaves its squares to the diamonds that lie inside
/// it (International: +76 Elo against its diamonds alone, where its regions alone gained
/// +45: bench/engines/RESULTS.md, 2026-12-04).
pub const DIAMONDS_TOO: &[Variant] = &[Variant::International];

impl Layout {
    fn new(v: Variant) -> Layout {
        let r = v.rules();
        let g = &r.geometry;
        let (w, h) = (g.width, g.height);
        let mut dense = [u8::MAX; 128];
        let mut flip = [u8::MAX; 128];
        let mut squares = 0;
        for sq in g.all_squares() {
            dense[sq.0 as usize] = squares as u8;
            squares += 1;
            let (row, col) = g.row_col(sq);
            // Every board is symmetric under half a turn, so the square is always there.
            flip[sq.0 as usize] = g.square_at(h - 1 - row, w - 1 - col).map_or(u8::MAX, |s| s.0);
        }
        let at = |r: u8, c: u8| g.square_at(r, c).map(|s| s.0);
        // A diamond is the smallest square of the lattice the pieces take along: on a diagonal
        // board a square, the two below it and the one below those; where men take along rows
        // and files (Turkish, Armenian), a block of two by two.
        let orthogonal = r.man_captures.0 & Directions::DIAGONAL.0 == 0;
        let regioned = REGIONED.contains(&v);
        let mut white = Vec::new();
        let mut white_regions = Vec::new();
        if regioned {
            for row in (0..=h.saturating_sub(4)).step_by(2) {
                for col in (0..=w.saturating_sub(4)).step_by(2) {
                    let squares: Vec<u8> = (row..row + 4)
                        .flat_map(|r| (col..col + 4).map(move |c| (r, c)))
                        .filter_map(|(r, c)| at(r, c))
                        .collect();
                    if let Ok(region) = <[u8; 8]>::try_from(squares) {
                        white_regions.push(region);
                    }
                }
            }
        }
        // A regioned board has no diamonds (each lies inside a region), unless it keeps them.
        let diamond_rows =
            if regioned && !DIAMONDS_TOO.contains(&v) { 0 } else { h.saturating_sub(1) };
        for row in 0..diamond_rows {
            for col in 0..w {
                let four = if orthogonal {
                    [at(row, col), at(row, col + 1), at(row + 1, col), at(row + 1, col + 1)]
                } else if col >= 1 {
                    [at(row, col), at(row + 1, col - 1), at(row + 1, col + 1), at(row + 2, col)]
                } else {
                    continue;
                };
                if let [Some(a), Some(b), Some(c), Some(d)] = four {
                    white.push([a, b, c, d]);
                }
            }
        }
        let black = white.iter().map(|d| d.map(|s| flip[s as usize])).collect();
        let black_regions = white_regions.iter().map(|d| d.map(|s| flip[s as usize])).collect();
        let start_pieces = bits::count(Position::start(v).occupied()) as i32;
        let man = 0;
        let king = man + 2 * squares;
        let kings = king + 2 * squares;
        let runaway = kings + 3;
        let share = runaway + h as usize;
        let diamond = share + 2;
        let region = diamond + white.len() * DIAMOND_STATES;
        let column = region + white_regions.len() * REGION_STATES * REGION_PHASES;
        let columns = if r.removal == Removal::Column { COLUMN_WEIGHTS } else { 0 };
        let tempo = column + columns;
        Layout {
            variant: v,
            squares,
            dense,
            flip,
            diamonds: [white, black],
            regions: [white_regions, black_regions],
            height: h,
            start_pieces,
            man,
            king,
            kings,
            runaway,
            share,
            diamond,
            region,
            column,
            columns,
            tempo,
            len: tempo + 1,
        }
    }

    /// The number of playing squares.
    pub fn squares(&self) -> usize {
        self.squares
    }

    /// The dense index (0 to [`Layout::squares`]) of square `sq` on the board as colour `c`
    /// sees it: Black's view is the board turned half a turn.
    #[inline]
    pub fn frame(&self, c: Color, sq: u8) -> usize {
        let s = if c == Color::White { sq as usize } else { self.flip[sq as usize] as usize };
        self.dense[s] as usize
    }

    /// The square half a turn away from `sq` (where Black sees what White sees on `sq`).
    pub fn turned(&self, sq: u8) -> u8 {
        self.flip[sq as usize]
    }

    /// Whether `other` numbers the same squares, diamonds and regions the same way (a weights
    /// file of one fits the other).
    pub fn same_board(&self, other: &Layout) -> bool {
        self.len == other.len
            && self.dense == other.dense
            && self.diamonds == other.diamonds
            && self.regions == other.regions
    }

    /// The diamonds (the local patterns), as squares from White's side.
    pub fn diamonds(&self) -> &[[u8; 4]] {
        &self.diamonds[0]
    }

    /// The regions (the larger local patterns of [`REGIONED`] boards), as squares from White's
    /// side.
    pub fn regions(&self) -> &[[u8; 8]] {
        &self.regions[0]
    }

    /// The number of weights.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no weights (never: every board has squares).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Calls `f(index, value)` for every feature of `pos` that is not zero, from White's
    /// view: Black's features come with negated values. Values are in units of [`ONE`].
    pub fn visit(&self, pos: &Position, mut f: impl FnMut(usize, i32)) {
        let r = pos.rules();
        let total = bits::count(pos.occupied()) as i32;
        let full = (total.min(self.start_pieces) * ONE) / self.start_pieces.max(1);
        let empty = ONE - full;
        let cones = draughts::cones(self.variant);
        let half = self.height / 2;
        for c in [Color::White, Color::Black] {
            let sign = if c == Color::White { 1 } else { -1 };
            let own = pos.pieces(c);
            let enemy = pos.pieces(c.opposite());
            let men = own & !pos.kings();
            let kings = own & pos.kings();
            let frame = |sq: u8| self.frame(c, sq);
            for sq in bits::iter(men) {
                let i = frame(sq);
                f(self.man + 2 * i, sign * full);
                f(self.man + 2 * i + 1, sign * empty);
                let ahead = r.geometry.row_from(Square(sq), c);
                if ahead >= half && cones[sq as usize][c as usize] & enemy == 0 {
                    f(self.runaway + ahead as usize, sign * ONE);
                }
            }
            for sq in bits::iter(kings) {
                let i = frame(sq);
                f(self.king + 2 * i, sign * full);
                f(self.king + 2 * i + 1, sign * empty);
            }
            let k = bits::count(kings) as usize;
            for n in 0..k.min(3) {
                f(self.kings + n, sign * ONE);
            }
            if total > 0 {
                f(self.share, sign * (bits::count(men) as i32 * ONE / total));
                f(self.share + 1, sign * (k as i32 * ONE / total));
            }
            for (d, squares) in self.diamonds[c as usize].iter().enumerate() {
                f(
                    self.diamond + d * DIAMOND_STATES + pattern_state(squares, own, enemy),
                    sign * ONE,
                );
            }
            for (d, squares) in self.regions[c as usize].iter().enumerate() {
                let at = self.region
                    + (d * REGION_STATES + pattern_state(squares, own, enemy)) * REGION_PHASES;
                f(at, sign * full);
                f(at + 1, sign * empty);
            }
            if self.columns > 0 {
                for sq in bits::iter(own) {
                    let at = if kings & (1u128 << sq) != 0 { 4 } else { 0 };
                    column_features(&pos.under(Square(sq)), c, |k, n| {
                        f(self.column + at + k, sign * n * ONE);
                    });
                }
            }
        }
        f(self.tempo, if pos.turn() == Color::White { ONE } else { -ONE });
    }

    /// A readable name of weight `i` (for `doska learn`'s report).
    pub fn name(&self, i: usize) -> String {
        let part = |base: usize| i - base;
        if i < self.king {
            let j = part(self.man);
            format!("man on square {} ({})", j / 2, if j % 2 == 0 { "full" } else { "empty" })
        } else if i < self.kings {
            let j = part(self.king);
            format!("king on square {} ({})", j / 2, if j % 2 == 0 { "full" } else { "empty" })
        } else if i < self.runaway {
            format!("king number {}", part(self.kings) + 1)
        } else if i < self.share {
            format!("runaway on row {}", part(self.runaway))
        } else if i < self.diamond {
            ["men share", "kings share"][part(self.share)].to_string()
        } else if i < self.region {
            let j = part(self.diamond);
            format!("diamond {} state {}", j / DIAMOND_STATES, j % DIAMOND_STATES)
        } else if i < self.column {
            let (j, phase) = (part(self.region) / REGION_PHASES, part(self.region) % REGION_PHASES);
            let phase = if phase == 0 { "full" } else { "empty" };
            format!("region {} state {} ({phase})", j / REGION_STATES, j % REGION_STATES)
        } else if i < self.tempo {
            let j = part(self.column);
            let top = if j < 4 { "a man's column" } else { "an officer's column" };
            format!("{} in {top}", COLUMN_NAMES[j % 4])
        } else {
            "the move".to_string()
        }
    }

    /// The material weights, each with the hand-set evaluation's value in hundredths of a
    /// man: a man's and a king's worth on every square, full board and empty, at the hand-set
    /// values; the first, second and third king and the material shares at none. A fit that
    /// holds these (`doska learn --hand-set-material`) learns only where the pieces stand.
    pub fn material(&self) -> Vec<(usize, f64)> {
        let king = draughts::king_value(self.variant.rules()) as f64;
        let tables = (0..2 * self.squares)
            .map(|j| (self.man + j, 100.0))
            .chain((0..2 * self.squares).map(|j| (self.king + j, king)));
        tables
            .chain((self.kings..self.runaway).chain(self.share..self.diamond).map(|j| (j, 0.0)))
            .collect()
    }

    /// The man's and king's weights on a full board (for a sanity report): their means.
    pub fn piece_means(&self, weights: &[f64]) -> (f64, f64) {
        let mean = |base: usize| {
            (0..self.squares).map(|i| weights[base + 2 * i]).sum::<f64>() / self.squares as f64
        };
        (mean(self.man), mean(self.king))
    }
}

/// The state of a pattern's squares: a base-3 number whose digits, the first square's the
/// highest, are 0 for an empty square, 1 for an `own` piece, 2 for an `enemy` one.
#[inline]
fn pattern_state(squares: &[u8], own: Bits, enemy: Bits) -> usize {
    squares.iter().fold(0, |state, &s| {
        let b = 1u128 << s;
        state * 3
            + if own & b != 0 {
                1
            } else if enemy & b != 0 {
                2
            } else {
                0
            }
    })
}

/// Calls `f(k, n)` for each of Lasca's column features `k` (0..4, [`COLUMN_NAMES`]) that a
/// column of `color` with `under` below its top has, `n` times.
#[inline]
fn column_features(under: &[doska_rules::Piece], color: Color, mut f: impl FnMut(usize, i32)) {
    let Some(first) = under.first() else { return };
    let own = under.iter().filter(|p| p.color == color).count() as i32;
    let prisoners = under.len() as i32 - own;
    if own > 0 {
        f(0, own);
    }
    if prisoners > 0 {
        f(1, prisoners);
    }
    f(if first.color == color { 2 } else { 3 }, 1);
}

/// The layout of a rule set's board.
pub fn layout(v: Variant) -> &'static Layout {
    static ALL: OnceLock<Vec<Layout>> = OnceLock::new();
    let all = ALL.get_or_init(|| Variant::ALL.iter().map(|v| Layout::new(*v)).collect());
    &all[v as usize]
}

/// The embedded weights files, by rule set (`doska learn --out` writes them).
/// Only where a match showed the weights beat the hand-set terms (bench/engines/RESULTS.md).
/// Each file is fitted to the games of its own rule set; a rule set of the same family (the
/// same board, seen the same way) may borrow another's weights where a match showed they beat
/// its hand-set terms.
const FILES: &[(Variant, &[u8])] = &[
    (Variant::Russian, include_bytes!("../../weights/russian.eval")),
    (Variant::American, include_bytes!("../../weights/american.eval")),
    (Variant::Italian, include_bytes!("../../weights/italian.eval")),
    (Variant::Spanish, include_bytes!("../../weights/spanish.eval")),
    (Variant::Thai, include_bytes!("../../weights/thai.eval")),
    (Variant::International, include_bytes!("../../weights/international.eval")),
    (Variant::Frisian, include_bytes!("../../weights/frisian.eval")),
    (Variant::Poddavki, include_bytes!("../../weights/poddavki.eval")),
    (Variant::Lasca, include_bytes!("../../weights/lasca.eval")),
    (Variant::Canadian, include_bytes!("../../weights/canadian.eval")),
    (Variant::Turkish, include_bytes!("../../weights/turkish.eval")),
    (Variant::Armenian, include_bytes!("../../weights/armenian.eval")),
];

/// Rule sets that use another's weights file: (borrower, owner of the file).
const BORROWED: &[(Variant, Variant)] =
    &[(Variant::Brazilian, Variant::Russian), (Variant::Czech, Variant::Russian)];

/// The rule set whose weights file rule set `v` uses.
pub fn weights_of(v: Variant) -> Variant {
    BORROWED.iter().find(|(b, _)| *b == v).map_or(v, |(_, owner)| *owner)
}

/// The weights of a rule set, if a weights file for it (or the one it borrows) is embedded and
/// fits its layout.
pub fn weights(v: Variant) -> Option<&'static [i32]> {
    static ALL: OnceLock<Vec<Option<Vec<i32>>>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        Variant::ALL
            .iter()
            .map(|v| {
                let owner = weights_of(*v);
                let (_, bytes) = FILES.iter().find(|(f, _)| *f == owner)?;
                layout(*v).same_board(layout(owner)).then(|| decode(bytes, owner).ok())?
            })
            .collect()
    });
    all[v as usize].as_deref()
}

/// The embedded weights of a rule set arranged for the search ([`Evaluator`]), if there are
/// weights for it.
pub fn evaluator(v: Variant) -> Option<&'static Evaluator> {
    static ALL: OnceLock<Vec<Option<Evaluator>>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        Variant::ALL.iter().map(|v| weights(*v).map(|w| Evaluator::new(*v, w))).collect()
    });
    all[v as usize].as_ref()
}

/// One rule set's weights arranged so that a position is scored in one pass over its pieces
/// and a table look-up per diamond or region, with the same result as [`evaluate`] to the last
/// unit (the search calls this one; `evaluate` is the definition, feature by feature, and the
/// tests hold the two together).
///
/// The same integer sum is formed in another order: per piece (and per region) the full-board
/// and empty-board weights are summed apart and blended once; each diamond of four squares is
/// one table of 256 entries (which of its squares hold a white and which a black piece), each
/// region one of 6,561 pairs (full, empty), holding White's weight for its state minus Black's
/// for the same squares seen from Black's side.
#[derive(Debug)]
pub struct Evaluator {
    variant: Variant,
    start_pieces: i32,
    /// `[colour][square][full, empty]`: a man's weights, negated for Black.
    man: Box<[[[i32; 2]; 128]; 2]>,
    /// The same for kings.
    king: Box<[[[i32; 2]; 128]; 2]>,
    /// `[colour][square]`: the runaway weight of a man there, negated for Black.
    runaway: Box<[[i32; 128]; 2]>,
    /// The squares in each side's half of the board ahead (where a man can be a runaway).
    ahead: [Bits; 2],
    /// `[colour][kings]`: the first, second and third king's weights summed, negated for Black.
    kings: [[i32; 4]; 2],
    /// `[colour][men, kings]`: the material shares' weights, negated for Black.
    share: [[i32; 2]; 2],
    /// Lasca: `[colour][feature]`, the column weights, negated for Black (none elsewhere).
    column: Option<[[i32; COLUMN_WEIGHTS]; 2]>,
    /// The tempo weight (White to move: +, Black: -).
    tempo: i32,
    /// Each physical diamond: its four squares and its table.
    diamonds: Vec<([u8; 4], Box<[i32]>)>,
    /// Each physical region ([`REGIONED`] boards): its eight squares and its table.
    regions: Vec<([u8; 8], Box<[i32]>)>,
    /// Whether every pattern's squares are bits of a 64-bit word (every board but Canadian's),
    /// so the pieces can be read from one: half the work of 128 bits.
    narrow: bool,
    /// Whether every region's squares are four pairs of neighbouring bits (on a dark-square
    /// board a row's two squares in four columns are), so they can be read a pair at a time.
    paired: bool,
}

/// `TERNARY[m]`: the base-3 number whose digit `k` is bit `k` of `m` (a region's white pieces
/// as digits 1; twice it, its black ones as digits 2).
const TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut m = 0;
    while m < 256 {
        let (mut k, mut p, mut v) = (0, 1u16, 0u16);
        while k < 8 {
            if m >> k & 1 != 0 {
                v += p;
            }
            p *= 3;
            k += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// The patterns' table entries for `white` and `black` (the pieces' squares as bits of `B`,
/// every pattern square a bit of it), summed, `P` apart (a region's full-board and
/// empty-board weights). A diamond's table has 256 entries, indexed by which of its squares
/// hold a white piece and (four bits up) which a black one; a region's 6,561 of `P`, indexed
/// by the base-3 number of its squares' states ([`TERNARY`]).
#[inline]
fn pattern_sum<B, const N: usize, const P: usize>(
    patterns: &[([u8; N], Box<[i32]>)],
    white: B,
    black: B,
) -> [i64; P]
where
    B: Copy + PartialEq + From<u8> + std::ops::Shr<u8, Output = B> + std::ops::BitAnd<Output = B>,
{
    let (zero, one) = (B::from(0), B::from(1));
    let mut sum = [0i64; P];
    for (squares, table) in patterns {
        let (mut w, mut b) = (0usize, 0usize);
        for (k, &s) in squares.iter().enumerate() {
            w |= usize::from((white >> s) & one != zero) << k;
            b |= usize::from((black >> s) & one != zero) << k;
        }
        let index = if N == 4 { w | b << 4 } else { TERNARY[w] as usize + 2 * TERNARY[b] as usize };
        for (p, sum) in sum.iter_mut().enumerate() {
            *sum += table[index * P + p] as i64;
        }
    }
    sum
}

/// [`pattern_sum`] for regions whose squares are four pairs of neighbouring bits, in a 64-bit
/// word: each pair read at once.
#[inline]
fn paired_region_sum(regions: &[([u8; 8], Box<[i32]>)], white: u64, black: u64) -> [i64; 2] {
    let mut sum = [0i64; 2];
    for (squares, table) in regions {
        let (mut w, mut b) = (0usize, 0usize);
        for pair in 0..4 {
            let s = squares[2 * pair];
            w |= (((white >> s) & 3) as usize) << (2 * pair);
            b |= (((black >> s) & 3) as usize) << (2 * pair);
        }
        let index = TERNARY[w] as usize + 2 * TERNARY[b] as usize;
        sum[0] += table[2 * index] as i64;
        sum[1] += table[2 * index + 1] as i64;
    }
    sum
}

/// Each physical pattern of `views` (`[colour][pattern]`, its squares in that colour's frame,
/// whose state `k` has weights `weights[base + (pattern * states + k) * phases..][..phases]`)
/// with its table: for every way white and black pieces can stand on it (`index_of` gives the
/// table index of the squares' states, in the order of the sorted squares, 0 empty, 1 white,
/// 2 black; `len` indexes of `phases` entries), White's weights for its state minus Black's
/// for the same squares seen from Black's side. Every board is symmetric under half a turn, so each physical pattern is one of
/// White's and one of Black's, but a pattern seen by one side only would still be counted.
fn pattern_tables<const N: usize>(
    views: &[Vec<[u8; N]>; 2],
    weights: &[i32],
    base: usize,
    states: usize,
    phases: usize,
    len: usize,
    index_of: impl Fn(&[u8; N]) -> usize,
) -> Vec<([u8; N], Box<[i32]>)> {
    let mut out: Vec<([u8; N], Box<[i32]>)> = Vec::new();
    // Every assignment of states (0, 1, 2) to the sorted squares.
    let all: Vec<[u8; N]> = (0..3usize.pow(N as u32))
        .map(|mut n| {
            std::array::from_fn(|_| {
                let d = (n % 3) as u8;
                n /= 3;
                d
            })
        })
        .collect();
    for c in [Color::White, Color::Black] {
        let sign = if c == Color::White { 1 } else { -1 };
        for (d, squares) in views[c as usize].iter().enumerate() {
            let mut key = *squares;
            key.sort_unstable();
            let at = match out.iter().position(|(k, _)| *k == key) {
                Some(at) => at,
                None => {
                    out.push((key, vec![0; len * phases].into_boxed_slice()));
                    out.len() - 1
                }
            };
            let table = &mut out[at].1;
            for digits in &all {
                let state = squares.iter().fold(0, |state, s| {
                    let k = key.iter().position(|x| x == s).unwrap_or(0);
                    let (own, enemy) = if c == Color::White { (1, 2) } else { (2, 1) };
                    state * 3
                        + match digits[k] {
                            x if x == own => 1,
                            x if x == enemy => 2,
                            _ => 0,
                        }
                });
                for p in 0..phases {
                    table[index_of(digits) * phases + p] +=
                        sign * weights[base + (d * states + state) * phases + p];
                }
            }
        }
    }
    out
}

/// Two evaluators are the same when they are one (each is made once from its weights).
impl PartialEq for Evaluator {
    fn eq(&self, other: &Evaluator) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for Evaluator {}

impl Evaluator {
    /// The rule set the weights are arranged for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Arranges `weights` (which fit [`layout`]`(v)`) for the search.
    pub fn new(v: Variant, weights: &[i32]) -> Evaluator {
        let l = layout(v);
        let g = &v.rules().geometry;
        let half = l.height / 2;
        let mut man = Box::new([[[0; 2]; 128]; 2]);
        let mut king = Box::new([[[0; 2]; 128]; 2]);
        let mut runaway = Box::new([[0; 128]; 2]);
        let mut ahead = [0; 2];
        let mut kings = [[0; 4]; 2];
        let mut share = [[0; 2]; 2];
        for c in [Color::White, Color::Black] {
            let (ci, sign) = (c as usize, if c == Color::White { 1 } else { -1 });
            for sq in g.all_squares() {
                let s = sq.0 as usize;
                let i = l.dense[if c == Color::White { s } else { l.flip[s] as usize }] as usize;
                man[ci][s] = [sign * weights[l.man + 2 * i], sign * weights[l.man + 2 * i + 1]];
                king[ci][s] = [sign * weights[l.king + 2 * i], sign * weights[l.king + 2 * i + 1]];
                let row = g.row_from(sq, c);
                if row >= half {
                    ahead[ci] |= sq.bit();
                    runaway[ci][s] = sign * weights[l.runaway + row as usize];
                }
            }
            for n in 0..3 {
                kings[ci][n + 1] = kings[ci][n] + sign * weights[l.kings + n];
            }
            share[ci] = [sign * weights[l.share], sign * weights[l.share + 1]];
        }
        // A diamond's index: which squares hold a white piece, and four bits up a black one.
        let bit_index = |digits: &[u8; 4]| {
            (0..4)
                .map(|k| usize::from(digits[k] == 1) << k | usize::from(digits[k] == 2) << (k + 4))
                .sum()
        };
        let diamonds =
            pattern_tables(&l.diamonds, weights, l.diamond, DIAMOND_STATES, 1, 256, bit_index);
        let ternary = |digits: &[u8; 8]| digits.iter().rev().fold(0, |n, &d| n * 3 + d as usize);
        let regions = pattern_tables(
            &l.regions,
            weights,
            l.region,
            REGION_STATES,
            REGION_PHASES,
            REGION_STATES,
            ternary,
        );
        let narrow = diamonds
            .iter()
            .flat_map(|(s, _)| s.iter())
            .chain(regions.iter().flat_map(|(s, _)| s.iter()))
            .all(|&s| s < 64);
        Evaluator {
            variant: v,
            start_pieces: l.start_pieces,
            man,
            king,
            runaway,
            ahead,
            kings,
            share,
            column: (l.columns > 0).then(|| {
                let w: [i32; COLUMN_WEIGHTS] = std::array::from_fn(|k| weights[l.column + k]);
                [w, w.map(|x| -x)]
            }),
            tempo: weights[l.tempo],
            narrow,
            paired: regions.iter().all(|(s, _)| (0..4).all(|p| s[2 * p + 1] == s[2 * p] + 1)),
            diamonds,
            regions,
        }
    }

    /// The score of `pos` for the side to move, in hundredths of a man: [`evaluate`]'s.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let total = bits::count(pos.occupied()) as i32;
        let full = (total.min(self.start_pieces) * ONE) / self.start_pieces.max(1);
        let empty = ONE - full;
        let cones = draughts::cones(self.variant);
        let (mut sum_full, mut sum_empty, mut flat, mut shares) = (0i64, 0i64, 0i64, 0i64);
        for c in [Color::White, Color::Black] {
            let ci = c as usize;
            let own = pos.pieces(c);
            let enemy = pos.pieces(c.opposite());
            let men = own & !pos.kings();
            let kings = own & pos.kings();
            for sq in bits::iter(men) {
                let [f, e] = self.man[ci][sq as usize];
                sum_full += f as i64;
                sum_empty += e as i64;
            }
            for sq in bits::iter(men & self.ahead[ci]) {
                if cones[sq as usize][ci] & enemy == 0 {
                    flat += self.runaway[ci][sq as usize] as i64;
                }
            }
            for sq in bits::iter(kings) {
                let [f, e] = self.king[ci][sq as usize];
                sum_full += f as i64;
                sum_empty += e as i64;
            }
            let k = bits::count(kings) as i32;
            flat += self.kings[ci][k.min(3) as usize] as i64;
            if let Some(column) = &self.column {
                for sq in bits::iter(own) {
                    let at = if kings & (1u128 << sq) != 0 { 4 } else { 0 };
                    column_features(&pos.under(Square(sq)), c, |k, n| {
                        flat += (column[ci][at + k] * n) as i64;
                    });
                }
            }
            if total > 0 {
                let [wm, wk] = self.share[ci];
                shares += wm as i64 * (bits::count(men) as i32 * ONE / total) as i64
                    + wk as i64 * (k * ONE / total) as i64;
            }
        }
        let (white, black) = (pos.pieces(Color::White), pos.pieces(Color::Black));
        let ([diamonds], [region_full, region_empty]) = if self.narrow {
            let (white, black) = (white as u64, black as u64);
            let regions = if self.paired {
                paired_region_sum(&self.regions, white, black)
            } else {
                pattern_sum(&self.regions, white, black)
            };
            (pattern_sum(&self.diamonds, white, black), regions)
        } else {
            (pattern_sum(&self.diamonds, white, black), pattern_sum(&self.regions, white, black))
        };
        flat += diamonds;
        sum_full += region_full;
        sum_empty += region_empty;
        flat += if pos.turn() == Color::White { self.tempo } else { -self.tempo } as i64;
        let acc = full as i64 * sum_full + empty as i64 * sum_empty + ONE as i64 * flat + shares;
        let white = (acc / (ONE as i64 * WEIGHT_UNIT)) as i32;
        if pos.turn() == Color::White { white } else { -white }
    }
}

/// The score of `pos` for the side to move, in hundredths of a man: the definition, feature
/// by feature ([`Evaluator`] computes the same faster).
pub fn evaluate(pos: &Position, weights: &[i32]) -> i32 {
    let layout = layout(pos.variant());
    let mut acc = 0i64;
    layout.visit(pos, |i, v| acc += weights[i] as i64 * v as i64);
    let white = (acc / (ONE as i64 * WEIGHT_UNIT)) as i32;
    if pos.turn() == Color::White { white } else { -white }
}

/// A weights file: magic, the rule set's name, the count, then each weight as a little-endian
/// i16.
pub fn encode(v: Variant, weights: &[i32]) -> Vec<u8> {
    encode_named(&v.to_string(), weights)
}

/// A weights file for the game called `name` (a rule set, or an Ugolki preset).
pub(crate) fn encode_named(name: &str, weights: &[i32]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.push(name.len() as u8);
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&(weights.len() as u32).to_le_bytes());
    for w in weights {
        out.extend_from_slice(&(*w).clamp(i16::MIN as i32, i16::MAX as i32).to_le_bytes()[..2]);
    }
    out
}

/// Reads a weights file: the rule set it was made for and its weights.
pub fn read(bytes: &[u8]) -> Result<(Variant, Vec<i32>), String> {
    let rest = bytes.strip_prefix(MAGIC).ok_or("not a doska weights file (no DSKEVAL1 header)")?;
    let name = rest
        .split_first()
        .and_then(|(&n, rest)| rest.get(..n as usize))
        .ok_or("the file ends in the rule set's name")?;
    let name = String::from_utf8_lossy(name).into_owned();
    let owner: Variant =
        name.parse().map_err(|_| format!("the weights are for {name:?}, not a rule set"))?;
    Ok((owner, decode(bytes, owner)?))
}

/// Reads a weights file for rule set `v`, made for `v` or for another rule set on the same
/// board (as a borrower uses its owner's, [`weights_of`]); says what is wrong with one that
/// does not fit.
pub fn read_for(bytes: &[u8], v: Variant) -> Result<Vec<i32>, String> {
    let (owner, weights) = read(bytes)?;
    serves(owner, v)?;
    Ok(weights)
}

/// Whether weights made for rule set `owner` can evaluate rule set `v` (the same board, seen
/// the same way); what is wrong if not.
pub fn serves(owner: Variant, v: Variant) -> Result<(), String> {
    if layout(v).same_board(layout(owner)) {
        Ok(())
    } else {
        Err(format!("the weights are for {owner}, whose board is not {v}'s"))
    }
}

/// Reads a weights file for rule set `v`; says what is wrong with one that does not fit.
pub fn decode(bytes: &[u8], v: Variant) -> Result<Vec<i32>, String> {
    decode_named(bytes, &v.to_string(), layout(v).len())
}

/// Reads a weights file for the game called `name`, whose layout has `want` weights.
pub(crate) fn decode_named(bytes: &[u8], v: &str, want: usize) -> Result<Vec<i32>, String> {
    let rest = bytes.strip_prefix(MAGIC).ok_or("not a doska weights file (no DSKEVAL1 header)")?;
    let (&n, rest) = rest.split_first().ok_or("the file ends before the rule set's name")?;
    let (name, rest) = rest.split_at_checked(n as usize).ok_or("the file ends in the name")?;
    if name != v.as_bytes() {
        return Err(format!(
            "the weights are for {:?}, not {v}",
            String::from_utf8_lossy(name).into_owned()
        ));
    }
    let (count, rest) = rest.split_at_checked(4).ok_or("the file ends before the count")?;
    let count = u32::from_le_bytes([count[0], count[1], count[2], count[3]]) as usize;
    if count != want || rest.len() != 2 * count {
        return Err(format!(
            "{count} weights in {} bytes, but the {v} layout has {want} (retrain with doska learn)",
            rest.len()
        ));
    }
    Ok(rest.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]]) as i32).collect())
}
