//! Shared types every layer above may use: the two sides, the game contract the
//! searcher is generic over, the games' ids and names, the deterministic generator behind Zobrist keys
//! and seeded deals, and the integer net of the learned evaluations (`nnue`).
//! Nothing here knows any game's rules.

pub mod eval;
pub mod game;
pub mod id;
pub mod nnue;
pub mod perft;
pub mod rng;
pub mod side;

pub use game::{Game, MoveError, Notation, Status};
pub use id::{GameId, GameText, GiveUp};
pub use rng::SplitMix64;
pub use side::Side;
