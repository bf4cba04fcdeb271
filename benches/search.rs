//! Times a fixed-depth, one-thread search of the test game and checks its node
//! count, the search's signature: a change in it is a functional change.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use tessera::search::testgame::ConnectFour;
use tessera::search::{Level, LevelConfig, Limits, Searcher};

const POSITIONS: [&str; 3] = ["", "c d c d b", "c c d e b d d a"];
const DEPTH: u32 = 14;

/// Total nodes of one-thread depth-`DEPTH` searches of `POSITIONS` with fresh tables.
fn bench_nodes() -> u64 {
    let config = LevelConfig {
        threads: 1,
        ..Level::Hard.config()
    };
    let stop = AtomicBool::new(false);
    POSITIONS
        .iter()
        .map(|moves| {
            let pos = ConnectFour::from_moves(moves).unwrap_or_default();
            let mut searcher = Searcher::<ConnectFour>::new(4);
            searcher
                .search(&pos, &Limits::depth(DEPTH), &config, &stop, &mut |_| {})
                .nodes
        })
        .sum()
}

fn search(c: &mut Criterion) {
    let signature = bench_nodes();
    println!("Bench: {signature}");
    c.bench_function("connect-four depth 14", |b| {
        b.iter(|| {
            assert_eq!(
                black_box(bench_nodes()),
                signature,
                "search is not deterministic"
            )
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = search
}
criterion_main!(benches);
