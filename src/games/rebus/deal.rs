//! Starting positions: the standard setup (rules.md §2.2) and the seeded,
//! colour-fair random deal.
//!
//! **Random deal** (`Position::random(seed)`), exactly:
//! 1. Let `rng = SplitMix64::new(seed)`; `below(n)` draws a uniform integer in
//!    `0..n` by rejection.
//! 2. The lower list has 36 tiles in this order: Red's 27 (three each of S, W, P,
//!    T, O, Q, G, J, K, in that symbol order: `rS rS rS rW rW rW … rK rK rK`),
//!    then nine Green tiles `gH gH gH gF gF gF gX gX gX`.
//! 3. Shuffle it by Fisher–Yates: for i from 35 down to 1, j = `below(i + 1)`,
//!    swap items i and j.
//! 4. Place it on ranks 1–4 in square order a1, b1, …, i1, a2, …, i4.
//! 5. Ranks 6–9 are the mirror of ranks 1–4 across rank 5: the square on file f,
//!    rank r (r = 6..9) gets the tile of file f, rank 10 − r with Red turned into
//!    Blue (same symbol; Green stays Green).
//! 6. The middle list `gH gH gH gF gF gF gX gX gX` is shuffled the same way with
//!    the same `rng` (i from 8 down to 1) and placed on a5, b5, …, i5.
//!
//! Red moves, no locks, nothing protected, empty history boxes, turn limit 400.
//! Each side has three of each player symbol and Green nine each of H, F, X, as
//! in rules.md §2.1; Blue's half is Red's reflected, so neither side is favoured
//! except by moving first. The same seed gives the same deal on every machine.

use super::SQUARES;
use super::position::Position;
use super::square::make_square;
use super::tile::{NUM_PLAYER_SYMBOLS, Owner, Tile};
use crate::core::{Side, SplitMix64};

/// The standard setup as a position string (rules.md §2.9).
pub const STANDARD: &str = "bSbWbPbTbObQbGbJbK/bTbObQbGbJbKbSbWbP/bGbJbKbSbWbPbTbObQ/gFgXgHgFgXgHgFgXgH/gHgFgXgHgFgXgHgFgX/gFgXgHgFgXgHgFgXgH/rGrJrKrSrWrPrTrOrQ/rTrOrQrGrJrKrSrWrP/rSrWrPrTrOrQrGrJrK red - -";

const GREEN_NINE: [Tile; 9] = [
    Tile::new(Owner::Green, 9),
    Tile::new(Owner::Green, 9),
    Tile::new(Owner::Green, 9),
    Tile::new(Owner::Green, 10),
    Tile::new(Owner::Green, 10),
    Tile::new(Owner::Green, 10),
    Tile::new(Owner::Green, 11),
    Tile::new(Owner::Green, 11),
    Tile::new(Owner::Green, 11),
];

fn shuffle(rng: &mut SplitMix64, items: &mut [Tile]) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

impl Position {
    /// The standard setup (rules.md §2.2), Red to move, turn limit 400.
    pub fn standard() -> Position {
        match Position::from_position_string(STANDARD) {
            Ok(p) => p,
            // The constant is checked by tests; this arm is unreachable in practice.
            Err(e) => unreachable!("standard setup string is invalid: {e}"),
        }
    }

    /// The seeded, colour-fair random deal described in this module's doc.
    pub fn random(seed: u64) -> Position {
        let mut rng = SplitMix64::new(seed);
        let mut lower: Vec<Tile> = Vec::with_capacity(36);
        for s in 0..NUM_PLAYER_SYMBOLS as u8 {
            for _ in 0..3 {
                lower.push(Tile::new(Owner::Red, s));
            }
        }
        lower.extend_from_slice(&GREEN_NINE);
        shuffle(&mut rng, &mut lower);
        let mut middle = GREEN_NINE;
        shuffle(&mut rng, &mut middle);
        let mut visible = [Tile::new(Owner::Green, 9); SQUARES];
        for (i, &t) in lower.iter().enumerate() {
            let (file, rank) = ((i % 9) as u8, (i / 9) as u8);
            visible[make_square(file, rank) as usize] = t;
            let mirrored = if t.owner == Owner::Red {
                Tile::new(Owner::Blue, t.symbol)
            } else {
                t
            };
            visible[make_square(file, 8 - rank) as usize] = mirrored;
        }
        for (file, &t) in middle.iter().enumerate() {
            visible[make_square(file as u8, 4) as usize] = t;
        }
        Position::from_parts(visible, [None; SQUARES], Side::First, &[], 0)
    }
}
