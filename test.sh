#!/usr/bin/env bash
# Runs every test of doska: formatting, lints, the Rust tests (rules, perft tables, fuzz corpora
# replayed, CLI contract). Installs what it needs itself.
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n== %s\n' "$*"; }

step "rustfmt"
cargo fmt --all --check

step "clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo test"
cargo test --workspace --locked
