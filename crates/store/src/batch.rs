//! Group commit of moves: every `push_move` joins a queue, and one writer commits whatever has
//! queued up while its previous transaction ran, all in one transaction. Each move is answered
//! only after that commit, so an acknowledged move is as durable as before; under load the
//! database sees a few large transactions instead of a stream of small ones (SQLite has one
//! writer, and PostgreSQL flushes its log once per commit).

use crate::{MoveCommit, StoreResult};
use std::future::Future;
use tokio::sync::{mpsc, oneshot};

/// A move waiting for its commit.
#[derive(Debug)]
pub(crate) struct MoveJob {
    pub id: String,
    pub mv: MoveCommit,
    pub now: i64,
    pub done: oneshot::Sender<StoreResult<()>>,
}

/// The queue to a move writer.
#[derive(Clone, Debug)]
pub(crate) struct Writer(mpsc::Sender<MoveJob>);

impl Writer {
    /// Starts a writer that hands each group of waiting moves (`max` at most) to `write`,
    /// which answers every job of the group.
    pub fn spawn<F, Fut>(max: usize, write: F) -> Writer
    where
        F: Fn(Vec<MoveJob>) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let max = max.max(1);
        let (tx, mut rx) = mpsc::channel::<MoveJob>(1024);
        tokio::spawn(async move {
            let mut jobs = Vec::with_capacity(max);
            while rx.recv_many(&mut jobs, max).await > 0 {
                write(std::mem::take(&mut jobs)).await;
            }
        });
        Writer(tx)
    }

    /// Queues a move and waits for its commit.
    pub async fn push(&self, id: &str, mv: &MoveCommit, now: i64) -> StoreResult<()> {
        let (done, answer) = oneshot::channel();
        let job = MoveJob { id: id.to_string(), mv: mv.clone(), now, done };
        self.0.send(job).await.map_err(|_| crate::StoreError::Closed)?;
        answer.await.map_err(|_| crate::StoreError::Closed)?
    }
}
