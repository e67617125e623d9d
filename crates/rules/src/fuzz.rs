//! Entry points of the fuzz targets (`fuzz/`), shared with the corpus replay test so both run
//! the same code. Each must return normally for any input: errors are fine, panics are bugs.

use crate::{Game, Position, Variant, notation, pdn};

/// The first byte picks the rule set; the rest is text.
fn split(data: &[u8]) -> Option<(Variant, &str)> {
    let (&first, rest) = data.split_first()?;
    let v = Variant::ALL[first as usize % Variant::ALL.len()];
    Some((v, std::str::from_utf8(rest).ok()?))
}

/// FEN: parse; anything accepted must write back to a FEN that reads as the same position.
pub fn fen(data: &[u8]) {
    let Some((v, text)) = split(data) else { return };
    if let Ok(p) = Position::from_fen(v, text) {
        let again = Position::from_fen(v, &p.to_fen());
        assert_eq!(again.ok().as_ref(), Some(&p), "FEN round trip");
        let _ = p.legal_moves();
    }
}

/// Move text against the start position and a middle-game position.
pub fn move_text(data: &[u8]) {
    let Some((v, text)) = split(data) else { return };
    let start = Position::start(v);
    if let Ok(m) = notation::parse_move(&start, text) {
        let _ = start.play(&m);
    }
    let mut g = Game::new(v);
    for _ in 0..10 {
        let Some(m) = g.legal_moves().first().copied() else { break };
        let _ = g.play(&m);
    }
    let _ = notation::parse_move(g.position(), text);
}

/// PDN: read, and write back what was read.
pub fn pdn(data: &[u8]) {
    let Some((v, text)) = split(data) else { return };
    if let Ok(game) = pdn::read(text, Some(v)) {
        let _ = pdn::write(&game.game, &[]);
    }
}
