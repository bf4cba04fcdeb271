//! Claimable rectangles (rules.md §1.4), found in O(stones) without trying stone
//! quadruples.
//!
//! A claimable rectangle has no other stone on its edges, so from its lower-left
//! corner c the lower-right corner is the nearest stone right of c in its row, the
//! upper-left is the nearest stone above c in its column, and the upper-right is
//! fixed by those two. Each stone is therefore the lower-left corner of at most
//! one candidate. The same reasoning from a new stone v gives at most one
//! candidate per corner role of v (lower-left, lower-right, upper-left, upper-right).

use crate::core::Side;

use super::board::Board;
use super::grid::{next_above, next_below, span};
use super::moves::Rect;

/// The most rectangles one side can have to claim: one per stone.
pub(crate) const MAX_CLAIMS: usize = Board::MAX_POINTS;

/// A buffer for [`Board::claimable_rects`].
pub(crate) const fn claim_buffer() -> [Rect; MAX_CLAIMS] {
    [Rect::ZERO; MAX_CLAIMS]
}

impl Board {
    /// Whether `side` may claim `r`, treating `extra` (an empty vertex that is one
    /// of `r`'s corners) as a stone of `side`: corners are `side`'s, no other
    /// stone on the edges or inside, no claimed tile inside.
    #[inline]
    pub(crate) fn claimable_with(
        &self,
        side: Side,
        r: Rect,
        extra: Option<(usize, usize)>,
    ) -> bool {
        let own = &self.stones[side.index()];
        for (cx, cy) in r.corners() {
            if !own.get(cx, cy) && extra != Some((cx, cy)) {
                return false;
            }
        }
        self.clear_inside(r)
    }

    /// No stone on `r`'s edges or inside other than at its corners, and no
    /// claimed tile inside. Corners are not checked.
    #[inline]
    pub(crate) fn clear_inside(&self, r: Rect) -> bool {
        let (x1, y1, x2, y2) = (r.x1 as usize, r.y1 as usize, r.x2 as usize, r.y2 as usize);
        let inner = if x2 > x1 + 1 { span(x1 + 1, x2 - 1) } else { 0 };
        if self.occ.rows[y1] & inner != 0 || self.occ.rows[y2] & inner != 0 {
            return false;
        }
        let closed = span(x1, x2);
        for y in y1 + 1..y2 {
            if self.occ.rows[y] & closed != 0 {
                return false;
            }
        }
        let tiles = span(x1, x2 - 1);
        (y1..y2).all(|y| self.claimed.rows[y] & tiles == 0)
    }

    /// The candidate rectangle whose lower-left corner is the stone at (x, y).
    #[inline]
    fn candidate_from_lower_left(&self, side: Side, x: usize, y: usize) -> Option<Rect> {
        let x2 = next_above(self.occ.rows[y], x)?;
        let y2 = next_above(self.occ_cols.rows[x], y)?;
        let r = Rect {
            x1: x as u8,
            y1: y as u8,
            x2: x2 as u8,
            y2: y2 as u8,
        };
        self.claimable_with(side, r, None).then_some(r)
    }

    /// Every rectangle `side` may claim now; returns how many were written.
    /// `out` is a [`claim_buffer`] (one claim per stone at most).
    pub(crate) fn claimable_rects(&self, side: Side, out: &mut [Rect; MAX_CLAIMS]) -> usize {
        let mut k = 0;
        self.for_each_claimable(side, |r| {
            out[k] = r;
            k += 1;
        });
        k
    }

    /// Calls `f` for every rectangle `side` may claim now, in the order of
    /// [`Board::claimable_rects`] (lower-left corners by row, then column),
    /// without a buffer.
    #[inline]
    pub(crate) fn for_each_claimable(&self, side: Side, mut f: impl FnMut(Rect)) {
        let own = &self.stones[side.index()];
        for y in 0..self.n {
            let mut line = own.rows[y];
            while line != 0 {
                let x = line.trailing_zeros() as usize;
                line &= line - 1;
                if let Some(r) = self.candidate_from_lower_left(side, x, y) {
                    f(r);
                }
            }
        }
    }

    /// The rectangles that become claimable for `side` by placing its stone on
    /// the empty vertex (x, y) — all of them have (x, y) as a corner. Calls `f`
    /// for each (at most four).
    #[inline]
    pub(crate) fn new_rects_at(&self, side: Side, x: usize, y: usize, mut f: impl FnMut(Rect)) {
        let own = &self.stones[side.index()];
        let row = self.occ.rows[y];
        let col = self.occ_cols.rows[x];
        // The neighbours along v's row and column are the adjacent corners; keep
        // only those of the mover's colour before checking whole rectangles.
        let right = next_above(row, x).filter(|&ax| own.get(ax, y));
        let left = next_below(row, x).filter(|&ax| own.get(ax, y));
        if right.is_none() && left.is_none() {
            return;
        }
        let up = next_above(col, y).filter(|&ay| own.get(x, ay));
        let down = next_below(col, y).filter(|&ay| own.get(x, ay));
        let extra = Some((x, y));
        let mut try_rect = |ax: Option<usize>, ay: Option<usize>| {
            if let (Some(ax), Some(ay)) = (ax, ay)
                && own.get(ax, ay)
                && let Some(r) = Rect::from_corners(x, y, ax, ay)
                && self.claimable_with(side, r, extra)
            {
                f(r);
            }
        };
        try_rect(right, up);
        try_rect(left, up);
        try_rect(right, down);
        try_rect(left, down);
    }
}
