#!/usr/bin/env bash
# Builds KestoG 1.4 (russian draughts) for Linux from its public source, with doska's shim
# header and line-protocol driver:   bash bench/engines/kestog/build.sh SRC [OUT]
#   SRC  a checkout of rhalbersma/kestog (KestoG_1_4.cpp, KALLISTO.H, EdAccess.h)
#   OUT  the program to write (default /tmp/doska-engines/kestog)
# KestoG is not part of doska and none of it is committed here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${1:?usage: build.sh KESTOG_SOURCE_DIR [OUT]}
out=${2:-/tmp/doska-engines/kestog}
[ -f "$src/KestoG_1_4.cpp" ] || { echo "build.sh: $src has no KestoG_1_4.cpp" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
# C++11 (its `using namespace std` and a global `size` clash with C++17's std::size);
# -fpermissive: the 2000s source converts string literals to char*; -w: its warnings are not ours.
g++ -std=gnu++11 -O2 -w -fpermissive -DNDEBUG -I "$here" -I "$src" -pthread -o "$out" "$here/driver.cpp"
echo "built $out"
