#!/usr/bin/env bash
# Runs the peer perft matrix one measurement at a time (never two at once) and
# prints JSON lines (perft.py / kish-native.sh output) to stdout.
#   PEERS_VENV  venv made by setup.sh (default /tmp/doska-peers-venv)
#   REPEAT      runs per point, fastest reported (default 3)
#   QUICK=1     skip the slow pure-Python points
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PY="${PEERS_VENV:-/tmp/doska-peers-venv}/bin/python"
REPEAT="${REPEAT:-3}"
perft() { "$PY" "$HERE/perft.py" "$@"; }

echo "# $(date -u +%FT%TZ) $(uname -m) load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

for d in 7 8 9 10; do
  perft --peer dame --variant international --depth "$d" --repeat "$REPEAT"
done
for threads in 1 ""; do   # the Python binding's perft is sequential either way
  for d in 5 6 7; do
    RAYON_NUM_THREADS=$threads perft --peer kish --variant turkish --depth "$d" --repeat "$REPEAT"
  done
done
if [ -x "${KISH_NATIVE_DIR:-/tmp/doska-kish-native}/target/release/kish-perft" ]; then
  for d in 5 6 7 8; do
    bash "$HERE/kish-native.sh" run "$d" seq 0 "$REPEAT"
  done
  for d in 7 8; do   # perft_parallel: rayon + shared 256 MiB transposition table
    RAYON_NUM_THREADS=1 bash "$HERE/kish-native.sh" run "$d" par 256 "$REPEAT" 2>/dev/null
    bash "$HERE/kish-native.sh" run "$d" par 256 "$REPEAT" 2>/dev/null
  done
fi
perft --peer py-draughts --variant international --depth 5
perft --peer py-draughts --variant international --depth 6
if [ -z "${QUICK:-}" ]; then
  perft --peer pydraughts --variant international --depth 4
  perft --peer pydraughts --variant turkish --depth 4
fi
echo "# done, load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
