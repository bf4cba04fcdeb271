//! REBUS Core in the protocol: colour words, the score text, and the commands
//! only REBUS has (`setup`, `position`, `lock`, `turn_limit`).

use super::commands::{exact_args, no_args, play_in};
use super::engine::{AnyGame, Engine};
use super::{CommandError, CommandResult, ErrorKind};
use crate::games::rebus::{DEFAULT_TURN_LIMIT, Position};

/// REBUS settings that outlive a game.
#[derive(Clone, Debug)]
pub struct RebusState {
    /// Plies after which a game ends and is scored (0 = none).
    pub turn_limit: u32,
}

impl Default for RebusState {
    fn default() -> Self {
        RebusState {
            turn_limit: DEFAULT_TURN_LIMIT,
        }
    }
}

fn session(e: &mut Engine) -> Result<&mut super::session::Session<Position>, CommandError> {
    match &mut e.game {
        AnyGame::Rebus(s) => Ok(s),
        AnyGame::Rekushu(_) => Err(CommandError::refused("this is a rebus command")),
    }
}

/// `setup <position string>` or `setup random <seed>`.
pub fn setup(e: &mut Engine, args: &[String]) -> CommandResult {
    session(e)?;
    let pos = match args {
        [] => {
            return Err(CommandError::syntax(
                "usage: setup <position string> | setup random <seed> (got nothing)",
            ));
        }
        [r, rest @ ..] if r.eq_ignore_ascii_case("random") && rest.len() != 1 => {
            let got = if rest.is_empty() {
                format!("'{r}'")
            } else {
                format!("'{}'", args.join(" "))
            };
            return Err(CommandError::syntax(format!(
                "usage: setup <position string> | setup random <seed> (got {got})"
            )));
        }
        [r, seed] if r.eq_ignore_ascii_case("random") => {
            let seed: u64 = seed.parse().map_err(|_| {
                CommandError::syntax(format!(
                    "setup random: '{seed}' is not a seed (0 to 2^64-1)"
                ))
            })?;
            Position::random(seed)
        }
        _ => {
            let text = args.join(" ");
            Position::from_position_string(&text)
                .map_err(|err| CommandError::new(ErrorKind::InvalidPosition, err.to_string()))?
        }
    };
    e.switch_to_rebus(pos);
    Ok(String::new())
}

/// `position`: the current position string.
pub fn position(e: &mut Engine, args: &[String]) -> CommandResult {
    no_args("position", args)?;
    Ok(session(e)?.pos.position_string())
}

/// `lock <colour> <square> <2|3>`.
pub fn lock(e: &mut Engine, args: &[String]) -> CommandResult {
    let [colour, square, k] = exact_args::<3>("lock", "<colour> <square> <2|3>", args)?;
    if k != "2" && k != "3" {
        return Err(CommandError::syntax(format!(
            "lock: block size '{k}' is not 2 or 3"
        )));
    }
    play_in(session(e)?, colour, &format!("{square}L{k}"))?;
    Ok(String::new())
}

/// `turn_limit [plies]`.
pub fn turn_limit(e: &mut Engine, args: &[String]) -> CommandResult {
    match args {
        [] => Ok(e.rebus.turn_limit.to_string()),
        [n] => {
            let plies: u32 = n.parse().map_err(|_| {
                CommandError::syntax(format!("turn_limit: '{n}' is not a number of plies"))
            })?;
            session(e)?.pos.set_turn_limit(plies);
            e.rebus.turn_limit = plies;
            Ok(String::new())
        }
        _ => Err(CommandError::syntax(format!(
            "usage: turn_limit [plies] (got '{}')",
            args.join(" ")
        ))),
    }
}
