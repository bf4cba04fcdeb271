//! The position string (rules.md §2.9): reading with validation, and writing.
//!
//! Accepted: exactly four fields separated by single spaces (surrounding
//! whitespace is ignored); nine ranks of nine squares; owner letters `r b g` and
//! symbol letters as rules.md §2.1 (case-sensitive), Green showing only H/F/X and
//! Red/Blue only the nine player symbols, buried tiles included; a buried tile
//! differs in owner from the visible one; a Green visible tile has an empty box;
//! at most five active Stars per side; locks that fit on the board, cover one
//! player's tiles only and are disjoint; protected squares on the board; side
//! `red` or `blue`. Totals per owner are not checked (captures change them).
//! Locks and protected squares are written in square order (a1, b1, …, i9).

use super::SQUARES;
use super::locks::{Lock, block_mask, fits};
use super::notation::side_name;
use super::position::Position;
use super::square::{
    SquareSet, Squares, bit, make_square, parse_square, sorted_by_name, square_name,
};
use super::tile::{Owner, STAR, Tile, symbol_from_letter};
use crate::core::Side;

/// Why a position string was refused; the message says what and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PositionError(pub String);

fn err<T>(msg: String) -> Result<T, PositionError> {
    Err(PositionError(msg))
}

fn parse_tile(letters: &str, sq: &str, token: &str, what: &str) -> Result<Tile, PositionError> {
    let mut cs = letters.chars();
    let (Some(o), Some(s), None) = (cs.next(), cs.next(), cs.next()) else {
        return err(format!(
            "square {sq}: cannot read {what} '{letters}' in '{token}'"
        ));
    };
    let Some(owner) = Owner::from_letter(o) else {
        return err(format!("square {sq}: unknown owner '{o}' in '{token}'"));
    };
    let Some(symbol) = symbol_from_letter(s) else {
        return err(format!("square {sq}: unknown symbol '{s}' in '{token}'"));
    };
    let t = Tile::new(owner, symbol);
    if !t.is_consistent() {
        let who = match owner {
            Owner::Green => "Green tiles show only H, F, X",
            _ => "Red and Blue tiles show only S, W, P, T, O, Q, G, J, K",
        };
        return err(format!(
            "square {sq}: {what} '{letters}' in '{token}': {who}"
        ));
    }
    Ok(t)
}

/// Splits a rank into square tokens: two letters, then optionally `(..)`.
fn split_rank(rank: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = rank;
    while !rest.is_empty() {
        let mut end = rest.char_indices().nth(2).map_or(rest.len(), |(i, _)| i);
        if rest[end..].starts_with('(') {
            end = match rest[end..].find(')') {
                Some(i) => end + i + 1,
                None => rest.len(),
            };
        }
        out.push(&rest[..end]);
        rest = &rest[end..];
    }
    out
}

impl Position {
    /// Reads and validates a position string (rules.md §2.9). Never panics.
    pub fn from_position_string(s: &str) -> Result<Position, PositionError> {
        let fields: Vec<&str> = s.trim().split(' ').collect();
        if fields.len() != 4 {
            return err(format!(
                "expected 4 fields separated by single spaces (board, side, locks, protected), found {}",
                fields.len()
            ));
        }
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 9 {
            return err(format!("the board has {} ranks, expected 9", ranks.len()));
        }
        let mut visible = [Tile::new(Owner::Green, 9); SQUARES];
        let mut boxes: [Option<Tile>; SQUARES] = [None; SQUARES];
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 8 - i as u8;
            let tokens = split_rank(rank_text);
            if let Some(t) = tokens.iter().find(|t| t.contains('(') && !t.ends_with(')')) {
                return err(format!("rank {}: unclosed '(' in '{t}'", rank + 1));
            }
            if tokens.len() != 9 {
                return err(format!("rank {} has {} squares", rank + 1, tokens.len()));
            }
            for (file, token) in tokens.iter().enumerate() {
                let sq = make_square(file as u8, rank);
                let name = square_name(sq);
                let (vis_text, box_text) = match token.find('(') {
                    Some(p) => {
                        let inner = &token[p + 1..];
                        let Some(inner) = inner.strip_suffix(')') else {
                            return err(format!("square {name}: unclosed '(' in '{token}'"));
                        };
                        (&token[..p], Some(inner))
                    }
                    None => (*token, None),
                };
                let v = parse_tile(vis_text, &name, token, "tile")?;
                visible[sq as usize] = v;
                if let Some(b) = box_text {
                    let b = parse_tile(b, &name, token, "buried tile")?;
                    if v.owner == Owner::Green {
                        return err(format!(
                            "square {name}: a visible Green tile has an empty history box, in '{token}'"
                        ));
                    }
                    if b.owner == v.owner {
                        return err(format!(
                            "square {name}: the buried tile has the visible tile's owner, in '{token}'"
                        ));
                    }
                    boxes[sq as usize] = Some(b);
                }
            }
        }
        // The side, case-insensitive like colours everywhere (`RED`, `Blue`).
        let side = match fields[1].to_ascii_lowercase().as_str() {
            "red" => Side::First,
            "blue" => Side::Second,
            other => return err(format!("unknown side '{other}', expected 'red' or 'blue'")),
        };
        for side in Side::BOTH {
            let n = (0..SQUARES)
                .filter(|&q| visible[q] == Tile::new(Owner::of(side), STAR))
                .count();
            if n > 5 {
                return err(format!("{} has {n} active Stars", side_name(side)));
            }
        }
        let mut locks: Vec<Lock> = Vec::new();
        let mut locked: SquareSet = 0;
        if fields[2] != "-" {
            for tok in fields[2].split(',') {
                // Squares are case-insensitive on input (rules.md §2.8), `L` too.
                let lower = tok.to_ascii_lowercase();
                let parsed = lower.split_once('l').and_then(|(sq, k)| {
                    let k = match k {
                        "2" => 2u8,
                        "3" => 3,
                        _ => return None,
                    };
                    Some((parse_square(sq)?, k))
                });
                let Some((origin, size)) = parsed else {
                    return err(format!("cannot read lock '{tok}' (expected e.g. c3L2)"));
                };
                if !fits(origin, size) {
                    return err(format!("lock {tok} does not fit on the board"));
                }
                let owner = visible[origin as usize].owner;
                if owner == Owner::Green {
                    return err(format!("lock {tok}: {} is Green", square_name(origin)));
                }
                let m = block_mask(origin, size);
                for q in sorted_by_name(m) {
                    if visible[q as usize].owner != owner {
                        let who = if owner == Owner::Red { "Red" } else { "Blue" };
                        return err(format!("lock {tok}: {} is not {who}'s", square_name(q)));
                    }
                }
                if locked & m != 0 {
                    return err(format!("lock {tok} overlaps another lock"));
                }
                locked |= m;
                let first = visible[origin as usize].symbol;
                let uniform = Squares(m).all(|q| visible[q as usize].symbol == first);
                locks.push(Lock {
                    origin,
                    size,
                    owner: owner.index() as u8,
                    uniform,
                });
            }
        }
        let mut protected: SquareSet = 0;
        if fields[3] != "-" {
            for tok in fields[3].split(',') {
                let Some(q) = parse_square(&tok.to_ascii_lowercase()) else {
                    return err(format!("cannot read protected square '{tok}'"));
                };
                if protected & bit(q) != 0 {
                    return err(format!(
                        "protected square {} is listed twice",
                        square_name(q)
                    ));
                }
                protected |= bit(q);
            }
        }
        Ok(Position::from_parts(
            visible, boxes, side, &locks, protected,
        ))
    }

    /// The position string (rules.md §2.9); [`Position::from_position_string`]
    /// reads it back to an equal position.
    pub fn position_string(&self) -> String {
        let mut s = String::with_capacity(200);
        for rank in (0..9u8).rev() {
            for file in 0..9u8 {
                let sq = make_square(file, rank) as usize;
                s.push_str(&self.visible[sq].token());
                if let Some(b) = self.boxes[sq] {
                    s.push('(');
                    s.push_str(&b.token());
                    s.push(')');
                }
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push_str(if self.side == Side::First {
            "red"
        } else {
            "blue"
        });
        s.push(' ');
        if self.locks.is_empty() {
            s.push('-');
        } else {
            let toks: Vec<String> = self
                .locks
                .as_slice()
                .iter()
                .map(|l| super::notation::lock_token(l.origin, l.size))
                .collect();
            s.push_str(&toks.join(","));
        }
        s.push(' ');
        if self.protected == 0 {
            s.push('-');
        } else {
            let toks: Vec<String> = Squares(self.protected).map(square_name).collect();
            s.push_str(&toks.join(","));
        }
        s
    }
}
