#!/usr/bin/env bash
# Builds a tiny native harness around kish's own Rust perft (the kish crate from
# the PyPI sdist kish==1.1.7, used as a path dependency; nothing of kish is copied
# into this repository) and runs it.
#
#   bash bench/peers/kish-native.sh build
#   bash bench/peers/kish-native.sh run DEPTH [seq|tt|par] [TT_MB] [REPEAT]
#       seq  Board::perft          sequential, no TT (what the Python binding calls)
#       tt   Board::perft_tt       sequential, transposition table (TT_MB, default 256)
#       par  Board::perft_parallel rayon over root moves + shared TT (RAYON_NUM_THREADS)
#   prints {"peer":"kish-native","version","variant","depth","nodes","seconds","mode","threads"},
#   seconds = fastest of REPEAT runs (default 1) in one process; the TT is made anew each run
#
#   KISH_NATIVE_DIR   work dir (default /tmp/doska-kish-native)
#   KISH_SRC          unpacked kish-1.1.7 sdist (default: pip download into the work dir)
#   KISH_RUSTFLAGS    extra RUSTFLAGS, e.g. "-C target-cpu=native" (kish's README figures use it)
#   CARGO_BUILD_JOBS  default 1
set -euo pipefail

KISH_VERSION=1.1.7
DIR="${KISH_NATIVE_DIR:-/tmp/doska-kish-native}"
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}"
TARGET="$DIR/target"
BIN="$TARGET/release/kish-perft"

build() {
  mkdir -p "$DIR"
  local src="${KISH_SRC:-}"
  if [ -z "$src" ]; then
    src="$DIR/kish-$KISH_VERSION"
    if [ ! -f "$src/Cargo.toml" ]; then
      # --no-binary for kish only: its build backend (maturin) must stay a wheel.
      python3 -m pip download --quiet --no-deps --no-binary kish -d "$DIR" "kish==$KISH_VERSION"
      tar -xzf "$DIR/kish-$KISH_VERSION.tar.gz" -C "$DIR"
    fi
  fi
  mkdir -p "$DIR/harness/src"
  cat > "$DIR/harness/Cargo.toml" <<TOML
[package]
name = "kish-perft"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
kish = { path = "$src" }

# kish's own [profile.release] only applies when kish is the workspace root;
# repeat it here so the harness is built as kish is built for its benchmarks.
[profile.release]
debug = false
lto = true
codegen-units = 1
panic = "abort"

[workspace]
TOML
  cat > "$DIR/harness/src/main.rs" <<'RS'
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u64 = args.get(1).and_then(|s| s.parse().ok()).expect("usage: kish-perft DEPTH [seq|tt|par] [TT_MB] [REPEAT]");
    let mode = args.get(2).map(String::as_str).unwrap_or("seq");
    let tt_mb: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(256);
    let repeat: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    let board = kish::Board::new_default();
    let (mut nodes, mut secs) = (0u64, f64::INFINITY);
    for _ in 0..repeat {
        let start = Instant::now();
        nodes = match mode {
            "seq" => board.perft(depth),
            "tt" => board.perft_tt(depth, tt_mb),
            "par" => board.perft_parallel(depth, tt_mb),
            other => panic!("unknown mode {other}"),
        };
        secs = secs.min(start.elapsed().as_secs_f64());
    }
    let threads = if mode == "par" { rayon_threads() } else { 1 };
    println!(
        "{{\"peer\": \"kish-native\", \"version\": \"{}\", \"variant\": \"turkish\", \"depth\": {depth}, \"nodes\": {nodes}, \"seconds\": {secs:.6}, \"mode\": \"{mode}\", \"threads\": {threads}}}",
        env!("KISH_VERSION")
    );
}

fn rayon_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1))
}
RS
  KISH_VERSION="$KISH_VERSION" RUSTFLAGS="${KISH_RUSTFLAGS:-}" CARGO_TARGET_DIR="$TARGET" \
    cargo build --release -j "$CARGO_BUILD_JOBS" --manifest-path "$DIR/harness/Cargo.toml"
  echo "built $BIN"
}

case "${1:-}" in
  build) build ;;
  run)
    shift
    [ -x "$BIN" ] && [ "$BIN" -nt "$0" ] || build >&2
    exec "$BIN" "$@"
    ;;
  *) echo "usage: $0 build | run DEPTH [seq|tt|par] [TT_MB] [REPEAT]" >&2; exit 2 ;;
esac
