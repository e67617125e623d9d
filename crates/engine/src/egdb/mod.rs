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

use doska_rules::{Position, Variant};
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
    /// As text: `win in 7 plies`, `loss in 12 plies`, `draw`.
    pub fn describe(self) -> String {
        match self {
            Value::Win(d) => format!("win in {d} plies"),
            Value::Loss(d) => format!("loss in {d} plies"),
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
    tables: Vec<Option<Vec<u16>>>,
}

impl Egdb {
    fn empty(v: Variant, pieces: usize) -> Egdb {
        let slots = key(Slice { wm: 8, wk: 8, bm: 8, bk: 8 }) + 1;
        Egdb { board: Board::new(v), pieces, tables: vec![None; slots] }
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

    fn table(&self, s: Slice) -> Option<&[u16]> {
        self.tables.get(key(s))?.as_deref()
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
        let table = self.table(s)?;
        decode(*table.get(self.board.index(pos)? as usize)?)
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
            let (table, r) = build::solve(&db, s, threads.max(1));
            report(&r);
            db.tables[key(s)] = Some(table);
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
