//! The engine behind the protocol: which game is on, its session, the settings
//! that outlive a game. `handle_line` is the whole protocol: a line in, the
//! reply text out (none for a blank line). It does no I/O: the streamed
//! replies of `analyze` and `genmove_analyze` go through [`Engine::reply_sink`],
//! and what the controller sends meanwhile is asked of [`Engine::input`].

use super::analyze::{Input, InputProbe, InterruptProbe, ReplySink, StreamState};
use super::commands::{COMMANDS, find_command};
use super::parse::{format_reply, format_stream_tail, parse_request};
use super::play::{PlayState, is_search_command};
use super::rebus::RebusState;
use super::session::Session;
use super::{CommandError, CommandResult};
use crate::core::GameId;
use crate::games::rebus::{self, Position};
use crate::games::rekushu::Board;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The game being played.
#[derive(Clone, Debug)]
pub enum AnyGame {
    Rekushu(Session<Board>),
    Rebus(Session<Position>),
}

impl AnyGame {
    pub fn id(&self) -> GameId {
        match self {
            AnyGame::Rekushu(_) => GameId::Rekushu,
            AnyGame::Rebus(_) => GameId::Rebus,
        }
    }
}

/// Runs `$body` with `$s` bound to the current session, whichever game it is.
macro_rules! with_session {
    ($game:expr, $s:ident => $body:expr) => {
        match $game {
            $crate::protocol::engine::AnyGame::Rekushu($s) => $body,
            $crate::protocol::engine::AnyGame::Rebus($s) => $body,
        }
    };
}
pub(crate) use with_session;

pub const DEFAULT_REKUSHU_SIZE: usize = 20;

pub struct Engine {
    pub game: AnyGame,
    /// The Rekushu board size `boardsize` last set; kept across game switches.
    pub rekushu_size: usize,
    pub rebus: RebusState,
    /// Engine play: level, time, limits, options, searchers, the stop flag.
    pub play: PlayState,
    /// Where search progress lines go (`info depth …`); stderr in the binary,
    /// nowhere by default.
    pub info_sink: Box<dyn FnMut(&str) + Send>,
    /// Where a streamed reply (`analyze`, `genmove_analyze`) goes, a piece at a
    /// time as it is produced (each piece whole lines, ending in a newline); the
    /// binary writes and flushes stdout. `None`: the pieces are collected, and
    /// [`Engine::handle_line`] returns them with the rest of the reply.
    pub reply_sink: Option<ReplySink>,
    /// Whether the controller has sent another line since the command running
    /// now was read: a streamed analysis ends when it has. The binary asks its
    /// input reader; the default answers [`Input::Closed`] (no input source, as
    /// at the end of input).
    pub input: InputProbe,
    /// Whether the controller has sent a blank line since the command running
    /// now was read: that interrupts a long enumeration (`perft`,
    /// `list_moves`), as `stop` does. The binary asks its input reader; the
    /// default answers no.
    pub interrupt: InterruptProbe,
    /// The streamed reply in progress.
    pub(crate) stream: StreamState,
    quit: bool,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    /// Rekushu on 20×20, Black to move.
    pub fn new() -> Self {
        Engine {
            game: AnyGame::Rekushu(Session::new(new_rekushu(DEFAULT_REKUSHU_SIZE))),
            rekushu_size: DEFAULT_REKUSHU_SIZE,
            rebus: RebusState::default(),
            play: PlayState::default(),
            info_sink: Box::new(|_| {}),
            reply_sink: None,
            input: Box::new(|| Input::Closed),
            interrupt: Box::new(|| false),
            stream: StreamState::default(),
            quit: false,
        }
    }

    /// True once `quit` was answered.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    pub(crate) fn request_quit(&mut self) {
        self.quit = true;
    }

    /// Handles one input line; returns the full reply text (ending in an empty
    /// line), or `None` when the line holds no command. For a streamed reply
    /// with a [`Engine::reply_sink`], the part already sent there is not
    /// repeated: the text returned is the rest (its last lines and the empty
    /// line).
    pub fn handle_line(&mut self, line: &str) -> Option<String> {
        self.handle_line_at(line, Instant::now())
    }

    /// [`Engine::handle_line`] for a line that arrived at `received`: a search
    /// it starts counts its time from then (the binary's reader stamps each line
    /// as it reads it, so time spent queued behind another command is not lost).
    pub fn handle_line_at(&mut self, line: &str, received: Instant) -> Option<String> {
        let req = parse_request(line)?;
        self.stream = StreamState::new(req.id);
        let result = self.run(&req.name, &req.args, received);
        let stream = std::mem::take(&mut self.stream);
        Some(match stream.started() {
            false => format_reply(req.id, &result),
            true => stream.into_collected() + &format_stream_tail(&result),
        })
    }

    /// Runs one command by name. Any failure leaves the engine as it was.
    /// (Streamed commands should go through [`Engine::handle_line`], which frames
    /// their reply.)
    pub fn execute(&mut self, name: &str, args: &[String]) -> CommandResult {
        self.run(name, args, Instant::now())
    }

    fn run(&mut self, name: &str, args: &[String], received: Instant) -> CommandResult {
        self.play.received = received;
        if name.is_empty() {
            return Err(CommandError::syntax("no command after the id"));
        }
        let Some(cmd) = find_command(name) else {
            return Err(CommandError::unknown_command(name));
        };
        if let Some(game) = cmd.game
            && game != self.game.id()
        {
            return Err(CommandError::refused(format!(
                "{name} is a {game} command; the current game is {} (switch with 'game {game}')",
                self.game.id()
            )));
        }
        let result = (cmd.run)(self, args);
        if result.is_ok() && !is_search_command(cmd.name) {
            // Settings or the game may have changed: the table is made ready
            // now, while the controller waits for this reply, not in a move.
            self.play.prepare(&self.game);
        }
        result
    }

    /// Names of all commands, in table order.
    pub fn command_names() -> impl Iterator<Item = &'static str> {
        COMMANDS.iter().map(|c| c.name)
    }

    pub fn switch_to_rekushu(&mut self) {
        self.play.new_game();
        self.game = AnyGame::Rekushu(Session::new(new_rekushu(self.rekushu_size)));
    }

    pub fn switch_to_rebus(&mut self, mut pos: Position) {
        pos.set_turn_limit(self.rebus.turn_limit);
        self.play.new_game();
        self.game = AnyGame::Rebus(Session::new(pos));
    }

    pub fn switch_to_rebus_standard(&mut self) {
        self.switch_to_rebus(rebus::Position::standard());
    }
}

/// Whether a long enumeration may go on: no `stop` was read for it, and no
/// blank line has come. Other command lines wait their turn (a script may send
/// all its commands at once), and so does the end of input: a pipeline that
/// closes its input after its last command still gets every answer.
pub(crate) fn keep_going<'a>(
    stop: &'a AtomicBool,
    interrupt: &'a InterruptProbe,
) -> impl FnMut() -> bool + 'a {
    move || !stop.load(Ordering::Relaxed) && !interrupt()
}

/// A Rekushu board of a size already checked to be in range.
pub(crate) fn new_rekushu(size: usize) -> Board {
    Board::new(size)
        .or_else(|| Board::new(DEFAULT_REKUSHU_SIZE))
        .unwrap_or_else(|| unreachable!("the default size is valid"))
}

impl Engine {
    /// The name of the side to move (`Black`, `Red`…).
    pub fn side_to_move_name(&self) -> &'static str {
        use crate::core::Game;
        use crate::core::GameText;
        match &self.game {
            AnyGame::Rekushu(s) => Board::side_name(s.pos.side_to_move()),
            AnyGame::Rebus(s) => Position::side_name(s.pos.side_to_move()),
        }
    }
}

impl Engine {
    /// Everything a command could change, as text: two equal fingerprints mean
    /// the same state. Tests use it to prove that rejected commands change nothing.
    pub fn fingerprint(&self) -> String {
        use crate::core::Game;
        let game = with_session!(&self.game, s => format!(
            "{:?} hash={:x} history={:?} resigned={:?}",
            s.pos,
            s.pos.hash(),
            s.history.iter().map(|p| p.text.as_str()).collect::<Vec<_>>(),
            s.resigned
        ));
        format!(
            "game={} size={} turn_limit={} {game}",
            self.game.id(),
            self.rekushu_size,
            self.rebus.turn_limit
        )
    }
}
