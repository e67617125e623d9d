#!/usr/bin/env bash
# Creates a Python venv with the peer draughts libraries used by perft.py,
# pinned to fixed versions.   Usage: bash bench/peers/setup.sh
#   PEERS_VENV        venv path (default /tmp/doska-peers-venv)
#   PYTHON            interpreter for the venv (default python3; dame-rs needs >= 3.10)
#   CARGO_BUILD_JOBS  parallel jobs for building kish's Rust extension (default 1)
#
# pydraughts and py-draughts both install a top-level package named `draughts`,
# so they cannot share one site-packages. py-draughts goes into the venv itself;
# pydraughts (with its dependency) goes into "$PEERS_VENV/pydraughts-site", which
# perft.py puts first on sys.path when --peer pydraughts is asked for.
set -euo pipefail

PEERS_VENV="${PEERS_VENV:-/tmp/doska-peers-venv}"
PYTHON="${PYTHON:-python3}"
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}"

DAME="dame-rs==0.2.0"          # International draughts, Rust/PyO3, manylinux wheels (cp310+)
KISH="kish==1.1.7"             # Turkish draughts, Rust/PyO3: sdist only on PyPI, built by
                               # maturin (pip fetches it as the PEP 517 backend) + cargo
                               # (Rust >= 1.70, crates.io reachable)
PYDRAUGHTS="pydraughts==0.6.7" # pure Python (module `draughts`)
PY_DRAUGHTS="py-draughts==1.10.1" # pure Python (module `draughts`), pulls numpy, fastapi, ...

command -v cargo >/dev/null || { echo "setup.sh: cargo not found; kish is built from source" >&2; exit 1; }

if [ ! -x "$PEERS_VENV/bin/python" ]; then
  "$PYTHON" -m venv "$PEERS_VENV" || {
    echo "setup.sh: '$PYTHON -m venv' failed; with Debian's python3: apt-get install python3-venv" >&2
    exit 1
  }
fi
PY="$PEERS_VENV/bin/python"
"$PY" -m pip install --quiet --upgrade pip
"$PY" -m pip install "$DAME" "$KISH" "$PY_DRAUGHTS"
"$PY" -m pip install --upgrade --target "$PEERS_VENV/pydraughts-site" "$PYDRAUGHTS"

"$PY" - <<'PY'
import importlib.metadata as m, sys
for dist in ("dame-rs", "kish", "py-draughts"):
    print(f"{dist}=={m.version(dist)}")
import dame, kish, draughts
assert draughts.__version__ == m.version("py-draughts")
PY
"$PY" -c 'import sys; sys.path.insert(0, sys.argv[1]); import draughts; print("pydraughts==" + draughts.__version__)' \
  "$PEERS_VENV/pydraughts-site"
echo "peers installed in $PEERS_VENV"
