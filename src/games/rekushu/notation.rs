//! Move text (RULES §1.2, §1.7): `K10` or `K10:C3-K10`, case-insensitive on input,
//! upper case with the lower-left corner first on output. Columns run A, B, C, …
//! including I. Parsing never panics: text that is not a move on this board is a
//! `Syntax` error, a well-formed move the rules forbid is `Illegal` with a reason.

use crate::core::id::{GameId, GameText, GiveUp, lead_text};
use crate::core::{MoveError, Notation, Side};

use super::board::Board;
use super::mirror;
use super::moves::{Move, Rect};

/// The text of 0-based vertex (x, y), e.g. `K10`.
pub fn vertex_text(x: usize, y: usize) -> String {
    let col = char::from(b'A' + (x as u8 % 26));
    format!("{col}{}", y + 1)
}

/// `C3-K10`: the rectangle, lower-left corner first.
pub fn rect_text(r: Rect) -> String {
    format!(
        "{}-{}",
        vertex_text(r.x1 as usize, r.y1 as usize),
        vertex_text(r.x2 as usize, r.y2 as usize)
    )
}

/// Why a vertex did not parse.
enum VertexError {
    Malformed,
    OffBoard,
}

/// Parses one vertex (already upper case) on an n×n board.
fn parse_vertex(s: &str, n: usize) -> Result<(usize, usize), VertexError> {
    let b = s.as_bytes();
    let Some((&c, digits)) = b.split_first() else {
        return Err(VertexError::Malformed);
    };
    if !c.is_ascii_uppercase() || digits.is_empty() || digits.len() > 2 {
        return Err(VertexError::Malformed);
    }
    if !digits.iter().all(u8::is_ascii_digit) || digits[0] == b'0' {
        return Err(VertexError::Malformed);
    }
    let row = digits
        .iter()
        .fold(0usize, |a, d| a * 10 + (d - b'0') as usize);
    let x = (c - b'A') as usize;
    if x < n && row <= n {
        Ok((x, row - 1))
    } else {
        Err(VertexError::OffBoard)
    }
}

impl Notation for Board {
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let n = self.n;
        let syntax = || {
            MoveError::Syntax(format!(
                "could not parse move '{t}' (expected e.g. K10 or K10:C3-K10)"
            ))
        };
        // Off-board vertices get their own reason; `part` is ASCII upper case.
        let vertex = |part: &str| {
            parse_vertex(part, n).map_err(|e| match e {
                VertexError::Malformed => syntax(),
                VertexError::OffBoard => MoveError::Syntax(format!(
                    "could not parse move '{t}': {part} is off the {n}x{n} board"
                )),
            })
        };
        if !t.is_ascii() {
            return Err(syntax());
        }
        let up = t.to_ascii_uppercase();
        let (place, claim) = match up.split_once(':') {
            Some((p, c)) => (p, Some(c)),
            None => (up.as_str(), None),
        };
        let (x, y) = vertex(place)?;
        let corners = match claim {
            None => None,
            Some(c) => {
                let (a, b) = c.split_once('-').ok_or_else(syntax)?;
                let a = vertex(a)?;
                let b = vertex(b)?;
                Some((a, b))
            }
        };
        let v = vertex_text(x, y);
        if self.occ.get(x, y) {
            return Err(MoveError::Illegal(format!("{v} is occupied")));
        }
        if self.dead.get(x, y) {
            return Err(MoveError::Illegal(format!(
                "{v} touches only claimed tiles"
            )));
        }
        let repeat = self.types_for(x, y) & self.types[self.side.index()];
        if repeat != 0 {
            return Err(MoveError::Illegal(format!(
                "{v} repeats your previous mirror type ({})",
                mirror::describe(repeat)
            )));
        }
        let Some(((ax, ay), (bx, by))) = corners else {
            return Ok(Move::place(x, y));
        };
        let Some(r) = Rect::from_corners(ax, ay, bx, by) else {
            return Err(MoveError::Illegal(format!(
                "{}-{} is not a rectangle",
                vertex_text(ax, ay),
                vertex_text(bx, by)
            )));
        };
        let rt = rect_text(r);
        let own = &self.stones[self.side.index()];
        for (cx, cy) in r.corners() {
            if !own.get(cx, cy) && (cx, cy) != (x, y) {
                return Err(MoveError::Illegal(format!(
                    "{rt}: corner {} is not your stone",
                    vertex_text(cx, cy)
                )));
            }
        }
        let corner = |px: usize, py: usize| r.corners().contains(&(px, py));
        if r.covers(x, y) && !corner(x, y) {
            return Err(MoveError::Illegal(format!(
                "{rt} has a stone on its edge or inside ({v})"
            )));
        }
        for py in r.y1 as usize..=r.y2 as usize {
            for px in r.x1 as usize..=r.x2 as usize {
                if self.occ.get(px, py) && !corner(px, py) {
                    return Err(MoveError::Illegal(format!(
                        "{rt} has a stone on its edge or inside ({})",
                        vertex_text(px, py)
                    )));
                }
            }
        }
        if !self.claimable_with(self.side, r, Some((x, y))) {
            return Err(MoveError::Illegal(format!("{rt} contains claimed tiles")));
        }
        Ok(Move::with_claim(x, y, r))
    }

    fn format_move(&self, mv: Move) -> String {
        let (x, y) = mv.vertex();
        match mv.claim() {
            None => vertex_text(x, y),
            Some(r) => format!("{}:{}", vertex_text(x, y), rect_text(r)),
        }
    }
}

impl GameText for Board {
    const ID: GameId = GameId::Rekushu;
    const COLOUR_WORDS: &'static str = "black, white, b, w";

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "Black",
            Side::Second => "White",
        }
    }

    fn parse_side(word: &str) -> Option<Side> {
        match word.to_ascii_lowercase().as_str() {
            "black" | "b" => Some(Side::First),
            "white" | "w" => Some(Side::Second),
            _ => None,
        }
    }

    fn score_text(&self) -> String {
        lead_text(self.tile_counts(), ['B', 'W'])
    }

    /// RULES: the game ends when no placement is left.
    fn end_reason(&self) -> &'static str {
        "no-placement"
    }

    /// Rekushu has no conceding move: a level that gives up resigns.
    fn give_up(&self) -> GiveUp<Move> {
        GiveUp::Resign
    }
}
