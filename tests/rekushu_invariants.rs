//! Invariants over random games on many board sizes: the incremental hash equals
//! `compute_hash()` after every make and unmake, `unmake_move` restores the exact
//! `Board`, every listed move round-trips through the notation, and every game
//! reaches an end scored by claimed tiles.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tessera::core::{Game, Notation, Side, Status};
use tessera::games::rekushu::{Board, Move};

/// Claims with probability 0.6, else a uniform move.
fn pick(rng: &mut Xoshiro256PlusPlus, moves: &[Move]) -> Move {
    let claims: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.claim().is_some())
        .collect();
    if !claims.is_empty() && rng.random_bool(0.6) {
        claims[rng.random_range(0..claims.len())]
    } else {
        moves[rng.random_range(0..moves.len())]
    }
}

#[test]
fn make_unmake_hash_and_end() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x7E55E2A);
    let mut positions = 0u64;
    let mut checked_moves = 0u64;
    let mut claims = 0u64;
    let mut decided = 0u64;
    for size in [4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 18, 19, 20, 25, 26] {
        let games = if size <= 9 { 6 } else { 2 };
        for _ in 0..games {
            let mut b = Board::new(size).unwrap();
            let mut history = Vec::new();
            let bound = size * size + 4 * (size - 1) * (size - 1);
            while b.status() == Status::Ongoing {
                assert!(b.ply() <= bound);
                assert_eq!(b.hash(), b.compute_hash());
                let mut moves = Vec::new();
                b.generate_moves(&mut moves);
                assert!(!moves.is_empty());
                let stride = (moves.len() / 40).max(1);
                for &m in moves.iter().step_by(stride) {
                    let before = b.clone();
                    let text = b.format_move(m);
                    assert_eq!(b.parse_move(&text), Ok(m), "{text}");
                    b.make_move(m);
                    assert_eq!(b.hash(), b.compute_hash(), "after {text}");
                    assert_eq!(b.ply(), before.ply() + 1);
                    assert_eq!(b.side_to_move(), before.side_to_move().opp());
                    assert_ne!(b.hash(), before.hash());
                    b.unmake_move(m);
                    assert_eq!(b, before, "unmake {text}");
                    assert_eq!(b.hash(), b.compute_hash());
                    checked_moves += 1;
                }
                let m = pick(&mut rng, &moves);
                claims += m.claim().is_some() as u64;
                history.push((b.clone(), m));
                b.make_move(m);
                positions += 1;
            }
            let [bl, wh] = b.tile_counts();
            let expected = match bl.cmp(&wh) {
                std::cmp::Ordering::Greater => Status::Won(Side::First),
                std::cmp::Ordering::Less => Status::Won(Side::Second),
                std::cmp::Ordering::Equal => Status::Draw,
            };
            assert_eq!(b.status(), expected);
            decided += (expected != Status::Draw) as u64;
            assert_eq!(b.count_moves(), 0);
            // Unwind the whole game: every intermediate board comes back exactly.
            while let Some((before, m)) = history.pop() {
                b.unmake_move(m);
                assert_eq!(b, before);
            }
            assert_eq!(b, Board::new(size).unwrap());
        }
    }
    eprintln!(
        "positions {positions}, moves made/unmade {checked_moves}, claims {claims}, decided {decided}"
    );
    assert!(positions > 5000);
    assert!(claims > 200);
    assert!(decided > 10);
}
