//! Replays the fuzz corpora (`fuzz/corpus/<target>/`) on stable: every input must be handled
//! without a panic.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

fn replay(target: &str, run: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus").join(target);
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut n = 0;
    for entry in entries.flatten() {
        let data = std::fs::read(entry.path()).unwrap_or_default();
        run(&data);
        n += 1;
    }
    assert!(n >= 10, "{target}: corpus has only {n} inputs");
}

#[test]
fn fen_corpus() {
    replay("fen", doska_rules::fuzz::fen);
}

#[test]
fn move_text_corpus() {
    replay("move_text", doska_rules::fuzz::move_text);
}

#[test]
fn pdn_corpus() {
    replay("pdn", doska_rules::fuzz::pdn);
}
