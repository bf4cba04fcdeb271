//! Lazy SMP: N threads search the same root independently, sharing only the
//! transposition table (and the node counter and stop flags). Helpers start at
//! staggered depths so they fill the table ahead of the main thread. The main
//! thread reports its iterations and owns the clock; the result is the deepest
//! iteration any thread completed (the main thread's on a tie), and the search
//! ends as soon as any thread completes the depth asked for. A helper's
//! iteration is used only where its root scores mean what the main thread's
//! would: one line, no noise margin. With one thread no helper exists and the
//! search is deterministic.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use crate::core::Status;
use crate::search::Searcher;
use crate::search::alphabeta::{Completed, Iteration, Shared, Worker};
use crate::search::eval::{DRAW, Evaluate, INFINITY, WIN};
use crate::search::info::{SearchInfo, SearchResult};
use crate::search::levels::{LevelConfig, choose_root_move};
use crate::search::params::{MAX_DEPTH, MAX_THREADS};
use crate::search::timeman::{Limits, TimeManager};

/// How a search of `config` with `multipv` lines runs: on how many threads
/// (the level's, at most [`MAX_THREADS`] and what the machine runs at once),
/// and whether the helpers' iterations count. They count only where their
/// root scores mean what the main thread's would: one line, no noise margin.
pub(crate) fn plan(config: &LevelConfig, multipv: usize) -> (usize, bool) {
    let threads = config
        .threads
        .clamp(1, MAX_THREADS)
        .min(crate::search::levels::hardware_threads());
    (
        threads,
        threads > 1 && multipv <= 1 && config.noise_margin == 0,
    )
}

/// Runs one search on `config.threads` threads.
pub(crate) fn search<G: Evaluate>(
    searcher: &Searcher<G>,
    root: &G,
    limits: &Limits,
    config: &LevelConfig,
    multipv: usize,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    let (params, tt) = (&searcher.params, &searcher.tt);
    tt.new_search();
    let abort = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    let completed_depth = AtomicU32::new(0);
    let (threads, helpers_count) = plan(config, multipv);
    let shared = Shared {
        tt,
        stop,
        abort: &abort,
        nodes: &nodes,
        node_limit: limits.nodes,
        time: TimeManager::new(limits, config.move_time),
        completed: &completed_depth,
        leapfrog: helpers_count,
    };
    let max_depth = limits
        .depth
        .unwrap_or(config.max_depth)
        .clamp(1, MAX_DEPTH as u32);

    // The deepest iteration a helper completed, when helpers' results count.
    let deepest: Mutex<Option<Completed<G::Move>>> = Mutex::new(None);
    // The depth of the last iteration reported.
    let mut reported_depth = 0;
    let (completed, fallback, seldepth) = std::thread::scope(|scope| {
        for id in 1..threads {
            let params = *params;
            let eval = config.eval;
            let (deepest, abort) = (&deepest, &abort);
            // If the OS refuses a thread, search with the ones we have.
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                let mut helper = Worker::new(shared, params, eval, root, false);
                // Odd helpers run one ply ahead of the main thread.
                let start = 1 + (id as u32 % 2);
                helper.iterative_deepening(max_depth, 0, start, &mut |_, it| {
                    let Iteration::Completed(done) = it else {
                        return;
                    };
                    if !helpers_count {
                        return;
                    }
                    let mut slot = deepest.lock().unwrap_or_else(|e| e.into_inner());
                    if slot.as_ref().is_none_or(|c| done.depth > c.depth) {
                        *slot = Some(done.clone());
                    }
                    if done.depth >= max_depth {
                        abort.store(true, Ordering::Relaxed);
                    }
                });
            });
            if spawned.is_err() {
                break;
            }
        }
        // Helpers stop only when the main thread says so: if it unwinds, they
        // must still be told, or they would search forever.
        let _abort_on_exit = AbortOnDrop(&abort);
        let mut main = Worker::new(shared, *params, config.eval, root, true);
        main.set_multipv(multipv);
        let completed =
            main.iterative_deepening(max_depth, config.noise_margin, 1, &mut |w, it| {
                let seldepth = w.seldepth as u32;
                match it {
                    Iteration::Completed(done) => {
                        reported_depth = done.depth;
                        report(&info(done, seldepth, &shared));
                    }
                    // A helper completed the depth the main thread was on:
                    // its iteration is the search's news.
                    Iteration::Superseded => {
                        let slot = deepest.lock().unwrap_or_else(|e| e.into_inner());
                        if let Some(h) = slot.as_ref().filter(|h| h.depth > reported_depth) {
                            reported_depth = h.depth;
                            report(&info(h, seldepth, &shared));
                        }
                    }
                }
            });
        abort.store(true, Ordering::Relaxed);
        let fallback = (main.root_move_list(), main.static_eval());
        (completed, fallback, main.seldepth as u32)
    });

    let time = shared.time.elapsed();
    let helper = deepest.into_inner().unwrap_or_else(|e| e.into_inner());
    // The deepest iteration of any thread; one not reported yet is reported
    // now, so that the last `info` line is the result's.
    let completed = match (completed, helper) {
        // A helper's whole iteration beats the main thread's stopped one of
        // the same depth.
        (Some(m), Some(h)) if h.depth > m.depth || (h.depth == m.depth && m.partial) => Some(h),
        (None, Some(h)) => Some(h),
        (m, _) => m,
    };
    if let Some(done) = completed.as_ref().filter(|c| c.depth > reported_depth) {
        report(&info(done, seldepth, &shared));
    }
    let nodes = nodes.load(Ordering::Relaxed);
    let Some(done) = completed else {
        // Stopped before depth 1 finished (or no legal move): the first move in
        // ordering order, which is legal whenever one exists.
        let (root_moves, eval) = fallback;
        return SearchResult {
            best_move: root_moves.first().map(|r| r.mv),
            score: match root.status() {
                Status::Ongoing if root_moves.is_empty() => -INFINITY,
                Status::Ongoing => eval,
                Status::Draw => DRAW,
                Status::Won(side) if side == root.side_to_move() => WIN,
                Status::Won(_) => -WIN,
            },
            depth: 0,
            seldepth,
            nodes,
            time,
            pv: root_moves.first().map(|r| r.mv).into_iter().collect(),
            root_moves,
        };
    };
    let index = choose_root_move(
        &done.root_moves,
        config.noise_margin,
        config.seed ^ root.hash(),
    );
    let (best_move, score, pv) = match done.root_moves.get(index) {
        Some(r) if index > 0 => (Some(r.mv), r.score, vec![r.mv]),
        _ => (
            done.root_moves.first().map(|r| r.mv),
            done.score,
            done.pv.clone(),
        ),
    };
    SearchResult {
        best_move,
        score,
        depth: done.depth,
        seldepth,
        nodes,
        time,
        pv,
        root_moves: done.root_moves,
    }
}

/// The progress line of a completed iteration.
fn info<M: Clone>(done: &Completed<M>, seldepth: u32, shared: &Shared) -> SearchInfo<M> {
    let time = shared.time.elapsed();
    let nodes = shared.nodes.load(Ordering::Relaxed);
    SearchInfo {
        depth: done.depth,
        seldepth,
        score: done.score,
        nodes,
        nps: (nodes as u128 * 1_000_000 / time.as_micros().max(1)) as u64,
        time,
        pv: done.pv.clone(),
        root_moves: done.root_moves.clone(),
        lines: done.lines.clone(),
        hashfull: shared.tt.hashfull(),
    }
}

/// Sets the flag when dropped, on a normal exit and while unwinding alike.
struct AbortOnDrop<'a>(&'a AtomicBool);

impl Drop for AbortOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::levels::{Level, hardware_threads};

    /// What makes `mike` deeper than `hard` at equal time (issue #12; measured
    /// by `tessera bench --mike`): Lazy SMP on every thread the machine runs
    /// at once, with the helpers' iterations counting, where `hard` searches
    /// on one thread. Analysis of several lines keeps the threads, but its
    /// helpers only fill the table.
    #[test]
    fn mike_searches_with_lazy_smp_on_every_core() {
        let cores = hardware_threads();
        assert_eq!(plan(&Level::Hard.config(), 1), (1, false));
        assert_eq!(plan(&Level::Mike.config(), 1), (cores, cores > 1));
        assert_eq!(plan(&Level::Mike.config(), 3), (cores, false));
        let one = LevelConfig {
            threads: 1,
            ..Level::Mike.config()
        };
        assert_eq!(plan(&one, 1), (1, false));
    }
}
