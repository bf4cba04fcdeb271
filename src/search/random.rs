//! The `random` reference level: a uniformly random legal move.
//!
//! A baseline opponent for the arena and for people: no search, no game
//! knowledge. The choice depends only on the seed and the position (its hash
//! and ply), so one seed replays the same game.

use crate::core::{Game, SplitMix64};

/// Mixes the user's seed with the position, so every position of a game gets
/// its own draw while the whole game stays reproducible.
pub fn position_seed<G: Game>(pos: &G, seed: u64) -> u64 {
    let mut mix = SplitMix64::new(seed ^ pos.hash().rotate_left(17) ^ (pos.ply() as u64));
    mix.next()
}

/// Questions a long move list may ask before it is cut (a REBUS list asks once
/// per 1,024 chain states: a list from an ordinary position asks none, one
/// from a large same-symbol cluster is cut after about 16,000 states, which
/// can still be hundreds of thousands of moves with their nominations).
const LIST_QUESTIONS: u32 = 16;

/// `keep_going`, and no more than [`LIST_QUESTIONS`] times: for the reference
/// levels' move lists, whose every move is stored (and, for a playout, made
/// again at each ply), so a list cut only by the clock could overrun it while
/// the moves already found are stored.
pub(crate) fn bounded<'a>(keep_going: &'a mut dyn FnMut() -> bool) -> impl FnMut() -> bool + 'a {
    let mut asked = 0;
    move || {
        asked += 1;
        asked <= LIST_QUESTIONS && keep_going()
    }
}

/// A legal move chosen uniformly at random, or `None` when there is none.
pub fn random_move<G: Game>(pos: &G, seed: u64) -> Option<G::Move> {
    random_move_until(pos, seed, &mut || true)
}

/// [`random_move`] on the clock: the move list is made with
/// [`Game::generate_moves_until`], so when `keep_going` says stop, or the list
/// is long (a REBUS cluster with millions of moves), the draw is among the
/// moves listed by then.
pub fn random_move_until<G: Game>(
    pos: &G,
    seed: u64,
    keep_going: &mut dyn FnMut() -> bool,
) -> Option<G::Move> {
    let mut moves = Vec::new();
    pos.generate_moves_until(&mut moves, &mut bounded(keep_going));
    if moves.is_empty() {
        return None;
    }
    let mut rng = SplitMix64::new(position_seed(pos, seed));
    Some(moves[rng.below(moves.len() as u64) as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testgame::*;

    #[test]
    fn random_moves_are_legal_and_vary_with_the_seed() {
        let pos = ConnectFour::new();
        let mut legal = Vec::new();
        pos.generate_moves(&mut legal);
        let mut seen = std::collections::HashSet::new();
        for seed in 0..64 {
            let mv = random_move(&pos, seed).expect("the empty board has moves");
            assert!(legal.contains(&mv));
            seen.insert(mv);
            assert_eq!(random_move(&pos, seed), Some(mv), "deterministic");
        }
        assert!(seen.len() > 3, "{seen:?}");
    }
}
