//! Streamed analysis: `analyze [interval] [moves]` and
//! `genmove_analyze <colour> [interval] [moves]`, in the manner of KataGo's
//! `kata-analyze` and Leela Zero's `lz-analyze`.
//!
//! The reply starts (`=id`) as soon as the command is accepted; then, at most
//! once per interval, a block for the newest completed iteration: one
//! `info move …` line per candidate move, best first, the first with the
//! search-wide figures (depth, nodes, time).
//! `analyze` runs until the controller sends another command (which is then run as
//! the next command), `stop` included, or until its `limit` is reached;
//! `genmove_analyze` searches like `genmove` (level, clock, limits), ends its
//! reply with `play <move>` and plays the move. The exact formats are in
//! protocol.md, §7.
//!
//! The search runs on a scoped thread; the calling thread watches the clock,
//! the input (the engine's input probe) and writes the blocks (the engine's
//! reply sink). Nothing here does I/O.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::args::Args;
use super::names;
use crate::core::eval::Evaluate;
use crate::core::{GameId, GameText, Status};
use crate::engine::numbers::{whole, whole_in};
use crate::engine::play::{SearchRun, analysis_score, pv_text, searcher};
use crate::engine::stream::{Emitter, Input, InputProbe};
use crate::engine::{CommandError, CommandResult, Cx, Engine, Io, OnGame};
use crate::search::params::MAX_DEPTH;
use crate::search::{LevelConfig, Limits, Resign, SearchInfo, SearchResult, Searcher};

/// Interval between blocks, in centiseconds (as `lz-analyze` and
/// `kata-analyze` count it): default, and the accepted range.
pub const DEFAULT_INTERVAL_CS: u64 = 100;
pub const MAX_INTERVAL_CS: u64 = 360_000;
/// Candidate moves listed per block: default and most.
pub const DEFAULT_MOVES: usize = 3;
pub const MAX_MOVES: usize = 20;
/// How often the watcher looks at the input and the clock.
const POLL: Duration = Duration::from_millis(5);

/// How a streamed search reports and ends.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StreamSpec {
    pub interval: Duration,
    /// Candidate moves listed per block.
    pub moves: usize,
    /// End the search when the input ends (an analysis that nothing else could
    /// stop); a search with its own end (a limit, a clock) runs on.
    pub stop_on_eof: bool,
    /// End the search when the controller sends another command (`analyze`
    /// runs until then); `genmove_analyze` runs on, like `genmove`.
    pub end_on_command: bool,
    /// Rekushu moves in GoGui's names (GoGui mode).
    pub gogui: bool,
}

/// One block: a line `info move …` per candidate move (at most `moves`), best
/// first; the first also carries the search-wide figures:
///
/// ```text
/// info move B2 order 0 score +0.04 depth 5 seldepth 8 nodes 108065 nps 715430 time 151 pv B2 A1 B1
/// info move C2 order 1 score +0.04 pv C2 A1 B1 A2 B2
/// info move A1 order 2 score +0.00 bound upper pv A1
/// ```
pub fn analysis_block<G: GameText>(
    pos: &G,
    info: &SearchInfo<G::Move>,
    moves: usize,
    gogui: bool,
) -> String {
    // GoGui mode: Rekushu vertices in GoGui's names.
    let names = |text: String| match gogui && G::ID == GameId::Rekushu {
        true => names::moves_to_gogui(&text),
        false => text,
    };
    let mut out = Vec::with_capacity(moves);
    for (i, rm) in info.root_moves.iter().take(moves).enumerate() {
        let (score, exact, line) = if i == 0 && !info.pv.is_empty() {
            (info.score, true, info.pv.clone())
        } else {
            let line = match info.lines.get(i) {
                Some(l) if rm.exact && !l.is_empty() => l.clone(),
                _ => vec![rm.mv],
            };
            (rm.score, rm.exact, line)
        };
        let mut text = format!(
            "info move {} order {i} score {}",
            names(pos.format_move(line.first().copied().unwrap_or(rm.mv))),
            analysis_score(score)
        );
        if !exact {
            text.push_str(" bound upper");
        }
        if i == 0 {
            text.push_str(&format!(
                " depth {} seldepth {} nodes {} nps {} time {}",
                info.depth,
                info.seldepth,
                info.nodes,
                info.nps,
                info.time.as_millis()
            ));
        }
        text.push_str(" pv ");
        text.push_str(&names(pv_text(pos, &line)));
        out.push(text);
    }
    out.join("\n")
}

/// Runs a search on a scoped thread while this thread streams its blocks
/// (the first completed iteration at once, then at most one per interval, the
/// newest; the last one always) and stops it on `stop`, or when the
/// controller sends another command if `spec` says so. A stop is passed on
/// only after the first iteration has completed, so every reply holds at
/// least one block.
#[allow(clippy::too_many_arguments)]
pub(crate) fn stream_search<G: GameText + Evaluate>(
    searcher: &mut Searcher<G>,
    pos: &G,
    limits: &Limits,
    config: &LevelConfig,
    multipv: usize,
    spec: StreamSpec,
    stop: &AtomicBool,
    input: &InputProbe,
    out: &mut Emitter<'_>,
) -> SearchResult<G::Move> {
    let inner = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<SearchInfo<G::Move>>();
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
                out.lines(&analysis_block(pos, info, spec.moves, spec.gogui));
                fresh = false;
                next_block = now + spec.interval;
            }
        }
        if fresh && let Some(info) = &latest {
            out.lines(&analysis_block(pos, info, spec.moves, spec.gogui));
        }
        match worker.join() {
            Ok(result) => result,
            Err(payload) => std::panic::resume_unwind(payload),
        }
    })
}

/// `[interval] [moves]`, the words of `args` after the first `skip` (a
/// colour): centiseconds and a number of candidate moves. A usage error
/// quotes every word given.
fn stream_args(args: &Args, skip: usize) -> Result<(Duration, usize), CommandError> {
    let name = args.name();
    let rest = &args[skip.min(args.len())..];
    if rest.len() > 2 {
        return Err(args.usage_error());
    }
    let interval = match rest.first() {
        None => DEFAULT_INTERVAL_CS,
        Some(a) => whole_in(
            &format!("{name} interval"),
            a,
            1,
            MAX_INTERVAL_CS,
            "centiseconds",
        )?,
    };
    let moves = match rest.get(1) {
        None => DEFAULT_MOVES,
        Some(a) => whole(&format!("{name} moves"), a, 1, MAX_MOVES)?,
    };
    Ok((Duration::from_millis(interval * 10), moves))
}

/// `analyze [colour] [interval] [moves]`. The colour, which GUIs send (as to
/// `lz-analyze`), must name the side to move.
pub fn analyze(e: &mut Engine, args: &Args) -> CommandResult {
    let settings = e.settings();
    // The level's threads, table and evaluation; no depth cap, no randomness.
    let config = LevelConfig {
        max_depth: MAX_DEPTH as u32,
        noise_margin: 0,
        resign: Resign::Off,
        ..settings.config()
    };
    let fixed = settings.analysis_limits();
    let limited = fixed.is_some();
    let limits = fixed.unwrap_or_else(Limits::infinite);
    let gogui = e.settings().gogui;
    let result = e.on_game(Analysis {
        config: &config,
        limits: &limits,
        stop_on_eof: !limited,
        gogui,
        args,
    });
    // A stop meant for this analysis is used up.
    e.clear_stop();
    result
}

/// An `analyze` of the current game.
struct Analysis<'a> {
    config: &'a LevelConfig,
    limits: &'a Limits,
    stop_on_eof: bool,
    gogui: bool,
    args: &'a Args<'a>,
}

impl OnGame for Analysis<'_> {
    type Output = CommandResult;

    fn on<G: GameText + Evaluate>(self, cx: Cx<'_, G>) -> CommandResult {
        let Cx {
            session: s,
            searcher: slot,
            stop,
            io,
            ..
        } = cx;
        let args = self.args;
        let skip = match args.first() {
            Some(first) if !first.bytes().all(|b| b.is_ascii_digit()) => {
                let Some(side) = G::parse_side(first) else {
                    return Err(CommandError::syntax(format!(
                        "analyze: '{first}' is neither a colour ({}) nor an interval (1 to {MAX_INTERVAL_CS} centiseconds)",
                        G::COLOUR_WORDS
                    )));
                };
                let to_move = s.pos.side_to_move();
                if side != to_move && s.status() == Status::Ongoing {
                    return Err(CommandError::refused(format!(
                        "analyze {first}: it is {}'s turn, not {}'s",
                        G::side_name(to_move),
                        G::side_name(side)
                    )));
                }
                1
            }
            _ => 0,
        };
        let (interval, moves) = stream_args(args, skip)?;
        if s.status() != Status::Ongoing {
            return Err(CommandError::refused(format!(
                "analyze: the game is over ({})",
                s.status_text()
            )));
        }
        let spec = StreamSpec {
            interval,
            moves,
            stop_on_eof: self.stop_on_eof,
            end_on_command: true,
            gogui: self.gogui,
        };
        let searcher = searcher(slot, self.config);
        let (mut out, input) = io.stream_and_input();
        out.start();
        stream_search(
            searcher,
            &s.pos,
            self.limits,
            self.config,
            moves,
            spec,
            stop,
            input,
            &mut out,
        );
        Ok(String::new())
    }
}

/// `genmove_analyze <colour> [interval] [moves]`.
pub fn genmove_analyze(e: &mut Engine, args: &Args) -> CommandResult {
    let Some(colour) = args.first() else {
        return Err(args.usage_error());
    };
    let (interval, moves) = stream_args(args, 1)?;
    names::refuse_rebus_in_gogui_mode(e, args)?;
    let mut run = Streamed(StreamSpec {
        interval,
        moves,
        stop_on_eof: false,
        end_on_command: false,
        gogui: e.settings().gogui,
    });
    let choice = e.genmove(args.name(), colour, true, &mut run)?;
    Ok(format!("play {}", names::move_text(e, choice.text)))
}

/// The search of `genmove_analyze`: `genmove`'s (one line, the level's
/// limits), streamed. The reply starts once the colour is accepted.
struct Streamed(StreamSpec);

impl SearchRun for Streamed {
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
        let (mut out, input) = io.stream_and_input();
        stream_search(
            searcher, pos, limits, config, 1, self.0, stop, input, &mut out,
        )
    }
}
