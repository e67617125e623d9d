//! The retrograde generator and the checker.
//!
//! A slice is solved once every slice its moves can leave it for is solved (captures lead to
//! fewer pieces, crownings to fewer men: [`Slice::all_with`]'s order), together with its
//! mirror (Black to move in a slice is White to move in the colour-swapped one). One pass over
//! the slice generates each position's moves: a move that leaves the slice is looked up at
//! once, a move that stays is only counted. Then, from the ends outward, level by level: a
//! position with a lost successor at level `d - 1` is won in `d`; one whose successors are
//! all won is lost in one more than the longest of them. The positions a decided one is
//! reached from are found by taking moves back ([`predecessors`]: within a slice a move is a
//! step without a capture or a crowning), so no move is kept in memory: a slice costs six
//! bytes a position while it is solved. What no level reaches is drawn.

use super::{DISTANCE, DRAW, Egdb, INVALID, LOSS, Slice, Table, Value, WIN, decode, encode, stuck};
use doska_rules::bits::{self, Bits};
use doska_rules::fen::Counters;
use doska_rules::game;
use doska_rules::variant::Reach;
use doska_rules::{Color, Move, Piece, Position, Square};
use std::time::Instant;

/// What solving one slice found.
#[derive(Clone, Debug)]
pub struct SliceReport {
    /// The slice.
    pub slice: Slice,
    /// Whether the numbers also stand for the colour-swapped slice, solved with it (which
    /// then holds as many positions, its wins and losses the same).
    pub mirror: bool,
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

/// Flags of a position while its slice is solved.
/// A move out of the slice draws or wins: the position can no longer be lost.
const SAFE: u8 = 1;
/// Its value is final.
const DECIDED: u8 = 2;
/// A win is queued for it (its value holds the shortest so far).
const PENDING: u8 = 4;
/// A loss, or the end of the game, is queued for it (its value holds it).
const QUEUED: u8 = 8;

/// The position at entry `p` of slice `s` (`size` entries a side to move).
fn position_at(db: &Egdb, s: Slice, p: usize, size: usize) -> Option<Position> {
    let turn = if p < size { Color::White } else { Color::Black };
    db.board.position(s, (p % size) as u64, turn)
}

/// One range of a slice's working arrays.
struct Part<'a> {
    start: usize,
    value: &'a mut [u16],
    remaining: &'a mut [u8],
    worst: &'a mut [u16],
    flags: &'a mut [u8],
}

/// The first pass over one range: each position's moves, those out of the slice looked up,
/// those that stay counted.
fn first_pass(db: &Egdb, s: Slice, size: usize, part: Part<'_>) {
    let mut moves: Vec<Move> = Vec::new();
    for k in 0..part.value.len() {
        let (value, flags) = (&mut part.value[k], &mut part.flags[k]);
        let pos = match position_at(db, s, part.start + k, size) {
            None => {
                (*value, *flags) = (INVALID, DECIDED);
                continue;
            }
            Some(pos) => pos,
        };
        if game::judge_draws(&pos, &Counters::default(), 1, 0).is_some() {
            (*value, *flags) = (DRAW, DECIDED);
            continue;
        }
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            (*value, *flags) = (encode(stuck(&pos)), QUEUED);
            continue;
        }
        let (mut within, mut win, mut safe, mut worst) = (0u32, None::<u16>, false, 0u16);
        for m in &moves {
            let child = pos.play(m);
            // A move within the slice neither captures nor crowns: always indexed.
            if Slice::of(&child) == s {
                within += 1;
                continue;
            }
            match db.after_move(&child) {
                Some(Value::Loss(d)) => {
                    win = Some(win.map_or(d + 1, |w| w.min(d + 1)));
                    safe = true;
                }
                Some(Value::Win(d)) => worst = worst.max(d),
                // A slice not in the database cannot be reached (fewer pieces are solved
                // first): counted as a draw, the value that claims nothing.
                Some(Value::Draw) | None => safe = true,
            }
        }
        // A king alone has at most 4 * 17 moves on 12x12: far from a byte's end.
        part.remaining[k] = within.min(u8::MAX as u32) as u8;
        part.worst[k] = worst;
        if let Some(d) = win {
            (*value, *flags) = (WIN | d.min(DISTANCE), SAFE | PENDING);
        } else if safe && within == 0 {
            (*value, *flags) = (DRAW, DECIDED);
        } else if safe {
            *flags = SAFE;
        } else if within == 0 {
            (*value, *flags) = (LOSS | (worst + 1).min(DISTANCE), QUEUED);
        }
    }
}

/// The indices (in the slice's working arrays) of the positions one move before `pos` within
/// its slice: the side not to move takes one of its steps back (a man against his steps, a
/// king along his lines) where the square is free, and the position before is kept if no
/// capture was there to take instead (a capture must be taken).
fn predecessors(db: &Egdb, pos: &Position, out: &mut Vec<u32>) {
    out.clear();
    let r = pos.rules();
    let g = &r.geometry;
    let mover = pos.turn().opposite();
    let empty = g.mask() & !pos.occupied();
    let man_steps = if mover == Color::White { r.man_steps } else { r.man_steps.flip() };
    for x in bits::iter(pos.pieces(mover)) {
        let at: Bits = 1 << x;
        let king = pos.kings() & at != 0;
        let mut from = |y: Bits| {
            let mut before = pos.clone();
            before.put(Square(x), None);
            before.put(Square(y.trailing_zeros() as u8), Some(Piece { color: mover, king }));
            before.set_turn(mover);
            if !before.has_capture()
                && let Some(i) = db.board.index(&before)
            {
                out.push(i as u32);
            }
        };
        if king {
            for d in r.king_steps.iter() {
                let mut y = g.step(at, d.reverse());
                while y & empty != 0 {
                    from(y);
                    if r.king_move == Reach::Short {
                        break;
                    }
                    y = g.step(y, d.reverse());
                }
            }
        } else {
            for d in man_steps.iter() {
                let y = g.step(at, d.reverse());
                if y & empty != 0 {
                    from(y);
                }
            }
        }
    }
}

/// Positions decided together, whose moves back are taken on the threads side by side.
const BATCH: usize = 1 << 16;

/// The predecessors ([`predecessors`]) of every entry of `list`, one after another, found on
/// `threads` threads.
fn expand(db: &Egdb, s: Slice, size: usize, list: &[u32], threads: usize) -> Vec<u32> {
    let work = |part: &[u32]| {
        let (mut out, mut before) = (Vec::new(), Vec::new());
        for &p in part {
            if let Some(pos) = position_at(db, s, p as usize, size) {
                predecessors(db, &pos, &mut before);
                out.extend_from_slice(&before);
            }
        }
        out
    };
    if threads == 1 || list.len() < 1024 {
        return work(list);
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = list
            .chunks(list.len().div_ceil(threads))
            .map(|part| scope.spawn(move || work(part)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// Solves slice `s` and its mirror, whose successors out of the slice are all in `db`: the
/// tables of both (one if `s` is its own mirror).
pub(super) fn solve(db: &Egdb, s: Slice, threads: usize) -> (Vec<(Slice, Table)>, SliceReport) {
    let started = Instant::now();
    let size = db.board.size(s) as usize;
    let total = 2 * size;
    let mut value = vec![DRAW; total];
    let mut remaining = vec![0u8; total];
    let mut worst = vec![0u16; total];
    let mut flags = vec![0u8; total];
    // The first pass, in `threads` ranges side by side.
    let chunk = total.div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let parts = value
            .chunks_mut(chunk)
            .zip(remaining.chunks_mut(chunk))
            .zip(worst.chunks_mut(chunk))
            .zip(flags.chunks_mut(chunk))
            .enumerate();
        for (i, (((value, remaining), worst), flags)) in parts {
            let part = Part { start: i * chunk, value, remaining, worst, flags };
            scope.spawn(move || first_pass(db, s, size, part));
        }
    });

    let mut levels: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
    let push = |levels: &mut Vec<(Vec<u32>, Vec<u32>)>, d: u16, p: usize, win: bool| {
        let d = d.min(DISTANCE) as usize;
        if levels.len() <= d {
            levels.resize_with(d + 1, Default::default);
        }
        let (w, l) = &mut levels[d];
        if win { w.push(p as u32) } else { l.push(p as u32) }
    };
    for (p, &f) in flags.iter().enumerate() {
        if f & (PENDING | QUEUED) != 0 {
            match decode(value[p]) {
                Some(Value::Win(d)) => push(&mut levels, d, p, true),
                Some(Value::Loss(d)) => push(&mut levels, d, p, false),
                _ => {}
            }
        }
    }
    let mut level = 0;
    while level < levels.len() {
        let (wins, losses) = std::mem::take(&mut levels[level]);
        let d = level as u16;
        for (list, won) in [(losses, false), (wins, true)] {
            for batch in list.chunks(BATCH) {
                // Decided the first time it comes: a position may be queued more than once.
                let fresh: Vec<u32> = batch
                    .iter()
                    .copied()
                    .filter(|&p| {
                        let p = p as usize;
                        let first = flags[p] & DECIDED == 0;
                        if first {
                            flags[p] |= DECIDED;
                            value[p] = if won { WIN | d } else { LOSS | d };
                        }
                        first
                    })
                    .collect();
                for q in expand(db, s, size, &fresh, threads) {
                    let q = q as usize;
                    let f = flags[q];
                    if !won {
                        // A lost successor: won in one more.
                        if f & DECIDED != 0 || (f & PENDING != 0 && value[q] & DISTANCE <= d + 1) {
                            continue;
                        }
                        flags[q] |= PENDING;
                        value[q] = WIN | (d + 1);
                        push(&mut levels, d + 1, q, true);
                    } else if f & (DECIDED | SAFE | PENDING | QUEUED) == 0 {
                        // A won successor: lost once every one is.
                        remaining[q] -= 1;
                        worst[q] = worst[q].max(d);
                        if remaining[q] == 0 {
                            value[q] = LOSS | (worst[q] + 1);
                            flags[q] |= QUEUED;
                            push(&mut levels, worst[q] + 1, q, false);
                        }
                    }
                }
            }
        }
        level += 1;
    }
    drop((remaining, worst));
    // What no level reached is drawn.
    for (v, &f) in value.iter_mut().zip(&flags) {
        if f & DECIDED == 0 {
            *v = DRAW;
        }
    }
    drop(flags);
    let mirror = s.mirrored() != s;
    let mut r = SliceReport {
        slice: s,
        mirror,
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
    // White to move is this slice's table; Black to move, turned round, the mirror's.
    let black = value.split_off(size);
    let mut tables = Vec::with_capacity(2);
    if mirror {
        let mut turned = vec![INVALID; size];
        for (i, &v) in black.iter().enumerate() {
            if v == INVALID {
                continue;
            }
            let Some(pos) = position_at(db, s, size + i, size) else { continue };
            if let Some(j) = db.board.index(&db.board.mirrored(&pos)) {
                turned[j as usize] = v;
            }
        }
        tables.push((s.mirrored(), Table::new(turned, db.giveaway)));
    }
    drop(black);
    tables.push((s, Table::new(value, db.giveaway)));
    r.seconds = started.elapsed().as_secs_f64();
    (tables, r)
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
        // White to move in each slice: Black to move is the mirror's.
        for s in self.slices() {
            let size = self.board.size(s) as usize;
            for p in (0..size).step_by(step.max(1)) {
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use doska_rules::Variant;

    /// Taking moves back finds exactly the moves forward that stay in the slice, each once:
    /// the counts the first pass keeps are the counts the levels take away.
    #[test]
    fn moves_taken_back_are_the_moves_forward() {
        let boards = [
            Variant::Russian,
            Variant::American,
            Variant::International,
            Variant::Turkish,
            Variant::Armenian,
            Variant::Thai,
        ];
        for v in boards {
            let db = Egdb::empty(v, 3);
            for s in Slice::all_with(3) {
                let size = db.board.size(s) as usize;
                let mut forward: Vec<Vec<u32>> = vec![Vec::new(); 2 * size];
                let mut checked = 0;
                for q in 0..2 * size {
                    let Some(pos) = position_at(&db, s, q, size) else { continue };
                    for m in pos.legal_moves() {
                        let child = pos.play(&m);
                        if Slice::of(&child) == s {
                            forward[db.board.index(&child).unwrap() as usize].push(q as u32);
                        }
                    }
                }
                let mut back = Vec::new();
                for (p, mut want) in forward.into_iter().enumerate() {
                    let Some(pos) = position_at(&db, s, p, size) else { continue };
                    predecessors(&db, &pos, &mut back);
                    back.sort_unstable();
                    want.sort_unstable();
                    assert_eq!(back, want, "{v} {}", pos.to_fen());
                    checked += want.len();
                }
                assert!(checked > 0 || s.men() == 3, "{v} {}", s.describe());
            }
        }
    }
}
