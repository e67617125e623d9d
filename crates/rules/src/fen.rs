//! FEN for draughts positions, PDN 3.0 style: `W:W31-50:B1-20`.
//!
//! - The first field is the side to move (`W` or `B`); then one field per side: its colour
//!   letter and a comma-separated list of squares, `K` before a king's square, `a-b` for a
//!   range of numbered squares. Squares are numbers where the rule set numbers them, and
//!   algebraic (`c3`) always.
//! - Extension for Lasca columns: a square may be followed by `/` and the pieces under the
//!   top, from just under it downwards: `w` white soldier, `W` white officer, `b`, `B` black.
//!   `Wa1/bw` is a white soldier on a black soldier on a white soldier.
//! - Extension for counters, as further fields: `R` plus side letter, the square of that
//!   side's king that made the last non-capturing moves and their number (Frisian art. 17:
//!   `RW28=2`); `H` plies since the last capture or man move; `E` plies since the current
//!   endgame material class began (FMJD art. 6 and kin); `N` the move number (from 1).
//!   Absent counters are 0 (`N` is 1).

use crate::Color;
use crate::geometry::{Numbering, Square, SquareError};
use crate::position::{KingRun, MAX_UNDER, Piece, Position};
use crate::variant::Variant;
use std::fmt::Write;

/// The game counters a FEN may carry besides the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Counters {
    /// Plies since the last capture or man move.
    pub quiet: u32,
    /// Plies since the current endgame material class began.
    pub endgame: u32,
    /// Move number, from 1.
    pub move_number: u32,
}

/// Why a FEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing given.
    #[error("empty FEN: expected something like W:W31-50:B1-20")]
    Empty,
    /// The side to move is not W or B.
    #[error("FEN must start with the side to move, W or B, then ':'; found {0:?}")]
    BadTurn(String),
    /// A field that is neither a piece list nor a known counter.
    #[error(
        "unknown FEN field {0:?}: expected W or B followed by squares, or a counter field RW/RB, H, E, N"
    )]
    BadField(String),
    /// A square could not be read.
    #[error("in FEN field {field:?}: {source}")]
    Square {
        /// The field.
        field: String,
        /// What was wrong.
        source: SquareError,
    },
    /// A range in an algebraic rule set or a range running backwards.
    #[error("bad range {0:?}: ranges are written low-high with square numbers, e.g. 31-50")]
    BadRange(String),
    /// Two pieces on one square.
    #[error("square {0} is given twice")]
    Duplicate(String),
    /// A man on its own promotion row.
    #[error("a {color} man on {square} stands on its last row: write it as a king (K{square})")]
    ManOnLastRow {
        /// Owner.
        color: &'static str,
        /// Square.
        square: String,
    },
    /// A column suffix outside Lasca, or a bad piece letter in it.
    #[error("bad column {0:?}: only Lasca has columns, written like a1/bw with letters w W b B")]
    BadColumn(String),
    /// A Lasca column with more pieces under its top than the game has.
    #[error(
        "column {token:?} has {under} pieces under its top: a Lasca column holds at most {MAX_UNDER} \
         under the top piece (all 22 pieces of the game in one column)"
    )]
    ColumnTooTall {
        /// The piece as written.
        token: String,
        /// How many pieces it puts under the top.
        under: usize,
    },
    /// A counter that is not a number.
    #[error("bad counter {0:?}: expected a letter and a whole number, e.g. H12 or N30, or RW28=2")]
    BadCounter(String),
    /// A side given twice.
    #[error("the {0} pieces are given twice")]
    SideTwice(&'static str),
}

/// Reads a position and its counters.
pub fn parse(variant: Variant, text: &str) -> Result<(Position, Counters), FenError> {
    let t = text.trim().trim_end_matches('.').trim();
    if t.is_empty() {
        return Err(FenError::Empty);
    }
    let t = t.trim_matches('"');
    let mut fields = t.split(':');
    let turn = match fields.next().map(str::trim) {
        Some("W") | Some("w") => Color::White,
        Some("B") | Some("b") => Color::Black,
        other => return Err(FenError::BadTurn(other.unwrap_or("").to_string())),
    };
    let r = variant.rules();
    let g = &r.geometry;
    let mut pos = Position::empty(variant, turn);
    let mut counters = Counters { move_number: 1, ..Counters::default() };
    let mut seen_side = [false, false];
    let mut taken: u128 = 0;
    for field in fields {
        let f = field.trim();
        if f.is_empty() {
            continue;
        }
        // Split off the first character (not byte: the field may start with any letter).
        let Some(first) = f.chars().next() else { continue };
        let (head, rest) = f.split_at(first.len_utf8());
        match head {
            "W" | "B" => {
                let color = if head == "W" { Color::White } else { Color::Black };
                if seen_side[color as usize] {
                    return Err(FenError::SideTwice(color.name()));
                }
                seen_side[color as usize] = true;
                for token in rest.split(',') {
                    let token = token.trim();
                    if token.is_empty() {
                        continue;
                    }
                    read_token(&mut pos, &mut taken, color, token, f)?;
                }
            }
            "R" => {
                let color = match rest.get(..1) {
                    Some("W") | Some("w") => Color::White,
                    Some("B") | Some("b") => Color::Black,
                    _ => return Err(FenError::BadCounter(f.to_string())),
                };
                let (sq, n) =
                    rest[1..].split_once('=').ok_or_else(|| FenError::BadCounter(f.to_string()))?;
                let sq = g
                    .parse_square(sq)
                    .map_err(|source| FenError::Square { field: f.to_string(), source })?;
                let count: u8 =
                    n.trim().parse().map_err(|_| FenError::BadCounter(f.to_string()))?;
                pos.set_run(color, KingRun { square: sq.0, count: count.min(3) });
            }
            "H" | "E" | "N" => {
                let n: u32 =
                    rest.trim().parse().map_err(|_| FenError::BadCounter(f.to_string()))?;
                match head {
                    "H" => counters.quiet = n,
                    "E" => counters.endgame = n,
                    _ => counters.move_number = n.max(1),
                }
            }
            _ => return Err(FenError::BadField(f.to_string())),
        }
    }
    for color in [Color::White, Color::Black] {
        let men = pos.pieces(color) & !pos.kings();
        if let Some(sq) = crate::bits::iter(men & r.promotion_row(color)).next() {
            return Err(FenError::ManOnLastRow { color: color.name(), square: g.name(Square(sq)) });
        }
    }
    Ok((pos, counters))
}

fn read_token(
    pos: &mut Position,
    taken: &mut u128,
    color: Color,
    token: &str,
    field: &str,
) -> Result<(), FenError> {
    let g = &pos.rules().geometry;
    // Only a capital K marks a king: a lowercase k is file k on the 12x12 board.
    let (king, body) = match token.strip_prefix('K') {
        Some(b) => (true, b),
        None => (false, token),
    };
    let (body, column) = match body.split_once('/') {
        Some((b, c)) => (b, Some(c)),
        None => (body, None),
    };
    let sq_err = |source| FenError::Square { field: field.to_string(), source };
    let squares: Vec<Square> = if let Some((a, b)) = body.split_once('-') {
        if g.numbering == Numbering::Algebraic {
            return Err(FenError::BadRange(token.to_string()));
        }
        let lo: u32 = a.trim().parse().map_err(|_| FenError::BadRange(token.to_string()))?;
        let hi: u32 = b.trim().parse().map_err(|_| FenError::BadRange(token.to_string()))?;
        if lo > hi || column.is_some() {
            return Err(FenError::BadRange(token.to_string()));
        }
        let mut v = Vec::new();
        for n in lo..=hi {
            v.push(g.parse_square(&n.to_string()).map_err(sq_err)?);
        }
        v
    } else {
        vec![g.parse_square(body).map_err(sq_err)?]
    };
    for sq in squares {
        if *taken & sq.bit() != 0 {
            return Err(FenError::Duplicate(g.name(sq)));
        }
        *taken |= sq.bit();
        pos.put(sq, Some(Piece { color, king }));
        if let Some(c) = column {
            if pos.columns.is_none() {
                return Err(FenError::BadColumn(token.to_string()));
            }
            if c.len() > MAX_UNDER {
                return Err(FenError::ColumnTooTall { token: token.to_string(), under: c.len() });
            }
            let mut under = Vec::new();
            for ch in c.chars() {
                under.push(match ch {
                    'w' => Piece { color: Color::White, king: false },
                    'W' => Piece { color: Color::White, king: true },
                    'b' => Piece { color: Color::Black, king: false },
                    'B' => Piece { color: Color::Black, king: true },
                    _ => return Err(FenError::BadColumn(token.to_string())),
                });
            }
            pos.set_under(sq, &under);
        }
    }
    Ok(())
}

/// Writes a position (and counters where they are not the defaults).
pub fn write(pos: &Position, counters: Option<&Counters>) -> String {
    let g = &pos.rules().geometry;
    let mut out = String::new();
    out.push(if pos.turn() == Color::White { 'W' } else { 'B' });
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(if color == Color::White { 'W' } else { 'B' });
        let mut squares: Vec<Square> = crate::bits::iter(pos.pieces(color)).map(Square).collect();
        squares.sort_by_key(|&sq| match g.numbering {
            Numbering::Algebraic => {
                let (r, c) = g.row_col(sq);
                (r as u16) * 16 + c as u16
            }
            _ => g.number(sq) as u16,
        });
        for (i, sq) in squares.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if pos.kings() & sq.bit() != 0 {
                out.push('K');
            }
            out.push_str(&g.name(*sq));
            let under = pos.under(*sq);
            if !under.is_empty() {
                out.push('/');
                for p in under {
                    out.push(match (p.color, p.king) {
                        (Color::White, false) => 'w',
                        (Color::White, true) => 'W',
                        (Color::Black, false) => 'b',
                        (Color::Black, true) => 'B',
                    });
                }
            }
        }
    }
    for color in [Color::White, Color::Black] {
        let run = pos.king_run(color);
        if run.count > 0 && run.square != crate::geometry::NO_BIT {
            let side = if color == Color::White { 'W' } else { 'B' };
            let _ = write!(out, ":R{side}{}={}", g.name(Square(run.square)), run.count);
        }
    }
    if let Some(c) = counters {
        if c.quiet > 0 {
            let _ = write!(out, ":H{}", c.quiet);
        }
        if c.endgame > 0 {
            let _ = write!(out, ":E{}", c.endgame);
        }
        if c.move_number > 1 {
            let _ = write!(out, ":N{}", c.move_number);
        }
    }
    out
}

impl Position {
    /// Reads a position from FEN (counters are read and dropped; see [`parse`]).
    pub fn from_fen(variant: Variant, text: &str) -> Result<Position, FenError> {
        parse(variant, text).map(|(p, _)| p)
    }

    /// The position as FEN.
    pub fn to_fen(&self) -> String {
        write(self, None)
    }
}
