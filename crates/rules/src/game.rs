//! A game record: moves played from a start position, undo, and every end and draw rule of
//! the rule book (docs/rules/README.md, "Order of judging", and each rule set's page) with
//! its reason.

use crate::Color;
use crate::fen::{self, Counters, FenError};
use crate::moves::Move;
use crate::notation::{self, MoveError};
use crate::position::Position;
use crate::variant::{DrawRule, Removal, Variant};
use std::fmt;

/// Plies after which any game is drawn, so no game runs forever (300 moves each).
pub const MOVE_CAP_PLIES: u32 = 600;

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Winner {
    /// White won.
    White,
    /// Black won.
    Black,
    /// Drawn.
    Draw,
}

impl From<Color> for Winner {
    fn from(side: Color) -> Winner {
        Winner::side(side)
    }
}

impl Winner {
    /// The winner when `color` wins.
    pub fn side(color: Color) -> Winner {
        match color {
            Color::White => Winner::White,
            Color::Black => Winner::Black,
        }
    }

    /// `"white"`, `"black"` or `"draw"`.
    pub fn name(self) -> &'static str {
        match self {
            Winner::White => "white",
            Winner::Black => "black",
            Winner::Draw => "draw",
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move has no pieces.
    NoPieces,
    /// The side to move has no legal move.
    NoMoves,
    /// The same position arose for the third time with the same side to move.
    Repetition,
    /// `moves` moves each without a capture or a man move.
    QuietMoves {
        /// Moves each.
        moves: u16,
    },
    /// FMJD art. 6: the endgame against a lone king was not won in time.
    LoneKingEndgame {
        /// Moves each that were allowed.
        moves: u16,
    },
    /// Russian: three or more kings did not beat a lone king within 15 moves.
    ThreeKingsVsKing,
    /// A lone king against a lone piece (Turkish, Thai, Frisian).
    LonePieces,
    /// Frisian: two kings did not beat a king within 7 moves.
    TwoKingsVsKing,
    /// Lasca: an officer column against an officer column.
    OfficerColumns,
    /// The hard cap on the game's length.
    MoveCap,
    /// A side resigned.
    Resignation,
    /// Both sides agreed to a draw.
    Agreement,
    /// A side ran out of time or left the game.
    Abandoned,
}

impl Reason {
    /// A stable id for the reason (API, database).
    pub fn id(self) -> &'static str {
        match self {
            Reason::NoPieces => "no-pieces",
            Reason::NoMoves => "no-moves",
            Reason::Repetition => "repetition",
            Reason::QuietMoves { .. } => "quiet-moves",
            Reason::LoneKingEndgame { .. } => "lone-king-endgame",
            Reason::ThreeKingsVsKing => "three-kings-vs-king",
            Reason::LonePieces => "lone-pieces",
            Reason::TwoKingsVsKing => "two-kings-vs-king",
            Reason::OfficerColumns => "officer-columns",
            Reason::MoveCap => "move-cap",
            Reason::Resignation => "resignation",
            Reason::Agreement => "agreement",
            Reason::Abandoned => "abandoned",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NoPieces => f.write_str("no pieces left"),
            Reason::NoMoves => f.write_str("no legal move"),
            Reason::Repetition => f.write_str("third repetition of the position"),
            Reason::QuietMoves { moves } => {
                write!(f, "{moves} moves each without a capture or a man move")
            }
            Reason::LoneKingEndgame { moves } => {
                write!(f, "the lone king held out for {moves} moves each")
            }
            Reason::ThreeKingsVsKing => {
                f.write_str("three kings did not beat a lone king within 15 moves")
            }
            Reason::LonePieces => f.write_str("a lone king against a lone piece"),
            Reason::TwoKingsVsKing => f.write_str("two kings did not beat a king within 7 moves"),
            Reason::OfficerColumns => f.write_str("an officer column against an officer column"),
            Reason::MoveCap => {
                write!(f, "the game reached the limit of {} moves each", MOVE_CAP_PLIES / 2)
            }
            Reason::Resignation => f.write_str("resignation"),
            Reason::Agreement => f.write_str("draw agreed"),
            Reason::Abandoned => f.write_str("the opponent left the game"),
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Who won.
    pub winner: Winner,
    /// Why.
    pub reason: Reason,
}

/// Why a move could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game is over.
    #[error("the game is over ({0})")]
    GameOver(String),
    /// The move was not accepted.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A move that is not among the legal moves.
    #[error("that move is not legal in this position")]
    NotLegal,
}

/// The position after each ply with its counters.
#[derive(Clone, Debug)]
struct State {
    pos: Position,
    counters: Counters,
}

/// A game of one draughts rule set.
#[derive(Clone, Debug)]
pub struct Game {
    states: Vec<State>,
    moves: Vec<Move>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game from the rule set's start position.
    pub fn new(variant: Variant) -> Game {
        Game::from_position(
            Position::start(variant),
            Counters { move_number: 1, ..Counters::default() },
        )
    }

    /// A game from a FEN (with optional counters, see [`crate::fen`]).
    pub fn from_fen(variant: Variant, text: &str) -> Result<Game, FenError> {
        let (pos, counters) = fen::parse(variant, text)?;
        Ok(Game::from_position(pos, counters))
    }

    /// A game from a position.
    pub fn from_position(pos: Position, counters: Counters) -> Game {
        let mut g =
            Game { states: vec![State { pos, counters }], moves: Vec::new(), outcome: None };
        g.outcome = g.judge();
        g
    }

    /// The rule set.
    pub fn variant(&self) -> Variant {
        self.start().variant()
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.states[0].pos
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.current().pos
    }

    fn current(&self) -> &State {
        // The record always holds the start state.
        &self.states[self.states.len() - 1]
    }

    /// The counters before ply `i` (0 = start).
    pub fn counters_at(&self, i: usize) -> Counters {
        self.states.get(i).map(|s| s.counters).unwrap_or_default()
    }

    /// The counters of the current position.
    pub fn counters(&self) -> Counters {
        self.current().counters
    }

    /// The current position as FEN with its counters.
    pub fn fen(&self) -> String {
        fen::write(self.position(), Some(&self.current().counters))
    }

    /// The start position as FEN with its counters.
    pub fn start_fen(&self) -> String {
        fen::write(self.start(), Some(&self.states[0].counters))
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position before ply `i` (0 = start).
    pub fn position_at(&self, i: usize) -> Option<&Position> {
        self.states.get(i).map(|s| &s.pos)
    }

    /// How the game ended, if it did.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The legal moves now (none once the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() { Vec::new() } else { self.position().legal_moves() }
    }

    /// Plays a move given as text in the rule set's notation (or algebraically).
    pub fn play_text(&mut self, text: &str) -> Result<Move, PlayError> {
        self.check_open()?;
        let mv = notation::parse_move(self.position(), text)?;
        self.push(mv);
        Ok(mv)
    }

    /// Plays a move; it must be one of the legal moves (any route of it).
    pub fn play(&mut self, mv: &Move) -> Result<(), PlayError> {
        self.check_open()?;
        let legal = self.position().legal_moves();
        let Some(m) = legal.iter().find(|m| self.position().same_move(m, mv)) else {
            return Err(PlayError::NotLegal);
        };
        let m = *m;
        self.push(m);
        Ok(())
    }

    fn check_open(&self) -> Result<(), PlayError> {
        match self.outcome {
            Some(o) => Err(PlayError::GameOver(o.reason.to_string())),
            None => Ok(()),
        }
    }

    fn push(&mut self, mv: Move) {
        let prev = self.current();
        let pos = prev.pos.play(&mv);
        let counters = advance(&prev.counters, &prev.pos, &mv, &pos);
        self.states.push(State { pos, counters });
        self.moves.push(mv);
        self.outcome = self.judge();
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.states.pop();
        self.outcome = self.judge();
        Some(mv)
    }

    /// Ends the game by resignation of `color`.
    pub fn resign(&mut self, color: Color) {
        if self.outcome.is_none() {
            self.outcome = Some(Outcome {
                winner: Winner::side(color.opposite()),
                reason: Reason::Resignation,
            });
        }
    }

    /// Ends the game by an agreed draw.
    pub fn agree_draw(&mut self) {
        if self.outcome.is_none() {
            self.outcome = Some(Outcome { winner: Winner::Draw, reason: Reason::Agreement });
        }
    }

    /// Ends the game in favour of `color` because the opponent left.
    pub fn abandon(&mut self, winner: Color) {
        if self.outcome.is_none() {
            self.outcome =
                Some(Outcome { winner: Winner::side(winner), reason: Reason::Abandoned });
        }
    }

    /// Number of times the current position occurred (same side to move).
    pub fn repetitions(&self) -> usize {
        let now = &self.current().pos;
        self.states.iter().filter(|s| s.pos == *now).count()
    }

    /// Applies the end and draw rules to the current position.
    fn judge(&self) -> Option<Outcome> {
        let State { pos, counters } = self.current();
        judge(pos, counters, self.repetitions(), self.moves.len() as u32)
    }
}

/// How many plies back `pos`, reached with `counters`, can have stood before: not before the
/// last move that cannot be undone, which the quiet counter ([`advance`]) marks where men only
/// step forward and a capture takes pieces off the board. `None` where those moves can be
/// undone too (men stepping sideways in Turkish and Armenian, a Lasca capture moving pieces
/// between columns): a repetition may lie anywhere back.
pub fn repetition_window(pos: &Position, counters: &Counters) -> Option<u32> {
    let r = pos.rules();
    let men_step_back = r.man_steps.reversed().0 & r.man_steps.0 != 0;
    (!men_step_back && r.removal != Removal::Column).then_some(counters.quiet)
}

/// The counters after `mv` took `before` to `after`.
pub fn advance(c: &Counters, before: &Position, mv: &Move, after: &Position) -> Counters {
    let man_moved = before.kings() & mv.from.bit() == 0;
    let mut c = *c;
    c.quiet = if mv.is_capture() || man_moved { 0 } else { c.quiet + 1 };
    let class = endgame_class(after);
    c.endgame = if class != 0 && class == endgame_class(before) { c.endgame + 1 } else { 0 };
    if before.turn() != before.rules().first {
        c.move_number += 1;
    }
    c
}

/// Every end and draw rule of the rule set for `pos` with its counters, the number of times
/// it has occurred (repetition) and the plies played (the hard cap). The engine's search and
/// the game record both judge through this.
pub fn judge(
    pos: &Position,
    counters: &Counters,
    repetitions: usize,
    plies: u32,
) -> Option<Outcome> {
    let us = pos.turn();
    if pos.pieces(us) == 0 {
        return Some(stuck(pos, Reason::NoPieces));
    }
    if pos.count_moves() == 0 {
        return Some(stuck(pos, Reason::NoMoves));
    }
    judge_draws(pos, counters, repetitions, plies)
}

/// The outcome when the side to move has no pieces or no move: it loses (wins in Poddavki).
pub fn stuck(pos: &Position, reason: Reason) -> Outcome {
    let us = pos.turn();
    let winner = if pos.rules().giveaway { Winner::side(us) } else { Winner::side(us.opposite()) };
    Outcome { winner, reason }
}

/// The draw rules alone (for a side that has a move): what a search checks at every node,
/// having the move list already.
pub fn judge_draws(
    pos: &Position,
    counters: &Counters,
    repetitions: usize,
    plies: u32,
) -> Option<Outcome> {
    {
        let r = pos.rules();
        let us = pos.turn();
        let draw = |reason| Some(Outcome { winner: Winner::Draw, reason });
        if repetitions >= 3 {
            return draw(Reason::Repetition);
        }
        let (wm, wk) = pos.material(Color::White);
        let (bm, bk) = pos.material(Color::Black);
        for rule in r.draws {
            match *rule {
                DrawRule::Quiet { moves } => {
                    if counters.quiet >= 2 * moves as u32 {
                        return draw(Reason::QuietMoves { moves });
                    }
                }
                DrawRule::FmjdEndgame => {
                    let limit = match endgame_class(pos) {
                        1 => 16,
                        2 => 5,
                        _ => continue,
                    };
                    if counters.endgame >= 2 * limit {
                        return draw(Reason::LoneKingEndgame { moves: limit as u16 });
                    }
                }
                DrawRule::ThreeKingsVsKing => {
                    if endgame_class(pos) == 3 {
                        // Count the stronger side's moves: the last ply was the opponent's of
                        // the side to move.
                        let strong_to_move =
                            if wk >= 3 { us == Color::White } else { us == Color::Black };
                        let strong_moves = if strong_to_move {
                            counters.endgame / 2
                        } else {
                            counters.endgame.div_ceil(2)
                        };
                        if strong_moves >= 15 {
                            return draw(Reason::ThreeKingsVsKing);
                        }
                    }
                }
                DrawRule::LoneKingVsOne => {
                    let lone_king = |m, k| m == 0 && k == 1;
                    let lone = |m, k| m + k == 1;
                    if (lone_king(wm, wk) && lone(bm, bk)) || (lone_king(bm, bk) && lone(wm, wk)) {
                        return draw(Reason::LonePieces);
                    }
                }
                DrawRule::LoneKingVsKing => {
                    if wm == 0 && bm == 0 && wk == 1 && bk == 1 {
                        return draw(Reason::LonePieces);
                    }
                }
                DrawRule::Frisian => {
                    if wm == 0 && bm == 0 && wk == 1 && bk == 1 && !pos.has_capture() {
                        return draw(Reason::LonePieces);
                    }
                    if endgame_class(pos) == 4 && counters.endgame >= 14 {
                        return draw(Reason::TwoKingsVsKing);
                    }
                }
                DrawRule::OfficerVsOfficer => {
                    if wm == 0 && bm == 0 && wk == 1 && bk == 1 {
                        return draw(Reason::OfficerColumns);
                    }
                }
            }
        }
        if plies >= MOVE_CAP_PLIES {
            return draw(Reason::MoveCap);
        }
        None
    }
}

/// The endgame material class whose length a draw rule limits (0: none). 1: three pieces with
/// a king against a lone king (FMJD); 2: two or fewer pieces against a lone king (FMJD);
/// 3: three or more kings against a lone king (Russian); 4: two kings against a king (Frisian).
fn endgame_class(pos: &Position) -> u8 {
    let r = pos.rules();
    let (wm, wk) = pos.material(Color::White);
    let (bm, bk) = pos.material(Color::Black);
    let lone_king = |m: u32, k: u32| m == 0 && k == 1;
    let (strong_m, strong_k) = if lone_king(bm, bk) {
        (wm, wk)
    } else if lone_king(wm, wk) {
        (bm, bk)
    } else {
        return 0;
    };
    for rule in r.draws {
        match rule {
            DrawRule::FmjdEndgame => {
                let n = strong_m + strong_k;
                if n == 3 && strong_k >= 1 {
                    return 1;
                }
                if n <= 2 {
                    return 2;
                }
            }
            DrawRule::ThreeKingsVsKing if strong_k >= 3 => return 3,
            DrawRule::Frisian if strong_m == 0 && strong_k == 2 => return 4,
            _ => {}
        }
    }
    0
}
