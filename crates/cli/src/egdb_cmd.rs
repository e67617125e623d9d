//! `doska egdb`: builds, checks and reads the endgame databases (crates/engine/src/egdb).

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use doska_engine::egdb::{self, Egdb};
use doska_rules::{Position, RuleSet, Variant};
use std::path::PathBuf;
use std::time::Instant;

/// `doska egdb`.
#[derive(Debug, Args)]
pub struct EgdbArgs {
    #[command(subcommand)]
    command: EgdbCommand,
}

#[derive(Debug, Subcommand)]
enum EgdbCommand {
    /// Solve every position of 2 to N pieces and write <dir>/<variant>.egdb.
    Build {
        /// Rule set (any draughts rule set but frisian and lasca).
        #[arg(long)]
        variant: String,
        /// The most pieces on the board.
        #[arg(long, default_value_t = 4)]
        pieces: usize,
        /// Threads the generator works on.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// The folder of the databases (the server, analyze and match read it).
        #[arg(long, default_value = "egdb")]
        dir: PathBuf,
    },
    /// Hold every value of a database against its successors' values; say what disagrees.
    Verify {
        /// Rule set.
        #[arg(long)]
        variant: String,
        /// Check every STEP-th position of each slice (1: all).
        #[arg(long, default_value_t = 1)]
        step: usize,
        /// The folder of the databases.
        #[arg(long, default_value = "egdb")]
        dir: PathBuf,
    },
    /// The value of a position: win, loss or draw for the side to move, and in how many plies.
    Probe {
        /// Rule set.
        #[arg(long)]
        variant: String,
        /// The position (PDN FEN).
        #[arg(long)]
        fen: String,
        /// The folder of the databases.
        #[arg(long, default_value = "egdb")]
        dir: PathBuf,
    },
}

fn variant(text: &str) -> Result<Variant> {
    match text.parse::<RuleSet>()? {
        RuleSet::Draughts(v) if egdb::applies(v) => Ok(v),
        RuleSet::Draughts(v) => Err(egdb::EgdbError::Unsupported(v).into()),
        RuleSet::Ugolki(_) => bail!("Ugolki has no endgame database: its race is solved exactly"),
    }
}

/// Reads rule set `v`'s database from `dir`: an error that says so where `v` has none, or
/// where the folder holds none.
pub(crate) fn open(dir: &std::path::Path, v: Variant) -> Result<Egdb> {
    if !egdb::applies(v) {
        return Err(egdb::EgdbError::Unsupported(v).into());
    }
    Egdb::load(dir, v)?.with_context(|| {
        format!(
            "no database for {v} in {} (make one with doska egdb build --variant {v})",
            dir.display()
        )
    })
}

/// Runs `doska egdb`.
pub fn egdb(a: &EgdbArgs) -> Result<()> {
    match &a.command {
        EgdbCommand::Build { variant: name, pieces, threads, dir } => {
            let v = variant(name)?;
            let started = Instant::now();
            let mut positions = 0;
            let db = egdb::build(v, *pieces, *threads, |r| {
                // A slice solved with its mirror stands for both.
                positions += r.positions * (1 + r.mirror as u64);
                let name = match r.mirror {
                    true => {
                        format!("{} (and {})", r.slice.describe(), r.slice.mirrored().describe())
                    }
                    false => r.slice.describe(),
                };
                outln!(
                    "{:<60} {:>11} positions: {:>11} won {:>11} lost {:>11} drawn, longest win {:>3} plies, {:.1} s",
                    name,
                    r.positions,
                    r.wins,
                    r.losses,
                    r.draws,
                    r.longest,
                    r.seconds
                );
            })?;
            let solved = started.elapsed().as_secs_f64();
            let (file, size) = db.save(dir)?;
            outln!(
                "{v}, 2-{pieces} pieces: {positions} positions (both sides to move) in {solved:.1} s; {} ({:.1} MB)",
                file.display(),
                size as f64 / 1e6
            );
        }
        EgdbCommand::Verify { variant: name, step, dir } => {
            let v = variant(name)?;
            let db = open(dir, v)?;
            let started = Instant::now();
            let (checked, bad) = db.verify(*step, 10);
            for (pos, stored, want) in &bad {
                outln!(
                    "{}: stored {}, its successors say {}",
                    pos.to_fen(),
                    stored.describe(),
                    want.describe()
                );
            }
            outln!(
                "{v}: {checked} positions checked against their successors in {:.1} s, {} disagree",
                started.elapsed().as_secs_f64(),
                bad.len()
            );
            if !bad.is_empty() {
                bail!("the database is not consistent");
            }
        }
        EgdbCommand::Probe { variant: name, fen, dir } => {
            let v = variant(name)?;
            let db = open(dir, v)?;
            let pos = Position::from_fen(v, fen)?;
            match db.probe(&pos) {
                Some(value) => outln!("{}", value.describe()),
                None => bail!(
                    "{fen} is not in the database: it holds 2 to {} pieces, a piece on each side",
                    db.pieces()
                ),
            }
        }
    }
    Ok(())
}

/// Where the commands that play or analyse find the endgame databases.
#[derive(Debug, Clone, Args)]
pub struct EgdbDir {
    /// Folder of endgame databases (`doska egdb build` writes them): each `<variant>.egdb`
    /// there is read at start and used by Insane and the analysis; none there, none used.
    #[arg(long = "egdb", value_name = "DIR", env = "DOSKA_EGDB", default_value = "egdb")]
    pub dir: PathBuf,
}

impl EgdbDir {
    /// Reads and installs the databases of the folder: every rule set's, or `only` one's.
    /// A file that is there and cannot be read is an error; a missing one is not.
    pub fn install(&self, only: Option<Variant>) -> Result<Vec<Variant>> {
        let mut found = Vec::new();
        for v in Variant::ALL.into_iter().filter(|v| egdb::applies(*v)) {
            if only.is_some_and(|o| o != v) || egdb::installed(v).is_some() {
                continue;
            }
            if let Some(db) = Egdb::load(&self.dir, v)? {
                // Read once and kept for the life of the process.
                egdb::install(Box::leak(Box::new(db)));
                found.push(v);
            }
        }
        Ok(found)
    }
}
