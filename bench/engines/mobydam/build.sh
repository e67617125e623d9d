#!/usr/bin/env bash
# Builds Moby Dam (international draughts, by Harm Jetten) for Linux from its public source:
#   bash bench/engines/mobydam/build.sh SRC [OUT]
#   SRC  a checkout of rhalbersma/mobydam (main/Makefile, core/, book/book.opn)
#   OUT  a folder for the program and its opening book (default /tmp/doska-engines/mobydam)
# Its own Makefile builds it unchanged (gcc -O3 -flto -mpopcnt); the build happens in a copy,
# so SRC stays as it was. Moby Dam is not part of doska and none of it is committed here.
# It runs without endgame databases (their files are not in the repository).
set -euo pipefail
src=${1:?usage: build.sh MOBYDAM_SOURCE_DIR [OUT]}
out=${2:-/tmp/doska-engines/mobydam}
[ -f "$src/main/Makefile" ] || { echo "build.sh: $src has no main/Makefile" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/main" "$src/core" "$work/"
make -s -C "$work/main" lin
mkdir -p "$out"
cp "$work/main/mobydam" "$out/mobydam"
[ -f "$src/book/book.opn" ] && cp "$src/book/book.opn" "$out/book.opn"
echo "built $out/mobydam"
