//! Judging the moves of a game, for the review a player asks for after it: each position is
//! searched with the same node budget and every root move scored exactly, so the move played
//! is compared with the best one, classed (inaccuracy, mistake, blunder) and given an accuracy.
//! Values are in units a player counts in: men for draughts, race moves for Ugolki (see
//! docs/api.md, "Engine review", for the thresholds and the formula).

use crate::search::WIN_BOUND;
use crate::{Limits, Searcher, analyze};
use doska_rules::AnyGame;

/// A review's values are clamped to this many units either way (a forced win is this much).
pub const CLAMP: f64 = 10.0;
/// Losses are measured between values clamped to this many units, so that a side already won
/// or lost by far is not marked for the rest of the game.
pub const LOSS_CLAMP: f64 = 5.0;

/// What one move of a game is worth, against the best move in its position.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// The best move, in the rule set's notation.
    pub best: String,
    /// The engine's line from the best move.
    pub line: Vec<String>,
    /// The position's value with best play, for the side to move, in units.
    pub before: f64,
    /// The value after the move played, for the side that played it, in units.
    pub after: f64,
    /// Depth the search completed.
    pub depth: u32,
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// `?!`
    Inaccuracy,
    /// `?`
    Mistake,
    /// `??`
    Blunder,
}

impl Mark {
    /// `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The annotation: `?!`, `?`, `??`.
    pub fn nag(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// The unit of a game's values, in engine score points: a man (draughts), a race move
/// (Ugolki).
pub fn unit(game: &AnyGame) -> f64 {
    match game {
        AnyGame::Draughts(_) => 100.0,
        AnyGame::Ugolki(_) => 10.0,
    }
}

/// The name of [`unit`]: `man` or `race-move`.
pub fn unit_name(game: &AnyGame) -> &'static str {
    match game {
        AnyGame::Draughts(_) => "man",
        AnyGame::Ugolki(_) => "race-move",
    }
}

/// An engine score in units, clamped to ±[`CLAMP`] (a forced win is the clamp).
pub fn value(score: i32, unit: f64) -> f64 {
    if score >= WIN_BOUND {
        return CLAMP;
    }
    if score <= -WIN_BOUND {
        return -CLAMP;
    }
    (f64::from(score) / unit).clamp(-CLAMP, CLAMP)
}

/// What a move gave away, from its side's values before (best play) and after it.
pub fn loss(before: f64, after: f64) -> f64 {
    (before.clamp(-LOSS_CLAMP, LOSS_CLAMP) - after.clamp(-LOSS_CLAMP, LOSS_CLAMP)).max(0.0)
}

/// The mark of a loss: draughts (in men) 0.4, 0.8, 1.5; Ugolki (in race moves) 1, 2, 4.
pub fn mark(game: &AnyGame, loss: f64) -> Option<Mark> {
    let [inaccuracy, mistake, blunder] = match game {
        AnyGame::Draughts(_) => [0.4, 0.8, 1.5],
        AnyGame::Ugolki(_) => [1.0, 2.0, 4.0],
    };
    if loss >= blunder - 1e-9 {
        Some(Mark::Blunder)
    } else if loss >= mistake - 1e-9 {
        Some(Mark::Mistake)
    } else if loss >= inaccuracy - 1e-9 {
        Some(Mark::Inaccuracy)
    } else {
        None
    }
}

/// The winning chance (percent) of a value: 50 + 50 (2 / (1 + e^-x) - 1), with x half the
/// value in men for draughts and a quarter of it in race moves for Ugolki (a man up is about a
/// 62% chance; two men, 73%).
pub fn chance(game: &AnyGame, v: f64) -> f64 {
    let x = match game {
        AnyGame::Draughts(_) => v / 2.0,
        AnyGame::Ugolki(_) => v / 4.0,
    };
    50.0 + 50.0 * (2.0 / (1.0 + (-x).exp()) - 1.0)
}

/// A move's accuracy (0 to 100) from its side's values before and after it: 103.1668
/// e^(-0.04354 d) - 3.1669 with d the drop of the winning chance in percent (lichess's curve).
pub fn accuracy(game: &AnyGame, before: f64, after: f64) -> f64 {
    let drop = (chance(game, before) - chance(game, after)).max(0.0);
    (103.1668 * (-0.04354 * drop).exp() - 3.1669).clamp(0.0, 100.0)
}

/// Judges `played` (a move text of the position `game` is in) with a search of `nodes` nodes
/// on one thread (the same answer every time); none when the game is over or the move is
/// not legal there.
pub fn judge(
    searcher: &mut Searcher,
    game: &AnyGame,
    played: &str,
    nodes: u64,
) -> Option<Judgement> {
    if game.outcome().is_some() {
        return None;
    }
    let mut after_game = game.clone();
    let played = after_game.play(played).ok()?.notation;
    let u = unit(game);
    let limits = Limits { depth: None, nodes: Some(nodes.max(1)), movetime: None };
    let (exact, analysis) = (searcher.exact_root(), searcher.analysis());
    searcher.set_analysis(true);
    let a = analyze(searcher, game, limits, |_| {});
    let after = match a.root.iter().find(|(m, _)| *m == played) {
        Some((_, s)) => value(*s, u),
        // Not among the scored root moves (an unfinished first iteration): its own search.
        None => match after_game.outcome() {
            Some(_) => value(a.score, u),
            None => -value(analyze(searcher, &after_game, limits, |_| {}).score, u),
        },
    };
    searcher.set_analysis(analysis);
    searcher.set_exact_root(exact);
    let best = a.best?;
    let before = value(a.score, u).max(after);
    let line = if a.pv.first() == Some(&best) { a.pv } else { vec![best.clone()] };
    Some(Judgement { best, line, before, after, depth: a.depth })
}
