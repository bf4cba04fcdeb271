//! `clockcheck`: does every move come within its clock? Starts fresh engine
//! processes, sets a level and a `move_time`, and times each `genmove` from the
//! moment its line is written to the moment its reply has been read, over both
//! games, every level and several move times, in the situations that used to
//! overrun: the first move of a fresh process, the move after `setoption hash`,
//! after a level change, REBUS same-symbol clusters, too many threads.
//!
//! A move overruns when it takes longer than its move time plus the tolerance
//! (`--slack-ms` + `--slack-percent` of the move time; by default 20 ms + 10%).
//! The table of results goes to stdout; the exit status is 1 if any move
//! overran, 2 on a usage or engine error.
//!
//! It measures; it asserts nothing about speed in the test suite.

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;
use tessera_client::{EngineProcess, Reply};

#[derive(Parser)]
#[command(
    name = "clockcheck",
    about = "Times genmove replies of fresh engine processes against their move time",
    after_help = "Examples:\n  \
        clockcheck --engine target/release/tessera\n  \
        clockcheck --engine target/release/tessera --burn 2\n  \
        clockcheck --engine ./tessera --games rebus --levels mike --times 0.02,0.1"
)]
struct Cli {
    /// The engine's command line (quotes group, as for the arena)
    #[arg(long, default_value = "target/release/tessera")]
    engine: String,
    /// Games, comma-separated
    #[arg(long, default_value = "rekushu,rebus", value_delimiter = ',')]
    games: Vec<String>,
    /// Levels, comma-separated
    #[arg(
        long,
        default_value = "easy,medium,hard,mike,random,uct",
        value_delimiter = ','
    )]
    levels: Vec<String>,
    /// Move times in seconds, comma-separated
    #[arg(long, default_value = "0.02,0.05,0.1,1", value_delimiter = ',')]
    times: Vec<f64>,
    /// Fresh processes per game, level and time (each runs the next scenario:
    /// fresh, random position, hash, level change, cluster, threads)
    #[arg(long, default_value_t = 6)]
    sessions: usize,
    /// genmoves per process
    #[arg(long, default_value_t = 4)]
    moves: usize,
    /// Busy threads this tool runs meanwhile, to load the machine
    #[arg(long, default_value_t = 0)]
    burn: usize,
    /// Tolerance: fixed part, milliseconds
    #[arg(long, default_value_t = 20.0)]
    slack_ms: f64,
    /// Tolerance: share of the move time, percent
    #[arg(long, default_value_t = 10.0)]
    slack_percent: f64,
}

/// What a session does before (and during) its moves.
#[derive(Clone, Copy, Debug)]
enum Scenario {
    /// The first moves of a fresh process from the start.
    Fresh,
    /// A random REBUS deal, or a Rekushu board with random stones.
    Random,
    /// `setoption hash 1024` after the first move.
    Hash,
    /// Another level after the first move (hard → mike, others → hard).
    LevelChange,
    /// REBUS: a same-symbol cluster; Rekushu: the largest board.
    Cluster,
    /// `setoption threads 256`.
    Threads,
}

const SCENARIOS: [Scenario; 6] = [
    Scenario::Fresh,
    Scenario::Random,
    Scenario::Hash,
    Scenario::LevelChange,
    Scenario::Cluster,
    Scenario::Threads,
];

/// The position of issue 15: four ranks of Blue W over four of Red P.
const CLUSTER_4X9: &str = "gHgFgXgHgFgXgHgFgX/bWbWbWbWbWbWbWbWbW/bWbWbWbWbWbWbWbWbW/bWbWbWbWbWbWbWbWbW/bWbWbWbWbWbWbWbWbW/rPrPrPrPrPrPrPrPrP/rPrPrPrPrPrPrPrPrP/rPrPrPrPrPrPrPrPrP/rPrPrPrPrPrPrPrPrP red - -";
/// A 5×5 Blue W cluster in the middle, facing Red P's.
const CLUSTER_5X5: &str = "gHgFgXgHgFgXgHgFgX/gFgXbSbTbObQbGgXgH/gHgFbWbWbWbWbWgFgX/gFgXbWbWbWbWbWgXgH/gHgFbWbWbWbWbWgFgX/gFgXbWbWbWbWbWgXgH/gHgFbWbWbWbWbWgFgX/gFgXrPrPrPrPrPgXgH/rSrWrPrTrOrQrGrJrK red - -";

/// The longest wait for any reply: an engine silent this long fails its
/// session (the process is then killed).
const REPLY_TIMEOUT: Duration = Duration::from_secs(120);

/// An engine process ([`tessera_client::EngineProcess`]).
struct Engine(EngineProcess);

impl Engine {
    fn start(command: &str) -> Result<Engine, String> {
        EngineProcess::spawn(command)
            .map(Engine)
            .map_err(|e| e.to_string())
    }

    /// Sends one command; returns the reply and the time from the write to
    /// the moment the client's reader read the reply's empty line.
    fn ask(&mut self, line: &str) -> Result<(Reply, Duration), String> {
        let start = Instant::now();
        self.0.send(line).map_err(|e| format!("'{line}': {e}"))?;
        let answer = self
            .0
            .recv_answer(start + REPLY_TIMEOUT)
            .map_err(|e| format!("'{line}': {e}"))?;
        Ok((answer.reply, answer.end.saturating_duration_since(start)))
    }

    fn ok(&mut self, line: &str) -> Result<String, String> {
        match self.ask(line)?.0 {
            Reply::Ok(text) => Ok(text),
            Reply::Err(text) => Err(format!("'{line}': ? {text}")),
        }
    }

    /// Sends `quit` and waits for the process to end (it is killed after 5 s).
    fn quit(self) {
        self.0.quit(Duration::from_secs(5));
    }
}

/// One timed move.
struct Sample {
    game: String,
    level: String,
    time: f64,
    scenario: Scenario,
    first: bool,
    elapsed: Duration,
}

/// A small deterministic generator for the random positions.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The side to move's colour word, or `None` when the game is over.
fn side_to_move(e: &mut Engine, game: &str) -> Result<Option<&'static str>, String> {
    if e.ok("game_status")? != "ongoing" {
        return Ok(None);
    }
    // GoGui's word: `black` is Black, or Red in REBUS.
    let first = e.ok("gogui-rules_side_to_move")? == "black";
    Ok(Some(match (game, first) {
        ("rebus", true) => "red",
        ("rebus", false) => "blue",
        (_, true) => "b",
        (_, false) => "w",
    }))
}

fn setup(e: &mut Engine, game: &str, scenario: Scenario, seed: u64) -> Result<(), String> {
    match (game, scenario) {
        ("rebus", Scenario::Random) => {
            e.ok(&format!("setup random {seed}"))?;
        }
        ("rebus", Scenario::Cluster) => {
            let p = if seed.is_multiple_of(2) {
                CLUSTER_4X9
            } else {
                CLUSTER_5X5
            };
            e.ok(&format!("setup {p}"))?;
        }
        ("rekushu", Scenario::Random) => {
            let mut state = seed | 1;
            for _ in 0..(10 + seed % 30) {
                let moves = e.ok("list_moves")?;
                let list: Vec<&str> = moves.split_whitespace().collect();
                if list.is_empty() {
                    break;
                }
                let mv = list[(next(&mut state) % list.len() as u64) as usize];
                let Some(side) = side_to_move(e, game)? else {
                    break;
                };
                e.ok(&format!("play {side} {mv}"))?;
            }
        }
        ("rekushu", Scenario::Cluster) => {
            e.ok("boardsize 26")?;
        }
        (_, Scenario::Threads) => {
            e.ok("setoption threads 256")?;
        }
        _ => {}
    }
    Ok(())
}

fn session(
    cli: &Cli,
    game: &str,
    level: &str,
    time: f64,
    scenario: Scenario,
    seed: u64,
    out: &mut Vec<Sample>,
) -> Result<(), String> {
    let mut e = Engine::start(&cli.engine)?;
    let result = play_session(&mut e, cli, game, level, time, scenario, seed, out);
    e.quit();
    result
}

/// The moves of one session, on a started engine.
#[allow(clippy::too_many_arguments)]
fn play_session(
    e: &mut Engine,
    cli: &Cli,
    game: &str,
    level: &str,
    time: f64,
    scenario: Scenario,
    seed: u64,
    out: &mut Vec<Sample>,
) -> Result<(), String> {
    if game == "rebus" {
        e.ok("game rebus")?;
    }
    e.ok(&format!("level {level}"))?;
    e.ok(&format!("move_time {time}"))?;
    setup(e, game, scenario, seed)?;
    let mut played = 0;
    let mut restarts = 0;
    // The level in force (a level change switches it after the first move).
    let mut current = level.to_string();
    while played < cli.moves {
        let Some(side) = side_to_move(e, game)? else {
            restarts += 1;
            if restarts > cli.moves {
                break;
            }
            e.ok("clear_board")?;
            continue;
        };
        let (reply, elapsed) = e.ask(&format!("genmove {side}"))?;
        if let Reply::Err(text) = reply {
            return Err(format!("genmove {side}: ? {text}"));
        }
        out.push(Sample {
            game: game.into(),
            level: current.clone(),
            time,
            scenario,
            first: played == 0,
            elapsed,
        });
        played += 1;
        if played == 1 {
            match scenario {
                Scenario::Hash => {
                    e.ok("setoption hash 1024")?;
                }
                Scenario::LevelChange => {
                    let other = if level == "hard" { "mike" } else { "hard" };
                    e.ok(&format!("level {other}"))?;
                    current = other.to_string();
                }
                _ => {}
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let burning = Arc::new(AtomicBool::new(true));
    let burners: Vec<_> = (0..cli.burn)
        .map(|_| {
            let on = Arc::clone(&burning);
            std::thread::spawn(move || {
                let mut x = 1u64;
                while on.load(Ordering::Relaxed) {
                    for _ in 0..10_000 {
                        x = std::hint::black_box(
                            x.wrapping_mul(6364136223846793005).wrapping_add(1),
                        );
                    }
                }
            })
        })
        .collect();
    let mut samples = Vec::new();
    let mut seed = 1u64;
    let mut errors = 0;
    for game in &cli.games {
        for level in &cli.levels {
            for &time in &cli.times {
                for i in 0..cli.sessions {
                    // Every scenario in turn, the same for every game, level and time.
                    let scenario = SCENARIOS[i % SCENARIOS.len()];
                    seed += 1;
                    if let Err(e) = session(&cli, game, level, time, scenario, seed, &mut samples) {
                        eprintln!("clockcheck: {game} {level} {time}s {scenario:?}: {e}");
                        errors += 1;
                    }
                }
                eprint!(".");
            }
        }
    }
    eprintln!();
    burning.store(false, Ordering::Relaxed);
    for b in burners {
        let _ = b.join();
    }
    report(&cli, &samples, errors)
}

fn report(cli: &Cli, samples: &[Sample], errors: usize) -> ExitCode {
    let allowed = |t: f64| t + (cli.slack_ms / 1000.0) + t * cli.slack_percent / 100.0;
    println!(
        "{:<8} {:<7} {:>6} {:>6} {:>9} {:>9} {:>9} {:>6}",
        "game", "level", "time", "moves", "median", "worst", "allowed", "over"
    );
    // One row per game, level and time that played a move, in the order they
    // first did: a level change's moves are in the row of the level that
    // played them, so the rows hold every move once.
    let mut rows: Vec<(&str, &str, f64)> = Vec::new();
    for s in samples {
        let key = (s.game.as_str(), s.level.as_str(), s.time);
        if !rows.contains(&key) {
            rows.push(key);
        }
    }
    let is_over = |s: &Sample| s.elapsed.as_secs_f64() > allowed(s.time);
    let total_over = samples.iter().filter(|s| is_over(s)).count();
    let mut worst: Option<&Sample> = None;
    for (game, level, time) in rows {
        let mut v: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.game == game && s.level == level && s.time == time)
            .collect();
        v.sort_by_key(|s| s.elapsed);
        let over = v.iter().filter(|s| is_over(s)).count();
        let last = v[v.len() - 1];
        let ratio = |s: &Sample| s.elapsed.as_secs_f64() - allowed(s.time);
        if worst.is_none_or(|w| ratio(last) > ratio(w)) {
            worst = Some(last);
        }
        println!(
            "{:<8} {:<7} {:>6} {:>6} {:>8.1}ms {:>8.1}ms {:>8.1}ms {:>6}",
            game,
            level,
            time,
            v.len(),
            v[v.len() / 2].elapsed.as_secs_f64() * 1000.0,
            last.elapsed.as_secs_f64() * 1000.0,
            allowed(time) * 1000.0,
            over
        );
    }
    for s in samples.iter().filter(|s| is_over(s)) {
        println!(
            "over: {} {} move_time {} s {:?}{}: {:.1} ms",
            s.game,
            s.level,
            s.time,
            s.scenario,
            if s.first { ", first move" } else { "" },
            s.elapsed.as_secs_f64() * 1000.0
        );
    }
    let firsts = samples.iter().filter(|s| s.first).count();
    println!(
        "{} genmoves ({} first moves of fresh processes), {} over the allowed time, {} session errors",
        samples.len(),
        firsts,
        total_over,
        errors
    );
    if let Some(w) = worst {
        println!(
            "closest to the limit: {} {} move_time {} s {:?}{}: {:.1} ms (allowed {:.1} ms)",
            w.game,
            w.level,
            w.time,
            w.scenario,
            if w.first { ", first move" } else { "" },
            w.elapsed.as_secs_f64() * 1000.0,
            allowed(w.time) * 1000.0
        );
    }
    match (errors, total_over) {
        (0, 0) => ExitCode::SUCCESS,
        (0, _) => ExitCode::from(1),
        _ => ExitCode::from(2),
    }
}
