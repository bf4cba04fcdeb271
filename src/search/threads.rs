//! Lazy SMP: N threads search the same root independently, sharing only the
//! transposition table (and the node counter and stop flags). Helpers start at
//! staggered depths so they fill the table ahead of the main thread; only the
//! main thread reports, and its result is the one returned. With one thread no
//! helper exists and the search is deterministic.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::core::Status;
use crate::search::Searcher;
use crate::search::alphabeta::{Shared, Worker};
use crate::search::eval::{DRAW, Evaluate, INFINITY, WIN};
use crate::search::info::{SearchInfo, SearchResult};
use crate::search::levels::{LevelConfig, choose_root_move};
use crate::search::params::{MAX_DEPTH, MAX_THREADS};
use crate::search::timeman::{Limits, TimeManager};

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
    let shared = Shared {
        tt,
        stop,
        abort: &abort,
        nodes: &nodes,
        node_limit: limits.nodes,
        time: TimeManager::new(limits, config.move_time),
    };
    let max_depth = limits
        .depth
        .unwrap_or(config.max_depth)
        .clamp(1, MAX_DEPTH as u32);
    let threads = config
        .threads
        .clamp(1, MAX_THREADS)
        .min(crate::search::levels::hardware_threads());

    let (completed, fallback, seldepth) = std::thread::scope(|scope| {
        for id in 1..threads {
            let params = *params;
            let eval = config.eval;
            // If the OS refuses a thread, search with the ones we have.
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                let mut helper = Worker::new(shared, params, eval, root, false);
                // Odd helpers run one ply ahead of the main thread.
                helper.iterative_deepening(max_depth, 0, 1 + (id as u32 % 2), &mut |_, _| {});
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
            main.iterative_deepening(max_depth, config.noise_margin, 1, &mut |w, done| {
                let time = shared.time.elapsed();
                let total = nodes.load(Ordering::Relaxed);
                let nps = (total as u128 * 1_000_000 / time.as_micros().max(1)) as u64;
                report(&SearchInfo {
                    depth: done.depth,
                    seldepth: w.seldepth as u32,
                    score: done.score,
                    nodes: total,
                    nps,
                    time,
                    pv: done.pv.clone(),
                    root_moves: done.root_moves.clone(),
                    lines: done.lines.clone(),
                    hashfull: tt.hashfull(),
                });
            });
        abort.store(true, Ordering::Relaxed);
        let fallback = (main.root_move_list(), main.static_eval());
        (completed, fallback, main.seldepth as u32)
    });

    let time = shared.time.elapsed();
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
            resign: false,
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
        resign: config.should_resign(done.score),
        root_moves: done.root_moves,
    }
}

/// Sets the flag when dropped, on a normal exit and while unwinding alike.
struct AbortOnDrop<'a>(&'a AtomicBool);

impl Drop for AbortOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
