//! Shared types every layer above may use: the two sides, the game contract the
//! searcher is generic over, and the deterministic generator behind Zobrist keys
//! and seeded deals. Nothing here knows any game's rules.

pub mod eval;
pub mod game;
pub mod perft;
pub mod rng;
pub mod side;

pub use game::{Game, MoveError, Notation, Status};
pub use rng::SplitMix64;
pub use side::Side;
