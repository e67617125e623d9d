//! `doska`: one binary for the whole system. This file only parses arguments and calls the
//! libraries.

mod rules_cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// doska — Ugolki and draughts in 14 rule sets.
#[derive(Debug, Parser)]
#[command(name = "doska", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaves of the legal-move tree (perft).
    Perft(rules_cmd::PerftArgs),
    /// List the legal moves of a position.
    Moves(rules_cmd::MovesArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft(a)) => rules_cmd::perft(&a),
        Some(Command::Moves(a)) => rules_cmd::moves(&a),
        None => {
            // The server does not exist yet: show what the binary can do.
            use clap::CommandFactory;
            let _ = Cli::command().print_help();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
