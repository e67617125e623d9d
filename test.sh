#!/usr/bin/env bash
# Runs every test of doska: formatting, lints, the Rust tests (rules, perft tables, fuzz corpora
# replayed, engine, store, server, CLI contract) and the browser tests (Debian's chromium driven
# by playwright-core) against the same debug binary. Installs what it needs itself.
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n== %s\n' "$*"; }

step "system packages (chromium for the browser tests, PostgreSQL for the store tests)"
need=()
command -v chromium >/dev/null || need+=(chromium)
command -v pg_ctlcluster >/dev/null || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"
fi

step "postgresql"
# The store and server tests run against SQLite always and against PostgreSQL when this is set.
pg_version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
pg_ctlcluster "$pg_version" main start 2>/dev/null || pg_ctlcluster "$pg_version" main status >/dev/null
as_postgres() { su postgres -c "$1"; }
as_postgres "psql -tAc \"SELECT 1 FROM pg_roles WHERE rolname = 'doska'\"" | grep -q 1 \
  || as_postgres "psql -qc \"CREATE ROLE doska LOGIN PASSWORD 'doska'\""
as_postgres "psql -tAc \"SELECT 1 FROM pg_database WHERE datname = 'doska_test'\"" | grep -q 1 \
  || as_postgres "createdb -O doska doska_test"
export DOSKA_TEST_POSTGRES_URL=postgres://doska:doska@127.0.0.1/doska_test

step "rustfmt"
cargo fmt --all --check

step "clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo test"
cargo test --workspace --locked

step "browser tests"
npm ci --prefix e2e --no-audit --no-fund
# The binary cargo test just built (rules and engine are optimised even in the dev profile).
DOSKA_BIN="$PWD/target/debug/doska" node --test e2e/
