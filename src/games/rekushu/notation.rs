//! Move text (rules.md §1.2, §1.7): `K10` or `K10:C3-K10`, case-insensitive on input,
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

/// The last column letter of an n×n board (`T` on 20×20).
fn last_column(n: usize) -> char {
    char::from(b'A' + (n.clamp(1, 26) - 1) as u8)
}

/// Parses one vertex on an n×n board, case-insensitive: its 0-based (x, y),
/// or why it is not one, quoting `part` as typed.
fn parse_vertex(part: &str, n: usize) -> Result<(usize, usize), String> {
    let not_a_vertex = || {
        format!(
            "'{part}' is not a vertex (a column letter A to {}, then a row 1 to {n}: K10)",
            last_column(n)
        )
    };
    let mut chars = part.chars();
    let (Some(c), digits) = (chars.next(), chars.as_str()) else {
        return Err(not_a_vertex());
    };
    let zero = digits.bytes().all(|b| b == b'0');
    if !c.is_ascii_alphabetic()
        || digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || (digits.starts_with('0') && !zero)
    {
        return Err(not_a_vertex());
    }
    let col = c.to_ascii_uppercase();
    let x = (col as u8 - b'A') as usize;
    if x >= n {
        return Err(format!(
            "column {col} is off the {n}x{n} board (columns A to {})",
            last_column(n)
        ));
    }
    // Any number of digits is a row: one too large for any type is off the
    // board like 21 is, not malformed.
    let row = match zero {
        true => 0,
        false => digits.parse::<usize>().unwrap_or(usize::MAX),
    };
    if row == 0 || row > n {
        return Err(format!(
            "row {digits} is off the {n}x{n} board (rows 1 to {n})"
        ));
    }
    Ok((x, row - 1))
}

impl Notation for Board {
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let n = self.n;
        let syntax = |why: String| MoveError::Syntax(format!("could not parse move '{t}': {why}"));
        let (place, claim) = match t.split_once(':') {
            Some((p, c)) => (p, Some(c)),
            None => (t, None),
        };
        let (x, y) = parse_vertex(place, n).map_err(syntax)?;
        let corners = match claim {
            None => None,
            Some(c) => {
                let (a, b) = c.split_once('-').ok_or_else(|| {
                    syntax(format!(
                        "the claim '{c}' is not two corners joined by '-' (K10:C3-K10)"
                    ))
                })?;
                let a = parse_vertex(a, n).map_err(syntax)?;
                let b = parse_vertex(b, n).map_err(syntax)?;
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

    /// rules.md §1.6: the game ends when no placement is left.
    fn end_reason(&self) -> &'static str {
        "no-placement"
    }

    /// Rekushu has no conceding move: a level that gives up resigns.
    fn give_up(&self) -> GiveUp<Move> {
        GiveUp::Resign
    }

    fn lead(&self) -> i32 {
        let [black, white] = self.tile_counts();
        let lead = black as i32 - white as i32;
        match self.side {
            Side::First => lead,
            Side::Second => -lead,
        }
    }

    /// A placement is legal whatever it claims: the placement alone is too.
    fn as_point(&self, mv: Move) -> Option<Move> {
        let (x, y) = mv.vertex();
        Some(Move::place(x, y))
    }

    /// Lost when the opponent leads by more tiles than are still unclaimed:
    /// even every one of them would not be enough.
    fn lost_whatever_played(&self) -> bool {
        let [black, white] = self.tile_counts();
        let tiles = ((self.n - 1) * (self.n - 1)) as i32;
        let unclaimed = tiles - black as i32 - white as i32;
        -self.lead() > unclaimed
    }
}
