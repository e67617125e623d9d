//! Legal move generation for every draughts rule set, driven by the [`Rules`] data.
//!
//! Captures are compulsory (docs/rules/README.md, general defaults). Capture sequences are
//! found by a depth-first search over jumps; the rule set's [`CaptureChoice`] then keeps the
//! sequences a player may choose, and sequences that are the same move (same start, end and
//! captured set) are merged.

use crate::Color;
use crate::bits::{self, Bits, Set};
use crate::geometry::{Direction, Directions, Geometry, NO_BIT, Square};
use crate::moves::{MAX_JUMPS, Move};
use crate::position::{Columns, Position};
use crate::variant::{CaptureChoice, Fixed, Promotion, Reach, Removal, Rules, Variant};

/// No previous jump direction.
const NO_DIR: u8 = 8;

/// What the capture search needs, fixed for one position; `B` is the bitboard width, `V` the
/// rule set, `WHITE` the side to move (so that every direction set is a constant).
struct Search<'a, B: Set, const V: usize, const WHITE: bool> {
    mask: B,
    enemies: B,
    enemy_kings: B,
    promo: B,
    columns: Option<&'a Columns>,
    from: u8,
    start_king: bool,
    landings: [u8; MAX_JUMPS],
}

impl<'a, B: Set, const V: usize, const WHITE: bool> Search<'a, B, V, WHITE> {
    const R: &'static Rules = Fixed::<V>::RULES;
    const G: &'static Geometry = &Fixed::<V>::RULES.geometry;
    const US: Color = if WHITE { Color::White } else { Color::Black };

    fn new(p: &'a Position) -> Search<'a, B, V, WHITE> {
        let r = Self::R;
        let them = Self::US.opposite() as usize;
        Search {
            mask: B::narrow(r.geometry.mask()),
            enemies: B::narrow(p.pieces[them]),
            enemy_kings: B::narrow(p.pieces[them] & p.kings),
            promo: B::narrow(r.promotion_row(Self::US)),
            columns: p.columns.as_deref(),
            from: NO_BIT,
            start_king: false,
            landings: [0; MAX_JUMPS],
        }
    }

    /// The directions a piece of the given kind captures in.
    #[inline(always)]
    fn caps(king: bool) -> Directions {
        if king {
            for_color(Self::R.king_captures, Self::US)
        } else {
            for_color(Self::R.man_captures, Self::US)
        }
    }

    /// Pieces a piece of the given kind may jump.
    #[inline(always)]
    fn targets(&self, king: bool, captured: B) -> B {
        let t = self.enemies & !captured;
        if king || Self::R.man_takes_king { t } else { t & !self.enemy_kings }
    }

    /// The blockers after `over` is jumped.
    #[inline(always)]
    fn blockers_after(&self, blockers: B, over: B) -> B {
        match Self::R.removal {
            Removal::AfterMove => blockers,
            Removal::Immediate => blockers & !over,
            Removal::Column => {
                if self.columns.is_some_and(|c| c.depth(over.lowest()) > 0) {
                    blockers
                } else {
                    blockers & !over
                }
            }
        }
    }

    /// Whether the king on `at` has any jump (flying kings only).
    fn king_can_jump(&self, at: B, captured: B, blockers: B, last: u8) -> bool {
        let empty = self.mask & !blockers;
        let targets = self.targets(true, captured);
        let mut any = false;
        Self::caps(true).each(|d| {
            if any || (Self::R.no_reversal && last == d.reverse() as u8) {
                return;
            }
            let mut s = Self::G.step(at, d);
            while (s & empty).any() {
                s = Self::G.step(s, d);
            }
            any = (s & targets).any() && (Self::G.step(s, d) & empty).any();
        });
        any
    }

    /// Extends the capture sequence of the piece now on `at`; emits it when it cannot go on.
    #[allow(clippy::too_many_arguments)]
    fn extend(
        &mut self,
        at: B,
        king: bool,
        captured: B,
        blockers: B,
        last: u8,
        depth: usize,
        out: &mut Vec<Move>,
    ) {
        let mut found = false;
        if depth < MAX_JUMPS {
            // Written out per direction (no closure, no loop) so that each copy of `jump_in`
            // sees its direction as a constant.
            macro_rules! each {
                ($king:expr, $($d:ident)*) => {$(
                    if Self::caps($king).contains(Direction::$d) {
                        found |= self.jump_in(
                            Direction::$d, at, $king, captured, blockers, last, depth, out,
                        );
                    }
                )*};
            }
            if king {
                each!(true, N NE E SE S SW W NW);
            } else {
                each!(false, N NE E SE S SW W NW);
            }
        }
        if !found && depth > 0 {
            let promotes = !self.start_king && (king || (at & self.promo).any());
            self.emit(at, captured, depth, promotes, out);
        }
    }

    /// Follows the jumps in direction `d` from `at`, if any; tells whether there was one.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn jump_in(
        &mut self,
        d: Direction,
        at: B,
        king: bool,
        captured: B,
        blockers: B,
        last: u8,
        depth: usize,
        out: &mut Vec<Move>,
    ) -> bool {
        if Self::R.no_reversal && last == d.reverse() as u8 {
            return false;
        }
        let empty = self.mask & !blockers;
        let reach = if king { Self::R.king_capture } else { Reach::Short };
        let mut over = Self::G.step(at, d);
        if reach != Reach::Short {
            while (over & empty).any() {
                over = Self::G.step(over, d);
            }
        }
        if (over & self.targets(king, captured)).none() {
            return false;
        }
        let mut land = Self::G.step(over, d);
        if (land & empty).none() {
            return false;
        }
        let captured2 = captured | over;
        let blockers2 = self.blockers_after(blockers, over);
        if reach != Reach::Flying {
            self.jump(land, king, captured2, blockers2, d, depth, out);
            return true;
        }
        // A flying king may stop on any free square behind the captured piece, unless from
        // some of them it can capture further: then it must stop on one of those
        // (docs/rules/russian.md, "Kings"; implied by the majority rules elsewhere).
        let mut lands = B::ZERO;
        while (land & empty).any() {
            lands |= land;
            land = Self::G.step(land, d);
        }
        let mut going_on = B::ZERO;
        for l in bits::iter_set(lands) {
            let lb = B::bit(l);
            if self.king_can_jump(lb, captured2, blockers2, d as u8) {
                going_on |= lb;
            }
        }
        let chosen = if going_on.any() { going_on } else { lands };
        for l in bits::iter_set(chosen) {
            self.jump(B::bit(l), king, captured2, blockers2, d, depth, out);
        }
        true
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn jump(
        &mut self,
        land: B,
        king: bool,
        captured: B,
        blockers: B,
        d: Direction,
        depth: usize,
        out: &mut Vec<Move>,
    ) {
        self.landings[depth] = land.lowest();
        if !king && (land & self.promo).any() {
            match Self::R.promotion {
                Promotion::EndsMove => {
                    // The man is crowned and the move ends here.
                    self.emit(land, captured, depth + 1, !self.start_king, out);
                    return;
                }
                Promotion::Continues => {
                    self.extend(land, true, captured, blockers, d as u8, depth + 1, out);
                    return;
                }
                Promotion::OnlyAtEnd => {}
            }
        }
        self.extend(land, king, captured, blockers, d as u8, depth + 1, out);
    }

    fn emit(&mut self, at: B, captured: B, depth: usize, promotes: bool, out: &mut Vec<Move>) {
        out.push(Move {
            captured: captured.wide(),
            from: Square(self.from),
            to: Square(at.lowest()),
            jumps: depth as u8,
            promotes,
            landings: self.landings,
        });
    }
}

/// A rule set's direction set as seen by `color`.
#[inline(always)]
fn for_color(d: Directions, color: Color) -> Directions {
    match color {
        Color::White => d,
        Color::Black => d.flip(),
    }
}

/// Calls `$f::<B, V>` for the position's rule set: `V` its index, `B` the narrowest bitboard
/// its board fits in. Everything the rules say becomes a constant in each copy.
macro_rules! dispatch {
    ($pos:expr, $f:ident ( $($arg:expr),* )) => {
        match $pos.variant {
            Variant::American => $pos.$f::<u64, 0>($($arg),*),
            Variant::International => $pos.$f::<u64, 1>($($arg),*),
            Variant::Brazilian => $pos.$f::<u64, 2>($($arg),*),
            Variant::Canadian => $pos.$f::<u128, 3>($($arg),*),
            Variant::Italian => $pos.$f::<u64, 4>($($arg),*),
            Variant::Spanish => $pos.$f::<u64, 5>($($arg),*),
            Variant::Russian => $pos.$f::<u64, 6>($($arg),*),
            Variant::Czech => $pos.$f::<u64, 7>($($arg),*),
            Variant::Turkish => $pos.$f::<u64, 8>($($arg),*),
            Variant::Armenian => $pos.$f::<u64, 9>($($arg),*),
            Variant::Thai => $pos.$f::<u64, 10>($($arg),*),
            Variant::Poddavki => $pos.$f::<u64, 11>($($arg),*),
            Variant::Frisian => $pos.$f::<u64, 12>($($arg),*),
            Variant::Lasca => $pos.$f::<u64, 13>($($arg),*),
        }
    };
}

/// Calls `$f::<B, V>(colour, ...)` with the side to move as a constant: one copy per colour,
/// so that the direction sets seen by that colour are constants too.
macro_rules! by_colour {
    ($pos:expr, $f:ident::<$b:ident, $v:ident>($($arg:expr),*)) => {
        match $pos.turn {
            Color::White => $pos.$f::<$b, $v>(Color::White $(, $arg)*),
            Color::Black => $pos.$f::<$b, $v>(Color::Black $(, $arg)*),
        }
    };
}

impl Position {
    /// All legal moves, captures merged by the "drop duplicates" convention.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.legal_moves_into(&mut out);
        out
    }

    /// All legal moves into `out` (cleared first); reuse `out` to avoid allocating.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        self.capture_routes_into(out);
        if out.is_empty() {
            self.quiet_moves_into(out);
        } else {
            self.merge_duplicates(out);
        }
    }

    /// Every capture sequence the player may choose, one entry per route (duplicates kept).
    pub fn capture_routes(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.capture_routes_into(&mut out);
        out
    }

    /// The squares of the pieces that must capture (empty when no capture is possible).
    pub fn capturing_pieces(&self) -> Bits {
        let mut out = Vec::new();
        self.capture_routes_into(&mut out);
        out.iter().fold(0, |b, m| b | m.from.bit())
    }

    /// Number of legal moves, without building them when no capture is possible.
    pub fn count_moves(&self) -> u64 {
        self.count_moves_with(&mut Vec::new())
    }

    /// [`Position::count_moves`] with a scratch buffer for captures, to avoid allocating.
    pub fn count_moves_with(&self, scratch: &mut Vec<Move>) -> u64 {
        let capturers = self.capturers();
        if capturers != 0 {
            scratch.clear();
            dispatch!(self, captures_in(capturers, scratch));
            self.choose(scratch);
            self.merge_duplicates(scratch);
            return scratch.len() as u64;
        }
        self.count_quiet()
    }

    /// Whether the side to move has a capture.
    pub fn has_capture(&self) -> bool {
        self.capturers() != 0
    }

    /// The pieces of the side to move that have a first jump.
    fn capturers(&self) -> Bits {
        dispatch!(self, capturers_in())
    }

    #[inline(never)]
    fn capturers_in<B: Set, const V: usize>(&self) -> Bits {
        by_colour!(self, capturers_of::<B, V>())
    }

    #[inline(always)]
    fn capturers_of<B: Set, const V: usize>(&self, us: Color) -> Bits {
        let r = Fixed::<V>::RULES;
        let g = &r.geometry;
        let own = B::narrow(self.pieces[us as usize]);
        let enemies = B::narrow(self.pieces[us.opposite() as usize]);
        let kings_all = B::narrow(self.kings);
        let empty = B::narrow(g.mask()) & !(own | enemies);
        let men = own & !kings_all;
        let man_targets = if r.man_takes_king { enemies } else { enemies & !kings_all };
        let mut found = B::ZERO;
        for_color(r.man_captures, us).each(|d| {
            let back = d.reverse();
            found |= g.step(g.step(empty, back) & man_targets, back) & men;
        });
        let kings = own & kings_all;
        if kings.none() {
            return found.wide();
        }
        if r.king_capture == Reach::Short {
            r.king_captures.each(|d| {
                let back = d.reverse();
                found |= g.step(g.step(empty, back) & enemies, back) & kings;
            });
            return found.wide();
        }
        for k in bits::iter_set(kings) {
            for d in r.king_captures.iter() {
                let mut s = g.step(B::bit(k), d);
                while (s & empty).any() {
                    s = g.step(s, d);
                }
                if (s & enemies).any() && (g.step(s, d) & empty).any() {
                    found |= B::bit(k);
                    break;
                }
            }
        }
        found.wide()
    }

    /// Every capture sequence of the side to move, before the capture-choice rule.
    pub fn unfiltered_capture_routes(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.raw_captures_into(&mut out);
        out
    }

    fn capture_routes_into(&self, out: &mut Vec<Move>) {
        self.raw_captures_into(out);
        if !out.is_empty() {
            self.choose(out);
        }
    }

    fn raw_captures_into(&self, out: &mut Vec<Move>) {
        let capturers = self.capturers();
        if capturers == 0 {
            return;
        }
        dispatch!(self, captures_in(capturers, out))
    }

    fn captures_in<B: Set, const V: usize>(&self, capturers: Bits, out: &mut Vec<Move>) {
        match self.turn {
            Color::White => self.captures_of::<B, V, true>(capturers, out),
            Color::Black => self.captures_of::<B, V, false>(capturers, out),
        }
    }

    fn captures_of<B: Set, const V: usize, const WHITE: bool>(
        &self,
        capturers: Bits,
        out: &mut Vec<Move>,
    ) {
        let mut s = Search::<B, V, WHITE>::new(self);
        let occupied = B::narrow(self.occupied());
        for from in bits::iter(capturers) {
            let b = B::bit(from);
            let king = self.kings & (1u128 << from) != 0;
            s.from = from;
            s.start_king = king;
            // The moving piece leaves its square: a king may pass over or land on it.
            s.extend(b, king, B::ZERO, occupied & !b, NO_DIR, 0, out);
        }
    }

    /// Keeps the capture sequences the rule set's capture choice allows.
    fn choose(&self, moves: &mut Vec<Move>) {
        let r = self.rules();
        let kings = self.kings;
        let from_king = |m: &Move| kings & m.from.bit() != 0;
        let count = |m: &Move| bits::count(m.captured);
        let king_count = |m: &Move| bits::count(m.captured & kings);
        match r.choice {
            CaptureChoice::Free => {}
            CaptureChoice::MostPieces => keep_max(moves, count),
            CaptureChoice::Spanish => keep_max(moves, |m| (count(m), king_count(m))),
            CaptureChoice::KingFirst => {
                if moves.iter().any(from_king) {
                    moves.retain(from_king);
                }
            }
            CaptureChoice::FrisianValue => keep_max(moves, |m| {
                (100 * (count(m) - king_count(m)) + 199 * king_count(m), from_king(m))
            }),
            CaptureChoice::Italian => {
                keep_max(moves, |m| (count(m), from_king(m), king_count(m)));
                // Then the sequence that meets a king earliest: compare the positions of the
                // kings in capture order; the lowest differing position wins.
                let g = &r.geometry;
                let order = |m: &Move| -> u32 {
                    m.captures_in_order(g)
                        .iter()
                        .enumerate()
                        .filter(|(_, sq)| kings & sq.bit() != 0)
                        .fold(0, |acc, (i, _)| acc | 1 << i)
                };
                let masks: Vec<u32> = moves.iter().map(order).collect();
                let best = masks.iter().copied().fold(None, |best: Option<u32>, m| match best {
                    None => Some(m),
                    Some(b) => {
                        let x = b ^ m;
                        Some(if x != 0 && m & (x & x.wrapping_neg()) != 0 { m } else { b })
                    }
                });
                let mut i = 0;
                moves.retain(|_| {
                    let keep = Some(masks[i]) == best;
                    i += 1;
                    keep
                });
            }
        }
    }

    /// Merges capture sequences that are the same move.
    pub(crate) fn merge_duplicates(&self, moves: &mut Vec<Move>) {
        if moves.len() < 2 {
            return;
        }
        let mut i = 0;
        while i < moves.len() {
            if moves[..i].iter().any(|m| self.same_move(m, &moves[i])) {
                moves.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }

    /// Whether two moves of this position are the same move (docs/rules/README.md, "What a
    /// move is"): same start, end and captured set, and the same position after them (in Lasca
    /// the order of captures can change the capturing column).
    pub(crate) fn same_move(&self, a: &Move, b: &Move) -> bool {
        a.same_as(b) && (self.rules().removal != Removal::Column || self.play(a) == self.play(b))
    }

    /// The king that may not make another non-capturing move (Frisian art. 17), as a bit.
    fn frozen_king(&self) -> Bits {
        let r = self.rules();
        let us = self.turn as usize;
        let run = self.runs[us];
        if r.king_move_limit
            && run.count >= 3
            && run.square != NO_BIT
            && self.pieces[us] & !self.kings != 0
        {
            1u128 << run.square
        } else {
            0
        }
    }

    fn quiet_moves_into(&self, out: &mut Vec<Move>) {
        dispatch!(self, quiet_in(out))
    }

    fn quiet_in<B: Set, const V: usize>(&self, out: &mut Vec<Move>) {
        by_colour!(self, quiet_of::<B, V>(out))
    }

    #[inline(always)]
    fn quiet_of<B: Set, const V: usize>(&self, us: Color, out: &mut Vec<Move>) {
        let r = Fixed::<V>::RULES;
        let g = &r.geometry;
        let own = B::narrow(self.pieces[us as usize]);
        let kings_all = B::narrow(self.kings);
        let empty = B::narrow(g.mask() & !self.occupied());
        let promo = B::narrow(r.promotion_row(us));
        let men = own & !kings_all;
        for_color(r.man_steps, us).each(|d| {
            let back = g.delta(d);
            for to in bits::iter_set(g.step(men, d) & empty) {
                let from = (to as i16 - back as i16) as u8;
                out.push(Move::plain(from, to, (B::bit(to) & promo).any()));
            }
        });
        let kings = own & kings_all & !B::narrow(self.frozen_king());
        for k in bits::iter_set(kings) {
            for d in r.king_steps.iter() {
                let mut s = g.step(B::bit(k), d);
                while (s & empty).any() {
                    out.push(Move::plain(k, s.lowest(), false));
                    if r.king_move == Reach::Short {
                        break;
                    }
                    s = g.step(s, d);
                }
            }
        }
    }

    fn count_quiet(&self) -> u64 {
        dispatch!(self, count_quiet_in())
    }

    fn count_quiet_in<B: Set, const V: usize>(&self) -> u64 {
        by_colour!(self, count_quiet_of::<B, V>())
    }

    #[inline(always)]
    fn count_quiet_of<B: Set, const V: usize>(&self, us: Color) -> u64 {
        let r = Fixed::<V>::RULES;
        let g = &r.geometry;
        let own = B::narrow(self.pieces[us as usize]);
        let kings_all = B::narrow(self.kings);
        let empty = B::narrow(g.mask() & !self.occupied());
        let men = own & !kings_all;
        let mut n = 0u64;
        for_color(r.man_steps, us).each(|d| n += (g.step(men, d) & empty).count() as u64);
        let kings = own & kings_all & !B::narrow(self.frozen_king());
        if kings.none() {
            return n;
        }
        if r.king_move == Reach::Short {
            r.king_steps.each(|d| n += (g.step(kings, d) & empty).count() as u64);
            return n;
        }
        for k in bits::iter_set(kings) {
            for d in r.king_steps.iter() {
                let mut s = g.step(B::bit(k), d);
                while (s & empty).any() {
                    n += 1;
                    s = g.step(s, d);
                }
            }
        }
        n
    }
}

/// Keeps the moves with the greatest key.
fn keep_max<K: Ord + Copy>(moves: &mut Vec<Move>, key: impl Fn(&Move) -> K) {
    if let Some(best) = moves.iter().map(&key).max() {
        moves.retain(|m| key(m) == best);
    }
}
