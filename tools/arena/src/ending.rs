//! How a game ended, typed: who won ([`Decision`]) and why ([`Ending`]).
//!
//! Their text forms are what the arena writes everywhere (the table, the JSON
//! summary, the state file, the records' `Result` and `Reason` tags, the
//! progress lines): `1-0`, `0-1`, `1/2-1/2`; `no-placement`, `resign`,
//! `illegal move 'K10': …`, `adjudication: draw: …`, `arena error: …`. A
//! summary or a state file read back parses them into the same values, so a
//! resumed run or a merge of shards counts exactly what one run would.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tessera::record::GameResult;

/// Who won a game, by seat: seat 0 moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// This seat won.
    Win(usize),
    Draw,
}

impl Decision {
    /// A win of `winner`, or a draw for `None`.
    pub fn from_winner(winner: Option<usize>) -> Decision {
        winner.map_or(Decision::Draw, Decision::Win)
    }

    /// The winning seat, if any.
    pub fn winner(self) -> Option<usize> {
        match self {
            Decision::Win(seat) => Some(seat),
            Decision::Draw => None,
        }
    }

    /// The result from the first player's view (a win of any seat but 0 is
    /// the second player's).
    pub fn game_result(self) -> GameResult {
        match self {
            Decision::Win(0) => GameResult::FirstWins,
            Decision::Win(_) => GameResult::SecondWins,
            Decision::Draw => GameResult::Draw,
        }
    }

    /// `1-0` (the first player won), `0-1`, `1/2-1/2`.
    pub fn text(self) -> &'static str {
        self.game_result().text()
    }

    /// Reads [`Decision::text`] back.
    pub fn parse(text: &str) -> Option<Decision> {
        match GameResult::parse(text)? {
            GameResult::FirstWins => Some(Decision::Win(0)),
            GameResult::SecondWins => Some(Decision::Win(1)),
            GameResult::Draw => Some(Decision::Draw),
            GameResult::Unfinished => None,
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// What an engine did wrong, when that lost it the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// `unparsable move 'x': …`
    UnparsableMove,
    /// `illegal move 'K10': …`
    IllegalMove,
    /// `refused 'genmove black': …` (an error reply to a command)
    Refused,
    /// `garbled reply to 'genmove black': '…'`
    GarbledReply,
    /// `handshake: …` (a fresh process that did not answer its handshake)
    Handshake,
    /// `crash: …` (the process could not start, exited, or closed its input)
    Crash,
    /// `stall: …` (no reply in time)
    Stall,
    /// `time forfeit: …` (a reply after the clock and the margin)
    TimeForfeit,
}

impl FaultKind {
    const ALL: [FaultKind; 8] = [
        FaultKind::UnparsableMove,
        FaultKind::IllegalMove,
        FaultKind::Refused,
        FaultKind::GarbledReply,
        FaultKind::Handshake,
        FaultKind::Crash,
        FaultKind::Stall,
        FaultKind::TimeForfeit,
    ];

    /// The kind's name, as the summary counts it (`illegal move`).
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::UnparsableMove => "unparsable move",
            FaultKind::IllegalMove => "illegal move",
            FaultKind::Refused => "refused",
            FaultKind::GarbledReply => "garbled reply to",
            FaultKind::Handshake => "handshake",
            FaultKind::Crash => "crash",
            FaultKind::Stall => "stall",
            FaultKind::TimeForfeit => "time forfeit",
        }
    }

    /// What separates the name from the detail: a space before a quoted
    /// move or command (`illegal move 'K10': …`), else a colon.
    fn separator(self) -> &'static str {
        match self {
            FaultKind::UnparsableMove
            | FaultKind::IllegalMove
            | FaultKind::Refused
            | FaultKind::GarbledReply => " ",
            FaultKind::Handshake | FaultKind::Crash | FaultKind::Stall | FaultKind::TimeForfeit => {
                ": "
            }
        }
    }
}

/// An adjudication's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjudged {
    /// A side's own scores said it was lost.
    Resign,
    /// Both sides' scores stayed close.
    Draw,
}

impl Adjudged {
    pub fn name(self) -> &'static str {
        match self {
            Adjudged::Resign => "resign",
            Adjudged::Draw => "draw",
        }
    }
}

/// Why a game ended. [`fmt::Display`] writes the reason's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended the game; the game's own word for how (`no-placement`,
    /// `51`, `yield`, `turn-limit`, `no-captures`).
    Rules(String),
    /// The side to move resigned: `resign`.
    Resign,
    /// The ply limit (`--max-plies`) was reached: a draw, `max-plies`.
    MaxPlies,
    /// Adjudicated on the engines' scores: `adjudication: resign: <detail>`,
    /// `adjudication: draw: <detail>`.
    Adjudication { verdict: Adjudged, detail: String },
    /// An engine's misbehaviour lost it the game: the kind's name, its
    /// separator, then the detail (`illegal move` `'K10': A1 is occupied`).
    Fault { kind: FaultKind, detail: String },
    /// The arena itself could not play the game: `arena error: <detail>`.
    ArenaError(String),
    /// The arena was interrupted during the game: `interrupted`.
    Interrupted,
    /// A reason read back (from a state file or a summary) that has none of
    /// the forms above: kept as it is.
    Other(String),
}

impl Ending {
    /// A loss by misbehaviour of kind `kind`.
    pub fn fault(kind: FaultKind, detail: impl Into<String>) -> Ending {
        Ending::Fault {
            kind,
            detail: detail.into(),
        }
    }

    /// The ending's kind, as the summary counts endings: the reason without
    /// its detail (`illegal move`, `adjudication resign`, `no-placement`).
    pub fn kind(&self) -> String {
        match self {
            Ending::Rules(word) => word.clone(),
            Ending::Resign => "resign".into(),
            Ending::MaxPlies => "max-plies".into(),
            Ending::Adjudication { verdict, .. } => format!("adjudication {}", verdict.name()),
            Ending::Fault { kind, .. } => kind.name().into(),
            Ending::ArenaError(_) => "arena error".into(),
            Ending::Interrupted => "interrupted".into(),
            Ending::Other(text) => text_kind(text),
        }
    }

    /// A game the arena could not play (counted as a draw, no fault).
    pub fn is_arena_error(&self) -> bool {
        match self {
            Ending::ArenaError(_) => true,
            Ending::Other(text) => text.starts_with("arena error"),
            _ => false,
        }
    }

    /// Reads a reason's text back; every text is read, and written again
    /// exactly as it was.
    pub fn parse(text: &str) -> Ending {
        match text {
            "resign" => return Ending::Resign,
            "max-plies" => return Ending::MaxPlies,
            "interrupted" => return Ending::Interrupted,
            _ => {}
        }
        if let Some(rest) = text.strip_prefix("adjudication: ") {
            for verdict in [Adjudged::Resign, Adjudged::Draw] {
                if let Some(detail) = rest
                    .strip_prefix(verdict.name())
                    .and_then(|r| r.strip_prefix(": "))
                {
                    return Ending::Adjudication {
                        verdict,
                        detail: detail.into(),
                    };
                }
            }
        }
        if let Some(detail) = text.strip_prefix("arena error: ") {
            return Ending::ArenaError(detail.into());
        }
        for kind in FaultKind::ALL {
            if let Some(detail) = text
                .strip_prefix(kind.name())
                .and_then(|r| r.strip_prefix(kind.separator()))
                // A quoted detail is what makes the name the whole kind.
                .filter(|d| kind.separator() != " " || d.starts_with('\''))
            {
                return Ending::fault(kind, detail);
            }
        }
        if !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Ending::Rules(text.into());
        }
        Ending::Other(text.into())
    }
}

/// The kind of a reason of no known form: the text before any quote, colon
/// or parenthesis, and for an adjudication its verdict.
fn text_kind(reason: &str) -> String {
    if let Some(rest) = reason.strip_prefix("adjudication: ") {
        let end = rest.find(':').unwrap_or(rest.len());
        return format!("adjudication {}", rest[..end].trim());
    }
    let end = reason.find([':', '\'', '(']).unwrap_or(reason.len());
    reason[..end].trim().to_string()
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Rules(word) => f.write_str(word),
            Ending::Resign => f.write_str("resign"),
            Ending::MaxPlies => f.write_str("max-plies"),
            Ending::Adjudication { verdict, detail } => {
                write!(f, "adjudication: {}: {detail}", verdict.name())
            }
            Ending::Fault { kind, detail } => {
                write!(f, "{}{}{detail}", kind.name(), kind.separator())
            }
            Ending::ArenaError(detail) => write!(f, "arena error: {detail}"),
            Ending::Interrupted => f.write_str("interrupted"),
            Ending::Other(text) => f.write_str(text),
        }
    }
}

impl Serialize for Decision {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.text())
    }
}

impl<'de> Deserialize<'de> for Decision {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Decision, D::Error> {
        let text = String::deserialize(d)?;
        Decision::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!("not a result (1-0, 0-1 or 1/2-1/2): '{text}'"))
        })
    }
}

impl Serialize for Ending {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Ending {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Ending, D::Error> {
        String::deserialize(d).map(|text| Ending::parse(&text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reasons the arena writes, and odd ones a file could hold: each
    /// reads back to what writes it again, with the kind the text gives.
    #[test]
    fn reasons_read_back_exactly() {
        let cases = [
            ("no-placement", "no-placement"),
            ("51", "51"),
            ("resign", "resign"),
            ("max-plies", "max-plies"),
            ("interrupted", "interrupted"),
            ("illegal move 'K10': occupied", "illegal move"),
            ("unparsable move 'x': what", "unparsable move"),
            ("refused 'genmove black': no", "refused"),
            (
                "garbled reply to 'genmove black': 'a\tb'",
                "garbled reply to",
            ),
            ("handshake: no handshake within 3000 ms", "handshake"),
            ("crash: engine exited (at 'genmove white')", "crash"),
            ("stall: no reply within 10 ms to 'genmove red'", "stall"),
            (
                "time forfeit: 12 ms used of 10 ms (+1 ms margin)",
                "time forfeit",
            ),
            (
                "adjudication: resign: black scored -5.00 or less for 3 moves",
                "adjudication resign",
            ),
            (
                "adjudication: draw: both scores within ±1.00 for 2 moves each (from ply 4)",
                "adjudication draw",
            ),
            ("arena error: no such opening", "arena error"),
            ("adjudication: odd", "adjudication odd"),
            ("illegal move K10: x", "illegal move K10"),
            ("a (b)", "a"),
            ("", ""),
        ];
        for (text, kind) in cases {
            let e = Ending::parse(text);
            assert_eq!(e.to_string(), text, "{e:?}");
            assert_eq!(e.kind(), kind, "{e:?}");
            assert_eq!(e.is_arena_error(), text.starts_with("arena error"));
        }
        assert_eq!(
            Ending::parse("illegal move 'A1': A1 is occupied"),
            Ending::fault(FaultKind::IllegalMove, "'A1': A1 is occupied")
        );
        assert!(matches!(Ending::parse("yield"), Ending::Rules(_)));
    }

    #[test]
    fn results() {
        for d in [Decision::Win(0), Decision::Win(1), Decision::Draw] {
            assert_eq!(Decision::parse(d.text()), Some(d));
            assert_eq!(Decision::from_winner(d.winner()), d);
        }
        assert_eq!(Decision::Win(1).text(), "0-1");
        assert_eq!(Decision::parse("*"), None);
    }
}
