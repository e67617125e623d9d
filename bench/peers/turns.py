#!/usr/bin/env python3
"""Where doska's lost games turned: each game of a match's PDN (engine_match.py --pgn-out) that
doska lost, replayed with doska's rules (`doska moves`), every doska move searched again for
--movetime ms in one `doska hub` (with the endgame databases of $DOSKA_EGDB, as in the match).

For each lost game it prints doska's score at its first move after the opening, the first ply
(counted from the opening's end) where the score is --threshold hundredths of a man or worse,
with the pieces then on the board, and the first ply where the search finds the loss. With
--every N only every Nth doska move is searched (N = 2: every second one).

  python3 bench/peers/turns.py --variant american --movetime 1000 --every 2 cake-s9.pdn
"""

from __future__ import annotations

import argparse
import re
import sys

import peerlib
from peerlib import DoskaHub, doska_moves

LOSS = 20000  # a score this far below zero is a loss the search has found (doska's WIN bound)


def games(text: str):
    """(tags, moves) of each game of a PDN file as engine_match.py writes it."""
    for block in text.split("[Event ")[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', "[Event " + block))
        body = re.sub(r"\[[^\]]*\]", "", "[Event " + block)
        moves = [t for t in body.split() if not re.fullmatch(r"\d+\.|\*|1-0|0-1|1/2-1/2", t)]
        yield tags, moves


def replay(variant: str, fen: str, moves: list[str]) -> list[str]:
    """The FEN before each move (a move that is not legal there stops the game)."""
    fens = []
    for i, text in enumerate(moves):
        legal = [m for m in doska_moves(variant, fen)["moves"] if m["notation"] == text]
        if len(legal) != 1:
            raise SystemExit(f"move {i + 1} {text!r} of a game from {fen}: not one legal move there")
        fens.append(fen)
        fen = legal[0]["fen"]
    return fens


def pieces(fen: str) -> int:
    """The pieces on the board of a FEN (numbered or algebraic squares; counters left out)."""
    return sum(len([x for x in part[1:].split(",") if x]) for part in fen.split(":")[1:] if part[:1] in "WB")


def said(at: tuple | None, what: str) -> str:
    return f"{what} at ply {at[0]} ({at[1]} pieces)" if at else f"never {what}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", required=True)
    ap.add_argument("--movetime", type=int, default=1000, help="milliseconds a search (default 1000)")
    ap.add_argument("--every", type=int, default=1, help="search every Nth doska move (default 1: all)")
    ap.add_argument("--threshold", type=int, default=-100, help="hundredths of a man (default -100)")
    ap.add_argument("--doska", help="the doska binary (default $DOSKA or <repo>/target/release/doska)")
    ap.add_argument("pdn", nargs="+")
    args = ap.parse_args()
    if args.movetime <= 0 or args.every <= 0:
        raise SystemExit("--movetime and --every: whole numbers above 0")
    if args.doska:
        peerlib.DOSKA = peerlib.Path(args.doska)
    hub = DoskaHub(args.variant, args.movetime)
    lost = 0
    for path in args.pdn:
        for tags, moves in games(open(path).read()):
            side = "W" if tags.get("White") == "doska" else "B"
            winner = tags.get("Result", "").split(":")[0]
            if winner not in ("white", "black") or winner[0].upper() == side:
                continue
            lost += 1
            fens = replay(args.variant, tags["FEN"], moves)
            first = turned = found = None
            mine = [i for i, f in enumerate(fens) if f[0] == side][:: args.every]
            for i in mine:
                score = hub.score(fens[i])
                if score is None:  # one legal move: nothing searched
                    continue
                first = (i, score) if first is None else first
                if turned is None and score <= args.threshold:
                    turned = (i, pieces(fens[i]), score)
                if score <= -LOSS:
                    found = (i, pieces(fens[i]))
                    break
            print(f"{path}: doska {'white' if side == 'W' else 'black'}, lost after {len(moves)} plies "
                  f"({tags.get('Result')}); first move {first[1] / 100 if first else '-'}; "
                  f"{said(turned, f'{args.threshold / 100} or worse')}; {said(found, 'the loss found')}",
                  flush=True)
    hub.close()
    print(f"{lost} lost games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
