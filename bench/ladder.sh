#!/usr/bin/env bash
# The level ladder, measured with `doska match` at a tenth of the real move times (not part
# of the test run). Usage: bench/ladder.sh [games per pair] [scale]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-20}
scale=${2:-0.1}
bin=target/release/doska
[ -x "$bin" ] || cargo build --release
for variant in russian international american frisian lasca ugolki; do
  for pair in "medium easy" "hard medium" "insane hard"; do
    set -- $pair
    "$bin" match --variant "$variant" --a "$1" --b "$2" --games "$games" --scale "$scale" 2>/dev/null
  done
done
