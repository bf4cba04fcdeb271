//! Streamed analysis: `analyze [interval] [moves]` and
//! `genmove_analyze <colour> [interval] [moves]`, in the manner of KataGo's
//! `kata-analyze` and Leela Zero's `lz-analyze`.
//!
//! The reply starts (`=id`) as soon as the command is accepted; then, at most
//! once per interval, a block for the newest completed iteration: one
//! `info move …` line per candidate move, best first, the first with the
//! search-wide figures (depth, nodes, time).
//! `analyze` runs until the controller sends another line (which is then run as
//! the next command), `stop` included, or until its `limit` is reached;
//! `genmove_analyze` searches like `genmove` (level, clock, limits), ends its
//! reply with `play <move>` and plays the move. The exact formats are in
//! protocol.md, §7.
//!
//! The search runs on a scoped thread; the calling thread watches the clock,
//! the input ([`Engine::input`]) and writes the blocks ([`Engine::reply_sink`]).
//! Nothing here does I/O.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::engine::{AnyGame, Engine};
use super::play::{SearchRun, check_genmove, genmove_in, pv_text};
use super::session::Session;
use super::{CommandError, CommandResult};
use crate::core::GameText;
use crate::core::Status;
use crate::core::eval::{Evaluate, proven_result};
use crate::search::params::MAX_DEPTH;
use crate::search::{LevelConfig, Limits, SearchInfo, SearchResult, Searcher};

/// What the controller has sent since the command running now was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Nothing yet.
    Quiet,
    /// At least one more command line.
    Line,
    /// The input has ended: nothing more can come.
    Closed,
}

/// Asks whether more input has arrived ([`Engine::input`]).
pub type InputProbe = Box<dyn Fn() -> Input + Send>;
/// Asks whether a blank line has arrived ([`Engine::interrupt`]).
pub type InterruptProbe = Box<dyn Fn() -> bool + Send>;
/// Receives a streamed reply a piece at a time ([`Engine::reply_sink`]).
pub type ReplySink = Box<dyn FnMut(&str) + Send>;

/// Interval between blocks, in centiseconds (as `lz-analyze` and
/// `kata-analyze` count it): default, and the accepted range.
pub const DEFAULT_INTERVAL_CS: u64 = 100;
pub const MAX_INTERVAL_CS: u64 = 360_000;
/// Candidate moves listed per block: default and most.
pub const DEFAULT_MOVES: usize = 3;
pub const MAX_MOVES: usize = 20;
/// How often the watcher looks at the input and the clock.
const POLL: Duration = Duration::from_millis(5);

/// The streamed reply of the command running now.
#[derive(Debug, Default)]
pub struct StreamState {
    id: Option<u64>,
    started: bool,
    /// What was streamed while no sink was set.
    collected: String,
}

impl StreamState {
    pub fn new(id: Option<u64>) -> Self {
        StreamState {
            id,
            ..StreamState::default()
        }
    }

    /// True once the reply's first line went out.
    pub fn started(&self) -> bool {
        self.started
    }

    pub fn into_collected(self) -> String {
        self.collected
    }
}

/// Writes the lines of a streamed reply: the first line (`=id`) once, then
/// each line given, to the sink or into the collected text.
pub(crate) struct Emitter<'a> {
    sink: Option<&'a mut ReplySink>,
    state: &'a mut StreamState,
}

impl<'a> Emitter<'a> {
    pub(crate) fn new(sink: Option<&'a mut ReplySink>, state: &'a mut StreamState) -> Self {
        Emitter { sink, state }
    }

    /// Starts the reply (`=id`); the command can no longer fail.
    pub(crate) fn start(&mut self) {
        if self.state.started {
            return;
        }
        self.state.started = true;
        let head = match self.state.id {
            Some(id) => format!("={id}\n"),
            None => "=\n".to_string(),
        };
        self.write(&head);
    }

    /// Lines of the reply; blank ones are dropped (they would end the reply).
    pub(crate) fn lines(&mut self, text: &str) {
        self.start();
        let mut out = String::with_capacity(text.len() + 1);
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            out.push_str(line);
            out.push('\n');
        }
        if !out.is_empty() {
            self.write(&out);
        }
    }

    fn write(&mut self, text: &str) {
        match self.sink.as_mut() {
            Some(sink) => sink(text),
            None => self.state.collected.push_str(text),
        }
    }
}

/// How a streamed search reports and ends.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StreamSpec {
    pub interval: Duration,
    /// Candidate moves listed per block.
    pub moves: usize,
    /// End the search when the input ends (an analysis that nothing else could
    /// stop); a search with its own end (a limit, a clock) runs on.
    pub stop_on_eof: bool,
}

/// A score token: `+1.50` / `-0.25` (tiles or squares for the side to move),
/// `W7` / `L6` (a proven win / loss, that many plies from now).
pub fn analysis_score(score: i32) -> String {
    match proven_result(score) {
        Some((true, n)) => format!("W{n}"),
        Some((false, n)) => format!("L{n}"),
        None => format!("{:+.2}", score as f64 / 100.0),
    }
}

/// One block: a line `info move …` per candidate move (at most `moves`), best
/// first; the first also carries the search-wide figures:
///
/// ```text
/// info move B2 order 0 score +0.04 depth 5 seldepth 8 nodes 108065 nps 715430 time 151 pv B2 A1 B1
/// info move C2 order 1 score +0.04 pv C2 A1 B1 A2 B2
/// info move A1 order 2 score +0.00 bound upper pv A1
/// ```
pub fn analysis_block<G: GameText>(pos: &G, info: &SearchInfo<G::Move>, moves: usize) -> String {
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
            pos.format_move(line.first().copied().unwrap_or(rm.mv)),
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
        text.push_str(&pv_text(pos, &line));
        out.push(text);
    }
    out.join("\n")
}

/// Runs a search on a scoped thread while this thread streams its blocks
/// (the first completed iteration at once, then at most one per interval, the
/// newest; the last one always) and stops it when the controller sends a line
/// or sets `stop`. A stop is passed on only after the first iteration has
/// completed, so every reply holds at least one block.
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
                        Input::Line => true,
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
                out.lines(&analysis_block(pos, info, spec.moves));
                fresh = false;
                next_block = now + spec.interval;
            }
        }
        if fresh && let Some(info) = &latest {
            out.lines(&analysis_block(pos, info, spec.moves));
        }
        match worker.join() {
            Ok(result) => result,
            Err(payload) => std::panic::resume_unwind(payload),
        }
    })
}

/// `[interval] [moves]`: centiseconds and a number of candidate moves.
fn stream_args(
    name: &str,
    usage: &str,
    args: &[String],
) -> Result<(Duration, usize), CommandError> {
    if args.len() > 2 {
        return Err(CommandError::syntax(format!(
            "usage: {name} {usage} (got '{}')",
            args.join(" ")
        )));
    }
    let interval = match args.first() {
        None => DEFAULT_INTERVAL_CS,
        Some(a) => a
            .parse::<u64>()
            .ok()
            .filter(|cs| (1..=MAX_INTERVAL_CS).contains(cs))
            .ok_or_else(|| {
                CommandError::syntax(format!(
                    "{name}: '{a}' is not an interval (1 to {MAX_INTERVAL_CS} centiseconds)"
                ))
            })?,
    };
    let moves = match args.get(1) {
        None => DEFAULT_MOVES,
        Some(a) => a
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_MOVES).contains(n))
            .ok_or_else(|| {
                CommandError::syntax(format!(
                    "{name}: '{a}' is not a number of moves (1 to {MAX_MOVES})"
                ))
            })?,
    };
    Ok((Duration::from_millis(interval * 10), moves))
}

const ANALYZE_USAGE: &str = "[colour] [interval] [moves]";
const GENMOVE_ANALYZE_USAGE: &str = "<colour> [interval] [moves]";

/// `analyze [colour] [interval] [moves]`. The colour, which GUIs send (as to
/// `lz-analyze`), must name the side to move.
pub fn analyze(e: &mut Engine, args: &[String]) -> CommandResult {
    let play = &mut e.play;
    // The level's threads, table and evaluation; no depth cap, no randomness.
    let config = LevelConfig {
        max_depth: MAX_DEPTH as u32,
        noise_margin: 0,
        may_resign: false,
        ..play.config()
    };
    let limited = play.limits.depth.is_some() || play.limits.nodes.is_some();
    let limits = if limited {
        Limits {
            depth: play.limits.depth,
            nodes: play.limits.nodes,
            ..Limits::default()
        }
    } else {
        Limits::infinite()
    };
    let mut out = Emitter::new(e.reply_sink.as_mut(), &mut e.stream);
    let input = &e.input;
    let run = Analysis {
        config: &config,
        limits: &limits,
        stop_on_eof: !limited,
        stop: &play.stop,
        input,
    };
    let result = match &mut e.game {
        AnyGame::Rekushu(s) => run.run(s, &mut play.rekushu, args, &mut out),
        AnyGame::Rebus(s) => run.run(s, &mut play.rebus, args, &mut out),
    };
    // A stop meant for this analysis is used up.
    play.stop.store(false, Ordering::SeqCst);
    result
}

/// What an `analyze` needs beyond the game.
struct Analysis<'a> {
    config: &'a LevelConfig,
    limits: &'a Limits,
    stop_on_eof: bool,
    stop: &'a AtomicBool,
    input: &'a InputProbe,
}

impl Analysis<'_> {
    fn run<G: GameText + Evaluate>(
        &self,
        s: &Session<G>,
        slot: &mut Option<Searcher<G>>,
        args: &[String],
        out: &mut Emitter<'_>,
    ) -> CommandResult {
        let args = match args.first() {
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
                &args[1..]
            }
            _ => args,
        };
        let (interval, moves) = stream_args("analyze", ANALYZE_USAGE, args)?;
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
        };
        let searcher = slot.get_or_insert_with(|| Searcher::for_level(self.config));
        searcher.apply_level(self.config);
        out.start();
        stream_search(
            searcher,
            &s.pos,
            self.limits,
            self.config,
            moves,
            spec,
            self.stop,
            self.input,
            out,
        );
        Ok(String::new())
    }
}

/// `genmove_analyze <colour> [interval] [moves]`.
pub fn genmove_analyze(e: &mut Engine, args: &[String]) -> CommandResult {
    const NAME: &str = "genmove_analyze";
    let Some((colour, rest)) = args.split_first() else {
        return Err(CommandError::syntax(format!(
            "usage: {NAME} {GENMOVE_ANALYZE_USAGE} (got nothing)"
        )));
    };
    let (interval, moves) = stream_args(NAME, GENMOVE_ANALYZE_USAGE, rest)?;
    let spec = StreamSpec {
        interval,
        moves,
        stop_on_eof: false,
    };
    let play = &mut e.play;
    let mut out = Emitter::new(e.reply_sink.as_mut(), &mut e.stream);
    let input = &e.input;
    let result = match &mut e.game {
        AnyGame::Rekushu(s) => {
            let mut slot = play.rekushu.take();
            let r = check_genmove(s, NAME, colour).and_then(|side| {
                out.start();
                let mut run = streaming_run(spec, input, &mut out);
                genmove_in(s, &mut slot, play, side, colour, true, &mut run)
            });
            play.rekushu = slot;
            r
        }
        AnyGame::Rebus(s) => {
            let mut slot = play.rebus.take();
            let r = check_genmove(s, NAME, colour).and_then(|side| {
                out.start();
                let mut run = streaming_run(spec, input, &mut out);
                genmove_in(s, &mut slot, play, side, colour, true, &mut run)
            });
            play.rebus = slot;
            r
        }
    };
    play.stop.store(false, Ordering::SeqCst);
    let choice = result?;
    (e.info_sink)(&format!("{NAME} {}: {}", choice.text, choice.summary));
    Ok(format!("play {}", choice.text))
}

/// The search of `genmove_analyze`: `genmove`'s (one line, the level's
/// limits), streamed.
fn streaming_run<'r, G: GameText + Evaluate>(
    spec: StreamSpec,
    input: &'r InputProbe,
    out: &'r mut Emitter<'_>,
) -> Box<SearchRun<'r, G>> {
    Box::new(move |searcher, pos, limits, config, stop| {
        stream_search(searcher, pos, limits, config, 1, spec, stop, input, out)
    })
}
