//! What a side could capture on its turn, as square sets: the first-capture
//! targets and every square a chain could step on from them (rules.md §2.3–2.4).
//!
//! The Star limit is ignored, so the sets are supersets of what is legal (the
//! limit only removes squares). Computed with shifts and floods, no move list:
//! the evaluation runs it at every leaf and the search's move selection once
//! per node.

use super::position::Position;
use super::square::{ALL, SquareSet, orth, reach};
use super::tile::{NUM_PLAYER_SYMBOLS, NUM_SYMBOLS, STAR};
use crate::core::Side;

/// The squares one side could take this turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CaptureMap {
    /// Every square a first capture or a chain step could take.
    pub all: SquareSet,
    /// The most squares one turn could take, estimated as the largest
    /// reachable same-symbol region (an upper bound on one chain).
    pub best: u32,
}

/// `seeds` grown orthogonally inside `region` until it stops growing.
#[inline]
pub fn flood(seeds: SquareSet, region: SquareSet) -> SquareSet {
    let mut f = seeds & region;
    loop {
        let next = f | (orth(f) & region);
        if next == f {
            return f;
        }
        f = next;
    }
}

impl Position {
    /// What `side` could capture with the given attackers (its squares that may
    /// attack), on the squares of `eligible` (those it may take).
    pub fn capture_map_with(&self, attackers: SquareSet, eligible: SquareSet) -> CaptureMap {
        // Squares reached by attackers of each player symbol, and suffix ORs so
        // that "reached by an attacker of a symbol other than t" is O(1).
        let mut reached = [0 as SquareSet; NUM_PLAYER_SYMBOLS];
        for (s, r) in reached.iter_mut().enumerate() {
            let a = attackers & self.sym[s];
            if a != 0 {
                *r = reach(a, s == STAR as usize);
            }
        }
        let mut suffix = [0 as SquareSet; NUM_PLAYER_SYMBOLS + 1];
        for s in (0..NUM_PLAYER_SYMBOLS).rev() {
            suffix[s] = suffix[s + 1] | reached[s];
        }
        let mut map = CaptureMap::default();
        let mut prefix: SquareSet = 0;
        for t in 0..NUM_SYMBOLS {
            let others = if t < NUM_PLAYER_SYMBOLS {
                let o = prefix | suffix[t + 1];
                prefix |= reached[t];
                o
            } else {
                suffix[0]
            };
            let region = eligible & self.sym[t];
            let first = region & others;
            if first == 0 {
                continue;
            }
            let f = flood(first, region);
            map.all |= f;
            map.best = map.best.max(f.count_ones());
        }
        map
    }

    /// What `side` could capture if it were its turn with `protected` squares
    /// guarded: attackers are its unlocked squares.
    pub fn capture_map(&self, side: Side, protected: SquareSet) -> CaptureMap {
        let mine = self.own[side.index()];
        let eligible = ALL & !mine & !self.locked & !protected;
        self.capture_map_with(mine & !self.locked, eligible)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::rebus::MoveKind;

    /// Every square of every legal capture lies in the map.
    #[test]
    fn map_covers_every_capture() {
        for seed in 0..40u64 {
            let mut p = Position::random(seed);
            let mut moves = Vec::new();
            for ply in 0..40 {
                if p.status() != crate::core::Status::Ongoing {
                    break;
                }
                let map = p.capture_map(p.side_to_move(), p.protected());
                moves.clear();
                p.generate_capture_sets(&mut moves);
                let mut union = 0;
                for &m in &moves {
                    assert_eq!(m.squares() & !map.all, 0, "seed {seed} ply {ply}");
                    assert!(m.squares().count_ones() <= map.best);
                    union |= m.squares();
                }
                // Only the Star limit may remove squares.
                if p.active_stars(p.side_to_move()) + map.best <= 5 {
                    assert_eq!(union, map.all, "seed {seed} ply {ply}");
                }
                moves.clear();
                p.generate_moves(&mut moves);
                let mv = moves[(seed as usize * 7 + ply * 13) % moves.len()];
                if let MoveKind::Yield = mv.kind() {
                    break;
                }
                p.make_move(mv);
            }
        }
    }
}
