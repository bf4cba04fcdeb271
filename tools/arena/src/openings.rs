//! Where games start. Rekushu: seeded random openings of a few plies, or lines
//! of moves from a file. REBUS: seeded random deals (`setup random <seed>`), or
//! position strings from a file. Each opening is played twice, colours swapped.

use std::fmt;

use tessera::core::{Game, GameId, Notation, SplitMix64, Status};
use tessera::games::rebus::Position;
use tessera::games::rekushu::Board;

/// The games the arena referees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    Rekushu { size: usize },
    Rebus,
}

impl GameKind {
    pub fn id(self) -> GameId {
        match self {
            GameKind::Rekushu { .. } => GameId::Rekushu,
            GameKind::Rebus => GameId::Rebus,
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
    #[error("openings file '{path}': start={start}, but it has {count} openings")]
    Start {
        path: String,
        start: usize,
        count: usize,
    },
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
/// spaces; REBUS: a position string, or `random <seed>`). Everything from `#`
/// to the end of a line is a comment; blank lines are skipped. Every line is checked against the rules.
pub fn read_openings(path: &str, game: GameKind) -> Result<Vec<Opening>, OpeningError> {
    let text = std::fs::read_to_string(path).map_err(|e| OpeningError::Read {
        path: path.to_string(),
        detail: e.to_string(),
    })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        // A `#` starts a comment (the books note each line's score).
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
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

/// The order a book is played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// As written, from `start`.
    Sequential,
    /// Shuffled once with the match seed (the same on every shard and machine),
    /// then from `start`.
    Random,
}

/// `--openings FILE`, or `--openings file=FILE [order=random|sequential] [start=N]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookArgs {
    pub file: String,
    pub order: Order,
    /// 1-based: the first opening used.
    pub start: usize,
}

/// Parses the words of `--openings`.
pub fn parse_book_args(args: &[String]) -> Result<BookArgs, String> {
    let mut book = BookArgs {
        file: String::new(),
        order: Order::Sequential,
        start: 1,
    };
    for a in args.iter().flat_map(|a| a.split_whitespace()) {
        match a.split_once('=') {
            None => book.file = a.to_string(),
            Some(("file", f)) => book.file = f.to_string(),
            Some(("order", "random")) => book.order = Order::Random,
            Some(("order", "sequential")) => book.order = Order::Sequential,
            Some(("order", o)) => {
                return Err(format!("--openings order='{o}': random or sequential"));
            }
            Some(("start", n)) => {
                book.start = n
                    .parse()
                    .ok()
                    .filter(|n| *n >= 1)
                    .ok_or_else(|| format!("--openings start='{n}': a number from 1"))?;
            }
            Some((k, _)) => {
                return Err(format!(
                    "--openings '{a}': unknown key '{k}' (file, order, start)"
                ));
            }
        }
    }
    if book.file.is_empty() {
        return Err("--openings needs a file: --openings FILE or file=FILE".into());
    }
    Ok(book)
}

/// 64-bit FNV-1a, for fingerprints of files (not for security).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Reads a book and puts it in playing order. Returns the openings and a
/// description that identifies the book and its order (for fingerprints:
/// the file's name and content hash, not its path).
pub fn load_book(
    args: &BookArgs,
    game: GameKind,
    seed: u64,
) -> Result<(Vec<Opening>, String), OpeningError> {
    let mut list = read_openings(&args.file, game)?;
    let bytes = std::fs::read(&args.file).map_err(|e| OpeningError::Read {
        path: args.file.clone(),
        detail: e.to_string(),
    })?;
    if args.start > list.len() {
        return Err(OpeningError::Start {
            path: args.file.clone(),
            start: args.start,
            count: list.len(),
        });
    }
    if args.order == Order::Random {
        let mut rng = SplitMix64::new(seed ^ 0x6f70_656e_696e_6773);
        for i in (1..list.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            list.swap(i, j);
        }
    }
    list.rotate_left(args.start - 1);
    let name = std::path::Path::new(&args.file)
        .file_name()
        .map_or(args.file.clone(), |n| n.to_string_lossy().into_owned());
    let description = format!(
        "file {name} ({} openings, fnv {:016x}) order={} start={}{}",
        list.len(),
        fnv1a(&bytes),
        match args.order {
            Order::Random => "random",
            Order::Sequential => "sequential",
        },
        args.start,
        if args.order == Order::Random {
            format!(" seed={seed}")
        } else {
            String::new()
        }
    );
    Ok((list, description))
}

/// Where the openings of a tournament come from.
#[derive(Clone, Debug)]
pub enum OpeningSource {
    /// Seeded: opening `k` uses seed `seed + k`.
    Random { plies: usize, seed: u64 },
    /// From a book, in playing order (see [`load_book`]), cycling.
    List(Vec<Opening>, String),
}

impl OpeningSource {
    /// What identifies the openings: two matches with the same description
    /// play the same openings in the same rounds.
    pub fn describe(&self, game: GameKind) -> String {
        match (self, game) {
            (OpeningSource::Random { plies, seed }, GameKind::Rekushu { .. }) => {
                format!("random plies={plies} seed={seed}")
            }
            (OpeningSource::Random { seed, .. }, GameKind::Rebus) => {
                format!("random deals seed={seed}")
            }
            (OpeningSource::List(_, d), _) => d.clone(),
        }
    }

    /// The opening of round `k`.
    pub fn opening(&self, game: GameKind, k: u64) -> Result<Opening, OpeningError> {
        match self {
            OpeningSource::List(list, _) => {
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
    fn book_arguments() {
        let b =
            parse_book_args(&["file=x.txt order=random".into(), "start=3".into()]).expect("valid");
        assert_eq!(
            b,
            BookArgs {
                file: "x.txt".into(),
                order: Order::Random,
                start: 3
            }
        );
        assert_eq!(parse_book_args(&["x.txt".into()]).expect("ok").start, 1);
        for bad in ["order=shuffled", "start=0", "colour=red"] {
            let e = parse_book_args(&["x.txt".into(), bad.into()]).expect_err(bad);
            assert!(e.contains('\''), "{e}");
        }
        assert!(parse_book_args(&["order=random".into()]).is_err());
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
