//! `doska book`: build an opening book from doska's own deep searches, or show a position's
//! book moves.

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use doska_engine::book::{self, Book, Plan};
use doska_rules::{AnyGame, RuleSet};
use std::io::Write;
use std::time::Instant;

/// `doska book`.
#[derive(Debug, Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Debug, Subcommand)]
enum BookCommand {
    /// Search the positions of the first moves deeply and write the book the build embeds
    /// (crates/engine/books/<variant>.book).
    Build(BuildArgs),
    /// The book moves of a position, best first, with their scores.
    Show(ShowArgs),
}

#[derive(Debug, Args)]
struct BuildArgs {
    /// Rule set (as for `doska perft`).
    #[arg(long)]
    variant: String,
    /// Search depth of every position.
    #[arg(long, default_value_t = 12)]
    depth: u32,
    /// Positions up to this many plies from the start are in the book.
    #[arg(long, default_value_t = 8)]
    plies: usize,
    /// For this many plies from the start every legal move is followed; after them, the
    /// best `--width` book moves.
    #[arg(long, default_value_t = 2)]
    full: usize,
    /// Book moves followed after the first `--full` plies.
    #[arg(long, default_value_t = 1)]
    width: usize,
    /// A position's book moves are those within this many hundredths of a man of the best.
    #[arg(long, default_value_t = 20)]
    margin: u16,
    /// Threads, each searching its own positions (the book does not depend on them).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Past `--full`, follow every reply to a position's best move (the side that played it
    /// finds its next move in the book whatever the opponent answered), the best `--width`
    /// elsewhere.
    #[arg(long)]
    replies: bool,
    /// Score only each position's best move (one search instead of one for every root move,
    /// several times cheaper): a book for a level that plays the best move.
    #[arg(long)]
    best_only: bool,
    /// Where to write the book.
    #[arg(long)]
    out: std::path::PathBuf,
}

#[derive(Debug, Args)]
struct ShowArgs {
    /// Rule set (as for `doska perft`).
    #[arg(long)]
    variant: String,
    /// The moves from the start that reach the position, space-separated (default: the start).
    #[arg(long, default_value = "")]
    moves: String,
    /// A book file to read instead of the build's (`doska book build --out`).
    #[arg(long, value_name = "FILE")]
    file: Option<std::path::PathBuf>,
}

/// Runs `doska book`.
pub fn book(a: &BookArgs) -> Result<()> {
    match &a.command {
        BookCommand::Build(b) => build(b),
        BookCommand::Show(s) => show(s),
    }
}

fn build(a: &BuildArgs) -> Result<()> {
    let rules: RuleSet = a.variant.parse()?;
    crate::check_out_folder("--out", &a.out)?;
    if a.depth == 0 || a.width == 0 {
        bail!("--depth and --width must be at least 1");
    }
    let plan = Plan {
        depth: a.depth,
        plies: a.plies,
        full: a.full,
        width: a.width,
        margin: i32::from(a.margin),
        threads: a.threads.max(1),
        best_only: a.best_only,
        replies: a.replies,
    };
    let t = Instant::now();
    let built = book::build(rules, &plan, |done, total| {
        eprint!("\r{done}/{total} positions");
        let _ = std::io::stderr().flush();
    });
    eprintln!();
    let secs = t.elapsed().as_secs_f64();
    let command = format!(
        "doska book build --variant {rules} --depth {} --plies {} --full {} --width {} --margin {}{}",
        a.depth,
        a.plies,
        a.full,
        a.width,
        plan.margin,
        if a.best_only { " --best-only" } else { "" }
    ) + if a.replies { " --replies" } else { "" };
    let scored = if a.best_only { "its best move" } else { "every root move" };
    let text = format!(
        "# doska opening book: {rules}\n# made by: {command}\n# {} positions, each searched to depth {} with {scored} scored exactly\n{}",
        built.positions, a.depth, built.text
    );
    // What the build will read must read back.
    Book::parse(&text, rules).map_err(anyhow::Error::msg).context("the book just built")?;
    std::fs::write(&a.out, &text).with_context(|| format!("writing {}", a.out.display()))?;
    outln!(
        "{rules}: {} positions to depth {} in {secs:.0} s ({} nodes, {} threads); wrote {} ({} bytes)",
        built.positions,
        a.depth,
        built.nodes,
        plan.threads,
        a.out.display(),
        text.len()
    );
    Ok(())
}

fn show(a: &ShowArgs) -> Result<()> {
    let rules: RuleSet = a.variant.parse()?;
    let owned;
    let book = match &a.file {
        Some(f) => {
            let text =
                std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
            owned = Book::parse(&text, rules)
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("reading {}", f.display()))?;
            &owned
        }
        None => book::embedded(rules).with_context(|| {
            let ids: Vec<&str> = book::embedded_all().iter().map(|(id, _)| *id).collect();
            format!("the build has no opening book for {rules} (it has: {})", ids.join(", "))
        })?,
    };
    let mut game = AnyGame::new(rules);
    for m in a.moves.split_whitespace() {
        game.play(m).map_err(|e| anyhow::anyhow!("{m}: {e}"))?;
    }
    match book.get(&game) {
        Some(entries) => {
            for e in entries {
                outln!("{} {:+}", e.mv, e.score);
            }
        }
        None => outln!("not in the book ({} positions)", book.len()),
    }
    Ok(())
}
