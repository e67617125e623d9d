//! PDN games: read and write, with `[GameType]` where one exists and always `[Variant "id"]`,
//! so every rule set round-trips.

use crate::fen::FenError;
use crate::game::{Game, PlayError, Winner};
use crate::notation;
use crate::variant::Variant;
use std::fmt::Write;

/// Why a PDN text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PdnError {
    /// The rule set is not named and no default was given.
    #[error("the PDN does not say its rule set: add [Variant \"russian\"] (or a [GameType])")]
    NoVariant,
    /// A `[Variant]` that is not a rule set id.
    #[error(transparent)]
    UnknownVariant(#[from] crate::variant::UnknownVariant),
    /// A `[GameType]` this program does not play.
    #[error("unknown [GameType {0:?}]: known types are 20 21 22 24 25 26 27 29 30 31 40")]
    UnknownGameType(String),
    /// A bad `[FEN]` tag.
    #[error("bad [FEN] tag: {0}")]
    Fen(#[from] FenError),
    /// A tag that is not `[Name "value"]`.
    #[error("bad tag {0:?}: expected [Name \"value\"]")]
    BadTag(String),
    /// A comment or variation that is never closed.
    #[error("unclosed {0} in the move text")]
    Unclosed(&'static str),
    /// A move that could not be played.
    #[error("move {number} ({text}): {error}")]
    Move {
        /// Ply number, from 1.
        number: usize,
        /// The move text.
        text: String,
        /// Why.
        error: PlayError,
    },
}

/// A game read from PDN with its tags.
#[derive(Clone, Debug)]
pub struct PdnGame {
    /// Tags in order.
    pub tags: Vec<(String, String)>,
    /// The game with every move played.
    pub game: Game,
    /// The result token of the move text, if any.
    pub result: Option<String>,
}

fn variant_of_game_type(gt: &str) -> Result<Variant, PdnError> {
    let n: u8 = gt
        .split(',')
        .next()
        .unwrap_or("")
        .trim()
        .parse()
        .map_err(|_| PdnError::UnknownGameType(gt.to_string()))?;
    Variant::ALL
        .into_iter()
        .find(|v| v.rules().game_type == Some(n))
        .ok_or_else(|| PdnError::UnknownGameType(gt.to_string()))
}

/// Reads one PDN game. `default` is the rule set when the text names none.
pub fn read(text: &str, default: Option<Variant>) -> Result<PdnGame, PdnError> {
    let mut tags = Vec::new();
    let mut body = String::new();
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            let inner = l.trim_start_matches('[').trim_end_matches(']').trim();
            let (name, value) = inner
                .split_once(char::is_whitespace)
                .ok_or_else(|| PdnError::BadTag(l.to_string()))?;
            let value = value.trim();
            if !(value.len() >= 2 && value.starts_with('"') && value.ends_with('"')) {
                return Err(PdnError::BadTag(l.to_string()));
            }
            tags.push((name.to_string(), value[1..value.len() - 1].to_string()));
        } else {
            body.push_str(line);
            body.push('\n');
        }
    }
    let tag =
        |n: &str| tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(n)).map(|(_, v)| v.as_str());
    let variant = match (tag("Variant"), tag("GameType")) {
        (Some(v), _) => v.parse()?,
        (None, Some(gt)) => variant_of_game_type(gt)?,
        (None, None) => default.ok_or(PdnError::NoVariant)?,
    };
    let mut game = match tag("FEN") {
        Some(f) => Game::from_fen(variant, f)?,
        None => Game::new(variant),
    };
    let mut result = None;
    for (i, token) in tokens(&body)?.into_iter().enumerate() {
        if matches!(token.as_str(), "1-0" | "0-1" | "2-0" | "0-2" | "1-1" | "1/2-1/2" | "*" | "0-0")
        {
            result = Some(token);
            break;
        }
        game.play_text(&token).map_err(|error| PdnError::Move {
            number: i + 1,
            text: token.clone(),
            error,
        })?;
    }
    Ok(PdnGame { tags, game, result })
}

/// Splits move text into move tokens, dropping numbers, comments, variations and NAGs.
pub(crate) fn tokens(body: &str) -> Result<Vec<String>, PdnError> {
    let mut out = Vec::new();
    let mut depth_paren = 0usize;
    let mut chars = body.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<String>| {
        let w = word.trim_end_matches(['!', '?', '*']).to_string();
        let w = if word == "*" { "*".to_string() } else { w };
        word.clear();
        if w.is_empty() || w.starts_with('$') {
            return;
        }
        // Move numbers: "12." or "12..." or "12...32-28".
        let w = match w.find('.') {
            Some(p) if w[..p].chars().all(|c| c.is_ascii_digit()) => {
                w[p..].trim_start_matches('.').to_string()
            }
            _ => w,
        };
        if !w.is_empty() {
            out.push(w);
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut word, &mut out);
                if !chars.by_ref().any(|c| c == '}') {
                    return Err(PdnError::Unclosed("comment {"));
                }
            }
            '(' => {
                flush(&mut word, &mut out);
                depth_paren += 1;
                while depth_paren > 0 {
                    match chars.next() {
                        Some('(') => depth_paren += 1,
                        Some(')') => depth_paren -= 1,
                        Some(_) => {}
                        None => return Err(PdnError::Unclosed("variation (")),
                    }
                }
            }
            c if c.is_whitespace() => flush(&mut word, &mut out),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut out);
    Ok(out)
}

/// Writes a game as PDN. `extra` tags come first (Event, players, date...).
pub fn write(game: &Game, extra: &[(&str, &str)]) -> String {
    write_notes(game, extra, &[])
}

/// A note on one move of a written game: a suffix (`?!`, `?`, `??`, `!`...) and a comment
/// (`[%eval 0.35]`), either empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Note {
    /// Glued to the move.
    pub suffix: String,
    /// Written in braces after the move.
    pub comment: String,
}

/// [`write`] with a note on each move (`notes[i]` on move `i`; missing ones are empty).
pub fn write_notes(game: &Game, extra: &[(&str, &str)], notes: &[Note]) -> String {
    let variant = game.variant();
    let r = variant.rules();
    let mut tags: Vec<(String, String)> =
        extra.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    if let Some(gt) = r.game_type {
        tags.push(("GameType".into(), gt.to_string()));
    }
    tags.push(("Variant".into(), variant.id().into()));
    let start = crate::position::Position::start(variant);
    if *game.start() != start || game.start_fen() != start.to_fen() {
        tags.push(("FEN".into(), game.start_fen()));
    }
    let result = result_token(game.outcome().map(|o| o.winner));
    let mut text = MoveText::new(&tags, result);
    let mut number = game.counters_at(0).move_number;
    for (i, mv) in game.moves().iter().enumerate() {
        let Some(pos) = game.position_at(i) else { break };
        let legal = pos.legal_moves();
        let first_side = pos.turn() == r.first;
        text.push(number, first_side, &notation::format_move(pos, mv, &legal));
        if let Some(n) = notes.get(i) {
            text.note(n);
        }
        if !first_side {
            number += 1;
        }
    }
    text.finish()
}

/// `1-0`, `0-1`, `1/2-1/2` or `*`.
pub fn result_token(winner: Option<Winner>) -> &'static str {
    match winner {
        Some(Winner::White) => "1-0",
        Some(Winner::Black) => "0-1",
        Some(Winner::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// PDN text being written: the tags, then numbered moves wrapped at about 72 columns, then the
/// result. Shared by draughts and the Ugolki game text.
pub(crate) struct MoveText {
    out: String,
    line: String,
    result: &'static str,
    started: bool,
}

impl MoveText {
    /// Starts with the tags and the `[Result]` tag.
    pub(crate) fn new(tags: &[(String, String)], result: &'static str) -> MoveText {
        let mut out = String::new();
        for (k, v) in tags {
            let _ = writeln!(out, "[{k} \"{}\"]", v.replace('"', "'"));
        }
        let _ = writeln!(out, "[Result \"{result}\"]\n");
        MoveText { out, line: String::new(), result, started: false }
    }

    /// Adds a move; `first_side` is true for the move that opens a move number.
    pub(crate) fn push(&mut self, number: u32, first_side: bool, text: &str) {
        // A full line is ended before the next move, so that a note stays with its move.
        if self.line.len() > 72 {
            self.out.push_str(self.line.trim_end());
            self.out.push('\n');
            self.line.clear();
        }
        if first_side {
            let _ = write!(self.line, "{number}. ");
        } else if !self.started {
            let _ = write!(self.line, "{number}... ");
        }
        self.started = true;
        self.line.push_str(text);
        self.line.push(' ');
    }

    /// Notes the move just pushed: its suffix, then its comment (after which the next move,
    /// if the second side's, repeats its number).
    pub(crate) fn note(&mut self, note: &Note) {
        if !note.suffix.is_empty() {
            let end = self.line.trim_end().len();
            self.line.truncate(end);
            self.line.push_str(&note.suffix);
            self.line.push(' ');
        }
        if !note.comment.is_empty() {
            let _ = write!(self.line, "{{{}}} ", note.comment.replace(['{', '}'], ""));
            self.started = false;
        }
    }

    /// The finished text.
    pub(crate) fn finish(mut self) -> String {
        self.line.push_str(self.result);
        self.out.push_str(self.line.trim_end());
        self.out.push('\n');
        self.out
    }
}
