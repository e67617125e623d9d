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
import subprocess
import sys
import time

CAKE_WIN = 1800  # Cake's scores this far from zero are a win it has found (its MATE is 1900)
DOSKA_WIN = 29999


def board(fen: str) -> str:
    """The driver's `setup` argument for a numbered FEN (`B:W18,K22:B1,2`): squares 1..32 as
    `w W b B .`, then the side to move."""
    side, *parts = fen.split(":")
    squares = ["."] * 32
    for part in parts:
        if part[:1] not in ("W", "B"):
            continue
        for sq in filter(None, part[1:].split(",")):
            king = sq.startswith("K")
            n = int(sq[1:] if king else sq)
            if not 1 <= n <= 32:
                raise ValueError(f"square {n} of {fen!r}: American squares are 1 to 32")
            c = part[0].lower()
            squares[n - 1] = c.upper() if king else c
    if side not in ("W", "B"):
        raise ValueError(f"{fen!r}: the side to move is W or B")
    return "".join(squares) + side.lower()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cake", default="/tmp/doska-engines/cake", help="Cake's driver (bench/engines/cake/build.sh)")
    ap.add_argument("--depth", type=int, default=7, help="Cake's search depth in plies, odd (default 7)")
    ap.add_argument("positions")
    ap.add_argument("out")
    args = ap.parse_args()
    if not 1 <= args.depth <= 60:
        raise SystemExit("--depth: 1 to 60 plies")
    cake = subprocess.Popen([args.cake], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    start, n = time.time(), 0
    with open(args.positions) as src, open(args.out, "w") as out:
        for at, line in enumerate(src, 1):
            if line.startswith("#"):
                out.write(line)
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 4:
                raise SystemExit(f"{args.positions} line {at}: {len(fields)} fields; FEN, score, result, game")
            fen, _, result, game = fields
            cake.stdin.write(f"setup {board(fen)}\nscore {args.depth}\n")
            cake.stdin.flush()
            if (ok := cake.stdout.readline().strip()) != "ok":
                raise SystemExit(f"{args.positions} line {at}: Cake's setup answered {ok!r}")
            said = cake.stdout.readline().split()
            if len(said) < 2 or said[0] != "score":
                raise SystemExit(f"{args.positions} line {at}: Cake's score answered {' '.join(said)!r}")
            v = int(said[1])
            if abs(v) >= CAKE_WIN:
                v = DOSKA_WIN if v > 0 else -DOSKA_WIN
            out.write(f"{fen}\t{v if fen[0] == 'W' else -v}\t{result}\t{game}\n")
            n += 1
            if n % 100_000 == 0:
                print(f"{n} positions, {time.time() - start:.0f} s", file=sys.stderr, flush=True)
    cake.stdin.write("quit\n")
    cake.stdin.flush()
    cake.wait()
    print(f"{n} positions scored by Cake at depth {args.depth} in {time.time() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
