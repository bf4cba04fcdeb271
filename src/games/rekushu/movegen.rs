//! Legal move generation and counting (rules.md §1.3–§1.5).
//!
//! The claimable rectangles of the side to move are computed once. For each legal
//! placement v, the claims available are those old rectangles that v does not
//! touch (a stone on an edge or inside breaks a rectangle) plus the new ones with
//! v as a corner. Moves are each placement alone, then each placement with each
//! available claim. Counting uses the same decomposition without building a list.

use super::board::Board;
use super::claims::claim_buffer;
use super::grid::{bits, span};
use super::moves::Move;

impl Board {
    pub(crate) fn generate(&self, moves: &mut Vec<Move>) {
        let rows = self.placement_rows();
        if rows.iter().all(|&r| r == 0) {
            return;
        }
        let side = self.side;
        let mut old = claim_buffer();
        let k = self.claimable_rects(side, &mut old);
        let old = &old[..k];
        let corner_cols = self.own_columns();
        for (y, &line) in rows.iter().enumerate().take(self.n) {
            let corners = if self.stones[side.index()].rows[y] != 0 {
                line & corner_cols
            } else {
                0
            };
            for x in bits(line) {
                moves.push(Move::place(x, y));
                for &r in old {
                    if !r.covers(x, y) {
                        moves.push(Move::with_claim(x, y, r));
                    }
                }
                if corners >> x & 1 != 0 {
                    self.new_rects_at(side, x, y, |r| moves.push(Move::with_claim(x, y, r)));
                }
            }
        }
    }

    pub(crate) fn count(&self) -> u64 {
        let rows = self.placement_rows();
        let placements: u64 = rows.iter().map(|r| r.count_ones() as u64).sum();
        if placements == 0 {
            return 0;
        }
        let side = self.side;
        let mut old = claim_buffer();
        let k = self.claimable_rects(side, &mut old);
        // Each old rectangle goes with every placement that does not touch it.
        let mut total = placements * (1 + k as u64);
        for &r in &old[..k] {
            let mask = span(r.x1 as usize, r.x2 as usize);
            for &line in &rows[r.y1 as usize..=r.y2 as usize] {
                total -= (line & mask).count_ones() as u64;
            }
        }
        let corner_cols = self.own_columns();
        for (y, &line) in rows.iter().enumerate().take(self.n) {
            if self.stones[side.index()].rows[y] == 0 {
                continue;
            }
            for x in bits(line & corner_cols) {
                self.new_rects_at(side, x, y, |_| total += 1);
            }
        }
        total
    }

    /// Columns holding a stone of the side to move. A new stone can only be the
    /// corner of a claim if its row and its column both hold another own stone.
    #[inline]
    fn own_columns(&self) -> u32 {
        self.stones[self.side.index()]
            .rows
            .iter()
            .fold(0, |acc, &r| acc | r)
    }
}
