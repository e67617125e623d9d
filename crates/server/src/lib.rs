//! The doska web server as a library: [`router`] builds the axum app, [`serve`] runs it on a
//! listener until a shutdown future resolves. Players are known by a signed cookie; games live
//! in [`room`]s that commit every change to the [`doska_store::Store`] before telling anyone;
//! the computer's moves come from a [`Computer`] run on a bounded blocking pool.
//!
//! The HTTP and WebSocket API is described in `docs/api.md`.

mod analysis;
mod api;
mod assets;
pub mod computer;
mod error;
mod guard;
mod identity;
mod limit;
mod metrics;
mod review;
mod room;
mod rulebook;
mod socket;
mod view;

pub use computer::{Computer, ComputerPool, Engine, RandomMover, Ticket};
pub use doska_store::Level;
pub use error::ApiError;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use doska_store::{Store, StoreError};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// What the server can be told.
#[derive(Clone, Debug)]
pub struct Config {
    /// Threads the computer may think on at once.
    pub engine_threads: usize,
    /// How long an opponent must be away before the other side may claim the game.
    pub claim_after: Duration,
    /// Mark the identity cookie `Secure` (set when served over HTTPS).
    pub secure_cookies: bool,
    /// The key signing identity cookies; none: one kept in the database.
    pub cookie_key: Option<Vec<u8>>,
    /// A fixed seed for every computer game (tests); none: a random seed per game.
    pub seed: Option<u64>,
    /// Largest WebSocket message accepted, in bytes.
    pub max_message: usize,
    /// Messages a socket may send per second (on average) before it is told to slow down.
    pub messages_per_second: u32,
    /// Messages a socket may send in a burst.
    pub message_burst: u32,
    /// Messages refused for speed before the socket is closed.
    pub strikes: u32,
    /// Origins besides the site's own whose pages may open game sockets (a proxy setup where
    /// the browser's origin is neither the Host nor the X-Forwarded-Host the server sees).
    pub allowed_origins: Vec<String>,
    /// A connection must send its first byte within this time.
    pub header_timeout: Duration,
    /// A connection that sends nothing for this long is closed.
    pub idle_timeout: Duration,
    /// A game socket is pinged this often.
    pub ping_every: Duration,
    /// A game socket that has sent nothing (not even a pong) for this long is closed, and its
    /// player shown as away.
    pub dead_after: Duration,
    /// Games one player (cookie) may create a minute, in bursts of as many (0: no limit).
    pub games_per_minute: u32,
    /// Games one address may create a minute, in bursts of as many (0: no limit).
    pub games_per_minute_per_address: u32,
    /// Games of one player that may be waiting for the computer's move when another game
    /// against the computer is created.
    pub computer_games_waiting: usize,
    /// Nodes the engine searches in each position of a game it reviews (on one thread, so
    /// that a review is the same every time).
    pub review_nodes: u64,
    /// Reviews computed at the same time (the others wait their turn).
    pub reviews_at_once: usize,
    /// How often this instance tells the database it is alive. An instance silent for three
    /// periods (killed) counts as dead: its players count as away since its last beat.
    pub heartbeat: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            engine_threads: 1,
            claim_after: Duration::from_secs(60),
            secure_cookies: false,
            cookie_key: None,
            seed: None,
            max_message: 4096,
            messages_per_second: 10,
            message_burst: 20,
            strikes: 10,
            allowed_origins: Vec::new(),
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(90),
            ping_every: Duration::from_secs(15),
            dead_after: Duration::from_secs(40),
            games_per_minute: 30,
            games_per_minute_per_address: 120,
            computer_games_waiting: 4,
            heartbeat: Duration::from_secs(5),
            review_nodes: 100_000,
            reviews_at_once: 1,
        }
    }
}

/// Everything a request handler needs; cheap to clone.
#[derive(Clone, Debug)]
pub struct AppState(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    store: Arc<dyn Store>,
    config: Config,
    rooms: room::Rooms,
    computer: ComputerPool,
    reviews: review::Reviews,
    key: identity::Key,
    metrics: metrics::Metrics,
    shutdown: tokio::sync::watch::Sender<bool>,
    /// Game creation by player and by address.
    creations: (limit::Limiter, limit::Limiter),
}

impl AppState {
    /// The state over a store and a computer player.
    pub async fn new(
        store: Arc<dyn Store>,
        computer: Arc<dyn Computer>,
        config: Config,
    ) -> Result<AppState, StoreError> {
        let key = match &config.cookie_key {
            Some(k) => identity::Key::new(k),
            None => identity::Key::from_store(store.as_ref()).await?,
        };
        let (shutdown, _) = tokio::sync::watch::channel(false);
        Ok(AppState(Arc::new(Inner {
            computer: ComputerPool::new(computer, config.engine_threads),
            creations: (
                limit::Limiter::new(config.games_per_minute),
                limit::Limiter::new(config.games_per_minute_per_address),
            ),
            store,
            rooms: room::Rooms::new(config.heartbeat),
            reviews: review::Reviews::new(config.reviews_at_once),
            config,
            key,
            metrics: metrics::Metrics::default(),
            shutdown,
        })))
    }

    fn store(&self) -> &dyn Store {
        self.0.store.as_ref()
    }

    fn config(&self) -> &Config {
        &self.0.config
    }
}

/// The app: the JSON API under `/api`, the game sockets, `/healthz`, `/metrics`, the rule
/// book under `/rulebook`, and the web UI's files for every other path.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/games", post(api::create).get(api::list))
        .route("/games/{id}", get(api::state).delete(api::hide))
        .route("/games/{id}/join", post(api::join))
        .route("/games/{id}/replay", get(api::replay))
        .route("/games/{id}/pdn", get(api::export))
        .route("/games/{id}/review", get(api::review).post(api::start_review))
        .route("/games/{id}/ws", get(socket::upgrade))
        .route("/stats", get(api::stats))
        .route("/analysis", get(analysis::analyze))
        .route("/position", get(analysis::position))
        .route("/rules", get(api::rules))
        .fallback(api::no_route)
        .layer(axum::middleware::from_fn_with_state(state.clone(), identity::layer));
    Router::new()
        .nest("/api", api)
        .route("/healthz", get(api::health))
        .route("/metrics", get(metrics::render))
        .route("/rulebook", get(rulebook::index))
        .route("/rulebook/{page}", get(rulebook::show))
        .fallback(assets::serve)
        .layer(DefaultBodyLimit::max(64 * 1024))
        .layer(axum::middleware::from_fn(guard::headers))
        .with_state(state)
}

/// Serves `state` on `listener` until `shutdown` resolves, then closes the sockets (telling
/// the clients the server is going away) and returns. Computer moves left pending by an earlier
/// run are made first.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut tasks = Vec::new();
    tasks.push(tokio::spawn(room::resume(state.clone())));
    tasks.push(tokio::spawn(room::sweep(state.clone())));
    tasks.push(tokio::spawn(room::beat(state.clone())));
    match state.store().listen().await {
        Ok(Some(changes)) => tasks.push(tokio::spawn(room::follow(state.clone(), changes))),
        Ok(None) => {}
        Err(e) => tracing::error!(error = %e, "cannot listen to the database's changes"),
    }
    let app = router(state.clone());
    let stop = state.0.shutdown.clone();
    let config = state.config();
    let listener = guard::TimedListener::new(listener, config.header_timeout, config.idle_timeout);
    let app = app.into_make_service_with_connect_info::<guard::Peer>();
    let result = axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            stop.send_replace(true);
        })
        .await;
    for t in tasks {
        t.abort();
    }
    result
}

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
