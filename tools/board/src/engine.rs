//! A player's engine (or the analysis panel's): one engine process of the
//! `tessera-client` crate, spoken to over the protocol (protocol.md §1). Every
//! wait has a deadline, so an engine that stalls, dies or prints garbage
//! becomes an [`EngineError`] the page can show, never a hung server. The
//! calls block: the board makes them on threads of their own
//! (`spawn_blocking`, the analysis thread), never on the web server's.
//!
//! The engine's game is kept in step with the board's by [`Engine::sync`]: it
//! remembers what it last told the engine (the game's start and its moves) and
//! sends only the difference (`play` for new moves, `undo` for taken-back ones,
//! a fresh start otherwise).

use std::fmt;
use std::time::{Duration, Instant};

use tessera::record::Start;
use tessera_client::{EngineProcess, Piece, ProcessError};

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

/// What the engine has been told: the game's start and the moves played since.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Told {
    start: Start,
    moves: Vec<String>,
}

pub struct Engine {
    process: EngineProcess,
    told: Option<Told>,
    level: Option<String>,
}

impl Engine {
    /// Starts `command` (a command line, split as
    /// [`tessera_client::split_command`] says) and makes the handshake, so that
    /// a program that is not an engine fails now.
    pub fn spawn(command: &str) -> Result<Engine, EngineError> {
        let process = EngineProcess::spawn(command).map_err(|e| match e {
            ProcessError::Spawn { command, detail } => {
                EngineError::Spawn(format!("'{command}': {detail}"))
            }
            e => EngineError::Spawn(e.to_string()),
        })?;
        let mut engine = Engine {
            process,
            told: None,
            level: None,
        };
        if let Err(e) = engine.process.handshake(COMMAND_TIMEOUT) {
            return Err(engine.error(e, "protocol_version", COMMAND_TIMEOUT));
        }
        Ok(engine)
    }

    /// A failure of the process, in the page's words; `asked` is the command
    /// it was answering, `wait` how long it had.
    fn error(&self, e: ProcessError, asked: &str, wait: Duration) -> EngineError {
        let last_words = |what: String, engine: &Engine| {
            let tail = engine.process.stderr_tail().join(" | ");
            if tail.is_empty() {
                what
            } else {
                format!("{what}; its last words: {tail}")
            }
        };
        match e {
            ProcessError::Exited(status) => {
                let status = status.map(|s| format!(" ({s})")).unwrap_or_default();
                EngineError::Crashed(last_words(
                    format!("its output ended while answering '{asked}'{status}"),
                    self,
                ))
            }
            ProcessError::Write(why) => {
                EngineError::Crashed(last_words(format!("writing '{asked}': {why}"), self))
            }
            ProcessError::Timeout(_) => EngineError::Stalled(format!(
                "no answer to '{asked}' within {} s",
                wait.as_secs_f64()
            )),
            ProcessError::Garbled(text) => {
                EngineError::Garbage(format!("'{text}' in reply to '{asked}'"))
            }
            e => EngineError::Crashed(e.to_string()),
        }
    }

    /// Sends one line without waiting for anything.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.process
            .send(line)
            .map_err(|e| self.error(e, line, Duration::ZERO))
    }

    /// One command and its reply, within `wait`.
    pub fn command(&mut self, line: &str, wait: Duration) -> Result<Reply, EngineError> {
        self.send(line)?;
        self.reply(line, wait)
    }

    /// The reply to `asked` (already sent), within `wait`.
    pub fn reply(&mut self, asked: &str, wait: Duration) -> Result<Reply, EngineError> {
        match self.process.recv(Instant::now() + wait) {
            Ok(tessera_client::Reply::Ok(text)) => Ok(Ok(text)),
            Ok(tessera_client::Reply::Err(text)) => Ok(Err(text)),
            Err(e) => Err(self.error(e, asked, wait)),
        }
    }

    /// The next piece of a streamed reply to `asked`, or `None` when none came
    /// by `deadline`.
    pub fn piece(&mut self, deadline: Instant, asked: &str) -> Result<Option<Piece>, EngineError> {
        match self.process.recv_piece(deadline) {
            Ok(piece) => Ok(Some(piece)),
            Err(ProcessError::Timeout(_)) => Ok(None),
            Err(e) => Err(self.error(e, asked, Duration::ZERO)),
        }
    }

    /// Sets the level, if it is not the one last set.
    pub fn set_level(&mut self, level: &str) -> Result<Reply, EngineError> {
        if self.level.as_deref() == Some(level) {
            return Ok(Ok(String::new()));
        }
        let reply = self.command(&format!("level {level}"), COMMAND_TIMEOUT)?;
        if reply.is_ok() {
            self.level = Some(level.to_string());
        }
        Ok(reply)
    }

    /// Brings the engine's game to `game`'s start followed by its moves. A
    /// move the engine refuses is returned as `Ok(Err(..))` (the engine is then
    /// at the moves before it).
    pub fn sync(&mut self, game: &Game) -> Result<Reply, EngineError> {
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
                    if let Err(msg) = self.command("undo", COMMAND_TIMEOUT)? {
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
                if let Err(msg) = self.command(&line, COMMAND_TIMEOUT)? {
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
            if let Err(msg) = self.command(&format!("play {side} {mv}"), COMMAND_TIMEOUT)? {
                return Ok(Err(msg));
            }
            if let Some(t) = self.told.as_mut() {
                t.moves.push(mv.clone());
            }
        }
        Ok(Ok(String::new()))
    }

    /// Records that the engine itself played `mv` (after a `genmove`), in
    /// the board's canonical text.
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

    /// Forgets the `genmove` summaries the engine wrote on stderr (the board
    /// keeps none).
    pub fn clear_summaries(&mut self) {
        self.process.clear_summaries();
    }

    pub fn kill(&mut self) {
        self.process.kill();
    }
}
