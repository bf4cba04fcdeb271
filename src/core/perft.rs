//! Perft: the number of move sequences of a given length, in the rules' sense of
//! move identity. The standard check that move generation is exact.

use crate::core::{Game, Status};

/// Leaf count at `depth`. Depth 0 is 1; a finished game has no moves.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.status() != Status::Ongoing {
        return 0;
    }
    if depth == 1 {
        return game.count_moves();
    }
    let mut moves = Vec::with_capacity(256);
    game.generate_moves(&mut moves);
    let mut total = 0;
    for &mv in &moves {
        game.make_move(mv);
        total += perft(game, depth - 1);
        game.unmake_move(mv);
    }
    total
}

/// Per-root-move leaf counts at `depth` (≥ 1), in generation order.
pub fn perft_divide<G: Game>(game: &mut G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut moves = Vec::with_capacity(256);
    if depth == 0 || game.status() != Status::Ongoing {
        return Vec::new();
    }
    game.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            game.make_move(mv);
            let n = perft(game, depth - 1);
            game.unmake_move(mv);
            (mv, n)
        })
        .collect()
}
