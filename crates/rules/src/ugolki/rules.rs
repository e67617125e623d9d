//! Rule sets as data: the parameters of docs/rules/ugolki.md ("Parameters and custom rule
//! sets"), the three named presets, and the canonical rules text (grammar in the module docs
//! of [`crate::ugolki`]).

use std::fmt;
use std::str::FromStr;

use super::geometry::{GEOMETRY_8, GEOMETRY_10, Geometry};
use super::square::Square;
use crate::Color;

/// Every game is drawn after this many moves of each side without a winner (seed 000: "если
/// за 150 ходов (у каждого) никто не занял угол").
pub const MOVE_LIMIT: u16 = 150;

/// Board size; every square is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardSize {
    /// 8x8 (`ugolki`, `ugolki-brainking`).
    Eight,
    /// 10x10 (`ugolki-brainking-10`).
    Ten,
}

impl BoardSize {
    /// Squares per side: 8 or 10.
    pub fn width(self) -> u8 {
        match self {
            BoardSize::Eight => 8,
            BoardSize::Ten => 10,
        }
    }

    pub(crate) fn geometry(self) -> &'static Geometry {
        match self {
            BoardSize::Eight => &GEOMETRY_8,
            BoardSize::Ten => &GEOMETRY_10,
        }
    }
}

/// White's home (starting squares); Black's is its point reflection through the centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HomeShape {
    /// a1-c3, 9 pieces (`ugolki`, `ugolki-brainking`).
    Square3,
    /// a1-d3, 12 pieces (seed 003: "3х4").
    Rect3x4,
    /// a1-d1 + a2-c2 + a3-b3 + a4, 10 pieces (seed 003: "углом").
    Staircase,
    /// a1-d4, 16 pieces (`ugolki-brainking-10`).
    Square4,
}

impl HomeShape {
    /// Whether White's home holds the square on `file` and `rank` (0-based from `a1`).
    pub fn contains(self, file: u8, rank: u8) -> bool {
        match self {
            HomeShape::Square3 => file < 3 && rank < 3,
            HomeShape::Rect3x4 => file < 4 && rank < 3,
            HomeShape::Staircase => file + rank <= 3,
            HomeShape::Square4 => file < 4 && rank < 4,
        }
    }

    /// Number of squares, which is also each side's number of pieces.
    pub fn size(self) -> usize {
        match self {
            HomeShape::Square3 => 9,
            HomeShape::Rect3x4 => 12,
            HomeShape::Staircase => 10,
            HomeShape::Square4 => 16,
        }
    }
}

/// The directions of steps and jumps (both always use the same set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Directions {
    /// Up, down, left, right (seed 000: "По диагонали ходить нельзя").
    Orthogonal,
    /// Orthogonal and diagonal (seed 001: "Перепрыгивать можно во все направления").
    All,
}

impl Directions {
    /// 4 or 8.
    pub fn count(self) -> usize {
        match self {
            Directions::Orthogonal => 4,
            Directions::All => 8,
        }
    }
}

/// When the leave-home and leave-half rules look at the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeaveCheck {
    /// Seed 000: after both sides have made N moves, and after every Black move from then on,
    /// both sides are checked; both failing at once is a draw.
    Ugolki,
    /// Seed 001: after each of a player's own moves from his (N+1)th on, only that player is
    /// checked, and he loses at once.
    BrainKing,
}

/// "No hiding at home": a side with a piece on its own starting squares too late loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeaveHome {
    /// No such rule.
    Off,
    /// After N moves with the `ugolki` check ([`LeaveCheck::Ugolki`]).
    Ugolki(u16),
    /// After N moves with BrainKing's check ([`LeaveCheck::BrainKing`]).
    BrainKing(u16),
}

impl LeaveHome {
    /// N, if the rule is on.
    pub fn moves(self) -> Option<u16> {
        match self {
            LeaveHome::Off => None,
            LeaveHome::Ugolki(n) | LeaveHome::BrainKing(n) => Some(n),
        }
    }
}

/// Seed 003's "Покинуть Половину": a side with a piece in its own half after move N loses
/// (the half is ranks 1-4 on 8x8 and 1-5 on 10x10 for White, mirrored for Black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeaveHalf {
    /// No such rule.
    Off,
    /// After N moves, checked like the leave-home rule ([`UgolkiRules::leave_check`]).
    After(u16),
}

impl LeaveHalf {
    /// N, if the rule is on.
    pub fn moves(self) -> Option<u16> {
        match self {
            LeaveHalf::Off => None,
            LeaveHalf::After(n) => Some(n),
        }
    }
}

/// One Ugolki rule set: the parameters of docs/rules/ugolki.md. Any value of this struct is safe
/// to play; [`UgolkiRules::validate`] says whether it is a rule set doska offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UgolkiRules {
    /// Board size.
    pub board: BoardSize,
    /// White's home; Black's is its point reflection.
    pub home: HomeShape,
    /// Directions of steps and jumps.
    pub directions: Directions,
    /// Leave-home rule.
    pub leave_home: LeaveHome,
    /// Leave-half rule.
    pub leave_half: LeaveHalf,
    /// Equal-moves rule: when White completes first, Black gets one more move to equalise
    /// (a draw). Off: the first to complete wins.
    pub equal_moves: bool,
}

/// The named presets, in the order used to pick the base of a custom rule set's text.
pub const PRESETS: [(&str, UgolkiRules); 3] = [
    ("ugolki", UgolkiRules::UGOLKI),
    ("ugolki-brainking", UgolkiRules::BRAINKING),
    ("ugolki-brainking-10", UgolkiRules::BRAINKING_10),
];

/// Largest N of the leave rules: from [`MOVE_LIMIT`] on the game is drawn anyway.
pub const LEAVE_MOVES_MAX: u16 = MOVE_LIMIT - 1;

impl UgolkiRules {
    /// `ugolki`: seed 000 exactly (docs/rules/ugolki.md).
    pub const UGOLKI: UgolkiRules = UgolkiRules {
        board: BoardSize::Eight,
        home: HomeShape::Square3,
        directions: Directions::Orthogonal,
        leave_home: LeaveHome::Ugolki(40),
        leave_half: LeaveHalf::Off,
        equal_moves: true,
    };

    /// `ugolki-brainking`: seed 001 on 8x8 (8 directions, the first to complete wins, a piece
    /// at home after the player's 30th move loses).
    pub const BRAINKING: UgolkiRules = UgolkiRules {
        board: BoardSize::Eight,
        home: HomeShape::Square3,
        directions: Directions::All,
        leave_home: LeaveHome::BrainKing(30),
        leave_half: LeaveHalf::Off,
        equal_moves: false,
    };

    /// `ugolki-brainking-10`: seed 001 on 10x10 with a 4x4 home, 50 moves.
    pub const BRAINKING_10: UgolkiRules = UgolkiRules {
        board: BoardSize::Ten,
        home: HomeShape::Square4,
        directions: Directions::All,
        leave_home: LeaveHome::BrainKing(50),
        leave_half: LeaveHalf::Off,
        equal_moves: false,
    };

    /// The preset with this id (`ugolki`, `ugolki-brainking`, `ugolki-brainking-10`).
    pub fn preset(id: &str) -> Option<UgolkiRules> {
        PRESETS.iter().find(|(name, _)| *name == id).map(|&(_, rules)| rules)
    }

    /// The id of the preset equal to these rules, if any.
    pub fn preset_id(&self) -> Option<&'static str> {
        PRESETS.iter().find(|(_, rules)| rules == self).map(|&(name, _)| name)
    }

    /// Parses a rules text (grammar in the [module docs](crate::ugolki)); same as `str::parse`.
    pub fn parse(text: &str) -> Result<UgolkiRules, RulesTextError> {
        text.parse()
    }

    /// How the leave-home and leave-half rules are checked: the leave-home rule's check, or
    /// `ugolki`'s when that rule is off (docs/rules/ugolki.md: the leave-half rule "is checked
    /// the same way as the leave-home rule").
    pub fn leave_check(&self) -> LeaveCheck {
        match self.leave_home {
            LeaveHome::BrainKing(_) => LeaveCheck::BrainKing,
            LeaveHome::Off | LeaveHome::Ugolki(_) => LeaveCheck::Ugolki,
        }
    }

    /// Pieces per side (the home's size).
    pub fn pieces_per_side(&self) -> usize {
        self.home.size()
    }

    /// Whether `square` is one of `side`'s starting squares under these rules.
    pub fn is_home(&self, side: Color, square: Square) -> bool {
        let w = self.board.width();
        if !square.on_board(w) {
            return false;
        }
        let (file, rank) = match side {
            Color::White => (square.file(), square.rank()),
            // Point reflection through the centre of the board.
            Color::Black => (w - 1 - square.file(), w - 1 - square.rank()),
        };
        self.home.contains(file, rank)
    }

    /// `side`'s starting squares, `a1` first, rank by rank.
    pub fn home_squares(&self, side: Color) -> Vec<Square> {
        let w = self.board.width();
        (0..w)
            .flat_map(|rank| (0..w).filter_map(move |file| Square::new(file, rank)))
            .filter(|&sq| self.is_home(side, sq))
            .collect()
    }

    /// Bitboard of `side`'s home: bit `rank * width + file`, as in
    /// [`UgolkiPosition::placement`](super::UgolkiPosition::placement).
    pub fn home_bits(&self, side: Color) -> u128 {
        self.board
            .geometry()
            .mask(|file, rank| Square::new(file, rank).is_some_and(|sq| self.is_home(side, sq)))
    }

    /// Every square of the board as a bitboard (bit `rank * width + file`).
    pub fn board_bits(&self) -> u128 {
        self.board.geometry().board
    }

    /// The free squares a step from the single square `from_bit` reaches, `occupied` being
    /// every piece on the board (seed 000: "Шашка переходит на соседнюю свободную клетку").
    #[inline]
    pub fn step_targets(&self, from_bit: u128, occupied: u128) -> u128 {
        let g = self.board.geometry();
        g.neighbours(from_bit, self.directions.count()) & g.board & !occupied
    }

    /// Every square a chain of jumps from the single square `from_bit` can stop on,
    /// `occupied` being every piece on the board, the mover included (seed 000: "После
    /// прыжка можно прыгать дальше, в любую сторону, пока есть куда"; "Остановиться можно
    /// после любого прыжка"). Breadth-first: `frontier` holds the squares first reached by the
    /// last round of jumps.
    #[inline]
    pub fn jump_targets(&self, from_bit: u128, occupied: u128) -> u128 {
        let g = self.board.geometry();
        let directions = self.directions.count();
        // The moving piece has left its start square: it is not there to be jumped over.
        let others = occupied & !from_bit;
        let free = g.board & !others;
        let mut reached = from_bit;
        let mut frontier = from_bit;
        while frontier != 0 {
            let mut next = 0;
            for d in 0..directions {
                next |= g.shift(g.shift(frontier, d) & others, d);
            }
            // Never back to a visited square, the start included.
            frontier = next & free & !reached;
            reached |= frontier;
        }
        reached & !from_bit
    }

    /// Bitboard of `side`'s own half: the ranks nearest to it.
    pub(crate) fn half_bits(&self, side: Color) -> u128 {
        let half = self.board.width() / 2;
        self.board.geometry().mask(|_, rank| match side {
            Color::White => rank < half,
            Color::Black => rank >= half,
        })
    }

    /// Checks that these parameters make a playable rule set: the homes do not overlap and
    /// the leave rules' N lie in `1..=`[`LEAVE_MOVES_MAX`].
    pub fn validate(&self) -> Result<(), RulesError> {
        // The four shapes all fit both boards today; the check stays so that a new shape or
        // board cannot silently put a square in both homes.
        if self.home_bits(Color::White) & self.home_bits(Color::Black) != 0 {
            return Err(RulesError::HomesOverlap { board: self.board, home: self.home });
        }
        if let Some(n) = self.leave_home.moves()
            && !(1..=LEAVE_MOVES_MAX).contains(&n)
        {
            return Err(RulesError::LeaveHomeMoves { moves: n });
        }
        if let Some(n) = self.leave_half.moves()
            && !(1..=LEAVE_MOVES_MAX).contains(&n)
        {
            return Err(RulesError::LeaveHalfMoves { moves: n });
        }
        Ok(())
    }

    /// The six parameters as (key, canonical value), in the canonical order.
    fn params(&self) -> [(&'static str, String); 6] {
        [
            (KEYS[0], self.board.width().to_string()),
            (KEYS[1], home_text(self.home).to_string()),
            (KEYS[2], self.directions.count().to_string()),
            (
                KEYS[3],
                match self.leave_home {
                    LeaveHome::Off => "off".to_string(),
                    LeaveHome::Ugolki(n) => format!("ugolki-{n}"),
                    LeaveHome::BrainKing(n) => format!("brainking-{n}"),
                },
            ),
            (
                KEYS[4],
                match self.leave_half {
                    LeaveHalf::Off => "off".to_string(),
                    LeaveHalf::After(n) => n.to_string(),
                },
            ),
            (KEYS[5], if self.equal_moves { "on" } else { "off" }.to_string()),
        ]
    }
}

impl Default for UgolkiRules {
    /// `ugolki`.
    fn default() -> Self {
        UgolkiRules::UGOLKI
    }
}

/// Parameter keys of the rules text, in canonical order.
const KEYS: [&str; 6] = ["board", "home", "dirs", "home-rule", "half-rule", "equal"];

fn home_text(home: HomeShape) -> &'static str {
    match home {
        HomeShape::Square3 => "3x3",
        HomeShape::Rect3x4 => "3x4",
        HomeShape::Staircase => "stair",
        HomeShape::Square4 => "4x4",
    }
}

/// What each key accepts, for error messages.
fn accepted(key: &str) -> &'static str {
    match key {
        "board" => "8 or 10",
        "home" => "3x3, 3x4, stair or 4x4",
        "dirs" => "4 or 8",
        "home-rule" => "off, ugolki-N or brainking-N (N = 1..149)",
        "half-rule" => "off or N (N = 1..149)",
        "equal" => "on or off",
        _ => "board, home, dirs, home-rule, half-rule or equal",
    }
}

impl fmt::Display for UgolkiRules {
    /// The canonical text: the preset needing the fewest changed parameters (the first in
    /// [`PRESETS`] on a tie), then only those parameters, in canonical key order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mine = self.params();
        let diff = |base: &UgolkiRules| {
            base.params().iter().zip(&mine).filter(|(b, m)| b.1 != m.1).count()
        };
        let Some((id, base)) = PRESETS.iter().min_by_key(|(_, base)| diff(base)) else {
            return Ok(());
        };
        f.write_str(id)?;
        let base = base.params();
        let mut sep = ':';
        for ((key, value), (_, base_value)) in mine.iter().zip(&base) {
            if value != base_value {
                write!(f, "{sep}{key}={value}")?;
                sep = ',';
            }
        }
        Ok(())
    }
}

impl FromStr for UgolkiRules {
    type Err = RulesTextError;

    /// Accepts the canonical text and any variant of it: parameters in any order, parameters
    /// equal to the preset's, a key repeated with the same value, spaces around tokens,
    /// upper case.
    fn from_str(text: &str) -> Result<UgolkiRules, RulesTextError> {
        let text = text.trim().to_ascii_lowercase();
        if text.is_empty() {
            return Err(RulesTextError::Empty);
        }
        let (id, params) = match text.split_once(':') {
            Some((id, params)) => (id.trim(), Some(params)),
            None => (text.as_str(), None),
        };
        let mut rules = UgolkiRules::preset(id)
            .ok_or_else(|| RulesTextError::UnknownPreset { found: id.to_string() })?;
        let mut seen: [Option<String>; 6] = Default::default();
        for param in params.into_iter().flat_map(|p| p.split(',')) {
            let param = param.trim();
            let (key, value) = param
                .split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .ok_or_else(|| RulesTextError::NotAParameter { found: param.to_string() })?;
            let slot = KEYS
                .iter()
                .position(|k| *k == key)
                .ok_or_else(|| RulesTextError::UnknownKey { key: key.to_string() })?;
            let key = KEYS[slot];
            let bad = || RulesTextError::BadValue { key, found: value.to_string() };
            match key {
                "board" => {
                    rules.board = match value {
                        "8" | "8x8" => BoardSize::Eight,
                        "10" | "10x10" => BoardSize::Ten,
                        _ => return Err(bad()),
                    }
                }
                "home" => {
                    rules.home = match value {
                        "3x3" => HomeShape::Square3,
                        "3x4" => HomeShape::Rect3x4,
                        "stair" | "staircase" => HomeShape::Staircase,
                        "4x4" => HomeShape::Square4,
                        _ => return Err(bad()),
                    }
                }
                "dirs" => {
                    rules.directions = match value {
                        "4" => Directions::Orthogonal,
                        "8" => Directions::All,
                        _ => return Err(bad()),
                    }
                }
                "home-rule" => {
                    rules.leave_home = if value == "off" {
                        LeaveHome::Off
                    } else if let Some(n) = value.strip_prefix("ugolki-") {
                        LeaveHome::Ugolki(parse_moves(n).ok_or_else(bad)?)
                    } else if let Some(n) = value.strip_prefix("brainking-") {
                        LeaveHome::BrainKing(parse_moves(n).ok_or_else(bad)?)
                    } else {
                        return Err(bad());
                    }
                }
                "half-rule" => {
                    rules.leave_half = if value == "off" {
                        LeaveHalf::Off
                    } else {
                        LeaveHalf::After(parse_moves(value).ok_or_else(bad)?)
                    }
                }
                _ => {
                    rules.equal_moves = match value {
                        "on" => true,
                        "off" => false,
                        _ => return Err(bad()),
                    }
                }
            }
            // Compare canonical values, so `board=10` and `board=10x10` agree.
            let canonical = rules.params()[slot].1.clone();
            match &seen[slot] {
                Some(first) if *first != canonical => {
                    return Err(RulesTextError::Conflict {
                        key,
                        first: first.clone(),
                        second: canonical,
                    });
                }
                _ => seen[slot] = Some(canonical),
            }
        }
        rules.validate().map_err(RulesTextError::Invalid)?;
        Ok(rules)
    }
}

/// A move count: decimal digits only; the range is checked by [`UgolkiRules::validate`].
fn parse_moves(text: &str) -> Option<u16> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A combination of parameters doska does not offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// White's and Black's homes would share squares.
    HomesOverlap {
        /// The board.
        board: BoardSize,
        /// The home shape.
        home: HomeShape,
    },
    /// The leave-home rule's N is outside `1..=149`.
    LeaveHomeMoves {
        /// The N given.
        moves: u16,
    },
    /// The leave-half rule's N is outside `1..=149`.
    LeaveHalfMoves {
        /// The N given.
        moves: u16,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::HomesOverlap { board, home } => write!(
                f,
                "a {} home does not fit the {w}x{w} board: White's and Black's homes would overlap",
                home_text(*home),
                w = board.width()
            ),
            RulesError::LeaveHomeMoves { moves } => write!(
                f,
                "the leave-home rule needs 1 to {LEAVE_MOVES_MAX} moves, not {moves} (games are \
                 drawn after {MOVE_LIMIT} moves each)"
            ),
            RulesError::LeaveHalfMoves { moves } => write!(
                f,
                "the leave-half rule needs 1 to {LEAVE_MOVES_MAX} moves, not {moves} (games are \
                 drawn after {MOVE_LIMIT} moves each)"
            ),
        }
    }
}

impl std::error::Error for RulesError {}

/// A rules text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesTextError {
    /// Nothing was given.
    Empty,
    /// The part before `:` is not a preset id.
    UnknownPreset {
        /// The id given.
        found: String,
    },
    /// A parameter without `=`.
    NotAParameter {
        /// The parameter text.
        found: String,
    },
    /// A key that does not exist.
    UnknownKey {
        /// The key given.
        key: String,
    },
    /// A value the key does not accept.
    BadValue {
        /// The key.
        key: &'static str,
        /// The value given.
        found: String,
    },
    /// The same key given twice with different values.
    Conflict {
        /// The key.
        key: &'static str,
        /// Its first value (canonical form).
        first: String,
        /// Its second value (canonical form).
        second: String,
    },
    /// Well-formed, but not a rule set doska offers.
    Invalid(RulesError),
}

impl fmt::Display for RulesTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesTextError::Empty => write!(
                f,
                "empty rules text: expected a preset id (ugolki, ugolki-brainking, \
                 ugolki-brainking-10), optionally followed by `:key=value,...`"
            ),
            RulesTextError::UnknownPreset { found } => write!(
                f,
                "unknown Ugolki preset `{found}`: expected ugolki, ugolki-brainking or \
                 ugolki-brainking-10"
            ),
            RulesTextError::NotAParameter { found } if found.is_empty() => write!(
                f,
                "empty parameter (a stray `:` or `,`?): expected key=value with a key among {}",
                accepted("")
            ),
            RulesTextError::NotAParameter { found } => write!(
                f,
                "`{found}` is not a parameter: expected key=value with a key among {}",
                accepted("")
            ),
            RulesTextError::UnknownKey { key } => {
                write!(f, "unknown parameter `{key}`: expected {}", accepted(""))
            }
            RulesTextError::BadValue { key, found } => {
                write!(f, "bad value `{found}` for {key}: expected {}", accepted(key))
            }
            RulesTextError::Conflict { key, first, second } => {
                write!(f, "{key} is given twice, as {first} and as {second}: give it once")
            }
            RulesTextError::Invalid(err) => err.fmt(f),
        }
    }
}

impl std::error::Error for RulesTextError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RulesTextError::Invalid(err) => Some(err),
            _ => None,
        }
    }
}
