//! Pure game logic of doska: the 14 draughts rule sets of the rule book (`docs/rules/`) and
//! Ugolki.
//!
//! No I/O, no async, no unsafe. A rule set is data ([`Rules`]), a [`Position`] generates its
//! legal [`Move`]s, and a [`Game`] records a game with every end and draw rule.
//!
//! ```
//! use doska_rules::{Position, Variant, perft};
//! let start = Position::start(Variant::Russian);
//! assert_eq!(start.legal_moves().len(), 7);
//! assert_eq!(perft(&start, 3), 302);
//! ```

pub mod any_game;
pub mod bits;
pub mod fen;
pub mod fuzz;
pub mod game;
pub mod geometry;
mod movegen;
pub mod moves;
pub mod notation;
pub mod pdn;
pub mod perft;
pub mod position;
pub mod ruleset;
pub mod ugolki;
pub mod variant;

pub use any_game::{AnyError, AnyGame, MoveView, OutcomeView, PieceView};
pub use fen::FenError;
pub use game::{Game, Outcome, PlayError, Reason, Winner};
pub use geometry::{Geometry, Square};
pub use moves::Move;
pub use notation::MoveError;
pub use perft::{perft, perft_divide};
pub use position::{Piece, Position};
pub use ruleset::{RuleSet, RuleSetError};
pub use variant::{Rules, Variant};

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White (moves up the board).
    White,
    /// Black.
    Black,
}

impl Color {
    /// The other side.
    pub fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `"white"` or `"black"`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}
