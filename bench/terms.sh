#!/usr/bin/env bash
# What each evaluation term is worth: Insane against Insane without that one term, measured
# with `doska match` (not part of the test run).
# Usage: bench/terms.sh [games per term] [scale] [variant...]
#   default: 30 games, scale 0.02 (Insane thinks 60 ms a move), russian international
#   the terms tried per family: draughts all but exact_race (and, where the build has learned
#   weights, the learned evaluation itself); ugolki exact_race, back_rank, centre
# The hand-set terms are measured with the learned evaluation off on both sides: where it is
# on, they have no effect.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-30}
scale=${2:-0.02}
shift 2 || true
[ $# -gt 0 ] && variants=("$@") || variants=(russian international)
bin=target/release/doska
[ -x "$bin" ] || cargo build --release
for variant in "${variants[@]}"; do
  case "$variant" in
    ugolki*) terms="exact_race back_rank centre" ;;
    *) terms="advancement back_rank centre trades runaways free_kings" ;;
  esac
  for term in $terms; do
    "$bin" match --variant "$variant" --a insane --a-without learned --b insane \
      --b-without "learned,$term" --games "$games" --scale "$scale" 2>/dev/null
  done
  case "$variant" in
    ugolki*) ;;
    *) "$bin" match --variant "$variant" --a insane --b insane --b-without learned \
         --games "$games" --scale "$scale" 2>/dev/null ;;
  esac
done
