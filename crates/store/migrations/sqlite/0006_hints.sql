-- Hints a player asked for in a game against the computer: shown on the results screen and
-- in the stats (a streak won with hints is not a clean one). Keep in step with the other
-- backend's 0006_hints.sql.
ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
