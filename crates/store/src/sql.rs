//! The SQL both backends run, written once: `impl_store!` implements [`crate::Store`] for a
//! backend type with a `pool` field and a `changed(&self, id)` method (PostgreSQL notifies
//! the other instances there). Every value is bound as a parameter; no SQL is built from input.

/// The columns of `games`, in the order `read_game` reads them.
pub(crate) const GAME_COLUMNS: &str = "id, rules, mode, level, computer_side, creator, \
    creator_side, start_fen, white_player, black_player, white_token, black_token, \
    invite_token, seed, status, winner, reason, result_text, plies, imported, to_move, rematch_of, \
    rematch, created_at, updated_at, finished_at, draw_offer, rematch_offer, hints";

/// The counter shard of a game: writers of different games mostly touch different rows.
pub(crate) fn shard(id: &str) -> i64 {
    i64::from(id.bytes().fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b))) % 16)
}

pub(crate) fn parse<T: std::str::FromStr>(
    column: &'static str,
    value: String,
) -> Result<T, crate::StoreError> {
    value.parse().map_err(|_| crate::StoreError::Corrupt { column, value })
}

pub(crate) fn parse_opt<T: std::str::FromStr>(
    column: &'static str,
    value: Option<String>,
) -> Result<Option<T>, crate::StoreError> {
    value.map(|v| parse(column, v)).transpose()
}

macro_rules! impl_store {
    ($store:ty, $db:ty) => {
        use crate::sql::{GAME_COLUMNS, parse, parse_opt};
        use crate::stats::{ResultRow, SiteRow};
        use crate::batch::MoveJob;
        use crate::{
            Counts, GameEnd, GameRecord, MoveCommit, Offer, Presence, Seat, Side, Store,
            StoreError, StoreResult,
        };
        use sqlx::Row;

        type DbRow = <$db as sqlx::Database>::Row;

        fn read_game(row: &DbRow) -> StoreResult<GameRecord> {
            Ok(GameRecord {
                id: row.try_get("id")?,
                rules: row.try_get("rules")?,
                mode: parse("mode", row.try_get("mode")?)?,
                level: parse_opt("level", row.try_get("level")?)?,
                computer_side: parse_opt("computer_side", row.try_get("computer_side")?)?,
                creator: row.try_get("creator")?,
                creator_side: parse("creator_side", row.try_get("creator_side")?)?,
                start_fen: row.try_get("start_fen")?,
                white: Seat {
                    player: row.try_get("white_player")?,
                    token_hash: row.try_get("white_token")?,
                },
                black: Seat {
                    player: row.try_get("black_player")?,
                    token_hash: row.try_get("black_token")?,
                },
                invite_hash: row.try_get("invite_token")?,
                seed: row.try_get("seed")?,
                status: parse("status", row.try_get("status")?)?,
                winner: parse_opt("winner", row.try_get("winner")?)?,
                reason: row.try_get("reason")?,
                result_text: row.try_get("result_text")?,
                plies: row.try_get("plies")?,
                imported: row.try_get("imported")?,
                to_move: parse("to_move", row.try_get("to_move")?)?,
                rematch_of: row.try_get("rematch_of")?,
                rematch: row.try_get("rematch")?,
                created_at: row.try_get("created_at")?,
                updated_at: row.try_get("updated_at")?,
                finished_at: row.try_get("finished_at")?,
                draw_offer: parse_opt("draw_offer", row.try_get("draw_offer")?)?,
                rematch_offer: parse_opt("rematch_offer", row.try_get("rematch_offer")?)?,
                hints: row.try_get("hints")?,
            })
        }

        /// Site result rows: `rules`, `winner`, `n`.
        fn read_site(rows: &[DbRow]) -> StoreResult<Vec<SiteRow>> {
            rows.iter()
                .map(|r| {
                        Ok(SiteRow {
                            rules: r.try_get("rules")?,
                            winner: parse("winner", r.try_get("winner")?)?,
                            games: r.try_get("n")?,
                        })
                    })
                .collect()
        }

        fn opt_str<T: std::fmt::Display>(v: Option<T>) -> Option<String> {
            v.map(|v| v.to_string())
        }

        #[async_trait::async_trait]
        impl Store for $store {
            async fn ping(&self) -> StoreResult<()> {
                sqlx::query("SELECT 1").execute(&self.pool).await?;
                Ok(())
            }

            async fn touch_player(&self, id: &str, now: i64) -> StoreResult<()> {
                sqlx::query(
                    "INSERT INTO players (id, created_at, last_seen) VALUES ($1, $2, $2) \
                     ON CONFLICT (id) DO UPDATE SET last_seen = $2",
                )
                .bind(id)
                .bind(now)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn setting_or_insert(&self, key: &str, default: &str) -> StoreResult<String> {
                sqlx::query(
                    "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
                )
                .bind(key)
                .bind(default)
                .execute(&self.pool)
                .await?;
                let row = sqlx::query("SELECT value FROM settings WHERE key = $1")
                    .bind(key)
                    .fetch_one(&self.pool)
                    .await?;
                Ok(row.try_get("value")?)
            }

            async fn create_game(&self, g: &GameRecord, moves: &[String]) -> StoreResult<()> {
                let mut tx = self.pool.begin().await?;
                let sql = format!(
                    "INSERT INTO games ({GAME_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, \
                     $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, \
                     $24, $25, $26, $27, $28, $29)"
                );
                sqlx::query(&sql)
                    .bind(&g.id)
                    .bind(&g.rules)
                    .bind(g.mode.as_str())
                    .bind(opt_str(g.level))
                    .bind(opt_str(g.computer_side))
                    .bind(&g.creator)
                    .bind(g.creator_side.as_str())
                    .bind(&g.start_fen)
                    .bind(&g.white.player)
                    .bind(&g.black.player)
                    .bind(&g.white.token_hash)
                    .bind(&g.black.token_hash)
                    .bind(&g.invite_hash)
                    .bind(g.seed)
                    .bind(g.status.as_str())
                    .bind(opt_str(g.winner))
                    .bind(&g.reason)
                    .bind(&g.result_text)
                    .bind(moves.len() as i64)
                    .bind(moves.len() as i64)
                    .bind(g.to_move.as_str())
                    .bind(&g.rematch_of)
                    .bind(&g.rematch)
                    .bind(g.created_at)
                    .bind(g.updated_at)
                    .bind(g.finished_at)
                    .bind(opt_str(g.draw_offer))
                    .bind(opt_str(g.rematch_offer))
                    .bind(g.hints)
                    .execute(&mut *tx)
                    .await?;
                for (ply, notation) in moves.iter().enumerate() {
                    sqlx::query(
                        "INSERT INTO moves (game_id, ply, notation, created_at) \
                         VALUES ($1, $2, $3, $4)",
                    )
                    .bind(&g.id)
                    .bind(ply as i64)
                    .bind(notation)
                    .bind(g.created_at)
                    .execute(&mut *tx)
                    .await?;
                }
                if g.status.is_over() {
                    // A whole game brought in as it ended: counted as ended.
                    count(&mut tx, "closed_games", &g.id, 1).await?;
                    if let (crate::Status::Finished, Some(w)) = (g.status, g.winner) {
                        count_result(&mut tx, &g.rules, w).await?;
                    }
                } else {
                    count(&mut tx, "open_games", &g.id, 1).await?;
                }
                count(&mut tx, "moves", &g.id, moves.len() as i64).await?;
                tx.commit().await?;
                Ok(())
            }

            async fn game(&self, id: &str) -> StoreResult<Option<(GameRecord, Vec<String>)>> {
                let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
                let Some(row) = sqlx::query(&sql).bind(id).fetch_optional(&self.pool).await?
                else {
                    return Ok(None);
                };
                let game = read_game(&row)?;
                let rows =
                    sqlx::query("SELECT notation FROM moves WHERE game_id = $1 ORDER BY ply")
                        .bind(id)
                        .fetch_all(&self.pool)
                        .await?;
                let moves =
                    rows.iter().map(|r| r.try_get("notation")).collect::<Result<Vec<_>, _>>()?;
                Ok(Some((game, moves)))
            }

            async fn take_seat(
                &self,
                id: &str,
                side: Side,
                player: &str,
                token_hash: &str,
                now: i64,
            ) -> StoreResult<bool> {
                let sql = match side {
                    Side::White => {
                        "UPDATE games SET white_player = $1, white_token = $2, \
                         status = 'playing', updated_at = $3 \
                         WHERE id = $4 AND white_player IS NULL AND status = 'waiting'"
                    }
                    Side::Black => {
                        "UPDATE games SET black_player = $1, black_token = $2, \
                         status = 'playing', updated_at = $3 \
                         WHERE id = $4 AND black_player IS NULL AND status = 'waiting'"
                    }
                };
                let done = sqlx::query(sql)
                    .bind(player)
                    .bind(token_hash)
                    .bind(now)
                    .bind(id)
                    .execute(&self.pool)
                    .await?
                    .rows_affected()
                    == 1;
                if done {
                    self.changed(id).await?;
                }
                Ok(done)
            }

            async fn push_move(&self, id: &str, mv: &MoveCommit, now: i64) -> StoreResult<()> {
                match &self.writer {
                    Some(w) => w.push(id, mv, now).await,
                    None => {
                        let (done, answer) = tokio::sync::oneshot::channel();
                        let job = MoveJob { id: id.to_string(), mv: mv.clone(), now, done };
                        self.write_moves(vec![job]).await;
                        answer.await.map_err(|_| StoreError::Closed)?
                    }
                }
            }

            async fn truncate(
                &self,
                id: &str,
                expected: i64,
                keep: i64,
                to_move: Side,
                now: i64,
            ) -> StoreResult<()> {
                let mut tx = self.pool.begin().await?;
                let updated = sqlx::query(
                    "UPDATE games SET plies = $1, to_move = $2, updated_at = $3, draw_offer = NULL \
                     WHERE id = $4 AND plies = $5 AND status = 'playing'",
                )
                .bind(keep)
                .bind(to_move.as_str())
                .bind(now)
                .bind(id)
                .bind(expected)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                if updated != 1 {
                    return Err(StoreError::Conflict);
                }
                let removed = sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                    .bind(id)
                    .bind(keep)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                count(&mut tx, "moves", id, -(removed as i64)).await?;
                tx.commit().await?;
                self.changed(id).await
            }

            async fn finish(
                &self,
                id: &str,
                expected: i64,
                end: &GameEnd,
                now: i64,
            ) -> StoreResult<()> {
                // The conditional write comes first in the transaction: a read first would open
                // a snapshot that SQLite's WAL refuses to upgrade when another writer committed
                // in between.
                let mut tx = self.pool.begin().await?;
                end_game(&mut tx, id, end, now, Some(expected)).await?;
                tx.commit().await?;
                self.changed(id).await
            }

            async fn set_rematch(&self, id: &str, rematch: &str) -> StoreResult<bool> {
                let done = sqlx::query(
                    "UPDATE games SET rematch = $1, rematch_offer = NULL \
                     WHERE id = $2 AND rematch IS NULL",
                )
                .bind(rematch)
                .bind(id)
                .execute(&self.pool)
                .await?
                .rows_affected()
                    == 1;
                if done {
                    self.changed(id).await?;
                }
                Ok(done)
            }

            async fn set_offer(
                &self,
                id: &str,
                offer: Offer,
                expected: i64,
                old: Option<Side>,
                new: Option<Side>,
            ) -> StoreResult<()> {
                let old = old.map_or("", |s| s.as_str());
                let query = match offer {
                    Offer::Draw => sqlx::query(
                        "UPDATE games SET draw_offer = $1 WHERE id = $2 AND status = 'playing' \
                         AND plies = $3 AND COALESCE(draw_offer, '') = $4",
                    )
                    .bind(opt_str(new))
                    .bind(id)
                    .bind(expected)
                    .bind(old),
                    Offer::Rematch => sqlx::query(
                        "UPDATE games SET rematch_offer = $1 WHERE id = $2 \
                         AND status IN ('finished', 'aborted') AND rematch IS NULL \
                         AND COALESCE(rematch_offer, '') = $3",
                    )
                    .bind(opt_str(new))
                    .bind(id)
                    .bind(old),
                };
                if query.execute(&self.pool).await?.rows_affected() != 1 {
                    return Err(StoreError::Conflict);
                }
                self.changed(id).await
            }

            async fn set_presence(
                &self,
                id: &str,
                side: Side,
                instance: &str,
                sockets: i64,
                now: i64,
            ) -> StoreResult<()> {
                sqlx::query(
                    "INSERT INTO presence (game_id, side, instance, sockets, seen_at) \
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, side, instance) \
                     DO UPDATE SET sockets = excluded.sockets, seen_at = excluded.seen_at",
                )
                .bind(id)
                .bind(side.as_str())
                .bind(instance)
                .bind(sockets)
                .bind(now)
                .execute(&self.pool)
                .await?;
                self.changed(id).await
            }

            async fn presence(&self, id: &str) -> StoreResult<Vec<Presence>> {
                let rows = sqlx::query(
                    "SELECT p.side, p.instance, p.sockets, p.seen_at, \
                     COALESCE(i.seen_at, 0) AS alive_at \
                     FROM presence p LEFT JOIN instances i ON i.id = p.instance \
                     WHERE p.game_id = $1 ORDER BY p.side, p.instance",
                )
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| {
                        Ok(Presence {
                            side: parse("side", r.try_get("side")?)?,
                            instance: r.try_get("instance")?,
                            sockets: r.try_get("sockets")?,
                            seen_at: r.try_get("seen_at")?,
                            alive_at: r.try_get("alive_at")?,
                        })
                    })
                    .collect()
            }

            async fn beat(&self, instance: &str, now: i64) -> StoreResult<Vec<(String, i64)>> {
                sqlx::query(
                    "INSERT INTO instances (id, seen_at) VALUES ($1, $2) \
                     ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at",
                )
                .bind(instance)
                .bind(now)
                .execute(&self.pool)
                .await?;
                let rows = sqlx::query("SELECT id, seen_at FROM instances")
                    .fetch_all(&self.pool)
                    .await?;
                rows.iter()
                    .map(|r| Ok((r.try_get("id")?, r.try_get("seen_at")?)))
                    .collect()
            }

            async fn forget_presence(&self, before: i64) -> StoreResult<()> {
                sqlx::query(
                    "DELETE FROM presence WHERE seen_at < $1 AND (sockets = 0 OR NOT EXISTS \
                     (SELECT 1 FROM instances i WHERE i.id = presence.instance \
                      AND i.seen_at >= $1))",
                )
                .bind(before)
                .execute(&self.pool)
                .await?;
                sqlx::query("DELETE FROM instances WHERE seen_at < $1")
                    .bind(before)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn add_hint(&self, id: &str, expected: i64) -> StoreResult<i64> {
                let hints: Option<i64> = sqlx::query_scalar(
                    "UPDATE games SET hints = hints + 1 \
                     WHERE id = $1 AND plies = $2 AND status = 'playing' RETURNING hints",
                )
                .bind(id)
                .bind(expected)
                .fetch_optional(&self.pool)
                .await?;
                let hints = hints.ok_or(StoreError::Conflict)?;
                self.changed(id).await?;
                Ok(hints)
            }

            async fn review(&self, id: &str) -> StoreResult<Option<String>> {
                let body = sqlx::query_scalar("SELECT body FROM reviews WHERE game_id = $1")
                    .bind(id)
                    .fetch_optional(&self.pool)
                    .await?;
                Ok(body)
            }

            async fn save_review(
                &self,
                id: &str,
                nodes: i64,
                body: &str,
                now: i64,
            ) -> StoreResult<()> {
                sqlx::query(
                    "INSERT INTO reviews (game_id, nodes, body, created_at) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (game_id) DO NOTHING",
                )
                .bind(id)
                .bind(nodes)
                .bind(body)
                .bind(now)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn hide(&self, player: &str, id: &str) -> StoreResult<()> {
                sqlx::query(
                    "INSERT INTO hidden_games (player_id, game_id) VALUES ($1, $2) \
                     ON CONFLICT (player_id, game_id) DO NOTHING",
                )
                .bind(player)
                .bind(id)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn player_games(
                &self,
                player: &str,
                finished: bool,
                limit: i64,
            ) -> StoreResult<Vec<GameRecord>> {
                let statuses = if finished {
                    "('finished', 'aborted')"
                } else {
                    "('waiting', 'playing')"
                };
                let sql = format!(
                    "SELECT {GAME_COLUMNS} FROM games g \
                     WHERE g.id IN (SELECT id FROM games WHERE white_player = $1 \
                                    UNION SELECT id FROM games WHERE black_player = $1) \
                     AND g.status IN {statuses} \
                     AND NOT EXISTS (SELECT 1 FROM hidden_games h \
                                     WHERE h.player_id = $1 AND h.game_id = g.id) \
                     ORDER BY g.updated_at DESC, g.id LIMIT $2"
                );
                let rows =
                    sqlx::query(&sql).bind(player).bind(limit).fetch_all(&self.pool).await?;
                rows.iter().map(read_game).collect()
            }

            async fn pending_computer_games(&self) -> StoreResult<Vec<String>> {
                let rows = sqlx::query(
                    "SELECT id FROM games WHERE status = 'playing' AND mode = 'computer' \
                     AND to_move = computer_side",
                )
                .fetch_all(&self.pool)
                .await?;
                Ok(rows.iter().map(|r| r.try_get("id")).collect::<Result<Vec<_>, _>>()?)
            }

            async fn player_results(&self, player: &str) -> StoreResult<Vec<ResultRow>> {
                let rows = sqlx::query(
                    "SELECT rules, mode, level, creator_side, white_player, winner, hints \
                     FROM games \
                     WHERE status = 'finished' \
                     AND id IN (SELECT id FROM games WHERE white_player = $1 \
                                UNION SELECT id FROM games WHERE black_player = $1) \
                     ORDER BY finished_at, id",
                )
                .bind(player)
                .fetch_all(&self.pool)
                .await?;
                let mut out = Vec::with_capacity(rows.len());
                for r in &rows {
                    let mode: crate::Mode = parse("mode", r.try_get("mode")?)?;
                    let level: Option<crate::Level> = parse_opt("level", r.try_get("level")?)?;
                    let Some(winner) = parse_opt("winner", r.try_get("winner")?)? else {
                        continue;
                    };
                    let white: Option<String> = r.try_get("white_player")?;
                    let side = match mode {
                        crate::Mode::Hotseat => parse("creator_side", r.try_get("creator_side")?)?,
                        _ if white.as_deref() == Some(player) => Side::White,
                        _ => Side::Black,
                    };
                    let bucket = match (mode, level) {
                        (crate::Mode::Computer, Some(l)) => format!("computer:{l}"),
                        (m, _) => m.to_string(),
                    };
                    let hints: i64 = r.try_get("hints")?;
                    out.push(ResultRow {
                        rules: r.try_get("rules")?,
                        bucket,
                        side,
                        winner,
                        hinted: hints > 0,
                    });
                }
                Ok(out)
            }

            async fn site_results(&self) -> StoreResult<Vec<SiteRow>> {
                let rows = sqlx::query(
                    "SELECT rules, winner, games AS n FROM site_results WHERE games > 0",
                )
                .fetch_all(&self.pool)
                .await?;
                read_site(&rows)
            }

            async fn counts(&self) -> StoreResult<Counts> {
                let rows = sqlx::query(
                    "SELECT name, CAST(SUM(value) AS BIGINT) AS v FROM counters GROUP BY name",
                )
                .fetch_all(&self.pool)
                .await?;
                let mut c = Counts { open_games: 0, closed_games: 0, moves: 0 };
                for r in &rows {
                    let v: i64 = r.try_get("v")?;
                    match r.try_get::<String, _>("name")?.as_str() {
                        "open_games" => c.open_games = v,
                        "closed_games" => c.closed_games = v,
                        "moves" => c.moves = v,
                        _ => {}
                    }
                }
                Ok(c)
            }

            async fn recount(&self) -> StoreResult<(Vec<SiteRow>, Counts)> {
                let rows = sqlx::query(
                    "SELECT rules, winner, COUNT(*) AS n FROM games \
                     WHERE status = 'finished' AND winner IS NOT NULL GROUP BY rules, winner",
                )
                .fetch_all(&self.pool)
                .await?;
                let site = read_site(&rows)?;
                let r = sqlx::query(
                    "SELECT \
                     (SELECT COUNT(*) FROM games WHERE status IN ('waiting', 'playing')) AS open, \
                     (SELECT COUNT(*) FROM games WHERE status IN ('finished', 'aborted')) AS closed, \
                     (SELECT COUNT(*) FROM moves) AS moves",
                )
                .fetch_one(&self.pool)
                .await?;
                let counts = Counts {
                    open_games: r.try_get("open")?,
                    closed_games: r.try_get("closed")?,
                    moves: r.try_get("moves")?,
                };
                Ok((site, counts))
            }

            async fn listen(
                &self,
            ) -> StoreResult<Option<tokio::sync::mpsc::Receiver<String>>> {
                self.listen_changes().await
            }
        }

        /// Ends a game inside `tx` and counts it: the open and closed game counters and, for
        /// a result, the site's results. `Conflict` when the game was not open.
        async fn end_game(
            tx: &mut sqlx::Transaction<'_, $db>,
            id: &str,
            end: &GameEnd,
            now: i64,
            expected: Option<i64>,
        ) -> StoreResult<()> {
            let rules: Option<String> = sqlx::query_scalar(
                "UPDATE games SET status = $1, winner = $2, reason = $3, result_text = $4, \
                 finished_at = $5, updated_at = $5, draw_offer = NULL \
                 WHERE id = $6 AND status IN ('waiting', 'playing') \
                 AND ($7 IS NULL OR plies = $7) RETURNING rules",
            )
            .bind(end.status.as_str())
            .bind(opt_str(end.winner))
            .bind(&end.reason)
            .bind(&end.text)
            .bind(now)
            .bind(id)
            .bind(expected)
            .fetch_optional(&mut **tx)
            .await?;
            let Some(rules) = rules else {
                return Err(StoreError::Conflict);
            };
            count(tx, "open_games", id, -1).await?;
            count(tx, "closed_games", id, 1).await?;
            if let (crate::Status::Finished, Some(w)) = (end.status, end.winner) {
                count_result(tx, &rules, w).await?;
            }
            Ok(())
        }

        /// Counts a finished game's result in the site's results.
        async fn count_result(
            tx: &mut sqlx::Transaction<'_, $db>,
            rules: &str,
            winner: crate::Winner,
        ) -> StoreResult<()> {
            sqlx::query(
                "INSERT INTO site_results (rules, winner, games) VALUES ($1, $2, 1) \
                 ON CONFLICT (rules, winner) DO UPDATE SET games = site_results.games + 1",
            )
            .bind(rules)
            .bind(winner.as_str())
            .execute(&mut **tx)
            .await?;
            Ok(())
        }

        /// Adds `delta` to counter `name`, in the shard of game `id`.
        async fn count(
            tx: &mut sqlx::Transaction<'_, $db>,
            name: &str,
            id: &str,
            delta: i64,
        ) -> StoreResult<()> {
            count_shard(tx, name, crate::sql::shard(id), delta).await
        }

        /// Adds `delta` to shard `shard` of counter `name`.
        async fn count_shard(
            tx: &mut sqlx::Transaction<'_, $db>,
            name: &str,
            shard: i64,
            delta: i64,
        ) -> StoreResult<()> {
            if delta == 0 {
                return Ok(());
            }
            sqlx::query(
                "INSERT INTO counters (name, shard, value) VALUES ($1, $2, $3) \
                 ON CONFLICT (name, shard) DO UPDATE SET value = counters.value + excluded.value",
            )
            .bind(name)
            .bind(shard)
            .bind(delta)
            .execute(&mut **tx)
            .await?;
            Ok(())
        }

        impl $store {
            /// Commits a group of moves in one transaction and answers each: done, or
            /// `Conflict` for a move whose game had moved on or ended. Should the transaction
            /// fail, each move is tried again alone, so that one bad move fails only itself.
            async fn write_moves(&self, jobs: Vec<MoveJob>) {
                let results = match self.commit_moves(&jobs).await {
                    Ok(ok) => ok.into_iter().map(Ok).collect(),
                    Err(e) if jobs.len() == 1 => vec![Err(e)],
                    Err(_) => {
                        let mut each = Vec::with_capacity(jobs.len());
                        for job in &jobs {
                            each.push(
                                self.commit_moves(std::slice::from_ref(job)).await.map(|ok| ok[0]),
                            );
                        }
                        each
                    }
                };
                let moved: Vec<&str> = jobs
                    .iter()
                    .zip(&results)
                    .filter(|(_, r)| matches!(r, Ok(true)))
                    .map(|(j, _)| j.id.as_str())
                    .collect();
                // Other instances hear of the moves before the movers are answered. The moves
                // are committed whatever happens to the notification: should it be lost, the
                // listeners lost their connection too, and reload every game once back.
                if let Err(e) = self.changed_many(&moved).await {
                    tracing::warn!(error = %e, "moves committed but not notified");
                }
                for (job, result) in jobs.into_iter().zip(results) {
                    let answer = match result {
                        Ok(true) => Ok(()),
                        Ok(false) => Err(StoreError::Conflict),
                        Err(e) => Err(e),
                    };
                    let _ = job.done.send(answer);
                }
            }

            /// One transaction for `jobs`; for each, whether it was written.
            async fn commit_moves(&self, jobs: &[MoveJob]) -> StoreResult<Vec<bool>> {
                let mut tx = self.pool.begin().await?;
                let mut written = Vec::with_capacity(jobs.len());
                let mut shards = std::collections::BTreeMap::<i64, i64>::new();
                for j in jobs {
                    let updated = sqlx::query(
                        "UPDATE games SET plies = plies + 1, to_move = $1, updated_at = $2, \
                         draw_offer = NULL WHERE id = $3 AND plies = $4 AND status = 'playing'",
                    )
                    .bind(j.mv.to_move.as_str())
                    .bind(j.now)
                    .bind(&j.id)
                    .bind(j.mv.ply)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected()
                        == 1;
                    written.push(updated);
                    if !updated {
                        continue;
                    }
                    if let Some(end) = &j.mv.end {
                        end_game(&mut tx, &j.id, end, j.now, None).await?;
                    }
                    *shards.entry(crate::sql::shard(&j.id)).or_default() += 1;
                }
                let kept: Vec<&MoveJob> =
                    jobs.iter().zip(&written).filter(|(_, w)| **w).map(|(j, _)| j).collect();
                for chunk in kept.chunks(64) {
                    let sql = crate::sql::insert_moves(chunk.len());
                    let mut q = sqlx::query(&sql);
                    for j in chunk {
                        q = q.bind(&j.id).bind(j.mv.ply).bind(&j.mv.notation).bind(j.now);
                    }
                    q.execute(&mut *tx).await?;
                }
                for (shard, n) in shards {
                    count_shard(&mut tx, "moves", shard, n).await?;
                }
                tx.commit().await?;
                Ok(written)
            }
        }
    };
}

pub(crate) use impl_store;

/// `INSERT INTO moves` of `n` rows (game, ply, notation, time), numbered parameters.
pub(crate) fn insert_moves(n: usize) -> String {
    let rows: Vec<String> = (0..n)
        .map(|i| format!("(${}, ${}, ${}, ${})", 4 * i + 1, 4 * i + 2, 4 * i + 3, 4 * i + 4))
        .collect();
    format!("INSERT INTO moves (game_id, ply, notation, created_at) VALUES {}", rows.join(", "))
}
