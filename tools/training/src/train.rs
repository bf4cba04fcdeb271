//! The trainer: samples from the data files, the scale fitted to the linear
//! evaluation, Adam on the mean squared error between σ(net) and the target
//! `λ·σ(k·score) + (1 − λ)·result`, one game in `holdout` held out.

use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;
use tessera::core::SplitMix64;
use tessera::core::eval::LinearEval;
use tessera::games::rebus::{Position, nnue as rebus_nnue};
use tessera::games::rekushu::{Board, nnue as rekushu_nnue};

use crate::GameArg;
use crate::data::{Sample, line_samples, read_lines};
use crate::model::{Model, Params, sigmoid};

/// `training train`'s arguments (the weights' file aside).
#[derive(Clone, Debug, clap::Args)]
pub struct TrainArgs {
    #[arg(long, value_enum)]
    pub game: GameArg,
    /// Data files from `selfplay`.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// The net's name (its file is <name>.nnue).
    #[arg(long)]
    pub name: String,
    /// Hidden units per point of view.
    #[arg(long, default_value_t = 32)]
    pub hidden: usize,
    /// Leave out the dense inputs (the linear evaluation's features).
    #[arg(long)]
    pub no_dense: bool,
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    #[arg(long, default_value_t = 0.002)]
    pub lr: f32,
    /// Weight of the search's score in the target (the rest: the result).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f32,
    /// Decoupled weight decay of the first layer, D and w2 (AdamW).
    #[arg(long, default_value_t = 0.0)]
    pub wd: f32,
    /// Plies skipped at the start of each game.
    #[arg(long, default_value_t = 6)]
    pub skip: usize,
    /// One game in this many is held out (0: none).
    #[arg(long, default_value_t = 10)]
    pub holdout: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub struct Loaded {
    pub train: Vec<Sample>,
    pub valid: Vec<Sample>,
    pub games: (usize, usize),
}

/// Reads the games, keeping every `holdout`-th (the first, the
/// `holdout + 1`-th, ...) for validation.
pub fn load(
    game: GameArg,
    data: &[std::path::PathBuf],
    skip: usize,
    holdout: usize,
) -> Result<Loaded, String> {
    let lines = read_lines(data)?;
    let per_game: Vec<Result<Vec<Sample>, String>> = lines
        .par_iter()
        .map(|l| line_samples(l, game, skip))
        .collect();
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    let (mut tg, mut vg) = (0, 0);
    for (i, r) in per_game.into_iter().enumerate() {
        let s = r.map_err(|e| format!("game {}: {e}", i + 1))?;
        if holdout > 0 && i % holdout == 0 {
            vg += 1;
            valid.extend(s);
        } else {
            tg += 1;
            train.extend(s);
        }
    }
    Ok(Loaded {
        train,
        valid,
        games: (tg, vg),
    })
}

/// The mean squared error of σ(k · linear) against the results.
fn linear_error(samples: &[Sample], k: f32) -> f64 {
    samples
        .par_iter()
        .map(|s| {
            let e = sigmoid(k * s.linear as f32) - s.result;
            f64::from(e * e)
        })
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// The scale (centi-units per factor of ten in odds) that makes the linear
/// evaluation predict the results best: a golden-section search.
pub fn fit_scale(samples: &[Sample]) -> f32 {
    let err = |s: f64| linear_error(samples, (std::f64::consts::LN_10 / s) as f32);
    let (mut a, mut b) = (10.0f64, 20_000.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if err(c) < err(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0) as f32
}

fn target(s: &Sample, k: f32, lambda: f32) -> f32 {
    lambda * sigmoid(k * s.score as f32) + (1.0 - lambda) * s.result
}

/// Losses of `m` on `samples`: against the blended target, and against the
/// results alone.
pub fn losses(m: &Model, samples: &[Sample], lambda: f32) -> (f64, f64) {
    let (a, b) = samples
        .par_iter()
        .map(|s| {
            let p = sigmoid(m.forward(s).out);
            let t = target(s, m.k, lambda);
            (
                f64::from((p - t).powi(2)),
                f64::from((p - s.result).powi(2)),
            )
        })
        .reduce(|| (0.0, 0.0), |x, y| (x.0 + y.0, x.1 + y.1));
    let n = samples.len().max(1) as f64;
    (a / n, b / n)
}

/// The same losses for the linear evaluation.
pub fn linear_losses(samples: &[Sample], k: f32, lambda: f32) -> (f64, f64) {
    let (a, b) = samples
        .par_iter()
        .map(|s| {
            let p = sigmoid(k * s.linear as f32);
            let t = target(s, k, lambda);
            (
                f64::from((p - t).powi(2)),
                f64::from((p - s.result).powi(2)),
            )
        })
        .reduce(|| (0.0, 0.0), |x, y| (x.0 + y.0, x.1 + y.1));
    let n = samples.len().max(1) as f64;
    (a / n, b / n)
}

struct Adam {
    m: Params,
    v: Params,
    t: i32,
}

impl Adam {
    fn step(&mut self, model: &mut Model, g: &Params, scale: f32, lr: f32, wd: f32) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        self.t += 1;
        let c1 = 1.0 - b1.powi(self.t);
        let c2 = 1.0 - b2.powi(self.t);
        let grads = [&g.w1, &g.b1, &g.d, &g.l, &g.w2];
        let ms = [
            &mut self.m.w1,
            &mut self.m.b1,
            &mut self.m.d,
            &mut self.m.l,
            &mut self.m.w2,
        ];
        let vs = [
            &mut self.v.w1,
            &mut self.v.b1,
            &mut self.v.d,
            &mut self.v.l,
            &mut self.v.w2,
        ];
        // Decay for W1, b1 (none), D, L (none: the skip weights start at the
        // linear evaluation's), w2.
        let decay = [wd, 0.0, wd, 0.0, wd];
        for ((((w, gr), m), v), decay) in model
            .params_mut()
            .into_iter()
            .zip(grads)
            .zip(ms)
            .zip(vs)
            .zip(decay)
        {
            w.par_iter_mut()
                .zip(gr.par_iter())
                .zip(m.par_iter_mut())
                .zip(v.par_iter_mut())
                .for_each(|(((w, &gr), m), v)| {
                    let gr = gr * scale;
                    *m = b1 * *m + (1.0 - b1) * gr;
                    *v = b2 * *v + (1.0 - b2) * gr * gr;
                    *w -= lr * ((*m / c1) / ((*v / c2).sqrt() + eps) + decay * *w);
                });
        }
        let gr = g.b2 * scale;
        self.m.b2 = b1 * self.m.b2 + (1.0 - b1) * gr;
        self.v.b2 = b2 * self.v.b2 + (1.0 - b2) * gr * gr;
        model.b2 -= lr * (self.m.b2 / c1) / ((self.v.b2 / c2).sqrt() + eps);
        // The engine stores the first layer as i16 in units of 1/QA.
        let lim = 32767.0 / tessera::core::nnue::QA as f32;
        model.w1.iter_mut().for_each(|w| *w = w.clamp(-lim, lim));
    }
}

/// Trains a net and returns it (the epoch with the lowest validation loss).
pub fn train(a: &TrainArgs, threads: usize) -> Result<Model, String> {
    let start = Instant::now();
    let data = load(a.game, &a.data, a.skip, a.holdout)?;
    let (train, valid) = (&data.train, &data.valid);
    if train.is_empty() || valid.is_empty() {
        return Err("no samples to train or to validate on".into());
    }
    println!(
        "data: {} games, {} positions to train on; {} games, {} positions held out ({:.1} s)",
        data.games.0,
        train.len(),
        data.games.1,
        valid.len(),
        start.elapsed().as_secs_f64()
    );
    let scale = fit_scale(train);
    let k = std::f32::consts::LN_10 / scale;
    println!(
        "scale {scale:.1} (centi-units per factor of ten in odds, fitted to the linear evaluation)"
    );

    let (game, feature_set, inputs, lin, ndense) = match a.game {
        GameArg::Rekushu => (
            rekushu_nnue::GAME,
            rekushu_nnue::FEATURE_SET,
            rekushu_nnue::INPUTS,
            (Board::WEIGHTS, Board::DIVISOR),
            rekushu_nnue::DENSE,
        ),
        GameArg::Rebus => (
            rebus_nnue::GAME,
            rebus_nnue::FEATURE_SET,
            rebus_nnue::INPUTS,
            (Position::WEIGHTS, Position::DIVISOR),
            rebus_nnue::DENSE,
        ),
    };
    let dense = if a.no_dense { 0 } else { ndense };
    let mut norm = vec![1.0f32; dense];
    let mut fmax = vec![0i32; dense];
    for (kk, (n, m)) in norm.iter_mut().zip(fmax.iter_mut()).enumerate() {
        let (s1, s2) = train.iter().fold((0f64, 0f64), |(a, b), s| {
            let x = f64::from(s.dense[kk]);
            (a + x, b + x * x)
        });
        let nn = train.len() as f64;
        let var = (s2 / nn - (s1 / nn).powi(2)).max(0.0);
        *n = var.sqrt().max(1.0) as f32;
        *m = train.iter().map(|s| s.dense[kk].abs()).max().unwrap_or(0);
    }
    let mut model = Model::new(
        &a.name,
        game,
        feature_set,
        inputs,
        a.hidden,
        dense,
        k,
        norm,
        fmax,
        (!a.no_dense).then_some(lin),
        a.seed,
    );
    let (lt, lr) = linear_losses(valid, k, a.lambda);
    println!(
        "linear evaluation, held out: loss {lt:.5} (target λ = {}), {lr:.5} (results only)",
        a.lambda
    );
    let (vt, vr) = losses(&model, valid, a.lambda);
    println!("net at start,      held out: loss {vt:.5}, {vr:.5} (results only)");

    let mut grads: Vec<Params> = (0..threads).map(|_| Params::zeros(&model)).collect();
    let mut total = Params::zeros(&model);
    let mut adam = Adam {
        m: Params::zeros(&model),
        v: Params::zeros(&model),
        t: 0,
    };
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = SplitMix64::new(a.seed ^ 0x00DD_BA11);
    // The net at the start (the linear evaluation, with dense inputs) is a
    // candidate too: a run that only overfits keeps it.
    let mut best = (vt, model.clone(), 0);
    for epoch in 1..=a.epochs {
        let t0 = Instant::now();
        for i in (1..order.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            order.swap(i, j);
        }
        // Cosine decay from lr to a twentieth of it.
        let frac = (epoch - 1) as f32 / a.epochs.max(1) as f32;
        let lr = a.lr * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * frac).cos()));
        let mut loss_sum = 0f64;
        for batch in order.chunks(a.batch) {
            let per = batch.len().div_ceil(threads);
            let m = &model;
            let lambda = a.lambda;
            let loss: f64 = grads
                .par_iter_mut()
                .zip(batch.par_chunks(per))
                .map(|(g, chunk)| {
                    g.clear();
                    let mut loss = 0f64;
                    for &i in chunk {
                        let s = &train[i as usize];
                        let f = m.forward(s);
                        let p = sigmoid(f.out);
                        let t = target(s, m.k, lambda);
                        loss += f64::from((p - t).powi(2));
                        let dout = 2.0 * (p - t) * p * (1.0 - p);
                        m.backward(s, &f, dout, g);
                    }
                    loss
                })
                .sum();
            loss_sum += loss;
            total.clear();
            for g in grads.iter().take(batch.len().div_ceil(per)) {
                total.add(g);
            }
            adam.step(&mut model, &total, 1.0 / batch.len() as f32, lr, a.wd);
        }
        let (vt, vr) = losses(&model, valid, a.lambda);
        let mark = if vt < best.0 { "  best" } else { "" };
        println!(
            "epoch {epoch:3}  lr {lr:.5}  train {:.5}  held out {vt:.5} ({vr:.5} results only)  {:.1} s{mark}",
            loss_sum / train.len() as f64,
            t0.elapsed().as_secs_f64()
        );
        if vt < best.0 {
            best = (vt, model.clone(), epoch);
        }
    }
    println!(
        "kept epoch {} (held-out loss {:.5}); {:.1} s in all",
        best.2,
        best.0,
        start.elapsed().as_secs_f64()
    );
    Ok(best.1)
}
