//! `doska hub`: the Hub protocol (version 2, as spoken by Scan and the Hub GUI) on standard
//! input and output, so doska can meet other draughts engines. Hub knows 10x10 rule sets:
//! `normal` (international) and `frisian`.
//!
//! Positions are `W` or `B` and one letter per square 1-50 (`w` `b` `W` `B` `e`); moves are
//! `32-28` or `from x to x captured...`.
//!
//! doska's extensions, for match runners that keep one doska process for a whole game (its
//! table kept from move to move): `set-param name=variant` also takes any draughts rule set id
//! (`russian`, `american`...); `pos fen=<FEN>` gives the start position as a doska FEN (with
//! counters); `moves` may also be in the rule set's own notation (`c3-d4`, `c3:e5`); and
//! `done` also says `notation=` (the move in that notation) and `depth=`.
//!
//! Time: `level move-time=`, `depth=`, `nodes=` or `infinite` for every move, or a game clock
//! as Scan reads it, sent before each `go`: `level time=<seconds left> inc=<seconds a move>
//! moves=<to the next control>`, each move's share worked out by [`doska_engine::clock`].

use crate::engine_cmd::Player;
use anyhow::Result;
use clap::Args;
use doska_engine::{Clock, Level, Limits, Stop, analyze};
use doska_rules::fen::Counters;
use doska_rules::game::Game;
use doska_rules::{AnyGame, Color, Move, Piece, Position, Variant};
use std::io::{BufRead, Write};
use std::sync::mpsc;
use std::time::Duration;

/// The arguments of a Hub line: `name=value` or `name="a b"`.
fn args(rest: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut chars = rest.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let name: String = chars.by_ref().take_while(|c| *c != '=' && !c.is_whitespace()).collect();
        if name.is_empty() {
            break;
        }
        let value = if chars.peek() == Some(&'"') {
            chars.next();
            chars.by_ref().take_while(|c| *c != '"').collect()
        } else {
            chars.by_ref().take_while(|c| !c.is_whitespace()).collect()
        };
        out.push((name, value));
    }
    out
}

fn arg<'a>(a: &'a [(String, String)], name: &str) -> Option<&'a str> {
    a.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

/// The clock of a `level time=<seconds> inc=<seconds> moves=<n>` line (as Scan reads it:
/// 30 s when `time` is left out, no increment, the whole game).
fn level_clock(a: &[(String, String)]) -> Result<Clock, String> {
    let seconds = |name: &str, default: f64| -> Result<Duration, String> {
        match arg(a, name) {
            None => Ok(Duration::from_secs_f64(default)),
            Some(v) => v
                .parse::<f64>()
                .ok()
                .filter(|t| t.is_finite() && *t >= 0.0 && *t < 1e9)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| {
                    format!("bad {name}={v:?}: seconds, a number 0 or more (below 1e9)")
                }),
        }
    };
    let moves_to_go = arg(a, "moves")
        .map(|v| {
            v.parse::<u32>().map_err(|_| {
                format!("bad moves={v:?}: the moves to the next control, 0 or more (0: the game)")
            })
        })
        .transpose()?;
    Ok(Clock { left: seconds("time", 30.0)?, inc: seconds("inc", 0.0)?, moves_to_go })
}

/// Reads a Hub position.
pub(crate) fn hub_position(variant: Variant, text: &str) -> Option<Position> {
    let g = &variant.rules().geometry;
    let mut chars = text.chars();
    let turn = match chars.next()? {
        'W' | 'w' => Color::White,
        'B' | 'b' => Color::Black,
        _ => return None,
    };
    let mut pos = Position::empty(variant, turn);
    for (i, c) in chars.enumerate() {
        let sq = g.square_of_number(i as u32 + 1)?;
        let piece = match c {
            'w' => Some(Piece { color: Color::White, king: false }),
            'W' => Some(Piece { color: Color::White, king: true }),
            'b' => Some(Piece { color: Color::Black, king: false }),
            'B' => Some(Piece { color: Color::Black, king: true }),
            'e' => None,
            _ => return None,
        };
        pos.put(sq, piece);
    }
    Some(pos)
}

/// A move in Hub notation.
fn hub_move(pos: &Position, m: &Move) -> String {
    let g = &pos.rules().geometry;
    if !m.is_capture() {
        return format!("{}-{}", g.number(m.from), g.number(m.to));
    }
    let mut parts = vec![g.number(m.from).to_string(), g.number(m.to).to_string()];
    parts.extend(m.captures_in_order(g).iter().map(|s| g.number(*s).to_string()));
    parts.join("x")
}

/// The legal move a Hub move text names.
fn find_move(pos: &Position, text: &str) -> Option<Move> {
    let nums: Vec<u32> =
        text.split(['-', 'x']).map(|n| n.trim().parse::<u32>().ok()).collect::<Option<_>>()?;
    find_by_numbers(pos, *nums.first()?, *nums.get(1)?, &nums[2..])
}

/// The legal move from square number `from` to `to` that captures the pieces on `captured`
/// (in any order; none given: any move between the two squares, the first one found).
pub(crate) fn find_by_numbers(
    pos: &Position,
    from: u32,
    to: u32,
    captured: &[u32],
) -> Option<Move> {
    let g = &pos.rules().geometry;
    let (from, to) = (g.square_of_number(from)?, g.square_of_number(to)?);
    let captured = captured
        .iter()
        .try_fold(0 as doska_rules::bits::Bits, |b, n| Some(b | g.square_of_number(*n)?.bit()))?;
    pos.legal_moves()
        .into_iter()
        .find(|m| m.from == from && m.to == to && (captured == 0 || m.captured_bits() == captured))
}

/// `doska hub`.
#[derive(Debug, Args)]
pub struct HubArgs {
    /// Evaluation terms and search techniques to go without (as for `doska match`).
    #[arg(long, value_name = "NAMES", default_value = "")]
    without: String,
    /// A learned evaluation's weights file to evaluate with instead of the build's (for the
    /// rule set it is made for, or one on the same board).
    #[arg(long, value_name = "FILE")]
    weights: Option<std::path::PathBuf>,
    /// The hash table, kept from move to move: at most this many megabytes, 1 to 4096 (its
    /// entries are a power of two: 16 gives 8 MB, 256 gives 128 MB).
    #[arg(long, value_name = "MB", default_value_t = 16,
          value_parser = clap::value_parser!(u32).range(1..=4096))]
    table_mb: u32,
    /// Endgame databases.
    #[command(flatten)]
    pub(crate) egdb: crate::egdb_cmd::EgdbDir,
}

/// Runs the Hub loop until `quit` or the end of input.
pub fn hub(a: &HubArgs) -> Result<()> {
    a.egdb.install(None)?;
    let mut variant = Variant::International;
    let mut game = Game::new(variant);
    let mut limits = Limits { depth: None, nodes: None, movetime: Some(Duration::from_secs(1)) };
    let mut clock: Option<Clock> = None;
    let mut player = Player::new(Level::Insane, &a.without, 1)?;
    // A weights file serves the rule set it was made for.
    player.read_weights(a.weights.as_deref(), None)?;
    let mut searcher = player.searcher_with_table(a.table_mb as usize);
    let stop: Stop = searcher.stop_handle();
    // Input is read on its own thread so `stop` can interrupt a search.
    let (tx, rx) = mpsc::channel::<String>();
    let reader_stop = stop.clone();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines().map_while(|l| l.ok()) {
            if line.trim() == "stop" {
                reader_stop.stop();
            }
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let out = std::io::stdout();
    let say = |text: String| {
        let mut o = out.lock();
        let _ = writeln!(o, "{text}");
        let _ = o.flush();
    };
    while let Ok(line) = rx.recv() {
        let line = line.trim();
        let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let a = args(rest);
        match cmd {
            "hub" => {
                say(format!(
                    "id name=doska version={} author=\"doska\"",
                    env!("CARGO_PKG_VERSION")
                ));
                say("param name=variant value=normal type=enum values=\"normal frisian\"".into());
                say("wait".into());
            }
            "init" => say("ready".into()),
            "ping" => say("pong".into()),
            "quit" => break,
            "set-param" => {
                if arg(&a, "name") == Some("variant") {
                    // Hub's names for the 10x10 rule sets, or any of doska's ids.
                    let id = arg(&a, "value").unwrap_or("");
                    let parsed =
                        if id == "normal" { Ok(Variant::International) } else { id.parse() };
                    match parsed {
                        // A weights file given at start serves its own board only.
                        Ok(v) => match player.weights_misfit(v) {
                            Some(why) => say(format!("error {why}")),
                            None => variant = v,
                        },
                        Err(_) => say(format!(
                            "error unknown variant \"{id}\": normal, frisian or a doska rule set id"
                        )),
                    }
                    game = Game::new(variant);
                }
            }
            "new-game" => game = Game::new(variant),
            "pos" => {
                let start = match (arg(&a, "pos"), arg(&a, "fen")) {
                    (_, Some(f)) => match Game::from_fen(variant, f) {
                        Ok(g) => g,
                        Err(e) => {
                            say(format!("error bad FEN {f:?}: {e}"));
                            continue;
                        }
                    },
                    (Some(p), None) => match hub_position(variant, p) {
                        Some(pos) => Game::from_position(
                            pos,
                            Counters { move_number: 1, ..Counters::default() },
                        ),
                        None => {
                            let n = variant.rules().geometry.count();
                            say(format!("error bad position {p:?}: W or B and {n} of w b W B e"));
                            continue;
                        }
                    },
                    (None, None) => Game::new(variant),
                };
                game = start;
                for m in arg(&a, "moves").unwrap_or("").split_whitespace() {
                    let pos = game.position();
                    let found = find_move(pos, m)
                        .or_else(|| doska_rules::notation::parse_move(pos, m).ok());
                    match found {
                        Some(mv) if game.play(&mv).is_ok() => {}
                        _ => {
                            say(format!("error illegal move {m}"));
                            break;
                        }
                    }
                }
            }
            "level" => {
                // A game clock (`time=` left, `inc=` a move, `moves=` to the next control):
                // each move's time is worked out at `go` from the clock and the board.
                if ["time", "inc", "moves"].iter().any(|k| arg(&a, k).is_some()) {
                    match level_clock(&a) {
                        Ok(c) => clock = Some(c),
                        Err(why) => say(format!("error {why}")),
                    }
                    continue;
                }
                clock = None;
                if let Some(d) = arg(&a, "depth").and_then(|v| v.parse().ok()) {
                    limits = Limits { depth: Some(d), nodes: None, movetime: None };
                }
                if let Some(t) = arg(&a, "move-time").and_then(|v| v.parse::<f64>().ok()) {
                    limits = Limits {
                        depth: None,
                        nodes: None,
                        movetime: Some(Duration::from_secs_f64(t.max(0.001))),
                    };
                }
                if let Some(n) = arg(&a, "nodes").and_then(|v| v.parse().ok()) {
                    limits = Limits { depth: None, nodes: Some(n), movetime: None };
                }
                if a.iter().any(|(k, _)| k == "infinite") {
                    limits = Limits { depth: None, nodes: None, movetime: None };
                }
            }
            "go" => {
                let pos = game.position().clone();
                if game.outcome().is_some() || pos.legal_moves().is_empty() {
                    say("done".into());
                    continue;
                }
                let any = AnyGame::Draughts(game.clone());
                let limits = match clock {
                    Some(c) => Limits {
                        depth: None,
                        nodes: None,
                        movetime: Some(c.allowance(
                            doska_rules::bits::count(pos.occupied()),
                            doska_rules::bits::count(Position::start(variant).occupied()),
                        )),
                    },
                    None => limits,
                };
                // The PV comes back in rule-set notation; Hub wants its own, so replay it.
                let r = analyze(&mut searcher, &any, limits, |info| {
                    say(format!(
                        "info depth={} score={:.2} nodes={} time={:.3}",
                        info.depth,
                        info.score as f64 / 100.0,
                        info.nodes,
                        info.elapsed.as_secs_f64()
                    ));
                });
                let best = r.best.as_deref().and_then(|text| {
                    doska_rules::notation::parse_move(&pos, text).ok().map(|m| (m, text))
                });
                match best {
                    Some((m, text)) => say(format!(
                        "done move={} notation={text} depth={}",
                        hub_move(&pos, &m),
                        r.depth
                    )),
                    None => say("done".into()),
                }
            }
            // `stop` already acted on the reader thread; pondering is not offered.
            "" | "stop" | "ponder-hit" => {}
            other => say(format!("error unknown command {other:?}")),
        }
    }
    Ok(())
}
