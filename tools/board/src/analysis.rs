//! The live analysis panel: an engine of its own, kept on the board's position,
//! streaming `analyze` (protocol.md §7). Each block of `info move …` lines is
//! broadcast to the pages as an `analysis` event, every line's move decoded
//! into points by the library ([`view::decode`]) and its score given for the
//! first player; a new position ends the stream and starts the next one.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::json;
use tessera_client::Piece;
use tokio::runtime::Handle;
use tokio::sync::watch;

use crate::app::{AnalysisTarget, App};
use crate::engine::{COMMAND_TIMEOUT, Engine, EngineError};
use crate::game::Game;
use crate::view::{self, Parts};

/// Centiseconds between two blocks, and candidate moves per block.
const INTERVAL_CS: u32 = 30;
const CANDIDATES: u32 = 3;

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Line {
    pub mv: String,
    /// For the side to move as read; for the first player once [`for_page`]
    /// has been through.
    pub score: String,
    pub bound: bool,
    pub pv: Vec<String>,
    /// The move by its points (`None` until [`for_page`], or when it is not
    /// legal in the position).
    pub parts: Option<Parts>,
}

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Block {
    pub depth: u32,
    pub nodes: u64,
    pub time_ms: u64,
    pub lines: Vec<Line>,
}

/// Reads one `info move …` line into `block` (a line with `order 0` starts a
/// new block). Returns false for a line that is not one.
pub fn read_info(line: &str, block: &mut Block) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 3 || words[0] != "info" || words[1] != "move" {
        return false;
    }
    let mut l = Line {
        mv: words[2].to_string(),
        score: String::new(),
        bound: false,
        pv: Vec::new(),
        parts: None,
    };
    let mut i = 3;
    let mut order = None;
    while i + 1 < words.len() + 1 && i < words.len() {
        match words[i] {
            "pv" => {
                l.pv = words[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            key => {
                let value = words.get(i + 1).copied().unwrap_or("");
                match key {
                    "order" => order = value.parse::<u32>().ok(),
                    "score" => l.score = value.to_string(),
                    "bound" => l.bound = true,
                    "depth" => {
                        if let Ok(d) = value.parse() {
                            block.depth = d;
                        }
                    }
                    "nodes" => {
                        if let Ok(n) = value.parse() {
                            block.nodes = n;
                        }
                    }
                    "time" => {
                        if let Ok(t) = value.parse() {
                            block.time_ms = t;
                        }
                    }
                    _ => {}
                }
                i += 2;
            }
        }
    }
    if order == Some(0) {
        let (depth, nodes, time_ms) = (block.depth, block.nodes, block.time_ms);
        *block = Block {
            depth,
            nodes,
            time_ms,
            lines: Vec::new(),
        };
    }
    block.lines.push(l);
    true
}

/// A score of the side to move (`+0.25`, `W3`) for the first player.
fn for_first(score: &str, second_to_move: bool) -> String {
    if !second_to_move {
        return score.to_string();
    }
    if let Some(plies) = score.strip_prefix('W') {
        return format!("L{plies}");
    }
    if let Some(plies) = score.strip_prefix('L') {
        return format!("W{plies}");
    }
    match score.parse::<f64>() {
        // Zero stays +0.00, never -0.00.
        Ok(v) => format!("{:+.2}", if v == 0.0 { 0.0 } else { -v }),
        Err(_) => score.to_string(),
    }
}

/// A block as the page shows it for `game`: moves decoded, scores for the
/// first player.
fn for_page(block: &Block, game: &Game) -> Block {
    let second = game.to_move() == tessera::core::Side::Second;
    let mut out = block.clone();
    for l in &mut out.lines {
        l.parts = view::decode(game, &l.mv);
        l.score = for_first(&l.score, second);
    }
    out
}

/// How often the stream looks for a new position between two lines.
const POLL: Duration = Duration::from_millis(50);

/// The analysis thread: runs as long as the server. `runtime` is the server's,
/// for waiting on `rx` without spinning.
pub fn run(app: Arc<App>, mut rx: watch::Receiver<Option<AnalysisTarget>>, runtime: Handle) {
    let mut engine: Option<Engine> = None;
    loop {
        let target = rx.borrow_and_update().clone();
        let Some(target) = target else {
            // Analysis off: stop the engine, wait for it to be wanted again.
            if let Some(mut e) = engine.take() {
                e.kill();
            }
            if runtime.block_on(rx.changed()).is_err() {
                return;
            }
            continue;
        };
        if let Err(e) = analyse(&app, &mut engine, &target, &mut rx) {
            if let Some(mut e) = engine.take() {
                e.kill();
            }
            let _ = app.events.send((
                "analysis".into(),
                json!({"error": format!("analysis engine: {e}")}).to_string(),
            ));
        }
        // Wait for the next position (or a restart) unless it has come.
        if !rx.has_changed().unwrap_or(false) && runtime.block_on(rx.changed()).is_err() {
            return;
        }
    }
}

/// Reads the rest of the reply to `command`, up to its empty line.
fn finish(e: &mut Engine, command: &str) -> Result<(), EngineError> {
    loop {
        match e.piece(Instant::now() + COMMAND_TIMEOUT, command)? {
            Some(Piece::End) => return Ok(()),
            Some(_) => {}
            None => {
                return Err(EngineError::Stalled(format!(
                    "the reply to '{command}' did not end within {} s",
                    COMMAND_TIMEOUT.as_secs()
                )));
            }
        }
    }
}

/// Streams `analyze` on `target` until the position changes (then ends the
/// stream with `stop`) or the stream ends by itself (a limit was reached).
fn analyse(
    app: &App,
    engine: &mut Option<Engine>,
    target: &AnalysisTarget,
    rx: &mut watch::Receiver<Option<AnalysisTarget>>,
) -> Result<(), EngineError> {
    let e = match engine {
        Some(e) => e,
        None => engine.insert(Engine::spawn(
            app.engines.first().map_or("tessera", |s| s.as_str()),
        )?),
    };
    if let Err(msg) = e.sync(&target.game)? {
        return Err(EngineError::Garbage(format!(
            "could not follow the game: {msg}"
        )));
    }
    let command = format!("analyze {INTERVAL_CS} {CANDIDATES}");
    e.send(&command)?;
    match e.piece(Instant::now() + COMMAND_TIMEOUT, &command)? {
        Some(Piece::Head { ok: true, .. }) => {}
        Some(Piece::Head { ok: false, .. }) => {
            // Refused (a finished game): read the end of the reply.
            return finish(e, &command);
        }
        _ => {
            return Err(EngineError::Stalled(format!(
                "no answer to '{command}' within {} s",
                COMMAND_TIMEOUT.as_secs()
            )));
        }
    }
    let generation = target.generation;
    let ply = target.game.moves().len();
    let mut block = Block::default();
    loop {
        if rx.has_changed().unwrap_or(true) {
            // A new position: any command ends the stream (protocol.md §7);
            // `stop` is answered `=` after the stream's empty line.
            e.send("stop")?;
            finish(e, &command)?;
            // `stop` is never refused; its reply only has to be read.
            let _ = e.reply("stop", COMMAND_TIMEOUT)?;
            return Ok(());
        }
        match e.piece(Instant::now() + POLL, &command)? {
            None => {}
            // The stream ended by itself (a limit was reached).
            Some(Piece::End) => return Ok(()),
            Some(Piece::Line(line)) if read_info(&line, &mut block) => {
                let shown = for_page(&block, &target.game);
                let _ = app.events.send((
                    "analysis".into(),
                    json!({"generation": generation, "ply": ply, "block": shown}).to_string(),
                ));
            }
            // Not an `info move` line: nothing to show.
            Some(Piece::Line(_)) => {}
            Some(Piece::Head { text, .. }) => {
                return Err(EngineError::Garbage(format!(
                    "'{text}' inside the reply to '{command}'"
                )));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_make_blocks() {
        let mut b = Block::default();
        assert!(read_info(
            "info move B2 order 0 score +0.04 depth 5 seldepth 8 nodes 108065 nps 715430 time 151 pv B2 A1 B1",
            &mut b
        ));
        assert!(read_info(
            "info move C2 order 1 score -0.50 bound upper pv C2",
            &mut b
        ));
        assert_eq!(b.depth, 5);
        assert_eq!(b.lines.len(), 2);
        assert_eq!(b.lines[0].pv, vec!["B2", "A1", "B1"]);
        assert!(b.lines[1].bound);
        assert!(read_info(
            "info move A1 order 0 score W3 depth 6 pv A1",
            &mut b
        ));
        assert_eq!(b.lines.len(), 1);
        assert!(!read_info("garbage", &mut b));
    }

    #[test]
    fn scores_are_shown_for_the_first_player() {
        assert_eq!(for_first("+0.04", false), "+0.04");
        assert_eq!(for_first("+0.04", true), "-0.04");
        assert_eq!(for_first("-0.50", true), "+0.50");
        assert_eq!(for_first("+0.00", true), "+0.00");
        assert_eq!(for_first("W3", true), "L3");
        assert_eq!(for_first("L12", true), "W12");
    }
}
