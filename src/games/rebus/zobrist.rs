//! Zobrist keys, built at compile time from [`SplitMix64`] with a fixed seed so
//! every build hashes alike.
//!
//! The hash covers everything that affects legality or the result: visible
//! tiles, history boxes, locks (origin and size; owner and uniformity follow
//! from the tiles), protected squares, the side to move and a yield. It does not
//! cover the ply counter or the turn limit.

use super::SQUARES;
use super::square::Square;
use super::tile::{NUM_SYMBOLS, Tile};
use crate::core::{Side, SplitMix64};

const SEED: u64 = 0x5245_4255_535F_5A42; // "REBUS_ZB"

pub struct Keys {
    pub visible: [[u64; 3 * NUM_SYMBOLS]; SQUARES],
    pub buried: [[u64; 3 * NUM_SYMBOLS]; SQUARES],
    pub lock: [[u64; 2]; SQUARES],
    pub protected: [u64; SQUARES],
    pub blue_to_move: u64,
    pub yielded: [u64; 2],
}

const fn build() -> Keys {
    let mut rng = SplitMix64::new(SEED);
    let mut k = Keys {
        visible: [[0; 3 * NUM_SYMBOLS]; SQUARES],
        buried: [[0; 3 * NUM_SYMBOLS]; SQUARES],
        lock: [[0; 2]; SQUARES],
        protected: [0; SQUARES],
        blue_to_move: 0,
        yielded: [0; 2],
    };
    let mut sq = 0;
    while sq < SQUARES {
        let mut i = 0;
        while i < 3 * NUM_SYMBOLS {
            k.visible[sq][i] = rng.next();
            k.buried[sq][i] = rng.next();
            i += 1;
        }
        k.lock[sq][0] = rng.next();
        k.lock[sq][1] = rng.next();
        k.protected[sq] = rng.next();
        sq += 1;
    }
    k.blue_to_move = rng.next();
    k.yielded[0] = rng.next();
    k.yielded[1] = rng.next();
    k
}

pub static KEYS: Keys = build();

#[inline]
fn tile_index(t: Tile) -> usize {
    t.owner.index() * NUM_SYMBOLS + t.symbol as usize
}

#[inline]
pub fn visible(sq: Square, t: Tile) -> u64 {
    KEYS.visible[sq as usize][tile_index(t)]
}

#[inline]
pub fn buried(sq: Square, t: Tile) -> u64 {
    KEYS.buried[sq as usize][tile_index(t)]
}

#[inline]
pub fn lock(origin: Square, size: u8) -> u64 {
    KEYS.lock[origin as usize][(size as usize).saturating_sub(2) & 1]
}

#[inline]
pub fn protected(sq: Square) -> u64 {
    KEYS.protected[sq as usize]
}

#[inline]
pub fn side(side: Side) -> u64 {
    match side {
        Side::First => 0,
        Side::Second => KEYS.blue_to_move,
    }
}

#[inline]
pub fn yielded(side: Side) -> u64 {
    KEYS.yielded[side.index()]
}
