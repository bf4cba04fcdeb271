//! The net in floating point, as it is trained, and its export to the
//! engine's integer net (`tessera::core::nnue`).
//!
//! ```text
//! acc[view] = b1 + Σ W1[i]          (i active for view)
//! pre       = [acc[mover] ; acc[other]] + Dᵀ x      x[k] = f[k] / norm[k]
//! out       = b2 + Lᵀ x + w2 · clamp(pre, 0, 1)    (logits: P(win) = σ(out))
//! ```
//!
//! The output is in logits, `k` per centi-unit (`k = ln 10 / scale`, the scale
//! fitted to the linear evaluation), so that a net that copies the linear
//! evaluation is `L[i] = k · weight[i] · norm[i] / divisor[i]` with the hidden
//! units silent: that is where training starts when the net has dense inputs.

use serde::{Deserialize, Serialize};
use tessera::core::SplitMix64;
use tessera::core::nnue::{MAX_HIDDEN, Net, QA, QB};

use crate::data::Sample;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Model {
    pub name: String,
    pub game: u32,
    pub feature_set: u32,
    pub inputs: usize,
    pub hidden: usize,
    pub dense: usize,
    /// Logits per centi-unit.
    pub k: f32,
    /// Dense inputs are divided by these.
    pub norm: Vec<f32>,
    /// The largest magnitude of each dense input seen in training (the
    /// engine clamps to twice it).
    pub fmax: Vec<i32>,
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub d: Vec<f32>,
    pub l: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: f32,
}

/// Gradients, or Adam's moments: the same shapes as the weights.
#[derive(Clone, Debug)]
pub struct Params {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub d: Vec<f32>,
    pub l: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: f32,
}

impl Params {
    pub fn zeros(m: &Model) -> Params {
        Params {
            w1: vec![0.0; m.w1.len()],
            b1: vec![0.0; m.b1.len()],
            d: vec![0.0; m.d.len()],
            l: vec![0.0; m.l.len()],
            w2: vec![0.0; m.w2.len()],
            b2: 0.0,
        }
    }

    pub fn clear(&mut self) {
        for v in [
            &mut self.w1,
            &mut self.b1,
            &mut self.d,
            &mut self.l,
            &mut self.w2,
        ] {
            v.iter_mut().for_each(|x| *x = 0.0);
        }
        self.b2 = 0.0;
    }

    pub fn add(&mut self, o: &Params) {
        for (a, b) in [
            (&mut self.w1, &o.w1),
            (&mut self.b1, &o.b1),
            (&mut self.d, &o.d),
            (&mut self.l, &o.l),
            (&mut self.w2, &o.w2),
        ] {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
        self.b2 += o.b2;
    }
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What the forward pass keeps for the backward one.
pub struct Forward {
    pub pre: Vec<f32>,
    pub x: Vec<f32>,
    pub out: f32,
}

impl Model {
    /// A new net: small random first layer, hidden units silent, and (with
    /// dense inputs) the skip weights of the linear evaluation `lin`
    /// (weights, divisors).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: &str,
        game: u32,
        feature_set: u32,
        inputs: usize,
        hidden: usize,
        dense: usize,
        k: f32,
        norm: Vec<f32>,
        fmax: Vec<i32>,
        lin: Option<(&[i32], &[i32])>,
        seed: u64,
    ) -> Model {
        assert!(hidden <= MAX_HIDDEN);
        let mut rng = SplitMix64::new(seed);
        let mut uniform =
            |a: f32| ((rng.next() >> 11) as f64 / (1u64 << 53) as f64) as f32 * 2.0 * a - a;
        let w1 = (0..inputs * hidden).map(|_| uniform(0.05)).collect();
        let b1 = (0..hidden).map(|_| 0.25 + uniform(0.1)).collect();
        let d = (0..dense * 2 * hidden).map(|_| uniform(0.05)).collect();
        let w2 = (0..2 * hidden).map(|_| uniform(0.01)).collect();
        let l = match lin {
            Some((w, div)) => (0..dense)
                .map(|i| k * w[i] as f32 * norm[i] / div[i] as f32)
                .collect(),
            None => vec![0.0; dense],
        };
        Model {
            name: name.to_string(),
            game,
            feature_set,
            inputs,
            hidden,
            dense,
            k,
            norm,
            fmax,
            w1,
            b1,
            d,
            l,
            w2,
            b2: 0.0,
        }
    }

    pub fn forward(&self, s: &Sample) -> Forward {
        let h = self.hidden;
        let mut pre = vec![0.0f32; 2 * h];
        let (a, b) = pre.split_at_mut(h);
        a.copy_from_slice(&self.b1);
        b.copy_from_slice(&self.b1);
        for &i in &s.mine {
            let row = &self.w1[i as usize * h..][..h];
            a.iter_mut().zip(row).for_each(|(p, w)| *p += w);
        }
        for &i in &s.theirs {
            let row = &self.w1[i as usize * h..][..h];
            b.iter_mut().zip(row).for_each(|(p, w)| *p += w);
        }
        let x: Vec<f32> = (0..self.dense)
            .map(|k| s.dense[k] as f32 / self.norm[k])
            .collect();
        let mut out = self.b2;
        for (k, &xk) in x.iter().enumerate() {
            out += self.l[k] * xk;
            if xk != 0.0 {
                let row = &self.d[k * 2 * h..][..2 * h];
                pre.iter_mut().zip(row).for_each(|(p, w)| *p += w * xk);
            }
        }
        for (p, w) in pre.iter().zip(&self.w2) {
            out += w * p.clamp(0.0, 1.0);
        }
        Forward { pre, x, out }
    }

    /// Adds to `g` the gradient of the loss of one sample whose output had
    /// derivative `dout`.
    pub fn backward(&self, s: &Sample, f: &Forward, dout: f32, g: &mut Params) {
        let h = self.hidden;
        g.b2 += dout;
        for (k, &xk) in f.x.iter().enumerate() {
            g.l[k] += dout * xk;
        }
        let mut dpre = vec![0.0f32; 2 * h];
        for (j, (dp, &p)) in dpre.iter_mut().zip(&f.pre).enumerate() {
            g.w2[j] += dout * p.clamp(0.0, 1.0);
            if p > 0.0 && p < 1.0 {
                *dp = dout * self.w2[j];
            }
        }
        for (k, &xk) in f.x.iter().enumerate() {
            if xk != 0.0 {
                let row = &mut g.d[k * 2 * h..][..2 * h];
                row.iter_mut()
                    .zip(&dpre)
                    .for_each(|(gw, dp)| *gw += dp * xk);
            }
        }
        let (da, db) = dpre.split_at(h);
        for j in 0..h {
            g.b1[j] += da[j] + db[j];
        }
        for &i in &s.mine {
            let row = &mut g.w1[i as usize * h..][..h];
            row.iter_mut().zip(da).for_each(|(gw, dp)| *gw += dp);
        }
        for &i in &s.theirs {
            let row = &mut g.w1[i as usize * h..][..h];
            row.iter_mut().zip(db).for_each(|(gw, dp)| *gw += dp);
        }
    }

    /// Every weight, mutably, with its gradient and Adam moments.
    pub fn params_mut(&mut self) -> [&mut Vec<f32>; 5] {
        [
            &mut self.w1,
            &mut self.b1,
            &mut self.d,
            &mut self.l,
            &mut self.w2,
        ]
    }

    /// The engine's integer net.
    pub fn export(&self) -> Net {
        let h = self.hidden;
        let qa = QA as f32;
        let w1 = self
            .w1
            .iter()
            .map(|w| (w * qa).round().clamp(-32767.0, 32767.0) as i16)
            .collect();
        let b1 = self.b1.iter().map(|b| (b * qa).round() as i32).collect();
        // The engine clamps dense inputs to ±fmax: twice the largest seen.
        let fmax: Vec<i32> = self.fmax.iter().map(|&m| (2 * m).max(1)).collect();
        // The largest shift that keeps every dense sum inside an i32.
        let mut dense_shift = 16;
        let dw = loop {
            let scale = (1u64 << dense_shift) as f64;
            let dw: Vec<i32> = (0..self.dense * 2 * h)
                .map(|i| {
                    let k = i / (2 * h);
                    (self.d[i] as f64 * qa as f64 / self.norm[k] as f64 * scale).round() as i32
                })
                .collect();
            let fits = (0..2 * h).all(|j| {
                (0..self.dense)
                    .map(|k| i64::from(dw[k * 2 * h + j]).abs() * i64::from(fmax[k]))
                    .sum::<i64>()
                    < 1 << 30
            });
            if fits || dense_shift == 0 {
                break dw;
            }
            dense_shift -= 1;
        };
        let skip_shift = 12;
        let skip = (0..self.dense)
            .map(|k| {
                (self.l[k] as f64 / (self.k as f64 * self.norm[k] as f64)
                    * (1u64 << skip_shift) as f64)
                    .round() as i32
            })
            .collect();
        let w2 = self
            .w2
            .iter()
            .map(|w| (*w as f64 / self.k as f64 * QB as f64).round() as i32)
            .collect();
        Net {
            name: self.name.clone(),
            game: self.game,
            feature_set: self.feature_set,
            inputs: self.inputs,
            hidden: h,
            dense: self.dense,
            dense_shift,
            skip_shift,
            fmax: if self.dense > 0 { fmax } else { Vec::new() },
            w1,
            b1,
            dw,
            skip,
            w2,
            b2: (self.b2 as f64 / self.k as f64).round() as i32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Sample {
        Sample {
            mine: vec![0, 3, 3, 5],
            theirs: vec![1, 2, 5],
            dense: vec![4, -7, 1],
            score: 30,
            result: 1.0,
            linear: 20,
        }
    }

    fn model() -> Model {
        let mut m = Model::new(
            "t",
            0,
            0,
            6,
            4,
            3,
            0.01,
            vec![2.0, 3.0, 1.0],
            vec![10, 10, 10],
            Some((&[100, 50, -20], &[1, 1, 1])),
            7,
        );
        // Hidden units half way up their range, so that they pass gradients.
        m.b1.iter_mut().for_each(|b| *b = 0.4);
        m.w2.iter_mut()
            .enumerate()
            .for_each(|(i, w)| *w = 0.3 - 0.1 * i as f32);
        m
    }

    /// The backward pass is the derivative of the output: checked against
    /// finite differences for every weight group.
    #[test]
    fn gradients_match_finite_differences() {
        let m = model();
        let s = sample();
        let mut g = Params::zeros(&m);
        let f = m.forward(&s);
        m.backward(&s, &f, 1.0, &mut g);
        let eps = 1e-3;
        let grads = [
            g.w1.clone(),
            g.b1.clone(),
            g.d.clone(),
            g.l.clone(),
            g.w2.clone(),
        ];
        for (group, grad) in grads.iter().enumerate() {
            for (i, &analytic) in grad.iter().enumerate() {
                let mut up = m.clone();
                up.params_mut()[group][i] += eps;
                let mut down = m.clone();
                down.params_mut()[group][i] -= eps;
                let numeric = (up.forward(&s).out - down.forward(&s).out) / (2.0 * eps);
                assert!(
                    (numeric - analytic).abs() < 2e-2 * (1.0 + numeric.abs()),
                    "group {group} weight {i}: {numeric} vs {analytic}"
                );
            }
        }
    }

    /// The exported integer net gives the float net's value within a
    /// centi-unit or two.
    #[test]
    fn the_export_keeps_the_value() {
        let m = model();
        let s = sample();
        let net = m.export();
        let float = m.forward(&s).out / m.k;
        let int = net.evaluate(&s.mine, &s.theirs, &s.dense) as f32;
        assert!((float - int).abs() <= 2.0, "{float} vs {int}");
        let back = Net::from_bytes(&net.to_bytes()).expect("the bytes read back");
        assert_eq!(back, net);
    }
}
