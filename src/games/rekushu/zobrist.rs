//! Zobrist keys, generated at compile time from `SplitMix64` with a fixed seed, so
//! every build hashes a position the same way.
//!
//! The hash covers everything that affects legality or the result: stones by
//! colour, claimed tiles by owner, the side to move, and each player's mirror
//! state (the vertex of its last placement and that placement's mirror-type set).
//! Points are indexed `y * 26 + x` for vertices and tiles alike.

use crate::core::SplitMix64;

use super::grid::MAX;

pub const POINTS: usize = MAX * MAX;

pub struct Keys {
    pub stone: [[u64; POINTS]; 2],
    pub tile: [[u64; POINTS]; 2],
    /// Indexed by vertex; index `POINTS` (no placement yet) is zero.
    pub last: [[u64; POINTS + 1]; 2],
    /// Indexed by the mirror-type set (3 bits); the empty set is zero.
    pub types: [[u64; 8]; 2],
    pub side: u64,
}

const fn build() -> Keys {
    let mut rng = SplitMix64::new(0x5245_4B55_5348_5521);
    let mut k = Keys {
        stone: [[0; POINTS]; 2],
        tile: [[0; POINTS]; 2],
        last: [[0; POINTS + 1]; 2],
        types: [[0; 8]; 2],
        side: 0,
    };
    let mut s = 0;
    while s < 2 {
        let mut i = 0;
        while i < POINTS {
            k.stone[s][i] = rng.next();
            k.tile[s][i] = rng.next();
            k.last[s][i] = rng.next();
            i += 1;
        }
        let mut t = 1;
        while t < 8 {
            k.types[s][t] = rng.next();
            t += 1;
        }
        s += 1;
    }
    k.side = rng.next();
    k
}

pub static KEYS: Keys = build();

#[inline]
pub fn index(x: usize, y: usize) -> usize {
    y * MAX + x
}
