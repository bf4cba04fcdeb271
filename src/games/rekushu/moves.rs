//! `Move` and `Rect`: a placement plus an optional claimed rectangle.
//!
//! Coordinates are 0-based (x = column, y = row from the bottom). A `Rect` is
//! always normalised: `x1 < x2`, `y1 < y2`, (x1, y1) the lower-left corner.

/// A rectangle to claim, by its lower-left and upper-right corners.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rect {
    pub x1: u8,
    pub y1: u8,
    pub x2: u8,
    pub y2: u8,
}

impl Rect {
    /// A placeholder (a degenerate rectangle at A1) for filling buffers.
    pub const ZERO: Rect = Rect {
        x1: 0,
        y1: 0,
        x2: 0,
        y2: 0,
    };

    /// The rectangle with opposite corners (ax, ay) and (bx, by), in any order;
    /// `None` when they share a row or a column.
    pub fn from_corners(ax: usize, ay: usize, bx: usize, by: usize) -> Option<Rect> {
        if ax == bx || ay == by || ax.max(bx) > 255 || ay.max(by) > 255 {
            return None;
        }
        Some(Rect {
            x1: ax.min(bx) as u8,
            y1: ay.min(by) as u8,
            x2: ax.max(bx) as u8,
            y2: ay.max(by) as u8,
        })
    }

    /// The four corners: lower-left, lower-right, upper-left, upper-right.
    #[inline]
    pub fn corners(self) -> [(usize, usize); 4] {
        let (x1, y1, x2, y2) = (
            self.x1 as usize,
            self.y1 as usize,
            self.x2 as usize,
            self.y2 as usize,
        );
        [(x1, y1), (x2, y1), (x1, y2), (x2, y2)]
    }

    /// Whether vertex (x, y) lies on the rectangle's boundary or inside it.
    #[inline]
    pub fn covers(self, x: usize, y: usize) -> bool {
        (self.x1 as usize..=self.x2 as usize).contains(&x)
            && (self.y1 as usize..=self.y2 as usize).contains(&y)
    }

    /// The number of tiles inside.
    #[inline]
    pub fn area(self) -> u32 {
        (self.x2 - self.x1) as u32 * (self.y2 - self.y1) as u32
    }
}

/// A Rekushu move: place a stone at (x, y), then optionally claim `claim`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    x: u8,
    y: u8,
    claim: Option<Rect>,
}

impl Move {
    /// A placement at 0-based (x, y), with no claim.
    pub fn place(x: usize, y: usize) -> Move {
        Move {
            x: x as u8,
            y: y as u8,
            claim: None,
        }
    }

    /// A placement at (x, y) followed by claiming `rect`.
    pub fn with_claim(x: usize, y: usize, rect: Rect) -> Move {
        Move {
            x: x as u8,
            y: y as u8,
            claim: Some(rect),
        }
    }

    /// The placement vertex, 0-based (column, row).
    #[inline]
    pub fn vertex(self) -> (usize, usize) {
        (self.x as usize, self.y as usize)
    }

    #[inline]
    pub fn claim(self) -> Option<Rect> {
        self.claim
    }
}
