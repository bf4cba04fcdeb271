//! REBUS Core move generation and perft benchmarks.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tessera::core::Game;
use tessera::core::perft::perft;
use tessera::games::rebus::Position;

/// A busy mid-game position from a fixed-seed biased random game
/// (`tests/data/rebus_perft.txt`; 1925 legal moves).
const BUSY: &str = "bQbObWgXbJbTbKbSbT/bSbSgFgHbTbJ(gX)gHbJbG/bPgFbKbWgXbPbOgHbG/bQbQbWbGbObKbJgFbP/gXgHrG(gF)rG(gF)gXgHgFgHgX/rQrQrWrGrOrKrJgFrP/rPgFrKrWgXrPrOgHrG/rSrSgFgHrTgXgHrJrG/rQrOrWgXrJrTrKrSrT red - i6,f8";

fn benches(c: &mut Criterion) {
    let standard = Position::standard();
    let busy = Position::from_position_string(BUSY).expect("valid busy position");
    let mut buf = Vec::with_capacity(4096);
    for (name, p) in [("standard", &standard), ("busy", &busy)] {
        c.bench_function(&format!("rebus movegen {name}"), |b| {
            b.iter(|| {
                buf.clear();
                black_box(p).generate_moves(&mut buf);
                buf.len()
            })
        });
        c.bench_function(&format!("rebus capture sets only {name}"), |b| {
            b.iter(|| {
                buf.clear();
                black_box(p).generate_capture_sets(&mut buf);
                buf.len()
            })
        });
        c.bench_function(&format!("rebus count_moves {name}"), |b| {
            b.iter(|| black_box(p).count_moves())
        });
    }
    let mut p = standard.clone();
    c.bench_function("rebus perft 1 standard", |b| {
        b.iter(|| {
            let n = perft(&mut p, 1);
            assert_eq!(n, 1003);
            n
        })
    });
    let mut busy_p = busy.clone();
    c.bench_function("rebus perft 1 busy", |b| {
        b.iter(|| {
            let n = perft(&mut busy_p, 1);
            assert_eq!(n, 1925);
            n
        })
    });
    c.bench_function("rebus perft 2 standard", |b| {
        b.iter(|| {
            let n = perft(&mut p, 2);
            assert_eq!(n, 1_002_089);
            n
        })
    });
}

criterion_group!(rebus, benches);
criterion_main!(rebus);
