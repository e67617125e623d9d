#!/usr/bin/env bash
# Builds Scan 2.0 (international draughts, Fabien Letouzey) for Linux from its public source:
#   bash bench/engines/scan/build.sh SRC [OUT]
#   SRC  the tree of rhalbersma/scan at commit 57082ee ("Scan 2.0"): src/*.cpp, scan.ini, data/
#        (e.g. git --git-dir=SCAN.git archive 57082ee | tar -x -C SRC)
#   OUT  the folder to fill (default /tmp/doska-engines/scan): the program `scan`, its scan.ini
#        and data/ (eval, book, 2-4 piece bitbases), which it opens relative to its working folder
# Scan is not part of doska and none of it is committed here.
set -euo pipefail
src=${1:?usage: build.sh SCAN_SOURCE_DIR [OUT]}
out=${2:-/tmp/doska-engines/scan}
for f in src/main.cpp scan.ini data/eval; do
  [ -e "$src/$f" ] || { echo "build.sh: $src has no $f (want rhalbersma/scan at 57082ee)" >&2; exit 1; }
done
mkdir -p "$out"
# One g++ over all the sources, as its Makefile's flags less -flto: C++11, no RTTI, popcnt for
# its bit counts (NDEBUG comes from its own libmy.hpp unless DEBUG is defined). -w: its
# warnings are not ours. It builds unchanged with g++ 12.
g++ -std=c++11 -O2 -mpopcnt -fno-rtti -w -pthread -o "$out/scan" "$src"/src/*.cpp
# What it reads at run time. scan.ini is kept as shipped (bb-size = 4: the 5-6 piece bitbases
# are a separate download); doska's peer sets book and threads itself over the protocol.
cp "$src/scan.ini" "$out/scan.ini"
rm -rf "$out/data"
cp -R "$src/data" "$out/data"
echo "built $out/scan"
