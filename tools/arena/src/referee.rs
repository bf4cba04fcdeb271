//! One game between two engine processes, refereed by the arena's own copy of
//! the rules: every reply is checked, and any misbehaviour loses the game with
//! its reason. A misbehaving engine is killed; its seat respawns it for the
//! next game.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use tessera::core::GameText;
use tessera::core::{Side, Status};
use tessera::games::rebus::Position;

use crate::adjudication::{Adjudication, Tracker, parse_summary};
use crate::ending::{Decision, Ending, FaultKind};
use crate::openings::{GameKind, Opening, rekushu_board};
use crate::spec::{EngineSpec, TimeControl};
use tessera_client::{EngineProcess, ProcessError, Reply};

/// Timing tolerances of the referee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Tolerance added to the clock (or move time) before an overrun loses.
    pub margin: Duration,
    /// How long after clock + margin the referee still waits for a reply; an
    /// engine silent past that is stalled (and killed). A reply that comes in
    /// this window loses on time.
    pub stall_grace: Duration,
    /// The longest wait for a move without a clock (depth, nodes, engine
    /// default), and for any other command.
    pub move_timeout: Duration,
    /// The longest wait for a fresh process to answer its handshake
    /// (`protocol_version`, `name`, `version`).
    pub handshake: Duration,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            margin: Duration::from_millis(100),
            stall_grace: Duration::from_millis(1000),
            move_timeout: Duration::from_secs(60),
            handshake: Duration::from_secs(10),
        }
    }
}

/// The rules of play a game is refereed by, beyond the game's own.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    pub timing: Timing,
    /// A draw after this many plies (after the opening).
    pub max_plies: Option<usize>,
    pub adjudication: Adjudication,
}

/// An engine taking part, with its process if one is running.
pub struct Seat {
    pub spec: EngineSpec,
    pub process: Option<EngineProcess>,
    /// The engine's `name` and `version` replies, from the last handshake.
    pub id: Option<String>,
    /// The handshake's round trip of the process started in this game, if any.
    handshake: Option<Duration>,
}

impl Seat {
    pub fn new(spec: EngineSpec) -> Seat {
        Seat {
            spec,
            process: None,
            id: None,
            handshake: None,
        }
    }

    fn process(&mut self, handshake: Duration) -> Result<&mut EngineProcess, ProcessError> {
        if self.process.is_none() {
            let mut p = EngineProcess::spawn(&self.spec.command)?
                .interruptible(crate::signals::interrupted);
            let (id, rtt) = p.handshake(handshake).map_err(|e| match e {
                ProcessError::Timeout(_) => ProcessError::Handshake(format!(
                    "no handshake within {} ms",
                    handshake.as_millis()
                )),
                e => e,
            })?;
            self.id = Some(id);
            self.handshake = Some(rtt);
            self.process = Some(p);
        }
        self.process
            .as_mut()
            .ok_or(ProcessError::Exited(Some("not running".into())))
    }

    /// Kills the process; the next game starts a new one.
    pub fn restart(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
    }

    /// Ends the process politely (end of the tournament).
    pub fn quit(&mut self) {
        if let Some(p) = self.process.take() {
            p.quit(Duration::from_millis(500));
        }
    }
}

/// One move of the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    pub text: String,
    /// Part of the opening, not chosen by an engine.
    pub opening: bool,
    /// The engine's own summary (`depth … score …`), or the time it took.
    pub comment: Option<String>,
}

/// How long one engine took over a game, as the arena saw it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MoveTimes {
    /// Engine moves (`genmove` replies) timed.
    pub moves: u64,
    /// Their total wall time, command sent to reply received, in ms.
    pub wall_ms: f64,
    /// The longest of them, in ms.
    pub max_wall_ms: f64,
    /// Moves whose summary gave the engine's own time.
    pub reported: u64,
    /// Over those moves: wall time minus the engine's own time, in total and
    /// at most (pipes, process scheduling, the engine's own overhead), in ms.
    pub overhead_ms: f64,
    pub max_overhead_ms: f64,
    /// The handshake's round trip of a process started for this game.
    pub handshake_ms: Option<f64>,
}

impl MoveTimes {
    fn add(&mut self, wall: Duration, engine_ms: Option<u64>) {
        let wall = wall.as_secs_f64() * 1000.0;
        self.moves += 1;
        self.wall_ms += wall;
        self.max_wall_ms = self.max_wall_ms.max(wall);
        if let Some(e) = engine_ms {
            let over = (wall - e as f64).max(0.0);
            self.reported += 1;
            self.overhead_ms += over;
            self.max_overhead_ms = self.max_overhead_ms.max(over);
        }
    }

    /// Adds up games.
    pub fn merge(&mut self, o: &MoveTimes) {
        self.moves += o.moves;
        self.wall_ms += o.wall_ms;
        self.max_wall_ms = self.max_wall_ms.max(o.max_wall_ms);
        self.reported += o.reported;
        self.overhead_ms += o.overhead_ms;
        self.max_overhead_ms = self.max_overhead_ms.max(o.max_overhead_ms);
    }
}

/// How a game ended, by seat: seat 0 moves first.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOutcome {
    /// Who won.
    pub result: Decision,
    /// Why the game ended: `no-placement`, `51`, `resign`, `illegal move
    /// 'K10': …`, `stall: …`…
    pub ending: Ending,
    /// The seat whose misbehaviour ended the game, if any.
    pub fault: Option<usize>,
    /// The score text of the final position (`B+3`, `R+5`, `0`).
    pub score: String,
    pub moves: Vec<MoveRecord>,
    /// The start as a string: Rekushu `8x8`, REBUS the position string.
    pub start: String,
    /// The arena was interrupted during the game: it does not count (a resumed
    /// match plays it again).
    pub interrupted: bool,
    /// Per seat: move times and handshake.
    pub times: [MoveTimes; 2],
    /// Per seat: the engine's id from its handshake, if known.
    pub ids: [Option<String>; 2],
}

/// Plays one game: `seats[0]` moves first.
pub fn play_game(
    kind: GameKind,
    opening: &Opening,
    seats: [&mut Seat; 2],
    limits: Limits,
) -> GameOutcome {
    match (kind, opening) {
        (GameKind::Rekushu { size }, Opening::Moves(moves)) => match rekushu_board(size) {
            Ok(board) => Referee::new(board, seats, limits).run(kind, opening, moves),
            Err(e) => no_game(e.to_string()),
        },
        (GameKind::Rebus, Opening::Deal(seed)) => {
            Referee::new(Position::random(*seed), seats, limits).run(kind, opening, &[])
        }
        (GameKind::Rebus, Opening::Position(text)) => match Position::from_position_string(text) {
            Ok(pos) => Referee::new(pos, seats, limits).run(kind, opening, &[]),
            Err(e) => no_game(e.to_string()),
        },
        _ => no_game(format!(
            "opening '{opening}' is not a {} opening",
            kind.id()
        )),
    }
}

/// A game that could not start for the arena's own reasons (a draw, no fault).
pub fn no_game(reason: String) -> GameOutcome {
    GameOutcome {
        result: Decision::Draw,
        ending: Ending::ArenaError(reason),
        fault: None,
        score: "0".into(),
        moves: Vec::new(),
        start: String::new(),
        interrupted: crate::signals::interrupted(),
        times: [MoveTimes::default(); 2],
        ids: [None, None],
    }
}

/// A lost game: the seat that broke a rule or the protocol, and why.
struct Fault {
    seat: usize,
    ending: Ending,
    /// The engine is in an unknown state (a stall, a crash, garbage, a wrong
    /// move): it is killed and a new process plays its next game. A late but
    /// well-formed reply (a time forfeit) keeps the process: a fresh engine's
    /// first move is its slowest, and a restart would invite the next forfeit.
    restart: bool,
}

impl Fault {
    fn new(seat: usize, ending: Ending) -> Fault {
        Fault {
            seat,
            ending,
            restart: true,
        }
    }
}

struct Referee<'a, G: GameText> {
    pos: G,
    seats: [&'a mut Seat; 2],
    limits: Limits,
    /// Remaining clock time per seat (Fischer only).
    clocks: [Option<Duration>; 2],
    moves: Vec<MoveRecord>,
    times: [MoveTimes; 2],
}

fn colour<G: GameText>(side: Side) -> String {
    G::side_name(side).to_ascii_lowercase()
}

fn seat_of(side: Side) -> usize {
    match side {
        Side::First => 0,
        Side::Second => 1,
    }
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

impl<'a, G: GameText> Referee<'a, G> {
    fn new(pos: G, seats: [&'a mut Seat; 2], limits: Limits) -> Self {
        Referee {
            pos,
            seats,
            limits,
            clocks: [None, None],
            moves: Vec::new(),
            times: [MoveTimes::default(); 2],
        }
    }

    fn run(mut self, kind: GameKind, opening: &Opening, opening_moves: &[String]) -> GameOutcome {
        let start = match kind {
            GameKind::Rekushu { size } => format!("{size}x{size}"),
            GameKind::Rebus => match opening {
                Opening::Position(p) => p.clone(),
                _ => self.position_text(),
            },
        };
        for seat in self.seats.iter_mut() {
            seat.handshake = None;
        }
        let result = self.setup(kind, opening).and_then(|()| {
            for text in opening_moves {
                self.apply(text, true, None)?;
            }
            self.play()
        });
        let mut interrupted = false;
        let (result, ending, fault) = match result {
            Ok((result, ending)) => (result, ending, None),
            Err(_) if crate::signals::interrupted() => {
                // Not the engine's fault: the game is dropped and replayed.
                interrupted = true;
                (Decision::Draw, Ending::Interrupted, None)
            }
            Err(f) => {
                if f.restart {
                    self.seats[f.seat].restart();
                }
                (Decision::Win(1 - f.seat), f.ending, Some(f.seat))
            }
        };
        let mut times = self.times;
        for (t, seat) in times.iter_mut().zip(self.seats.iter()) {
            t.handshake_ms = seat.handshake.map(|d| d.as_secs_f64() * 1000.0);
        }
        GameOutcome {
            result,
            ending,
            fault,
            score: self.pos.score_text(),
            moves: self.moves,
            start,
            interrupted,
            times,
            ids: [self.seats[0].id.clone(), self.seats[1].id.clone()],
        }
    }

    fn position_text(&self) -> String {
        // Only REBUS positions have a position string; go through Any to reach it.
        let any: &dyn std::any::Any = &self.pos;
        any.downcast_ref::<Position>()
            .map(|p| p.position_string())
            .unwrap_or_default()
    }

    /// Sends a command that must succeed, within the move timeout.
    fn command(&mut self, seat: usize, line: &str) -> Result<String, Fault> {
        let timeout = self.limits.timing.move_timeout;
        let fault = |ending: Ending| Fault::new(seat, ending);
        let process = self.seats[seat]
            .process(self.limits.timing.handshake)
            .map_err(|e| fault(spawn_reason(&e)))?;
        match process.ask(line, timeout) {
            Ok(Reply::Ok(text)) => Ok(text),
            Ok(Reply::Err(msg)) => Err(fault(Ending::fault(
                FaultKind::Refused,
                format!("'{line}': {msg}"),
            ))),
            Err(e) => Err(fault(describe(&e, line))),
        }
    }

    fn setup(&mut self, kind: GameKind, opening: &Opening) -> Result<(), Fault> {
        for seat in 0..2 {
            let spec = self.seats[seat].spec.clone();
            let mut lines = spec.init.clone();
            lines.push(format!("game {}", kind.id()));
            match (kind, opening) {
                (GameKind::Rekushu { size }, _) => {
                    lines.push(format!("boardsize {size}"));
                    lines.push("clear_board".into());
                }
                (GameKind::Rebus, Opening::Deal(seed)) => {
                    lines.push(format!("setup random {seed}"))
                }
                (GameKind::Rebus, _) => lines.push(format!("setup {opening}")),
            }
            match spec.tc {
                TimeControl::EngineDefault => {}
                TimeControl::Fischer { base, increment } => {
                    lines.push("limit none".into());
                    lines.push(format!(
                        "fischer_time {:.3} {:.3}",
                        base.as_secs_f64(),
                        increment.as_secs_f64()
                    ));
                    self.clocks[seat] = Some(base);
                }
                TimeControl::MoveTime(t) => {
                    lines.push("limit none".into());
                    lines.push(format!("move_time {:.3}", t.as_secs_f64()));
                }
                TimeControl::Depth(d) => lines.push(format!("limit depth {d}")),
                TimeControl::Nodes(n) => lines.push(format!("limit nodes {n}")),
            }
            for line in lines {
                self.command(seat, &line)?;
            }
            if let Some(p) = self.seats[seat].process.as_mut() {
                p.clear_summaries();
            }
        }
        Ok(())
    }

    /// Checks `text` as a move of the side to move, plays it on the arena's
    /// board and tells the engines that did not choose it. `chooser` is the
    /// seat that chose it and its wall time; returns the score it reported.
    fn apply(
        &mut self,
        text: &str,
        opening: bool,
        chooser: Option<(usize, Duration)>,
    ) -> Result<Option<f64>, Fault> {
        let side = self.pos.side_to_move();
        let mover = seat_of(side);
        let mv = self.pos.parse_move(text).map_err(|e| {
            Fault::new(
                mover,
                match e {
                    tessera::core::MoveError::Syntax(d) => {
                        Ending::fault(FaultKind::UnparsableMove, format!("'{text}': {d}"))
                    }
                    tessera::core::MoveError::Illegal(d) => {
                        Ending::fault(FaultKind::IllegalMove, format!("'{text}': {d}"))
                    }
                },
            )
        })?;
        let canonical = self.pos.format_move(mv);
        self.pos.make_move(mv);
        let mut score = None;
        let comment = chooser.map(|(s, wall)| {
            let summary = self.seats[s]
                .process
                .as_mut()
                .and_then(|p| p.take_summary(text));
            let info = summary.as_deref().map(parse_summary).unwrap_or_default();
            score = info.score;
            self.times[s].add(wall, info.time_ms);
            // The engine's own summary, then the arena's wall-clock time.
            let wall = format!("wall {} ms", wall.as_millis());
            match summary {
                Some(text) => format!("{text} {wall}"),
                None => wall,
            }
        });
        let chooser = chooser.map(|(s, _)| s);
        self.moves.push(MoveRecord {
            text: canonical.clone(),
            opening,
            comment,
        });
        let line = format!("play {} {canonical}", colour::<G>(side));
        for seat in 0..2 {
            if Some(seat) != chooser {
                self.command(seat, &line)?;
            }
        }
        Ok(score)
    }

    fn play(&mut self) -> Result<(Decision, Ending), Fault> {
        let mut plies = 0usize;
        let mut tracker = Tracker::new(self.limits.adjudication);
        let names = [colour::<G>(Side::First), colour::<G>(Side::Second)];
        loop {
            match self.pos.status() {
                Status::Ongoing => {}
                status => {
                    let ending = Ending::Rules(self.pos.end_reason().to_string());
                    let result = match status {
                        Status::Won(side) => Decision::Win(seat_of(side)),
                        _ => Decision::Draw,
                    };
                    return Ok((result, ending));
                }
            }
            if self.limits.max_plies.is_some_and(|m| plies >= m) {
                return Ok((Decision::Draw, Ending::MaxPlies));
            }
            let side = self.pos.side_to_move();
            let seat = seat_of(side);
            let (text, wall) = self.genmove(seat, side)?;
            if text.eq_ignore_ascii_case("resign") {
                return Ok((Decision::Win(1 - seat), Ending::Resign));
            }
            let score = self.apply(&text, false, Some((seat, wall)))?;
            plies += 1;
            // The rules first: a move that ends the game is not adjudicated.
            if self.pos.status() == Status::Ongoing
                && let Some(v) = tracker.update(
                    seat,
                    plies as u32,
                    score,
                    [names[0].as_str(), names[1].as_str()],
                )
            {
                return Ok((v.result, v.ending));
            }
        }
    }

    /// Asks `seat` for its move and times it: the reply and its wall time.
    fn genmove(&mut self, seat: usize, side: Side) -> Result<(String, Duration), Fault> {
        let fault = |ending: Ending| Fault::new(seat, ending);
        let who = colour::<G>(side);
        let (limit, increment) = match self.seats[seat].spec.tc {
            TimeControl::Fischer { increment, .. } => (self.clocks[seat], increment),
            TimeControl::MoveTime(t) => (Some(t), Duration::ZERO),
            _ => (None, Duration::ZERO),
        };
        if let (TimeControl::Fischer { .. }, Some(left)) = (self.seats[seat].spec.tc, limit) {
            self.command(
                seat,
                &format!("time_left {who} {:.3} 0", left.as_secs_f64()),
            )?;
        }
        let timing = self.limits.timing;
        let wait = match limit {
            Some(l) => l + timing.margin + timing.stall_grace,
            None => timing.move_timeout,
        };
        let process = self.seats[seat]
            .process(timing.handshake)
            .map_err(|e| fault(spawn_reason(&e)))?;
        let line = format!("genmove {who}");
        let (text, spent) = match process.ask_timed(&line, wait) {
            Ok((Reply::Ok(text), spent)) => (text, spent),
            Ok((Reply::Err(msg), _)) => {
                return Err(fault(Ending::fault(
                    FaultKind::Refused,
                    format!("'{line}': {msg}"),
                )));
            }
            Err(e) => return Err(fault(describe(&e, &line))),
        };
        if let Some(l) = limit {
            if spent > l + timing.margin {
                self.times[seat].add(spent, None);
                return Err(Fault {
                    restart: false,
                    ..fault(Ending::fault(
                        FaultKind::TimeForfeit,
                        format!(
                            "{} ms used of {} ms (+{} ms margin)",
                            ms(spent),
                            ms(l),
                            ms(timing.margin)
                        ),
                    ))
                });
            }
            if let Some(clock) = self.clocks[seat].as_mut() {
                *clock = clock.saturating_sub(spent) + increment;
            }
        }
        if text.is_empty() || text.contains('\n') {
            return Err(fault(Ending::fault(
                FaultKind::GarbledReply,
                format!("'{line}': '{text}'"),
            )));
        }
        Ok((text, spent))
    }
}

/// A process that could not be started or did not answer its handshake.
fn spawn_reason(e: &ProcessError) -> Ending {
    match e {
        ProcessError::Handshake(d) => Ending::fault(FaultKind::Handshake, d.clone()),
        ProcessError::Garbled(t) => {
            Ending::fault(FaultKind::Handshake, format!("garbled reply '{t}'"))
        }
        e => Ending::fault(FaultKind::Crash, e.to_string()),
    }
}

/// A process failure as a loss reason.
fn describe(e: &ProcessError, line: &str) -> Ending {
    match e {
        ProcessError::Spawn { .. } | ProcessError::Exited(_) | ProcessError::Write(_) => {
            Ending::fault(FaultKind::Crash, format!("{e} (at '{line}')"))
        }
        ProcessError::Timeout(_) => Ending::fault(FaultKind::Stall, format!("{e} to '{line}'")),
        ProcessError::Garbled(text) => {
            Ending::fault(FaultKind::GarbledReply, format!("'{line}': '{text}'"))
        }
        ProcessError::Handshake(d) => Ending::fault(FaultKind::Handshake, d.clone()),
        ProcessError::Interrupted => Ending::Interrupted,
    }
}
