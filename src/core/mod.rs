//! Shared types every layer above may use: the two sides, the game contract the
//! searcher is generic over, the games' ids and names, and the deterministic generator behind Zobrist keys
//! and seeded deals. Nothing here knows any game's rules.

pub mod eval;
pub mod game;
pub mod id;
pub mod perft;
pub mod rng;
pub mod side;

pub use game::{Game, MoveError, Notation, Status};
pub use id::{GameId, GameText, GiveUp};
pub use rng::SplitMix64;
pub use side::Side;
