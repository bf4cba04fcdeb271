//! The board's state and what changes it. One lock ([`App::core`]) holds the
//! game, the settings and the rules engine (the "referee", which answers
//! `list_moves`, `game_status`, `position` and checks every move); the players'
//! engines sit in their own slots so that a search never blocks the page.
//!
//! Every change bumps a generation number and broadcasts the whole state to the
//! pages (server-sent events); an engine's move computed for a position that
//! has changed since (undo, a new game, a load) is thrown away.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::{Mutex, broadcast, watch};

use crate::engine::{COMMAND_TIMEOUT, Engine, EngineError};
use crate::game::{self, RebusStart, Setup, mover, side_name};

pub const LEVELS: [&str; 6] = ["easy", "medium", "hard", "mike", "random", "uct"];

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Player {
    /// `human` or `engine`.
    pub kind: String,
    pub level: String,
}

impl Player {
    pub fn human() -> Player {
        Player {
            kind: "human".into(),
            level: "easy".into(),
        }
    }
    pub fn engine(level: &str) -> Player {
        Player {
            kind: "engine".into(),
            level: level.into(),
        }
    }
    fn is_engine(&self) -> bool {
        self.kind == "engine"
    }
    fn check(&self) -> Result<(), ApiError> {
        if self.kind != "human" && self.kind != "engine" {
            return Err(ApiError::bad(format!(
                "player kind '{}' is not 'human' or 'engine'",
                self.kind
            )));
        }
        if !LEVELS.contains(&self.level.as_str()) {
            return Err(ApiError::bad(format!(
                "level '{}' is not one of {}",
                self.level,
                LEVELS.join(", ")
            )));
        }
        Ok(())
    }
}

/// An error for the page: an HTTP status and a message.
#[derive(Debug)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
}

impl ApiError {
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 400,
            message: message.into(),
        }
    }
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 409,
            message: message.into(),
        }
    }
    pub fn illegal(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 422,
            message: message.into(),
        }
    }
    /// The engine's refusal of a move: a malformed one is a bad request, a
    /// well-formed one the rules forbid is unprocessable.
    pub fn refused(message: String) -> ApiError {
        if message.starts_with("syntax error") {
            ApiError::bad(message)
        } else {
            ApiError::illegal(message)
        }
    }
    pub fn down(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 503,
            message: message.into(),
        }
    }
}

/// What the referee said about the position, for drawing.
#[derive(Clone, Debug, Default)]
struct Derived {
    status: String,
    score: String,
    legal: Vec<String>,
    position: Option<String>,
}

pub struct Core {
    pub setup: Setup,
    pub moves: Vec<String>,
    /// Set when a side resigned: the status then reads `over W+R resign`.
    resigned: Option<String>,
    derived: Derived,
    pub players: [Player; 2],
    pub delay_ms: u64,
    pub paused: bool,
    pub analysis: bool,
    referee: Option<Engine>,
    pub engine_error: Option<String>,
    message: Option<String>,
    /// The side whose engine is searching, and that search's number.
    thinking: Option<(usize, u64)>,
    searches: u64,
    generation: u64,
}

pub struct App {
    pub engines: Vec<String>,
    /// How long a `genmove` may take before the engine counts as stalled.
    move_timeout: Duration,
    pub core: Mutex<Core>,
    /// The players' engines, one slot per side (started when first needed).
    slots: [Arc<Mutex<Option<Engine>>>; 2],
    pub events: broadcast::Sender<(String, String)>,
    analysis_target: watch::Sender<Option<AnalysisTarget>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisTarget {
    pub setup: Setup,
    pub moves: Vec<String>,
    pub generation: u64,
}

/// Only these characters reach an engine from the page: no line breaks, no `#`.
fn clean_token(text: &str, what: &str) -> Result<String, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::bad(format!("{what} is empty")));
    }
    if text.len() > 400 {
        return Err(ApiError::bad(format!(
            "{what} is too long ({} bytes)",
            text.len()
        )));
    }
    if let Some(c) = text
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || " :+-/(),".contains(*c)))
    {
        return Err(ApiError::bad(format!(
            "{what} '{text}' holds the character {c:?}"
        )));
    }
    Ok(text.to_string())
}

#[derive(Debug, Deserialize)]
pub struct NewGame {
    pub game: String,
    pub size: Option<usize>,
    /// REBUS: `standard`, `random <seed>` or a position string.
    pub start: Option<String>,
    pub turn_limit: Option<u32>,
    pub players: Option<[Player; 2]>,
}

#[derive(Debug, Deserialize)]
pub struct Settings {
    pub players: Option<[Player; 2]>,
    pub delay_ms: Option<u64>,
    pub paused: Option<bool>,
    pub analysis: Option<bool>,
}

impl App {
    pub async fn new(engines: Vec<String>, move_timeout: Duration) -> Arc<App> {
        let (events, _) = broadcast::channel(256);
        let (analysis_target, analysis_rx) = watch::channel(None);
        let app = Arc::new(App {
            engines,
            move_timeout,
            core: Mutex::new(Core {
                setup: Setup::Rekushu { size: 9 },
                moves: Vec::new(),
                resigned: None,
                derived: Derived::default(),
                players: [Player::human(), Player::engine("easy")],
                delay_ms: 500,
                paused: false,
                analysis: false,
                referee: None,
                engine_error: None,
                message: None,
                thinking: None,
                searches: 0,
                generation: 0,
            }),
            slots: [Arc::new(Mutex::new(None)), Arc::new(Mutex::new(None))],
            events,
            analysis_target,
        });
        tokio::spawn(crate::analysis::run(app.clone(), analysis_rx));
        {
            let mut core = app.core.lock().await;
            if let Err(e) = app.start_referee(&mut core).await {
                core.engine_error = Some(e);
            }
            app.changed(&mut core).await;
        }
        app
    }

    fn engine_for(&self, side: usize) -> &str {
        self.engines
            .get(side)
            .or_else(|| self.engines.first())
            .map_or("tessera", |s| s.as_str())
    }

    /// Starts the referee (if down) and brings it to the game. A failure is
    /// the text for the page.
    async fn start_referee(&self, core: &mut Core) -> Result<(), String> {
        if core.referee.is_none() {
            let engine = Engine::spawn(self.engine_for(0))
                .await
                .map_err(|e| format!("rules engine: {e}"))?;
            core.referee = Some(engine);
        }
        let (setup, moves) = (core.setup.clone(), core.moves.clone());
        let result = match core.referee.as_mut() {
            Some(r) => r.sync(&setup, &moves).await,
            None => return Err("rules engine: not running".into()),
        };
        match result {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(msg)) => Err(format!("rules engine refused the game: {msg}")),
            Err(e) => {
                self.referee_down(core, &e).await;
                Err(format!("rules engine: {e}"))
            }
        }
    }

    async fn referee_down(&self, core: &mut Core, e: &EngineError) {
        if let Some(mut r) = core.referee.take() {
            r.kill().await;
        }
        core.engine_error = Some(format!("rules engine: {e}"));
    }

    /// Runs one command on the referee, brought to the current game first.
    async fn ask(&self, core: &mut Core, line: &str) -> Result<Result<String, String>, ApiError> {
        if core.referee.is_none() {
            return Err(ApiError::down(format!(
                "the rules engine is down ({}); press Restart",
                core.engine_error.clone().unwrap_or_default()
            )));
        }
        if let Err(e) = self.start_referee(core).await {
            return Err(ApiError::down(e));
        }
        self.ask_raw(core, line).await
    }

    /// Runs one command on the referee as it is.
    async fn ask_raw(
        &self,
        core: &mut Core,
        line: &str,
    ) -> Result<Result<String, String>, ApiError> {
        let result = match core.referee.as_mut() {
            Some(r) => r.command(line, COMMAND_TIMEOUT).await,
            None => return Err(ApiError::down("the rules engine is down; press Restart")),
        };
        match result {
            Ok(reply) => Ok(reply),
            Err(e) => {
                self.referee_down(core, &e).await;
                Err(ApiError::down(format!("rules engine: {e}")))
            }
        }
    }

    /// Re-reads the position from the referee, broadcasts it, and starts an
    /// engine's move if one is due.
    async fn changed(self: &Arc<Self>, core: &mut Core) {
        core.generation += 1;
        self.refresh(core).await;
        self.broadcast(core);
        self.set_analysis(core);
        self.maybe_engine_move(core);
    }

    async fn refresh(&self, core: &mut Core) {
        let mut d = Derived::default();
        if core.referee.is_some() {
            let status = self.ask(core, "game_status").await;
            let score = self.ask(core, "final_score").await;
            d.status = match status {
                Ok(Ok(s)) => s,
                _ => "unknown".into(),
            };
            d.score = match score {
                Ok(Ok(s)) => s,
                _ => String::new(),
            };
            if d.status == "ongoing"
                && let Ok(Ok(list)) = self.ask(core, "list_moves").await
            {
                d.legal = list.split_whitespace().map(str::to_string).collect();
            }
            if core.setup.is_rebus()
                && let Ok(Ok(p)) = self.ask(core, "position").await
            {
                d.position = Some(p);
            }
        } else {
            d.status = "unknown".into();
        }
        core.derived = d;
    }

    fn status(core: &Core) -> String {
        match &core.resigned {
            Some(s) => s.clone(),
            None => core.derived.status.clone(),
        }
    }

    pub fn over(core: &Core) -> bool {
        Self::status(core).starts_with("over")
    }

    pub fn state(&self, core: &Core) -> Value {
        let setup = &core.setup;
        let ply = core.moves.len();
        let to_move = side_name(setup, ply);
        let status = Self::status(core);
        let mut state = json!({
            "generation": core.generation,
            "setup": setup,
            "game": if setup.is_rebus() { "rebus" } else { "rekushu" },
            "colours": setup.colours(),
            "moves": core.moves,
            "first_mover": side_name(setup, 0),
            "to_move": to_move,
            "to_move_index": mover(setup, ply),
            "status": status,
            "score": core.derived.score,
            "players": core.players,
            "delay_ms": core.delay_ms,
            "paused": core.paused,
            "analysis": core.analysis,
            "thinking": core.thinking.map(|(s, _)| setup.colours()[s]),
            "engine_error": core.engine_error,
            "message": core.message,
            "engines": self.engines,
        });
        match setup {
            Setup::Rekushu { size } => {
                let (stones, tiles) = game::rekushu_board(*size, &core.moves);
                let mut legal: BTreeMap<String, Vec<String>> = BTreeMap::new();
                for m in &core.derived.legal {
                    match m.split_once(':') {
                        Some((p, c)) => legal.entry(p.to_string()).or_default().push(c.to_string()),
                        None => {
                            legal.entry(m.clone()).or_default();
                        }
                    }
                }
                // A point the mirror rule forbids: empty, touching an unclaimed
                // tile, yet not a legal placement.
                let mut forbidden = Vec::new();
                if status == "ongoing" {
                    let n = *size;
                    for y in 1..=n {
                        for x in 1..=n {
                            if stones[(y - 1) * n + x - 1] != b'.' {
                                continue;
                            }
                            let touches_free = [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]
                                .iter()
                                .any(|&(tx, ty)| {
                                    tx >= 1
                                        && ty >= 1
                                        && tx < n
                                        && ty < n
                                        && tiles[(ty - 1) * (n - 1) + tx - 1] == b'.'
                                });
                            let name = game::vertex_name(x, y);
                            if touches_free && !legal.contains_key(&name) {
                                forbidden.push(name);
                            }
                        }
                    }
                }
                state["size"] = json!(size);
                state["rekushu"] = json!({
                    "stones": String::from_utf8_lossy(&stones),
                    "tiles": String::from_utf8_lossy(&tiles),
                    "legal": legal,
                    "forbidden": forbidden,
                });
            }
            Setup::Rebus { .. } => {
                let view = core
                    .derived
                    .position
                    .as_deref()
                    .and_then(|p| game::parse_position(p).ok());
                let locks_legal: Vec<&String> = core
                    .derived
                    .legal
                    .iter()
                    .filter(|m| m.contains('L'))
                    .collect();
                let can_pass = core.derived.legal.iter().any(|m| m == "pass");
                let can_yield = view.as_ref().is_some_and(|v| {
                    let me = mover(setup, ply);
                    status == "ongoing" && v.counts[1 - me] >= 41 && v.counts[me] < v.counts[1 - me]
                });
                state["size"] = json!(9);
                state["rebus"] = json!({
                    "view": view,
                    "position": core.derived.position,
                    "locks_legal": locks_legal,
                    "can_pass": can_pass,
                    "can_yield": can_yield,
                });
            }
        }
        state
    }

    fn broadcast(&self, core: &Core) {
        let _ = self
            .events
            .send(("state".into(), self.state(core).to_string()));
    }

    fn set_analysis(&self, core: &Core) {
        let target = (core.analysis && !Self::over(core)).then(|| AnalysisTarget {
            setup: core.setup.clone(),
            moves: core.moves.clone(),
            generation: core.generation,
        });
        self.analysis_target.send_if_modified(|t| {
            if *t == target {
                false
            } else {
                *t = target;
                true
            }
        });
    }

    /// Starts the engine's search when an engine is to move.
    fn maybe_engine_move(self: &Arc<Self>, core: &mut Core) {
        if Self::over(core) || core.engine_error.is_some() || core.thinking.is_some() {
            return;
        }
        if core.derived.status != "ongoing" {
            return;
        }
        let ply = core.moves.len();
        let side = mover(&core.setup, ply);
        let player = core.players[side].clone();
        if !player.is_engine() || core.paused {
            return;
        }
        let both_engines = core.players.iter().all(Player::is_engine);
        let delay = if both_engines { core.delay_ms } else { 0 };
        core.searches += 1;
        let search = core.searches;
        core.thinking = Some((side, search));
        let setup = core.setup.clone();
        let moves = core.moves.clone();
        let app = self.clone();
        tokio::spawn(async move {
            if delay > 0 {
                tokio::time::sleep(Duration::from_millis(delay.min(10_000))).await;
            }
            let result = app.genmove(side, &player.level, &setup, &moves).await;
            app.engine_moved(search, side, &setup, &moves, result).await;
        });
    }

    async fn genmove(
        &self,
        side: usize,
        level: &str,
        setup: &Setup,
        moves: &[String],
    ) -> Result<Result<String, String>, EngineError> {
        let mut slot = self.slots[side].lock().await;
        if slot.is_none() {
            *slot = Some(Engine::spawn(self.engine_for(side)).await?);
        }
        let Some(engine) = slot.as_mut() else {
            return Err(EngineError::Spawn("no engine".into()));
        };
        let result = async {
            if let Err(msg) = engine.set_level(level).await? {
                return Ok(Err(format!("level {level}: {msg}")));
            }
            if let Err(msg) = engine.sync(setup, moves).await? {
                return Ok(Err(msg));
            }
            let colour = side_name(setup, moves.len());
            let reply = engine
                .command(&format!("genmove {colour}"), self.move_timeout)
                .await?;
            match &reply {
                Ok(mv) if mv != "resign" => engine.played(mv),
                _ => engine.forget(),
            }
            Ok(reply)
        }
        .await;
        if result.is_err()
            && let Some(mut e) = slot.take()
        {
            e.kill().await;
        }
        result
    }

    async fn engine_moved(
        self: &Arc<Self>,
        search: u64,
        side: usize,
        setup: &Setup,
        moves: &[String],
        result: Result<Result<String, String>, EngineError>,
    ) {
        let mut core = self.core.lock().await;
        let current = core.thinking == Some((side, search));
        if current {
            core.thinking = None;
        }
        if !current
            || &core.setup != setup
            || core.moves != moves
            || !core.players[side].is_engine()
        {
            // The game changed while the engine thought: its move is thrown
            // away, and a search starts on the new position if one is due.
            self.maybe_engine_move(&mut core);
            self.broadcast(&core);
            return;
        }
        let colour = core.setup.colours()[side];
        match result {
            Err(e) => core.engine_error = Some(format!("{colour}'s engine: {e}")),
            Ok(Err(msg)) => {
                core.engine_error = Some(format!("{colour}'s engine refused to move: {msg}"))
            }
            Ok(Ok(mv)) if mv.eq_ignore_ascii_case("resign") => {
                let winner = if core.setup.is_rebus() {
                    ["R", "B"][1 - side]
                } else {
                    ["B", "W"][1 - side]
                };
                core.resigned = Some(format!("over {winner}+R resign"));
                core.message = Some(format!("{colour} resigned"));
            }
            Ok(Ok(mv)) => match clean_token(&mv, "the engine's move") {
                Err(e) => {
                    core.engine_error =
                        Some(format!("{colour}'s engine answered garbage: {}", e.message))
                }
                Ok(mv) => match self.ask(&mut core, &format!("play {colour} {mv}")).await {
                    Ok(Ok(_)) => {
                        if let Some(r) = core.referee.as_mut() {
                            r.played(&mv);
                        }
                        core.moves.push(mv);
                        core.message = None;
                    }
                    Ok(Err(msg)) => {
                        core.engine_error = Some(format!(
                            "{colour}'s engine played an illegal move '{mv}': {msg}"
                        ))
                    }
                    Err(e) => core.engine_error = Some(e.message),
                },
            },
        }
        self.changed(&mut core).await;
    }

    /// A move from the page, for the side to move.
    pub async fn human_move(self: &Arc<Self>, text: &str) -> Result<Value, ApiError> {
        let mv = clean_token(text, "move")?;
        let mut core = self.core.lock().await;
        if Self::over(&core) {
            return Err(ApiError::conflict(format!(
                "the game is over ({})",
                Self::status(&core)
            )));
        }
        let ply = core.moves.len();
        let side = mover(&core.setup, ply);
        if core.players[side].is_engine() {
            return Err(ApiError::conflict(format!(
                "it is {}'s turn, and the engine plays {}",
                core.setup.colours()[side],
                core.setup.colours()[side]
            )));
        }
        let colour = side_name(&core.setup, ply);
        // Record a REBUS capture by its canonical token (rules.md §2.8), as the
        // engine's own records do.
        let mv = core
            .derived
            .position
            .as_deref()
            .and_then(|p| game::parse_position(p).ok())
            .and_then(|view| game::canonical(&view, &core.derived.legal, &mv))
            .unwrap_or(mv);
        match self.ask(&mut core, &format!("play {colour} {mv}")).await? {
            Ok(_) => {
                if let Some(r) = core.referee.as_mut() {
                    r.played(&mv);
                }
                core.moves.push(mv);
                core.message = None;
                self.changed(&mut core).await;
                Ok(self.state(&core))
            }
            Err(msg) => Err(ApiError::refused(msg)),
        }
    }

    /// Whether `text` is a legal move now (played and taken back on the
    /// referee), for the steps of a REBUS chain.
    pub async fn check_move(self: &Arc<Self>, text: &str) -> Result<Value, ApiError> {
        let mv = clean_token(text, "move")?;
        let mut core = self.core.lock().await;
        if Self::over(&core) {
            return Err(ApiError::conflict("the game is over"));
        }
        let colour = side_name(&core.setup, core.moves.len());
        match self.ask(&mut core, &format!("play {colour} {mv}")).await? {
            Ok(_) => {
                if let Err(e) = self.ask(&mut core, "undo").await? {
                    if let Some(r) = core.referee.as_mut() {
                        r.forget();
                    }
                    return Err(ApiError::down(format!("rules engine could not undo: {e}")));
                }
                Ok(json!({"ok": true, "move": mv}))
            }
            Err(msg) => Err(ApiError::refused(msg)),
        }
    }

    pub async fn new_game(self: &Arc<Self>, req: NewGame) -> Result<Value, ApiError> {
        let setup = match req.game.as_str() {
            "rekushu" => {
                let size = req.size.unwrap_or(9);
                if !(4..=26).contains(&size) {
                    return Err(ApiError::bad(format!(
                        "size {size}: Rekushu boards are 4 to 26"
                    )));
                }
                Setup::Rekushu { size }
            }
            "rebus" => {
                let start = req.start.as_deref().map(str::trim).unwrap_or("standard");
                let start = if start.is_empty() || start == "standard" {
                    RebusStart::Standard
                } else if let Some(seed) = start.strip_prefix("random") {
                    let seed = seed.trim();
                    RebusStart::Random(seed.parse().map_err(|_| {
                        ApiError::bad(format!("'{seed}' is not a seed (0 to 2^64-1)"))
                    })?)
                } else {
                    RebusStart::Position(clean_token(start, "position string")?)
                };
                let turn_limit = req.turn_limit.unwrap_or(400);
                Setup::Rebus { start, turn_limit }
            }
            other => {
                return Err(ApiError::bad(format!(
                    "game '{other}' is not 'rekushu' or 'rebus'"
                )));
            }
        };
        if let Some(players) = &req.players {
            for p in players {
                p.check()?;
            }
        }
        let mut core = self.core.lock().await;
        if core.referee.is_none() {
            return Err(ApiError::down("the rules engine is down; press Restart"));
        }
        // Try the setup on the referee first: a bad position changes nothing.
        let old = (core.setup.clone(), core.moves.clone());
        let tried = match core.referee.as_mut() {
            Some(r) => r.sync(&setup, &[]).await,
            None => return Err(ApiError::down("the rules engine is down")),
        };
        match tried {
            Ok(Ok(_)) => {}
            Ok(Err(msg)) => {
                if let Some(r) = core.referee.as_mut() {
                    r.forget();
                }
                let _ = self.start_referee(&mut core).await;
                core.setup = old.0;
                core.moves = old.1;
                return Err(ApiError::bad(msg));
            }
            Err(e) => {
                self.referee_down(&mut core, &e).await;
                return Err(ApiError::down(format!("rules engine: {e}")));
            }
        }
        core.setup = setup;
        core.moves.clear();
        core.resigned = None;
        core.message = None;
        core.thinking = None;
        if let Some(players) = req.players {
            core.players = players;
        }
        self.changed(&mut core).await;
        Ok(self.state(&core))
    }

    /// Takes back the last move, and the engine's reply before it when one
    /// side is human, so that a human is to move again.
    pub async fn undo(self: &Arc<Self>) -> Result<Value, ApiError> {
        let mut core = self.core.lock().await;
        if core.resigned.take().is_some() {
            core.message = None;
            self.changed(&mut core).await;
            return Ok(self.state(&core));
        }
        if core.moves.is_empty() {
            return Err(ApiError::conflict("cannot undo: no move to take back"));
        }
        core.moves.pop();
        let any_human = core.players.iter().any(|p| !p.is_engine());
        while any_human
            && !core.moves.is_empty()
            && core.players[mover(&core.setup, core.moves.len())].is_engine()
        {
            core.moves.pop();
        }
        core.thinking = None;
        core.message = None;
        if let Err(e) = self.start_referee(&mut core).await {
            core.engine_error = Some(e);
        }
        self.changed(&mut core).await;
        Ok(self.state(&core))
    }

    pub async fn resign(self: &Arc<Self>) -> Result<Value, ApiError> {
        let mut core = self.core.lock().await;
        if Self::over(&core) {
            return Err(ApiError::conflict("the game is over"));
        }
        let side = mover(&core.setup, core.moves.len());
        let winner = if core.setup.is_rebus() {
            ["R", "B"][1 - side]
        } else {
            ["B", "W"][1 - side]
        };
        core.resigned = Some(format!("over {winner}+R resign"));
        core.message = Some(format!("{} resigned", core.setup.colours()[side]));
        self.changed(&mut core).await;
        Ok(self.state(&core))
    }

    pub async fn settings(self: &Arc<Self>, req: Settings) -> Result<Value, ApiError> {
        if let Some(players) = &req.players {
            for p in players {
                p.check()?;
            }
        }
        let mut core = self.core.lock().await;
        if let Some(players) = req.players {
            core.players = players;
        }
        if let Some(d) = req.delay_ms {
            core.delay_ms = d.min(10_000);
        }
        if let Some(p) = req.paused {
            core.paused = p;
        }
        if let Some(a) = req.analysis {
            core.analysis = a;
        }
        self.changed(&mut core).await;
        Ok(self.state(&core))
    }

    /// Kills every engine and starts the referee again on the game so far.
    pub async fn restart(self: &Arc<Self>) -> Result<Value, ApiError> {
        let mut core = self.core.lock().await;
        if let Some(mut r) = core.referee.take() {
            r.kill().await;
        }
        for slot in &self.slots {
            // A slot held by a running search is left; it is resynced next time.
            if let Ok(mut s) = slot.try_lock()
                && let Some(mut e) = s.take()
            {
                e.kill().await;
            }
        }
        core.engine_error = None;
        core.thinking = None;
        if let Err(e) = self.start_referee(&mut core).await {
            core.engine_error = Some(e);
        }
        self.changed(&mut core).await;
        Ok(self.state(&core))
    }

    pub async fn record(&self) -> String {
        let core = self.core.lock().await;
        let names = core.players.clone().map(|p| {
            if p.is_engine() {
                format!("tessera-board engine ({})", p.level)
            } else {
                "human".to_string()
            }
        });
        game::record_text(
            &core.setup,
            &core.moves,
            &Self::status(&core),
            [&names[0], &names[1]],
        )
    }

    /// Loads a record: the referee reads and checks it (`loadgame`), writes it
    /// back (`savegame`) in its own canonical form, and the board takes that.
    pub async fn load(self: &Arc<Self>, text: &str) -> Result<Value, ApiError> {
        if text.len() > 4 << 20 {
            return Err(ApiError::bad("the record is larger than 4 MB"));
        }
        let dir = std::env::temp_dir().join(format!("tessera-board-{}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| ApiError::down(format!("cannot make {}: {e}", dir.display())))?;
        let input = dir.join("upload.txt");
        let output = dir.join("loaded.txt");
        std::fs::write(&input, text)
            .map_err(|e| ApiError::down(format!("cannot write {}: {e}", input.display())))?;
        let mut core = self.core.lock().await;
        let quoted = |p: &std::path::Path| format!("\"{}\"", p.display());
        let loaded = self
            .ask_raw(&mut core, &format!("loadgame {}", quoted(&input)))
            .await?;
        // The referee's game is now the record's, or unchanged on a refusal.
        if let Some(r) = core.referee.as_mut() {
            r.forget();
        }
        if let Err(msg) = loaded {
            let _ = self.start_referee(&mut core).await;
            return Err(ApiError::illegal(msg));
        }
        let saved = self
            .ask_raw(&mut core, &format!("savegame {}", quoted(&output)))
            .await?;
        let parsed = saved
            .map_err(ApiError::down)
            .and_then(|_| {
                std::fs::read_to_string(&output)
                    .map_err(|e| ApiError::down(format!("cannot read {}: {e}", output.display())))
            })
            .and_then(|t| game::parse_record(&t).map_err(ApiError::bad));
        let _ = std::fs::remove_dir_all(&dir);
        match parsed {
            Ok((setup, moves)) => {
                core.setup = setup;
                core.moves = moves;
                core.resigned = None;
                core.thinking = None;
                core.message = Some("record loaded".into());
                // Playing on from a loaded game: the human plays the side to move.
                if let Err(e) = self.start_referee(&mut core).await {
                    core.engine_error = Some(e);
                }
                self.changed(&mut core).await;
                Ok(self.state(&core))
            }
            Err(e) => {
                let _ = self.start_referee(&mut core).await;
                Err(e)
            }
        }
    }
}
