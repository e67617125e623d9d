//! The retrograde generator and the checker.
//!
//! A slice is solved once every slice its moves can leave it for is solved (captures lead to
//! fewer pieces, crownings to fewer men: [`Slice::all_with`]'s order). One pass over the
//! slice generates each position's moves: a move that leaves the slice is looked up at once,
//! a move that stays is kept as an edge. Then, from the ends outward, level by level: a
//! position with a lost successor at level `d - 1` is won in `d`; one whose successors are
//! all won is lost in one more than the longest of them. What no level reaches is drawn.

use super::{DISTANCE, DRAW, Egdb, INVALID, LOSS, Slice, Value, WIN, decode, encode, stuck};
use doska_rules::fen::Counters;
use doska_rules::game;
use doska_rules::{Color, Move, Position};
use std::time::Instant;

/// What solving one slice found.
#[derive(Clone, Debug)]
pub struct SliceReport {
    /// The slice.
    pub slice: Slice,
    /// Positions (both sides to move).
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
    /// The longest win, in plies.
    pub longest: u16,
    /// Seconds it took.
    pub seconds: f64,
}

/// What the first pass learned of one position.
#[derive(Clone, Copy, Default)]
struct Start {
    /// Decided already (invalid, an end, drawn by position or by a move out of the slice).
    value: Option<u16>,
    /// The shortest win through a move out of the slice (its successor's loss + 1).
    win: Option<u16>,
    /// A move out of the slice draws, or wins: this position can no longer be lost.
    safe: bool,
    /// The longest successor win out of the slice.
    worst: u16,
}

/// The position at entry `p` of slice `s` (`size` entries a side to move).
fn position_at(db: &Egdb, s: Slice, p: usize, size: usize) -> Option<Position> {
    let turn = if p < size { Color::White } else { Color::Black };
    db.board.position(s, (p % size) as u64, turn)
}

/// The first pass over entries `range`: their moves, in-slice ones as edges.
fn first_pass(
    db: &Egdb,
    s: Slice,
    size: usize,
    range: std::ops::Range<usize>,
) -> (Vec<Start>, Vec<u32>, Vec<u32>) {
    let mut starts = Vec::with_capacity(range.len());
    let mut counts = Vec::with_capacity(range.len());
    let mut edges = Vec::new();
    let mut moves: Vec<Move> = Vec::new();
    for p in range {
        let mut st = Start::default();
        let before = edges.len();
        match position_at(db, s, p, size) {
            None => st.value = Some(INVALID),
            Some(pos) if game::judge_draws(&pos, &Counters::default(), 1, 0).is_some() => {
                st.value = Some(DRAW);
            }
            Some(pos) => {
                pos.legal_moves_into(&mut moves);
                if moves.is_empty() {
                    st.value = Some(encode(stuck(&pos)));
                }
                for m in &moves {
                    let child = pos.play(m);
                    if Slice::of(&child) == s
                        && let Some(i) = db.board.index(&child)
                    {
                        edges.push(i as u32);
                        continue;
                    }
                    match db.after_move(&child) {
                        Some(Value::Loss(d)) => {
                            st.win = Some(st.win.map_or(d + 1, |w| w.min(d + 1)));
                            st.safe = true;
                        }
                        Some(Value::Win(d)) => st.worst = st.worst.max(d),
                        // A slice not in the database cannot be reached (fewer pieces are
                        // solved first): counted as a draw, the value that claims nothing.
                        Some(Value::Draw) | None => st.safe = true,
                    }
                }
                if st.win.is_none() && edges.len() == before && st.safe {
                    st.value = Some(DRAW);
                }
            }
        }
        counts.push((edges.len() - before) as u32);
        starts.push(st);
    }
    (starts, counts, edges)
}

/// Solves slice `s`, whose successors out of the slice are all in `db`.
pub(super) fn solve(db: &Egdb, s: Slice, threads: usize) -> (Vec<u16>, SliceReport) {
    let started = Instant::now();
    let size = db.board.size(s) as usize;
    let total = 2 * size;
    // The first pass, in `threads` ranges side by side.
    let chunk = total.div_ceil(threads).max(1);
    let parts: Vec<(Vec<Start>, Vec<u32>, Vec<u32>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..total)
            .step_by(chunk)
            .map(|a| scope.spawn(move || first_pass(db, s, size, a..(a + chunk).min(total))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut starts = Vec::with_capacity(total);
    let mut counts = Vec::with_capacity(total);
    let mut edges = Vec::new();
    for (st, c, e) in parts {
        starts.extend(st);
        counts.extend(c);
        edges.extend(e);
    }
    // Predecessors: each edge p -> c turned round.
    let mut pred_at = vec![0u32; total + 1];
    for &c in &edges {
        pred_at[c as usize + 1] += 1;
    }
    for i in 0..total {
        pred_at[i + 1] += pred_at[i];
    }
    let mut preds = vec![0u32; edges.len()];
    let mut fill = pred_at.clone();
    let mut e = 0;
    for (p, &n) in counts.iter().enumerate() {
        for &c in &edges[e..e + n as usize] {
            preds[fill[c as usize] as usize] = p as u32;
            fill[c as usize] += 1;
        }
        e += n as usize;
    }
    drop(edges);
    drop(fill);

    let mut value = vec![DRAW; total];
    let mut decided = vec![false; total];
    let mut remaining = counts;
    let mut worst: Vec<u16> = starts.iter().map(|st| st.worst).collect();
    let mut levels: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
    let push = |levels: &mut Vec<(Vec<u32>, Vec<u32>)>, d: u16, p: usize, win: bool| {
        let d = d.min(DISTANCE) as usize;
        if levels.len() <= d {
            levels.resize_with(d + 1, Default::default);
        }
        let (w, l) = &mut levels[d];
        if win { w.push(p as u32) } else { l.push(p as u32) }
    };
    for (p, st) in starts.iter().enumerate() {
        if let Some(v) = st.value {
            match decode(v) {
                Some(Value::Win(d)) => push(&mut levels, d, p, true),
                Some(Value::Loss(d)) => push(&mut levels, d, p, false),
                _ => {
                    value[p] = v;
                    decided[p] = true;
                }
            }
        } else if let Some(d) = st.win {
            push(&mut levels, d, p, true);
        } else if remaining[p] == 0 && !st.safe {
            push(&mut levels, st.worst + 1, p, false);
        }
    }
    let mut level = 0;
    while level < levels.len() {
        let (wins, losses) = std::mem::take(&mut levels[level]);
        let d = level as u16;
        for p in losses {
            let p = p as usize;
            if decided[p] {
                continue;
            }
            decided[p] = true;
            value[p] = LOSS | d;
            for &q in &preds[pred_at[p] as usize..pred_at[p + 1] as usize] {
                if !decided[q as usize] {
                    push(&mut levels, d + 1, q as usize, true);
                }
            }
        }
        for p in wins {
            let p = p as usize;
            if decided[p] {
                continue;
            }
            decided[p] = true;
            value[p] = WIN | d;
            for &q in &preds[pred_at[p] as usize..pred_at[p + 1] as usize] {
                let q = q as usize;
                if decided[q] || starts[q].safe || starts[q].win.is_some() {
                    continue;
                }
                remaining[q] -= 1;
                worst[q] = worst[q].max(d);
                if remaining[q] == 0 {
                    push(&mut levels, worst[q] + 1, q, false);
                }
            }
        }
        level += 1;
    }
    let mut r = SliceReport {
        slice: s,
        positions: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        longest: 0,
        seconds: 0.0,
    };
    for &v in &value {
        match decode(v) {
            Some(Value::Win(d)) => {
                r.wins += 1;
                r.longest = r.longest.max(d);
            }
            Some(Value::Loss(_)) => r.losses += 1,
            Some(Value::Draw) => r.draws += 1,
            None => continue,
        }
        r.positions += 1;
    }
    r.seconds = started.elapsed().as_secs_f64();
    (value, r)
}

/// The value a position must have given its successors' values: the rule the generator
/// solves by, applied afresh to one position.
pub(super) fn expected(db: &Egdb, pos: &Position) -> Value {
    if game::judge_draws(pos, &Counters::default(), 1, 0).is_some() {
        return Value::Draw;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return stuck(pos);
    }
    let mut win: Option<u16> = None;
    let mut worst = 0;
    let mut all_won = true;
    for m in &moves {
        match db.after_move(&pos.play(m)) {
            Some(Value::Loss(d)) => win = Some(win.map_or(d + 1, |w| w.min(d + 1))),
            Some(Value::Win(d)) => worst = worst.max(d + 1),
            _ => all_won = false,
        }
    }
    match win {
        Some(d) => Value::Win(d),
        None if all_won => Value::Loss(worst),
        None => Value::Draw,
    }
}

impl Egdb {
    /// Holds every position's value against its successors' (the generator's rule applied
    /// afresh, one position at a time): the positions that disagree, at most `max` of them,
    /// as (FEN-able position, stored, expected). Every `step`-th index of each slice is
    /// checked (1: all).
    pub fn verify(&self, step: usize, max: usize) -> (u64, Vec<(Position, Value, Value)>) {
        let mut checked = 0;
        let mut bad = Vec::new();
        for s in self.slices() {
            let size = self.board.size(s) as usize;
            for p in (0..2 * size).step_by(step.max(1)) {
                let Some(pos) = position_at(self, s, p, size) else { continue };
                let Some(stored) = self.probe(&pos) else { continue };
                let want = expected(self, &pos);
                checked += 1;
                if stored != want && bad.len() < max {
                    bad.push((pos, stored, want));
                }
            }
        }
        (checked, bad)
    }
}
