//! A small integer network for a game's learned evaluation, NNUE-style: the
//! game chooses sparse binary inputs (active feature indices, seen from each
//! side in turn), and this module holds the net and its arithmetic.
//!
//! ```text
//! acc[view] = b1 + Σ W1[i]                 over the features active for view
//! h         = [acc[mover] ; acc[other]] + (D · f) >> dense_shift
//! value     = b2 + (Σ skip[k] · f[k]) >> skip_shift
//!                + Σ w2[j] · clamp(h[j], 0, QA) / (QA · QB)     (centi-units)
//! ```
//!
//! `f` are optional dense inputs, the game's linear features for the side to
//! move (`LinearEval`), each clamped to `±fmax[k]` so that no sum overflows;
//! a net without them (`dense = 0`) sees only the sparse inputs. The first
//! layer's sums are the **accumulators**: a game keeps one per point of view
//! and updates it by adding and subtracting the rows of the features that
//! changed ([`Net::add`], [`Net::sub`]), which is what makes the net cheap
//! enough for a search. Everything is integer: `W1` is `i16` in units of
//! `1/QA` of one hidden activation, accumulators and the other weights `i32`,
//! the output sum `i64`.
//!
//! The file (little-endian), written by `tools/training` and embedded by each
//! game with `include_bytes!`:
//!
//! ```text
//! "TSNNUE01"  game u32 (0 Rekushu, 1 REBUS)  feature_set u32
//! inputs u32  hidden u32  dense u32  dense_shift u32  skip_shift u32
//! name_len u32  name (UTF-8)
//! fmax i32[dense]  W1 i16[inputs·hidden] (one row per input)  b1 i32[hidden]
//! D i32[dense·2·hidden] (one row per dense input)  skip i32[dense]
//! w2 i32[2·hidden]  b2 i32
//! ```

/// One unit of hidden activation in the first layer's integers.
pub const QA: i32 = 1024;
/// Output weights are centi-units times `QB` per unit of activation.
pub const QB: i64 = 64;
/// The largest hidden layer (per point of view) an accumulator holds.
pub const MAX_HIDDEN: usize = 256;
/// The first bytes of a net file.
pub const MAGIC: &[u8; 8] = b"TSNNUE01";

/// The first layer's sums for one point of view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    pub v: [i32; MAX_HIDDEN],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { v: [0; MAX_HIDDEN] }
    }
}

/// A net read from its file (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Net {
    pub name: String,
    pub game: u32,
    pub feature_set: u32,
    pub inputs: usize,
    pub hidden: usize,
    pub dense: usize,
    pub dense_shift: u32,
    pub skip_shift: u32,
    pub fmax: Vec<i32>,
    pub w1: Vec<i16>,
    pub b1: Vec<i32>,
    pub dw: Vec<i32>,
    pub skip: Vec<i32>,
    pub w2: Vec<i32>,
    pub b2: i32,
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("net file cut short at byte {}", self.at))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i32s(&mut self, n: usize) -> Result<Vec<i32>, String> {
        let b = self.take(n.checked_mul(4).ok_or("net file: size overflow")?)?;
        Ok(b.chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, String> {
        let b = self.take(n.checked_mul(2).ok_or("net file: size overflow")?)?;
        Ok(b.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

impl Net {
    /// Reads a net file, checking its layout (not its game: see
    /// [`Net::check`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8)? != MAGIC {
            return Err("not a net file (no TSNNUE01 header)".into());
        }
        let game = r.u32()?;
        let feature_set = r.u32()?;
        let inputs = r.u32()? as usize;
        let hidden = r.u32()? as usize;
        let dense = r.u32()? as usize;
        let dense_shift = r.u32()?;
        let skip_shift = r.u32()?;
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(format!("hidden size {hidden} is not 1 to {MAX_HIDDEN}"));
        }
        if inputs == 0 || inputs > 1 << 16 || dense > 64 || dense_shift > 30 || skip_shift > 30 {
            return Err("net file: sizes out of range".into());
        }
        let name_len = r.u32()? as usize;
        let name = String::from_utf8(r.take(name_len)?.to_vec())
            .map_err(|_| "net file: the name is not UTF-8".to_string())?;
        let fmax = r.i32s(dense)?;
        let w1 = r.i16s(inputs * hidden)?;
        let b1 = r.i32s(hidden)?;
        let dw = r.i32s(dense * 2 * hidden)?;
        let skip = r.i32s(dense)?;
        let w2 = r.i32s(2 * hidden)?;
        let b2 = r.i32s(1)?[0];
        if r.at != bytes.len() {
            return Err(format!(
                "net file: {} bytes after the end",
                bytes.len() - r.at
            ));
        }
        // No dense sum may overflow an i32: |D| · fmax summed over the inputs.
        for j in 0..2 * hidden {
            let worst: i64 = (0..dense)
                .map(|k| i64::from(dw[k * 2 * hidden + j]).abs() * i64::from(fmax[k]).abs())
                .sum();
            if worst >= 1 << 31 {
                return Err(format!(
                    "net file: dense sum of hidden unit {j} can overflow"
                ));
            }
        }
        Ok(Net {
            name,
            game,
            feature_set,
            inputs,
            hidden,
            dense,
            dense_shift,
            skip_shift,
            fmax,
            w1,
            b1,
            dw,
            skip,
            w2,
            b2,
        })
    }

    /// Whether this net fits a game's feature set: its game, feature set,
    /// number of inputs, and dense inputs (none, or exactly `dense`).
    pub fn check(
        &self,
        game: u32,
        feature_set: u32,
        inputs: usize,
        dense: usize,
    ) -> Result<(), String> {
        if self.game != game || self.feature_set != feature_set || self.inputs != inputs {
            return Err(format!(
                "net '{}' is for game {} feature set {} with {} inputs, not game {game} set {feature_set} with {inputs}",
                self.name, self.game, self.feature_set, self.inputs
            ));
        }
        if self.dense != 0 && self.dense != dense {
            return Err(format!(
                "net '{}' has {} dense inputs, the game {dense}",
                self.name, self.dense
            ));
        }
        Ok(())
    }

    /// A net embedded in the binary, if it reads and fits the game (a game's
    /// test makes sure it does; without it the evaluation stays linear).
    pub fn embedded(
        bytes: &[u8],
        game: u32,
        feature_set: u32,
        inputs: usize,
        dense: usize,
    ) -> Option<Net> {
        Net::from_bytes(bytes)
            .and_then(|n| n.check(game, feature_set, inputs, dense).map(|()| n))
            .ok()
    }

    /// The file's bytes (the inverse of [`Net::from_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        for v in [
            self.game,
            self.feature_set,
            self.inputs as u32,
            self.hidden as u32,
            self.dense as u32,
            self.dense_shift,
            self.skip_shift,
            self.name.len() as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(self.name.as_bytes());
        let i32s = |out: &mut Vec<u8>, v: &[i32]| {
            for x in v {
                out.extend_from_slice(&x.to_le_bytes());
            }
        };
        i32s(&mut out, &self.fmax);
        for x in &self.w1 {
            out.extend_from_slice(&x.to_le_bytes());
        }
        i32s(&mut out, &self.b1);
        i32s(&mut out, &self.dw);
        i32s(&mut out, &self.skip);
        i32s(&mut out, &self.w2);
        i32s(&mut out, &[self.b2]);
        out
    }

    /// Sets `acc` to the biases plus the rows of `features` (an index may
    /// repeat: its row is added as often).
    pub fn refresh(&self, acc: &mut Accumulator, features: impl IntoIterator<Item = u16>) {
        let h = self.hidden;
        acc.v[..h].copy_from_slice(&self.b1);
        for i in features {
            self.add(acc, i);
        }
    }

    /// Adds the row of feature `i`.
    #[inline]
    pub fn add(&self, acc: &mut Accumulator, i: u16) {
        let h = self.hidden;
        let row = &self.w1[i as usize * h..][..h];
        for (a, &w) in acc.v[..h].iter_mut().zip(row) {
            *a += i32::from(w);
        }
    }

    /// Subtracts the row of feature `i`.
    #[inline]
    pub fn sub(&self, acc: &mut Accumulator, i: u16) {
        let h = self.hidden;
        let row = &self.w1[i as usize * h..][..h];
        for (a, &w) in acc.v[..h].iter_mut().zip(row) {
            *a -= i32::from(w);
        }
    }

    /// The value in centi-units for the side to move, from its accumulator,
    /// the other side's, and the dense inputs (ignored when the net has none;
    /// else at least [`Net::dense`] of them).
    pub fn output(&self, mover: &Accumulator, other: &Accumulator, dense: &[i32]) -> i32 {
        let h = self.hidden;
        let mut pre = [0i32; 2 * MAX_HIDDEN];
        let pre = &mut pre[..2 * h];
        pre[..h].copy_from_slice(&mover.v[..h]);
        pre[h..].copy_from_slice(&other.v[..h]);
        let mut skip: i64 = 0;
        if self.dense > 0 {
            let mut sum = [0i32; 2 * MAX_HIDDEN];
            let sum = &mut sum[..2 * h];
            for (k, (&d, &fmax)) in dense.iter().zip(&self.fmax).take(self.dense).enumerate() {
                let f = d.clamp(-fmax, fmax);
                skip += i64::from(self.skip[k]) * i64::from(f);
                if f == 0 {
                    continue;
                }
                let row = &self.dw[k * 2 * h..][..2 * h];
                for (s, &w) in sum.iter_mut().zip(row) {
                    *s += w * f;
                }
            }
            for (p, &s) in pre.iter_mut().zip(sum.iter()) {
                *p += s >> self.dense_shift;
            }
        }
        let mut out: i64 = 0;
        for (&p, &w) in pre.iter().zip(&self.w2) {
            out += i64::from(p.clamp(0, QA)) * i64::from(w);
        }
        let value =
            out.div_euclid(i64::from(QA) * QB) + (skip >> self.skip_shift) + i64::from(self.b2);
        value.clamp(i64::from(i32::MIN / 2), i64::from(i32::MAX / 2)) as i32
    }

    /// The value from scratch: both views' active features and the dense
    /// inputs (what a trainer checks its export with, and tests compare the
    /// incremental accumulators against).
    pub fn evaluate(&self, mover: &[u16], other: &[u16], dense: &[i32]) -> i32 {
        let mut a = Accumulator::default();
        let mut b = Accumulator::default();
        self.refresh(&mut a, mover.iter().copied());
        self.refresh(&mut b, other.iter().copied());
        self.output(&a, &b, dense)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::SplitMix64;

    fn random_net(seed: u64, inputs: usize, hidden: usize, dense: usize) -> Net {
        let mut rng = SplitMix64::new(seed);
        let mut r = |m: u64| rng.below(2 * m + 1) as i64 - m as i64;
        Net {
            name: "test".into(),
            game: 7,
            feature_set: 3,
            inputs,
            hidden,
            dense,
            dense_shift: 8,
            skip_shift: 12,
            fmax: (0..dense).map(|_| 1000).collect(),
            w1: (0..inputs * hidden).map(|_| r(300) as i16).collect(),
            b1: (0..hidden).map(|_| r(600) as i32).collect(),
            dw: (0..dense * 2 * hidden).map(|_| r(4000) as i32).collect(),
            skip: (0..dense).map(|_| r(400_000) as i32).collect(),
            w2: (0..2 * hidden).map(|_| r(5000) as i32).collect(),
            b2: r(50) as i32,
        }
    }

    #[test]
    fn a_net_round_trips_through_its_bytes() {
        let net = random_net(1, 40, 16, 5);
        let bytes = net.to_bytes();
        assert_eq!(Net::from_bytes(&bytes), Ok(net.clone()));
        assert!(Net::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Net::from_bytes(&longer).is_err());
        assert!(Net::from_bytes(b"TSNNUE00").is_err());
        assert!(net.check(7, 3, 40, 5).is_ok());
        assert!(net.check(7, 3, 41, 5).is_err());
        assert!(net.check(6, 3, 40, 5).is_err());
    }

    /// Adding and subtracting rows gives the accumulator made from scratch.
    #[test]
    fn updates_equal_a_refresh() {
        let net = random_net(2, 50, 24, 3);
        let mut rng = SplitMix64::new(9);
        let mut active: Vec<u16> = Vec::new();
        let mut acc = Accumulator::default();
        net.refresh(&mut acc, []);
        for _ in 0..500 {
            if !active.is_empty() && rng.below(3) == 0 {
                let i = active.swap_remove(rng.below(active.len() as u64) as usize);
                net.sub(&mut acc, i);
            } else {
                let i = rng.below(50) as u16;
                active.push(i);
                net.add(&mut acc, i);
            }
            let mut fresh = Accumulator::default();
            net.refresh(&mut fresh, active.iter().copied());
            assert_eq!(acc, fresh);
        }
        let v = net.output(&acc, &acc, &[5, -3, 2000]);
        assert_eq!(v, net.evaluate(&active, &active, &[5, -3, 2000]));
    }
}
