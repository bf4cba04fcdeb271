//! Engine play in the protocol: `genmove`, `reg_genmove`, `level`, time control
//! (`time_settings`, `time_left`, `fischer_time`, `move_time`), search limits
//! (`limit`), options (`setoption`, `options`) and `stop`. The settings and the
//! move choice are the engine's ([`crate::engine::settings`],
//! [`crate::engine::play`]); these handlers read the arguments and reply.

use std::time::Duration;

use super::args::Args;
use super::names;
use super::report::chosen_text;
use crate::engine::numbers::{seconds, whole};
use crate::engine::play::PlainRun;
use crate::engine::settings::{AnalysisLimits, TimeControl, option_infos};
use crate::engine::{CommandError, CommandResult, Engine, with_session};

fn genmove_any(e: &mut Engine, args: &Args, commit: bool) -> CommandResult {
    let [colour] = args.exact::<1>()?;
    names::refuse_rebus_in_gogui_mode(e, args)?;
    let choice = e.genmove(args.name(), colour, commit, &mut PlainRun)?;
    Ok(names::move_text(e, chosen_text(&choice.chosen).to_string()))
}

pub fn genmove(e: &mut Engine, args: &Args) -> CommandResult {
    genmove_any(e, args, true)
}

pub fn reg_genmove(e: &mut Engine, args: &Args) -> CommandResult {
    genmove_any(e, args, false)
}

/// `level [easy|medium|hard|mike|random|uct]`.
pub fn level(e: &mut Engine, args: &Args) -> CommandResult {
    match args.words() {
        [] => Ok(e.settings().level_name()),
        [l] => {
            e.settings_mut().set_level(l)?;
            Ok(String::new())
        }
        _ => Err(args.usage_error()),
    }
}

/// The most byo-yomi stones `time_settings` and `time_left` take.
pub const MAX_STONES: u32 = 1_000_000;

fn count(what: &str, text: &str) -> Result<u32, CommandError> {
    whole(&format!("{what} stones"), text, 0, MAX_STONES)
}

/// GTP `time_settings <main> <byo-yomi time> <byo-yomi stones>`.
pub fn time_settings(e: &mut Engine, args: &Args) -> CommandResult {
    let [main, byo, stones] = args.exact::<3>()?;
    let main = seconds("time_settings", main)?;
    let byo = seconds("time_settings", byo)?;
    let stones = count("time_settings", stones)?;
    if byo > Duration::ZERO && stones == 0 {
        // GTP: byo-yomi time with no stones means no time limit.
        e.settings_mut().time = TimeControl::LevelDefault;
        e.settings_mut().remaining = [None, None];
        return Ok(String::new());
    }
    e.settings_mut().time = TimeControl::Clock {
        increment: Duration::ZERO,
    };
    let start = if main > Duration::ZERO || stones == 0 {
        (main, None)
    } else {
        (byo, Some(stones))
    };
    e.settings_mut().remaining = [Some(start), Some(start)];
    Ok(String::new())
}

/// GTP `time_left <colour> <time> <stones>` (stones 0: main time, else byo-yomi).
pub fn time_left(e: &mut Engine, args: &Args) -> CommandResult {
    let [colour, time, stones] = args.exact::<3>()?;
    let side = with_session!(e.game(), s => s.colour(colour))?;
    let time = seconds("time_left", time)?;
    let stones = count("time_left", stones)?;
    if !matches!(e.settings().time, TimeControl::Clock { .. }) {
        e.settings_mut().time = TimeControl::Clock {
            increment: Duration::ZERO,
        };
    }
    e.settings_mut().remaining[side.index()] = Some((time, (stones > 0).then_some(stones)));
    Ok(String::new())
}

/// `fischer_time <base> <increment>`: both clocks start at base, each move adds
/// the increment.
pub fn fischer_time(e: &mut Engine, args: &Args) -> CommandResult {
    let [base, inc] = args.exact::<2>()?;
    let base = seconds("fischer_time", base)?;
    let increment = seconds("fischer_time", inc)?;
    e.settings_mut().time = TimeControl::Clock { increment };
    e.settings_mut().remaining = [Some((base, None)), Some((base, None))];
    Ok(String::new())
}

/// `move_time <seconds>`: a fixed time per move; 0 returns to the level's default.
pub fn move_time(e: &mut Engine, args: &Args) -> CommandResult {
    let [t] = args.exact::<1>()?;
    e.settings_mut().set_move_time(t)?;
    Ok(String::new())
}

/// `limit depth <n>` | `limit nodes <n>` | `limit none` | `limit`.
pub fn limit(e: &mut Engine, args: &Args) -> CommandResult {
    let settings = e.settings_mut();
    match args.words() {
        [] => {
            let lim = settings.limits;
            Ok(format!(
                "depth {} nodes {}",
                lim.depth.map_or("none".into(), |d| d.to_string()),
                lim.nodes.map_or("none".into(), |n| n.to_string())
            ))
        }
        [n] if n.eq_ignore_ascii_case("none") => {
            settings.limits = AnalysisLimits::default();
            Ok(String::new())
        }
        [kind, n] if kind.eq_ignore_ascii_case("depth") => {
            settings.set_depth_limit(n)?;
            Ok(String::new())
        }
        [kind, n] if kind.eq_ignore_ascii_case("nodes") => {
            settings.set_node_limit(n)?;
            Ok(String::new())
        }
        _ => Err(args.usage_error()),
    }
}

/// `options`: every option, its value now, and what it takes.
pub fn options(e: &mut Engine, args: &Args) -> CommandResult {
    args.none()?;
    let values = e.settings().option_values(e.game().id(), e.table_mb());
    Ok(option_infos()
        .iter()
        .zip(values)
        .map(|(o, v)| format!("{} {v} - {}", o.name, o.takes))
        .collect::<Vec<_>>()
        .join("\n"))
}

/// `setoption <name> <value>`.
pub fn setoption(e: &mut Engine, args: &Args) -> CommandResult {
    let [name, value] = args.exact::<2>()?;
    e.settings_mut().set_option(name, value)?;
    Ok(String::new())
}

/// `stop`: the driver sets the stop flag as soon as it reads this line while a
/// search runs or waits; by the time the engine answers it, there is nothing
/// left to do.
pub fn stop(_: &mut Engine, args: &Args) -> CommandResult {
    args.none()?;
    Ok(String::new())
}
