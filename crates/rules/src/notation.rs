//! Move text in each rule set's own notation: numeric `32-28` / `28x19`, algebraic `c3-d4` /
//! `c3:e5`. Text is parsed first into squares, then resolved against the position's legal
//! moves, so an illegal and an ambiguous move are told apart.

use crate::geometry::{Square, SquareError};
use crate::moves::Move;
use crate::position::Position;
use crate::variant::CaptureChoice;

/// Why a move text was not accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not a move text at all.
    #[error(
        "cannot read move {0:?}: expected squares joined by '-' for a move or 'x' or ':' for a capture, e.g. 32-28, 28x19, c3-d4, c3:e5"
    )]
    Syntax(String),
    /// A square could not be read.
    #[error("{0}")]
    Square(#[from] SquareError),
    /// No piece on the start square.
    #[error("there is no piece on {0}")]
    NoPiece(String),
    /// The piece belongs to the side not to move.
    #[error("the piece on {square} is {owner}'s, and it is {turn}'s turn")]
    NotYourPiece {
        /// Square.
        square: String,
        /// Owner of the piece.
        owner: &'static str,
        /// Side to move.
        turn: &'static str,
    },
    /// A plain move while a capture is possible.
    #[error("capture is compulsory: {0} must capture")]
    MustCapture(String),
    /// A capture the capture-choice rule does not allow.
    #[error("{0}")]
    CaptureChoice(String),
    /// A capture sequence stopped while it could go on.
    #[error("the capture must be completed: it goes on from {0}")]
    Incomplete(String),
    /// Nothing matches.
    #[error("{0} is not a legal move here")]
    Illegal(String),
    /// Several different moves match.
    #[error("{text} is ambiguous: it could be {options}; give the landing squares")]
    Ambiguous {
        /// What was given.
        text: String,
        /// The moves it could be.
        options: String,
    },
}

/// The text of a legal move, short when unambiguous: `from-to`, `fromxto`, or the full path
/// of landing squares when two moves share start and end.
pub fn format_move(pos: &Position, mv: &Move, legal: &[Move]) -> String {
    let r = pos.rules();
    let g = &r.geometry;
    if !mv.is_capture() {
        return format!("{}-{}", g.name(mv.from), g.name(mv.to));
    }
    let mark = r.capture_mark;
    let clash = legal
        .iter()
        .any(|m| m.from == mv.from && m.to == mv.to && !pos.same_move(m, mv) && m.is_capture());
    // Russian notation writes every landing square of a capture (c3:e5:g3).
    if clash || mark == ':' {
        full_path(pos, mv)
    } else {
        format!("{}{mark}{}", g.name(mv.from), g.name(mv.to))
    }
}

/// The text of a move with every landing square.
pub fn full_path(pos: &Position, mv: &Move) -> String {
    let r = pos.rules();
    let sep = if mv.is_capture() { r.capture_mark.to_string() } else { "-".to_string() };
    mv.path().iter().map(|s| r.geometry.name(*s)).collect::<Vec<_>>().join(&sep)
}

/// Splits move text into squares.
fn squares(pos: &Position, text: &str) -> Result<(Vec<Square>, bool), MoveError> {
    let t = text.trim();
    let g = &pos.rules().geometry;
    let capture = t.contains(['x', 'X', ':', '×']);
    let parts: Vec<&str> = t.split(['-', 'x', 'X', ':', '×']).map(str::trim).collect();
    if parts.len() < 2 || parts.iter().any(|p| p.is_empty()) {
        return Err(MoveError::Syntax(text.to_string()));
    }
    let sq = parts.iter().map(|p| g.parse_square(p)).collect::<Result<Vec<_>, _>>()?;
    Ok((sq, capture))
}

/// Whether `given` (start, optional intermediate landings, end) fits the route of `mv`.
fn fits(mv: &Move, given: &[Square]) -> bool {
    let (Some(first), Some(last)) = (given.first(), given.last()) else { return false };
    if mv.from != *first || mv.to != *last {
        return false;
    }
    let mut landings = mv.landings();
    given[1..given.len() - 1].iter().all(|sq| landings.any(|l| l == *sq))
}

/// Resolves move text against the legal moves of `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let (given, _) = squares(pos, text)?;
    let g = &pos.rules().geometry;
    let from = given[0];
    let name = |s: Square| g.name(s);
    let legal = pos.legal_moves();
    let routes = pos.capture_routes();
    let mut found: Vec<Move> = Vec::new();
    let candidates: &[Move] = if routes.is_empty() { &legal } else { &routes };
    for route in candidates.iter().filter(|m| fits(m, &given)) {
        if let Some(m) = legal.iter().find(|m| pos.same_move(m, route))
            && !found.iter().any(|f| pos.same_move(f, m))
        {
            found.push(*m);
        }
    }
    // Every landing square given, in order, names one move even where a longer route passes
    // the same squares (a flying king's b8:f4:h2 and b8:f4:h6:f8:d6:h2).
    if found.len() > 1
        && let [exact] =
            found.iter().filter(|m| m.path() == given.as_slice()).collect::<Vec<_>>()[..]
    {
        return Ok(*exact);
    }
    match found.len() {
        1 => return Ok(found[0]),
        0 => {}
        _ => {
            let options = found.iter().map(|m| full_path(pos, m)).collect::<Vec<_>>().join(" or ");
            return Err(MoveError::Ambiguous { text: text.trim().to_string(), options });
        }
    }
    // Explain why nothing matched.
    let Some(piece) = pos.piece_at(from) else { return Err(MoveError::NoPiece(name(from))) };
    if piece.color != pos.turn() {
        return Err(MoveError::NotYourPiece {
            square: name(from),
            owner: piece.color.name(),
            turn: pos.turn().name(),
        });
    }
    if !routes.is_empty() {
        let raw = pos.unfiltered_capture_routes();
        if raw.iter().any(|m| fits(m, &given)) {
            return Err(MoveError::CaptureChoice(choice_text(pos)));
        }
        // A capture cut short: the given squares are a prefix of a longer route.
        if given.len() >= 2
            && routes
                .iter()
                .any(|m| m.from == from && m.landings().any(|l| l == given[given.len() - 1]))
        {
            return Err(MoveError::Incomplete(name(given[given.len() - 1])));
        }
        let mut pieces: Vec<String> = Vec::new();
        for m in &routes {
            let n = name(m.from);
            if !pieces.contains(&n) {
                pieces.push(n);
            }
        }
        return Err(MoveError::MustCapture(format!("the piece on {}", pieces.join(", "))));
    }
    Err(MoveError::Illegal(text.trim().to_string()))
}

/// What the capture-choice rule demands, in words.
fn choice_text(pos: &Position) -> String {
    let most = pos.capture_routes().first().map(|m| m.capture_count()).unwrap_or(0);
    match pos.rules().choice {
        CaptureChoice::Free => "this capture is not allowed".to_string(),
        CaptureChoice::MostPieces => format!("you must capture the most pieces ({most})"),
        CaptureChoice::Spanish => {
            format!("you must capture the most pieces ({most}), then the most kings")
        }
        CaptureChoice::Italian => format!(
            "you must capture the most pieces ({most}), then with a king, then the most kings, then the king met earliest"
        ),
        CaptureChoice::KingFirst => "a king that can capture must capture".to_string(),
        CaptureChoice::FrisianValue => {
            "you must make the capture of the highest value (a king counts more than a man), then capture with a king".to_string()
        }
    }
}
