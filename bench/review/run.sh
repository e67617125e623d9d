#!/usr/bin/env bash
# Review benchmark (not part of ./test.sh): a release `doska serve` on a fresh SQLite file and
# the client crates/server/examples/review_bench.rs, which plays a hot-seat game of PLIES random
# moves, starts two games against the computer at LEVEL (both playing on while the review runs)
# and times the engine's review of the first game.
#   bench/review/run.sh [RULES] [PLIES] [LEVEL]     (defaults: russian 60 hard)
set -euo pipefail
cd "$(dirname "$0")/../.."
RULES=${1:-russian}
PLIES=${2:-60}
LEVEL=${3:-hard}
cargo build -j1 --release -p doska >/dev/null
cargo build -j1 --release -p doska-server --example review_bench >/dev/null
dir=$(mktemp -d)
addr=127.0.0.1:18081
./target/release/doska serve --addr "$addr" --database-url "sqlite://$dir/review.sqlite?mode=rwc" \
  --games-per-minute 0 --games-per-minute-per-address 0 >"$dir/server.out" 2>"$dir/server.err" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 50); do grep -q serving "$dir/server.out" 2>/dev/null && break; sleep 0.1; done
./target/release/examples/review_bench --addr "$addr" --rules "$RULES" --plies "$PLIES" --level "$LEVEL"
