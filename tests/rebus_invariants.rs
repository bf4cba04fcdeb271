//! Invariants over biased random games: 81 squares, at most five active Stars
//! each, disjoint locks, incremental hash = hash from scratch, unmake restores
//! the exact position, the position string round-trips, generation and the
//! counter agree, and the sample really exercises lock breaks, the Star limit,
//! recaptures and long chains.

use crate::rebus_games;

use rand::RngExt;
use tessera::core::{Game, Side, Status};
use tessera::games::rebus::{Move, MoveKind, Position};

#[test]
fn invariants_hold_over_random_games() {
    let (mut positions, mut unmakes, mut breaks, mut five_stars, mut recaptures, mut long_chains) =
        (0, 0, 0, 0, 0, 0);
    let mut ends = [0usize; 3];
    let mut rng = rebus_games::rng(7);
    for g in 0..60u64 {
        let start = if g % 3 == 0 {
            Position::standard()
        } else {
            Position::random(1000 + g)
        };
        rebus_games::play(&start, g, 400, |p, chosen| {
            positions += 1;
            let c = p.counts();
            assert!(c[0] + c[1] <= 81);
            assert_eq!(
                p.position_string()
                    .split(' ')
                    .next()
                    .map(|b| b.split('/').count()),
                Some(9)
            );
            for side in Side::BOTH {
                let stars = p.active_stars(side);
                assert!(stars <= 5, "{}", p.position_string());
                if stars == 5 && side == p.side_to_move() {
                    five_stars += 1;
                }
            }
            let total: u32 = p.locks().iter().map(|l| (l.size * l.size) as u32).sum();
            assert_eq!(total, p.locked().count_ones(), "overlapping locks");
            assert_eq!(p.hash(), p.compute_hash());
            for unicode in [false, true] {
                let b = p.showboard(unicode);
                assert_eq!(b.lines().count(), 14);
                assert!(b.lines().all(|l| !l.trim().is_empty()) && !b.ends_with('\n'));
            }
            let s = p.position_string();
            let q = Position::from_position_string(&s).expect("round trip");
            assert_eq!(q.position_string(), s);
            let mut moves = Vec::new();
            p.generate_moves(&mut moves);
            assert_eq!(p.count_moves(), moves.len() as u64);
            assert_eq!(moves.is_empty(), p.status() != Status::Ongoing);
            match p.status() {
                Status::Won(Side::First) => ends[0] += 1,
                Status::Won(Side::Second) => ends[1] += 1,
                Status::Draw => ends[2] += 1,
                Status::Ongoing => {}
            }
            // Make/unmake a handful of moves, the chosen one included.
            let before = p.clone();
            let mut sample: Vec<Move> = (0..6)
                .filter_map(|_| moves.get(rng.random_range(0..moves.len().max(1))).copied())
                .collect();
            sample.extend(chosen);
            for mv in sample {
                let locks_before = p.locks().len();
                p.make_move(mv);
                assert_eq!(p.hash(), p.compute_hash(), "after {mv:?}");
                if Some(mv) == chosen {
                    let grew = usize::from(matches!(mv.kind(), MoveKind::Lock { .. }));
                    if p.locks().len() < locks_before + grew {
                        breaks += 1;
                    }
                    if let MoveKind::Capture { squares, .. } = mv.kind() {
                        if squares.count_ones() >= 4 {
                            long_chains += 1;
                        }
                        if (0..81u8).any(|q| squares >> q & 1 == 1 && before.buried(q).is_some()) {
                            recaptures += 1;
                        }
                    }
                }
                p.unmake_move(mv);
                assert_eq!(*p, before, "unmake of {mv:?}");
                unmakes += 1;
            }
        });
    }
    eprintln!(
        "{positions} positions, {unmakes} make/unmake, {breaks} lock breaks, {five_stars} with five Stars, \
         {recaptures} recaptures, {long_chains} chains of 4+, ends {ends:?}"
    );
    assert!(positions > 5000);
    assert!(breaks > 10 && five_stars > 10 && recaptures > 100 && long_chains > 10);
}

#[test]
fn yield_is_made_and_unmade() {
    let s = "bWbObWbObWbObWbObW/bObWbObWbObWbObWbO/bWbObWbObWbObWbObW/bObWbObWbObWbObWbO/bWbObWbObWbObWbObW/gFgHgFgHgFgHgFgHgF/gHgFgHgFgHgFgHgFgH/gFgHgFgHgFgHgFgHgF/rTgFgHgFgHgFgHgFgH red - -";
    let mut p = Position::from_position_string(s).expect("valid");
    let before = p.clone();
    p.make_move(Move::YIELD);
    assert_eq!(p.status(), Status::Won(Side::Second));
    assert_eq!(p.hash(), p.compute_hash());
    assert_ne!(p.hash(), before.hash());
    p.unmake_move(Move::YIELD);
    assert_eq!(p, before);
}

/// `count_moves_capped` is the exact count when it is at most the cap, and
/// above the cap otherwise, over random games and on a huge cluster (640
/// million moves) where it must stop early.
#[test]
fn capped_counts_are_exact_up_to_the_cap() {
    let mut checked = 0;
    for seed in 0..4 {
        rebus_games::play(&Position::random(seed), 7 + seed, 120, |p, _| {
            let n = p.count_moves();
            for cap in [0, 1, n.saturating_sub(1), n, n + 1, 100_000] {
                let got = p.count_moves_capped(cap);
                if n <= cap {
                    assert_eq!(got, n, "cap {cap}");
                } else {
                    assert!(got > cap, "cap {cap}: {got} of {n}");
                }
            }
            checked += 1;
        });
    }
    assert!(checked > 200, "{checked}");
    let cluster = Position::from_position_string(
        "gHgFgXgHgFgXgHgFgX/bWbWbWbWbWbWbWbWbW/bWbWbWbWbWbWbWbWbW/bWbWbWbWbWbWbWbWbW/bWbWbWbWbWbWbWbWbW/rPrPrPrPrPrPrPrPrP/rPrPrPrPrPrPrPrPrP/rPrPrPrPrPrPrPrPrP/rPrPrPrPrPrPrPrPrP red - -",
    )
    .expect("position");
    assert!(cluster.count_moves_capped(100_000) > 100_000);
}
