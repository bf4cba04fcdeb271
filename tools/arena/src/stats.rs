//! Match statistics: score, Elo difference with a 95% interval, likelihood of
//! superiority, pentanomial pair counts and the SPRT.
//!
//! The SPRT is the one fastchess and OpenBench run on game pairs: the
//! generalized SPRT with the log-likelihood ratio approximated from the mean
//! and variance of the pair scores (0, ¼, ½, ¾, 1), bounds given as logistic
//! Elo:  LLR = N · (s1 − s0) · (2·m − s0 − s1) / (2·σ²),
//! with s = 1 / (1 + 10^(−elo/400)), m the mean pair score and σ² its variance.

use serde::{Deserialize, Serialize};

/// The expected score of an Elo difference (logistic).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score; ±infinity at 1 and 0.
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The error function, |error| < 1.2e-7 (Numerical Recipes' erfc by Chebyshev fit).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

/// Likelihood of superiority: the chance the first engine is stronger, from
/// wins and losses (draws carry no information): ½·(1 + erf((W − L)/√(2(W + L)))).
pub fn los(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    let (w, l) = (wins as f64, losses as f64);
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// Game pairs by total score of the first engine over both colours:
/// `[LL, LD, DD or WL, WD, WW]` = pair scores 0, ½, 1, 1½, 2.
pub type Pentanomial = [u64; 5];

/// The pentanomial bucket of a pair, from the first engine's two game scores
/// (each 0, ½ or 1, given in half points 0..=2).
pub fn penta_index(first_half_points: u8, second_half_points: u8) -> usize {
    usize::from(first_half_points.min(2) + second_half_points.min(2))
}

/// Mean and variance of a score distribution over equally spaced outcomes in 0..1.
fn mean_var(counts: &[f64]) -> Option<(f64, f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return None;
    }
    let k = (counts.len() - 1) as f64;
    let mean = counts
        .iter()
        .enumerate()
        .map(|(i, c)| c * i as f64 / k)
        .sum::<f64>()
        / n;
    let var = counts
        .iter()
        .enumerate()
        .map(|(i, c)| c * (i as f64 / k - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((n, mean, var))
}

/// An Elo estimate with its 95% interval half-width.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    pub elo: f64,
    /// Half-width of the 95% interval, in Elo (the larger side, intervals are
    /// not symmetric in Elo).
    pub error: f64,
    /// The 95% interval itself; `hi` is +infinity when the interval reaches a
    /// 100% score, `lo` −infinity when it reaches 0% (JSON: null).
    pub lo: f64,
    pub hi: f64,
}

const Z95: f64 = 1.959_963_984_540_054;

fn estimate(counts: &[f64]) -> Option<EloEstimate> {
    let (n, mean, var) = mean_var(counts)?;
    let se = (var / n).sqrt();
    let elo = score_to_elo(mean);
    let lo = score_to_elo(mean - Z95 * se);
    let hi = score_to_elo(mean + Z95 * se);
    let error = (hi - elo).max(elo - lo);
    Some(EloEstimate { elo, error, lo, hi })
}

/// Elo from wins, draws, losses (games taken as independent).
pub fn elo_trinomial(wins: u64, draws: u64, losses: u64) -> Option<EloEstimate> {
    estimate(&[losses as f64, draws as f64, wins as f64])
}

/// Elo from pentanomial pair counts (the variance of pairs, which accounts for
/// the correlation of the two games of an opening).
pub fn elo_pentanomial(p: &Pentanomial) -> Option<EloEstimate> {
    estimate(&p.map(|c| c as f64))
}

/// SPRT parameters: H0 elo = elo0, H1 elo = elo1, error rates alpha, beta.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// An SPRT decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtResult {
    /// LLR at or above the upper bound: H1 accepted.
    H1,
    /// LLR at or below the lower bound: H0 accepted.
    H0,
    Continue,
}

impl Sprt {
    /// `(lower, upper)` = (ln(β/(1−α)), ln((1−β)/α)).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 from pentanomial pair counts.
    /// Empty buckets are regularized to 1e-3 pairs (as fastchess does) so that
    /// a few pairs of one kind do not give a zero variance.
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        if p.iter().sum::<u64>() == 0 {
            return 0.0;
        }
        let counts = p.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let Some((n, mean, var)) = mean_var(&counts) else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = elo_to_score(self.elo0);
        let s1 = elo_to_score(self.elo1);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    pub fn decide(&self, llr: f64) -> SprtResult {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtResult::H1
        } else if llr <= lower {
            SprtResult::H0
        } else {
            SprtResult::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn elo_of_scores() {
        // −400·log10(1/0.75 − 1) = 400·log10(3) = 190.848…
        assert!(
            close(score_to_elo(0.75), 190.848, 1e-3),
            "{}",
            score_to_elo(0.75)
        );
        assert!(close(score_to_elo(0.5), 0.0, 1e-12));
        assert!(close(score_to_elo(0.25), -190.848, 1e-3));
        assert!(close(elo_to_score(190.848), 0.75, 1e-6));
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn erf_and_los() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(1.0), 0.842_700_79, 2e-7));
        assert!(close(erf(-1.0), -0.842_700_79, 2e-7));
        // W=60, L=40: (60−40)/√(2·100) = √2; ½(1 + erf(√2)) = ½(1 + 0.954500) = 0.977250.
        assert!(close(los(60, 40), 0.977_250, 1e-5), "{}", los(60, 40));
        assert!(close(los(40, 60), 1.0 - 0.977_250, 1e-5));
        assert_eq!(los(0, 0), 0.5);
        assert!(close(los(5, 5), 0.5, 1e-7));
    }

    #[test]
    fn elo_interval_by_hand() {
        // W=60 D=0 L=40: score 0.6, variance 0.6·0.4 = 0.24, se = √(0.24/100) = 0.0489898;
        // Elo(0.6) = 70.437; 95%: scores 0.6 ∓ 1.96·0.04899 = 0.50398 … 0.69602 → Elo
        // 2.77 … 143.91; the larger half-width is 143.91 − 70.44 = 73.47.
        let e = elo_trinomial(60, 0, 40).expect("games");
        assert!(close(e.elo, 70.437, 1e-3), "{e:?}");
        assert!(close(e.error, 73.47, 0.01), "{e:?}");
        assert!(
            close(e.lo, 2.77, 0.01) && close(e.hi, 143.91, 0.01),
            "{e:?}"
        );
        // W=19 L=1: score 0.95, se = √(0.95·0.05/20) = 0.048734; the interval
        // 0.85448 … 1.0455 reaches 100%: lo = Elo(0.85448) = 307.52, hi = +inf.
        let e = elo_trinomial(19, 0, 1).expect("games");
        assert!(close(e.lo, 307.52, 0.01) && e.hi == f64::INFINITY, "{e:?}");
        assert_eq!(elo_trinomial(0, 0, 0), None);
        // Pairs all WL (1 point each) give score ½, Elo 0, and no spread.
        let p = elo_pentanomial(&[0, 0, 10, 0, 0]).expect("pairs");
        assert!(close(p.elo, 0.0, 1e-9) && close(p.error, 0.0, 1e-9));
    }

    #[test]
    fn pentanomial_buckets() {
        assert_eq!(penta_index(0, 0), 0); // LL
        assert_eq!(penta_index(0, 1), 1); // LD
        assert_eq!(penta_index(2, 0), 2); // WL
        assert_eq!(penta_index(1, 1), 2); // DD
        assert_eq!(penta_index(1, 2), 3); // WD
        assert_eq!(penta_index(2, 2), 4); // WW
    }

    #[test]
    fn sprt_by_hand() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = sprt.bounds();
        // ln(0.05/0.95) = −2.944439, ln(0.95/0.05) = +2.944439.
        assert!(close(lo, -2.944_439, 1e-6) && close(hi, 2.944_439, 1e-6));
        // Pairs [LL, LD, DD/WL, WD, WW] = [2, 5, 10, 8, 5], N = 30:
        // mean = (0·2 + ¼·5 + ½·10 + ¾·8 + 1·5)/30 = 17.25/30 = 0.575;
        // var = (2·0.575² + 5·0.325² + 10·0.075² + 8·0.175² + 5·0.425²)/30
        //     = 2.39375/30 = 0.0797917;
        // s0 = 0.5, s1 = 1/(1 + 10^(−10/400)) = 0.5143872;
        // LLR = 30 · 0.0143872 · (1.15 − 1.0143872) / (2 · 0.0797917) = 0.366784.
        let llr = sprt.llr(&[2, 5, 10, 8, 5]);
        assert!(close(llr, 0.366_784, 1e-5), "{llr}");
        assert_eq!(sprt.decide(llr), SprtResult::Continue);
        assert_eq!(sprt.decide(3.0), SprtResult::H1);
        assert_eq!(sprt.decide(-3.0), SprtResult::H0);
        assert_eq!(sprt.llr(&[0; 5]), 0.0);
        // A lopsided match crosses the upper bound: 40 WW pairs, 2 LL.
        assert_eq!(sprt.decide(sprt.llr(&[2, 0, 0, 0, 40])), SprtResult::H1);
        assert_eq!(sprt.decide(sprt.llr(&[40, 0, 0, 0, 2])), SprtResult::H0);
    }
}
