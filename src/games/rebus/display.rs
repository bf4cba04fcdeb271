//! The text board for `showboard`: ranks 9 to 1, then file letters, then the
//! side to move, the counts, locks and protection. No empty lines and no
//! trailing newline.

use super::SQUARES;
use super::notation::{lock_token, side_name};
use super::position::Position;
use super::square::{Squares, make_square, square_name};
use super::tile::{SYMBOL_LETTERS, SYMBOL_UNICODE, Tile};
use crate::core::Side;

fn cell(t: Tile, unicode: bool) -> String {
    let sym = if unicode {
        SYMBOL_UNICODE
    } else {
        SYMBOL_LETTERS
    };
    format!("{}{}", t.owner.letter(), sym[t.symbol as usize])
}

impl Position {
    /// A multi-line board. Buried tiles are shown in parentheses; when any
    /// square has one, every cell is padded to the same width.
    pub fn showboard(&self, unicode: bool) -> String {
        let wide = self.boxed != 0;
        let width = if wide { 6 } else { 2 };
        let mut lines: Vec<String> = Vec::with_capacity(14);
        for rank in (0..9u8).rev() {
            let mut line = format!("{} ", rank + 1);
            for file in 0..9u8 {
                let sq = make_square(file, rank) as usize;
                let mut c = cell(self.visible[sq], unicode);
                if let Some(b) = self.boxes[sq] {
                    c = format!("{c}({})", cell(b, unicode));
                }
                line.push(' ');
                let pad = width - c.chars().count().min(width);
                line.push_str(&c);
                line.push_str(&" ".repeat(pad));
            }
            lines.push(line.trim_end().to_string());
        }
        let mut files = String::from("  ");
        for f in 0..9u8 {
            files.push(' ');
            files.push((b'a' + f) as char);
            files.push_str(&" ".repeat(width - 1));
        }
        lines.push(files.trim_end().to_string());
        let c = self.counts();
        let limit = match self.turn_limit() {
            0 => "no turn limit".to_string(),
            n => format!("turn limit {n}"),
        };
        lines.push(format!(
            "{} to move, ply {} ({limit}); Red {}, Blue {}, Green {}",
            side_name(self.side),
            self.ply,
            c[0],
            c[1],
            SQUARES as u32 - c[0] - c[1]
        ));
        lines.push(format!(
            "active Stars: Red {}, Blue {} (at most 5 each)",
            self.active_stars(Side::First),
            self.active_stars(Side::Second)
        ));
        let locks: Vec<String> = self
            .locks
            .as_slice()
            .iter()
            .map(|l| {
                format!(
                    "{} ({}, {})",
                    lock_token(l.origin, l.size),
                    side_name(l.side()),
                    if l.uniform { "uniform" } else { "mixed" }
                )
            })
            .collect();
        lines.push(format!(
            "locks: {}",
            if locks.is_empty() {
                "-".to_string()
            } else {
                locks.join(", ")
            }
        ));
        let prot: Vec<String> = Squares(self.protected).map(square_name).collect();
        lines.push(format!(
            "protected: {}",
            if prot.is_empty() {
                "-".to_string()
            } else {
                prot.join(", ")
            }
        ));
        lines.join("\n")
    }
}
