//! Another build of doska as a match player (`doska match --b-program`): its `doska hub` in a
//! child process, told the game's start and every move at each turn. A change that no
//! `--without` switch turns off (the transposition table's layout, a faster move generator)
//! is measured this way against the build before it, under the same referee and openings.

use anyhow::{Context, Result, bail};
use doska_rules::AnyGame;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The most of the program's error output kept to explain its end (the last bytes).
const STDERR_KEPT: usize = 4096;

/// A running `PROGRAM hub`, set up for one rule set and a time per move.
pub(crate) struct Program {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    name: String,
    /// Reads the program's error output as it comes (so a full pipe never stops it) and
    /// gives its last [`STDERR_KEPT`] bytes when the program has ended.
    stderr: Option<JoinHandle<Vec<u8>>>,
}

impl Program {
    /// Starts `path hub` (with `--without`, `--weights`, `--egdb` as given) for rule set
    /// `variant` (its id) with `movetime` a move, and waits until it is ready.
    pub(crate) fn start(
        path: &Path,
        without: &str,
        weights: Option<&Path>,
        egdb: &Path,
        variant: &str,
        movetime: Duration,
    ) -> Result<Program> {
        let name = path.display().to_string();
        let mut command = Command::new(path);
        command.arg("hub").arg("--egdb").arg(egdb);
        if !without.is_empty() {
            command.arg("--without").arg(without);
        }
        if let Some(file) = weights {
            command.arg("--weights").arg(file);
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting {name} hub (--b-program names a doska binary)"))?;
        let (Some(input), Some(output), Some(mut errors)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            bail!("{name} hub: no pipes to talk to it");
        };
        let stderr = std::thread::spawn(move || {
            let (mut kept, mut chunk) = (Vec::new(), [0u8; 1024]);
            while let Ok(n @ 1..) = errors.read(&mut chunk) {
                kept.extend_from_slice(&chunk[..n]);
                let excess = kept.len().saturating_sub(STDERR_KEPT);
                kept.drain(..excess);
            }
            kept
        });
        let mut p =
            Program { child, input, output: BufReader::new(output), name, stderr: Some(stderr) };
        p.say("hub")?;
        p.read_until("wait")?;
        p.say(&format!("set-param name=variant value={variant}"))?;
        p.say(&format!("level move-time={}", movetime.as_secs_f64()))?;
        p.say("init")?;
        p.read_until("ready")?;
        Ok(p)
    }

    fn say(&mut self, line: &str) -> Result<()> {
        // A program that refused its arguments has ended before it reads anything.
        if writeln!(self.input, "{line}").and_then(|_| self.input.flush()).is_err() {
            bail!(self.ended(&format!("before it read {line:?}")));
        }
        Ok(())
    }

    /// That the program has ended (`when`), with what it said on its error output: why, as
    /// it tells it (an argument refused, a file that does not fit).
    fn ended(&mut self, when: &str) -> String {
        // It has closed its pipes: give it a moment to exit, so its last words are out.
        let deadline = Instant::now() + Duration::from_secs(2);
        let status = loop {
            match self.child.try_wait() {
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Ok(Some(status)) => break status,
                // Still running (or not to be asked): its error output may never end.
                _ => return format!("{} hub ended {when}", self.name),
            }
        };
        let said = self.stderr.take().and_then(|h| h.join().ok()).unwrap_or_default();
        let said = String::from_utf8_lossy(&said);
        match said.trim() {
            "" => format!("{} hub ended {when} ({status})", self.name),
            said => format!("{} hub ended {when} ({status}): {said}", self.name),
        }
    }

    /// The first line that starts with `word` (an `error` line is an error).
    fn read_until(&mut self, word: &str) -> Result<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.output.read_line(&mut line)? == 0 {
                bail!(self.ended(&format!("while {word:?} was awaited")));
            }
            let text = line.trim();
            if text.starts_with("error") {
                bail!("{} hub: {text}", self.name);
            }
            if text.split_whitespace().next() == Some(word) {
                return Ok(text.to_string());
            }
        }
    }

    /// Its move in `game` (in the rule set's notation); none when it has none to play.
    pub(crate) fn choose(&mut self, game: &AnyGame) -> Result<Option<String>> {
        let moves: Vec<String> = game.history().into_iter().map(|m| m.notation).collect();
        self.say(&format!("pos fen={} moves=\"{}\"", game.start_fen(), moves.join(" ")))?;
        self.say("go think")?;
        let done = self.read_until("done")?;
        Ok(done.split_whitespace().find_map(|kv| kv.strip_prefix("notation=")).map(str::to_string))
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        let _ = self.say("quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
