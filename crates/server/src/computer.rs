//! The computer opponent as a trait, and the bounded pool it thinks on. [`Engine`] is the
//! engine crate's search at the game's level; [`RandomMover`] plays a legal move chosen by a
//! seeded generator, so games against the computer are quick and reproducible in tests.

use doska_rules::AnyGame;
use doska_store::Level;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use std::fmt::Debug;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use tokio::sync::Semaphore;

/// A computer player. `choose` runs on a blocking thread and may take its time (the level's).
pub trait Computer: Send + Sync + Debug {
    /// The move to play in `game` (the side to move is the computer's), as a move text the
    /// rules accept (a [`doska_rules::MoveView::notation`]); none when there is no legal move.
    /// The same game, level and seed should give the same move.
    fn choose(&self, game: &AnyGame, level: Level, seed: u64) -> Option<String>;
}

/// Plays a legal move picked by a generator seeded with `seed`.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomMover;

impl Computer for RandomMover {
    fn choose(&self, game: &AnyGame, _level: Level, seed: u64) -> Option<String> {
        let moves = game.legal_moves();
        let mut rng = StdRng::seed_from_u64(seed);
        moves.choose(&mut rng).map(|m| m.notation.clone())
    }
}

/// The engine crate's player: its search at the game's level.
#[derive(Clone, Copy, Debug)]
pub struct Engine {
    /// Multiplies each level's thinking time (1.0 to play).
    pub scale: f64,
}

impl Default for Engine {
    fn default() -> Self {
        Engine { scale: 1.0 }
    }
}

impl Computer for Engine {
    fn choose(&self, game: &AnyGame, level: Level, seed: u64) -> Option<String> {
        let level = match level {
            Level::Easy => doska_engine::Level::Easy,
            Level::Medium => doska_engine::Level::Medium,
            Level::Hard => doska_engine::Level::Hard,
            Level::Insane => doska_engine::Level::Insane,
        };
        doska_engine::choose(game, level, seed, self.scale)
    }
}

/// Runs a [`Computer`] on at most `threads` blocking threads at once; the rest wait in line.
#[derive(Debug)]
pub struct ComputerPool {
    computer: Arc<dyn Computer>,
    permits: Arc<Semaphore>,
    threads: usize,
    waiting: Arc<AtomicI64>,
    running: Arc<AtomicI64>,
}

/// Counts one up while alive.
struct Gauge(Arc<AtomicI64>);

impl Gauge {
    fn up(a: &Arc<AtomicI64>) -> Gauge {
        a.fetch_add(1, Ordering::Relaxed);
        Gauge(a.clone())
    }
}

impl Drop for Gauge {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl ComputerPool {
    /// A pool of `threads` (at least one).
    pub fn new(computer: Arc<dyn Computer>, threads: usize) -> ComputerPool {
        let threads = threads.max(1);
        ComputerPool {
            computer,
            permits: Arc::new(Semaphore::new(threads)),
            threads,
            waiting: Arc::default(),
            running: Arc::default(),
        }
    }

    /// The computer's move, once a thread is free.
    pub async fn choose(&self, game: AnyGame, level: Level, seed: u64) -> Option<String> {
        let waiting = Gauge::up(&self.waiting);
        let permit = self.permits.clone().acquire_owned().await.ok()?;
        drop(waiting);
        let running = Gauge::up(&self.running);
        let computer = self.computer.clone();
        let chosen = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let _running = running;
            computer.choose(&game, level, seed)
        })
        .await;
        match chosen {
            Ok(m) => m,
            Err(e) => {
                tracing::error!(error = %e, "the computer failed");
                None
            }
        }
    }

    /// Jobs waiting for a thread.
    pub fn waiting(&self) -> i64 {
        self.waiting.load(Ordering::Relaxed)
    }

    /// Jobs thinking now.
    pub fn running(&self) -> i64 {
        self.running.load(Ordering::Relaxed)
    }

    /// The pool's size.
    pub fn threads(&self) -> usize {
        self.threads
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use doska_rules::RuleSet;

    #[test]
    fn random_mover_is_legal_and_reproducible() {
        for rules in ["russian", "international", "ugolki", "frisian"] {
            let game = AnyGame::new(rules.parse::<RuleSet>().unwrap());
            let a = RandomMover.choose(&game, Level::Easy, 7);
            assert_eq!(a, RandomMover.choose(&game, Level::Insane, 7));
            let mut g = game.clone();
            g.play(a.as_deref().unwrap()).unwrap();
        }
    }

    #[test]
    fn the_engine_plugs_in() {
        let game = AnyGame::new("russian".parse::<RuleSet>().unwrap());
        let m = Engine { scale: 0.05 }.choose(&game, Level::Easy, 1).unwrap();
        game.clone().play(&m).unwrap();
    }
}
