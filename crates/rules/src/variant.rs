//! The 14 draughts rule sets as data: one [`Rules`] value per [`Variant`], each field citing
//! the rule of `docs/rules/<id>.md` (or the federation article) it encodes.

use crate::Color;
use crate::bits::Bits;
use crate::geometry::{Direction, Directions, Geometry, Numbering, Squares};
use std::fmt;
use std::str::FromStr;

/// A draughts rule set, by its stable id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// American checkers / English draughts (8x8, short kings, free capture).
    American,
    /// International draughts (10x10, FMJD).
    International,
    /// Brazilian: international rules on 8x8.
    Brazilian,
    /// Canadian: international rules on 12x12.
    Canadian,
    /// Italian draughts (mirrored 8x8, short kings, men never capture kings).
    Italian,
    /// Spanish draughts (mirrored 8x8, flying kings, most pieces then most kings).
    Spanish,
    /// Russian draughts (8x8, flying kings, free capture, promotion continues the capture).
    Russian,
    /// Czech draughts (8x8, flying kings, a king must capture if it can).
    Czech,
    /// Turkish draughts (all 64 squares, orthogonal moves).
    Turkish,
    /// Armenian draughts (Tama: all 64 squares, diagonal-forward moves, orthogonal captures).
    Armenian,
    /// Thai draughts (Mak-hos: 8 men each, the king lands right behind its capture).
    Thai,
    /// Poddavki: Russian rules, the goal inverted (giveaway).
    Poddavki,
    /// Frisian draughts (10x10, orthogonal captures too, value-based majority).
    Frisian,
    /// Lasca (7x7, columns).
    Lasca,
}

impl Variant {
    /// All rule sets in the order of the rule book's index (docs/rules/README.md).
    pub const ALL: [Variant; 14] = [
        Variant::American,
        Variant::International,
        Variant::Brazilian,
        Variant::Canadian,
        Variant::Italian,
        Variant::Spanish,
        Variant::Russian,
        Variant::Czech,
        Variant::Turkish,
        Variant::Armenian,
        Variant::Thai,
        Variant::Poddavki,
        Variant::Frisian,
        Variant::Lasca,
    ];

    /// The stable id used by the CLI, the API, URLs and the database.
    pub const fn id(self) -> &'static str {
        match self {
            Variant::American => "american",
            Variant::International => "international",
            Variant::Brazilian => "brazilian",
            Variant::Canadian => "canadian",
            Variant::Italian => "italian",
            Variant::Spanish => "spanish",
            Variant::Russian => "russian",
            Variant::Czech => "czech",
            Variant::Turkish => "turkish",
            Variant::Armenian => "armenian",
            Variant::Thai => "thai",
            Variant::Poddavki => "poddavki",
            Variant::Frisian => "frisian",
            Variant::Lasca => "lasca",
        }
    }

    /// The rule set's data.
    pub fn rules(self) -> &'static Rules {
        &RULES[self as usize]
    }
}

/// The rules of the variant with index `V`, as a constant: move generation is compiled once
/// per rule set, so every rule reads as a constant there (see `movegen::dispatch!`).
pub(crate) struct Fixed<const V: usize>;

impl<const V: usize> Fixed<V> {
    /// The rule set's data.
    pub(crate) const RULES: &'static Rules = &RULES[V];
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// An unknown rule set id.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule set {0:?}: expected one of {ids}", ids = ids())]
pub struct UnknownVariant(pub String);

fn ids() -> String {
    Variant::ALL.iter().map(|v| v.id()).collect::<Vec<_>>().join(", ")
}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        Variant::ALL.into_iter().find(|v| v.id() == t).ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

/// How a king moves and captures along a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// One square (American, Italian, Lasca).
    Short,
    /// Any distance, landing anywhere free behind the captured piece.
    Flying,
    /// Any distance, but a capture lands right behind the captured piece (Thai).
    FlyingLandBehind,
}

/// Which capture a player must choose when several are possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureChoice {
    /// Any capture (American, Russian, Thai, Poddavki, Lasca).
    Free,
    /// The most pieces, a king counting as one (FMJD art. 4.13; Turkish, Armenian).
    MostPieces,
    /// Most pieces, then with a king, then most kings, then the king met earliest (Italian).
    Italian,
    /// Most pieces, then most kings (Spanish).
    Spanish,
    /// A king must capture if it can, otherwise free (Czech).
    KingFirst,
    /// Highest value (100 a man, 199 a king), then with a king (Frisian art. 11-12).
    FrisianValue,
}

/// When captured pieces leave the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removal {
    /// After the whole move; until then they block (Turkish strike).
    AfterMove,
    /// As each is jumped (Turkish, Armenian, Thai).
    Immediate,
    /// Lasca: the top piece of the jumped column goes under the capturing column at once; the
    /// rest of the column stays and may not be jumped again.
    Column,
}

/// What happens when a man reaches the last row during a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promotion {
    /// The move ends there and the man is crowned.
    EndsMove,
    /// The man is crowned at once and goes on capturing as a king.
    Continues,
    /// The man goes on capturing as a man; it is crowned only if the move ends on the last row.
    OnlyAtEnd,
}

/// A draw rule beyond third repetition and the hard cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawRule {
    /// `moves` moves each with no capture and no man move.
    Quiet {
        /// Moves each (the rule counts 2 x moves plies).
        moves: u16,
    },
    /// FMJD art. 6: three pieces with a king against a lone king, 16 moves each; two or
    /// fewer pieces against a lone king, 5 moves each.
    FmjdEndgame,
    /// Russian: three or more kings against a lone king not won within 15 moves of the
    /// stronger side.
    ThreeKingsVsKing,
    /// A lone king against a lone king or a lone man is drawn at once (Turkish).
    LoneKingVsOne,
    /// A lone king against a lone king is drawn at once (Thai).
    LoneKingVsKing,
    /// Frisian art. 18 and 21: two kings against a king, 7 moves each; a king against a king
    /// is drawn unless the side to move must capture.
    Frisian,
    /// Lasca: an officer column against an officer column.
    OfficerVsOfficer,
}

/// The whole rule set as data.
#[derive(Debug)]
pub struct Rules {
    /// Which rule set.
    pub variant: Variant,
    /// The board.
    pub geometry: Geometry,
    /// Who moves first.
    pub first: Color,
    /// White's men at the start (Black's are the point reflection).
    pub start_rows: StartRows,
    /// Directions a man moves in (seen from White).
    pub man_steps: Directions,
    /// Directions a man captures in (seen from White).
    pub man_captures: Directions,
    /// Directions a king moves in.
    pub king_steps: Directions,
    /// Directions a king captures in.
    pub king_captures: Directions,
    /// How far a king moves.
    pub king_move: Reach,
    /// How far a king captures.
    pub king_capture: Reach,
    /// Which capture must be chosen.
    pub choice: CaptureChoice,
    /// When captured pieces leave.
    pub removal: Removal,
    /// Promotion during a capture.
    pub promotion: Promotion,
    /// A capturing piece may not turn 180 degrees between two jumps (Turkish, Armenian).
    pub no_reversal: bool,
    /// Whether a man may capture a king (not in Italian).
    pub man_takes_king: bool,
    /// Frisian art. 17: the same king makes at most three non-capturing moves in a row while
    /// its side has men.
    pub king_move_limit: bool,
    /// The side left without pieces or moves wins (Poddavki).
    pub giveaway: bool,
    /// Extra draw rules.
    pub draws: &'static [DrawRule],
    /// PDN `[GameType]` number, where one exists.
    pub game_type: Option<u8>,
    /// The capture mark in move text.
    pub capture_mark: char,
}

/// The rows White's men fill at the start, counted from White's side.
#[derive(Clone, Copy, Debug)]
pub struct StartRows {
    /// First row (0-based).
    pub from: u8,
    /// Number of rows.
    pub count: u8,
}

impl Rules {
    /// The squares of `color`'s men at the start.
    pub fn start_men(&self, color: Color) -> Bits {
        let g = &self.geometry;
        let mut m = 0;
        for r in self.start_rows.from..self.start_rows.from + self.start_rows.count {
            let row = match color {
                Color::White => r,
                Color::Black => g.height - 1 - r,
            };
            m |= g.row_mask(row);
        }
        m
    }

    /// The promotion row of `color` (the far row).
    pub fn promotion_row(&self, color: Color) -> Bits {
        match color {
            Color::White => self.geometry.row_mask(self.geometry.height - 1),
            Color::Black => self.geometry.row_mask(0),
        }
    }

    /// Whether king captures are flying (any distance).
    pub fn flying(&self) -> bool {
        self.king_capture != Reach::Short
    }
}

const DARK: Squares = Squares::Dark { parity: 0 };
const MIRRORED: Squares = Squares::Dark { parity: 1 };
const ALGEBRAIC: Numbering = Numbering::Algebraic;

const fn geometry(side: u8, squares: Squares, numbering: Numbering) -> Geometry {
    Geometry::new(side, side, squares, numbering)
}

const FWD_DIAG: Directions = Directions::FORWARD_DIAGONAL;
const DIAG: Directions = Directions::DIAGONAL;
const ORTHO: Directions = Directions::ORTHOGONAL;
const FWD_SIDE: Directions = Directions::of(&[Direction::N, Direction::E, Direction::W]);

/// The international family (FMJD): brazilian and canadian differ only in the board.
const fn international_like(variant: Variant, geometry: Geometry, rows: u8, gt: u8) -> Rules {
    Rules {
        variant,
        geometry,
        first: Color::White,
        start_rows: StartRows { from: 0, count: rows },
        man_steps: FWD_DIAG,
        man_captures: DIAG,
        king_steps: DIAG,
        king_captures: DIAG,
        king_move: Reach::Flying,
        king_capture: Reach::Flying,
        choice: CaptureChoice::MostPieces,
        removal: Removal::AfterMove,
        promotion: Promotion::OnlyAtEnd,
        no_reversal: false,
        man_takes_king: true,
        king_move_limit: false,
        giveaway: false,
        draws: &[DrawRule::Quiet { moves: 25 }, DrawRule::FmjdEndgame],
        game_type: Some(gt),
        capture_mark: 'x',
    }
}

/// Russian draughts (seed 002); poddavki shares every move rule.
const fn russian_like(variant: Variant, giveaway: bool, draws: &'static [DrawRule]) -> Rules {
    Rules {
        variant,
        geometry: geometry(8, DARK, ALGEBRAIC),
        first: Color::White,
        start_rows: StartRows { from: 0, count: 3 },
        man_steps: FWD_DIAG,
        man_captures: DIAG,
        king_steps: DIAG,
        king_captures: DIAG,
        king_move: Reach::Flying,
        king_capture: Reach::Flying,
        choice: CaptureChoice::Free,
        removal: Removal::AfterMove,
        promotion: Promotion::Continues,
        no_reversal: false,
        man_takes_king: true,
        king_move_limit: false,
        giveaway,
        draws,
        game_type: if giveaway { None } else { Some(25) },
        capture_mark: ':',
    }
}

static RULES: [Rules; 14] = [
    // American: WCDF rules; docs/rules/american.md.
    Rules {
        variant: Variant::American,
        geometry: geometry(8, DARK, Numbering::TopLeft),
        first: Color::Black,
        start_rows: StartRows { from: 0, count: 3 },
        man_steps: FWD_DIAG,
        man_captures: FWD_DIAG,
        king_steps: DIAG,
        king_captures: DIAG,
        king_move: Reach::Short,
        king_capture: Reach::Short,
        choice: CaptureChoice::Free,
        removal: Removal::AfterMove,
        promotion: Promotion::EndsMove,
        no_reversal: false,
        man_takes_king: true,
        king_move_limit: false,
        giveaway: false,
        draws: &[DrawRule::Quiet { moves: 40 }],
        game_type: Some(21),
        capture_mark: 'x',
    },
    international_like(Variant::International, geometry(10, DARK, Numbering::TopLeft), 4, 20),
    international_like(Variant::Brazilian, geometry(8, DARK, ALGEBRAIC), 3, 26),
    international_like(Variant::Canadian, geometry(12, DARK, Numbering::TopLeft), 5, 27),
    // Italian: FID rules; men move and capture forward only and never capture a king.
    Rules {
        variant: Variant::Italian,
        geometry: geometry(8, MIRRORED, Numbering::TopLeft),
        first: Color::White,
        start_rows: StartRows { from: 0, count: 3 },
        man_steps: FWD_DIAG,
        man_captures: FWD_DIAG,
        king_steps: DIAG,
        king_captures: DIAG,
        king_move: Reach::Short,
        king_capture: Reach::Short,
        choice: CaptureChoice::Italian,
        removal: Removal::AfterMove,
        promotion: Promotion::EndsMove,
        no_reversal: false,
        man_takes_king: false,
        king_move_limit: false,
        giveaway: false,
        draws: &[DrawRule::Quiet { moves: 40 }],
        game_type: Some(22),
        capture_mark: 'x',
    },
    // Spanish: mirrored board, flying kings, most pieces then most kings.
    Rules {
        variant: Variant::Spanish,
        geometry: geometry(8, MIRRORED, Numbering::BottomRight),
        first: Color::White,
        start_rows: StartRows { from: 0, count: 3 },
        man_steps: FWD_DIAG,
        man_captures: FWD_DIAG,
        king_steps: DIAG,
        king_captures: DIAG,
        king_move: Reach::Flying,
        king_capture: Reach::Flying,
        choice: CaptureChoice::Spanish,
        removal: Removal::AfterMove,
        promotion: Promotion::EndsMove,
        no_reversal: false,
        man_takes_king: true,
        king_move_limit: false,
        giveaway: false,
        draws: &[DrawRule::Quiet { moves: 20 }],
        game_type: Some(24),
        capture_mark: 'x',
    },
    // Russian: seed 002 (15 king moves each; three kings against one, seed 004).
    russian_like(
        Variant::Russian,
        false,
        &[DrawRule::Quiet { moves: 15 }, DrawRule::ThreeKingsVsKing],
    ),
    // Czech: men forward only, flying kings, a king must capture if it can.
    Rules {
        variant: Variant::Czech,
        geometry: geometry(8, DARK, ALGEBRAIC),
        first: Color::White,
        start_rows: StartRows { from: 0, count: 3 },
        man_steps: FWD_DIAG,
        man_captures: FWD_DIAG,
        king_steps: DIAG,
        king_captures: DIAG,
        king_move: Reach::Flying,
        king_capture: Reach::Flying,
        choice: CaptureChoice::KingFirst,
        removal: Removal::AfterMove,
        promotion: Promotion::OnlyAtEnd,
        no_reversal: false,
        man_takes_king: true,
        king_move_limit: false,
        giveaway: false,
        draws: &[DrawRule::Quiet { moves: 15 }],
        game_type: Some(29),
        capture_mark: 'x',
    },
    // Turkish: seed 004; men forward or sideways, orthogonal flying kings, immediate removal.
    Rules {
        variant: Variant::Turkish,
        geometry: geometry(8, Squares::All, ALGEBRAIC),
        first: Color::White,
        start_rows: StartRows { from: 1, count: 2 },
        man_steps: FWD_SIDE,
        man_captures: FWD_SIDE,
        king_steps: ORTHO,
        king_captures: ORTHO,
        king_move: Reach::Flying,
        king_capture: Reach::Flying,
        choice: CaptureChoice::MostPieces,
        removal: Removal::Immediate,
        promotion: Promotion::Continues,
        no_reversal: true,
        man_takes_king: true,
        king_move_limit: false,
        giveaway: false,
        draws: &[DrawRule::LoneKingVsOne],
        game_type: Some(30),
        capture_mark: 'x',
    },
    // Armenian (Tama): men also step diagonally forward; kings move like a queen and capture
    // orthogonally.
    Rules {
        variant: Variant::Armenian,
        geometry: geometry(8, Squares::All, ALGEBRAIC),
        first: Color::White,
        start_rows: StartRows { from: 1, count: 2 },
        man_steps: FWD_SIDE.with(FWD_DIAG),
        man_captures: FWD_SIDE,
        king_steps: Directions::ALL,
        king_captures: ORTHO,
        king_move: Reach::Flying,
        king_capture: Reach::Flying,
        choice: CaptureChoice::MostPieces,
        removal: Removal::Immediate,
        promotion: Promotion::Continues,
        no_reversal: true,
        man_takes_king: true,
        king_move_limit: false,
        giveaway: false,
        draws: &[],
        game_type: None,
        capture_mark: 'x',
    },
    // Thai (Mak-hos): 8 men on two rows, Black first, kings land right behind the capture.
    Rules {
        variant: Variant::Thai,
        geometry: geometry(8, DARK, ALGEBRAIC),
        first: Color::Black,
        start_rows: StartRows { from: 0, count: 2 },
        man_steps: FWD_DIAG,
        man_captures: FWD_DIAG,
        king_steps: DIAG,
        king_captures: DIAG,
        king_move: Reach::Flying,
        king_capture: Reach::FlyingLandBehind,
        choice: CaptureChoice::Free,
        removal: Removal::Immediate,
        promotion: Promotion::EndsMove,
        no_reversal: false,
        man_takes_king: true,
        king_move_limit: false,
        giveaway: false,
        draws: &[DrawRule::LoneKingVsKing],
        game_type: Some(31),
        capture_mark: 'x',
    },
    russian_like(Variant::Poddavki, true, &[DrawRule::Quiet { moves: 15 }]),
    // Frisian: official rules 2011.
    Rules {
        variant: Variant::Frisian,
        geometry: geometry(10, DARK, Numbering::TopLeft),
        first: Color::White,
        start_rows: StartRows { from: 0, count: 4 },
        man_steps: FWD_DIAG,
        man_captures: Directions::ALL,
        king_steps: DIAG,
        king_captures: Directions::ALL,
        king_move: Reach::Flying,
        king_capture: Reach::Flying,
        choice: CaptureChoice::FrisianValue,
        removal: Removal::AfterMove,
        promotion: Promotion::OnlyAtEnd,
        no_reversal: false,
        man_takes_king: true,
        king_move_limit: true,
        giveaway: false,
        draws: &[DrawRule::Frisian],
        game_type: Some(40),
        capture_mark: 'x',
    },
    // Lasca: Emanuel Lasker's rules; 7x7 with a1 played on, 11 soldiers each.
    Rules {
        variant: Variant::Lasca,
        geometry: geometry(7, DARK, ALGEBRAIC),
        first: Color::White,
        start_rows: StartRows { from: 0, count: 3 },
        man_steps: FWD_DIAG,
        man_captures: FWD_DIAG,
        king_steps: DIAG,
        king_captures: DIAG,
        king_move: Reach::Short,
        king_capture: Reach::Short,
        choice: CaptureChoice::Free,
        removal: Removal::Column,
        promotion: Promotion::EndsMove,
        no_reversal: false,
        man_takes_king: true,
        king_move_limit: false,
        giveaway: false,
        draws: &[DrawRule::OfficerVsOfficer],
        game_type: None,
        capture_mark: 'x',
    },
];
