//! Every tuning constant of the searcher, in one place.
//!
//! [`SearchParams`] holds the switches a caller (or a test) may change at run
//! time; the plain constants below are structural limits.

use crate::search::eval::Evaluate;

/// Deepest ply the searcher will reach (main search + quiescence). Sizes the
/// per-ply stacks (killers, move buffers, PV table).
pub const MAX_PLY: usize = 128;
/// Deepest nominal iteration.
pub const MAX_DEPTH: i32 = 100;
/// Most search threads accepted: `setoption threads` and `--threads` take 1
/// to this, and the searcher clamps any larger count to it.
pub const MAX_THREADS: usize = 256;
/// Nodes between checks of the stop flag, clock and node limit.
pub const CHECK_EVERY: u64 = 1024;
/// Nodes between checks of the stop flag and the clock alone (the node total
/// is only flushed every `CHECK_EVERY`, so the node limit is seen no sooner).
pub const CLOCK_EVERY: u64 = 128;
/// A move list at least this long (REBUS, ~1,000 moves a position) took long
/// enough to make that the flags and the clock are checked right after it.
pub const LONG_LIST: usize = 512;
/// The root move list may take at most 1/this of the hard deadline to make
/// (a REBUS cluster can have millions of chain sets; scoring what was made
/// must still leave time to search).
pub const ROOT_LIST_TIME_SHARE: u32 = 8;
/// Moves a game may stop listing at (about: it is asked now and then), where
/// it can list more (a REBUS cluster): past this, ordering and searching the
/// list would cost more than any move among the rest could be worth finding.
pub const MAX_LIST: usize = 1 << 16;
/// Size (per side) of the history table; packed moves are hashed into it.
pub const HISTORY_SIZE: usize = 4096;
/// History values are kept within ±HISTORY_MAX (gravity formula).
pub const HISTORY_MAX: i32 = 16_384;

/// Move-picker bands: the TT move, then noisy moves (by hint), then killers,
/// then quiet moves by hint and history.
pub const ORDER_TT: i32 = 1 << 30;
pub const ORDER_NOISY: i32 = 1 << 28;
pub const ORDER_KILLER: i32 = 1 << 27;

/// Time management.
pub const MOVES_TO_GO_DEFAULT: u32 = 30;
/// Safety margin kept off every deadline for protocol and OS latency (ms).
pub const MOVE_OVERHEAD_MS: u64 = 30;
/// The soft deadline (do not start a new iteration) as a fraction of the
/// nominal per-move budget, in percent; the hard deadline (abort) multiplies it.
pub const SOFT_PERCENT: u64 = 60;
pub const HARD_FACTOR: u64 = 3;
/// Never plan to spend more than this share (percent) of the remaining clock.
pub const MAX_CLOCK_PERCENT: u64 = 40;

/// Run-time search switches. `DEFAULT` is what the engine plays with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Maximum quiescence plies (0 disables quiescence: leaves are `evaluate`).
    pub qsearch_plies: i32,
    /// Aspiration window half-width (centi-units); 0 disables aspiration.
    pub aspiration_delta: i32,
    /// Iterations shallower than this use a full window.
    pub aspiration_min_depth: i32,
    /// Late-move reductions. They prune, so fixed-depth values then differ from
    /// plain minimax; the equivalence tests switch them off.
    pub lmr: bool,
    /// Moves tried at full depth before reductions start.
    pub lmr_full_moves: usize,
    /// Minimum remaining depth for a reduction.
    pub lmr_min_depth: i32,
    /// Weight of `move_hint` against history when ordering quiet moves.
    pub hint_weight: i32,
    /// Late-move pruning: at a non-PV node with at most `lmp_depth` plies
    /// left, only the first `lmp_base + lmp_base·depth²/2` moves in order are
    /// searched, once one of them scored above a forced loss (0: off).
    pub lmp_depth: i32,
    pub lmp_base: usize,
    /// Reverse futility pruning: at a non-PV node with at most `rfp_depth`
    /// plies left, a static evaluation at least `rfp_margin · depth` above
    /// beta is returned without a search (0: off).
    pub rfp_depth: i32,
    pub rfp_margin: i32,
    /// Null-move pruning (only where the game implements
    /// [`Evaluate::make_null_move`], as its shape says):
    /// at a non-PV node with at least `null_min_depth` plies left whose
    /// static evaluation is at or above beta, the side to move passes and a
    /// search `null_reduction + depth / 4` plies shallower than usual still
    /// failing high ends the node (0: off).
    pub null_min_depth: i32,
    pub null_reduction: i32,
    /// A root move that narrows another ([`Evaluate::root_base`]: REBUS, a
    /// capture with a nomination) and cannot inherit its refutation is
    /// searched this many plies shallower first, and again at full depth if
    /// it then beats the best so far (with `lmr` only).
    pub root_narrowing_reduction: i32,
    /// Logarithmic late-move reductions ([`crate::core::eval::SearchShape`]):
    /// the divisor in hundredths, 0 for the plain reductions.
    pub lmr_log_divisor: i32,
    /// Late noisy moves are reduced too ([`crate::core::eval::SearchShape`]).
    pub lmr_noisy: bool,
}

impl SearchParams {
    pub const DEFAULT: SearchParams = SearchParams {
        qsearch_plies: 6,
        aspiration_delta: 50,
        aspiration_min_depth: 4,
        lmr: true,
        lmr_full_moves: 3,
        lmr_min_depth: 3,
        hint_weight: 64,
        lmp_depth: 0,
        lmp_base: 8,
        rfp_depth: 0,
        rfp_margin: 0,
        null_min_depth: 0,
        null_reduction: 2,
        root_narrowing_reduction: 1,
        lmr_log_divisor: 0,
        lmr_noisy: false,
    };

    /// The defaults for game `G`: [`SearchParams::DEFAULT`] shaped by the
    /// game's [`Evaluate::SEARCH_SHAPE`] (quiescence capped at its plies, its
    /// pruning switches).
    pub fn for_game<G: Evaluate>() -> SearchParams {
        let shape = G::SEARCH_SHAPE;
        SearchParams {
            qsearch_plies: SearchParams::DEFAULT
                .qsearch_plies
                .min(shape.quiescence_plies),
            lmp_depth: shape.late_move_pruning_depth,
            lmp_base: shape.late_move_pruning_base,
            rfp_depth: shape.reverse_futility_depth,
            rfp_margin: shape.reverse_futility_margin,
            null_min_depth: shape.null_move_depth,
            lmr_log_divisor: shape.log_reduction_divisor,
            lmr_noisy: shape.reduce_noisy,
            ..SearchParams::DEFAULT
        }
    }

    /// Full-width, exact: no reductions. The fixed-depth value then equals
    /// plain minimax with the same quiescence.
    pub const EXACT: SearchParams = SearchParams {
        lmr: false,
        ..SearchParams::DEFAULT
    };
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}
