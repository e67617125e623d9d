#!/usr/bin/env bash
# The read endpoints with a big history (not part of ./test.sh):
#   bash bench/stats/run.sh GAMES [sqlite|postgres] [MOVES_PER_GAME]
# Creates a fresh database (SQLite in a temporary folder; PostgreSQL: the database named by
# $BENCH_POSTGRES_URL, default postgres://doska:doska@127.0.0.1/doska_bench, emptied first),
# lets `doska serve` create the schema, seeds GAMES finished games with MOVES_PER_GAME moves
# each (bench/stats/seed.py), serves it again and times /api/stats, /api/games and /metrics
# (bench/stats/time.py). Needs a release build (cargo build --release).
set -euo pipefail
games=${1:?usage: run.sh GAMES [sqlite|postgres] [MOVES_PER_GAME]}
backend=${2:-sqlite}
moves=${3:-10}
cd "$(dirname "$0")/../.."
doska=${DOSKA:-target/release/doska}
dir=$(mktemp -d)
addr=127.0.0.1:18090
case "$backend" in
  sqlite) url="sqlite://$dir/bench.sqlite?mode=rwc"; seed=(--sqlite "$dir/bench.sqlite") ;;
  postgres)
    url=${BENCH_POSTGRES_URL:-postgres://doska:doska@127.0.0.1/doska_bench}
    psql "$url" -q -c "DROP SCHEMA public CASCADE; CREATE SCHEMA public;"
    seed=(--postgres "$url") ;;
  *) echo "run.sh: backend sqlite or postgres" >&2; exit 1 ;;
esac
serve() {
  "$doska" serve --addr "$addr" --database-url "$url" >"$dir/server.out" 2>"$dir/server.err" &
  server=$!
  for _ in $(seq 100); do grep -q serving "$dir/server.out" 2>/dev/null && return; sleep 0.1; done
  echo "the server did not start: $(cat "$dir/server.err")" >&2; exit 1
}
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$dir"' EXIT
serve
kill "$server"; wait "$server" 2>/dev/null || true
python3 bench/stats/seed.py "${seed[@]}" --games "$games" --moves "$moves"
serve
echo "$backend, $games games, $moves moves each:"
python3 bench/stats/time.py "http://$addr" 200
