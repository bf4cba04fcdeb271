//! Rekushu (rules.md §1): exact, fast rules.
//!
//! Files, one concern each: `grid` (row-mask bitboards), `moves` (`Move`, `Rect`),
//! `board` (state, hash, make/unmake, status), `claims` (claimable rectangles in
//! O(stones)), `mirror` (mirror types and bans), `movegen` (generation and fast
//! counting), `notation` (parse/format), `display` (`showboard`), `zobrist` (keys),
//! `eval` (`impl Evaluate`: evaluation, hints, noisy moves) with its weights in
//! `evalparams`, and `nnue` (the learned evaluation, its net in `nets/`).

mod board;
mod claims;
mod display;
mod eval;
pub mod evalparams;
pub mod grid;
pub mod mirror;
mod movegen;
mod moves;
pub mod nnue;
mod notation;
mod zobrist;

pub use board::Board;
pub use moves::{Move, Rect};
pub use notation::{rect_text, vertex_text};
