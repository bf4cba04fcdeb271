//! Tessera: a game-AI engine for Rekushu and REBUS Core.
//!
//! Layers, in dependency order (each may use only those above it):
//! 1. [`core`]   — sides, the [`core::Game`] contract, the deterministic rng.
//! 2. [`games`]  — the rules of each game: boards, move generation, hashing,
//!    notation, evaluation. No search imports.
//! 3. [`record`] — game records: the text format of both games, its writer and
//!    its strict parser, which replays every move with the rules.
//! 4. [`search`] — the generic searcher, compiled once per game.
//!    [`solve`] — exact solving above the games (Rekushu): no evaluation, no
//!    depth limit, only what it can prove.
//! 5. [`engine`] — the engine proper: the game being played, each game's
//!    searcher, the settings, the stop flag, and the driver that runs the
//!    protocol loop over any input and output.
//! 6. [`protocol`] — a line in, a typed command, the engine, a typed reply, text out.
//!    No terminal I/O (only `savegame`/`loadgame` touch files, the ones they
//!    are given).
//! 7. [`mod@bench`] — the fixed positions and depths of `tessera bench`;
//!    [`cli`] — the reports of `tessera perft`, `solve`, `bench`;
//!    [`analysis`] — `tessera analyze`: every position of a record searched,
//!    each move's loss against the engine's best.

pub mod analysis;
pub mod bench;
pub mod cli;
pub mod core;
pub mod engine;
pub mod games;
pub mod protocol;
pub mod record;
pub mod search;
pub mod solve;
