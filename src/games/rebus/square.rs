//! Squares and square sets of the 9×9 board.
//!
//! A square is an index `rank * 9 + file` (0..81, `a1` = 0, `i9` = 80); a set of
//! squares is a `u128` with bit `sq` set. Every set this module returns stays within
//! [`ALL`] (bits 81..128 are always clear).

use super::SQUARES;

/// A square index, `rank * 9 + file`, both 0-based.
pub type Square = u8;

/// A set of squares, one bit per square.
pub type SquareSet = u128;

pub const ALL: SquareSet = (1u128 << SQUARES) - 1;

const fn file_mask(file: u32) -> SquareSet {
    let mut m = 0u128;
    let mut r = 0;
    while r < 9 {
        m |= 1u128 << (r * 9 + file);
        r += 1;
    }
    m
}

pub const FILE_A: SquareSet = file_mask(0);
pub const FILE_H: SquareSet = file_mask(7);
pub const FILE_I: SquareSet = file_mask(8);

#[inline]
pub const fn bit(sq: Square) -> SquareSet {
    1u128 << sq
}

#[inline]
pub const fn file_of(sq: Square) -> u8 {
    sq % 9
}

#[inline]
pub const fn rank_of(sq: Square) -> u8 {
    sq / 9
}

#[inline]
pub const fn make_square(file: u8, rank: u8) -> Square {
    rank * 9 + file
}

/// The orthogonal neighbours of every square in `s`.
#[inline]
pub const fn orth(s: SquareSet) -> SquareSet {
    let n = (s << 9) & ALL;
    let so = s >> 9;
    let e = (s & !FILE_I) << 1;
    let w = (s & !FILE_A) >> 1;
    n | so | e | w
}

/// `s` together with every square at king-distance 1 from it.
#[inline]
pub const fn dilate(s: SquareSet) -> SquareSet {
    let h = s | ((s & !FILE_I) << 1) | ((s & !FILE_A) >> 1);
    (h | (h << 9) | (h >> 9)) & ALL
}

/// Squares reached by attackers on `s`: king-distance 1, or up to 2 for Stars.
#[inline]
pub const fn reach(s: SquareSet, star: bool) -> SquareSet {
    let d = dilate(s);
    if star { dilate(d) } else { d }
}

/// Iterates over the squares of a set in index order.
pub struct Squares(pub SquareSet);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as Square;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

/// The name of a square, lower case: `e5`.
pub fn square_name(sq: Square) -> String {
    let mut s = String::with_capacity(2);
    s.push((b'a' + file_of(sq)) as char);
    s.push((b'1' + rank_of(sq)) as char);
    s
}

/// Parses a lower-case square name (`e5`); `None` when it is not one.
pub fn parse_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let (f, r) = (b[0], b[1]);
    if !(b'a'..=b'i').contains(&f) || !(b'1'..=b'9').contains(&r) {
        return None;
    }
    Some(make_square(f - b'a', r - b'1'))
}

/// The order of square names as strings (file first, then rank), used to find
/// the canonical token of a move.
#[inline]
pub const fn string_key(sq: Square) -> u8 {
    file_of(sq) * 9 + rank_of(sq)
}

/// The squares of `s` sorted in string order of their names.
pub fn sorted_by_name(s: SquareSet) -> impl Iterator<Item = Square> {
    let mut v: Vec<Square> = Squares(s).collect();
    v.sort_by_key(|&q| string_key(q));
    v.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_respect_edges() {
        let a1 = bit(0);
        assert_eq!(orth(a1), bit(1) | bit(9));
        let i9 = bit(80);
        assert_eq!(orth(i9), bit(79) | bit(71));
        assert_eq!(dilate(bit(make_square(4, 4))).count_ones(), 9);
        assert_eq!(reach(bit(make_square(4, 4)), true).count_ones(), 25);
        assert_eq!(reach(bit(0), true).count_ones(), 9);
        assert_eq!(square_name(make_square(4, 4)), "e5");
        assert_eq!(parse_square("i9"), Some(80));
        assert_eq!(parse_square("j1"), None);
    }
}
