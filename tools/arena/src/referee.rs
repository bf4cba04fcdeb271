//! One game between two engine processes, refereed by the arena's own copy of
//! the rules: every reply is checked, and any misbehaviour loses the game with
//! its reason. A misbehaving engine is killed; its seat respawns it for the
//! next game.

use std::time::{Duration, Instant};

use tessera::core::{Side, Status};
use tessera::games::rebus::Position;
use tessera::protocol::session::ProtocolGame;

use crate::openings::{GameKind, Opening, rekushu_board};
use crate::process::{EngineProcess, ProcessError, Reply};
use crate::spec::{EngineSpec, TimeControl};

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
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            margin: Duration::from_millis(100),
            stall_grace: Duration::from_millis(1000),
            move_timeout: Duration::from_secs(60),
        }
    }
}

/// An engine taking part, with its process if one is running.
pub struct Seat {
    pub spec: EngineSpec,
    pub process: Option<EngineProcess>,
}

impl Seat {
    pub fn new(spec: EngineSpec) -> Seat {
        Seat {
            spec,
            process: None,
        }
    }

    fn process(&mut self) -> Result<&mut EngineProcess, ProcessError> {
        if self.process.is_none() {
            self.process = Some(EngineProcess::spawn(&self.spec.command)?);
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

/// How a game ended, by seat: seat 0 moves first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    /// The winning seat, or `None` for a draw.
    pub winner: Option<usize>,
    /// `no-placement`, `51`, `resign`, `illegal move 'K10': …`, `stall: …`…
    pub reason: String,
    /// The seat whose misbehaviour ended the game, if any.
    pub fault: Option<usize>,
    /// The score text of the final position (`B+3`, `R+5`, `0`).
    pub score: String,
    pub moves: Vec<MoveRecord>,
    /// The start as a string: Rekushu `8x8`, REBUS the position string.
    pub start: String,
}

/// Plays one game: `seats[0]` moves first.
pub fn play_game(
    kind: GameKind,
    opening: &Opening,
    seats: [&mut Seat; 2],
    timing: Timing,
    max_plies: Option<usize>,
) -> GameOutcome {
    match (kind, opening) {
        (GameKind::Rekushu { size }, Opening::Moves(moves)) => match rekushu_board(size) {
            Ok(board) => Referee::new(board, seats, timing, max_plies).run(kind, opening, moves),
            Err(e) => no_game(e.to_string()),
        },
        (GameKind::Rebus, Opening::Deal(seed)) => {
            Referee::new(Position::random(*seed), seats, timing, max_plies).run(kind, opening, &[])
        }
        (GameKind::Rebus, Opening::Position(text)) => match Position::from_position_string(text) {
            Ok(pos) => Referee::new(pos, seats, timing, max_plies).run(kind, opening, &[]),
            Err(e) => no_game(e.to_string()),
        },
        _ => no_game(format!(
            "opening '{opening}' is not a {} opening",
            kind.id()
        )),
    }
}

/// A game that could not start for the arena's own reasons (a draw, no fault).
fn no_game(reason: String) -> GameOutcome {
    GameOutcome {
        winner: None,
        reason: format!("arena error: {reason}"),
        fault: None,
        score: "0".into(),
        moves: Vec::new(),
        start: String::new(),
    }
}

/// A lost game: the seat that broke a rule or the protocol, and why.
struct Fault {
    seat: usize,
    reason: String,
}

struct Referee<'a, G: ProtocolGame> {
    pos: G,
    seats: [&'a mut Seat; 2],
    timing: Timing,
    max_plies: Option<usize>,
    /// Remaining clock time per seat (Fischer only).
    clocks: [Option<Duration>; 2],
    moves: Vec<MoveRecord>,
}

fn colour<G: ProtocolGame>(side: Side) -> String {
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

impl<'a, G: ProtocolGame> Referee<'a, G> {
    fn new(pos: G, seats: [&'a mut Seat; 2], timing: Timing, max_plies: Option<usize>) -> Self {
        Referee {
            pos,
            seats,
            timing,
            max_plies,
            clocks: [None, None],
            moves: Vec::new(),
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
        let result = self.setup(kind, opening).and_then(|()| {
            for text in opening_moves {
                self.apply(text, true, None)?;
            }
            self.play()
        });
        let (winner, reason, fault) = match result {
            Ok((winner, reason)) => (winner, reason, None),
            Err(f) => {
                self.seats[f.seat].restart();
                (Some(1 - f.seat), f.reason, Some(f.seat))
            }
        };
        GameOutcome {
            winner,
            reason,
            fault,
            score: self.pos.score_text(),
            moves: self.moves,
            start,
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
        let timeout = self.timing.move_timeout;
        let fault = |reason: String| Fault { seat, reason };
        let process = self.seats[seat]
            .process()
            .map_err(|e| fault(format!("crash: {e}")))?;
        match process.ask(line, timeout) {
            Ok(Reply::Ok(text)) => Ok(text),
            Ok(Reply::Err(msg)) => Err(fault(format!("refused '{line}': {msg}"))),
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
    /// board and tells the engines that did not choose it.
    fn apply(&mut self, text: &str, opening: bool, chooser: Option<usize>) -> Result<(), Fault> {
        let side = self.pos.side_to_move();
        let mover = seat_of(side);
        let mv = self.pos.parse_move(text).map_err(|e| Fault {
            seat: mover,
            reason: match e {
                tessera::core::MoveError::Syntax(d) => format!("unparsable move '{text}': {d}"),
                tessera::core::MoveError::Illegal(d) => format!("illegal move '{text}': {d}"),
            },
        })?;
        let canonical = self.pos.format_move(mv);
        self.pos.make_move(mv);
        let comment = chooser.and_then(|s| {
            self.seats[s]
                .process
                .as_mut()
                .and_then(|p| p.take_summary(text))
        });
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
        Ok(())
    }

    fn play(&mut self) -> Result<(Option<usize>, String), Fault> {
        let mut plies = 0usize;
        loop {
            match self.pos.status() {
                Status::Ongoing => {}
                status => {
                    let last = self.moves.last().map(|m| m.text.as_str());
                    let reason = self.pos.end_reason(last).to_string();
                    let winner = match status {
                        Status::Won(side) => Some(seat_of(side)),
                        _ => None,
                    };
                    return Ok((winner, reason));
                }
            }
            if self.max_plies.is_some_and(|m| plies >= m) {
                return Ok((None, "max-plies".into()));
            }
            let side = self.pos.side_to_move();
            let seat = seat_of(side);
            let text = self.genmove(seat, side)?;
            if text.eq_ignore_ascii_case("resign") {
                return Ok((Some(1 - seat), "resign".into()));
            }
            self.apply(&text, false, Some(seat))?;
            plies += 1;
        }
    }

    /// Asks `seat` for its move and times it.
    fn genmove(&mut self, seat: usize, side: Side) -> Result<String, Fault> {
        let fault = |reason: String| Fault { seat, reason };
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
        let wait = match limit {
            Some(l) => l + self.timing.margin + self.timing.stall_grace,
            None => self.timing.move_timeout,
        };
        let process = self.seats[seat]
            .process()
            .map_err(|e| fault(format!("crash: {e}")))?;
        let line = format!("genmove {who}");
        let start = Instant::now();
        let reply = process.ask(&line, wait);
        let spent = start.elapsed();
        let text = match reply {
            Ok(Reply::Ok(text)) => text,
            Ok(Reply::Err(msg)) => return Err(fault(format!("refused '{line}': {msg}"))),
            Err(e) => return Err(fault(describe(&e, &line))),
        };
        if let Some(l) = limit {
            if spent > l + self.timing.margin {
                return Err(fault(format!(
                    "time forfeit: {} ms used of {} ms (+{} ms margin)",
                    ms(spent),
                    ms(l),
                    ms(self.timing.margin)
                )));
            }
            if let Some(clock) = self.clocks[seat].as_mut() {
                *clock = clock.saturating_sub(spent) + increment;
            }
        }
        if text.is_empty() || text.contains('\n') {
            return Err(fault(format!("garbled reply to '{line}': '{text}'")));
        }
        Ok(text)
    }
}

/// A process failure as a loss reason.
fn describe(e: &ProcessError, line: &str) -> String {
    match e {
        ProcessError::Spawn { .. } | ProcessError::Exited(_) | ProcessError::Write(_) => {
            format!("crash: {e} (at '{line}')")
        }
        ProcessError::Timeout(_) => format!("stall: {e} to '{line}'"),
        ProcessError::Garbled(text) => format!("garbled reply to '{line}': '{text}'"),
    }
}
