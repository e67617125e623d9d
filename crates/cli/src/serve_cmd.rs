//! `doska serve` (and `doska` with no command): the web server on an embedded SQLite file by
//! default. Every option can also come from the environment.

use anyhow::{Context, Result};
use clap::Args;
use doska_server::{AppState, Config, Engine};
use std::sync::Arc;
use std::time::Duration;

/// `doska serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "DOSKA_ADDR", default_value = "127.0.0.1:8080")]
    addr: String,
    /// Database: `sqlite://FILE?mode=rwc` (created if missing) or `postgres://USER@HOST/DB`.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://doska.sqlite?mode=rwc")]
    database_url: String,
    /// Threads the computer opponent may think on at once (default: the cores less one).
    #[arg(long, env = "DOSKA_ENGINE_THREADS")]
    engine_threads: Option<usize>,
    /// Multiplies the computer's thinking time per level.
    #[arg(long, env = "DOSKA_ENGINE_SCALE", default_value_t = 1.0)]
    engine_scale: f64,
    /// Seconds an opponent must be away before a friend game can be claimed.
    #[arg(long, env = "DOSKA_CLAIM_AFTER", default_value_t = 60)]
    claim_after_secs: u64,
    /// Mark the identity cookie Secure (when served over HTTPS, e.g. behind a proxy).
    #[arg(long, env = "DOSKA_SECURE_COOKIES")]
    secure_cookies: bool,
    /// Log as JSON lines instead of text.
    #[arg(long, env = "DOSKA_LOG_JSON")]
    log_json: bool,
    /// An origin (`https://play.example`) whose pages may open game sockets besides the site
    /// itself; repeat for more. Needed only behind a proxy that passes neither the browser's
    /// Host nor X-Forwarded-Host.
    #[arg(
        long = "allowed-origin",
        value_name = "ORIGIN",
        env = "DOSKA_ALLOWED_ORIGINS",
        value_delimiter = ','
    )]
    allowed_origins: Vec<String>,
    /// Games one player (cookie) may create a minute, in bursts of as many; 0: no limit.
    #[arg(long, env = "DOSKA_GAMES_PER_MINUTE", default_value_t = 30)]
    games_per_minute: u32,
    /// Games one address may create a minute, in bursts of as many; 0: no limit. Behind a
    /// proxy on this machine or a private network, the address is the last X-Forwarded-For.
    #[arg(long, env = "DOSKA_GAMES_PER_MINUTE_PER_ADDRESS", default_value_t = 120)]
    games_per_minute_per_address: u32,
    /// A player's games that may wait for the computer's move when they start another game
    /// against the computer.
    #[arg(long, env = "DOSKA_COMPUTER_GAMES_WAITING", default_value_t = 4)]
    computer_games_waiting: usize,
    /// Moves committed in one transaction at most: the moves that arrive while a commit runs
    /// are committed together next (each acknowledged after its commit); 1 commits each move
    /// alone.
    #[arg(long, env = "DOSKA_MOVE_BATCH", default_value_t = 256,
          value_parser = clap::value_parser!(u16).range(1..=4096))]
    move_batch: u16,
    /// Nodes the engine searches in each position of a game it reviews (one thread, so a
    /// review is reproducible).
    #[arg(long, env = "DOSKA_REVIEW_NODES", default_value_t = 100_000,
          value_parser = clap::value_parser!(u64).range(1_000..=100_000_000))]
    review_nodes: u64,
    /// Reviews computed at the same time; the others wait their turn.
    #[arg(long, env = "DOSKA_REVIEWS_AT_ONCE", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=64))]
    reviews_at_once: u16,
    /// Endgame databases.
    #[command(flatten)]
    pub(crate) egdb: crate::egdb_cmd::EgdbDir,
}

pub fn serve(a: &ServeArgs) -> Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    if a.log_json {
        logs.json().init();
    } else {
        logs.init();
    }
    for v in a.egdb.install(None)? {
        if let Some(db) = doska_engine::egdb::installed(v) {
            tracing::info!(variant = %v, pieces = db.pieces(), "endgame database in use");
        }
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let config = Config {
        engine_threads: a.engine_threads.unwrap_or(cores.saturating_sub(1).max(1)),
        claim_after: Duration::from_secs(a.claim_after_secs),
        secure_cookies: a.secure_cookies,
        allowed_origins: a.allowed_origins.clone(),
        games_per_minute: a.games_per_minute,
        games_per_minute_per_address: a.games_per_minute_per_address,
        computer_games_waiting: a.computer_games_waiting,
        review_nodes: a.review_nodes,
        reviews_at_once: usize::from(a.reviews_at_once),
        ..Config::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let options = doska_store::Options { move_batch: usize::from(a.move_batch) };
        let store = doska_store::open_with(&a.database_url, options)
            .await
            .with_context(|| format!("opening the database {}", a.database_url))?;
        let computer = Arc::new(Engine { scale: a.engine_scale });
        let state = AppState::new(store, computer, config).await?;
        let listener = tokio::net::TcpListener::bind(&a.addr)
            .await
            .with_context(|| format!("listening on {}", a.addr))?;
        let addr = listener.local_addr()?;
        outln!("doska: serving on http://{addr} (database {})", a.database_url);
        doska_server::serve(listener, state, stop_signal()).await?;
        outln!("doska: stopped");
        Ok(())
    })
}

/// Ctrl-C, or SIGTERM on Unix.
async fn stop_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
    tracing::info!("shutting down");
}
