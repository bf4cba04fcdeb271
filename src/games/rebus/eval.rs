//! REBUS evaluation, move-ordering hints, noisy moves and move codes.
//!
//! The value is in centi-squares from the side to move's view, a weighted sum
//! of features (names, weights and exact definitions in [`super::evalparams`],
//! the one place to tune them):
//! - **control**: controlled squares, plus a quadratic bonus from
//!   [`NEAR_51_FROM`] squares on, since 51 wins outright;
//! - **Stars**: active Stars by count, concave (the fifth is the cap: a side
//!   at five can gain no Star, and Stars reach two squares);
//! - **locks**: each locked square is safe but cannot attack; a lock one
//!   covered edge from breaking (threshold 2 mixed, 3 uniform) loses most of
//!   that; `EvalParams::lock_bonus` adds per lock held (`hard`, `mike`);
//! - **threats**: own squares the opponent could take next turn (first capture
//!   or chain step; what the opponent captured last turn is protected only
//!   against us), opponent squares we can take now (protection counts), Green
//!   squares in reach of each side;
//! - **chains**: the largest same-symbol region each side could sweep in one
//!   turn (an upper bound on its best chain), worth more to the side to move;
//! - **history boxes**: own squares over a buried opponent tile are cheap for
//!   the opponent to win back (its capture restores its own tile), and the
//!   reverse for us;
//! - **tempo** for the side to move;
//! - **late copies** of squares, threats, chains and tempo, which grow over
//!   the last [`LATE_PLIES`] plies before the turn limit: most games end
//!   there, scored by control, and near it a square of lead weighs more
//!   against threats than it does earlier.
//!
//! Everything is square-set arithmetic (see [`super::threats`]); the only loops
//! are over locks and full history boxes.

use crate::core::Game;
use crate::core::eval::{EvalParams, Evaluate, LinearEval, ListAt, SearchShape, WIN_BOUND};
use crate::games::rebus::evalparams::{
    ATTACKABLE, CHAIN_MOVER, CHAIN_OTHER, DIVISOR, FEATURES, GREEN_REACH, LATE_OF, LATE_PLIES,
    LATE_SQUARE, LOCK_NEAR_BREAK, LOCKED_SQUARE, NAMES, NEAR_51, NEAR_51_FROM, RESTORABLE,
    RebusHints, RebusWeights, SQUARE, STAR1, TEMPO, THREATENED,
};
use crate::games::rebus::locks::covered_edges;
use crate::games::rebus::square::{Squares, bit};
use crate::games::rebus::tile::{Owner, STAR};
use crate::games::rebus::{Move, MoveKind, Position, WINNING_COUNT};

const W: RebusWeights = RebusWeights::DEFAULT;
const H: RebusHints = RebusHints::DEFAULT;

#[inline]
fn near_51(control: i32) -> i32 {
    let d = (control - NEAR_51_FROM).max(0);
    d * d
}

impl Position {
    /// The evaluation (see the module documentation): the weighted
    /// features plus `params.lock_bonus` per lock of lead.
    pub fn eval_with(&self, params: &EvalParams) -> i32 {
        let (f, locks) = self.features_and_locks();
        (W.score(&f) + locks * params.lock_bonus).clamp(-WIN_BOUND / 2, WIN_BOUND / 2)
    }

    /// The evaluation's features, side to move's view (their order and
    /// meaning: [`super::evalparams`]).
    pub fn eval_features(&self) -> [i32; FEATURES] {
        self.features_and_locks().0
    }

    /// The features and the locks held by the side to move minus the
    /// opponent's.
    pub(super) fn features_and_locks(&self) -> ([i32; FEATURES], i32) {
        let mut f = [0; FEATURES];
        let me = self.side;
        let (mi, oi) = (me.index(), me.opp().index());
        let c = self.counts();
        let (cm, co) = (c[mi] as i32, c[oi] as i32);
        f[SQUARE] = cm - co;
        f[NEAR_51] = near_51(cm) - near_51(co);
        f[TEMPO] = 1;

        let sm = self.active_stars(me).min(5) as usize;
        let so = self.active_stars(me.opp()).min(5) as usize;
        // One-hot by count (none is worth 0: the table starts at one Star).
        if sm > 0 {
            f[STAR1 + sm - 1] += 1;
        }
        if so > 0 {
            f[STAR1 + so - 1] -= 1;
        }

        let mut locks = 0;
        for l in self.locks() {
            let k2 = (l.size as i32) * (l.size as i32);
            let sign = if l.owner as usize == mi { 1 } else { -1 };
            let other = self.own[1 - l.owner as usize];
            f[LOCKED_SQUARE] += sign * k2;
            if covered_edges(l.origin, l.size, other) + 1 >= l.threshold() {
                f[LOCK_NEAR_BREAK] += sign * k2;
            }
            locks += sign;
        }

        let mine = self.capture_map(me, self.protected);
        let theirs = self.capture_map(me.opp(), 0);
        let green = self.own[Owner::Green.index()];
        f[ATTACKABLE] = (mine.all & self.own[oi]).count_ones() as i32;
        f[THREATENED] = (theirs.all & self.own[mi]).count_ones() as i32;
        f[GREEN_REACH] =
            (mine.all & green).count_ones() as i32 - (theirs.all & green).count_ones() as i32;
        f[CHAIN_MOVER] = mine.best as i32;
        f[CHAIN_OTHER] = theirs.best as i32;

        let (my_owner, their_owner) = (Owner::of(me), Owner::of(me.opp()));
        for sq in Squares(self.boxed) {
            let (Some(b), v) = (self.boxes[sq as usize], self.visible[sq as usize]) else {
                continue;
            };
            if v.owner == my_owner && b.owner == their_owner {
                f[RESTORABLE] -= 1;
            } else if v.owner == their_owner && b.owner == my_owner {
                f[RESTORABLE] += 1;
            }
        }
        let late = self.late_factor();
        if late > 0 {
            for (k, &i) in LATE_OF.iter().enumerate() {
                f[LATE_SQUARE + k] = f[i] * late;
            }
        }
        (f, locks)
    }

    /// `max(0, LATE_PLIES − plies left before the turn limit)`, 0 without a
    /// limit: how far into the last [`LATE_PLIES`] plies the game is. (Any
    /// `u32` is a limit a user may set, so the plies left are capped before
    /// they become an `i32`.)
    fn late_factor(&self) -> i32 {
        self.plies_left()
            .map_or(0, |left| LATE_PLIES - left.min(LATE_PLIES as u32) as i32)
    }

    /// The ordering hint of `mv` with a lock bonus.
    pub fn hint(&self, mv: Move, lock_bonus: i32) -> i32 {
        match mv.kind() {
            MoveKind::Capture {
                symbol,
                squares,
                nominee,
            } => {
                let me = self.side;
                let oi = me.opp().index();
                let n = squares.count_ones() as i32;
                let opp = squares & self.own[oi];
                let mut h = n * H.square
                    + opp.count_ones() as i32 * H.from_opponent
                    + (opp & self.sym[STAR as usize]).count_ones() as i32 * H.star_capture;
                let my_owner = Owner::of(me);
                for sq in Squares(squares & self.boxed) {
                    if self.boxes[sq as usize].is_some_and(|b| b.owner == my_owner) {
                        h += H.restore;
                    }
                }
                if symbol == STAR {
                    h += n * H.star_copy;
                }
                if self.counts()[me.index()] as i32 + n >= WINNING_COUNT as i32 {
                    h += H.wins;
                }
                if let Some(q) = nominee {
                    h += H.nominate;
                    if self.tile(q).symbol == STAR {
                        h += H.nominate_star;
                    }
                }
                h
            }
            MoveKind::Lock { size, .. } => {
                let k2 = (size as i32) * (size as i32);
                H.lock + k2 * H.lock_square + 10 * lock_bonus.clamp(0, 10_000)
            }
            MoveKind::Pass | MoveKind::Yield => 0,
        }
    }
}

/// Whether a search list is exact (every chain set, every nomination that can
/// matter) where the searcher asks for it: `hard` and `mike` list the root
/// exactly and, with `exact_at_root_only`, the tree pruned.
fn exact_list(params: &EvalParams, at: ListAt) -> bool {
    params.exact_chains && (at == ListAt::Root || !params.exact_at_root_only)
}

impl Evaluate for Position {
    /// Quiescence capped at two plies: every turn is a capture, and most
    /// take two squares or more, so a deeper quiescence is a full-width
    /// search of its own (depth 1 took up to 150 ms at `hard` with six plies,
    /// under 2 ms with two; `tessera bench --times`). Against v0.1.0 (six
    /// plies) two plies scored 13-6-1 in 20 games, one ply 11-8-1.
    ///
    /// Late-move pruning to 3 plies from the horizon: with ~1,000 moves a
    /// position, nearly all of them captures, the few best ordered moves
    /// near the horizon are what counts: 70% in 40 games
    /// against the same engine without it (docs/strength.md).
    ///
    /// Reverse futility pruning to 3 plies (a static evaluation 1.5 squares
    /// a ply above beta is returned) and the null move from 3 plies (the side
    /// to move passes; a capture is nearly always worth more than none):
    /// 81% in 40 games of `hard` against the same engine without them at
    /// 0.1 s a move, and 70% in 20 games of `mike` at 1 s (docs/strength.md,
    /// rounds 7 and 8).
    ///
    /// Logarithmic late-move reductions (divisor 1.5), for late captures of
    /// several squares too, not only quiet moves: 56.0% in 342 games of
    /// `hard` against the same engine without them at 0.1 s a move (+42 ± 34
    /// Elo, SPRT 0/30 accepted); in 1 s `hard` completes 1.2 plies more on
    /// average over the REBUS sample of `tessera bench --mike` (round 30).
    const SEARCH_SHAPE: SearchShape = SearchShape {
        quiescence_plies: 2,
        late_move_pruning_depth: 3,
        reverse_futility_depth: 3,
        reverse_futility_margin: 150,
        null_move_depth: 3,
        log_reduction_divisor: 150,
        reduce_noisy: true,
        ..SearchShape::PLAIN
    };

    /// A pass (search only: the rules allow one only without a capture): the
    /// turn ends as a pass ends it, protection lapses and the ply counts.
    fn make_null_move(&mut self) {
        self.do_move(Move::PASS);
    }

    fn unmake_null_move(&mut self) {
        self.undo_move(Move::PASS);
    }

    /// The learned evaluation instead (`nnue.rs`) where `params` choose it
    /// (by default they do not: `nnue::LEARNED_BY_DEFAULT`).
    fn evaluate(&self, params: &EvalParams) -> i32 {
        if params.learned(super::nnue::LEARNED_BY_DEFAULT)
            && let Some(v) = self.learned_eval(params)
        {
            return v;
        }
        self.eval_with(params)
    }

    fn move_hint(&self, mv: Move) -> i32 {
        self.hint(mv, 0)
    }

    fn move_hint_with(&self, mv: Move, params: &EvalParams) -> i32 {
        self.hint(mv, params.lock_bonus)
    }

    fn generate_search_moves(&self, moves: &mut Vec<Move>, params: &EvalParams, at: ListAt) {
        self.search_moves(moves, exact_list(params, at));
    }

    fn generate_search_moves_until(
        &self,
        moves: &mut Vec<Move>,
        params: &EvalParams,
        at: ListAt,
        keep_going: &mut dyn FnMut(usize) -> bool,
    ) {
        self.search_moves_until(moves, exact_list(params, at), keep_going);
    }

    fn generate_noisy_moves(&self, moves: &mut Vec<Move>, params: &EvalParams, at: ListAt) {
        self.search_noisy_moves(moves, exact_list(params, at));
    }

    /// A nominated capture narrows the same capture bare: the nomination only
    /// protects one more square during the opponent's next turn (rules.md §2.5).
    fn root_base(&self, mv: Move) -> Option<Move> {
        match mv.kind() {
            MoveKind::Capture {
                symbol,
                squares,
                nominee: Some(_),
            } => Some(Move::capture(symbol, squares, None)),
            _ => None,
        }
    }

    /// After the nominated capture, the protection is that of the bare one
    /// plus the nominee, and nothing else differs: a capture that neither
    /// targets nor chains through the nominee is still legal, so the opponent
    /// still has a capture and the game goes on; a pass means it had no
    /// capture after the bare one, so it has none after the nominated one
    /// either, and the game goes on as it did there. Either replaces the
    /// protection, so the two lines meet. (A lock may not be: if the nominee
    /// was the opponent's only target, the game can end by no captures.)
    fn reply_outlives(&self, mv: Move, reply: Move) -> bool {
        let MoveKind::Capture {
            nominee: Some(n), ..
        } = mv.kind()
        else {
            return false;
        };
        match reply.kind() {
            MoveKind::Capture { squares, .. } => squares & bit(n) == 0,
            MoveKind::Pass => true,
            MoveKind::Lock { .. } | MoveKind::Yield => false,
        }
    }

    /// Bare captures (no nomination) that take two or more squares, an
    /// opponent Star, or reach 51. Nominated variants are quiet, so quiescence
    /// does not multiply by the nominations.
    fn is_noisy(&self, mv: Move) -> bool {
        let MoveKind::Capture {
            squares,
            nominee: None,
            ..
        } = mv.kind()
        else {
            return false;
        };
        let n = squares.count_ones();
        let oi = self.side.opp().index();
        n >= 2
            || squares & self.own[oi] & self.sym[STAR as usize] != 0
            || self.counts()[self.side_to_move().index()] + n >= WINNING_COUNT
    }

    fn move_to_u32(&self, mv: Move) -> u32 {
        // A 64-bit mix of the 128 packed bits, folded: distinct in practice among
        // one position's moves, and the searcher only trusts a code that matches
        // a generated move.
        let b = mv.bits();
        let mut z = (b as u64) ^ ((b >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 33)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        z = (z ^ (z >> 33)).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        z ^= z >> 33;
        (z ^ (z >> 32)) as u32
    }
}

impl LinearEval for Position {
    const NAMES: &'static [&'static str] = &NAMES;
    const DIVISOR: &'static [i32] = &DIVISOR;
    const WEIGHTS: &'static [i32] = &W.w;

    fn features(&self) -> Vec<i32> {
        self.eval_features().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::eval::WIN_BOUND;

    #[test]
    fn standard_setup_is_balanced_and_codes_distinct() {
        let p = Position::standard();
        let e = p.evaluate(&EvalParams::default());
        // Symmetric setup: only the tempo and the side to move's view differ.
        assert!(e.abs() < 200, "{e}");
        assert!(e.abs() < WIN_BOUND);
        let mut moves = Vec::new();
        p.generate_moves(&mut moves);
        let mut codes: Vec<u32> = moves.iter().map(|&m| p.move_to_u32(m)).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), moves.len());
    }

    /// The search's null move passes the turn and is undone exactly, in
    /// positions with protection and locks on the board.
    #[test]
    fn null_move_passes_and_is_undone() {
        let mut p = Position::random(7);
        let mut moves = Vec::new();
        for ply in 0..40 {
            let before = p.clone();
            let (hash, side) = (p.hash(), p.side_to_move());
            p.make_null_move();
            assert_eq!(p.side_to_move(), side.opp());
            assert_ne!(p.hash(), hash);
            assert_eq!(p.protected, 0, "a pass ends the mover's protection");
            p.unmake_null_move();
            assert_eq!(p.hash(), hash);
            assert_eq!(p, before, "ply {ply}");
            p.generate_moves(&mut moves);
            let Some(&mv) = moves.get(ply * 7 % moves.len().max(1)) else {
                break;
            };
            p.make_move(mv);
        }
    }
}
