//! One search for every game: iterative deepening with aspiration windows, principal variation
//! search with a transposition table, hash move, killers and history ordering, bad-move
//! pruning and truncation (depth in quarter plies, less of it where the static score lies far
//! outside the window), and a quiescence search that resolves pending captures. A timed
//! search spends its allowance: it starts another iteration while there is time for a good
//! part of one, and keeps what an unfinished iteration found. It never prints: it reports
//! through a callback.

use crate::eval::Terms;
use crate::node::{End, Node};
use crate::tt::{Bound, Table};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A score above this is a won game.
pub const WIN: i32 = 30_000;
/// Scores beyond this mean a forced win or loss in `WIN - |score|` plies.
pub const WIN_BOUND: i32 = WIN - 1000;
const INF: i32 = WIN + 1;
/// How far above beta a half-depth search must reach for bad-move pruning: 0.9 of a man.
const PROBCUT_MARGIN: i32 = 90;
const MAX_PLY: usize = 128;
/// Depth inside the search is counted in quarter plies, so that truncation can take a
/// fraction of a ply.
const PLY: i32 = 4;
/// Truncation: a static score more than this far outside the window takes the hard rate...
const TRUNC_HARD: i32 = 100;
/// ...and more than this far the soft rate (both in hundredths of a man).
const TRUNC_SOFT: i32 = 20;
/// Late move reductions ([`Features::lmr`]): the least depth a reduced node has (quarter
/// plies), the first move reduced (counted from 0: the hash move and two killers come
/// before) and the first reduced by two plies.
const LMR_DEPTH: i32 = 3 * PLY;
const LMR_FROM: usize = 3;
const LMR_TWO_FROM: usize = 9;
/// Hundredths of a man outside the window that cost a quarter ply.
const TRUNC_RATE: i32 = 16;
/// The most the hard rate takes at one node, in hundredths of a man (2.5 plies).
const TRUNC_MAX: i32 = 160;

/// When to stop.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Most nodes (checked between iterations and every 256 nodes).
    pub nodes: Option<u64>,
    /// Time for the move.
    pub movetime: Option<Duration>,
}

/// Search techniques that can be turned off one at a time, to measure what each is worth
/// (`doska match --b-without spend`). A level searches with all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Aspiration windows: from depth 4 the root is searched in a narrow window around the
    /// last score, widened when the score falls outside it.
    pub aspiration: bool,
    /// Spend the allowance: a timed search starts another iteration while less than 70% of
    /// its time is used (not 50%), and keeps the best move of an unfinished iteration when
    /// that move's deeper search completed.
    pub spend: bool,
    /// Bad-move pruning (a shallow ProbCut, as Scan 2.0 and Moby Dam do it): off the
    /// principal variation, with depth to spare and no capture pending, a search to half the
    /// depth that beats beta by nearly a man ends the node as failing high.
    pub probcut: bool,
    /// Truncation (as Cake does it): off the principal variation, with no capture pending, a
    /// node whose static score lies far outside the window is searched less deep, a quarter
    /// ply for every 0.16 of a man outside it; the plies taken along a line are given back
    /// at the first node whose score is near the window again. Only in the games whose
    /// [`Node::truncates`] says so, and not in analysis ([`Searcher::set_analysis`]).
    pub truncation: bool,
    /// Late move reductions: off the principal variation, with depth to spare, a quiet move
    /// ordered after the hash move and the killers, that leaves the opponent no capture, is
    /// searched a ply less deep (two from the tenth move where depth allows), and searched
    /// again at full depth when it beats alpha. Only in the games whose [`Node::reduces`]
    /// says so.
    pub lmr: bool,
}

impl Features {
    /// Every technique on.
    pub const ALL: Features =
        Features { aspiration: true, spend: true, probcut: true, truncation: true, lmr: true };
    /// The names `without` takes.
    pub const NAMES: [&'static str; 5] = ["aspiration", "spend", "probcut", "truncation", "lmr"];

    /// Whether `name` names a technique.
    pub fn knows(name: &str) -> bool {
        Features::NAMES.contains(&name)
    }

    /// These techniques with the comma-separated `names` turned off.
    pub fn without(mut self, names: &str) -> Result<Features, String> {
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "aspiration" => self.aspiration = false,
                "spend" => self.spend = false,
                "probcut" => self.probcut = false,
                "truncation" => self.truncation = false,
                "lmr" => self.lmr = false,
                _ => {
                    return Err(format!(
                        "unknown search technique {name:?}: expected one of {}",
                        Features::NAMES.join(", ")
                    ));
                }
            }
        }
        Ok(self)
    }
}

impl Default for Features {
    fn default() -> Self {
        Features::ALL
    }
}

/// A handle that stops a running search from another thread.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// What an iteration found.
#[derive(Clone, Debug)]
pub struct Info<M> {
    /// Depth completed.
    pub depth: u32,
    /// Score for the side to move at the root.
    pub score: i32,
    /// Principal variation.
    pub pv: Vec<M>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome<M> {
    /// The best move found (none when there is no legal move).
    pub best: Option<M>,
    /// Its score.
    pub score: i32,
    /// Principal variation.
    pub pv: Vec<M>,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Scores of every root move at the last completed depth (for Easy's random choice).
    pub root_scores: Vec<(M, i32)>,
}

/// Move buffers of one ply, reused across nodes so the search does not allocate per node.
struct Ply<M> {
    moves: Vec<M>,
    keyed: Vec<(i64, M)>,
}

/// A searcher with its tables, reusable across moves of one game.
#[derive(Debug)]
pub struct Searcher {
    tt: Arc<Table>,
    /// Helper searchers for timed searches on more than one thread (lazy SMP: they search the
    /// same root, one ply deeper, and share the transposition table).
    helpers: Vec<Searcher>,
    /// How many plies deeper than the main thread this searcher starts (helpers).
    skew: u32,
    killers: Vec<[u32; 2]>,
    history: Vec<u32>,
    nodes: u64,
    terms: Terms,
    features: Features,
    stop: Stop,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    aborted: bool,
    path: Vec<u64>,
    exact_root: bool,
    analysis: bool,
    /// Whether this search truncates (the feature, where the game allows it).
    truncate: bool,
    /// Whether this search reduces late moves (the feature, where the game allows it).
    reduce: bool,
}

impl Searcher {
    /// A searcher with a transposition table of about `tt_mb` megabytes.
    pub fn new(tt_mb: usize, terms: Terms) -> Searcher {
        Searcher {
            tt: Arc::new(Table::new(tt_mb)),
            helpers: Vec::new(),
            skew: 0,
            killers: vec![[0; 2]; MAX_PLY + 1],
            history: vec![0; 1 << 16],
            nodes: 0,
            terms,
            features: Features::ALL,
            stop: Stop::default(),
            deadline: None,
            node_limit: None,
            aborted: false,
            path: Vec::new(),
            exact_root: false,
            analysis: false,
            truncate: false,
            reduce: false,
        }
    }

    /// Searches with time limits on `threads` threads (at least one); searches limited by
    /// depth or nodes alone stay on one thread, so that they stay deterministic.
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.max(1) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            let mut h = Searcher::new(0, self.terms);
            h.features = self.features;
            h.tt = Arc::clone(&self.tt);
            h.skew = 1 + (self.helpers.len() as u32 % 2);
            self.helpers.push(h);
        }
    }

    /// Threads a timed search uses.
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    /// Whether every root move gets an exact score.
    pub fn exact_root(&self) -> bool {
        self.exact_root
    }

    /// Whether every root move is searched with the whole window, so that each gets its
    /// exact score (the scores of [`Searcher::set_exact_root`] are exact only for the moves
    /// that raise the best score; a worse move's is a bound, which Easy's choice among good
    /// moves has always used). Implies exact root scores.
    pub fn analysis(&self) -> bool {
        self.analysis
    }

    /// Turns analysis on or off (see [`Searcher::analysis`]).
    pub fn set_analysis(&mut self, on: bool) {
        self.analysis = on;
        self.exact_root = on;
    }

    /// Whether every root move gets its exact score (slower; the levels that choose among
    /// good moves, and multi-line analysis, need it).
    pub fn set_exact_root(&mut self, exact: bool) {
        self.exact_root = exact;
    }

    /// The handle that stops this searcher.
    pub fn stop_handle(&self) -> Stop {
        self.stop.clone()
    }

    /// Changes the search techniques (all on by default).
    pub fn set_features(&mut self, features: Features) {
        self.features = features;
        for h in &mut self.helpers {
            h.features = features;
        }
    }

    /// Changes the evaluation terms.
    pub fn set_terms(&mut self, terms: Terms) {
        if terms != self.terms {
            self.terms = terms;
            self.tt.clear();
        }
        for h in &mut self.helpers {
            h.terms = terms;
        }
    }

    /// Searches `root`. `history` holds the keys of the game's earlier positions (for
    /// repetition); `report` is called after each completed iteration.
    pub fn search<N: Node>(
        &mut self,
        root: &N,
        history: &[u64],
        limits: Limits,
        report: impl FnMut(&Info<N::Move>),
    ) -> Outcome<N::Move> {
        self.stop.0.store(false, Ordering::Relaxed);
        self.tt.new_search();
        if self.helpers.is_empty() || limits.movetime.is_none() || limits.nodes.is_some() {
            return self.search_alone(root, history, limits, report);
        }
        let mut helpers = std::mem::take(&mut self.helpers);
        let stops: Vec<Stop> = helpers.iter().map(Searcher::stop_handle).collect();
        stops.iter().for_each(|s| s.0.store(false, Ordering::Relaxed));
        let exact_root = self.exact_root;
        let out = std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .iter_mut()
                .map(|h| {
                    let root = root.clone();
                    h.exact_root = exact_root;
                    h.analysis = self.analysis;
                    scope.spawn(move || h.search_alone(&root, history, limits, |_| {}))
                })
                .collect();
            let mut out = self.search_alone(root, history, limits, report);
            stops.iter().for_each(Stop::stop);
            for helper in running.into_iter().filter_map(|t| t.join().ok()) {
                out.nodes += helper.nodes;
                // A helper that finished a deeper iteration than this thread knows better
                // (Easy's root scores stay this thread's: it never runs helpers).
                if helper.depth > out.depth && helper.best.is_some() && !exact_root {
                    out.best = helper.best;
                    out.score = helper.score;
                    out.pv = helper.pv;
                    out.depth = helper.depth;
                }
            }
            out
        });
        self.helpers = helpers;
        out
    }

    /// [`Searcher::search`] on this thread.
    fn search_alone<N: Node>(
        &mut self,
        root: &N,
        history: &[u64],
        limits: Limits,
        mut report: impl FnMut(&Info<N::Move>),
    ) -> Outcome<N::Move> {
        let started = Instant::now();
        root.start_search();
        // Not in analysis: its lines are compared with one another, so each is searched to its
        // full depth (truncation's cuts depend on the window; a line that loses by force must
        // not read as a man down).
        self.truncate = self.features.truncation && !self.analysis && root.truncates();
        self.reduce = self.features.lmr && !self.analysis && root.reduces();
        self.nodes = 0;
        self.aborted = false;
        self.deadline = limits.movetime.map(|t| started + t);
        self.node_limit = limits.nodes;
        self.killers.iter_mut().for_each(|k| *k = [0; 2]);
        self.history.iter_mut().for_each(|h| *h /= 8);
        let mut moves = Vec::new();
        root.legal(&mut moves);
        let mut out = Outcome {
            best: moves.first().copied(),
            score: 0,
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            root_scores: moves.iter().map(|m| (*m, 0)).collect(),
        };
        if moves.len() <= 1 && limits.depth.is_none() && limits.nodes.is_none() {
            // One legal move: no need to think.
            return out;
        }
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 8).min(MAX_PLY as u32 - 8);
        let mut stack: Vec<Ply<N::Move>> = (0..=MAX_PLY + 1)
            .map(|_| Ply { moves: Vec::with_capacity(32), keyed: Vec::with_capacity(32) })
            .collect();
        for depth in (1 + self.skew).min(max_depth)..=max_depth {
            self.path.clear();
            self.path.extend_from_slice(history);
            let mut scores = Vec::with_capacity(moves.len());
            // Aspiration: a window around the last score, widened on the side it fails.
            let aspire = self.features.aspiration && !self.exact_root && depth >= 4;
            let mut delta = 30;
            let (mut lo, mut hi) = if aspire {
                ((out.score - delta).max(-INF), (out.score + delta).min(INF))
            } else {
                (-INF, INF)
            };
            let (score, best) = loop {
                scores.clear();
                let (score, best) = self.root(
                    root,
                    &mut moves,
                    depth as i32 * PLY,
                    lo,
                    hi,
                    &mut scores,
                    &mut stack,
                );
                if self.aborted {
                    break (score, best);
                }
                if score <= lo && lo > -INF {
                    lo = (score - delta).max(-INF);
                } else if score >= hi && hi < INF {
                    hi = (score + delta).min(INF);
                } else {
                    break (score, best);
                }
                delta *= 4;
                if delta > 400 {
                    (lo, hi) = (-INF, INF);
                }
            };
            if self.aborted {
                // An unfinished iteration: its best move is worth playing when its deeper
                // search completed and beat the previous best (the previous best is searched
                // first, so any move found here at this depth is at least as good).
                let usable = self.features.spend && self.deadline.is_some();
                if let Some(m) = best.filter(|_| usable && score > lo && score < hi) {
                    out.best = Some(m);
                    out.score = score;
                }
                break;
            }
            out.best = best.or(out.best);
            out.score = score;
            out.depth = depth;
            out.nodes = self.nodes;
            out.root_scores = scores;
            out.pv = self.pv(root, line_length(depth as usize, score));
            report(&Info {
                depth,
                score,
                pv: out.pv.clone(),
                nodes: self.nodes,
                elapsed: started.elapsed(),
            });
            if score.abs() >= WIN_BOUND && depth as i32 >= WIN - score.abs() {
                break;
            }
            if let (Some(deadline), Some(movetime)) = (self.deadline, limits.movetime) {
                // Don't start an iteration that cannot get far: past half the time (70% when
                // spending the allowance, since an unfinished iteration's move is kept).
                let share = if self.features.spend { 0.7 } else { 0.5 };
                if Instant::now() + movetime.mul_f64(1.0 - share) > deadline {
                    break;
                }
            }
            if self.node_limit.is_some_and(|n| self.nodes >= n) {
                break;
            }
        }
        out.nodes = self.nodes;
        out
    }

    /// Searches the root moves in order (the previous best first), recording each score.
    #[allow(clippy::too_many_arguments)]
    fn root<N: Node>(
        &mut self,
        root: &N,
        moves: &mut Vec<N::Move>,
        depth: i32,
        lo: i32,
        beta: i32,
        scores: &mut Vec<(N::Move, i32)>,
        stack: &mut [Ply<N::Move>],
    ) -> (i32, Option<N::Move>) {
        let mut alpha = lo;
        let mut best = None;
        let mut best_score = -INF;
        self.path.push(root.key());
        for (i, m) in moves.clone().iter().enumerate() {
            let child = root.play(m);
            let score = if self.analysis {
                // Every root move against the whole window: its exact score (analysis).
                -self.alphabeta(&child, depth - PLY, -beta, -lo, 1, stack, Truncated::NONE)
            } else if self.exact_root || i == 0 {
                // Easy needs every root move's true score to choose among.
                -self.alphabeta(&child, depth - PLY, -beta, -alpha, 1, stack, Truncated::NONE)
            } else {
                let d = depth - PLY;
                let s = -self.alphabeta(&child, d, -alpha - 1, -alpha, 1, stack, Truncated::NONE);
                if s > alpha {
                    -self.alphabeta(&child, d, -beta, -alpha, 1, stack, Truncated::NONE)
                } else {
                    s
                }
            };
            if self.aborted {
                break;
            }
            scores.push((*m, score));
            if score > best_score {
                best_score = score;
                best = Some(*m);
            }
            alpha = alpha.max(score);
            if alpha >= beta && !self.exact_root {
                // Above the aspiration window: searched again with a wider one.
                break;
            }
        }
        self.path.pop();
        if let Some(b) = best.filter(|_| !self.aborted && best_score > lo && best_score < beta) {
            // Best first next time.
            if let Some(pos) = moves.iter().position(|m| N::move_key(m) == N::move_key(&b)) {
                let m = moves.remove(pos);
                moves.insert(0, m);
            }
            self.tt.store(root.key(), depth, best_score, Bound::Exact, N::move_key(&b));
        }
        (best_score, best)
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes & 255 == 0 {
            if self.stop.is_set() {
                self.aborted = true;
            }
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = true;
            }
            if self.node_limit.is_some_and(|n| self.nodes >= n.saturating_mul(2)) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The score of `node` searched `depth` quarter plies deep; `truncated` is what the line
    /// to it has taken by truncation.
    #[allow(clippy::too_many_arguments)]
    fn alphabeta<N: Node>(
        &mut self,
        node: &N,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        stack: &mut [Ply<N::Move>],
        mut truncated: Truncated,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let score_of = |end: End| match end {
            End::Win => WIN - ply as i32,
            End::Loss => -(WIN - ply as i32),
            End::Draw => 0,
        };
        if let Some(end) = node.end() {
            return score_of(end);
        }
        let key = node.key();
        // Repetition along the path (same side to move: every second ply back), as far back
        // as the position could have stood (the path is the game's positions, then the
        // search's, one a ply).
        let back = node.reversible_plies();
        if self.path.iter().rev().take(back).skip(1).step_by(2).any(|&k| k == key) {
            return 0;
        }
        if let Some((end, plies)) = node.exact(&self.terms) {
            // Known to the end (an endgame database): as a result found by the search, that
            // many plies further on.
            let far = (ply as i32 + plies as i32).min(WIN - WIN_BOUND - 1);
            return match end {
                End::Win => WIN - far,
                End::Loss => -(WIN - far),
                End::Draw => 0,
            };
        }
        if ply >= MAX_PLY {
            return node.evaluate(&self.terms);
        }
        if depth <= 0 && !node.unstable() {
            if !node.has_moves() {
                return score_of(node.stuck());
            }
            return node.evaluate(&self.terms);
        }
        // Past the horizon (captures being resolved) the table is left alone: no score stored
        // there could end a search, and its entries would push deeper ones out, each probe a
        // cache miss for a hash move among a few captures.
        let mut tt_move = 0;
        if let Some(e) = (depth > 0).then(|| self.tt.probe(key)).flatten() {
            tt_move = e.mv;
            if e.depth as i32 >= depth {
                let s = from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        // A null-window node with no capture pending, where truncation and bad-move pruning may
        // cut (whether a capture is pending is asked once: it is a move generation).
        let scout = (self.truncate || N::BAD_MOVE_PRUNING && self.features.probcut)
            && depth > 0
            && beta - alpha == 1
            && !node.unstable();
        if self.truncate && scout && beta.abs() < WIN_BOUND {
            let score = node.evaluate(&self.terms);
            depth = truncated.apply(depth, (alpha - score).max(score - beta));
            if depth <= 0 {
                if !node.has_moves() {
                    return score_of(node.stuck());
                }
                return score;
            }
        }
        if N::BAD_MOVE_PRUNING
            && self.features.probcut
            && scout
            && depth > 2 * PLY
            && beta.abs() < WIN_BOUND - PROBCUT_MARGIN
        {
            let bound = beta + PROBCUT_MARGIN;
            let s = self.alphabeta(node, depth / 2, bound - 1, bound, ply, stack, truncated);
            if self.aborted {
                return 0;
            }
            if s >= bound {
                return beta;
            }
        }
        let Some((here, deeper)) = stack.split_first_mut() else {
            return node.evaluate(&self.terms);
        };
        node.legal(&mut here.moves);
        if here.moves.is_empty() {
            return score_of(node.stuck());
        }
        // Order: hash move, bigger captures, killers, history.
        let killers = self.killers[ply];
        here.keyed.clear();
        for m in &here.moves {
            let k = N::move_key(m);
            let score = if k == tt_move && tt_move != 0 {
                1 << 40
            } else if N::move_weight(m) > 0 {
                (1 << 30) + N::move_weight(m) as i64
            } else if k == killers[0] {
                1 << 29
            } else if k == killers[1] {
                (1 << 29) - 1
            } else {
                self.history[(k as usize ^ (k as usize >> 16)) & 0xffff] as i64
            };
            here.keyed.push((score, *m));
        }
        here.keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        let count = here.keyed.len();
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_key = 0;
        // A forced single reply (or a pending capture at the horizon) does not cost depth.
        let extend = if count == 1 || depth <= 0 { PLY } else { 0 };
        self.path.push(key);
        for i in 0..count {
            let m = here.keyed[i].1;
            let m = &m;
            let child = node.play(m);
            let d = depth - PLY + extend;
            let mut score;
            if i == 0 {
                score = -self.alphabeta(&child, d, -beta, -alpha, ply + 1, deeper, truncated);
            } else {
                // A late quiet move is searched shallower first, and again at full depth only
                // if it beats alpha.
                let reduce = self.reduce
                    && beta - alpha == 1
                    && extend == 0
                    && depth >= LMR_DEPTH
                    && i >= LMR_FROM
                    && here.keyed[i].0 < 1 << 29
                    && !child.unstable();
                let r = if !reduce {
                    0
                } else if i >= LMR_TWO_FROM && depth >= LMR_DEPTH + 2 * PLY {
                    2
                } else {
                    1
                };
                score = -self.alphabeta(
                    &child,
                    d - r * PLY,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    deeper,
                    truncated,
                );
                if r > 0 && score > alpha && !self.aborted {
                    score =
                        -self.alphabeta(&child, d, -alpha - 1, -alpha, ply + 1, deeper, truncated);
                }
                if score > alpha && score < beta && !self.aborted {
                    score = -self.alphabeta(&child, d, -beta, -alpha, ply + 1, deeper, truncated);
                }
            }
            if self.aborted {
                self.path.pop();
                return 0;
            }
            if score > best {
                best = score;
                best_key = N::move_key(m);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if N::move_weight(m) == 0 {
                    let k = N::move_key(m);
                    if self.killers[ply][0] != k {
                        self.killers[ply] = [k, self.killers[ply][0]];
                    }
                    let h = &mut self.history[(k as usize ^ (k as usize >> 16)) & 0xffff];
                    let plies = (depth / PLY).max(1);
                    *h = h.saturating_add((plies * plies) as u32);
                }
                break;
            }
        }
        self.path.pop();
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if depth > 0 {
            self.tt.store(key, depth, to_tt(best, ply), bound, best_key);
        }
        best
    }

    /// The principal variation from the table.
    /// The line that starts with root move `first`: it, then the best replies the hash table
    /// holds (at most `max` moves in all). After a search with exact root scores, every root
    /// move's line is there.
    pub fn line<N: Node>(&self, root: &N, first: &N::Move, max: usize) -> Vec<N::Move> {
        let mut line = vec![*first];
        line.extend(self.pv(&root.play(first), max.saturating_sub(1)));
        line
    }

    fn pv<N: Node>(&self, root: &N, max: usize) -> Vec<N::Move> {
        let mut pv = Vec::new();
        let mut node = root.clone();
        let mut seen = Vec::new();
        let mut moves = Vec::new();
        while pv.len() < max {
            let key = node.key();
            if seen.contains(&key) {
                break;
            }
            seen.push(key);
            let from_table = self.tt.probe(key).and_then(|e| {
                node.legal(&mut moves);
                moves.iter().find(|m| N::move_key(m) == e.mv).copied()
            });
            // Past the table, a position an endgame database holds goes on by its best play.
            let Some(m) = from_table.or_else(|| node.exact_move(&self.terms)) else { break };
            pv.push(m);
            node = node.play(&m);
        }
        pv
    }
}

/// What truncation has taken along a line, in quarter plies: at the hard rate and at the soft
/// one, each given back on its own ([`Features::truncation`]).
#[derive(Clone, Copy, Debug)]
struct Truncated {
    hard: i32,
    soft: i32,
}

impl Truncated {
    const NONE: Truncated = Truncated { hard: 0, soft: 0 };

    /// The depth of a node whose static score lies `outside` hundredths of a man outside the
    /// window (negative: inside it): less deep while far outside; near the window again, the
    /// line's truncation given back.
    fn apply(&mut self, mut depth: i32, outside: i32) -> i32 {
        if outside > TRUNC_HARD {
            let take = outside.min(TRUNC_MAX) / TRUNC_RATE;
            self.hard += take;
            return depth - take;
        }
        depth += std::mem::take(&mut self.hard);
        if outside > TRUNC_SOFT {
            let take = outside / TRUNC_RATE;
            self.soft += take;
            depth - take
        } else {
            depth + std::mem::take(&mut self.soft)
        }
    }
}

/// How long a principal variation may be: the depth searched, or a forced result's whole
/// line (an endgame database plays it to the end).
pub fn line_length(depth: usize, score: i32) -> usize {
    if score.abs() >= WIN_BOUND {
        depth.max((WIN - score.abs()) as usize).min(MAX_PLY)
    } else {
        depth
    }
}

/// Win scores are stored relative to the node, so they stay right at other depths.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_takes_depth_far_from_the_window_and_gives_it_back_near_it() {
        let mut t = Truncated::NONE;
        // 0.4 of a man outside: the soft rate, 40 / 16 = 2 quarter plies.
        assert_eq!(t.apply(40, 40), 38);
        // 1.2 men outside: the hard rate, 120 / 16 = 7 quarter plies; the soft ones stay taken.
        assert_eq!(t.apply(30, 120), 23);
        // Never more than 2.5 plies a node at the hard rate, however far.
        assert_eq!(t.apply(30, 5_000), 20);
        assert_eq!((t.hard, t.soft), (17, 2));
        // Back under a man: the hard plies come back, and the soft rate takes 50 / 16 = 3.
        assert_eq!(t.apply(20, 50), 20 + 17 - 3);
        assert_eq!((t.hard, t.soft), (0, 5));
        // Near the window: everything taken comes back.
        assert_eq!(t.apply(20, 10), 25);
        assert_eq!(t.apply(20, -300), 20, "inside the window, nothing was left to give back");
        assert_eq!((t.hard, t.soft), (0, 0));
    }

    #[test]
    fn search_techniques_can_be_turned_off_by_name() {
        let f = Features::ALL.without("truncation").unwrap();
        assert!(!f.truncation && f.probcut && f.aspiration && f.spend && f.lmr);
        assert!(Features::knows("truncation"));
        let f = Features::ALL.without("lmr, probcut").unwrap();
        assert!(!f.lmr && !f.probcut && f.truncation);
        assert!(Features::without(Features::ALL, "reductions").is_err());
    }
}
