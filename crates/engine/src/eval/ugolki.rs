//! Ugolki evaluation: the race (how far every piece still has to go into the opponent's
//! corner), pieces already home, stragglers near the leave-home deadline; once the armies
//! have passed each other, the exact race ([`super::race`]) when it is on and fits its budget.
//! With the learned evaluation on and weights for the preset embedded, those weights
//! ([`super::ugolki_learned`]) take the place of the hand-set terms before that.

use super::{Terms, race, ugolki_learned};
use doska_rules::Color;
use doska_rules::ugolki::{Directions, UgolkiPosition};

/// The distance still to run for one side (each piece's steps to the far corner), its pieces
/// still at home, and its pieces already in the target corner.
fn race(pos: &UgolkiPosition, side: Color) -> (i32, i32, i32) {
    let rules = pos.rules();
    let w = rules.board.width() as i32;
    let diagonal = rules.directions == Directions::All;
    let dist = |file: i32, rank: i32| -> i32 {
        let (df, dr) = match side {
            Color::White => (w - 1 - file, w - 1 - rank),
            Color::Black => (file, rank),
        };
        if diagonal { df.max(dr) } else { df + dr }
    };
    let mut total = 0;
    let mut home = 0;
    let mut done = 0;
    for sq in pos.pieces(side) {
        total += dist(sq.file() as i32, sq.rank() as i32);
        if rules.is_home(side, sq) {
            home += 1;
        }
        if rules.is_home(side.opposite(), sq) {
            done += 1;
        }
    }
    // The finished corner's own distances are the same for both sides (the homes are point
    // reflections), so they cancel in the difference and are left out.
    (total, home, done)
}

/// Evaluation from the side to move's view.
pub fn evaluate(pos: &UgolkiPosition, t: &Terms) -> i32 {
    if t.exact_race
        && let Some(score) = race::exact_score(pos)
    {
        return score;
    }
    if t.learned
        && let Some(e) = t
            .ugolki_weights
            .filter(|e| e.rules() == pos.rules())
            .or_else(|| ugolki_learned::evaluator(pos.rules()))
    {
        return e.evaluate(pos);
    }
    let us = pos.side_to_move();
    let them = us.opposite();
    let (ru, hu, du) = race(pos, us);
    let (ro, ho, dov) = race(pos, them);
    // A step is worth 10; the side to move is half a step ahead.
    let mut score = (ro - ru) * 10 + 5;
    if t.centre {
        score += (du - dov) * 3;
    }
    if t.back_rank
        && let Some(n) = pos.rules().leave_home.moves()
    {
        // Stragglers at home: the closer the deadline, the heavier.
        let moves = pos.moves_made(us) as i32;
        let left = n as i32 - moves;
        let weight = if left < 8 {
            60
        } else if left < 16 {
            15
        } else {
            2
        };
        score -= (hu - ho) * weight;
    }
    score
}
