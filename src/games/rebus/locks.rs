//! Locked groups (rules.md §2.6): block and outside-edge tables, the lock list,
//! and the break test run after every turn.
//!
//! A lock is stored as (origin, size, owner, uniform). Owner and uniformity
//! cannot change while the block is locked (locked squares are never captured),
//! so they are fixed when the lock is made. Locks are disjoint and kept sorted by
//! origin square so that equal positions compare equal.

use super::SQUARES;
use super::square::{ALL, Square, SquareSet, file_of, make_square, rank_of};
use crate::core::Side;

/// One locked block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Lock {
    pub origin: Square,
    pub size: u8,
    /// Index of the owning side (0 Red, 1 Blue).
    pub owner: u8,
    pub uniform: bool,
}

impl Lock {
    #[inline]
    pub fn side(self) -> Side {
        if self.owner == 0 {
            Side::First
        } else {
            Side::Second
        }
    }

    #[inline]
    pub fn mask(self) -> SquareSet {
        block_mask(self.origin, self.size)
    }

    /// Edges that must be covered to break this lock.
    #[inline]
    pub const fn threshold(self) -> u32 {
        break_threshold(self.uniform)
    }
}

#[inline]
pub const fn break_threshold(uniform: bool) -> u32 {
    if uniform { 3 } else { 2 }
}

/// Whether a k×k block with lower-left `origin` lies on the board.
#[inline]
pub const fn fits(origin: Square, size: u8) -> bool {
    (size == 2 || size == 3)
        && (origin as usize) < SQUARES
        && file_of(origin) + size <= 9
        && rank_of(origin) + size <= 9
}

const fn build_block(origin: u8, size: u8) -> SquareSet {
    let mut m = 0u128;
    let (f0, r0) = (origin % 9, origin / 9);
    let mut dr = 0;
    while dr < size {
        let mut df = 0;
        while df < size {
            if f0 + df < 9 && r0 + dr < 9 {
                m |= 1u128 << make_square(f0 + df, r0 + dr);
            }
            df += 1;
        }
        dr += 1;
    }
    m & ALL
}

/// The four outside edges (below, above, left, right); 0 for a side on the border.
const fn build_edges(origin: u8, size: u8) -> [SquareSet; 4] {
    let (f0, r0) = (origin % 9, origin / 9);
    let mut e = [0u128; 4];
    let mut i = 0;
    while i < size {
        if r0 > 0 {
            e[0] |= 1u128 << make_square(f0 + i, r0 - 1);
        }
        if r0 + size < 9 {
            e[1] |= 1u128 << make_square(f0 + i, r0 + size);
        }
        if f0 > 0 {
            e[2] |= 1u128 << make_square(f0 - 1, r0 + i);
        }
        if f0 + size < 9 {
            e[3] |= 1u128 << make_square(f0 + size, r0 + i);
        }
        i += 1;
    }
    e
}

struct Tables {
    block: [[SquareSet; SQUARES]; 2],
    edges: [[[SquareSet; 4]; SQUARES]; 2],
}

const fn build_tables() -> Tables {
    let mut t = Tables {
        block: [[0; SQUARES]; 2],
        edges: [[[0; 4]; SQUARES]; 2],
    };
    let mut s = 0;
    while s < 2 {
        let size = s as u8 + 2;
        let mut o = 0;
        while o < SQUARES {
            if fits(o as u8, size) {
                t.block[s][o] = build_block(o as u8, size);
                t.edges[s][o] = build_edges(o as u8, size);
            }
            o += 1;
        }
        s += 1;
    }
    t
}

static TABLES: Tables = build_tables();

/// The squares of a block (which must fit).
#[inline]
pub fn block_mask(origin: Square, size: u8) -> SquareSet {
    TABLES.block[(size as usize - 2) & 1][origin as usize]
}

/// How many outside edges of the block `other` (the opponent's squares) covers.
#[inline]
pub fn covered_edges(origin: Square, size: u8, other: SquareSet) -> u32 {
    let mut n = 0;
    for &e in &TABLES.edges[(size as usize - 2) & 1][origin as usize] {
        if e != 0 && e & !other == 0 {
            n += 1;
        }
    }
    n
}

/// At most 20 disjoint blocks of four or more squares fit on 81 squares.
pub const MAX_LOCKS: usize = 20;

/// The locks of a position, sorted by origin, unused slots at their default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Locks {
    items: [Lock; MAX_LOCKS],
    len: u8,
}

impl Locks {
    #[inline]
    pub fn as_slice(&self) -> &[Lock] {
        &self.items[..self.len as usize]
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Inserts in origin order. The caller guarantees disjointness (so there is room).
    pub fn insert(&mut self, lock: Lock) {
        let n = self.len as usize;
        if n >= MAX_LOCKS {
            return;
        }
        let mut i = n;
        while i > 0 && self.items[i - 1].origin > lock.origin {
            self.items[i] = self.items[i - 1];
            i -= 1;
        }
        self.items[i] = lock;
        self.len += 1;
    }

    /// Keeps the locks for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Lock) -> bool) {
        let n = self.len as usize;
        let mut w = 0;
        for r in 0..n {
            let l = self.items[r];
            if keep(&l) {
                self.items[w] = l;
                w += 1;
            }
        }
        for slot in &mut self.items[w..n] {
            *slot = Lock::default();
        }
        self.len = w as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_on_border_are_absent() {
        // a1L2: only the edge above and the edge to the right exist.
        let e = build_edges(0, 2);
        assert_eq!(e[0], 0);
        assert_eq!(e[2], 0);
        assert_eq!(e[1].count_ones(), 2);
        assert_eq!(e[3].count_ones(), 2);
        assert_eq!(block_mask(make_square(2, 2), 3).count_ones(), 9);
        assert!(!fits(make_square(7, 0), 3));
        assert!(fits(make_square(6, 6), 3));
    }
}
