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

/// A 20×20 position after 150 plies of a fixed-seed random game that claims
/// whenever it can with probability 0.8.
fn crowded() -> Board {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
    let mut b = Board::new(20).expect("valid size");
    let mut moves = Vec::new();
    while b.ply() < 150 {
        moves.clear();
        b.generate_moves(&mut moves);
        assert!(!moves.is_empty());
        let claims: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| m.claim().is_some())
            .collect();
        let m = if !claims.is_empty() && rng.random_bool(0.8) {
            claims[rng.random_range(0..claims.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        b.make_move(m);
    }
    b
}

fn bench(c: &mut Criterion) {
    let b = crowded();
    let mut moves = Vec::with_capacity(4096);
    b.generate_moves(&mut moves);
    let n = moves.len();
    let claims = moves.iter().filter(|m| m.claim().is_some()).count();
    eprintln!(
        "crowded 20x20: {n} moves ({claims} with a claim), tiles {:?}\n{}",
        b.tile_counts(),
        b.showboard()
    );
    assert_eq!(b.count_moves(), n as u64);

    c.bench_function("rekushu generate_moves crowded 20x20", |bch| {
        bch.iter(|| {
            moves.clear();
            black_box(&b).generate_moves(&mut moves);
            assert_eq!(moves.len(), n);
        })
    });
    c.bench_function("rekushu count_moves crowded 20x20", |bch| {
        bch.iter(|| assert_eq!(black_box(&b).count_moves(), n as u64))
    });
    c.bench_function("rekushu perft(2) crowded 20x20", |bch| {
        let mut w = b.clone();
        let expected = perft(&mut w, 2);
        bch.iter(|| assert_eq!(perft(black_box(&mut w), 2), expected))
    });

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
