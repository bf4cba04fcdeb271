//! The protocol layer (GTP version 2 framing, Tessera's commands): a line in, a
//! typed request, the engine, a typed result, the reply text out. No terminal
//! I/O here: `main.rs` owns stdin and stdout, so transcripts are tested without
//! a process. Only `savegame` and `loadgame` (`records.rs`) touch files.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod analyze;
pub mod commands;
pub mod engine;
pub mod error;
pub mod gogui;
pub mod parse;
pub mod play;
pub mod rebus;
pub mod records;
pub mod rekushu;
pub mod session;

pub use analyze::Input;
pub use engine::Engine;
pub use error::{CommandError, CommandResult, ErrorKind};
