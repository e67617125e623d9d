//! Ugolki (Уголки, "Corners"): rule sets, positions, move generation, game ends, position
//! text, move text and perft. The rule book is docs/rules/ugolki.md (with ugolki-brainking.md
//! and ugolki-brainking-10.md); `ugolki` is seed 000 exactly, the other presets come from
//! seeds 001 and 003.
//!
//! # Rules text
//!
//! Every rule set has one canonical text, which is its key for stats and URLs:
//!
//! ```text
//! rules   = preset [ ":" param { "," param } ]
//! preset  = "ugolki" | "ugolki-brainking" | "ugolki-brainking-10"
//! param   = key "=" value
//!
//! key          values                              meaning
//! board        8 | 10                              8x8 or 10x10 (input also 8x8, 10x10)
//! home         3x3 | 3x4 | stair | 4x4             a1-c3 (9) | a1-d3 (12) |
//!                                                  a1-d1+a2-c2+a3-b3+a4 (10) | a1-d4 (16)
//!                                                  (input also staircase)
//! dirs         4 | 8                               orthogonal or all directions
//! home-rule    off | ugolki-N | brainking-N        leave-home rule, N = 1..149, with the
//!                                                  `ugolki` or the BrainKing check
//! half-rule    off | N                             leave-half rule, N = 1..149, checked like
//!                                                  the leave-home rule (`ugolki` check when
//!                                                  that rule is off)
//! equal        on | off                            equal-moves rule
//! ```
//!
//! Input may list parameters in any order, repeat a key with the same value, give values equal
//! to the preset's, use upper case and spaces around tokens. The canonical form
//! ([`UgolkiRules`]'s `Display`) is: the bare preset id when the parameters equal a preset;
//! otherwise the preset that differs in the fewest parameters (the first of `ugolki`,
//! `ugolki-brainking`, `ugolki-brainking-10` on a tie), then only the differing parameters in
//! the order of the table above. So `parse(display(x)) == x`, and `display` is one text per
//! parameter set. Example: `ugolki:board=10,home=4x4,dirs=8,home-rule=brainking-50,equal=off`
//! is `ugolki-brainking-10`; 8 directions with everything else of `ugolki` is `ugolki:dirs=8`.
//!
//! # Position text (FEN)
//!
//! ```text
//! fen    = side ":" pieces ":" pieces [ ":" "N" number ]
//! side   = "W" | "B"                      side to move
//! pieces = ("W" | "B") square { "," square }   each side's squares, either order
//! number = 1..65535                       the current move number (default 1)
//! ```
//!
//! Example: the start of `ugolki` is `W:Wa1,b1,c1,a2,b2,c2,a3,b3,c3:Bf6,g6,h6,f7,g7,h7,f8,g8,h8:N1`.
//! A move is White's move and Black's reply, so with move number N and White to move both
//! sides have made N-1 moves; with Black to move White has made N and Black N-1. Output lists
//! squares from `a1` rank by rank and always writes `N`; input ignores spaces around parts and
//! squares and the case of the tags. Errors ([`FenError`]): a bad side, unknown or repeated
//! part, a missing side, bad or off-board squares, a square listed twice, more pieces than the
//! home holds, a side with no pieces, a bad move number.
//!
//! # Move text
//!
//! `c3-c4` (a step), `c3-e5` (a jump chain, given by start and destination: the route does not
//! change the position), and `pass`. Input also takes a full jump path `c3-c5-e5`, every hop
//! of which must be a legal jump in order without revisiting a square.

mod fen;
mod game;
mod geometry;
mod moves;
mod perft;
mod position;
mod rules;
mod square;

#[cfg(test)]
mod tests;

pub use fen::FenError;
pub use game::{EndReason, Outcome, PlayError, UgolkiGame, Winner, judge_position};
pub use moves::{IllegalMove, IllegalReason, MAX_PATH, MoveTextError, Path, UgolkiMove};
pub use perft::{perft, perft_divide};
pub use position::UgolkiPosition;
pub use rules::{
    BoardSize, Directions, HomeShape, LEAVE_MOVES_MAX, LeaveCheck, LeaveHalf, LeaveHome,
    MOVE_LIMIT, PRESETS, RulesError, RulesTextError, UgolkiRules,
};
pub use square::{ParseSquareError, Square};
