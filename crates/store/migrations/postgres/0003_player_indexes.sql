-- A player's games are found through these two indexes, one per seat. A seat with no player
-- (the computer's, a friend's still free) is left out of them: on a site where most players
-- take White against the computer most black seats are empty, and an index full of empty
-- seats would look useless to the query planner, which would then read every game instead.
-- Keep in step with the other backend's 0003_player_indexes.sql.
DROP INDEX games_white_player;
CREATE INDEX games_white_player ON games (white_player, updated_at) WHERE white_player IS NOT NULL;
DROP INDEX games_black_player;
CREATE INDEX games_black_player ON games (black_player, updated_at) WHERE black_player IS NOT NULL;
