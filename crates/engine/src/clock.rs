//! Time for a move from a game clock (the Hub protocol's `level time= inc= moves=`): how much
//! of what is left this move may spend.
//!
//! Draughts games against strong engines are decided early: against Cake at 300 ms a move,
//! ten times the time at doska's first two moves after the opening's ballot moved its score
//! more than anything else measured (bench/engines/RESULTS.md, thirtieth session), while
//! spending more of each move later did not (twenty-third). So the allowance is a share of
//! the time left that is largest while the board is full and falls as pieces come off, plus
//! the increment; forced moves take no time and give their increment back to later ones.

use std::time::Duration;

/// A side's clock before its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub left: Duration,
    /// Time added after each move (Fischer).
    pub inc: Duration,
    /// Moves to the next time control (its time is added then); none: the whole game.
    pub moves_to_go: Option<u32>,
}

/// Kept back from every allowance for what happens outside the search (the reply's way to
/// the other side, the game replayed before the search).
const OVERHEAD: Duration = Duration::from_millis(30);
/// The most of the time left one move takes.
const MOST: f64 = 0.8;
/// The moves the time left is shared over: this few with the start's material on the board
/// (the decisive moves), this many from half of it down.
const SPREAD_FULL: f64 = 4.0;
const SPREAD_HALF: f64 = 20.0;

impl Clock {
    /// The time this move may take, with `pieces` on the board of the `start_pieces` the
    /// rule set starts with.
    pub fn allowance(&self, pieces: u32, start_pieces: u32) -> Duration {
        let left = self.left.saturating_sub(OVERHEAD).as_secs_f64();
        let spread = match self.moves_to_go {
            Some(n) if n > 0 => n as f64,
            _ => spread(pieces, start_pieces),
        };
        let t = (left / spread + self.inc.as_secs_f64()).min(left * MOST);
        Duration::from_secs_f64(t.max(0.001))
    }
}

/// The moves the time left is shared over, by how much of the start's material is on the
/// board: [`SPREAD_FULL`] at all of it, rising in a line to [`SPREAD_HALF`] at half.
fn spread(pieces: u32, start_pieces: u32) -> f64 {
    let gone = 1.0 - pieces as f64 / start_pieces.max(1) as f64;
    SPREAD_FULL + (SPREAD_HALF - SPREAD_FULL) * (gone / 0.5).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(left: u64, inc: u64) -> Clock {
        Clock { left: ms(left), inc: ms(inc), moves_to_go: None }
    }

    #[test]
    fn a_full_board_takes_a_quarter_of_the_time_left_and_the_increment() {
        // 8 s and 0.2 s a move with all 24 men on an 8x8 board: (8 - 0.03) / 4 + 0.2.
        let t = clock(8000, 200).allowance(24, 24);
        assert_eq!(t.as_millis(), 2192);
    }

    #[test]
    fn fewer_pieces_take_a_smaller_share() {
        let c = clock(8000, 200);
        let shares = [24, 20, 16, 12, 6].map(|p| c.allowance(p, 24).as_millis());
        assert!(shares[..4].windows(2).all(|w| w[0] > w[1]), "{shares:?}");
        // From half the material down: a twentieth of the time left, and the increment.
        assert_eq!(shares[3], 598);
        assert_eq!(shares[4], 598);
    }

    #[test]
    fn never_more_than_most_of_what_is_left() {
        // 100 ms left and a 1 s increment: the increment comes after the move.
        let t = clock(100, 1000).allowance(24, 24);
        assert_eq!(t.as_millis(), 56);
        // Nothing left: the least a search can be given, not a panic.
        assert_eq!(clock(0, 0).allowance(24, 24), ms(1));
    }

    #[test]
    fn moves_to_go_share_the_time_evenly() {
        let c = Clock { left: ms(10_030), inc: ms(0), moves_to_go: Some(10) };
        assert_eq!(c.allowance(24, 24), c.allowance(8, 24));
        assert_eq!(c.allowance(24, 24).as_millis(), 1000);
    }
}
