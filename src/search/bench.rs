//! The bench signature: one-thread, fixed-depth searches of fixed positions with
//! fresh tables. The same build always gives the same node total, so a change
//! in it marks a functional change (`tessera bench` prints it; commits that
//! change search end with `Bench: N`).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::search::eval::Evaluate;
use crate::search::{Level, LevelConfig, Limits, Searcher};

/// Totals of one bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchReport {
    pub nodes: u64,
    pub time: Duration,
    pub nps: u64,
}

/// Searches each position to `depth` at `hard` on one thread with a fresh
/// `tt_mb` table.
pub fn bench<G: Evaluate>(positions: &[G], depth: u32, tt_mb: usize) -> BenchReport {
    bench_at(positions, depth, tt_mb, Level::Hard)
}

/// [`bench()`] at `level`: its search and evaluation switches, without its
/// randomness, on one thread (so deterministic, whatever the level's threads).
pub fn bench_at<G: Evaluate>(
    positions: &[G],
    depth: u32,
    tt_mb: usize,
    level: Level,
) -> BenchReport {
    let config = LevelConfig {
        threads: 1,
        noise_margin: 0,
        ..level.config()
    };
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let nodes = positions
        .iter()
        .map(|pos| {
            let mut searcher = Searcher::<G>::new(tt_mb);
            searcher
                .search(pos, &Limits::depth(depth), &config, &stop, &mut |_| {})
                .nodes
        })
        .sum();
    let time = start.elapsed();
    let nps = (nodes as u128 * 1_000_000 / time.as_micros().max(1)) as u64;
    BenchReport { nodes, time, nps }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testgame::ConnectFour;

    #[test]
    fn bench_is_reproducible() {
        let positions = ConnectFour::bench_positions();
        let a = bench(&positions, 8, 1);
        let b = bench(&positions, 8, 1);
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 0);
        assert_eq!(bench_at(&positions, 8, 1, Level::Hard).nodes, a.nodes);
        let mike = bench_at(&positions, 8, 1, Level::Mike);
        assert_eq!(mike.nodes, bench_at(&positions, 8, 1, Level::Mike).nodes);
    }
}
