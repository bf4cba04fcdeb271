//! The settings that outlive a game and apply to both: the level (or a
//! reference opponent), the user's overrides of it, the time control and the
//! clocks, the analysis limits, the Rekushu board size and the REBUS turn limit.
//! Each setter checks its value and says what is wrong in the words the
//! protocol replies with; `level`, `setoption`, `move_time` and `gogui-params`
//! all go through them.

use std::time::{Duration, Instant};

use super::error::CommandError;
use super::numbers::{seconds, whole};
use crate::core::eval::EvalChoice;
use crate::core::{GameId, Side};
use crate::games::rebus::DEFAULT_TURN_LIMIT;
use crate::games::rebus::nnue as rebus_nnue;
use crate::games::rekushu::nnue as rekushu_nnue;
use crate::search::levels::MAX_RESIGN_MARGIN;
use crate::search::levels::hardware_threads;
use crate::search::params::{MAX_DEPTH, MAX_THREADS};
use crate::search::{Level, LevelConfig, Limits, Resign};

/// The Rekushu board size a new engine plays on.
pub const DEFAULT_REKUSHU_SIZE: usize = 20;
/// The largest transposition table `setoption hash` takes, in MB.
pub const MAX_HASH_MB: usize = 65536;

/// The reference opponents, which are levels for the user but not alpha-beta
/// levels: `genmove` handles them before it calls the searcher. They take the
/// time and limits of the other levels and the `seed` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// A uniformly random legal move.
    Random,
    /// Plain UCT with random playouts ([`crate::search::uct`]).
    Uct,
}

impl Reference {
    pub fn parse(word: &str) -> Option<Reference> {
        match word.trim().to_ascii_lowercase().as_str() {
            "random" => Some(Reference::Random),
            "uct" => Some(Reference::Uct),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Reference::Random => "random",
            Reference::Uct => "uct",
        }
    }
}

/// How the engine's thinking time is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TimeControl {
    /// The level's own time per move.
    #[default]
    LevelDefault,
    /// A fixed time per move (`move_time`).
    PerMove(Duration),
    /// A clock per side: remaining time, increment per move (Fischer), and the
    /// number of moves the remaining time must cover (GTP byo-yomi stones).
    Clock { increment: Duration },
}

/// Settings a user may override over the level's own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    pub threads: Option<usize>,
    pub hash_mb: Option<usize>,
    pub seed: Option<u64>,
    pub resign: Option<Resign>,
    /// The evaluation: learned (true) or linear (false).
    pub learned: Option<bool>,
}

/// Limits for reproducible analysis (`limit`): when set they replace the clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnalysisLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl AnalysisLimits {
    pub fn any(&self) -> bool {
        self.depth.is_some() || self.nodes.is_some()
    }
}

/// An engine option: its name and what it takes (`options` lists them in this
/// order; `setoption` knows these and no others).
pub struct OptionInfo {
    pub name: &'static str,
    pub takes: String,
}

/// The options, in the order `options` shows them.
pub fn option_infos() -> [OptionInfo; 5] {
    [
        OptionInfo {
            name: "threads",
            takes: format!(
                "search threads, 1 to {MAX_THREADS} (no more than the machine runs at once are used), or 'default' (the level's)"
            ),
        },
        OptionInfo {
            name: "hash",
            takes: format!(
                "transposition table in MB, 1 to {MAX_HASH_MB}, or 'default' (the level's)"
            ),
        },
        OptionInfo {
            name: "seed",
            takes:
                "seed of the randomness of easy and medium, 0 to 18446744073709551615, or 'default'"
                    .into(),
        },
        OptionInfo {
            name: "resign",
            takes: format!(
                "when genmove gives up: 'off', 'decided' (a game lost whatever anyone plays), a margin 1 to {MAX_RESIGN_MARGIN} (that, or a proven loss that many tiles or squares behind), or 'default' (the level's)"
            ),
        },
        OptionInfo {
            name: "eval",
            takes: format!(
                "the evaluation: 'learned' (the game's net), 'linear' (weighted features), or 'default' (each game's own: {} in Rekushu, {} in REBUS)",
                eval_name(rekushu_nnue::LEARNED_BY_DEFAULT),
                eval_name(rebus_nnue::LEARNED_BY_DEFAULT)
            ),
        },
    ]
}

/// Everything about engine play that outlives a game.
#[derive(Clone, Debug)]
pub struct Settings {
    pub level: Level,
    /// A reference opponent chosen with `level random|uct`; replaces `level`
    /// while set.
    pub reference: Option<Reference>,
    pub overrides: Overrides,
    pub time: TimeControl,
    /// Remaining clock time per side (`time_left`, or kept by the engine itself),
    /// and moves to cover in it (byo-yomi stones; `None` = sudden death).
    pub remaining: [Option<(Duration, Option<u32>)>; 2],
    pub limits: AnalysisLimits,
    /// The Rekushu board size `boardsize` last set; kept across game switches.
    pub rekushu_size: usize,
    /// REBUS plies after which a game ends and is scored (0 = none); kept
    /// across games.
    pub turn_limit: u32,
    /// GoGui mode (`tessera --gogui`): moves in and out are GoGui points
    /// (protocol/gogui.rs); `genmove` plays only what a point can carry.
    pub gogui: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            level: Level::default(),
            reference: None,
            overrides: Overrides::default(),
            time: TimeControl::default(),
            remaining: [None, None],
            limits: AnalysisLimits::default(),
            rekushu_size: DEFAULT_REKUSHU_SIZE,
            turn_limit: DEFAULT_TURN_LIMIT,
            gogui: false,
        }
    }
}

impl Settings {
    /// The level's configuration in `game` with the user's overrides applied.
    pub fn config(&self, game: GameId) -> LevelConfig {
        let mut c = self.level.config_in(game);
        if let Some(t) = self.overrides.threads {
            c.threads = t;
        }
        if let Some(mb) = self.overrides.hash_mb {
            c.tt_mb = mb;
        }
        if let Some(s) = self.overrides.seed {
            c.seed = s;
        }
        if let Some(r) = self.overrides.resign {
            c.resign = r;
        }
        if let Some(l) = self.overrides.learned {
            c.eval.eval = EvalChoice::learned_if(l);
        }
        c
    }

    /// The search limits for `side`'s next move, its time counted from
    /// `received` (when the command was read, or its turn came).
    pub fn limits_for(&self, side: Side, received: Instant) -> Limits {
        if let Some(limits) = self.analysis_limits() {
            return limits;
        }
        let limits = match self.time {
            TimeControl::LevelDefault => Limits::default(),
            TimeControl::PerMove(t) => Limits::movetime(t),
            TimeControl::Clock { increment } => match self.remaining[side.index()] {
                Some((left, moves)) => Limits::clock(left, increment, moves),
                None => Limits::default(),
            },
        };
        limits.started_at(received)
    }

    /// The `limit depth`/`limit nodes` in force as search limits (no clock),
    /// or `None` when neither is set.
    pub fn analysis_limits(&self) -> Option<Limits> {
        self.limits.any().then(|| Limits {
            depth: self.limits.depth,
            nodes: self.limits.nodes,
            ..Limits::default()
        })
    }

    /// Whether the move `genmove` chooses depends on the time it is given:
    /// not under `limit depth`/`limit nodes` (a reproducible search), nor at
    /// `level random` (its draw depends only on the seed and the position).
    pub fn answer_depends_on_time(&self) -> bool {
        !self.limits.any() && self.reference != Some(Reference::Random)
    }

    /// After `side` thought for `spent`, keeps its clock running between
    /// `time_left` updates (a controller's `time_left` overrides it).
    pub fn charge(&mut self, side: Side, spent: Duration) {
        if let (TimeControl::Clock { increment }, Some((left, moves))) =
            (self.time, self.remaining[side.index()])
        {
            let left = left.saturating_sub(spent) + increment;
            self.remaining[side.index()] = Some((left, moves.map(|m| m.saturating_sub(1).max(1))));
        }
    }

    /// The level's name, or the reference opponent's.
    pub fn level_name(&self) -> String {
        match self.reference {
            Some(r) => r.name().to_string(),
            None => self.level.to_string(),
        }
    }

    /// Sets the level from its word: `easy` … `mike`, `random`, `uct`.
    pub fn set_level(&mut self, word: &str) -> Result<(), CommandError> {
        if let Some(r) = Reference::parse(word) {
            self.reference = Some(r);
            return Ok(());
        }
        self.level = word.parse().map_err(|err: crate::search::LevelError| {
            CommandError::syntax(format!(
                "could not parse level '{}' (expected easy, medium, hard, mike, random or uct)",
                err.0
            ))
        })?;
        self.reference = None;
        Ok(())
    }

    /// A fixed time per move from a number of seconds; 0 returns to the
    /// level's default.
    pub fn set_move_time(&mut self, seconds_text: &str) -> Result<(), CommandError> {
        let t = seconds("move_time", seconds_text)?;
        self.time = if t.is_zero() {
            TimeControl::LevelDefault
        } else {
            TimeControl::PerMove(t)
        };
        self.remaining = [None, None];
        Ok(())
    }

    /// `setoption <name> <value>`: a number in the option's range, or
    /// `default` (the level's value).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), CommandError> {
        let default = value.eq_ignore_ascii_case("default");
        let what = format!("setoption {name}");
        let o = &mut self.overrides;
        // `default` clears the override; anything else must be a number in range.
        match name.to_ascii_lowercase().as_str() {
            "threads" if default => o.threads = None,
            "threads" => o.threads = Some(whole(&what, value, 1, MAX_THREADS)?),
            "hash" if default => o.hash_mb = None,
            "hash" => o.hash_mb = Some(whole(&what, value, 1, MAX_HASH_MB)?),
            "seed" if default => o.seed = None,
            "seed" => o.seed = Some(whole(&what, value, 0, u64::MAX)?),
            "resign" if default => o.resign = None,
            "resign" => o.resign = Some(resign_value(&what, value)?),
            "eval" if default => o.learned = None,
            "eval" => o.learned = Some(eval_value(&what, value)?),
            _ => {
                let known: Vec<&str> = option_infos().iter().map(|o| o.name).collect();
                return Err(CommandError::syntax(format!(
                    "setoption: unknown option '{name}' (known: {})",
                    known.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// The value of each option now in `game`, in [`option_infos`] order.
    /// `allocated` is the size of the table the searcher holds, when it has one.
    pub fn option_values(&self, game: GameId, allocated: Option<usize>) -> [String; 5] {
        let c = self.config(game);
        let used = c.threads.min(hardware_threads());
        let threads = match used == c.threads {
            true => c.threads.to_string(),
            false => format!(
                "{} ({used} used: the machine runs {used} at once)",
                c.threads
            ),
        };
        // The table is allocated when the size is set: say so if it came out smaller.
        let hash = match allocated {
            Some(mb) if mb < c.tt_mb && self.reference.is_none() => {
                format!("{} ({mb} allocated: no memory for more)", c.tt_mb)
            }
            _ => c.tt_mb.to_string(),
        };
        let eval = match c.eval.eval {
            EvalChoice::Game => "default",
            EvalChoice::Linear => "linear",
            EvalChoice::Learned => "learned",
        };
        [
            threads,
            hash,
            c.seed.to_string(),
            c.resign.to_string(),
            eval.to_string(),
        ]
    }

    /// `limit depth <n>` from its text.
    pub fn set_depth_limit(&mut self, text: &str) -> Result<(), CommandError> {
        self.limits.depth = Some(whole("limit depth", text, 1, MAX_DEPTH as u32)?);
        Ok(())
    }

    /// `limit nodes <n>` from its text.
    pub fn set_node_limit(&mut self, text: &str) -> Result<(), CommandError> {
        self.limits.nodes = Some(whole("limit nodes", text, 1, u64::MAX)?);
        Ok(())
    }
}

fn eval_name(learned: bool) -> &'static str {
    if learned { "learned" } else { "linear" }
}

/// `setoption eval`'s value: `learned` (true) or `linear` (false).
fn eval_value(what: &str, value: &str) -> Result<bool, CommandError> {
    match value.to_ascii_lowercase().as_str() {
        "learned" => Ok(true),
        "linear" => Ok(false),
        _ => Err(CommandError::syntax(format!(
            "{what}: '{value}' is not learned, linear or default"
        ))),
    }
}

/// `setoption resign`'s value: `off`, `decided`, or a margin (a number out of
/// range says the range).
fn resign_value(what: &str, value: &str) -> Result<Resign, CommandError> {
    if value
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'-' || b == b'+')
    {
        return whole(what, value, 1, MAX_RESIGN_MARGIN).map(Resign::Behind);
    }
    value.parse().map_err(|()| {
        CommandError::syntax(format!(
            "{what}: '{value}' is not off, decided or a margin (1 to {MAX_RESIGN_MARGIN})"
        ))
    })
}
