//! `showboard`: a text picture of the position.
//!
//! Layout: column letters above and below, row numbers on both sides, row N at
//! the top. Vertices show `X` (Black stone), `O` (White stone) or `.` (empty).
//! Between two vertices of a row, the character right of vertex (x, y) is tile
//! (x, y) — the tile to the right of and above that vertex: `b` if Black claimed
//! it, `w` if White did, a space if unclaimed. Below the grid: the side to move,
//! tile counts, each player's last placement with its mirror types, and the
//! vertices the side to move may not play because of the mirror rule.

use crate::core::id::GameText;
use crate::core::{Game, Side, Status};

use super::board::Board;
use super::mirror;
use super::notation::vertex_text;

impl Board {
    /// A multi-line picture (no empty lines, no trailing newline).
    pub fn showboard(&self) -> String {
        self.showboard_named(&|x| vertex_text(x, 0)[..1].to_string())
    }

    /// [`Board::showboard`] with the columns named by `column` (0-based
    /// index to name), in the labels and the vertices below the grid: a GUI
    /// whose names differ from the rules' (GoGui's have no `I`).
    pub fn showboard_named(&self, column: &dyn Fn(usize) -> String) -> String {
        let n = self.n;
        let vertex_text = |x: usize, y: usize| format!("{}{}", column(x), y + 1);
        let mut lines = Vec::with_capacity(n + 8);
        let letters: String = (0..n).map(column).collect::<Vec<_>>().join(" ");
        lines.push(format!("    {letters}"));
        for y in (0..n).rev() {
            let mut row = format!("{:>2}  ", y + 1);
            for x in 0..n {
                row.push(match self.stone_at(x, y) {
                    Some(Side::First) => 'X',
                    Some(Side::Second) => 'O',
                    None => '.',
                });
                if x + 1 < n {
                    row.push(match self.tile_owner(x, y) {
                        Some(Side::First) => 'b',
                        Some(Side::Second) => 'w',
                        None => ' ',
                    });
                }
            }
            row.push_str(&format!("  {}", y + 1));
            lines.push(row);
        }
        lines.push(format!("    {letters}"));
        let [b, w] = self.counts;
        match self.status() {
            Status::Ongoing => lines.push(format!(
                "{} to move (ply {})",
                Board::side_name(self.side),
                self.ply()
            )),
            Status::Won(s) => lines.push(format!(
                "Game over: {} wins (ply {})",
                Board::side_name(s),
                self.ply()
            )),
            Status::Draw => lines.push(format!("Game over: draw (ply {})", self.ply())),
        }
        lines.push(format!("Tiles: Black {b}, White {w}"));
        for s in Side::BOTH {
            match self.last_placement(s) {
                None => lines.push(format!("{} last placed: none", Board::side_name(s))),
                Some(((x, y), t)) => {
                    let types = if t == 0 {
                        "none".to_string()
                    } else {
                        mirror::describe(t)
                    };
                    lines.push(format!(
                        "{} last placed: {} (mirror types: {types})",
                        Board::side_name(s),
                        vertex_text(x, y)
                    ));
                }
            }
        }
        let me = self.side.index();
        let forbid = self.types[me];
        if let (Some(((ox, oy), _)), true) = (self.last_placement(self.side.opp()), forbid != 0) {
            let mut banned = Vec::new();
            for t in [mirror::H, mirror::V, mirror::R] {
                if forbid & t != 0 {
                    let (x, y) = mirror::image(t, ox, oy, n);
                    banned.push(format!("{} ({})", vertex_text(x, y), mirror::describe(t)));
                }
            }
            lines.push(format!(
                "Mirror ban for {}: {}",
                Board::side_name(self.side),
                banned.join(", ")
            ));
        }
        lines.join("\n")
    }
}
