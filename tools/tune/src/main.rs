//! `tune`: fits the Rekushu evaluation's weights to the results of recorded
//! games, Texel-style.
//!
//! Every position of every game (after the opening plies) becomes a sample: the
//! evaluation's features for the side to move (`Board::eval_features`) and the
//! game's result from that side's view (1, ½ or 0). The evaluation is linear in
//! its weights, `score = Σ w·f / divisor`, and the model is
//! `P(win) = 1 / (1 + 10^(−score / scale))`. The tuner first fits `scale` with
//! the current weights, then the weights with `scale` fixed (the tile weight
//! stays at its value, which fixes the units), by gradient descent (Adam) on the
//! mean squared error. One game in ten is held out, and its error is reported
//! before and after, so an overfit shows.
//!
//! The procedure and its results: `docs/tuning.md`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use arena::ending::Ending;
use clap::Parser;
use tessera::core::Game;
use tessera::games::rekushu::Board;
use tessera::games::rekushu::evalparams::{
    DIVISOR, FEATURES, NAMES, RekushuWeights, feature_index,
};
use tessera::record::{GameResult, Record, Replay, read_record_file};

#[derive(Parser, Debug)]
#[command(
    name = "tune",
    about = "Fit the Rekushu evaluation's weights to recorded games (Texel-style)",
    long_about = "Reads arena game records (files, or directories of game-*.txt), \
        turns every position after the opening into a sample (the evaluation's \
        features, and the game's result for the side to move), and fits the \
        weights so that a logistic function of the evaluation predicts the \
        results. Prints the error before and after, on the games used and on the \
        one game in ten held out, and the fitted weights as a Rust array for \
        src/games/rekushu/evalparams.rs."
)]
struct Cli {
    /// Record files, or directories holding them (searched one level deep).
    #[arg(required = true)]
    records: Vec<PathBuf>,
    /// Plies skipped at the start of each game (a match's random opening).
    #[arg(long, default_value_t = 8)]
    skip: usize,
    /// Gradient steps.
    #[arg(long, default_value_t = 3000)]
    steps: usize,
    /// Adam's step size, in centi-tiles per unit of feature.
    #[arg(long, default_value_t = 0.5)]
    rate: f64,
    /// Weights to start from (comma-separated, in the order of the names);
    /// default: the engine's.
    #[arg(long)]
    from: Option<String>,
    /// Features to keep fixed at their starting weight (names, comma-separated).
    /// The tile weight is always fixed.
    #[arg(long)]
    fix: Option<String>,
}

struct Sample {
    f: [f64; FEATURES],
    result: f64,
}

/// Reasons that say the game was played out: ended by the rules, a
/// resignation or an adjudication (not a fault, the ply limit or the arena).
fn played_out(reason: Option<&str>) -> bool {
    reason.is_none_or(|r| {
        matches!(
            Ending::parse(r),
            Ending::Rules(_) | Ending::Resign | Ending::Adjudication { .. }
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
fn samples_of(path: &Path, skip: usize) -> Result<Vec<Sample>, String> {
    let text = read_record_file(path)?;
    let (record, replay) = Record::read(&text).map_err(|e| e.to_string())?;
    let Replay::Rekushu(line) = replay else {
        return Err("not a Rekushu game".into());
    };
    if !played_out(record.tags.reason.as_deref()) {
        return Err("ended by a fault".into());
    }
    let winner = match record.tags.result {
        GameResult::Unfinished => return Err("unfinished".into()),
        r => r.winner(),
    };
    let mut pos: Board = line.start.clone();
    let mut out = Vec::new();
    for (ply, &mv) in line.moves.iter().enumerate() {
        if ply >= skip {
            let f = pos.eval_features();
            let result = match winner {
                None => 0.5,
                Some(w) if w == pos.side_to_move() => 1.0,
                Some(_) => 0.0,
            };
            out.push(Sample {
                f: f.map(f64::from),
                result,
            });
        }
        pos.make_move(mv);
    }
    Ok(out)
}

fn score(w: &[f64; FEATURES], f: &[f64; FEATURES]) -> f64 {
    (0..FEATURES)
        .map(|i| w[i] * f[i] / f64::from(DIVISOR[i]))
        .sum()
}

fn sigmoid(s: f64, scale: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-s / scale))
}

fn error(samples: &[Sample], w: &[f64; FEATURES], scale: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(score(w, &s.f), scale)).powi(2))
        .sum();
    total / samples.len() as f64
}

/// The scale that minimises the error with weights `w` (golden-section search).
fn fit_scale(samples: &[Sample], w: &[f64; FEATURES]) -> f64 {
    let (mut lo, mut hi) = (10.0f64, 10_000.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(samples, w, a) < error(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Adam on the mean squared error: moves the weights not `fixed`, reporting
/// the errors every 500 steps.
fn fit(
    train: &[Sample],
    held: &[Sample],
    w: &mut [f64; FEATURES],
    fixed: &[bool; FEATURES],
    scale: f64,
    steps: usize,
    rate: f64,
) {
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = [0.0; FEATURES];
    let mut v = [0.0; FEATURES];
    let ln10 = 10f64.ln();
    for step in 1..=steps {
        let mut grad = [0.0; FEATURES];
        for s in train {
            let p = sigmoid(score(w, &s.f), scale);
            // d/dw of (r - p)^2 = -2 (r - p) p (1 - p) ln10 / scale * f / div
            let k = -2.0 * (s.result - p) * p * (1.0 - p) * ln10 / scale;
            for i in 0..FEATURES {
                grad[i] += k * s.f[i] / f64::from(DIVISOR[i]);
            }
        }
        let n = train.len() as f64;
        for i in 0..FEATURES {
            if fixed[i] {
                continue;
            }
            let g = grad[i] / n;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(step as i32));
            let vh = v[i] / (1.0 - b2.powi(step as i32));
            w[i] -= rate * mh / (vh.sqrt() + eps);
        }
        if step % 500 == 0 || step == steps {
            println!(
                "step {step:5}: fit {:.6} held out {:.6}",
                error(train, w, scale),
                error(held, w, scale)
            );
        }
    }
}

fn parse_weights(text: &str) -> Result<[f64; FEATURES], String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() != FEATURES {
        return Err(format!(
            "--from needs {FEATURES} weights, got {} in '{text}'",
            parts.len()
        ));
    }
    let mut w = [0.0; FEATURES];
    for (slot, p) in w.iter_mut().zip(&parts) {
        *slot = p
            .parse()
            .map_err(|_| format!("--from: '{p}' is not a number"))?;
    }
    Ok(w)
}

fn run(cli: &Cli) -> Result<(), String> {
    let start: [f64; FEATURES] = match &cli.from {
        Some(t) => parse_weights(t)?,
        None => RekushuWeights::DEFAULT.w.map(f64::from),
    };
    let mut w = start;
    let mut fixed = [false; FEATURES];
    fixed[0] = true;
    if let Some(list) = &cli.fix {
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let i = feature_index(name).ok_or_else(|| {
                format!(
                    "--fix: no feature named '{name}' (names: {})",
                    NAMES.join(", ")
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
        match samples_of(path, cli.skip) {
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
        return Err(format!(
            "no Rekushu positions in {} files{}",
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

    let scale = fit_scale(&train, &w);
    let before = (error(&train, &w, scale), error(&held, &w, scale));
    println!("scale {scale:.1} centi-tiles per factor of ten in odds");
    println!("error before: fit {:.6} held out {:.6}", before.0, before.1);

    fit(&train, &held, &mut w, &fixed, scale, cli.steps, cli.rate);
    let rounded = w.map(f64::round);
    let after = (
        error(&train, &rounded, scale),
        error(&held, &rounded, scale),
    );
    println!(
        "error after (rounded weights): fit {:.6} held out {:.6}",
        after.0, after.1
    );
    println!();
    println!("{:<14} {:>8} {:>8}", "feature", "before", "after");
    for i in 0..FEATURES {
        println!(
            "{:<14} {:>8} {:>8}{}",
            NAMES[i],
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
    #[test]
    fn the_fit_recovers_known_weights() {
        let truth: [f64; FEATURES] = RekushuWeights::DEFAULT.w.map(f64::from);
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
                let mut f = [0.0; FEATURES];
                for (i, x) in f.iter_mut().enumerate() {
                    *x = next() * f64::from(DIVISOR[i]);
                }
                Sample {
                    f,
                    result: sigmoid(score(&truth, &f), scale),
                }
            })
            .collect();
        let mut w = truth;
        for x in w.iter_mut().skip(1) {
            *x = 0.0;
        }
        let mut fixed = [false; FEATURES];
        fixed[0] = true;
        fit(&samples, &[], &mut w, &fixed, scale, 3000, 2.0);
        for i in 0..FEATURES {
            assert!(
                (w[i] - truth[i]).abs() < 2.0,
                "{}: fitted {:.2}, true {}",
                NAMES[i],
                w[i],
                truth[i]
            );
        }
        assert!(error(&samples, &w, scale) < 1e-5);
    }

    #[test]
    fn fault_endings_are_skipped() {
        assert!(played_out(Some("no-placement")));
        assert!(played_out(Some("resign")));
        assert!(played_out(Some("adjudication: draw: scores within 0.5")));
        assert!(!played_out(Some("time forfeit: 211 ms used of 100 ms")));
        assert!(!played_out(Some("illegal move 'A1'")));
    }
}
