//! A small network over the board, added to the learned evaluation ([`super::learned`]) where
//! the build has one for the rule set: what the linear patterns leave of the chance of winning,
//! fitted by `doska learn --net` to the same kind of games (the positions of the learned
//! players, labelled by the players' search scores and the results).
//!
//! Each side's view of the board (Black's turned half a turn, as the learned evaluation sees
//! it) has an input for each square and each of own man, own king, opponent's man and
//! opponent's king; [`HIDDEN`] units sum the weights of the inputs that are on, each clipped to
//! 0..1, and the output is their weighted sum. The score is White's view's output minus
//! Black's, so the function is the same for both colours by construction and sees every
//! piece of both sides in each view (the interactions a linear sum of local patterns
//! cannot). The file holds the weights as the fit made them (32-bit floats); the search reads
//! them as 16-bit integers, sums the rows of the pieces on the board and clips, which agrees
//! with the float network within a hundredth of a man or two (the tests hold the two
//! together).

use super::learned;
use doska_rules::bits;
use doska_rules::variant::Variant;
use doska_rules::{Color, Position};
use std::sync::OnceLock;

/// Hidden units.
pub const HIDDEN: usize = 32;
/// The integer network's unit: an activation of 1 is this much.
const Q: f32 = 256.0;
const MAGIC: &[u8; 8] = b"DSKNET01";

/// The networks the build embeds: only where a match showed the learned evaluation plays
/// better with it (bench/engines/RESULTS.md: International +56 ± 29 Elo in 200 games;
/// American's, fitted the same way, +17 ± 22, not embedded). Each is fitted on top of its
/// rule set's embedded weights file and means nothing over another.
const FILES: &[(Variant, &[u8])] =
    &[(Variant::International, include_bytes!("../../weights/international.net"))];

/// A network's weights as fitted, in units of the logistic's argument (`scale` hundredths of
/// a man each).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// `inputs × HIDDEN`: row `i` holds input `i`'s weight into each hidden unit.
    pub hidden: Vec<f32>,
    /// Each hidden unit's bias.
    pub bias: Vec<f32>,
    /// Each hidden unit's weight in the output.
    pub out: Vec<f32>,
    /// Hundredths of a man a unit of the output.
    pub scale: f32,
}

/// The number of inputs of one side's view on rule set `v`'s board.
pub fn inputs(v: Variant) -> usize {
    4 * learned::layout(v).squares()
}

/// Calls `f` with each input of colour `c`'s view of `pos` that is on.
#[inline]
pub fn visit_view(pos: &Position, c: Color, mut f: impl FnMut(usize)) {
    let layout = learned::layout(pos.variant());
    let n = layout.squares();
    let own = pos.pieces(c);
    let enemy = pos.pieces(c.opposite());
    let kings = pos.kings();
    for (plane, set) in
        [(0, own & !kings), (1, own & kings), (2, enemy & !kings), (3, enemy & kings)]
    {
        for sq in bits::iter(set) {
            f(plane * n + layout.frame(c, sq));
        }
    }
}

impl Weights {
    /// Small random weights to start a fit from (`seed` picks them).
    pub fn random(v: Variant, seed: u64) -> Weights {
        let mut state = seed | 1;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        };
        let hidden = (0..inputs(v) * HIDDEN).map(|_| next() * 0.2).collect();
        let bias = (0..HIDDEN).map(|_| 0.2 + next() * 0.1).collect();
        let out = (0..HIDDEN).map(|_| next() * 0.02).collect();
        Weights { hidden, bias, out, scale: 100.0 }
    }

    /// One view's output, with each hidden unit's sum before clipping written to `sums`.
    #[inline]
    pub fn view(&self, on: &[u16], sums: &mut [f32; HIDDEN]) -> f32 {
        sums.copy_from_slice(&self.bias);
        for &i in on {
            let row = &self.hidden[i as usize * HIDDEN..][..HIDDEN];
            for (s, w) in sums.iter_mut().zip(row) {
                *s += w;
            }
        }
        sums.iter().zip(&self.out).map(|(s, o)| s.clamp(0.0, 1.0) * o).sum()
    }

    /// The output for `pos` from White's view, in units of the logistic's argument: the
    /// definition ([`Net::evaluate`] computes it in integers).
    pub fn output(&self, pos: &Position) -> f32 {
        let mut sums = [0f32; HIDDEN];
        let mut on = Vec::with_capacity(64);
        let mut total = 0.0;
        for (c, sign) in [(Color::White, 1.0), (Color::Black, -1.0)] {
            on.clear();
            visit_view(pos, c, |i| on.push(i as u16));
            total += sign * self.view(&on, &mut sums);
        }
        total
    }
}

/// A network ready for the search: its weights as 16-bit integers, a row a piece.
#[derive(Debug)]
pub struct Net {
    variant: Variant,
    rows: Vec<[i16; HIDDEN]>,
    bias: [i16; HIDDEN],
    out: [i32; HIDDEN],
    /// Hundredths of a man per unit of the integer output (`scale / Q²`).
    per_unit: f32,
}

impl Net {
    /// The network of `weights` for rule set `v`'s board.
    pub fn new(v: Variant, weights: &Weights) -> Net {
        let q = |x: f32| (x * Q).round().clamp(-32767.0, 32767.0) as i16;
        let rows = weights
            .hidden
            .chunks_exact(HIDDEN)
            .map(|row| std::array::from_fn(|k| q(row[k])))
            .collect();
        Net {
            variant: v,
            rows,
            bias: std::array::from_fn(|k| q(weights.bias[k])),
            out: std::array::from_fn(|k| (weights.out[k] * Q).round() as i32),
            per_unit: weights.scale / (Q * Q),
        }
    }

    /// The rule set it is for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The hidden units' sums for `pos` (White's view, then Black's), before clipping.
    pub fn sums(&self, pos: &Position) -> Sums {
        let mut sums = [self.bias; 2];
        for (c, sums) in [Color::White, Color::Black].into_iter().zip(&mut sums) {
            visit_view(pos, c, |i| add(sums, &self.rows[i]));
        }
        sums
    }

    /// Brings `sums`, those of position `before`, to those of `after`: only the rows of the
    /// pieces that left a square or came to one (the integers wrap alike in any order, so the
    /// result is [`Net::sums`] of `after` to the bit).
    #[inline]
    pub fn update(&self, sums: &mut Sums, before: &Position, after: &Position) {
        let layout = learned::layout(self.variant);
        let n = layout.squares();
        let classes = |p: &Position| {
            let (w, b, k) = (p.pieces(Color::White), p.pieces(Color::Black), p.kings());
            [w & !k, w & k, b & !k, b & k]
        };
        let (old, new) = (classes(before), classes(after));
        for class in 0..4 {
            let (gone, came) = (old[class] & !new[class], new[class] & !old[class]);
            if gone | came == 0 {
                continue;
            }
            for (c, sums) in [Color::White, Color::Black].into_iter().zip(sums.iter_mut()) {
                // The class's colour is own in its own view, the opponent's in the other.
                let plane = class % 2 + if class / 2 == c as usize { 0 } else { 2 };
                for sq in bits::iter(gone) {
                    sub(sums, &self.rows[plane * n + layout.frame(c, sq)]);
                }
                for sq in bits::iter(came) {
                    add(sums, &self.rows[plane * n + layout.frame(c, sq)]);
                }
            }
        }
    }

    /// The score of the position whose sums are `sums`, from White's view, in hundredths of a
    /// man.
    #[inline]
    pub fn output(&self, sums: &Sums) -> i32 {
        let view = |sums: &[i16; HIDDEN]| -> i64 {
            sums.iter().zip(&self.out).map(|(s, o)| (*s).clamp(0, Q as i16) as i32 * o).sum::<i32>()
                as i64
        };
        ((view(&sums[0]) - view(&sums[1])) as f32 * self.per_unit).round() as i32
    }

    /// The network's score for `pos` from White's view, in hundredths of a man.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.sums(pos))
    }
}

/// A network's hidden sums for a position: White's view's, then Black's.
pub type Sums = [[i16; HIDDEN]; 2];

#[inline]
fn add(sums: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (s, w) in sums.iter_mut().zip(row) {
        *s = s.wrapping_add(*w);
    }
}

#[inline]
fn sub(sums: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (s, w) in sums.iter_mut().zip(row) {
        *s = s.wrapping_sub(*w);
    }
}

/// The embedded network of rule set `v`, if the build has one.
pub fn embedded(v: Variant) -> Option<&'static Net> {
    static ALL: OnceLock<Vec<Option<Net>>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        Variant::ALL
            .iter()
            .map(|v| {
                let (_, bytes) = FILES.iter().find(|(f, _)| f == v)?;
                decode(bytes, *v).ok().map(|w| Net::new(*v, &w))
            })
            .collect()
    });
    all[v as usize].as_ref()
}

/// A network file: magic, the rule set's name, the number of inputs and of hidden units, the
/// scale, then the hidden weights (row by row), the biases and the output weights, each a
/// little-endian 32-bit float.
pub fn encode(v: Variant, w: &Weights) -> Vec<u8> {
    let name = v.to_string();
    let mut out = MAGIC.to_vec();
    out.push(name.len() as u8);
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&(inputs(v) as u32).to_le_bytes());
    out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
    for x in std::iter::once(&w.scale).chain(&w.hidden).chain(&w.bias).chain(&w.out) {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out
}

/// Reads a network file for rule set `v`; says what is wrong with one that does not fit.
pub fn decode(bytes: &[u8], v: Variant) -> Result<Weights, String> {
    let rest = bytes.strip_prefix(MAGIC).ok_or("not a doska network file (no DSKNET01 header)")?;
    let (&n, rest) = rest.split_first().ok_or("the file ends before the rule set's name")?;
    let (name, rest) = rest.split_at_checked(n as usize).ok_or("the file ends in the name")?;
    if name != v.to_string().as_bytes() {
        return Err(format!(
            "the network is for {:?}, not {v}",
            String::from_utf8_lossy(name).into_owned()
        ));
    }
    let word = |at: usize| -> Option<u32> {
        rest.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let (Some(ins), Some(hidden)) = (word(0), word(4)) else {
        return Err("the file ends before its sizes".into());
    };
    let (ins, hidden) = (ins as usize, hidden as usize);
    if ins != inputs(v) || hidden != HIDDEN {
        return Err(format!(
            "a network of {ins} inputs and {hidden} hidden units, but this build's for {v} has {} and {HIDDEN} (fit it again with doska learn --net)",
            inputs(v)
        ));
    }
    let floats: Vec<f32> = rest[8..]
        .chunks(4)
        .map(|b| b.try_into().map(f32::from_le_bytes).map_err(|_| "the file ends in a weight"))
        .collect::<Result<_, _>>()?;
    let want = 1 + ins * HIDDEN + 2 * HIDDEN;
    if floats.len() != want {
        return Err(format!("{} weights, but the network has {want}", floats.len()));
    }
    if let Some(bad) = floats.iter().position(|x| !x.is_finite()) {
        return Err(format!("weight {bad} is not a finite number"));
    }
    let (hidden, rest) = floats[1..].split_at(ins * HIDDEN);
    let (bias, out) = rest.split_at(HIDDEN);
    Ok(Weights {
        hidden: hidden.to_vec(),
        bias: bias.to_vec(),
        out: out.to_vec(),
        scale: floats[0],
    })
}

#[cfg(test)]
mod tests {
    use super::{HIDDEN, Net, Weights, decode, encode, inputs};
    use doska_rules::variant::Variant;
    use doska_rules::{Color, Piece, Position};

    fn some_positions(v: Variant) -> Vec<Position> {
        // The start, then a walk of first legal moves and of last ones.
        let mut out = vec![Position::start(v)];
        for pick_last in [false, true] {
            let mut pos = Position::start(v);
            for _ in 0..40 {
                let moves = pos.legal_moves();
                let Some(m) = (if pick_last { moves.last() } else { moves.first() }) else {
                    break;
                };
                pos = pos.play(m);
                out.push(pos.clone());
            }
        }
        out
    }

    #[test]
    fn the_integer_network_agrees_with_the_float_one_and_sees_both_colours_alike() {
        for v in [Variant::American, Variant::International, Variant::Russian] {
            let mut w = Weights::random(v, 7);
            w.scale = 120.0;
            // Larger output weights than a fresh fit's, so the scores are not all zero.
            for o in &mut w.out {
                *o *= 50.0;
            }
            let net = Net::new(v, &w);
            let mut nonzero = 0;
            for pos in some_positions(v) {
                let float = w.output(&pos) * w.scale;
                let int = net.evaluate(&pos);
                assert!(
                    (float - int as f32).abs() <= 2.0,
                    "{v} {}: {float} vs {int}",
                    pos.to_fen()
                );
                nonzero += usize::from(int != 0);
                // The same position with the colours swapped (turned half a turn) scores the
                // negation.
                let mut swapped = Position::empty(v, pos.turn().opposite());
                for c in [Color::White, Color::Black] {
                    for sq in doska_rules::bits::iter(pos.pieces(c)) {
                        let piece = pos.piece_at(doska_rules::Square(sq)).unwrap();
                        let turned = crate::eval::learned::layout(v).turned(sq);
                        let piece = Piece { color: piece.color.opposite(), ..piece };
                        swapped.put(doska_rules::Square(turned), Some(piece));
                    }
                }
                assert_eq!(net.evaluate(&swapped), -int, "{v} {}", pos.to_fen());
            }
            assert!(nonzero > 10, "{v}: {nonzero} scores not zero");
        }
    }

    #[test]
    fn insane_adds_the_embedded_network_to_the_weights_and_without_net_leaves_it_out() {
        use crate::Terms;
        use crate::eval::{draughts, learned};
        let v = Variant::International;
        let net = super::embedded(v).expect("embedded");
        assert_eq!(net.variant(), v);
        let weights = learned::evaluator(v).unwrap();
        let mut differ = 0;
        for pos in some_positions(v) {
            let white = if pos.turn() == Color::White { 1 } else { -1 };
            let with = draughts::evaluate(&pos, &Terms::ALL);
            assert_eq!(with, weights.evaluate(&pos) + white * net.evaluate(&pos));
            let without = Terms::ALL.without("net").unwrap();
            assert_eq!(draughts::evaluate(&pos, &without), weights.evaluate(&pos));
            differ += usize::from(with != weights.evaluate(&pos));
        }
        assert!(differ > 10, "{v}: the network changed {differ} scores");
        // The search's nodes, which keep the sums move by move, score the same.
        use crate::node::{DraughtsNode, Node};
        let mut node = DraughtsNode::new(Position::start(v), Default::default(), 0);
        for _ in 0..60 {
            let mut moves = Vec::new();
            node.legal(&mut moves);
            let Some(m) = moves.last() else { break };
            node = node.play(m);
            let (a, b) = (node.evaluate(&Terms::ALL), draughts::evaluate(&node.pos, &Terms::ALL));
            assert_eq!(a, b, "{v} {}", node.pos.to_fen());
        }
        // Only where a match showed it helps.
        assert!(super::embedded(Variant::Russian).is_none());
        assert!(super::embedded(Variant::American).is_none());
    }

    #[test]
    fn the_sums_kept_move_by_move_are_the_sums_of_the_position() {
        for v in [Variant::American, Variant::International, Variant::Russian] {
            let net = Net::new(v, &Weights::random(v, 11));
            // Random games to their end: captures, promotions, kings taken.
            let mut rng = 5u64;
            for _ in 0..6 {
                let mut pos = Position::start(v);
                let mut sums = net.sums(&pos);
                for _ in 0..300 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    rng = crate::node::mix(rng + 1);
                    let next = pos.play(&moves[rng as usize % moves.len()]);
                    net.update(&mut sums, &pos, &next);
                    pos = next;
                    assert_eq!(sums, net.sums(&pos), "{v} {}", pos.to_fen());
                }
            }
        }
    }

    #[test]
    fn a_network_file_is_read_back_and_a_wrong_one_is_refused_with_the_reason() {
        let v = Variant::American;
        let w = Weights::random(v, 3);
        let bytes = encode(v, &w);
        assert_eq!(bytes.len(), 8 + 1 + 8 + 8 + 4 * (1 + inputs(v) * HIDDEN + 2 * HIDDEN));
        assert_eq!(decode(&bytes, v).unwrap(), w);
        let err = |b: &[u8], v: Variant| decode(b, v).unwrap_err();
        assert!(err(b"DSKEVAL1xx", v).contains("no DSKNET01 header"));
        assert!(err(&bytes, Variant::Italian).contains("for \"american\", not italian"));
        let i = Variant::International;
        assert!(decode(&encode(i, &Weights::random(i, 3)), i).is_ok());
        let mut wider = bytes.clone();
        wider[17..21].copy_from_slice(&200u32.to_le_bytes());
        assert!(
            err(&wider, v)
                .contains("200 inputs and 32 hidden units, but this build's for american has 128")
        );
        assert!(err(&bytes[..bytes.len() - 2], v).contains("ends in a weight"));
        assert!(err(&bytes[..bytes.len() - 4], v).contains("weights, but the network has"));
        assert!(err(&bytes[..20], v).contains("before its sizes"));
        let mut nan = bytes.clone();
        let at = bytes.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(err(&nan, v).contains("not a finite number"));
    }
}
