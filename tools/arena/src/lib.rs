//! The arena: engine-vs-engine matches for Tessera's games, refereed.
//!
//! Layers, in dependency order:
//! 1. [`stats`]: Elo, LOS, pentanomial pair counts and the SPRT (pure arithmetic);
//! 2. [`spec`]: engines and time controls as given on the command line;
//! 3. [`process`]: one engine process, its protocol replies, timeouts and kills;
//! 4. [`openings`]: seeded random Rekushu openings, opening files, REBUS deals;
//! 5. [`referee`]: one game between two processes, checked against the arena's
//!    own copy of the rules (the `tessera` library);
//! 6. [`record`]: game records and dates;
//! 7. [`tournament`]: pairings, game pairs, worker threads, results, the summary.
//!
//! Engine replies are input: nothing reachable from them unwraps or panics.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod openings;
pub mod process;
pub mod record;
pub mod referee;
pub mod spec;
pub mod stats;
pub mod tournament;
