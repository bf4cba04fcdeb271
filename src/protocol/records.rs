//! `savegame <file>` and `loadgame <file> [move number]`: the current game to a
//! game record ([`crate::record`]) and back. These two commands are the only
//! ones that touch files, and only the file they are given.
//!
//! A path is the rest of the line: `savegame my games/a.txt` writes
//! `my games/a.txt`. For `loadgame`, a last word made of digits is the move
//! number (`loadgame my game.txt 12`); a path in double quotes is taken as it
//! is (`loadgame "game 12"`, `loadgame "game 12" 5`). The protocol's own input
//! rules still apply: `#` starts a comment, and runs of spaces read as one.

use super::args::Args;
use crate::core::{GameText, Status};
use crate::engine::{AnyGame, CommandError, CommandResult, Engine, Session};
use crate::record::{GameResult, Record, RecordMove, Replay, Start, write_record_file};

pub use crate::record::MAX_RECORD_BYTES;

/// The record of the game in progress, from its start (the empty board, or the
/// REBUS position it was set up from) to the last move played.
pub fn current_record(e: &Engine) -> Record {
    match e.game() {
        AnyGame::Rekushu(s) => record_of(s, Start::Rekushu { size: s.pos.size() }),
        AnyGame::Rebus(s) => record_of(
            s,
            Start::Rebus {
                position: Box::new(start_of(s)),
                turn_limit: s.pos.turn_limit(),
            },
        ),
    }
}

/// The position before the first move of the session.
fn start_of<G: GameText>(s: &Session<G>) -> G {
    let mut pos = s.pos.clone();
    for played in s.history.iter().rev() {
        pos.unmake_move(played.mv);
    }
    pos
}

fn record_of<G: GameText>(s: &Session<G>, start: Start) -> Record {
    let mut r = Record::new(start);
    let status = s.status();
    r.tags.result = GameResult::from_status(status);
    if status != Status::Ongoing {
        r.tags.reason = Some(if s.resigned.is_some() {
            "resign".into()
        } else {
            s.pos.end_reason().into()
        });
    }
    r.tags.score = Some(s.pos.score_text());
    r.moves = s
        .history
        .iter()
        .map(|p| RecordMove::new(p.text.clone(), None))
        .collect();
    r
}

/// A quoted path at the start of `rest`: the path and what follows it.
fn quoted(rest: &str) -> Option<(&str, &str)> {
    let inner = rest.strip_prefix('"')?;
    let end = inner.find('"')?;
    Some((&inner[..end], inner[end + 1..].trim()))
}

/// `savegame <file>`.
pub fn savegame(e: &mut Engine, args: &Args) -> CommandResult {
    let rest = args.join(" ");
    let path = match quoted(&rest) {
        Some((p, "")) => p.to_string(),
        Some((_, extra)) => {
            return Err(CommandError::syntax(format!(
                "savegame: unexpected '{extra}' after the quoted file name"
            )));
        }
        None => rest,
    };
    if path.is_empty() {
        return Err(args.usage_error());
    }
    let text = current_record(e).to_text();
    write_record_file(std::path::Path::new(&path), &text)
        .map_err(|why| CommandError::refused(format!("savegame: cannot write '{path}': {why}")))?;
    Ok(String::new())
}

/// The file and move number of `loadgame`.
fn loadgame_args(args: &Args) -> Result<(String, Option<String>), CommandError> {
    let rest = args.join(" ");
    if rest.is_empty() {
        return Err(args.usage_error());
    }
    if let Some((path, after)) = quoted(&rest) {
        if path.is_empty() {
            return Err(CommandError::syntax("loadgame: an empty file name '\"\"'"));
        }
        return match after {
            "" => Ok((path.to_string(), None)),
            n if n.bytes().all(|b| b.is_ascii_digit()) => Ok((path.to_string(), Some(n.into()))),
            other => Err(CommandError::syntax(format!(
                "loadgame '{path}': '{other}' after the quoted file name is not a move number"
            ))),
        };
    }
    match args.words() {
        [.., last] if args.len() >= 2 && last.bytes().all(|b| b.is_ascii_digit()) => {
            Ok((args[..args.len() - 1].join(" "), Some(last.clone())))
        }
        _ => Ok((rest, None)),
    }
}

/// Reads a whole record file ([`crate::record::read_record_file`]).
fn read_record_file(path: &str) -> Result<String, CommandError> {
    crate::record::read_record_file(std::path::Path::new(path))
        .map_err(|why| CommandError::refused(format!("loadgame: cannot read '{path}': {why}")))
}

/// The session of a replayed game after its first `n` moves; the side to move
/// resigned when the record says so and `n` is all of them.
fn session_after<G: GameText>(
    line: &crate::record::Line<G>,
    n: usize,
    record: &Record,
) -> Session<G> {
    let mut s = Session::new(line.start.clone());
    for &mv in line.moves.iter().take(n) {
        s.push(mv);
    }
    let to_move = s.pos.side_to_move();
    if n == line.moves.len()
        && record.tags.reason.as_deref() == Some("resign")
        && s.pos.status() == Status::Ongoing
        && record.tags.result.winner() == Some(to_move.opp())
    {
        s.resigned = Some(to_move);
    }
    s
}

/// `loadgame <file> [move number]`: the record's game replaces the current one,
/// after `move number` moves (default: all). Nothing changes on any error.
pub fn loadgame(e: &mut Engine, args: &Args) -> CommandResult {
    let (path, number) = loadgame_args(args)?;
    let text = read_record_file(&path)?;
    let (record, replay) = Record::read(&text)
        .map_err(|err| CommandError::refused(format!("loadgame '{path}': {err}")))?;
    let total = record.moves.len();
    let n = match &number {
        None => total,
        Some(text) => text.parse::<usize>().ok().filter(|&n| n <= total).ok_or_else(|| {
            CommandError::refused(format!(
                "loadgame: move number '{text}' is out of range: '{path}' has {total} moves (0 to {total})"
            ))
        })?,
    };
    match replay {
        Replay::Rekushu(line) => e.start(AnyGame::Rekushu(session_after(&line, n, &record))),
        Replay::Rebus(line) => e.start(AnyGame::Rebus(session_after(&line, n, &record))),
    }
    Ok(String::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ')
            .filter(|w| !w.is_empty())
            .map(String::from)
            .collect()
    }

    #[test]
    fn loadgame_arguments() {
        let a = |s: &str| loadgame_args(&Args::new("loadgame", "<file> [move number]", &words(s)));
        assert_eq!(a("g.txt").unwrap(), ("g.txt".into(), None));
        assert_eq!(a("g.txt 12").unwrap(), ("g.txt".into(), Some("12".into())));
        assert_eq!(a("my game.txt").unwrap(), ("my game.txt".into(), None));
        assert_eq!(
            a("my game 12").unwrap(),
            ("my game".into(), Some("12".into()))
        );
        assert_eq!(a("\"game 12\"").unwrap(), ("game 12".into(), None));
        assert_eq!(
            a("\"game 12\" 3").unwrap(),
            ("game 12".into(), Some("3".into()))
        );
        assert_eq!(a("12").unwrap(), ("12".into(), None));
        assert!(a("").is_err());
        assert!(a("\"a\" b").is_err());
        assert!(a("\"\"").is_err());
    }
}
