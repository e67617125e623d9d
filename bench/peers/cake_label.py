#!/usr/bin/env python3
"""Cake's scores for a file of doska's learning positions (`doska learn --save-positions`, American):
each position searched by Cake 1.89g to --depth plies (its driver's `score` command), the score
written in place of the players' search score (White's view, hundredths of a man as Cake counts
them; a win or loss Cake has found as +-29999, as doska writes its own). The results and games
are kept, so `doska learn --positions OUT --search-scale searched` fits doska's weights to
Cake's judgement of the same games.

  python3 bench/peers/cake_label.py --cake /tmp/doska-engines/cake --depth 7 am45.positions cake45.positions
"""

from __future__ import annotations

import argparse
import sys
import time

from peerlib import CakePeer

CAKE_WIN = 1800  # Cake's scores this far from zero are a win it has found (its MATE is 1900)
DOSKA_WIN = 29999


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cake", default="/tmp/doska-engines/cake", help="Cake's driver (bench/engines/cake/build.sh)")
    ap.add_argument("--depth", type=int, default=7, help="Cake's search depth in plies, odd (default 7)")
    ap.add_argument("positions")
    ap.add_argument("out")
    args = ap.parse_args()
    if not 1 <= args.depth <= 60:
        raise SystemExit("--depth: 1 to 60 plies")
    start, n = time.time(), 0
    cake = CakePeer("american", "B:W21-32:B1-12", args.cake)
    with open(args.positions) as src, open(args.out, "w") as out:
        for at, line in enumerate(src, 1):
            if line.startswith("#"):
                out.write(line)
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 4:
                raise SystemExit(f"{args.positions} line {at}: {len(fields)} fields; FEN, score, result, game")
            fen, _, result, game = fields
            if fen[:2] not in ("W:", "B:"):
                raise SystemExit(f"{args.positions} line {at}: {fen!r} is not an American FEN (W: or B: first)")
            try:
                cake.setup(fen)
            except (ValueError, RuntimeError) as e:
                raise SystemExit(f"{args.positions} line {at}: {fen!r}: {e}") from e
            v = cake.score(args.depth)
            if abs(v) >= CAKE_WIN:
                v = DOSKA_WIN if v > 0 else -DOSKA_WIN
            out.write(f"{fen}\t{v if fen[0] == 'W' else -v}\t{result}\t{game}\n")
            n += 1
            if n % 100_000 == 0:
                print(f"{n} positions, {time.time() - start:.0f} s", file=sys.stderr, flush=True)
    cake.close()
    print(f"{n} positions scored by Cake at depth {args.depth} in {time.time() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
