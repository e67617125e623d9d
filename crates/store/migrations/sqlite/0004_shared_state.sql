-- The state of a game that every server instance must honour, kept here rather than in one
-- instance's memory: the offers on the table, and which instances hold sockets on which seat
-- (so that a claim is granted only when the opponent is away from every instance). Keep in
-- step with the other backend's 0004_shared_state.sql.

-- The side that offered a draw (cleared by every move) or a rematch: white | black.
ALTER TABLE games ADD COLUMN draw_offer TEXT;
ALTER TABLE games ADD COLUMN rematch_offer TEXT;

-- Server instances and when each last said it was alive (every few seconds). An instance not
-- heard from for three of its periods is dead (killed): its sockets count as gone since then.
CREATE TABLE instances (
    id        TEXT PRIMARY KEY,
    seen_at   INTEGER NOT NULL
);

-- Sockets an instance holds on a seat of a friend game, and when that number last changed.
-- A seat is present while some live instance holds a socket on it; once none does, it has
-- been away since the latest seen_at of its rows (or its dead instance's last sign of life).
CREATE TABLE presence (
    game_id   TEXT NOT NULL,
    side      TEXT NOT NULL,
    instance  TEXT NOT NULL,
    sockets   INTEGER NOT NULL,
    seen_at   INTEGER NOT NULL,
    PRIMARY KEY (game_id, side, instance)
);
CREATE INDEX presence_instance ON presence (instance);
