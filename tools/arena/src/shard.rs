//! Shards: `--shard i/N` plays the i-th of N disjoint ranges of rounds
//! (openings). A round is one opening played by every pairing, each game pair
//! with colours swapped, so a pair is never split across shards, and game `k`
//! of a shard is game `k` of the unsharded match: same opening, same colours,
//! same record name.

use std::fmt;
use std::ops::Range;

use serde::{Deserialize, Serialize};

/// The i-th (0-based) of `count` shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole match.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// `i/N`, 1 ≤ i ≤ N (as job arrays number tasks from 1: `$SLURM_ARRAY_TASK_ID`).
    /// `i/N` with i = 0 is refused: Kubernetes' `JOB_COMPLETION_INDEX` counts from
    /// 0, and the deploy files add 1.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = |why: &str| format!("--shard '{text}': {why}");
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| bad("expected I/N, e.g. 3/10"))?;
        let i: u64 = i.trim().parse().map_err(|_| bad("I is not a number"))?;
        let n: u64 = n.trim().parse().map_err(|_| bad("N is not a number"))?;
        if n == 0 || i == 0 || i > n {
            return Err(bad("I must be 1 to N (shards are numbered from 1)"));
        }
        Ok(Shard {
            index: i - 1,
            count: n,
        })
    }

    pub fn is_all(self) -> bool {
        self.count <= 1
    }

    /// The rounds of this shard out of `rounds` (contiguous; sizes differ by
    /// at most one).
    pub fn rounds(self, rounds: u64) -> Range<u64> {
        let n = u128::from(self.count.max(1));
        let r = u128::from(rounds);
        let lo = r * u128::from(self.index) / n;
        let hi = r * (u128::from(self.index) + 1) / n;
        (lo as u64)..(hi as u64)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_the_rounds_once() {
        for n in 1..12 {
            let mut next = 0;
            for i in 1..=n {
                let s = Shard::parse(&format!("{i}/{n}")).expect("valid");
                let r = s.rounds(37);
                assert_eq!(r.start, next);
                next = r.end;
            }
            assert_eq!(next, 37);
        }
        assert_eq!(Shard::parse("2/5").expect("ok").to_string(), "2/5");
        for bad in ["0/3", "4/3", "x/3", "3", "1/0"] {
            let e = Shard::parse(bad).expect_err(bad);
            assert!(e.contains(&format!("'{bad}'")), "{e}");
        }
    }
}
