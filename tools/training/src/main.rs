//! `training`: the pipeline of the learned evaluations (`docs/training.md`).
//!
//! - `selfplay`: games of the engine against itself at a fixed node budget,
//!   every position with the search's score, and the result; seeded.
//! - `train`: a net fitted to those positions by a small hand-written trainer
//!   (Adam, rayon), one game in ten held out; writes the weights in floating
//!   point (JSON).
//! - `export`: the engine's integer net file from those weights, checked
//!   against them on held-out games.
//! - `speed`: nodes per second of the engine's searches with each evaluation,
//!   on the positions of `tessera bench`.

mod data;
mod model;
mod train;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};
use rayon::prelude::*;
use tessera::core::eval::EvalChoice;
use tessera::core::nnue::Net;
use tessera::search::{Evaluate, Level, LevelConfig, Limits, Searcher};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameArg {
    Rekushu,
    Rebus,
}

#[derive(Parser, Debug)]
#[command(
    name = "training",
    about = "Self-play data, training and export of the learned evaluations (docs/training.md)"
)]
struct Cli {
    /// Threads (self-play games, or the trainer's batches) at once.
    #[arg(long, global = true, default_value_t = 2)]
    threads: usize,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Plays self-play games and writes one line per game: moves, the
    /// search's score before each, the result.
    Selfplay {
        #[arg(long, value_enum)]
        game: GameArg,
        /// Games to play.
        #[arg(long)]
        games: u64,
        /// Seed of the run: game i uses seed·1000003 + i (Rekushu opening,
        /// REBUS deal, noise).
        #[arg(long)]
        seed: u64,
        /// Nodes per move.
        #[arg(long, default_value_t = 4000)]
        nodes: u64,
        /// Random moves at the start of each game.
        #[arg(long, default_value_t = 6)]
        opening: usize,
        /// Play any move within this many centi-units of the best (weighted
        /// towards it).
        #[arg(long, default_value_t = 20)]
        noise: i32,
        /// Rekushu board sizes, one game each in turn.
        #[arg(long, value_delimiter = ',', default_value = "12")]
        sizes: Vec<usize>,
        /// Play with the learned evaluation (the embedded net).
        #[arg(long)]
        learned: bool,
        /// The data file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Trains a net on self-play data; writes its weights (JSON).
    Train {
        #[command(flatten)]
        args: train::TrainArgs,
        /// Where to write the weights.
        #[arg(long)]
        out: PathBuf,
    },
    /// Writes the engine's net file from trained weights; with data, checks
    /// the integer net against the weights on its held-out games.
    Export {
        /// Weights from `train`.
        weights: PathBuf,
        /// The net file to write.
        #[arg(long)]
        out: PathBuf,
        #[arg(long, value_enum)]
        game: Option<GameArg>,
        /// Data files, to compare the integer net with the weights on the
        /// held-out games (the same `--skip` and `--holdout` as `train`).
        #[arg(long)]
        data: Vec<PathBuf>,
        #[arg(long, default_value_t = 6)]
        skip: usize,
        #[arg(long, default_value_t = 10)]
        holdout: usize,
        #[arg(long, default_value_t = 0.5)]
        lambda: f32,
    },
    /// Nodes per second of each evaluation on `tessera bench`'s positions
    /// (its depths, `hard`, one thread, fresh tables), best of `repeat` runs.
    Speed {
        #[arg(long, default_value_t = 3)]
        repeat: usize,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(e) = rayon::ThreadPoolBuilder::new()
        .num_threads(cli.threads.max(1))
        .build_global()
    {
        eprintln!("training: {e}");
        return ExitCode::FAILURE;
    }
    let r = match cli.command {
        Command::Selfplay {
            game,
            games,
            seed,
            nodes,
            opening,
            noise,
            sizes,
            learned,
            out,
        } => selfplay(
            data::SelfPlay {
                game,
                nodes,
                opening,
                noise,
                sizes,
                learned,
            },
            games,
            seed,
            &out,
            cli.threads,
        ),
        Command::Train { args, out } => train::train(&args, cli.threads.max(1)).and_then(|m| {
            let text = serde_json::to_string(&m).map_err(|e| e.to_string())?;
            std::fs::write(&out, text).map_err(|e| format!("{}: {e}", out.display()))?;
            println!("wrote {}", out.display());
            Ok(())
        }),
        Command::Export {
            weights,
            out,
            game,
            data,
            skip,
            holdout,
            lambda,
        } => export(&weights, &out, game, &data, skip, holdout, lambda),
        Command::Speed { repeat } => {
            speed(repeat);
            Ok(())
        }
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("training: {e}");
            ExitCode::FAILURE
        }
    }
}

fn selfplay(
    sp: data::SelfPlay,
    games: u64,
    seed: u64,
    out: &PathBuf,
    threads: usize,
) -> Result<(), String> {
    if sp.game == GameArg::Rekushu
        && let Some(bad) = sp
            .sizes
            .iter()
            .find(|&&s| tessera::games::rekushu::Board::new(s).is_none())
    {
        return Err(format!("--sizes: {bad} is not a board size (4 to 26)"));
    }
    let mut file = std::fs::File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let start = Instant::now();
    // Chunks of games, written as they finish (in order), so a long run shows
    // its progress and keeps what it played.
    let chunk = (threads as u64 * 8).max(8);
    let mut done = 0;
    while done < games {
        let end = (done + chunk).min(games);
        let lines = data::selfplay(&sp, seed, done..end);
        for l in &lines {
            writeln!(file, "{l}").map_err(|e| e.to_string())?;
        }
        file.flush().map_err(|e| e.to_string())?;
        done = end;
        eprintln!(
            "{done}/{games} games, {:.0} s",
            start.elapsed().as_secs_f64()
        );
    }
    println!(
        "wrote {games} games to {} in {:.0} s",
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn export(
    weights: &PathBuf,
    out: &PathBuf,
    game: Option<GameArg>,
    data: &[PathBuf],
    skip: usize,
    holdout: usize,
    lambda: f32,
) -> Result<(), String> {
    let text =
        std::fs::read_to_string(weights).map_err(|e| format!("{}: {e}", weights.display()))?;
    let m: model::Model = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let net = m.export();
    let bytes = net.to_bytes();
    std::fs::write(out, &bytes).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "wrote {} ({} bytes): {} inputs, {} hidden, {} dense, dense shift {}",
        out.display(),
        bytes.len(),
        net.inputs,
        net.hidden,
        net.dense,
        net.dense_shift
    );
    if let Some(game) = game
        && !data.is_empty()
    {
        let loaded = train::load(game, data, skip, holdout)?;
        let valid = &loaded.valid;
        let read = Net::from_bytes(&bytes)?;
        let (sum, worst, loss) = valid
            .par_iter()
            .map(|s| {
                let float = m.forward(s).out / m.k;
                let int = read.evaluate(&s.mine, &s.theirs, &s.dense);
                let p = model::sigmoid(m.k * int as f32);
                let t = lambda * model::sigmoid(m.k * s.score as f32) + (1.0 - lambda) * s.result;
                let d = f64::from((float - int as f32).abs());
                (d, d, f64::from((p - t).powi(2)))
            })
            .reduce(
                || (0.0, 0.0, 0.0),
                |a, b| (a.0 + b.0, a.1.max(b.1), a.2 + b.2),
            );
        let n = valid.len().max(1) as f64;
        println!(
            "integer net against the weights on {} held-out positions: mean difference {:.2} centi-units, largest {:.1}; held-out loss {:.5}",
            valid.len(),
            sum / n,
            worst,
            loss / n
        );
    }
    Ok(())
}

fn speed_of<G: Evaluate>(positions: &[G], depth: u32, learned: bool, repeat: usize) -> (u64, f64) {
    let mut config = LevelConfig {
        threads: 1,
        noise_margin: 0,
        ..Level::Hard.config()
    };
    config.eval.eval = EvalChoice::learned_if(learned);
    let stop = AtomicBool::new(false);
    let mut best = f64::INFINITY;
    let mut nodes = 0;
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        nodes = positions
            .iter()
            .map(|p| {
                Searcher::<G>::new(tessera::bench::BENCH_TT_MB)
                    .search(p, &Limits::depth(depth), &config, &stop, &mut |_| {})
                    .nodes
            })
            .sum();
        best = best.min(start.elapsed().as_secs_f64());
    }
    (nodes, best)
}

fn speed(repeat: usize) {
    use tessera::bench::{REBUS_DEPTH, REKUSHU_DEPTH, rebus_positions, rekushu_positions};
    let rk = rekushu_positions();
    let rb = rebus_positions();
    for (game, learned) in [
        ("rekushu", false),
        ("rekushu", true),
        ("rebus", false),
        ("rebus", true),
    ] {
        let (nodes, secs) = if game == "rekushu" {
            speed_of(&rk, REKUSHU_DEPTH, learned, repeat)
        } else {
            speed_of(&rb, REBUS_DEPTH, learned, repeat)
        };
        let eval = if learned { "learned" } else { "linear" };
        println!(
            "{game:8} {eval:8} nodes {nodes:9}  time {secs:7.3} s  nodes/second {:9.0}",
            nodes as f64 / secs
        );
    }
}
