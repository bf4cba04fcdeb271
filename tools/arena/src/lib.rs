//! The arena: engine-vs-engine matches for Tessera's games, refereed.
//!
//! Layers, in dependency order:
//! 1. [`stats`]: Elo, LOS, pentanomial pair counts and the SPRT (pure arithmetic);
//! 2. [`spec`]: engines and time controls as given on the command line;
//! 3. [`openings`]: seeded random Rekushu openings, opening files, REBUS deals;
//! 4. [`ending`]: how a game ended (who won, and why), and its texts;
//! 5. [`referee`]: one game between two processes, checked against the arena's
//!    own copy of the rules (the `tessera` library);
//! 6. [`record`]: game records and dates;
//! 7. [`adjudication`]: resign and draw adjudication on the engines' scores;
//! 8. [`shard`], [`state`]: a shard's rounds; the state file of a resumable run;
//! 9. [`tournament`]: pairings, game pairs, worker threads, results, the summary;
//! 10. [`merge`]: shards' summaries summed into one;
//! 11. [`book`]: balanced opening books, generated with an engine's scores;
//! 12. [`signals`]: Ctrl-C and SIGTERM, polled by every wait.
//!
//! One engine process (its protocol replies, timeouts and kills) is the
//! `tessera-client` crate's [`EngineProcess`](tessera_client::EngineProcess),
//! made interruptible by [`signals::interrupted`].
//!
//! Engine replies are input: nothing reachable from them unwraps or panics.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod adjudication;
pub mod book;
pub mod ending;
pub mod merge;
pub mod openings;
pub mod record;
pub mod referee;
pub mod shard;
pub mod signals;
pub mod spec;
pub mod state;
pub mod stats;
pub mod tournament;
