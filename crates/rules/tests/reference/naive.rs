//! A deliberately simple legal-move generator for every draughts rule set, written from
//! the rule book alone (`docs/rules/`, not from the library's move generator).
//!
//! The board is a plain grid of optional pieces (plus, for Lasca, the pieces under each top).
//! Capture sequences are found by a naive depth-first search that clones the whole state at
//! every jump. The only coupling with the library is [`Board::from_position`], which reads a
//! library position square by square through `piece_at` and `under`.

use doska_rules::{Color, Position, Variant};
use std::cell::Cell;

/// Rules that decided something, counted per thread so a test can show that its positions
/// really exercised them.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// The king-landing rule removed some landing squares.
    Landing,
    /// The capture choice removed sequences by its first criterion (most pieces, value).
    Choice,
    /// ... by its second criterion (Italian and Frisian: a king captures; Spanish: most kings).
    Choice2,
    /// ... by its third criterion (Italian: most kings).
    Choice3,
    /// ... by its fourth criterion (Italian: the king met earliest).
    Choice4,
    /// Czech: a king must capture.
    KingMustCapture,
    /// Frisian: the highest value is not the most pieces.
    ValueNotCount,
    /// A man was crowned during a capture and captured further as a king.
    CrownedAndGoesOn,
    /// A man crossed its last row during a capture and went on as a man.
    CrossesLastRow,
    /// A jump was refused as a 180-degree turn.
    NoReversal,
    /// A king turned 180 degrees between two jumps (Thai).
    Reversal,
    /// A man could not take a king (Italian).
    ManSparesKing,
    /// A king was refused its fourth non-capturing move in a row (Frisian).
    KingLimit,
    /// A capture stopped because the only way on was over a piece already taken.
    TurkishStrike,
    /// A jumped Lasca column kept pieces (freed under a new top). Jumped columns never stand
    /// on an edge row, so a freed soldier is never on its last row.
    ColumnFreed,
}

pub const EVENTS: usize = 15;

thread_local! {
    static COUNTS: [Cell<u64>; EVENTS] = Default::default();
}

fn note(e: Event) {
    COUNTS.with(|c| c[e as usize].set(c[e as usize].get() + 1));
}

/// The counts of this thread, reset.
pub fn take_counts() -> Vec<(Event, u64)> {
    use Event::*;
    let all = [
        Landing,
        Choice,
        Choice2,
        Choice3,
        Choice4,
        KingMustCapture,
        ValueNotCount,
        CrownedAndGoesOn,
        CrossesLastRow,
        NoReversal,
        Reversal,
        ManSparesKing,
        KingLimit,
        TurkishStrike,
        ColumnFreed,
    ];
    COUNTS.with(|c| all.iter().map(|&e| (e, c[e as usize].replace(0))).collect())
}

/// Row and column: row 0 is White's side, column 0 is file a.
pub type Rc = (i32, i32);

/// A piece: colour and crowned (king or Lasca officer).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct P {
    pub color: Color,
    pub king: bool,
}

/// How a king captures.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KingCapture {
    /// Jumps an adjacent piece onto the square right behind it.
    Short,
    /// Flies to the piece and lands on any free square behind it.
    Flying,
    /// Flies to the piece and lands on the square right behind it (Thai).
    RightBehind,
}

/// Which capture sequences may be chosen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Choice {
    Free,
    MostPieces,
    /// Most pieces, then a king captures, then most kings, then the king met earliest.
    Italian,
    /// Most pieces, then most kings.
    Spanish,
    /// A king must capture if it can.
    KingFirst,
    /// Highest value (100 per man, 199 per king), then a king captures.
    FrisianValue,
}

/// What happens when a man reaches its last row during a capture.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Promo {
    EndsMove,
    ContinuesAsKing,
    OnlyAtEnd,
}

/// One rule set, straight from its page of docs/rules/. Directions are White's (row +1 is
/// forward); Black's are mirrored. Capture vectors point at the jumped square (a man lands
/// twice as far); a flying king walks the vector repeatedly.
#[derive(Clone, Debug)]
pub struct Spec {
    pub variant: Variant,
    pub w: i32,
    pub h: i32,
    pub all_squares: bool,
    pub mirrored: bool,
    pub first: Color,
    /// White's men stand on rows `men_from .. men_from + men_rows` (0-based).
    pub men_from: i32,
    pub men_rows: i32,
    pub man_steps: Vec<Rc>,
    pub man_caps: Vec<Rc>,
    pub king_steps: Vec<Rc>,
    pub king_flying: bool,
    pub king_caps: Vec<Rc>,
    pub king_capture: KingCapture,
    pub choice: Choice,
    /// Captured pieces leave as they are jumped (else after the move).
    pub immediate: bool,
    pub no_reversal: bool,
    pub promo: Promo,
    pub man_takes_king: bool,
    pub lasca: bool,
    pub king_limit: bool,
}

const DIAG: [Rc; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const DIAG_FWD: [Rc; 2] = [(1, 1), (1, -1)];
const ORTHO: [Rc; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const FWD_SIDE: [Rc; 3] = [(1, 0), (0, 1), (0, -1)];
/// Frisian orthogonal lines: the next dark square on a row or column is two steps away.
const ORTHO2: [Rc; 4] = [(2, 0), (-2, 0), (0, 2), (0, -2)];

impl Spec {
    pub fn of(v: Variant) -> Spec {
        let base = Spec {
            variant: v,
            w: 8,
            h: 8,
            all_squares: false,
            mirrored: false,
            first: Color::White,
            men_from: 0,
            men_rows: 3,
            man_steps: DIAG_FWD.to_vec(),
            man_caps: DIAG_FWD.to_vec(),
            king_steps: DIAG.to_vec(),
            king_flying: false,
            king_caps: DIAG.to_vec(),
            king_capture: KingCapture::Short,
            choice: Choice::Free,
            immediate: false,
            no_reversal: false,
            promo: Promo::EndsMove,
            man_takes_king: true,
            lasca: false,
            king_limit: false,
        };
        // International rules: men capture backwards too, flying kings, majority, promotion
        // only at the end of the move.
        let international = Spec {
            man_caps: DIAG.to_vec(),
            king_flying: true,
            king_capture: KingCapture::Flying,
            choice: Choice::MostPieces,
            promo: Promo::OnlyAtEnd,
            ..base.clone()
        };
        let russian = Spec {
            man_caps: DIAG.to_vec(),
            king_flying: true,
            king_capture: KingCapture::Flying,
            promo: Promo::ContinuesAsKing,
            ..base.clone()
        };
        match v {
            Variant::American => Spec { first: Color::Black, ..base },
            Variant::International => Spec { w: 10, h: 10, men_rows: 4, ..international },
            Variant::Brazilian => international,
            Variant::Canadian => Spec { w: 12, h: 12, men_rows: 5, ..international },
            Variant::Italian => {
                Spec { mirrored: true, choice: Choice::Italian, man_takes_king: false, ..base }
            }
            Variant::Spanish => Spec {
                mirrored: true,
                king_flying: true,
                king_capture: KingCapture::Flying,
                choice: Choice::Spanish,
                ..base
            },
            Variant::Russian | Variant::Poddavki => russian,
            Variant::Czech => Spec {
                king_flying: true,
                king_capture: KingCapture::Flying,
                choice: Choice::KingFirst,
                promo: Promo::OnlyAtEnd,
                ..base
            },
            Variant::Turkish => Spec {
                all_squares: true,
                men_from: 1,
                men_rows: 2,
                man_steps: FWD_SIDE.to_vec(),
                man_caps: FWD_SIDE.to_vec(),
                king_steps: ORTHO.to_vec(),
                king_flying: true,
                king_caps: ORTHO.to_vec(),
                king_capture: KingCapture::Flying,
                choice: Choice::MostPieces,
                immediate: true,
                no_reversal: true,
                promo: Promo::ContinuesAsKing,
                ..base
            },
            Variant::Armenian => Spec {
                all_squares: true,
                men_from: 1,
                men_rows: 2,
                man_steps: [FWD_SIDE.as_slice(), DIAG_FWD.as_slice()].concat(),
                man_caps: FWD_SIDE.to_vec(),
                king_steps: [ORTHO.as_slice(), DIAG.as_slice()].concat(),
                king_flying: true,
                king_caps: ORTHO.to_vec(),
                king_capture: KingCapture::Flying,
                choice: Choice::MostPieces,
                immediate: true,
                no_reversal: true,
                promo: Promo::ContinuesAsKing,
                ..base
            },
            Variant::Thai => Spec {
                first: Color::Black,
                men_rows: 2,
                king_flying: true,
                king_capture: KingCapture::RightBehind,
                immediate: true,
                ..base
            },
            Variant::Frisian => Spec {
                w: 10,
                h: 10,
                men_rows: 4,
                man_caps: [DIAG.as_slice(), ORTHO2.as_slice()].concat(),
                king_flying: true,
                king_caps: [DIAG.as_slice(), ORTHO2.as_slice()].concat(),
                king_capture: KingCapture::Flying,
                choice: Choice::FrisianValue,
                promo: Promo::OnlyAtEnd,
                king_limit: true,
                ..base
            },
            Variant::Lasca => Spec { w: 7, h: 7, lasca: true, ..base },
        }
    }

    /// Whether a square is played on.
    pub fn playable(&self, (r, c): Rc) -> bool {
        if r < 0 || c < 0 || r >= self.h || c >= self.w {
            return false;
        }
        if self.all_squares {
            return true;
        }
        // a1 is dark, except on the mirrored boards (dark corner on the right).
        ((r + c) % 2 == 0) != self.mirrored
    }

    /// The last row of a side.
    pub fn promo_row(&self, color: Color) -> i32 {
        match color {
            Color::White => self.h - 1,
            Color::Black => 0,
        }
    }
}

fn orient(dirs: &[Rc], color: Color) -> Vec<Rc> {
    match color {
        Color::White => dirs.to_vec(),
        Color::Black => dirs.iter().map(|&(dr, dc)| (-dr, dc)).collect(),
    }
}

fn add((r, c): Rc, (dr, dc): Rc, k: i32) -> Rc {
    (r + k * dr, c + k * dc)
}

/// The whole state of a position for the naive generator.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    pub w: i32,
    pub h: i32,
    pub turn: Color,
    /// `cells[row][col]`: the piece (the top of the column in Lasca).
    pub cells: [[Option<P>; 12]; 12],
    /// Lasca only (`w * h` entries, else empty): the pieces under the top, just under it first.
    pub under: Vec<Vec<P>>,
}

impl Board {
    pub fn empty(spec: &Spec, turn: Color) -> Board {
        let under = if spec.lasca { vec![Vec::new(); (spec.w * spec.h) as usize] } else { vec![] };
        Board { w: spec.w, h: spec.h, turn, cells: [[None; 12]; 12], under }
    }

    /// The start position, from the table ("men each", "first").
    pub fn start(spec: &Spec) -> Board {
        let mut b = Board::empty(spec, spec.first);
        for r in spec.men_from..spec.men_from + spec.men_rows {
            for c in 0..spec.w {
                if spec.playable((r, c)) {
                    b.set((r, c), Some(P { color: Color::White, king: false }));
                }
                let rb = spec.h - 1 - r;
                if spec.playable((rb, c)) {
                    b.set((rb, c), Some(P { color: Color::Black, king: false }));
                }
            }
        }
        b
    }

    /// Reads a library position square by square (the only coupling with the library).
    pub fn from_position(spec: &Spec, pos: &Position) -> Board {
        let g = &pos.variant().rules().geometry;
        let mut b = Board::empty(spec, pos.turn());
        for sq in g.all_squares() {
            let (r, c) = g.row_col(sq);
            let rc = (r as i32, c as i32);
            b.set(rc, pos.piece_at(sq).map(|p| P { color: p.color, king: p.king }));
            if spec.lasca {
                let u = pos.under(sq).into_iter().map(|p| P { color: p.color, king: p.king });
                *b.under_mut(rc) = u.collect();
            }
        }
        b
    }

    pub fn get(&self, (r, c): Rc) -> Option<P> {
        self.cells[r as usize][c as usize]
    }

    pub fn set(&mut self, (r, c): Rc, p: Option<P>) {
        self.cells[r as usize][c as usize] = p;
    }

    pub fn under(&self, (r, c): Rc) -> &[P] {
        self.under.get((r * self.w + c) as usize).map(Vec::as_slice).unwrap_or(&[])
    }

    fn under_mut(&mut self, (r, c): Rc) -> &mut Vec<P> {
        let i = (r * self.w + c) as usize;
        &mut self.under[i]
    }

    pub fn has_men(&self, color: Color) -> bool {
        self.cells.iter().flatten().flatten().any(|p| p.color == color && !p.king)
    }
}

/// A legal move found by the naive generator, with the position it leads to.
#[derive(Clone, Debug)]
pub struct NMove {
    pub from: Rc,
    pub to: Rc,
    /// Jumped squares in order.
    pub caps: Vec<Rc>,
    /// The pieces taken, in order (the top of the column in Lasca).
    pub taken: Vec<P>,
    pub mover_king: bool,
    pub promotes: bool,
    pub after: Board,
}

/// The Frisian art. 17 state of the side to move: the king that made the last non-capturing
/// moves and how many in a row.
pub type Run = Option<(Rc, u32)>;

/// A capture in progress.
#[derive(Clone)]
struct St {
    board: Board,
    /// Jumped squares (after-move removal: the pieces still stand there and block; Lasca:
    /// the column may not be jumped again).
    jumped: [[bool; 12]; 12],
    from: Rc,
    at: Rc,
    piece: P,
    mover_king: bool,
    promoted: bool,
    stopped: bool,
    caps: Vec<Rc>,
    taken: Vec<P>,
    last: Option<Rc>,
    /// Lasca: the moving column under its top.
    column: Vec<P>,
}

struct Jump {
    over: Rc,
    lands: Vec<Rc>,
    dir: Rc,
}

/// Whether a jump in direction `d` exists, ignoring the 180-degree rule (for the counts).
fn would_jump(spec: &Spec, st: &St, d: Rc, kind: KingCapture) -> bool {
    let mut s = st.clone();
    s.last = None;
    let mut sp = spec.clone();
    if st.piece.king {
        sp.king_caps = vec![d];
        sp.king_capture = kind;
    } else {
        sp.man_caps = orient(&[d], st.piece.color);
    }
    !jumps_impl(&sp, &s, false).is_empty()
}

fn jumps(spec: &Spec, st: &St) -> Vec<Jump> {
    jumps_impl(spec, st, true)
}

fn jumps_impl(spec: &Spec, st: &St, count_events: bool) -> Vec<Jump> {
    let color = st.piece.color;
    let b = &st.board;
    let enemy = |sq: Rc, man: bool| -> bool {
        match b.get(sq) {
            Some(p) => {
                p.color != color
                    && !st.jumped[sq.0 as usize][sq.1 as usize]
                    && (spec.man_takes_king || !man || !p.king)
            }
            None => false,
        }
    };
    let free = |sq: Rc| spec.playable(sq) && b.get(sq).is_none();
    let mut out = Vec::new();
    let (dirs, kind) = if st.piece.king {
        (spec.king_caps.clone(), spec.king_capture)
    } else {
        (orient(&spec.man_caps, color), KingCapture::Short)
    };
    for d in dirs {
        if st.last == Some((-d.0, -d.1)) {
            if count_events && would_jump(spec, st, d, kind) {
                note(if spec.no_reversal { Event::NoReversal } else { Event::Reversal });
            }
            if spec.no_reversal {
                continue;
            }
        }
        match kind {
            KingCapture::Short => {
                let over = add(st.at, d, 1);
                let land = add(st.at, d, 2);
                if spec.playable(over) && enemy(over, !st.piece.king) && free(land) {
                    out.push(Jump { over, lands: vec![land], dir: d });
                } else if count_events
                    && spec.playable(over)
                    && free(land)
                    && let Some(p) = b.get(over)
                {
                    if p.color != color && p.king && !st.piece.king && !spec.man_takes_king {
                        note(Event::ManSparesKing);
                    }
                    if p.color != color
                        && st.jumped[over.0 as usize][over.1 as usize]
                        && st.last != Some((-d.0, -d.1))
                    {
                        note(Event::TurkishStrike);
                    }
                }
            }
            KingCapture::Flying | KingCapture::RightBehind => {
                let mut k = 1;
                while free(add(st.at, d, k)) {
                    k += 1;
                }
                let over = add(st.at, d, k);
                if !spec.playable(over) || !enemy(over, false) {
                    if count_events
                        && st.last != Some((-d.0, -d.1))
                        && spec.playable(over)
                        && st.jumped[over.0 as usize][over.1 as usize]
                        && free(add(over, d, 1))
                    {
                        note(Event::TurkishStrike);
                    }
                    continue;
                }
                let mut lands = Vec::new();
                let mut m = 1;
                while free(add(over, d, m)) {
                    lands.push(add(over, d, m));
                    if kind == KingCapture::RightBehind {
                        break;
                    }
                    m += 1;
                }
                if !lands.is_empty() {
                    out.push(Jump { over, lands, dir: d });
                }
            }
        }
    }
    out
}

fn apply(spec: &Spec, st: &St, over: Rc, land: Rc, dir: Rc) -> St {
    let mut c = st.clone();
    let victim = c.board.get(over).unwrap_or(P { color: Color::White, king: false });
    c.caps.push(over);
    c.taken.push(victim);
    c.last = Some(dir);
    c.at = land;
    c.jumped[over.0 as usize][over.1 as usize] = true;
    if spec.lasca {
        // The top of the jumped column goes under the capturing column; the rest stays.
        let rest = c.board.under_mut(over);
        let new_top = if rest.is_empty() { None } else { Some(rest.remove(0)) };
        if new_top.is_some() {
            note(Event::ColumnFreed);
        }
        c.board.set(over, new_top);
        c.column.push(victim);
    } else if spec.immediate {
        c.board.set(over, None);
    }
    if !c.piece.king && land.0 == spec.promo_row(c.piece.color) {
        match spec.promo {
            Promo::EndsMove => {
                c.piece.king = true;
                c.promoted = true;
                c.stopped = true;
            }
            Promo::ContinuesAsKing => {
                c.piece.king = true;
                c.promoted = true;
            }
            Promo::OnlyAtEnd => {}
        }
    }
    c
}

fn finish(spec: &Spec, st: St) -> NMove {
    let mut b = st.board;
    let mut piece = st.piece;
    let mut promoted = st.promoted;
    if !piece.king && st.at.0 == spec.promo_row(piece.color) {
        piece.king = true;
        promoted = true;
    }
    if !spec.lasca && !spec.immediate {
        for &sq in &st.caps {
            b.set(sq, None);
        }
    }
    b.set(st.at, Some(piece));
    if spec.lasca {
        *b.under_mut(st.at) = st.column;
    }
    b.turn = b.turn.opposite();
    NMove {
        from: st.from,
        to: st.at,
        caps: st.caps,
        taken: st.taken,
        mover_king: st.mover_king,
        promotes: promoted,
        after: b,
    }
}

fn extend(spec: &Spec, st: St, out: &mut Vec<NMove>) {
    if st.stopped {
        out.push(finish(spec, st));
        return;
    }
    let js = jumps(spec, &st);
    if !js.is_empty() && st.promoted {
        note(Event::CrownedAndGoesOn);
    }
    if !js.is_empty() && !st.piece.king && st.at.0 == spec.promo_row(st.piece.color) {
        note(Event::CrossesLastRow);
    }
    if js.is_empty() {
        if !st.caps.is_empty() {
            out.push(finish(spec, st));
        }
        return;
    }
    for j in js {
        let mut children: Vec<St> =
            j.lands.iter().map(|&l| apply(spec, &st, j.over, l, j.dir)).collect();
        // Russian king landing: if the king can capture further from some of the squares
        // behind the captured piece, it must land on one of those.
        if st.piece.king && spec.king_capture == KingCapture::Flying && children.len() > 1 {
            let goes_on: Vec<bool> = children.iter().map(|c| !jumps(spec, c).is_empty()).collect();
            if goes_on.iter().any(|&g| g) {
                if goes_on.iter().any(|&g| !g) {
                    note(Event::Landing);
                }
                children =
                    children.into_iter().zip(goes_on).filter(|(_, g)| *g).map(|(c, _)| c).collect();
            }
        }
        for c in children {
            extend(spec, c, out);
        }
    }
}

/// The key that ranks capture sequences under the rule set's capture choice (higher wins).
fn rank(spec: &Spec, m: &NMove) -> (i64, i64, i64, i64) {
    let n = m.caps.len() as i64;
    let kings = m.taken.iter().filter(|p| p.king).count() as i64;
    let by_king = m.mover_king as i64;
    match spec.choice {
        Choice::Free | Choice::KingFirst => (0, 0, 0, 0),
        Choice::MostPieces => (n, 0, 0, 0),
        Choice::Spanish => (n, kings, 0, 0),
        Choice::Italian => {
            let first = m.taken.iter().position(|p| p.king).map(|i| -(i as i64)).unwrap_or(0);
            (n, by_king, kings, first)
        }
        Choice::FrisianValue => (100 * (n - kings) + 199 * kings, by_king, 0, 0),
    }
}

/// Every legal move of the side to move (routes of the same move not yet merged).
pub fn legal_moves(spec: &Spec, b: &Board, run: Run) -> Vec<NMove> {
    let color = b.turn;
    let mut squares = Vec::new();
    for r in 0..spec.h {
        for c in 0..spec.w {
            if let Some(p) = b.get((r, c))
                && p.color == color
            {
                squares.push(((r, c), p));
            }
        }
    }
    let mut caps = Vec::new();
    for &(sq, p) in &squares {
        let mut board = b.clone();
        board.set(sq, None);
        let column = if spec.lasca { std::mem::take(board.under_mut(sq)) } else { Vec::new() };
        let st = St {
            board,
            jumped: [[false; 12]; 12],
            from: sq,
            at: sq,
            piece: p,
            mover_king: p.king,
            promoted: false,
            stopped: false,
            caps: Vec::new(),
            taken: Vec::new(),
            last: None,
            column,
        };
        extend(spec, st, &mut caps);
    }
    if !caps.is_empty() {
        if spec.choice == Choice::KingFirst && caps.iter().any(|m| m.mover_king) {
            if caps.iter().any(|m| !m.mover_king) {
                note(Event::KingMustCapture);
            }
            caps.retain(|m| m.mover_king);
        }
        let best = caps.iter().map(|m| rank(spec, m)).max().unwrap_or_default();
        let most = caps.iter().map(|m| m.caps.len()).max().unwrap_or_default();
        let parts = |r: (i64, i64, i64, i64)| [r.0, r.1, r.2, r.3];
        let b = parts(best);
        for (level, e) in
            [Event::Choice, Event::Choice2, Event::Choice3, Event::Choice4].into_iter().enumerate()
        {
            if caps.iter().any(|m| {
                let p = parts(rank(spec, m));
                p[..level] == b[..level] && p[level] != b[level]
            }) {
                note(e);
            }
        }
        caps.retain(|m| rank(spec, m) == best);
        if spec.choice == Choice::FrisianValue && caps.iter().all(|m| m.caps.len() < most) {
            note(Event::ValueNotCount);
        }
        return caps;
    }
    let mut out = Vec::new();
    let limited_king = match run {
        Some((sq, n)) if spec.king_limit && n >= 3 && b.has_men(color) => Some(sq),
        _ => None,
    };
    for &(sq, p) in &squares {
        if p.king && limited_king == Some(sq) {
            note(Event::KingLimit);
            continue;
        }
        let (dirs, reach) = if p.king {
            (spec.king_steps.clone(), spec.king_flying)
        } else {
            (orient(&spec.man_steps, color), false)
        };
        for d in dirs {
            let mut k = 1;
            loop {
                let to = add(sq, d, k);
                if !spec.playable(to) || b.get(to).is_some() {
                    break;
                }
                let mut after = b.clone();
                after.set(sq, None);
                let promotes = !p.king && to.0 == spec.promo_row(color);
                after.set(to, Some(P { color, king: p.king || promotes }));
                if spec.lasca {
                    let col = std::mem::take(after.under_mut(sq));
                    *after.under_mut(to) = col;
                }
                after.turn = color.opposite();
                out.push(NMove {
                    from: sq,
                    to,
                    caps: Vec::new(),
                    taken: Vec::new(),
                    mover_king: p.king,
                    promotes,
                    after,
                });
                if !reach {
                    break;
                }
                k += 1;
            }
        }
    }
    out
}

/// The Frisian run of the side that just made `m` (its previous run being `run`).
pub fn next_run(run: Run, m: &NMove) -> Run {
    if !m.caps.is_empty() || !m.mover_king {
        return None;
    }
    match run {
        Some((sq, n)) if sq == m.from => Some((m.to, n + 1)),
        _ => Some((m.to, 1)),
    }
}

/// Leaf count with the naive generator (routes of one move merged as docs/rules/README.md says).
pub fn perft(spec: &Spec, b: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = distinct(spec, legal_moves(spec, b, None));
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|m| perft(spec, &m.after, depth - 1)).sum()
}

/// Identity of a move (docs/rules/README.md, "What a move is": same start, end, captured set
/// and resulting position). The position after a move is fixed by these and, in Lasca, by the
/// moving column, whose order follows the order of captures: two routes taking equal pieces in
/// another order give the same column and so are the same move.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub struct Key {
    pub from: Rc,
    pub to: Rc,
    pub caps: Vec<Rc>,
    pub promotes: bool,
    /// Lasca: the moving column under its top after the move (just under the top first).
    pub column: Vec<(bool, bool)>,
}

pub fn key(spec: &Spec, m: &NMove) -> Key {
    let mut caps = m.caps.clone();
    caps.sort();
    let column = if spec.lasca { column_key(m.after.under(m.to)) } else { Vec::new() };
    Key { from: m.from, to: m.to, caps, promotes: m.promotes, column }
}

/// A column as comparable data: (black, crowned) per piece.
pub fn column_key(col: &[P]) -> Vec<(bool, bool)> {
    col.iter().map(|p| (p.color == Color::Black, p.king)).collect()
}

/// Drops routes of the same move. Routes of one move must reach the same position.
pub fn distinct(spec: &Spec, moves: Vec<NMove>) -> Vec<NMove> {
    let mut seen: std::collections::BTreeMap<Key, NMove> = std::collections::BTreeMap::new();
    for m in moves {
        let k = key(spec, &m);
        if let Some(prev) = seen.get(&k) {
            assert_eq!(prev.after, m.after, "two routes of {k:?} reach different positions");
        } else {
            seen.insert(k, m);
        }
    }
    seen.into_values().collect()
}
