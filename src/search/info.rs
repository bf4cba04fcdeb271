//! What a search reports: [`SearchInfo`] after each completed iteration (through
//! the caller's callback; the searcher never prints) and [`SearchResult`] at the end.

use std::time::Duration;

/// One root move and its score in the last completed iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMoveInfo<M> {
    pub mv: M,
    /// Side-to-move view, centi-units or `±(WIN - plies)`.
    pub score: i32,
    /// False if `score` is only an upper bound (the move failed low).
    pub exact: bool,
}

/// Progress of the main thread, sent once per completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<M> {
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    pub score: i32,
    /// All threads.
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    /// Principal variation, best move first.
    pub pv: Vec<M>,
    /// Root moves sorted best first ("multi-PV lite": non-best scores may be bounds).
    pub root_moves: Vec<RootMoveInfo<M>>,
    /// With multi-PV ([`crate::search::Searcher::search_multipv`]): the line of
    /// each of the first `multipv` root moves, in `root_moves` order, each
    /// starting with its move (only the move when its score is a bound). Empty
    /// in a plain search.
    pub lines: Vec<Vec<M>>,
    /// Permille of the transposition table written by this search (sampled).
    pub hashfull: usize,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play; `None` only if the root has no legal move.
    pub best_move: Option<M>,
    /// Score of the best line (side to move view); for a noisy pick, the chosen
    /// move's score.
    pub score: i32,
    /// Last completed iteration (0 if stopped before finishing depth 1).
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<M>,
    pub root_moves: Vec<RootMoveInfo<M>>,
}
