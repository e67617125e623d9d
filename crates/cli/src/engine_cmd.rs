//! `doska analyze`, `doska play`, `doska bench`, `doska match`: the engine from the command
//! line.

use anyhow::{Context, Result, bail};
use clap::Args;
use doska_engine::eval::net;
use doska_engine::node::{REDUCED, TRUNCATED};
use doska_engine::{
    DraughtsNode, Features, Level, Limits, Node, Searcher, Terms, choose_with, choose_with_terms,
};
use doska_rules::ugolki::UgolkiPosition;
use doska_rules::{AnyGame, Color, RuleSet, Variant};
use serde::Serialize;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// `doska analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Rule set (as for `doska perft`).
    #[arg(long)]
    variant: String,
    /// Position to analyse (default: the start).
    #[arg(long)]
    fen: Option<String>,
    /// Think this many milliseconds.
    #[arg(long, conflicts_with = "depth")]
    movetime: Option<u64>,
    /// Search to this depth.
    #[arg(long)]
    depth: Option<u32>,
    /// Evaluate like this level (default: insane, every term).
    #[arg(long, default_value = "insane")]
    level: Level,
    /// Threads for a timed search (a depth-limited one uses one, to stay deterministic).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Evaluation terms and search techniques to go without, comma-separated (as for `doska
    /// match --a-without`): to measure a change against a peer in one build.
    #[arg(long, value_name = "NAMES", default_value = "")]
    without: String,
    /// A learned evaluation's weights file (`doska learn --out`) to evaluate with instead of
    /// the build's (made for this rule set, or for one on the same board): a fit's nodes,
    /// speed and choices before it is embedded.
    #[arg(long, value_name = "FILE")]
    weights: Option<std::path::PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Endgame databases.
    #[command(flatten)]
    pub(crate) egdb: crate::egdb_cmd::EgdbDir,
    /// Show the best N lines (every root move is then searched with a full window, which
    /// costs some depth).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    multipv: u16,
}

#[derive(Serialize)]
struct LineJson {
    /// Engine points for the side to move (hundredths of a man; Ugolki: tenths of a move).
    score: i32,
    /// The same in `unit`s (men, or race moves for Ugolki), clamped to ±10 (a forced win).
    value: f64,
    depth: u32,
    pv: Vec<String>,
}

#[derive(Serialize)]
struct AnalysisJson {
    variant: String,
    fen: String,
    best: Option<String>,
    score: i32,
    pv: Vec<String>,
    depth: u32,
    nodes: u64,
    seconds: f64,
    /// `man` or `race-move`: what a line's `value` counts.
    unit: &'static str,
    lines: Vec<LineJson>,
    /// The exact value from an endgame database, where the position is in one.
    #[serde(skip_serializing_if = "Option::is_none")]
    egdb: Option<EgdbJson>,
}

/// An endgame database's value of the position, for the side to move.
#[derive(Serialize)]
struct EgdbJson {
    /// `win`, `loss` or `draw`.
    result: &'static str,
    /// Plies to the end with best play (0 for a draw).
    plies: u16,
}

fn egdb_json(game: &AnyGame) -> Option<EgdbJson> {
    let AnyGame::Draughts(g) = game else { return None };
    Some(match doska_engine::egdb::probe(g.position())? {
        doska_engine::egdb::Value::Win(d) => EgdbJson { result: "win", plies: d },
        doska_engine::egdb::Value::Loss(d) => EgdbJson { result: "loss", plies: d },
        doska_engine::egdb::Value::Draw => EgdbJson { result: "draw", plies: 0 },
    })
}

/// The draughts rule set of a game, if it is one.
fn draughts_variant(game: &AnyGame) -> Option<Variant> {
    match game.rules() {
        RuleSet::Draughts(v) => Some(v),
        RuleSet::Ugolki(_) => None,
    }
}

fn game_from(variant: &str, fen: Option<&str>) -> Result<AnyGame> {
    let rules: RuleSet = variant.parse()?;
    Ok(match fen {
        Some(f) => AnyGame::import(f, rules).context("reading the position")?,
        None => AnyGame::new(rules),
    })
}

/// Runs `doska analyze`.
pub fn analyze(a: &AnalyzeArgs) -> Result<()> {
    let game = game_from(&a.variant, a.fen.as_deref())?;
    a.egdb.install(draughts_variant(&game))?;
    if game.outcome().is_some() {
        bail!("the game is already over in this position");
    }
    let limits = Limits {
        depth: a.depth,
        nodes: None,
        movetime: a.movetime.map(Duration::from_millis).or(if a.depth.is_none() {
            Some(Duration::from_secs(1))
        } else {
            None
        }),
    };
    let mut player = Player::new(a.level, &a.without, a.threads)?;
    player.read_weights(a.weights.as_deref(), Some(game.rules()))?;
    if let Some(note) = Player::inert_note(&a.without, game.rules()) {
        eprintln!("{note}");
    }
    let mut searcher = Searcher::new(64, player.terms);
    searcher.set_threads(a.threads);
    searcher.set_features(player.features);
    let started = Instant::now();
    let json = a.json;
    let lines = usize::from(a.multipv);
    let result = doska_engine::analyze_lines(&mut searcher, &game, limits, lines, |r| {
        if !json {
            outln!(
                "depth {:>2}  score {:>6}  nodes {:>10}  {:>6} ms  pv {}",
                r.depth,
                r.score,
                r.nodes,
                r.elapsed.as_millis(),
                r.pv.join(" ")
            );
        }
    });
    let depth = result.depth;
    let out = AnalysisJson {
        lines: result
            .lines
            .iter()
            .map(|l| LineJson {
                score: l.score,
                value: doska_engine::review::value(l.score, doska_engine::review::unit(&game)),
                depth,
                pv: l.moves.clone(),
            })
            .collect(),
        unit: doska_engine::review::unit_name(&game),
        variant: game.rules().to_string(),
        fen: game.fen(),
        best: result.best,
        score: result.score,
        pv: result.pv,
        depth: result.depth,
        nodes: result.nodes,
        seconds: started.elapsed().as_secs_f64(),
        egdb: egdb_json(&game).filter(|_| player.terms.egdb),
    };
    if json {
        outln!("{}", serde_json::to_string(&out)?);
    } else {
        if lines > 1 {
            for (i, l) in out.lines.iter().enumerate() {
                outln!(
                    "line {}  score {:>6}  depth {:>2}  {}",
                    i + 1,
                    l.score,
                    l.depth,
                    l.pv.join(" ")
                );
            }
        }
        if let Some(e) = &out.egdb {
            match e.result {
                "draw" => outln!("endgame database: draw"),
                r => outln!("endgame database: {r} in {} plies", e.plies),
            }
        }
        outln!("best {}", out.best.as_deref().unwrap_or("(none)"));
    }
    Ok(())
}

/// `doska play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Rule set (as for `doska perft`).
    #[arg(long, default_value = "russian")]
    variant: String,
    /// The computer's level.
    #[arg(long, default_value = "medium")]
    level: Level,
    /// Your colour.
    #[arg(long, default_value = "white")]
    color: String,
    /// Start from this position.
    #[arg(long)]
    fen: Option<String>,
    /// Endgame databases.
    #[command(flatten)]
    pub(crate) egdb: crate::egdb_cmd::EgdbDir,
}

fn draw_board(game: &AnyGame) -> String {
    let pieces = game.pieces();
    let (w, h) = match game.rules() {
        RuleSet::Draughts(v) => {
            let g = &v.rules().geometry;
            (g.width, g.height)
        }
        RuleSet::Ugolki(u) => (u.board.width(), u.board.width()),
    };
    let mut out = String::new();
    for r in (0..h).rev() {
        out.push_str(&format!("{:>3} ", r + 1));
        for c in 0..w {
            let name = format!("{}{}", (b'a' + c) as char, r + 1);
            let ch = match pieces.iter().find(|p| p.square == name) {
                Some(p) => match (p.color, p.king) {
                    (Color::White, false) => 'w',
                    (Color::White, true) => 'W',
                    (Color::Black, false) => 'b',
                    (Color::Black, true) => 'B',
                },
                None => '.',
            };
            out.push(ch);
            out.push(' ');
        }
        out.push('\n');
    }
    out.push_str("    ");
    for c in 0..w {
        out.push((b'a' + c) as char);
        out.push(' ');
    }
    out.push('\n');
    out
}

/// Runs a terminal game against the computer.
pub fn play(a: &PlayArgs) -> Result<()> {
    let mut game = game_from(&a.variant, a.fen.as_deref())?;
    a.egdb.install(draughts_variant(&game))?;
    let human = match a.color.as_str() {
        "white" => Color::White,
        "black" => Color::Black,
        other => bail!("unknown colour {other:?}: expected white or black"),
    };
    let mut searcher = Searcher::new(64, a.level.recipe().terms);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut seed = 1u64;
    while game.outcome().is_none() {
        outln!("\n{}", draw_board(&game));
        if game.turn() == human {
            let legal: Vec<String> = game.legal_moves().into_iter().map(|m| m.notation).collect();
            let must = game.must_capture();
            if !must.is_empty() {
                outln!("you must capture with: {}", must.join(", "));
            }
            print!(
                "move {} ({}), your move [{}]: ",
                game.move_number(),
                human.name(),
                legal.join(" ")
            );
            std::io::stdout().flush()?;
            let Some(line) = lines.next() else { return Ok(()) };
            let line = line?;
            let text = line.trim();
            match text {
                "quit" | "exit" => return Ok(()),
                "undo" => {
                    game.undo();
                    game.undo();
                    continue;
                }
                "resign" => {
                    game.resign(human);
                    break;
                }
                _ => {}
            }
            if let Err(e) = game.play(text) {
                outln!("{e}");
            }
        } else {
            seed += 1;
            let Some(mv) = choose_with(&mut searcher, &game, a.level, seed, 1.0) else { break };
            outln!("computer plays {mv}");
            game.play(&mv)?;
        }
    }
    outln!("\n{}", draw_board(&game));
    if let Some(o) = game.outcome() {
        outln!("game over: {} ({})", o.winner.name(), o.text);
    }
    Ok(())
}

/// `doska bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(long, default_value_t = 7)]
    depth: u32,
    /// Instead: the time each level takes to choose a move at full strength, one game alone
    /// and two games at once (one per core).
    #[arg(long)]
    levels: bool,
}

/// The fixed bench set: every rule set's start and a few middle games.
fn bench_positions() -> Vec<(String, Option<String>)> {
    let mut v: Vec<(String, Option<String>)> =
        Variant::ALL.iter().map(|v| (v.id().to_string(), None)).collect();
    v.push(("ugolki".into(), None));
    v.push(("ugolki-brainking".into(), None));
    v.push((
        "international".into(),
        Some("W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26".into()),
    ));
    v.push((
        "russian".into(),
        Some("W:Wa1,c1,e1,a3,c3,e3,g3,b4,h4,Kd6:Bb6,d8,f8,h8,a7,c7,g7,f6,h6,e5".into()),
    ));
    v.push((
        "ugolki".into(),
        Some("W:Wc3,d3,e3,c4,d4,e4,c5,d5,f4:Bd6,e6,f6,e5,f5,g5,e7,f7,g6:N12".into()),
    ));
    v
}

/// The middle games of the bench set, for timing the levels.
fn level_positions() -> Result<Vec<AnyGame>> {
    bench_positions()
        .into_iter()
        .filter(|(_, fen)| fen.is_some())
        .map(|(variant, fen)| game_from(&variant, fen.as_deref()))
        .collect()
}

/// Mean milliseconds per move of `level` over `games`.
fn time_level(games: &[AnyGame], level: Level) -> f64 {
    let t = Instant::now();
    for (i, g) in games.iter().enumerate() {
        let _ = doska_engine::choose(g, level, i as u64, 1.0);
    }
    t.elapsed().as_secs_f64() * 1000.0 / games.len().max(1) as f64
}

/// `doska bench --levels`: how long each level thinks, alone and with a second game searching
/// on the other core at the same time.
fn bench_levels() -> Result<()> {
    let games = level_positions()?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    outln!("{} positions, {cores} cores", games.len());
    for level in Level::ALL {
        let alone = time_level(&games, level);
        let (x, y) = std::thread::scope(|s| {
            let other = s.spawn(|| time_level(&games, level));
            let mine = time_level(&games, level);
            (mine, other.join().unwrap_or(f64::NAN))
        });
        outln!(
            "{:<7} {alone:>7.0} ms per move alone, {:>7.0} ms with two games at once",
            level.id(),
            (x + y) / 2.0
        );
    }
    Ok(())
}

/// Runs the bench: total nodes (a signature of the search) and speed.
pub fn bench(a: &BenchArgs) -> Result<()> {
    if a.levels {
        return bench_levels();
    }
    let started = Instant::now();
    let mut total = 0u64;
    for (variant, fen) in bench_positions() {
        let game = game_from(&variant, fen.as_deref())?;
        let mut searcher = Searcher::new(16, Terms::ALL);
        let t = Instant::now();
        let r = doska_engine::analyze(
            &mut searcher,
            &game,
            Limits { depth: Some(a.depth), nodes: None, movetime: None },
            |_| {},
        );
        outln!(
            "{variant:<20} depth {:>2} nodes {:>10} {:>7} ms best {}",
            r.depth,
            r.nodes,
            t.elapsed().as_millis(),
            r.best.unwrap_or_default()
        );
        total += r.nodes;
    }
    let secs = started.elapsed().as_secs_f64();
    outln!("nodes {total}");
    outln!("nps {:.0}", total as f64 / secs.max(1e-9));
    Ok(())
}

/// `doska match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// Rule set (as for `doska perft`).
    #[arg(long)]
    variant: String,
    /// First player's level.
    #[arg(long)]
    a: Level,
    /// Second player's level.
    #[arg(long)]
    b: Level,
    /// Evaluation terms and search techniques the first player goes without, comma-separated:
    /// what each is worth. Terms: advancement, back_rank, centre, trades, runaways,
    /// free_kings, exact_race, learned (the learned evaluation instead of the terms), net (the
    /// network added to it, International), egdb, book (the opening book,
    /// Medium and Hard); techniques: aspiration, spend, probcut,
    /// truncation, lmr (late move reductions). A technique the rule set's search never uses
    /// is accepted with a note on stderr.
    #[arg(long, value_name = "NAMES", default_value = "")]
    a_without: String,
    /// Evaluation terms and search techniques the second player goes without.
    #[arg(long, value_name = "NAMES", default_value = "")]
    b_without: String,
    /// A learned evaluation's weights file (`doska learn --out`) the first player evaluates
    /// with instead of the build's: one weights file against another.
    #[arg(long, value_name = "FILE")]
    a_weights: Option<std::path::PathBuf>,
    /// The same for the second player (with `--b-program`, handed to that build's hub as
    /// `--weights`: a file of its own layout).
    #[arg(long, value_name = "FILE")]
    b_weights: Option<std::path::PathBuf>,
    /// Another build of doska plays the second player's side through its `doska hub`, at
    /// Insane, with `--b-without` and `--b-weights` handed to it as that build reads them (it
    /// may know techniques or a layout this one does not): measures a change that no
    /// `--without` switch turns off against the build before it.
    #[arg(long, value_name = "PATH")]
    b_program: Option<std::path::PathBuf>,
    /// Threads the first player searches with.
    #[arg(long, default_value_t = 1)]
    a_threads: usize,
    /// Threads the second player searches with.
    #[arg(long, default_value_t = 1)]
    b_threads: usize,
    /// Number of games (rounded up to an even number: each opening is played with both colours).
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Multiplies the levels' thinking times (0.1 = a tenth).
    #[arg(long, default_value_t = 0.1)]
    scale: f64,
    /// Prints each game as it ends: its opening, who had White, the result, how it ended and
    /// after how many plies.
    #[arg(long)]
    log: bool,
    /// Endgame databases.
    #[command(flatten)]
    pub(crate) egdb: crate::egdb_cmd::EgdbDir,
}

/// Openings: the positions after two plies from the start, spread over the first moves; each
/// `offset` places further along the list of every first move with every reply (so that a
/// second run, `doska dxp --opening-offset`, plays others).
pub(crate) fn openings(rules: RuleSet, n: usize, offset: usize) -> Vec<Vec<String>> {
    let start = AnyGame::new(rules);
    let mut all = Vec::new();
    for m1 in start.legal_moves() {
        let mut g = start.clone();
        if g.play(&m1.notation).is_err() {
            continue;
        }
        for m2 in g.legal_moves() {
            all.push(vec![m1.notation.clone(), m2.notation]);
        }
    }
    if all.is_empty() {
        return vec![Vec::new(); n];
    }
    let step = (all.len() as f64 / n as f64).max(1.0);
    (0..n).map(|i| all[((i as f64 * step) as usize + offset) % all.len()].clone()).collect()
}

/// One side of a match: its level, the terms and techniques it plays with, its threads.
#[derive(Clone, Copy)]
pub(crate) struct Player {
    level: Level,
    terms: Terms,
    features: Features,
    threads: usize,
}

impl Player {
    /// `level` without the comma-separated terms and techniques of `without`.
    pub(crate) fn new(level: Level, without: &str, threads: usize) -> Result<Player> {
        let names: Vec<&str> =
            without.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
        let (techniques, terms): (Vec<&str>, Vec<&str>) =
            names.into_iter().partition(|n| Features::knows(n));
        let terms = level.recipe().terms.without(&terms.join(",")).map_err(|e| {
            anyhow::anyhow!("{e}, or a search technique: {}", Features::NAMES.join(", "))
        })?;
        let features = Features::ALL.without(&techniques.join(",")).map_err(anyhow::Error::msg)?;
        Ok(Player { level, terms, features, threads })
    }

    /// What in `without` changes nothing in `rules`, said as a note for stderr: the network
    /// where the build embeds none for that rule set, or a technique
    /// that rule set's search never uses (truncation runs only in [`TRUNCATED`], late move
    /// reductions only in [`REDUCED`], bad-move pruning only where the game's
    /// [`Node::BAD_MOVE_PRUNING`] allows it), so that a measurement does not compare a build
    /// with itself unawares.
    pub(crate) fn inert_note(without: &str, rules: RuleSet) -> Option<String> {
        let named = |t: &str| without.split(',').any(|n| n.trim() == t);
        let (truncates, prunes, reduces, networked) = match rules {
            RuleSet::Draughts(v) => (
                TRUNCATED.contains(&v),
                DraughtsNode::BAD_MOVE_PRUNING,
                REDUCED.contains(&v),
                net::embedded(v).is_some(),
            ),
            RuleSet::Ugolki(_) => (false, UgolkiPosition::BAD_MOVE_PRUNING, false, false),
        };
        let mut inert = Vec::new();
        if named("truncation") && !truncates {
            let truncating: Vec<&str> = TRUNCATED.iter().map(|v| v.id()).collect();
            inert.push(format!(
                "{rules} never truncates (truncation runs in {})",
                truncating.join(", ")
            ));
        }
        if named("probcut") && !prunes {
            inert.push(format!("{rules} prunes no bad moves"));
        }
        if named("lmr") && !reduces {
            let reducing: Vec<&str> = REDUCED.iter().map(|v| v.id()).collect();
            inert.push(format!(
                "{rules} reduces no late moves (late move reductions run in {})",
                reducing.join(", ")
            ));
        }
        if named("net") && !networked {
            let with: Vec<&str> = Variant::ALL
                .iter()
                .filter(|v| net::embedded(**v).is_some())
                .map(|v| v.id())
                .collect();
            inert.push(format!(
                "{rules} has no network (the build has one for {})",
                with.join(", ")
            ));
        }
        (!inert.is_empty()).then(|| {
            let it = if inert.len() == 1 { "it" } else { "them" };
            format!("note: {}, so going without {it} changes nothing", inert.join("; "))
        })
    }

    /// Evaluates with the weights in `file` for `rules` (the file's own draughts rule set
    /// when `rules` is none), if a file is given.
    pub(crate) fn read_weights(
        &mut self,
        file: Option<&std::path::Path>,
        rules: Option<RuleSet>,
    ) -> Result<()> {
        use doska_engine::eval::{learned, ugolki_learned};
        let Some(file) = file else { return Ok(()) };
        let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
        let context = || format!("reading {}", file.display());
        if let Some(RuleSet::Ugolki(r)) = rules {
            let weights = ugolki_learned::decode(&bytes, &r)
                .map_err(anyhow::Error::msg)
                .with_context(context)?;
            let layout = ugolki_learned::layout(&r).context("a preset has a layout")?;
            let evaluator = ugolki_learned::Evaluator::new(layout, &weights);
            self.terms.ugolki_weights = Some(Box::leak(Box::new(evaluator)));
        } else {
            let read = match rules {
                Some(RuleSet::Draughts(v)) => learned::read_for(&bytes, v).map(|w| (v, w)),
                _ => learned::read(&bytes),
            };
            let (v, weights) = read.map_err(anyhow::Error::msg).with_context(context)?;
            let evaluator = learned::Evaluator::new(v, &weights);
            self.terms.weights = Some(Box::leak(Box::new(evaluator)));
        }
        self.terms.learned = true;
        Ok(())
    }

    /// Why the weights file read for another rule set cannot evaluate rule set `v` (its
    /// board is not `v`'s), if it cannot.
    pub(crate) fn weights_misfit(&self, v: Variant) -> Option<String> {
        doska_engine::eval::learned::serves(self.terms.weights?.variant(), v).err()
    }

    pub(crate) fn searcher(&self) -> Searcher {
        self.searcher_with_table(16)
    }

    /// [`Player::searcher`] with a hash table of about `mb` megabytes.
    pub(crate) fn searcher_with_table(&self, mb: usize) -> Searcher {
        let mut s = Searcher::new(mb, self.terms);
        s.set_threads(self.threads);
        s.set_features(self.features);
        s
    }
}

/// Plays one game; returns the score of the player `a` (1, 0.5 or 0) and how the game ended
/// (in words, with the number of plies played after the opening). `b_program`, when given,
/// plays `b`'s side.
#[allow(clippy::too_many_arguments)]
fn one_game(
    rules: RuleSet,
    opening: &[String],
    a: Player,
    b: Player,
    mut b_program: Option<&mut crate::program::Program>,
    a_white: bool,
    scale: f64,
    seed: u64,
) -> Result<(f64, String)> {
    let mut game = AnyGame::new(rules);
    for m in opening {
        game.play(m)?;
    }
    let (mut sa, mut sb) = (a.searcher(), b.searcher());
    let (ta, tb) = (a.terms, b.terms);
    let (a, b) = (a.level, b.level);
    let mut ply = 0u64;
    while game.outcome().is_none() {
        let a_to_move = (game.turn() == Color::White) == a_white;
        let mv = if a_to_move {
            choose_with_terms(&mut sa, &game, a, ta, seed + ply, scale)
        } else if let Some(program) = b_program.as_deref_mut() {
            program.choose(&game)?
        } else {
            choose_with_terms(&mut sb, &game, b, tb, seed + ply, scale)
        };
        let Some(mv) = mv else { break };
        game.play(&mv)?;
        ply += 1;
    }
    let a_color = if a_white { Color::White } else { Color::Black };
    let outcome = game.outcome();
    let score = match outcome.as_ref().map(|o| o.winner) {
        Some(doska_rules::game::Winner::Draw) | None => 0.5,
        Some(w) if w == doska_rules::game::Winner::side(a_color) => 1.0,
        Some(_) => 0.0,
    };
    let end = outcome.map_or("no move to play: a draw".to_string(), |o| o.text);
    Ok((score, format!("{end} after {ply} plies")))
}

/// The score of a match, game by game, from one side's view (1, 0.5 or 0 a game).
#[derive(Default)]
pub(crate) struct Tally {
    scores: Vec<f64>,
}

impl Tally {
    pub(crate) fn add(&mut self, score: f64) {
        self.scores.push(score);
    }

    pub(crate) fn games(&self) -> usize {
        self.scores.len()
    }

    /// `+wins =draws -losses`.
    pub(crate) fn counts(&self) -> String {
        let count = |f: fn(f64) -> bool| self.scores.iter().filter(|s| f(**s)).count();
        format!(
            "+{} ={} -{}",
            count(|s| s > 0.75),
            count(|s| (0.25..=0.75).contains(&s)),
            count(|s| s < 0.25)
        )
    }

    /// The counts, the score and the Elo difference with its 95% error margin.
    pub(crate) fn summary(&self) -> String {
        if self.scores.is_empty() {
            return "no games".into();
        }
        let n = self.scores.len() as f64;
        let p = self.scores.iter().sum::<f64>() / n;
        let var = self.scores.iter().map(|s| (s - p).powi(2)).sum::<f64>() / n;
        let se = (var / n).sqrt();
        let elo_text = if var == 0.0 && (p == 1.0 || p == 0.0) {
            // Every game the same result: no spread to measure, so give the one-sided 95%
            // bound (the score fraction that would still give this result 5% of the time).
            let bound = elo(0.05f64.powf(1.0 / n));
            if p == 1.0 {
                format!("Elo above {bound:+.0} (95%)")
            } else {
                format!("Elo below {:+.0} (95%)", -bound)
            }
        } else {
            let margin = (elo((p + 1.96 * se).min(0.999)) - elo((p - 1.96 * se).max(0.001))) / 2.0;
            format!("Elo {:+.0} ± {margin:.0}", elo(p))
        };
        format!("{}, score {:.1}%, {elo_text}", self.counts(), p * 100.0)
    }
}

/// Elo difference of a score fraction.
fn elo(p: f64) -> f64 {
    let p = p.clamp(0.001, 0.999);
    -400.0 * (1.0 / p - 1.0).log10()
}

/// Runs a match and prints wins/draws/losses for `a`, its score and the Elo difference with
/// its 95% error margin.
pub fn run_match(m: &MatchArgs) -> Result<()> {
    let rules: RuleSet = m.variant.parse()?;
    if let RuleSet::Draughts(v) = rules {
        m.egdb.install(Some(v))?;
    }
    let mut a = Player::new(m.a, &m.a_without, m.a_threads)?;
    // With --b-program, b's names are the other build's to read (it may know techniques this
    // one does not, or no longer).
    let b_without = if m.b_program.is_some() { "" } else { m.b_without.as_str() };
    let mut b = Player::new(m.b, b_without, m.b_threads)?;
    // b's names when --b-program reads them are the other build's to judge.
    for note in
        [m.a_without.as_str(), b_without].iter().filter_map(|w| Player::inert_note(w, rules))
    {
        eprintln!("{note}");
    }
    a.read_weights(m.a_weights.as_deref(), Some(rules))?;
    // With --b-program, b's weights are the other build's to read (its layout may differ).
    if m.b_program.is_none() {
        b.read_weights(m.b_weights.as_deref(), Some(rules))?;
    } else if let Some(file) = &m.b_weights {
        std::fs::metadata(file).with_context(|| format!("--b-weights {}", file.display()))?;
    }
    let weights = |file: &Option<std::path::PathBuf>| {
        file.as_ref().map(|f| format!(" with {}", f.display())).unwrap_or_default()
    };
    let name = |level: Level, without: &str, threads: usize| {
        let mut s = level.to_string();
        if !without.is_empty() {
            s += &format!(" without {without}");
        }
        if threads > 1 {
            s += &format!(" on {threads} threads");
        }
        s
    };
    if m.b_program.is_some() {
        if !matches!(rules, RuleSet::Draughts(_)) {
            bail!("--b-program plays draughts only: its `doska hub` knows no Ugolki");
        }
        if m.b != Level::Insane || m.b_threads != 1 {
            bail!(
                "--b-program plays Insane on one thread: give --b insane and no --b-threads \
                 (got --b {}, --b-threads {})",
                m.b,
                m.b_threads
            );
        }
    }
    // A fresh process a game, as `a` gets a fresh searcher.
    let program = || -> Result<Option<crate::program::Program>> {
        let Some(path) = &m.b_program else { return Ok(None) };
        let movetime = Level::Insane.recipe().movetime.unwrap_or_default().mul_f64(m.scale);
        crate::program::Program::start(
            path,
            &m.b_without,
            m.b_weights.as_deref(),
            &m.egdb.dir,
            &m.variant,
            movetime,
        )
        .map(Some)
    };
    let pairs = m.games.div_ceil(2) as usize;
    let mut tally = Tally::default();
    for (i, opening) in openings(rules, pairs, 0).iter().enumerate() {
        for a_white in [true, false] {
            let seed = 1000 * i as u64 + a_white as u64;
            let mut b_program = program()?;
            let (s, end) =
                one_game(rules, opening, a, b, b_program.as_mut(), a_white, m.scale, seed)?;
            tally.add(s);
            if m.log {
                let colour = if a_white { "white" } else { "black" };
                let result = if s > 0.75 {
                    "won"
                } else if s < 0.25 {
                    "lost"
                } else {
                    "drew"
                };
                eprintln!(
                    "\rgame {}: opening '{}', a {colour} {result}: {end}",
                    tally.games(),
                    opening.join(" ")
                );
            }
            eprint!("\r{} games: {}", tally.games(), tally.counts());
        }
    }
    eprintln!();
    outln!(
        "{} {} vs {}: {} games, {}",
        rules,
        name(m.a, &m.a_without, m.a_threads) + &weights(&m.a_weights),
        name(m.b, &m.b_without, m.b_threads)
            + &weights(&m.b_weights)
            + &m.b_program.as_ref().map(|p| format!(" of {}", p.display())).unwrap_or_default(),
        tally.games(),
        tally.summary(),
    );
    Ok(())
}
