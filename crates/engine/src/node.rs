//! What the search needs of a game: legal moves, playing a move, a hash key, the end rules and
//! an evaluation. One search serves draughts and Ugolki through this trait.

use crate::egdb;
use crate::eval::{Terms, draughts, net, race, ugolki};
use doska_rules::fen::Counters;
use doska_rules::game::{self, Winner};
use doska_rules::ugolki::{UgolkiMove, UgolkiPosition, judge_position};
use doska_rules::{Color, Move, Position, Variant};

/// The end of the game seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The side to move has won.
    Win,
    /// The side to move has lost.
    Loss,
    /// Drawn.
    Draw,
}

fn end_for(winner: Winner, to_move: Color) -> End {
    match (winner, to_move) {
        (Winner::Draw, _) => End::Draw,
        (Winner::White, Color::White) | (Winner::Black, Color::Black) => End::Win,
        _ => End::Loss,
    }
}

/// A searchable position.
pub trait Node: Clone + Send {
    /// A move.
    type Move: Copy + Send;
    /// Whether the search may prune bad moves here ([`crate::Features::probcut`]): only where
    /// a match showed it helps.
    const BAD_MOVE_PRUNING: bool = true;
    /// Whether the search may truncate in this game ([`crate::Features::truncation`]): only
    /// where a match showed it helps.
    fn truncates(&self) -> bool {
        false
    }
    /// Whether the search may reduce late moves in this game ([`crate::Features::lmr`]): only
    /// where a match showed it helps.
    fn reduces(&self) -> bool {
        false
    }
    /// The legal moves into `out` (cleared first).
    fn legal(&self, out: &mut Vec<Self::Move>);
    /// The position after `m`.
    fn play(&self, m: &Self::Move) -> Self;
    /// A hash of the position (pieces, side to move, rule state).
    fn key(&self) -> u64;
    /// A small id of a move, unique among the moves of one position (for the hash move,
    /// killers and history).
    fn move_key(m: &Self::Move) -> u32;
    /// How much a move takes (ordering: bigger captures first).
    fn move_weight(m: &Self::Move) -> u32;
    /// Whether the game is over here by a rule other than "no legal move" (which the search
    /// sees from the empty move list) and repetition (the search's business).
    fn end(&self) -> Option<End>;
    /// The result for the side to move when it has no legal move.
    fn stuck(&self) -> End;
    /// Whether the side to move has a legal move (cheap when no capture is pending).
    fn has_moves(&self) -> bool;
    /// Whether the position must be searched further before it is evaluated (a capture is
    /// pending).
    fn unstable(&self) -> bool;
    /// How many plies back an earlier occurrence of this position may lie: none lies before
    /// the last move that cannot be undone (a capture, or a man's step where men never step
    /// back), so the search's repetition check looks no further. Unbounded where the game
    /// does not say.
    fn reversible_plies(&self) -> usize {
        usize::MAX
    }
    /// Static evaluation for the side to move, in hundredths of a man.
    fn evaluate(&self, terms: &Terms) -> i32;
    /// The exact result with best play and in how many plies, where it is known without a
    /// search (an installed endgame database, when `terms.egdb` is on).
    fn exact(&self, _terms: &Terms) -> Option<(End, u32)> {
        None
    }
    /// Where [`Node::exact`] knows a win or a loss: the move of best play (the quickest win,
    /// the longest defence), to continue a principal variation past the search's table.
    fn exact_move(&self, _terms: &Terms) -> Option<Self::Move> {
        None
    }
    /// Called once when a search of this root starts: drops what the evaluation cached in
    /// earlier searches, so a search with a depth or node limit is deterministic, and lets
    /// the evaluation note what it needs of the root.
    fn start_search(&self) {}
}

/// A draughts position with the counters its draw rules need.
#[derive(Clone, Debug)]
pub struct DraughtsNode {
    /// The position.
    pub pos: Position,
    /// Its counters (quiet plies, endgame plies).
    pub counters: Counters,
    /// Plies played in the game so far (the hard cap).
    pub plies: u32,
    /// Where the build has a network for the rule set ([`net`]): it, and its hidden sums for
    /// `pos`, kept move by move (a few rows a move instead of a row a piece).
    network: Option<(&'static net::Net, net::Sums)>,
}

impl DraughtsNode {
    /// The node of `pos` with its counters, `plies` into the game.
    pub fn new(pos: Position, counters: Counters, plies: u32) -> DraughtsNode {
        let network = net::embedded(pos.variant()).map(|n| (n, n.sums(&pos)));
        DraughtsNode { pos, counters, plies, network }
    }
}

/// The rule sets whose search truncates ([`crate::Features::truncation`]): those where a match
/// showed it helps (bench/engines/RESULTS.md; International lost with it, at Cake's margins
/// and at margins scaled to its evaluation's wider scores alike, Poddavki lost badly, and
/// Czech, Spanish and Thai gained nothing measurable).
pub const TRUNCATED: &[Variant] =
    &[Variant::American, Variant::Russian, Variant::Brazilian, Variant::Italian];

/// The rule sets whose search reduces late moves ([`crate::Features::lmr`]): those where a
/// match showed it helps (bench/engines/RESULTS.md: American +26 ± 24 Elo in 200 games,
/// Russian +38 ± 26; International +7 ± 29, no gain; the others not measured).
pub const REDUCED: &[Variant] = &[Variant::American, Variant::Russian];

impl Node for DraughtsNode {
    type Move = Move;

    fn truncates(&self) -> bool {
        TRUNCATED.contains(&self.pos.variant())
    }

    fn reduces(&self) -> bool {
        REDUCED.contains(&self.pos.variant())
    }

    fn legal(&self, out: &mut Vec<Move>) {
        self.pos.legal_moves_into(out);
    }

    fn play(&self, m: &Move) -> Self {
        let pos = self.pos.play(m);
        let counters = game::advance(&self.counters, &self.pos, m, &pos);
        let network = self.network.map(|(n, mut sums)| {
            n.update(&mut sums, &self.pos, &pos);
            (n, sums)
        });
        DraughtsNode { pos, counters, plies: self.plies + 1, network }
    }

    fn key(&self) -> u64 {
        let p = &self.pos;
        let mut h = mix(p.pieces(Color::White) as u64)
            ^ mix(((p.pieces(Color::White) >> 64) as u64) ^ 0x51ed_270b_2c4f_a7e1).rotate_left(7)
            ^ mix((p.pieces(Color::Black) as u64) ^ 0x9e37_79b9_7f4a_7c15).rotate_left(17)
            ^ mix(((p.pieces(Color::Black) >> 64) as u64) ^ 0xc2b2_ae3d_27d4_eb4f).rotate_left(29)
            ^ mix((p.kings() as u64) ^ 0x1656_67b1_9e37_79f9).rotate_left(37)
            ^ mix(((p.kings() >> 64) as u64) ^ 0x27d4_eb2f_1656_67c5).rotate_left(43);
        if p.turn() == Color::Black {
            h ^= 0x8f3b_1c2d_4e5f_6a7b;
        }
        for c in [Color::White, Color::Black] {
            let run = p.king_run(c);
            if run.count > 0 {
                h ^= mix(((run.square as u64) << 8 | run.count as u64) + c as u64 * 0x1_0000);
            }
        }
        if p.variant().rules().removal == doska_rules::variant::Removal::Column {
            for sq in doska_rules::bits::iter(p.occupied()) {
                for (i, piece) in p.under(doska_rules::Square(sq)).iter().enumerate() {
                    let v = (sq as u64) << 16
                        | (i as u64) << 4
                        | (piece.color as u64) << 1
                        | piece.king as u64;
                    h ^= mix(v ^ 0x7a3d_11e5_0b9c_2f61);
                }
            }
        }
        h
    }

    fn move_key(m: &Move) -> u32 {
        (m.from.0 as u32) << 16 | (m.to.0 as u32) << 8 | m.capture_count().min(255)
    }

    fn move_weight(m: &Move) -> u32 {
        m.capture_count() * 4 + m.promotes() as u32 * 2
    }

    fn end(&self) -> Option<End> {
        let turn = self.pos.turn();
        if self.pos.pieces(turn) == 0 {
            return Some(self.stuck());
        }
        // Repetition is tracked by the search along its path.
        game::judge_draws(&self.pos, &self.counters, 1, self.plies).map(|o| end_for(o.winner, turn))
    }

    fn stuck(&self) -> End {
        // No move loses, except in Poddavki where it wins.
        if self.pos.rules().giveaway { End::Win } else { End::Loss }
    }

    fn has_moves(&self) -> bool {
        self.pos.count_moves() > 0
    }

    fn unstable(&self) -> bool {
        self.pos.has_capture()
    }

    fn reversible_plies(&self) -> usize {
        game::repetition_window(&self.pos, &self.counters).map_or(usize::MAX, |n| n as usize)
    }

    fn evaluate(&self, terms: &Terms) -> i32 {
        draughts::evaluate_with(&self.pos, terms, |n| match &self.network {
            Some((_, sums)) => n.output(sums),
            None => n.evaluate(&self.pos),
        })
    }

    #[inline]
    fn exact(&self, terms: &Terms) -> Option<(End, u32)> {
        if !terms.egdb {
            return None;
        }
        let (end, plies) = match egdb::probe(&self.pos)? {
            egdb::Value::Win(d) => (End::Win, d as u32),
            egdb::Value::Loss(d) => (End::Loss, d as u32),
            egdb::Value::Draw => return Some((End::Draw, 0)),
        };
        // The database knows no draw counters: a win that a counter could end as a draw
        // before it is complete (were nothing to reset it) is left to the search.
        let later = Counters {
            quiet: self.counters.quiet + plies,
            endgame: self.counters.endgame + plies,
            ..self.counters
        };
        if game::judge_draws(&self.pos, &later, 1, self.plies + plies).is_some() {
            return None;
        }
        Some((end, plies))
    }

    fn exact_move(&self, terms: &Terms) -> Option<Move> {
        let (end, plies) = self.exact(terms)?;
        if end == End::Draw {
            return None;
        }
        // The move to a successor one ply nearer the end, lost for the opponent after a win
        // and won for it after a loss.
        let want = match end {
            End::Win => egdb::Value::Loss(plies.checked_sub(1)? as u16),
            _ => egdb::Value::Win(plies.checked_sub(1)? as u16),
        };
        let db = egdb::installed(self.pos.variant())?;
        self.pos.legal_moves().into_iter().find(|m| db.after_move(&self.pos.play(m)) == Some(want))
    }
}

impl Node for UgolkiPosition {
    type Move = UgolkiMove;
    // Measured in draughts only; a race is scored in other units.
    const BAD_MOVE_PRUNING: bool = false;

    fn legal(&self, out: &mut Vec<UgolkiMove>) {
        self.legal_moves_into(out);
    }

    fn play(&self, m: &UgolkiMove) -> Self {
        // Only legal moves are searched; an illegal one leaves the position as it was.
        UgolkiPosition::play(self, *m).unwrap_or(*self)
    }

    fn key(&self) -> u64 {
        let (w, b, side) = self.placement();
        let mut h = mix(w as u64)
            ^ mix(((w >> 64) as u64) ^ 0x51ed_270b_2c4f_a7e1).rotate_left(11)
            ^ mix((b as u64) ^ 0x9e37_79b9_7f4a_7c15).rotate_left(23)
            ^ mix(((b >> 64) as u64) ^ 0xc2b2_ae3d_27d4_eb4f).rotate_left(31);
        if side == Color::Black {
            h ^= 0x8f3b_1c2d_4e5f_6a7b;
        }
        // The leave-home rule depends on the move number.
        h ^ mix(self.fullmove_number() as u64 ^ 0x3c6e_f372_fe94_f82b)
    }

    fn move_key(m: &UgolkiMove) -> u32 {
        match m {
            UgolkiMove::Pass => 0,
            UgolkiMove::Step { from, to } | UgolkiMove::Jump { from, to } => {
                1 + ((from.file() as u32) << 12
                    | (from.rank() as u32) << 8
                    | (to.file() as u32) << 4
                    | to.rank() as u32)
            }
        }
    }

    fn move_weight(m: &UgolkiMove) -> u32 {
        match m {
            UgolkiMove::Jump { .. } => 1,
            _ => 0,
        }
    }

    fn end(&self) -> Option<End> {
        judge_position(self).map(|o| end_for(o.winner, self.side_to_move()))
    }

    fn stuck(&self) -> End {
        // A side without a move passes, so there is always a move; both stuck is a draw that
        // `end` reports.
        End::Draw
    }

    fn has_moves(&self) -> bool {
        true
    }

    fn unstable(&self) -> bool {
        false
    }

    fn evaluate(&self, terms: &Terms) -> i32 {
        ugolki::evaluate(self, terms)
    }

    fn start_search(&self) {
        race::start_search(self);
    }
}

/// A 64-bit mixer (splitmix64's finaliser).
#[inline]
pub(crate) fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
