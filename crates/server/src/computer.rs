//! The computer opponent as a trait, and the bounded pool it thinks on. [`Engine`] is the
//! engine crate's search at the game's level; [`RandomMover`] plays a legal move chosen by a
//! seeded generator, so games against the computer are quick and reproducible in tests.

use doska_rules::AnyGame;
use doska_store::Level;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use std::collections::{HashMap, VecDeque};
use std::fmt::Debug;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

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

/// Runs a [`Computer`] fairly between players. Each player (the owner of the games) thinks on
/// at most `threads` threads at once; the pool runs at most four times `threads` jobs at once
/// (the system shares the cores between them), so a player whose computer is to move never
/// waits behind another player's backlog: it starts at once while fewer than that many players
/// are thinking, and otherwise waits its turn in a round between the players waiting, not
/// behind each of their moves.
#[derive(Debug)]
pub struct ComputerPool {
    computer: Arc<dyn Computer>,
    threads: usize,
    lanes: Arc<Mutex<Lanes>>,
    waiting: Arc<AtomicI64>,
    running: Arc<AtomicI64>,
}

/// Who thinks now and who waits, by owner.
#[derive(Debug, Default)]
struct Lanes {
    per_owner: usize,
    total: usize,
    running: HashMap<String, usize>,
    running_total: usize,
    waiting: HashMap<String, VecDeque<oneshot::Sender<()>>>,
    /// Owners with jobs waiting, in the order they are served.
    round: VecDeque<String>,
}

impl Lanes {
    fn can_run(&self, owner: &str) -> bool {
        self.running_total < self.total
            && self.running.get(owner).copied().unwrap_or(0) < self.per_owner
    }

    fn start(&mut self, owner: &str) {
        *self.running.entry(owner.to_string()).or_default() += 1;
        self.running_total += 1;
    }

    fn finish(&mut self, owner: &str) {
        if let Some(n) = self.running.get_mut(owner) {
            *n -= 1;
            if *n == 0 {
                self.running.remove(owner);
            }
        }
        self.running_total -= 1;
        // It just had its turn: the others waiting go first.
        if let Some(o) =
            self.round.iter().position(|o| o == owner).and_then(|i| self.round.remove(i))
        {
            self.round.push_back(o);
        }
    }

    /// Starts waiting jobs, one owner after another, while there is room.
    fn dispatch(&mut self) {
        let mut passes = self.round.len();
        while passes > 0 && self.running_total < self.total {
            let Some(owner) = self.round.pop_front() else { break };
            passes -= 1;
            if !self.can_run(&owner) {
                self.round.push_back(owner);
                continue;
            }
            let queue = self.waiting.entry(owner.clone()).or_default();
            // A job whose caller is gone is skipped.
            let mut started = false;
            while let Some(tx) = queue.pop_front() {
                if tx.send(()).is_ok() {
                    started = true;
                    break;
                }
            }
            let more = !queue.is_empty();
            if !more {
                self.waiting.remove(&owner);
            }
            if started {
                self.start(&owner);
                passes = self.round.len() + usize::from(more);
            }
            if more {
                self.round.push_back(owner);
            }
        }
    }

    /// Starts a job of `owner` now (none back), or queues it (its wake-up back).
    fn enter(&mut self, owner: &str) -> Option<oneshot::Receiver<()>> {
        if self.can_run(owner) && !self.waiting.contains_key(owner) {
            self.start(owner);
            return None;
        }
        let (tx, rx) = oneshot::channel();
        if !self.waiting.contains_key(owner) {
            self.round.push_back(owner.to_string());
        }
        self.waiting.entry(owner.to_string()).or_default().push_back(tx);
        Some(rx)
    }

    fn pending(&self, owner: &str) -> usize {
        self.running.get(owner).copied().unwrap_or(0)
            + self.waiting.get(owner).map_or(0, VecDeque::len)
    }
}

/// A running job's place: given back (and the next job started) when dropped.
#[derive(Debug)]
struct Slot {
    lanes: Arc<Mutex<Lanes>>,
    owner: String,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut lanes = self.lanes.lock().unwrap_or_else(|e| e.into_inner());
        lanes.finish(&self.owner);
        lanes.dispatch();
    }
}

/// A move asked of the computer: its place in its owner's lane, taken when it is asked for, so
/// that the owner's games waiting for the computer ([`ComputerPool::pending`]) count it at
/// once, before the task that waits for it runs (a player cannot slip a game past the limit by
/// asking faster than the tasks start).
#[derive(Debug)]
pub struct Ticket {
    owner: String,
    /// Its place while it thinks (started at once), or the wake-up it waits for.
    place: Result<Slot, oneshot::Receiver<()>>,
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
        let lanes = Lanes { per_owner: threads, total: threads * 4, ..Lanes::default() };
        ComputerPool {
            computer,
            threads,
            lanes: Arc::new(Mutex::new(lanes)),
            waiting: Arc::default(),
            running: Arc::default(),
        }
    }

    fn lanes(&self) -> std::sync::MutexGuard<'_, Lanes> {
        self.lanes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until no more games think than the engine has threads: work that must not delay
    /// a game's move (a review position, an analysis, a hint) starts only then, so it takes
    /// at most one thread beside the engine's own (the server gives the engine one core less
    /// than the machine has). Games waiting their turn do not count: they wait for their
    /// player's share of the engine, which this work does not take.
    pub async fn idle(&self) {
        let threads = i64::try_from(self.threads).unwrap_or(i64::MAX);
        while self.running.load(Ordering::Relaxed) > threads {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// Takes a place in `owner`'s lane for a move: started now if there is room, else queued.
    pub fn ticket(&self, owner: &str) -> Ticket {
        let place = match self.lanes().enter(owner) {
            None => Ok(Slot { lanes: self.lanes.clone(), owner: owner.to_string() }),
            Some(rx) => Err(rx),
        };
        Ticket { owner: owner.to_string(), place }
    }

    /// Waits for the ticket's turn; its place while it thinks.
    async fn enter(&self, ticket: Ticket) -> Option<Slot> {
        match ticket.place {
            Ok(slot) => Some(slot),
            Err(rx) => {
                let _waiting = Gauge::up(&self.waiting);
                rx.await.ok()?;
                Some(Slot { lanes: self.lanes.clone(), owner: ticket.owner })
            }
        }
    }

    /// The computer's move in a game, once it is the turn of the ticket's owner to think.
    pub async fn choose(
        &self,
        ticket: Ticket,
        game: AnyGame,
        level: Level,
        seed: u64,
    ) -> Option<String> {
        let slot = self.enter(ticket).await?;
        let running = Gauge::up(&self.running);
        let computer = self.computer.clone();
        let chosen = tokio::task::spawn_blocking(move || {
            let _slot = slot;
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

    /// `owner`'s games whose computer move is waiting or being thought.
    pub fn pending(&self, owner: &str) -> usize {
        self.lanes().pending(owner)
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
    fn players_take_turns_and_no_one_waits_behind_another() {
        let mut lanes = Lanes { per_owner: 1, total: 2, ..Lanes::default() };
        // A greedy player asks for five moves, then two others ask for one each.
        let _waiting: Vec<_> = ["greedy", "greedy", "greedy", "greedy", "greedy", "ann", "bob"]
            .iter()
            .map(|o| lanes.enter(o))
            .collect();
        // greedy and ann run (ann was not behind greedy's backlog); bob is next, not greedy.
        assert_eq!(
            (lanes.pending("greedy"), lanes.pending("ann"), lanes.pending("bob")),
            (5, 1, 1)
        );
        assert_eq!(lanes.running.get("ann"), Some(&1));
        lanes.finish("greedy");
        lanes.dispatch();
        assert_eq!(lanes.running.get("bob"), Some(&1));
        assert_eq!(lanes.running.get("greedy"), None);
        lanes.finish("ann");
        lanes.dispatch();
        assert_eq!(lanes.running.get("greedy"), Some(&1));
        assert_eq!(lanes.pending("greedy"), 4);
    }

    #[test]
    fn the_engine_plugs_in() {
        let game = AnyGame::new("russian".parse::<RuleSet>().unwrap());
        let m = Engine { scale: 0.05 }.choose(&game, Level::Easy, 1).unwrap();
        game.clone().play(&m).unwrap();
    }
}
