//! `tessera-client`: one engine process, spoken to over the protocol
//! (protocol.md §1). Spawned from a command line in its own process group, fed
//! commands on stdin, read back reply by reply from stdout by a reader thread
//! (which stamps when each reply's first line arrived), so that every wait has
//! a deadline and a reply's time is not charged with the caller's own delays.
//! Stderr is drained by another thread, which keeps the engine's
//! `genmove <move>: <summary>` lines for the game record.
//!
//! The arena starts its engines with it. Engine replies are input: nothing
//! reachable from them unwraps or panics.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// A reply as the framing gives it: `=` success or `?` failure, and its text
/// (the lines after the status character, joined with newlines).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Ok(String),
    Err(String),
}

/// Why no usable reply came.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProcessError {
    #[error("cannot start '{command}': {detail}")]
    Spawn { command: String, detail: String },
    #[error("engine exited{}", .0.as_ref().map(|s| format!(" ({s})")).unwrap_or_default())]
    Exited(Option<String>),
    #[error("no reply within {} ms", .0.as_millis())]
    Timeout(Duration),
    #[error("garbled reply '{0}'")]
    Garbled(String),
    #[error("cannot write to the engine: {0}")]
    Write(String),
    /// The caller's interrupt flag was set during a wait
    /// ([`EngineProcess::interruptible`]).
    #[error("interrupted")]
    Interrupted,
    #[error("{0}")]
    Handshake(String),
}

enum Line {
    /// A reply, and when its first line arrived.
    Reply(Result<Reply, String>, Instant),
    Closed,
}

/// How often a wait looks at the interrupt flag.
const POLL: Duration = Duration::from_millis(50);

/// A running engine. Dropping it kills the process.
pub struct EngineProcess {
    command: String,
    child: Child,
    stdin: ChildStdin,
    replies: Receiver<Line>,
    summaries: Receiver<String>,
    /// Set once the engine wrote a `genmove` summary: from then on it is worth
    /// waiting a moment for each one.
    reports_summaries: bool,
    /// `genmove` replies seen with no summary while `reports_summaries` was
    /// still unknown: after [`SUMMARY_PROBES`] of them the client stops waiting.
    summary_misses: u32,
    /// Asked by every wait: once it answers true, the wait ends with
    /// [`ProcessError::Interrupted`].
    interrupted: Option<fn() -> bool>,
}

/// How many moves the client waits for a first summary before it decides the
/// engine writes none.
const SUMMARY_PROBES: u32 = 3;
/// How long to wait for a summary line still in the stderr pipe: longer while
/// it is not known whether the engine writes them at all (its first move).
const SUMMARY_WAIT: Duration = Duration::from_millis(50);
const FIRST_SUMMARY_WAIT: Duration = Duration::from_millis(200);

/// Splits a command line on whitespace; `'…'` and `"…"` group words.
pub fn split_command(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                started = true;
            }
            None if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            None => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

impl EngineProcess {
    pub fn spawn(command: &str) -> Result<EngineProcess, ProcessError> {
        let words = split_command(command);
        let spawn_err = |detail: String| ProcessError::Spawn {
            command: command.to_string(),
            detail,
        };
        let Some((program, args)) = words.split_first() else {
            return Err(spawn_err("empty command".into()));
        };
        let mut child = Command::new(program)
            .args(args)
            // Its own process group: a Ctrl-C in the terminal reaches the
            // caller only, which then stops its engines in order (the arena
            // sends `quit`, see its `signals`).
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| spawn_err(e.to_string()))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_err("no pipes".into()));
        };
        let (tx, replies) = mpsc::channel();
        thread::spawn(move || read_replies(BufReader::new(stdout), tx));
        let (stx, summaries) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if line.starts_with("genmove ") && stx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess {
            command: command.to_string(),
            child,
            stdin,
            replies,
            summaries,
            reports_summaries: false,
            summary_misses: 0,
            interrupted: None,
        })
    }

    /// Makes every wait ask `interrupted` (every 50 ms at most) and end with
    /// [`ProcessError::Interrupted`] once it answers true: the arena's Ctrl-C.
    pub fn interruptible(mut self, interrupted: fn() -> bool) -> EngineProcess {
        self.interrupted = Some(interrupted);
        self
    }

    pub fn command(&self) -> &str {
        &self.command
    }

    /// Sends one command line.
    pub fn send(&mut self, line: &str) -> Result<(), ProcessError> {
        self.stdin
            .write_all(line.as_bytes())
            .and_then(|_| self.stdin.write_all(b"\n"))
            .and_then(|_| self.stdin.flush())
            .map_err(|e| {
                if self.exited() {
                    self.exit_error()
                } else {
                    ProcessError::Write(e.to_string())
                }
            })
    }

    /// Waits for the next reply until `deadline`; also returns when its first
    /// line arrived (read by the reader thread, so the caller's own scheduling
    /// delays are not charged to the engine).
    pub fn recv_timed(&mut self, deadline: Instant) -> Result<(Reply, Instant), ProcessError> {
        let started = Instant::now();
        loop {
            if self.interrupted.is_some_and(|f| f()) {
                return Err(ProcessError::Interrupted);
            }
            let now = Instant::now();
            let left = deadline.saturating_duration_since(now);
            if left.is_zero() {
                return Err(ProcessError::Timeout(
                    deadline.saturating_duration_since(started),
                ));
            }
            match self.replies.recv_timeout(left.min(POLL)) {
                Ok(Line::Reply(Ok(r), at)) => return Ok((r, at)),
                Ok(Line::Reply(Err(text), _)) => return Err(ProcessError::Garbled(text)),
                Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.exit_error());
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Waits for the next reply until `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Result<Reply, ProcessError> {
        self.recv_timed(deadline).map(|(r, _)| r)
    }

    /// Sends a command and waits for its reply.
    pub fn ask(&mut self, line: &str, timeout: Duration) -> Result<Reply, ProcessError> {
        self.ask_timed(line, timeout).map(|(r, _)| r)
    }

    /// Sends a command and waits for its reply; also returns the time from the
    /// command written to the reply's arrival.
    pub fn ask_timed(
        &mut self,
        line: &str,
        timeout: Duration,
    ) -> Result<(Reply, Duration), ProcessError> {
        let deadline = Instant::now() + timeout;
        self.send(line)?;
        let sent = Instant::now();
        let (reply, at) = self.recv_timed(deadline)?;
        Ok((reply, at.saturating_duration_since(sent)))
    }

    /// The handshake of a fresh process: `protocol_version` (timed: the round
    /// trip of a command that needs no thought), then `name` and `version`
    /// (either may be refused). Returns the engine's id (`tessera 0.2.0`) and
    /// the round trip.
    pub fn handshake(&mut self, timeout: Duration) -> Result<(String, Duration), ProcessError> {
        let deadline = Instant::now() + timeout;
        let left = || deadline.saturating_duration_since(Instant::now());
        let (_, rtt) = self.ask_timed("protocol_version", left())?;
        let mut id = Vec::new();
        for cmd in ["name", "version"] {
            if let Reply::Ok(text) = self.ask(cmd, left())? {
                id.push(text.split_whitespace().collect::<Vec<_>>().join(" "));
            }
        }
        Ok((id.join(" "), rtt))
    }

    /// The engine's summary of the `genmove` that answered `reply` (the text
    /// after `genmove <reply>: ` on stderr), if it wrote one. Lines about other
    /// moves (left over from earlier) are dropped.
    pub fn take_summary(&mut self, reply: &str) -> Option<String> {
        let matching = |line: &str| -> Option<String> {
            let (mv, summary) = line.strip_prefix("genmove ")?.split_once(": ")?;
            mv.trim()
                .eq_ignore_ascii_case(reply.trim())
                .then(|| summary.trim().to_string())
        };
        let mut found = None;
        while let Ok(line) = self.summaries.try_recv() {
            self.reports_summaries = true;
            found = matching(&line).or(found);
        }
        // Stderr and stdout are separate pipes: the line may still be on its
        // way, even on the engine's first move, before the client knows that it
        // writes summaries at all.
        let wait = if self.reports_summaries {
            Some(SUMMARY_WAIT)
        } else {
            (self.summary_misses < SUMMARY_PROBES).then_some(FIRST_SUMMARY_WAIT)
        };
        if found.is_none()
            && let Some(wait) = wait
        {
            let deadline = Instant::now() + wait;
            while let Ok(line) = self
                .summaries
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                self.reports_summaries = true;
                found = matching(&line);
                if found.is_some() {
                    break;
                }
            }
        }
        if found.is_none() && !self.reports_summaries {
            self.summary_misses += 1;
        }
        found
    }

    /// Drops any summary left from earlier moves.
    pub fn clear_summaries(&mut self) {
        while self.summaries.try_recv().is_ok() {}
    }

    fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    fn exit_error(&mut self) -> ProcessError {
        // The pipe closes a moment before the exit status is known.
        for _ in 0..50 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return ProcessError::Exited(Some(status.to_string()));
            }
            thread::sleep(Duration::from_millis(2));
        }
        ProcessError::Exited(None)
    }

    /// Asks the engine to quit, and kills it if it does not within `grace`.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send("quit");
        let end = Instant::now() + grace;
        while Instant::now() < end {
            if self.exited() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if !self.exited() {
            self.kill();
        }
    }
}

/// Reads replies: a line starting `=` or `?` (after an optional id), then any
/// further lines, until an empty line. Anything else before the status
/// character is garbage; it is reported with the rest of that reply.
fn read_replies<R: BufRead>(mut input: R, tx: mpsc::Sender<Line>) {
    let mut buf = Vec::new();
    let mut current: Option<(bool, Vec<String>, Instant)> = None;
    let mut garbage: Vec<String> = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => {
                if !garbage.is_empty() {
                    let _ = tx.send(Line::Reply(Err(garbage.join(" | ")), Instant::now()));
                }
                let _ = tx.send(Line::Closed);
                return;
            }
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_end_matches(['\n', '\r']);
        let msg = match &mut current {
            None if line.trim().is_empty() => {
                if garbage.is_empty() {
                    None
                } else {
                    Some((
                        Err(std::mem::take(&mut garbage).join(" | ")),
                        Instant::now(),
                    ))
                }
            }
            None => {
                let ok = line.starts_with('=');
                if ok || line.starts_with('?') {
                    if !garbage.is_empty() {
                        let _ = tx.send(Line::Reply(
                            Err(std::mem::take(&mut garbage).join(" | ")),
                            Instant::now(),
                        ));
                    }
                    // Skip the optional numeric id after the status character.
                    let rest = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
                    current = Some((ok, vec![rest.trim().to_string()], Instant::now()));
                } else {
                    garbage.push(line.chars().take(200).collect());
                }
                None
            }
            Some((_, lines, _)) if !line.is_empty() => {
                lines.push(line.to_string());
                None
            }
            Some(_) => current.take().map(|(ok, lines, at)| {
                let text = lines.join("\n").trim().to_string();
                let reply = if ok {
                    Reply::Ok(text)
                } else {
                    Reply::Err(text)
                };
                (Ok(reply), at)
            }),
        };
        if let Some((m, at)) = msg
            && tx.send(Line::Reply(m, at)).is_err()
        {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replies(text: &str) -> Vec<Result<Reply, String>> {
        let (tx, rx) = mpsc::channel();
        read_replies(text.as_bytes(), tx);
        rx.iter()
            .filter_map(|l| match l {
                Line::Reply(r, _) => Some(r),
                Line::Closed => None,
            })
            .collect()
    }

    #[test]
    fn framing() {
        assert_eq!(
            replies("= K10\n\n=\n\n? illegal move: K10 is occupied\n\n=3 a\nb\n\n"),
            vec![
                Ok(Reply::Ok("K10".into())),
                Ok(Reply::Ok(String::new())),
                Ok(Reply::Err("illegal move: K10 is occupied".into())),
                Ok(Reply::Ok("a\nb".into())),
            ]
        );
        assert_eq!(
            replies("hello\n\n= A1\n\n"),
            vec![Err("hello".into()), Ok(Reply::Ok("A1".into()))]
        );
        assert_eq!(
            replies("garbage at the end"),
            vec![Err("garbage at the end".into())]
        );
    }

    #[test]
    fn command_words() {
        assert_eq!(
            split_command("./tessera --x 'a b' \"c\"  d"),
            vec!["./tessera", "--x", "a b", "c", "d"]
        );
        assert!(split_command("   ").is_empty());
    }
}
