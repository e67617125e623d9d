//! The four levels of seed 004, each an exact recipe.
//!
//! | level  | thinks                      | evaluation terms                                  | choice |
//! |--------|-----------------------------|---------------------------------------------------|--------|
//! | Easy   | 2 plies (a move or two)     | material only                                     | random among moves within 0.6 of a man of the best |
//! | Medium | 0.25 s, at most 64 plies    | material, advancement                             | best; in the opening book, any book move within 0.2 of a man of the best |
//! | Hard   | 1 s                         | + back rank, centre, trades when ahead            | best; in the opening book, any book move within 0.1 of a man of the best |
//! | Insane | 3 s                         | + runaway men, free kings, or the learned evaluation where the build has weights (International: with its network); endgame databases where installed; Ugolki: the learned piece tables (`ugolki` and `ugolki-brainking` presets) and the exact race once the armies have passed each other | best |
//!
//! The opening book ([`crate::book`]; russian, american and international) answers at once
//! for Medium and Hard in the positions it holds, with the scores of searches deeper than
//! their own, so that their games differ from the first move. Insane searches there too:
//! playing the book's best move instead scored 51.9% against its own search at 60 ms a move
//! over 600 games, inside the margin (bench/engines/RESULTS.md).
//!
//! Pending captures are always resolved before a position is evaluated (quiescence), and the
//! rule set's own end and draw rules are applied inside the search, at every level.

use crate::eval::Terms;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A level of the computer opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Looks a move or two ahead and picks at random among reasonable moves.
    Easy,
    /// Thinks about a quarter of a second; rarely gives a piece away.
    Medium,
    /// Thinks longer; values the back rank, the centre and trades when ahead.
    Hard,
    /// Thinks longest and also values free kings and runaway men; in Ugolki it solves the
    /// race exactly once the armies have passed each other.
    Insane,
}

/// How a level plays.
#[derive(Clone, Copy, Debug)]
pub struct Recipe {
    /// Time per move at full strength.
    pub movetime: Option<Duration>,
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Evaluation terms.
    pub terms: Terms,
    /// Root moves within this many hundredths of a man of the best may be chosen at random.
    pub random_margin: Option<i32>,
    /// In a position of the opening book (where the terms have `book` on), a book move within
    /// this many hundredths of a man of the best is played, picked at random; none: the level
    /// searches there too.
    pub book_margin: Option<i32>,
}

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Insane];

    /// The stable id.
    pub fn id(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Insane => "insane",
        }
    }

    /// The level's recipe.
    pub fn recipe(self) -> Recipe {
        let ms = |n| Some(Duration::from_millis(n));
        match self {
            Level::Easy => Recipe {
                movetime: None,
                depth: Some(2),
                terms: Terms::MATERIAL,
                random_margin: Some(60),
                book_margin: None,
            },
            Level::Medium => Recipe {
                movetime: ms(250),
                depth: Some(64),
                terms: Terms { advancement: true, book: true, ..Terms::MATERIAL },
                random_margin: None,
                book_margin: Some(20),
            },
            Level::Hard => Recipe {
                movetime: ms(1000),
                depth: None,
                terms: Terms {
                    advancement: true,
                    back_rank: true,
                    centre: true,
                    trades: true,
                    book: true,
                    ..Terms::MATERIAL
                },
                random_margin: None,
                book_margin: Some(10),
            },
            Level::Insane => Recipe {
                movetime: ms(3000),
                depth: None,
                terms: Terms::ALL,
                random_margin: None,
                book_margin: None,
            },
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// An unknown level name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLevel(pub String);

impl fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown level {:?}: expected easy, medium, hard or insane", self.0)
    }
}

impl std::error::Error for UnknownLevel {}

impl FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        Level::ALL.into_iter().find(|l| l.id() == t).ok_or_else(|| UnknownLevel(s.to_string()))
    }
}
