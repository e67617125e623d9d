-- doska's schema, PostgreSQL edition. Keep in step with ../sqlite/0001_init.sql: the same tables,
-- columns and indexes; only the column types differ (BIGINT here, INTEGER there).

CREATE TABLE players (
    id          TEXT PRIMARY KEY,
    created_at  BIGINT NOT NULL,
    last_seen   BIGINT NOT NULL
);

CREATE TABLE games (
    id            TEXT PRIMARY KEY,
    rules         TEXT NOT NULL,             -- canonical rule set text: the stats key
    mode          TEXT NOT NULL,             -- computer | friend | hotseat
    level         TEXT,                      -- computer games: easy | medium | hard | insane
    computer_side TEXT,                      -- computer games: white | black
    creator       TEXT NOT NULL,             -- player id
    creator_side  TEXT NOT NULL,             -- white | black
    start_fen     TEXT NOT NULL,
    white_player  TEXT,                      -- null: the computer, or a friend's seat still free
    black_player  TEXT,
    white_token   TEXT,                      -- SHA-256 of the seat's secret, hex
    black_token   TEXT,
    invite_token  TEXT,                      -- SHA-256 of the invitation's secret, hex
    seed          BIGINT NOT NULL,
    status        TEXT NOT NULL,             -- waiting | playing | finished | aborted
    winner        TEXT,                      -- white | black | draw
    reason        TEXT,                      -- the rules' reason id, or resignation, abandoned...
    result_text   TEXT,
    plies         BIGINT NOT NULL,          -- moves stored for this game
    imported      BIGINT NOT NULL,          -- of which came with the game (an imported PDN)
    to_move       TEXT NOT NULL,
    rematch_of    TEXT,
    rematch       TEXT,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    finished_at   BIGINT
);
CREATE INDEX games_white_player ON games (white_player, updated_at);
CREATE INDEX games_black_player ON games (black_player, updated_at);
CREATE INDEX games_status ON games (status, mode, to_move);
CREATE INDEX games_rules_status ON games (rules, status);

CREATE TABLE moves (
    game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply         BIGINT NOT NULL,
    notation    TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE hidden_games (
    player_id   TEXT NOT NULL,
    game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    PRIMARY KEY (player_id, game_id)
);

CREATE TABLE settings (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
