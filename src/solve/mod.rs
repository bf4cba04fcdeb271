//! Exact solving, above the games: the value of a position under perfect play,
//! its optimal moves and a principal variation, found by a search that prunes
//! only what it can prove (no evaluation, no depth limit). Only Rekushu has a
//! solver (`tessera solve`: docs/solver.md; what is known: docs/solved.md).

pub mod rekushu;

pub use rekushu::{MAX_SOLVE_SIZE, Solution, Solver};
