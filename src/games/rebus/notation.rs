//! Move notation (rules.md §2.8): parsing with specific reasons for illegal moves,
//! and canonical tokens.
//!
//! The canonical token of a capture is the smallest legal token making the same
//! move. Square names are fixed width, so comparing tokens of one move is
//! comparing (attacker, walk) square by square in name order; a search in that
//! order finds it directly (see [`super::chains::smallest_walk`]).

use super::chains::smallest_walk;
use super::locks::{block_mask, break_threshold, covered_edges, fits};
use super::position::Position;
use super::square::{
    Square, SquareSet, bit, file_of, parse_square, rank_of, reach, sorted_by_name, square_name,
};
use super::tile::{Owner, STAR};
use super::{Move, MoveKind, YIELD_AT};
use crate::core::id::{GameId, GameText, GiveUp, lead_text};
use crate::core::{MoveError, Notation, Side, Status};

pub(crate) fn side_name(side: Side) -> &'static str {
    Position::side_name(side)
}

impl GameText for Position {
    const ID: GameId = GameId::Rebus;
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

    fn end_reason(&self) -> &'static str {
        Position::end_reason(self)
    }

    /// `yield` where the rules allow it (rules.md §2.7); otherwise play on.
    fn give_up(&self) -> GiveUp<Move> {
        match self.parse_move("yield") {
            Ok(mv) => GiveUp::Move(mv),
            Err(_) => GiveUp::PlayOn,
        }
    }

    fn lead(&self) -> i32 {
        let c = self.counts();
        c[self.side.index()] as i32 - c[self.side.opp().index()] as i32
    }

    /// No REBUS move is one board point.
    fn as_point(&self, _mv: Move) -> Option<Move> {
        None
    }

    /// Squares change hands until the game ends: a game still going is never
    /// lost whatever anyone plays.
    fn lost_whatever_played(&self) -> bool {
        false
    }
}

/// A move as written, before legality.
enum Written {
    Pass,
    Yield,
    Lock(Square, u8),
    Capture(Square, Vec<Square>, Option<Square>),
}

/// The forms a REBUS move takes, for errors.
const MOVE_FORMS: &str = "a capture (d3xd5, d3xd5xd6+c2), a lock (c3L2, c3L3), pass or yield";

/// One square of a move, as typed (any case): the square, or why it is not one.
pub fn square_arg(part: &str) -> Result<Square, String> {
    if let Some(sq) = parse_square(&part.to_ascii_lowercase()) {
        return Ok(sq);
    }
    let b = part.as_bytes();
    let looks_like_one =
        b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1..].iter().all(u8::is_ascii_digit);
    Err(match (part.is_empty(), looks_like_one) {
        (true, _) => "a square is missing (a file a to i, then a rank 1 to 9: e5)".to_string(),
        (false, true) => format!("{part} is off the 9x9 board (files a to i, ranks 1 to 9)"),
        (false, false) => {
            format!("'{part}' is not a square (a file a to i, then a rank 1 to 9: e5)")
        }
    })
}

/// The move `t` writes (ASCII, any case), before legality; or why it is none.
fn parse_written(t: &str) -> Result<Written, String> {
    let lower = t.to_ascii_lowercase();
    match lower.as_str() {
        "pass" => return Ok(Written::Pass),
        "yield" => return Ok(Written::Yield),
        _ => {}
    }
    let is_x = |c: char| c == 'x' || c == 'X';
    if !t.contains(is_x) {
        // A lock: a square, `L`, the block's size.
        if let Some((sq, size)) = t.split_once(['l', 'L'])
            && !sq.is_empty()
        {
            let sq = square_arg(sq)?;
            return match size {
                "2" => Ok(Written::Lock(sq, 2)),
                "3" => Ok(Written::Lock(sq, 3)),
                _ => Err(format!(
                    "a lock is a 2x2 or 3x3 block (c3L2, c3L3), not '{size}'"
                )),
            };
        }
        return Err(format!("not a REBUS move: {MOVE_FORMS}"));
    }
    let (main, nom) = match t.split_once('+') {
        Some((m, n)) => (
            m,
            Some(square_arg(n).map_err(|e| format!("the nomination: {e}"))?),
        ),
        None => (t, None),
    };
    let mut parts = main.split(is_x);
    let attacker =
        square_arg(parts.next().unwrap_or_default()).map_err(|e| format!("the attacker: {e}"))?;
    let path = parts.map(square_arg).collect::<Result<Vec<_>, _>>()?;
    if path.is_empty() {
        return Err(format!("not a REBUS move: {MOVE_FORMS}"));
    }
    Ok(Written::Capture(attacker, path, nom))
}

fn king_distance(a: Square, b: Square) -> u8 {
    file_of(a)
        .abs_diff(file_of(b))
        .max(rank_of(a).abs_diff(rank_of(b)))
}

impl Position {
    fn check_capture(
        &self,
        attacker: Square,
        path: &[Square],
        nom: Option<Square>,
    ) -> Result<Move, String> {
        let me = self.side;
        let name = side_name(me);
        let a_name = square_name(attacker);
        let a_tile = self.visible[attacker as usize];
        if a_tile.owner != Owner::of(me) {
            return Err(format!("{a_name} is not {name}'s"));
        }
        if self.locked & bit(attacker) != 0 {
            return Err(format!("{a_name} is locked and cannot attack"));
        }
        let s = a_tile.symbol;
        let first = path[0];
        let max = if s == STAR { 2 } else { 1 };
        if king_distance(attacker, first) > max {
            return Err(format!("{a_name} cannot reach {}", square_name(first)));
        }
        let mut stars = self.active_stars(me);
        let mut captured: SquareSet = 0;
        let t = self.visible[first as usize].symbol;
        for (i, &q) in path.iter().enumerate() {
            let qn = square_name(q);
            if i > 0 {
                let prev = path[i - 1];
                if king_distance(prev, q) != 1
                    || file_of(prev) != file_of(q) && rank_of(prev) != rank_of(q)
                {
                    return Err(format!(
                        "chain step {qn} is not orthogonally next to {}",
                        square_name(prev)
                    ));
                }
                if captured & bit(q) != 0 {
                    return Err(format!("{qn} was already captured this turn"));
                }
            }
            let tile = self.visible[q as usize];
            if tile.owner == Owner::of(me) {
                return Err(format!("{qn} is {name}'s"));
            }
            if self.locked & bit(q) != 0 {
                return Err(format!("{qn} is locked"));
            }
            if self.protected & bit(q) != 0 {
                return Err(format!("{qn} is protected"));
            }
            if i == 0 && tile.symbol == s {
                return Err(format!("{a_name} and {qn} show the same symbol"));
            }
            if i > 0 && tile.symbol != t {
                return Err(format!("chain step {qn} does not show the captured symbol"));
            }
            let gains = match self.boxes[q as usize] {
                Some(b) => b.owner == Owner::of(me) && b.symbol == STAR,
                None => s == STAR,
            };
            if gains {
                stars += 1;
                if stars > 5 {
                    return Err(format!(
                        "a Star on {qn} would give {name} a sixth active Star"
                    ));
                }
            }
            captured |= bit(q);
        }
        if let Some(n) = nom {
            let nn = square_name(n);
            if captured & bit(n) != 0 {
                return Err(format!(
                    "{nn} is captured this turn and cannot be nominated"
                ));
            }
            if self.visible[n as usize].owner != Owner::of(me) {
                return Err(format!("{nn} is not {name}'s and cannot be nominated"));
            }
            if self.locked & bit(n) != 0 {
                return Err(format!("{nn} is locked and cannot be nominated"));
            }
        }
        Ok(Move::capture(s, captured, nom))
    }

    fn check_lock(&self, origin: Square, size: u8) -> Result<Move, String> {
        let me = self.side;
        let name = side_name(me);
        if !fits(origin, size) {
            return Err("the block does not fit on the board".to_string());
        }
        let m = block_mask(origin, size);
        for q in sorted_by_name(m) {
            if self.visible[q as usize].owner != Owner::of(me) {
                return Err(format!("{} is not {name}'s", square_name(q)));
            }
            if self.locked & bit(q) != 0 {
                return Err(format!("{} is already locked", square_name(q)));
            }
        }
        let first = self.visible[origin as usize].symbol;
        let uniform = m & !self.sym[first as usize] == 0;
        let covered = covered_edges(origin, size, self.own[me.opp().index()]);
        if covered >= break_threshold(uniform) {
            return Err(format!(
                "the block would break at once: {} covers {covered} outside edges of this {} block",
                side_name(me.opp()),
                if uniform { "uniform" } else { "mixed" }
            ));
        }
        Ok(Move::lock(origin, size))
    }

    fn check_written(&self, w: Written) -> Result<Move, String> {
        let me = self.side;
        match w {
            Written::Pass => {
                if self.has_capture(me, self.protected) {
                    Err(format!("{} has a capture", side_name(me)))
                } else {
                    Ok(Move::PASS)
                }
            }
            Written::Yield => {
                let c = self.counts();
                let (mine, theirs) = (c[me.index()], c[me.opp().index()]);
                if theirs < YIELD_AT {
                    Err(format!(
                        "needs {} to control {YIELD_AT} or more squares",
                        side_name(me.opp())
                    ))
                } else if mine >= theirs {
                    Err(format!(
                        "needs {} to control fewer squares than {}",
                        side_name(me),
                        side_name(me.opp())
                    ))
                } else {
                    Ok(Move::YIELD)
                }
            }
            Written::Lock(o, k) => self.check_lock(o, k),
            Written::Capture(a, path, nom) => self.check_capture(a, &path, nom),
        }
    }

    /// The attacker and the walk that the canonical token of a capture of
    /// `squares` by `symbol` writes (RULES §2.8): the first attacker in name
    /// order with a walk over all the squares, and its smallest walk.
    fn canonical_walk(&self, symbol: u8, squares: SquareSet) -> Option<(Square, Vec<Square>)> {
        let attackers = self.own[self.side.index()] & !self.locked & self.sym[symbol as usize % 12];
        sorted_by_name(attackers).find_map(|a| {
            let starts = reach(bit(a), symbol == STAR) & squares;
            smallest_walk(squares, starts).map(|walk| (a, walk))
        })
    }

    /// The squares of a capture as its canonical token writes them, in this
    /// position (before the move): the attacker and the walk, in order. `None`
    /// for a move that is not a capture, or not one any attacker can make here.
    pub fn capture_walk(&self, mv: Move) -> Option<(Square, Vec<Square>)> {
        match mv.kind() {
            MoveKind::Capture {
                symbol, squares, ..
            } => self.canonical_walk(symbol, squares),
            _ => None,
        }
    }

    fn canonical_capture(&self, symbol: u8, squares: SquareSet, nominee: Option<Square>) -> String {
        if let Some((attacker, walk)) = self.canonical_walk(symbol, squares) {
            return capture_token(attacker, &walk, nominee);
        }
        // Not a legal move here; describe it anyway.
        let mut s = format!(
            "capture-{}",
            super::tile::SYMBOL_LETTERS[symbol as usize % 12]
        );
        for q in sorted_by_name(squares) {
            s.push('x');
            s.push_str(&square_name(q));
        }
        s
    }
}

/// The token of a capture as written square by square: `d3xd5xd6+c2` (the
/// attacker, each captured square in the order taken, then the nominated
/// square, if any). Whether it is legal is [`Notation::parse_move`]'s to say.
pub fn capture_token(attacker: Square, walk: &[Square], nominee: Option<Square>) -> String {
    let mut s = square_name(attacker);
    for &q in walk {
        s.push('x');
        s.push_str(&square_name(q));
    }
    if let Some(n) = nominee {
        s.push('+');
        s.push_str(&square_name(n));
    }
    s
}

/// `c3L2`.
pub fn lock_token(origin: Square, size: u8) -> String {
    format!("{}L{size}", square_name(origin))
}

impl Notation for Position {
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let trimmed = text.trim();
        let w = match trimmed.is_ascii() {
            true => parse_written(trimmed),
            false => Err(format!("not a REBUS move: {MOVE_FORMS}")),
        }
        .map_err(|why| MoveError::Syntax(format!("could not parse move '{trimmed}': {why}")))?;
        if self.compute_status() != Status::Ongoing {
            return Err(MoveError::Illegal(format!("{trimmed}: the game is over")));
        }
        self.check_written(w)
            .map_err(|why| MoveError::Illegal(format!("{trimmed}: {why}")))
    }

    fn format_move(&self, mv: Move) -> String {
        match mv.kind() {
            MoveKind::Capture {
                symbol,
                squares,
                nominee,
            } => self.canonical_capture(symbol, squares, nominee),
            MoveKind::Lock { origin, size } => lock_token(origin, size),
            MoveKind::Pass => "pass".to_string(),
            MoveKind::Yield => "yield".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::rebus::square::parse_square;

    fn sq(name: &str) -> Square {
        parse_square(name).expect("a square")
    }

    /// Red's Omega on e4 and four Blue Circles e5, e6, f6, f5 in a ring, on a
    /// Green checkerboard.
    fn ring() -> Position {
        let rank = |r: usize| -> String {
            (0..9)
                .map(|f| match (f, r) {
                    (4, 3) => "rW",
                    (4, 4) | (4, 5) | (5, 5) | (5, 4) => "bO",
                    _ if (f + r).is_multiple_of(2) => "gH",
                    _ => "gF",
                })
                .collect()
        };
        let board: Vec<String> = (0..9).rev().map(rank).collect();
        Position::from_position_string(&format!("{} red - -", board.join("/"))).expect("a position")
    }

    #[test]
    fn capture_tokens_and_canonical_walks() {
        let p = ring();
        let written = capture_token(sq("e4"), &[sq("e5"), sq("f5"), sq("f6"), sq("e6")], None);
        assert_eq!(written, "e4xe5xf5xf6xe6");
        let mv = p.parse_move(&written).expect("legal");
        assert_eq!(
            p.capture_walk(mv),
            Some((sq("e4"), vec![sq("e5"), sq("e6"), sq("f6"), sq("f5")]))
        );
        assert_eq!(p.format_move(mv), "e4xe5xe6xf6xf5");
        let nominated = capture_token(sq("e4"), &[sq("e5")], Some(sq("e4")));
        assert_eq!(nominated, "e4xe5+e4");
        assert_eq!(
            p.format_move(p.parse_move(&nominated).expect("legal")),
            nominated
        );
        assert_eq!(p.capture_walk(Move::PASS), None);
        let mut q = p.clone();
        q.make_move(mv);
        assert_eq!(q.capture_walk(mv), None, "no Red attacker to move now");
    }
}
