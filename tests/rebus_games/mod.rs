//! Fixed-seed random games biased towards chains, locks, Star captures and
//! recaptures, shared by the REBUS tests.

#![allow(dead_code)]

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tessera::core::{Game, Status};
use tessera::games::rebus::{Move, MoveKind, Position};

pub type Rng = Xoshiro256PlusPlus;

pub fn rng(seed: u64) -> Rng {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

fn is_recapture(p: &Position, squares: u128) -> bool {
    (0..81u8).any(|q| squares >> q & 1 == 1 && p.buried(q).is_some())
}

/// Picks a move: first a kind (chain, lock, Star, recapture, any), then a move of
/// it, then maybe a nomination.
pub fn pick(p: &Position, moves: &[Move], rng: &mut Rng) -> Move {
    let base: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| {
            !matches!(
                m.kind(),
                MoveKind::Capture {
                    nominee: Some(_),
                    ..
                }
            )
        })
        .collect();
    let kind = rng.random_range(0..100u32);
    let filtered: Vec<Move> = base
        .iter()
        .copied()
        .filter(|m| match (kind, m.kind()) {
            (0..30, MoveKind::Capture { squares, .. }) => squares.count_ones() >= 2,
            (30..45, MoveKind::Lock { .. }) => true,
            (45..60, MoveKind::Capture { symbol, .. }) => symbol == 0,
            (60..75, MoveKind::Capture { squares, .. }) => is_recapture(p, squares),
            (75.., _) => true,
            _ => false,
        })
        .collect();
    let from = if filtered.is_empty() {
        &base
    } else {
        &filtered
    };
    let mv = from[rng.random_range(0..from.len())];
    if let MoveKind::Capture { .. } = mv.kind()
        && rng.random_bool(0.5)
    {
        let noms: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| *m != mv && m.without_nominee() == mv)
            .collect();
        if !noms.is_empty() {
            return noms[rng.random_range(0..noms.len())];
        }
    }
    mv
}

/// Plays a biased random game from `start` for up to `max_plies`, calling
/// `visit` on every position before its move (and on the final one).
pub fn play(
    start: &Position,
    seed: u64,
    max_plies: usize,
    mut visit: impl FnMut(&mut Position, Option<Move>),
) {
    let mut rng = rng(seed);
    let mut p = start.clone();
    let mut moves = Vec::new();
    for _ in 0..max_plies {
        if p.status() != Status::Ongoing {
            break;
        }
        moves.clear();
        p.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = pick(&p, &moves, &mut rng);
        visit(&mut p, Some(mv));
        p.make_move(mv);
    }
    visit(&mut p, None);
}

/// Position strings from biased random games: `games` games from the standard
/// setup and from random deals.
pub fn sample_positions(seed: u64, games: usize, max_plies: usize) -> Vec<String> {
    let mut out = Vec::new();
    for g in 0..games {
        let start = if g % 4 == 0 {
            Position::standard()
        } else {
            Position::random(seed ^ g as u64)
        };
        play(
            &start,
            seed.wrapping_mul(1000) + g as u64,
            max_plies,
            |p, _| out.push(p.position_string()),
        );
    }
    out
}
