//! A game: moves, history, undo, and how a game ends (docs/rules/ugolki.md, "End of the game").

use std::fmt;

use super::fen::FenError;
use super::moves::{IllegalMove, MoveTextError, UgolkiMove};
use super::position::UgolkiPosition;
use super::rules::{LeaveCheck, MOVE_LIMIT, UgolkiRules};
use crate::Color;

pub use crate::game::Winner;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The winner has all pieces on the opponent's starting squares: first, or the opponent
    /// could not equalise under the equal-moves rule.
    AllInCorner,
    /// Equal-moves rule: Black completed with its reply to White's completing move.
    EqualMovesDraw,
    /// `side` still had a piece on its own starting squares after move `after_move`.
    LeftAtHome {
        /// The side that lost.
        side: Color,
        /// N of the leave-home rule.
        after_move: u16,
    },
    /// Both sides still had pieces at home when the `ugolki` check looked: a draw.
    BothLeftAtHome {
        /// N of the leave-home rule.
        after_move: u16,
    },
    /// `side` still had a piece in its own half after move `after_move`.
    LeftInHalf {
        /// The side that lost.
        side: Color,
        /// N of the leave-half rule.
        after_move: u16,
    },
    /// Both sides failed the leave rules at once (at least one only the leave-half rule): a
    /// draw.
    BothLeftInHalf {
        /// N of the leave-half rule.
        after_move: u16,
    },
    /// Neither side can move (both would pass).
    NoMovesBoth,
    /// The same position with the same side to move occurred for the third time.
    Repetition,
    /// [`MOVE_LIMIT`] moves each without a winner.
    MoveLimit,
    /// A side resigned.
    Resignation,
    /// Both sides agreed to a draw.
    Agreement,
    /// A side left the game.
    Abandoned,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::AllInCorner => write!(f, "all pieces in the corner"),
            EndReason::EqualMovesDraw => write!(f, "equal moves — draw"),
            EndReason::LeftAtHome { after_move, .. } => {
                write!(f, "pieces left at home after move {after_move}")
            }
            EndReason::BothLeftAtHome { after_move } => {
                write!(f, "both sides left pieces at home after move {after_move}")
            }
            EndReason::LeftInHalf { after_move, .. } => {
                write!(f, "pieces left in their own half after move {after_move}")
            }
            EndReason::BothLeftInHalf { after_move } => {
                write!(f, "both sides left pieces in their own half after move {after_move}")
            }
            EndReason::NoMovesBoth => write!(f, "neither side can move"),
            EndReason::Repetition => write!(f, "the same position for the third time"),
            EndReason::MoveLimit => write!(f, "{MOVE_LIMIT} moves each without a winner"),
            EndReason::Resignation => write!(f, "resignation"),
            EndReason::Agreement => write!(f, "draw agreed"),
            EndReason::Abandoned => write!(f, "the opponent left the game"),
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Who won.
    pub winner: Winner,
    /// Why.
    pub reason: EndReason,
}

impl Outcome {
    fn win(side: Color, reason: EndReason) -> Outcome {
        Outcome { winner: side.into(), reason }
    }

    fn draw(reason: EndReason) -> Outcome {
        Outcome { winner: Winner::Draw, reason }
    }
}

impl fmt::Display for Outcome {
    /// `White wins: all pieces in the corner`, `draw: the same position for the third time`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Winner::White => write!(f, "White wins: {}", self.reason),
            Winner::Black => write!(f, "Black wins: {}", self.reason),
            Winner::Draw => write!(f, "draw: {}", self.reason),
        }
    }
}

/// A move the game refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game is already over.
    GameOver(Outcome),
    /// The move is not legal.
    Illegal(IllegalMove),
    /// The move text could not be used.
    Text(MoveTextError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver(outcome) => write!(f, "the game is over ({outcome})"),
            PlayError::Illegal(err) => err.fmt(f),
            PlayError::Text(err) => err.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlayError::GameOver(_) => None,
            PlayError::Illegal(err) => Some(err),
            PlayError::Text(err) => Some(err),
        }
    }
}

/// A game in progress: rules, start position, moves, the position history (for repetition
/// and undo) and the outcome after every move.
#[derive(Clone, Debug)]
pub struct UgolkiGame {
    rules: UgolkiRules,
    start: UgolkiPosition,
    moves: Vec<UgolkiMove>,
    /// `history[0]` is the start, `history[i]` the position after `i` moves.
    history: Vec<UgolkiPosition>,
    /// `outcomes[i]` is the outcome after `i` moves.
    outcomes: Vec<Option<Outcome>>,
}

impl UgolkiGame {
    /// A game from the starting position.
    pub fn new(rules: UgolkiRules) -> UgolkiGame {
        UgolkiGame::from_position(UgolkiPosition::start(rules))
    }

    /// A game from any position, which is judged as if its last move had just been made (so
    /// a finished position gives a finished game).
    pub fn from_position(start: UgolkiPosition) -> UgolkiGame {
        let history = vec![start];
        let outcome = judge(&history);
        UgolkiGame {
            rules: *start.rules(),
            start,
            moves: Vec::new(),
            history,
            outcomes: vec![outcome],
        }
    }

    /// A game from a position text.
    pub fn from_fen(rules: UgolkiRules, fen: &str) -> Result<UgolkiGame, FenError> {
        UgolkiPosition::from_fen(rules, fen).map(UgolkiGame::from_position)
    }

    /// The rules.
    pub fn rules(&self) -> &UgolkiRules {
        &self.rules
    }

    /// The start position.
    pub fn start(&self) -> &UgolkiPosition {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &UgolkiPosition {
        // `history` is never empty (undo never removes the start), so this is its last entry.
        self.history.last().unwrap_or(&self.start)
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[UgolkiMove] {
        &self.moves
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcomes.last().copied().flatten()
    }

    /// The legal moves now; empty once the game is over.
    pub fn legal_moves(&self) -> Vec<UgolkiMove> {
        if self.outcome().is_some() { Vec::new() } else { self.position().legal_moves() }
    }

    /// Whether White has completed and Black is making its one equalising reply
    /// (docs/rules/ugolki.md, "End of the game", the equal-moves rule).
    pub fn awaiting_equal_reply(&self) -> bool {
        let position = self.position();
        self.outcome().is_none()
            && self.rules.equal_moves
            && position.side_to_move() == Color::Black
            && position.has_completed(Color::White)
    }

    /// Whether `side` is warned about pieces still at home ([`UgolkiPosition::warning`]);
    /// false once the game is over.
    pub fn warning(&self, side: Color) -> bool {
        self.outcome().is_none() && self.position().warning(side)
    }

    /// Plays a move; returns the outcome if the game ended with it.
    pub fn play(&mut self, mv: UgolkiMove) -> Result<Option<Outcome>, PlayError> {
        if let Some(outcome) = self.outcome() {
            return Err(PlayError::GameOver(outcome));
        }
        let next = self.position().play(mv).map_err(PlayError::Illegal)?;
        self.moves.push(mv);
        self.history.push(next);
        let outcome = judge(&self.history);
        self.outcomes.push(outcome);
        Ok(outcome)
    }

    /// Reads a move text ([`UgolkiPosition::parse_move`]) and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<UgolkiMove, PlayError> {
        if let Some(outcome) = self.outcome() {
            return Err(PlayError::GameOver(outcome));
        }
        let mv = self.position().parse_move(text).map_err(PlayError::Text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Ends the game by resignation of `side`.
    pub fn resign(&mut self, side: Color) {
        self.end(Outcome::win(side.opposite(), EndReason::Resignation));
    }

    /// Ends the game by an agreed draw.
    pub fn agree_draw(&mut self) {
        self.end(Outcome::draw(EndReason::Agreement));
    }

    /// Ends the game in favour of `winner` because the opponent left.
    pub fn abandon(&mut self, winner: Color) {
        self.end(Outcome::win(winner, EndReason::Abandoned));
    }

    fn end(&mut self, outcome: Outcome) {
        if let Some(last) = self.outcomes.last_mut()
            && last.is_none()
        {
            *last = Some(outcome);
        }
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<UgolkiMove> {
        let mv = self.moves.pop()?;
        self.history.pop();
        self.outcomes.pop();
        Some(mv)
    }
}

/// The outcome after the last position of `history`, whose last move was made by the side not
/// to move. Order: completion, leave rules, no moves, repetition, move limit.
fn judge(history: &[UgolkiPosition]) -> Option<Outcome> {
    let position = history.last()?;
    if let Some(outcome) = judge_position(position) {
        return Some(outcome);
    }
    // Seed 000: "если позиция повторилась трижды" (docs/rules/ugolki.md: with the same side to
    // move).
    let key = position.placement();
    if history.iter().filter(|p| p.placement() == key).count() >= 3 {
        return Some(Outcome::draw(EndReason::Repetition));
    }
    None
}

/// Every end rule that the position alone decides (all but repetition), for a position whose
/// last move was made by the side not to move. The engine's search uses this.
pub fn judge_position(position: &UgolkiPosition) -> Option<Outcome> {
    let mover = position.side_to_move().opposite();
    match completion(position, mover) {
        Completion::Open => {}
        Completion::Pending => return None,
        Completion::Over(outcome) => return Some(outcome),
    }
    if let Some(outcome) = leave_rules(position, mover) {
        return Some(outcome);
    }
    // Seed 000: "Ничья также, если ходить некуда обоим".
    if !position.can_move(Color::White) && !position.can_move(Color::Black) {
        return Some(Outcome::draw(EndReason::NoMovesBoth));
    }
    // Seed 000: "если за 150 ходов (у каждого) никто не занял угол".
    if position.moves_made(Color::White) >= MOVE_LIMIT
        && position.moves_made(Color::Black) >= MOVE_LIMIT
    {
        return Some(Outcome::draw(EndReason::MoveLimit));
    }
    None
}

enum Completion {
    /// Nobody has completed.
    Open,
    /// White has completed and Black may still equalise with its next move.
    Pending,
    /// Decided.
    Over(Outcome),
}

fn completion(position: &UgolkiPosition, mover: Color) -> Completion {
    let white_done = position.has_completed(Color::White);
    let black_done = position.has_completed(Color::Black);
    if !white_done && !black_done {
        return Completion::Open;
    }
    let win = |side| Completion::Over(Outcome::win(side, EndReason::AllInCorner));
    if !position.rules().equal_moves {
        // Seed 001: "Игрок сделавший это первым выигрывает." A move never completes the other
        // side, so if the side to move is done, it was done first (set-up positions only).
        let first = if position.has_completed(mover.opposite()) { mover.opposite() } else { mover };
        return win(first);
    }
    // Seed 000: "Если белые заняли угол первыми, у чёрных есть ещё один ход. Если и чёрные им
    // заполнили свой угол — ничья. Если чёрным за один ход не успеть, белые побеждают сразу."
    match mover {
        // Black done before White's move: Black was first (set-up positions only).
        Color::White if black_done => win(Color::Black),
        Color::White if black_can_complete_now(position) => Completion::Pending,
        Color::White => win(Color::White),
        Color::Black => match (white_done, black_done) {
            (true, true) => Completion::Over(Outcome::draw(EndReason::EqualMovesDraw)),
            (false, _) => win(Color::Black),
            // Black's reply did not equalise.
            (true, false) => win(Color::White),
        },
    }
}

/// Whether Black, to move, completes with one of its legal moves.
fn black_can_complete_now(position: &UgolkiPosition) -> bool {
    position.side_to_move() == Color::Black
        && position
            .legal_moves()
            .into_iter()
            .any(|mv| position.play(mv).is_ok_and(|next| next.has_completed(Color::Black)))
}

/// The leave-home and leave-half rules after `mover`'s move.
fn leave_rules(position: &UgolkiPosition, mover: Color) -> Option<Outcome> {
    let rules = position.rules();
    let (home, half) = (rules.leave_home.moves(), rules.leave_half.moves());
    match rules.leave_check() {
        LeaveCheck::Ugolki => {
            // Seed 000: "Когда оба сделали по 40 ходов (и дальше — после каждого ответа
            // чёрных), игра проверяет углы: у кого хоть одна шашка осталась в своём исходном
            // углу, тот проигрывает." and "Если такое у обоих — ничья."
            if mover != Color::Black {
                return None;
            }
            let due = |n: &u16| {
                position.moves_made(Color::White) >= *n && position.moves_made(Color::Black) >= *n
            };
            let (home, half) = (home.filter(due), half.filter(due));
            match (
                failure(position, Color::White, home, half),
                failure(position, Color::Black, home, half),
            ) {
                (
                    Some(EndReason::LeftAtHome { after_move, .. }),
                    Some(EndReason::LeftAtHome { .. }),
                ) => Some(Outcome::draw(EndReason::BothLeftAtHome { after_move })),
                // A home lies inside its half, so unless both are at home, the leave-half rule
                // is due and both sides fail it.
                (Some(_), Some(_)) => Some(Outcome::draw(EndReason::BothLeftInHalf {
                    after_move: half.unwrap_or_default(),
                })),
                (Some(reason), None) => Some(Outcome::win(Color::Black, reason)),
                (None, Some(reason)) => Some(Outcome::win(Color::White, reason)),
                (None, None) => None,
            }
        }
        LeaveCheck::BrainKing => {
            // Seed 001: loses whoever "все еще имеет несколько своих шашек в своём ярде и сделал
            // больше чем 30 ... ходов", and whoever "поставил обратно одну из своих шашек
            // обратно в свой ярд после 30-ого": only the mover, right after his own move.
            let made = position.moves_made(mover);
            let due = |n: &u16| made > *n;
            failure(position, mover, home.filter(due), half.filter(due))
                .map(|reason| Outcome::win(mover.opposite(), reason))
        }
    }
}

/// Which leave rule `side` fails, given the N of the rules that are due now.
fn failure(
    position: &UgolkiPosition,
    side: Color,
    home: Option<u16>,
    half: Option<u16>,
) -> Option<EndReason> {
    if let Some(after_move) = home
        && position.has_piece_at_home(side)
    {
        return Some(EndReason::LeftAtHome { side, after_move });
    }
    if let Some(after_move) = half
        && position.has_piece_in_half(side)
    {
        return Some(EndReason::LeftInHalf { side, after_move });
    }
    None
}

impl fmt::Display for UgolkiGame {
    /// The moves, numbered: `1. c3-d3 f6-e6 2. ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut position = *self.start();
        for (i, mv) in self.moves.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            if position.side_to_move() == Color::White || i == 0 {
                write!(f, "{}.", position.fullmove_number())?;
                if position.side_to_move() == Color::Black {
                    f.write_str("..")?;
                }
                f.write_str(" ")?;
            }
            write!(f, "{mv}")?;
            position.apply(*mv);
        }
        Ok(())
    }
}
