//! Exact Ugolki races: once the two armies have passed each other, each side's remaining race
//! is a single-agent shortest-path problem, solved here by IDA* over that side's bitboard.
//!
//! # When the race is separate ([`separated`])
//!
//! On the diagonal measure `file + rank`, White advances towards larger values and Black
//! towards smaller ones. The armies are *separated* when
//!
//! 1. White's rearmost piece stands at least [`SEPARATION`] (3) diagonals ahead of Black's
//!    foremost piece. A step changes the measure by at most 2 (a diagonal step with 8
//!    directions), so no piece is next to an enemy piece: nobody can jump over an enemy piece
//!    or be blocked by one, and with 4 directions a piece may even step back once (to shuffle
//!    sideways inside the target corner) without touching the enemy;
//! 2. no piece stands on its own starting squares, which are the opponent's target (it would
//!    block it) and which the leave-home rule watches;
//! 3. with the leave-half rule on, no piece stands in its own half.
//!
//! The assumption behind using the exact counts as the game's result: once separated, nobody
//! gains by walking back into the enemy (it costs the walker moves in its own race) and no
//! optimal race walks back into its own home or half. So each side's pieces move as if alone
//! on the board (the opponent's pieces removed) and the game is decided by the two counts.
//!
//! Inside a search that starts from a separated position, a leaf only needs conditions 2 and
//! 3: a side that steps back across the gap only makes its own race longer, and the count
//! says so. Otherwise the losing side would step back at the horizon to escape from an exact
//! loss into the heuristic's milder score, and the winner's choices would be judged by those
//! escapes instead of by the races.
//!
//! # The lower bound ([`RaceSolver::lower_bound`])
//!
//! Let a piece be *outside* when it is not on a target square, *near* when it is outside but a
//! step away from a target square, and let its *class* be `(file mod 2, rank mod 2)`. The
//! bound is `outside + sum over classes c of max(0, excess_c - near_c)` where `excess_c` is
//! `max(0, pieces_c - target_c)`: the pieces of class c beyond the target squares of class c.
//!
//! Admissibility: a move moves one piece, so the moves needed are at least the sum over pieces
//! of the moves each piece needs, and we bound each piece's moves from below. Every outside
//! piece needs one move. A jump moves 2 squares along each axis it uses, so it keeps the
//! class; a piece that never steps ends on a target square of its own class, so at most
//! `target_c` pieces of class c can end without stepping, and at least `excess_c` of them step
//! at least once. A stepping piece costs one more move than counted unless it is near (its one
//! move can be the step into the target): an outside piece that is not near and must step
//! needs 2 moves (one move alone would have to be a step straight into the target), and an
//! inside piece that must step needs 1 instead of 0. Choosing the steppers as cheaply as
//! possible (near ones first) gives exactly the extra term, so the bound never exceeds the
//! true distance. The tests check it against a breadth-first search.
//!
//! # The search
//!
//! IDA* with a table of proven lower bounds and exact distances per bitboard, kept across the
//! solves of one side during one search (the facts hold for every position of that race, and
//! the leaves of a search are near one another, so later solves start from good bounds). A
//! solve that exceeds its node budget ([`RACE_BUDGET`]) still knows a proven lower bound (the
//! threshold it was working on): when that bound and the other side's count already decide
//! the game, the result is still exact (its margin a lower bound); otherwise the caller keeps
//! the heuristic. [`exact_score`] caches every answer, bounds included, in a bounded table.
//! The tables live in the evaluating thread and are emptied when a search starts
//! ([`start_search`]), so a search with a depth or node limit stays deterministic: whether a
//! race fits the budget depends on what was solved before it in the same search only.

use doska_rules::Color;
use doska_rules::bits::iter as squares;
use doska_rules::game::Winner;
use doska_rules::ugolki::{
    BoardSize, Directions, HomeShape, MOVE_LIMIT, UgolkiPosition, UgolkiRules,
};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// How many diagonals (`file + rank`) White's rearmost piece must be ahead of Black's
/// foremost for the race to count as separated.
pub const SEPARATION: i32 = 3;

/// Solver nodes one race may cost before it is given up as unknown: about 0.25 ms (a node
/// costs 0.1-0.15 µs, measured by the ignored tests `race_cost` and `race_search_cost`).
/// Most races of real games that have separated take a few hundred to a few thousand nodes;
/// inside a search most races are near-duplicates of earlier ones and cost a few hundred
/// nodes or a cache hit. A search checks its clock every 256 nodes, and an evaluation solves
/// at most two fresh races, so even a run of evaluations that all exhaust the budget overruns
/// the move's time by about a tenth of a second at worst.
pub const RACE_BUDGET: u64 = 2_000;

/// An exact win is worth this plus [`RACE_MARGIN`] per move of margin: far above any
/// heuristic race score, far below a won game in the search.
pub const RACE_WIN: i32 = 2000;
/// Score per move by which the winner is ahead.
pub const RACE_MARGIN: i32 = 10;

/// Distances above this are not searched (a race is shorter; a bitboard that cannot complete
/// at all would otherwise raise the threshold for ever).
const MAX_DISTANCE: u32 = 120;
/// Marks an exact distance in the bounds table.
const EXACT: u8 = 0x80;
/// Entries of a race's bounds table before it is cleared.
const MAX_BOUNDS: usize = 1 << 18;
/// Entries of a race's answer cache before it is cleared.
const MAX_ANSWERS: usize = 1 << 16;

/// Whether the armies no longer interact (criterion in the [module docs](self)).
pub fn separated(pos: &UgolkiPosition) -> bool {
    clear_of_homes(pos) && ahead(pos)
}

/// Conditions 2 and 3: no piece on its own home, nor in its own half under the leave-half
/// rule.
fn clear_of_homes(pos: &UgolkiPosition) -> bool {
    let (white, black, _) = pos.placement();
    if white == 0 || black == 0 {
        return false;
    }
    if pos.has_piece_at_home(Color::White) || pos.has_piece_at_home(Color::Black) {
        return false;
    }
    pos.rules().leave_half.moves().is_none()
        || !(pos.has_piece_in_half(Color::White) || pos.has_piece_in_half(Color::Black))
}

/// Condition 1: White's rearmost piece [`SEPARATION`] diagonals ahead of Black's foremost.
fn ahead(pos: &UgolkiPosition) -> bool {
    let rules = pos.rules();
    let (white, black, _) = pos.placement();
    let width = u32::from(rules.board.width());
    let diagonal = |index: u8| (u32::from(index) % width + u32::from(index) / width) as i32;
    let rearmost_white = squares(white).map(diagonal).min().unwrap_or(0);
    let foremost_black = squares(black).map(diagonal).max().unwrap_or(i32::MAX);
    rearmost_white - foremost_black >= SEPARATION
}

/// What a solve found out about one side's race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distance {
    /// Exactly this many moves.
    Exact(u32),
    /// At least this many moves: the budget ran out before the solver knew more.
    AtLeast(u32),
}

impl Distance {
    /// The exact count, if known.
    pub fn exact(self) -> Option<u32> {
        match self {
            Distance::Exact(d) => Some(d),
            Distance::AtLeast(_) => None,
        }
    }

    /// The least and the most moves it may take ([`u32::MAX`] when unbounded).
    fn range(self) -> (u32, u32) {
        match self {
            Distance::Exact(d) => (d, d),
            Distance::AtLeast(d) => (d, u32::MAX),
        }
    }
}

/// Who wins a separated race: White needs `white_needs` more moves, Black `black_needs`,
/// after `white_made` and `black_made` moves (the position's [`UgolkiPosition::moves_made`]).
/// The position must not be over yet ([`doska_rules::ugolki::judge_position`] says `None`).
///
/// From `judge_position`: White's k-th move comes before Black's k-th, so White completing
/// on its move `W = white_made + white_needs` and Black on its move `B = black_made +
/// black_needs`, White is first when `W <= B`. The first to complete wins, except that with
/// the equal-moves rule Black's reply to White's completing move draws when it completes too
/// (`B == W`). Completion is judged before the move limit, and the limit ends the game after
/// Black's [`MOVE_LIMIT`]th move, so a side completing on its move `<= MOVE_LIMIT` counts; if
/// neither does, the game is a draw.
pub fn race_outcome(
    rules: &UgolkiRules,
    white_made: u16,
    black_made: u16,
    white_needs: u32,
    black_needs: u32,
) -> Winner {
    let w = u32::from(white_made).saturating_add(white_needs);
    let b = u32::from(black_made).saturating_add(black_needs);
    let limit = u32::from(MOVE_LIMIT);
    if w <= b {
        // Past the limit, or Black's reply completes too under the equal-moves rule.
        if w > limit || (rules.equal_moves && w == b) { Winner::Draw } else { Winner::White }
    } else if b > limit {
        Winner::Draw
    } else {
        Winner::Black
    }
}

/// The exact score of a separated race for the side to move: [`RACE_WIN`] plus
/// [`RACE_MARGIN`] per move the winner is ahead for a win, 0 for a draw, the negative for a
/// loss; `None` when the armies still interact or the races, as far as [`RACE_BUDGET`] lets
/// the solver see, do not decide the game. When a count is only a lower bound, the result is
/// the same for every count it allows and the margin is the least one.
///
/// In a search whose root is separated, a position need not be separated itself: being clear
/// of the homes is enough (see the [module docs](self)).
pub fn exact_score(pos: &UgolkiPosition) -> Option<i32> {
    if !clear_of_homes(pos) {
        return None;
    }
    let rules = pos.rules();
    let (white, black, _) = pos.placement();
    ANSWERS.with(|cell| {
        let mut tables = cell.borrow_mut();
        if !(tables.root_separated || ahead(pos)) {
            return None;
        }
        // What is known without a search (an earlier answer, or the lower bound); then the
        // shorter-looking race is solved first, and the longer one only if the game is not
        // decided yet: a side that has stepped back often has a long race that would exhaust
        // the budget, but its lower bound alone already loses.
        let mut races = [(Color::White, white), (Color::Black, black)]
            .map(|(side, bits)| tables.distance(rules, side, bits, false));
        let mut order = [Color::White, Color::Black];
        if races[1].range().0 < races[0].range().0 {
            order.reverse();
        }
        for side in order {
            if let Some(score) = decide(pos, races) {
                return Some(score);
            }
            let bits = if side == Color::White { white } else { black };
            races[side as usize] = tables.distance(rules, side, bits, true);
        }
        decide(pos, races)
    })
}

/// The score when the two races (White's, Black's) decide the game whatever their unknown
/// parts turn out to be.
fn decide(pos: &UgolkiPosition, [white_needs, black_needs]: [Distance; 2]) -> Option<i32> {
    let rules = pos.rules();
    let (white_made, black_made) = (pos.moves_made(Color::White), pos.moves_made(Color::Black));
    let (w_least, w_most) = white_needs.range();
    let (b_least, b_most) = black_needs.range();
    // The result only gets worse for White as White needs more and better as Black needs
    // more, so the two extremes bound every possibility.
    let best_for_white = race_outcome(rules, white_made, black_made, w_least, b_most);
    let worst_for_white = race_outcome(rules, white_made, black_made, w_most, b_least);
    if best_for_white != worst_for_white {
        return None;
    }
    let total = |made: u16, needs: u32| {
        u32::from(made).saturating_add(needs).min(u32::from(MOVE_LIMIT) + 1) as i32
    };
    let score = |won: i32, lost: i32| RACE_WIN + RACE_MARGIN * (lost - won).max(0);
    let us = pos.side_to_move();
    Some(match worst_for_white {
        Winner::Draw => 0,
        Winner::White => {
            let s = score(total(white_made, w_most), total(black_made, b_least));
            if us == Color::White { s } else { -s }
        }
        Winner::Black => {
            let s = score(total(black_made, b_most), total(white_made, w_least));
            if us == Color::Black { s } else { -s }
        }
    })
}

thread_local! {
    /// Every thread that evaluates keeps its own races (the search is single-threaded).
    static ANSWERS: RefCell<Races> = RefCell::new(Races::default());
}

/// Empties this thread's race tables and notes whether the search's `root` is separated
/// (the search calls it when it starts).
pub fn start_search(root: &UgolkiPosition) {
    ANSWERS.with(|cell| {
        let mut tables = cell.borrow_mut();
        tables.races.clear();
        tables.root_separated = separated(root);
    });
}

/// The races one thread has solved: a solver per (board, home, directions, side), with its
/// answers.
#[derive(Debug, Default)]
struct Races {
    races: Vec<(RaceSolver, HashMap<u128, Distance, BitsHash>)>,
    /// Whether the current search started from a separated position.
    root_separated: bool,
}

impl Races {
    /// `side`'s race from `bits`: an earlier answer, else a solve when `solve` is set (the
    /// answer is kept), else the lower bound.
    fn distance(&mut self, rules: &UgolkiRules, side: Color, bits: u128, solve: bool) -> Distance {
        let index = match self.races.iter().position(|(s, _)| s.is_for(rules, side)) {
            Some(index) => index,
            None => {
                // A thread serves a few rule sets at most; keep the newest four races.
                if self.races.len() >= 4 {
                    self.races.remove(0);
                }
                let solver = RaceSolver::new(rules, side, RACE_BUDGET);
                self.races.push((solver, HashMap::default()));
                self.races.len() - 1
            }
        };
        let Some((solver, answers)) = self.races.get_mut(index) else {
            return Distance::AtLeast(0);
        };
        if let Some(&answer) = answers.get(&bits) {
            return answer;
        }
        if !solve {
            return Distance::AtLeast(solver.lower_bound(bits));
        }
        let answer = solver.solve(bits);
        if answers.len() >= MAX_ANSWERS {
            answers.clear();
        }
        answers.insert(bits, answer);
        answer
    }
}

/// The result of one IDA* probe.
enum Probe {
    /// A solution of this total length.
    Found(u32),
    /// No solution within the threshold; the smallest total beyond it.
    Above(u32),
    /// The node budget ran out.
    Abort,
}

/// One side's race on one board: the target, the masks of the lower bound, and the table of
/// proven bounds shared by all solves.
#[derive(Debug)]
pub struct RaceSolver {
    rules: UgolkiRules,
    side: Color,
    board: u128,
    target: u128,
    /// Outside squares a step away from a target square.
    near: u128,
    /// Squares of each class `(file mod 2) + 2 * (rank mod 2)`.
    class: [u128; 4],
    /// Target squares of each class.
    room: [u32; 4],
    /// Steps from each square to the nearest target square (move ordering only).
    steps: [u8; 128],
    /// Proven lower bounds of the distance; [`EXACT`] marks an exact one.
    bounds: HashMap<u128, u8, BitsHash>,
    budget: u64,
    nodes: u64,
    /// Children per depth: (ordering key, bitboard), reused so a node does not allocate.
    frames: Vec<Vec<(u32, u128)>>,
}

impl RaceSolver {
    /// A solver for `side`'s race under `rules` (only the board, the homes and the directions
    /// matter) that gives up after `budget` nodes per solve.
    pub fn new(rules: &UgolkiRules, side: Color, budget: u64) -> RaceSolver {
        let board = rules.board_bits();
        let target = rules.home_bits(side.opposite());
        let width = u32::from(rules.board.width());
        let mut class = [0u128; 4];
        for index in squares(board) {
            let index = u32::from(index);
            let c = (index % width % 2 + 2 * (index / width % 2)) as usize;
            class[c] |= 1u128 << index;
        }
        let room = class.map(|c| (c & target).count_ones());
        // Breadth-first in steps from the target.
        let mut steps = [u8::MAX; 128];
        let mut reached = target;
        let mut frontier = target;
        let mut distance = 0u8;
        while frontier != 0 {
            for index in squares(frontier) {
                steps[usize::from(index)] = distance;
            }
            let next = squares(frontier).fold(0, |acc, i| acc | rules.step_targets(1u128 << i, 0));
            frontier = next & board & !reached;
            reached |= frontier;
            distance = distance.saturating_add(1);
        }
        let near =
            squares(target).fold(0, |acc, i| acc | rules.step_targets(1u128 << i, 0)) & !target;
        RaceSolver {
            rules: *rules,
            side,
            board,
            target,
            near,
            class,
            room,
            steps,
            bounds: HashMap::default(),
            budget,
            nodes: 0,
            frames: Vec::new(),
        }
    }

    fn is_for(&self, rules: &UgolkiRules, side: Color) -> bool {
        let key = |r: &UgolkiRules| -> (BoardSize, HomeShape, Directions) {
            (r.board, r.home, r.directions)
        };
        self.side == side && key(&self.rules) == key(rules)
    }

    /// Nodes the last solve visited.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether every piece of `bits` stands on a target square.
    pub fn is_done(&self, bits: u128) -> bool {
        bits & !self.target == 0
    }

    /// The admissible lower bound of the moves `bits` needs (see the [module docs](self)).
    pub fn lower_bound(&self, bits: u128) -> u32 {
        let outside = bits & !self.target;
        let mut bound = outside.count_ones();
        for c in 0..4 {
            let excess = (bits & self.class[c]).count_ones().saturating_sub(self.room[c]);
            let near = (outside & self.near & self.class[c]).count_ones();
            bound += excess.saturating_sub(near);
        }
        bound
    }

    /// The least number of moves that brings every piece of `bits` onto the target when the
    /// side moves alone; only a lower bound when the search would exceed the budget (or
    /// `bits` is no army on this board).
    pub fn solve(&mut self, bits: u128) -> Distance {
        self.nodes = 0;
        if bits == 0 || bits & !self.board != 0 {
            return Distance::AtLeast(0);
        }
        if self.bounds.len() >= MAX_BOUNDS {
            self.bounds.clear();
        }
        // Every threshold tried so far was exhausted, so the distance is at least the next.
        let mut threshold = self.lower_bound(bits);
        while threshold <= MAX_DISTANCE {
            match self.probe(bits, 0, threshold, 0) {
                Probe::Found(total) => return Distance::Exact(total),
                Probe::Above(next) => threshold = next,
                Probe::Abort => break,
            }
        }
        Distance::AtLeast(threshold)
    }

    /// One IDA* node: `bits` reached after `g` moves.
    fn probe(&mut self, bits: u128, g: u32, threshold: u32, depth: usize) -> Probe {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Probe::Abort;
        }
        if self.is_done(bits) {
            return Probe::Found(g);
        }
        let known = self.bounds.get(&bits).copied().unwrap_or(0);
        if known & EXACT != 0 {
            let total = g + u32::from(known & !EXACT);
            return if total <= threshold { Probe::Found(total) } else { Probe::Above(total) };
        }
        let bound = self.lower_bound(bits).max(u32::from(known));
        if g + bound > threshold {
            return Probe::Above(g + bound);
        }
        let mut children = std::mem::take(self.frame(depth));
        self.children(bits, &mut children);
        let mut best = u32::MAX;
        let mut result = None;
        for &(_, child) in &children {
            match self.probe(child, g + 1, threshold, depth + 1) {
                Probe::Found(total) => {
                    result = Some(Probe::Found(total));
                    break;
                }
                Probe::Above(total) => best = best.min(total),
                Probe::Abort => {
                    result = Some(Probe::Abort);
                    break;
                }
            }
        }
        *self.frame(depth) = children;
        match result {
            Some(Probe::Found(total)) => {
                // On the solution line: the distance from here is exact.
                let exact = (total - g).min(u32::from(!EXACT)) as u8;
                self.bounds.insert(bits, exact | EXACT);
                Probe::Found(total)
            }
            Some(probe) => probe,
            None => {
                // Every child was searched to the threshold: the distance is at least the
                // smallest total beyond it, less the moves made.
                let proven = best.saturating_sub(g).min(u32::from(!EXACT)) as u8;
                if proven > known {
                    self.bounds.insert(bits, proven);
                }
                Probe::Above(best)
            }
        }
    }

    fn frame(&mut self, depth: usize) -> &mut Vec<(u32, u128)> {
        while self.frames.len() <= depth {
            self.frames.push(Vec::with_capacity(64));
        }
        &mut self.frames[depth]
    }

    /// Every position one move away, most promising first: fewer moves by the lower bound,
    /// then fewer steps left in all.
    fn children(&self, bits: u128, out: &mut Vec<(u32, u128)>) {
        out.clear();
        let total: u32 = squares(bits).map(|i| u32::from(self.steps[usize::from(i)])).sum();
        for from in squares(bits) {
            let from_bit = 1u128 << from;
            let to =
                self.rules.step_targets(from_bit, bits) | self.rules.jump_targets(from_bit, bits);
            for to in squares(to) {
                let child = bits ^ from_bit ^ (1u128 << to);
                let steps = total + u32::from(self.steps[usize::from(to)])
                    - u32::from(self.steps[usize::from(from)]);
                out.push((self.lower_bound(child) << 16 | steps.min(0xffff), child));
            }
        }
        out.sort_unstable_by_key(|&(key, _)| key);
    }
}

/// A fast hasher for bitboard keys (the default SipHash dominates a solver node otherwise).
type BitsHash = BuildHasherDefault<BitsHasher>;

#[derive(Debug, Default)]
struct BitsHasher(u64);

impl Hasher for BitsHasher {
    fn finish(&self) -> u64 {
        crate::node::mix(self.0)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u128(&mut self, n: u128) {
        self.0 ^= (n as u64) ^ crate::node::mix((n >> 64) as u64);
    }
}

#[cfg(test)]
mod tests;
