//! The learned Ugolki evaluation: a linear function of position features whose weights
//! `doska learn --variant ugolki` fits to the results of doska's own games, as the draughts
//! one ([`super::learned`]) is fitted, one weights file per preset, embedded in the build.
//!
//! Each side sees the board from its own corner (Black's view is the board turned half a
//! turn, which maps each home onto the other), and the score is White's view minus Black's.
//! A view holds:
//! - a table over the squares for the side's pieces, twice: for the opening and for move
//!   [`PHASE_MOVES`] on, blended by the move number (where a piece stands is the race's
//!   distance, and more: a square from which jumps lead on is worth more than its distance);
//! - pieces still at home, by how many moves are left before the leave-home rule looks
//!   (where the rule set has one);
//! - local patterns: every 2x2 block, and every line of three squares along each direction
//!   the pieces move in, with each square empty, own or the opponent's (a line of three holds
//!   a jump: a piece, the piece it jumps over, the square it lands on), each state with its
//!   own weight;
//! - a bonus for having the move.
//!
//! Where the armies have passed each other the exact race ([`super::race`]) is used instead,
//! as with the hand-set terms; `doska learn` leaves those positions out. The weights are
//! scaled to the hand-set evaluation's units (a step of the race is worth 10): one unit of
//! the logistic is worth what it is worth in the hand-set evaluation's fit, so scores mean the
//! same chance of winning in both and the exact race's scores stay above both.

use super::learned::{ONE, WEIGHT_UNIT, decode_named};
use doska_rules::Color;
use doska_rules::ugolki::{Directions, PRESETS, UgolkiPosition, UgolkiRules};
use std::sync::OnceLock;

/// From this move on the piece tables are the late ones alone.
pub const PHASE_MOVES: i32 = 60;
/// The upper ends of the buckets of moves left before the leave-home rule looks: a piece at
/// home with at most 2 moves left, 3-5, 6-10, 11-20, and more.
const DEADLINE: [u16; 4] = [2, 5, 10, 20];

/// The set bits of a bitboard, lowest first.
fn squares(mut bits: u128) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            i
        })
    })
}

/// Where each kind of feature starts in the weight vector, for one preset's board.
#[derive(Debug)]
pub struct Layout {
    rules: UgolkiRules,
    /// Squares on the board (`width * width`); bit `rank * width + file`.
    cells: u32,
    /// Each side's home.
    homes: [u128; 2],
    /// The patterns, as squares in White's frame (Black's are their reflections).
    patterns: Vec<Vec<u8>>,
    /// Where each pattern's weights start.
    offsets: Vec<usize>,
    piece: usize,
    home: usize,
    tempo: usize,
    len: usize,
}

impl Layout {
    /// The layout for these rules' board, homes and directions.
    pub fn new(rules: UgolkiRules) -> Layout {
        let w = rules.board.width() as i32;
        let at = |f: i32, r: i32| (0..w).contains(&f) && (0..w).contains(&r);
        let bit = |f: i32, r: i32| (r * w + f) as u8;
        let mut patterns = Vec::new();
        for r in 0..w - 1 {
            for f in 0..w - 1 {
                patterns.push(vec![bit(f, r), bit(f + 1, r), bit(f, r + 1), bit(f + 1, r + 1)]);
            }
        }
        let lines: &[(i32, i32)] = match rules.directions {
            Directions::Orthogonal => &[(1, 0), (0, 1)],
            Directions::All => &[(1, 0), (0, 1), (1, 1), (1, -1)],
        };
        for &(df, dr) in lines {
            for r in 0..w {
                for f in 0..w {
                    if at(f + 2 * df, r + 2 * dr) {
                        patterns.push(vec![
                            bit(f, r),
                            bit(f + df, r + dr),
                            bit(f + 2 * df, r + 2 * dr),
                        ]);
                    }
                }
            }
        }
        let cells = (w * w) as u32;
        let piece = 0;
        let home = piece + 2 * cells as usize;
        let tempo = home + DEADLINE.len() + 1;
        let mut offsets = Vec::with_capacity(patterns.len());
        let mut next = tempo + 1;
        for p in &patterns {
            offsets.push(next);
            next += 3usize.pow(p.len() as u32);
        }
        Layout {
            rules,
            cells,
            homes: [rules.home_bits(Color::White), rules.home_bits(Color::Black)],
            patterns,
            offsets,
            piece,
            home,
            tempo,
            len: next,
        }
    }

    /// The number of weights.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no weights (never).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The square half a turn away.
    fn flip(&self, sq: u32) -> u32 {
        self.cells - 1 - sq
    }

    /// `side`'s bucket of moves left before the leave-home rule looks, if the rules have one.
    fn deadline(&self, pos: &UgolkiPosition, side: Color) -> Option<usize> {
        let n = self.rules.leave_home.moves()?;
        let left = n.saturating_sub(pos.moves_made(side));
        Some(DEADLINE.iter().position(|&d| left <= d).unwrap_or(DEADLINE.len()))
    }

    /// Calls `f(index, value)` for every feature of `pos` that is not zero, from White's
    /// view: Black's features come with negated values. Values are in units of [`ONE`].
    pub fn visit(&self, pos: &UgolkiPosition, mut f: impl FnMut(usize, i32)) {
        let (white, black, turn) = pos.placement();
        let (early, late) = phase(pos);
        for c in [Color::White, Color::Black] {
            let sign = if c == Color::White { 1 } else { -1 };
            let (own, enemy) = if c == Color::White { (white, black) } else { (black, white) };
            let frame = |sq: u32| if c == Color::White { sq } else { self.flip(sq) };
            for sq in squares(own) {
                let i = frame(sq) as usize;
                f(self.piece + 2 * i, sign * early);
                f(self.piece + 2 * i + 1, sign * late);
            }
            if let Some(b) = self.deadline(pos, c) {
                let n = (own & self.homes[c as usize]).count_ones() as i32;
                if n > 0 {
                    f(self.home + b, sign * n * ONE);
                }
            }
            for (p, pattern) in self.patterns.iter().enumerate() {
                let mut state = 0;
                for &s in pattern {
                    let b = 1u128 << frame(s as u32);
                    state = state * 3
                        + if own & b != 0 {
                            1
                        } else if enemy & b != 0 {
                            2
                        } else {
                            0
                        };
                }
                f(self.offsets[p] + state, sign * ONE);
            }
        }
        f(self.tempo, if turn == Color::White { ONE } else { -ONE });
    }

    /// A readable name of weight `i` (for `doska learn`'s report).
    pub fn name(&self, i: usize) -> String {
        if i < self.home {
            let j = i - self.piece;
            format!(
                "piece on square {} ({})",
                j / 2,
                if j.is_multiple_of(2) { "early" } else { "late" }
            )
        } else if i < self.tempo {
            format!("pieces at home, deadline bucket {}", i - self.home)
        } else if i == self.tempo {
            "the move".to_string()
        } else {
            let p = self.offsets.partition_point(|&o| o <= i) - 1;
            format!("pattern {p} state {}", i - self.offsets[p])
        }
    }
}

/// The opening's and the late game's shares of the piece tables, in units of [`ONE`].
fn phase(pos: &UgolkiPosition) -> (i32, i32) {
    let moves = (pos.fullmove_number() as i32 - 1).clamp(0, PHASE_MOVES);
    let late = moves * ONE / PHASE_MOVES;
    (ONE - late, late)
}

/// The embedded weights files, by preset (`doska learn --variant <preset> --out` writes
/// them). Only where a match showed the weights beat the hand-set terms
/// (bench/engines/RESULTS.md); a custom rule set keeps the hand-set terms.
const FILES: &[(&str, &[u8])] = &[];

/// The layout of a preset's board, if `rules` are a preset.
pub fn layout(rules: &UgolkiRules) -> Option<&'static Layout> {
    static ALL: OnceLock<Vec<Layout>> = OnceLock::new();
    let all = ALL.get_or_init(|| PRESETS.iter().map(|(_, r)| Layout::new(*r)).collect());
    PRESETS.iter().position(|(_, r)| r == rules).map(|i| &all[i])
}

/// The embedded weights of a preset arranged for the search, if there are weights for it.
pub fn evaluator(rules: &UgolkiRules) -> Option<&'static Evaluator> {
    static ALL: OnceLock<Vec<Option<Evaluator>>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        PRESETS
            .iter()
            .map(|(name, r)| {
                let (_, bytes) = FILES.iter().find(|(f, _)| f == name)?;
                let l = layout(r)?;
                decode_named(bytes, name, l.len()).ok().map(|w| Evaluator::new(l, &w))
            })
            .collect()
    });
    PRESETS.iter().position(|(_, r)| r == rules).and_then(|i| all[i].as_ref())
}

/// Reads a weights file for preset `rules`; says what is wrong with one that does not fit.
pub fn decode(bytes: &[u8], rules: &UgolkiRules) -> Result<Vec<i32>, String> {
    let name = rules.preset_id().ok_or("only the Ugolki presets have learned weights")?;
    let l = layout(rules).ok_or("only the Ugolki presets have learned weights")?;
    decode_named(bytes, name, l.len())
}

/// A weights file for preset `rules` (as `doska learn` writes it).
pub fn encode(rules: &UgolkiRules, weights: &[i32]) -> Vec<u8> {
    super::learned::encode_named(rules.preset_id().unwrap_or("custom"), weights)
}

/// One preset's weights arranged so that a position is scored in one pass over its pieces
/// and a table look-up per pattern, with the same result as [`evaluate`] to the last unit
/// (the search calls this one; the tests hold the two together). Each physical pattern is
/// one table indexed by which of its squares hold a white and which a black piece, holding
/// White's weight for its state minus Black's for the same squares seen from Black's side.
#[derive(Debug)]
pub struct Evaluator {
    /// `[colour][square][early, late]`: a piece's weights, negated for Black.
    piece: Box<[[[i32; 2]; 128]; 2]>,
    /// `[colour][bucket]`: a piece at home's weight, negated for Black.
    home: [[i32; DEADLINE.len() + 1]; 2],
    homes: [u128; 2],
    layout: &'static Layout,
    tempo: i32,
    /// Each physical pattern: its squares (`len` of them) and its table.
    patterns: Vec<([u8; 4], u8, Box<[i32]>)>,
}

impl Evaluator {
    /// Arranges `weights` (which fit `layout`) for the search.
    pub fn new(layout: &'static Layout, weights: &[i32]) -> Evaluator {
        let l = layout;
        let mut piece = Box::new([[[0; 2]; 128]; 2]);
        let mut home = [[0; DEADLINE.len() + 1]; 2];
        for c in [Color::White, Color::Black] {
            let (ci, sign) = (c as usize, if c == Color::White { 1 } else { -1 });
            for s in 0..l.cells {
                let i = if c == Color::White { s } else { l.flip(s) } as usize;
                piece[ci][s as usize] =
                    [sign * weights[l.piece + 2 * i], sign * weights[l.piece + 2 * i + 1]];
            }
            for (b, w) in home[ci].iter_mut().enumerate() {
                *w = sign * weights[l.home + b];
            }
        }
        let mut patterns: Vec<([u8; 4], u8, Box<[i32]>)> = Vec::new();
        for c in [Color::White, Color::Black] {
            let sign = if c == Color::White { 1 } else { -1 };
            for (p, pattern) in l.patterns.iter().enumerate() {
                let physical: Vec<u8> = pattern
                    .iter()
                    .map(|&s| if c == Color::White { s } else { l.flip(s as u32) as u8 })
                    .collect();
                let mut key = physical.clone();
                key.sort_unstable();
                let k = key.len();
                let mut squares = [0u8; 4];
                squares[..k].copy_from_slice(&key);
                let at = match patterns
                    .iter()
                    .position(|(q, n, _)| *n as usize == k && *q == squares)
                {
                    Some(at) => at,
                    None => {
                        patterns.push((squares, k as u8, vec![0; 1 << (2 * k)].into_boxed_slice()));
                        patterns.len() - 1
                    }
                };
                let table = &mut patterns[at].2;
                for (index, entry) in table.iter_mut().enumerate() {
                    let (white, black) = (index & ((1 << k) - 1), index >> k);
                    if white & black != 0 {
                        continue; // one square cannot hold two pieces
                    }
                    let mut state = 0;
                    for s in &physical {
                        let j = key.iter().position(|x| x == s).unwrap_or(0);
                        let (w, b) = ((white >> j) & 1 != 0, (black >> j) & 1 != 0);
                        let (own, enemy) = if c == Color::White { (w, b) } else { (b, w) };
                        state = state * 3
                            + if own {
                                1
                            } else if enemy {
                                2
                            } else {
                                0
                            };
                    }
                    *entry += sign * weights[l.offsets[p] + state];
                }
            }
        }
        Evaluator { piece, home, homes: l.homes, layout: l, tempo: weights[l.tempo], patterns }
    }

    /// The score of `pos` for the side to move, in the hand-set evaluation's units: the
    /// same as [`evaluate`].
    #[inline]
    pub fn evaluate(&self, pos: &UgolkiPosition) -> i32 {
        let (white, black, turn) = pos.placement();
        let (early, late) = phase(pos);
        let (mut sum_early, mut sum_late, mut flat) = (0i64, 0i64, 0i64);
        for (ci, own) in [white, black].into_iter().enumerate() {
            for sq in squares(own) {
                let [e, l] = self.piece[ci][sq as usize];
                sum_early += e as i64;
                sum_late += l as i64;
            }
            let c = if ci == 0 { Color::White } else { Color::Black };
            if let Some(b) = self.layout.deadline(pos, c) {
                flat += self.home[ci][b] as i64 * (own & self.homes[ci]).count_ones() as i64;
            }
        }
        for (squares, k, table) in &self.patterns {
            let k = *k as usize;
            let mut index = 0;
            for (j, &s) in squares[..k].iter().enumerate() {
                index |=
                    (((white >> s) & 1) as usize) << j | (((black >> s) & 1) as usize) << (j + k);
            }
            flat += table[index] as i64;
        }
        flat += if turn == Color::White { self.tempo } else { -self.tempo } as i64;
        let acc = early as i64 * sum_early + late as i64 * sum_late + ONE as i64 * flat;
        let white = (acc / (ONE as i64 * WEIGHT_UNIT)) as i32;
        if turn == Color::White { white } else { -white }
    }
}

/// The score of `pos` for the side to move: the definition, feature by feature
/// ([`Evaluator`] computes the same faster). `None` when `pos`'s rules are not a preset.
pub fn evaluate(pos: &UgolkiPosition, weights: &[i32]) -> Option<i32> {
    let layout = layout(pos.rules())?;
    let mut acc = 0i64;
    layout.visit(pos, |i, v| acc += weights[i] as i64 * v as i64);
    let white = (acc / (ONE as i64 * WEIGHT_UNIT)) as i32;
    Some(if pos.side_to_move() == Color::White { white } else { -white })
}
