//! Positions and move generation.
//!
//! Move generation rests on one fact: nothing is captured and the board does not change during
//! a jump chain (only the moving piece has left its start square), so the squares a chain can
//! stop on are exactly the squares reachable in the graph "jump over one adjacent piece onto
//! the free square right behind it". A breadth-first flood fill over bitboards finds them all
//! at once, and a shortest route never revisits a square, so every destination is legal under
//! the "never back to a visited square" rule. The tests check this against a literal
//! depth-first search over all non-revisiting chains.

use super::geometry::{Geometry, bits};
use super::moves::{IllegalMove, IllegalReason, Path, UgolkiMove};
use super::rules::{LeaveHome, UgolkiRules};
use super::square::Square;
use crate::Color;

/// A position: the pieces of both sides, the side to move, and how many moves each side has
/// made (the leave-home rule depends on it). It carries its rules, so it knows its board,
/// homes and directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UgolkiPosition {
    rules: UgolkiRules,
    white: u128,
    black: u128,
    side: Color,
    white_moves: u16,
    black_moves: u16,
}

impl UgolkiPosition {
    /// The starting position: each side on its home, White to move (seed 000: "Белые ходят
    /// первыми").
    pub fn start(rules: UgolkiRules) -> UgolkiPosition {
        UgolkiPosition {
            rules,
            white: rules.home_bits(Color::White),
            black: rules.home_bits(Color::Black),
            side: Color::White,
            white_moves: 0,
            black_moves: 0,
        }
    }

    /// Builds a position from checked parts (see the FEN reader). `fullmove` is the number of
    /// the current move, from 1; White has moved first.
    pub(crate) fn from_parts(
        rules: UgolkiRules,
        white: u128,
        black: u128,
        side: Color,
        fullmove: u16,
    ) -> UgolkiPosition {
        let done = fullmove.saturating_sub(1);
        let white_moves = match side {
            Color::White => done,
            Color::Black => fullmove,
        };
        UgolkiPosition { rules, white, black, side, white_moves, black_moves: done }
    }

    /// The rules of this position.
    pub fn rules(&self) -> &UgolkiRules {
        &self.rules
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// How many moves `side` has made (a pass counts).
    pub fn moves_made(&self, side: Color) -> u16 {
        match side {
            Color::White => self.white_moves,
            Color::Black => self.black_moves,
        }
    }

    /// The number of the current move, from 1: a move is White's move and Black's reply, as
    /// shown under the board (seed 000, "Что значит «40-й ход»?").
    pub fn fullmove_number(&self) -> u32 {
        u32::from(self.black_moves) + 1
    }

    /// The piece on `square`, if any.
    pub fn piece_at(&self, square: Square) -> Option<Color> {
        let width = self.rules.board.width();
        if !square.on_board(width) {
            return None;
        }
        let bit = 1u128 << square.index(width);
        if self.white & bit != 0 {
            Some(Color::White)
        } else if self.black & bit != 0 {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The squares of `side`'s pieces, `a1` first, rank by rank.
    pub fn pieces(&self, side: Color) -> Vec<Square> {
        let width = self.rules.board.width();
        bits(self.own(side)).map(|i| Square::from_index(i, width)).collect()
    }

    /// Whether all of `side`'s pieces stand on the opponent's starting squares (seed 000:
    /// "Первым перевести все 9 своих шашек в угол соперника").
    pub fn has_completed(&self, side: Color) -> bool {
        let own = self.own(side);
        own != 0 && own & !self.rules.home_bits(side.opposite()) == 0
    }

    /// Whether `side` has a piece on its own starting squares.
    pub fn has_piece_at_home(&self, side: Color) -> bool {
        self.own(side) & self.rules.home_bits(side) != 0
    }

    /// Whether `side` has a piece in its own half (ranks 1-4 on 8x8, 1-5 on 10x10 for White).
    pub fn has_piece_in_half(&self, side: Color) -> bool {
        self.own(side) & self.rules.half_bits(side) != 0
    }

    /// Whether `side` is warned about pieces still at home: from move N-5 of an N-move
    /// leave-home rule (move 35 for `ugolki`, docs/rules/ugolki.md, "Warning") while any of
    /// its pieces is at home.
    pub fn warning(&self, side: Color) -> bool {
        match self.rules.leave_home {
            LeaveHome::Off => false,
            LeaveHome::Ugolki(n) | LeaveHome::BrainKing(n) => {
                self.fullmove_number() >= u32::from(n.saturating_sub(5))
                    && self.has_piece_at_home(side)
            }
        }
    }

    /// All legal moves of the side to move; `[Pass]` when it has none.
    pub fn legal_moves(&self) -> Vec<UgolkiMove> {
        let mut moves = Vec::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// [`UgolkiPosition::legal_moves`] into a reused buffer (cleared first): steps, then jump
    /// destinations, piece by piece from `a1`.
    pub fn legal_moves_into(&self, out: &mut Vec<UgolkiMove>) {
        out.clear();
        let width = self.rules.board.width();
        let occupied = self.white | self.black;
        for from_index in bits(self.own(self.side)) {
            let from_bit = 1u128 << from_index;
            let from = Square::from_index(from_index, width);
            for to in bits(self.step_targets(from_bit, occupied)) {
                out.push(UgolkiMove::Step { from, to: Square::from_index(to, width) });
            }
            for to in bits(self.jump_targets(from_bit, occupied)) {
                out.push(UgolkiMove::Jump { from, to: Square::from_index(to, width) });
            }
        }
        // Seed 000: "Если ходить некуда, ход пропускается."
        if out.is_empty() {
            out.push(UgolkiMove::Pass);
        }
    }

    /// The legal moves of the piece on `from` (empty if it is not the mover's piece), for
    /// showing its destinations.
    pub fn moves_from(&self, from: Square) -> Vec<UgolkiMove> {
        let width = self.rules.board.width();
        if self.piece_at(from) != Some(self.side) {
            return Vec::new();
        }
        let from_bit = 1u128 << from.index(width);
        let occupied = self.white | self.black;
        let steps = bits(self.step_targets(from_bit, occupied))
            .map(|to| UgolkiMove::Step { from, to: Square::from_index(to, width) });
        let jumps = bits(self.jump_targets(from_bit, occupied))
            .map(|to| UgolkiMove::Jump { from, to: Square::from_index(to, width) });
        steps.chain(jumps).collect()
    }

    /// Number of legal moves (a forced pass is one), without listing them: perft's last ply.
    pub fn count_moves(&self) -> u64 {
        let occupied = self.white | self.black;
        let mut count = 0u64;
        for from_index in bits(self.own(self.side)) {
            let from_bit = 1u128 << from_index;
            count += u64::from(self.step_targets(from_bit, occupied).count_ones());
            count += u64::from(self.jump_targets(from_bit, occupied).count_ones());
        }
        count.max(1)
    }

    /// Whether `side` has a move other than a pass on this board.
    pub fn can_move(&self, side: Color) -> bool {
        let occupied = self.white | self.black;
        bits(self.own(side)).any(|i| {
            let from_bit = 1u128 << i;
            self.step_targets(from_bit, occupied) | self.jump_targets(from_bit, occupied) != 0
        })
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: UgolkiMove) -> bool {
        self.check(mv).is_ok()
    }

    /// The position after a legal move, or why the move is illegal.
    pub fn play(&self, mv: UgolkiMove) -> Result<UgolkiPosition, IllegalMove> {
        self.check(mv).map_err(|reason| IllegalMove { text: mv.to_string(), reason })?;
        let mut next = *self;
        next.apply(mv);
        Ok(next)
    }

    /// One shortest route of a legal move for animation: the start and every landing (a step
    /// is `[from, to]`, a pass is empty); `None` if the move is illegal.
    pub fn path(&self, mv: UgolkiMove) -> Option<Path> {
        self.check(mv).ok()?;
        let mut path = Path::new();
        match mv {
            UgolkiMove::Pass => {}
            UgolkiMove::Step { from, to } => {
                path.push(from);
                path.push(to);
            }
            UgolkiMove::Jump { from, to } => self.jump_route(from, to, &mut path),
        }
        Some(path)
    }

    /// Whether the move is legal, and if not, why.
    pub(crate) fn check(&self, mv: UgolkiMove) -> Result<(), IllegalReason> {
        let width = self.rules.board.width();
        let (from, to) = match mv {
            UgolkiMove::Pass => {
                return if self.can_move(self.side) {
                    Err(IllegalReason::PassNotAllowed)
                } else {
                    Ok(())
                };
            }
            UgolkiMove::Step { from, to } | UgolkiMove::Jump { from, to } => (from, to),
        };
        for square in [from, to] {
            if !square.on_board(width) {
                return Err(IllegalReason::OffBoard { square, width });
            }
        }
        if self.piece_at(from) != Some(self.side) {
            return Err(IllegalReason::NotYourPiece { square: from, side: self.side });
        }
        let from_bit = 1u128 << from.index(width);
        let to_bit = 1u128 << to.index(width);
        let occupied = self.white | self.black;
        match mv {
            UgolkiMove::Step { .. } if self.step_targets(from_bit, occupied) & to_bit == 0 => {
                Err(IllegalReason::NotAStep { from, to })
            }
            UgolkiMove::Jump { .. } if self.jump_targets(from_bit, occupied) & to_bit == 0 => {
                Err(IllegalReason::Unreachable { from, to })
            }
            _ => Ok(()),
        }
    }

    /// Plays a move without checking it; callers pass only generated or checked moves. A pass
    /// still counts as the side's move (docs/rules/ugolki.md: "A pass counts as that side's
    /// move").
    pub(crate) fn apply(&mut self, mv: UgolkiMove) {
        if let (Some(from), Some(to)) = (mv.from(), mv.to()) {
            let width = self.rules.board.width();
            let change = (1u128 << from.index(width)) | (1u128 << to.index(width));
            match self.side {
                Color::White => self.white ^= change,
                Color::Black => self.black ^= change,
            }
        }
        match self.side {
            Color::White => self.white_moves = self.white_moves.saturating_add(1),
            Color::Black => self.black_moves = self.black_moves.saturating_add(1),
        }
        self.side = self.side.opposite();
    }

    /// The placement: White's and Black's squares as bit sets (bit `rank * width + file`)
    /// and the side to move; equal placements are the same position for repetition.
    pub fn placement(&self) -> (u128, u128, Color) {
        (self.white, self.black, self.side)
    }

    /// Whether the piece that started this move on `start` may jump from `a` to `b`: straight
    /// over one adjacent piece onto the free square right behind it (seed 000: "Шашка
    /// перепрыгивает через соседнюю шашку — свою или соперника — по прямой на свободную клетку
    /// сразу за ней"). The start square is empty while the piece is under way.
    pub(crate) fn is_single_jump(&self, start: Square, a: Square, b: Square) -> bool {
        let width = self.rules.board.width();
        if ![start, a, b].iter().all(|sq| sq.on_board(width)) {
            return false;
        }
        let g = self.geometry();
        let others = (self.white | self.black) & !(1u128 << start.index(width));
        let free = g.board & !others;
        let a_bit = 1u128 << a.index(width);
        let b_bit = 1u128 << b.index(width);
        (0..self.rules.directions.count())
            .any(|d| g.shift(g.shift(a_bit, d) & others, d) & free & b_bit != 0)
    }

    pub(crate) fn own(&self, side: Color) -> u128 {
        match side {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    fn geometry(&self) -> &'static Geometry {
        self.rules.board.geometry()
    }

    /// Adjacent free squares ([`UgolkiRules::step_targets`]).
    #[inline]
    fn step_targets(&self, from_bit: u128, occupied: u128) -> u128 {
        self.rules.step_targets(from_bit, occupied)
    }

    /// Every square a jump chain can stop on ([`UgolkiRules::jump_targets`]).
    #[inline]
    fn jump_targets(&self, from_bit: u128, occupied: u128) -> u128 {
        self.rules.jump_targets(from_bit, occupied)
    }

    /// One shortest chain from `from` to `to` (breadth-first with parents, directions in
    /// table order, so the route is deterministic).
    fn jump_route(&self, from: Square, to: Square, path: &mut Path) {
        let width = self.rules.board.width();
        let g = self.geometry();
        let directions = self.rules.directions.count();
        let from_index = from.index(width);
        let to_index = to.index(width);
        let others = (self.white | self.black) & !(1u128 << from_index);
        let free = g.board & !others;
        const NONE: u8 = u8::MAX;
        let mut parent = [NONE; 128];
        let mut queue = [0u8; 128];
        let (mut head, mut tail) = (0usize, 0usize);
        let mut reached = 1u128 << from_index;
        if let Some(slot) = queue.get_mut(tail) {
            *slot = from_index as u8;
            tail += 1;
        }
        while head < tail {
            let Some(&node) = queue.get(head) else { break };
            head += 1;
            if u32::from(node) == to_index {
                break;
            }
            for d in 0..directions {
                let landing = g.shift(g.shift(1u128 << node, d) & others, d) & free & !reached;
                if landing == 0 {
                    continue;
                }
                reached |= landing;
                let index = landing.trailing_zeros() as usize;
                if let (Some(p), Some(q)) = (parent.get_mut(index), queue.get_mut(tail)) {
                    *p = node;
                    *q = index as u8;
                    tail += 1;
                }
            }
        }
        // Walk back from the destination, then reverse into `path`.
        let mut route = [0u8; 128];
        let mut len = 0usize;
        let mut node = to_index as u8;
        while let Some(slot) = route.get_mut(len) {
            *slot = node;
            len += 1;
            if u32::from(node) == from_index {
                break;
            }
            match parent.get(usize::from(node)) {
                Some(&p) if p != NONE => node = p,
                _ => return,
            }
        }
        for &index in route.get(..len).unwrap_or(&[]).iter().rev() {
            path.push(Square::from_index(u32::from(index), width));
        }
    }
}
