//! What a game shows people, said once for every layer above: its id (the word
//! `game` takes, the `Game` tag of a record), the names and colour words of its
//! sides, its score text and why a finished game ended. The protocol, records,
//! `tessera analyze` and the arena all read these; each game implements
//! [`GameText`] next to its rules.

use std::fmt;

use super::game::{Game, Notation};
use super::side::Side;

/// Which game: the protocol's `game` word and a record's `Game` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameId {
    Rekushu,
    Rebus,
}

impl GameId {
    /// Both games, in the order `game` and the docs list them.
    pub const ALL: [GameId; 2] = [GameId::Rekushu, GameId::Rebus];

    /// `rekushu`, `rebus`.
    pub const fn name(self) -> &'static str {
        match self {
            GameId::Rekushu => "rekushu",
            GameId::Rebus => "rebus",
        }
    }

    /// The game a word names, exactly as written (`rekushu`, `rebus`).
    pub fn parse(word: &str) -> Option<GameId> {
        GameId::ALL.into_iter().find(|g| g.name() == word)
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a level that gives up plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GiveUp<M> {
    /// A move of the rules that concedes (REBUS `yield`).
    Move(M),
    /// Resign: not a move on the board (Rekushu has no conceding move).
    Resign,
    /// Neither is allowed now (REBUS when `yield` is illegal): play on.
    PlayOn,
}

/// The names and texts of a game, beyond its rules.
pub trait GameText: Game + Notation {
    const ID: GameId;
    /// The colour words a side may be given by, for error messages.
    const COLOUR_WORDS: &'static str;
    /// A side's name (`Black`, `Red`).
    fn side_name(side: Side) -> &'static str;
    /// The side a colour word names, case-insensitive.
    fn parse_side(word: &str) -> Option<Side>;
    /// The current score: `B+3`, `W+1`, `R+5`, `0`.
    fn score_text(&self) -> String;
    /// Why a finished game ended, in a word or two (`no-placement`, `51`…).
    fn end_reason(&self) -> &'static str;
    /// What the side to move plays when its level gives up.
    fn give_up(&self) -> GiveUp<Self::Move>;
    /// The side to move's lead on the board now, in the game's units
    /// (claimed tiles, controlled squares); negative when behind.
    fn lead(&self) -> i32;
    /// Whether the side to move has lost whatever anyone plays from here.
    fn lost_whatever_played(&self) -> bool;
    /// The move, legal here, as one board point and nothing more, for a GUI
    /// that knows only points (GoGui): Rekushu, the placement without its
    /// claim; `None` where no such move exists (REBUS moves are not points).
    fn as_point(&self, mv: Self::Move) -> Option<Self::Move>;
}

/// `X+n` for the side with more (`letters[side]`), or `0` when equal.
pub fn lead_text(counts: [u32; 2], letters: [char; 2]) -> String {
    let [a, b] = counts;
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => format!("{}+{}", letters[0], a - b),
        std::cmp::Ordering::Less => format!("{}+{}", letters[1], b - a),
        std::cmp::Ordering::Equal => "0".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for g in GameId::ALL {
            assert_eq!(GameId::parse(g.name()), Some(g));
            assert_eq!(g.to_string(), g.name());
        }
        assert_eq!(GameId::parse("chess"), None);
    }

    #[test]
    fn leads() {
        assert_eq!(lead_text([5, 2], ['B', 'W']), "B+3");
        assert_eq!(lead_text([2, 5], ['R', 'B']), "B+3");
        assert_eq!(lead_text([4, 4], ['R', 'B']), "0");
    }
}
