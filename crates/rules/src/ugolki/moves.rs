//! Moves, their animation paths, and move text (`c3-c4`, `c3-e5`, `c3-c5-e5`, `pass`).

use std::fmt;

use super::position::UgolkiPosition;
use super::square::Square;
use crate::Color;

/// One turn of one side. Distinct moves are distinct (from, to) pairs: the route of a jump
/// chain does not change the position (docs/rules/ugolki.md, "Moves").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UgolkiMove {
    /// One step to an adjacent free square.
    Step {
        /// Start square.
        from: Square,
        /// Destination.
        to: Square,
    },
    /// A chain of one or more jumps.
    Jump {
        /// Start square.
        from: Square,
        /// Where the chain stops.
        to: Square,
    },
    /// The side has no legal move and passes; it still counts as that side's move.
    Pass,
}

impl UgolkiMove {
    /// Start square; `None` for a pass.
    pub fn from(self) -> Option<Square> {
        match self {
            UgolkiMove::Step { from, .. } | UgolkiMove::Jump { from, .. } => Some(from),
            UgolkiMove::Pass => None,
        }
    }

    /// Destination; `None` for a pass.
    pub fn to(self) -> Option<Square> {
        match self {
            UgolkiMove::Step { to, .. } | UgolkiMove::Jump { to, .. } => Some(to),
            UgolkiMove::Pass => None,
        }
    }
}

impl fmt::Display for UgolkiMove {
    /// `c3-c4` for a step, `c3-e5` for a jump chain (from-to is unambiguous), `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.from(), self.to()) {
            (Some(from), Some(to)) => write!(f, "{from}-{to}"),
            _ => f.write_str("pass"),
        }
    }
}

/// Most squares a shortest path can hold: start and landings of a chain all lie on one
/// parity class of squares (a jump moves 2 files and/or 2 ranks), at most 5x5 = 25 on 10x10.
pub const MAX_PATH: usize = 25;

/// The squares a move passes through, for animation: start, then every landing. One shortest
/// path per destination; empty for a pass. Fixed capacity, so no allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Path {
    squares: [Square; MAX_PATH],
    len: u8,
}

impl Path {
    pub(crate) fn new() -> Path {
        Path { squares: [Square::A1; MAX_PATH], len: 0 }
    }

    /// Appends a square; false (and nothing changes) when full, which a shortest path never is.
    pub(crate) fn push(&mut self, square: Square) -> bool {
        match self.squares.get_mut(usize::from(self.len)) {
            Some(slot) => {
                *slot = square;
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// Start square, then every landing square.
    pub fn squares(&self) -> &[Square] {
        self.squares.get(..usize::from(self.len)).unwrap_or(&[])
    }
}

impl fmt::Display for Path {
    /// `c3-c5-e5`, a text [`UgolkiPosition::parse_move`] accepts; `pass` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.len == 0 {
            return f.write_str("pass");
        }
        for (i, sq) in self.squares().iter().enumerate() {
            if i > 0 {
                f.write_str("-")?;
            }
            write!(f, "{sq}")?;
        }
        Ok(())
    }
}

/// Why a move is not legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// A square is not on this board.
    OffBoard {
        /// The square.
        square: Square,
        /// The board's width.
        width: u8,
    },
    /// The start square holds no piece of the side to move.
    NotYourPiece {
        /// The start square.
        square: Square,
        /// The side to move.
        side: Color,
    },
    /// A step that is not onto an adjacent free square in an allowed direction.
    NotAStep {
        /// Start.
        from: Square,
        /// Destination.
        to: Square,
    },
    /// No step and no chain of jumps leads there.
    Unreachable {
        /// Start.
        from: Square,
        /// Destination.
        to: Square,
    },
    /// One hop of a written path is not a jump over one adjacent piece onto the free square
    /// right behind it.
    NotAJump {
        /// Where the hop starts.
        from: Square,
        /// Where it lands.
        to: Square,
    },
    /// A written path comes back to a square it already visited.
    Revisit {
        /// The square.
        square: Square,
    },
    /// A pass while the side has a legal move.
    PassNotAllowed,
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalReason::OffBoard { square, width } => {
                write!(f, "{square} is off the {width}x{width} board")
            }
            IllegalReason::NotYourPiece { square, side } => {
                write!(f, "there is no {} piece on {square}", side_name(*side))
            }
            IllegalReason::NotAStep { from, to } => write!(
                f,
                "{from}-{to} is not a step: a step goes to an adjacent free square in an \
                 allowed direction"
            ),
            IllegalReason::Unreachable { from, to } => {
                write!(f, "neither a step nor a chain of jumps leads from {from} to {to}")
            }
            IllegalReason::NotAJump { from, to } => write!(
                f,
                "{from}-{to} is not a jump: a jump goes straight over one adjacent piece onto \
                 the free square right behind it, and steps and jumps never mix"
            ),
            IllegalReason::Revisit { square } => {
                write!(f, "the chain comes back to {square}, which it already visited")
            }
            IllegalReason::PassNotAllowed => {
                write!(f, "a side may pass only when it has no legal move")
            }
        }
    }
}

pub(crate) fn side_name(side: Color) -> &'static str {
    match side {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A well-formed move that the position does not allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move as written (or as [`UgolkiMove`]'s Display writes it).
    pub text: String,
    /// Why it is illegal.
    pub reason: IllegalReason,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}: {}", self.text, self.reason)
    }
}

impl std::error::Error for IllegalMove {}

const MOVE_FORMAT: &str = "expected from-to like c3-c4, a jump path like c3-c5-e5, or pass";

/// A move text that could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextError {
    /// Nothing was given.
    Empty,
    /// A part between dashes is not a square.
    BadSquare {
        /// The whole text.
        text: String,
        /// The offending part.
        part: String,
    },
    /// Only one square.
    TooShort {
        /// The whole text.
        text: String,
    },
    /// Well-formed but not legal here.
    Illegal(IllegalMove),
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveTextError::Empty => write!(f, "empty move: {MOVE_FORMAT}"),
            MoveTextError::BadSquare { text, part } => {
                write!(f, "bad move `{text}`: `{part}` is not a square a1-j10; {MOVE_FORMAT}")
            }
            MoveTextError::TooShort { text } => {
                write!(f, "bad move `{text}`: a move names at least two squares; {MOVE_FORMAT}")
            }
            MoveTextError::Illegal(err) => err.fmt(f),
        }
    }
}

impl std::error::Error for MoveTextError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MoveTextError::Illegal(err) => Some(err),
            _ => None,
        }
    }
}

impl UgolkiPosition {
    /// Reads a move: `c3-c4` or `c3-e5` (start and destination; any jump route), a full jump
    /// path `c3-c5-e5` whose every hop must be a legal jump in order, or `pass`. Case and
    /// spaces around squares are ignored.
    pub fn parse_move(&self, text: &str) -> Result<UgolkiMove, MoveTextError> {
        let trimmed = text.trim().to_ascii_lowercase();
        if trimmed.is_empty() {
            return Err(MoveTextError::Empty);
        }
        let illegal =
            |reason| MoveTextError::Illegal(IllegalMove { text: trimmed.clone(), reason });
        if trimmed == "pass" {
            return self.check(UgolkiMove::Pass).map(|()| UgolkiMove::Pass).map_err(illegal);
        }
        let squares = trimmed
            .split('-')
            .map(|part| {
                part.trim().parse::<Square>().map_err(|_| MoveTextError::BadSquare {
                    text: trimmed.clone(),
                    part: part.trim().to_string(),
                })
            })
            .collect::<Result<Vec<Square>, MoveTextError>>()?;
        let (Some(&from), Some(&to)) = (squares.first(), squares.last()) else {
            return Err(MoveTextError::Empty);
        };
        if squares.len() < 2 {
            return Err(MoveTextError::TooShort { text: trimmed.clone() });
        }
        let width = self.rules().board.width();
        if let Some(&square) = squares.iter().find(|sq| !sq.on_board(width)) {
            return Err(illegal(IllegalReason::OffBoard { square, width }));
        }
        if self.piece_at(from) != Some(self.side_to_move()) {
            return Err(illegal(IllegalReason::NotYourPiece {
                square: from,
                side: self.side_to_move(),
            }));
        }
        if squares.len() == 2 {
            return self
                .moves_from(from)
                .into_iter()
                .find(|mv| mv.to() == Some(to))
                .ok_or(illegal(IllegalReason::Unreachable { from, to }));
        }
        // A written chain: every hop a single jump, never back to a visited square (seed 000:
        // "Нельзя возвращаться на клетку, где шашка уже побывала в этом ходу").
        for (i, hop) in squares.windows(2).enumerate() {
            let [a, b] = hop else { continue };
            if squares.get(..=i).is_some_and(|visited| visited.contains(b)) {
                return Err(illegal(IllegalReason::Revisit { square: *b }));
            }
            if !self.is_single_jump(from, *a, *b) {
                return Err(illegal(IllegalReason::NotAJump { from: *a, to: *b }));
            }
        }
        Ok(UgolkiMove::Jump { from, to })
    }
}
