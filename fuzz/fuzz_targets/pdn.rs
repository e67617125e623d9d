//! Fuzz target: `cargo +nightly fuzz run pdn`. Its corpus is replayed by `cargo test`
//! (crates/rules/tests/fuzz_corpus.rs) on stable.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    doska_rules::fuzz::pdn(data);
});
