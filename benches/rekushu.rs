//! Rekushu rules speed: move generation and counting on a crowded 20×20
//! mid-game position, and perft on the empty 20×20 board. Each benchmark checks
//! the count it times.
//!
//! `cargo bench --bench rekushu -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tessera::core::Game;
use tessera::core::perft::perft;
use tessera::games::rekushu::Board;

/// A 20×20 position from a fixed-seed random game that claims with probability
/// 0.8 when it can: the first position from ply 150 on where at least
/// `min_claims` claim moves are listed.
fn crowded(min_claims: usize) -> Board {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
    let mut b = Board::new(20).expect("valid size");
    let mut moves = Vec::new();
    loop {
        moves.clear();
        b.generate_moves(&mut moves);
        assert!(!moves.is_empty());
        let claims: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| m.claim().is_some())
            .collect();
        if b.ply() >= 150 && claims.len() >= min_claims {
            break;
        }
        let m = if !claims.is_empty() && rng.random_bool(0.8) {
            claims[rng.random_range(0..claims.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        b.make_move(m);
    }
    b
}

fn bench_position(c: &mut Criterion, label: &str, b: &Board) {
    let mut moves = Vec::with_capacity(4096);
    b.generate_moves(&mut moves);
    let n = moves.len();
    let claims = moves.iter().filter(|m| m.claim().is_some()).count();
    eprintln!(
        "{label}: ply {}, {n} moves ({claims} with a claim), tiles {:?}\n{}",
        b.ply(),
        b.tile_counts(),
        b.showboard()
    );
    assert_eq!(b.count_moves(), n as u64);
    c.bench_function(&format!("rekushu generate_moves {label}"), |bch| {
        bch.iter(|| {
            moves.clear();
            black_box(b).generate_moves(&mut moves);
            assert_eq!(moves.len(), n);
        })
    });
    c.bench_function(&format!("rekushu count_moves {label}"), |bch| {
        bch.iter(|| assert_eq!(black_box(b).count_moves(), n as u64))
    });
    let mut w = b.clone();
    let expected = perft(&mut w, 2);
    c.bench_function(&format!("rekushu perft(2) {label}"), |bch| {
        bch.iter(|| assert_eq!(perft(black_box(&mut w), 2), expected))
    });
}

fn bench(c: &mut Criterion) {
    bench_position(c, "mid-game 20x20", &crowded(0));
    bench_position(c, "claims 20x20", &crowded(50));

    let mut empty = Board::new(20).expect("valid size");
    c.bench_function("rekushu perft(2) empty 20x20", |bch| {
        bch.iter(|| assert_eq!(perft(black_box(&mut empty), 2), 400 * 399))
    });
    let mut g = c.benchmark_group("slow");
    g.sample_size(10);
    g.bench_function("rekushu perft(3) empty 20x20", |bch| {
        bch.iter(|| assert_eq!(perft(black_box(&mut empty), 3), 400 * 399 * 398))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
