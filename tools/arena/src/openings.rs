//! Where games start. Rekushu: seeded random openings of a few plies, or lines
//! of moves from a file. REBUS: seeded random deals (`setup random <seed>`), or
//! position strings from a file. Each opening is played twice, colours swapped.

use std::fmt;

use tessera::core::{Game, Notation, SplitMix64, Status};
use tessera::games::rebus::Position;
use tessera::games::rekushu::Board;

/// The games the arena referees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    Rekushu { size: usize },
    Rebus,
}

impl GameKind {
    pub fn id(self) -> &'static str {
        match self {
            GameKind::Rekushu { .. } => "rekushu",
            GameKind::Rebus => "rebus",
        }
    }
}

/// The start of one game pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    /// Rekushu moves played from the empty board, canonical notation.
    Moves(Vec<String>),
    /// A REBUS random deal.
    Deal(u64),
    /// A REBUS position string.
    Position(String),
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Opening::Moves(m) => write!(f, "{}", m.join(" ")),
            Opening::Deal(seed) => write!(f, "random {seed}"),
            Opening::Position(p) => write!(f, "{p}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    #[error("Rekushu boards are 4 to 26, not {0}")]
    Size(usize),
    #[error("cannot read openings file '{path}': {detail}")]
    Read { path: String, detail: String },
    #[error("openings file '{path}' line {line}: {detail}")]
    Line {
        path: String,
        line: usize,
        detail: String,
    },
    #[error("openings file '{0}' has no opening")]
    Empty(String),
}

/// A Rekushu board of `size`, or an error naming the size.
pub fn rekushu_board(size: usize) -> Result<Board, OpeningError> {
    Board::new(size).ok_or(OpeningError::Size(size))
}

/// A seeded random Rekushu opening of up to `plies` moves (fewer if the game
/// ends first), in canonical notation.
pub fn random_rekushu_opening(
    size: usize,
    plies: usize,
    seed: u64,
) -> Result<Vec<String>, OpeningError> {
    let mut pos = rekushu_board(size)?;
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    let mut line = Vec::new();
    for _ in 0..plies {
        moves.clear();
        pos.generate_moves(&mut moves);
        // Stop one move early rather than hand the engines a finished game.
        if moves.is_empty() || pos.status() != Status::Ongoing {
            break;
        }
        let mv = moves[rng.below(moves.len() as u64) as usize];
        line.push(pos.format_move(mv));
        pos.make_move(mv);
        if pos.status() != Status::Ongoing {
            line.pop();
            break;
        }
    }
    Ok(line)
}

/// Checks a Rekushu line of moves against the rules; returns it canonical.
pub fn check_rekushu_line(size: usize, text: &str) -> Result<Vec<String>, String> {
    let mut pos = Board::new(size).ok_or_else(|| format!("bad size {size}"))?;
    let mut out = Vec::new();
    for token in text.split_whitespace() {
        if pos.status() != Status::Ongoing {
            return Err(format!("the game is over before '{token}'"));
        }
        let mv = pos
            .parse_move(token)
            .map_err(|e| format!("move '{token}': {e}"))?;
        out.push(pos.format_move(mv));
        pos.make_move(mv);
    }
    if pos.status() != Status::Ongoing {
        return Err("the line ends the game".into());
    }
    Ok(out)
}

/// Reads an openings file: one opening per line (Rekushu: moves separated by
/// spaces; REBUS: a position string, or `random <seed>`). Blank lines and lines
/// starting with `#` are skipped. Every line is checked against the rules.
pub fn read_openings(path: &str, game: GameKind) -> Result<Vec<Opening>, OpeningError> {
    let text = std::fs::read_to_string(path).map_err(|e| OpeningError::Read {
        path: path.to_string(),
        detail: e.to_string(),
    })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |detail: String| OpeningError::Line {
            path: path.to_string(),
            line: i + 1,
            detail,
        };
        let opening = match game {
            GameKind::Rekushu { size } => {
                Opening::Moves(check_rekushu_line(size, line).map_err(err)?)
            }
            GameKind::Rebus => match line.split_whitespace().collect::<Vec<_>>().as_slice() {
                [r, seed] if r.eq_ignore_ascii_case("random") => Opening::Deal(
                    seed.parse()
                        .map_err(|_| err(format!("'{seed}' is not a seed")))?,
                ),
                _ => {
                    let pos =
                        Position::from_position_string(line).map_err(|e| err(e.to_string()))?;
                    if pos.status() != Status::Ongoing {
                        return Err(err("the position is already over".into()));
                    }
                    Opening::Position(line.to_string())
                }
            },
        };
        out.push(opening);
    }
    if out.is_empty() {
        return Err(OpeningError::Empty(path.to_string()));
    }
    Ok(out)
}

/// Where the openings of a tournament come from.
#[derive(Clone, Debug)]
pub enum OpeningSource {
    /// Seeded: opening `k` uses seed `seed + k`.
    Random { plies: usize, seed: u64 },
    /// From a file, in order, cycling.
    List(Vec<Opening>),
}

impl OpeningSource {
    /// The opening of round `k`.
    pub fn opening(&self, game: GameKind, k: u64) -> Result<Opening, OpeningError> {
        match self {
            OpeningSource::List(list) => {
                let i = (k % list.len().max(1) as u64) as usize;
                list.get(i)
                    .cloned()
                    .ok_or(OpeningError::Empty("(list)".into()))
            }
            OpeningSource::Random { plies, seed } => {
                let seed = seed.wrapping_add(k);
                match game {
                    GameKind::Rekushu { size } => Ok(Opening::Moves(random_rekushu_opening(
                        size,
                        *plies,
                        SplitMix64::new(seed).next(),
                    )?)),
                    GameKind::Rebus => Ok(Opening::Deal(seed)),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_seeded_and_legal() {
        let a = random_rekushu_opening(8, 4, 1).expect("size 8");
        assert_eq!(a.len(), 4);
        assert_eq!(a, random_rekushu_opening(8, 4, 1).expect("size 8"));
        assert_ne!(a, random_rekushu_opening(8, 4, 2).expect("size 8"));
        assert_eq!(check_rekushu_line(8, &a.join(" ")), Ok(a));
        assert!(random_rekushu_opening(3, 4, 1).is_err());
    }

    #[test]
    fn lines_are_checked() {
        assert!(check_rekushu_line(8, "A1 A1").is_err());
        assert!(check_rekushu_line(8, "Z99").is_err());
        assert_eq!(
            check_rekushu_line(8, "a1 h8"),
            Ok(vec!["A1".into(), "H8".into()])
        );
    }
}
