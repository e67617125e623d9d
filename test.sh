#!/usr/bin/env bash
# Runs every test of doska: formatting, lints, the Rust tests (rules, perft tables, fuzz corpora
# replayed, engine, store, server, CLI contract) and the browser tests (Debian's chromium driven
# by playwright-core) against the same debug binary. Installs what it needs itself.
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n== %s\n' "$*"; }

step "rustfmt"
cargo fmt --all --check

step "clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo test"
cargo test --workspace --locked

step "browser tests"
if ! command -v chromium >/dev/null; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi
npm ci --prefix e2e --no-audit --no-fund
# The binary cargo test just built (rules and engine are optimised even in the dev profile).
DOSKA_BIN="$PWD/target/debug/doska" node --test e2e/
