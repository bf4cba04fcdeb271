//! The whole protocol in one call: a line in, the reply text out. The line is
//! parsed ([`super::parse`]), its command looked up in the table
//! ([`super::commands`]), run on the engine, and the result framed. After a
//! command that may have changed the settings or the game, the searcher is made
//! ready now, while the controller waits for the reply, not inside a move.

use std::time::Instant;

use super::args::Args;
use super::commands::find_command;
use super::names;
use super::parse::{format_reply, format_stream_tail, parse_request, too_long_reply};
use crate::core::GameId;
use crate::engine::driver::{Frontend, LineKind};
use crate::engine::stream::StreamState;
use crate::engine::{CommandError, CommandResult, Engine};

impl Engine {
    /// Handles one input line; returns the full reply text (ending in an empty
    /// line), or `None` when the line holds no command. For a streamed reply
    /// with a reply sink, the part already sent there is not repeated: the text
    /// returned is the rest (its last lines and the empty line).
    pub fn handle_line(&mut self, line: &str) -> Option<String> {
        self.handle_line_at(line, Instant::now())
    }

    /// [`Engine::handle_line`] for a line whose time starts at `received`: a
    /// search it starts counts its time from then (the driver stamps each line
    /// as it reads it, or as its turn comes if an earlier command still ran).
    pub fn handle_line_at(&mut self, line: &str, received: Instant) -> Option<String> {
        let req = parse_request(line)?;
        self.io().stream = StreamState::new(format!("={}", req.id.as_deref().unwrap_or("")));
        let result = self.run_at(&req.name, &req.args, received);
        let stream = std::mem::take(&mut self.io().stream);
        Some(match stream.started() {
            false => format_reply(req.id.as_deref(), &result),
            true => stream.into_collected() + &format_stream_tail(&result),
        })
    }

    /// Runs one command by name. Any failure leaves the engine as it was.
    /// (Streamed commands should go through [`Engine::handle_line`], which
    /// frames their reply.)
    pub fn execute(&mut self, name: &str, args: &[String]) -> CommandResult {
        self.run_at(name, args, Instant::now())
    }

    fn run_at(&mut self, name: &str, args: &[String], received: Instant) -> CommandResult {
        self.set_received(received);
        if name.is_empty() {
            return Err(CommandError::syntax("no command after the id"));
        }
        let Some(cmd) = find_command(name) else {
            return Err(CommandError::unknown_command(name));
        };
        let current = self.game().id();
        if let Some(game) = cmd.game
            && game != current
        {
            return Err(CommandError::refused(format!(
                "{name} is a {game} command; the current game is {current} (switch with 'game {game}')"
            )));
        }
        // GoGui mode: GoGui's Black is REBUS's Red, its White Blue.
        let gogui_colours;
        let args = match args.split_first() {
            Some((colour, rest))
                if cmd.colour_first && self.settings().gogui && current == GameId::Rebus =>
            {
                gogui_colours = [vec![names::rebus_colour(colour)], rest.to_vec()].concat();
                &gogui_colours[..]
            }
            _ => args,
        };
        let result = (cmd.run)(self, &Args::new(cmd.name, cmd.usage, args));
        if result.is_ok() && !cmd.searches {
            // Settings or the game may have changed: the table is made ready
            // now, while the controller waits for this reply, not in a move.
            self.prepare();
        }
        result
    }
}

/// The protocol as the driver runs it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Gtp;

impl Frontend for Gtp {
    fn kind(&self, line: &str) -> LineKind {
        match parse_request(line) {
            None => LineKind::Blank,
            Some(r) if find_command(&r.name).is_some_and(|c| c.searches) => LineKind::Search,
            Some(r) if r.name == "stop" => LineKind::Stop,
            Some(_) => LineKind::Other,
        }
    }

    fn reply(&mut self, engine: &mut Engine, line: &str, at: Instant) -> Option<String> {
        engine.handle_line_at(line, at)
    }

    fn too_long(&self, len: usize) -> String {
        too_long_reply(len)
    }
}
