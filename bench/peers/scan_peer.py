"""Scan 2.0 (international draughts, Fabien Letouzey) as a peer of engine_match.py, with the
same interface as peerlib's DriverPeer (its side of a game is peerlib's PeerEngine).

Scan is built by bench/engines/scan/build.sh into a folder holding `scan`, `scan.ini` and
`data/`; it is run there as `scan hub` and spoken to in the early Hub dialect of its main.cpp:

    hub                    -> name/author/country lines, then `wait`
    set <var> <value>      (scan.ini's variables; read again by `init` and by every `pos`)
    init                   -> `ready` (loads eval, book, bitbases; allocates the hash table)
    pos <turn><50 squares> the position: `w`/`b`, then squares 1..50 as w b W B e;
                           resets the search settings, so `time` comes after it
    move <move>            plays a move on its board; silent, or `error illegal move`/`error bad move`
    time <ms>              a fixed time for the next searches (no move-count time control)
    go                     -> `info <depth> <avg ply> <score> <nodes> <s> <Mn/s> <pv>` lines
                              (depth 0 for a forced move, else only from depth 12 on),
                              then `move <best> [<ponder>]`
    ping                   -> `pong`
    quit

A move is `32-28` or `28x19x23x...`: start, `-` or `x`, end, then every captured square
(`x<n>`), so the captured set names a capture exactly even when two captures share start and
end. Its board keeps the repetition history of the moves it is given, but `go` may play the
best move on that board (when it has no ponder move), so after a search the board is set again
from the start position and every move of the game before the next move is given.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

from peerlib import DOSKA_NUMBERING, PeerMove, parse_fen, stop_process

NUMBERING = DOSKA_NUMBERING["international"]  # (n -> algebraic, algebraic -> n), 1 = b10
HUB_MOVE = re.compile(r"^(\d+)([-x])(\d+)((?:x\d+)*)$")


def hub_position(turn: str, pieces: dict[str, tuple[str, bool]]) -> str:
    """('W'|'B', {alg: (side, king)}) -> Scan's `pos` argument."""
    code = {("W", False): "w", ("B", False): "b", ("W", True): "W", ("B", True): "B"}
    to_alg = NUMBERING[0]
    return turn.lower() + "".join(code[pieces[to_alg[n]]] if to_alg[n] in pieces else "e" for n in range(1, 51))


def to_hub(frm: str, to: str, captures) -> str:
    """A move in algebraic squares -> Scan's notation (all captured squares, ascending)."""
    num = NUMBERING[1]
    caps = sorted(num[c] for c in captures)
    return f"{num[frm]}{'x' if caps else '-'}{num[to]}" + "".join(f"x{c}" for c in caps)


def from_hub(s: str) -> tuple[str, str, list[str]]:
    """Scan's notation -> (from, to, captured) in algebraic squares."""
    m = HUB_MOVE.match(s)
    if not m:
        raise ValueError(f"not a Scan move: {s!r}")
    a = NUMBERING[0]
    caps = [a[int(c)] for c in m.group(4).split("x") if c]
    if (m.group(2) == "x") != bool(caps):
        raise ValueError(f"not a Scan move: {s!r}")
    return a[int(m.group(1))], a[int(m.group(3))], caps


class ScanPeer:
    """Scan 2.0 over Hub. The game (start position and the moves since) is kept here and on
    Scan's board; each move given is checked by Scan (`move` answers only when it refuses),
    and it searches with `go` for a fixed time. `book`: Scan's opening book (off by default:
    both sides search every move)."""

    name = "Scan 2.0"

    def __init__(self, variant: str, fen: str, program_dir: str, book: bool = False):
        if variant != "international":
            raise SystemExit("Scan plays international draughts only")
        program_dir = str(Path(program_dir).resolve())
        self.start = hub_position(*parse_fen(fen, NUMBERING))
        self.played: list[str] = []  # the game's moves in Scan's notation
        self.depths: list[int] = []  # of the searched moves (not the forced or book ones)
        self.forced = 0  # moves Scan answered without a search (only move, or book)
        self.board = None  # the board lives in Scan's process
        self.stderr = tempfile.TemporaryFile(mode="w+")
        # Scan opens scan.ini and data/ relative to its working folder.
        self.proc = subprocess.Popen([f"{program_dir}/scan", "hub"], cwd=program_dir, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr, text=True, bufsize=1)
        self.ask(["hub"], r"^wait$")
        self.ask([f"set book {'true' if book else 'false'}", "set threads 1", "init"], r"^ready$")
        self.dirty = True  # Scan's board is not the game's: set it again before the next move
        self.sync()

    def send(self, lines: list[str]) -> None:
        assert self.proc.stdin
        try:
            self.proc.stdin.write("".join(line + "\n" for line in lines))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise RuntimeError(f"Scan ended: {self.last_error()}") from e

    def ask(self, lines: list[str], answer: str) -> re.Match:
        """Sends commands and reads lines until `answer`; an `error` line on the way (Scan's
        refusal of one of them) is raised once the answer is read."""
        assert self.proc.stdout
        self.send(lines)
        errors: list[str] = []
        while True:
            out = self.proc.stdout.readline()
            if not out:
                raise RuntimeError(f"Scan ended after {lines[-1]!r}: {self.last_error()}")
            out = out.strip()
            if out.startswith("error"):
                errors.append(out)
            m = re.search(answer, out)
            if m:
                if errors:
                    raise RuntimeError(f"Scan refused one of {' / '.join(lines)[-300:]!r}: {errors[0]}")
                return m

    def last_error(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read().strip()[-300:] or "nothing on stderr"

    def sync(self, new: list[str] = ()) -> None:
        """Gives Scan the moves `new` (all of the game again when its board is stale) and waits
        for it to have taken them: `ping` is answered after every earlier line."""
        lines = [f"pos {self.start}"] + [f"move {m}" for m in self.played] if self.dirty else []
        self.dirty = True  # until Scan has taken them all
        self.ask(lines + [f"move {m}" for m in new] + ["ping"], r"^pong$")
        self.dirty = False

    def moves(self):
        return None  # Scan checks each of doska's moves itself when it is played

    def wrap(self, m):
        return m

    def push(self, m: PeerMove) -> None:
        mv = to_hub(m.frm, m.to, m.captures)
        self.sync([mv])
        self.played.append(mv)

    def get_best_move(self, _board, movetime_ms: int) -> PeerMove:
        if self.dirty:
            self.sync()
        depth = None
        self.send([f"time {movetime_ms}", "go"])
        self.dirty = True  # `go` may have played its move on Scan's board
        while True:
            out = self.proc.stdout.readline() if self.proc.stdout else ""
            if not out:
                raise RuntimeError(f"Scan ended during go: {self.last_error()}")
            parts = out.split()
            if parts[:1] == ["info"]:
                depth = int(parts[1])
            elif parts[:1] == ["move"]:
                break
            elif parts[:1] == ["error"]:
                raise RuntimeError(f"Scan: {out.strip()}")
        if depth:
            self.depths.append(depth)
        else:
            self.forced += 1
        frm, to, caps = from_hub(parts[1])
        return PeerMove([frm, to], caps, "own")

    def close(self) -> None:
        stop_process(self.proc)
        self.stderr.close()
