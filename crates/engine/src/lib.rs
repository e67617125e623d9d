//! The computer opponent of doska: one search ([`search`]) for every game through the
//! [`Node`] trait, an evaluation per game family ([`eval`]), and the four levels ([`Level`]).
//! It never prints; it reports through callbacks.
//!
//! ```
//! use doska_engine::{Level, choose};
//! use doska_rules::{AnyGame, RuleSet, Variant};
//! let game = AnyGame::new(RuleSet::Draughts(Variant::Russian));
//! let mv = choose(&game, Level::Easy, 7, 1.0);
//! assert!(mv.is_some());
//! ```

pub mod book;
pub mod clock;
pub mod egdb;
pub mod eval;
pub mod learn;
pub mod level;
pub mod node;
pub mod review;
pub mod search;
pub mod tt;

pub use clock::Clock;
pub use eval::Terms;
pub use level::Level;
pub use node::{DraughtsNode, End, Node};
pub use search::{Features, Info, Limits, Searcher, Stop, WIN, WIN_BOUND};

use doska_rules::fen::Counters;
use doska_rules::notation::format_move;
use doska_rules::ugolki::{UgolkiGame, UgolkiMove, UgolkiPosition};
use doska_rules::{AnyGame, Game, Move, Position};
use std::time::Duration;

/// What an analysis found, in the rule set's notation.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The best move.
    pub best: Option<String>,
    /// Score for the side to move, in hundredths of a man (beyond ±29000: a forced result).
    pub score: i32,
    /// Principal variation.
    pub pv: Vec<String>,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Every root move with its score at the last completed depth.
    pub root: Vec<(String, i32)>,
    /// The best lines, best first: as many as [`analyze_lines`] was asked for (one from
    /// [`analyze`]), each a root move, its score and the line it starts.
    pub lines: Vec<Line>,
}

/// One line of an analysis: its score for the side to move and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Score for the side to move (as [`Analysis::score`]).
    pub score: i32,
    /// The moves, in the rule set's notation, the root move first.
    pub moves: Vec<String>,
}

/// One iteration's report, in notation.
#[derive(Clone, Debug)]
pub struct Report {
    /// Depth completed.
    pub depth: u32,
    /// Score.
    pub score: i32,
    /// Principal variation.
    pub pv: Vec<String>,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
}

fn draughts_root(g: &Game) -> (DraughtsNode, Vec<u64>) {
    let node = DraughtsNode::new(g.position().clone(), g.counters(), g.moves().len() as u32);
    let history = (0..g.moves().len())
        .filter_map(|i| g.position_at(i))
        .map(|p| DraughtsNode::new(p.clone(), Counters::default(), 0).key())
        .collect();
    (node, history)
}

fn ugolki_root(g: &UgolkiGame) -> (UgolkiPosition, Vec<u64>) {
    let mut history = Vec::new();
    let mut pos = *g.start();
    for m in g.moves() {
        history.push(pos.key());
        pos = Node::play(&pos, m);
    }
    (*g.position(), history)
}

fn draughts_text(pos: &Position, line: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for m in line {
        let legal = p.legal_moves();
        out.push(format_move(&p, m, &legal));
        p = p.play(m);
    }
    out
}

fn ugolki_text(line: &[UgolkiMove]) -> Vec<String> {
    line.iter().map(|m| m.to_string()).collect()
}

/// Searches the game's current position with `searcher`.
pub fn analyze(
    searcher: &mut Searcher,
    game: &AnyGame,
    limits: Limits,
    report: impl FnMut(&Report),
) -> Analysis {
    analyze_lines(searcher, game, limits, 1, report)
}

/// The best `n` root moves ranked with `n` lines, best first: for more than one, every root
/// move is searched with a full window (exact root scores), which costs some depth.
pub fn analyze_lines(
    searcher: &mut Searcher,
    game: &AnyGame,
    limits: Limits,
    n: usize,
    mut report: impl FnMut(&Report),
) -> Analysis {
    let (exact, analysis) = (searcher.exact_root(), searcher.analysis());
    if n > 1 {
        searcher.set_analysis(true);
    }
    let mut a = search_game(searcher, game, limits, n.max(1), &mut report);
    searcher.set_analysis(analysis);
    searcher.set_exact_root(exact);
    if a.lines.is_empty()
        && let Some(best) = &a.best
    {
        a.lines.push(Line {
            score: a.score,
            moves: if a.pv.is_empty() { vec![best.clone()] } else { a.pv.clone() },
        });
    }
    a
}

/// The lines of the top `n` root moves of a search outcome, best first (the best move first
/// on ties), in notation by `text`; none for a single line (the caller takes the PV).
fn top_lines<N: Node>(
    searcher: &Searcher,
    root: &N,
    out: &search::Outcome<N::Move>,
    n: usize,
    text: impl Fn(&[N::Move]) -> Vec<String>,
) -> Vec<Line> {
    if n <= 1 || out.depth == 0 {
        return Vec::new();
    }
    let best = out.best.as_ref().map(N::move_key);
    let mut ranked = out.root_scores.clone();
    ranked.sort_by_key(|(m, s)| (-s, Some(N::move_key(m)) != best));
    ranked.truncate(n);
    let depth = out.depth as usize + 4;
    ranked
        .into_iter()
        .map(|(m, score)| {
            let moves = searcher.line(root, &m, search::line_length(depth, score));
            Line { score, moves: text(&moves) }
        })
        .collect()
}

fn search_game(
    searcher: &mut Searcher,
    game: &AnyGame,
    limits: Limits,
    n: usize,
    report: &mut impl FnMut(&Report),
) -> Analysis {
    match game {
        AnyGame::Draughts(g) => {
            let (root, history) = draughts_root(g);
            let pos = root.pos.clone();
            let out = searcher.search(&root, &history, limits, |i| {
                report(&Report {
                    depth: i.depth,
                    score: i.score,
                    pv: draughts_text(&pos, &i.pv),
                    nodes: i.nodes,
                    elapsed: i.elapsed,
                })
            });
            let legal = pos.legal_moves();
            let lines = top_lines(searcher, &root, &out, n, |l| draughts_text(&pos, l));
            Analysis {
                lines,
                best: out.best.map(|m| format_move(&pos, &m, &legal)),
                score: out.score,
                pv: draughts_text(&pos, &out.pv),
                depth: out.depth,
                nodes: out.nodes,
                root: out
                    .root_scores
                    .iter()
                    .map(|(m, s)| (format_move(&pos, m, &legal), *s))
                    .collect(),
            }
        }
        AnyGame::Ugolki(g) => {
            let (root, history) = ugolki_root(g);
            let out = searcher.search(&root, &history, limits, |i| {
                report(&Report {
                    depth: i.depth,
                    score: i.score,
                    pv: ugolki_text(&i.pv),
                    nodes: i.nodes,
                    elapsed: i.elapsed,
                })
            });
            let lines = top_lines(searcher, &root, &out, n, ugolki_text);
            Analysis {
                lines,
                best: out.best.map(|m| m.to_string()),
                score: out.score,
                pv: ugolki_text(&out.pv),
                depth: out.depth,
                nodes: out.nodes,
                root: out.root_scores.iter().map(|(m, s)| (m.to_string(), *s)).collect(),
            }
        }
    }
}

/// The move the computer plays at `level`, as text; `scale` multiplies the level's thinking
/// time (1.0 for play, 0.1 for quick matches). Deterministic for a seed when the level is
/// depth-limited.
pub fn choose(game: &AnyGame, level: Level, seed: u64, scale: f64) -> Option<String> {
    let mut searcher = Searcher::new(16, level.recipe().terms);
    choose_with(&mut searcher, game, level, seed, scale)
}

/// [`choose`] with a searcher kept across the moves of a game.
pub fn choose_with(
    searcher: &mut Searcher,
    game: &AnyGame,
    level: Level,
    seed: u64,
    scale: f64,
) -> Option<String> {
    choose_with_terms(searcher, game, level, level.recipe().terms, seed, scale)
}

/// [`choose_with`] with other evaluation terms than the level's (to measure what a term is
/// worth: `doska match --a-without`).
pub fn choose_with_terms(
    searcher: &mut Searcher,
    game: &AnyGame,
    level: Level,
    terms: Terms,
    seed: u64,
    scale: f64,
) -> Option<String> {
    let recipe = level.recipe();
    if terms.book
        && let Some(margin) = recipe.book_margin
        && let Some(entries) = book::embedded(game.rules()).and_then(|b| b.get(game))
        && let Some(mv) = book::pick(entries, margin, seed ^ game.plies() as u64)
    {
        return Some(mv.to_string());
    }
    searcher.set_terms(terms);
    searcher.set_exact_root(recipe.random_margin.is_some());
    let limits = Limits {
        depth: recipe.depth,
        nodes: None,
        movetime: recipe.movetime.map(|t| t.mul_f64(scale.max(0.001))),
    };
    let a = analyze(searcher, game, limits, |_| {});
    match recipe.random_margin {
        Some(margin) if !a.root.is_empty() => {
            let best = a.root.iter().map(|(_, s)| *s).max().unwrap_or(0);
            let good: Vec<&String> =
                a.root.iter().filter(|(_, s)| *s >= best - margin).map(|(m, _)| m).collect();
            let mut x = seed ^ 0x9e37_79b9_7f4a_7c15 ^ game.plies() as u64;
            x = node::mix(x);
            good.get((x % good.len().max(1) as u64) as usize).map(|s| s.to_string()).or(a.best)
        }
        _ => a.best,
    }
}
