#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
//! Positions from random games where two independent libraries, pydraughts 0.6.7 and
//! py-draughts 1.10.1, list exactly the moves doska lists (`tests/data/peers_sample.json`,
//! written by `bench/peers/compare.py --write-sample`). Each entry is a rule set, a FEN and
//! the expected moves as `[from, to, [captured squares]]`, algebraic, captured squares sorted,
//! duplicate capture routes counted once. Replaying them keeps the rule sets the peers also
//! play (international, russian, brazilian, frisian, american, italian, turkish) pinned to
//! what the peers agreed on, without needing the peers installed.

use doska_rules::{Position, Variant};
use serde_json::Value;

type Key = (String, String, Vec<String>);

fn expected(entry: &Value) -> Vec<Key> {
    let mut out: Vec<Key> = entry["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| {
            let from = m[0].as_str().expect("from").to_string();
            let to = m[1].as_str().expect("to").to_string();
            let mut caps: Vec<String> = m[2]
                .as_array()
                .expect("captures")
                .iter()
                .map(|c| c.as_str().expect("square").to_string())
                .collect();
            caps.sort();
            (from, to, caps)
        })
        .collect();
    out.sort();
    out
}

fn ours(variant: Variant, fen: &str) -> Vec<Key> {
    let pos = Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{variant:?} {fen}: {e}"));
    let g = &variant.rules().geometry;
    let mut out: Vec<Key> = pos
        .legal_moves()
        .iter()
        .map(|mv| {
            let mut caps: Vec<String> =
                mv.captures_in_order(g).into_iter().map(|sq| g.algebraic(sq)).collect();
            caps.sort();
            (g.algebraic(mv.from), g.algebraic(mv.to), caps)
        })
        .collect();
    out.sort();
    out
}

fn show(keys: &[Key]) -> String {
    keys.iter()
        .map(
            |(f, t, c)| {
                if c.is_empty() { format!("{f}-{t}") } else { format!("{f}x{t}[{}]", c.join(",")) }
            },
        )
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn peers_sample_positions_give_the_agreed_moves() {
    let data: Value =
        serde_json::from_str(include_str!("data/peers_sample.json")).expect("peers_sample.json");
    let entries = data.as_array().expect("a JSON array");
    assert!(entries.len() >= 100, "the sample has only {} positions", entries.len());

    let mut variants = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    for e in entries {
        let id = e["variant"].as_str().expect("variant");
        let fen = e["fen"].as_str().expect("fen");
        let variant: Variant = id.parse().unwrap_or_else(|e| panic!("variant {id}: {e}"));
        variants.insert(id.to_string());
        let want = expected(e);
        let got = ours(variant, fen);
        if got != want {
            let missing: Vec<Key> = want.iter().filter(|k| !got.contains(k)).cloned().collect();
            let extra: Vec<Key> = got.iter().filter(|k| !want.contains(k)).cloned().collect();
            failures.push(format!(
                "{id} {fen}\n  missing: {}\n  extra:   {}\n  (doska lists {} moves, the peers {})",
                show(&missing),
                show(&extra),
                got.len(),
                want.len()
            ));
        }
    }
    for v in ["international", "russian", "brazilian", "frisian", "american", "italian", "turkish"]
    {
        assert!(variants.contains(v), "no {v} positions in the sample");
    }
    assert!(
        failures.is_empty(),
        "{} of {} positions differ from what the peers agreed on:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n")
    );
}
