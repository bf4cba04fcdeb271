//! The generic searcher, compiled once per game.
//!
//! A game plugs in by implementing [`crate::core::Game`] (rules) and
//! [`Evaluate`] (evaluation, ordering hints, noisy moves, move packing). The
//! caller owns a [`Searcher`] (the transposition table and tuning switches) and
//! calls [`Searcher::search`] with [`Limits`], a [`LevelConfig`], a stop flag and
//! a callback that receives a [`SearchInfo`] per completed iteration. The
//! searcher never prints.
//!
//! Files, one concern each: `eval` (the evaluation contract and score scale),
//! `params` (tuning constants), `tt` (transposition table), `ordering` (move
//! picker, killers, history), `alphabeta` (the search), `timeman` (limits and
//! deadlines), `threads` (Lazy SMP), `levels` (playing levels), `info`
//! (reports), `bench` (the node-count signature), `testgame` (a Connect-Four for tests and benches: only with `cfg(test)` or the `testgame` feature, which the tests and benches turn on).

mod alphabeta;
pub mod bench;
pub mod eval;
pub mod info;
pub mod levels;
pub mod ordering;
pub mod params;
pub mod random;
#[doc(hidden)]
#[cfg(any(test, feature = "testgame"))]
pub mod testgame;
mod threads;
pub mod timeman;
pub mod tt;
pub mod uct;

use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;

pub use eval::{EvalParams, Evaluate};
pub use info::{RootMoveInfo, SearchInfo, SearchResult};
pub use levels::{Level, LevelConfig, LevelError, Resign};
pub use params::SearchParams;
pub use timeman::{Clock, Limits};
pub use tt::TranspositionTable;

/// The searcher of one game: owns the transposition table, which persists from
/// move to move until [`Searcher::new_game`].
pub struct Searcher<G: Evaluate> {
    tt: TranspositionTable,
    /// The size asked for (the table may be smaller where memory was short).
    tt_asked_mb: usize,
    params: SearchParams,
    _game: PhantomData<fn() -> G>,
}

impl<G: Evaluate> Searcher<G> {
    /// A searcher with a table of about `tt_mb` megabytes.
    pub fn new(tt_mb: usize) -> Self {
        Searcher {
            tt: TranspositionTable::new(tt_mb),
            tt_asked_mb: tt_mb,
            params: SearchParams::for_game::<G>(),
            _game: PhantomData,
        }
    }

    /// A searcher sized for `config` (its `tt_mb`).
    pub fn for_level(config: &LevelConfig) -> Self {
        Self::new(config.tt_mb)
    }

    /// Resizes the table to the level's size if that differs from the size
    /// last asked for (clearing it then).
    pub fn apply_level(&mut self, config: &LevelConfig) {
        if self.tt_asked_mb != config.tt_mb {
            self.resize_tt(config.tt_mb);
        }
    }

    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Replaces every switch, the quiescence depth included (the game's
    /// shape, [`Evaluate::SEARCH_SHAPE`], applies only to the default). A
    /// null-move depth is ignored for a game whose shape has none (it does
    /// not implement the null move).
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
    }

    /// Forgets everything learned (a new game starts).
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

    /// Reallocates the table to about `mb` megabytes (and clears it).
    pub fn resize_tt(&mut self, mb: usize) {
        self.tt.resize(mb);
        self.tt_asked_mb = mb;
    }

    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Searches `root` within `limits` (see [`Limits`]; with none, the level's
    /// time per move) on `config.threads` threads. Returns when a limit is
    /// reached or `stop` is set; the best move is legal whenever one exists.
    /// `report` is called on the calling thread after each completed iteration.
    pub fn search(
        &mut self,
        root: &G,
        limits: &Limits,
        config: &LevelConfig,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        threads::search(self, root, limits, config, 1, stop, report)
    }

    /// [`Searcher::search`] for analysis: the first `multipv` root moves get
    /// exact scores and lines each iteration ([`SearchInfo::lines`]), at the
    /// cost of wider windows (no aspiration). `multipv` 1 is the plain search.
    pub fn search_multipv(
        &mut self,
        root: &G,
        limits: &Limits,
        config: &LevelConfig,
        multipv: usize,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        threads::search(self, root, limits, config, multipv.max(1), stop, report)
    }
}
