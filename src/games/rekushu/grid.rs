//! `Grid`: a bitboard of up to 26×26 points stored as one `u32` mask per line.
//!
//! Bit `x` of `rows[y]` is point (x, y), 0-based. The same type holds the transposed
//! occupancy (bit `y` of `rows[x]`), so "nearest stone above" is a row query too.
//! Bits at or beyond the board size are always zero.

/// The largest board side; a line fits in a `u32`.
pub const MAX: usize = 26;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    pub rows: [u32; MAX],
}

impl Default for Grid {
    fn default() -> Self {
        Grid { rows: [0; MAX] }
    }
}

impl Grid {
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> bool {
        self.rows[y] >> x & 1 != 0
    }

    #[inline]
    pub fn set(&mut self, x: usize, y: usize) {
        self.rows[y] |= 1 << x;
    }

    #[inline]
    pub fn clear(&mut self, x: usize, y: usize) {
        self.rows[y] &= !(1 << x);
    }

    pub fn count(&self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }
}

/// Bits `lo..=hi` set (requires `lo <= hi < 32`).
#[inline]
pub fn span(lo: usize, hi: usize) -> u32 {
    (u32::MAX >> (31 - hi)) & (u32::MAX << lo)
}

/// Bits `lo..hi` set; empty when `lo >= hi`.
#[inline]
pub fn span_open(lo: usize, hi: usize) -> u32 {
    if lo >= hi { 0 } else { span(lo, hi - 1) }
}

/// The lowest set bit of `line` strictly above `i`, if any.
#[inline]
pub fn next_above(line: u32, i: usize) -> Option<usize> {
    let m = (line >> i) >> 1;
    if m == 0 {
        None
    } else {
        Some(i + 1 + m.trailing_zeros() as usize)
    }
}

/// The highest set bit of `line` strictly below `i`, if any.
#[inline]
pub fn next_below(line: u32, i: usize) -> Option<usize> {
    let m = line & ((1u32 << i) - 1);
    if m == 0 {
        None
    } else {
        Some(31 - m.leading_zeros() as usize)
    }
}

/// Iterates the set bits of a line, lowest first.
#[inline]
pub fn bits(mut line: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if line == 0 {
            None
        } else {
            let i = line.trailing_zeros() as usize;
            line &= line - 1;
            Some(i)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_and_neighbours() {
        assert_eq!(span(0, 0), 1);
        assert_eq!(span(2, 4), 0b11100);
        assert_eq!(span(0, 31), u32::MAX);
        assert_eq!(span_open(3, 3), 0);
        assert_eq!(span_open(1, 3), 0b110);
        let line = 0b1001_0010;
        assert_eq!(next_above(line, 1), Some(4));
        assert_eq!(next_above(line, 7), None);
        assert_eq!(next_above(1 << 25, 25), None);
        assert_eq!(next_below(line, 4), Some(1));
        assert_eq!(next_below(line, 1), None);
        assert_eq!(next_below(line, 0), None);
        assert_eq!(bits(line).collect::<Vec<_>>(), vec![1, 4, 7]);
    }
}
