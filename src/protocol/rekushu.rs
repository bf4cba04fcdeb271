//! Rekushu in the protocol: colour words, the score text, and `claim`.

use super::commands::exact_args;
use super::engine::{AnyGame, Engine};
use super::{CommandError, CommandResult};
use crate::core::{GameText, Notation};
use crate::games::rekushu::Board;

pub const MIN_SIZE: usize = Board::MIN_SIZE;
pub const MAX_SIZE: usize = Board::MAX_SIZE;

/// `claim <colour> <corner> <corner>`: the optional second step of the move that
/// colour has just played. The same result as `play <colour> <vertex>:<a>-<b>`.
pub fn claim(e: &mut Engine, args: &[String]) -> CommandResult {
    let [colour, a, b] = exact_args::<3>("claim", "<colour> <corner> <corner>", args)?;
    let AnyGame::Rekushu(s) = &mut e.game else {
        return Err(CommandError::refused("claim is a rekushu command"));
    };
    let side = super::session::Session::<Board>::side_arg(colour)?;
    let what = format!("claim {a} {b}");
    let Some(last) = s.history.last() else {
        return Err(CommandError::illegal(format!(
            "{what}: no placement has been played yet"
        )));
    };
    if last.side != side || s.resigned.is_some() {
        return Err(CommandError::illegal(format!(
            "{what}: a claim must follow {}'s own placement, before the opponent moves",
            Board::side_name(side)
        )));
    }
    if last.mv.claim().is_some() {
        return Err(CommandError::illegal(format!(
            "{what}: {}'s move {} already made its one claim",
            Board::side_name(side),
            last.text
        )));
    }
    // Take the placement back and play it again with the claim; on failure the
    // placement alone is put back, so the state is exactly as before.
    let Some(last) = s.pop() else {
        return Err(CommandError::illegal(format!(
            "{what}: nothing to claim after"
        )));
    };
    let text = format!("{}:{a}-{b}", last.text);
    match s.pos.parse_move(&text) {
        Ok(mv) => {
            s.push(mv);
            Ok(String::new())
        }
        Err(err) => {
            s.push(last.mv);
            Err(err.into())
        }
    }
}
