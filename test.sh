#!/usr/bin/env bash
# Runs every test of doska: formatting, lints, the Rust tests (rules, perft tables, fuzz corpora
# replayed, engine, store, server, CLI contract) and the browser tests (Debian's chromium driven
# by playwright-core) against the same debug binary. Installs what it needs itself.
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n== %s\n' "$*"; }

step "system packages (chromium for the browser tests, PostgreSQL for the store tests)"
# apt-get needs root: as root it runs directly, otherwise through sudo when there is one.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else
    echo "test.sh: '$*' needs root or sudo. Run test.sh as root, or install Debian's chromium" \
      "and postgresql yourself and point DOSKA_TEST_POSTGRES_URL at a database you own." >&2
    exit 1
  fi
}
need=()
command -v chromium >/dev/null || need+=(chromium)
command -v pg_ctlcluster >/dev/null || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"
fi

step "postgresql"
# The store and server tests run against SQLite always and against PostgreSQL when
# DOSKA_TEST_POSTGRES_URL is set. Already set: that server is used as it is. Otherwise the local
# cluster is started and given a role and a database (both named for doska).
if [ -z "${DOSKA_TEST_POSTGRES_URL:-}" ]; then
  pg_version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
  # From /, which the postgres user can read (no "could not change directory" warnings).
  as_postgres() { (cd / && as_root su postgres -c "$1"); }
  (cd / && as_root pg_ctlcluster "$pg_version" main start 2>/dev/null) \
    || (cd / && as_root pg_ctlcluster "$pg_version" main status >/dev/null)
  as_postgres "psql -tAc \"SELECT 1 FROM pg_roles WHERE rolname = 'doska'\"" | grep -q 1 \
    || as_postgres "psql -qc \"CREATE ROLE doska LOGIN PASSWORD 'doska'\""
  as_postgres "psql -tAc \"SELECT 1 FROM pg_database WHERE datname = 'doska_test'\"" | grep -q 1 \
    || as_postgres "createdb -O doska doska_test"
  export DOSKA_TEST_POSTGRES_URL=postgres://doska:doska@127.0.0.1/doska_test
  # tests/postgres_restart.rs stops and starts this cluster (a server it did not start is left
  # alone: that test is skipped).
  sudo_=""; [ "$(id -u)" -eq 0 ] || sudo_="sudo "
  export DOSKA_TEST_POSTGRES_CTL="cd / && ${sudo_}pg_ctlcluster $pg_version main"
fi

step "rustfmt"
cargo fmt --all --check

step "clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo test"
cargo test --workspace --locked

step "browser tests"
npm ci --prefix e2e --no-audit --no-fund
# The binary cargo test just built (rules and engine are optimised even in the dev profile),
# in cargo's target folder: CARGO_TARGET_DIR when set (relative to this folder), else target/.
target_dir=${CARGO_TARGET_DIR:-target}
case "$target_dir" in /*) ;; *) target_dir="$PWD/$target_dir" ;; esac
DOSKA_BIN="$target_dir/debug/doska" node --test e2e/
