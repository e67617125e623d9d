//! Storage of doska's players and games behind one trait, [`Store`]: SQLite by default (one
//! embedded file), PostgreSQL for several server instances. Both backends run the same SQL text
//! (numbered `$1` parameters work in both) and their own migrations, kept in step (a test
//! compares them).
//!
//! A game is stored as its rule set text, its start position and the list of its move texts:
//! replaying the moves rebuilds the game exactly, which is how a restarted server continues.
//! Every write that changes a game names the number of moves it expects the game to have, so
//! two writers (two server instances, or a computer move racing a takeback) cannot both win:
//! the second gets [`StoreError::Conflict`].

mod batch;
mod kinds;
mod migrate;
mod postgres;
mod sql;
mod sqlite;
pub mod stats;

pub use kinds::{Level, Mode, Side, Status, Winner};
pub use postgres::PgStore;
pub use sqlite::SqliteStore;
pub use stats::{PlayerBucket, ResultRow, SiteRow, SiteStats};

use async_trait::async_trait;
use std::fmt::Debug;
use std::sync::Arc;

/// Why the store refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database failed or could not be reached.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The migrations could not be applied.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The game changed since it was read (another writer was first).
    #[error("the game changed meanwhile; reload it and try again")]
    Conflict,
    /// The store's move writer has stopped (the runtime is shutting down).
    #[error("the database writer has stopped")]
    Closed,
    /// No such game.
    #[error("no game with id {0}")]
    NotFound(String),
    /// The database URL names no backend this build has.
    #[error("unsupported database URL {0:?}: use sqlite://FILE or postgres://USER@HOST/DB")]
    Url(String),
    /// A stored value that does not read back (a row written by a newer version?).
    #[error("bad stored value in {column}: {value:?}")]
    Corrupt {
        /// The column.
        column: &'static str,
        /// What it held.
        value: String,
    },
}

/// A result of the store.
pub type StoreResult<T> = Result<T, StoreError>;

/// One seat of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seat {
    /// The player sitting there; none for the computer or a seat still free.
    pub player: Option<String>,
    /// SHA-256 (hex) of the seat's secret; none for the computer or a seat still free.
    pub token_hash: Option<String>,
}

/// A game as stored (everything but its moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Public id (the link).
    pub id: String,
    /// Canonical rule set text.
    pub rules: String,
    /// Against whom.
    pub mode: Mode,
    /// The computer's level (computer games).
    pub level: Option<Level>,
    /// The computer's side (computer games).
    pub computer_side: Option<Side>,
    /// Who created the game.
    pub creator: String,
    /// The creator's side (hot-seat: the side whose results count as the creator's).
    pub creator_side: Side,
    /// The start position.
    pub start_fen: String,
    /// White's seat.
    pub white: Seat,
    /// Black's seat.
    pub black: Seat,
    /// SHA-256 (hex) of the friend invitation's secret.
    pub invite_hash: Option<String>,
    /// Seed of the computer's choices.
    pub seed: i64,
    /// Where the game stands.
    pub status: Status,
    /// The result once finished.
    pub winner: Option<Winner>,
    /// The reason id of the end (`no-pieces`, `resignation`, `abandoned`, ...).
    pub reason: Option<String>,
    /// The end in English words.
    pub result_text: Option<String>,
    /// Moves stored.
    pub plies: i64,
    /// Of those, the moves the game came with (an imported PDN's), which a takeback keeps.
    pub imported: i64,
    /// The side to move.
    pub to_move: Side,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// The rematch of this game, once made.
    pub rematch: Option<String>,
    /// The side whose draw offer is on the table (a move takes it off).
    pub draw_offer: Option<Side>,
    /// The side that asked for a rematch of this finished friend game.
    pub rematch_offer: Option<Side>,
    /// Hints the player asked for (games against the computer).
    pub hints: i64,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    /// Milliseconds since the Unix epoch.
    pub updated_at: i64,
    /// Milliseconds since the Unix epoch.
    pub finished_at: Option<i64>,
}

impl GameRecord {
    /// Whether both sides have made a move of this game (imported moves do not count): before
    /// that a game can be aborted and counts for nobody, and cannot be resigned.
    pub fn both_moved(&self) -> bool {
        self.plies - self.imported >= 2
    }

    /// The seat of `side`.
    pub fn seat(&self, side: Side) -> &Seat {
        match side {
            Side::White => &self.white,
            Side::Black => &self.black,
        }
    }
}

/// How a game ended, to be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// `Finished` or `Aborted`.
    pub status: Status,
    /// The result (none when aborted).
    pub winner: Option<Winner>,
    /// Reason id.
    pub reason: String,
    /// Reason in words.
    pub text: String,
}

/// One move to append.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveCommit {
    /// The move's index in the game (0 = first move after the start position).
    pub ply: i64,
    /// The move text.
    pub notation: String,
    /// The side to move after it.
    pub to_move: Side,
    /// The end, when this move ends the game.
    pub end: Option<GameEnd>,
}

/// Which offer [`Store::set_offer`] changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// A draw offer: only while the game is played, and taken off by every move.
    Draw,
    /// A rematch offer: only once the game is over and has no rematch yet.
    Rematch,
}

/// Sockets one server instance holds on one seat of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Presence {
    /// The seat.
    pub side: Side,
    /// The instance.
    pub instance: String,
    /// Its sockets on the seat (0: they all left, at `seen_at`).
    pub sockets: i64,
    /// When that number last changed (milliseconds since the Unix epoch).
    pub seen_at: i64,
    /// The instance's last sign of life (0: none is stored).
    pub alive_at: i64,
}

/// Totals for the metrics page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games waiting for a friend or being played.
    pub open_games: i64,
    /// Finished or aborted games.
    pub closed_games: i64,
    /// Moves stored.
    pub moves: i64,
}

/// What [`Store::listen`] sends when changes may have been missed: every game held in memory
/// must be read again. (No game id is `*`.)
pub const EVERYTHING_CHANGED: &str = "*";

/// The storage of players and games.
#[async_trait]
pub trait Store: Send + Sync + Debug {
    /// Checks that the database answers.
    async fn ping(&self) -> StoreResult<()>;

    /// Records a player (first sight) or its last visit.
    async fn touch_player(&self, id: &str, now: i64) -> StoreResult<()>;

    /// A setting; when absent, stores `default` first. Returns the stored value (the first
    /// writer's, when several instances race).
    async fn setting_or_insert(&self, key: &str, default: &str) -> StoreResult<String>;

    /// Stores a new game with the moves it starts with (an imported game's); its `plies`
    /// is the number of those moves, whatever the record says.
    async fn create_game(&self, game: &GameRecord, moves: &[String]) -> StoreResult<()>;

    /// A game and its moves.
    async fn game(&self, id: &str) -> StoreResult<Option<(GameRecord, Vec<String>)>>;

    /// Seats `player` on `side` if the seat is free; the game starts. False if it was taken.
    async fn take_seat(
        &self,
        id: &str,
        side: Side,
        player: &str,
        token_hash: &str,
        now: i64,
    ) -> StoreResult<bool>;

    /// Appends a move, committed before this returns. Fails with [`StoreError::Conflict`] if
    /// the game does not have `mv.ply` moves or is over.
    async fn push_move(&self, id: &str, mv: &MoveCommit, now: i64) -> StoreResult<()>;

    /// Keeps the first `keep` moves of a game that has `expected` moves (a takeback).
    async fn truncate(
        &self,
        id: &str,
        expected: i64,
        keep: i64,
        to_move: Side,
        now: i64,
    ) -> StoreResult<()>;

    /// Ends a game that has `expected` moves and is not over.
    async fn finish(&self, id: &str, expected: i64, end: &GameEnd, now: i64) -> StoreResult<()>;

    /// Links a finished game to its rematch. False if it already has one.
    async fn set_rematch(&self, id: &str, rematch: &str) -> StoreResult<bool>;

    /// Changes a game's draw or rematch offer from `old` to `new` (a draw offer only while the
    /// game is played and has `expected` moves; a rematch offer only once it is over and has
    /// no rematch). Fails with [`StoreError::Conflict`] if the offer was not `old`.
    async fn set_offer(
        &self,
        id: &str,
        offer: Offer,
        expected: i64,
        old: Option<Side>,
        new: Option<Side>,
    ) -> StoreResult<()>;

    /// Records that server `instance` holds `sockets` sockets on `side` of a game, as of `now`.
    async fn set_presence(
        &self,
        id: &str,
        side: Side,
        instance: &str,
        sockets: i64,
        now: i64,
    ) -> StoreResult<()>;

    /// Every instance's sockets on the seats of a game.
    async fn presence(&self, id: &str) -> StoreResult<Vec<Presence>>;

    /// Says server `instance` is alive at `now`; returns every instance's last sign of life.
    async fn beat(&self, instance: &str, now: i64) -> StoreResult<Vec<(String, i64)>>;

    /// Forgets the instances not heard from since `before`, and every presence row of theirs
    /// or not changed since then.
    async fn forget_presence(&self, before: i64) -> StoreResult<()>;

    /// Counts a hint in a game being played that has `expected` moves; the game's hints
    /// then. [`StoreError::Conflict`] if the game moved on or ended.
    async fn add_hint(&self, id: &str, expected: i64) -> StoreResult<i64>;

    /// The stored engine review of a game (its JSON).
    async fn review(&self, id: &str) -> StoreResult<Option<String>>;

    /// Stores a game's engine review (the first one stored stays).
    async fn save_review(&self, id: &str, nodes: i64, body: &str, now: i64) -> StoreResult<()>;

    /// Removes a game from a player's lists.
    async fn hide(&self, player: &str, id: &str) -> StoreResult<()>;

    /// A player's games, newest first: the unfinished ones (`finished` false) or the others.
    async fn player_games(
        &self,
        player: &str,
        finished: bool,
        limit: i64,
    ) -> StoreResult<Vec<GameRecord>>;

    /// Games where the computer is to move and the game is not over.
    async fn pending_computer_games(&self) -> StoreResult<Vec<String>>;

    /// A player's results, oldest first, for the stats.
    async fn player_results(&self, player: &str) -> StoreResult<Vec<ResultRow>>;

    /// Result counts per rule set, for the site-wide stats.
    async fn site_results(&self) -> StoreResult<Vec<SiteRow>>;

    /// Totals for the metrics page.
    async fn counts(&self) -> StoreResult<Counts>;

    /// [`Store::site_results`] and [`Store::counts`] computed again from the games and moves
    /// themselves (a scan of every row: for checks, never per request). The kept aggregates
    /// must always equal these.
    async fn recount(&self) -> StoreResult<(Vec<SiteRow>, Counts)>;

    /// Ids of games changed by other instances (PostgreSQL LISTEN/NOTIFY), and
    /// [`EVERYTHING_CHANGED`] when the listening connection is lost and again once it is
    /// regained (changes may have been missed: read everything again); none for SQLite.
    async fn listen(&self) -> StoreResult<Option<tokio::sync::mpsc::Receiver<String>>> {
        Ok(None)
    }
}

/// How a store writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Moves committed in one transaction at most (group commit); 1 commits each alone.
    pub move_batch: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options { move_batch: 256 }
    }
}

/// Opens the store a URL names: `sqlite://FILE[?mode=rwc]` or `postgres://...`, applying
/// the migrations.
pub async fn open(url: &str) -> StoreResult<Arc<dyn Store>> {
    open_with(url, Options::default()).await
}

/// [`open`] with options.
pub async fn open_with(url: &str, options: Options) -> StoreResult<Arc<dyn Store>> {
    if url.starts_with("sqlite:") {
        Ok(Arc::new(SqliteStore::open_with(url, options).await?))
    } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
        Ok(Arc::new(PgStore::open_with(url, options).await?))
    } else {
        Err(StoreError::Url(url.to_string()))
    }
}
