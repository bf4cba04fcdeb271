//! Move generation (rules.md §2.3–2.7): captures with every nomination variant,
//! locks, pass; a counter that multiplies instead of listing; the "has a
//! capture" test behind pass legality and the no-captures end.
//!
//! The nominable squares (the mover's unlocked squares before the turn) do not
//! depend on the captured set, so each capture set gives 1 + #nominable moves.

use super::Move;
use super::chains::{Cutoff, count_chain_sets, for_each_chain_set_until};
use super::locks::{block_mask, break_threshold, covered_edges};
use super::position::Position;
use super::square::{ALL, FILE_H, FILE_I, SquareSet, Squares, reach};
use super::tile::{NUM_PLAYER_SYMBOLS, NUM_SYMBOLS, STAR, Symbol};
use crate::core::Side;

/// What is fixed for one side's captures at the start of its turn.
pub(crate) struct CaptureContext {
    /// Squares a capture or chain step may take, before the symbol tests.
    pub eligible: SquareSet,
    /// Unlocked attackers per symbol.
    pub attackers: [SquareSet; NUM_PLAYER_SYMBOLS],
    /// Squares whose capture restores one of the mover's Stars.
    pub restores_star: SquareSet,
    /// How many more active Stars the mover may gain.
    pub budget: u32,
}

impl Position {
    pub(crate) fn capture_context(&self, side: Side, protected: SquareSet) -> CaptureContext {
        let mine = self.own[side.index()];
        let free = mine & !self.locked;
        let mut attackers = [0; NUM_PLAYER_SYMBOLS];
        for (s, a) in attackers.iter_mut().enumerate() {
            *a = free & self.sym[s];
        }
        CaptureContext {
            eligible: ALL & !mine & !self.locked & !protected,
            attackers,
            restores_star: self.boxed & self.buried_stars[side.index()],
            budget: 5u32.saturating_sub((mine & self.sym[STAR as usize]).count_ones()),
        }
    }

    /// Squares that would add an active Star when captured with attacker symbol `s`.
    #[inline]
    fn star_gain(&self, cx: &CaptureContext, s: Symbol) -> SquareSet {
        cx.restores_star | if s == STAR { ALL & !self.boxed } else { 0 }
    }

    /// Whether `side` has a legal capture with the given protection (rules.md §2.3).
    pub(crate) fn has_capture(&self, side: Side, protected: SquareSet) -> bool {
        let cx = self.capture_context(side, protected);
        for s in 0..NUM_PLAYER_SYMBOLS {
            let a = cx.attackers[s];
            if a == 0 {
                continue;
            }
            let mut t = reach(a, s == STAR as usize) & cx.eligible & !self.sym[s];
            if cx.budget == 0 {
                t &= !self.star_gain(&cx, s as Symbol);
            }
            if t != 0 {
                return true;
            }
        }
        false
    }

    /// Calls `f(cx, s, e, starts, inc)` for every attacker symbol `s` and target
    /// symbol `t` with at least one first target: `e` holds the eligible squares
    /// showing `t`, `starts` those an attacker of symbol `s` reaches, `inc` the
    /// squares that would add an active Star.
    #[inline]
    fn for_each_capture_start(
        &self,
        mut f: impl FnMut(&CaptureContext, Symbol, SquareSet, SquareSet, SquareSet),
    ) {
        let cx = self.capture_context(self.side, self.protected);
        for s in 0..NUM_PLAYER_SYMBOLS {
            let a = cx.attackers[s];
            if a == 0 {
                continue;
            }
            let r = reach(a, s == STAR as usize) & cx.eligible & !self.sym[s];
            if r == 0 {
                continue;
            }
            let inc = self.star_gain(&cx, s as Symbol);
            for t in 0..NUM_SYMBOLS {
                let starts = r & self.sym[t];
                if starts != 0 {
                    f(&cx, s as Symbol, cx.eligible & self.sym[t], starts, inc);
                }
            }
        }
    }

    /// Calls `f(s, S)` for every distinct capture (attacker symbol, captured set).
    pub(crate) fn for_each_capture(&self, f: impl FnMut(Symbol, SquareSet)) {
        self.for_each_capture_until(&mut Cutoff::never(), f);
    }

    /// [`Position::for_each_capture`] until `cutoff` is cut (then some of them).
    fn for_each_capture_until(
        &self,
        cutoff: &mut Cutoff<'_>,
        mut f: impl FnMut(Symbol, SquareSet),
    ) {
        self.for_each_capture_start(|cx, s, e, starts, inc| {
            if !cutoff.is_cut() {
                for_each_chain_set_until(e, starts, inc, cx.budget, usize::MAX, cutoff, |set| {
                    f(s, set)
                });
            }
        });
    }

    /// The number of distinct capture sets (without nominations).
    pub(crate) fn count_capture_sets(&self) -> u64 {
        let mut n = 0;
        self.for_each_capture_start(|cx, _, e, starts, inc| {
            n += count_chain_sets(e, starts, inc, cx.budget);
        });
        n
    }

    /// The squares the mover may nominate after a capture.
    #[inline]
    pub(crate) fn nominable(&self) -> SquareSet {
        self.own[self.side.index()] & !self.locked
    }

    /// Calls `f(origin, size)` for every legal lock of the side to move.
    pub(crate) fn for_each_lock(&self, mut emit: impl FnMut(u8, u8)) {
        let me = self.side.index();
        let free = self.own[me] & !self.locked;
        if free.count_ones() < 4 {
            return;
        }
        let other = self.own[1 - me];
        // Origins whose whole block is free, by shifting the free set onto them.
        let f = free;
        let o2 = f & (f >> 1) & (f >> 9) & (f >> 10) & !FILE_I;
        let o3 = o2 & (f >> 2) & (f >> 11) & (f >> 18) & (f >> 19) & (f >> 20) & !FILE_H;
        for (size, origins) in [(2u8, o2), (3u8, o3)] {
            for origin in Squares(origins) {
                let m = block_mask(origin, size);
                let first = self.visible[origin as usize].symbol;
                let uniform = m & !self.sym[first as usize] == 0;
                if covered_edges(origin, size, other) < break_threshold(uniform) {
                    emit(origin, size);
                }
            }
        }
    }

    /// Appends one move per distinct capture set, without nominations (each
    /// stands for itself and its nomination variants). For move ordering and for
    /// measuring what nominations cost; [`crate::core::Game::generate_moves`]
    /// lists every legal move.
    pub fn generate_capture_sets(&self, out: &mut Vec<Move>) {
        self.for_each_capture(|symbol, squares| out.push(Move::capture(symbol, squares, None)));
    }

    pub(crate) fn gen_moves(&self, out: &mut Vec<Move>) {
        self.gen_moves_until(out, &mut Cutoff::never());
    }

    /// [`Position::gen_moves`] until `cutoff` is cut; false if it was.
    pub(crate) fn gen_moves_until(&self, out: &mut Vec<Move>, cutoff: &mut Cutoff<'_>) -> bool {
        let nominable = self.nominable();
        let mut any = false;
        self.for_each_capture_until(cutoff, |symbol, squares| {
            any = true;
            out.push(Move::capture(symbol, squares, None));
            for n in Squares(nominable) {
                out.push(Move::capture(symbol, squares, Some(n)));
            }
        });
        if !any {
            out.push(Move::PASS);
        }
        self.for_each_lock(|origin, size| out.push(Move::lock(origin, size)));
        !cutoff.is_cut()
    }

    pub(crate) fn count_all_moves(&self) -> u64 {
        let sets = self.count_capture_sets();
        self.count_with_sets(sets)
    }

    /// [`Position::count_all_moves`] when it is at most `cap`; otherwise a
    /// number above `cap`, found without counting the rest (a huge
    /// same-symbol cluster holds hundreds of millions of chain sets).
    pub(crate) fn count_all_moves_capped(&self, cap: u64) -> u64 {
        let per_set = 1 + u64::from(self.nominable().count_ones());
        let sets = std::cell::Cell::new(0u64);
        // Sets are emitted once a start's cluster is explored, so the states
        // explored bound them from below meanwhile: each is a distinct (set,
        // end square) pair, and a set has at most 81 end squares.
        let mut within = |states: usize| {
            let at_least = sets.get().max(states as u64 / 81);
            at_least.saturating_mul(per_set) <= cap
        };
        let mut cutoff = Cutoff::new(&mut within);
        self.for_each_capture_until(&mut cutoff, |_, _| sets.set(sets.get() + 1));
        self.count_with_sets(sets.get())
    }

    /// All moves, given the number of distinct capture sets.
    fn count_with_sets(&self, sets: u64) -> u64 {
        let mut n = if sets == 0 {
            1
        } else {
            sets * (1 + self.nominable().count_ones() as u64)
        };
        self.for_each_lock(|_, _| n += 1);
        n
    }
}
