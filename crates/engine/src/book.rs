//! The opening book: for the positions of a rule set's first moves, the moves within a margin
//! of the best with their scores from a deep search of doska's own (`doska book build`),
//! embedded in the build. The levels that use it ([`crate::level`]: Medium and Hard) play from
//! it instead of searching: any move within their margin of the best, so that their games
//! differ.
//!
//! A book is text, one position a line: the moves from the start that reach it, a `|`, then
//! each book move with its score (hundredths of a man, the mover's view), best first:
//!
//! ```text
//! # doska opening book: russian
//! | c3-d4 9 c3-b4 4 g3-f4 2
//! c3-d4 | f6-g5 -9 b6-a5 -12
//! ```
//!
//! Reading it replays every line, so a move that is not legal, or a line that does not follow
//! from the start, is refused with the line's number. A position is found by its text (its
//! FEN with counters), whichever order of moves reached it.

use crate::{Level, Limits, Searcher, Terms, analyze_lines};
use doska_rules::{AnyGame, RuleSet};
use std::collections::HashMap;
use std::collections::hash_map::Entry as Seen;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A book move and its score from the search that made the book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The move in the rule set's notation.
    pub mv: String,
    /// Its score for the side to move, in hundredths of a man.
    pub score: i32,
}

/// A rule set's opening book, ready to look positions up.
#[derive(Debug)]
pub struct Book {
    rules: RuleSet,
    positions: HashMap<String, Vec<Entry>>,
}

impl Book {
    /// Reads a book for `rules` (the format is in the module's documentation); says which line
    /// is wrong and why.
    pub fn parse(text: &str, rules: RuleSet) -> Result<Book, String> {
        let mut positions = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |e: String| format!("line {}: {e}", i + 1);
            let (path, moves) = line.split_once('|').ok_or_else(|| {
                at("no '|' between the moves to the position and its book moves".into())
            })?;
            let mut game = AnyGame::new(rules);
            for m in path.split_whitespace() {
                game.play(m).map_err(|e| at(format!("{m} does not follow: {e}")))?;
            }
            if game.outcome().is_some() {
                return Err(at("the game is over there".into()));
            }
            let words: Vec<&str> = moves.split_whitespace().collect();
            if words.is_empty() || !words.len().is_multiple_of(2) {
                return Err(at("book moves come as pairs of a move and its score".into()));
            }
            let mut entries: Vec<Entry> = Vec::new();
            for pair in words.chunks(2) {
                let score = pair[1]
                    .parse::<i32>()
                    .map_err(|_| at(format!("{:?} is not a score (a whole number)", pair[1])))?;
                let played = game
                    .clone()
                    .play(pair[0])
                    .map_err(|e| at(format!("{} is not a move there: {e}", pair[0])))?;
                if entries.iter().any(|e| e.mv == played.notation) {
                    return Err(at(format!("{} is listed twice", pair[0])));
                }
                if entries.last().is_some_and(|e| e.score < score) {
                    return Err(at("the book moves are not best first".into()));
                }
                entries.push(Entry { mv: played.notation, score });
            }
            if positions.insert(game.fen(), entries).is_some() {
                return Err(at("the position is in the book already".into()));
            }
        }
        Ok(Book { rules, positions })
    }

    /// The rule set the book is for.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The book moves of the game's position, best first, if it is in the book.
    pub fn get(&self, game: &AnyGame) -> Option<&[Entry]> {
        if game.rules() != self.rules || game.outcome().is_some() {
            return None;
        }
        self.positions.get(&game.fen()).map(Vec::as_slice)
    }
}

/// The embedded books, by rule set id (`doska book build --variant <id> --out` writes them).
const FILES: &[(&str, &str)] = &[
    ("russian", include_str!("../books/russian.book")),
    ("american", include_str!("../books/american.book")),
    ("international", include_str!("../books/international.book")),
];

/// The embedded books, read once: the rule set id, and the book or what is wrong with it.
pub fn embedded_all() -> &'static [(&'static str, Result<Book, String>)] {
    static ALL: OnceLock<Vec<(&'static str, Result<Book, String>)>> = OnceLock::new();
    ALL.get_or_init(|| {
        FILES
            .iter()
            .map(|(id, text)| {
                let book = id
                    .parse::<RuleSet>()
                    .map_err(|e| e.to_string())
                    .and_then(|rules| Book::parse(text, rules));
                (*id, book)
            })
            .collect()
    })
}

/// The embedded book of `rules`, if the build has one (and it reads: the tests see to that).
pub fn embedded(rules: RuleSet) -> Option<&'static Book> {
    embedded_all().iter().find_map(|(_, b)| b.as_ref().ok().filter(|b| b.rules == rules))
}

/// A move from `entries` (best first) within `margin` of the best, picked by `seed`: for a
/// margin of 0 the best (one of them, on a tie).
pub fn pick(entries: &[Entry], margin: i32, seed: u64) -> Option<&str> {
    let best = entries.first()?.score;
    let good = entries.iter().take_while(|e| e.score >= best - margin.max(0)).count();
    let i = (crate::node::mix(seed ^ 0x2545_f491_4f6c_dd1d) % good as u64) as usize;
    Some(&entries[i].mv)
}

/// How `doska book build` makes a book.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// The search depth of every position.
    pub depth: u32,
    /// Positions up to this many plies from the start are in the book.
    pub plies: usize,
    /// For this many plies from the start, every legal move is followed (every opening a
    /// player may choose); after them, only the best `width` book moves.
    pub full: usize,
    /// Book moves followed past `full`.
    pub width: usize,
    /// A position's book moves: those within this many hundredths of a man of the best.
    pub margin: i32,
    /// Threads, each searching its own positions.
    pub threads: usize,
    /// Score only the best move of each position (one search, not one for every root move):
    /// a book for a level that plays the best move, several times cheaper to build.
    pub best_only: bool,
    /// Past `full`, a position reached by its parent's best move follows every reply instead
    /// of the best `width` (so the side that played from the book finds its next move there
    /// whatever the opponent answered); the other positions follow the best `width` as before.
    pub replies: bool,
}

/// What [`build`] did.
#[derive(Debug)]
pub struct Built {
    /// The book's lines (no header), sorted.
    pub text: String,
    /// Positions searched.
    pub positions: usize,
    /// Nodes searched, in all.
    pub nodes: u64,
}

/// A searched position: every root move with its score, best first, and the nodes spent;
/// none when the position has no move.
type Searched = Option<(Vec<(String, i32)>, u64)>;

/// Searches every position of the plan from the start of `rules` with Insane's evaluation
/// (all root moves with exact scores, one thread each, a fresh hash table each: the result
/// does not depend on the threads) and writes the book. `progress(done, total)` is called
/// after each position.
pub fn build(rules: RuleSet, plan: &Plan, progress: impl Fn(usize, usize) + Sync) -> Built {
    let terms = Terms { book: false, ..Level::Insane.recipe().terms };
    let start = AnyGame::new(rules);
    // Every position met, by FEN: the ply it was first met at and its place in that ply.
    let mut seen: HashMap<String, (usize, usize)> = HashMap::from([(start.fen(), (0, 0))]);
    // Each position to search: the moves to it, the game there, and whether its last move was
    // its parent's best (every reply is followed there, with `replies`).
    let mut frontier: Vec<(Vec<String>, AnyGame, bool)> = vec![(Vec::new(), start, false)];
    let mut lines: Vec<(Vec<String>, Vec<Entry>)> = Vec::new();
    let (mut done, mut nodes) = (0, 0u64);
    for ply in 0..=plan.plies {
        let results = search_each(&frontier, terms, plan, done, &progress);
        done += frontier.len();
        let mut children = Vec::new();
        for ((path, game, by_book), result) in frontier.into_iter().zip(results) {
            let Some((root, n)) = result else { continue };
            nodes += n;
            let best = root[0].1;
            let entries: Vec<Entry> = root
                .iter()
                .take_while(|(_, s)| *s >= best - plan.margin)
                .map(|(mv, score)| Entry { mv: mv.clone(), score: *score })
                .collect();
            if ply < plan.plies {
                // Every legal move in the first plies and every reply to a book move (the
                // root's, best first; a book of best moves only has the best, so the game's),
                // then the best book moves.
                let every = ply < plan.full || (plan.replies && by_book);
                let follow: Vec<String> = if every && plan.best_only {
                    game.legal_moves().into_iter().map(|m| m.notation).collect()
                } else if every {
                    root.iter().map(|(m, _)| m.clone()).collect()
                } else {
                    entries.iter().take(plan.width).map(|e| e.mv.clone()).collect()
                };
                for m in &follow {
                    let mut next = game.clone();
                    if next.play(m).is_err() || next.outcome().is_some() {
                        continue;
                    }
                    let book_move = *m == entries[0].mv;
                    match seen.entry(next.fen()) {
                        Seen::Vacant(v) => {
                            v.insert((ply + 1, children.len()));
                            let mut child = path.clone();
                            child.push(m.clone());
                            children.push((child, next, book_move));
                        }
                        // Reached again at the same ply (a transposition): a book move counts.
                        Seen::Occupied(o) if o.get().0 == ply + 1 => {
                            children[o.get().1].2 |= book_move
                        }
                        Seen::Occupied(_) => {}
                    }
                }
            }
            lines.push((path, entries));
        }
        frontier = children;
        if frontier.is_empty() {
            break;
        }
    }
    lines.sort_by(|a, b| a.0.cmp(&b.0));
    let mut text = String::new();
    for (path, entries) in &lines {
        text += &path.join(" ");
        text += if path.is_empty() { "|" } else { " |" };
        for e in entries {
            text += &format!(" {} {}", e.mv, e.score);
        }
        text += "\n";
    }
    Built { text, positions: done, nodes }
}

/// Searches each position of `frontier` on the plan's threads, each taking the next one
/// left; the results in the frontier's order.
fn search_each(
    frontier: &[(Vec<String>, AnyGame, bool)],
    terms: Terms,
    plan: &Plan,
    done: usize,
    progress: &(impl Fn(usize, usize) + Sync),
) -> Vec<Searched> {
    let next = AtomicUsize::new(0);
    let done_now = AtomicUsize::new(done);
    let total = done + frontier.len();
    let mut results: Vec<Searched> = vec![None; frontier.len()];
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..plan.threads.max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((_, game, _)) = frontier.get(i) else { break };
                        mine.push((i, search_all(game, terms, plan.depth, plan.best_only)));
                        progress(done_now.fetch_add(1, Ordering::Relaxed) + 1, total);
                    }
                    mine
                })
            })
            .collect();
        for w in workers {
            match w.join() {
                Ok(mine) => mine.into_iter().for_each(|(i, r)| results[i] = r),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    results
}

/// Every root move of `game` with its exact score at `depth` (`best_only`: the best move
/// alone), best first, and the nodes searched; none when there is no move.
fn search_all(
    game: &AnyGame,
    terms: Terms,
    depth: u32,
    best_only: bool,
) -> Option<(Vec<(String, i32)>, u64)> {
    let n = game.legal_moves().len();
    if n == 0 {
        return None;
    }
    let mut searcher = Searcher::new(64, terms);
    let limits = Limits { depth: Some(depth), nodes: None, movetime: None };
    let a = analyze_lines(&mut searcher, game, limits, if best_only { 1 } else { n }, |_| {});
    let mut root = if best_only { Vec::new() } else { a.root };
    if root.is_empty() {
        root.extend(a.best.clone().map(|m| (m, a.score)));
    }
    // Best first; on equal scores the search's own best move, then the notation's order.
    root.sort_by(|(ma, sa), (mb, sb)| {
        sb.cmp(sa)
            .then((Some(mb) == a.best.as_ref()).cmp(&(Some(ma) == a.best.as_ref())))
            .then(ma.cmp(mb))
    });
    Some((root, a.nodes))
}
