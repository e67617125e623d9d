//! Perft series against published numbers (`tests/data/perft.json`, each series with its
//! source) and our own series for rule sets without published numbers.
//! Depths stop at about 500,000 leaves per series; deeper ones belong to `doska perft`.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use doska_rules::{Position, Variant, perft};

const MAX_LEAVES: u64 = 500_000;

fn series(variant: &str, fen: Option<&str>, expected: &[u64]) -> Result<usize, String> {
    let v: Variant = variant.parse().map_err(|e| format!("{e}"))?;
    let pos = match fen {
        Some(f) => Position::from_fen(v, f).map_err(|e| format!("{variant} {f}: {e}"))?,
        None => Position::start(v),
    };
    let mut checked = 0;
    for (i, &want) in expected.iter().enumerate() {
        if want > MAX_LEAVES {
            break;
        }
        let got = perft(&pos, i as u32 + 1);
        if got != want {
            return Err(format!("{variant} {fen:?} depth {}: got {got}, expected {want}", i + 1));
        }
        checked += 1;
    }
    Ok(checked)
}

#[test]
fn published_perft_numbers() {
    let text = include_str!("data/perft.json");
    let json: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    let entries = json["entries"].as_array().cloned().unwrap_or_default();
    assert!(entries.len() >= 13, "the reference file lists every published series");
    let mut failures = Vec::new();
    for e in &entries {
        let variant = e["variant"].as_str().unwrap_or("");
        let fen = e["fen"].as_str();
        let counts: Vec<u64> =
            e["perft"].as_array().into_iter().flatten().filter_map(|n| n.as_u64()).collect();
        match series(variant, fen, &counts) {
            Ok(n) => assert!(n >= 4, "{variant}: only {n} depths fit the test budget"),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
