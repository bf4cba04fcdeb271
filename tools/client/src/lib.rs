//! `tessera-client`: one engine process, spoken to over the protocol
//! (protocol.md §1). Spawned from a command line ([`split_command`]) in its own
//! process group, fed commands on stdin, read back from stdout by a reader
//! thread that frames the replies and stamps when each reply's first line and
//! its end arrived, so that every wait has a deadline and a reply's time is not
//! charged with the caller's own delays. Stderr is drained by another thread,
//! which keeps the engine's `genmove <move>: <summary>` lines for the game
//! record and its last few lines for a crash report.
//!
//! - [`EngineProcess::ask`] / [`EngineProcess::ask_timed`]: a command and its
//!   whole reply; [`EngineProcess::handshake`]: the first exchange of a fresh
//!   process; [`EngineProcess::quit`], or a kill on drop.
//! - [`EngineProcess::recv_piece`]: a streamed reply (`analyze`, protocol.md §7)
//!   line by line as the engine writes it.
//!
//! The arena, the board and `clockcheck` start their engines with it. Engine
//! replies are input: nothing reachable from them unwraps or panics.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
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

/// A reply with when the reader thread read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub reply: Reply,
    /// When its first line (`=` or `?`) was read.
    pub first_line: Instant,
    /// When the empty line that ends it was read.
    pub end: Instant,
}

/// A piece of a reply, as [`EngineProcess::recv_piece`] gives it: a streamed
/// reply is read line by line while the engine writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// The first line: `=` (`ok`) or `?`, and the text after the status
    /// character and the optional id, trimmed.
    Head { ok: bool, text: String },
    /// A further line of the reply.
    Line(String),
    /// The empty line that ends the reply.
    End,
}

/// What the reader thread sends: the pieces of each reply as they are read,
/// and lines that belong to no reply.
enum Event {
    Head(bool, String, Instant),
    Line(String),
    End(Instant),
    /// Lines before a status character, joined with ` | `.
    Garbage(String),
    Closed,
}

/// How often a wait looks at the interrupt flag.
const POLL: Duration = Duration::from_millis(50);

/// A running engine. Dropping it kills the process.
pub struct EngineProcess {
    command: String,
    child: Child,
    stdin: ChildStdin,
    events: Receiver<Event>,
    summaries: Receiver<String>,
    /// The last lines the engine wrote to stderr.
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
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
/// How many of the engine's last stderr lines are kept.
const STDERR_TAIL: usize = 5;

/// Splits a command line into words: spaces separate, `'…'` and `"…"` quote,
/// `\` escapes the next character outside single quotes. An empty line, an
/// unclosed quote or a trailing `\` is an error, in words.
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

impl EngineProcess {
    /// Starts `command` (a command line, split as [`split_command`] says).
    pub fn spawn(command: &str) -> Result<EngineProcess, ProcessError> {
        let spawn_err = |detail: String| ProcessError::Spawn {
            command: command.to_string(),
            detail,
        };
        let words = split_command(command).map_err(spawn_err)?;
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
        let (tx, events) = mpsc::channel();
        thread::spawn(move || read_replies(BufReader::new(stdout), tx));
        let (stx, summaries) = mpsc::channel();
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Ok(mut t) = tail.lock() {
                    if t.len() == STDERR_TAIL {
                        t.pop_front();
                    }
                    t.push_back(line.chars().take(500).collect());
                }
                // The caller may have gone (it keeps no summaries): the tail
                // is still kept.
                if line.starts_with("genmove ") {
                    let _ = stx.send(line);
                }
            }
        });
        Ok(EngineProcess {
            command: command.to_string(),
            child,
            stdin,
            events,
            summaries,
            stderr_tail,
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

    /// The last lines (up to five) the engine wrote to stderr, oldest first:
    /// its last words, for a crash report.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.stderr_tail
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default()
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

    /// The next event of the reader thread, until `deadline` (`started`: when
    /// the caller's wait began, for the timeout's message).
    fn next_event(&mut self, deadline: Instant, started: Instant) -> Result<Event, ProcessError> {
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
            match self.events.recv_timeout(left.min(POLL)) {
                Ok(Event::Garbage(text)) => return Err(ProcessError::Garbled(text)),
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.exit_error());
                }
                Ok(event) => return Ok(event),
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Waits for the next whole reply until `deadline`, with when its first
    /// line and its end arrived. Lines left over from a reply cut short by an
    /// earlier timeout are skipped.
    pub fn recv_answer(&mut self, deadline: Instant) -> Result<Answer, ProcessError> {
        let started = Instant::now();
        let (ok, mut lines, first_line) = loop {
            if let Event::Head(ok, text, at) = self.next_event(deadline, started)? {
                break (ok, vec![text], at);
            }
        };
        loop {
            match self.next_event(deadline, started)? {
                Event::Line(line) => lines.push(line),
                Event::End(end) => {
                    let text = lines.join("\n").trim().to_string();
                    let reply = if ok {
                        Reply::Ok(text)
                    } else {
                        Reply::Err(text)
                    };
                    return Ok(Answer {
                        reply,
                        first_line,
                        end,
                    });
                }
                // A reader thread never starts a reply inside another one.
                Event::Head(..) | Event::Garbage(_) | Event::Closed => {}
            }
        }
    }

    /// Waits for the next piece of a reply until `deadline`: a streamed reply
    /// (`analyze`) line by line, as the engine writes it.
    pub fn recv_piece(&mut self, deadline: Instant) -> Result<Piece, ProcessError> {
        Ok(match self.next_event(deadline, Instant::now())? {
            Event::Head(ok, text, _) => Piece::Head { ok, text },
            Event::Line(line) => Piece::Line(line),
            _ => Piece::End,
        })
    }

    /// Waits for the next reply until `deadline`; also returns when its first
    /// line arrived (read by the reader thread, so the caller's own scheduling
    /// delays are not charged to the engine).
    pub fn recv_timed(&mut self, deadline: Instant) -> Result<(Reply, Instant), ProcessError> {
        self.recv_answer(deadline).map(|a| (a.reply, a.first_line))
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
/// further lines, until an empty line; each is sent as it is read. Anything
/// else before the status character is garbage; it is reported at the next
/// empty line, status line or the end of the output.
fn read_replies<R: BufRead>(mut input: R, tx: mpsc::Sender<Event>) {
    let mut buf = Vec::new();
    // Inside a reply (its first line read).
    let mut in_reply = false;
    let mut garbage: Vec<String> = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => {
                if !garbage.is_empty() {
                    let _ = tx.send(Event::Garbage(garbage.join(" | ")));
                }
                let _ = tx.send(Event::Closed);
                return;
            }
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_end_matches(['\n', '\r']);
        let event = if in_reply {
            if line.is_empty() {
                in_reply = false;
                Event::End(Instant::now())
            } else {
                Event::Line(line.to_string())
            }
        } else if line.trim().is_empty() {
            if garbage.is_empty() {
                continue;
            }
            Event::Garbage(std::mem::take(&mut garbage).join(" | "))
        } else if line.starts_with('=') || line.starts_with('?') {
            if !garbage.is_empty() {
                let _ = tx.send(Event::Garbage(std::mem::take(&mut garbage).join(" | ")));
            }
            // Skip the optional numeric id after the status character.
            let rest = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
            in_reply = true;
            Event::Head(
                line.starts_with('='),
                rest.trim().to_string(),
                Instant::now(),
            )
        } else {
            garbage.push(line.chars().take(200).collect());
            continue;
        };
        if tx.send(event).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The replies the reader frames from `text`: each whole, or the garbage.
    fn replies(text: &str) -> Vec<Result<Reply, String>> {
        let (tx, rx) = mpsc::channel();
        read_replies(text.as_bytes(), tx);
        let mut out = Vec::new();
        let mut current: Option<(bool, Vec<String>)> = None;
        for event in rx.iter() {
            match event {
                Event::Head(ok, text, _) => current = Some((ok, vec![text])),
                Event::Line(line) => {
                    if let Some((_, lines)) = current.as_mut() {
                        lines.push(line);
                    }
                }
                Event::End(_) => {
                    if let Some((ok, lines)) = current.take() {
                        let text = lines.join("\n").trim().to_string();
                        out.push(Ok(if ok {
                            Reply::Ok(text)
                        } else {
                            Reply::Err(text)
                        }));
                    }
                }
                Event::Garbage(text) => out.push(Err(text)),
                Event::Closed => {}
            }
        }
        out
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
        assert_eq!(
            replies("noise\n= A1\n\n"),
            vec![Err("noise".into()), Ok(Reply::Ok("A1".into()))]
        );
    }

    #[test]
    fn command_words() {
        assert_eq!(
            split_command("./tessera --x 'a b' \"c\"  d").unwrap(),
            vec!["./tessera", "--x", "a b", "c", "d"]
        );
        assert_eq!(
            split_command("tessera --init 'level easy' --init \"game rebus\"").unwrap(),
            vec!["tessera", "--init", "level easy", "--init", "game rebus"]
        );
        assert_eq!(split_command(r"a\ b c").unwrap(), vec!["a b", "c"]);
        assert_eq!(split_command(r#""a\"b" ''"#).unwrap(), vec!["a\"b", ""]);
        assert!(split_command("   ").is_err());
        assert!(split_command("a 'b").is_err());
        assert!(split_command("a \"b").is_err());
        assert!(split_command("a\\").is_err());
    }

    /// A shell script as the engine: `name` answers at once, `stream` writes
    /// two lines a moment apart, `say` writes to stderr, `sleep` stalls,
    /// `exit` exits.
    fn fake() -> EngineProcess {
        let script = r#"while IFS= read -r l; do case "$l" in
            name) printf "= fake\n\n";;
            stream) printf "=\nfirst\n"; sleep 0.2; printf "second\n\n";;
            say) echo "last words" >&2; printf "=\n\n";;
            sleep) sleep 2;;
            exit) exit 3;;
            *) printf "? unknown command\n\n";;
            esac; done"#;
        let command = format!("sh -c '{script}'");
        EngineProcess::spawn(&command).expect("sh")
    }

    #[test]
    fn a_process_answers_streams_and_fails_with_reasons() {
        let soon = || Instant::now() + Duration::from_secs(5);
        let mut p = fake();
        assert_eq!(
            p.ask("name", Duration::from_secs(5)),
            Ok(Reply::Ok("fake".into()))
        );
        assert_eq!(
            p.ask("nothing", Duration::from_secs(5)),
            Ok(Reply::Err("unknown command".into()))
        );
        // A streamed reply, piece by piece: the first line comes before the
        // engine has written the rest.
        p.send("stream").unwrap();
        assert_eq!(
            p.recv_piece(soon()),
            Ok(Piece::Head {
                ok: true,
                text: String::new()
            })
        );
        assert_eq!(p.recv_piece(soon()), Ok(Piece::Line("first".into())));
        assert!(matches!(
            p.recv_piece(Instant::now() + Duration::from_millis(20)),
            Err(ProcessError::Timeout(_))
        ));
        assert_eq!(p.recv_piece(soon()), Ok(Piece::Line("second".into())));
        assert_eq!(p.recv_piece(soon()), Ok(Piece::End));
        // The same reply whole, timed from its first line to its end.
        p.send("stream").unwrap();
        let a = p.recv_answer(soon()).unwrap();
        assert_eq!(a.reply, Reply::Ok("first\nsecond".into()));
        assert!(a.end.duration_since(a.first_line) >= Duration::from_millis(150));
        assert_eq!(
            p.ask("say", Duration::from_secs(5)),
            Ok(Reply::Ok("".into()))
        );
        let deadline = Instant::now() + Duration::from_secs(5);
        while p.stderr_tail().is_empty() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(p.stderr_tail(), vec!["last words".to_string()]);
        assert!(matches!(
            p.ask("sleep", Duration::from_millis(100)),
            Err(ProcessError::Timeout(_))
        ));
        p.kill();

        let mut p = fake();
        assert_eq!(
            p.ask("exit", Duration::from_secs(5)),
            Err(ProcessError::Exited(Some("exit status: 3".into())))
        );
        assert!(matches!(
            EngineProcess::spawn("/nonexistent/engine"),
            Err(ProcessError::Spawn { .. })
        ));
        assert!(matches!(
            EngineProcess::spawn("engine 'unclosed"),
            Err(ProcessError::Spawn { .. })
        ));
    }
}
