//! The mirror rule (rules.md §1.5): which mirror types a placement has, relative to the
//! opponent's most recent placement, and which vertices the side to move may not
//! play because they would repeat a type of its own previous placement.
//!
//! A type set is 3 bits: `H` (across the horizontal axis), `V` (across the vertical
//! axis), `R` (180° rotation). Since "v has type t" means v is *the* t-image of the
//! opponent's last placement, the forbidden vertices are at most three points: the
//! t-images for each t in the mover's previous set.

pub type Types = u8;

pub const H: Types = 1;
pub const V: Types = 2;
pub const R: Types = 4;

/// No placement recorded yet (a player's last-placement slot before its first move).
pub const NONE: u16 = u16::MAX;

/// The t-image of (ox, oy) on an n×n board, 0-based.
#[inline]
pub fn image(t: Types, ox: usize, oy: usize, n: usize) -> (usize, usize) {
    match t {
        H => (ox, n - 1 - oy),
        V => (n - 1 - ox, oy),
        _ => (n - 1 - ox, n - 1 - oy),
    }
}

/// The set of mirror types a placement at (x, y) has, given the opponent's last
/// placement (`NONE` when it has not placed yet).
#[inline]
pub fn types_of(x: usize, y: usize, opp_last: u16, n: usize) -> Types {
    if opp_last == NONE {
        return 0;
    }
    let (ox, oy) = unpack(opp_last);
    let mut t = 0;
    for ty in [H, V, R] {
        if image(ty, ox, oy, n) == (x, y) {
            t |= ty;
        }
    }
    t
}

#[inline]
pub fn pack(x: usize, y: usize) -> u16 {
    (y * 32 + x) as u16
}

#[inline]
pub fn unpack(v: u16) -> (usize, usize) {
    ((v % 32) as usize, (v / 32) as usize)
}

/// `"h, v"`-style text of a type set (lower case, in h, v, r order).
pub fn describe(t: Types) -> String {
    let mut parts = Vec::new();
    for (ty, name) in [(H, "h"), (V, "v"), (R, "r")] {
        if t & ty != 0 {
            parts.push(name);
        }
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_examples_14() {
        // J10 -> E10 is v; C6 -> C9 is h, C6 -> L6 is v (0-based: J=9, E=4, C=2, L=11).
        assert_eq!(types_of(4, 9, pack(9, 9), 14), V);
        assert_eq!(types_of(2, 8, pack(2, 5), 14), H);
        assert_eq!(types_of(11, 5, pack(2, 5), 14), V);
        assert_eq!(types_of(11, 8, pack(2, 5), 14), R);
        assert_eq!(types_of(5, 5, pack(2, 5), 14), 0);
        assert_eq!(types_of(5, 5, NONE, 14), 0);
    }

    #[test]
    fn odd_board_middle_lines_match_several_types() {
        // 9×9, centre E5 = (4, 4) mirrors to itself in all three ways.
        assert_eq!(types_of(4, 4, pack(4, 4), 9), H | V | R);
        // On the middle column, the v-image is the point itself and h = r.
        assert_eq!(types_of(4, 6, pack(4, 2), 9), H | R);
        assert_eq!(describe(H | R), "h, r");
    }
}
