//! `doska perft` and `doska moves`: the rules library from the command line.

use anyhow::{Context, Result};
use clap::Args;
use doska_rules::notation::format_move;
use doska_rules::ugolki::UgolkiGame;
use doska_rules::{AnyGame, Game, RuleSet, perft_divide};
use serde::Serialize;
use std::time::Instant;

/// Options naming a position.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// Rule set: american international brazilian canadian italian spanish russian czech
    /// turkish armenian thai poddavki frisian lasca, or an Ugolki rule set: ugolki,
    /// ugolki-brainking, ugolki-brainking-10, or a preset with parameters, e.g.
    /// `ugolki:board=10,home=4x4,dirs=8,home-rule=brainking-50,half-rule=off,equal=off`
    /// (keys: board=8|10 home=3x3|3x4|stair|4x4 dirs=4|8 home-rule=off|ugolki-N|brainking-N
    /// half-rule=off|N equal=on|off).
    #[arg(long)]
    variant: String,
    /// Start from this FEN instead of the rule set's start position.
    #[arg(long)]
    fen: Option<String>,
}

/// The deepest `doska perft` goes.
const MAX_PERFT_DEPTH: u32 = 30;

/// `doska perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Depth in plies, 0 to 30 (the deepest published counts are about depth 20; a deeper
    /// tree could not be counted in a lifetime).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_PERFT_DEPTH)))]
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

/// A game of either kind, as the commands need it.
enum Loaded {
    Draughts(Game),
    Ugolki(UgolkiGame),
}

fn load(a: &PositionArgs) -> Result<Loaded> {
    let rules: RuleSet = a.variant.parse()?;
    let context = || format!("reading FEN {:?}", a.fen.as_deref().unwrap_or(""));
    Ok(match (rules, &a.fen) {
        (RuleSet::Draughts(v), Some(f)) => {
            Loaded::Draughts(Game::from_fen(v, f).with_context(context)?)
        }
        (RuleSet::Draughts(v), None) => Loaded::Draughts(Game::new(v)),
        (RuleSet::Ugolki(u), Some(f)) => {
            Loaded::Ugolki(UgolkiGame::from_fen(u, f).with_context(context)?)
        }
        (RuleSet::Ugolki(u), None) => Loaded::Ugolki(UgolkiGame::new(u)),
    })
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
    let loaded = load(&a.position)?;
    let started = Instant::now();
    if a.divide {
        let rows: Vec<(String, u64)> = match &loaded {
            Loaded::Draughts(game) => {
                let pos = game.position();
                let legal = pos.legal_moves();
                perft_divide(pos, a.depth)
                    .into_iter()
                    .map(|(mv, n)| (format_move(pos, &mv, &legal), n))
                    .collect()
            }
            Loaded::Ugolki(game) => doska_rules::ugolki::perft_divide(game.position(), a.depth)
                .into_iter()
                .map(|(mv, n)| (mv.to_string(), n))
                .collect(),
        };
        for (text, n) in &rows {
            outln!("{text} {n}");
        }
        outln!("total {}", rows.iter().map(|(_, n)| n).sum::<u64>());
        return Ok(());
    }
    let (nodes, variant, fen) = match &loaded {
        Loaded::Draughts(game) => {
            let pos = game.position();
            (doska_rules::perft(pos, a.depth), pos.variant().id().to_string(), pos.to_fen())
        }
        Loaded::Ugolki(game) => {
            let pos = game.position();
            (doska_rules::ugolki::perft(pos, a.depth), pos.rules().to_string(), pos.to_fen())
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    if a.json {
        let out = PerftJson { variant: &variant, fen, depth: a.depth, nodes, seconds };
        outln!("{}", serde_json::to_string(&out)?);
    } else {
        let rate = nodes as f64 / seconds.max(1e-9) / 1e6;
        outln!("perft({}) = {nodes}  ({seconds:.3} s, {rate:.1} M leaves/s)", a.depth);
    }
    Ok(())
}

#[derive(Serialize)]
struct MovesJson {
    variant: String,
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
    from: Option<String>,
    to: Option<String>,
    path: Vec<String>,
    captures: Vec<String>,
    fen: String,
}

/// Lists the legal moves.
pub fn moves(a: &MovesArgs) -> Result<()> {
    let rules: RuleSet = a.position.variant.parse()?;
    let game = match &a.position.fen {
        Some(f) => AnyGame::from_fen(rules, f)?,
        None => AnyGame::new(rules),
    };
    let moves: Vec<MoveJson> = game
        .legal_moves()
        .into_iter()
        .map(|m| MoveJson {
            notation: m.notation,
            from: m.from,
            to: m.to,
            path: m.path,
            captures: m.captures,
            fen: m.fen,
        })
        .collect();
    let outcome = game.outcome().map(|o| OutcomeJson { result: o.winner.name(), reason: o.text });
    if a.json {
        let out = MovesJson {
            variant: game.rules().to_string(),
            fen: game.fen(),
            turn: game.turn().name(),
            outcome,
            moves,
        };
        outln!("{}", serde_json::to_string(&out)?);
    } else {
        if let Some(o) = &outcome {
            outln!("game over: {} ({})", o.result, o.reason);
        }
        for m in moves {
            outln!("{}", m.notation);
        }
    }
    Ok(())
}
