//! One engine as a child process, spoken to over the protocol (protocol.md §1):
//! a command line in, one `=`/`?` reply out. Every wait has a deadline, so an
//! engine that stalls, dies or prints garbage becomes an [`EngineError`] the page
//! can show, never a hung server.
//!
//! The engine's game is kept in step with the board's by [`Engine::sync`]: it
//! remembers what it last told the engine (the game's start and its moves) and
//! sends only the difference (`play` for new moves, `undo` for taken-back ones,
//! a fresh start otherwise).

use std::fmt;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::time::timeout;

use tessera::record::Start;

use crate::game::Game;

/// How long an ordinary command may take before the engine counts as stalled.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(20);

/// Why an engine can no longer be used (it is then killed; the page offers a restart).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    Spawn(String),
    Crashed(String),
    Stalled(String),
    Garbage(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(s) => write!(f, "could not start the engine: {s}"),
            EngineError::Crashed(s) => write!(f, "the engine crashed: {s}"),
            EngineError::Stalled(s) => write!(f, "the engine stalled: {s}"),
            EngineError::Garbage(s) => write!(f, "the engine answered garbage: {s}"),
        }
    }
}

/// A reply: `Ok(text)` for `=`, `Err(message)` for `?` (the engine refused).
pub type Reply = Result<String, String>;

/// Splits a command line into words: spaces separate, `'…'` and `"…"` quote,
/// `\` escapes the next character outside single quotes.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed ' in '{line}'")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => word.push(c),
                            None => return Err(format!("trailing \\ in '{line}'")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed \" in '{line}'")),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => {
                    in_word = true;
                    word.push(c);
                }
                None => return Err(format!("trailing \\ in '{line}'")),
            },
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("the engine command line is empty".into());
    }
    Ok(words)
}

/// What the engine has been told: the game's start and the moves played since.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Told {
    start: Start,
    moves: Vec<String>,
}

pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    told: Option<Told>,
    level: Option<String>,
    /// The last lines of the engine's stderr, for the crash report.
    stderr_tail: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Engine {
    /// Starts `command` (a command line, split as [`split_command`] says).
    pub async fn spawn(command: &str) -> Result<Engine, EngineError> {
        let words = split_command(command).map_err(EngineError::Spawn)?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| EngineError::Spawn("empty command".into()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("'{command}': {e}")))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| EngineError::Spawn("no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| EngineError::Spawn("no stdout".into()))?;
        let stderr_tail = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        if let Some(stderr) = child.stderr.take() {
            let tail = stderr_tail.clone();
            tokio::spawn(async move {
                let mut lines = BufReader::new(stderr).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    if let Ok(mut t) = tail.lock() {
                        t.push(line);
                        if t.len() > 5 {
                            t.remove(0);
                        }
                    }
                }
            });
        }
        let mut engine = Engine {
            child,
            stdin,
            stdout: BufReader::new(stdout).lines(),
            told: None,
            level: None,
            stderr_tail,
        };
        // A first exchange, so that a program that is not an engine fails now.
        let _version = engine.command("protocol_version", COMMAND_TIMEOUT).await?;
        Ok(engine)
    }

    fn crash_detail(&mut self, what: &str) -> String {
        let status = match self.child.try_wait() {
            Ok(Some(status)) => format!(" ({status})"),
            _ => String::new(),
        };
        let tail = self
            .stderr_tail
            .lock()
            .map(|t| t.join(" | "))
            .unwrap_or_default();
        if tail.is_empty() {
            format!("{what}{status}")
        } else {
            format!("{what}{status}; its last words: {tail}")
        }
    }

    /// Sends one line without waiting for anything.
    pub async fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let text = format!("{line}\n");
        if let Err(e) = self.stdin.write_all(text.as_bytes()).await {
            let detail = self.crash_detail(&format!("writing '{line}': {e}"));
            return Err(EngineError::Crashed(detail));
        }
        if let Err(e) = self.stdin.flush().await {
            let detail = self.crash_detail(&format!("writing '{line}': {e}"));
            return Err(EngineError::Crashed(detail));
        }
        Ok(())
    }

    /// The next line of stdout, within `wait`.
    pub async fn next_line(&mut self, wait: Duration, asked: &str) -> Result<String, EngineError> {
        match timeout(wait, self.stdout.next_line()).await {
            Err(_) => Err(EngineError::Stalled(format!(
                "no answer to '{asked}' within {} s",
                wait.as_secs_f64()
            ))),
            Ok(Ok(Some(line))) => Ok(line.trim_end_matches('\r').to_string()),
            Ok(Ok(None)) => {
                // Give the process a moment to be reaped, for its exit status.
                tokio::time::sleep(Duration::from_millis(20)).await;
                let detail =
                    self.crash_detail(&format!("its output ended while answering '{asked}'"));
                Err(EngineError::Crashed(detail))
            }
            Ok(Err(e)) => Err(EngineError::Garbage(format!("unreadable output: {e}"))),
        }
    }

    /// Reads one reply (after its command was sent): the `=`/`?` line, then the
    /// lines up to the empty line.
    pub async fn read_reply(&mut self, wait: Duration, asked: &str) -> Result<Reply, EngineError> {
        let first = loop {
            let line = self.next_line(wait, asked).await?;
            if !line.trim().is_empty() {
                break line;
            }
        };
        let (ok, rest) = if let Some(rest) = first.strip_prefix('=') {
            (true, rest)
        } else if let Some(rest) = first.strip_prefix('?') {
            (false, rest)
        } else {
            return Err(EngineError::Garbage(format!(
                "'{}' in reply to '{asked}'",
                first.chars().take(200).collect::<String>()
            )));
        };
        // Skip a numeric id; the board sends none, but tolerate one.
        let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        let mut text = rest.trim().to_string();
        loop {
            let line = self.next_line(wait, asked).await?;
            if line.trim().is_empty() {
                break;
            }
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&line);
        }
        Ok(if ok { Ok(text) } else { Err(text) })
    }

    /// One command and its reply.
    pub async fn command(&mut self, line: &str, wait: Duration) -> Result<Reply, EngineError> {
        self.send(line).await?;
        self.read_reply(wait, line).await
    }

    /// Sets the level, if it is not the one last set.
    pub async fn set_level(&mut self, level: &str) -> Result<Reply, EngineError> {
        if self.level.as_deref() == Some(level) {
            return Ok(Ok(String::new()));
        }
        let reply = self
            .command(&format!("level {level}"), COMMAND_TIMEOUT)
            .await?;
        if reply.is_ok() {
            self.level = Some(level.to_string());
        }
        Ok(reply)
    }

    /// Brings the engine's game to `game`'s start followed by its moves. A
    /// move the engine refuses is returned as `Ok(Err(..))` (the engine is then
    /// at the moves before it).
    pub async fn sync(&mut self, game: &Game) -> Result<Reply, EngineError> {
        let plays = game.plays();
        let mut start_over = true;
        if let Some(told) = &self.told
            && &told.start == game.start()
        {
            let common = told
                .moves
                .iter()
                .zip(&plays)
                .take_while(|(a, (_, b))| *a == b)
                .count();
            let undos = told.moves.len() - common;
            // Undo a few moves; past that a fresh start is as quick.
            if undos <= 8 {
                start_over = false;
                for _ in 0..undos {
                    if let Err(msg) = self.command("undo", COMMAND_TIMEOUT).await? {
                        self.told = None;
                        return Err(EngineError::Garbage(format!("'undo' was refused: {msg}")));
                    }
                    if let Some(t) = self.told.as_mut() {
                        t.moves.pop();
                    }
                }
            }
        }
        if start_over {
            self.told = None;
            for line in game.start_commands() {
                if let Err(msg) = self.command(&line, COMMAND_TIMEOUT).await? {
                    return Ok(Err(format!("'{line}': {msg}")));
                }
            }
            self.told = Some(Told {
                start: game.start().clone(),
                moves: Vec::new(),
            });
        }
        let already = self.told.as_ref().map_or(0, |t| t.moves.len());
        for (side, mv) in plays.iter().skip(already) {
            let reply = self
                .command(&format!("play {side} {mv}"), COMMAND_TIMEOUT)
                .await?;
            if let Err(msg) = reply {
                return Ok(Err(msg));
            }
            if let Some(t) = self.told.as_mut() {
                t.moves.push(mv.clone());
            }
        }
        Ok(Ok(String::new()))
    }

    /// Records that the engine itself played `mv` (after a `genmove`).
    pub fn played(&mut self, mv: &str) {
        if let Some(t) = self.told.as_mut() {
            t.moves.push(mv.to_string());
        }
    }

    /// Forgets what the engine was told (after a command that changed its game
    /// in a way the board does not track).
    pub fn forget(&mut self) {
        self.told = None;
    }

    pub async fn kill(&mut self) {
        let _ = self.child.start_kill();
        let _ = timeout(Duration::from_secs(2), self.child.wait()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::split_command;

    #[test]
    fn splits_quotes_and_escapes() {
        assert_eq!(
            split_command("tessera --init 'level easy' --init \"game rebus\"").unwrap(),
            vec!["tessera", "--init", "level easy", "--init", "game rebus"]
        );
        assert_eq!(split_command(r"a\ b c").unwrap(), vec!["a b", "c"]);
        assert!(split_command("   ").is_err());
        assert!(split_command("a 'b").is_err());
    }
}
