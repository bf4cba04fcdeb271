//! Playing levels: `easy`, `medium`, `hard` (the default) and `mike`, each a
//! [`LevelConfig`] of time, depth, randomness, threads, table size, resignation
//! and evaluation switches.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::search::eval::{EvalParams, is_decisive};
use crate::search::info::RootMoveInfo;
use crate::search::params::MAX_DEPTH;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Level {
    Easy,
    Medium,
    #[default]
    Hard,
    Mike,
}

/// `"could not parse level 'x' (expected easy, medium, hard or mike)"`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("could not parse level '{0}' (expected easy, medium, hard or mike)")]
pub struct LevelError(pub String);

impl FromStr for Level {
    type Err = LevelError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "easy" => Ok(Level::Easy),
            "medium" => Ok(Level::Medium),
            "hard" => Ok(Level::Hard),
            "mike" => Ok(Level::Mike),
            _ => Err(LevelError(s.to_string())),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Mike => "mike",
        })
    }
}

/// Everything a level decides. Fields are public so a protocol option can
/// override one (e.g. threads) after choosing a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelConfig {
    pub level: Level,
    /// Time per move when the caller gives no time control.
    pub move_time: Duration,
    /// Deepest iteration unless `Limits::depth` says otherwise.
    pub max_depth: u32,
    /// Randomness: play any root move whose score is within this many
    /// centi-units of the best, weighted towards the best. 0 = always the best.
    pub noise_margin: i32,
    /// Seed of the noise generator (mixed with the position hash, so one seed
    /// gives reproducible games).
    pub seed: u64,
    /// Search threads (Lazy SMP); 1 is deterministic.
    pub threads: usize,
    /// Transposition-table size the level wants (see `Searcher::apply_level`).
    pub tt_mb: usize,
    /// Whether the engine may resign (or yield) a clearly lost game.
    pub may_resign: bool,
    /// Resign when the score is at or below minus this (centi-units).
    pub resign_threshold: i32,
    /// Switches read by the games' evaluations (REBUS chains and locks).
    pub eval: EvalParams,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Mike];

    pub fn config(self) -> LevelConfig {
        let all_cores = hardware_threads();
        let base = LevelConfig {
            level: self,
            move_time: Duration::from_millis(1000),
            max_depth: MAX_DEPTH as u32,
            noise_margin: 0,
            seed: 0x7E55_E4A0,
            threads: 1,
            tt_mb: 64,
            may_resign: true,
            resign_threshold: 5_000,
            // Below `mike`, REBUS prunes chain sets and nominations in search.
            eval: EvalParams {
                exact_chains: false,
                exact_at_root_only: false,
                lock_bonus: 0,
            },
        };
        match self {
            Level::Easy => LevelConfig {
                move_time: Duration::from_millis(200),
                max_depth: 4,
                noise_margin: 150,
                tt_mb: 16,
                resign_threshold: 2_000,
                eval: EvalParams {
                    exact_chains: false,
                    exact_at_root_only: false,
                    lock_bonus: 0,
                },
                ..base
            },
            Level::Medium => LevelConfig {
                move_time: Duration::from_millis(500),
                max_depth: 8,
                noise_margin: 40,
                tt_mb: 32,
                resign_threshold: 3_000,
                eval: EvalParams {
                    exact_chains: false,
                    exact_at_root_only: false,
                    lock_bonus: 0,
                },
                ..base
            },
            Level::Hard => base,
            Level::Mike => LevelConfig {
                move_time: Duration::from_millis(3000),
                threads: all_cores,
                tt_mb: 256,
                may_resign: false,
                resign_threshold: i32::MAX,
                eval: EvalParams {
                    exact_chains: true,
                    exact_at_root_only: true,
                    lock_bonus: 50,
                },
                ..base
            },
        }
    }
}

impl Default for LevelConfig {
    fn default() -> Self {
        Level::default().config()
    }
}

impl LevelConfig {
    /// Whether a search that ended with `score` should resign.
    pub fn should_resign(&self, score: i32) -> bool {
        self.may_resign && score <= self.resign_threshold.saturating_neg()
    }
}

/// The index into `root_moves` to play: the best (index 0, the list is sorted
/// best first) unless noise is on, in which case a random move among those with
/// an exact score within `margin` of the best, weighted linearly towards the
/// best. Never leaves a forced win or picks a forced loss.
pub fn choose_root_move<M>(root_moves: &[RootMoveInfo<M>], margin: i32, seed: u64) -> usize {
    let Some(best) = root_moves.first() else {
        return 0;
    };
    if margin <= 0 || is_decisive(best.score) {
        return 0;
    }
    let weights: Vec<u64> = root_moves
        .iter()
        .map(|r| {
            let gap = best.score.saturating_sub(r.score);
            if r.exact && gap <= margin && !is_decisive(r.score) {
                (margin - gap + 1) as u64
            } else {
                0
            }
        })
        .collect();
    let total: u64 = weights.iter().sum();
    if total == 0 {
        return 0;
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut x = rng.random_range(0..total);
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    0
}

/// The threads this machine runs at once (at least 1; asked once). A search
/// never runs more: Lazy SMP gains nothing from threads that wait for a core,
/// and they make it slow to stop (each must be scheduled to see the stop).
pub fn hardware_threads() -> usize {
    static N: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *N.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_levels() {
        assert_eq!("easy".parse(), Ok(Level::Easy));
        assert_eq!(" Medium ".parse(), Ok(Level::Medium));
        assert_eq!("HARD".parse(), Ok(Level::Hard));
        assert_eq!("mike".parse(), Ok(Level::Mike));
        let err = "expert".parse::<Level>().expect_err("not a level");
        assert!(err.to_string().contains("'expert'"));
        assert_eq!(Level::default(), Level::Hard);
        for l in Level::ALL {
            assert_eq!(l.to_string().parse(), Ok(l));
        }
    }

    #[test]
    fn level_shapes() {
        let easy = Level::Easy.config();
        let mike = Level::Mike.config();
        assert!(easy.noise_margin > 0 && easy.may_resign);
        assert!(!mike.may_resign && !mike.should_resign(-900_000));
        assert!(mike.tt_mb > Level::Hard.config().tt_mb);
        assert!(mike.threads >= 1);
        assert!(easy.move_time < mike.move_time);
        assert!(easy.should_resign(-2_500) && !easy.should_resign(-100));
        assert_eq!(Level::Hard.config().noise_margin, 0);
    }

    fn rm(score: i32, exact: bool) -> RootMoveInfo<u8> {
        RootMoveInfo {
            mv: 0,
            score,
            exact,
        }
    }

    #[test]
    fn noise_stays_within_margin() {
        let moves = [rm(100, true), rm(90, true), rm(20, true), rm(95, false)];
        let mut seen = [0; 4];
        for seed in 0..400 {
            seen[choose_root_move(&moves, 50, seed)] += 1;
        }
        assert!(seen[0] > seen[1] && seen[1] > 0, "{seen:?}");
        assert_eq!(seen[2], 0, "outside the margin");
        assert_eq!(seen[3], 0, "bound only, not an exact score");
        assert_eq!(choose_root_move(&moves, 0, 1), 0);
        let winning = [
            rm(crate::search::eval::WIN - 3, true),
            rm(crate::search::eval::WIN - 5, true),
        ];
        assert_eq!(choose_root_move(&winning, 500, 9), 0);
        assert_eq!(choose_root_move::<u8>(&[], 50, 9), 0);
    }
}
