//! What a game supplies to the searcher beyond its rules: a static evaluation,
//! move-ordering knowledge, which moves are "noisy", and a compact move code for
//! the transposition table.
//!
//! It sits beside [`Game`] rather than inside it so that the rules stay free of
//! search concerns (perft and the protocol need only `Game`), and in `core`
//! rather than `search` so that each game implements it without importing the
//! searcher.
//!
//! Scores are `i32` in centi-units of the game's own score (tiles or squares
//! ×100), always from the side to move's point of view. Decided games are scored
//! by the searcher from [`Game::status`] as `±(WIN - plies from the root)`, so a
//! game never returns a value near [`WIN`] from `evaluate`.

use crate::core::Game;

/// The score of a won position at the root; a win found `n` plies deeper scores
/// `WIN - n`, so shorter wins are preferred and longer losses are preferred.
pub const WIN: i32 = 1_000_000;
/// Anything at or above this (in absolute value) is a forced result, not an
/// evaluation. Evaluations must stay well inside `±WIN_BOUND`.
pub const WIN_BOUND: i32 = WIN - 10_000;
/// Larger than any score; the initial search window.
pub const INFINITY: i32 = WIN + 1;
/// The score of a drawn game.
pub const DRAW: i32 = 0;

/// Level-dependent switches the evaluation may read. The searcher only carries
/// them through; their meaning belongs to each game's evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// REBUS: the search considers every chain set and every nomination that
    /// can matter (`hard` and `mike`, at the root); when false, chains are
    /// capped per start square and only the few most valuable nominations are
    /// tried (see `games::rebus::searchgen`).
    pub exact_chains: bool,
    /// With `exact_chains`: the root move list is exact, the tree below it is
    /// pruned as without (`hard` and `mike`: every distinct move is considered
    /// for play, while the tree stays narrow). The searcher says which list it
    /// asks for ([`ListAt`]); the game decides what that means.
    pub exact_at_root_only: bool,
    /// REBUS: bonus (centi-units) for each lock held, in the evaluation and in
    /// move ordering (locks are then tried first); 0 = neutral.
    pub lock_bonus: i32,
    /// Which static evaluation scores the positions: the game's own choice,
    /// the linear one, or the learned one (a small net,
    /// `games::<game>::nnue`, trained by `tools/training`). `setoption eval`
    /// sets it over the level's.
    pub eval: EvalChoice,
}

/// Which of a game's two static evaluations to play with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalChoice {
    /// The one the game plays by default (each game's `LEARNED_BY_DEFAULT`,
    /// in its `nnue.rs`: set where a match showed the learned one stronger).
    #[default]
    Game,
    Linear,
    Learned,
}

impl EvalChoice {
    /// The learned evaluation when `learned`, else the linear one: a forced
    /// choice, as `setoption eval` and the training tool make it.
    pub fn learned_if(learned: bool) -> EvalChoice {
        if learned {
            EvalChoice::Learned
        } else {
            EvalChoice::Linear
        }
    }
}

impl EvalParams {
    /// Whether to score with the learned evaluation, for a game whose own
    /// choice is `game_default`.
    #[inline]
    pub fn learned(&self, game_default: bool) -> bool {
        match self.eval {
            EvalChoice::Game => game_default,
            EvalChoice::Linear => false,
            EvalChoice::Learned => true,
        }
    }
}

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams {
            exact_chains: true,
            exact_at_root_only: false,
            lock_bonus: 0,
            eval: EvalChoice::Game,
        }
    }
}

/// Where a search move list is made: at the root (the moves the engine may
/// play) or below it. A game may list the root more fully than the tree
/// (REBUS `hard` and `mike`: [`EvalParams::exact_at_root_only`]); the
/// searcher only says which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListAt {
    Root,
    Tree,
}

/// The search switches whose right value depends on the game: what a game
/// asks of the generic searcher's default shape (`SearchParams::for_game`
/// reads it; each value is backed by a match in `docs/strength.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchShape {
    /// Most quiescence plies (the searcher takes the smaller of this and its
    /// own cap). A game where nearly every move is noisy (REBUS: every turn
    /// is a capture) needs a low cap, or quiescence becomes a full-width
    /// search of its own.
    pub quiescence_plies: i32,
    /// Late-move pruning up to this many plies from the horizon (only the
    /// first `base + base · depth² / 2` ordered moves are searched; 0: never).
    pub late_move_pruning_depth: i32,
    pub late_move_pruning_base: usize,
    /// Reverse futility pruning up to this many plies from the horizon, with
    /// this margin per ply in centi-units (0: never).
    pub reverse_futility_depth: i32,
    pub reverse_futility_margin: i32,
    /// Null-move pruning from this many plies left on (0: never). Only for
    /// games where a free move is nearly always worth having; the game
    /// implements [`Evaluate::make_null_move`].
    pub null_move_depth: i32,
    /// Late-move reductions that grow with the depth left and the move's
    /// place in the order: `ln(depth) · ln(index) / (divisor / 100)` plies,
    /// one less at a PV node, at least one, leaving at least one ply (0: the
    /// plain reductions, one ply, two for late moves deep in the tree). For
    /// games with long move lists where few moves matter.
    pub log_reduction_divisor: i32,
    /// Late-move reductions for noisy moves too, as for quiet ones past the
    /// first few, never the table's move: for games where nearly every move
    /// is noisy (REBUS: every turn a capture, most of several squares).
    pub reduce_noisy: bool,
}

impl SearchShape {
    /// The searcher's plain shape: its own quiescence cap, no pruning.
    pub const PLAIN: SearchShape = SearchShape {
        quiescence_plies: i32::MAX,
        late_move_pruning_depth: 0,
        late_move_pruning_base: 8,
        reverse_futility_depth: 0,
        reverse_futility_margin: 0,
        null_move_depth: 0,
        log_reduction_divisor: 0,
        reduce_noisy: false,
    };
}

/// The evaluation contract. Only `evaluate` and `move_to_u32` are required.
pub trait Evaluate: Game {
    /// How this game wants the generic search shaped by default (each
    /// switch measured for the game by matches). Default: the plain shape.
    const SEARCH_SHAPE: SearchShape = SearchShape::PLAIN;

    /// Passes the turn without a move (search only: the rules may forbid
    /// passing). Called only when the game's [`SearchShape::null_move_depth`]
    /// is set, and undone
    /// by [`Evaluate::unmake_null_move`] before anything else is made.
    fn make_null_move(&mut self) {}

    /// Undoes [`Evaluate::make_null_move`].
    fn unmake_null_move(&mut self) {}

    /// Static value of an `Ongoing` position for the side to move, in centi-units.
    /// Must lie strictly inside `±WIN_BOUND`.
    fn evaluate(&self, params: &EvalParams) -> i32;

    /// Ordering bonus from game knowledge (claims, long chains, Star captures,
    /// locks...): larger is tried earlier. Only the order matters, but keep it
    /// within `±1_000_000` so it cannot overflow the picker's arithmetic.
    fn move_hint(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// [`Evaluate::move_hint`] with the level's switches; defaults to it.
    fn move_hint_with(&self, mv: Self::Move, _params: &EvalParams) -> i32 {
        self.move_hint(mv)
    }

    /// The moves the searcher tries in this position. It must append a subset of
    /// [`Game::generate_moves`] that is non-empty whenever that list is, so the
    /// search only ever plays legal moves; a game may leave out moves it can
    /// show to be equivalent to others, or (at weaker settings) moves judged
    /// useless. Default: every legal move, which keeps fixed-depth values equal
    /// to plain minimax.
    fn generate_search_moves(
        &self,
        moves: &mut Vec<Self::Move>,
        _params: &EvalParams,
        _at: ListAt,
    ) {
        self.generate_moves(moves);
    }

    /// [`Evaluate::generate_search_moves`] for a list that may take long to
    /// make: the game asks `keep_going(moves listed so far)` now and then and,
    /// once it answers false, may stop early with a shorter list (still a subset
    /// of the legal moves, and non-empty whenever that is). The searcher says
    /// no when its clock or `stop` has run out, or the list is long enough.
    /// Default: the whole list, without asking.
    fn generate_search_moves_until(
        &self,
        moves: &mut Vec<Self::Move>,
        params: &EvalParams,
        at: ListAt,
        _keep_going: &mut dyn FnMut(usize) -> bool,
    ) {
        self.generate_search_moves(moves, params, at);
    }

    /// The noisy moves of [`Evaluate::generate_search_moves`], in the same
    /// order: what quiescence tries. A game may produce them directly, without
    /// listing the quiet moves first. Default: filter the search moves.
    fn generate_noisy_moves(&self, moves: &mut Vec<Self::Move>, params: &EvalParams, at: ListAt) {
        self.generate_search_moves(moves, params, at);
        moves.retain(|&mv| self.is_noisy(mv));
    }

    /// Moves that change the evaluation sharply (captures, claims, immediate
    /// wins or blocks). Quiescence search plays only these, and they are ordered
    /// before quiet moves. Default: none, which makes quiescence a plain `evaluate`.
    fn is_noisy(&self, _mv: Self::Move) -> bool {
        false
    }

    /// The move `mv` narrows (its base), when `mv` is that move plus
    /// something that only takes replies away from the opponent (REBUS: a
    /// capture with a nomination; its base is the same capture bare). The
    /// root searches the base first and skips `mv` where a reply that refuted
    /// the base is still there after it ([`Evaluate::reply_outlives`]): `mv`
    /// is refuted by the same line. Default: none.
    fn root_base(&self, _mv: Self::Move) -> Option<Self::Move> {
        None
    }

    /// Whether the opponent's `reply` to `root_base(mv)` is just as legal after
    /// `mv` (the game is not over there either) and leads to the very position
    /// it led to after the base. Default: never.
    fn reply_outlives(&self, _mv: Self::Move, _reply: Self::Move) -> bool {
        false
    }

    /// A compact code of `mv` for the transposition table. It need not be
    /// injective across positions: the searcher accepts a stored code only if it
    /// equals the code of a move generated in the current position, so a stale or
    /// colliding entry can never make it play an illegal move. It should be
    /// injective among the legal moves of one position.
    fn move_to_u32(&self, mv: Self::Move) -> u32;
}

/// An evaluation that is a weighted sum of named features,
/// `Σ WEIGHTS[i] · features[i] / DIVISOR[i]` (plus level switches a fit does
/// not touch), so that a tuner can fit the weights to game results
/// (`tools/tune`, `docs/tuning.md`). The first weight (one tile or square of
/// lead, 100) sets the units and is never fitted.
pub trait LinearEval: Game {
    /// The features' short names, in order.
    const NAMES: &'static [&'static str];
    /// What each weighted feature is divided by.
    const DIVISOR: &'static [i32];
    /// The weights the engine plays with.
    const WEIGHTS: &'static [i32];
    /// The position's features, side to move's view.
    fn features(&self) -> Vec<i32>;

    /// The index of the feature called `name` in [`LinearEval::NAMES`].
    fn feature_index(name: &str) -> Option<usize> {
        Self::NAMES.iter().position(|n| *n == name)
    }
}

/// `Σ w[i] · f[i] / divisor[i]`, each term divided on its own (truncating),
/// as a [`LinearEval`] scores its features.
#[inline]
pub fn weighted_sum<const N: usize>(w: &[i32; N], f: &[i32; N], divisor: &[i32; N]) -> i32 {
    let mut s = 0;
    for i in 0..N {
        s += w[i] * f[i] / divisor[i];
    }
    s
}

/// True if `score` is a forced win or loss rather than an evaluation.
#[inline]
pub const fn is_decisive(score: i32) -> bool {
    score >= WIN_BOUND || score <= -WIN_BOUND
}

/// A decisive score as (we win, plies until the end), else `None`: what the
/// texts for people print (`win in 5`, `L4`).
pub const fn proven_result(score: i32) -> Option<(bool, u32)> {
    match plies_to_end(score) {
        Some(n) => Some((score > 0, n.unsigned_abs())),
        None => None,
    }
}

/// Plies until the end for a decisive score (positive: we win), else `None`.
pub const fn plies_to_end(score: i32) -> Option<i32> {
    if score >= WIN_BOUND {
        Some(WIN - score)
    } else if score <= -WIN_BOUND {
        Some(-(WIN + score))
    } else {
        None
    }
}
