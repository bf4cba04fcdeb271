//! The board's state and what changes it. One lock ([`App::core`]) holds the
//! game (refereed by the library: [`Game`]) and the settings; the players'
//! engines sit in their own slots, used on blocking threads, so that a search
//! never blocks the page.
//!
//! Every change bumps a generation number and broadcasts the whole state to the
//! pages (server-sent events); an engine's move computed for a position that
//! has changed since (undo, a new game, a load) is thrown away.

use std::sync::{Arc, PoisonError};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tessera::engine::{AnyGame, CommandError, ErrorKind};
use tessera::record::{Start, parse_rebus_start};
use tokio::sync::{Mutex, broadcast, watch};

use crate::engine::{Engine, EngineError};
use crate::game::{Game, MAX_RECORD_BYTES};
use crate::view::{self, Parts};

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
    /// A move the rules refuse (the engine's own text): a malformed one is a
    /// bad request, a well-formed one the rules forbid is unprocessable.
    pub fn refused(e: CommandError) -> ApiError {
        match e.kind {
            ErrorKind::Syntax => ApiError::bad(e.to_string()),
            _ => ApiError::illegal(e.to_string()),
        }
    }
}

pub struct Core {
    pub game: Game,
    pub players: [Player; 2],
    pub delay_ms: u64,
    pub paused: bool,
    pub analysis: bool,
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
    /// The players' engines, one slot per side (started when first needed),
    /// locked by the thread running that side's search.
    slots: [Arc<std::sync::Mutex<Option<Engine>>>; 2],
    pub events: broadcast::Sender<(String, String)>,
    analysis_target: watch::Sender<Option<AnalysisTarget>>,
}

/// The game the analysis panel follows, at one generation of the state.
#[derive(Clone, Debug)]
pub struct AnalysisTarget {
    pub game: Game,
    pub generation: u64,
}

impl PartialEq for AnalysisTarget {
    fn eq(&self, other: &Self) -> bool {
        self.generation == other.generation
    }
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

/// A move from the page or another client: its text in the rules' notation
/// (`{"move": "K10:C3-K10"}`), or the points the player clicked
/// (`{"move": {"kind": "place", "at": 57}}`, see [`Parts`]).
#[derive(Debug)]
pub enum MoveArg {
    Text(String),
    Parts(Parts),
}

impl<'de> Deserialize<'de> for MoveArg {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match Value::deserialize(d)? {
            Value::String(text) => Ok(MoveArg::Text(text)),
            v @ Value::Object(_) => serde_json::from_value(v)
                .map(MoveArg::Parts)
                .map_err(D::Error::custom),
            other => Err(D::Error::custom(format!(
                "a move is its text (\"K10\") or its points ({{\"kind\": \"place\", \"at\": 57}}), not {other}"
            ))),
        }
    }
}

impl MoveArg {
    /// The move's text, written by the library when it comes as parts.
    fn text(&self, game: &Game) -> Result<String, ApiError> {
        match self {
            MoveArg::Text(t) => clean_token(t, "move"),
            MoveArg::Parts(p) => p.text(game).map_err(ApiError::bad),
        }
    }
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
        let game = match Game::new(Start::Rekushu { size: 9 }) {
            Ok(g) => g,
            Err(e) => unreachable!("9x9 is a Rekushu board: {e}"),
        };
        let app = Arc::new(App {
            engines,
            move_timeout,
            core: Mutex::new(Core {
                game,
                players: [Player::human(), Player::engine("easy")],
                delay_ms: 500,
                paused: false,
                analysis: false,
                engine_error: None,
                message: None,
                thinking: None,
                searches: 0,
                generation: 0,
            }),
            slots: Default::default(),
            events,
            analysis_target,
        });
        let (analysis_app, runtime) = (app.clone(), tokio::runtime::Handle::current());
        std::thread::spawn(move || crate::analysis::run(analysis_app, analysis_rx, runtime));
        {
            let mut core = app.core.lock().await;
            app.changed(&mut core);
        }
        app
    }

    fn engine_for(&self, side: usize) -> &str {
        self.engines
            .get(side)
            .or_else(|| self.engines.first())
            .map_or("tessera", |s| s.as_str())
    }

    /// Broadcasts the new state, and starts an engine's move if one is due.
    fn changed(self: &Arc<Self>, core: &mut Core) {
        core.generation += 1;
        self.broadcast(core);
        self.set_analysis(core);
        self.maybe_engine_move(core);
    }

    pub fn state(&self, core: &Core) -> Value {
        let game = &core.game;
        let colours = game.colours();
        let to_move = game.to_move();
        let mut state = json!({
            "generation": core.generation,
            "game": if game.is_rebus() { "rebus" } else { "rekushu" },
            "start": start_text(game.start()),
            "colours": colours,
            "moves": game.moves(),
            "to_move": colours[to_move.index()],
            "to_move_index": to_move.index(),
            "status": game.status_text(),
            "score": game.score_text(),
            "banner": view::banner(game),
            "players": core.players,
            "delay_ms": core.delay_ms,
            "paused": core.paused,
            "analysis": core.analysis,
            "thinking": core.thinking.map(|(s, _)| colours[s].clone()),
            "engine_error": core.engine_error,
            "message": core.message,
            "engines": self.engines,
        });
        if let (Value::Object(state), Value::Object(board)) = (&mut state, view::board(game)) {
            state.extend(board);
        }
        state
    }

    fn broadcast(&self, core: &Core) {
        let _ = self
            .events
            .send(("state".into(), self.state(core).to_string()));
    }

    fn set_analysis(&self, core: &Core) {
        let target = (core.analysis && !core.game.is_over()).then(|| AnalysisTarget {
            game: core.game.clone(),
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
        if core.game.is_over() || core.engine_error.is_some() || core.thinking.is_some() {
            return;
        }
        let side = core.game.to_move().index();
        let player = core.players[side].clone();
        if !player.is_engine() || core.paused {
            return;
        }
        let both_engines = core.players.iter().all(Player::is_engine);
        let delay = if both_engines { core.delay_ms } else { 0 };
        core.searches += 1;
        let search = core.searches;
        core.thinking = Some((side, search));
        let game = core.game.clone();
        let app = self.clone();
        tokio::spawn(async move {
            if delay > 0 {
                tokio::time::sleep(Duration::from_millis(delay.min(10_000))).await;
            }
            let result = app.genmove(side, &player.level, &game).await;
            app.engine_moved(search, side, &game, result).await;
        });
    }

    /// The move of `side`'s engine in `game`: its text as the engine wrote
    /// it. The engine is started if need be, set to `level` and brought to the
    /// game, all on a blocking thread.
    async fn genmove(
        &self,
        side: usize,
        level: &str,
        game: &Game,
    ) -> Result<Result<String, String>, EngineError> {
        let slot = self.slots[side].clone();
        let command = self.engine_for(side).to_string();
        let (level, game, timeout) = (level.to_string(), game.clone(), self.move_timeout);
        tokio::task::spawn_blocking(move || {
            let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
            let engine = match slot.as_mut() {
                Some(e) => e,
                None => slot.insert(Engine::spawn(&command)?),
            };
            let result = genmove_on(engine, &level, &game, timeout);
            if result.is_err()
                && let Some(mut e) = slot.take()
            {
                e.kill();
            }
            result
        })
        .await
        .unwrap_or_else(|e| Err(EngineError::Crashed(format!("the search's thread: {e}"))))
    }

    async fn engine_moved(
        self: &Arc<Self>,
        search: u64,
        side: usize,
        game: &Game,
        result: Result<Result<String, String>, EngineError>,
    ) {
        let mut core = self.core.lock().await;
        let current = core.thinking == Some((side, search));
        if current {
            core.thinking = None;
        }
        if !current
            || core.game.start() != game.start()
            || core.game.moves() != game.moves()
            || !core.players[side].is_engine()
        {
            // The game changed while the engine thought: its move is thrown
            // away, and a search starts on the new position if one is due.
            self.maybe_engine_move(&mut core);
            self.broadcast(&core);
            return;
        }
        let colour = core.game.colours()[side].clone();
        match result {
            Err(e) => core.engine_error = Some(format!("{colour}'s engine: {e}")),
            Ok(Err(msg)) => {
                core.engine_error = Some(format!("{colour}'s engine refused to move: {msg}"))
            }
            Ok(Ok(mv)) if mv.eq_ignore_ascii_case("resign") => {
                core.game.resign();
                core.message = Some(format!("{colour} resigned"));
            }
            Ok(Ok(mv)) => match clean_token(&mv, "the engine's move") {
                Err(e) => {
                    core.engine_error =
                        Some(format!("{colour}'s engine answered garbage: {}", e.message))
                }
                Ok(mv) => match core.game.play(&mv) {
                    Ok(_) => core.message = None,
                    Err(e) => {
                        core.engine_error = Some(format!(
                            "{colour}'s engine played an illegal move '{mv}': {e}"
                        ))
                    }
                },
            },
        }
        self.changed(&mut core);
    }

    /// Refuses a move from the page when the game is over or an engine is
    /// to move.
    fn human_may_move(core: &Core) -> Result<(), ApiError> {
        if core.game.is_over() {
            return Err(ApiError::conflict(format!(
                "the game is over ({})",
                core.game.status_text()
            )));
        }
        let side = core.game.to_move().index();
        if core.players[side].is_engine() {
            let colour = &core.game.colours()[side];
            return Err(ApiError::conflict(format!(
                "it is {colour}'s turn, and the engine plays {colour}"
            )));
        }
        Ok(())
    }

    /// A move from the page, for the side to move. A REBUS capture is kept by
    /// its canonical token (rules.md §2.8), as the engine's own records are.
    pub async fn human_move(self: &Arc<Self>, mv: MoveArg) -> Result<Value, ApiError> {
        let mut core = self.core.lock().await;
        Self::human_may_move(&core)?;
        let text = mv.text(&core.game)?;
        core.game.play(&text).map_err(ApiError::refused)?;
        core.message = None;
        self.changed(&mut core);
        Ok(self.state(&core))
    }

    /// Whether a move is legal now; nothing changes. For a REBUS capture given
    /// by its squares (a chain being built), also where the chain may go on.
    pub async fn check_move(self: &Arc<Self>, mv: MoveArg) -> Result<Value, ApiError> {
        let core = self.core.lock().await;
        if core.game.is_over() {
            return Err(ApiError::conflict("the game is over"));
        }
        let text = mv.text(&core.game)?;
        let canonical = core.game.check(&text).map_err(ApiError::refused)?;
        let mut reply = json!({"ok": true, "move": canonical, "text": text});
        if let (
            MoveArg::Parts(Parts::Capture {
                attacker,
                steps,
                nominee: None,
            }),
            AnyGame::Rebus(s),
        ) = (&mv, core.game.live())
        {
            let (attacker, steps) =
                view::capture_squares(*attacker, steps).map_err(ApiError::bad)?;
            reply["next"] = json!(view::chain_next(&s.pos, attacker, &steps));
        }
        Ok(reply)
    }

    pub async fn new_game(self: &Arc<Self>, req: NewGame) -> Result<Value, ApiError> {
        let start = match req.game.as_str() {
            "rekushu" => {
                let size = req.size.unwrap_or(9);
                if !(4..=26).contains(&size) {
                    return Err(ApiError::bad(format!(
                        "size {size}: Rekushu boards are 4 to 26"
                    )));
                }
                Start::Rekushu { size }
            }
            "rebus" => {
                let start = req.start.as_deref().map(str::trim).unwrap_or_default();
                let start = if start.is_empty() { "standard" } else { start };
                Start::Rebus {
                    position: Box::new(parse_rebus_start(start).map_err(ApiError::bad)?),
                    turn_limit: req.turn_limit.unwrap_or(400),
                }
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
        let game = Game::new(start).map_err(ApiError::bad)?;
        let mut core = self.core.lock().await;
        core.game = game;
        core.message = None;
        core.thinking = None;
        if let Some(players) = req.players {
            core.players = players;
        }
        self.changed(&mut core);
        Ok(self.state(&core))
    }

    /// Takes back the last move, and the engine's reply before it when one
    /// side is human, so that a human is to move again.
    pub async fn undo(self: &Arc<Self>) -> Result<Value, ApiError> {
        let mut core = self.core.lock().await;
        if core.game.resigned() {
            core.game.undo();
            core.message = None;
            self.changed(&mut core);
            return Ok(self.state(&core));
        }
        if !core.game.undo() {
            return Err(ApiError::conflict("cannot undo: no move to take back"));
        }
        let any_human = core.players.iter().any(|p| !p.is_engine());
        while any_human
            && !core.game.moves().is_empty()
            && core.players[core.game.to_move().index()].is_engine()
        {
            core.game.undo();
        }
        core.thinking = None;
        core.message = None;
        self.changed(&mut core);
        Ok(self.state(&core))
    }

    pub async fn resign(self: &Arc<Self>) -> Result<Value, ApiError> {
        let mut core = self.core.lock().await;
        if core.game.is_over() {
            return Err(ApiError::conflict("the game is over"));
        }
        let side = core.game.to_move();
        core.game.resign();
        core.message = Some(format!("{} resigned", core.game.colour(side)));
        self.changed(&mut core);
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
        self.changed(&mut core);
        Ok(self.state(&core))
    }

    /// Stops the players' engines and clears the error: the next move starts
    /// them again on the game so far.
    pub async fn restart(self: &Arc<Self>) -> Result<Value, ApiError> {
        let mut core = self.core.lock().await;
        for slot in &self.slots {
            // A slot held by a running search is left; it is resynced next time.
            if let Ok(mut s) = slot.try_lock()
                && let Some(mut e) = s.take()
            {
                e.kill();
            }
        }
        core.engine_error = None;
        core.thinking = None;
        self.changed(&mut core);
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
        core.game.record_text([&names[0], &names[1]])
    }

    /// Loads a record, read and replayed by the library as strictly as
    /// `loadgame` reads one; a refused record changes nothing.
    pub async fn load(self: &Arc<Self>, text: &str) -> Result<Value, ApiError> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(ApiError::bad(format!(
                "the record is larger than {} MB",
                MAX_RECORD_BYTES >> 20
            )));
        }
        let game = Game::from_record(text).map_err(ApiError::illegal)?;
        let mut core = self.core.lock().await;
        core.game = game;
        core.thinking = None;
        core.message = Some("record loaded".into());
        self.changed(&mut core);
        Ok(self.state(&core))
    }
}

/// One search: `engine` set to `level`, brought to `game`, asked for its move.
fn genmove_on(
    engine: &mut Engine,
    level: &str,
    game: &Game,
    timeout: Duration,
) -> Result<Result<String, String>, EngineError> {
    if let Err(msg) = engine.set_level(level)? {
        return Ok(Err(format!("level {level}: {msg}")));
    }
    if let Err(msg) = engine.sync(game)? {
        return Ok(Err(msg));
    }
    let reply = engine.command(&format!("genmove {}", game.colour(game.to_move())), timeout)?;
    engine.clear_summaries();
    // The engine played its move: it is at the game after it, written
    // canonically (or somewhere the board does not follow).
    match reply.as_deref().map(|mv| game.check(mv)) {
        Ok(Ok(canonical)) => engine.played(&canonical),
        _ => engine.forget(),
    }
    Ok(reply)
}

/// The start as a record's `Start` tag gives it: `9x9`, or a position string.
fn start_text(start: &Start) -> String {
    match start {
        Start::Rekushu { size } => format!("{size}x{size}"),
        Start::Rebus { position, .. } => position.position_string(),
    }
}
