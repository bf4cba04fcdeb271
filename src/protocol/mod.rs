//! The protocol layer (GTP version 2 framing, Tessera's commands): a line in,
//! a typed request, a handler on the engine, a result, the reply text out. No
//! terminal I/O here: the driver ([`crate::engine::driver`]) reads and writes,
//! so transcripts are tested without a process. Only `savegame` and `loadgame`
//! (`records.rs`) touch files.
//!
//! - `parse.rs`: a line to a request, a result to reply text.
//! - `commands.rs`: the one command table (name, usage, help, game, whether it
//!   searches, handler) and the game-independent handlers.
//! - `args.rs`: arguments checked against the table's usage.
//! - `names.rs`: GoGui's names of points and colours (GoGui mode).
//! - `report.rs`: the engine's reports (iterations, chosen moves, analysis
//!   blocks) in the protocol's words.
//! - `dispatch.rs`: [`Engine::handle_line`], and the driver's [`Gtp`] frontend.
//! - One file per group of handlers: `play.rs` (levels, time, options,
//!   `genmove`), `analyze.rs` (streamed analysis), `records.rs`, `gogui.rs`,
//!   `rekushu.rs`, `rebus.rs`. Handlers use the engine, the table's
//!   arguments and GoGui's names, and never each other.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod analyze;
pub mod args;
pub mod commands;
pub mod dispatch;
pub mod gogui;
pub mod names;
pub mod parse;
pub mod play;
pub mod rebus;
pub mod records;
pub mod rekushu;
pub mod report;

pub use crate::engine::{CommandError, CommandResult, Engine, ErrorKind, Input};
pub use dispatch::Gtp;
