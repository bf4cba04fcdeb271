//! REBUS Core in the protocol: colour words, the score text, and the commands
//! only REBUS has (`setup`, `position`, `lock`, `turn_limit`).

use super::args::Args;
use crate::engine::{CommandError, CommandResult, Engine, ErrorKind, GameMut, Session};
use crate::games::rebus::Position;

fn session(e: &mut Engine) -> Result<&mut Session<Position>, CommandError> {
    match e.game_mut() {
        GameMut::Rebus(s) => Ok(s),
        GameMut::Rekushu(_) => Err(CommandError::refused("this is a rebus command")),
    }
}

/// `setup <position string>` or `setup random <seed>`.
pub fn setup(e: &mut Engine, args: &Args) -> CommandResult {
    session(e)?;
    let pos = match args.words() {
        [] => return Err(args.usage_error()),
        [r, rest @ ..] if r.eq_ignore_ascii_case("random") && rest.len() != 1 => {
            return Err(args.usage_error());
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
    e.start(e.rebus_game(pos));
    Ok(String::new())
}

/// `position`: the current position string.
pub fn position(e: &mut Engine, args: &Args) -> CommandResult {
    args.none()?;
    Ok(session(e)?.pos.position_string())
}

/// `lock <colour> <square> <2|3>`.
pub fn lock(e: &mut Engine, args: &Args) -> CommandResult {
    let [colour, square, k] = args.exact::<3>()?;
    if k != "2" && k != "3" {
        return Err(CommandError::syntax(format!(
            "lock: block size '{k}' is not 2 or 3"
        )));
    }
    session(e)?.play_colour(colour, &format!("{square}L{k}"))?;
    Ok(String::new())
}

/// `turn_limit [plies]`.
pub fn turn_limit(e: &mut Engine, args: &Args) -> CommandResult {
    match args.words() {
        [] => Ok(e.settings().turn_limit.to_string()),
        [n] => {
            let plies: u32 = n.parse().map_err(|_| {
                CommandError::syntax(format!("turn_limit: '{n}' is not a number of plies"))
            })?;
            session(e)?.pos.set_turn_limit(plies);
            e.settings_mut().turn_limit = plies;
            Ok(String::new())
        }
        _ => Err(args.usage_error()),
    }
}
