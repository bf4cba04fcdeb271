//! The game as the board keeps it: where it started ([`Setup`]) and the moves
//! played since, in the rules' notation. Everything the page draws is derived from
//! this plus what the rules engine answers (`list_moves`, `position`,
//! `game_status`), so the game is always recoverable as a record
//! ([`record_text`], protocol.md §10), whatever happens to the engines.

use serde::Serialize;
pub use tessera::record::utc_now;

/// Where a game starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "game", rename_all = "lowercase")]
pub enum Setup {
    Rekushu { size: usize },
    Rebus { start: RebusStart, turn_limit: u32 },
}

/// A REBUS start: the standard setup, a seeded deal, or a position string.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum RebusStart {
    Standard,
    Random(u64),
    Position(String),
}

impl Setup {
    pub fn is_rebus(&self) -> bool {
        matches!(self, Setup::Rebus { .. })
    }

    /// The protocol commands that start this game on an engine.
    pub fn commands(&self) -> Vec<String> {
        match self {
            Setup::Rekushu { size } => vec!["game rekushu".into(), format!("boardsize {size}")],
            Setup::Rebus { start, turn_limit } => {
                let mut c = vec!["game rebus".into(), format!("turn_limit {turn_limit}")];
                c.push(match start {
                    RebusStart::Standard => "clear_board".into(),
                    RebusStart::Random(seed) => format!("setup random {seed}"),
                    RebusStart::Position(p) => format!("setup {p}"),
                });
                c
            }
        }
    }

    /// Whether the second player (White, Blue) moves first.
    fn second_first(&self) -> bool {
        match self {
            Setup::Rebus {
                start: RebusStart::Position(p),
                ..
            } => p.split_whitespace().nth(1) == Some("blue"),
            _ => false,
        }
    }

    /// The names of the first and second player.
    pub fn colours(&self) -> [&'static str; 2] {
        match self {
            Setup::Rekushu { .. } => ["black", "white"],
            Setup::Rebus { .. } => ["red", "blue"],
        }
    }
}

/// Which player (0 = first: Black/Red, 1 = second: White/Blue) makes move `ply`.
pub fn mover(setup: &Setup, ply: usize) -> usize {
    (ply + usize::from(setup.second_first())) % 2
}

/// The colour word of the player who makes move `ply`.
pub fn side_name(setup: &Setup, ply: usize) -> &'static str {
    setup.colours()[mover(setup, ply)]
}

// ---------------------------------------------------------------------------
// Rekushu: the stones and tiles, from the moves (rules.md §1.4).

/// A vertex `K10` → (column, row), 1-based.
pub fn parse_vertex(text: &str, size: usize) -> Option<(usize, usize)> {
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    if !letter.is_ascii_uppercase() {
        return None;
    }
    let x = (letter as usize) - ('A' as usize) + 1;
    let y: usize = chars.as_str().parse().ok()?;
    (x <= size && (1..=size).contains(&y)).then_some((x, y))
}

pub fn vertex_name(x: usize, y: usize) -> String {
    let letter = (b'A' + (x as u8 - 1)) as char;
    format!("{letter}{y}")
}

/// A placement and its optional claim: `K10:C3-K10`.
pub struct RekushuMove {
    pub place: (usize, usize),
    pub claim: Option<((usize, usize), (usize, usize))>,
}

pub fn parse_rekushu_move(text: &str, size: usize) -> Option<RekushuMove> {
    let (place, claim) = match text.split_once(':') {
        Some((p, c)) => (p, Some(c)),
        None => (text, None),
    };
    let place = parse_vertex(place, size)?;
    let claim = match claim {
        None => None,
        Some(c) => {
            let (a, b) = c.split_once('-')?;
            let (a, b) = (parse_vertex(a, size)?, parse_vertex(b, size)?);
            let lo = (a.0.min(b.0), a.1.min(b.1));
            let hi = (a.0.max(b.0), a.1.max(b.1));
            Some((lo, hi))
        }
    };
    Some(RekushuMove { place, claim })
}

/// The board after `moves`: `stones[(y-1)*size + x-1]` and
/// `tiles[(y-1)*(size-1) + x-1]`, each `.`, `b` or `w`.
pub fn rekushu_board(size: usize, moves: &[String]) -> (Vec<u8>, Vec<u8>) {
    let mut stones = vec![b'.'; size * size];
    let mut tiles = vec![b'.'; (size - 1) * (size - 1)];
    for (i, text) in moves.iter().enumerate() {
        let colour = if i % 2 == 0 { b'b' } else { b'w' };
        let Some(m) = parse_rekushu_move(text, size) else {
            continue;
        };
        stones[(m.place.1 - 1) * size + m.place.0 - 1] = colour;
        if let Some((lo, hi)) = m.claim {
            for (x, y) in [(lo.0, lo.1), (hi.0, lo.1), (lo.0, hi.1), (hi.0, hi.1)] {
                stones[(y - 1) * size + x - 1] = b'.';
            }
            for y in lo.1..hi.1 {
                for x in lo.0..hi.0 {
                    tiles[(y - 1) * (size - 1) + x - 1] = colour;
                }
            }
        }
    }
    (stones, tiles)
}

// ---------------------------------------------------------------------------
// REBUS: a position string (rules.md §2.9) read for drawing.

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Square {
    /// `r`, `b` or `g`.
    pub o: char,
    /// The symbol letter (`S`, `W`, … `X`).
    pub s: char,
    /// The buried tile, `rW`, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b: Option<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Lock {
    /// The lower-left square, `c3`.
    pub sq: String,
    pub k: usize,
    pub owner: char,
    pub uniform: bool,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct RebusView {
    /// a1, b1, … i1, a2, … i9.
    pub squares: Vec<Square>,
    pub to_move: String,
    pub locks: Vec<Lock>,
    pub protected: Vec<String>,
    pub counts: [usize; 3],
}

pub fn square_index(name: &str) -> Option<usize> {
    let b = name.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let f = b[0].to_ascii_lowercase().checked_sub(b'a')? as usize;
    let r = b[1].checked_sub(b'1')? as usize;
    (f < 9 && r < 9).then_some(r * 9 + f)
}

pub fn parse_position(text: &str) -> Result<RebusView, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 4 {
        return Err(format!("expected 4 fields, got {}: '{text}'", fields.len()));
    }
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 9 {
        return Err(format!("expected 9 ranks: '{}'", fields[0]));
    }
    let mut squares = vec![
        Square {
            o: 'g',
            s: 'H',
            b: None
        };
        81
    ];
    for (i, rank) in ranks.iter().enumerate() {
        let r = 8 - i;
        let chars: Vec<char> = rank.chars().collect();
        let mut f = 0;
        let mut k = 0;
        while k < chars.len() {
            if f >= 9 || k + 1 >= chars.len() {
                return Err(format!("bad rank '{rank}'"));
            }
            let mut sq = Square {
                o: chars[k],
                s: chars[k + 1],
                b: None,
            };
            k += 2;
            if chars.get(k) == Some(&'(') {
                let end = chars[k..]
                    .iter()
                    .position(|&c| c == ')')
                    .ok_or_else(|| format!("bad rank '{rank}'"))?;
                sq.b = Some(chars[k + 1..k + end].iter().collect());
                k += end + 1;
            }
            squares[r * 9 + f] = sq;
            f += 1;
        }
        if f != 9 {
            return Err(format!("rank {} has {f} squares", r + 1));
        }
    }
    let mut locks = Vec::new();
    if fields[2] != "-" {
        for token in fields[2].split(',') {
            let (sq, k) = token
                .split_once('L')
                .ok_or_else(|| format!("bad lock '{token}'"))?;
            let k: usize = k.parse().map_err(|_| format!("bad lock '{token}'"))?;
            let at = square_index(sq).ok_or_else(|| format!("bad lock '{token}'"))?;
            let (f0, r0) = (at % 9, at / 9);
            let mut symbols = Vec::new();
            for r in r0..(r0 + k).min(9) {
                for f in f0..(f0 + k).min(9) {
                    symbols.push(squares[r * 9 + f].s);
                }
            }
            locks.push(Lock {
                sq: sq.to_string(),
                k,
                owner: squares[at].o,
                uniform: symbols.windows(2).all(|w| w[0] == w[1]),
            });
        }
    }
    let protected = if fields[3] == "-" {
        Vec::new()
    } else {
        fields[3].split(',').map(str::to_string).collect()
    };
    let mut counts = [0; 3];
    for sq in &squares {
        match sq.o {
            'r' => counts[0] += 1,
            'b' => counts[1] += 1,
            _ => counts[2] += 1,
        }
    }
    Ok(RebusView {
        squares,
        to_move: fields[1].to_string(),
        locks,
        protected,
        counts,
    })
}

/// A REBUS capture as the identity of rules.md §2.8 sees it: the attacker's
/// symbol, the captured squares (sorted) and the nomination.
fn capture_key(view: &RebusView, token: &str) -> Option<(char, Vec<usize>, Option<usize>)> {
    let token = token.to_ascii_lowercase();
    let (chain, nominated) = match token.split_once('+') {
        Some((c, n)) => (c, Some(square_index(n)?)),
        None => (token.as_str(), None),
    };
    let mut squares = chain.split('x');
    let attacker = square_index(squares.next()?)?;
    let mut captured = squares.map(square_index).collect::<Option<Vec<_>>>()?;
    if captured.is_empty() {
        return None;
    }
    captured.sort_unstable();
    Some((view.squares[attacker].s, captured, nominated))
}

/// The canonical token, from the legal list, of the capture `token` makes.
pub fn canonical(view: &RebusView, legal: &[String], token: &str) -> Option<String> {
    let key = capture_key(view, token)?;
    legal
        .iter()
        .find(|m| capture_key(view, m).as_ref() == Some(&key))
        .cloned()
}

// ---------------------------------------------------------------------------
// Records (protocol.md §10).

/// `[Name "value"]` with `"` and `\` escaped.
fn tag(out: &mut String, name: &str, value: &str) {
    let mut v = String::new();
    for c in value.chars() {
        match c {
            '"' => v.push_str("\\\""),
            '\\' => v.push_str("\\\\"),
            c if c.is_control() => v.push(' '),
            c => v.push(c),
        }
    }
    out.push_str(&format!("[{name} \"{v}\"]\n"));
}

/// The result tag for a `game_status` text (`over B+3 no-placement`).
pub fn result_of(setup: &Setup, status: &str) -> (&'static str, Option<String>, Option<String>) {
    let words: Vec<&str> = status.split_whitespace().collect();
    if words.first() != Some(&"over") || words.len() < 2 {
        return ("*", None, None);
    }
    let score = words[1];
    let reason = words.get(2).map(|s| s.to_string());
    let first = if setup.is_rebus() { "R+" } else { "B+" };
    let second = if setup.is_rebus() { "B+" } else { "W+" };
    let result = if score.starts_with(first) {
        "1-0"
    } else if score.starts_with(second) {
        "0-1"
    } else {
        "1/2-1/2"
    };
    let score = (!score.ends_with("+R")).then(|| score.to_string());
    (result, reason, score)
}

/// The game as a record, in the project's format.
pub fn record_text(setup: &Setup, moves: &[String], status: &str, players: [&str; 2]) -> String {
    let mut out = String::new();
    match setup {
        Setup::Rekushu { size } => {
            tag(&mut out, "Game", "rekushu");
            tag(&mut out, "Size", &size.to_string());
            tag(&mut out, "Start", &format!("{size}x{size}"));
        }
        Setup::Rebus { start, turn_limit } => {
            tag(&mut out, "Game", "rebus");
            let start = match start {
                RebusStart::Standard => "standard".to_string(),
                RebusStart::Random(seed) => format!("random {seed}"),
                RebusStart::Position(p) => p.clone(),
            };
            tag(&mut out, "Start", &start);
            tag(&mut out, "TurnLimit", &turn_limit.to_string());
        }
    }
    tag(&mut out, "First", players[0]);
    tag(&mut out, "Second", players[1]);
    let (result, reason, score) = result_of(setup, status);
    tag(&mut out, "Result", result);
    if let Some(reason) = reason {
        tag(&mut out, "Reason", &reason);
    }
    if let Some(score) = score {
        tag(&mut out, "Score", &score);
    }
    tag(&mut out, "Plies", &moves.len().to_string());
    tag(&mut out, "Date", &utc_now());
    tag(&mut out, "Event", "tessera-board");
    out.push('\n');
    for m in moves {
        out.push_str(m);
        out.push('\n');
    }
    out
}

/// A record as the engine's `savegame` writes it: its setup and moves. The
/// engine has checked it (`loadgame`) before this reads it.
pub fn parse_record(text: &str) -> Result<(Setup, Vec<String>), String> {
    let mut game = None;
    let mut size = None;
    let mut start = None;
    let mut turn_limit = 400;
    let mut lines = text.lines();
    for line in lines.by_ref() {
        let line = line.trim();
        if line.is_empty() {
            break;
        }
        let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) else {
            return Err(format!("not a tag: '{line}'"));
        };
        let Some((name, value)) = inner.split_once(' ') else {
            return Err(format!("not a tag: '{line}'"));
        };
        let value = value
            .trim()
            .trim_matches('"')
            .replace("\\\"", "\"")
            .replace("\\\\", "\\");
        match name {
            "Game" => game = Some(value.to_ascii_lowercase()),
            "Size" => size = value.parse::<usize>().ok(),
            "Start" => start = Some(value),
            "TurnLimit" => {
                turn_limit = value
                    .parse()
                    .map_err(|_| format!("bad TurnLimit '{value}'"))?
            }
            _ => {}
        }
    }
    let moves: Vec<String> = lines
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    let setup = match game.as_deref() {
        Some("rekushu") => {
            let size = size
                .or_else(|| {
                    start
                        .as_deref()
                        .and_then(|s| s.split_once('x'))
                        .and_then(|(a, _)| a.parse().ok())
                })
                .ok_or("no board size")?;
            Setup::Rekushu { size }
        }
        Some("rebus") => {
            let start = start.ok_or("no Start tag")?;
            let start = if start == "standard" {
                RebusStart::Standard
            } else if let Some(seed) = start.strip_prefix("random ") {
                RebusStart::Random(
                    seed.trim()
                        .parse()
                        .map_err(|_| format!("bad seed '{seed}'"))?,
                )
            } else {
                RebusStart::Position(start)
            };
            Setup::Rebus { start, turn_limit }
        }
        other => return Err(format!("unknown game {other:?}")),
    };
    Ok((setup, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rekushu_claims_remove_corners_and_fill_tiles() {
        let moves: Vec<String> = ["A1", "F6", "B1", "F5", "A2", "E6", "B2:A1-B2"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (stones, tiles) = rekushu_board(6, &moves);
        assert_eq!(stones[0], b'.');
        assert_eq!(stones[5 * 6 + 5], b'w');
        assert_eq!(tiles[0], b'b');
        assert_eq!(tiles.iter().filter(|&&t| t != b'.').count(), 1);
    }

    #[test]
    fn position_strings_are_read() {
        let v = parse_position(
            "bSbWbPbTbObQbGbJbK/bTbObQbGbJbKbSbWbP/bGbJbKbSbWbPbTbObQ/gFgXgHgFgXgHgFgXgH/gHgFgXrS(gH)gFgXgHgFgX/gFgXgHgFgXgHgFgXgH/rGrJrKrSrWrPrTrOrQ/rTrOrQrGrJrKrSrWrP/rSrWrPrTrOrQrGrJrK blue a1L2 d5",
        )
        .unwrap();
        let d5 = &v.squares[square_index("d5").unwrap()];
        assert_eq!((d5.o, d5.s, d5.b.as_deref()), ('r', 'S', Some("gH")));
        assert_eq!(v.to_move, "blue");
        assert_eq!(v.locks[0].owner, 'r');
        assert!(!v.locks[0].uniform);
        assert_eq!(v.protected, vec!["d5"]);
        assert_eq!(v.counts, [28, 27, 26]);
        assert!(parse_position("x red - -").is_err());
    }

    #[test]
    fn records_round_trip_their_setup() {
        let setup = Setup::Rebus {
            start: RebusStart::Random(7),
            turn_limit: 100,
        };
        let moves = vec!["d3xd5".to_string()];
        let text = record_text(&setup, &moves, "ongoing", ["me", "tessera"]);
        assert!(text.contains("[Result \"*\"]"));
        assert_eq!(parse_record(&text).unwrap(), (setup, moves));
        let r = Setup::Rekushu { size: 6 };
        let text = record_text(&r, &[], "over B+3 no-placement", ["a", "b"]);
        assert!(text.contains("[Result \"1-0\"]") && text.contains("[Reason \"no-placement\"]"));
        assert_eq!(parse_record(&text).unwrap().0, r);
    }

    #[test]
    fn dates_are_iso() {
        // The calendar itself is tested beside it, in tessera::record.
        assert_eq!(utc_now().len(), 20);
    }
}
