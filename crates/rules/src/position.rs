//! A draughts position: the pieces, the side to move, and the little state some rule sets
//! keep with the position (Frisian king runs, Lasca columns).

use crate::Color;
use crate::bits::{self, Bits, Set};
use crate::geometry::{NO_BIT, Square};
use crate::moves::Move;
use crate::variant::{Removal, Rules, Variant};

/// A piece: its colour and whether it is a king (an officer in Lasca).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Crowned.
    pub king: bool,
}

/// Frisian art. 17: the king of one side that made the last non-capturing moves, and how
/// many it made in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KingRun {
    /// The king's square (`NO_BIT` for none).
    pub square: u8,
    /// Non-capturing moves in a row.
    pub count: u8,
}

impl KingRun {
    /// No run.
    pub const NONE: KingRun = KingRun { square: NO_BIT, count: 0 };
}

/// The pieces under the top of every Lasca column, by square bit.
///
/// A column's entry holds the number of pieces under the top in its low 5 bits, then two bits
/// per piece from just under the top downwards: bit 0 black, bit 1 officer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Columns(pub(crate) [u64; 32]);

/// Most pieces a column can hold under its top (22 pieces on the board).
pub const MAX_UNDER: usize = 21;

impl Columns {
    fn empty() -> Columns {
        Columns([0; 32])
    }

    /// The pieces under the top of the column on `sq`, from just under the top downwards.
    pub fn under(&self, sq: Square) -> Vec<Piece> {
        let v = self.0.get(sq.0 as usize).copied().unwrap_or(0);
        let n = (v & 31) as usize;
        (0..n).map(|i| decode((v >> (5 + 2 * i)) & 3)).collect()
    }

    pub(crate) fn set_under(&mut self, sq: Square, pieces: &[Piece]) {
        let mut v = pieces.len().min(MAX_UNDER) as u64;
        for (i, p) in pieces.iter().take(MAX_UNDER).enumerate() {
            v |= encode(*p) << (5 + 2 * i);
        }
        if let Some(slot) = self.0.get_mut(sq.0 as usize) {
            *slot = v;
        }
    }

    /// Height of the column under the top.
    pub fn depth(&self, sq: u8) -> u32 {
        (self.0.get(sq as usize).copied().unwrap_or(0) & 31) as u32
    }
}

fn encode(p: Piece) -> u64 {
    (p.color == Color::Black) as u64 | ((p.king as u64) << 1)
}

fn decode(v: u64) -> Piece {
    Piece { color: if v & 1 != 0 { Color::Black } else { Color::White }, king: v & 2 != 0 }
}

/// A position of one draughts rule set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) variant: Variant,
    /// Squares of each side's pieces (the top piece's owner for Lasca columns).
    pub(crate) pieces: [Bits; 2],
    /// Squares holding kings (the top piece for Lasca).
    pub(crate) kings: Bits,
    pub(crate) turn: Color,
    pub(crate) runs: [KingRun; 2],
    pub(crate) columns: Option<Box<Columns>>,
}

impl Position {
    /// The start position of a rule set.
    pub fn start(variant: Variant) -> Position {
        let r = variant.rules();
        let mut p = Position::empty(variant, r.first);
        p.pieces = [r.start_men(Color::White), r.start_men(Color::Black)];
        p
    }

    /// An empty board with `turn` to move.
    pub fn empty(variant: Variant, turn: Color) -> Position {
        let columns =
            (variant.rules().removal == Removal::Column).then(|| Box::new(Columns::empty()));
        Position { variant, pieces: [0, 0], kings: 0, turn, runs: [KingRun::NONE; 2], columns }
    }

    /// The rule set.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The rule set's data.
    pub fn rules(&self) -> &'static Rules {
        self.variant.rules()
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Hands the move to `turn`, the pieces as they are (the endgame databases' generator
    /// walks moves backwards with it).
    pub fn set_turn(&mut self, turn: Color) {
        self.turn = turn;
    }

    /// The squares of a side's pieces.
    pub fn pieces(&self, color: Color) -> Bits {
        self.pieces[color as usize]
    }

    /// The squares of kings of both sides.
    pub fn kings(&self) -> Bits {
        self.kings
    }

    /// All occupied squares.
    pub fn occupied(&self) -> Bits {
        self.pieces[0] | self.pieces[1]
    }

    /// The piece on a square (the top of a Lasca column).
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = sq.bit();
        let color = if self.pieces[0] & b != 0 {
            Color::White
        } else if self.pieces[1] & b != 0 {
            Color::Black
        } else {
            return None;
        };
        Some(Piece { color, king: self.kings & b != 0 })
    }

    /// The pieces under a Lasca column's top, from just under the top downwards.
    pub fn under(&self, sq: Square) -> Vec<Piece> {
        self.columns.as_ref().map(|c| c.under(sq)).unwrap_or_default()
    }

    /// The Frisian king run of a side.
    pub fn king_run(&self, color: Color) -> KingRun {
        self.runs[color as usize]
    }

    /// Number of men and kings of a side.
    pub fn material(&self, color: Color) -> (u32, u32) {
        let p = self.pieces[color as usize];
        (bits::count(p & !self.kings), bits::count(p & self.kings))
    }

    /// Puts a piece on a square (replacing what was there; a Lasca column loses its under part).
    pub fn put(&mut self, sq: Square, piece: Option<Piece>) {
        let b = sq.bit();
        self.pieces[0] &= !b;
        self.pieces[1] &= !b;
        self.kings &= !b;
        if let Some(c) = self.columns.as_mut() {
            c.set_under(sq, &[]);
        }
        if let Some(p) = piece {
            self.pieces[p.color as usize] |= b;
            if p.king {
                self.kings |= b;
            }
        }
    }

    pub(crate) fn set_under(&mut self, sq: Square, under: &[Piece]) {
        if let Some(c) = self.columns.as_mut() {
            c.set_under(sq, under);
        }
    }

    pub(crate) fn set_run(&mut self, color: Color, run: KingRun) {
        self.runs[color as usize] = run;
    }

    /// The position after `mv`, which must be one of this position's legal moves.
    pub fn play(&self, mv: &Move) -> Position {
        let mut next = self.clone();
        next.apply(mv);
        next
    }

    /// Plays `mv` in place.
    pub(crate) fn apply(&mut self, mv: &Move) {
        match self.variant {
            // The only rule sets with state beside the pieces: Frisian king runs, Lasca columns.
            Variant::Frisian => self.apply_in::<{ Variant::Frisian as usize }>(mv),
            Variant::Lasca => self.apply_in::<{ Variant::Lasca as usize }>(mv),
            Variant::Canadian => self.apply_pieces::<u128>(mv),
            _ => self.apply_pieces::<u64>(mv),
        }
    }

    /// [`Position::apply`] for the rule sets whose position is just the pieces and the turn,
    /// in the narrowest bitboard `B` the board fits in.
    #[inline(always)]
    fn apply_pieces<B: Set>(&mut self, mv: &Move) {
        let us = self.turn as usize;
        let from = B::bit(mv.from.0);
        let to = B::bit(mv.to.0);
        let captured = B::narrow(mv.captured);
        let mut own = B::narrow(self.pieces[us]);
        let mut kings = B::narrow(self.kings);
        let was_king = (kings & from).any();
        // A capture may end where it started (a round trip), so clear before setting.
        own = (own & !from) | to;
        kings &= !(captured | from);
        if was_king || mv.promotes {
            kings |= to;
        }
        self.pieces[us] = own.wide();
        self.pieces[1 - us] = (B::narrow(self.pieces[1 - us]) & !captured).wide();
        self.kings = kings.wide();
        self.turn = self.turn.opposite();
    }

    /// [`Position::apply`] with the rule set's data as a constant.
    #[inline(always)]
    pub(crate) fn apply_in<const V: usize>(&mut self, mv: &Move) {
        let r = crate::variant::Fixed::<V>::RULES;
        let us = self.turn as usize;
        let them = 1 - us;
        let from = mv.from.bit();
        let to = mv.to.bit();
        let was_king = self.kings & from != 0;
        if let Some(cols) = self.columns.take() {
            self.apply_columns(mv, cols, r);
        } else {
            // A capture may end where it started (a round trip), so clear before setting.
            self.pieces[us] = (self.pieces[us] & !from) | to;
            self.pieces[them] &= !mv.captured;
            self.kings &= !(mv.captured | from);
            if was_king {
                self.kings |= to;
            }
        }
        if mv.promotes {
            self.kings |= to;
        }
        if r.king_move_limit {
            // Frisian art. 17: a non-capturing king move extends that king's run; any other
            // move of the side ends it.
            self.runs[us] = if was_king && !mv.is_capture() {
                let run = self.runs[us];
                // Saturating: a side with no men moves one king as often as it likes (the
                // limit holds only while it has men, and men never come back), so the count
                // may pass 255 without meaning anything more.
                let count = if run.square == mv.from.0 { run.count.saturating_add(1) } else { 1 };
                KingRun { square: mv.to.0, count }
            } else {
                KingRun::NONE
            };
            // A captured king loses its run.
            if self.runs[them].square != NO_BIT
                && mv.captured & (1u128 << self.runs[them].square) != 0
            {
                self.runs[them] = KingRun::NONE;
            }
        }
        self.turn = self.turn.opposite();
    }

    /// Lasca: the column moves as one; each jumped column's top goes under the moving column.
    fn apply_columns(&mut self, mv: &Move, mut cols: Box<Columns>, r: &Rules) {
        let us = self.turn;
        let mut moving_under = cols.under(mv.from);
        let top = Piece { color: us, king: self.kings & mv.from.bit() != 0 };
        cols.set_under(mv.from, &[]);
        self.pieces[us as usize] &= !mv.from.bit();
        self.kings &= !mv.from.bit();
        for sq in mv.captures_in_order(&r.geometry) {
            let b = sq.bit();
            let taken = self.piece_at(sq);
            let mut rest = cols.under(sq);
            if let Some(t) = taken {
                moving_under.push(t);
            }
            self.pieces[0] &= !b;
            self.pieces[1] &= !b;
            self.kings &= !b;
            if !rest.is_empty() {
                let new_top = rest.remove(0);
                self.pieces[new_top.color as usize] |= b;
                if new_top.king {
                    self.kings |= b;
                }
            }
            cols.set_under(sq, &rest);
        }
        let to = mv.to.bit();
        self.pieces[us as usize] |= to;
        if top.king {
            self.kings |= to;
        }
        cols.set_under(mv.to, &moving_under);
        self.columns = Some(cols);
    }
}
