//! Engine play in the protocol: `genmove`, `reg_genmove`, `level`, time control
//! (`time_settings`, `time_left`, `fischer_time`, `move_time`), search limits
//! (`limit`), options (`setoption`, `options`) and `stop`.
//!
//! Settings live in [`PlayState`]; they outlive games and apply to both.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::commands::exact_args;
use super::engine::{AnyGame, Engine};
use super::session::Session;
use super::{CommandError, CommandResult};
use crate::core::GameText;
use crate::core::eval::{Evaluate, proven_result};
use crate::core::{GiveUp, Notation, Side};
use crate::search::params::{MAX_DEPTH, MAX_THREADS};
use crate::search::random::{position_seed, random_move_until};
use crate::search::timeman::budget;
use crate::search::uct::{UctBudget, uct_search};
use crate::search::{Level, LevelConfig, Limits, SearchInfo, SearchResult, Searcher};

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

/// Playouts per unit of `limit depth` for UCT, which has no depth.
pub const UCT_PLAYOUTS_PER_DEPTH: u64 = 1_000;

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
}

/// Limits for reproducible analysis (`limit`): when set they replace the clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnalysisLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// Everything about engine play that outlives a game.
pub struct PlayState {
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
    pub rekushu: Option<Searcher<crate::games::rekushu::Board>>,
    pub rebus: Option<Searcher<crate::games::rebus::Position>>,
    /// Set to stop the search running now (or the next one, when a `stop` line was
    /// read ahead of it). Shared with the input reader.
    pub stop: Arc<AtomicBool>,
    /// When the command running now was received: its time counts from here.
    pub received: Instant,
}

impl Default for PlayState {
    fn default() -> Self {
        PlayState {
            level: Level::default(),
            reference: None,
            overrides: Overrides::default(),
            time: TimeControl::default(),
            remaining: [None, None],
            limits: AnalysisLimits::default(),
            rekushu: None,
            rebus: None,
            stop: Arc::new(AtomicBool::new(false)),
            received: Instant::now(),
        }
    }
}

impl PlayState {
    /// The level's configuration with the user's overrides applied.
    pub fn config(&self) -> LevelConfig {
        let mut c = self.level.config();
        if let Some(t) = self.overrides.threads {
            c.threads = t;
        }
        if let Some(mb) = self.overrides.hash_mb {
            c.tt_mb = mb;
        }
        if let Some(s) = self.overrides.seed {
            c.seed = s;
        }
        c
    }

    /// The search limits for `side`'s next move.
    pub fn limits_for(&self, side: Side) -> Limits {
        if self.limits.depth.is_some() || self.limits.nodes.is_some() {
            return Limits {
                depth: self.limits.depth,
                nodes: self.limits.nodes,
                ..Limits::default()
            };
        }
        let limits = match self.time {
            TimeControl::LevelDefault => Limits::default(),
            TimeControl::PerMove(t) => Limits::movetime(t),
            TimeControl::Clock { increment } => match self.remaining[side.index()] {
                Some((left, moves)) => Limits::clock(left, increment, moves),
                None => Limits::default(),
            },
        };
        limits.started_at(self.received)
    }

    /// Makes the searcher of `game` ready for the settings now in force (its
    /// table allocated at the level's size), so that the time this takes is
    /// spent answering the command that changed them, never inside a move.
    /// Nothing to do when nothing changed; nothing for the reference levels.
    pub fn prepare(&mut self, game: &AnyGame) {
        if self.reference.is_some() {
            return;
        }
        let config = self.config();
        // One table at a time: the other game's is freed before this one is
        // made (a switch starts a new game, so it held nothing of use), or two
        // tables of a large `hash` could exhaust the memory between them.
        match game {
            AnyGame::Rekushu(_) => {
                self.rebus = None;
                searcher(&mut self.rekushu, &config);
            }
            AnyGame::Rebus(_) => {
                self.rekushu = None;
                searcher(&mut self.rebus, &config);
            }
        }
    }

    /// After `side` thought for `spent`, keeps its clock running between
    /// `time_left` updates (a controller's `time_left` overrides it).
    fn charge(&mut self, side: Side, spent: Duration) {
        if let (TimeControl::Clock { increment }, Some((left, moves))) =
            (self.time, self.remaining[side.index()])
        {
            let left = left.saturating_sub(spent) + increment;
            self.remaining[side.index()] = Some((left, moves.map(|m| m.saturating_sub(1).max(1))));
        }
    }

    /// Forgets learned search state (a new game).
    pub fn new_game(&mut self) {
        if let Some(s) = self.rekushu.as_mut() {
            s.new_game();
        }
        if let Some(s) = self.rebus.as_mut() {
            s.new_game();
        }
    }
}

/// The searcher of a game, created on first use and sized for `config`.
fn searcher<'a, G: Evaluate>(
    slot: &'a mut Option<Searcher<G>>,
    config: &LevelConfig,
) -> &'a mut Searcher<G> {
    let s = slot.get_or_insert_with(|| Searcher::for_level(config));
    s.apply_level(config);
    s
}

/// A finished search, as the protocol reports it.
pub struct Choice {
    /// `K10`, `d3xd5+c2`, `resign`, `yield`.
    pub text: String,
    pub summary: String,
}

/// A score for people: tiles/squares with two decimals, or a forced result.
pub fn score_text(score: i32) -> String {
    match proven_result(score) {
        Some((true, n)) => format!("win in {n}"),
        Some((false, n)) => format!("loss in {n}"),
        None => format!("{:+.2}", score as f64 / 100.0),
    }
}

/// One `info` line for a completed iteration.
pub fn info_line<G: Notation>(pos: &G, info: &SearchInfo<G::Move>) -> String {
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
        info.depth,
        info.seldepth,
        score_text(info.score),
        info.nodes,
        info.nps,
        info.time.as_millis(),
        pv_text(pos, &info.pv)
    )
}

/// A principal variation in notation, each move formatted in its own position.
pub fn pv_text<G: Notation>(pos: &G, pv: &[G::Move]) -> String {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        out.push(p.format_move(mv));
        p.make_move(mv);
    }
    out.join(" ")
}

/// Runs one alpha-beta search: the searcher, the position, the limits, the
/// configuration and the stop flag in; the result out. `genmove` reports
/// progress to the info sink; `genmove_analyze` streams it.
pub(crate) type SearchRun<'r, G> = dyn FnMut(
        &mut Searcher<G>,
        &G,
        &Limits,
        &LevelConfig,
        &AtomicBool,
    ) -> SearchResult<<G as crate::core::Game>::Move>
    + 'r;

/// Searches the session's position for the side to move. `resign_word` is what
/// the game says when the level gives up (`resign`; REBUS: `yield` if legal).
fn think<G: GameText + Evaluate>(
    s: &Session<G>,
    slot: &mut Option<Searcher<G>>,
    play: &PlayState,
    run: &mut SearchRun<'_, G>,
) -> Result<(Option<G::Move>, bool, String), CommandError> {
    let config = play.config();
    let side = s.pos.side_to_move();
    let limits = play.limits_for(side);
    let searcher = searcher(slot, &config);
    let result = run(searcher, &s.pos, &limits, &config, &play.stop);
    let summary = format!(
        "depth {} score {} nodes {} time {} ms",
        result.depth,
        score_text(result.score),
        result.nodes,
        result.time.as_millis()
    );
    Ok((result.best_move, result.resign, summary))
}

/// The plain search of `genmove`, each iteration's `info` line to `info`.
pub(crate) fn plain_run<'r, G: GameText + Evaluate>(
    info: &'r mut dyn FnMut(&str),
) -> impl FnMut(&mut Searcher<G>, &G, &Limits, &LevelConfig, &AtomicBool) -> SearchResult<G::Move> + 'r
{
    move |searcher, pos, limits, config, stop| {
        searcher.search(pos, limits, config, stop, &mut |i| info(&info_line(pos, i)))
    }
}

/// A move of a reference level, and its summary line.
fn think_reference<G: GameText>(
    pos: &G,
    play: &PlayState,
    reference: Reference,
) -> (Option<G::Move>, String) {
    let config = play.config();
    match reference {
        Reference::Random => {
            // The move list on the clock (a REBUS cluster has millions).
            let limits = play.limits_for(pos.side_to_move());
            let deadline = budget(&limits, config.move_time).map(|b| play.received + b.hard);
            let mut keep_going = || {
                !play.stop.load(Ordering::Relaxed) && deadline.is_none_or(|d| Instant::now() < d)
            };
            (
                random_move_until(pos, config.seed, &mut keep_going),
                "random".into(),
            )
        }
        Reference::Uct => {
            let limits = play.limits_for(pos.side_to_move());
            // The time since the command arrived is spent already.
            let time = budget(&limits, config.move_time)
                .map(|b| b.soft.saturating_sub(play.received.elapsed()));
            let playouts = limits.nodes.or_else(|| {
                time.is_none()
                    .then(|| u64::from(limits.depth.unwrap_or(1)) * UCT_PLAYOUTS_PER_DEPTH)
            });
            let r = uct_search(
                pos,
                UctBudget { playouts, time },
                position_seed(pos, config.seed),
                &play.stop,
            );
            let summary = format!(
                "uct playouts {} nodes {} value {:.3} time {} ms",
                r.playouts,
                r.nodes,
                r.value,
                r.time.as_millis()
            );
            (r.best_move, summary)
        }
    }
}

/// Checks that the engine may move for `colour` now (`name` is the command,
/// quoted in the error).
pub(crate) fn check_genmove<G: GameText>(
    s: &Session<G>,
    name: &str,
    colour: &str,
) -> Result<Side, CommandError> {
    let side = Session::<G>::side_arg(colour)?;
    s.check_turn(side, colour).map_err(|e| {
        CommandError::refused(format!(
            "{name} {colour}: {}",
            e.detail.replace(&format!("{colour}: "), "")
        ))
    })?;
    Ok(side)
}

/// `genmove`, `reg_genmove` and `genmove_analyze` for one game, the colour
/// already checked by [`check_genmove`].
pub(crate) fn genmove_in<G: GameText + Evaluate>(
    s: &mut Session<G>,
    slot: &mut Option<Searcher<G>>,
    play: &mut PlayState,
    side: Side,
    colour: &str,
    commit: bool,
    run: &mut SearchRun<'_, G>,
) -> Result<Choice, CommandError> {
    let start = Instant::now();
    let (best, resign, summary) = match play.reference {
        Some(r) => {
            let (mv, summary) = think_reference(&s.pos, play, r);
            (mv, false, summary)
        }
        None => think(s, slot, play, run)?,
    };
    if commit {
        play.charge(side, start.elapsed());
    }
    let Some(mv) = best else {
        return Err(CommandError::refused(format!(
            "genmove {colour}: no legal move"
        )));
    };
    if resign {
        // Giving up: the game says how (REBUS `yield`, Rekushu resigns).
        match s.pos.give_up() {
            GiveUp::Move(y) => {
                let text = if commit {
                    s.push(y)
                } else {
                    s.pos.format_move(y)
                };
                return Ok(Choice { text, summary });
            }
            GiveUp::Resign => {
                if commit {
                    s.resigned = Some(side);
                }
                return Ok(Choice {
                    text: "resign".into(),
                    summary,
                });
            }
            GiveUp::PlayOn => {}
        }
    }
    let text = if commit {
        s.push(mv)
    } else {
        s.pos.format_move(mv)
    };
    Ok(Choice { text, summary })
}

fn genmove_any(e: &mut Engine, args: &[String], commit: bool) -> CommandResult {
    let name = if commit { "genmove" } else { "reg_genmove" };
    let [colour] = exact_args::<1>(name, "<colour>", args)?;
    let sink = &mut e.info_sink;
    let play = &mut e.play;
    // The same steps for either game, with that game's searcher slot.
    macro_rules! run {
        ($s:expr, $slot:ident) => {{
            let mut slot = play.$slot.take();
            let r = check_genmove($s, name, colour).and_then(|side| {
                genmove_in(
                    $s,
                    &mut slot,
                    play,
                    side,
                    colour,
                    commit,
                    &mut plain_run(sink),
                )
            });
            play.$slot = slot;
            r
        }};
    }
    let result = match &mut e.game {
        AnyGame::Rekushu(s) => run!(s, rekushu),
        AnyGame::Rebus(s) => run!(s, rebus),
    };
    // A stop meant for this search is used up, whatever happened.
    play.stop.store(false, Ordering::SeqCst);
    let choice = result?;
    sink(&format!("{name} {}: {}", choice.text, choice.summary));
    Ok(choice.text)
}

pub fn genmove(e: &mut Engine, args: &[String]) -> CommandResult {
    genmove_any(e, args, true)
}

pub fn reg_genmove(e: &mut Engine, args: &[String]) -> CommandResult {
    genmove_any(e, args, false)
}

/// `level [easy|medium|hard|mike|random|uct]`.
pub fn level(e: &mut Engine, args: &[String]) -> CommandResult {
    match args {
        [] => Ok(match e.play.reference {
            Some(r) => r.name().to_string(),
            None => e.play.level.to_string(),
        }),
        [l] => {
            if let Some(r) = Reference::parse(l) {
                e.play.reference = Some(r);
                return Ok(String::new());
            }
            e.play.level = l.parse().map_err(|err: crate::search::LevelError| {
                CommandError::syntax(format!(
                    "could not parse level '{}' (expected easy, medium, hard, mike, random or uct)",
                    err.0
                ))
            })?;
            e.play.reference = None;
            Ok(String::new())
        }
        _ => Err(CommandError::syntax(format!(
            "usage: level [easy|medium|hard|mike|random|uct] (got '{}')",
            args.join(" ")
        ))),
    }
}

/// Seconds as given by GTP (integers) or by us (decimals allowed), never negative.
fn seconds(what: &str, text: &str) -> Result<Duration, CommandError> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e9)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| CommandError::syntax(format!("{what}: '{text}' is not a number of seconds")))
}

fn count(what: &str, text: &str) -> Result<u32, CommandError> {
    text.parse::<u32>()
        .map_err(|_| CommandError::syntax(format!("{what}: '{text}' is not a count of moves")))
}

/// GTP `time_settings <main> <byo-yomi time> <byo-yomi stones>`.
pub fn time_settings(e: &mut Engine, args: &[String]) -> CommandResult {
    let [main, byo, stones] = exact_args::<3>(
        "time_settings",
        "<main time> <byo-yomi time> <byo-yomi stones>",
        args,
    )?;
    let main = seconds("time_settings", main)?;
    let byo = seconds("time_settings", byo)?;
    let stones = count("time_settings", stones)?;
    if byo > Duration::ZERO && stones == 0 {
        // GTP: byo-yomi time with no stones means no time limit.
        e.play.time = TimeControl::LevelDefault;
        e.play.remaining = [None, None];
        return Ok(String::new());
    }
    e.play.time = TimeControl::Clock {
        increment: Duration::ZERO,
    };
    let start = if main > Duration::ZERO || stones == 0 {
        (main, None)
    } else {
        (byo, Some(stones))
    };
    e.play.remaining = [Some(start), Some(start)];
    Ok(String::new())
}

/// GTP `time_left <colour> <time> <stones>` (stones 0: main time, else byo-yomi).
pub fn time_left(e: &mut Engine, args: &[String]) -> CommandResult {
    let [colour, time, stones] = exact_args::<3>("time_left", "<colour> <time> <stones>", args)?;
    let side = match &e.game {
        AnyGame::Rekushu(_) => Session::<crate::games::rekushu::Board>::side_arg(colour)?,
        AnyGame::Rebus(_) => Session::<crate::games::rebus::Position>::side_arg(colour)?,
    };
    let time = seconds("time_left", time)?;
    let stones = count("time_left", stones)?;
    if !matches!(e.play.time, TimeControl::Clock { .. }) {
        e.play.time = TimeControl::Clock {
            increment: Duration::ZERO,
        };
    }
    e.play.remaining[side.index()] = Some((time, (stones > 0).then_some(stones)));
    Ok(String::new())
}

/// `fischer_time <base> <increment>`: both clocks start at base, each move adds
/// the increment.
pub fn fischer_time(e: &mut Engine, args: &[String]) -> CommandResult {
    let [base, inc] = exact_args::<2>("fischer_time", "<base seconds> <increment seconds>", args)?;
    let base = seconds("fischer_time", base)?;
    let increment = seconds("fischer_time", inc)?;
    e.play.time = TimeControl::Clock { increment };
    e.play.remaining = [Some((base, None)), Some((base, None))];
    Ok(String::new())
}

/// `move_time <seconds>`: a fixed time per move; 0 returns to the level's default.
pub fn move_time(e: &mut Engine, args: &[String]) -> CommandResult {
    let [t] = exact_args::<1>("move_time", "<seconds>", args)?;
    let t = seconds("move_time", t)?;
    e.play.time = if t.is_zero() {
        TimeControl::LevelDefault
    } else {
        TimeControl::PerMove(t)
    };
    e.play.remaining = [None, None];
    Ok(String::new())
}

/// `limit depth <n>` | `limit nodes <n>` | `limit none` | `limit`.
pub fn limit(e: &mut Engine, args: &[String]) -> CommandResult {
    let lim = &mut e.play.limits;
    match args {
        [] => Ok(format!(
            "depth {} nodes {}",
            lim.depth.map_or("none".into(), |d| d.to_string()),
            lim.nodes.map_or("none".into(), |n| n.to_string())
        )),
        [n] if n.eq_ignore_ascii_case("none") => {
            *lim = AnalysisLimits::default();
            Ok(String::new())
        }
        [kind, n] if kind.eq_ignore_ascii_case("depth") => {
            let d: u32 = n
                .parse()
                .ok()
                .filter(|d| (1..=MAX_DEPTH as u32).contains(d))
                .ok_or_else(|| {
                    CommandError::syntax(format!(
                        "limit depth: '{n}' is not a depth (1 to {MAX_DEPTH})"
                    ))
                })?;
            lim.depth = Some(d);
            Ok(String::new())
        }
        [kind, n] if kind.eq_ignore_ascii_case("nodes") => {
            let v: u64 = n.parse().ok().filter(|&v| v > 0).ok_or_else(|| {
                CommandError::syntax(format!("limit nodes: '{n}' is not a node count"))
            })?;
            lim.nodes = Some(v);
            Ok(String::new())
        }
        _ => Err(CommandError::syntax(format!(
            "usage: limit [depth <n> | nodes <n> | none] (got '{}')",
            args.join(" ")
        ))),
    }
}

/// The options `setoption` knows, with their ranges.
const OPTIONS: &[(&str, &str)] = &[
    (
        "threads",
        "search threads, 1 to 256 (no more than the machine runs at once are used), or 'default' (the level's)",
    ),
    (
        "hash",
        "transposition table in MB, 1 to 65536, or 'default' (the level's)",
    ),
    (
        "seed",
        "seed of the randomness of easy and medium, 0 to 2^64-1, or 'default'",
    ),
];

/// `options`: every option, its value now, and what it takes.
pub fn options(e: &mut Engine, args: &[String]) -> CommandResult {
    super::commands::no_args("options", args)?;
    let c = e.play.config();
    let used = c.threads.min(crate::search::levels::hardware_threads());
    let threads = match used == c.threads {
        true => c.threads.to_string(),
        false => format!(
            "{} ({used} used: the machine runs {used} at once)",
            c.threads
        ),
    };
    // The table is allocated when the size is set: say so if it came out smaller.
    let allocated = match &e.game {
        AnyGame::Rekushu(_) => e.play.rekushu.as_ref().map(|s| s.tt().size_mb()),
        AnyGame::Rebus(_) => e.play.rebus.as_ref().map(|s| s.tt().size_mb()),
    };
    let hash = match allocated {
        Some(mb) if mb < c.tt_mb && e.play.reference.is_none() => {
            format!("{} ({mb} allocated: no memory for more)", c.tt_mb)
        }
        _ => c.tt_mb.to_string(),
    };
    let values = [threads, hash, c.seed.to_string()];
    Ok(OPTIONS
        .iter()
        .zip(values)
        .map(|((name, help), v)| format!("{name} {v} - {help}"))
        .collect::<Vec<_>>()
        .join("\n"))
}

/// `setoption <name> <value>`.
pub fn setoption(e: &mut Engine, args: &[String]) -> CommandResult {
    let [name, value] = exact_args::<2>("setoption", "<name> <value>", args)?;
    let default = value.eq_ignore_ascii_case("default");
    let bad =
        |range: &str| CommandError::syntax(format!("setoption {name}: '{value}' is not {range}"));
    // `default` clears the override; anything else must be a number in range.
    let in_range = |lo: usize, hi: usize| -> Result<Option<usize>, CommandError> {
        if default {
            return Ok(None);
        }
        let v = value.parse().ok().filter(|v| (lo..=hi).contains(v));
        v.map(Some).ok_or_else(|| bad(&format!("{lo} to {hi}")))
    };
    let o = &mut e.play.overrides;
    match name.to_ascii_lowercase().as_str() {
        "threads" => o.threads = in_range(1, MAX_THREADS)?,
        "hash" => o.hash_mb = in_range(1, 65536)?,
        "seed" => {
            o.seed = if default {
                None
            } else {
                Some(value.parse().map_err(|_| bad("a number"))?)
            }
        }
        _ => {
            let known: Vec<&str> = OPTIONS.iter().map(|o| o.0).collect();
            return Err(CommandError::syntax(format!(
                "setoption: unknown option '{name}' (known: {})",
                known.join(", ")
            )));
        }
    }
    Ok(String::new())
}

/// `stop`: the input reader (see [`is_search_command`]) sets the stop flag as
/// soon as it reads this line while a search runs or waits; by the time the
/// engine answers it, there is nothing left to do.
pub fn stop(e: &mut Engine, args: &[String]) -> CommandResult {
    super::commands::no_args("stop", args)?;
    let _ = e;
    Ok(String::new())
}

/// Commands that search or enumerate, and so may run long. The binary's input
/// reader counts them, so that a `stop` line read while one runs (or waits its
/// turn) stops it at once.
pub fn is_search_command(name: &str) -> bool {
    matches!(
        name,
        "genmove"
            | "reg_genmove"
            | "analyze"
            | "genmove_analyze"
            | "perft"
            | "list_moves"
            | "gogui-rules_legal_moves"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only the current game's table is held: a large `hash` cannot be
    /// allocated twice over by switching games.
    #[test]
    fn one_table_at_a_time() {
        let mut play = PlayState::default();
        let rekushu = AnyGame::Rekushu(Session::new(crate::protocol::engine::new_rekushu(8)));
        let rebus = AnyGame::Rebus(Session::new(crate::games::rebus::Position::standard()));
        play.prepare(&rekushu);
        assert!(play.rekushu.is_some() && play.rebus.is_none());
        play.prepare(&rebus);
        assert!(play.rekushu.is_none() && play.rebus.is_some());
        play.prepare(&rekushu);
        assert!(play.rekushu.is_some() && play.rebus.is_none());
    }
}
