//! Property tests: `parse_move` never panics on any text, and whatever it accepts
//! is a listed legal move whose canonical text parses back to it.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tessera::core::{Game, Notation};
use tessera::games::rekushu::Board;

/// A 9×9 mid-game position (ply 30 or later) where a claim is available, from a
/// fixed-seed random game that has already made claims.
fn midgame() -> Board {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(99);
    let mut b = Board::new(9).unwrap();
    let mut moves = Vec::new();
    for _ in 0..200 {
        moves.clear();
        b.generate_moves(&mut moves);
        let claims: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| m.claim().is_some())
            .collect();
        if moves.is_empty() || (b.ply() >= 30 && !claims.is_empty()) {
            break;
        }
        let m = if !claims.is_empty() && rng.random_bool(0.7) {
            claims[rng.random_range(0..claims.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        b.make_move(m);
    }
    b
}

fn check(b: &Board, text: &str) {
    if let Ok(m) = b.parse_move(text) {
        let mut moves = Vec::new();
        b.generate_moves(&mut moves);
        assert!(moves.contains(&m), "{text} accepted but not listed");
        assert_eq!(b.parse_move(&b.format_move(m)), Ok(m));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(s in any::<String>()) {
        check(&midgame(), &s);
    }

    #[test]
    fn move_like_text(s in "[ \t]?[a-kA-Kz0][0-9]{0,3}(:[a-kA-K][0-9]{1,2}[-–][a-kA-K][0-9]{1,3})?[ -]?") {
        check(&midgame(), &s);
    }
}

#[test]
fn every_listed_move_and_some_near_misses() {
    let b = midgame();
    let mut moves = Vec::new();
    b.generate_moves(&mut moves);
    assert!(
        moves.iter().any(|m| m.claim().is_some()),
        "{}",
        b.showboard()
    );
    assert!(b.tile_counts().iter().sum::<u32>() > 0, "{}", b.showboard());
    for &m in &moves {
        let t = b.format_move(m);
        assert_eq!(b.parse_move(&t.to_lowercase()), Ok(m));
        check(&b, &format!("{t}0"));
        check(&b, &format!("{t}:"));
        check(&b, &t.replace(':', "::"));
    }
}
