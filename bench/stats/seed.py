#!/usr/bin/env python3
"""Seeds N finished games (and M moves each) straight into a doska database whose schema
`doska serve` has already created, then recomputes the aggregates from them as the migration
does (`crates/store/migrations/*/0002_aggregates.sql`).

    python3 bench/stats/seed.py --sqlite FILE --games 1000000 --moves 10
    python3 bench/stats/seed.py --postgres postgres://doska:doska@127.0.0.1/doska_bench --games 1000000

The games are spread over three rule sets and three results, one player per ten games
(`p0`, `p1`, ...), all against the computer, the player White in even games and Black in odd
ones (as on the site: both seat columns hold players). SQLite goes through Python's sqlite3, PostgreSQL
through `psql`; the SQL is the same for both (a recursive CTE generates the rows).
"""

from __future__ import annotations

import argparse
import sqlite3
import subprocess
import time

GAMES = """
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < {n})
INSERT INTO games (id, rules, mode, level, computer_side, creator, creator_side, start_fen,
    white_player, black_player, white_token, black_token, invite_token, seed, status, winner,
    reason, result_text, plies, imported, to_move, rematch_of, rematch, created_at, updated_at,
    finished_at)
SELECT 'seed' || i,
    CASE i % 3 WHEN 0 THEN 'russian' WHEN 1 THEN 'international' ELSE 'ugolki' END,
    'computer', 'easy', CASE i % 2 WHEN 0 THEN 'black' ELSE 'white' END, 'p' || (i % {players}),
    CASE i % 2 WHEN 0 THEN 'white' ELSE 'black' END, 'W:W21-32:B1-12',
    CASE i % 2 WHEN 0 THEN 'p' || (i % {players}) END, CASE i % 2 WHEN 1 THEN 'p' || (i % {players}) END,
    CASE i % 2 WHEN 0 THEN 'aa' END, CASE i % 2 WHEN 1 THEN 'aa' END, NULL, i, 'finished',
    CASE i % 3 WHEN 0 THEN 'white' WHEN 1 THEN 'black' ELSE 'draw' END,
    'no-moves', 'seeded', {m}, 0, 'white', NULL, NULL, i, i, i
FROM s;
"""

MOVES = """
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < {n}),
    p(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM p WHERE j < {m} - 1)
INSERT INTO moves (game_id, ply, notation, created_at)
SELECT 'seed' || i, j, 'c3-d4', i FROM s, p;
"""

AGGREGATES = """
DELETE FROM site_results;
INSERT INTO site_results (rules, winner, games)
    SELECT rules, winner, COUNT(*) FROM games
    WHERE status = 'finished' AND winner IS NOT NULL GROUP BY rules, winner;
DELETE FROM counters;
INSERT INTO counters (name, shard, value)
    SELECT 'open_games', 0, COUNT(*) FROM games WHERE status IN ('waiting', 'playing');
INSERT INTO counters (name, shard, value)
    SELECT 'closed_games', 0, COUNT(*) FROM games WHERE status IN ('finished', 'aborted');
INSERT INTO counters (name, shard, value) SELECT 'moves', 0, COUNT(*) FROM moves;
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--sqlite", help="the SQLite file")
    where.add_argument("--postgres", help="the PostgreSQL URL")
    ap.add_argument("--games", type=int, required=True)
    ap.add_argument("--moves", type=int, default=10, help="moves per game (default 10)")
    a = ap.parse_args()
    fill = dict(n=a.games, m=a.moves, players=max(1, a.games // 10))
    steps = [("games", GAMES.format(**fill))]
    if a.moves > 0:
        steps.append(("moves", MOVES.format(**fill)))
    steps.append(("aggregates", AGGREGATES))
    for name, sql in steps:
        t = time.perf_counter()
        if a.sqlite:
            db = sqlite3.connect(a.sqlite)
            db.executescript(sql)
            db.commit()
            db.close()
        else:
            subprocess.run(["psql", a.postgres, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql], check=True)
        print(f"{name}: {time.perf_counter() - t:.1f} s", flush=True)
    if a.sqlite:
        db = sqlite3.connect(a.sqlite)
        db.execute("ANALYZE")
        db.close()
    else:
        subprocess.run(["psql", a.postgres, "-q", "-c", "ANALYZE games, moves, site_results, counters"], check=True)


if __name__ == "__main__":
    main()
