//! One game of either kind — a draughts rule set or Ugolki — as a client sees it: the pieces,
//! the legal moves with their paths, the moves played, the outcome with its reason, and the
//! game as text. The CLI and the server both speak through this, so a move looks the same
//! everywhere. Squares are always algebraic here (`a1` is White's bottom-left corner).

use crate::fen::Counters;
use crate::game::{Game, Winner, advance};
use crate::notation::format_move;
use crate::pdn::result_token;
use crate::ruleset::RuleSet;
use crate::ugolki::{EndReason, UgolkiGame, UgolkiMove, UgolkiPosition};
use crate::{Color, Position, Square, pdn};

/// A legal or played move, in plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveView {
    /// The rule set's own move text (`32-28`, `c3:e5:g3`, `b1-d3`, `pass`).
    pub notation: String,
    /// Start square (none for an Ugolki pass).
    pub from: Option<String>,
    /// End square (none for an Ugolki pass).
    pub to: Option<String>,
    /// The start and every landing square (Ugolki: one shortest way), `[]` for a pass.
    pub path: Vec<String>,
    /// Captured squares in the order jumped.
    pub captures: Vec<String>,
    /// The position after the move.
    pub fen: String,
}

/// A piece on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceView {
    /// Its square.
    pub square: String,
    /// Owner.
    pub color: Color,
    /// Crowned (a king or an officer).
    pub king: bool,
    /// Lasca: the pieces under it, from just under the top downwards, as (owner, crowned).
    pub under: Vec<(Color, bool)>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeView {
    /// Who won.
    pub winner: Winner,
    /// A stable id of the reason (`no-pieces`, `repetition`, `equal-moves-draw`, ...).
    pub reason: &'static str,
    /// The reason in English words.
    pub text: String,
}

/// Why something asked of a game was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnyError {
    /// A position text that could not be read.
    #[error("bad position: {0}")]
    Fen(String),
    /// A move that was not accepted, with the reason.
    #[error("{0}")]
    Move(String),
    /// The game is over.
    #[error("the game is over: {0}")]
    GameOver(String),
    /// A game text (PDN) that could not be read.
    #[error("bad game text: {0}")]
    Pdn(String),
}

/// A game of any rule set.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Draughts.
    Draughts(Game),
    /// Ugolki.
    Ugolki(UgolkiGame),
}

impl AnyGame {
    /// A game from the start position.
    pub fn new(rules: RuleSet) -> AnyGame {
        match rules {
            RuleSet::Draughts(v) => AnyGame::Draughts(Game::new(v)),
            RuleSet::Ugolki(u) => AnyGame::Ugolki(UgolkiGame::new(u)),
        }
    }

    /// A game from a position text.
    pub fn from_fen(rules: RuleSet, fen: &str) -> Result<AnyGame, AnyError> {
        match rules {
            RuleSet::Draughts(v) => Game::from_fen(v, fen)
                .map(AnyGame::Draughts)
                .map_err(|e| AnyError::Fen(e.to_string())),
            RuleSet::Ugolki(u) => UgolkiGame::from_fen(u, fen)
                .map(AnyGame::Ugolki)
                .map_err(|e| AnyError::Fen(e.to_string())),
        }
    }

    /// The rule set.
    pub fn rules(&self) -> RuleSet {
        match self {
            AnyGame::Draughts(g) => RuleSet::Draughts(g.variant()),
            AnyGame::Ugolki(g) => RuleSet::Ugolki(*g.rules()),
        }
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        match self {
            AnyGame::Draughts(g) => g.position().turn(),
            AnyGame::Ugolki(g) => g.position().side_to_move(),
        }
    }

    /// The current position as text (with counters).
    pub fn fen(&self) -> String {
        match self {
            AnyGame::Draughts(g) => g.fen(),
            AnyGame::Ugolki(g) => g.position().to_fen(),
        }
    }

    /// The start position as text.
    pub fn start_fen(&self) -> String {
        match self {
            AnyGame::Draughts(g) => g.start_fen(),
            AnyGame::Ugolki(g) => g.start().to_fen(),
        }
    }

    /// The current move number (a move is both sides' turns).
    pub fn move_number(&self) -> u32 {
        match self {
            AnyGame::Draughts(g) => g.counters().move_number,
            AnyGame::Ugolki(g) => g.position().fullmove_number(),
        }
    }

    /// Number of turns played.
    pub fn plies(&self) -> usize {
        match self {
            AnyGame::Draughts(g) => g.moves().len(),
            AnyGame::Ugolki(g) => g.moves().len(),
        }
    }

    /// The pieces on the board.
    pub fn pieces(&self) -> Vec<PieceView> {
        match self {
            AnyGame::Draughts(g) => {
                let pos = g.position();
                let geo = &pos.rules().geometry;
                geo.all_squares()
                    .filter_map(|sq| {
                        pos.piece_at(sq).map(|p| PieceView {
                            square: geo.algebraic(sq),
                            color: p.color,
                            king: p.king,
                            under: pos.under(sq).iter().map(|u| (u.color, u.king)).collect(),
                        })
                    })
                    .collect()
            }
            AnyGame::Ugolki(g) => {
                let pos = g.position();
                [Color::White, Color::Black]
                    .into_iter()
                    .flat_map(|c| {
                        pos.pieces(c).into_iter().map(move |sq| PieceView {
                            square: sq.to_string(),
                            color: c,
                            king: false,
                            under: Vec::new(),
                        })
                    })
                    .collect()
            }
        }
    }

    /// Pieces left on each side: (white, black).
    pub fn pieces_left(&self) -> (usize, usize) {
        let p = self.pieces();
        let white = p.iter().filter(|p| p.color == Color::White).count();
        (white, p.len() - white)
    }

    /// The legal moves (none once the game is over).
    pub fn legal_moves(&self) -> Vec<MoveView> {
        match self {
            AnyGame::Draughts(g) => {
                let pos = g.position();
                let legal = g.legal_moves();
                let counters = g.counters();
                legal.iter().map(|m| draughts_view(pos, &counters, m, &legal)).collect()
            }
            AnyGame::Ugolki(g) => {
                let pos = g.position();
                g.legal_moves().into_iter().filter_map(|m| ugolki_view(pos, m)).collect()
            }
        }
    }

    /// The squares of the pieces that must capture (draughts; empty when no capture).
    pub fn must_capture(&self) -> Vec<String> {
        match self {
            AnyGame::Draughts(g) if g.outcome().is_none() => {
                let pos = g.position();
                let geo = &pos.rules().geometry;
                crate::bits::iter(pos.capturing_pieces())
                    .map(|b| geo.algebraic(Square(b)))
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// Whether `side` is warned that its pieces must leave home soon (Ugolki).
    pub fn warning(&self, side: Color) -> bool {
        match self {
            AnyGame::Draughts(_) => false,
            AnyGame::Ugolki(g) => g.warning(side),
        }
    }

    /// The moves played, as views.
    pub fn history(&self) -> Vec<MoveView> {
        match self {
            AnyGame::Draughts(g) => g
                .moves()
                .iter()
                .enumerate()
                .filter_map(|(i, m)| {
                    let pos = g.position_at(i)?;
                    Some(draughts_view(pos, &g.counters_at(i), m, &pos.legal_moves()))
                })
                .collect(),
            AnyGame::Ugolki(g) => {
                let mut pos = *g.start();
                let mut out = Vec::new();
                for m in g.moves() {
                    if let Some(v) = ugolki_view(&pos, *m) {
                        out.push(v);
                    }
                    match pos.play(*m) {
                        Ok(next) => pos = next,
                        Err(_) => break,
                    }
                }
                out
            }
        }
    }

    /// Plays a move given as text, or as squares `[from, landing..., to]` (any route).
    pub fn play(&mut self, text: &str) -> Result<MoveView, AnyError> {
        if let Some(o) = self.outcome() {
            return Err(AnyError::GameOver(o.text));
        }
        match self {
            AnyGame::Draughts(g) => {
                let before = g.position().clone();
                let counters = g.counters();
                let legal = before.legal_moves();
                let mv = g.play_text(text).map_err(|e| AnyError::Move(e.to_string()))?;
                Ok(draughts_view(&before, &counters, &mv, &legal))
            }
            AnyGame::Ugolki(g) => {
                let before = *g.position();
                let mv = g.play_text(text).map_err(|e| AnyError::Move(e.to_string()))?;
                ugolki_view(&before, mv).ok_or_else(|| AnyError::Move(text.to_string()))
            }
        }
    }

    /// Plays a move given by its path of algebraic squares (start, landings, end).
    pub fn play_path(&mut self, path: &[String]) -> Result<MoveView, AnyError> {
        let sep = match self {
            AnyGame::Draughts(g) if g.position().has_capture() => "x",
            _ => "-",
        };
        if path.len() < 2 {
            return Err(AnyError::Move(
                "a move needs at least a start and an end square".to_string(),
            ));
        }
        self.play(&path.join(sep))
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> bool {
        match self {
            AnyGame::Draughts(g) => g.undo().is_some(),
            AnyGame::Ugolki(g) => g.undo().is_some(),
        }
    }

    /// How the game ended, if it did.
    pub fn outcome(&self) -> Option<OutcomeView> {
        match self {
            AnyGame::Draughts(g) => g.outcome().map(|o| OutcomeView {
                winner: o.winner,
                reason: o.reason.id(),
                text: o.reason.to_string(),
            }),
            AnyGame::Ugolki(g) => g.outcome().map(|o| OutcomeView {
                winner: o.winner,
                reason: ugolki_reason_id(o.reason),
                text: o.reason.to_string(),
            }),
        }
    }

    /// Ends the game by resignation of `side`.
    pub fn resign(&mut self, side: Color) {
        match self {
            AnyGame::Draughts(g) => g.resign(side),
            AnyGame::Ugolki(g) => g.resign(side),
        }
    }

    /// Ends the game by an agreed draw.
    pub fn agree_draw(&mut self) {
        match self {
            AnyGame::Draughts(g) => g.agree_draw(),
            AnyGame::Ugolki(g) => g.agree_draw(),
        }
    }

    /// Ends the game: `winner` wins because the opponent left.
    pub fn abandon(&mut self, winner: Color) {
        match self {
            AnyGame::Draughts(g) => g.abandon(winner),
            AnyGame::Ugolki(g) => g.abandon(winner),
        }
    }

    /// The game as PDN (draughts) or the same tag-and-moves text for Ugolki.
    pub fn export(&self, tags: &[(&str, &str)]) -> String {
        self.export_notes(tags, &[])
    }

    /// [`AnyGame::export`] with a note (suffix, comment) on each move: a review's marks and
    /// evaluations.
    pub fn export_notes(&self, tags: &[(&str, &str)], notes: &[pdn::Note]) -> String {
        match self {
            AnyGame::Draughts(g) => pdn::write_notes(g, tags, notes),
            AnyGame::Ugolki(g) => {
                let mut all: Vec<(String, String)> =
                    tags.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
                all.push(("Variant".into(), g.rules().to_string()));
                if *g.start() != UgolkiPosition::start(*g.rules()) {
                    all.push(("FEN".into(), g.start().to_fen()));
                }
                let mut text =
                    pdn::MoveText::new(&all, result_token(self.outcome().map(|o| o.winner)));
                let mut pos = *g.start();
                for (i, m) in g.moves().iter().enumerate() {
                    let white = pos.side_to_move() == Color::White;
                    text.push(pos.fullmove_number(), white, &m.to_string());
                    if let Some(n) = notes.get(i) {
                        text.note(n);
                    }
                    if let Ok(next) = pos.play(*m) {
                        pos = next;
                    }
                }
                text.finish()
            }
        }
    }

    /// Reads a game text: PDN, or a bare FEN of `default`'s rule set.
    pub fn import(text: &str, default: RuleSet) -> Result<AnyGame, AnyError> {
        let t = text.trim();
        if !t.starts_with('[') && !t.contains(['.', ' ']) || t.starts_with(['W', 'B']) {
            return AnyGame::from_fen(default, t);
        }
        let variant_tag = t.lines().find_map(|l| {
            let l = l.trim();
            let inner = l.strip_prefix("[Variant")?.trim().trim_end_matches(']').trim();
            Some(inner.trim_matches('"').to_string())
        });
        let rules = match variant_tag {
            Some(v) => v.parse::<RuleSet>().map_err(|e| AnyError::Pdn(e.to_string()))?,
            None => default,
        };
        match rules {
            RuleSet::Draughts(v) => pdn::read(t, Some(v))
                .map(|p| AnyGame::Draughts(p.game))
                .map_err(|e| AnyError::Pdn(e.to_string())),
            RuleSet::Ugolki(u) => {
                let fen = t.lines().find_map(|l| {
                    let inner = l.trim().strip_prefix("[FEN")?.trim().trim_end_matches(']').trim();
                    Some(inner.trim_matches('"').to_string())
                });
                let mut game = match fen {
                    Some(f) => {
                        UgolkiGame::from_fen(u, &f).map_err(|e| AnyError::Pdn(e.to_string()))?
                    }
                    None => UgolkiGame::new(u),
                };
                let body: String =
                    t.lines().filter(|l| !l.trim().starts_with('[')).collect::<Vec<_>>().join(" ");
                // Move tokens as in draughts PDN: numbers, comments, variations and marks out.
                let tokens = pdn::tokens(&body).map_err(|e| AnyError::Pdn(e.to_string()))?;
                for (i, token) in tokens.iter().map(String::as_str).enumerate() {
                    if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                        break;
                    }
                    game.play_text(token)
                        .map_err(|e| AnyError::Pdn(format!("move {} ({token}): {e}", i + 1)))?;
                }
                Ok(AnyGame::Ugolki(game))
            }
        }
    }
}

/// A move of `pos` (whose counters are `counters`) as the UI and the CLI show it; its FEN
/// carries the counters after the move, so a game driven by chaining these FENs reaches every
/// counter draw.
fn draughts_view(
    pos: &Position,
    counters: &Counters,
    m: &crate::Move,
    legal: &[crate::Move],
) -> MoveView {
    let geo = &pos.rules().geometry;
    let after = pos.play(m);
    let fen = crate::fen::write(&after, Some(&advance(counters, pos, m, &after)));
    MoveView {
        notation: format_move(pos, m, legal),
        from: Some(geo.algebraic(m.from)),
        to: Some(geo.algebraic(m.to)),
        path: m.path().iter().map(|s| geo.algebraic(*s)).collect(),
        captures: m.captures_in_order(geo).iter().map(|s| geo.algebraic(*s)).collect(),
        fen,
    }
}

fn ugolki_view(pos: &UgolkiPosition, m: UgolkiMove) -> Option<MoveView> {
    let after = pos.play(m).ok()?;
    let path = match m {
        UgolkiMove::Pass => Vec::new(),
        _ => pos.path(m)?.squares().iter().map(|s| s.to_string()).collect(),
    };
    Some(MoveView {
        notation: m.to_string(),
        from: m.from().map(|s| s.to_string()),
        to: m.to().map(|s| s.to_string()),
        path,
        captures: Vec::new(),
        fen: after.to_fen(),
    })
}

fn ugolki_reason_id(r: EndReason) -> &'static str {
    match r {
        EndReason::AllInCorner => "all-in-corner",
        EndReason::EqualMovesDraw => "equal-moves-draw",
        EndReason::LeftAtHome { .. } => "left-at-home",
        EndReason::BothLeftAtHome { .. } => "both-left-at-home",
        EndReason::LeftInHalf { .. } => "left-in-half",
        EndReason::BothLeftInHalf { .. } => "both-left-in-half",
        EndReason::NoMovesBoth => "no-moves-both",
        EndReason::Repetition => "repetition",
        EndReason::MoveLimit => "move-limit",
        EndReason::Resignation => "resignation",
        EndReason::Agreement => "agreement",
        EndReason::Abandoned => "abandoned",
    }
}
