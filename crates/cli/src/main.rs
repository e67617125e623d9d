//! `doska`: one binary for the whole system. This file only parses arguments and calls the
//! libraries.

/// `println!` for the commands' output: when the reader has gone (`doska moves | head`), the
/// command stops quietly instead of panicking on the broken pipe.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::write_line(format_args!($($arg)*))
    };
}

mod book_cmd;
mod dxp_cmd;
mod egdb_cmd;
mod engine_cmd;
mod hub_cmd;
mod learn_cmd;
mod program;
mod rules_cmd;
mod serve_cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// doska — Ugolki and draughts in 14 rule sets.
#[derive(Debug, Parser)]
#[command(name = "doska", version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// With no command, `doska` serves (these are `doska serve`'s options).
    #[command(flatten)]
    serve: serve_cmd::ServeArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the site: the web UI, the game API and sockets (the default command).
    Serve(serve_cmd::ServeArgs),
    /// Count the leaves of the legal-move tree (perft).
    Perft(rules_cmd::PerftArgs),
    /// List the legal moves of a position.
    Moves(rules_cmd::MovesArgs),
    /// Search a position: best move, score, principal variation.
    Analyze(engine_cmd::AnalyzeArgs),
    /// Play the computer in the terminal.
    Play(engine_cmd::PlayArgs),
    /// Search a fixed position set: total nodes (a signature of the search) and speed.
    Bench(engine_cmd::BenchArgs),
    /// Play level against level over a balanced opening set, colours swapped.
    Match(engine_cmd::MatchArgs),
    /// Speak the Hub protocol (Scan, Hub GUI) on standard input and output.
    Hub(hub_cmd::HubArgs),
    /// Play international draughts with another program over DXP (DamExchange), as the
    /// initiator (--connect) or the follower (--listen).
    Dxp(dxp_cmd::DxpArgs),
    /// Learn the draughts or Ugolki evaluation from self-play: play the games, fit the weights, write
    /// the file the build embeds.
    Learn(learn_cmd::LearnArgs),
    /// Endgame databases: build (solve every position of a few pieces), verify, probe.
    Egdb(egdb_cmd::EgdbArgs),
    /// Opening books: build one from deep searches of the first moves, show a position's moves.
    Book(book_cmd::BookArgs),
}

fn main() -> ExitCode {
    let result = processor_check().and_then(|()| run(Cli::parse()));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", error_text(&e));
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Some(Command::Perft(a)) => rules_cmd::perft(&a),
        Some(Command::Moves(a)) => rules_cmd::moves(&a),
        Some(Command::Analyze(a)) => engine_cmd::analyze(&a),
        Some(Command::Play(a)) => engine_cmd::play(&a),
        Some(Command::Bench(a)) => engine_cmd::bench(&a),
        Some(Command::Match(a)) => engine_cmd::run_match(&a),
        Some(Command::Hub(a)) => hub_cmd::hub(&a),
        Some(Command::Dxp(a)) => dxp_cmd::dxp(&a),
        Some(Command::Learn(a)) => learn_cmd::learn(&a),
        Some(Command::Egdb(a)) => egdb_cmd::egdb(&a),
        Some(Command::Book(a)) => book_cmd::book(&a),
        Some(Command::Serve(a)) => serve_cmd::serve(&a),
        None => serve_cmd::serve(&cli.serve),
    }
}

/// Whether the processor has the instructions this build was compiled to use
/// (`.cargo/config.toml`): one without them would stop at the first with no more than
/// "illegal instruction".
fn processor_check() -> anyhow::Result<()> {
    let missing = missing_cpu_features();
    if missing.is_empty() {
        return Ok(());
    }
    anyhow::bail!(
        "this doska was built for processors with {} (.cargo/config.toml: x86-64-v3), which \
         this one lacks; build it for this processor: RUSTFLAGS=\"-C target-cpu=native\" \
         cargo build --release",
        missing.join(", ")
    )
}

/// The features the build uses that the processor lacks, by its own CPUID
/// (`is_x86_feature_detected!` answers yes for every feature the build was compiled with,
/// without asking). Only features the build uses count, so a build for the baseline runs
/// anywhere.
#[cfg(target_arch = "x86_64")]
fn missing_cpu_features() -> Vec<&'static str> {
    use std::arch::x86_64::{__cpuid, __cpuid_count};
    // What a leaf past the highest one the processor reports holds is not used (below).
    let (highest, highest_extended) = (__cpuid(0).eax, __cpuid(0x8000_0000).eax);
    let leaf1 = __cpuid(1).ecx;
    let leaf7 = if highest >= 7 { __cpuid_count(7, 0).ebx } else { 0 };
    let extended1 = if highest_extended >= 0x8000_0001 { __cpuid(0x8000_0001).ecx } else { 0 };
    [
        ("popcnt", cfg!(target_feature = "popcnt"), leaf1 >> 23),
        ("fma", cfg!(target_feature = "fma"), leaf1 >> 12),
        ("avx", cfg!(target_feature = "avx"), leaf1 >> 28),
        ("bmi1", cfg!(target_feature = "bmi1"), leaf7 >> 3),
        ("avx2", cfg!(target_feature = "avx2"), leaf7 >> 5),
        ("bmi2", cfg!(target_feature = "bmi2"), leaf7 >> 8),
        ("lzcnt", cfg!(target_feature = "lzcnt"), extended1 >> 5),
    ]
    .into_iter()
    .filter(|&(_, used, bit)| used && bit & 1 == 0)
    .map(|(name, ..)| name)
    .collect()
}

/// Other processors: the build asks for no feature beyond the target's own.
#[cfg(not(target_arch = "x86_64"))]
fn missing_cpu_features() -> Vec<&'static str> {
    Vec::new()
}

/// The error and its causes on one line, each said once: a library error that already quotes
/// its cause is not followed by the cause again.
fn error_text(e: &anyhow::Error) -> String {
    let mut text = e.to_string();
    for cause in e.chain().skip(1) {
        let c = cause.to_string();
        if !text.contains(&c) {
            text.push_str(": ");
            text.push_str(&c);
        }
    }
    text
}

/// Refuses a file to write (given as option `flag`) whose folder is not there, before a long
/// run rather than at its end (the run would be lost).
pub(crate) fn check_out_folder(flag: &str, out: &std::path::Path) -> anyhow::Result<()> {
    match out.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) if !dir.is_dir() => {
            anyhow::bail!("{flag} {}: there is no folder {}", out.display(), dir.display())
        }
        _ => Ok(()),
    }
}

/// Writes one line of a command's output. A closed pipe ends the program quietly (its reader
/// has what it wanted); any other failure to write ends it with the reason.
pub(crate) fn write_line(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{args}").and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing to standard output: {e}");
        std::process::exit(2);
    }
}
