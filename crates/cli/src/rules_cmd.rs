//! `doska perft` and `doska moves`: the rules library from the command line.

use anyhow::{Context, Result};
use clap::Args;
use doska_rules::fen::Counters;
use doska_rules::notation::format_move;
use doska_rules::{Game, Variant, perft_divide};
use serde::Serialize;
use std::time::Instant;

/// Options naming a position.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// Rule set id: american international brazilian canadian italian spanish russian czech
    /// turkish armenian thai poddavki frisian lasca.
    #[arg(long)]
    variant: String,
    /// Start from this FEN instead of the rule set's start position.
    #[arg(long)]
    fen: Option<String>,
}

/// `doska perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// Print the count below each move.
    #[arg(long)]
    divide: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// `doska moves`.
#[derive(Debug, Args)]
pub struct MovesArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Print one JSON object (the default prints one move a line).
    #[arg(long)]
    json: bool,
}

fn load(a: &PositionArgs) -> Result<Game> {
    let variant: Variant = a.variant.parse()?;
    match &a.fen {
        Some(f) => Game::from_fen(variant, f).with_context(|| format!("reading FEN {f:?}")),
        None => Ok(Game::new(variant)),
    }
}

#[derive(Serialize)]
struct PerftJson<'a> {
    variant: &'a str,
    fen: String,
    depth: u32,
    nodes: u64,
    seconds: f64,
}

/// Runs perft.
pub fn perft(a: &PerftArgs) -> Result<()> {
    let game = load(&a.position)?;
    let pos = game.position();
    let started = Instant::now();
    if a.divide {
        let legal = pos.legal_moves();
        let mut total = 0;
        for (mv, n) in perft_divide(pos, a.depth) {
            println!("{} {n}", format_move(pos, &mv, &legal));
            total += n;
        }
        println!("total {total}");
        return Ok(());
    }
    let nodes = doska_rules::perft(pos, a.depth);
    let seconds = started.elapsed().as_secs_f64();
    if a.json {
        let out = PerftJson {
            variant: pos.variant().id(),
            fen: pos.to_fen(),
            depth: a.depth,
            nodes,
            seconds,
        };
        println!("{}", serde_json::to_string(&out)?);
    } else {
        let rate = nodes as f64 / seconds.max(1e-9) / 1e6;
        println!("perft({}) = {nodes}  ({seconds:.3} s, {rate:.1} M leaves/s)", a.depth);
    }
    Ok(())
}

#[derive(Serialize)]
struct MovesJson {
    variant: &'static str,
    fen: String,
    turn: &'static str,
    outcome: Option<OutcomeJson>,
    moves: Vec<MoveJson>,
}

#[derive(Serialize)]
struct OutcomeJson {
    result: &'static str,
    reason: String,
}

#[derive(Serialize)]
struct MoveJson {
    notation: String,
    from: String,
    to: String,
    path: Vec<String>,
    captures: Vec<String>,
    fen: String,
}

/// Lists the legal moves.
pub fn moves(a: &MovesArgs) -> Result<()> {
    let game = load(&a.position)?;
    let pos = game.position();
    let g = &pos.rules().geometry;
    let legal = game.legal_moves();
    let moves: Vec<MoveJson> = legal
        .iter()
        .map(|mv| MoveJson {
            notation: format_move(pos, mv, &legal),
            from: g.algebraic(mv.from),
            to: g.algebraic(mv.to),
            path: mv.path().iter().map(|s| g.algebraic(*s)).collect(),
            captures: mv.captures_in_order(g).iter().map(|s| g.algebraic(*s)).collect(),
            fen: pos.play(mv).to_fen(),
        })
        .collect();
    if a.json {
        let out = MovesJson {
            variant: pos.variant().id(),
            fen: doska_rules::fen::write(pos, Some(&Counters { ..game.counters() })),
            turn: pos.turn().name(),
            outcome: game
                .outcome()
                .map(|o| OutcomeJson { result: o.winner.name(), reason: o.reason.to_string() }),
            moves,
        };
        println!("{}", serde_json::to_string(&out)?);
    } else {
        if let Some(o) = game.outcome() {
            println!("game over: {} ({})", o.winner.name(), o.reason);
        }
        for m in moves {
            println!("{}", m.notation);
        }
    }
    Ok(())
}
