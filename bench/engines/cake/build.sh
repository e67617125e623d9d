#!/usr/bin/env bash
# Builds Cake 1.89g (American checkers, by Martin Fierz) for Linux from its public source, with
# doska's shim header and line-protocol driver:   bash bench/engines/cake/build.sh SRC [OUT]
#   SRC  a checkout of martinfierz/cake (cakepp.c, move_gen.c, cake_eval_parametrized.c,
#        pattern.c, switches.h, ...; VERSION "1.89g" in switches.h)
#   OUT  the program to write (default /tmp/doska-engines/cake)
# Cake is not part of doska and none of it is committed here. The source folder is not touched:
# its files are copied to a temporary folder, where switches.h is edited.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${1:?usage: build.sh CAKE_SOURCE_DIR [OUT]}
out=${2:-/tmp/doska-engines/cake}
[ -f "$src/cakepp.c" ] && [ -f "$src/switches.h" ] || { echo "build.sh: $src has no cakepp.c and switches.h" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/src" "$work/inc"
cp "$src"/*.c "$src"/*.h "$work/src/"
# Switched off in switches.h (a #define there cannot be undone from the command line):
#   BOOK       the opening book (engines\book.bin, not in the repository); the driver also sets
#              usethebook = 0, so booklookup is never asked;
#   USE_KR_DB  Ed Gilbert's Kingsrow endgame database (a Windows library, egdb64.lib, and
#              database files); Cake's own database (USEDB) is already off.
# Cake then searches every position from the start to the end of the game on its own.
sed -i -e 's|^#define BOOK\b.*|#undef BOOK  /* doska: no opening book */|' \
       -e 's|^#define USE_KR_DB\b.*|#undef USE_KR_DB  /* doska: no endgame database */|' "$work/src/switches.h"
grep -q '^#undef BOOK ' "$work/src/switches.h" && grep -q '^#undef USE_KR_DB ' "$work/src/switches.h" \
  || { echo "build.sh: switches.h has no #define BOOK / USE_KR_DB to switch off" >&2; exit 1; }
# The Windows headers Cake includes all lead to doska's shim; it is also read before each file,
# since some use __int64 (in structs.h) without including <windows.h>.
cp "$here/windows.h" "$work/inc/"
for h in Windows.h winbase.h intrin.h conio.h shlwapi.h shlobj.h; do echo '#include "windows.h"' >"$work/inc/$h"; done
# gnu11: the source is C from MSVC; -w: its warnings are not ours. The files of the engine as its
# Visual Studio project builds them, less cakedll.c (CheckerBoard's DLL interface, registry),
# dblookup.c (USEDB) and bookht.c (BOOKHT, off); one compile at a time. pattern.c is one function
# of ~half a million assignments that fills the pattern weights once at start: -O0, else gcc
# takes about ten minutes over it.
cflags=(-std=gnu11 -w -DNDEBUG -I "$work/inc" -include "$work/inc/windows.h" -I "$work/src")
objs=()
for f in app_instance boolean cake_book cake_eval_parametrized cake_misc cakepp initcake move_gen pattern; do
  opt=-O2
  [ "$f" = pattern ] && opt=-O0
  gcc "${cflags[@]}" "$opt" -c "$work/src/$f.c" -o "$work/$f.o"
  objs+=("$work/$f.o")
done
gcc "${cflags[@]}" -O2 -c "$here/driver.c" -o "$work/driver.o"
gcc -o "$out" "$work/driver.o" "${objs[@]}" -pthread
echo "built $out"
