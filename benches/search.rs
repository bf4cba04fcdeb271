//! Times the bench signature on the test game (one thread, fixed depth, fresh
//! tables) and checks its node count is the same on every run.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tessera::search::bench::bench;
use tessera::search::testgame::ConnectFour;

const DEPTH: u32 = 14;
const TT_MB: usize = 4;

fn search(c: &mut Criterion) {
    let positions = ConnectFour::bench_positions();
    let signature = bench(&positions, DEPTH, TT_MB).nodes;
    println!("Bench: {signature}");
    c.bench_function("connect-four depth 14", |b| {
        b.iter(|| {
            let nodes = bench(black_box(&positions), DEPTH, TT_MB).nodes;
            assert_eq!(nodes, signature, "search is not deterministic");
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = search
}
criterion_main!(benches);
