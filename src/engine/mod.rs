//! The engine proper, under the protocol: the game being played (its
//! [`Session`]), the searcher of each game, the [`Settings`] that outlive a
//! game, the stop flag, and the hooks the binary gives it (where search
//! progress and streamed replies go, what the controller has sent since).
//! Its fields are private: a command changes the engine through the methods
//! here, and a game starts only through [`Engine::start`].
//!
//! The protocol (`src/protocol/`) turns a line into a call of these methods and
//! the result into a reply; [`driver`] reads lines from any `BufRead` and
//! writes replies to any `Write`, with `stop` and streaming handled there.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod analysis;
pub mod driver;
pub mod error;
pub mod numbers;
pub mod play;
pub mod report;
pub mod session;
pub mod settings;
pub mod stream;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub use error::{CommandError, CommandResult, ErrorKind};
pub use session::Session;
pub use settings::Settings;
pub use stream::Input;

use crate::core::{Game, GameId};
use crate::games::rebus::Position;
use crate::games::rekushu::Board;
use play::Searchers;
use report::Report;
use settings::DEFAULT_REKUSHU_SIZE;
use stream::{Emitter, InputProbe, ReplySink, StreamState};

/// The game being played.
// One per engine, rarely moved: boxing the larger board would only add an
// indirection to every command.
#[allow(clippy::large_enum_variant)]
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

    /// The session, to change but not to replace.
    fn as_mut(&mut self) -> GameMut<'_> {
        match self {
            AnyGame::Rekushu(s) => GameMut::Rekushu(s),
            AnyGame::Rebus(s) => GameMut::Rebus(s),
        }
    }
}

/// The game being played, to change its session (play, undo, set a turn
/// limit) but never to replace it: a new game comes only from [`Engine::start`].
pub enum GameMut<'a> {
    Rekushu(&'a mut Session<Board>),
    Rebus(&'a mut Session<Position>),
}

/// The one way code runs over whichever game is being played: `$body` is
/// compiled once per game, with `$s` bound to its session.
/// `with_session!(engine.game(), s => …)` reads it,
/// `with_session!(mut engine.game_mut(), s => …)` changes it, and inside the
/// engine `with_session!(&mut self.game, self.searchers, (s, searcher) => …)`
/// also binds the game's searcher slot. A `match` on [`AnyGame`] is left for
/// what differs between the games. Tools use it as `tessera::with_session!`.
#[macro_export]
macro_rules! with_session {
    (mut $game:expr, $s:ident => $body:expr) => {
        match $game {
            $crate::engine::GameMut::Rekushu($s) => $body,
            $crate::engine::GameMut::Rebus($s) => $body,
        }
    };
    ($game:expr, $searchers:expr, ($s:ident, $searcher:ident) => $body:expr) => {
        match $game {
            $crate::engine::AnyGame::Rekushu($s) => {
                let $searcher = $searchers.rekushu();
                $body
            }
            $crate::engine::AnyGame::Rebus($s) => {
                let $searcher = $searchers.rebus();
                $body
            }
        }
    };
    ($game:expr, $s:ident => $body:expr) => {
        match $game {
            $crate::engine::AnyGame::Rekushu($s) => $body,
            $crate::engine::AnyGame::Rebus($s) => $body,
        }
    };
}
pub use crate::with_session;

/// Where the engine's output goes and what it asks of the input, as the binary
/// (or a test) sets them; the defaults do no I/O.
pub struct Io {
    /// Where the engine's reports go (each iteration of a move's search,
    /// each move chosen: [`report::Report`]); the binary writes them to stderr
    /// as the protocol words them; nowhere by default.
    pub info_sink: Box<dyn FnMut(&Report) + Send>,
    /// Where a streamed reply (`analyze`, `genmove_analyze`) goes, a piece at a
    /// time as it is produced (each piece whole lines, ending in a newline); the
    /// binary writes and flushes stdout. `None`: the pieces are collected, and
    /// the reply returns them with the rest.
    pub reply_sink: Option<ReplySink>,
    /// Whether the controller has sent another line since the command running
    /// now was read: a streamed analysis ends when it has. The default answers
    /// [`Input::Closed`] (no input source, as at the end of input).
    pub input: InputProbe,
    /// The streamed reply in progress.
    pub stream: StreamState,
}

impl Default for Io {
    fn default() -> Self {
        Io {
            info_sink: Box::new(|_| {}),
            reply_sink: None,
            input: Box::new(|| Input::Closed),
            stream: StreamState::default(),
        }
    }
}

impl Io {
    /// The writer of the streamed reply in progress.
    pub fn emitter(&mut self) -> Emitter<'_> {
        Emitter::new(self.reply_sink.as_mut(), &mut self.stream)
    }

    /// The writer of the streamed reply and the input probe, together: a
    /// streamed search writes blocks while it watches the input.
    pub fn stream_and_input(&mut self) -> (Emitter<'_>, &InputProbe) {
        (
            Emitter::new(self.reply_sink.as_mut(), &mut self.stream),
            &self.input,
        )
    }
}

pub struct Engine {
    game: AnyGame,
    settings: Settings,
    searchers: Searchers,
    /// Set to stop the search running now (or the next one, when a `stop` line
    /// was read ahead of it). Shared with the input reader.
    stop: Arc<AtomicBool>,
    /// When the command running now was read, or when its turn came if an
    /// earlier command still ran: its time counts from here.
    received: Instant,
    io: Io,
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
            settings: Settings::default(),
            searchers: Searchers::default(),
            stop: Arc::new(AtomicBool::new(false)),
            received: Instant::now(),
            io: Io::default(),
            quit: false,
        }
    }

    /// The game being played.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The game being played, to change its session.
    pub fn game_mut(&mut self) -> GameMut<'_> {
        self.game.as_mut()
    }

    /// The one way a game starts (`game`, `boardsize`, `clear_board`, `setup`,
    /// `loadgame`): the searchers forget the old game, and the new game's board
    /// size or turn limit becomes the one the next games are made with.
    pub fn start(&mut self, game: AnyGame) {
        self.searchers.new_game();
        match &game {
            AnyGame::Rekushu(s) => self.settings.rekushu_size = s.pos.size(),
            AnyGame::Rebus(s) => self.settings.turn_limit = s.pos.turn_limit(),
        }
        self.game = game;
    }

    /// A new game of `id` with the settings in force: an empty Rekushu board of
    /// the current size, or the REBUS standard setup.
    pub fn fresh(&self, id: GameId) -> AnyGame {
        match id {
            GameId::Rekushu => {
                AnyGame::Rekushu(Session::new(new_rekushu(self.settings.rekushu_size)))
            }
            GameId::Rebus => self.rebus_game(Position::standard()),
        }
    }

    /// A REBUS game from `pos`, played with the current turn limit.
    pub fn rebus_game(&self, mut pos: Position) -> AnyGame {
        pos.set_turn_limit(self.settings.turn_limit);
        AnyGame::Rebus(Session::new(pos))
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The settings, to change (the searcher is made ready for them when the
    /// command that changed them is answered: [`Engine::prepare`]).
    pub fn settings_mut(&mut self) -> &mut Settings {
        &mut self.settings
    }

    /// Makes the current game's searcher ready for the settings in force.
    pub fn prepare(&mut self) {
        self.searchers.prepare(self.game.id(), &self.settings);
    }

    /// The size of the table the current game's searcher holds, in MB.
    pub fn table_mb(&self) -> Option<usize> {
        self.searchers.table_mb(self.game.id())
    }

    /// The stop flag, to share with an input reader.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Forgets a `stop` (it was meant for a search that has ended).
    pub fn clear_stop(&self) {
        self.stop.store(false, Ordering::SeqCst);
    }

    /// When the command running now arrived: a search counts its time from then.
    pub fn set_received(&mut self, at: Instant) {
        self.received = at;
    }

    pub fn io(&mut self) -> &mut Io {
        &mut self.io
    }

    /// One report to the info sink.
    pub fn info(&mut self, report: &Report) {
        (self.io.info_sink)(report)
    }

    pub fn set_info_sink(&mut self, sink: Box<dyn FnMut(&Report) + Send>) {
        self.io.info_sink = sink;
    }

    pub fn set_reply_sink(&mut self, sink: ReplySink) {
        self.io.reply_sink = Some(sink);
    }

    pub fn set_input(&mut self, probe: InputProbe) {
        self.io.input = probe;
    }

    /// True once `quit` was answered.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    pub fn request_quit(&mut self) {
        self.quit = true;
    }

    /// The name of the side to move (`Black`, `Red`…).
    pub fn side_to_move_name(&self) -> &'static str {
        with_session!(&self.game, s => s.side_name(s.pos.side_to_move()))
    }

    /// Everything a command could change, as text: two equal fingerprints mean
    /// the same state. Tests use it to prove that rejected commands change nothing.
    pub fn fingerprint(&self) -> String {
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
            self.settings.rekushu_size,
            self.settings.turn_limit
        )
    }
}

/// A Rekushu board of a size already checked to be in range.
fn new_rekushu(size: usize) -> Board {
    Board::new(size)
        .or_else(|| Board::new(DEFAULT_REKUSHU_SIZE))
        .unwrap_or_else(|| unreachable!("the default size is valid"))
}
