//! The rules of the two games. Each game is a self-contained module: board,
//! move generation, notation, hashing, perft.

pub mod rebus;
pub mod rekushu;
