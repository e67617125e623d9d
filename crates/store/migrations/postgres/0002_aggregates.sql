-- Aggregates kept in the same transaction as what they count, so that the site's statistics
-- and the metrics cost the same with a million games as with ten. Keep in step with the other
-- backend's 0002_aggregates.sql. Filled here from the games already stored.

-- Finished games with a result, by rule set and winner (white | black | draw).
CREATE TABLE site_results (
    rules   TEXT NOT NULL,
    winner  TEXT NOT NULL,
    games   BIGINT NOT NULL,
    PRIMARY KEY (rules, winner)
);
INSERT INTO site_results (rules, winner, games)
    SELECT rules, winner, COUNT(*) FROM games
    WHERE status = 'finished' AND winner IS NOT NULL GROUP BY rules, winner;

-- Counters (open_games, closed_games, moves), each split into shards that writers pick by
-- game so that concurrent moves do not queue on one row; a counter is the sum of its shards.
CREATE TABLE counters (
    name    TEXT NOT NULL,
    shard   BIGINT NOT NULL,
    value   BIGINT NOT NULL,
    PRIMARY KEY (name, shard)
);
INSERT INTO counters (name, shard, value)
    SELECT 'open_games', 0, COUNT(*) FROM games WHERE status IN ('waiting', 'playing');
INSERT INTO counters (name, shard, value)
    SELECT 'closed_games', 0, COUNT(*) FROM games WHERE status IN ('finished', 'aborted');
INSERT INTO counters (name, shard, value) SELECT 'moves', 0, COUNT(*) FROM moves;
