//! `oracle`: plays a level through the protocol (`genmove`, as a GUI or the
//! arena would) on positions of random Rekushu games that the exact solver
//! has solved, and counts the moves that keep the exact value. A resignation
//! counts as a wrong move (a person can still win a game the search has
//! proven lost). The positions depend only on `--seed`; the level's moves on
//! the machine's speed when `--time` is used, not with `--nodes`.
//!
//! ```text
//! oracle --size 4 --positions 250 --plies 0..14 --time 0.2
//! oracle --size 5 --positions 200 --plies 16..30 --time 0.2
//! ```

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use tessera::core::{Game, GameText, Notation, SplitMix64, Status};
use tessera::engine::{AnyGame, Session};
use tessera::games::rekushu::Board;
use tessera::protocol::Engine;
use tessera::solve::Solver;

#[derive(Parser)]
#[command(
    name = "oracle",
    about = "How often a level keeps the exact value of solved Rekushu positions (resignations count as wrong moves)"
)]
struct Cli {
    /// Board size (4 or 5; the solver takes 6 too, slowly)
    #[arg(long, default_value_t = 4)]
    size: usize,
    /// Positions to play
    #[arg(long, default_value_t = 200)]
    positions: usize,
    /// Plies of random play before each position: FROM..TO (TO excluded)
    #[arg(long, default_value = "0..14")]
    plies: String,
    /// Seed of the random games
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The level that plays (easy, medium, hard, mike)
    #[arg(long, default_value = "hard")]
    level: String,
    /// Seconds per move (the protocol's move_time)
    #[arg(long, conflicts_with = "nodes")]
    time: Option<f64>,
    /// Nodes per move instead (`limit nodes`: reproducible on one thread)
    #[arg(long)]
    nodes: Option<u64>,
    /// Protocol commands run before each move (repeatable), e.g. 'setoption resign off'
    #[arg(long = "init", value_name = "COMMAND")]
    init: Vec<String>,
    /// Print every position whose move lost value
    #[arg(long)]
    verbose: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("oracle: {e}");
            ExitCode::from(2)
        }
    }
}

/// `FROM..TO` as a range of plies.
fn plies(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--plies '{text}': expected FROM..TO, e.g. 0..14");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (a, b): (u64, u64) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a >= b {
        return Err(bad());
    }
    Ok((a, b))
}

/// Ongoing positions of random games: `count` of them, each after a number of
/// plies drawn from `from..to`.
fn positions(size: usize, count: usize, (from, to): (u64, u64), seed: u64) -> Vec<Board> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(count);
    let mut moves = Vec::new();
    while out.len() < count {
        let plies = from + rng.below(to - from);
        let Some(mut b) = Board::new(size) else {
            break;
        };
        for _ in 0..plies {
            moves.clear();
            b.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            b.make_move(moves[rng.below(moves.len() as u64) as usize]);
        }
        if b.status() == Status::Ongoing {
            out.push(b);
        }
    }
    out
}

fn run(cli: &Cli) -> Result<(), String> {
    let range = plies(&cli.plies)?;
    let sample = positions(cli.size, cli.positions, range, cli.seed);
    let mut solver = Solver::try_new(256).ok_or("no memory for the solver's table")?;
    let mut engine = Engine::new();
    let mut setup = vec![format!("level {}", cli.level)];
    setup.push(match (cli.time, cli.nodes) {
        (_, Some(n)) => format!("limit nodes {n}"),
        (Some(t), None) => format!("move_time {t}"),
        (None, None) => "move_time 0.2".into(),
    });
    setup.extend(cli.init.iter().cloned());
    let (mut kept, mut resigned, mut lost) = (0usize, 0usize, 0usize);
    let started = Instant::now();
    for (i, b) in sample.iter().enumerate() {
        let value = solver.value(&mut b.clone());
        engine.start(AnyGame::Rekushu(Session::new(b.clone())));
        for line in &setup {
            let reply = engine.handle_line(line).unwrap_or_default();
            if reply.starts_with('?') {
                return Err(format!("'{line}': {}", reply.trim_end()));
            }
        }
        let colour = Board::side_name(b.side_to_move()).to_ascii_lowercase();
        let reply = engine
            .handle_line(&format!("genmove {colour}"))
            .unwrap_or_default();
        let Some(text) = reply.strip_prefix("= ").map(str::trim) else {
            return Err(format!(
                "position {i}: genmove answered {}",
                reply.trim_end()
            ));
        };
        let keeps = if text == "resign" {
            resigned += 1;
            false
        } else {
            let mv = b
                .parse_move(text)
                .map_err(|e| format!("position {i}: {e}"))?;
            let gain = mv.claim().map_or(0, |r| r.area() as i32);
            let mut child = b.clone();
            child.make_move(mv);
            gain - solver.value(&mut child) == value
        };
        if keeps {
            kept += 1;
        } else {
            lost += usize::from(text != "resign");
            if cli.verbose {
                println!(
                    "position {i} ({} plies in): value {value}, played {text}",
                    b.ply()
                );
            }
        }
    }
    let n = sample.len();
    let pct = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
    println!(
        "{size}x{size}, {n} positions ({}..{} plies, seed {}), {} at {}: keeps the exact value in {kept} ({:.1}%); {resigned} resigned ({:.1}%), {lost} other moves lost value; without resignations {:.1}% ({:.0} s)",
        range.0,
        range.1,
        cli.seed,
        cli.level,
        setup[1],
        pct(kept),
        pct(resigned),
        100.0 * kept as f64 / (n - resigned).max(1) as f64,
        started.elapsed().as_secs_f64(),
        size = cli.size,
    );
    Ok(())
}
