//! Streamed analysis in the protocol: `analyze [colour] [interval] [moves]`
//! and `genmove_analyze <colour> [interval] [moves]`, in the manner of
//! KataGo's `kata-analyze` and Leela Zero's `lz-analyze`: the arguments, and
//! the text of each block ([`super::report::block_text`]). The engine runs the
//! search and its thread ([`crate::engine::analysis`]).
//!
//! The reply starts (`=id`) as soon as the command is accepted; then, at most
//! once per interval, a block for the newest completed iteration: one
//! `info move …` line per candidate move, best first, the first with the
//! search-wide figures (depth, nodes, time). `analyze` runs until the
//! controller sends another command (which is then run as the next command),
//! `stop` included, or until its `limit` is reached; `genmove_analyze`
//! searches like `genmove` (level, clock, limits), ends its reply with
//! `play <move>` and plays the move. The exact formats are in protocol.md, §7.

use std::time::Duration;

use super::args::Args;
use super::names;
use super::report::{block_text, chosen_text};
use crate::core::{GameId, GameText, Status};
use crate::engine::analysis::{StreamSpec, Streamed};
use crate::engine::numbers::{whole, whole_in};
use crate::engine::report::Block;
use crate::engine::{CommandError, CommandResult, Engine, Session, with_session};
use crate::search::params::MAX_DEPTH;
use crate::search::{LevelConfig, Limits, Resign};

/// Interval between blocks, in centiseconds (as `lz-analyze` and
/// `kata-analyze` count it): default, and the accepted range.
pub const DEFAULT_INTERVAL_CS: u64 = 100;
pub const MAX_INTERVAL_CS: u64 = 360_000;
/// Candidate moves listed per block: default and most.
pub const DEFAULT_MOVES: usize = 3;
pub const MAX_MOVES: usize = 20;

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

/// Whether a Rekushu game's blocks name vertices GoGui's way.
fn gogui_names(e: &Engine) -> bool {
    e.settings().gogui && e.game().id() == GameId::Rekushu
}

/// `analyze [colour] [interval] [moves]`. The colour, which GUIs send (as to
/// `lz-analyze`), must name the side to move.
pub fn analyze(e: &mut Engine, args: &Args) -> CommandResult {
    let skip = match args.first() {
        Some(first) if !first.bytes().all(|b| b.is_ascii_digit()) => {
            colour_is_to_move(e, first)?;
            1
        }
        _ => 0,
    };
    let (interval, moves) = stream_args(args, skip)?;
    let settings = e.settings();
    // The level's threads, table and evaluation; no depth cap, no randomness.
    let config = LevelConfig {
        max_depth: MAX_DEPTH as u32,
        noise_margin: 0,
        resign: Resign::Off,
        ..settings.config(e.game().id())
    };
    let fixed = settings.analysis_limits();
    let spec = StreamSpec {
        interval,
        moves,
        stop_on_eof: fixed.is_none(),
        end_on_command: true,
    };
    let limits = fixed.unwrap_or_else(Limits::infinite);
    let gogui = gogui_names(e);
    let format = |b: &Block| block_text(b, gogui);
    e.analyse(&limits, &config, spec, &format)?;
    Ok(String::new())
}

/// The colour `analyze` was given must be a colour and, while the game goes
/// on, the side to move's.
fn colour_is_to_move(e: &Engine, word: &str) -> Result<(), CommandError> {
    with_session!(e.game(), s => check_colour(s, word))
}

fn check_colour<G: GameText>(s: &Session<G>, word: &str) -> Result<(), CommandError> {
    let Some(side) = G::parse_side(word) else {
        return Err(CommandError::syntax(format!(
            "analyze: '{word}' is neither a colour ({}) nor an interval (1 to {MAX_INTERVAL_CS} centiseconds)",
            G::COLOUR_WORDS
        )));
    };
    let to_move = s.pos.side_to_move();
    if side != to_move && s.status() == Status::Ongoing {
        return Err(CommandError::refused(format!(
            "analyze {word}: it is {}'s turn, not {}'s",
            G::side_name(to_move),
            G::side_name(side)
        )));
    }
    Ok(())
}

/// `genmove_analyze <colour> [interval] [moves]`.
pub fn genmove_analyze(e: &mut Engine, args: &Args) -> CommandResult {
    let Some(colour) = args.first() else {
        return Err(args.usage_error());
    };
    let (interval, moves) = stream_args(args, 1)?;
    names::refuse_rebus_in_gogui_mode(e, args)?;
    let gogui = gogui_names(e);
    let format = |b: &Block| block_text(b, gogui);
    let mut run = Streamed {
        spec: StreamSpec {
            interval,
            moves,
            stop_on_eof: false,
            end_on_command: false,
        },
        format: &format,
    };
    let choice = e.genmove(args.name(), colour, true, &mut run)?;
    let text = chosen_text(&choice.chosen).to_string();
    Ok(format!("play {}", names::move_text(e, text)))
}
