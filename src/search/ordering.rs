//! Move ordering: the TT move first, then noisy moves by the game's hint, then
//! the two killers of the ply, then quiet moves by hint and history.
//!
//! Moves are scored once into a per-ply buffer and picked lazily by partial
//! selection sort, since a cutoff usually comes after the first few moves.

use crate::core::Side;
use crate::search::eval::{EvalParams, Evaluate};
use crate::search::params::{
    HISTORY_MAX, HISTORY_SIZE, MAX_PLY, ORDER_KILLER, ORDER_NOISY, ORDER_TT, SearchParams,
};

/// A generated move with its ordering score.
#[derive(Clone, Copy, Debug)]
pub struct ScoredMove<M> {
    pub mv: M,
    pub score: i32,
    pub noisy: bool,
}

/// The history heuristic: per side, a table indexed by a hash of the packed move
/// (so any game's move type fits one fixed-size table; collisions only blur
/// ordering).
pub struct History {
    table: Vec<i32>,
}

impl Default for History {
    fn default() -> Self {
        History {
            table: vec![0; 2 * HISTORY_SIZE],
        }
    }
}

impl History {
    #[inline]
    fn index(side: Side, code: u32) -> usize {
        let h = (code as u64 ^ 0x5bd1_e995).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        side.index() * HISTORY_SIZE + (h >> 32) as usize % HISTORY_SIZE
    }

    #[inline]
    pub fn get(&self, side: Side, code: u32) -> i32 {
        self.table[Self::index(side, code)]
    }

    /// Gravity update: large values saturate towards ±HISTORY_MAX, so old
    /// successes fade as new ones come in.
    pub fn update(&mut self, side: Side, code: u32, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let h = &mut self.table[Self::index(side, code)];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    pub fn clear(&mut self) {
        self.table.fill(0);
    }
}

/// Two killer moves per ply: quiet moves that caused a cutoff at this ply.
pub struct Killers<M> {
    slots: Vec<[Option<M>; 2]>,
}

impl<M: Copy + Eq> Default for Killers<M> {
    fn default() -> Self {
        Killers {
            slots: vec![[None; 2]; MAX_PLY + 1],
        }
    }
}

impl<M: Copy + Eq> Killers<M> {
    pub fn get(&self, ply: usize) -> [Option<M>; 2] {
        self.slots.get(ply).copied().unwrap_or([None; 2])
    }

    pub fn add(&mut self, ply: usize, mv: M) {
        if let Some(slot) = self.slots.get_mut(ply)
            && slot[0] != Some(mv)
        {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill([None; 2]);
    }
}

/// Scores every move of `list` (already holding the generated moves).
pub fn score_moves<G: Evaluate>(
    pos: &G,
    list: &mut [ScoredMove<G::Move>],
    tt_move: Option<u32>,
    killers: [Option<G::Move>; 2],
    history: &History,
    params: &SearchParams,
    eval: &EvalParams,
) {
    let side = pos.side_to_move();
    for sm in list.iter_mut() {
        let code = pos.move_to_u32(sm.mv);
        let hint = pos.move_hint_with(sm.mv, eval).clamp(-1_000_000, 1_000_000);
        sm.noisy = pos.is_noisy(sm.mv);
        sm.score = if tt_move == Some(code) {
            ORDER_TT
        } else if sm.noisy {
            ORDER_NOISY + hint
        } else if killers[0] == Some(sm.mv) {
            ORDER_KILLER
        } else if killers[1] == Some(sm.mv) {
            ORDER_KILLER - 1
        } else {
            (hint.saturating_mul(params.hint_weight) + history.get(side, code))
                .clamp(-ORDER_KILLER + 1, ORDER_KILLER - 2)
        };
    }
}

/// Moves the best-scored move of `list[i..]` to `list[i]` and returns it.
/// Ties keep generation order, which keeps the search deterministic.
#[inline]
pub fn pick<M: Copy>(list: &mut [ScoredMove<M>], i: usize) -> ScoredMove<M> {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j].score > list[best].score {
            best = j;
        }
    }
    list.swap(i, best);
    list[i]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testgame::{ConnectFour, Drop};

    fn order(
        pos: &ConnectFour,
        tt: Option<u32>,
        killers: [Option<Drop>; 2],
        h: &History,
    ) -> Vec<u8> {
        let mut moves = Vec::new();
        crate::core::Game::generate_moves(pos, &mut moves);
        let mut list: Vec<_> = moves
            .into_iter()
            .map(|mv| ScoredMove {
                mv,
                score: 0,
                noisy: false,
            })
            .collect();
        score_moves(
            pos,
            &mut list,
            tt,
            killers,
            h,
            &SearchParams::DEFAULT,
            &EvalParams::default(),
        );
        (0..list.len()).map(|i| pick(&mut list, i).mv.0).collect()
    }

    #[test]
    fn tt_then_noisy_then_killers_then_history() {
        // First has three in column a, Second to move: a is a noisy block.
        let pos = ConnectFour::from_moves("a b a b a").expect("legal");
        let mut h = History::default();
        for _ in 0..20 {
            h.update(Side::Second, 5, 2000);
        }
        let got = order(&pos, Some(4), [Some(Drop(1)), Some(Drop(0))], &h);
        assert_eq!(got[0], 4, "TT move first");
        assert_eq!(got[1], 0, "noisy block before killers");
        assert_eq!(got[2], 1, "first killer");
        assert_eq!(got[3], 5, "history beats the centre hint");
        // A TT code matching no legal move changes nothing but the order of the rest.
        let got = order(&pos, Some(99), [None, None], &History::default());
        assert_eq!(got.len(), 6);
        assert_eq!(got[0], 0);
    }

    #[test]
    fn history_saturates() {
        let mut h = History::default();
        for _ in 0..1000 {
            h.update(Side::First, 3, HISTORY_MAX);
        }
        assert!(h.get(Side::First, 3) <= HISTORY_MAX);
        assert!(h.get(Side::First, 3) > HISTORY_MAX / 2);
        assert_eq!(h.get(Side::Second, 3), 0);
    }

    #[test]
    fn killers_shift() {
        let mut k = Killers::default();
        k.add(3, Drop(1));
        k.add(3, Drop(1));
        k.add(3, Drop(2));
        assert_eq!(k.get(3), [Some(Drop(2)), Some(Drop(1))]);
        assert_eq!(k.get(MAX_PLY + 50), [None, None]);
    }
}
