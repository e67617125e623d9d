#!/usr/bin/env python3
"""Cross-check doska's legal moves against pydraughts and py-draughts over random games.

    PY=/tmp/doska-peers-venv/bin/python
    $PY bench/peers/compare.py                          # every shared rule set, its default peer
    $PY bench/peers/compare.py --peer all               # both peers wherever each plays the rule set
    $PY bench/peers/compare.py --variants turkish --games 5 --plies 60
    $PY bench/peers/compare.py --write-sample           # also write crates/rules/tests/data/peers_sample.json

For each rule set the peer also plays, N seeded random games are played (a random move of the
agreed move list each ply). At every position the set of moves (start, end, sorted captured
squares; duplicate capture routes dropped, docs/rules/README.md "What a move is") of the peer is
compared with `doska moves --json`, and after each ply the peer's position (pieces, kings, side
to move) with doska's FEN after the move. On a disagreement the FEN and both sets are printed and that
game stops. The summary table gives positions compared, disagreements, and a diagnosis for
each kind of disagreement (which side the rule book, docs/rules/, backs).

Rule sets and peers (see README.md "API notes"):
  international  py-draughts StandardBoard (default) | pydraughts standard
  frisian        py-draughts FrisianBoard (default) | pydraughts frisian
  russian        py-draughts RussianBoard (default) | pydraughts russian
  brazilian      py-draughts BrazilianBoard (default) | pydraughts brazilian
  american       pydraughts english (default) | py-draughts AmericanBoard with captures made
                 compulsory (its legal_moves passes captures_optional=True to the shared
                 generator; the subclass here passes False). --american-optional keeps the
                 stock class, to show that difference.
  italian        pydraughts italian
  turkish        pydraughts turkish
Not compared: poddavki. Both peers' `antidraughts` is International draughts (10x10, majority
capture) with the result reversed, while doska's poddavki (docs/rules/poddavki.md) is the
Russian rules (8x8, free capture choice, promotion during a capture) with the result reversed.
canadian, spanish, czech, armenian, thai, lasca: neither peer plays them.
pydraughts and py-draughts both are the Python package `draughts`, so each peer runs in its own
process (this script re-runs itself per peer when several are asked for).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peerlib  # noqa: E402
from peerlib import (  # noqa: E402
    DOSKA_NUMBERING,
    PY_DRAUGHTS_VARIANTS,
    PYDRAUGHTS_VARIANTS,
    REPO,
    alg_parts,
    doska_moves,
    doska_version,
    make_peer,
    move_key,
    parse_fen,
)

VARIANTS = ["international", "russian", "brazilian", "frisian", "american", "italian", "turkish"]
DEFAULT_PEER = {
    "international": "py-draughts",
    "russian": "py-draughts",
    "brazilian": "py-draughts",
    "frisian": "py-draughts",
    "american": "pydraughts",
    "italian": "pydraughts",
    "turkish": "pydraughts",
}
SAMPLE_PATH = REPO / "crates" / "rules" / "tests" / "data" / "peers_sample.json"


def peers_for(variant: str, choice: str) -> list[str]:
    have = [p for p, table in (("py-draughts", PY_DRAUGHTS_VARIANTS), ("pydraughts", PYDRAUGHTS_VARIANTS))
            if variant in table]
    if choice == "auto":
        return [DEFAULT_PEER[variant]]
    if choice == "all":
        return have
    return [choice] if choice in have else []


# --- diagnosis ------------------------------------------------------------------------------


def squares_between(a: str, b: str) -> list[str]:
    """Squares strictly between a and b on a straight (orthogonal or diagonal) line."""
    (fa, ra), (fb, rb) = alg_parts(a), alg_parts(b)
    df, dr = fb - fa, rb - ra
    n = max(abs(df), abs(dr))
    if n == 0 or (df and dr and abs(df) != abs(dr)):
        return []
    sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
    from peerlib import alg

    return [alg(fa + i * sf, ra + i * sr) for i in range(1, n)]


def diagnose(variant: str, peer: str, fen: str, ours: dict, theirs: dict, position_issue: str | None) -> tuple[str, str]:
    """(kind, diagnosis) of one disagreement, from what the rule book (docs/rules/) says."""
    if position_issue:
        return "position after the move differs", position_issue
    turn, pieces = parse_fen(fen, DOSKA_NUMBERING.get(variant))
    only_peer = [theirs[k][0] for k in theirs if k not in ours]
    only_ours = [k for k in ours if k not in theirs]
    any_capture_ours = any(k[2] for k in ours)

    # A peer move that passes over a piece of its own side, or a quiet peer move that passes
    # over any piece.
    def through_pieces(m) -> bool:
        for a, b in zip(m.path, m.path[1:]):
            for sq in squares_between(a, b):
                if sq in pieces and (pieces[sq][0] == turn or not m.captures):
                    return True
        return False

    if only_peer and not only_ours and all(through_pieces(m) for m in only_peer):
        own = all(any(pieces.get(sq, ("", False))[0] == turn for a, b in zip(m.path, m.path[1:])
                      for sq in squares_between(a, b)) for m in only_peer)
        return ("peer: king moves through occupied squares" + (" (its own men)" if own else
                                                              " (own or enemy pieces, no capture)"),
                "doska right: a king moves and flies over empty squares only (docs/rules/turkish.md: flying, "
                "orthogonal; Turkish strike) - pydraughts' Turkish king slides through pieces")
    # Frisian art. 17: the king that made three non-capturing moves in a row (FEN field
    # R<side><square>=3) may not make a fourth while its side has men.
    runs = {}
    for field in fen.split(":")[1:]:
        if field[:1] == "R" and "=" in field:
            sq, n = field[2:].split("=")
            num = DOSKA_NUMBERING.get(variant)
            runs[field[1]] = (num[0][int(sq)] if num and sq.isdigit() else sq, int(n))
    if (variant == "frisian" and only_peer and not only_ours and turn in runs and runs[turn][1] >= 3
            and any(not k and s == turn for s, k in pieces.values())
            and all(m.frm == runs[turn][0] and not m.captures for m in only_peer)):
        return ("peer: fourth non-capturing move in a row with the same Frisian king",
                "doska right: docs/rules/frisian.md (art. 17) allows at most three while the side has men; "
                "py-draughts' FrisianBoard says the rule is 'tracked but not currently enforced'")
    if only_peer and not only_ours and any_capture_ours and all(not m.captures for m in only_peer):
        return ("peer: quiet moves offered while a capture exists",
                "doska right: capturing is compulsory (docs/rules/README.md general defaults; WCDF for American); "
                "py-draughts' American makes captures optional")
    return ("unclassified", "see the printed FEN and sets")


# --- one peer, one rule set -----------------------------------------------------------------


def fmt_key(k) -> str:
    frm, to, caps = k
    return f"{frm}{'x' if caps else '-'}{to}" + (f"[{','.join(caps)}]" if caps else "")


def run_variant(variant: str, peer_name: str, games: int, plies: int, seed: int, verbose: bool,
                american_optional: bool, continue_known: bool = False) -> dict:
    numbering = DOSKA_NUMBERING.get(variant)
    start = doska_moves(variant)["fen"]
    stats = {"variant": variant, "peer": peer_name, "games": games, "positions": 0, "disagreements": [],
             "samples": [], "seconds": 0.0, "peer_duplicates": 0, "doska_duplicates": 0}
    if peer_name == "py-draughts" and variant == "american":
        stats["peer"] = "py-draughts (stock, captures optional)" if american_optional \
            else "py-draughts (captures made compulsory)"
    t0 = time.perf_counter()
    for g in range(games):
        rng = random.Random(f"{seed}/{variant}/{g}")
        kw = {"forced_captures": not american_optional} if peer_name == "py-draughts" else {}
        peer = make_peer(peer_name, variant, start, **kw)
        fen = start
        for ply in range(plies):
            d = doska_moves(variant, fen)
            if d["outcome"] is not None:
                break
            ours: dict = {}
            for m in d["moves"]:
                ours.setdefault(move_key(m["from"], m["to"], m["captures"]), []).append(m)
            theirs: dict = {}
            for m in peer.moves():
                theirs.setdefault(m.key, []).append(m)
            stats["positions"] += 1
            stats["peer_duplicates"] += any(len(ms) > 1 for ms in theirs.values())
            stats["doska_duplicates"] += any(len(ms) > 1 for ms in ours.values())
            agreed = set(ours) == set(theirs)
            if not agreed:
                kind, why = diagnose(variant, peer_name, fen, ours, theirs, None)
                rec = {"game": g, "ply": ply, "fen": d["fen"], "kind": kind, "diagnosis": why,
                       "doska_only": [fmt_key(k) for k in sorted(set(ours) - set(theirs))],
                       "peer_only": [("x".join(m.path) + f" captures {','.join(m.captures)}") if m.captures
                                     else "-".join(m.path)
                                     for k in sorted(set(theirs) - set(ours)) for m in theirs[k][:1]],
                       "doska": sorted(fmt_key(k) for k in ours), "peer": sorted(fmt_key(k) for k in theirs)}
                stats["disagreements"].append(rec)
                print(f"MISMATCH {variant} vs {stats['peer']} game {g} ply {ply}\n  FEN {d['fen']}\n"
                      f"  doska ({len(ours)}): {' '.join(rec['doska'])}\n"
                      f"  peer  ({len(theirs)}): {' '.join(rec['peer'])}\n"
                      f"  doska only: {rec['doska_only']}\n  peer only: {rec['peer_only']}\n  -> {kind}",
                      flush=True)
                if not (continue_known and kind.startswith("peer:")):
                    break
            if not ours:
                break
            if agreed:
                before = parse_fen(d["fen"], numbering)[1]
                promo = any(m["captures"] and not before[m["from"]][1]
                            and parse_fen(m["fen"], numbering)[1].get(m["to"], ("", False))[1]
                            for m in d["moves"])
                stats["samples"].append({"variant": variant, "fen": d["fen"],
                                         "moves": [[k[0], k[1], list(k[2])] for k in sorted(ours)],
                                         "promoting_capture": promo})
            both = sorted(set(ours) & set(theirs))
            if not both:
                break
            key = rng.choice(both)
            pm = theirs[key][0]
            peer.push(pm)
            got = peer.position()
            after = [m["fen"] for m in ours[key] if parse_fen(m["fen"], numbering) == got]
            if not after:
                want = parse_fen(ours[key][0]["fen"], numbering)
                diff = sorted(set(got[1].items()) ^ set(want[1].items()))
                issue = (f"after {fmt_key(key)} (peer route {'x'.join(pm.path)}): doska {ours[key][0]['fen']}, "
                         f"peer turn {got[0]} pieces differ on {diff}")
                kind, why = diagnose(variant, peer_name, fen, ours, theirs, issue)
                stats["disagreements"].append({"game": g, "ply": ply, "fen": d["fen"], "kind": kind,
                                               "diagnosis": why, "move": fmt_key(key)})
                print(f"MISMATCH {variant} vs {stats['peer']} game {g} ply {ply}: {issue}", flush=True)
                break
            fen = after[0]
        if verbose:
            print(f"  {variant} {stats['peer']}: game {g + 1}/{games}, {stats['positions']} positions, "
                  f"{len(stats['disagreements'])} disagreements", file=sys.stderr, flush=True)
    stats["seconds"] = round(time.perf_counter() - t0, 1)
    return stats


# --- sample ---------------------------------------------------------------------------------


def pick_sample(samples: list[dict], n: int, seed: int) -> list[dict]:
    """Up to n positions, distinct FENs, preferring captures that crown a man, then
    multi-captures, single captures, positions with kings, and the rest; a seeded choice within
    each group."""
    uniq: dict[str, dict] = {}
    for s in samples:
        uniq.setdefault(s["fen"], s)
    rng = random.Random(seed)

    def group(s) -> int:
        caps = [len(m[2]) for m in s["moves"]]
        if s.get("promoting_capture"):
            return 0
        if caps and max(caps) >= 2:
            return 1
        if caps and max(caps) == 1:
            return 2
        _, pieces = parse_fen(s["fen"], DOSKA_NUMBERING.get(s["variant"]))
        return 3 if any(k for _, k in pieces.values()) else 4

    groups: dict[int, list[dict]] = {}
    for s in uniq.values():
        groups.setdefault(group(s), []).append(s)
    quota = {0: n // 8, 1: n // 4, 2: n // 4, 3: n // 4}
    chosen: list[dict] = []
    for gi in range(5):
        pool = sorted(groups.get(gi, []), key=lambda s: s["fen"])
        rng.shuffle(pool)
        chosen += pool[: quota.get(gi, n)]
    if len(chosen) < n:  # fill from what was left over
        rest = [s for gi in range(5) for s in sorted(groups.get(gi, []), key=lambda s: s["fen"])
                if s not in chosen]
        chosen += rest[: n - len(chosen)]
    return [{"variant": s["variant"], "fen": s["fen"], "moves": s["moves"]}
            for s in sorted(chosen[:n], key=lambda s: s["fen"])]


# --- main -----------------------------------------------------------------------------------


def print_summary(results: list[dict]) -> None:
    print()
    print("| rule set | peer | games | positions compared | disagreements | positions where the peer "
          "listed duplicate routes (dropped) | seconds |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['variant']} | {r['peer']} | {r['games']} | {r['positions']} | {len(r['disagreements'])} "
              f"| {r['peer_duplicates']} | {r['seconds']} |")
        if r["doska_duplicates"]:
            print(f"| {r['variant']} | doska itself | | {r['doska_duplicates']} positions list one "
                  f"(start, end, captured set) twice | | | |")
    kinds: dict = {}
    for r in results:
        for d in r["disagreements"]:
            kinds.setdefault((r["variant"], r["peer"], d["kind"], d["diagnosis"]), []).append(d)
    if kinds:
        print()
        print("| rule set | peer | kind | count | diagnosis | first FEN |")
        print("|---|---|---|---|---|---|")
        for (v, p, kind, why), ds in kinds.items():
            print(f"| {v} | {p} | {kind} | {len(ds)} | {why} | `{ds[0]['fen']}` |")
    print()
    print("Not compared: poddavki (the peers' antidraughts is International rules on 10x10, doska's "
          "poddavki (docs/rules/poddavki.md) is the Russian rules on 8x8); canadian, spanish, czech, armenian, thai, lasca (no peer).")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated doska rule set ids")
    ap.add_argument("--peer", default="auto", choices=["auto", "all", "py-draughts", "pydraughts"],
                    help="auto: one peer per rule set (see above); all: every peer that plays it")
    ap.add_argument("--games", type=int, default=30, help="random games per rule set and peer (default 30)")
    ap.add_argument("--plies", type=int, default=150, help="at most this many plies a game (default 150)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--american-optional", action="store_true",
                    help="py-draughts' stock American (optional captures) instead of the compulsory fix")
    ap.add_argument("--write-sample", nargs="?", const=str(SAMPLE_PATH), metavar="PATH",
                    help=f"write up to --sample-size agreed positions per rule set (default path {SAMPLE_PATH})")
    ap.add_argument("--sample-size", type=int, default=40)
    ap.add_argument("--continue-known", action="store_true",
                    help="after a disagreement diagnosed as a known peer bug, go on with the moves both "
                         "sides have instead of stopping the game (more coverage, e.g. for Turkish)")
    ap.add_argument("--doska", help="the doska binary (default $DOSKA or <repo>/target/release/doska)")
    ap.add_argument("--json-out", help="also write the raw results here")
    ap.add_argument("--quiet", action="store_true", help="no per-game progress on stderr")
    ap.add_argument("--one-library", help=argparse.SUPPRESS)  # internal: run only this peer here
    args = ap.parse_args()

    if args.doska:
        peerlib.DOSKA = Path(args.doska)
    print(f"doska: {peerlib.DOSKA} ({doska_version()})", file=sys.stderr)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    for v in variants:
        if v not in VARIANTS:
            ap.error(f"{v}: no peer plays it (compared: {', '.join(VARIANTS)})")
    plan = [(v, p) for v in variants for p in peers_for(v, args.peer)]
    libs = sorted({p for _, p in plan})

    results: list[dict] = []
    if args.one_library or len(libs) <= 1:
        for v, p in plan:
            if args.one_library and p != args.one_library:
                continue
            results.append(run_variant(v, p, args.games, args.plies, args.seed, not args.quiet,
                                       args.american_optional, args.continue_known))
    else:
        # One process per peer library (both are the package `draughts`).
        for lib in libs:
            with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
                out = tmp.name
            cmd = [sys.executable, __file__, "--one-library", lib, "--json-out", out,
                   "--variants", args.variants, "--peer", args.peer, "--games", str(args.games),
                   "--plies", str(args.plies), "--seed", str(args.seed)]
            cmd += ["--american-optional"] if args.american_optional else []
            cmd += ["--continue-known"] if args.continue_known else []
            cmd += ["--doska", args.doska] if args.doska else []
            cmd += ["--quiet"] if args.quiet else []
            subprocess.run(cmd, check=True, stdout=sys.stdout, stderr=sys.stderr)
            results += json.loads(Path(out).read_text())
            Path(out).unlink()
        order = {(v, p): i for i, (v, p) in enumerate(plan)}
        results.sort(key=lambda r: order.get((r["variant"], r["peer"].split(" ")[0]), 0))

    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results))
    if args.one_library:
        return 0
    print_summary(results)

    if args.write_sample:
        sample: list[dict] = []
        for v in variants:
            pool = [s for r in results if r["variant"] == v for s in r["samples"]]
            sample += pick_sample(pool, args.sample_size, args.seed)
        Path(args.write_sample).write_text(
            "[\n" + ",\n".join(json.dumps(s, separators=(",", ":")) for s in sample) + "\n]\n")
        print(f"\nwrote {len(sample)} positions to {args.write_sample}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
