#!/usr/bin/env python3
"""A match: doska's engine (Insane, T ms a move, in one `doska hub` process a game that keeps
its table from move to move; --doska-process analyze: a `doska analyze --level insane --movetime
T` process a move) against py-draughts' engines (or dame-rs, KestoG, Cake, Scan), at equal time
per move, over a balanced opening set with colours swapped.

    PY=/tmp/doska-peers-venv/bin/python
    $PY bench/peers/engine_match.py --variant international --games 4 --movetime 100
    $PY bench/peers/engine_match.py --variant international --peer-engine simple --games 4 --movetime 100
    $PY bench/peers/engine_match.py --variant russian --games 20 --movetime 200
    $PY bench/peers/engine_match.py --variant american --peer-engine cake --games 40 --movetime 300

Peer engines (py-draughts 1.10.1, pure Python):
  turbo   draughts.engines.turbo.TurboEngine: 10x10 International only; PVS + iterative
          deepening + TT + quiescence, with pattern weights regressed on Scan 3.1 search scores
          (turbo_weights.bin, the "Scan-taught" evaluation). Run with time_limit=T/1000 and
          depth_limit=None (64); it checks its deadline every 128 nodes.
  simple  draughts.SimpleEngine: negamax alpha-beta for every py-draughts board. Run with
          time_limit=T/1000 and depth_limit=64 (its depth_limit=None would mean 6); it checks
          the time every 2048 nodes and after each iteration.
  auto    turbo for international, simple otherwise (default).
Other peers, each in a program of its own (bench/engines/README.md):
  dame    dame-rs 0.2.0 (international).
  kestog  KestoG 1.4 (russian), --kestog PATH (bench/engines/kestog/build.sh).
  cake    Cake 1.89g (american), --cake PATH (bench/engines/cake/build.sh): no opening book, no
          endgame database; Cake's own time control for T, stopped at T.
  scan    Scan 2.0 (international), --scan DIR (bench/engines/scan/build.sh): Hub protocol,
          no opening book, 2-4 piece bitbases; a fixed time T per move (bench/peers/scan_peer.py).
Rule sets: international, russian, brazilian, frisian (py-draughts' boards; its American has
optional captures, so py-draughts is not offered there), and american against Cake only.
py-draughts does not enforce the Frisian limit of three king moves in a row (see compare.py), so
a Frisian game can stop with the peer's illegal move.

Openings: russian and brazilian use the tournament ballots shipped with pydraughts
(`ballot_files/russian.json`, `brazilian.json`: the 284/280 leaf openings of 3-6 plies written as
moves, e.g. "XXXI-2: gh4 hg5 ef4 ge3 df4 bc5"; entries that move pieces by hand are left out),
read as data from $PEERS_VENV/pydraughts-site and replayed with doska; other rule sets (or
--openings generated) use every position after --opening-plies plies from the start, kept when a
short doska search (the hand-set evaluation, no endgame database: the same openings for every
build) scores it within --balance (|score| <= B), in a seeded order. --opening-plies
is 3 for american by default, as checkers tournaments open from three-move ballots: 174 of its
three-ply positions pass --balance 40, against 47 of the 7 x 7 two-ply ones; 2 otherwise. Each opening is played twice, doska White then Black.

Rules and game ends are doska's: each ply `doska moves --json` on the current FEN with the game's
counters (H plies since a capture or man move, E plies in the current endgame class, N move
number; kept here exactly as doska's game.rs keeps them) gives the legal moves and the outcome
(no pieces, no moves, quiet-move and endgame draw rules, lone pieces); third repetition and the
600-ply cap are judged here from the game record, as doska's Game does. doska's engine gets the
whole game as PDN (start FEN + moves), so it sees the repetition history; its reply FEN's
counters are checked against the ones kept here. Moves cross between the two sides by (from, to,
sorted captured squares), the same key compare.py uses.

The result: wins/draws/losses for doska, its score, and the Elo difference with a 95% margin
(normal approximation on the per-game scores, as `doska match`; when every game is won or lost,
the exact one-sided Clopper-Pearson bound instead). --peer-depth N gives the peer a fixed depth
instead of the time (doska keeps --movetime). --doska-opening-moves N --doska-opening-movetime T
gives doska T ms at each of its first N moves of every game instead (the peer keeps --movetime):
not a match at equal time, but the most an opening book of doska's own deeper searches of those
moves could give, measured before one is built.
"""

from __future__ import annotations

import argparse
import atexit
import collections
import json
import math
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peerlib  # noqa: E402
from peerlib import (  # noqa: E402
    DOSKA_NUMBERING,
    CakePeer,
    DameEngine,
    DoskaHub,
    DriverPeer,
    DamePeer,
    KestoGPeer,
    PeerEngine,
    PeerMove,
    PyDraughtsPeer,
    doska_json,
    doska_moves,
    doska_version,
    move_key,
    parse_fen,
    pydraughts_site,
)
from scan_peer import ScanPeer  # noqa: E402

VARIANTS = ["international", "russian", "brazilian", "frisian", "american"]
# KestoG's program (bench/engines/kestog/build.sh), for --peer-engine kestog.
KESTOG = "/tmp/doska-engines/kestog"
# Cake's program (bench/engines/cake/build.sh), for --peer-engine cake.
CAKE = "/tmp/doska-engines/cake"
# Scan's folder (bench/engines/scan/build.sh), for --peer-engine scan.
SCAN = "/tmp/doska-engines/scan"
# What doska's Insane goes without in this run (--doska-without): to compare two versions of
# the search against the same peer with one build.
DOSKA_WITHOUT = ""
# How doska plays (--doska-process): "hub", one `doska hub` process a game, its table kept from
# move to move as the peers keep theirs; or "analyze", a `doska analyze` process a move (how
# the matches before 2026-12-01 were run).
DOSKA_PROCESS = "hub"
DOSKA_WEIGHTS = ""  # --doska-weights: a weights file for doska hub
DOSKA_TABLE_MB = 16  # --doska-table-mb: doska hub --table-mb
# --doska-opening-moves N, --doska-opening-movetime T: doska thinks T ms at its first N moves of
# each game instead of --movetime (not equal time: what a book of deeper searches could give).
DOSKA_OPENING = (0, 0)
# --doska-clock B+I: doska plays on a game clock of B seconds and I seconds a move (Fischer),
# sharing it out itself (doska's clock.rs); the peer keeps --movetime a move. Equal time is
# then each side's thinking time over the game, which the summary gives; a flag that falls
# loses the game.
DOSKA_CLOCK: tuple[float, float] | None = None
# Who moves first; the move number (N) goes up after the other side has moved.
FIRST = {"international": "W", "russian": "W", "brazilian": "W", "frisian": "W", "american": "B"}
FMJD = {"international", "brazilian", "canadian"}
MOVE_CAP_PLIES = 600  # doska's game.rs MOVE_CAP_PLIES


# --- counters, as doska's game.rs keeps them ------------------------------------------------


def material(pieces: dict) -> tuple[int, int, int, int]:
    wm = sum(1 for s, k in pieces.values() if s == "W" and not k)
    wk = sum(1 for s, k in pieces.values() if s == "W" and k)
    bm = sum(1 for s, k in pieces.values() if s == "B" and not k)
    bk = sum(1 for s, k in pieces.values() if s == "B" and k)
    return wm, wk, bm, bk


def endgame_class(variant: str, pieces: dict) -> int:
    """game.rs endgame_class: 1/2 FMJD art. 6 classes, 3 Russian 3+ kings v king, 4 Frisian 2 v 1."""
    wm, wk, bm, bk = material(pieces)
    lone = lambda m, k: m == 0 and k == 1  # noqa: E731
    if lone(bm, bk):
        sm, sk = wm, wk
    elif lone(wm, wk):
        sm, sk = bm, bk
    else:
        return 0
    if variant in FMJD:
        n = sm + sk
        if n == 3 and sk >= 1:
            return 1
        if n <= 2:
            return 2
        return 0
    if variant == "russian" and sk >= 3:
        return 3
    if variant == "frisian" and sm == 0 and sk == 2:
        return 4
    return 0


class Counters:
    def __init__(self, quiet=0, endgame=0, move_number=1):
        self.quiet, self.endgame, self.move_number = quiet, endgame, move_number

    def fields(self) -> str:
        out = ""
        if self.quiet:
            out += f":H{self.quiet}"
        if self.endgame:
            out += f":E{self.endgame}"
        if self.move_number > 1:
            out += f":N{self.move_number}"
        return out

    def advance(self, variant: str, before: tuple, mv: dict, after: tuple) -> None:
        (turn, bp), (_, ap) = before, after
        man_moved = not bp[mv["from"]][1]
        self.quiet = 0 if (mv["captures"] or man_moved) else self.quiet + 1
        cls = endgame_class(variant, ap)
        self.endgame = self.endgame + 1 if cls != 0 and cls == endgame_class(variant, bp) else 0
        if turn != FIRST[variant]:
            self.move_number += 1


def strip_counters(fen: str) -> str:
    """The position part of a doska FEN (the R fields of a Frisian king run stay: they are
    part of the position)."""
    return ":".join(f for f in fen.split(":") if not (f[:1] in "HEN" and f[1:].isdigit()))


def parse_counters(fen: str) -> tuple[int, int, int]:
    c = {"H": 0, "E": 0, "N": 1}
    for f in fen.split(":")[1:]:
        if f[:1] in c and f[1:].isdigit():
            c[f[0]] = int(f[1:])
    return c["H"], c["E"], c["N"]


# --- openings ---------------------------------------------------------------------------------


def ballot_openings(variant: str) -> list[tuple[str, list[str]]]:
    """(name, moves) of the pydraughts ballots; moves in its short form "gh4" (from file g to h4)."""
    path = pydraughts_site() / "draughts" / "ballot_files" / f"{variant}.json"
    data = json.loads(path.read_text())
    names = {key: key.split(":", 1)[1].split() for key in data["standard"]}
    # The file is a tree of prefixes ("I-1: ab4", "I-2: ab4 ba5", ...): keep the leaves, and
    # only openings made of moves ("gh4 hg5 ef4 ..."): the other entries ("II-2: a1-a5
    # a7-h4") are start positions with pieces moved by hand, not openings.
    prefixes = {tuple(ms[:i]) for ms in names.values() for i in range(1, len(ms))}
    return [(key, ms) for key, ms in names.items()
            if tuple(ms) not in prefixes and all(re.fullmatch(r"[a-h][a-h][1-8]", t) for t in ms)]


def replay_ballot(variant: str, moves: list[str]) -> str:
    """The ballot's position, by playing its moves with doska (the file's own FENs are not
    trusted: "XXVII-9" has the wrong side to move)."""
    fen = doska_moves(variant)["fen"]
    for t in moves:
        ms = [m for m in doska_moves(variant, fen)["moves"] if m["from"][0] == t[0] and m["to"] == t[1:]]
        if len(ms) != 1:
            raise SystemExit(f"ballot move {t} of {moves}: {len(ms)} matching moves")
        fen = ms[0]["fen"]
    return fen


# An empty folder: the balancing searches read no endgame database.
NO_EGDB = tempfile.mkdtemp(prefix="doska-no-egdb-")
atexit.register(shutil.rmtree, NO_EGDB, ignore_errors=True)


def generated_openings(variant: str, plies: int, balance: int, depth: int) -> list[tuple[str, str]]:
    frontier = [("", doska_moves(variant)["fen"])]
    for _ in range(plies):
        nxt = []
        for name, fen in frontier:
            for m in doska_moves(variant, fen)["moves"]:
                nxt.append(((name + " " + m["notation"]).strip(), m["fen"]))
        frontier = nxt
    seen, out = set(), []
    for name, fen in frontier:
        if fen in seen:
            continue
        seen.add(fen)
        if balance >= 0:
            # Judged by the hand-set evaluation and no endgame database, so that every build
            # (and every weights file) is measured on the same openings.
            a = doska_json("analyze", "--variant", variant, "--fen", fen, "--depth", str(depth),
                           "--without", "learned,egdb", "--egdb", NO_EGDB)
            if abs(a["score"]) > balance:
                continue
        out.append((name, fen))
    return out


# --- one game ---------------------------------------------------------------------------------


def make_engine(draughts, kind: str, variant: str, movetime_ms: int, depth: int | None = None):
    if kind == "dame":
        return DameEngine(draughts, movetime_ms, depth), "dame-rs" + (f" depth {depth}" if depth else "")
    t = None if depth else movetime_ms / 1000.0
    if kind == "auto":
        kind = "turbo" if variant == "international" else "simple"
    if kind == "turbo":
        from draughts.engines.turbo import TurboEngine

        if variant != "international":
            raise SystemExit("TurboEngine plays international only")
        return TurboEngine(depth_limit=depth, time_limit=t), "TurboEngine" + (f" depth {depth}" if depth else "")
    return (draughts.SimpleEngine(depth_limit=depth or 64, time_limit=t),
            "SimpleEngine" + (f" depth {depth}" if depth else ""))


def pdn_text(variant: str, start_fen: str, moves: list[str]) -> str:
    body = []
    for i, m in enumerate(moves):
        body.append(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m)
    return f'[Variant "{variant}"]\n[FEN "{start_fen}"]\n\n{" ".join(body)} *\n'


def play_game(variant: str, opening_fen: str, opening_plies: int, doska_white: bool, movetime: int,
              peer_kind: str, log, peer_depth: int | None = None) -> dict:
    numbering = DOSKA_NUMBERING.get(variant)
    start = doska_moves(variant, opening_fen)["fen"]  # canonical doska FEN
    if peer_kind == "kestog":
        peer = KestoGPeer(variant, start, KESTOG)
        engine, engine_name = PeerEngine(peer, movetime), "KestoG 1.4"
    elif peer_kind == "cake":
        peer = CakePeer(variant, start, CAKE)
        engine, engine_name = PeerEngine(peer, movetime), "Cake 1.89g"
    elif peer_kind == "scan":
        peer = ScanPeer(variant, start, SCAN)
        engine, engine_name = PeerEngine(peer, movetime), "Scan 2.0"
    else:
        peer = DamePeer(variant, start) if peer_kind == "dame" else PyDraughtsPeer(variant, start)
        engine, engine_name = make_engine(peer.dame if peer_kind == "dame" else peer.draughts, peer_kind, variant,
                                          movetime, peer_depth)
    doska_side = "white" if doska_white else "black"
    hub = DoskaHub(variant, movetime, DOSKA_WITHOUT, DOSKA_WEIGHTS, DOSKA_TABLE_MB) if DOSKA_PROCESS == "hub" else None
    fen = strip_counters(start)
    counters = Counters(*parse_counters(start))  # as doska reads the start FEN of the PDN
    history = collections.Counter([fen])
    played: list[str] = []
    times = {"doska": [], "peer": []}
    doska_secs: list[float] = []
    depths: list[int] = []
    warnings: list[str] = []
    outcome = None
    clock_left = DOSKA_CLOCK[0] if DOSKA_CLOCK else 0.0
    while True:
        d = doska_moves(variant, fen + counters.fields())
        if d["outcome"] is not None:
            outcome = (d["outcome"]["result"], d["outcome"]["reason"])
            break
        if history[fen] >= 3:
            outcome = ("draw", "third repetition of the position")
            break
        if opening_plies + len(played) >= MOVE_CAP_PLIES:
            outcome = ("draw", f"{MOVE_CAP_PLIES}-ply cap")
            break
        by_key: dict = {}
        for m in d["moves"]:
            by_key.setdefault(move_key(m["from"], m["to"], m["captures"]), m)
        peer_moves = peer.moves()  # None: the peer checks doska's moves itself when they are played
        peer_by_key = {pm.key: pm for pm in peer_moves} if peer_moves is not None else None
        if d["turn"] == doska_side:
            t0 = time.perf_counter()
            ms = DOSKA_OPENING[1] if len(depths) < DOSKA_OPENING[0] else movetime  # depths: one a move
            if hub is not None:
                best, depth = hub.go(start, played, ms, (clock_left, DOSKA_CLOCK[1]) if DOSKA_CLOCK else None)
                a = {"best": best, "depth": depth, "seconds": time.perf_counter() - t0}
            else:
                a = doska_json("analyze", "--variant", variant, "--fen", pdn_text(variant, start, played),
                               "--movetime", str(ms),
                               "--level", "insane", "--without", DOSKA_WITHOUT)
            times["doska"].append(time.perf_counter() - t0)
            if DOSKA_CLOCK:
                clock_left -= times["doska"][-1]
                if clock_left < 0:
                    outcome = ("white" if doska_side == "black" else "black", "doska's clock ran out")
                    break
                clock_left += DOSKA_CLOCK[1]
            doska_secs.append(a["seconds"])
            depths.append(a["depth"])
            if "fen" in a and (strip_counters(a["fen"]) != fen
                               or parse_counters(a["fen"]) != parse_counters(fen + counters.fields())):
                warnings.append(f"ply {len(played)}: doska's game FEN {a['fen']} != kept {fen + counters.fields()}")
            mv = next((m for m in d["moves"] if m["notation"] == a["best"]), None)
            if mv is None:
                outcome = ("error", f"doska's best {a['best']!r} is not in its move list")
                break
            key = move_key(mv["from"], mv["to"], mv["captures"])
            pm = peer_by_key.get(key) if peer_by_key is not None else PeerMove(mv["path"], mv["captures"], "doska")
            if pm is None:
                outcome = ("error", f"doska's move {mv['notation']} is not legal for py-draughts")
                break
        else:
            t0 = time.perf_counter()
            try:
                obj = engine.get_best_move(peer.board)
            except RuntimeError as e:
                # A peer that dies is not a result: the game is reported and left unscored.
                outcome = ("error", f"{engine_name} failed at {fen + counters.fields()}: {e}")
                break
            times["peer"].append(time.perf_counter() - t0)
            pm = peer.wrap(obj)
            key = pm.key
            mv = by_key.get(key)
            if mv is None:
                outcome = ("error", f"py-draughts' move {'x'.join(pm.path)} is not legal for doska")
                break
        before = parse_fen(fen, numbering)
        try:
            peer.push(pm)
        except RuntimeError as e:
            outcome = ("error", f"the peer refused {mv['notation']}: {e}")
            break
        after_fen = mv["fen"]
        counters.advance(variant, before, mv, parse_fen(after_fen, numbering))
        fen = strip_counters(after_fen)
        history[fen] += 1
        played.append(mv["notation"])
    result, reason = outcome
    if result == "error":
        score = None
    elif result == "draw":
        score = 0.5
    else:
        score = 1.0 if result == doska_side else 0.0
    log(f"  doska {doska_side:5} vs {engine_name}: {result} ({reason}) after {len(played)} plies; "
        f"think/move doska {avg(times['doska']) * 1000:.0f} ms wall ({avg(doska_secs) * 1000:.0f} ms in search, "
        f"depth {avg(depths):.1f}), peer {avg(times['peer']) * 1000:.0f} ms"
        + (f" (depth {avg(engine.depths):.1f})" if isinstance(engine, (DameEngine, PeerEngine)) else "")
        + f"; the game's thinking doska {sum(times['doska']):.1f} s, peer {sum(times['peer']):.1f} s"
        + (f"; doska's first moves {' '.join(f'{t:.2f}' for t in times['doska'][:10])} s" if DOSKA_CLOCK else ""))
    if hub is not None:
        hub.close()
    if isinstance(peer, (DriverPeer, ScanPeer)):
        peer.close()
    for w in warnings[:3]:
        log(f"    counter check: {w}")
    return {"score": score, "result": result, "reason": reason, "plies": len(played), "engine": engine_name,
            "doska_ms": times["doska"], "peer_ms": times["peer"], "doska_depths": depths,
            "pdn": pdn_text(variant, start, played), "warnings": warnings}


def avg(xs) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def elo(p: float) -> float:
    p = min(max(p, 0.001), 0.999)
    return -400.0 * math.log10(1.0 / p - 1.0)


def main() -> int:
    global DOSKA_WITHOUT, DOSKA_PROCESS, DOSKA_WEIGHTS, DOSKA_TABLE_MB, DOSKA_OPENING, DOSKA_CLOCK, KESTOG, CAKE, SCAN
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", required=True, choices=VARIANTS)
    ap.add_argument("--games", type=int, default=20, help="games (rounded up to even; default 20)")
    ap.add_argument("--movetime", type=int, default=100, help="milliseconds per move for both sides (default 100)")
    ap.add_argument("--peer-engine", default="auto", choices=["auto", "turbo", "simple", "dame", "kestog", "cake", "scan"])
    ap.add_argument("--kestog", default=KESTOG, help="KestoG's program (bench/engines/kestog/build.sh)")
    ap.add_argument("--cake", default=CAKE, help="Cake's program (bench/engines/cake/build.sh)")
    ap.add_argument("--scan", default=SCAN, help="Scan's folder (bench/engines/scan/build.sh)")
    ap.add_argument("--peer-depth", type=int, help="the peer searches to this depth instead of --movetime")
    ap.add_argument("--openings", default="auto", choices=["auto", "ballots", "generated"],
                    help="auto: ballots for russian/brazilian, generated otherwise")
    ap.add_argument("--opening-plies", type=int,
                    help="generated openings: plies from the start (default 3 for american, else 2)")
    ap.add_argument("--balance", type=int, default=40,
                    help="generated openings: keep |doska score| <= this at --balance-depth (-1: keep all)")
    ap.add_argument("--balance-depth", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--doska", help="the doska binary (default $DOSKA or <repo>/target/release/doska)")
    ap.add_argument("--doska-without", default="", help="terms and search techniques doska's Insane goes without "
                    "(as doska match --a-without), e.g. aspiration,spend for the search before those")
    ap.add_argument("--doska-weights", default="", help="a learned evaluation's weights file (doska learn --out) "
                    "doska evaluates with instead of the build's (doska hub --weights; hub only)")
    ap.add_argument("--doska-table-mb", type=int, default=16,
                    help="doska hub's hash table, at most this many megabytes (doska hub --table-mb; "
                    "default 16, which is 8 MB of entries; hub only)")
    ap.add_argument("--doska-process", default="hub", choices=["hub", "analyze"],
                    help="hub: one `doska hub` process a game, its table kept (default); analyze: a "
                    "`doska analyze` process a move, the game so far given as PDN")
    ap.add_argument("--doska-opening-moves", type=int, default=0,
                    help="doska thinks --doska-opening-movetime instead of --movetime at its first this many "
                    "moves of each game (after the opening's plies): not equal time, but the most that an "
                    "opening book of doska's own deeper searches could give (default 0: none)")
    ap.add_argument("--doska-opening-movetime", type=int, default=0,
                    help="milliseconds a move for doska's first --doska-opening-moves moves")
    ap.add_argument("--doska-clock", metavar="B+I",
                    help="doska plays on a game clock of B seconds and I seconds a move (e.g. 8+0.2), "
                    "sharing it out itself, instead of --movetime a move; the peer keeps --movetime; the "
                    "summary gives each side's thinking time a game (hub only)")
    ap.add_argument("--pgn-out", help="write every game as PDN to this file")
    args = ap.parse_args()
    if args.doska:
        peerlib.DOSKA = Path(args.doska)
    DOSKA_WITHOUT = args.doska_without
    DOSKA_PROCESS = args.doska_process
    DOSKA_WEIGHTS = args.doska_weights
    DOSKA_TABLE_MB = args.doska_table_mb
    if (args.doska_opening_moves > 0) != (args.doska_opening_movetime > 0):
        raise SystemExit("--doska-opening-moves and --doska-opening-movetime go together, each above 0")
    DOSKA_OPENING = (args.doska_opening_moves, args.doska_opening_movetime)
    if args.doska_clock:
        try:
            b, i = (float(x) for x in args.doska_clock.split("+"))
        except ValueError:
            raise SystemExit(f"--doska-clock {args.doska_clock!r}: B+I in seconds, e.g. 8+0.2")
        if not (b > 0 and i >= 0):
            raise SystemExit(f"--doska-clock {args.doska_clock!r}: B above 0, I 0 or more")
        if DOSKA_OPENING[0] or args.doska_process != "hub":
            raise SystemExit("--doska-clock goes with doska hub (--doska-process hub) and without "
                             "--doska-opening-moves")
        DOSKA_CLOCK = (b, i)
    if not 1 <= DOSKA_TABLE_MB <= 4096:
        raise SystemExit(f"--doska-table-mb {DOSKA_TABLE_MB}: megabytes, 1 to 4096")
    if DOSKA_TABLE_MB != 16 and DOSKA_PROCESS != "hub":
        raise SystemExit("--doska-table-mb is given to doska hub: use it with --doska-process hub")
    if DOSKA_WEIGHTS and DOSKA_PROCESS != "hub":
        raise SystemExit("--doska-weights is given to doska hub: use it with --doska-process hub")
    KESTOG = args.kestog
    CAKE = args.cake
    SCAN = args.scan
    if args.variant == "american" and args.peer_engine != "cake":
        raise SystemExit("american is played against Cake only (--peer-engine cake)")
    if args.opening_plies is None:
        args.opening_plies = 3 if args.variant == "american" else 2
    log = lambda s: print(s, flush=True)  # noqa: E731
    log(f"doska: {peerlib.DOSKA} ({doska_version()})")

    source = args.openings
    if source == "auto":
        source = "ballots" if args.variant in ("russian", "brazilian") else "generated"
    pairs = (args.games + 1) // 2
    if source == "ballots":
        ballots = ballot_openings(args.variant)
        random.Random(args.seed).shuffle(ballots)
        openings = [(name, ms) for name, ms in ballots]
        chosen = [(name, replay_ballot(args.variant, ms), len(ms))
                  for name, ms in (ballots[i % len(ballots)] for i in range(pairs))]
    else:
        openings = generated_openings(args.variant, args.opening_plies, args.balance, args.balance_depth)
        random.Random(args.seed).shuffle(openings)
        chosen = [(*openings[i % len(openings)], args.opening_plies) for i in range(pairs)]
    if not openings:
        raise SystemExit("no openings")
    log(f"{args.variant}: {len(openings)} {source} openings, playing {pairs} x 2 games, {args.movetime} ms/move")

    games = []
    for name, fen, plies in chosen:
        for doska_white in (True, False):
            log(f"game {len(games) + 1}: opening {name!r} ({fen})")
            g = play_game(args.variant, fen, plies, doska_white, args.movetime, args.peer_engine, log,
                          args.peer_depth)
            g.update(opening=name, doska_white=doska_white)
            games.append(g)
    if args.pgn_out:
        Path(args.pgn_out).write_text("\n".join(
            f'[Event "doska vs {g["engine"]}"]\n[White "{"doska" if g["doska_white"] else g["engine"]}"]\n'
            f'[Black "{g["engine"] if g["doska_white"] else "doska"}"]\n[Result "{g["result"]}: {g["reason"]}"]\n' + g["pdn"]
            for g in games))

    scored = [g["score"] for g in games if g["score"] is not None]
    w = sum(1 for s in scored if s == 1.0)
    d = sum(1 for s in scored if s == 0.5)
    lo = sum(1 for s in scored if s == 0.0)
    errors = len(games) - len(scored)
    n = len(scored)
    engine_name = games[0]["engine"] if games else "?"
    print()
    if n == 0:
        print(f"no scored games ({errors} errors)")
        return 1
    p = sum(scored) / n
    var = sum((s - p) ** 2 for s in scored) / n
    se = math.sqrt(var / n)
    margin = (elo(min(p + 1.96 * se, 0.999)) - elo(max(p - 1.96 * se, 0.001))) / 2
    if p in (0.0, 1.0):
        # Every game won (or lost): the normal margin is 0 and the Elo infinite. Say what the
        # games do show: the exact (Clopper-Pearson) one-sided 97.5% bound on the score.
        bound = 0.025 ** (1.0 / n)
        elo_text = (f"Elo >= {elo(bound):+.0f} (95%: all {n} games won; exact bound on the score "
                    f"{bound * 100:.1f}%)" if p == 1.0 else
                    f"Elo <= {elo(1 - bound):+.0f} (95%: all {n} games lost)")
    else:
        elo_text = f"Elo {elo(p):+.0f} ± {margin:.0f} (95%)"
    all_d = [t for g in games for t in g["doska_ms"]]
    all_p = [t for g in games for t in g["peer_ms"]]
    peer_time = "" if args.peer_depth else f" {args.movetime} ms/move"
    weights = f" with {DOSKA_WEIGHTS}" if DOSKA_WEIGHTS else ""
    if DOSKA_TABLE_MB != 16:
        weights += f" (hash table at most {DOSKA_TABLE_MB} MB)"
    doska_time = f"{args.movetime} ms/move"
    if DOSKA_OPENING[0]:
        doska_time = f"{DOSKA_OPENING[1]} ms/move at its first {DOSKA_OPENING[0]} moves, then {doska_time}"
    if DOSKA_CLOCK:
        doska_time = f"on a clock of {DOSKA_CLOCK[0]:g} s + {DOSKA_CLOCK[1]:g} s/move"
    print(f"{args.variant}: doska insane{weights} {doska_time} vs {engine_name}{peer_time}, {n} games"
          f"{f' ({errors} stopped on an error)' if errors else ''}: +{w} ={d} -{lo}, "
          f"score {p * 100:.1f}%, {elo_text}")
    print(f"  mean time per move: doska {avg(all_d) * 1000:.0f} ms wall ({'the game replayed and searched in doska hub' if DOSKA_PROCESS == 'hub' else 'process start, PDN replay and search'}), "
          f"{engine_name} {avg(all_p) * 1000:.0f} ms (max {max(all_p, default=0) * 1000:.0f}); mean doska depth "
          f"{avg([x for g in games for x in g['doska_depths']]):.1f}")
    doska_games = [sum(g["doska_ms"]) for g in games]
    peer_games = [sum(g["peer_ms"]) for g in games]
    fewer = sum(1 for d, pe in zip(doska_games, peer_games) if d <= pe)
    print(f"  thinking a game: doska {avg(doska_games):.1f} s, {engine_name} {avg(peer_games):.1f} s "
          f"(doska/{engine_name} {sum(doska_games) / max(sum(peer_games), 1e-9):.2f}; doska thought no "
          f"longer in {fewer} of {len(games)} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
