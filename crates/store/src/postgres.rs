//! The PostgreSQL backend: several server instances share one database and learn of each
//! other's writes through LISTEN/NOTIFY on the channel `doska_games`.

use crate::batch::Writer;
use crate::migrate::{POSTGRES, migrator};
use sqlx::postgres::{PgListener, PgPoolOptions};
use sqlx::{PgPool, Postgres};

const CHANNEL: &str = "doska_games";

/// Games in a PostgreSQL database.
#[derive(Clone, Debug)]
pub struct PgStore {
    pool: PgPool,
    /// Marks this instance's notifications, so it does not reload its own writes.
    instance: String,
    /// Commits moves in groups (none in the writer's own copy).
    writer: Option<Writer>,
}

impl PgStore {
    /// Connects to the database a `postgres://` URL names and migrates it.
    pub async fn open(url: &str) -> crate::StoreResult<PgStore> {
        PgStore::open_with(url, crate::Options::default()).await
    }

    /// [`PgStore::open`] with options.
    pub async fn open_with(
        url: &str,
        store_options: crate::Options,
    ) -> crate::StoreResult<PgStore> {
        let pool = PgPoolOptions::new().max_connections(10).connect(url).await?;
        migrator(POSTGRES).await?.run(&pool).await?;
        let instance = format!("{:016x}", rand_id());
        let mut store = PgStore { pool, instance, writer: None };
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

    async fn changed(&self, id: &str) -> crate::StoreResult<()> {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(format!("{}:{id}", self.instance))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Notifies the changes of several games in one statement.
    async fn changed_many(&self, ids: &[&str]) -> crate::StoreResult<()> {
        if ids.is_empty() {
            return Ok(());
        }
        let payloads: Vec<String> =
            ids.iter().map(|id| format!("{}:{id}", self.instance)).collect();
        sqlx::query("SELECT pg_notify($1, p) FROM UNNEST($2::text[]) AS p")
            .bind(CHANNEL)
            .bind(&payloads)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn listen_changes(
        &self,
    ) -> crate::StoreResult<Option<tokio::sync::mpsc::Receiver<String>>> {
        let mut listener = PgListener::connect_with(&self.pool).await?;
        listener.listen(CHANNEL).await?;
        let (tx, rx) = tokio::sync::mpsc::channel(1024);
        let me = format!("{}:", self.instance);
        tokio::spawn(async move {
            loop {
                match listener.try_recv().await {
                    Ok(Some(n)) => {
                        let payload = n.payload();
                        if payload.starts_with(&me) {
                            continue;
                        }
                        let id = payload.split_once(':').map_or(payload, |(_, id)| id);
                        if tx.send(id.to_string()).await.is_err() {
                            break;
                        }
                    }
                    // The connection was lost: whatever was notified meanwhile is lost too. Once
                    // listening again, say so, so that everything held is read again.
                    Ok(None) | Err(_) => {
                        tracing::warn!("postgres listener lost its connection; reconnecting");
                        // Say so now too: until it is back, every game held may be stale.
                        if tx.send(crate::EVERYTHING_CHANGED.to_string()).await.is_err() {
                            break;
                        }
                        while let Err(e) = listener.listen(CHANNEL).await {
                            tracing::warn!(error = %e, "postgres listener");
                            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
                        }
                        tracing::info!("postgres listener back: reloading every game held");
                        if tx.send(crate::EVERYTHING_CHANGED.to_string()).await.is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Some(rx))
    }
}

/// 64 bits from the clock and the process: enough to tell instances apart.
fn rand_id() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    h.finish()
}

crate::sql::impl_store!(PgStore, Postgres);
