#!/usr/bin/env bash
# Load benchmark (not part of ./test.sh): a release `doska serve` on a fresh SQLite file (or,
# with DATABASE set to a postgres:// URL, on that database, emptied first: its public schema
# is dropped), and the load client (crates/server/examples/load.rs) opening GAMES friend games
# (two WebSockets each) and playing RATE moves a second across them for SECONDS.
#   [DATABASE=postgres://USER:PASS@HOST/DB] [MOVE_BATCH=N] bench/load/run.sh [GAMES] [RATE] [SECONDS]
# MOVE_BATCH is doska serve's --move-batch (moves per transaction at most; 1: each alone).
# Prints the client's figures, the server's memory before and with every game open (and so per
# game), and the server's CPU time.
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES=${1:-2000}
RATE=${2:-500}
SECONDS_=${3:-30}
ulimit -n 65536 || true
cargo build -j1 --release -p doska >/dev/null
cargo build -j1 --release -p doska-server --example load >/dev/null
dir=$(mktemp -d)
addr=127.0.0.1:18080
# The load client opens every game from one address and one cookie: creation limits off.
database=${DATABASE:-sqlite://$dir/load.sqlite?mode=rwc}
case "$database" in
  postgres*) psql -q "$database" -c "DROP SCHEMA public CASCADE; CREATE SCHEMA public;" ;;
esac
./target/release/doska serve --addr "$addr" --database-url "$database" \
  --games-per-minute 0 --games-per-minute-per-address 0 ${MOVE_BATCH:+--move-batch "$MOVE_BATCH"} \
  >"$dir/server.out" 2>"$dir/server.err" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 50); do grep -q serving "$dir/server.out" 2>/dev/null && break; sleep 0.1; done
rss() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }
cpu() { awk '{print $14 + $15}' "/proc/$server/stat"; }
before=$(rss)
./target/release/examples/load --addr "$addr" --games "$GAMES" --rate "$RATE" --seconds "$SECONDS_" \
  >"$dir/load.out" &
client=$!
until grep -q READY "$dir/load.out" 2>/dev/null; do
  kill -0 "$client" 2>/dev/null || { cat "$dir/load.out"; exit 1; }
  sleep 0.2
done
sleep 1
open=$(rss)
cpu0=$(cpu)
wait "$client"
cpu1=$(cpu)
grep -v READY "$dir/load.out"
echo "server RSS: ${before} KiB idle, ${open} KiB with ${GAMES} games open: $(( (open - before) / GAMES )) KiB per open game (2 sockets)"
echo "server CPU during the move phase: $(( (cpu1 - cpu0) )) ticks (1/100 s) over ~${SECONDS_} s"
