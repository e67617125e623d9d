//! FEN-like position text: `W:Wa1,b1,c1:Bf6,g6,h6:N12` (format in the module docs of
//! [`crate::ugolki`]).

use std::fmt;

use super::moves::side_name;
use super::position::UgolkiPosition;
use super::rules::UgolkiRules;
use super::square::Square;
use crate::Color;

impl UgolkiPosition {
    /// Reads a position text for the given rules (which fix the board size and the number of
    /// pieces). Never panics; every problem is a [`FenError`].
    pub fn from_fen(rules: UgolkiRules, text: &str) -> Result<UgolkiPosition, FenError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(FenError::Empty);
        }
        let mut parts = text.split(':').map(str::trim);
        let side = match parts.next().unwrap_or_default() {
            "W" | "w" => Color::White,
            "B" | "b" => Color::Black,
            other => return Err(FenError::BadSide { found: other.to_string() }),
        };
        let width = rules.board.width();
        let max = rules.pieces_per_side();
        let mut lists: [Option<u128>; 2] = [None, None];
        let mut fullmove: Option<u16> = None;
        let mut all = 0u128;
        for part in parts {
            let mut chars = part.chars();
            let tag = chars.next().map(|c| c.to_ascii_uppercase());
            let body = chars.as_str();
            let color = match tag {
                Some('W') => Color::White,
                Some('B') => Color::Black,
                Some('N') => {
                    if fullmove.is_some() {
                        return Err(FenError::RepeatedPart { tag: 'N' });
                    }
                    let number = body.trim();
                    fullmove = Some(
                        number
                            .parse::<u16>()
                            .ok()
                            .filter(|&n| n >= 1 && number.bytes().all(|b| b.is_ascii_digit()))
                            .ok_or_else(|| FenError::BadMoveNumber { found: number.to_string() })?,
                    );
                    continue;
                }
                _ => return Err(FenError::UnknownPart { part: part.to_string() }),
            };
            let slot = usize::from(color == Color::Black);
            if lists.get(slot).is_some_and(Option::is_some) {
                return Err(FenError::RepeatedPart { tag: if slot == 0 { 'W' } else { 'B' } });
            }
            let mut own = 0u128;
            let mut count = 0usize;
            if !body.trim().is_empty() {
                for item in body.split(',').map(str::trim) {
                    let square: Square = item
                        .parse()
                        .map_err(|_| FenError::BadSquare { found: item.to_string() })?;
                    if !square.on_board(width) {
                        return Err(FenError::OffBoard { square, width });
                    }
                    let bit = 1u128 << square.index(width);
                    if all & bit != 0 {
                        return Err(FenError::Duplicate { square });
                    }
                    all |= bit;
                    own |= bit;
                    count += 1;
                }
            }
            if count > max {
                return Err(FenError::TooManyPieces { side: color, count, max });
            }
            if count == 0 {
                return Err(FenError::NoPieces { side: color });
            }
            if let Some(entry) = lists.get_mut(slot) {
                *entry = Some(own);
            }
        }
        let [Some(white), Some(black)] = lists else {
            let side = if lists[0].is_none() { Color::White } else { Color::Black };
            return Err(FenError::MissingPieces { side });
        };
        Ok(UgolkiPosition::from_parts(rules, white, black, side, fullmove.unwrap_or(1)))
    }

    /// The position text: side to move, White's squares, Black's squares (each `a1` first,
    /// rank by rank), and the current move number.
    pub fn to_fen(&self) -> String {
        let list = |side: Color| {
            self.pieces(side).iter().map(Square::to_string).collect::<Vec<_>>().join(",")
        };
        let side = match self.side_to_move() {
            Color::White => 'W',
            Color::Black => 'B',
        };
        format!(
            "{side}:W{}:B{}:N{}",
            list(Color::White),
            list(Color::Black),
            self.fullmove_number()
        )
    }
}

/// A position text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing was given.
    Empty,
    /// The first part is not `W` or `B`.
    BadSide {
        /// What was found.
        found: String,
    },
    /// A part that does not start with `W`, `B` or `N`.
    UnknownPart {
        /// The part.
        part: String,
    },
    /// A part given twice.
    RepeatedPart {
        /// Its tag: `W`, `B` or `N`.
        tag: char,
    },
    /// A side's piece list is missing.
    MissingPieces {
        /// The side.
        side: Color,
    },
    /// Not a square `a1`..`j10`.
    BadSquare {
        /// The text.
        found: String,
    },
    /// A square beyond this board.
    OffBoard {
        /// The square.
        square: Square,
        /// The board's width.
        width: u8,
    },
    /// A square listed twice (for one side or both).
    Duplicate {
        /// The square.
        square: Square,
    },
    /// More pieces than the rules give a side.
    TooManyPieces {
        /// The side.
        side: Color,
        /// How many were listed.
        count: usize,
        /// How many the rules allow.
        max: usize,
    },
    /// A side without pieces.
    NoPieces {
        /// The side.
        side: Color,
    },
    /// The move number is not a whole number from 1 to 65535.
    BadMoveNumber {
        /// The text.
        found: String,
    },
}

const FEN_FORMAT: &str = "expected side:Wsquares:Bsquares[:Nmove], like W:Wa1,b1:Bh8:N1";

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty position text: {FEN_FORMAT}"),
            FenError::BadSide { found } => {
                write!(f, "bad side to move `{found}`: expected W or B first; {FEN_FORMAT}")
            }
            FenError::UnknownPart { part } => write!(
                f,
                "unknown part `{part}`: parts start with W (White's squares), B (Black's) or N \
                 (move number); {FEN_FORMAT}"
            ),
            FenError::RepeatedPart { tag } => write!(f, "the {tag} part is given twice"),
            FenError::MissingPieces { side } => {
                write!(f, "{}'s pieces are missing; {FEN_FORMAT}", side_name(*side))
            }
            FenError::BadSquare { found } => {
                write!(f, "`{found}` is not a square: expected a1-j10, separated by commas")
            }
            FenError::OffBoard { square, width } => {
                write!(f, "{square} is off the {width}x{width} board")
            }
            FenError::Duplicate { square } => write!(f, "{square} is listed twice"),
            FenError::TooManyPieces { side, count, max } => write!(
                f,
                "{} has {count} pieces, but these rules give each side at most {max}",
                side_name(*side)
            ),
            FenError::NoPieces { side } => {
                write!(f, "{} has no pieces: each side needs at least one", side_name(*side))
            }
            FenError::BadMoveNumber { found } => {
                write!(f, "bad move number `{found}`: expected N followed by 1 to 65535")
            }
        }
    }
}

impl std::error::Error for FenError {}
