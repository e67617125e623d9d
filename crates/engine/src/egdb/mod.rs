//! Endgame databases: the exact value of every position with few pieces (win, loss or draw,
//! and in how many plies), made by doska's own retrograde generator ([`build`]), checked by a
//! pass that holds every value against its successors ([`Egdb::verify`]), kept compressed on
//! disk ([`Egdb::save`], [`Egdb::load`]) and read by the search, the analysis and the server
//! once [`install`]ed.
//!
//! What a value means: play from the position by the rules of the rule set, with the
//! positional draws of its rule book (a lone king against one piece where the rule set says
//! so) but without the draw counters (15 moves of kings only, the three-kings count) or
//! repetitions: the win is there on the board, and a counter that runs out first makes the
//! game a draw all the same. Distances count plies to the end of the game: a win in 1 is a
//! move after which the opponent has no move. Both sides play perfectly: the winner as fast
//! as it can, the loser as slowly.

mod build;
mod file;
pub mod index;

pub use build::SliceReport;
pub use file::{EgdbError, path};
pub use index::{Board, Slice};

use doska_rules::{Color, Position, Variant};
use std::sync::OnceLock;

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The side to move wins in this many plies.
    Win(u16),
    /// The side to move loses in this many plies.
    Loss(u16),
    /// Drawn with best play.
    Draw,
}

impl Value {
    /// As text: `win in 7 plies`, `loss in 12 plies`, `win in 1 ply`, `draw`.
    pub fn describe(self) -> String {
        let plies = |d: u16| if d == 1 { "1 ply".to_string() } else { format!("{d} plies") };
        match self {
            Value::Win(d) => format!("win in {}", plies(d)),
            Value::Loss(d) => format!("loss in {}", plies(d)),
            Value::Draw => "draw".to_string(),
        }
    }
}

const DRAW: u16 = 0;
const WIN: u16 = 0x8000;
const LOSS: u16 = 0x4000;
const INVALID: u16 = 0xC000;
const DISTANCE: u16 = 0x3FFF;

fn decode(raw: u16) -> Option<Value> {
    match raw & 0xC000 {
        0 => Some(Value::Draw),
        WIN => Some(Value::Win(raw & DISTANCE)),
        LOSS => Some(Value::Loss(raw & DISTANCE)),
        _ => None,
    }
}

fn encode(v: Value) -> u16 {
    match v {
        Value::Draw => DRAW,
        Value::Win(d) => WIN | d.min(DISTANCE),
        Value::Loss(d) => LOSS | d.min(DISTANCE),
    }
}

/// One slice's values with White to move (Black to move is the mirrored slice's White to
/// move), by index.
///
/// Most slices fit a byte an entry: 0 draw, 1 no position, `2 + d` an end in `d` plies,
/// won or lost by `d`'s parity (a win is a move more than a loss: odd without giveaway,
/// where having no move loses in 0, even in Poddavki, where it wins in 0). A slice with a
/// longer end keeps the two-byte values.
#[derive(Debug, Clone)]
enum Table {
    Narrow(Vec<u8>),
    Wide(Vec<u16>),
}

/// The longest end a byte holds.
const NARROW_MAX: u16 = 253;

impl Table {
    /// The table of `values` (two-byte codes), a byte an entry where every value fits.
    fn new(values: Vec<u16>, giveaway: bool) -> Table {
        let narrow: Option<Vec<u8>> = values.iter().map(|&v| Table::narrow(v, giveaway)).collect();
        match narrow {
            Some(bytes) => Table::Narrow(bytes),
            None => Table::Wide(values),
        }
    }

    fn narrow(raw: u16, giveaway: bool) -> Option<u8> {
        match decode(raw) {
            None => Some(1),
            Some(Value::Draw) => Some(0),
            Some(Value::Win(d) | Value::Loss(d)) if d > NARROW_MAX => None,
            Some(v @ (Value::Win(d) | Value::Loss(d))) => {
                let won = matches!(v, Value::Win(_));
                (won == ((d % 2 == 1) != giveaway)).then_some(2 + d as u8)
            }
        }
    }

    fn len(&self) -> usize {
        match self {
            Table::Narrow(t) => t.len(),
            Table::Wide(t) => t.len(),
        }
    }

    /// The two-byte code of entry `i`.
    #[inline]
    fn get(&self, i: usize, giveaway: bool) -> Option<u16> {
        Some(match self {
            Table::Wide(t) => *t.get(i)?,
            Table::Narrow(t) => match *t.get(i)? {
                0 => DRAW,
                1 => INVALID,
                c => {
                    let d = (c - 2) as u16;
                    if (d % 2 == 1) != giveaway { WIN | d } else { LOSS | d }
                }
            },
        })
    }
}

/// Every slice's key: each count is at most [`index::MAX_PIECES`].
fn key(s: Slice) -> usize {
    let b = index::MAX_PIECES + 1;
    ((s.wm as usize * b + s.wk as usize) * b + s.bm as usize) * b + s.bk as usize
}

/// Whether a rule set's positions are just the pieces and the side to move, as the database
/// numbers them (not Frisian, whose kings' runs count, nor Lasca, whose columns hold
/// prisoners).
pub fn applies(v: Variant) -> bool {
    !matches!(v, Variant::Frisian | Variant::Lasca)
}

/// One rule set's endgame database: every slice with at most `pieces` pieces.
#[derive(Debug)]
pub struct Egdb {
    board: Board,
    pieces: usize,
    giveaway: bool,
    tables: Vec<Option<Table>>,
}

impl Egdb {
    fn empty(v: Variant, pieces: usize) -> Egdb {
        let slots = key(Slice { wm: 8, wk: 8, bm: 8, bk: 8 }) + 1;
        Egdb {
            board: Board::new(v),
            pieces,
            giveaway: v.rules().giveaway,
            tables: vec![None; slots],
        }
    }

    /// The rule set.
    pub fn variant(&self) -> Variant {
        self.board.variant()
    }

    /// The most pieces a position may have to be in the database.
    pub fn pieces(&self) -> usize {
        self.pieces
    }

    /// The slices held, in the order they were solved.
    pub fn slices(&self) -> Vec<Slice> {
        (2..=self.pieces).flat_map(Slice::all_with).filter(|s| self.table(*s).is_some()).collect()
    }

    fn table(&self, s: Slice) -> Option<&Table> {
        self.tables.get(key(s))?.as_ref()
    }

    /// The value of `pos` for its side to move, if the database holds it (its rule set, at
    /// most [`Egdb::pieces`] pieces, a piece on each side).
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        if pos.variant() != self.variant() {
            return None;
        }
        let s = Slice::of(pos);
        if s.pieces() > self.pieces {
            return None;
        }
        // The tables hold White to move; Black to move is its mirror (turned only where the
        // mirrored slice is held).
        let black = pos.turn() == Color::Black;
        let table = self.table(if black { s.mirrored() } else { s })?;
        let mirrored;
        let pos = if black {
            mirrored = self.board.mirrored(pos);
            &mirrored
        } else {
            pos
        };
        decode(table.get(self.board.index(pos)? as usize, self.giveaway)?)
    }

    /// The value of a position reached by a move, from its side to move's view: like
    /// [`Egdb::probe`], and also where the side to move has no piece left.
    pub fn after_move(&self, pos: &Position) -> Option<Value> {
        if pos.pieces(pos.turn()) == 0 {
            return Some(stuck(pos));
        }
        self.probe(pos)
    }
}

/// The value for a side to move that has no move (or no piece): lost, except in Poddavki.
fn stuck(pos: &Position) -> Value {
    if pos.rules().giveaway { Value::Win(0) } else { Value::Loss(0) }
}

/// Builds the database of rule set `v` for every position of 2 to `pieces` pieces, on
/// `threads` threads, telling `report` about each slice as it is solved.
pub fn build(
    v: Variant,
    pieces: usize,
    threads: usize,
    mut report: impl FnMut(&SliceReport),
) -> Result<Egdb, EgdbError> {
    if !applies(v) {
        return Err(EgdbError::Unsupported(v));
    }
    if !(2..=index::MAX_PIECES).contains(&pieces) {
        return Err(EgdbError::Pieces(pieces));
    }
    let mut db = Egdb::empty(v, pieces);
    for n in 2..=pieces {
        for s in Slice::all_with(n) {
            // A slice and its mirror are solved together.
            if db.table(s).is_some() {
                continue;
            }
            let (tables, r) = build::solve(&db, s, threads.max(1));
            report(&r);
            for (slice, table) in tables {
                db.tables[key(slice)] = Some(table);
            }
        }
    }
    Ok(db)
}

static INSTALLED: [OnceLock<&'static Egdb>; Variant::ALL.len()] =
    [const { OnceLock::new() }; Variant::ALL.len()];

/// Makes `db` the database the search, the analysis and the server read for its rule set
/// (for the rest of the process: the databases are read once, at start). The first one
/// installed for a rule set stays; whether this one was taken.
pub fn install(db: &'static Egdb) -> bool {
    INSTALLED[db.variant() as usize].set(db).is_ok()
}

/// The installed database of a rule set.
pub fn installed(v: Variant) -> Option<&'static Egdb> {
    INSTALLED[v as usize].get().copied()
}

/// The value of `pos` in the installed database of its rule set, if it is there.
#[inline]
pub fn probe(pos: &Position) -> Option<Value> {
    installed(pos.variant())?.probe(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A byte an entry holds every end up to 253 plies, won or lost by the distance's parity
    /// (the other way round in Poddavki); a longer one, or one of the wrong parity, keeps the
    /// two-byte table.
    #[test]
    fn a_table_keeps_every_value() {
        for giveaway in [false, true] {
            let (win, loss) = if giveaway { (0, 1) } else { (1, 0) };
            let values: Vec<u16> = (0..=NARROW_MAX / 2)
                .flat_map(|k| [WIN | (2 * k + win), LOSS | (2 * k + loss)])
                .filter(|v| v & DISTANCE <= NARROW_MAX)
                .chain([DRAW, INVALID])
                .collect();
            let t = Table::new(values.clone(), giveaway);
            assert!(matches!(t, Table::Narrow(_)));
            for (i, &v) in values.iter().enumerate() {
                assert_eq!(t.get(i, giveaway), Some(v));
            }
            for odd in [WIN | (NARROW_MAX + 2), WIN | (win + 1)] {
                let t = Table::new(vec![DRAW, odd], giveaway);
                assert!(matches!(t, Table::Wide(_)), "{odd:#x}");
                assert_eq!(t.get(1, giveaway), Some(odd));
            }
        }
    }
}
