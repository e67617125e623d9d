#!/usr/bin/env python3
"""Run one peer library's perft once, in-process, and print one JSON line.

    $PEERS_VENV/bin/python bench/peers/perft.py --peer dame --variant international --depth 8
    {"peer": "dame", "version": "0.2.0", "variant": "international", "depth": 8,
     "nodes": 6483961, "seconds": 0.37, "cpu_seconds": 0.37, "match": true}

Only the perft call is timed (time.perf_counter around it; board set-up and
imports are outside); "cpu_seconds" is this thread's CPU time over the same
call (well below "seconds" means the machine was busy and the run was preempted;
dame-rs and kish run the perft in the calling thread). "match" compares "nodes" with the
repository's reference numbers, crates/rules/tests/data/perft.json, or the file given by
--reference (true/false, or null when the reference has no entry for that variant, FEN and
depth); a mismatch is also reported on stderr, and the exit status stays 0.

Peers (install them with setup.sh, run this file with the venv's python):
  dame         dame-rs, Rust:  dame.perft(Board(fen), depth). international only.
  kish         kish, Rust:     kish.Board.perft(depth), sequential (no rayon).
               turkish only. Counts every capture route separately
               ("keep duplicates"), so it differs from the reference from depth 7.
  pydraughts   pure Python: recursive legal_moves()/push()/pop() on draughts.Board.
  py-draughts  pure Python: recursive legal_moves/push()/pop() on the variant's Board.
FEN is passed to the peer in the peer's own format (see README.md); for kish a
PDN FEN with algebraic squares ("W:Wa2,b2,Kc4:Ba7,...") is parsed here.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import sys
import time
from pathlib import Path

# doska variant id -> the peer's own variant name / board class name, and where pydraughts is
# installed: shared with the cross-check scripts.
from peerlib import PY_DRAUGHTS_VARIANTS, PYDRAUGHTS_VARIANTS, pydraughts_site

PEERS = ("dame", "kish", "pydraughts", "py-draughts")

DIST_NAMES = {"dame": "dame-rs", "kish": "kish", "py-draughts": "py-draughts"}


def peer_version(peer: str) -> str:
    if peer == "pydraughts":
        # Installed with `pip --target`, outside the venv's metadata path.
        dists = list(pydraughts_site().glob("pydraughts-*.dist-info"))
        if dists:
            return dists[0].name[len("pydraughts-") : -len(".dist-info")]
        import draughts

        return draughts.__version__
    return importlib.metadata.version(DIST_NAMES[peer])


# --- per-peer perft ---------------------------------------------------------


def walk_perft(board, depth: int, legal_moves, key=None) -> int:
    """Recursive push/pop perft over a pure-Python peer's own move list.

    With `key`, moves with the same key (start, end, set of captured squares)
    count once ("drop duplicates", the reference's convention)."""
    if depth == 0:
        return 1
    moves = legal_moves(board)
    if key is not None:
        moves = list({key(m): m for m in moves}.values())
    if depth == 1:
        return len(moves)
    nodes = 0
    for m in moves:
        board.push(m)
        nodes += walk_perft(board, depth - 1, legal_moves, key)
        board.pop()
    return nodes



def setup_dame(variant: str, fen: str | None, dedup: bool):
    if variant != "international":
        raise SystemExit("dame-rs plays international draughts only")
    import dame

    board = dame.Board(fen) if fen else dame.Board()
    return lambda depth: dame.perft(board, depth)


def kish_board_from_fen(kish, fen: str):
    """PDN FEN with algebraic squares, e.g. 'W:Wa2,b2,Kd4:Ba7,Kh8' (kish has no FEN parser)."""
    fields = [f.strip() for f in fen.strip().strip('[]"').replace("FEN ", "").split(":")]
    turn = {"W": kish.Team.White, "B": kish.Team.Black}[fields[0].upper()]
    sides = {"W": [], "B": []}
    kings = []
    for field in fields[1:]:
        if not field or field[0].upper() not in sides:
            continue  # move counters etc.
        for tok in filter(None, (t.strip() for t in field[1:].split(","))):
            king = tok[0] in "Kk"
            sq = kish.Square.from_notation(tok[1:] if king else tok)
            sides[field[0].upper()].append(sq)
            if king:
                kings.append(sq)
    return kish.Board.from_squares(turn, sides["W"], sides["B"], kings)


def setup_kish(variant: str, fen: str | None, dedup: bool):
    if variant != "turkish":
        raise SystemExit("kish plays turkish draughts only")
    import kish

    board = kish_board_from_fen(kish, fen) if fen else kish.Board()
    if not dedup:
        return lambda depth: board.perft(depth)  # kish's Rust Board::perft, one call

    def perft(b, depth: int) -> int:
        # Python walk over kish's actions(), one action per (from, to, captured set).
        if depth == 0:
            return 1
        actions = {(int(a.source()), int(a.destination()), a.captured_bitboard()): a for a in b.actions()}
        if depth == 1:
            return len(actions) or 1  # kish counts a position without moves as 1 leaf
        if not actions:
            return 1
        return sum(perft(b.apply(a), depth - 1) for a in actions.values())

    return lambda depth: perft(board, depth)


def setup_pydraughts(variant: str, fen: str | None, dedup: bool):
    if variant not in PYDRAUGHTS_VARIANTS:
        raise SystemExit(f"pydraughts: no variant {variant!r}; known: {sorted(PYDRAUGHTS_VARIANTS)}")
    site = pydraughts_site()
    if not site.is_dir():
        raise SystemExit(f"pydraughts not found in {site} (run setup.sh or set PYDRAUGHTS_SITE)")
    sys.path.insert(0, str(site))  # shadows py-draughts' package of the same name `draughts`
    from draughts import Board

    board = Board(PYDRAUGHTS_VARIANTS[variant], fen or "startpos")
    key = (lambda m: (m.steps_move[0], m.steps_move[-1], frozenset(m.captures))) if dedup else None
    return lambda depth: walk_perft(board, depth, lambda b: b.legal_moves(), key)


def setup_py_draughts(variant: str, fen: str | None, dedup: bool):
    if variant not in PY_DRAUGHTS_VARIANTS:
        raise SystemExit(f"py-draughts: no variant {variant!r}; known: {sorted(PY_DRAUGHTS_VARIANTS)}")
    import draughts

    if not hasattr(draughts, "StandardBoard"):
        raise SystemExit("the `draughts` module found is not py-draughts")
    cls = getattr(draughts, PY_DRAUGHTS_VARIANTS[variant])
    board = cls.from_fen(fen) if fen else cls()
    key = (lambda m: (m.square_list[0], m.square_list[-1], frozenset(m.captured_list))) if dedup else None
    return lambda depth: walk_perft(board, depth, lambda b: b.legal_moves, key)


SETUP = {
    "dame": setup_dame,
    "kish": setup_kish,
    "pydraughts": setup_pydraughts,
    "py-draughts": setup_py_draughts,
}


# --- reference ----------------------------------------------------------------


def default_reference() -> Path:
    # <repo>/bench/peers/perft.py -> <repo>/crates/rules/tests/data/perft.json
    return Path(__file__).resolve().parents[2] / "crates" / "rules" / "tests" / "data" / "perft.json"


def canon_fen(fen: str | None) -> str | None:
    return fen.strip().upper().replace(" ", "") if fen else None


def reference_nodes(path: Path, variant: str, fen: str | None, depth: int) -> int | None:
    try:
        entries = json.loads(path.read_text())["entries"]
    except (OSError, ValueError, KeyError):
        return None
    for e in entries:
        if e.get("variant") == variant and canon_fen(e.get("fen")) == canon_fen(fen):
            series = e["perft"]
            if depth == 0:
                return 1
            return series[depth - 1] if depth <= len(series) else None
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peer", required=True, choices=PEERS)
    ap.add_argument("--variant", required=True, help="doska variant id, e.g. international, turkish")
    ap.add_argument("--depth", required=True, type=int)
    ap.add_argument("--fen", help="start position (peer's own FEN format); default: the variant's start")
    ap.add_argument("--repeat", type=int, default=1, help="run N times, report the fastest (default 1)")
    ap.add_argument("--dedup", action="store_true",
                    help="count capture sequences with the same start, end and captured set once "
                         "(Python-level walk: slow for kish; dame-rs always does this)")
    ap.add_argument("--reference", type=Path, default=default_reference(), help="perft.json to check against")
    args = ap.parse_args()
    if args.depth < 0 or args.repeat < 1:
        ap.error("--depth must be >= 0 and --repeat >= 1")

    run = SETUP[args.peer](args.variant, args.fen, args.dedup)
    best = best_cpu = None
    nodes = None
    for _ in range(args.repeat):
        c0 = time.thread_time()
        t0 = time.perf_counter()
        n = run(args.depth)
        dt = time.perf_counter() - t0
        dc = time.thread_time() - c0
        if nodes is not None and n != nodes:
            raise SystemExit(f"perft is not deterministic: {nodes} then {n}")
        nodes = n
        if best is None or dt < best:
            best, best_cpu = dt, dc

    expected = reference_nodes(args.reference, args.variant, args.fen, args.depth)
    match = None if expected is None else nodes == expected
    if match is False:
        print(f"perft.py: {args.peer} {args.variant} depth {args.depth}: {nodes} nodes, "
              f"reference {expected} (diff {nodes - expected:+d})", file=sys.stderr)
    print(json.dumps({
        "peer": args.peer,
        "version": peer_version(args.peer),
        "variant": args.variant,
        "depth": args.depth,
        "nodes": nodes,
        "seconds": round(best, 6),
        "cpu_seconds": round(best_cpu, 6),
        "match": match,
        **({"dedup": True} if args.dedup else {}),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
