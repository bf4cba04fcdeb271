//! REBUS Core in the protocol: colour words, the score text, and the commands
//! only REBUS has (`setup`, `position`, `lock`, `turn_limit`).

use super::commands::{exact_args, no_args, play_in};
use super::engine::{AnyGame, Engine};
use super::session::{ProtocolGame, lead_text};
use super::{CommandError, CommandResult, ErrorKind};
use crate::core::{Game, Side};
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

impl ProtocolGame for Position {
    const ID: &'static str = "rebus";
    const COLOUR_WORDS: &'static str = "red, blue, r, b";

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "Red",
            Side::Second => "Blue",
        }
    }

    fn parse_side(word: &str) -> Option<Side> {
        match word.to_ascii_lowercase().as_str() {
            "red" | "r" => Some(Side::First),
            "blue" | "b" => Some(Side::Second),
            _ => None,
        }
    }

    fn score_text(&self) -> String {
        lead_text(self.counts(), ['R', 'B'])
    }

    fn end_reason(&self, last_move: Option<&str>) -> &'static str {
        let [r, b] = self.counts();
        if last_move == Some("yield") {
            "yield"
        } else if r.max(b) >= 51 {
            "51"
        } else if self.turn_limit() != 0 && self.ply() >= self.turn_limit() as usize {
            "turn-limit"
        } else {
            "no-captures"
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
