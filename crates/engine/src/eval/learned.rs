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
//!   and the one below those) with each square empty, own or the opponent's (81 states per
//!   diamond, each with its own weight), as Scan's evaluation does with larger regions;
//! - a bonus for having the move.
//!
//! Weights are in sixteenths of a hundredth of a man; `doska learn` scales them so that a man
//! on a full board is worth 100 on average, as in the hand-set evaluation, so the search's
//! margins and the review's thresholds keep their meaning. Where the learned evaluation is
//! on, the hand-set terms (`Terms`) have no effect: `--without learned` brings them back.

use super::draughts;
use doska_rules::bits;
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
    height: u8,
    /// Pieces at the start: the phase's denominator.
    start_pieces: i32,
    man: usize,
    king: usize,
    kings: usize,
    runaway: usize,
    share: usize,
    diamond: usize,
    tempo: usize,
    len: usize,
}

const DIAMOND_STATES: usize = 81;

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
        let mut white = Vec::new();
        for row in 0..h.saturating_sub(2) {
            for col in 1..w.saturating_sub(1) {
                let at = |r: u8, c: u8| g.square_at(r, c).map(|s| s.0);
                if let (Some(a), Some(b), Some(c), Some(d)) =
                    (at(row, col), at(row + 1, col - 1), at(row + 1, col + 1), at(row + 2, col))
                {
                    white.push([a, b, c, d]);
                }
            }
        }
        let black = white.iter().map(|d| d.map(|s| flip[s as usize])).collect();
        let start_pieces = bits::count(Position::start(v).occupied()) as i32;
        let man = 0;
        let king = man + 2 * squares;
        let kings = king + 2 * squares;
        let runaway = kings + 3;
        let share = runaway + h as usize;
        let diamond = share + 2;
        let tempo = diamond + white.len() * DIAMOND_STATES;
        Layout {
            variant: v,
            squares,
            dense,
            flip,
            diamonds: [white, black],
            height: h,
            start_pieces,
            man,
            king,
            kings,
            runaway,
            share,
            diamond,
            tempo,
            len: tempo + 1,
        }
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
            let frame = |sq: u8| -> usize {
                let s =
                    if c == Color::White { sq as usize } else { self.flip[sq as usize] as usize };
                self.dense[s] as usize
            };
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
                let mut state = 0;
                for &s in squares {
                    let b = 1u128 << s;
                    state = state * 3
                        + if own & b != 0 {
                            1
                        } else if enemy & b != 0 {
                            2
                        } else {
                            0
                        };
                }
                f(self.diamond + d * DIAMOND_STATES + state, sign * ONE);
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
        } else if i < self.tempo {
            let j = part(self.diamond);
            format!("diamond {} state {}", j / DIAMOND_STATES, j % DIAMOND_STATES)
        } else {
            "the move".to_string()
        }
    }

    /// The man's and king's weights on a full board (for a sanity report): their means.
    pub fn piece_means(&self, weights: &[f64]) -> (f64, f64) {
        let mean = |base: usize| {
            (0..self.squares).map(|i| weights[base + 2 * i]).sum::<f64>() / self.squares as f64
        };
        (mean(self.man), mean(self.king))
    }
}

/// The layout of a rule set's board.
pub fn layout(v: Variant) -> &'static Layout {
    static ALL: OnceLock<Vec<Layout>> = OnceLock::new();
    let all = ALL.get_or_init(|| Variant::ALL.iter().map(|v| Layout::new(*v)).collect());
    &all[v as usize]
}

/// Whether the learned evaluation can describe a rule set (not Poddavki, whose goal is the
/// opposite, nor Lasca, whose columns hold prisoners).
pub fn applies(v: Variant) -> bool {
    let r = v.rules();
    !r.giveaway && r.removal != Removal::Column
}

/// The embedded weights files, by rule set (`doska learn --out` writes them).
/// Only where a match showed the weights beat the hand-set terms (bench/engines/RESULTS.md).
const FILES: &[(Variant, &[u8])] =
    &[(Variant::Russian, include_bytes!("../../weights/russian.eval"))];

/// The weights of a rule set, if a weights file for it is embedded and fits its layout.
pub fn weights(v: Variant) -> Option<&'static [i32]> {
    static ALL: OnceLock<Vec<Option<Vec<i32>>>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        Variant::ALL
            .iter()
            .map(|v| {
                let (_, bytes) = FILES.iter().find(|(f, _)| f == v)?;
                decode(bytes, *v).ok()
            })
            .collect()
    });
    all[v as usize].as_deref()
}

/// The score of `pos` for the side to move, in hundredths of a man.
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
    let mut out = MAGIC.to_vec();
    let name = v.to_string();
    out.push(name.len() as u8);
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&(weights.len() as u32).to_le_bytes());
    for w in weights {
        out.extend_from_slice(&(*w).clamp(i16::MIN as i32, i16::MAX as i32).to_le_bytes()[..2]);
    }
    out
}

/// Reads a weights file for rule set `v`; says what is wrong with one that does not fit.
pub fn decode(bytes: &[u8], v: Variant) -> Result<Vec<i32>, String> {
    let rest = bytes.strip_prefix(MAGIC).ok_or("not a doska weights file (no DSKEVAL1 header)")?;
    let (&n, rest) = rest.split_first().ok_or("the file ends before the rule set's name")?;
    let (name, rest) = rest.split_at_checked(n as usize).ok_or("the file ends in the name")?;
    if name != v.to_string().as_bytes() {
        return Err(format!(
            "the weights are for {:?}, not {v}",
            String::from_utf8_lossy(name).into_owned()
        ));
    }
    let (count, rest) = rest.split_at_checked(4).ok_or("the file ends before the count")?;
    let count = u32::from_le_bytes([count[0], count[1], count[2], count[3]]) as usize;
    let want = layout(v).len();
    if count != want || rest.len() != 2 * count {
        return Err(format!(
            "{count} weights in {} bytes, but the {v} layout has {want} (retrain with doska learn)",
            rest.len()
        ));
    }
    Ok(rest.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]]) as i32).collect())
}
