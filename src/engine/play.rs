//! Engine play: the searcher of each game (made on first use and sized for the
//! settings), the move a level chooses (alpha-beta, or a reference opponent),
//! how it gives up, and the texts a search is reported in. `genmove`,
//! `reg_genmove` and `genmove_analyze` all choose their move here
//! ([`Engine::genmove`]); they differ only in how the search runs
//! ([`SearchRun`]). What they report is data ([`super::report`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::error::CommandError;
use super::report::{Choice, Chosen, Iteration, Report, Summary};
use super::session::Session;
use super::settings::{Reference, Settings};
use super::{AnyGame, Engine, Io, with_session};
use crate::core::eval::Evaluate;
use crate::core::{GameId, GameText, GiveUp, Side};
use crate::games::rebus::Position;
use crate::games::rekushu::Board;
use crate::search::random::{position_seed, random_move_until};
use crate::search::timeman::budget;
use crate::search::uct::{UctBudget, uct_search};
use crate::search::{LevelConfig, Limits, SearchResult, Searcher};

/// Playouts per unit of `limit depth` for UCT, which has no depth.
pub const UCT_PLAYOUTS_PER_DEPTH: u64 = 1_000;

/// The searcher of each game. Only the current game's is held: the other one
/// is freed before this one is made (a switch starts a new game, so it held
/// nothing of use), or two tables of a large `hash` could exhaust the memory
/// between them.
#[derive(Default)]
pub struct Searchers {
    rekushu: Option<Searcher<Board>>,
    rebus: Option<Searcher<Position>>,
}

impl Searchers {
    /// Makes the searcher of `game` ready for `settings` (its table allocated
    /// at the level's size), so that the time this takes is spent answering the
    /// command that changed them, never inside a move. Nothing to do when
    /// nothing changed; nothing for the reference levels.
    pub fn prepare(&mut self, game: GameId, settings: &Settings) {
        if settings.reference.is_some() {
            return;
        }
        let config = settings.config(game);
        match game {
            GameId::Rekushu => {
                self.rebus = None;
                searcher(&mut self.rekushu, &config);
            }
            GameId::Rebus => {
                self.rekushu = None;
                searcher(&mut self.rebus, &config);
            }
        }
    }

    /// Forgets learned search state (a new game).
    pub fn new_game(&mut self) {
        if let Some(s) = self.rekushu.as_mut() {
            s.new_game();
        }
        if let Some(s) = self.rebus.as_mut() {
            s.new_game();
        }
    }

    /// The size of the table `game`'s searcher holds, in MB, if it has one.
    pub fn table_mb(&self, game: GameId) -> Option<usize> {
        match game {
            GameId::Rekushu => self.rekushu.as_ref().map(|s| s.tt().size_mb()),
            GameId::Rebus => self.rebus.as_ref().map(|s| s.tt().size_mb()),
        }
    }

    pub(super) fn rekushu(&mut self) -> &mut Option<Searcher<Board>> {
        &mut self.rekushu
    }

    pub(super) fn rebus(&mut self) -> &mut Option<Searcher<Position>> {
        &mut self.rebus
    }
}

/// The searcher of a game, created on first use and sized for `config`.
pub fn searcher<'a, G: Evaluate>(
    slot: &'a mut Option<Searcher<G>>,
    config: &LevelConfig,
) -> &'a mut Searcher<G> {
    let s = slot.get_or_insert_with(|| Searcher::for_level(config));
    s.apply_level(config);
    s
}

/// How the alpha-beta search of a move runs: `genmove`'s reports each
/// iteration to the info sink ([`PlainRun`]); `genmove_analyze`'s streams it.
pub trait SearchRun {
    /// Called once the colour is checked and the engine is committed to
    /// answering with a move, before anything is searched (a streamed reply
    /// starts here).
    fn accepted(&mut self, _io: &mut Io) {}

    /// Searches `pos` with `searcher`.
    fn search<G: GameText + Evaluate>(
        &mut self,
        searcher: &mut Searcher<G>,
        pos: &G,
        limits: &Limits,
        config: &LevelConfig,
        stop: &AtomicBool,
        io: &mut Io,
    ) -> SearchResult<G::Move>;
}

/// The plain search of `genmove`: each iteration's `info` line to the info sink.
pub struct PlainRun;

impl SearchRun for PlainRun {
    fn search<G: GameText + Evaluate>(
        &mut self,
        searcher: &mut Searcher<G>,
        pos: &G,
        limits: &Limits,
        config: &LevelConfig,
        stop: &AtomicBool,
        io: &mut Io,
    ) -> SearchResult<G::Move> {
        let sink = &mut io.info_sink;
        searcher.search(pos, limits, config, stop, &mut |i| {
            sink(&Report::Iteration(Iteration::of(pos, i)))
        })
    }
}

/// Checks that the engine may move for `colour` now (`name` is the command,
/// quoted in the error).
pub fn check_genmove<G: GameText>(
    s: &Session<G>,
    name: &str,
    colour: &str,
) -> Result<Side, CommandError> {
    let side = Session::<G>::side_arg(colour)?;
    s.check_turn(side, colour).map_err(|e| {
        CommandError::refused(format!(
            "{name} {colour}: {}",
            e.detail.replace(&format!("{colour}: "), "")
        ))
    })?;
    Ok(side)
}

/// The stop flag a move's search listens to: the engine's when the move is
/// chosen on the clock, so that `stop` makes it move now; `never` when its
/// answer does not depend on time (`limit depth`/`limit nodes`, `level
/// random`), so that no `stop` can change it.
fn listened<'s>(
    settings: &Settings,
    stop: &'s AtomicBool,
    never: &'s AtomicBool,
) -> &'s AtomicBool {
    match settings.answer_depends_on_time() {
        true => stop,
        false => never,
    }
}

/// What choosing a move needs besides the session and the searcher.
struct Mover<'a> {
    settings: &'a mut Settings,
    stop: &'a AtomicBool,
    received: Instant,
    io: &'a mut Io,
}

impl Mover<'_> {
    /// `name colour` for one game: check the colour, search (or ask the
    /// reference opponent), give up as the game says, play the move if `commit`.
    fn genmove<G: GameText + Evaluate, R: SearchRun>(
        &mut self,
        s: &mut Session<G>,
        slot: &mut Option<Searcher<G>>,
        name: &str,
        colour: &str,
        commit: bool,
        run: &mut R,
    ) -> Result<Choice, CommandError> {
        let side = check_genmove(s, name, colour)?;
        run.accepted(self.io);
        let start = Instant::now();
        let (best, resign, summary) = match self.settings.reference {
            Some(r) => {
                let (mv, summary) = self.think_reference(&s.pos, r);
                (mv, false, summary)
            }
            None => self.think(s, slot, run),
        };
        if commit {
            self.settings.charge(side, start.elapsed());
        }
        let Some(mut mv) = best else {
            return Err(CommandError::refused(format!(
                "genmove {colour}: no legal move"
            )));
        };
        // GoGui mode: what a point cannot carry is not played (a claim).
        if self.settings.gogui {
            mv = s.pos.as_point(mv).ok_or_else(|| {
                CommandError::refused(format!(
                    "{name} {colour}: no move of this game is a GoGui point (GoGui shows the position; play it in the board, tessera-board)"
                ))
            })?;
        }
        if resign {
            // Giving up: the game says how (REBUS `yield`, Rekushu resigns).
            match s.pos.give_up() {
                GiveUp::Move(y) => {
                    let text = if commit {
                        s.push(y)
                    } else {
                        s.pos.format_move(y)
                    };
                    return Ok(Choice {
                        chosen: Chosen::Move(text),
                        summary,
                    });
                }
                GiveUp::Resign => {
                    if commit {
                        s.resigned = Some(side);
                    }
                    return Ok(Choice {
                        chosen: Chosen::Resign,
                        summary,
                    });
                }
                GiveUp::PlayOn => {}
            }
        }
        let text = if commit {
            s.push(mv)
        } else {
            s.pos.format_move(mv)
        };
        Ok(Choice {
            chosen: Chosen::Move(text),
            summary,
        })
    }

    /// Searches the session's position for the side to move: the best move,
    /// whether the level gives up, and the summary line.
    fn think<G: GameText + Evaluate, R: SearchRun>(
        &mut self,
        s: &Session<G>,
        slot: &mut Option<Searcher<G>>,
        run: &mut R,
    ) -> (Option<G::Move>, bool, Summary) {
        let config = self.settings.config(G::ID);
        let side = s.pos.side_to_move();
        let limits = self.settings.limits_for(side, self.received);
        let searcher = searcher(slot, &config);
        let never = AtomicBool::new(false);
        let stop = listened(self.settings, self.stop, &never);
        let result = run.search(searcher, &s.pos, &limits, &config, stop, self.io);
        let summary = Summary::of(&result);
        let resign =
            config
                .resign
                .gives_up(result.score, s.pos.lead(), s.pos.lost_whatever_played());
        (result.best_move, resign, summary)
    }

    /// A move of a reference level, and its summary line.
    fn think_reference<G: GameText>(
        &self,
        pos: &G,
        reference: Reference,
    ) -> (Option<G::Move>, Summary) {
        let config = self.settings.config(G::ID);
        let limits = self.settings.limits_for(pos.side_to_move(), self.received);
        let never = AtomicBool::new(false);
        let stop = listened(self.settings, self.stop, &never);
        match reference {
            Reference::Random => {
                // The move list on the clock (a REBUS cluster has millions).
                let deadline = budget(&limits, config.move_time).map(|b| self.received + b.hard);
                let mut keep_going =
                    || !stop.load(Ordering::Relaxed) && deadline.is_none_or(|d| Instant::now() < d);
                (
                    random_move_until(pos, config.seed, &mut keep_going),
                    Summary::Random,
                )
            }
            Reference::Uct => {
                // The time since the command arrived is spent already.
                let time = budget(&limits, config.move_time)
                    .map(|b| b.soft.saturating_sub(self.received.elapsed()));
                let playouts = limits.nodes.or_else(|| {
                    time.is_none()
                        .then(|| u64::from(limits.depth.unwrap_or(1)) * UCT_PLAYOUTS_PER_DEPTH)
                });
                let r = uct_search(
                    pos,
                    UctBudget { playouts, time },
                    position_seed(pos, config.seed),
                    stop,
                );
                let summary = Summary::Uct {
                    playouts: r.playouts,
                    nodes: r.nodes,
                    value: r.value,
                    time: r.time,
                };
                (r.best_move, summary)
            }
        }
    }
}

impl Engine {
    /// The move the engine chooses for `colour` now (`name` is the command,
    /// quoted in errors), played when `commit`. A stop meant for this search is
    /// used up, whatever happened; the summary line goes to the info sink.
    pub fn genmove<R: SearchRun>(
        &mut self,
        name: &str,
        colour: &str,
        commit: bool,
        run: &mut R,
    ) -> Result<Choice, CommandError> {
        let (game, searchers, mut mover) = self.mover();
        let result = with_session!(game, searchers, (s, slot) => {
            mover.genmove(s, slot, name, colour, commit, run)
        });
        self.clear_stop();
        let choice = result?;
        self.info(&Report::Chose {
            command: name.to_string(),
            choice: choice.clone(),
        });
        Ok(choice)
    }

    fn mover(&mut self) -> (&mut AnyGame, &mut Searchers, Mover<'_>) {
        let received = self.received;
        (
            &mut self.game,
            &mut self.searchers,
            Mover {
                settings: &mut self.settings,
                stop: &self.stop,
                received,
                io: &mut self.io,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only the current game's table is held: a large `hash` cannot be
    /// allocated twice over by switching games.
    #[test]
    fn one_table_at_a_time() {
        let settings = Settings::default();
        let mut searchers = Searchers::default();
        searchers.prepare(GameId::Rekushu, &settings);
        assert!(searchers.rekushu.is_some() && searchers.rebus.is_none());
        searchers.prepare(GameId::Rebus, &settings);
        assert!(searchers.rekushu.is_none() && searchers.rebus.is_some());
        searchers.prepare(GameId::Rekushu, &settings);
        assert!(searchers.rekushu.is_some() && searchers.rebus.is_none());
    }
}
