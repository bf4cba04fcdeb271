//! Root moves that narrow others. A game may say that a root move is another
//! root move (its base) plus something that can only take replies away from
//! the opponent ([`Evaluate::root_base`]; REBUS: a nominated capture narrows
//! the same capture bare). Such a move can only score as well as its base or
//! better where what it adds removes the base's refutation, so the root:
//!
//! - orders each base just before the first move that narrows it
//!   ([`Worker::group_by_base`]), so that the pass knows how the base fared;
//! - keeps, for this iteration, each base that a reply refuted, with that
//!   reply and the bound it gave ([`Worker::note_refutation`]);
//! - gives a narrowing move its base's bound unsearched when that reply is
//!   still there after it and leads to the same position
//!   ([`Evaluate::reply_outlives`], [`Worker::inherited_bound`]): the two
//!   lines meet, so plain minimax gives the same;
//! - searches the others a ply shallower first
//!   ([`Worker::narrowing_reduction`]): what they add rarely changes the
//!   opponent's best reply, and a move that beats the best so far is searched
//!   again at full depth.

use ahash::AHashMap;

use super::{RootMove, Worker};
use crate::search::eval::Evaluate;

impl<G: Evaluate> Worker<'_, G> {
    /// The bound root move `i` inherits when it narrows a base refuted in
    /// this iteration, by a reply that outlives it, with a bound at most
    /// `floor` (the move cannot raise the score above the floor).
    pub(super) fn inherited_bound(&self, i: usize, floor: i32) -> Option<i32> {
        let rm = &self.root_moves[i];
        let &(reply, bound) = rm.base.and_then(|b| self.refuted.get(&b))?;
        (bound <= floor && self.pos.reply_outlives(rm.mv, reply)).then_some(bound)
    }

    /// How much shallower root move `i` is searched first: a narrowing move
    /// by `root_narrowing_reduction` (with reductions on, when there is depth
    /// to spare), any other move not at all.
    pub(super) fn narrowing_reduction(&self, i: usize, depth: i32) -> i32 {
        let reduction = self.params.root_narrowing_reduction;
        match self.root_moves[i].base {
            Some(_) if self.params.lmr && depth > reduction + 1 => reduction,
            _ => 0,
        }
    }

    /// After root move `i` scored `score` with floor `floor`: a move that
    /// narrows nothing and was refuted by a reply (not by an early exit at
    /// ply 1) leaves that reply and its bound for the moves that narrow it.
    pub(super) fn note_refutation(&mut self, i: usize, score: i32, floor: i32) {
        let rm = &self.root_moves[i];
        if score <= floor
            && rm.base.is_none()
            && let Some(reply) = self.refutation
        {
            self.refuted.insert(rm.mv, (reply, score));
        }
    }

    /// Moves each root move that others narrow ([`Evaluate::root_base`]) to
    /// just before the first of them (the first move stays first), so that
    /// the pass has searched it, and knows its refutation, when it gets to
    /// them. Otherwise the order stays.
    pub(super) fn group_by_base(&mut self) {
        if self.root_moves.len() < 3 {
            return;
        }
        if self.root_moves.iter().all(|r| r.base.is_none()) {
            return;
        }
        let index: AHashMap<G::Move, usize> = self
            .root_moves
            .iter()
            .enumerate()
            .map(|(i, r)| (r.mv, i))
            .collect();
        let mut order = Vec::with_capacity(self.root_moves.len());
        let mut placed = vec![false; self.root_moves.len()];
        placed[0] = true;
        order.push(0);
        for i in 1..self.root_moves.len() {
            if placed[i] {
                continue;
            }
            if let Some(&j) = self.root_moves[i].base.as_ref().and_then(|b| index.get(b))
                && !placed[j]
            {
                placed[j] = true;
                order.push(j);
            }
            placed[i] = true;
            order.push(i);
        }
        let mut old: Vec<Option<RootMove<G::Move>>> = std::mem::take(&mut self.root_moves)
            .into_iter()
            .map(Some)
            .collect();
        self.root_moves = order.into_iter().filter_map(|i| old[i].take()).collect();
    }
}
