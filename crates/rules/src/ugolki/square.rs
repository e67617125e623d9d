//! Squares in algebraic notation, independent of the board size.

use std::fmt;
use std::str::FromStr;

/// The largest board Ugolki is played on (10x10), so files `a`..`j` and ranks `1`..`10`.
pub(crate) const MAX_WIDTH: u8 = 10;

/// One square, `a1` being White's bottom-left corner whatever the board (docs/rules/README.md,
/// "Notation").
///
/// Stored as one byte (file in the low nibble, rank in the high nibble), so a square means the
/// same on every board; whether it lies on a given board is [`Square::on_board`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// `a1`.
    pub(crate) const A1: Square = Square(0);

    /// The square on `file` (0 = `a`) and `rank` (0 = `1`); `None` beyond the 10x10 board.
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < MAX_WIDTH && rank < MAX_WIDTH).then_some(Square(file | (rank << 4)))
    }

    /// File, 0 = `a`.
    pub fn file(self) -> u8 {
        self.0 & 0x0f
    }

    /// Rank, 0 = `1`.
    pub fn rank(self) -> u8 {
        self.0 >> 4
    }

    /// Whether the square lies on a board `width` squares wide.
    pub fn on_board(self, width: u8) -> bool {
        self.file() < width && self.rank() < width
    }

    /// Bit index on a board `width` wide (rank-major, `a1` = 0).
    pub(crate) fn index(self, width: u8) -> u32 {
        u32::from(self.rank()) * u32::from(width) + u32::from(self.file())
    }

    /// Inverse of [`Square::index`]; only called with indices of on-board bits.
    pub(crate) fn from_index(index: u32, width: u8) -> Square {
        let width = u32::from(width.max(1));
        // Both parts are < 10 for every index of a board bitboard, so the casts are lossless.
        let file = (index % width) as u8;
        let rank = (index / width) as u8;
        Square(file | (rank << 4))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file()), self.rank() + 1)
    }
}

/// A text that is not an algebraic square `a1`..`j10`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError {
    /// The text as given.
    pub text: String,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a square: expected a file a-j and a rank 1-10, like c3", self.text)
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `a1`..`j10` (case-insensitive file letter).
    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError { text: text.to_string() };
        let mut chars = text.chars();
        let file_char = chars.next().ok_or_else(err)?.to_ascii_lowercase();
        let rank_text = chars.as_str();
        if !('a'..='j').contains(&file_char)
            || rank_text.is_empty()
            || rank_text.len() > 2
            || !rank_text.bytes().all(|b| b.is_ascii_digit())
            || rank_text.starts_with('0')
        {
            return Err(err());
        }
        let rank: u8 = rank_text.parse().map_err(|_| err())?;
        // `file_char` is ASCII a..=j here, so the subtraction cannot underflow.
        let file = file_char as u8 - b'a';
        rank.checked_sub(1).and_then(|r| Square::new(file, r)).ok_or_else(err)
    }
}
