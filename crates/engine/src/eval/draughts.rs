//! Draughts evaluation: material with the rule set's own king value, advancement, back rank,
//! centre, runaway men, trading down when ahead, free kings; inverted goals for Poddavki;
//! prisoners for Lasca columns.

use super::{Terms, learned, net};
use doska_rules::bits::{self, Bits};
use doska_rules::variant::{Reach, Removal, Rules, Variant};
use doska_rules::{Color, Position, Square};
use std::sync::OnceLock;

/// Squares the evaluation looks at, per rule set.
struct Masks {
    centre: Bits,
    back: [Bits; 2],
    /// For each square and side, the squares ahead within reach of a diagonal or straight run
    /// to the last row: a man whose cone holds no enemy piece is a runaway.
    cone: Vec<[Bits; 2]>,
}

/// For each square and side, the squares a man there must find empty of enemies to run to the
/// last row (the runaway test).
pub(super) fn cones(v: Variant) -> &'static [[Bits; 2]] {
    &masks(v).cone
}

fn masks(v: Variant) -> &'static Masks {
    static ALL: OnceLock<Vec<Masks>> = OnceLock::new();
    let all = ALL.get_or_init(|| Variant::ALL.iter().map(|v| build(v.rules())).collect());
    &all[v as usize]
}

fn build(r: &Rules) -> Masks {
    let g = &r.geometry;
    let (w, h) = (g.width as i32, g.height as i32);
    let mut centre = 0;
    let mut cone = vec![[0u128; 2]; 128];
    for sq in g.all_squares() {
        let (row, col) = g.row_col(sq);
        let (row, col) = (row as i32, col as i32);
        if (h / 2 - 1..=h / 2).contains(&row) && (w / 4..w - w / 4).contains(&col) {
            centre |= sq.bit();
        }
        for (side, dir) in [(0usize, 1i32), (1, -1)] {
            let mut m = 0;
            for other in g.all_squares() {
                let (r2, c2) = g.row_col(other);
                let (r2, c2) = (r2 as i32, c2 as i32);
                let ahead = (r2 - row) * dir;
                if ahead > 0 && (c2 - col).abs() <= ahead + 1 {
                    m |= other.bit();
                }
            }
            cone[sq.0 as usize][side] = m;
        }
    }
    Masks { centre, back: [g.row_mask(0), g.row_mask(g.height - 1)], cone }
}

/// The value of a king in hundredths of a man, by how far it moves and captures.
pub fn king_value(r: &Rules) -> i32 {
    match (r.variant, r.king_capture) {
        (Variant::Lasca, _) => 160,
        (Variant::Frisian, _) => 250,
        (Variant::Turkish | Variant::Armenian, _) => 280,
        (_, Reach::Short) => 150,
        (_, Reach::FlyingLandBehind) => 260,
        (_, Reach::Flying) => 320,
    }
}

/// Evaluation from the side to move's view.
pub fn evaluate(pos: &Position, t: &Terms) -> i32 {
    evaluate_with(pos, t, |n| n.evaluate(pos))
}

/// [`evaluate`], with the network's score from White's view (where it counts) given by
/// `network` (the search's nodes keep its sums move by move).
#[inline]
pub fn evaluate_with(pos: &Position, t: &Terms, network: impl FnOnce(&net::Net) -> i32) -> i32 {
    if t.learned {
        if let Some(e) = t.weights.filter(|e| e.variant() == pos.variant()) {
            return e.evaluate(pos);
        }
        if let Some(e) = learned::evaluator(pos.variant()) {
            let score = e.evaluate(pos);
            return match net::embedded(pos.variant()).filter(|_| t.net) {
                Some(n) if pos.turn() == Color::White => score + network(n),
                Some(n) => score - network(n),
                None => score,
            };
        }
    }
    let r = pos.rules();
    let g = &r.geometry;
    let m = masks(r.variant);
    let us = pos.turn();
    let kv = king_value(r);
    let total = bits::count(pos.occupied()) as i32;
    let mut side_score = [0i32; 2];
    let mut material = [0i32; 2];
    for c in [Color::White, Color::Black] {
        let ci = c as usize;
        let own = pos.pieces(c);
        let enemy = pos.pieces(c.opposite());
        let men = own & !pos.kings();
        let kings = own & pos.kings();
        let mat = bits::count(men) as i32 * 100 + bits::count(kings) as i32 * kv;
        material[ci] = mat;
        let mut s = mat;
        if t.advancement {
            // Advancing matters more as the board empties.
            let per_row = if total > 16 { 2 } else { 5 };
            for sq in bits::iter(men) {
                s += g.row_from(Square(sq), c) as i32 * per_row;
            }
        }
        if t.back_rank && enemy & pos.kings() == 0 && total > 8 {
            s += bits::count(men & m.back[ci]) as i32 * 8;
        }
        if t.centre {
            s += bits::count(own & m.centre) as i32 * 5;
        }
        if t.runaways {
            let half = g.height / 2;
            for sq in bits::iter(men) {
                let ahead = g.row_from(Square(sq), c);
                if ahead >= half && m.cone[sq as usize][ci] & enemy == 0 {
                    let to_go = (g.height - 1 - ahead) as i32;
                    s += (kv - 100) / 2 - to_go * 10;
                }
            }
        }
        if t.free_kings {
            // A king with nowhere to go is half lost; one with room is worth a little more.
            let empty = g.mask() & !pos.occupied();
            for k in bits::iter(kings) {
                let mut free = 0;
                for d in r.king_steps.iter() {
                    let mut b = g.shift(1u128 << k, d);
                    let mut n = 0;
                    while b & empty != 0 && n < 3 {
                        n += 1;
                        b = g.shift(b, d);
                    }
                    free += n;
                }
                s += if free == 0 { -kv / 4 } else { free.min(6) };
            }
        }
        if r.removal == Removal::Column {
            // Prisoners under our tops are worth keeping; our own pieces under them are reserves.
            for sq in bits::iter(own) {
                for p in pos.under(Square(sq)) {
                    s += if p.color == c { 35 } else { 55 };
                }
            }
        }
        side_score[ci] = s;
    }
    let (u, o) = (us as usize, 1 - us as usize);
    if r.giveaway {
        // Poddavki: the fewer pieces the better; mobility is what keeps the giving going.
        return (material[o] - material[u]) + (pos.count_moves() as i32).min(20);
    }
    let mut score = side_score[u] - side_score[o];
    if t.trades {
        // Ahead in material: every trade makes the lead count for more.
        let lead = material[u] - material[o];
        if lead != 0 && total > 0 {
            score += lead * 8 / total.max(4);
        }
    }
    score
}
