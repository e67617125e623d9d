//! The SQLite backend: one file, write-ahead log, embedded migrations.

use crate::batch::Writer;
use crate::migrate::{SQLITE, migrator};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Sqlite, SqlitePool};
use std::str::FromStr;
use std::time::Duration;

/// Games in one SQLite file.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: SqlitePool,
    /// Commits moves in groups (none in the writer's own copy).
    writer: Option<Writer>,
}

impl SqliteStore {
    /// Opens (creating with `?mode=rwc`) the file a `sqlite://` URL names and migrates it.
    pub async fn open(url: &str) -> crate::StoreResult<SqliteStore> {
        SqliteStore::open_with(url, crate::Options::default()).await
    }

    /// [`SqliteStore::open`] with options.
    pub async fn open_with(
        url: &str,
        store_options: crate::Options,
    ) -> crate::StoreResult<SqliteStore> {
        // WAL with synchronous=NORMAL: a commit survives the process being killed at any
        // moment (the guarantee the server gives); only a power cut may lose the last commits.
        let options = SqliteConnectOptions::from_str(url)?
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        // One connection: SQLite has one writer anyway, and waiting in the pool's queue is
        // fairer than its busy handler's sleeps (the load benchmark's worst round trip halved).
        let pool = SqlitePoolOptions::new().max_connections(1).connect_with(options).await?;
        migrator(SQLITE).await?.run(&pool).await?;
        let mut store = SqliteStore { pool, writer: None };
        let copy = store.clone();
        store.writer = Some(Writer::spawn(store_options.move_batch, move |jobs| {
            let copy = copy.clone();
            async move { copy.write_moves(jobs).await }
        }));
        Ok(store)
    }

    /// Closes the pool's connections.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    async fn changed(&self, _id: &str) -> crate::StoreResult<()> {
        Ok(())
    }

    async fn changed_many(&self, _ids: &[&str]) -> crate::StoreResult<()> {
        Ok(())
    }

    async fn listen_changes(
        &self,
    ) -> crate::StoreResult<Option<tokio::sync::mpsc::Receiver<String>>> {
        Ok(None)
    }
}

crate::sql::impl_store!(SqliteStore, Sqlite);
