//! The search proper, one [`Worker`] per thread: iterative deepening with
//! aspiration windows, a principal-variation (negamax alpha-beta) search with
//! the transposition table, killers, history and optional late-move
//! reductions, and a quiescence search over the game's noisy moves. At the
//! root, moves that only narrow others are handled in `narrowing.rs`.
//!
//! Scores are fail-soft and from the side to move's view. A decided game scores
//! `±(WIN - ply)` from the root, preferring fast wins and slow losses.
//! Without reductions, the value at a fixed depth equals plain minimax with the
//! same quiescence (tested in `tests/search_minimax.rs`).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use ahash::AHashMap;

use crate::core::Status;
use crate::search::eval::{
    DRAW, EvalParams, Evaluate, INFINITY, ListAt, WIN, WIN_BOUND, is_decisive, plies_to_end,
};
use crate::search::info::RootMoveInfo;
use crate::search::ordering::{History, Killers, ScoredMove, pick, score_moves};
use crate::search::params::{
    CHECK_EVERY, CLOCK_EVERY, HISTORY_MAX, LONG_LIST, MAX_LIST, MAX_PLY, ORDER_KILLER, ORDER_TT,
    ROOT_LIST_TIME_SHARE, SearchParams,
};
use crate::search::timeman::TimeManager;
use crate::search::tt::{Bound, TranspositionTable};

mod narrowing;

/// What all threads of one search share.
#[derive(Clone, Copy)]
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    /// The caller's stop flag.
    pub stop: &'a AtomicBool,
    /// Set by the main thread when it is done or a limit is hit: helpers stop.
    pub abort: &'a AtomicBool,
    /// Nodes of all threads, flushed every `CHECK_EVERY` nodes.
    pub nodes: &'a AtomicU64,
    pub node_limit: Option<u64>,
    pub time: TimeManager,
    /// The deepest iteration any thread has completed.
    pub completed: &'a AtomicU32,
    /// Whether a thread drops an iteration another thread has completed
    /// (Lazy SMP with helpers whose results count; see `threads.rs`).
    pub leapfrog: bool,
}

impl Shared<'_> {
    /// A flag is set, or (asked by the main thread, which owns the clock) the
    /// hard deadline has passed.
    fn must_stop(&self, is_main: bool) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.abort.load(Ordering::Relaxed)
            || (is_main && self.time.hard_expired())
    }
}

/// A root move and what the iterations found about it.
#[derive(Clone, Debug)]
struct RootMove<M> {
    mv: M,
    score: i32,
    exact: bool,
    /// Multi-PV only: the line of the last exact search of this move (the move
    /// first); empty otherwise.
    pv: Vec<M>,
    /// The root move this one narrows ([`Evaluate::root_base`]).
    base: Option<M>,
}

/// The result of the iteration of `depth`, stopped before its end after it
/// found `leader` better than the best move of `last`, the iteration before:
/// `leader`'s move first, the other root moves as `last` left them.
fn partial<M: Copy + PartialEq>(
    depth: u32,
    last: &Completed<M>,
    leader: Leader<M>,
) -> Completed<M> {
    let mv = leader.pv[0];
    let mut root_moves = Vec::with_capacity(last.root_moves.len());
    root_moves.push(RootMoveInfo {
        mv,
        score: leader.score,
        exact: true,
    });
    root_moves.extend(last.root_moves.iter().filter(|r| r.mv != mv).cloned());
    Completed {
        depth,
        score: leader.score,
        pv: leader.pv,
        root_moves,
        lines: Vec::new(),
        partial: true,
    }
}

/// What a worker tells its caller after an iteration.
pub(crate) enum Iteration<'c, M> {
    /// The worker completed this iteration.
    Completed(&'c Completed<M>),
    /// Another thread completed the depth under way first: the worker
    /// dropped its own search of it and goes on deeper.
    Superseded,
}

/// The result of the last completed iteration, or of an iteration stopped
/// after it found a move better than the last completed one's (`partial`).
#[derive(Clone, Debug)]
pub(crate) struct Completed<M> {
    pub depth: u32,
    pub score: i32,
    pub pv: Vec<M>,
    pub root_moves: Vec<RootMoveInfo<M>>,
    /// Multi-PV only: the lines of the first `multipv` root moves (see
    /// [`crate::search::SearchInfo::lines`]).
    pub lines: Vec<Vec<M>>,
    /// The iteration of `depth` was stopped before its end: `pv[0]` is a move
    /// it searched to the end and found better than the best move of the
    /// iteration before, and the other root moves are as that one left them.
    pub partial: bool,
}

/// A root move the iteration under way has searched to the end and found
/// better than the last completed iteration's best move.
#[derive(Clone, Debug)]
struct Leader<M> {
    /// Exact, or a lower bound where the move failed high.
    score: i32,
    /// Its line, the move first.
    pv: Vec<M>,
}

pub(crate) struct Worker<'a, G: Evaluate> {
    shared: Shared<'a>,
    params: SearchParams,
    eval: EvalParams,
    pos: G,
    is_main: bool,
    pub nodes: u64,
    unflushed: u64,
    pub seldepth: usize,
    stopped: bool,
    /// The depth of the iteration under way.
    iter_depth: u32,
    /// The iteration under way was stopped because another thread completed
    /// its depth (`Shared::leapfrog`).
    superseded: bool,
    killers: Killers<G::Move>,
    history: History,
    /// One move list per ply, reused (taken out and put back) to avoid allocation.
    lists: Vec<Vec<ScoredMove<G::Move>>>,
    scratch: Vec<G::Move>,
    /// Triangular PV table: `pv[ply]` is the best line from `ply`.
    pv: Vec<Vec<G::Move>>,
    root_moves: Vec<RootMove<G::Move>>,
    /// Root moves that get an exact score each iteration (1: only the best).
    multipv: usize,
    /// `null_at[ply]`: the move that led to `ply` was a null move (no two in
    /// a row).
    null_at: Vec<bool>,
    /// The move that made the last search at ply 1 fail high (the reply that
    /// refuted the root move under search), if it failed high by a move.
    refutation: Option<G::Move>,
    /// This iteration's refuted root moves that other root moves narrow
    /// ([`Evaluate::root_base`]): each one's refuting reply and score (an
    /// upper bound).
    refuted: AHashMap<G::Move, (G::Move, i32)>,
    /// The best move of the last completed iteration, while the iteration
    /// under way looks for a better one (main thread, one line, no noise).
    prev_best: Option<G::Move>,
    /// What the iteration under way has found better than `prev_best`.
    leader: Option<Leader<G::Move>>,
}

impl<'a, G: Evaluate> Worker<'a, G> {
    pub fn new(
        shared: Shared<'a>,
        params: SearchParams,
        eval: EvalParams,
        root: &G,
        is_main: bool,
    ) -> Self {
        Worker {
            shared,
            params,
            eval,
            pos: root.clone(),
            is_main,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            stopped: false,
            iter_depth: 0,
            superseded: false,
            killers: Killers::default(),
            history: History::default(),
            lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            scratch: Vec::with_capacity(256),
            pv: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(32)).collect(),
            root_moves: Vec::new(),
            multipv: 1,
            null_at: vec![false; MAX_PLY + 2],
            refutation: None,
            refuted: AHashMap::new(),
            prev_best: None,
            leader: None,
        }
    }

    /// Makes the first `n` root moves exact each iteration (analysis); 1, the
    /// default, is the plain search. More than one turns off aspiration windows.
    pub fn set_multipv(&mut self, n: usize) {
        self.multipv = n.max(1);
    }

    /// The lines of the first `multipv` root moves, best first (multi-PV only).
    fn root_lines(&self) -> Vec<Vec<G::Move>> {
        if self.multipv <= 1 {
            return Vec::new();
        }
        self.root_moves
            .iter()
            .take(self.multipv)
            .enumerate()
            .map(|(i, r)| match i {
                0 if !self.pv[0].is_empty() => self.pv[0].clone(),
                _ if r.exact && !r.pv.is_empty() => r.pv.clone(),
                _ => vec![r.mv],
            })
            .collect()
    }

    /// The root moves in search order (best first after an iteration).
    pub fn root_move_list(&self) -> Vec<RootMoveInfo<G::Move>> {
        self.root_moves
            .iter()
            .map(|r| RootMoveInfo {
                mv: r.mv,
                score: r.score,
                exact: r.exact,
            })
            .collect()
    }

    pub fn static_eval(&self) -> i32 {
        self.pos.evaluate(&self.eval)
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    /// Counts a node; every `CHECK_EVERY` nodes looks at the flags, the clock and
    /// the node limit. Returns true once the search must unwind.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= CHECK_EVERY {
            self.flush_nodes();
            self.poll();
        } else if self.unflushed.is_multiple_of(CLOCK_EVERY) {
            // The clock and the flags more often than the node total: a slow
            // node (a long REBUS list) or a loaded machine must not carry the
            // search far past its deadline.
            self.poll();
        }
        self.stopped
    }

    fn poll(&mut self) {
        if self.shared.stop.load(Ordering::Relaxed) || self.shared.abort.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if self.shared.leapfrog
            && self.iter_depth > 0
            && self.shared.completed.load(Ordering::Relaxed) >= self.iter_depth
        {
            self.stopped = true;
            self.superseded = true;
        }
        if self.is_main {
            let over_nodes = self
                .shared
                .node_limit
                .is_some_and(|n| self.shared.nodes.load(Ordering::Relaxed) >= n);
            if over_nodes || self.shared.time.hard_expired() {
                self.stopped = true;
                self.shared.abort.store(true, Ordering::Relaxed);
            }
        }
    }

    /// The score of a finished game at `ply`, or `None` if it goes on.
    #[inline]
    fn terminal(&self, ply: usize) -> Option<i32> {
        match self.pos.status() {
            Status::Ongoing => None,
            Status::Draw => Some(DRAW),
            Status::Won(side) if side == self.pos.side_to_move() => Some(WIN - ply as i32),
            Status::Won(_) => Some(-(WIN - ply as i32)),
        }
    }

    /// Generates and scores the moves of the current position into `list`.
    fn fill_list(
        &mut self,
        list: &mut Vec<ScoredMove<G::Move>>,
        ply: usize,
        tt_move: Option<u32>,
        noisy_only: bool,
    ) {
        list.clear();
        self.scratch.clear();
        // Quiescence lists only noisy moves, in the order the full list has them.
        let at = if ply == 0 { ListAt::Root } else { ListAt::Tree };
        if noisy_only {
            self.pos
                .generate_noisy_moves(&mut self.scratch, &self.eval, at);
        } else {
            let shared = self.shared;
            let is_main = self.is_main;
            // The root list is scored and ordered after it is made, which costs
            // more than making it: it may take only a share of the time.
            let share = if ply == 0 { ROOT_LIST_TIME_SHARE } else { 1 };
            let mut keep_going = |listed: usize| {
                listed < MAX_LIST
                    && !shared.must_stop(is_main)
                    && !(is_main && shared.time.hard_share_spent(share))
            };
            self.pos.generate_search_moves_until(
                &mut self.scratch,
                &self.eval,
                at,
                &mut keep_going,
            );
        }
        // A long list took long to make: look at the clock and the flags now
        // rather than up to `CHECK_EVERY` such nodes later. (Only the clock and
        // the flags can say stop here: the node total changes only when
        // `tick` flushes, and it polls then.)
        if self.scratch.len() >= LONG_LIST {
            self.poll();
        }
        list.extend(self.scratch.iter().map(|&mv| ScoredMove {
            mv,
            score: 0,
            noisy: false,
        }));
        let killers = if noisy_only {
            [None; 2]
        } else {
            self.killers.get(ply)
        };
        score_moves(
            &self.pos,
            list,
            tt_move,
            killers,
            &self.history,
            &self.params,
            &self.eval,
        );
        if noisy_only {
            list.retain(|sm| sm.noisy);
        }
    }

    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// Runs iterations up to `max_depth`, calling `on_iteration` after each
    /// completed one (and, with `Shared::leapfrog`, each one dropped because
    /// another thread completed its depth first: the next iteration is then one
    /// deeper than that). Returns the last iteration this worker completed, if
    /// any. `margin` > 0 makes root scores exact within `margin` of the best
    /// (noise); `start_depth` staggers helper threads (with leapfrog, a worker
    /// that starts at depth 2 goes on one ply deeper than the deepest
    /// completed one).
    pub fn iterative_deepening(
        &mut self,
        max_depth: u32,
        margin: i32,
        start_depth: u32,
        on_iteration: &mut dyn FnMut(&Self, Iteration<'_, G::Move>),
    ) -> Option<Completed<G::Move>> {
        let mut list = Vec::new();
        let tt_move = self.shared.tt.probe(self.pos.hash(), 0).and_then(|h| h.mv);
        self.fill_list(&mut list, 0, tt_move, false);
        let mut order: Vec<usize> = (0..list.len()).collect();
        // Stable: equal scores keep generation order.
        order.sort_by_key(|&i| std::cmp::Reverse(list[i].score));
        self.root_moves = order
            .iter()
            .map(|&i| RootMove {
                mv: list[i].mv,
                score: -INFINITY,
                exact: false,
                pv: Vec::new(),
                base: self.pos.root_base(list[i].mv),
            })
            .collect();
        if self.root_moves.is_empty() {
            return None;
        }
        self.group_by_base();

        let mut completed: Option<Completed<G::Move>> = None;
        let mut depth = start_depth.max(1);
        while depth <= max_depth {
            if self.shared.stop.load(Ordering::Relaxed) || self.shared.abort.load(Ordering::Relaxed)
            {
                break;
            }
            if self.shared.leapfrog {
                // The next depth nobody has completed, plus the stagger (a
                // helper that started ahead stays one ply ahead).
                let done = self.shared.completed.load(Ordering::Relaxed);
                let next = (done + start_depth.max(1)).min(max_depth);
                if done >= depth {
                    on_iteration(self, Iteration::Superseded);
                    if done >= max_depth {
                        break;
                    }
                }
                if next > depth {
                    depth = next;
                    continue;
                }
            }
            self.iter_depth = depth;
            let any_done = completed.is_some() || self.shared.completed.load(Ordering::Relaxed) > 0;
            if any_done && self.is_main && self.shared.time.soft_expired() {
                break;
            }
            let prev = completed.as_ref().map(|c| c.score);
            // The first iteration is a plain search, so that a move is known
            // within milliseconds: exact scores for every move within `margin`
            // cost several times more (REBUS: most captures are within it).
            // Noise then applies once depth 2 is done, or at once when depth 1
            // is all there is.
            let margin_now = if depth >= 2 || depth == max_depth {
                margin
            } else {
                0
            };
            self.refuted.clear();
            // A move this iteration shows better than the last one's best is
            // the answer if the iteration is stopped before its end (one
            // line, no noise: the scores of the other moves are not needed).
            self.leader = None;
            self.prev_best = match &completed {
                Some(c) if self.is_main && margin_now == 0 && self.multipv <= 1 => {
                    c.root_moves.first().map(|r| r.mv)
                }
                _ => None,
            };
            let score = self.aspiration(depth as i32, prev, margin_now);
            if self.stopped {
                if std::mem::take(&mut self.superseded)
                    && !self.shared.stop.load(Ordering::Relaxed)
                    && !self.shared.abort.load(Ordering::Relaxed)
                {
                    // Another thread completed this depth: go on from there
                    // (the loop's top reports it and moves past it).
                    self.stopped = false;
                    continue;
                }
                if let (Some(last), Some(leader)) = (&completed, self.leader.take()) {
                    completed = Some(partial(depth, last, leader));
                }
                break;
            }
            self.flush_nodes();
            let done = Completed {
                depth,
                score,
                pv: self.pv[0].clone(),
                root_moves: self.root_move_list(),
                lines: self.root_lines(),
                partial: false,
            };
            on_iteration(self, Iteration::Completed(&done));
            // After the report: a thread this supersedes finds the iteration.
            self.shared.completed.fetch_max(depth, Ordering::Relaxed);
            let proven = plies_to_end(score).is_some_and(|p| p < depth as i32);
            completed = Some(done);
            if proven {
                break;
            }
            // A single legal move needs no deeper look when time matters.
            if self.root_moves.len() == 1 && self.shared.time.is_timed() {
                break;
            }
            depth += 1;
        }
        self.flush_nodes();
        completed
    }

    fn aspiration(&mut self, depth: i32, prev: Option<i32>, margin: i32) -> i32 {
        let delta0 = self.params.aspiration_delta;
        let prev = match prev {
            Some(p)
                if delta0 > 0
                    && margin == 0
                    && self.multipv <= 1
                    && depth >= self.params.aspiration_min_depth
                    && !is_decisive(p) =>
            {
                p
            }
            _ => return self.root_search(depth, -INFINITY, INFINITY, margin),
        };
        let mut delta = delta0;
        let mut alpha = (prev - delta).max(-INFINITY);
        let mut beta = (prev + delta).min(INFINITY);
        loop {
            let score = self.root_search(depth, alpha, beta, 0);
            if self.stopped {
                return score;
            }
            if score <= alpha && alpha > -INFINITY {
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta && beta < INFINITY {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta = delta.saturating_mul(2);
            if delta > 20 * delta0 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// One pass over the root moves with window `(alpha, beta)`. Leaves the root
    /// moves sorted best first and the PV in `pv[0]`.
    fn root_search(&mut self, depth: i32, alpha: i32, beta: i32, margin: i32) -> i32 {
        self.pv[0].clear();
        let mut best = -INFINITY;
        let mut best_index = 0;
        // A move that beats this pass's first move is better than the last
        // iteration's best when the first move is that one, or a move this
        // iteration already showed better than it.
        let first = self.root_moves[0].mv;
        let from_best = self.prev_best == Some(first)
            || self
                .leader
                .as_ref()
                .is_some_and(|l| l.pv.first() == Some(&first));
        let multi = self.multipv > 1;
        // Multi-PV: the exact scores of this pass, best first, at most `multipv`.
        let mut top: Vec<i32> = Vec::new();
        for i in 0..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            // With noise, every move within `margin` of the best must get an exact
            // score, so the window's floor is lowered by `margin`. With multi-PV,
            // the floor is the `multipv`-th best exact score so far.
            let floor = if multi {
                match top.get(self.multipv - 1) {
                    Some(&kth) => alpha.max(kth),
                    None => alpha,
                }
            } else {
                alpha.max(best.saturating_sub(margin.max(0)))
            };
            let full = i == 0 || (multi && top.len() < self.multipv);
            if !full && let Some(bound) = self.inherited_bound(i, floor) {
                let rm = &mut self.root_moves[i];
                rm.score = bound;
                rm.exact = false;
                continue;
            }
            let reduction = self.narrowing_reduction(i, depth);
            self.refutation = None;
            self.pos.make_move(mv);
            let mut score;
            if full {
                score = -self.negamax(depth - 1, 1, -beta, -floor, true);
            } else {
                score = -self.negamax(depth - 1 - reduction, 1, -floor - 1, -floor, false);
                if score > floor && reduction > 0 && !self.stopped {
                    score = -self.negamax(depth - 1, 1, -floor - 1, -floor, false);
                }
                if score > floor && score < beta && !self.stopped {
                    score = -self.negamax(depth - 1, 1, -beta, -floor, true);
                }
            }
            self.pos.unmake_move(mv);
            if self.stopped {
                return best;
            }
            let exact = score > floor && score < beta;
            self.note_refutation(i, score, floor);
            if multi && exact {
                // The last search of an exact move was a PV search: its line
                // is in `pv[1]`.
                let mut line = Vec::with_capacity(self.pv[1].len() + 1);
                line.push(mv);
                line.extend_from_slice(&self.pv[1]);
                self.root_moves[i].pv = line;
                let at = top.partition_point(|&s| s >= score);
                top.insert(at, score);
                top.truncate(self.multipv);
            }
            let rm = &mut self.root_moves[i];
            rm.score = score;
            rm.exact = exact;
            if score > best {
                best = score;
                best_index = i;
                self.update_pv(0, mv);
                // Above the floor: not only a bound below the first move's.
                if i > 0 && from_best && score > floor {
                    self.leader = Some(Leader {
                        score,
                        pv: self.pv[0].clone(),
                    });
                }
                if score >= beta {
                    break;
                }
            }
        }
        // Best first, the rest by score (stable, so ties keep the last order).
        let best_move = self.root_moves.remove(best_index);
        self.root_moves.sort_by_key(|r| std::cmp::Reverse(r.score));
        self.root_moves.insert(0, best_move);
        self.group_by_base();
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let code = self.pos.move_to_u32(self.root_moves[0].mv);
        self.shared
            .tt
            .store(self.pos.hash(), Some(code), best, depth, bound, 0);
        best
    }

    fn negamax(&mut self, depth: i32, ply: usize, mut alpha: i32, beta: i32, pv_node: bool) -> i32 {
        if depth <= 0 {
            return self.qsearch(ply, alpha, beta, 0);
        }
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        if let Some(score) = self.terminal(ply) {
            return score;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.static_eval();
        }

        let key = self.pos.hash();
        let hit = self.shared.tt.probe(key, ply);
        if let Some(h) = hit
            && !pv_node
            && h.depth >= depth
        {
            let cut = match h.bound {
                Bound::Exact => true,
                Bound::Lower => h.score >= beta,
                Bound::Upper => h.score <= alpha,
            };
            if cut {
                return h.score;
            }
        }

        if !pv_node
            && !is_decisive(beta)
            && let Some(score) = self.prune_early(depth, ply, beta)
        {
            return score;
        }

        let mut list = std::mem::take(&mut self.lists[ply]);
        self.fill_list(&mut list, ply, hit.and_then(|h| h.mv), false);
        if list.is_empty() {
            // Only a game breaking its contract (ongoing, no moves) gets here.
            self.lists[ply] = list;
            return self.static_eval();
        }

        let side = self.pos.side_to_move();
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut bound = Bound::Upper;
        let lmp_count = if !pv_node && depth <= self.params.lmp_depth {
            let d = depth as usize;
            self.params.lmp_base + self.params.lmp_base * d * d / 2
        } else {
            usize::MAX
        };
        for i in 0..list.len() {
            if i >= lmp_count && best > -WIN_BOUND {
                break;
            }
            let sm = pick(&mut list, i);
            let reduction = if self.params.lmr
                && depth >= self.params.lmr_min_depth
                && i >= self.params.lmr_full_moves
                && if sm.noisy {
                    self.params.lmr_noisy && sm.score < ORDER_TT
                } else {
                    sm.score < ORDER_KILLER - 1
                } {
                self.late_move_reduction(depth, i, pv_node)
            } else {
                0
            };
            self.pos.make_move(sm.mv);
            let mut score;
            if i == 0 {
                score = -self.negamax(depth - 1, ply + 1, -beta, -alpha, pv_node);
            } else {
                score = -self.negamax(depth - 1 - reduction, ply + 1, -alpha - 1, -alpha, false);
                if score > alpha && reduction > 0 && !self.stopped {
                    score = -self.negamax(depth - 1, ply + 1, -alpha - 1, -alpha, false);
                }
                if score > alpha && score < beta && pv_node && !self.stopped {
                    score = -self.negamax(depth - 1, ply + 1, -beta, -alpha, true);
                }
            }
            self.pos.unmake_move(sm.mv);
            if self.stopped {
                self.lists[ply] = list;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(sm.mv);
                    if pv_node {
                        self.update_pv(ply, sm.mv);
                    }
                    if score >= beta {
                        bound = Bound::Lower;
                        if ply == 1 {
                            // The reply that refutes the root move.
                            self.refutation = Some(sm.mv);
                        }
                        if !sm.noisy {
                            self.reward_quiet(&list[..i], sm.mv, side, ply, depth);
                        }
                        break;
                    }
                    bound = Bound::Exact;
                    alpha = score;
                }
            }
        }
        self.lists[ply] = list;
        let code = best_move.map(|mv| self.pos.move_to_u32(mv));
        self.shared.tt.store(key, code, best, depth, bound, ply);
        best
    }

    /// How many plies shallower the `i`-th move (in order) of a node `depth`
    /// plies from the horizon is searched first, when it may be reduced:
    /// one ply, two for late moves deep in the tree; or, where the game's
    /// shape asks for it, `ln(depth) · ln(i) / divisor`, one less at a PV
    /// node, at least one, leaving at least one ply.
    fn late_move_reduction(&self, depth: i32, i: usize, pv_node: bool) -> i32 {
        let divisor = self.params.lmr_log_divisor;
        if divisor <= 0 {
            return 1 + i32::from(i >= 8 && depth >= 6);
        }
        let r = (f64::from(depth).ln() * (i as f64).ln() * 100.0 / f64::from(divisor)) as i32
            - i32::from(pv_node);
        r.clamp(1, (depth - 1).max(1))
    }

    /// The non-PV node's early exits, before its moves are made: reverse
    /// futility (the static evaluation far enough above beta), then the null
    /// move (passing still fails high at a reduced depth). Returns the score
    /// to return, or `None` when the moves must be searched.
    fn prune_early(&mut self, depth: i32, ply: usize, beta: i32) -> Option<i32> {
        let rfp = depth <= self.params.rfp_depth;
        // Only a game whose own shape asks for null moves implements them.
        let null = G::SEARCH_SHAPE.null_move_depth > 0
            && self.params.null_min_depth > 0
            && depth >= self.params.null_min_depth
            && !self.null_at[ply];
        if !rfp && !null {
            return None;
        }
        let eval = self.static_eval();
        if rfp && eval - self.params.rfp_margin * depth >= beta {
            return Some(eval);
        }
        if null && eval >= beta {
            let r = self.params.null_reduction + depth / 4;
            self.pos.make_null_move();
            self.null_at[ply + 1] = true;
            let score = -self.negamax(depth - 1 - r, ply + 1, -beta, -beta + 1, false);
            self.null_at[ply + 1] = false;
            self.pos.unmake_null_move();
            if self.stopped {
                return Some(0);
            }
            if score >= beta {
                // A pass proves no win: never return a mate-range score.
                return Some(if is_decisive(score) { beta } else { score });
            }
        }
        None
    }

    /// A quiet move caused a cutoff: it becomes a killer and gains history; the
    /// quiet moves tried before it lose some.
    fn reward_quiet(
        &mut self,
        tried: &[ScoredMove<G::Move>],
        mv: G::Move,
        side: crate::core::Side,
        ply: usize,
        depth: i32,
    ) {
        let bonus = (depth * depth * 16).min(HISTORY_MAX);
        self.killers.add(ply, mv);
        self.history.update(side, self.pos.move_to_u32(mv), bonus);
        for sm in tried.iter().filter(|sm| !sm.noisy) {
            self.history
                .update(side, self.pos.move_to_u32(sm.mv), -bonus);
        }
    }

    /// Quiescence: stand pat on the static evaluation, or try noisy moves, for at
    /// most `params.qsearch_plies` plies.
    fn qsearch(&mut self, ply: usize, mut alpha: i32, beta: i32, qply: i32) -> i32 {
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        if let Some(score) = self.terminal(ply) {
            return score;
        }
        self.seldepth = self.seldepth.max(ply);
        let stand = self.static_eval();
        if qply >= self.params.qsearch_plies || ply >= MAX_PLY - 1 || stand >= beta {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.fill_list(&mut list, ply, None, true);
        for i in 0..list.len() {
            let sm = pick(&mut list, i);
            self.pos.make_move(sm.mv);
            let score = -self.qsearch(ply + 1, -beta, -alpha, qply + 1);
            self.pos.unmake_move(sm.mv);
            if self.stopped {
                self.lists[ply] = list;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        best
    }
}
