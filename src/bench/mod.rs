//! `tessera bench`: fixed positions of both games searched at `hard` and at
//! `mike` to fixed depths on one thread with fresh tables. The node total is
//! the search's signature: the same build always prints the same number, and a
//! commit that changes it changes search behaviour (its message ends with
//! `Bench: <N>`; CONTRIBUTING.md). The `hard` parts alone are the signature
//! of the commits before the bench covered `mike`.

use crate::core::{Game, GameId, SplitMix64, Status};
use crate::games::rebus::Position;
use crate::games::rekushu::Board;
use crate::search::Level;
use crate::search::bench::{BenchReport, bench_at};

/// Table size of each bench search, small so the bench also runs on small machines.
pub const BENCH_TT_MB: usize = 16;
pub const REKUSHU_DEPTH: u32 = 4;
/// Deep enough that REBUS's reductions, late-move pruning and null move act
/// below the root (they start 3 plies from the horizon), so a change to them
/// changes the signature.
pub const REBUS_DEPTH: u32 = 5;

/// Plays `plies` moves chosen by a seeded generator from the generation order,
/// stopping early if the game ends. Deterministic for a given seed.
pub fn random_line<G: Game>(mut pos: G, plies: usize, seed: u64) -> G {
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        if pos.status() != Status::Ongoing {
            break;
        }
        moves.clear();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len() as u64) as usize];
        pos.make_move(mv);
    }
    pos
}

/// The Rekushu bench positions: openings and middle games on 8, 14 and 20.
pub fn rekushu_positions() -> Vec<Board> {
    let mut out = Vec::new();
    for (size, plies, seed) in [
        (20, 0, 1),
        (20, 30, 2),
        (20, 120, 3),
        (14, 60, 4),
        (8, 20, 5),
    ] {
        if let Some(b) = Board::new(size) {
            out.push(random_line(b, plies, seed));
        }
    }
    out
}

/// The REBUS bench positions: the standard setup, random deals, middle games.
pub fn rebus_positions() -> Vec<Position> {
    let mut out = vec![Position::standard()];
    for (seed, plies) in [(11, 0), (12, 20), (13, 60), (14, 120)] {
        out.push(random_line(Position::random(seed), plies, seed ^ 0xBE4C));
    }
    out
}

/// The levels `tessera bench` searches, with the depth of its Rekushu and its
/// REBUS searches: `hard`, and `mike` (in REBUS its exact root lists and lock
/// bonus; in Rekushu it searches as `hard` does, so a change that sets it apart
/// shows), a ply less deep in Rekushu to keep the bench short. Each search runs
/// on one thread (deterministic) with a fresh [`BENCH_TT_MB`] table.
/// `tools/benchcheck.sh` dates the bench's coverage of `mike` from the commit
/// that added this constant.
pub const BENCH_LEVELS: [(Level, u32, u32); 2] = [
    (Level::Hard, REKUSHU_DEPTH, REBUS_DEPTH),
    (Level::Mike, REKUSHU_DEPTH - 1, REBUS_DEPTH),
];

/// One part of the bench: one game at one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchPart {
    pub game: &'static str,
    pub level: Level,
    pub depth: u32,
    pub report: BenchReport,
}

/// Every part: for each of [`BENCH_LEVELS`], Rekushu then REBUS.
pub fn run() -> Vec<BenchPart> {
    let (rekushu, rebus) = (rekushu_positions(), rebus_positions());
    let mut parts = Vec::new();
    for (level, rekushu_depth, rebus_depth) in BENCH_LEVELS {
        parts.push(BenchPart {
            game: GameId::Rekushu.name(),
            level,
            depth: rekushu_depth,
            report: bench_at(&rekushu, rekushu_depth, BENCH_TT_MB, level),
        });
        parts.push(BenchPart {
            game: GameId::Rebus.name(),
            level,
            depth: rebus_depth,
            report: bench_at(&rebus, rebus_depth, BENCH_TT_MB, level),
        });
    }
    parts
}

/// The nodes of the parts at `level`.
pub fn level_nodes(parts: &[BenchPart], level: Level) -> u64 {
    parts
        .iter()
        .filter(|p| p.level == level)
        .map(|p| p.report.nodes)
        .sum()
}

/// The REBUS timing sample of `tessera bench --times`: the standard setup, the
/// random deals 1 to 20, and the 20 mid-game positions of
/// `src/bench/rebus_midgames.txt`, each with a label.
pub fn rebus_timing_sample() -> Vec<(String, Position)> {
    let mut out = vec![("standard".to_string(), Position::standard())];
    for seed in 1..=20u64 {
        out.push((format!("deal {seed}"), Position::random(seed)));
    }
    let midgames = include_str!("rebus_midgames.txt");
    let lines = midgames
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    for (k, (i, line)) in lines.enumerate() {
        // The file is part of the build: a bad line is a bug in the repository.
        let pos = Position::from_position_string(line)
            .unwrap_or_else(|e| panic!("src/bench/rebus_midgames.txt line {}: {e}", i + 1));
        out.push((format!("midgame {}", k + 1), pos));
    }
    out
}

/// The Rekushu positions of the timing report: 20×20 openings and middle games.
pub fn rekushu_timing_sample() -> Vec<(String, Board)> {
    [(0, 1), (10, 2), (40, 3), (80, 4), (160, 5)]
        .into_iter()
        .filter_map(|(plies, seed)| {
            Board::new(20).map(|b| (format!("20x20 +{plies}"), random_line(b, plies, seed)))
        })
        .collect()
}

/// How long one search took to complete each depth (one thread, a fresh table
/// of the level's size, the level's switches and noise).
#[derive(Clone, Debug, PartialEq)]
pub struct DepthTimes {
    /// `times[d - 1]`: elapsed time and node total when depth `d` completed.
    pub times: Vec<(std::time::Duration, u64)>,
}

/// Searches `pos` at `level` to `depth` and records when each iteration ended.
pub fn depth_times<G: crate::search::Evaluate>(pos: &G, level: Level, depth: u32) -> DepthTimes {
    depth_times_on(pos, level, depth, 1)
}

/// [`depth_times`] on `threads` threads (Lazy SMP).
pub fn depth_times_on<G: crate::search::Evaluate>(
    pos: &G,
    level: Level,
    depth: u32,
    threads: usize,
) -> DepthTimes {
    let config = crate::search::LevelConfig {
        threads,
        ..level.config()
    };
    let (_, iterations) = search_recorded(pos, &config, &crate::search::Limits::depth(depth));
    DepthTimes {
        times: iterations.iter().map(|&(_, t, n)| (t, n)).collect(),
    }
}

/// What a search reported of one iteration: its depth, the elapsed time and
/// the node total when it completed.
type Reported = (u32, std::time::Duration, u64);

/// One search of `pos` with `config` and `limits` on a fresh table, and what
/// it reported of each iteration, in order.
fn search_recorded<G: crate::search::Evaluate>(
    pos: &G,
    config: &crate::search::LevelConfig,
    limits: &crate::search::Limits,
) -> (crate::search::SearchResult<G::Move>, Vec<Reported>) {
    let mut searcher = crate::search::Searcher::<G>::for_level(config);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut iterations = Vec::new();
    let result = searcher.search(pos, limits, config, &stop, &mut |info| {
        iterations.push((info.depth, info.time, info.nodes))
    });
    (result, iterations)
}

/// The time per move of the equal-time report (`tessera bench --mike`).
pub const EQUAL_TIME: std::time::Duration = std::time::Duration::from_secs(1);

/// What one search of fixed time reached: the depth completed, the nodes, and
/// when each iteration it reported completed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthInTime {
    pub depth: u32,
    pub nodes: u64,
    /// The depth and elapsed time of each iteration reported, in order (with
    /// Lazy SMP a helper's deeper iteration may skip a depth).
    pub reached: Vec<(u32, std::time::Duration)>,
}

impl DepthInTime {
    /// When the search first completed `depth` or deeper.
    pub fn time_to(&self, depth: u32) -> Option<std::time::Duration> {
        self.reached
            .iter()
            .find(|&&(d, _)| d >= depth)
            .map(|&(_, t)| t)
    }
}

/// Searches `pos` at `level` for `time` as it plays (the level's threads,
/// switches and table size; a fresh table) and returns the depth it completed.
pub fn depth_in_time<G: crate::search::Evaluate>(
    pos: &G,
    level: Level,
    time: std::time::Duration,
) -> DepthInTime {
    let (r, iterations) =
        search_recorded(pos, &level.config(), &crate::search::Limits::movetime(time));
    DepthInTime {
        depth: r.depth,
        nodes: r.nodes,
        reached: iterations.iter().map(|&(d, t, _)| (d, t)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::{DepthInTime, depth_in_time, depth_times};
    use crate::games::rekushu::Board;
    use crate::search::Level;
    use std::time::Duration;

    /// Both reports read every iteration the search completed, in order.
    #[test]
    fn the_timed_searches_record_each_iteration() {
        let board = Board::new(6).expect("6x6 is a legal size");
        let t = depth_times(&board, Level::Hard, 3);
        assert_eq!(t.times.len(), 3);
        assert!(t.times.windows(2).all(|w| w[0] <= w[1]), "{:?}", t.times);
        let r = depth_in_time(&board, Level::Hard, Duration::from_millis(50));
        assert!(r.depth >= 1);
        let depths: Vec<u32> = r.reached.iter().map(|&(d, _)| d).collect();
        assert_eq!(depths, (1..=r.depth).collect::<Vec<_>>());
        assert!(r.reached.windows(2).all(|w| w[0].1 <= w[1].1));
    }

    #[test]
    fn time_to_a_depth_is_the_first_iteration_that_reached_it() {
        let ms = Duration::from_millis;
        // A helper's depth 4 superseded the main thread's depth 3.
        let run = DepthInTime {
            depth: 4,
            nodes: 100,
            reached: vec![(1, ms(1)), (2, ms(3)), (4, ms(9))],
        };
        assert_eq!(run.time_to(1), Some(ms(1)));
        assert_eq!(run.time_to(2), Some(ms(3)));
        assert_eq!(run.time_to(3), Some(ms(9)));
        assert_eq!(run.time_to(4), Some(ms(9)));
        assert_eq!(run.time_to(5), None);
    }
}
