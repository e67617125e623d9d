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
//! - a bonus for having the move.
//!
//! Where the armies have passed each other the exact race ([`super::race`]) is used instead,
//! as with the hand-set terms; `doska learn` leaves those positions out. The weights are
//! scaled to the hand-set evaluation's units (a step of the race is worth 10): one unit of
//! the logistic is worth what it is worth in the hand-set evaluation's fit, so scores mean the
//! same chance of winning in both and the exact race's scores stay above both.

use super::learned::{ONE, WEIGHT_UNIT, decode_named};
use doska_rules::Color;
use doska_rules::ugolki::{PRESETS, UgolkiPosition, UgolkiRules};
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
    piece: usize,
    home: usize,
    tempo: usize,
    len: usize,
}

impl Layout {
    /// The layout for these rules' board and homes.
    pub fn new(rules: UgolkiRules) -> Layout {
        let w = rules.board.width() as u32;
        let cells = w * w;
        let piece = 0;
        let home = piece + 2 * cells as usize;
        let tempo = home + DEADLINE.len() + 1;
        Layout {
            rules,
            cells,
            homes: [rules.home_bits(Color::White), rules.home_bits(Color::Black)],
            piece,
            home,
            tempo,
            len: tempo + 1,
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
            let own = if c == Color::White { white } else { black };
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
        } else {
            "the move".to_string()
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
const FILES: &[(&str, &[u8])] = &[
    ("ugolki", include_bytes!("../../weights/ugolki.eval")),
    ("ugolki-brainking", include_bytes!("../../weights/ugolki-brainking.eval")),
];

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

/// What is said of rules that are not a preset (custom rules keep the hand-set terms).
pub fn not_a_preset() -> String {
    format!(
        "custom Ugolki rules have no learned evaluation: it is made per preset ({})",
        PRESETS.map(|(name, _)| name).join(", ")
    )
}

/// The preset's name and layout, or what is wrong.
fn preset(rules: &UgolkiRules) -> Result<(&'static str, &'static Layout), String> {
    rules.preset_id().zip(layout(rules)).ok_or_else(not_a_preset)
}

/// Reads a weights file for preset `rules`; says what is wrong with one that does not fit.
pub fn decode(bytes: &[u8], rules: &UgolkiRules) -> Result<Vec<i32>, String> {
    let (name, l) = preset(rules)?;
    decode_named(bytes, name, l.len())
}

/// A weights file for preset `rules` (as `doska learn` writes it).
pub fn encode(rules: &UgolkiRules, weights: &[i32]) -> Result<Vec<u8>, String> {
    Ok(super::learned::encode_named(preset(rules)?.0, weights))
}

/// One preset's weights arranged so that a position is scored in one pass over its pieces,
/// with the same result as [`evaluate`] to the last unit (the search calls this one; the
/// tests hold the two together).
#[derive(Debug)]
pub struct Evaluator {
    /// `[colour][square][early, late]`: a piece's weights, negated for Black.
    piece: Box<[[[i32; 2]; 128]; 2]>,
    /// `[colour][bucket]`: a piece at home's weight, negated for Black.
    home: [[i32; DEADLINE.len() + 1]; 2],
    layout: &'static Layout,
    tempo: i32,
}

/// Two evaluators are the same when they are one (each is made once from its weights).
impl PartialEq for Evaluator {
    fn eq(&self, other: &Evaluator) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for Evaluator {}

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
        Evaluator { piece, home, layout: l, tempo: weights[l.tempo] }
    }

    /// The preset these weights are for.
    pub fn rules(&self) -> &UgolkiRules {
        &self.layout.rules
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
                flat += self.home[ci][b] as i64 * (own & self.layout.homes[ci]).count_ones() as i64;
            }
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
