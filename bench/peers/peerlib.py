"""Shared helpers for compare.py and engine_match.py: square numbering, FEN parsing,
running `doska`, and adapters around the two pure-Python peers.

Everything here speaks algebraic squares (a1 = White's bottom-left corner), like doska's
JSON. Each peer numbers squares its own way; the adapters convert at the edge.

pydraughts and py-draughts both install a top-level package `draughts`, so one process can
load only one of them: `load_peer()` imports the asked one (pydraughts from
$PEERS_VENV/pydraughts-site, override with PYDRAUGHTS_SITE) and refuses the other afterwards.
"""

from __future__ import annotations

import json
import re
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOSKA = Path(os.environ.get("DOSKA", REPO / "target" / "release" / "doska"))

FILES = "abcdefghijklmnopqrstuvwxyz"


def alg(file: int, rank: int) -> str:
    """0-based file, 1-based rank -> algebraic."""
    return f"{FILES[file]}{rank}"


def alg_parts(sq: str) -> tuple[int, int]:
    return FILES.index(sq[0]), int(sq[1:])


# --- numberings: number (1-based) -> algebraic ----------------------------------------


def top_down(n: int, width: int, height: int, first_file: int) -> str:
    """Dark-square numbering from the top row (rank `height`) down, left to right; the top
    row's first numbered square is on file `first_file` (0 = a, 1 = b), rows alternate."""
    per_row = width // 2
    r, k = divmod(n - 1, per_row)
    off = first_file if r % 2 == 0 else 1 - first_file
    return alg(2 * k + off, height - r)


def bottom_up(n: int, width: int, first_file: int = 0) -> str:
    """Dark-square numbering from rank 1 up, left to right (pydraughts' Russian: 1 = a1)."""
    per_row = width // 2
    r, k = divmod(n - 1, per_row)
    off = first_file if r % 2 == 0 else 1 - first_file
    return alg(2 * k + off, r + 1)


def all_squares(n: int, width: int = 8) -> str:
    """All-square numbering from a1 along rank 1, then rank 2 (pydraughts' Turkish)."""
    r, c = divmod(n - 1, width)
    return alg(c, r + 1)


def make_numbering(fn, count: int):
    to_alg = {n: fn(n) for n in range(1, count + 1)}
    return to_alg, {a: n for n, a in to_alg.items()}


# doska's own numbering per rule set (docs/rules/README.md, "Notation"); None = algebraic in FEN.
DOSKA_NUMBERING = {
    "american": make_numbering(lambda n: top_down(n, 8, 8, 1), 32),  # 1 = b8
    "international": make_numbering(lambda n: top_down(n, 10, 10, 1), 50),  # 1 = b10
    "frisian": make_numbering(lambda n: top_down(n, 10, 10, 1), 50),
    "italian": make_numbering(lambda n: top_down(n, 8, 8, 0), 32),  # 1 = a8, h1 = 32
    "russian": None,
    "brazilian": None,
    "turkish": None,
    "poddavki": None,
}


# --- FEN ------------------------------------------------------------------------------


def parse_fen(fen: str, numbering=None) -> tuple[str, dict[str, tuple[str, bool]]]:
    """PDN FEN (doska's or a peer's) -> ('W'|'B', {square: ('W'|'B', king)}).
    Counter fields (R.., H.., E.., N..) and a `[FEN "..."]` wrapper are ignored."""
    fen = fen.strip()
    if fen.startswith("["):
        fen = fen.split('"')[1]
    fields = fen.split(":")
    turn = fields[0].strip().upper()
    pieces: dict[str, tuple[str, bool]] = {}
    seen_sides = 0
    for field in fields[1:]:
        field = field.strip()
        if not field or field[0].upper() not in "WB" or seen_sides >= 2:
            continue
        seen_sides += 1
        side = field[0].upper()
        for tok in filter(None, (t.strip() for t in field[1:].split(","))):
            king = tok[0] in "Kk"
            if king:
                tok = tok[1:]
            if not tok:
                raise ValueError(f"a king (K) with no square after it in {field!r}")
            names: list[str]
            if tok[0].isdigit():
                try:
                    if "-" in tok:
                        lo, hi = (int(x) for x in tok.split("-"))
                        nums = range(lo, hi + 1)
                    else:
                        nums = [int(tok)]
                except ValueError:
                    raise ValueError(f"{tok!r} is neither a square's number nor a range such as 21-32") from None
                if numbering is None:
                    raise ValueError(f"numeric square {tok} but no numbering")
                if off := [n for n in nums if n not in numbering[0]]:
                    raise ValueError(f"square {off[0]} is not on the board (squares 1 to {len(numbering[0])})")
                names = [numbering[0][n] for n in nums]
            else:
                names = [tok.lower()]
            for name in names:
                pieces[name] = (side, king)
    return turn, pieces


def build_fen(turn: str, pieces: dict[str, tuple[str, bool]], to_num=None) -> str:
    """The inverse of parse_fen: squares as numbers through `to_num` (alg -> n) or algebraic."""
    out = [turn]
    for side in "WB":
        toks = []
        items = [(sq, k) for sq, (s, k) in pieces.items() if s == side]
        if to_num is not None:
            items.sort(key=lambda it: to_num[it[0]])
        else:
            items.sort(key=lambda it: (alg_parts(it[0])[1], alg_parts(it[0])[0]))
        for sq, king in items:
            name = str(to_num[sq]) if to_num is not None else sq
            toks.append(("K" if king else "") + name)
        out.append(side + ",".join(toks))
    return ":".join(out)


def move_key(frm: str, to: str, captures) -> tuple[str, str, tuple[str, ...]]:
    """The comparison key: start, end, sorted captured squares (the "drop duplicates" rule)."""
    return (frm, to, tuple(sorted(captures)))


# --- doska ----------------------------------------------------------------------------


def doska_json(*args: str) -> dict:
    p = subprocess.run([str(DOSKA), *args, "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"doska {' '.join(args)}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def doska_version() -> str:
    p = subprocess.run([str(DOSKA), "--version"], capture_output=True, text=True)
    return (p.stdout.strip() or p.stderr.strip()) + f", built {time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime(os.path.getmtime(DOSKA)))} UTC"


def doska_moves(variant: str, fen: str | None = None) -> dict:
    args = ["moves", "--variant", variant]
    if fen:
        args += ["--fen", fen]
    return doska_json(*args)


# --- peers ----------------------------------------------------------------------------

PYDRAUGHTS_VARIANTS = {  # doska id -> pydraughts variant name
    "international": "standard",
    "frisian": "frisian",
    "american": "english",
    "italian": "italian",
    "russian": "russian",
    "brazilian": "brazilian",
    "turkish": "turkish",
}
PY_DRAUGHTS_VARIANTS = {  # doska id -> py-draughts board class
    "international": "StandardBoard",
    "frisian": "FrisianBoard",
    "american": "AmericanBoard",  # captures optional there; see PyDraughtsPeer
    "russian": "RussianBoard",
    "brazilian": "BrazilianBoard",
}

# pydraughts' numbering inside moves and FEN (README.md "API notes").
PYDRAUGHTS_NUMBERING = {
    "standard": make_numbering(lambda n: top_down(n, 10, 10, 1), 50),
    "frisian": make_numbering(lambda n: top_down(n, 10, 10, 1), 50),
    "english": make_numbering(lambda n: top_down(n, 8, 8, 1), 32),
    "italian": make_numbering(lambda n: top_down(n, 8, 8, 0), 32),
    "russian": make_numbering(lambda n: bottom_up(n, 8, 0), 32),  # 1 = a1, 2 = c1
    "brazilian": make_numbering(lambda n: bottom_up(n, 8, 0), 32),
    "turkish": make_numbering(lambda n: all_squares(n, 8), 64),  # 1 = a1, 2 = b1
}
PYDRAUGHTS_ALGEBRAIC_FEN = {"russian", "brazilian", "turkish"}

_loaded: str | None = None


def pydraughts_site() -> Path:
    default = Path(os.environ.get("PEERS_VENV", sys.prefix)) / "pydraughts-site"
    return Path(os.environ.get("PYDRAUGHTS_SITE", default))


def load_peer(peer: str):
    """Imports the peer's `draughts` package (one per process)."""
    global _loaded
    if _loaded is not None and _loaded != peer:
        raise SystemExit(f"{_loaded} is already loaded; run {peer} in another process")
    _loaded = peer
    if peer == "pydraughts":
        site = pydraughts_site()
        if not site.is_dir():
            raise SystemExit(f"pydraughts not found in {site} (run setup.sh or set PYDRAUGHTS_SITE)")
        sys.path.insert(0, str(site))
        import draughts

        if hasattr(draughts, "StandardBoard"):
            raise SystemExit("loaded py-draughts where pydraughts was wanted")
        return draughts
    import draughts

    if not hasattr(draughts, "StandardBoard"):
        raise SystemExit("the `draughts` module found is not py-draughts")
    return draughts


class PeerMove:
    """One peer move in algebraic squares, with the peer's own move object."""

    __slots__ = ("frm", "to", "path", "captures", "obj")

    def __init__(self, path: list[str], captures: list[str], obj):
        self.frm, self.to = path[0], path[-1]
        self.path, self.captures, self.obj = path, captures, obj

    @property
    def key(self):
        return move_key(self.frm, self.to, self.captures)


class BoardPeer:
    """A peer whose library keeps the board: moves, play and take back through its object
    (`self.board`, `self.numbering`, `wrap` and `fen` come from the subclass)."""

    def moves(self) -> list[PeerMove]:
        return [self.wrap(m) for m in self.board.legal_moves]

    def push(self, m: PeerMove) -> None:
        self.board.push(m.obj)

    def pop(self) -> None:
        self.board.pop()

    def position(self) -> tuple[str, dict]:
        return parse_fen(self.fen(), self.numbering)


class PyDraughtsPeer(BoardPeer):
    """py-draughts 1.10.1. 0-based square indices; 8x8 boards name them in SQUARE_NAMES,
    10x10 boards use PDN numbers (index + 1)."""

    name = "py-draughts"

    def __init__(self, variant: str, fen: str, forced_captures: bool = True):
        self.draughts = load_peer("py-draughts")
        cls = getattr(self.draughts, PY_DRAUGHTS_VARIANTS[variant])
        if variant == "american" and forced_captures:
            cls = _american_forced(self.draughts, cls)
        self.variant = variant
        self.cls = cls
        if cls.SQUARE_NAMES:
            to_alg = {i + 1: s for i, s in enumerate(cls.SQUARE_NAMES)}
            self.numbering = (to_alg, {a: n for n, a in to_alg.items()})
        else:
            self.numbering = make_numbering(lambda n: top_down(n, 10, 10, 1), 50)
        turn, pieces = parse_fen(fen, DOSKA_NUMBERING.get(variant))
        self.board = cls.from_fen(build_fen(turn, pieces, self.numbering[1]))

    def _sq(self, idx: int) -> str:
        return self.numbering[0][idx + 1]

    def wrap(self, m) -> PeerMove:
        return PeerMove([self._sq(i) for i in m.square_list], [self._sq(i) for i in m.captured_list], m)

    def fen(self) -> str:
        return self.board.fen


class DamePeer(BoardPeer):
    """dame-rs 0.2.0 (PyPI `dame-rs`, module `dame`): international only, PDN numbers."""

    name = "dame-rs"

    def __init__(self, variant: str, fen: str):
        if variant != "international":
            raise SystemExit("dame-rs plays international draughts only")
        import dame

        self.dame = dame
        self.numbering = DOSKA_NUMBERING["international"]
        turn, pieces = parse_fen(fen, self.numbering)
        self.board = dame.Board(build_fen(turn, pieces, self.numbering[1]))

    def wrap(self, m) -> PeerMove:
        sq = self.numbering[0]
        return PeerMove([sq[m.from_square], sq[m.to_square]], [sq[c] for c in m.captured], m)

    def fen(self) -> str:
        return self.board.fen()


def stop_process(proc: subprocess.Popen, quit_line: str = "quit") -> None:
    """Asks a peer's process to quit, and kills it if it has not within 5 s."""
    try:
        assert proc.stdin
        proc.stdin.write(quit_line + "\n")
        proc.stdin.flush()
    except (BrokenPipeError, OSError, ValueError):
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class DriverPeer:
    """An engine behind one of doska's line-protocol drivers (bench/engines/*/driver.*):
    `setup <32 squares in ORDER as w W b B .><w|b>`, `play <from> <to> [captured...]` (answered
    `ok`, or `illegal` for a move the engine does not have), `go <ms>` (answered `move <from>
    <to> [captured...] depth <d>`) and `quit`. The engine keeps its own board; a subclass names
    the engine (`name`) and its rule set (`variant`)."""

    name = ""
    variant = ""
    # Squares b8, d8, f8, h8, a7, c7, ..., a1, c1, e1, g1 (KestoG's EI_SetupBoard order, and
    # Cake's squares 1..32).
    ORDER = [f"{FILES[f]}{r}" for r in range(8, 0, -1) for f in range(8) if (f + r) % 2 == 1]

    def __init__(self, variant: str, fen: str, program: str):
        if variant != self.variant:
            raise SystemExit(f"{self.name} plays {self.variant} only")
        self.proc = subprocess.Popen([program], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.setup(fen)
        self.depths: list[int] = []
        self.board = None  # the board lives in the engine's process

    def setup(self, fen: str) -> None:
        """The engine's board set to `fen` (doska's FEN of the rule set), with no game before it."""
        turn, pieces = parse_fen(fen, DOSKA_NUMBERING.get(self.variant))
        code = {("W", False): "w", ("W", True): "W", ("B", False): "b", ("B", True): "B"}
        board = "".join(code.get(pieces.get(sq), ".") for sq in self.ORDER) + turn.lower()
        self.ask(f"setup {board}", r"^ok$")

    def ask(self, line: str, answer: str) -> re.Match:
        """Sends a command and reads lines (an engine may print its thinking too) until `answer`."""
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        while True:
            out = self.proc.stdout.readline()
            if not out:
                raise RuntimeError(f"{self.name} ended after {line!r}")
            m = re.search(answer, out.strip())
            if m:
                return m
            if re.search(r"^(illegal|error)", out.strip()):
                raise RuntimeError(f"{self.name} refused {line!r}: {out.strip()}")

    def moves(self):
        return None  # the engine checks each of doska's moves itself when it is played

    def wrap(self, m):
        return m

    def push(self, m: PeerMove) -> None:
        if m.obj != "own":
            self.ask(f"play {m.frm} {m.to} {' '.join(m.captures)}".strip(), r"^ok$")

    def get_best_move(self, _board, movetime_ms: int) -> PeerMove:
        m = self.ask(f"go {movetime_ms}", r"move (\S+) (\S+)((?: [a-h][1-8])*) depth (\d+)$")
        self.depths.append(int(m.group(4)))
        return PeerMove([m.group(1), m.group(2)], m.group(3).split(), "own")

    def close(self) -> None:
        stop_process(self.proc)


class KestoGPeer(DriverPeer):
    """KestoG 1.4 (russian), built by bench/engines/kestog/build.sh."""

    name = "KestoG 1.4"
    variant = "russian"


class CakePeer(DriverPeer):
    """Cake 1.89g (american checkers), built by bench/engines/cake/build.sh (no opening book, no
    endgame database)."""

    name = "Cake 1.89g"
    variant = "american"

    def score(self, depth: int) -> int:
        """Cake's value of its board for the side to move, searched to `depth` plies (a man is
        about 100, a win it has found near 1900; forced moves are played first)."""
        return int(self.ask(f"score {depth}", r"^score (-?\d+) depth \d+$").group(1))


class PeerEngine:
    """The side of a game of a peer that keeps its own board (KestoG, Cake, Scan): each move
    searched for `movetime_ms`."""

    def __init__(self, peer, movetime_ms: int):
        self.peer, self.movetime = peer, movetime_ms
        self.depths = peer.depths

    def get_best_move(self, board):
        return self.peer.get_best_move(board, self.movetime)


class DoskaHub:
    """doska's side of a game kept in one `doska hub` process (doska's Hub dialect with its
    extensions: any rule set, `pos fen=`, moves in the rule set's notation, `done notation=
    depth=`), so its table stays from move to move as the peers' do and no process starts per
    move. Each move sends the start FEN and every move played, then `go`."""

    def __init__(self, variant: str, movetime_ms: int, without: str = "", weights: str = "",
                 table_mb: int = 16):
        self.movetime_ms = movetime_ms
        args = [str(DOSKA), "hub"] + (["--without", without] if without else []) \
            + (["--weights", weights] if weights else []) \
            + (["--table-mb", str(table_mb)] if table_mb != 16 else [])
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.say("hub")
        self.read_until("wait")
        self.say(f"set-param name=variant value={variant}")
        self.say(f"level move-time={movetime_ms / 1000.0}")
        self.say("init")
        self.read_until("ready")

    def say(self, line: str) -> None:
        assert self.proc.stdin
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, word: str) -> str:
        return self.read_until_any((word,))

    def go(self, start_fen: str, played: list[str], movetime_ms: int | None = None,
           clock: tuple[float, float] | None = None) -> tuple[str, int]:
        """doska's move (in its notation) and the depth it completed; movetime_ms, when given,
        is this move's time and the next ones' (the hub keeps its level until told again);
        clock, (seconds left, seconds added a move), puts doska on a game clock instead."""
        if clock is not None:
            self.movetime_ms = None
            self.say(f"level time={max(clock[0], 0.0):.3f} inc={clock[1]}")
        elif movetime_ms is not None and movetime_ms != self.movetime_ms:
            self.movetime_ms = movetime_ms
            self.say(f"level move-time={movetime_ms / 1000.0}")
        self.say(f'pos fen={start_fen} moves="{" ".join(played)}"')
        self.say("go think")
        done = dict(kv.split("=", 1) for kv in self.read_until("done").split()[1:] if "=" in kv)
        if "notation" not in done:
            raise RuntimeError("doska hub found no move")
        return done["notation"], int(done.get("depth", 0))

    def score(self, fen: str) -> int | None:
        """doska's score, in hundredths of a man for the side to move, of a search of `fen`
        alone (the hub's level: its move time); None where it had one move and searched none."""
        self.say(f'pos fen={fen} moves=""')
        self.say("go think")
        score = None
        while True:
            out = self.read_until_any(("info", "done"))
            if out.startswith("done"):
                return score
            m = re.search(r"\bscore=(-?[0-9.]+)", out)
            if m:
                score = round(float(m.group(1)) * 100)

    def read_until_any(self, words: tuple[str, ...]) -> str:
        assert self.proc.stdout
        while True:
            out = self.proc.stdout.readline()
            if not out:
                raise RuntimeError(f"doska hub ended while one of {words} was awaited")
            out = out.strip()
            if out.startswith("error"):
                raise RuntimeError(f"doska hub: {out}")
            if out.split(" ", 1)[0] in words:
                return out

    def close(self) -> None:
        stop_process(self.proc)


class DameEngine:
    """dame-rs' engine kept across the moves of a game (its hash table stays), searching for a
    fixed time or to a fixed depth."""

    def __init__(self, dame, movetime_ms: int, depth: int | None):
        self.engine = dame.Engine(hash_mb=64)
        self.movetime, self.depth = movetime_ms / 1000.0, depth
        self.depths: list[int] = []

    def get_best_move(self, board):
        r = self.engine.search(board, depth=self.depth) if self.depth else self.engine.search(board, time=self.movetime)
        self.depths.append(r.depth)
        return r.best_move


def _american_forced(draughts, base):
    """py-draughts' American with compulsory captures: its legal_moves passes
    captures_optional=True to the shared move generator; the same call with False is the
    compulsory-capture rule of every other variant (men forward only, short kings, free
    choice: max_capture=False)."""
    from draughts.boards._core import CORE_AMERICAN

    class AmericanForced(base):
        @property
        def legal_moves(self):
            return self._legal_moves_from_core(CORE_AMERICAN, max_capture=False, captures_optional=False)

    return AmericanForced


class PydraughtsPeer:
    """pydraughts 0.6.7: numbers in moves everywhere (its own numbering per variant)."""

    name = "pydraughts"

    def __init__(self, variant: str, fen: str):
        self.draughts = load_peer("pydraughts")
        self.variant = variant
        self.pvariant = PYDRAUGHTS_VARIANTS[variant]
        self.numbering = PYDRAUGHTS_NUMBERING[self.pvariant]
        turn, pieces = parse_fen(fen, DOSKA_NUMBERING.get(variant))
        to_num = None if self.pvariant in PYDRAUGHTS_ALGEBRAIC_FEN else self.numbering[1]
        self.board = self.draughts.Board(self.pvariant, build_fen(turn, pieces, to_num))

    def moves(self) -> list[PeerMove]:
        a = self.numbering[0]
        return [
            PeerMove([a[s] for s in m.steps_move], [a[s] for s in m.captures], m)
            for m in self.board.legal_moves()
        ]

    def push(self, m: PeerMove) -> None:
        self.board.push(m.obj)

    def pop(self) -> None:
        self.board.pop()

    def position(self) -> tuple[str, dict]:
        num = None if self.pvariant in PYDRAUGHTS_ALGEBRAIC_FEN else self.numbering
        turn, pieces = parse_fen(self.board.fen, num)
        return turn, pieces


def make_peer(peer: str, variant: str, fen: str, **kw):
    if peer == "py-draughts":
        return PyDraughtsPeer(variant, fen, **kw)
    if peer == "pydraughts":
        return PydraughtsPeer(variant, fen)
    raise ValueError(peer)
