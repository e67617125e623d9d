-- The engine's review of a finished game, computed once (each position with the same node
-- budget) and kept as the JSON the API serves. Keep in step with the other backend's
-- 0005_reviews.sql.
CREATE TABLE reviews (
    game_id     TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    nodes       BIGINT NOT NULL,
    body        TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
