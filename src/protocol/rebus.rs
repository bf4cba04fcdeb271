//! REBUS Core in the protocol: colour words, the score text, and the commands
//! only REBUS has (`setup`, `position`, `lock`, `turn_limit`).

use super::args::Args;
use crate::engine::numbers::whole;
use crate::engine::{CommandError, CommandResult, Engine, ErrorKind, GameMut, Session};
use crate::games::rebus::Position;
use crate::games::rebus::notation::square_arg;

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
            let seed = whole("setup random", seed, 0, u64::MAX)?;
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
    square_arg(square).map_err(|why| CommandError::syntax(format!("lock: {why}")))?;
    if k != "2" && k != "3" {
        return Err(CommandError::syntax(format!(
            "lock: block size '{k}' is not 2 or 3"
        )));
    }
    // The move's errors quote what was typed, not the token made of it.
    let token = format!("{square}L{k}");
    session(e)?.play_colour(colour, &token).map_err(|mut err| {
        err.detail = err
            .detail
            .replacen(&token, &format!("lock {square} {k}"), 1);
        err
    })?;
    Ok(String::new())
}

/// The longest turn limit `turn_limit` sets, in plies.
pub const MAX_TURN_LIMIT: u32 = 1_000_000;

/// `turn_limit [plies]`.
pub fn turn_limit(e: &mut Engine, args: &Args) -> CommandResult {
    match args.words() {
        [] => Ok(e.settings().turn_limit.to_string()),
        [n] => {
            let plies = whole("turn_limit", n, 0, MAX_TURN_LIMIT)?;
            session(e)?.pos.set_turn_limit(plies);
            e.settings_mut().turn_limit = plies;
            Ok(String::new())
        }
        _ => Err(args.usage_error()),
    }
}
