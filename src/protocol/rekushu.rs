//! The command only Rekushu has: `claim`.

use super::args::Args;
use crate::core::{GameText, Notation};
use crate::engine::{CommandError, CommandResult, Engine, GameMut, Session};
use crate::games::rekushu::Board;

/// `claim <colour> <corner> <corner>`: the optional second step of the move that
/// colour has just played. The same result as `play <colour> <vertex>:<a>-<b>`.
pub fn claim(e: &mut Engine, args: &Args) -> CommandResult {
    let [colour, a, b] = args.exact::<3>()?;
    if e.settings().gogui {
        return Err(CommandError::refused(
            "claim: GoGui cannot show a claim, so GoGui mode makes none (GoGui's ruler would not see it); claim in the board, tessera-board",
        ));
    }
    let GameMut::Rekushu(s) = e.game_mut() else {
        return Err(CommandError::refused("claim is a rekushu command"));
    };
    let side = Session::<Board>::side_arg(colour)?;
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
