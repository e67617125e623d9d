//! `doska dxp`: the DamExchange Protocol (DXP, version 01, as described at
//! mesander.nl/damexchange), the standard for matches between international draughts programs
//! (Kingsrow, Scan, Moby Dam, Damage). doska speaks it as the initiator (`--connect`: it asks
//! for the games, chooses start positions and colours and keeps the score) and as the follower
//! (`--listen`: it waits for one initiator and plays the games it is asked for).
//!
//! Messages are ASCII over TCP, each ended by a NUL byte; squares are numbers 1-50:
//!
//! | | message | fields |
//! |---|---|---|
//! | `R` | GAMEREQ | version `01`, initiator's name (32), follower's colour (`W`/`Z`), minutes (3), moves (3), setup `A` (the start) or `B` + side to move (`W`/`Z`) + 50 squares (`e` `w` `z` `W` `Z`) |
//! | `A` | GAMEACC | follower's name (32), `0` accepted, `1` not this version, `2` not this game, `3` no game at all |
//! | `M` | MOVE | seconds used (4), from (2), to (2), number captured (2), each captured square (2) |
//! | `E` | GAMEEND | `0` unknown, `1` the sender loses, `2` draw, `3` the sender wins; then `0` more games may follow, `1` stop |
//! | `C` | CHAT | text |
//! | `B` | BACKREQ | move number (3), side to move (`W`/`Z`): doska answers `K1` (not supported) |
//! | `K` | BACKACC | `0` accepted, `1` not supported, `2` declined |
//!
//! doska referees every game with its own rules. A move from the other side that is not legal
//! ends the session with an error naming it. A game ends when doska's rules end it (no piece,
//! no move, the FMJD draw rules, third repetition): doska sends GAMEEND with the result and
//! waits for the other side's. A GAMEEND the other side sends first is answered, and its claim
//! is the result; when doska's rules had not ended the game, the summary says so.

use crate::engine_cmd::{Player, Tally, openings};
use crate::hub_cmd::{find_by_numbers, hub_position};
use anyhow::{Context, Result, anyhow, bail};
use clap::{ArgGroup, Args};
use doska_engine::{Level, Limits, Searcher, analyze};
use doska_rules::fen::Counters;
use doska_rules::{AnyGame, Color, Game, Move, Position, RuleSet, Variant, Winner};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// `doska dxp`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("role").required(true).args(["connect", "listen"])))]
pub struct DxpArgs {
    /// Be the initiator: connect to a follower at HOST:PORT (Moby Dam and Kingsrow listen on
    /// port 27531).
    #[arg(long, value_name = "HOST:PORT")]
    connect: Option<String>,
    /// Be the follower: wait at ADDR:PORT (e.g. 127.0.0.1:27531) for one initiator and play
    /// its games until it stops.
    #[arg(long, value_name = "ADDR:PORT")]
    listen: Option<String>,
    /// Initiator: games to play, rounded up to an even number (each start position is played
    /// with both colours).
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Think this many milliseconds a move. Default: the initiator 1000; the follower spreads
    /// the game time it is given over the moves.
    #[arg(long, conflicts_with = "depth")]
    movetime: Option<u64>,
    /// Search to this depth each move instead of by time.
    #[arg(long)]
    depth: Option<u32>,
    /// Initiator: each side's time for the game in minutes, sent in GAMEREQ (default: enough
    /// for --movetime over 150 moves, at least 1).
    #[arg(long, conflicts_with = "listen")]
    minutes: Option<u32>,
    /// Initiator: the number of moves the time is for, sent in GAMEREQ (0: the whole game; a
    /// follower may end the game when they are played).
    #[arg(long, default_value_t = 0, conflicts_with = "listen")]
    moves: u32,
    /// Initiator: start every game from this position (FEN) instead of the balanced openings
    /// two plies from the start.
    #[arg(long, conflicts_with = "listen")]
    fen: Option<String>,
    /// Initiator: take each opening this many places further along the list of two-ply
    /// openings (every first move with every reply, in order). The openings are spread over
    /// that list, one for every two games, so a run with the same --games and another offset
    /// plays others: `--games 40` takes every fourth of the 81, and offsets 1, 2 and 3 take
    /// the ones between.
    #[arg(long, default_value_t = 0, conflicts_with_all = ["fen", "listen"])]
    opening_offset: usize,
    /// doska's level.
    #[arg(long, default_value = "insane")]
    level: Level,
    /// Evaluation terms and search techniques doska goes without (as for `doska match`).
    #[arg(long, value_name = "NAMES", default_value = "")]
    without: String,
    /// The name doska gives itself in GAMEREQ or GAMEACC.
    #[arg(long, default_value = "doska")]
    name: String,
    /// Write every game as PDN to this file.
    #[arg(long, value_name = "FILE")]
    pdn_out: Option<PathBuf>,
    /// Print every message sent and received on standard error.
    #[arg(long)]
    verbose: bool,
    /// Endgame databases.
    #[command(flatten)]
    pub(crate) egdb: crate::egdb_cmd::EgdbDir,
}

/// One DXP message.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// `R`: the initiator asks for a game.
    GameReq {
        /// The initiator's name.
        name: String,
        /// The follower's colour.
        follower: Color,
        /// Each side's time for `moves` moves, in minutes.
        minutes: u32,
        /// Moves the time is for (0: the whole game).
        moves: u32,
        /// The start position (`None`: the standard start).
        start: Option<Position>,
    },
    /// `A`: the follower's answer.
    GameAcc {
        /// The follower's name.
        name: String,
        /// 0 accepted, 1 not this version, 2 not this game, 3 no game at all.
        code: u8,
    },
    /// `M`: a move.
    Move {
        /// Seconds the mover used.
        seconds: u32,
        /// From square number.
        from: u32,
        /// To square number.
        to: u32,
        /// Captured square numbers.
        captured: Vec<u32>,
    },
    /// `E`: a game ends.
    GameEnd {
        /// 0 unknown, 1 the sender loses, 2 draw, 3 the sender wins.
        reason: u8,
        /// No more games after this one.
        stop: bool,
    },
    /// `C`: chat.
    Chat(String),
    /// `B`: a request to take moves back.
    BackReq {
        /// The move number to go back to.
        move_number: u32,
        /// The side to move there.
        turn: Color,
    },
    /// `R` of a protocol version other than 01 (the follower declines it with `A...1`).
    OtherVersion(u32),
    /// `K`: the answer to `B`.
    BackAcc {
        /// 0 accepted, 1 not supported, 2 declined.
        code: u8,
    },
}

fn colour_letter(c: Color) -> char {
    match c {
        Color::White => 'W',
        Color::Black => 'Z',
    }
}

fn colour_of(c: char) -> Result<Color, String> {
    match c {
        'W' | 'w' => Ok(Color::White),
        'Z' | 'z' => Ok(Color::Black),
        other => Err(format!("colour {other:?}: W (white) or Z (black)")),
    }
}

/// `count` ASCII digits at `at`.
fn number(text: &str, at: usize, count: usize, what: &str) -> Result<u32, String> {
    let field =
        text.get(at..at + count).ok_or_else(|| format!("{what}: the message ends early"))?;
    if !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what}: {field:?} is not {count} digits"));
    }
    field.parse().map_err(|_| format!("{what}: {field:?}"))
}

/// The DXP letters of a position: side to move and 50 squares.
fn board_text(pos: &Position) -> String {
    let g = &pos.rules().geometry;
    let mut out = String::from(colour_letter(pos.turn()));
    for n in 1..=50 {
        let piece = g.square_of_number(n).and_then(|sq| pos.piece_at(sq));
        out.push(match piece {
            None => 'e',
            Some(p) => match (p.color, p.king) {
                (Color::White, false) => 'w',
                (Color::White, true) => 'W',
                (Color::Black, false) => 'z',
                (Color::Black, true) => 'Z',
            },
        });
    }
    out
}

/// Reads DXP position letters (side to move and 50 squares).
fn read_board(text: &str) -> Result<Position, String> {
    let bad = || format!("position {text:?}: W or Z, then 50 of e w z W Z");
    if text.chars().count() != 51 {
        return Err(bad());
    }
    // Hub's letters are the same but for black: b and B.
    let hub: String = text
        .chars()
        .enumerate()
        .map(|(i, c)| match (i, c) {
            (0, 'Z') => Ok('B'),
            (0, 'W') => Ok('W'),
            (0, _) => Err(bad()),
            (_, 'z') => Ok('b'),
            (_, 'Z') => Ok('B'),
            (_, 'e' | 'w' | 'W') => Ok(c),
            _ => Err(bad()),
        })
        .collect::<Result<_, _>>()?;
    hub_position(Variant::International, &hub).ok_or_else(bad)
}

impl Msg {
    /// Reads one message (without its NUL).
    pub fn parse(text: &str) -> Result<Msg, String> {
        if !text.is_ascii() {
            return Err("a DXP message is ASCII".into());
        }
        let Some(kind) = text.chars().next() else {
            return Err("an empty message".into());
        };
        match kind {
            'R' => {
                let version = number(text, 1, 2, "GAMEREQ version")?;
                if version != 1 {
                    // Its other fields may be laid out otherwise: not read.
                    return Ok(Msg::OtherVersion(version));
                }
                let name = text.get(3..35).ok_or("GAMEREQ: the message ends early")?;
                let follower = colour_of(text.as_bytes()[35] as char)
                    .map_err(|e| format!("GAMEREQ follower {e}"))?;
                let minutes = number(text, 36, 3, "GAMEREQ minutes")?;
                let moves = number(text, 39, 3, "GAMEREQ moves")?;
                let start = match text.get(42..43) {
                    Some("A") => None,
                    Some("B") => Some(read_board(text.get(43..).unwrap_or(""))?),
                    other => {
                        return Err(format!(
                            "GAMEREQ setup {other:?}: A (the start) or B (a position)"
                        ));
                    }
                };
                Ok(Msg::GameReq { name: name.trim().to_string(), follower, minutes, moves, start })
            }
            'A' => {
                let name = text.get(1..33).ok_or("GAMEACC: the message ends early")?;
                let code = number(text, 33, 1, "GAMEACC code")? as u8;
                Ok(Msg::GameAcc { name: name.trim().to_string(), code })
            }
            'M' => {
                let seconds = number(text, 1, 4, "MOVE time")?;
                let from = number(text, 5, 2, "MOVE from")?;
                let to = number(text, 7, 2, "MOVE to")?;
                let count = number(text, 9, 2, "MOVE captures")? as usize;
                let captured = (0..count)
                    .map(|i| number(text, 11 + 2 * i, 2, "MOVE captured square"))
                    .collect::<Result<_, _>>()?;
                if text.len() != 11 + 2 * count {
                    return Err(format!(
                        "MOVE {text:?}: {count} captured squares but {} characters",
                        text.len()
                    ));
                }
                Ok(Msg::Move { seconds, from, to, captured })
            }
            'E' => {
                let reason = number(text, 1, 1, "GAMEEND reason")? as u8;
                let stop = number(text, 2, 1, "GAMEEND stop code")?;
                if reason > 3 || stop > 1 {
                    return Err(format!("GAMEEND {text:?}: reason 0-3 and stop code 0 or 1"));
                }
                Ok(Msg::GameEnd { reason, stop: stop == 1 })
            }
            'C' => Ok(Msg::Chat(text[1..].to_string())),
            'B' => {
                let move_number = number(text, 1, 3, "BACKREQ move")?;
                let turn = colour_of(text.chars().nth(4).unwrap_or(' '))
                    .map_err(|e| format!("BACKREQ {e}"))?;
                Ok(Msg::BackReq { move_number, turn })
            }
            'K' => Ok(Msg::BackAcc { code: number(text, 1, 1, "BACKACC code")? as u8 }),
            other => Err(format!("unknown message type {other:?}: one of R A M E C B K")),
        }
    }

    /// The message as sent (without its NUL).
    pub fn text(&self) -> String {
        let name32 = |n: &str| format!("{:<32.32}", n);
        match self {
            Msg::GameReq { name, follower, minutes, moves, start } => format!(
                "R01{}{}{:03}{:03}{}",
                name32(name),
                colour_letter(*follower),
                minutes.min(&999),
                moves.min(&999),
                match start {
                    None => "A".to_string(),
                    Some(p) => format!("B{}", board_text(p)),
                }
            ),
            Msg::GameAcc { name, code } => format!("A{}{code}", name32(name)),
            Msg::Move { seconds, from, to, captured } => {
                let mut s =
                    format!("M{:04}{from:02}{to:02}{:02}", seconds.min(&9999), captured.len());
                for c in captured {
                    s += &format!("{c:02}");
                }
                s
            }
            Msg::GameEnd { reason, stop } => format!("E{reason}{}", u8::from(*stop)),
            Msg::Chat(t) => format!("C{t}"),
            Msg::BackReq { move_number, turn } => {
                format!("B{move_number:03}{}", colour_letter(*turn))
            }
            Msg::BackAcc { code } => format!("K{code}"),
            Msg::OtherVersion(v) => format!("R{v:02}"),
        }
    }
}

/// The DXP move message of a legal move.
fn move_msg(pos: &Position, m: &Move, seconds: u32) -> Msg {
    let g = &pos.rules().geometry;
    Msg::Move {
        seconds,
        from: g.number(m.from).into(),
        to: g.number(m.to).into(),
        captured: m.captures_in_order(g).iter().map(|s| u32::from(g.number(*s))).collect(),
    }
}

/// One TCP connection, message by message.
struct Conn {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    verbose: bool,
}

impl Conn {
    fn new(stream: TcpStream, verbose: bool) -> Result<Conn> {
        stream.set_nodelay(true).ok();
        let writer = stream.try_clone().context("sharing the connection")?;
        Ok(Conn { reader: BufReader::new(stream), writer, verbose })
    }

    fn send(&mut self, m: &Msg) -> Result<()> {
        let text = m.text();
        if self.verbose {
            eprintln!("dxp > {text}");
        }
        self.writer.write_all(text.as_bytes()).context("sending to the other program")?;
        self.writer.write_all(&[0]).context("sending to the other program")?;
        Ok(())
    }

    /// The next message; chat is printed and skipped, a request to take moves back is
    /// declined as not supported. An error when the connection closes.
    fn recv(&mut self) -> Result<Msg> {
        self.recv_or_closed()?.ok_or_else(|| anyhow!("the other program closed the connection"))
    }

    /// The next message, or `None` when the other side closed the connection.
    fn recv_or_closed(&mut self) -> Result<Option<Msg>> {
        loop {
            let mut buf = Vec::new();
            let n =
                self.reader.read_until(0, &mut buf).context("reading from the other program")?;
            if n == 0 {
                return Ok(None);
            }
            if buf.last() == Some(&0) {
                buf.pop();
            }
            // Some programs end messages with CR/LF as well.
            let text = String::from_utf8_lossy(&buf).trim_matches(['\r', '\n']).to_string();
            if text.is_empty() {
                continue;
            }
            if self.verbose {
                eprintln!("dxp < {text}");
            }
            let msg = Msg::parse(&text).map_err(|e| anyhow!("a bad message {text:?}: {e}"))?;
            match msg {
                Msg::Chat(t) => eprintln!("dxp chat: {t}"),
                Msg::BackReq { .. } => self.send(&Msg::BackAcc { code: 1 })?,
                m => return Ok(Some(m)),
            }
        }
    }
}

/// How one game ended, from doska's side.
struct Ended {
    /// Who won, or `None` when the other side ended it without saying (reason 0).
    winner: Option<Winner>,
    /// Why, in words.
    how: String,
    /// The other side asked to stop after this game.
    stop: bool,
}

/// doska's side of the games: the searcher (its table kept from move to move) and its limits.
struct Engine {
    searcher: Searcher,
    movetime: Option<u64>,
    depth: Option<u32>,
}

impl Engine {
    fn new(
        level: Level,
        without: &str,
        movetime: Option<u64>,
        depth: Option<u32>,
    ) -> Result<Engine> {
        Ok(Engine { searcher: Player::new(level, without, 1)?.searcher(), movetime, depth })
    }

    /// doska's move in `game`, searched for `default_ms` unless a time or depth was given.
    fn choose(&mut self, game: &Game, default_ms: u64) -> Result<(Move, u32)> {
        let limits = match self.depth {
            Some(d) => Limits { depth: Some(d), nodes: None, movetime: None },
            None => Limits {
                depth: None,
                nodes: None,
                movetime: Some(Duration::from_millis(self.movetime.unwrap_or(default_ms).max(1))),
            },
        };
        let pos = game.position().clone();
        let r = analyze(&mut self.searcher, &AnyGame::Draughts(game.clone()), limits, |_| {});
        let mv = r
            .best
            .and_then(|t| doska_rules::notation::parse_move(&pos, &t).ok())
            .or_else(|| pos.legal_moves().into_iter().next())
            .ok_or_else(|| anyhow!("no move to play in {}", game.fen()))?;
        Ok((mv, r.depth))
    }
}

/// The game time of one side.
struct Clock {
    left_ms: u64,
    moves: u32,
    played: u32,
}

impl Clock {
    /// A share of the time left: spread over the moves still to play (the whole game: 50 more).
    fn share(&self) -> u64 {
        let to_go = if self.moves > 0 { self.moves.saturating_sub(self.played).max(1) } else { 50 };
        (self.left_ms / (u64::from(to_go) + 2)).max(10)
    }
}

/// Each side's real time per move (doska's search; the other side's from doska's move sent to
/// its reply read) and doska's depth.
#[derive(Default)]
struct Times {
    doska: Vec<Duration>,
    other: Vec<Duration>,
    depths: Vec<u32>,
}

impl Times {
    fn line(&self, other: &str) -> String {
        let mean = |v: &[Duration]| v.iter().sum::<Duration>().as_millis() / v.len().max(1) as u128;
        let max = |v: &[Duration]| v.iter().max().copied().unwrap_or_default().as_millis();
        format!(
            "time per move: doska mean {} ms, max {} ms, mean depth {:.1}; {other} mean {} ms, max {} ms",
            mean(&self.doska),
            max(&self.doska),
            self.depths.iter().sum::<u32>() as f64 / self.depths.len().max(1) as f64,
            mean(&self.other),
            max(&self.other)
        )
    }
}

/// Plays one game on `conn` with doska as `me`, from `game` (already at the start position),
/// until it ends; `stop` goes with doska's GAMEEND.
fn play_game(
    conn: &mut Conn,
    game: &mut Game,
    me: Color,
    engine: &mut Engine,
    clock: &mut Clock,
    stop: bool,
    times: &mut Times,
) -> Result<Ended> {
    // When the other side's clock started: at the start, or when doska's move was sent.
    let mut their_clock = Instant::now();
    loop {
        if let Some(o) = game.outcome() {
            let reason = match o.winner {
                Winner::Draw => 2,
                w if w == Winner::side(me) => 3,
                _ => 1,
            };
            conn.send(&Msg::GameEnd { reason, stop })?;
            // The other side answers with its own GAMEEND (or it sent one at the same time).
            loop {
                match conn.recv()? {
                    Msg::GameEnd { stop: theirs, .. } => {
                        return Ok(Ended {
                            winner: Some(o.winner),
                            how: o.reason.to_string(),
                            stop: theirs,
                        });
                    }
                    Msg::Move { .. } => continue, // a move sent before it saw the end
                    other => bail!("waiting for GAMEEND, got {}", other.text()),
                }
            }
        }
        if game.position().turn() == me {
            let started = Instant::now();
            let (mv, depth) = engine.choose(game, clock.share())?;
            let used = started.elapsed();
            times.doska.push(used);
            times.depths.push(depth);
            clock.left_ms = clock.left_ms.saturating_sub(used.as_millis() as u64);
            clock.played += 1;
            let msg = move_msg(game.position(), &mv, used.as_secs() as u32);
            game.play(&mv).map_err(|e| anyhow!("doska's own move: {e}"))?;
            conn.send(&msg)?;
            their_clock = Instant::now();
            continue;
        }
        match conn.recv()? {
            Msg::Move { from, to, captured, .. } => {
                times.other.push(their_clock.elapsed());
                let Some(mv) = find_by_numbers(game.position(), from, to, &captured) else {
                    let text = Msg::Move { seconds: 0, from, to, captured }.text();
                    conn.send(&Msg::Chat(format!("doska: illegal move {text} in {}", game.fen())))
                        .ok();
                    conn.send(&Msg::GameEnd { reason: 0, stop: true }).ok();
                    bail!("the other program played {text}, which is not legal in {}", game.fen());
                };
                game.play(&mv).map_err(|e| anyhow!("the other program's move: {e}"))?;
            }
            Msg::GameEnd { reason, stop: theirs } => {
                conn.send(&Msg::GameEnd { reason: 0, stop: stop || theirs })?;
                // The sender is the other side: 1 it loses, 3 it wins.
                let winner = match reason {
                    1 => Some(Winner::side(me)),
                    2 => Some(Winner::Draw),
                    3 => Some(Winner::side(me.opposite())),
                    _ => None,
                };
                let how = match reason {
                    1 => "the other program resigned",
                    2 => "the other program claimed a draw",
                    3 => "the other program claimed the win",
                    _ => "the other program ended the game without a result",
                };
                match winner {
                    Some(Winner::Draw) => game.agree_draw(),
                    Some(Winner::White) => game.resign(Color::Black),
                    Some(Winner::Black) => game.resign(Color::White),
                    None => {}
                }
                return Ok(Ended {
                    winner,
                    how: format!("{how} (doska's rules had not ended it)"),
                    stop: theirs,
                });
            }
            other => bail!("during a game, got {}", other.text()),
        }
    }
}

/// The score of doska's side: 1, 0.5 or 0 (`None`: no result).
fn score(winner: Option<Winner>, me: Color) -> Option<f64> {
    match winner? {
        Winner::Draw => Some(0.5),
        w => Some(if w == Winner::side(me) { 1.0 } else { 0.0 }),
    }
}

fn pdn(game: &Game, white: &str, black: &str, ended: &Ended) -> String {
    doska_rules::pdn::write(
        game,
        &[("White", white), ("Black", black), ("Termination", &ended.how)],
    )
}

/// Runs `doska dxp`.
pub fn dxp(a: &DxpArgs) -> Result<()> {
    a.egdb.install(Some(Variant::International))?;
    let mut engine = Engine::new(a.level, &a.without, a.movetime, a.depth)?;
    match (&a.connect, &a.listen) {
        (Some(addr), _) => initiate(a, addr, &mut engine),
        (_, Some(addr)) => follow(a, addr, &mut engine),
        _ => bail!("say --connect HOST:PORT (initiator) or --listen ADDR:PORT (follower)"),
    }
}

/// The initiator: asks for the games, colours alternating, and prints the score.
fn initiate(a: &DxpArgs, addr: &str, engine: &mut Engine) -> Result<()> {
    let stream = TcpStream::connect(addr).with_context(|| format!("connecting to {addr}"))?;
    let mut conn = Conn::new(stream, a.verbose)?;
    let movetime = a.movetime.unwrap_or(1000);
    let minutes = a.minutes.unwrap_or_else(|| (movetime * 150).div_ceil(60_000).max(1) as u32);
    let pairs = a.games.div_ceil(2) as usize;
    let starts: Vec<Game> = match &a.fen {
        Some(f) => {
            let g = Game::from_fen(Variant::International, f).context("reading --fen")?;
            vec![g; pairs]
        }
        None => openings(RuleSet::Draughts(Variant::International), pairs, a.opening_offset)
            .iter()
            .map(|ms| {
                let mut g = Game::new(Variant::International);
                for m in ms {
                    g.play_text(m).map_err(|e| anyhow!("opening {ms:?}: {e}"))?;
                }
                Ok(g)
            })
            .collect::<Result<_>>()?,
    };
    let mut tally = Tally::default();
    let mut times = Times::default();
    let mut pdns = Vec::new();
    let mut unscored = 0;
    let mut follower_name = String::from("follower");
    let total = pairs * 2;
    'games: for (i, start) in starts.iter().enumerate() {
        for doska_white in [true, false] {
            let number = tally.games() + unscored + 1;
            let me = if doska_white { Color::White } else { Color::Black };
            let pos = start.position().clone();
            let setup = (pos != Position::start(Variant::International)).then_some(pos.clone());
            conn.send(&Msg::GameReq {
                name: a.name.clone(),
                follower: me.opposite(),
                minutes,
                moves: a.moves,
                start: setup,
            })?;
            match conn.recv()? {
                Msg::GameAcc { name, code: 0 } => follower_name = name,
                Msg::GameAcc { name, code } => bail!(
                    "{name} declined game {number} ({})",
                    match code {
                        1 => "not this protocol version",
                        2 => "not this game: colour, time or position",
                        _ => "no games at all",
                    }
                ),
                other => bail!("asked for a game, got {}", other.text()),
            }
            let mut game =
                Game::from_position(pos, Counters { move_number: 1, ..Counters::default() });
            let mut clock =
                Clock { left_ms: u64::from(minutes) * 60_000, moves: a.moves, played: 0 };
            let last = number == total;
            let ended = play_game(&mut conn, &mut game, me, engine, &mut clock, last, &mut times)?;
            let (white, black) = if doska_white {
                (a.name.as_str(), follower_name.as_str())
            } else {
                (follower_name.as_str(), a.name.as_str())
            };
            pdns.push(pdn(&game, white, black, &ended));
            match score(ended.winner, me) {
                Some(s) => tally.add(s),
                None => unscored += 1,
            }
            eprintln!(
                "game {number} (opening {}, doska {}): {} ({}) after {} plies; {}",
                i + 1,
                if doska_white { "white" } else { "black" },
                ended.winner.map_or("no result", |w| w.name()),
                ended.how,
                game.moves().len(),
                tally.counts()
            );
            if ended.stop && !last {
                eprintln!("the follower asked to stop");
                break 'games;
            }
        }
    }
    if let Some(path) = &a.pdn_out {
        std::fs::write(path, pdns.join("\n"))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let time = match (a.depth, a.movetime) {
        (Some(d), _) => format!("depth {d}"),
        (None, t) => format!("{} ms/move", t.unwrap_or(1000)),
    };
    outln!(
        "international: doska {} {time} vs {follower_name} ({minutes} min{}), {} games{}: {}",
        a.level,
        if a.moves > 0 { format!(" for {} moves", a.moves) } else { String::new() },
        tally.games(),
        if unscored > 0 { format!(" ({unscored} without a result)") } else { String::new() },
        tally.summary()
    );
    outln!("  {}", times.line(&follower_name));
    Ok(())
}

/// The follower: waits for one initiator and plays the games it asks for.
fn follow(a: &DxpArgs, addr: &str, engine: &mut Engine) -> Result<()> {
    let listener = TcpListener::bind(addr).with_context(|| format!("listening on {addr}"))?;
    eprintln!("doska dxp: waiting for an initiator on {}", listener.local_addr()?);
    let (stream, peer) = listener.accept().context("accepting a connection")?;
    eprintln!("doska dxp: {peer} connected");
    let mut conn = Conn::new(stream, a.verbose)?;
    let mut played = 0;
    let mut times = Times::default();
    loop {
        // The initiator may simply hang up once its games are played.
        let msg = match conn.recv_or_closed()? {
            Some(m) => m,
            None if played > 0 => break,
            None => bail!("the initiator closed the connection before any game was played"),
        };
        match msg {
            Msg::GameReq { name, follower, minutes, moves, start } => {
                let pos = start.unwrap_or_else(|| Position::start(Variant::International));
                let mut game =
                    Game::from_position(pos, Counters { move_number: 1, ..Counters::default() });
                if game.outcome().is_some() {
                    conn.send(&Msg::GameAcc { name: a.name.clone(), code: 2 })?;
                    continue;
                }
                conn.send(&Msg::GameAcc { name: a.name.clone(), code: 0 })?;
                let mut clock = Clock { left_ms: u64::from(minutes) * 60_000, moves, played: 0 };
                let ended = play_game(
                    &mut conn, &mut game, follower, engine, &mut clock, false, &mut times,
                )?;
                played += 1;
                eprintln!(
                    "game {played} against {name} (doska {}): {} ({}) after {} plies",
                    if follower == Color::White { "white" } else { "black" },
                    ended.winner.map_or("no result", |w| w.name()),
                    ended.how,
                    game.moves().len()
                );
                if let Some(path) = &a.pdn_out {
                    let (w, b) = if follower == Color::White {
                        (a.name.as_str(), name.as_str())
                    } else {
                        (name.as_str(), a.name.as_str())
                    };
                    let mut f = std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(path)
                        .with_context(|| format!("writing {}", path.display()))?;
                    writeln!(f, "{}", pdn(&game, w, b, &ended))?;
                }
                if ended.stop {
                    break;
                }
            }
            Msg::OtherVersion(v) => {
                eprintln!(
                    "doska dxp: declined a game of protocol version {v:02} (doska speaks 01)"
                );
                conn.send(&Msg::GameAcc { name: a.name.clone(), code: 1 })?;
            }
            Msg::GameEnd { stop, .. } => {
                // Between games: answer it, and stop if asked.
                conn.send(&Msg::GameEnd { reason: 0, stop })?;
                if stop {
                    break;
                }
            }
            other => bail!("waiting for GAMEREQ, got {}", other.text()),
        }
    }
    eprintln!("doska dxp: {played} games played; {}", times.line("the initiator"));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn messages_round_trip() {
        let mut pos = Position::start(Variant::International);
        pos = pos.play(&pos.legal_moves()[0]);
        let all = [
            Msg::GameReq {
                name: "Moby Dam".into(),
                follower: Color::Black,
                minutes: 5,
                moves: 75,
                start: None,
            },
            Msg::GameReq {
                name: "doska".into(),
                follower: Color::White,
                minutes: 120,
                moves: 0,
                start: Some(pos),
            },
            Msg::GameAcc { name: "Scan 2.0".into(), code: 0 },
            Msg::Move { seconds: 12, from: 32, to: 28, captured: vec![] },
            Msg::Move { seconds: 0, from: 28, to: 19, captured: vec![23, 13] },
            Msg::GameEnd { reason: 3, stop: true },
            Msg::Chat("good luck".into()),
            Msg::BackReq { move_number: 12, turn: Color::Black },
            Msg::BackAcc { code: 1 },
        ];
        for m in all {
            assert_eq!(Msg::parse(&m.text()), Ok(m.clone()), "{}", m.text());
        }
    }

    #[test]
    fn runs_with_other_offsets_play_other_openings() {
        let rules = RuleSet::Draughts(Variant::International);
        let runs: Vec<Vec<Vec<String>>> = (0..4).map(|k| openings(rules, 20, k)).collect();
        let all: HashSet<&Vec<String>> = runs.iter().flatten().collect();
        // 9 first moves, 9 replies each: four runs of 20 take 80 of the 81, none twice.
        assert_eq!(all.len(), 80);
        // 40 games a run take every fourth opening; 80 games, every other one.
        let twice: HashSet<&Vec<String>> = runs[0].iter().chain(&runs[2]).collect();
        let eighty = openings(rules, 40, 0);
        assert_eq!(eighty.iter().collect::<HashSet<_>>(), twice);
    }

    #[test]
    fn the_published_layout() {
        let r = Msg::GameReq {
            name: "doska".into(),
            follower: Color::Black,
            minutes: 10,
            moves: 75,
            start: None,
        };
        assert_eq!(r.text(), format!("R01doska{}Z010075A", " ".repeat(27)));
        assert_eq!(
            Msg::Move { seconds: 3, from: 28, to: 17, captured: vec![22] }.text(),
            "M0003281701".to_string() + "22"
        );
        assert_eq!(Msg::GameEnd { reason: 2, stop: false }.text(), "E20");
        let start = Position::start(Variant::International);
        assert_eq!(
            board_text(&start),
            format!("W{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20))
        );
        assert_eq!(read_board(&board_text(&start)), Ok(start));
    }

    #[test]
    fn bad_messages_say_what_is_wrong() {
        for (text, says) in [
            ("", "empty"),
            ("X12", "unknown message type 'X'"),
            ("M00a2281700", "MOVE time"),
            ("M0000281702", "ends early"),
            ("M000028170122xx", "characters"),
            ("E4", "stop code"),
            ("E41", "reason 0-3"),
            ("R01x                               Q010075A", "follower colour 'Q'"),
            ("R01x                               Z010075B", "position"),
            ("R01x                               Z010075C", "setup"),
        ] {
            let e = Msg::parse(text).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }

    #[test]
    fn another_protocol_version_is_recognised_to_be_declined() {
        assert_eq!(Msg::parse("R02doska"), Ok(Msg::OtherVersion(2)));
    }

    /// Plays `games` games of doska against itself over loopback, one side in a thread.
    fn self_match(games: u32) -> (String, String) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        drop(listener);
        let dir = std::env::temp_dir().join(format!("doska-dxp-{}-{games}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let follower_pdn = dir.join("follower.pdn");
        let _ = std::fs::remove_file(&follower_pdn);
        let f_args = DxpArgs {
            connect: None,
            listen: Some(addr.to_string()),
            games: 0,
            movetime: None,
            depth: Some(2),
            minutes: None,
            moves: 0,
            fen: None,
            opening_offset: 0,
            level: Level::Insane,
            without: String::new(),
            name: "doska follower".into(),
            pdn_out: Some(follower_pdn.clone()),
            verbose: false,
            egdb: crate::egdb_cmd::EgdbDir { dir: dir.join("no-egdb") },
        };
        let follower = std::thread::spawn(move || dxp(&f_args).map_err(|e| e.to_string()));
        let initiator_pdn = dir.join("initiator.pdn");
        let i_args = DxpArgs {
            connect: Some(addr.to_string()),
            listen: None,
            games,
            movetime: None,
            depth: Some(3),
            minutes: Some(1),
            moves: 0,
            fen: None,
            opening_offset: 0,
            level: Level::Insane,
            without: String::new(),
            name: "doska initiator".into(),
            pdn_out: Some(initiator_pdn.clone()),
            verbose: false,
            egdb: crate::egdb_cmd::EgdbDir { dir: dir.join("no-egdb") },
        };
        let mut tries = 0;
        let r = loop {
            match dxp(&i_args) {
                Err(e) if tries < 50 && format!("{e:#}").contains("connecting") => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(100));
                }
                r => break r,
            }
        };
        r.unwrap();
        follower.join().unwrap().unwrap();
        let pdns = (
            std::fs::read_to_string(initiator_pdn).unwrap(),
            std::fs::read_to_string(follower_pdn).unwrap(),
        );
        let _ = std::fs::remove_dir_all(&dir);
        pdns
    }

    #[test]
    fn doska_plays_itself_over_dxp() {
        let (initiator, follower) = self_match(2);
        let games = |t: &str| -> Vec<String> {
            t.split("[White ")
                .filter(|s| !s.trim().is_empty())
                .map(|s| format!("[White {s}"))
                .collect()
        };
        let moves = |g: &str| -> String {
            g.lines()
                .filter(|l| !l.starts_with('['))
                .collect::<Vec<_>>()
                .join(" ")
                .trim()
                .to_string()
        };
        let (a, b) = (games(&initiator), games(&follower));
        assert_eq!(a.len(), 2, "{initiator}");
        assert_eq!(b.len(), 2, "{follower}");
        for (x, y) in a.iter().zip(&b) {
            // Both sides kept the same game, move for move, with the same result...
            assert_eq!(moves(x), moves(y));
            assert!(!moves(x).ends_with('*'), "a game without a result: {x}");
            // ...and it reads back as a finished game under doska's rules.
            let g = AnyGame::import(x, RuleSet::Draughts(Variant::International)).unwrap();
            assert!(g.outcome().is_some(), "{x}");
        }
        // The two games began from the same opening with the colours swapped.
        assert!(
            a[0].contains("[White \"doska initiator\"]")
                && a[1].contains("[Black \"doska initiator\"]")
        );
    }
}
