//! `tune`: fits the evaluation weights of Rekushu or REBUS to the results of
//! recorded games, Texel-style.
//!
//! Every position of every game (after the opening plies) becomes a sample: the
//! evaluation's features for the side to move (`LinearEval::features`, one
//! trait for both games) and the game's result from that side's view (1, ½ or
//! 0). The evaluation is linear in its weights, `score = Σ w·f / divisor`, and
//! the model is `P(win) = 1 / (1 + 10^(−score / scale))`. The tuner first fits
//! `scale` with the current weights, then the weights with `scale` fixed (the
//! first weight, a tile or a square of lead, stays at its value, which fixes
//! the units), by gradient descent (Adam) on the
//! mean squared error. One game in ten is held out, and its error is reported
//! before and after, so an overfit shows.
//!
//! The procedure and its results: `docs/tuning.md`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use arena::ending::Ending;
use clap::{Parser, ValueEnum};
use tessera::core::Side;
use tessera::core::eval::LinearEval;
use tessera::games::rebus::Position;
use tessera::games::rekushu::Board;
use tessera::record::{GameResult, Line, Record, Replay, read_record_file};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum GameArg {
    Rekushu,
    Rebus,
}

#[derive(Parser, Debug)]
#[command(
    name = "tune",
    about = "Fit the evaluation's weights (Rekushu or REBUS) to recorded games (Texel-style)",
    long_about = "Reads arena game records (files, or directories of game-*.txt), \
        turns every position after the opening into a sample (the evaluation's \
        features, and the game's result for the side to move), and fits the \
        weights so that a logistic function of the evaluation predicts the \
        results. Prints the error before and after, on the games used and on the \
        one game in ten held out, and the fitted weights as a Rust array for \
        src/games/<game>/evalparams.rs. Records of the other game are skipped."
)]
struct Cli {
    /// The game whose evaluation is fitted.
    #[arg(long, value_enum, default_value_t = GameArg::Rekushu)]
    game: GameArg,
    /// Record files, or directories holding them (searched one level deep).
    #[arg(required = true)]
    records: Vec<PathBuf>,
    /// Plies skipped at the start of each game (a match's random opening).
    #[arg(long, default_value_t = 8)]
    skip: usize,
    /// Gradient steps.
    #[arg(long, default_value_t = 3000)]
    steps: usize,
    /// Adam's step size, in centi-units (tiles or squares) per unit of feature.
    #[arg(long, default_value_t = 0.5)]
    rate: f64,
    /// Weights to start from (comma-separated, in the order of the names);
    /// default: the engine's.
    #[arg(long)]
    from: Option<String>,
    /// Features to keep fixed at their starting weight (names, comma-separated).
    /// The first weight (a tile or a square of lead) is always fixed.
    #[arg(long)]
    fix: Option<String>,
}

struct Sample {
    f: Vec<f64>,
    result: f64,
}

/// The fitted game's features: names, divisors, the engine's weights.
struct Model {
    names: &'static [&'static str],
    index: fn(&str) -> Option<usize>,
    divisor: Vec<f64>,
    weights: Vec<f64>,
}

impl Model {
    fn of<G: LinearEval>() -> Model {
        Model {
            names: G::NAMES,
            index: G::feature_index,
            divisor: G::DIVISOR.iter().map(|&d| f64::from(d)).collect(),
            weights: G::WEIGHTS.iter().map(|&w| f64::from(w)).collect(),
        }
    }

    fn len(&self) -> usize {
        self.names.len()
    }

    fn score(&self, w: &[f64], f: &[f64]) -> f64 {
        w.iter()
            .zip(f)
            .zip(&self.divisor)
            .map(|((w, f), d)| w * f / d)
            .sum()
    }
}

/// Whether a game's result says something about its positions: it ended by
/// the rules, a resignation, an adjudication, or at the ply limit (a draw, as
/// the arena scores it, and as the positions are labelled); not by an
/// engine's fault or an arena error, which say nothing about the position.
fn played_out(reason: Option<&str>) -> bool {
    reason.is_none_or(|r| {
        matches!(
            Ending::parse(r),
            Ending::Rules(_) | Ending::Resign | Ending::Adjudication { .. } | Ending::MaxPlies
        )
    })
}

fn record_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let rd = std::fs::read_dir(p).map_err(|e| format!("{}: {e}", p.display()))?;
            let mut files: Vec<PathBuf> = rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "txt"))
                .collect();
            files.sort();
            out.extend(files);
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            return Err(format!("'{}': no such file or directory", p.display()));
        }
    }
    Ok(out)
}

/// The samples of one record, or why it was skipped.
fn samples_of(path: &Path, skip: usize, game: GameArg) -> Result<Vec<Sample>, String> {
    let text = read_record_file(path)?;
    let (record, replay) = Record::read(&text).map_err(|e| e.to_string())?;
    if let Some(reason) = record.tags.reason.as_deref()
        && !played_out(Some(reason))
    {
        return Err(format!("ended by '{reason}', not by play"));
    }
    let winner = match record.tags.result {
        GameResult::Unfinished => return Err("unfinished".into()),
        r => r.winner(),
    };
    let result_for = |side: Side| match winner {
        None => 0.5,
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
    };
    match (replay, game) {
        (Replay::Rekushu(line), GameArg::Rekushu) => Ok(line_samples(&line, skip, result_for)),
        (Replay::Rebus(line), GameArg::Rebus) => Ok(line_samples(&line, skip, result_for)),
        (Replay::Rekushu(_), GameArg::Rebus) => Err("a Rekushu game, not REBUS".into()),
        (Replay::Rebus(_), GameArg::Rekushu) => Err("a REBUS game, not Rekushu".into()),
    }
}

/// Every position of `line` after `skip` plies, with its features and the
/// result for its side to move.
fn line_samples<G: LinearEval>(
    line: &Line<G>,
    skip: usize,
    result_for: impl Fn(Side) -> f64,
) -> Vec<Sample> {
    let mut pos = line.start.clone();
    let mut out = Vec::new();
    for (ply, &mv) in line.moves.iter().enumerate() {
        if ply >= skip {
            out.push(Sample {
                f: pos.features().into_iter().map(f64::from).collect(),
                result: result_for(pos.side_to_move()),
            });
        }
        pos.make_move(mv);
    }
    out
}

fn sigmoid(s: f64, scale: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-s / scale))
}

fn error(model: &Model, samples: &[Sample], w: &[f64], scale: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(model.score(w, &s.f), scale)).powi(2))
        .sum();
    total / samples.len() as f64
}

/// The scale that minimises the error with weights `w` (golden-section search).
fn fit_scale(model: &Model, samples: &[Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (10.0f64, 10_000.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(model, samples, w, a) < error(model, samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// What a fit is asked to do: which weights stay, and how it steps.
struct FitPlan<'a> {
    fixed: &'a [bool],
    scale: f64,
    steps: usize,
    rate: f64,
}

/// Adam on the mean squared error: moves the weights not `fixed`, reporting
/// the errors every 500 steps.
fn fit(model: &Model, train: &[Sample], held: &[Sample], w: &mut [f64], plan: &FitPlan) {
    let n_features = model.len();
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; n_features];
    let mut v = vec![0.0; n_features];
    let ln10 = 10f64.ln();
    let scale = plan.scale;
    for step in 1..=plan.steps {
        let mut grad = vec![0.0; n_features];
        for s in train {
            let p = sigmoid(model.score(w, &s.f), scale);
            // d/dw of (r - p)^2 = -2 (r - p) p (1 - p) ln10 / scale * f / div
            let k = -2.0 * (s.result - p) * p * (1.0 - p) * ln10 / scale;
            for ((g, f), d) in grad.iter_mut().zip(&s.f).zip(&model.divisor) {
                *g += k * f / d;
            }
        }
        let n = train.len() as f64;
        for i in 0..n_features {
            if plan.fixed[i] {
                continue;
            }
            let g = grad[i] / n;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(step as i32));
            let vh = v[i] / (1.0 - b2.powi(step as i32));
            w[i] -= plan.rate * mh / (vh.sqrt() + eps);
        }
        if step % 500 == 0 || step == plan.steps {
            println!(
                "step {step:5}: fit {:.6} held out {:.6}",
                error(model, train, w, scale),
                error(model, held, w, scale)
            );
        }
    }
}

fn parse_weights(text: &str, n: usize) -> Result<Vec<f64>, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() != n {
        return Err(format!(
            "--from needs {n} weights, got {} in '{text}'",
            parts.len()
        ));
    }
    parts
        .iter()
        .map(|p| {
            p.parse()
                .map_err(|_| format!("--from: '{p}' is not a number"))
        })
        .collect()
}

fn run(cli: &Cli) -> Result<(), String> {
    let model = match cli.game {
        GameArg::Rekushu => Model::of::<Board>(),
        GameArg::Rebus => Model::of::<Position>(),
    };
    let start: Vec<f64> = match &cli.from {
        Some(t) => parse_weights(t, model.len())?,
        None => model.weights.clone(),
    };
    let mut w = start.clone();
    let mut fixed = vec![false; model.len()];
    fixed[0] = true;
    if let Some(list) = &cli.fix {
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let i = (model.index)(name).ok_or_else(|| {
                format!(
                    "--fix: no feature named '{name}' (names: {})",
                    model.names.join(", ")
                )
            })?;
            fixed[i] = true;
        }
    }

    let files = record_files(&cli.records)?;
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let (mut games, mut skipped) = (0usize, 0usize);
    let mut first_skip: Option<String> = None;
    for path in &files {
        match samples_of(path, cli.skip, cli.game) {
            Ok(s) => {
                if games % 10 == 9 {
                    held.extend(s);
                } else {
                    train.extend(s);
                }
                games += 1;
            }
            Err(why) => {
                skipped += 1;
                first_skip.get_or_insert_with(|| format!("{}: {why}", path.display()));
            }
        }
    }
    if train.is_empty() {
        let game = match cli.game {
            GameArg::Rekushu => "Rekushu",
            GameArg::Rebus => "REBUS",
        };
        return Err(format!(
            "no {game} positions in {} files{}",
            files.len(),
            first_skip.map_or(String::new(), |s| format!(" (first skipped: {s})"))
        ));
    }
    println!(
        "games {games} (skipped {skipped}), positions: fit {} held out {}",
        train.len(),
        held.len()
    );
    if let Some(s) = first_skip {
        println!("first skipped: {s}");
    }

    let scale = fit_scale(&model, &train, &w);
    let before = (
        error(&model, &train, &w, scale),
        error(&model, &held, &w, scale),
    );
    println!("scale {scale:.1} centi-units per factor of ten in odds");
    println!("error before: fit {:.6} held out {:.6}", before.0, before.1);

    let plan = FitPlan {
        fixed: &fixed,
        scale,
        steps: cli.steps,
        rate: cli.rate,
    };
    fit(&model, &train, &held, &mut w, &plan);
    let rounded: Vec<f64> = w.iter().map(|x| x.round()).collect();
    let after = (
        error(&model, &train, &rounded, scale),
        error(&model, &held, &rounded, scale),
    );
    println!(
        "error after (rounded weights): fit {:.6} held out {:.6}",
        after.0, after.1
    );
    println!();
    println!("{:<16} {:>8} {:>8}", "feature", "before", "after");
    for i in 0..model.len() {
        println!(
            "{:<16} {:>8} {:>8}{}",
            model.names[i],
            start[i],
            rounded[i],
            if fixed[i] { "  (fixed)" } else { "" }
        );
    }
    let list: Vec<String> = rounded.iter().map(|x| format!("{x}")).collect();
    println!();
    println!("w: [{}]", list.join(", "));
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tune: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples whose results are exactly the model's prediction under known
    /// weights: the fit must find those weights again from other ones.
    fn recovers_known_weights(model: &Model) {
        let truth = model.weights.clone();
        let scale = 200.0;
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % 21) as f64 - 10.0
        };
        let samples: Vec<Sample> = (0..3000)
            .map(|_| {
                let f: Vec<f64> = model.divisor.iter().map(|d| next() * d).collect();
                let result = sigmoid(model.score(&truth, &f), scale);
                Sample { f, result }
            })
            .collect();
        let mut w = truth.clone();
        for x in w.iter_mut().skip(1) {
            *x = 0.0;
        }
        let mut fixed = vec![false; model.len()];
        fixed[0] = true;
        let plan = FitPlan {
            fixed: &fixed,
            scale,
            steps: 3000,
            rate: 2.0,
        };
        fit(model, &samples, &[], &mut w, &plan);
        for i in 0..model.len() {
            assert!(
                (w[i] - truth[i]).abs() < 2.0,
                "{}: fitted {:.2}, true {}",
                model.names[i],
                w[i],
                truth[i]
            );
        }
        assert!(error(model, &samples, &w, scale) < 1e-5);
    }

    #[test]
    fn the_fit_recovers_known_rekushu_weights() {
        recovers_known_weights(&Model::of::<Board>());
    }

    #[test]
    fn the_fit_recovers_known_rebus_weights() {
        recovers_known_weights(&Model::of::<Position>());
    }

    #[test]
    fn fault_endings_are_skipped_and_the_ply_limit_kept() {
        assert!(played_out(Some("no-placement")));
        assert!(played_out(Some("resign")));
        assert!(played_out(Some("adjudication: draw: scores within 0.5")));
        assert!(
            played_out(Some("max-plies")),
            "a draw at the ply limit is kept"
        );
        assert!(!played_out(Some("time forfeit: 211 ms used of 100 ms")));
        assert!(!played_out(Some("illegal move 'A1'")));
    }
}
