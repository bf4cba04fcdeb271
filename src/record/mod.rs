//! Game records: one text format for both games, written by `savegame` and the
//! arena, read by `loadgame` and `tessera analyze` (protocol.md §10 has the
//! full description).
//!
//! ```text
//! [Game "rekushu"]
//! [Size "8"]
//! [Start "8x8"]
//! [First "easy"]
//! [Second "random"]
//! [Result "1-0"]
//! [Reason "no-placement"]
//! [Score "B+7"]
//! [Plies "3"]
//! [Date "2026-11-30T06:40:12Z"]
//!
//! C3 # opening
//! F6 # opening
//! D4 # depth 4 score +1.20 nodes 5120 time 48 ms
//! ```
//!
//! Header tags `[Name "value"]`, one per line, then a blank line, then one move
//! per line in the rules' notation with an optional `# comment`. [`Record::read`]
//! is strict: every line is checked, every move is replayed with the rules
//! (once: the replay is returned with the record), and any fault is an error
//! quoting the line and its number. It never panics.
//!
//! Files: this one holds the format (tags, moves, the writer and the strict
//! reader); `file.rs` reads and writes record files (regular files only, a
//! size bound).

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

use std::fmt::{self, Write};

use crate::core::{Game, GameId, Notation, Side, Status};
use crate::games::rebus::{DEFAULT_TURN_LIMIT, Position, SIDE};
use crate::games::rekushu::Board;

mod file;

pub use file::{MAX_RECORD_BYTES, io_text, read_record_file, write_record_file};

/// Where a recorded game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// An empty Rekushu board of this size (4 to 26).
    Rekushu { size: usize },
    /// A REBUS position (the standard setup, a random deal, or any position
    /// string) and the turn limit the game is played with (0 = none).
    Rebus {
        position: Box<Position>,
        turn_limit: u32,
    },
}

/// The position a game begins from, whichever game it is.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum StartPosition {
    Rekushu(Board),
    Rebus(Position),
}

impl Start {
    /// The `Game` tag's value: `rekushu` or `rebus`.
    pub fn game_id(&self) -> GameId {
        match self {
            Start::Rekushu { .. } => GameId::Rekushu,
            Start::Rebus { .. } => GameId::Rebus,
        }
    }

    /// The position this start is: an empty Rekushu board (or why the rules
    /// do not take its size), or the REBUS position with the game's turn limit.
    pub fn position(&self) -> Result<StartPosition, String> {
        match self {
            Start::Rekushu { size } => {
                Board::new(*size)
                    .map(StartPosition::Rekushu)
                    .ok_or_else(|| {
                        format!(
                            "size {size}: Rekushu boards are {} to {}",
                            Board::MIN_SIZE,
                            Board::MAX_SIZE
                        )
                    })
            }
            Start::Rebus {
                position,
                turn_limit,
            } => {
                let mut pos = (**position).clone();
                pos.set_turn_limit(*turn_limit);
                Ok(StartPosition::Rebus(pos))
            }
        }
    }
}

/// The `Result` tag: who won, from the record's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `1-0`: the first player (Black, Red) won.
    FirstWins,
    /// `0-1`: the second player (White, Blue) won.
    SecondWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: the game was not finished.
    Unfinished,
}

impl GameResult {
    pub fn text(self) -> &'static str {
        match self {
            GameResult::FirstWins => "1-0",
            GameResult::SecondWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    pub fn parse(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::FirstWins),
            "0-1" => Some(GameResult::SecondWins),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unfinished),
            _ => None,
        }
    }

    /// The result a game status means.
    pub fn from_status(status: Status) -> GameResult {
        match status {
            Status::Ongoing => GameResult::Unfinished,
            Status::Draw => GameResult::Draw,
            Status::Won(Side::First) => GameResult::FirstWins,
            Status::Won(Side::Second) => GameResult::SecondWins,
        }
    }

    /// The winner, if the result names one.
    pub fn winner(self) -> Option<Side> {
        match self {
            GameResult::FirstWins => Some(Side::First),
            GameResult::SecondWins => Some(Side::Second),
            _ => None,
        }
    }
}

/// One move of a record: its text as written and its comment, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    pub text: String,
    pub comment: Option<String>,
}

impl RecordMove {
    pub fn new(text: impl Into<String>, comment: Option<String>) -> Self {
        RecordMove {
            text: text.into(),
            comment,
        }
    }
}

/// The header of a record: the tags the format defines, typed (`Game`, `Size`,
/// `Start` and `TurnLimit` make the [`Start`]; `Plies` is the number of moves,
/// written and checked but not kept), and every other tag as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tags {
    pub start: Start,
    /// The first player (Black, Red): a name, or `?` when unknown.
    pub first: String,
    /// The second player (White, Blue).
    pub second: String,
    pub result: GameResult,
    /// When the game was played; written as ISO 8601 UTC (`2026-11-30T06:40:12Z`).
    pub date: String,
    /// Why the game ended (`no-placement`, `51`, `resign`, `illegal move …`).
    pub reason: Option<String>,
    /// The final score text (`B+3`, `R+5`, `0`).
    pub score: Option<String>,
    /// Every other tag, in the order read (`Round`, `Event`…).
    pub other: Vec<(String, String)>,
}

/// A whole game record. Build one with [`Record::new`] and the public fields;
/// [`Record::to_text`] writes it, [`Record::read`] reads, checks and replays
/// it ([`Record::parse`] when only the record is wanted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub tags: Tags,
    pub moves: Vec<RecordMove>,
}

/// The tags the format itself defines, in the order they are written.
pub const KNOWN_TAGS: &[&str] = &[
    "Game",
    "Size",
    "Start",
    "TurnLimit",
    "First",
    "Second",
    "Result",
    "Reason",
    "Score",
    "Plies",
    "Date",
];

/// Why a record was refused. Every message quotes the bad input and, when it
/// comes from a line of the text, its line number (from 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A line that is not what the format allows there.
    #[error("line {line}: {problem}: '{text}'")]
    Line {
        line: usize,
        text: String,
        problem: String,
    },
    /// A required tag is absent.
    #[error("missing tag [{0} \"...\"]{1}")]
    MissingTag(&'static str, &'static str),
    /// A move the rules refuse (or cannot read) in the position it is played in.
    #[error("move {number} '{text}'{}: {detail}", line.map(|l| format!(" (line {l})")).unwrap_or_default())]
    Move {
        /// 1 for the first move of the record.
        number: usize,
        text: String,
        line: Option<usize>,
        detail: String,
    },
}

/// A game replayed from its start: the start position and the moves, each
/// checked legal in turn.
#[derive(Clone, Debug)]
pub struct Line<G: Game> {
    pub start: G,
    pub moves: Vec<G::Move>,
}

impl<G: Game> Line<G> {
    /// The position after the first `n` moves (all of them if `n` is larger).
    pub fn position_after(&self, n: usize) -> G {
        let mut pos = self.start.clone();
        for &mv in self.moves.iter().take(n) {
            pos.make_move(mv);
        }
        pos
    }
}

/// A replayed record of either game.
// One per record read, rarely moved: boxing the larger board would only add
// an indirection.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Replay {
    Rekushu(Line<Board>),
    Rebus(Line<Position>),
}

/// Replays `moves` from `start`, checking each with the rules. `lines` gives
/// the text line of each move, for error messages, when known.
pub fn replay_moves<G: Notation>(
    start: &G,
    moves: &[RecordMove],
    lines: Option<&[usize]>,
) -> Result<Line<G>, RecordError> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        let fail = |detail: String| RecordError::Move {
            number: i + 1,
            text: m.text.clone(),
            line: lines.and_then(|l| l.get(i).copied()),
            detail,
        };
        if pos.status() != Status::Ongoing {
            return Err(fail("the game is already over".into()));
        }
        let mv = pos.parse_move(&m.text).map_err(|e| {
            fail(match e {
                crate::core::MoveError::Syntax(d) => d,
                crate::core::MoveError::Illegal(d) => format!("illegal move: {d}"),
            })
        })?;
        pos.make_move(mv);
        out.push(mv);
    }
    Ok(Line {
        start: start.clone(),
        moves: out,
    })
}

/// One header line as read: the tag's name and value, the line's number
/// (from 1) and its text, for error messages.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RawTag {
    name: String,
    value: String,
    line: usize,
    raw: String,
}

impl RawTag {
    /// The error of this tag's line.
    fn error(&self, problem: String) -> RecordError {
        RecordError::Line {
            line: self.line,
            text: self.raw.clone(),
            problem,
        }
    }
}

/// The body of a record as read: the moves and the line of each.
struct Body {
    moves: Vec<RecordMove>,
    lines: Vec<usize>,
}

impl Tags {
    /// The tags of a game of `start` with unknown players (`?`), an unfinished
    /// result and today's date.
    pub fn new(start: Start) -> Tags {
        Tags {
            start,
            first: "?".into(),
            second: "?".into(),
            result: GameResult::Unfinished,
            date: utc_now(),
            reason: None,
            score: None,
            other: Vec::new(),
        }
    }

    /// The header's lines, in the order of [`KNOWN_TAGS`] and then the other
    /// tags (those with a valid name that the format does not define).
    fn write(&self, out: &mut String, plies: usize) {
        tag(out, "Game", self.start.game_id().name());
        match &self.start {
            Start::Rekushu { size } => {
                tag(out, "Size", &size.to_string());
                tag(out, "Start", &format!("{size}x{size}"));
            }
            Start::Rebus {
                position,
                turn_limit,
            } => {
                tag(out, "Start", &position.position_string());
                tag(out, "TurnLimit", &turn_limit.to_string());
            }
        }
        tag(out, "First", &self.first);
        tag(out, "Second", &self.second);
        tag(out, "Result", self.result.text());
        if let Some(r) = &self.reason {
            tag(out, "Reason", r);
        }
        if let Some(s) = &self.score {
            tag(out, "Score", s);
        }
        tag(out, "Plies", &plies.to_string());
        tag(out, "Date", &self.date);
        for (name, value) in &self.other {
            if valid_tag_name(name) && !KNOWN_TAGS.contains(&name.as_str()) {
                tag(out, name, value);
            }
        }
    }

    /// The typed tags of a header read as `raw`, checked against each other
    /// and against `plies`, the number of moves after the header.
    fn from_raw(raw: &[RawTag], plies: usize) -> Result<Tags, RecordError> {
        let find = |name: &str| raw.iter().find(|t| t.name == name);
        let required = |name: &'static str, hint: &'static str| {
            find(name).ok_or(RecordError::MissingTag(name, hint))
        };
        let game = required("Game", " (rekushu or rebus)")?;
        let start = match GameId::parse(&game.value.to_ascii_lowercase()) {
            Some(GameId::Rekushu) => {
                let size = match (find("Size"), find("Start")) {
                    (None, None) => {
                        return Err(RecordError::MissingTag("Size", " (Rekushu board size)"));
                    }
                    (Some(t), start) => {
                        let size = parse_size(&t.value).ok_or_else(|| {
                            t.error(format!(
                                "not a Rekushu board size ({} to {})",
                                Board::MIN_SIZE,
                                Board::MAX_SIZE
                            ))
                        })?;
                        if let Some(s) = start
                            && s.value != format!("{size}x{size}")
                        {
                            return Err(s.error(format!(
                                "the start of a Rekushu game is the empty board: {size}x{size}"
                            )));
                        }
                        size
                    }
                    (None, Some(s)) => s
                        .value
                        .split_once('x')
                        .filter(|(a, b)| a == b)
                        .and_then(|(a, _)| parse_size(a))
                        .ok_or_else(|| {
                            s.error("not a Rekushu start (an empty board: 8x8)".into())
                        })?,
                };
                if let Some(t) = find("TurnLimit") {
                    return Err(t.error("a REBUS tag in a Rekushu record".into()));
                }
                Start::Rekushu { size }
            }
            Some(GameId::Rebus) => {
                if let Some(t) = find("Size")
                    && t.value != "9"
                {
                    return Err(t.error(format!("the REBUS board is {SIDE}x{SIDE}")));
                }
                let s = required("Start", " (standard, random <seed>, or a position string)")?;
                let position = parse_rebus_start(&s.value).map_err(|e| s.error(e))?;
                let turn_limit = match find("TurnLimit") {
                    None => DEFAULT_TURN_LIMIT,
                    Some(t) => t.value.parse().map_err(|_| {
                        t.error("not a turn limit (a number of plies, 0 = none)".into())
                    })?,
                };
                Start::Rebus {
                    position: Box::new(position),
                    turn_limit,
                }
            }
            None => return Err(game.error("unknown game (rekushu or rebus)".into())),
        };
        let first = required("First", " (the first player's name, or ?)")?
            .value
            .clone();
        let second = required("Second", " (the second player's name, or ?)")?
            .value
            .clone();
        let r = required("Result", " (1-0, 0-1, 1/2-1/2 or *)")?;
        let result = GameResult::parse(&r.value)
            .ok_or_else(|| r.error("not a result (1-0, 0-1, 1/2-1/2 or *)".into()))?;
        let d = required("Date", " (e.g. 2026-11-30T06:40:12Z)")?;
        if d.value.trim().is_empty() {
            return Err(d.error("an empty date".into()));
        }
        if let Some(p) = find("Plies")
            && p.value.parse::<usize>().ok() != Some(plies)
        {
            return Err(p.error(format!("the record has {plies} moves after the header")));
        }
        let other = raw
            .iter()
            .filter(|t| !KNOWN_TAGS.contains(&t.name.as_str()))
            .map(|t| (t.name.clone(), t.value.clone()))
            .collect();
        Ok(Tags {
            start,
            first,
            second,
            result,
            date: d.value.clone(),
            reason: find("Reason").map(|t| t.value.clone()),
            score: find("Score").map(|t| t.value.clone()),
            other,
        })
    }
}

impl Record {
    /// A record of `start` with no moves, unknown players (`?`), an unfinished
    /// result and today's date.
    pub fn new(start: Start) -> Record {
        Record {
            tags: Tags::new(start),
            moves: Vec::new(),
        }
    }

    /// Replays the moves from the start with the rules (a record read from
    /// text was already replayed by [`Record::read`]).
    pub fn replay(&self) -> Result<Replay, RecordError> {
        self.replay_with_lines(None)
    }

    fn replay_with_lines(&self, lines: Option<&[usize]>) -> Result<Replay, RecordError> {
        match self.tags.start.position() {
            Err(_) => Err(RecordError::MissingTag(
                "Size",
                " (Rekushu boards are 4 to 26)",
            )),
            Ok(StartPosition::Rekushu(board)) => {
                replay_moves(&board, &self.moves, lines).map(Replay::Rekushu)
            }
            Ok(StartPosition::Rebus(pos)) => {
                replay_moves(&pos, &self.moves, lines).map(Replay::Rebus)
            }
        }
    }

    /// The record as text, in the format [`Record::read`] reads.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.tags.write(&mut out, self.moves.len());
        out.push('\n');
        for m in &self.moves {
            out.push_str(&one_line(&m.text).replace(['#', ' '], ""));
            if let Some(c) = &m.comment {
                let c = one_line(c);
                if !c.trim().is_empty() {
                    let _ = write!(out, " # {}", c.trim());
                }
            }
            out.push('\n');
        }
        out
    }

    /// Reads a record, strictly: the header tags, the start, then every move
    /// replayed with the rules; returns the record and that replay. Never
    /// panics, whatever the text.
    pub fn read(text: &str) -> Result<(Record, Replay), RecordError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = text.split('\n').enumerate().map(|(i, l)| {
            let l = l.strip_suffix('\r').unwrap_or(l);
            (i + 1, l)
        });
        let raw = read_header(&mut lines)?;
        let body = read_body(lines)?;
        let record = Record {
            tags: Tags::from_raw(&raw, body.moves.len())?,
            moves: body.moves,
        };
        let replay = record.replay_with_lines(Some(&body.lines))?;
        Ok((record, replay))
    }

    /// [`Record::read`] without the replay.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        Record::read(text).map(|(record, _)| record)
    }
}

/// The header: tag lines up to the first blank line (or the end), each name
/// once.
fn read_header<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
) -> Result<Vec<RawTag>, RecordError> {
    let mut tags: Vec<RawTag> = Vec::new();
    for (n, raw) in lines {
        check_controls(n, raw)?;
        let line = raw.trim();
        if line.is_empty() {
            break;
        }
        let (name, value) = parse_tag_line(line).map_err(|problem| RecordError::Line {
            line: n,
            text: raw.to_string(),
            problem,
        })?;
        if tags.iter().any(|t| t.name == name) {
            return Err(RecordError::Line {
                line: n,
                text: raw.to_string(),
                problem: format!("tag {name} given twice"),
            });
        }
        tags.push(RawTag {
            name,
            value,
            line: n,
            raw: raw.to_string(),
        });
    }
    Ok(tags)
}

/// The moves: one per line, an optional comment after `#`; blank lines are
/// skipped.
fn read_body<'a>(lines: impl Iterator<Item = (usize, &'a str)>) -> Result<Body, RecordError> {
    let mut body = Body {
        moves: Vec::new(),
        lines: Vec::new(),
    };
    for (n, raw) in lines {
        check_controls(n, raw)?;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let (mv, comment) = match line.split_once('#') {
            Some((m, c)) => (m.trim(), Some(c.trim())),
            None => (line, None),
        };
        let bad = |problem: &str| RecordError::Line {
            line: n,
            text: raw.to_string(),
            problem: problem.into(),
        };
        if mv.is_empty() {
            return Err(bad("a comment with no move before it"));
        }
        if mv.starts_with('[') {
            return Err(bad("a tag after the blank line that ends the header"));
        }
        if mv.split_whitespace().nth(1).is_some() {
            return Err(bad(
                "more than one word before the comment (one move per line)",
            ));
        }
        body.moves.push(RecordMove::new(
            mv,
            comment.filter(|c| !c.is_empty()).map(String::from),
        ));
        body.lines.push(n);
    }
    Ok(body)
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

/// A REBUS start as a `Start` tag may give it (and the board's *New game*
/// takes it): `standard`, `random <seed>`, or a position string.
pub fn parse_rebus_start(text: &str) -> Result<Position, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("standard") {
        return Ok(Position::standard());
    }
    if let Some(seed) = t.strip_prefix("random ") {
        return seed
            .trim()
            .parse::<u64>()
            .map(Position::random)
            .map_err(|_| format!("'{seed}' is not a deal seed (0 to 2^64-1)"));
    }
    Position::from_position_string(t).map_err(|e| format!("invalid position: {e}"))
}

fn parse_size(text: &str) -> Option<usize> {
    text.parse::<usize>()
        .ok()
        .filter(|s| (Board::MIN_SIZE..=Board::MAX_SIZE).contains(s))
}

fn valid_tag_name(name: &str) -> bool {
    let mut cs = name.chars();
    cs.next().is_some_and(|c| c.is_ascii_alphabetic())
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `[Name "value"]` → (name, value), or what is wrong with the line.
fn parse_tag_line(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| "expected a tag [Name \"value\"] or a blank line".to_string())?;
    let (name, rest) = inner
        .split_once(' ')
        .ok_or_else(|| "a tag needs a name, a space and a quoted value".to_string())?;
    if !valid_tag_name(name) {
        return Err(format!(
            "'{name}' is not a tag name (a letter, then letters, digits or _)"
        ));
    }
    let quoted = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(|| "the value must be in double quotes".to_string())?;
    let mut value = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('\\' | '"')) => value.push(e),
                _ => return Err("a backslash must escape \\ or \"".into()),
            },
            '"' => return Err("an unescaped \" inside the value".into()),
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

/// `text` with line breaks and other control characters (but tabs) turned
/// into spaces, as the parser requires.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() && c != '\t' { ' ' } else { c })
        .collect()
}

/// Refuses a line holding control characters other than tabs (a `\r` just
/// before the line end is part of the line end and already gone).
fn check_controls(n: usize, raw: &str) -> Result<(), RecordError> {
    match raw.chars().find(|&c| c.is_control() && c != '\t') {
        Some(c) => Err(RecordError::Line {
            line: n,
            text: raw
                .chars()
                .map(|c| {
                    if c.is_control() {
                        c.escape_default().to_string()
                    } else {
                        c.to_string()
                    }
                })
                .collect(),
            problem: format!("a control character U+{:04X}", c as u32),
        }),
        None => Ok(()),
    }
}

fn tag(out: &mut String, name: &str, value: &str) {
    let value = one_line(value).replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{value}\"]");
}

/// The time now in UTC, ISO 8601 to the second (`2026-11-30T06:40:12Z`), as
/// a record's `Date` tag is written.
pub fn utc_now() -> String {
    let now = time::OffsetDateTime::now_utc();
    let second = now.replace_nanosecond(0).unwrap_or(now);
    second
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_else(|_| "?".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_iso_8601_to_the_second() {
        let now = utc_now();
        assert_eq!(now.len(), "2026-11-30T06:40:12Z".len(), "{now}");
        assert!(now.ends_with('Z') && now.as_bytes()[10] == b'T', "{now}");
    }

    #[test]
    fn tag_lines() {
        assert_eq!(
            parse_tag_line(r#"[First "a \"b\" \\c"]"#),
            Ok(("First".into(), r#"a "b" \c"#.into()))
        );
        assert!(parse_tag_line(r#"[First "a"b"]"#).is_err());
        assert!(parse_tag_line(r#"[1st "a"]"#).is_err());
        assert!(parse_tag_line(r#"[First a]"#).is_err());
        assert!(parse_tag_line(r#"[First "a\x"]"#).is_err());
        let mut s = String::new();
        tag(&mut s, "X", "a\"\\\nb");
        assert_eq!(parse_tag_line(s.trim()), Ok(("X".into(), "a\"\\ b".into())));
    }
}
