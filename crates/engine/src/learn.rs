//! Learning the draughts evaluation ([`crate::eval::learned`]) from doska's own games:
//! self-play at a small node budget from random openings, every quiet position labelled with
//! the game's result (and walks off the games' lines labelled by search, [`explore`]), and
//! the weights fitted by logistic regression (Texel tuning). The same
//! for Ugolki ([`crate::eval::ugolki_learned`]), with the positions before the armies have
//! passed each other. A small network on top of the learned weights is fitted to the same
//! positions ([`fit_net`], [`crate::eval::net`]).

use crate::eval::{Terms, draughts, learned, race, ugolki, ugolki_learned};
use crate::node::{DraughtsNode, End, Node, mix};
use crate::search::{Limits, Searcher};
use doska_rules::fen::Counters;
use doska_rules::ugolki::{UgolkiMove, UgolkiPosition, UgolkiRules};
use doska_rules::variant::Variant;
use doska_rules::{Color, Move, Position};
use std::collections::HashMap;

mod network;
pub use network::{NetFit, NetPlan, fit_net};

/// How the games are played.
#[derive(Clone, Copy, Debug)]
pub struct Selfplay {
    /// Games to play.
    pub games: usize,
    /// Nodes a move.
    pub nodes: u64,
    /// Uniformly random plies at the start of each game (the first of them from 0 up to this
    /// many more, so that openings spread).
    pub random_plies: u32,
    /// Threads to play on.
    pub threads: usize,
    /// Seed of the random openings.
    pub seed: u64,
    /// The evaluation the players use.
    pub terms: Terms,
}

/// The first line of a file of saved positions, before the rule set's name.
const POSITIONS_HEADER: &str = "# doska learn positions: ";

/// Positions with their features and labels.
#[derive(Debug, Default)]
pub struct Data {
    /// Features of every position, back to back (`start[i]..start[i + 1]`).
    index: Vec<u32>,
    value: Vec<f32>,
    start: Vec<usize>,
    /// The game's result from White's view: 1, 0.5 or 0.
    label: Vec<f32>,
    /// The hand-set evaluation from White's view (for the scale and the comparison).
    hand: Vec<i32>,
    /// The players' search score from White's view (a part of the label where the fit is
    /// asked for it: `result_share`).
    searched: Vec<i32>,
    /// The number of the game each position comes from.
    game: Vec<u32>,
    /// Draughts: each position in FEN, so that the games can be saved and fitted again
    /// ([`Data::save`], [`Data::load`]).
    fens: Vec<String>,
    /// Game results: White wins, draws, Black wins.
    pub results: [usize; 3],
}

impl Data {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.label.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.label.is_empty()
    }

    fn push(&mut self, pos: &Position, searched: i32, game: u64, result: f32) {
        let white = |score: i32| if pos.turn() == Color::White { score } else { -score };
        self.push_white(pos, white(searched), game, result);
    }

    /// [`Data::push`] with the search score already from White's view.
    fn push_white(&mut self, pos: &Position, searched: i32, game: u64, result: f32) {
        let white = |score: i32| if pos.turn() == Color::White { score } else { -score };
        let hand = white(draughts::evaluate(pos, &Terms { learned: false, ..Terms::ALL }));
        let visit = |f: &mut dyn FnMut(usize, i32)| learned::layout(pos.variant()).visit(pos, f);
        self.push_features(visit, hand, searched, game, result);
        self.fens.push(pos.to_fen());
    }

    /// The draughts positions as text, to fit again without playing the games
    /// (`doska learn --save-positions`): a header naming the rule set, then a line a position:
    /// its FEN, the players' search score and the game's result from White's view (1, 0.5,
    /// 0; `-` for a position off the games' lines, [`explore`]), and the game's number,
    /// separated by tabs. The features are not saved: [`Data::load`]
    /// computes them with the layout of its build, so a changed layout can be fitted to the
    /// same games.
    pub fn save(&self, v: Variant) -> Result<String, String> {
        if self.fens.len() != self.len() {
            return Err(
                "only draughts positions can be saved (Ugolki's are not kept as FEN)".into()
            );
        }
        let mut out = format!("{POSITIONS_HEADER}{v}\n");
        for i in 0..self.len() {
            let (fen, searched, label, game) =
                (&self.fens[i], self.searched[i], self.label[i], self.game[i]);
            let result = if label == OFF_LINE { "-".to_string() } else { label.to_string() };
            out.push_str(&format!("{fen}\t{searched}\t{result}\t{game}\n"));
        }
        Ok(out)
    }

    /// Reads what [`Data::save`] wrote for rule set `v`; says which line is wrong and why.
    pub fn load(v: Variant, text: &str) -> Result<Data, String> {
        let mut lines = text.lines();
        let header = lines.next().unwrap_or("");
        let name = header.strip_prefix(POSITIONS_HEADER).ok_or_else(|| {
            format!("not a file of doska learn positions (its first line is not {POSITIONS_HEADER:?}<rule set>)")
        })?;
        if name != v.to_string() {
            return Err(format!("the positions are {name}'s, not {v}'s"));
        }
        let mut data = Data::default();
        let mut games: HashMap<u32, f32> = HashMap::new();
        for (n, line) in lines.enumerate() {
            let at = n + 2;
            let fields: Vec<&str> = line.split('\t').collect();
            let [fen, searched, label, game] = fields[..] else {
                return Err(format!(
                    "line {at}: {} fields; a position's line is FEN, search score, result, game, tab-separated",
                    fields.len()
                ));
            };
            let pos = Position::from_fen(v, fen).map_err(|e| format!("line {at}: {e}"))?;
            let searched: i32 = searched.parse().map_err(|_| {
                format!("line {at}: search score {searched:?} is not a whole number")
            })?;
            let label: f32 = match label {
                "1" => 1.0,
                "0.5" => 0.5,
                "0" => 0.0,
                "-" => OFF_LINE,
                _ => {
                    return Err(format!(
                        "line {at}: result {label:?}; one of 1, 0.5 and 0 (White's), or - (a position off the games' lines)"
                    ));
                }
            };
            let game: u32 =
                game.parse().map_err(|_| format!("line {at}: game {game:?} is not a number"))?;
            if label != OFF_LINE && *games.entry(game).or_insert(label) != label {
                return Err(format!("line {at}: game {game} has two results"));
            }
            data.push_white(&pos, searched, game as u64, label);
        }
        for label in games.values() {
            data.results[if *label == 1.0 {
                0
            } else if *label == 0.5 {
                1
            } else {
                2
            }] += 1;
        }
        Ok(data)
    }

    fn push_ugolki(
        &mut self,
        pos: &UgolkiPosition,
        layout: &ugolki_learned::Layout,
        searched: i32,
        game: u64,
        result: f32,
    ) {
        let terms = Terms { learned: false, exact_race: false, ..Terms::ALL };
        let white = |score: i32| if pos.side_to_move() == Color::White { score } else { -score };
        let hand = white(ugolki::evaluate(pos, &terms));
        self.push_features(|f| layout.visit(pos, f), hand, white(searched), game, result);
    }

    /// Adds a position given by its features (`visit` calls its argument with each), the
    /// hand-set evaluation from White's view, the game's number and its result.
    fn push_features(
        &mut self,
        visit: impl FnOnce(&mut dyn FnMut(usize, i32)),
        hand: i32,
        searched: i32,
        game: u64,
        result: f32,
    ) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        visit(&mut |i, v| {
            self.index.push(i as u32);
            self.value.push(v as f32 / learned::ONE as f32);
        });
        self.start.push(self.index.len());
        self.label.push(result);
        self.hand.push(hand);
        self.searched.push(searched);
        self.game.push(game as u32);
    }

    /// Adds `other`'s positions, and its games' results, to these (the walks [`explore`] finds
    /// add positions and no games).
    pub fn append(&mut self, other: Data) {
        for i in 0..other.len() {
            if self.start.is_empty() {
                self.start.push(0);
            }
            let (a, b) = (other.start[i], other.start[i + 1]);
            self.index.extend_from_slice(&other.index[a..b]);
            self.value.extend_from_slice(&other.value[a..b]);
            self.start.push(self.index.len());
        }
        self.label.extend(other.label);
        self.hand.extend(other.hand);
        self.searched.extend(other.searched);
        self.game.extend(other.game);
        self.fens.extend(other.fens);
        for k in 0..3 {
            self.results[k] += other.results[k];
        }
    }

    /// Adds the positions of `other`, saved from other games ([`Data::load`] of another
    /// file): its games are numbered after these (each file numbers its own from 0).
    pub fn append_games(&mut self, mut other: Data) {
        let next = self.game.iter().max().map_or(0, |g| g + 1);
        for g in &mut other.game {
            *g += next;
        }
        self.append(other);
    }

    fn features(&self, i: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        (self.start[i]..self.start[i + 1]).map(|j| (self.index[j] as usize, self.value[j]))
    }
}

/// Plays the games and keeps every position where the side to move has no capture.
pub fn selfplay(v: Variant, plan: &Selfplay, progress: impl Fn(usize) + Sync) -> Data {
    play_all(plan, progress, |g, searcher, data| play_one(v, plan, g, searcher, data))
}

/// Plays Ugolki games under `rules` (a preset: the learned evaluation has a layout for
/// presets only) and keeps every position before the armies have passed each other (after
/// that the exact race scores them).
pub fn selfplay_ugolki(
    rules: UgolkiRules,
    plan: &Selfplay,
    progress: impl Fn(usize) + Sync,
) -> Result<Data, String> {
    let layout = ugolki_learned::layout(&rules).ok_or_else(ugolki_learned::not_a_preset)?;
    Ok(play_all(plan, progress, |g, searcher, data| {
        play_one_ugolki(rules, layout, plan, g, searcher, data)
    }))
}

/// Plays `plan.games` games on `plan.threads` threads, each by `play(game, searcher, data)`.
fn play_all(
    plan: &Selfplay,
    progress: impl Fn(usize) + Sync,
    play: impl Fn(u64, &mut Searcher, &mut Data) + Sync,
) -> Data {
    let threads = plan.threads.max(1);
    let done = std::sync::atomic::AtomicUsize::new(0);
    gather(threads, plan.terms, |t, searcher| {
        let mut data = Data::default();
        for g in (t..plan.games).step_by(threads) {
            play(g as u64, searcher, &mut data);
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(n);
        }
        data
    })
}

/// Runs `work(t, searcher)` for each thread `t` of `threads` side by side, each with its own
/// searcher of `terms`, and puts the positions they found together in the threads' order.
fn gather(
    threads: usize,
    terms: Terms,
    work: impl Fn(usize, &mut Searcher) -> Data + Sync,
) -> Data {
    let parts: Vec<Data> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let work = &work;
                s.spawn(move || work(t, &mut Searcher::new(8, terms)))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut all = Data::default();
    for p in parts {
        all.append(p);
    }
    all
}

/// The random number stream of one game, and the number of random plies it opens with.
fn game_rng(plan: &Selfplay, game: u64) -> (impl FnMut() -> u64, u32) {
    let mut rng = mix(plan.seed ^ mix(game + 1));
    let mut next = move || {
        rng = mix(rng.wrapping_add(0x9e37_79b9_7f4a_7c15));
        rng
    };
    let random = plan.random_plies + (next() % (plan.random_plies as u64 + 1)) as u32;
    (next, random)
}

/// The winner of a game that ended in `e` for the side `turn` to move (none: a draw).
fn winner_of(e: End, turn: Color) -> Option<Color> {
    match e {
        End::Win => Some(turn),
        End::Loss => Some(turn.opposite()),
        End::Draw => None,
    }
}

/// A game's label from White's view and its slot in [`Data::results`].
fn label(winner: Option<Color>) -> (f32, usize) {
    match winner {
        Some(Color::White) => (1.0, 0),
        None => (0.5, 1),
        Some(Color::Black) => (0.0, 2),
    }
}

fn play_one_ugolki(
    rules: UgolkiRules,
    layout: &ugolki_learned::Layout,
    plan: &Selfplay,
    game: u64,
    searcher: &mut Searcher,
    data: &mut Data,
) {
    let (mut next, random) = game_rng(plan, game);
    let mut pos = UgolkiPosition::start(rules);
    let mut keys: Vec<u64> = Vec::new();
    let mut kept: Vec<(UgolkiPosition, i32)> = Vec::new();
    let mut moves: Vec<UgolkiMove> = Vec::new();
    let mut plies = 0u32;
    let winner = loop {
        if let Some(e) = pos.end() {
            break winner_of(e, pos.side_to_move());
        }
        Node::legal(&pos, &mut moves);
        if moves.is_empty() {
            break None; // never: a side without a move passes
        }
        let mv = if plies < random {
            moves[(next() % moves.len() as u64) as usize]
        } else {
            let limits = Limits { nodes: Some(plan.nodes), ..Limits::default() };
            let out = searcher.search(&pos, &keys, limits, |_| {});
            if !race::separated(&pos) {
                kept.push((pos, out.score));
            }
            match out.best {
                Some(m) => m,
                None => break None,
            }
        };
        keys.push(pos.key());
        pos = Node::play(&pos, &mv);
        plies += 1;
    };
    let (label, slot) = label(winner);
    data.results[slot] += 1;
    for (p, score) in &kept {
        data.push_ugolki(p, layout, *score, game, label);
    }
}

fn play_one(v: Variant, plan: &Selfplay, game: u64, searcher: &mut Searcher, data: &mut Data) {
    let (mut next, random) = game_rng(plan, game);
    let mut node = DraughtsNode::new(Position::start(v), Counters::default(), 0);
    let mut keys: Vec<u64> = Vec::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    let mut kept: Vec<(Position, i32)> = Vec::new();
    let mut moves: Vec<Move> = Vec::new();
    let winner = loop {
        let turn = node.pos.turn();
        let to_move_wins = |e: End| winner_of(e, turn);
        if let Some(e) = node.end() {
            break to_move_wins(e);
        }
        // A position an installed endgame database holds ends the game with its exact value,
        // where the players' small searches could misplay a won ending or lose a drawn one:
        // every position before it is then labelled with the true result.
        if let Some((e, _)) = node.exact(&plan.terms) {
            break to_move_wins(e);
        }
        node.legal(&mut moves);
        if moves.is_empty() {
            break to_move_wins(node.stuck());
        }
        let key = node.key();
        let count = seen.entry(key).or_default();
        *count += 1;
        if *count >= 3 || node.plies >= 300 {
            break None;
        }
        let mv = if node.plies < random {
            moves[(next() % moves.len() as u64) as usize]
        } else {
            let limits = Limits { nodes: Some(plan.nodes), ..Limits::default() };
            let out = searcher.search(&node, &keys, limits, |_| {});
            if !node.pos.has_capture() {
                kept.push((node.pos.clone(), out.score));
            }
            match out.best {
                Some(m) => m,
                None => break to_move_wins(node.stuck()),
            }
        };
        keys.push(key);
        node = node.play(&mv);
    };
    let (label, slot) = label(winner);
    data.results[slot] += 1;
    for (p, score) in &kept {
        data.push(p, *score, game, label);
    }
}

/// The label of a position off the games' lines ([`explore`]): it has no game result, and is
/// fitted to its search score alone.
const OFF_LINE: f32 = -1.0;

/// How [`explore`] leaves the games' lines.
#[derive(Clone, Copy, Debug)]
pub struct Explore {
    /// Nodes of the search that labels each position found.
    pub nodes: u64,
    /// The most random plies a walk from a game's position takes (at least one).
    pub plies: u32,
    /// Walks from each game position, each its own.
    pub walks: usize,
    /// Threads to search on.
    pub threads: usize,
}

/// Positions off the games' lines, where a search goes and the games do not: from every
/// game position of `data`, `plan.walks` walks of 1 to `plan.plies` random legal moves (then
/// on through any captures, by random ones, to a quiet position), each labelled by a search
/// of the hand-set evaluation at `plan.nodes`. The games' positions alone leave rare states (a man through on
/// a full board, a king early) to extrapolation, and the search finds them at every move.
pub fn explore(v: Variant, data: &Data, plan: &Explore, progress: impl Fn(usize) + Sync) -> Data {
    let threads = plan.threads.max(1);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let terms = Terms { learned: false, ..Terms::ALL };
    gather(threads, terms, |t, searcher| {
        let mut out = Data::default();
        let mut moves: Vec<Move> = Vec::new();
        for j in (t..data.len() * plan.walks).step_by(threads) {
            let (i, k) = (j % data.len(), (j / data.len()) as u64);
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if n.is_multiple_of(1000) {
                progress(n);
            }
            if data.label[i] == OFF_LINE {
                continue; // a walk goes from the games' positions only
            }
            let Ok(mut pos) = Position::from_fen(v, &data.fens[i]) else { continue };
            let mut rng = mix(0x5eed ^ mix(i as u64 + 1) ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let walk = 1 + (rng % plan.plies.max(1) as u64) as u32;
            let mut ply = 0;
            let quiet = loop {
                pos.legal_moves_into(&mut moves);
                if moves.is_empty() || ply > walk + 8 {
                    break false;
                }
                if ply >= walk && !pos.has_capture() {
                    break true;
                }
                rng = mix(rng.wrapping_add(0x9e37_79b9_7f4a_7c15));
                pos = pos.play(&moves[(rng % moves.len() as u64) as usize]);
                ply += 1;
            };
            if !quiet {
                continue;
            }
            let score = search_alone(searcher, &pos, plan.nodes);
            if score.abs() >= crate::search::WIN_BOUND {
                continue;
            }
            out.push(&pos, score, data.game[i] as u64, OFF_LINE);
        }
        out
    })
}

/// The score for the side to move of a search of `nodes` nodes from `pos` taken alone (no
/// game before it: no repetitions, fresh counters), as [`explore`] and [`rescore`] label
/// positions.
fn search_alone(searcher: &mut Searcher, pos: &Position, nodes: u64) -> i32 {
    let node = DraughtsNode::new(pos.clone(), Counters::default(), 0);
    let limits = Limits { nodes: Some(nodes), ..Limits::default() };
    searcher.search(&node, &[], limits, |_| {}).score
}

/// How [`rescore`] searches the positions again.
#[derive(Clone, Copy, Debug)]
pub struct Rescore {
    /// Nodes of each position's new search.
    pub nodes: u64,
    /// Every this many positions one is kept and searched (1: all).
    pub every: usize,
    /// Threads to search on.
    pub threads: usize,
    /// The evaluation the new searches use.
    pub terms: Terms,
}

/// Every `plan.every`th position of `data` (in the order they were played), its search score
/// replaced by a new search of `plan.terms` at `plan.nodes`: labels from a deeper search than
/// the players made at their small budget. Each position keeps its game's result (or its
/// mark as off the games' lines). Each thread searches a run of consecutive positions, so
/// the order is kept and the same thread count gives the same scores.
pub fn rescore(v: Variant, data: &Data, plan: &Rescore, progress: impl Fn(usize) + Sync) -> Data {
    let threads = plan.threads.max(1);
    let every = plan.every.max(1);
    let chosen: Vec<usize> = (0..data.len()).step_by(every).collect();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let mut all = gather(threads, plan.terms, |t, searcher| {
        let mut out = Data::default();
        let (from, to) = (t * chosen.len() / threads, (t + 1) * chosen.len() / threads);
        for &i in &chosen[from..to] {
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if n.is_multiple_of(1000) {
                progress(n);
            }
            let Ok(pos) = Position::from_fen(v, &data.fens[i]) else { continue };
            let score = search_alone(searcher, &pos, plan.nodes);
            out.push(&pos, score, data.game[i] as u64, data.label[i]);
        }
        out
    });
    all.results = data.results;
    all
}

impl Data {
    /// How many positions are off the games' lines.
    pub fn off_line(&self) -> usize {
        self.label.iter().filter(|l| **l == OFF_LINE).count()
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean log loss of predictions `p` against labels.
fn log_loss(p: impl Iterator<Item = (f64, f64)>) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for (p, y) in p {
        let p = p.clamp(1e-9, 1.0 - 1e-9);
        sum -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        n += 1;
    }
    sum / n.max(1) as f64
}

/// What fitting found.
#[derive(Debug)]
pub struct Fit {
    /// The weights, in the evaluation's units (1/16 of a hundredth of a man; Ugolki: of the
    /// hand-set evaluation's unit, a tenth of a step).
    pub weights: Vec<i32>,
    /// Evaluation units per unit of the logistic's argument that best turns the hand-set
    /// evaluation's scores into results.
    pub scale: f64,
    /// The units of the players' search scores per unit of the logistic's argument that
    /// turned them into chances of winning (see [`SearchScale`]).
    pub search_scale: f64,
    /// The same for the learned evaluation (draughts: its weights are scaled so that a man on
    /// a full board is worth 100 on average; Ugolki: the hand-set evaluation's scale).
    pub per_unit: f64,
    /// Log loss on the held-out positions (draughts: every 20th; Ugolki: those of every 20th
    /// game): the hand-set evaluation's and the learned one's; none when nothing was held
    /// out (an Ugolki fit of fewer than 20 games).
    pub held_out: Option<(f64, f64)>,
    /// Log loss of the learned evaluation on the positions it was fitted to.
    pub train: f64,
    /// Draughts: the mean value of a man and of a king on a full board, in hundredths of a
    /// man.
    pub piece_means: Option<(f64, f64)>,
    /// The units the weights were written in: those asked for, or the hand-set scale where
    /// a man was asked for and the fit's man on a full board is worth nothing or less.
    pub units: Units,
    /// The weights held at zero for [`FitPlan::min_count`]: their features occur too seldom in
    /// the fitted positions.
    pub rare: usize,
}

/// What a draughts fit learns of the material.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Material {
    /// The pieces' worth is fitted with the rest.
    Learned,
    /// The pieces' worth is held at the hand-set values ([`learned::Layout::material`]); only
    /// where they stand is fitted. Weak games' results can price a first king at many men
    /// (one that nobody catches at a shallow search decides the game), which a stronger
    /// opponent does not allow.
    HandSet,
}

/// In what units a draughts fit writes its weights. Neither suits every fit (measured:
/// bench/engines/RESULTS.md, 2026-12-01 fourth session); a weight beyond the file's 16 bits is
/// the sign of the wrong one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Units {
    /// A man on a full board is worth 100 on average, as in the hand-set evaluation, so the
    /// search's margins (in hundredths of a man) keep their meaning; every embedded file was
    /// made so. Where weak games' results hardly depend on a man on a full board (american and
    /// international fits half to search scores: 1,073 and 1,217 hundredths of a man per
    /// logistic unit, the hand-set 155 and 616) every other weight blows up.
    Man,
    /// The hand-set evaluation's: a learned score means the chance of winning that the same
    /// hand-set score means. Where the hand-set terms predict the games' results poorly (a
    /// wide scale: russian's 1,039) the weights blow up instead.
    HandSet,
    /// The learned scores spread as widely over the positions as the hand-set evaluation's
    /// (the same standard deviation): the search's margins cut as many moves as they did.
    /// For Poddavki, where neither anchor holds (its hand-set scores hardly predict the
    /// results, and a man's worth is not a unit of anything).
    Spread,
}

/// How the players' search scores become chances of winning, where a fit leans on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchScale {
    /// By the hand-set evaluation's scale (every file made before the sixteenth session).
    /// Right where the players searched with the hand-set terms or with weights in its
    /// units; where they searched with weights of another spread it flattens or sharpens
    /// the labels (russian's learned players: 67 hundredths of a man a logistic unit against
    /// the hand-set 880).
    HandSet,
    /// By the scale that best turns the search scores themselves into the games' results:
    /// each score means what the evaluation that made it means. The walks off the games'
    /// lines, searched with the hand-set terms, keep the hand-set scale.
    Searched,
}

/// How a fit's step size moves over its passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// The same step to the end (every file embedded before the cosine was made so): the
    /// last passes still shake the weights (a draughts fit's loss jumps by a few thousandths
    /// from pass to pass).
    Constant,
    /// The step falls from its start to nothing along half a cosine over the passes, so the
    /// last passes settle the weights. On the same positions it fits better: held out by
    /// whole games, international 0.5658 against 0.5691, canadian 0.5218 against 0.5275
    /// (bench/engines/RESULTS.md, 2026-12-01 sixth session).
    Cosine,
}

impl Schedule {
    /// The share of the first step taken at step `step` (from 1) of `steps`.
    fn share(self, step: usize, steps: usize) -> f64 {
        match self {
            Schedule::Constant => 1.0,
            Schedule::Cosine => {
                let t = step as f64 / steps.max(1) as f64;
                0.5 * (1.0 + (std::f64::consts::PI * t).cos())
            }
        }
    }
}

/// A fit's passes over the positions.
#[derive(Clone, Copy, Debug)]
pub struct Passes {
    /// How many.
    pub epochs: usize,
    /// How the step size moves over them.
    pub schedule: Schedule,
}

/// How a draughts fit is made.
#[derive(Clone, Copy, Debug)]
pub struct FitPlan {
    /// Passes over the positions.
    pub passes: Passes,
    /// The share of each position's label that is its game's result; the rest is its
    /// players' search score (1: the result alone).
    pub result_share: f64,
    /// How the search scores are turned into chances of winning.
    pub search_scale: SearchScale,
    /// What is learned of the material.
    pub material: Material,
    /// The units of the weights written.
    pub units: Units,
    /// A weight whose feature occurs fewer times than this in the fitted positions (each
    /// side's view counting apart: a pattern state both sides show in one position counts
    /// twice) is held at zero (0 or 1: every weight is fitted): a pattern state seen a handful
    /// of times is fitted to those few positions' noise, and a search finds such states and
    /// believes them.
    pub min_count: usize,
}

/// Fits the draughts weights to `data` (every 20th position held out to measure).
pub fn fit(v: Variant, data: &Data, plan: &FitPlan, progress: impl Fn(usize, f64)) -> Fit {
    let layout = learned::layout(v);
    let held = match plan.material {
        Material::Learned => Vec::new(),
        Material::HandSet => layout.material(),
    };
    let raw = fit_logistic(
        layout.len(),
        data,
        plan.passes,
        Holdout::Positions,
        Label { result_share: plan.result_share, search_scale: plan.search_scale },
        Held { at: &held, min_count: plan.min_count },
        progress,
    );
    // Poddavki's men are worth less than nothing: its scale is a man's worth in size.
    let man = layout.piece_means(&raw.w).0;
    let man = if v.rules().giveaway { -man } else { man };
    let (per_unit, units) = match plan.units {
        Units::Man if man > 1e-6 => (100.0 / man, Units::Man),
        Units::Man | Units::HandSet => (raw.scale, Units::HandSet),
        Units::Spread => (spread_scale(data, &raw.w), Units::Spread),
    };
    let mut fit = raw.scaled(per_unit);
    fit.units = units;
    let centi: Vec<f64> = raw.w.iter().map(|x| x * per_unit).collect();
    fit.piece_means = Some(layout.piece_means(&centi));
    fit
}

/// Hundredths of a man per logistic unit that give weights `w` (in logistic units) the
/// hand-set evaluation's spread over the positions of `data`.
fn spread_scale(data: &Data, w: &[f64]) -> f64 {
    let sd = |x: &mut dyn Iterator<Item = f64>| {
        let (mut n, mut sum, mut sq) = (0f64, 0f64, 0f64);
        for v in x {
            n += 1.0;
            sum += v;
            sq += v * v;
        }
        let mean = sum / n.max(1.0);
        (sq / n.max(1.0) - mean * mean).max(0.0).sqrt()
    };
    let hand = sd(&mut data.hand.iter().map(|&h| h as f64));
    let learned =
        sd(&mut (0..data.len())
            .map(|i| data.features(i).map(|(j, f)| w[j] * f as f64).sum::<f64>()));
    if learned > 1e-12 { hand / learned } else { 100.0 }
}

/// Fits the Ugolki weights for preset `rules` to `data`, in the hand-set evaluation's
/// units: a score means the same chance of winning in both. Every 20th game is held out.
/// Each position is fitted to `result_share` of its game's result and the rest of its
/// players' search score (1: the result alone).
pub fn fit_ugolki(
    rules: &UgolkiRules,
    data: &Data,
    passes: Passes,
    result_share: f64,
    progress: impl Fn(usize, f64),
) -> Result<Fit, String> {
    let layout = ugolki_learned::layout(rules).ok_or_else(ugolki_learned::not_a_preset)?;
    let label = Label { result_share, search_scale: SearchScale::HandSet };
    let raw = fit_logistic(layout.len(), data, passes, Holdout::Games, label, Held::NONE, progress);
    let scale = raw.scale;
    Ok(raw.scaled(scale))
}

/// What each position is fitted to.
#[derive(Clone, Copy)]
struct Label {
    result_share: f64,
    search_scale: SearchScale,
}

/// The weights a fit holds rather than fits.
#[derive(Clone, Copy)]
struct Held<'a> {
    /// Each at its value, in the hand-set evaluation's units.
    at: &'a [(usize, f64)],
    /// At zero, each whose feature occurs fewer times than this ([`FitPlan::min_count`]).
    min_count: usize,
}

impl Held<'_> {
    /// Every weight fitted.
    const NONE: Held<'static> = Held { at: &[], min_count: 0 };
}

/// Weights in units of the logistic's argument, with what the fit measured.
struct Raw {
    w: Vec<f64>,
    scale: f64,
    /// The scale that turned the players' search scores into chances.
    search_scale: f64,
    held_out: Option<(f64, f64)>,
    train: f64,
    /// The weights held at zero: their features occur fewer times than asked.
    rare: usize,
}

impl Raw {
    /// The fit with the weights in evaluation units, `per_unit` of them a logistic unit.
    fn scaled(&self, per_unit: f64) -> Fit {
        let weights = self
            .w
            .iter()
            .map(|x| (x * per_unit * learned::WEIGHT_UNIT as f64).round() as i32)
            .collect();
        Fit {
            weights,
            scale: self.scale,
            search_scale: self.search_scale,
            per_unit,
            held_out: self.held_out,
            train: self.train,
            piece_means: None,
            units: Units::HandSet,
            rare: self.rare,
        }
    }
}

/// Which positions are held out of a fit to measure it.
#[derive(Clone, Copy)]
enum Holdout {
    /// Every 20th position (the draughts files were made so). Positions of one game share
    /// its result, so a held-out position's neighbours were fitted: the figure flatters a
    /// fit with many weights.
    Positions,
    /// Every position of every 20th game: an honest figure for a fit with many weights.
    Games,
}

/// Positions a step of the fit.
const BATCH: usize = 1024;

/// Logistic regression of the results on `len` features (a 20th held out); the weights that
/// `hold` names stay at their values (in the hand-set evaluation's units), the rare ones at
/// zero.
fn fit_logistic(
    len: usize,
    data: &Data,
    passes: Passes,
    holdout: Holdout,
    label: Label,
    hold: Held<'_>,
    progress: impl Fn(usize, f64),
) -> Raw {
    let n = data.len();
    let held = |i: usize| match holdout {
        Holdout::Positions => i % 20 == 19,
        Holdout::Games => data.game[i] % 20 == 19,
    };
    // Positions off the games' lines have no result: they take no part in the scale or the
    // measures, only in the fit. The rest are measured on the fitted side and the held-out one.
    let on_line = |i: &usize| data.label[*i] != OFF_LINE;
    let (fitted, held_out): (Vec<usize>, Vec<usize>) =
        (0..n).filter(on_line).partition(|i| !held(*i));
    let loss_over = |set: &[usize], p: &dyn Fn(usize) -> f64| {
        log_loss(set.iter().map(|&i| (p(i), data.label[i] as f64)))
    };
    // The hand-set evaluation's scale: the K that best turns its scores into results; the
    // search scores' the same way, where they are read by their own.
    let scale = best_scale(2000.0, |k| loss_over(&fitted, &|i| sigmoid(data.hand[i] as f64 / k)));
    let search_scale = match label.search_scale {
        // Fitted to the results alone, no search score becomes a label.
        _ if label.result_share >= 1.0 => scale,
        SearchScale::HandSet => scale,
        SearchScale::Searched => {
            best_scale(20_000.0, |k| loss_over(&fitted, &|i| sigmoid(data.searched[i] as f64 / k)))
        }
    };
    // What each position is fitted to: the game's result, or that share of it and the rest
    // the players' search score turned into a chance (the walks', searched with the hand-set
    // terms, by the hand-set scale).
    let result_share = label.result_share;
    let target = |i: usize| {
        let result = data.label[i] as f64;
        if data.label[i] == OFF_LINE {
            sigmoid(data.searched[i] as f64 / scale)
        } else if result_share >= 1.0 {
            result
        } else {
            let searched = sigmoid(data.searched[i] as f64 / search_scale);
            result_share * result + (1.0 - result_share) * searched
        }
    };
    // Adam over shuffled mini-batches, the weights in units of the logistic's argument.
    let mut w = vec![0f64; len];
    let mut fixed = vec![false; len];
    for &(j, value) in hold.at {
        w[j] = value / scale;
        fixed[j] = true;
    }
    let mut order: Vec<usize> = (0..n).filter(|i| !held(*i)).collect();
    let mut rare = 0;
    if hold.min_count > 1 {
        let mut seen = vec![0usize; len];
        for &i in &order {
            for (j, _) in data.features(i) {
                seen[j] += 1;
            }
        }
        for (j, &count) in seen.iter().enumerate() {
            if count < hold.min_count && !fixed[j] {
                w[j] = 0.0;
                fixed[j] = true;
                rare += 1;
            }
        }
    }
    let (mut m, mut s) = (vec![0f64; len], vec![0f64; len]);
    let (b1, b2, first_step, eps, l2): (f64, f64, f64, f64, f64) = (0.9, 0.999, 0.01, 1e-8, 1e-6);
    let steps = passes.epochs * order.len().div_ceil(BATCH);
    let mut step = 0i32;
    let mut grad = vec![0f64; len];
    let mut touched: Vec<usize> = Vec::new();
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    for epoch in 0..passes.epochs {
        for i in (1..order.len()).rev() {
            rng = mix(rng.wrapping_add(i as u64));
            order.swap(i, (rng % (i as u64 + 1)) as usize);
        }
        for batch in order.chunks(BATCH) {
            for &i in batch {
                let x: f64 = data.features(i).map(|(j, f)| w[j] * f as f64).sum();
                let err = sigmoid(x) - target(i);
                for (j, f) in data.features(i) {
                    if grad[j] == 0.0 {
                        touched.push(j);
                    }
                    grad[j] += err * f as f64;
                }
            }
            step += 1;
            let lr = first_step * passes.schedule.share(step as usize, steps);
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            for &j in &touched {
                if fixed[j] {
                    grad[j] = 0.0;
                    continue;
                }
                let g = grad[j] / batch.len() as f64 + l2 * w[j];
                m[j] = b1 * m[j] + (1.0 - b1) * g;
                s[j] = b2 * s[j] + (1.0 - b2) * g * g;
                w[j] -= lr * (m[j] / c1) / ((s[j] / c2).sqrt() + eps);
                grad[j] = 0.0;
            }
            touched.clear();
        }
        let loss = log_loss(order.iter().filter(|i| on_line(i)).take(50_000).map(|&i| {
            (sigmoid(data.features(i).map(|(j, f)| w[j] * f as f64).sum()), data.label[i] as f64)
        }));
        progress(epoch + 1, loss);
    }
    let predict = |i: usize| sigmoid(data.features(i).map(|(j, f)| w[j] * f as f64).sum());
    let measured = (!held_out.is_empty()).then(|| {
        let hand = |i: usize| sigmoid(data.hand[i] as f64 / scale);
        (loss_over(&held_out, &hand), loss_over(&held_out, &predict))
    });
    let train = loss_over(&fitted, &predict);
    Raw { w, scale, search_scale, held_out: measured, train, rare }
}

/// The K from 1 to `most` at which `loss(K)` is least (a ternary search: the log loss of
/// scores divided by K is unimodal in K).
fn best_scale(most: f64, loss: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (1.0f64, most);
    for _ in 0..60 {
        let (a, b) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::{Data, Rescore, Schedule, Selfplay, rescore, selfplay};
    use crate::Terms;
    use doska_rules::variant::Variant;

    #[test]
    fn rescoring_keeps_one_position_in_so_many_in_order_with_its_result() {
        let v = Variant::Russian;
        let terms = Terms { learned: false, ..Terms::ALL };
        let plan = Selfplay { games: 4, nodes: 100, random_plies: 2, threads: 1, seed: 7, terms };
        let data = selfplay(v, &plan, |_| {});
        let plan = Rescore { nodes: 2_000, every: 3, threads: 2, terms };
        let again = rescore(v, &data, &plan, |_| {});
        assert_eq!(again.len(), data.len().div_ceil(3));
        assert_eq!(again.results, data.results);
        for (k, i) in (0..data.len()).step_by(3).enumerate() {
            assert_eq!(again.fens[k], data.fens[i]);
            assert_eq!((again.label[k], again.game[k]), (data.label[i], data.game[i]));
            assert_eq!(again.hand[k], data.hand[i]);
        }
        // Searched twenty times deeper, some scores change (a search of 100 nodes hardly
        // sees past its first plies).
        let moved = (0..again.len()).filter(|&k| again.searched[k] != data.searched[k * 3]);
        assert!(moved.count() > 0);
        // Saved and read back: the same positions with the new scores.
        let back = Data::load(v, &again.save(v).unwrap()).unwrap();
        assert_eq!(back.searched, again.searched);
    }

    #[test]
    fn the_cosine_step_falls_from_the_whole_step_to_nothing() {
        let shares: Vec<f64> = (1..=100).map(|s| Schedule::Cosine.share(s, 100)).collect();
        assert!(shares[0] > 0.999, "{}", shares[0]);
        assert!((shares[49] - 0.5).abs() < 1e-9, "{}", shares[49]);
        assert!(shares[99].abs() < 1e-12, "{}", shares[99]);
        assert!(shares.windows(2).all(|w| w[1] < w[0]));
        assert!((1..=100).all(|s| Schedule::Constant.share(s, 100) == 1.0));
    }
}
