//! `tessera bench`: fixed positions of both games searched to a fixed depth on
//! one thread with fresh tables. The node total is the search's signature: the
//! same build always prints the same number, and a commit that changes it
//! changes search behaviour (its message ends with `Bench: <N>`).

use crate::core::{Game, SplitMix64, Status};
use crate::games::rebus::Position;
use crate::games::rekushu::Board;
use crate::search::bench::{BenchReport, bench};

/// Table size of each bench search, small so the bench also runs on small machines.
pub const BENCH_TT_MB: usize = 16;
pub const REKUSHU_DEPTH: u32 = 4;
pub const REBUS_DEPTH: u32 = 3;

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

/// Both games' bench reports.
pub fn run() -> (BenchReport, BenchReport) {
    let r = bench(&rekushu_positions(), REKUSHU_DEPTH, BENCH_TT_MB);
    let b = bench(&rebus_positions(), REBUS_DEPTH, BENCH_TT_MB);
    (r, b)
}
