//! Streamed searches: `analyze` (until the controller sends another command,
//! `stop`, the end of input or the search's `limit`) and `genmove_analyze`
//! (a `genmove` search whose progress is streamed). The search runs on a
//! scoped thread; this thread watches the clock, the input and the stop
//! flag, and writes a block at most once per interval through the reply's
//! emitter. What a block looks like in text is the caller's (the protocol's)
//! `format`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::play::{SearchRun, searcher};
use super::report::Block;
use super::stream::{Emitter, Input, InputProbe};
use super::{CommandError, Engine, Io, Session, with_session};
use crate::core::eval::Evaluate;
use crate::core::{GameText, Status};
use crate::search::{LevelConfig, Limits, SearchInfo, SearchResult, Searcher};

/// How often the watcher looks at the input and the clock.
const POLL: Duration = Duration::from_millis(5);

/// A block's text, as the protocol writes it.
pub type BlockFormat<'a> = &'a dyn Fn(&Block) -> String;

/// How a streamed search reports and ends.
#[derive(Clone, Copy, Debug)]
pub struct StreamSpec {
    pub interval: Duration,
    /// Candidate moves listed per block.
    pub moves: usize,
    /// End the search when the input ends (an analysis that nothing else could
    /// stop); a search with its own end (a limit, a clock) runs on.
    pub stop_on_eof: bool,
    /// End the search when the controller sends another command (`analyze`
    /// runs until then); `genmove_analyze` runs on, like `genmove`.
    pub end_on_command: bool,
}

/// Runs a search on a scoped thread while this thread streams its blocks
/// (the first completed iteration at once, then at most one per interval, the
/// newest; the last one always) and stops it on `stop`, or when the
/// controller sends another command if `spec` says so. A stop is passed on
/// only after the first iteration has completed, so every reply holds at
/// least one block.
#[allow(clippy::too_many_arguments)]
fn stream_search<G: GameText + Evaluate>(
    searcher: &mut Searcher<G>,
    pos: &G,
    limits: &Limits,
    config: &LevelConfig,
    multipv: usize,
    spec: StreamSpec,
    stop: &AtomicBool,
    input: &InputProbe,
    out: &mut Emitter<'_>,
    format: BlockFormat<'_>,
) -> SearchResult<G::Move> {
    let inner = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<SearchInfo<G::Move>>();
    let block = |info: &SearchInfo<G::Move>| format(&Block::of(pos, info, spec.moves));
    std::thread::scope(|scope| {
        let inner = &inner;
        let worker = scope.spawn(move || {
            searcher.search_multipv(pos, limits, config, multipv, inner, &mut |i| {
                let _ = tx.send(i.clone());
            })
        });
        let mut latest: Option<SearchInfo<G::Move>> = None;
        let mut fresh = false;
        let mut next_block = Instant::now();
        loop {
            let wait = if fresh {
                next_block
                    .saturating_duration_since(Instant::now())
                    .min(POLL)
            } else {
                POLL
            };
            match rx.recv_timeout(wait) {
                Ok(info) => {
                    latest = Some(info);
                    fresh = true;
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if latest.is_some() && !inner.load(Ordering::Relaxed) {
                let asked = stop.load(Ordering::Relaxed)
                    || match input() {
                        Input::Quiet => false,
                        Input::Line => spec.end_on_command,
                        Input::Closed => spec.stop_on_eof,
                    };
                if asked {
                    inner.store(true, Ordering::Relaxed);
                }
            }
            let now = Instant::now();
            if fresh
                && now >= next_block
                && let Some(info) = &latest
            {
                out.lines(&block(info));
                fresh = false;
                next_block = now + spec.interval;
            }
        }
        if fresh && let Some(info) = &latest {
            out.lines(&block(info));
        }
        match worker.join() {
            Ok(result) => result,
            Err(payload) => std::panic::resume_unwind(payload),
        }
    })
}

/// The search of `genmove_analyze`: `genmove`'s (one line, the level's
/// limits), streamed. The reply starts once the colour is accepted.
pub struct Streamed<'a> {
    pub spec: StreamSpec,
    pub format: BlockFormat<'a>,
}

impl SearchRun for Streamed<'_> {
    fn accepted(&mut self, io: &mut Io) {
        io.emitter().start();
    }

    fn search<G: GameText + Evaluate>(
        &mut self,
        searcher: &mut Searcher<G>,
        pos: &G,
        limits: &Limits,
        config: &LevelConfig,
        stop: &AtomicBool,
        io: &mut Io,
    ) -> SearchResult<G::Move> {
        // `genmove`'s search: one exact line, the other candidates bounds.
        let (mut out, input) = io.stream_and_input();
        stream_search(
            searcher,
            pos,
            limits,
            config,
            1,
            self.spec,
            stop,
            input,
            &mut out,
            self.format,
        )
    }
}

/// `analyze` of one game's session: its searcher, from the reply's first line
/// on.
#[allow(clippy::too_many_arguments)]
fn analyse_game<G: GameText + Evaluate>(
    s: &Session<G>,
    slot: &mut Option<Searcher<G>>,
    limits: &Limits,
    config: &LevelConfig,
    spec: StreamSpec,
    stop: &AtomicBool,
    io: &mut Io,
    format: BlockFormat<'_>,
) -> Result<(), CommandError> {
    if s.status() != Status::Ongoing {
        return Err(CommandError::refused(format!(
            "analyze: the game is over ({})",
            s.status_text()
        )));
    }
    let searcher = searcher(slot, config);
    let (mut out, input) = io.stream_and_input();
    out.start();
    stream_search(
        searcher, &s.pos, limits, config, spec.moves, spec, stop, input, &mut out, format,
    );
    Ok(())
}

impl Engine {
    /// Streams an analysis of the position for the side to move (`analyze`),
    /// with `config`'s search, until `limits` or what `spec` says ends it.
    /// A stop meant for it is used up; nothing else changes.
    pub fn analyse(
        &mut self,
        limits: &Limits,
        config: &LevelConfig,
        spec: StreamSpec,
        format: BlockFormat<'_>,
    ) -> Result<(), CommandError> {
        let stop = &*self.stop;
        let io = &mut self.io;
        let result = with_session!(&self.game, self.searchers, (s, slot) => {
            analyse_game(s, slot, limits, config, spec, stop, io, format)
        });
        self.clear_stop();
        result
    }
}
