//! Game rooms: one per game in memory while anyone looks at it. A room holds the game (rebuilt
//! from the store by replaying its moves), who is connected to which seat, and the offers on
//! the table. Every change is committed to the store first, then broadcast to the room's
//! sockets as a fresh state. One lock per room puts its changes in one order.

use crate::error::ApiError;
use crate::identity::{digest, secret};
use crate::metrics::Metrics;
use crate::{AppState, now_ms, view};
use doska_rules::game::Winner as RulesWinner;
use doska_rules::{AnyGame, Color, MoveView, RuleSet};
use doska_store::{
    GameEnd, GameRecord, Level, Mode, MoveCommit, Offer, Presence, Seat, Side, Status, StoreError,
    Winner,
};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::{Mutex, MutexGuard, broadcast};

/// The store's side of a rules colour.
pub fn side(c: Color) -> Side {
    match c {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

/// The rules colour of a store side.
pub fn color(s: Side) -> Color {
    match s {
        Side::White => Color::White,
        Side::Black => Color::Black,
    }
}

fn winner(w: RulesWinner) -> Winner {
    match w {
        RulesWinner::White => Winner::White,
        RulesWinner::Black => Winner::Black,
        RulesWinner::Draw => Winner::Draw,
    }
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// What a connection may do in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Watch only.
    Spectator,
    /// Play one side.
    Seat(Color),
    /// Play both sides (hot-seat).
    Both,
}

impl Access {
    /// Whether this access plays `c`.
    pub fn holds(self, c: Color) -> bool {
        match self {
            Access::Spectator => false,
            Access::Seat(s) => s == c,
            Access::Both => true,
        }
    }

    /// `white`, `black`, `both` or `spectator`.
    pub fn name(self) -> &'static str {
        match self {
            Access::Spectator => "spectator",
            Access::Seat(c) => c.name(),
            Access::Both => "both",
        }
    }

    fn seats(self) -> impl Iterator<Item = Color> {
        [Color::White, Color::Black].into_iter().filter(move |c| self.holds(*c))
    }
}

/// The access a player (by its cookie) or a seat token gives in a game. A token that opens
/// no seat is refused rather than treated as a spectator's, so a forged or stale token is
/// noticed.
pub fn access(rec: &GameRecord, player: &str, token: Option<&str>) -> Result<Access, ApiError> {
    let holds = |seat: &Seat| match token {
        Some(t) => seat.token_hash.as_deref() == Some(digest(t).as_str()),
        None => seat.player.as_deref() == Some(player),
    };
    let (white, black) = (holds(&rec.white), holds(&rec.black));
    match (white, black) {
        (true, true) => Ok(Access::Both),
        (true, false) => Ok(Access::Seat(Color::White)),
        (false, true) => Ok(Access::Seat(Color::Black)),
        (false, false) if token.is_some() => Err(ApiError::Forbidden(
            "this seat token opens no seat of this game: open the game without it to watch"
                .to_string(),
        )),
        (false, false) => Ok(Access::Spectator),
    }
}

/// A move as the client gave it.
#[derive(Clone, Debug)]
pub enum MoveInput {
    /// Move text (`c3-d4`, `c3:e5:g3`, `32-28`, `pass`).
    Text(String),
    /// Squares: start, landings, end (any route of the move).
    Path(Vec<String>),
}

/// What a player asks of a game.
#[derive(Clone, Debug)]
pub enum Action {
    /// Play a move.
    Move(MoveInput),
    /// Give up.
    Resign,
    /// Offer a draw (or accept the opponent's standing offer).
    DrawOffer,
    /// Accept the opponent's draw offer.
    DrawAccept,
    /// Decline it.
    DrawDecline,
    /// Take back the last own move (and the computer's answer).
    Takeback,
    /// Ask for (or agree to) another game with colours swapped.
    Rematch,
    /// End the game without result before both sides have moved.
    Abort,
    /// Win a friend game whose opponent has been away past the stated time.
    ClaimWin,
}

/// The server instances sharing the database, as this one last heard of them.
#[derive(Debug)]
pub struct Instances {
    /// This instance's id.
    pub me: String,
    /// How often each instance says it is alive.
    every: Duration,
    /// Each instance's last sign of life (milliseconds).
    seen: std::sync::Mutex<HashMap<String, i64>>,
    /// When `seen` was last read from the store (0: never).
    checked: AtomicI64,
}

impl Instances {
    /// This instance (a fresh id per process), beating every `every`.
    pub fn new(every: Duration) -> Instances {
        let me = crate::identity::secret().chars().take(16).collect();
        Instances { me, every, seen: std::sync::Mutex::default(), checked: AtomicI64::new(0) }
    }

    fn seen(&self) -> std::sync::MutexGuard<'_, HashMap<String, i64>> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The last sign of life of an instance: what the last beat read, or `stored` if later.
    fn alive_at(&self, instance: &str, stored: i64) -> i64 {
        self.seen().get(instance).copied().unwrap_or(0).max(stored)
    }

    fn every_ms(&self) -> i64 {
        i64::try_from(self.every.as_millis()).unwrap_or(i64::MAX / 4)
    }

    /// An instance not heard from for three periods before `at` is dead (killed).
    fn alive_then(&self, alive_at: i64, at: i64) -> bool {
        alive_at >= at - 3 * self.every_ms()
    }

    /// Whether an instance is alive now, as far as this one knows: judged at the time of this
    /// instance's last read of the others' beats (plus a period), so that this instance
    /// falling behind (a busy machine) never makes the others look dead.
    fn alive(&self, alive_at: i64, now: i64) -> bool {
        let checked = self.checked.load(Ordering::SeqCst);
        self.alive_then(alive_at, now.min(checked.saturating_add(self.every_ms())))
    }
}

/// Whether a seat's player is connected to any instance, or since when they have been away
/// from every one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Here {
    /// Some instance holds a socket on the seat.
    Connected,
    /// No live instance does, since this time (milliseconds).
    AwaySince(i64),
}

/// A game in memory.
#[derive(Debug)]
pub struct Live {
    pub rec: GameRecord,
    pub game: AnyGame,
    pub moves: Vec<String>,
    pub last: Option<MoveView>,
    /// This instance's sockets on each seat.
    pub here: [u32; 2],
    /// When this instance's last socket on each seat left (milliseconds).
    pub left_at: [Option<i64>; 2],
    /// Other instances' sockets on the seats (friend games), as the store last said.
    pub others: Vec<Presence>,
    /// When the game was loaded: a seat nobody is known to have held is away since then.
    pub loaded_at: i64,
    /// The instances, to tell the live ones from the dead.
    pub instances: Arc<Instances>,
    /// The computer is choosing a move.
    pub thinking: bool,
    /// Bumped on every change; a computer move chosen for an older version is dropped.
    pub version: u64,
    /// The rooms' epoch when this game was last read: an older one may have missed changes.
    pub epoch: u64,
}

/// Rebuilds a stored game: the start position, then every move, then a stored end the moves
/// do not show (resignation, agreement, abandonment).
pub fn replay(rec: &GameRecord, moves: &[String]) -> Result<(AnyGame, Option<MoveView>), ApiError> {
    let bad = |e: String| ApiError::Corrupt(rec.id.clone(), e);
    let rules: RuleSet =
        rec.rules.parse().map_err(|e: doska_rules::RuleSetError| bad(e.to_string()))?;
    let mut game = AnyGame::from_fen(rules, &rec.start_fen).map_err(|e| bad(e.to_string()))?;
    let mut last = None;
    for m in moves {
        last = Some(game.play(m).map_err(|e| bad(format!("move {m}: {e}")))?);
    }
    if rec.status == Status::Finished && game.outcome().is_none() {
        match (rec.reason.as_deref(), rec.winner) {
            (Some("resignation"), Some(Winner::White)) => game.resign(Color::Black),
            (Some("resignation"), Some(Winner::Black)) => game.resign(Color::White),
            (Some("agreement"), _) => game.agree_draw(),
            (Some("abandoned"), Some(Winner::White)) => game.abandon(Color::White),
            (Some("abandoned"), Some(Winner::Black)) => game.abandon(Color::Black),
            _ => {}
        }
    }
    Ok((game, last))
}

impl Live {
    fn build(
        rec: GameRecord,
        moves: Vec<String>,
        instances: Arc<Instances>,
        epoch: u64,
    ) -> Result<Live, ApiError> {
        let (game, last) = replay(&rec, &moves)?;
        Ok(Live {
            rec,
            game,
            moves,
            last,
            here: [0, 0],
            left_at: [None, None],
            others: Vec::new(),
            loaded_at: now_ms(),
            instances,
            thinking: false,
            version: 0,
            epoch,
        })
    }

    /// Whether a seat's player is connected to any live instance, or since when not.
    pub fn seat(&self, c: Color, now: i64) -> Here {
        let i = idx(c);
        if self.here[i] > 0 {
            return Here::Connected;
        }
        let mut since = self.left_at[i];
        for p in self.others.iter().filter(|p| color(p.side) == c) {
            let alive_at = self.instances.alive_at(&p.instance, p.alive_at);
            if p.sockets > 0 && self.instances.alive(alive_at, now) {
                return Here::Connected;
            }
            // A dead instance's sockets went with its last sign of life.
            let gone = if p.sockets > 0 { alive_at } else { p.seen_at };
            since = Some(since.map_or(gone, |s| s.max(gone)));
        }
        Here::AwaySince(since.unwrap_or(self.loaded_at))
    }

    /// Whether presence is shared through the store: friend games, where a claim needs it
    /// (and, once over, so that every row is left at no sockets and forgotten in time).
    fn shares_presence(&self) -> bool {
        self.rec.mode == Mode::Friend
    }

    /// Reads the other instances' sockets on this game.
    async fn read_presence(&mut self, state: &AppState) -> Result<(), ApiError> {
        if !self.shares_presence() {
            return Ok(());
        }
        let me = &self.instances.me;
        let mut rows = state.store().presence(&self.rec.id).await?;
        rows.retain(|p| &p.instance != me);
        self.others = rows;
        Ok(())
    }

    /// Tells the store this instance's sockets on a seat.
    async fn write_presence(&self, state: &AppState, c: Color, now: i64) {
        if !self.shares_presence() {
            return;
        }
        let (id, me) = (&self.rec.id, &self.instances.me);
        let sockets = i64::from(self.here[idx(c)]);
        if let Err(e) = state.store().set_presence(id, side(c), me, sockets, now).await {
            tracing::warn!(game = %id, error = %e, "presence not stored");
        }
    }

    fn human_side(&self) -> Option<Color> {
        self.rec.computer_side.map(|s| color(s).opposite())
    }

    /// The side of the player of a game against the computer, when `access` is theirs:
    /// `things` (takebacks, hints) are only for them, to `verb`.
    fn computer_games_player(
        &self,
        access: Access,
        things: &str,
        verb: &str,
    ) -> Result<Color, ApiError> {
        let Some(human) = self.human_side() else {
            return Err(ApiError::Conflict(format!("{things} are for games against the computer")));
        };
        if !access.holds(human) {
            return Err(ApiError::Forbidden(format!("only the player can {verb}")));
        }
        Ok(human)
    }

    fn open(&self) -> Result<(), ApiError> {
        match self.rec.status {
            Status::Playing => Ok(()),
            Status::Waiting => Err(ApiError::Conflict(
                "waiting for your friend to open the invitation link".to_string(),
            )),
            Status::Finished | Status::Aborted => Err(ApiError::Conflict(format!(
                "the game is over: {}",
                self.rec.result_text.as_deref().unwrap_or("it has ended")
            ))),
        }
    }

    /// The side `access` acts for: its seat, or in hot-seat the side to move.
    fn acting(&self, access: Access, what: &str) -> Result<Color, ApiError> {
        match access {
            Access::Spectator => Err(ApiError::Forbidden(format!("spectators cannot {what}"))),
            Access::Seat(c) => Ok(c),
            Access::Both => Ok(self.game.turn()),
        }
    }

    /// Commits `view` (already played on `after`) and takes `after` as the game.
    async fn commit(
        &mut self,
        state: &AppState,
        after: AnyGame,
        view: MoveView,
    ) -> Result<(), ApiError> {
        let end = after.outcome().map(|o| GameEnd {
            status: Status::Finished,
            winner: Some(winner(o.winner)),
            reason: o.reason.to_string(),
            text: o.text,
        });
        let mv = MoveCommit {
            ply: self.moves.len() as i64,
            notation: view.notation.clone(),
            to_move: side(after.turn()),
            end: end.clone(),
        };
        let now = now_ms();
        state.store().push_move(&self.rec.id, &mv, now).await?;
        Metrics::add(&state.0.metrics.moves, 1);
        self.game = after;
        self.moves.push(view.notation.clone());
        self.last = Some(view);
        self.rec.plies = self.moves.len() as i64;
        self.rec.to_move = mv.to_move;
        self.rec.updated_at = now;
        self.rec.draw_offer = None;
        if let Some(end) = end {
            self.ended(end, now);
        }
        Ok(())
    }

    fn ended(&mut self, end: GameEnd, now: i64) {
        self.rec.status = end.status;
        self.rec.winner = end.winner;
        self.rec.reason = Some(end.reason);
        self.rec.result_text = Some(end.text);
        self.rec.finished_at = Some(now);
        self.rec.updated_at = now;
        self.rec.draw_offer = None;
    }

    /// Ends the game as `after` says (it was resigned, drawn or abandoned on a copy).
    async fn finish(&mut self, state: &AppState, after: AnyGame) -> Result<(), ApiError> {
        let Some(o) = after.outcome() else {
            return Err(ApiError::Conflict("the game is not over".to_string()));
        };
        let end = GameEnd {
            status: Status::Finished,
            winner: Some(winner(o.winner)),
            reason: o.reason.to_string(),
            text: o.text,
        };
        let now = now_ms();
        state.store().finish(&self.rec.id, self.rec.plies, &end, now).await?;
        self.game = after;
        self.ended(end, now);
        Ok(())
    }

    async fn play(
        &mut self,
        state: &AppState,
        access: Access,
        input: MoveInput,
    ) -> Result<(), ApiError> {
        if access == Access::Spectator {
            return Err(ApiError::Forbidden("spectators cannot move".to_string()));
        }
        self.open()?;
        let mover = self.game.turn();
        if !access.holds(mover) {
            return Err(ApiError::Conflict(format!("not your turn: {} is to move", mover.name())));
        }
        let mut after = self.game.clone();
        let view = match input {
            MoveInput::Text(t) => after.play(&t),
            MoveInput::Path(p) if p.len() > 64 => {
                return Err(ApiError::BadRequest("a move path has at most 64 squares".into()));
            }
            MoveInput::Path(p) => after.play_path(&p),
        }
        .map_err(|e| ApiError::Illegal(e.to_string()))?;
        self.commit(state, after, view).await
    }

    async fn takeback(&mut self, state: &AppState, access: Access) -> Result<(), ApiError> {
        let human = self.computer_games_player(access, "takebacks", "take back a move")?;
        self.open()?;
        let mut after = self.game.clone();
        let mut keep = self.rec.plies;
        let mut found = false;
        // Back to the player's own last move: the computer's answer (or its move being
        // thought, which is then dropped) goes with it.
        while keep > self.rec.imported && after.undo() {
            keep -= 1;
            if after.turn() == human {
                found = true;
                break;
            }
        }
        if !found {
            return Err(ApiError::Conflict("there is no move of yours to take back".to_string()));
        }
        let now = now_ms();
        let to_move = side(after.turn());
        state.store().truncate(&self.rec.id, self.rec.plies, keep, to_move, now).await?;
        self.moves.truncate(usize::try_from(keep).unwrap_or(0));
        self.last = after.history().pop();
        self.game = after;
        self.rec.plies = keep;
        self.rec.to_move = to_move;
        self.rec.updated_at = now;
        self.rec.draw_offer = None;
        Ok(())
    }

    async fn abort(&mut self, state: &AppState, access: Access) -> Result<(), ApiError> {
        self.acting(access, "abort the game")?;
        if self.rec.status.is_over() {
            return self.open();
        }
        if self.rec.both_moved() {
            return Err(ApiError::Conflict(
                "both sides have moved: resign, offer a draw, or claim the game if your \
                 opponent has left"
                    .to_string(),
            ));
        }
        let end = GameEnd {
            status: Status::Aborted,
            winner: None,
            reason: "aborted".to_string(),
            text: "the game was aborted before both sides moved".to_string(),
        };
        let now = now_ms();
        state.store().finish(&self.rec.id, self.rec.plies, &end, now).await?;
        self.ended(end, now);
        Ok(())
    }

    async fn claim(&mut self, state: &AppState, access: Access) -> Result<(), ApiError> {
        let me = self.acting(access, "claim a game")?;
        if self.rec.mode != Mode::Friend {
            return Err(ApiError::Conflict("only a friend game can be claimed".to_string()));
        }
        self.open()?;
        let them = me.opposite();
        let wait = i64::try_from(state.config().claim_after.as_millis()).unwrap_or(i64::MAX);
        // What the other instances hold now, not what they last notified.
        self.read_presence(state).await?;
        let now = now_ms();
        let away = match self.seat(them, now) {
            Here::AwaySince(since) => now - since,
            Here::Connected => {
                return Err(ApiError::Conflict(
                    "your opponent is connected: the game cannot be claimed".to_string(),
                ));
            }
        };
        if away < wait {
            return Err(ApiError::Conflict(format!(
                "your opponent has been away {} s; the game can be claimed after {} s",
                away / 1000,
                wait / 1000
            )));
        }
        let mut after = self.game.clone();
        after.abandon(me);
        self.finish(state, after).await
    }

    async fn rematch(&mut self, state: &AppState, access: Access) -> Result<(), ApiError> {
        let me = self.acting(access, "ask for a rematch")?;
        if !self.rec.status.is_over() {
            return Err(ApiError::Conflict("the game is not over yet".to_string()));
        }
        if self.rec.rematch.is_some() {
            return Ok(());
        }
        let offer = self.rec.rematch_offer.map(color);
        if self.rec.mode == Mode::Friend && offer != Some(me.opposite()) {
            let (id, new) = (&self.rec.id, Some(side(me)));
            let old = self.rec.rematch_offer;
            state.store().set_offer(id, Offer::Rematch, self.rec.plies, old, new).await?;
            self.rec.rematch_offer = new;
            return Ok(());
        }
        let rec = &self.rec;
        // The rematch starts where this game started being played (after imported moves).
        let (mut start, _) = replay(
            &GameRecord { status: Status::Playing, ..rec.clone() },
            &self.moves[..usize::try_from(rec.imported).unwrap_or(0).min(self.moves.len())],
        )?;
        if start.outcome().is_some() {
            start = AnyGame::from_fen(start.rules(), &rec.start_fen)
                .map_err(|e| ApiError::Corrupt(rec.id.clone(), e.to_string()))?;
        }
        let now = now_ms();
        let next = GameRecord {
            id: new_game_id(),
            computer_side: rec.computer_side.map(Side::opposite),
            creator_side: rec.creator_side.opposite(),
            start_fen: start.fen(),
            white: rec.black.clone(),
            black: rec.white.clone(),
            invite_hash: None,
            seed: state.config().seed.map_or_else(rand::random::<i64>, |s| s as i64),
            status: Status::Playing,
            winner: None,
            reason: None,
            result_text: None,
            plies: 0,
            imported: 0,
            to_move: side(start.turn()),
            rematch_of: Some(rec.id.clone()),
            rematch: None,
            created_at: now,
            updated_at: now,
            finished_at: None,
            draw_offer: None,
            rematch_offer: None,
            hints: 0,
            ..rec.clone()
        };
        state.store().create_game(&next, &[]).await?;
        Metrics::add(&state.0.metrics.games_created, 1);
        if !state.store().set_rematch(&rec.id, &next.id).await? {
            return Err(StoreError::Conflict.into());
        }
        self.rec.rematch = Some(next.id.clone());
        self.rec.rematch_offer = None;
        // Load it now, so the computer starts thinking if it has the first move.
        let id = next.id;
        let st = state.clone();
        tokio::spawn(async move {
            if let Err(e) = st.0.rooms.get(&st, &id).await {
                tracing::warn!(game = %id, error = %e, "rematch not loaded");
            }
        });
        Ok(())
    }
}

/// A room: one game and the sockets watching it.
#[derive(Debug)]
pub struct Room {
    pub id: String,
    live: Mutex<Live>,
    tx: broadcast::Sender<Arc<str>>,
}

impl Room {
    fn new(live: Live) -> Room {
        let (tx, _) = broadcast::channel(64);
        Room { id: live.rec.id.clone(), live: Mutex::new(live), tx }
    }

    /// The game, locked.
    pub async fn lock(&self) -> MutexGuard<'_, Live> {
        self.live.lock().await
    }

    /// The states broadcast from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.tx.subscribe()
    }

    /// Tells every socket the new state.
    fn publish(&self, state: &AppState, live: &mut Live) {
        live.version += 1;
        let json = view::state_json(live, state.config(), None);
        let _ = self.tx.send(Arc::from(json));
    }

    /// Does what a player asks, commits it, tells everyone. When another instance changed the
    /// game first, the game is read again and the request tried once more on what it now is.
    pub async fn act(
        self: &Arc<Self>,
        state: &AppState,
        access: Access,
        action: Action,
    ) -> Result<(), ApiError> {
        let mut live = self.live.lock().await;
        self.fresh(state, &mut live).await?;
        let mut result = self.run(state, &mut live, access, action.clone()).await;
        if let Err(ApiError::Store(StoreError::Conflict)) = result {
            self.reload(state, &mut live).await?;
            result = self.run(state, &mut live, access, action).await;
        }
        match result {
            Ok(()) => {
                self.publish(state, &mut live);
                self.schedule(state, &mut live);
                Ok(())
            }
            Err(ApiError::Store(StoreError::Conflict)) => {
                // Changed again meanwhile: show what it is now.
                self.reload(state, &mut live).await?;
                Err(ApiError::Conflict(
                    "the game changed meanwhile; it is shown as it is now: try again".to_string(),
                ))
            }
            Err(e) => Err(e),
        }
    }

    async fn run(
        &self,
        state: &AppState,
        live: &mut Live,
        access: Access,
        action: Action,
    ) -> Result<(), ApiError> {
        match action {
            Action::Move(m) => live.play(state, access, m).await,
            Action::Resign => match (live.acting(access, "resign"), live.rec.status) {
                (Err(e), _) => Err(e),
                (Ok(_), Status::Waiting) => Err(ApiError::Conflict(
                    "nobody has taken the other seat yet: abort the game instead".to_string(),
                )),
                // Before both sides moved a game ends without a result (it counts for nobody).
                (Ok(_), Status::Playing) if !live.rec.both_moved() => Err(ApiError::Conflict(
                    "a game can be resigned once each side has moved: abort the game instead \
                     (it then counts for nobody)"
                        .to_string(),
                )),
                (Ok(me), _) => match live.open() {
                    Err(e) => Err(e),
                    Ok(()) => {
                        let mut after = live.game.clone();
                        after.resign(me);
                        live.finish(state, after).await
                    }
                },
            },
            Action::DrawOffer | Action::DrawAccept | Action::DrawDecline => {
                draw(state, live, access, action).await
            }
            Action::Takeback => live.takeback(state, access).await,
            Action::Rematch => live.rematch(state, access).await,
            Action::Abort => live.abort(state, access).await,
            Action::ClaimWin => live.claim(state, access).await,
        }
    }

    /// Reads the game again if it may have missed another instance's change (the store's
    /// notifications were cut since it was read).
    async fn fresh(&self, state: &AppState, live: &mut Live) -> Result<(), ApiError> {
        if live.epoch != state.0.rooms.epoch() {
            self.reload(state, live).await?;
        }
        Ok(())
    }

    /// The engine's best move for the player of a game against the computer, whose turn it
    /// is (answered to the asker only, as `{"type": "hint", "move", "path", "hints"}`); the
    /// hint is counted in the game, which the results screen and the stats then show.
    pub async fn hint(
        self: &Arc<Self>,
        state: &AppState,
        access: Access,
    ) -> Result<serde_json::Value, ApiError> {
        let (game, version, plies) = {
            let mut live = self.live.lock().await;
            self.fresh(state, &mut live).await?;
            let human = live.computer_games_player(access, "hints", "ask for a hint")?;
            live.open()?;
            if live.game.turn() != human {
                return Err(ApiError::Conflict(
                    "a hint is for your own move: wait for the computer's".to_string(),
                ));
            }
            (live.game.clone(), live.version, live.rec.plies)
        };
        let nodes = state.config().review_nodes;
        state.0.computer.idle().await;
        let chosen = tokio::task::spawn_blocking(move || {
            let mut searcher = doska_engine::Searcher::new(16, doska_engine::Terms::ALL);
            let limits = doska_engine::Limits { depth: None, nodes: Some(nodes), movetime: None };
            let best = doska_engine::analyze(&mut searcher, &game, limits, |_| {}).best;
            best.and_then(|b| game.legal_moves().into_iter().find(|m| m.notation == b))
        })
        .await
        .map_err(|e| ApiError::Corrupt(self.id.clone(), format!("hint task: {e}")))?;
        let Some(best) = chosen else {
            return Err(ApiError::Conflict("there is no move to hint at".to_string()));
        };
        let mut live = self.live.lock().await;
        if live.version != version || live.rec.plies != plies {
            return Err(ApiError::Conflict("the game changed meanwhile: ask again".to_string()));
        }
        let hints = state.store().add_hint(&self.id, plies).await?;
        live.rec.hints = hints;
        self.publish(state, &mut live);
        Ok(serde_json::json!({
            "type": "hint",
            "move": best.notation,
            "path": best.path,
            "hints": hints,
        }))
    }

    /// Takes the other seat of a friend game with its invitation.
    pub async fn take_seat(
        self: &Arc<Self>,
        state: &AppState,
        player: &str,
        invite: &str,
    ) -> Result<(Color, Option<String>), ApiError> {
        let mut live = self.live.lock().await;
        let rec = &live.rec;
        if rec.mode != Mode::Friend {
            return Err(ApiError::BadRequest("only friend games have invitations".to_string()));
        }
        if rec.invite_hash.as_deref() != Some(digest(invite).as_str()) {
            return Err(ApiError::Forbidden(
                "this invitation is not valid for this game: ask your friend for the link again"
                    .to_string(),
            ));
        }
        for s in [Side::White, Side::Black] {
            if rec.seat(s).player.as_deref() == Some(player) {
                // Opening the link again from the same browser: the cookie holds the seat.
                return Ok((color(s), None));
            }
        }
        let Some(free) =
            [Side::White, Side::Black].into_iter().find(|s| rec.seat(*s).player.is_none())
        else {
            return Err(ApiError::Conflict(
                "the other seat is taken: you can watch this game".to_string(),
            ));
        };
        let token = secret();
        let hash = digest(&token);
        let now = now_ms();
        state.store().touch_player(player, now).await?;
        if !state.store().take_seat(&self.id, free, player, &hash, now).await? {
            self.reload(state, &mut live).await?;
            return Err(ApiError::Conflict(
                "the other seat was just taken: you can watch this game".to_string(),
            ));
        }
        let seat = Seat { player: Some(player.to_string()), token_hash: Some(hash) };
        match free {
            Side::White => live.rec.white = seat,
            Side::Black => live.rec.black = seat,
        }
        live.rec.status = Status::Playing;
        live.rec.updated_at = now;
        live.left_at[idx(color(free))] = Some(now);
        self.publish(state, &mut live);
        Ok((color(free), Some(token)))
    }

    /// A socket of `access` arrived.
    pub async fn join(self: &Arc<Self>, state: &AppState, access: Access) {
        let mut live = self.live.lock().await;
        if let Err(e) = self.fresh(state, &mut live).await {
            tracing::warn!(game = %self.id, error = %e, "reload on join");
        }
        let now = now_ms();
        for c in access.seats() {
            live.here[idx(c)] += 1;
            if live.here[idx(c)] == 1 {
                live.write_presence(state, c, now).await;
            }
        }
        if access != Access::Spectator {
            self.publish(state, &mut live);
        }
        self.schedule(state, &mut live);
    }

    /// A socket of `access` left.
    pub async fn leave(self: &Arc<Self>, state: &AppState, access: Access) {
        let mut live = self.live.lock().await;
        let now = now_ms();
        for c in access.seats() {
            let n = &mut live.here[idx(c)];
            *n = n.saturating_sub(1);
            if *n == 0 {
                live.left_at[idx(c)] = Some(now);
                live.write_presence(state, c, now).await;
            }
        }
        if access != Access::Spectator {
            self.publish(state, &mut live);
        }
    }

    /// Reads the game again from the store (another instance changed it).
    async fn reload(&self, state: &AppState, live: &mut Live) -> Result<(), ApiError> {
        let epoch = state.0.rooms.epoch();
        let Some((rec, moves)) = state.store().game(&self.id).await? else {
            return Err(ApiError::NoGame(self.id.clone()));
        };
        let fresh = Live::build(rec, moves, live.instances.clone(), epoch)?;
        live.rec = fresh.rec;
        live.game = fresh.game;
        live.moves = fresh.moves;
        live.last = fresh.last;
        live.read_presence(state).await?;
        live.epoch = epoch;
        self.publish(state, live);
        Ok(())
    }

    /// Starts the computer thinking if it is to move.
    fn schedule(self: &Arc<Self>, state: &AppState, live: &mut Live) {
        let rec = &live.rec;
        let (Some(computer), Some(level)) = (rec.computer_side, rec.level) else {
            return;
        };
        if rec.status != Status::Playing
            || live.thinking
            || side(live.game.turn()) != computer
            || live.game.outcome().is_some()
        {
            return;
        }
        live.thinking = true;
        let version = live.version;
        let game = live.game.clone();
        // A different seed for every ply of every game, the same after a restart.
        let seed = (rec.seed as u64) ^ (rec.plies as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let room = self.clone();
        let state = state.clone();
        // The computer's time is shared fairly between players: this game's is its creator's.
        // Its place is taken now, so the creator's games waiting count it before the reply.
        let ticket = state.0.computer.ticket(&rec.creator);
        tokio::spawn(async move {
            let chosen = state.0.computer.choose(ticket, game, level, seed).await;
            room.computer_moved(&state, version, chosen, level).await;
        });
    }

    async fn computer_moved(
        self: &Arc<Self>,
        state: &AppState,
        version: u64,
        chosen: Option<String>,
        level: Level,
    ) {
        let mut live = self.live.lock().await;
        live.thinking = false;
        if live.version != version {
            // The game changed while the computer thought (a takeback): think again.
            self.schedule(state, &mut live);
            return;
        }
        let Some(text) = chosen else {
            tracing::error!(game = %self.id, "the computer found no move");
            return;
        };
        let mut after = live.game.clone();
        let view = match after.play(&text) {
            Ok(v) => v,
            Err(e) => {
                tracing::error!(game = %self.id, %level, move = %text, error = %e, "the computer chose an illegal move");
                return;
            }
        };
        match live.commit(state, after, view).await {
            Ok(()) => {
                self.publish(state, &mut live);
                self.schedule(state, &mut live);
            }
            Err(ApiError::Store(StoreError::Conflict)) => {
                if let Err(e) = self.reload(state, &mut live).await {
                    tracing::error!(game = %self.id, error = %e, "reload");
                }
                self.schedule(state, &mut live);
            }
            // The move is not lost for good: the game is still the computer's to move, and
            // the next socket to connect or the next start of the server tries again.
            Err(e) => tracing::error!(game = %self.id, error = %e, "computer move not saved"),
        }
    }
}

async fn draw(
    state: &AppState,
    live: &mut Live,
    access: Access,
    action: Action,
) -> Result<(), ApiError> {
    let me = live.acting(access, "offer or accept draws")?;
    if live.rec.mode == Mode::Computer {
        return Err(ApiError::Conflict("the computer does not take draw offers".to_string()));
    }
    live.open()?;
    // In hot-seat one device answers for both sides: the offer is the other side's.
    let offer = live.rec.draw_offer.map(color);
    let offered_to_me = match (offer, access) {
        (Some(by), Access::Both) => Some(by),
        (Some(by), _) if by != me => Some(by),
        _ => None,
    };
    match (action, offered_to_me) {
        (Action::DrawAccept, Some(_)) | (Action::DrawOffer, Some(_)) => {
            let mut after = live.game.clone();
            after.agree_draw();
            live.finish(state, after).await
        }
        (Action::DrawOffer, None) => set_draw_offer(state, live, Some(side(me))).await,
        (Action::DrawDecline, Some(_)) => set_draw_offer(state, live, None).await,
        _ => Err(ApiError::Conflict("there is no draw offer to answer".to_string())),
    }
}

/// Puts a draw offer on the table or takes it off, where every instance sees it.
async fn set_draw_offer(
    state: &AppState,
    live: &mut Live,
    new: Option<Side>,
) -> Result<(), ApiError> {
    let (id, plies, old) = (&live.rec.id, live.rec.plies, live.rec.draw_offer);
    state.store().set_offer(id, Offer::Draw, plies, old, new).await?;
    live.rec.draw_offer = new;
    Ok(())
}

/// A new public game id: 10 letters and digits (about 59 bits; the secrets are elsewhere).
pub fn new_game_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    (0..10).map(|_| char::from(ALPHABET[rand::random_range(0..ALPHABET.len())])).collect()
}

fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 32 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The rooms in memory.
#[derive(Debug)]
pub struct Rooms {
    map: std::sync::Mutex<HashMap<String, Arc<Room>>>,
    /// Bumped whenever the store's notifications were cut: a room read in an older epoch is
    /// read again before it serves anyone.
    epoch: AtomicU64,
    /// The server instances sharing the store.
    pub instances: Arc<Instances>,
}

impl Rooms {
    /// No rooms yet; this instance beats every `every`.
    pub fn new(every: Duration) -> Rooms {
        Rooms {
            map: std::sync::Mutex::default(),
            epoch: AtomicU64::new(0),
            instances: Arc::new(Instances::new(every)),
        }
    }

    fn epoch(&self) -> u64 {
        self.epoch.load(Ordering::SeqCst)
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Room>>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Rooms in memory.
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// The room of a game, if in memory.
    pub fn loaded(&self, id: &str) -> Option<Arc<Room>> {
        self.map().get(id).cloned()
    }

    /// Every room in memory.
    pub fn all(&self) -> Vec<Arc<Room>> {
        self.map().values().cloned().collect()
    }

    /// The room of a game, loaded from the store if needed.
    pub async fn get(&self, state: &AppState, id: &str) -> Result<Arc<Room>, ApiError> {
        if let Some(room) = self.loaded(id) {
            return Ok(room);
        }
        if !valid_id(id) {
            return Err(ApiError::NoGame(id.to_string()));
        }
        let epoch = self.epoch();
        let Some((rec, moves)) = state.store().game(id).await? else {
            return Err(ApiError::NoGame(id.to_string()));
        };
        let mut live = Live::build(rec, moves, self.instances.clone(), epoch)?;
        live.read_presence(state).await?;
        let room = Arc::new(Room::new(live));
        let room = self.map().entry(id.to_string()).or_insert(room).clone();
        let mut live = room.lock().await;
        room.schedule(state, &mut live);
        drop(live);
        Ok(room)
    }
}

/// Makes the computer moves that were pending when the server last stopped.
pub async fn resume(state: AppState) {
    match state.store().pending_computer_games().await {
        Ok(ids) => {
            if !ids.is_empty() {
                tracing::info!(games = ids.len(), "resuming computer moves");
            }
            for id in ids {
                if let Err(e) = state.0.rooms.get(&state, &id).await {
                    tracing::error!(game = %id, error = %e, "cannot resume");
                }
            }
        }
        Err(e) => tracing::error!(error = %e, "cannot list pending computer games"),
    }
}

/// Drops rooms nobody holds (no socket, no computer thinking) once a minute.
pub async fn sweep(state: AppState) {
    loop {
        tokio::time::sleep(Duration::from_secs(60)).await;
        state.0.rooms.map().retain(|_, room| Arc::strong_count(room) > 1);
    }
}

/// Reloads the rooms other instances changed (PostgreSQL notifications).
pub async fn follow(state: AppState, mut changes: tokio::sync::mpsc::Receiver<String>) {
    while let Some(id) = changes.recv().await {
        let rooms = if id == doska_store::EVERYTHING_CHANGED {
            // Changes may have been missed: no room serves anyone before it is read again.
            state.0.rooms.epoch.fetch_add(1, Ordering::SeqCst);
            state.0.rooms.all()
        } else {
            state.0.rooms.loaded(&id).into_iter().collect()
        };
        for room in rooms {
            let mut live = room.lock().await;
            if let Err(e) = room.reload(&state, &mut live).await {
                tracing::warn!(game = %room.id, error = %e, "reload after notification");
            }
            room.schedule(&state, &mut live);
        }
    }
}

/// Says every few seconds that this instance is alive, and learns which others are: a friend
/// game whose opponent's instance has just died is shown with that seat away. Once an hour,
/// forgets the instances and presence rows not heard from for a day.
pub async fn beat(state: AppState) {
    let instances = state.0.rooms.instances.clone();
    let mut tick = tokio::time::interval(instances.every);
    let mut forgot = 0;
    let mut before = now_ms();
    loop {
        tick.tick().await;
        let now = now_ms();
        let seen = match state.store().beat(&instances.me, now).await {
            Ok(seen) => seen,
            Err(e) => {
                tracing::warn!(error = %e, "instance heartbeat");
                continue;
            }
        };
        // Dead now, alive at the previous beat: its sockets have just been lost.
        let died: Vec<String> = seen
            .iter()
            .filter(|(_, at)| instances.alive_then(*at, before) && !instances.alive_then(*at, now))
            .map(|(id, _)| id.clone())
            .collect();
        *instances.seen() = seen.into_iter().collect();
        instances.checked.store(now, Ordering::SeqCst);
        before = now;
        if !died.is_empty() {
            for room in state.0.rooms.all() {
                let mut live = room.lock().await;
                if live.others.iter().any(|p| p.sockets > 0 && died.contains(&p.instance)) {
                    room.publish(&state, &mut live);
                }
            }
        }
        if now - forgot > 3_600_000 {
            forgot = now;
            if let Err(e) = state.store().forget_presence(now - 86_400_000).await {
                tracing::warn!(error = %e, "forgetting old presence");
            }
        }
    }
}
