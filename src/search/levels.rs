//! Playing levels: `easy`, `medium`, `hard` (the default) and `mike`, each a
//! [`LevelConfig`] of time, depth, randomness, threads, table size, when it
//! gives up ([`Resign`]) and evaluation switches.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::core::GameId;
use crate::core::eval::proven_result;
use crate::search::eval::{EvalChoice, EvalParams, is_decisive};
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
    /// When the engine gives up (resigns, or yields in REBUS).
    pub resign: Resign,
    /// Switches read by the games' evaluations (REBUS chains and locks).
    pub eval: EvalParams,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Mike];

    /// The level's configuration in `game`: [`Level::config`], except that
    /// REBUS `mike` thinks 6 s a move where Rekushu's thinks 3 s (at 3 s it
    /// scored under 75% against `hard` at 1 s; docs/strength.md).
    pub fn config_in(self, game: GameId) -> LevelConfig {
        let config = self.config();
        match (self, game) {
            (Level::Mike, GameId::Rebus) => LevelConfig {
                move_time: Duration::from_millis(6000),
                ..config
            },
            _ => config,
        }
    }

    /// What the level is in both games, with Rekushu's time per move (a
    /// search under a depth, node or time limit of its own never reads it);
    /// a game's own configuration is [`Level::config_in`].
    pub fn config(self) -> LevelConfig {
        let all_cores = hardware_threads();
        // `easy` and `medium`: REBUS lists pruned at the root too, no lock bonus.
        let pruned = EvalParams {
            exact_chains: false,
            exact_at_root_only: false,
            lock_bonus: 0,
            eval: EvalChoice::Game,
        };
        let base = LevelConfig {
            level: self,
            move_time: Duration::from_millis(1000),
            max_depth: MAX_DEPTH as u32,
            noise_margin: 0,
            seed: 0x7E55_E4A0,
            threads: 1,
            tt_mb: 64,
            resign: Resign::Behind(50),
            // `hard` and `mike` list REBUS roots exactly (every chain set,
            // every nomination that can matter) and search below them with
            // pruned lists; a lock of lead is worth half a square more and
            // locks are tried first.
            eval: EvalParams {
                exact_chains: true,
                exact_at_root_only: true,
                lock_bonus: 50,
                eval: EvalChoice::Game,
            },
        };
        match self {
            Level::Easy => LevelConfig {
                move_time: Duration::from_millis(200),
                max_depth: 4,
                noise_margin: 150,
                tt_mb: 16,
                resign: Resign::Behind(20),
                eval: pruned,
                ..base
            },
            Level::Medium => LevelConfig {
                move_time: Duration::from_millis(500),
                max_depth: 8,
                noise_margin: 40,
                tt_mb: 32,
                resign: Resign::Behind(30),
                eval: pruned,
                ..base
            },
            Level::Hard => base,
            Level::Mike => LevelConfig {
                move_time: Duration::from_millis(3000),
                threads: all_cores,
                tt_mb: 256,
                resign: Resign::Off,
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

/// When a level gives up a lost game: resigns, or plays REBUS `yield` where
/// the rules allow it. A person can still win a game the search has proven
/// lost by a tile or two (the proof assumes the best defence), so no level
/// gives up on a score alone: only a game decided whatever anyone plays, or a
/// proven loss that is already a large one on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resign {
    /// Never: every game is played to its end.
    Off,
    /// Only a game lost whatever anyone plays from here (Rekushu: the
    /// opponent leads by more tiles than are left unclaimed).
    Decided,
    /// A decided game, or a loss the search has proven while at least this
    /// many tiles (Rekushu) or squares (REBUS) behind on the board now.
    Behind(u32),
}

/// The largest margin `Resign::Behind` takes: more than either game's board.
pub const MAX_RESIGN_MARGIN: u32 = 1000;

impl Resign {
    /// Whether to give up, after a search that scored the position `score`
    /// (centi-units or a proven result, for the side to move), with the side
    /// to move `lead` units ahead on the board now (negative: behind), and
    /// `decided` when it has lost whatever anyone plays.
    pub fn gives_up(self, score: i32, lead: i32, decided: bool) -> bool {
        let proven_loss = matches!(proven_result(score), Some((false, _)));
        match self {
            Resign::Off => false,
            Resign::Decided => decided,
            Resign::Behind(n) => decided || (proven_loss && -lead >= n as i32),
        }
    }
}

impl fmt::Display for Resign {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Resign::Off => f.write_str("off"),
            Resign::Decided => f.write_str("decided"),
            Resign::Behind(n) => write!(f, "{n}"),
        }
    }
}

impl FromStr for Resign {
    type Err = ();

    /// `off`, `decided`, or a margin from 1 to [`MAX_RESIGN_MARGIN`].
    fn from_str(s: &str) -> Result<Self, ()> {
        match s.to_ascii_lowercase().as_str() {
            "off" => Ok(Resign::Off),
            "decided" => Ok(Resign::Decided),
            n => n
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=MAX_RESIGN_MARGIN).contains(n))
                .map(Resign::Behind)
                .ok_or(()),
        }
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
        assert!(easy.noise_margin > 0);
        assert_eq!(easy.resign, Resign::Behind(20));
        assert_eq!(Level::Hard.config().resign, Resign::Behind(50));
        assert_eq!(mike.resign, Resign::Off);
        assert!(mike.tt_mb > Level::Hard.config().tt_mb);
        assert!(easy.move_time < mike.move_time);
        assert_eq!(Level::Hard.config().noise_margin, 0);
        // REBUS: `hard` and `mike` list the root exactly and value locks;
        // `easy` and `medium` prune the root too.
        let hard = Level::Hard.config().eval;
        assert!(hard.exact_chains && hard.exact_at_root_only && hard.lock_bonus > 0);
        assert_eq!(mike.eval, hard);
        for l in [Level::Easy, Level::Medium] {
            assert!(!l.config().eval.exact_chains && l.config().eval.lock_bonus == 0);
        }
    }

    #[test]
    fn levels_differ_between_games_only_in_rebus_mikes_time() {
        for l in Level::ALL {
            let (rekushu, rebus) = (l.config_in(GameId::Rekushu), l.config_in(GameId::Rebus));
            assert_eq!(rekushu, l.config());
            match l {
                Level::Mike => {
                    assert_eq!(rekushu.move_time, Duration::from_millis(3000));
                    assert_eq!(rebus.move_time, Duration::from_millis(6000));
                    assert_eq!(
                        LevelConfig {
                            move_time: rekushu.move_time,
                            ..rebus
                        },
                        rekushu
                    );
                }
                _ => assert_eq!(rebus, rekushu, "{l}"),
            }
        }
    }

    #[test]
    fn giving_up() {
        use crate::core::eval::WIN;
        let lost = -(WIN - 8);
        // A proven loss is given up only when far enough behind now.
        assert!(Resign::Behind(20).gives_up(lost, -20, false));
        assert!(!Resign::Behind(20).gives_up(lost, -19, false));
        // A heuristic score, however bad, is never enough.
        assert!(!Resign::Behind(20).gives_up(-90_000, -60, false));
        // A decided game is given up at any margin, except with `off`.
        assert!(Resign::Behind(50).gives_up(0, -1, true));
        assert!(Resign::Decided.gives_up(0, -1, true));
        assert!(!Resign::Decided.gives_up(lost, -60, false));
        assert!(!Resign::Off.gives_up(lost, -60, true));
        for (text, r) in [
            ("off", Resign::Off),
            ("Decided", Resign::Decided),
            ("7", Resign::Behind(7)),
            ("1000", Resign::Behind(1000)),
        ] {
            assert_eq!(text.parse(), Ok(r));
            assert_eq!(r.to_string().parse(), Ok(r));
        }
        for bad in ["0", "1001", "-3", "always", ""] {
            assert_eq!(bad.parse::<Resign>(), Err(()), "{bad}");
        }
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
