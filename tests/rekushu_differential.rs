//! The fast rules against the slow reference referee (`rekushu_reference`), over
//! random games biased towards claims and mirror moves, on boards 8, 9, 14 and 20:
//! identical legal-move sets, move counts, perft(1) everywhere, perft(2) on a
//! schedule, statuses, scores and mirror-type sets.

use crate::rekushu_reference;

use std::collections::HashSet;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rekushu_reference::{RefBoard, RefMove};
use tessera::core::perft::perft;
use tessera::core::{Game, Notation, Side, Status};
use tessera::games::rekushu::{Board, mirror};

#[derive(Default, Debug)]
struct Stats {
    positions: u64,
    perft2: u64,
    claims: u64,
    mirror_moves: u64,
    games_finished: u64,
}

/// Each player's building plan: an inner rectangle to claim, then an outer one
/// around it (whose claim the rules must refuse, as it holds claimed tiles).
type Frame = [(usize, usize, usize, usize); 2];

fn new_frame(rng: &mut Xoshiro256PlusPlus, n: usize) -> Frame {
    let ox1 = rng.random_range(0..n - 3);
    let ox2 = rng.random_range(ox1 + 3..n);
    let oy1 = rng.random_range(0..n - 3);
    let oy2 = rng.random_range(oy1 + 3..n);
    let ix1 = rng.random_range(ox1 + 1..ox2 - 1);
    let ix2 = rng.random_range(ix1 + 1..ox2);
    let iy1 = rng.random_range(oy1 + 1..oy2 - 1);
    let iy2 = rng.random_range(iy1 + 1..oy2);
    [(ix1, iy1, ix2, iy2), (ox1, oy1, ox2, oy2)]
}

fn corners((x1, y1, x2, y2): (usize, usize, usize, usize)) -> [(usize, usize); 4] {
    [(x1, y1), (x2, y1), (x1, y2), (x2, y2)]
}

/// A move of the reference list, biased: claims most of the time, placements on
/// the mover's frame corners often, mirror placements often, placements in line
/// with own stones (which build rectangles) often, else uniform.
fn pick(
    rng: &mut Xoshiro256PlusPlus,
    rb: &RefBoard,
    moves: &[RefMove],
    frames: &mut [Frame; 2],
) -> RefMove {
    let choose = |rng: &mut Xoshiro256PlusPlus, v: &[RefMove]| v[rng.random_range(0..v.len())];
    let claims: Vec<RefMove> = moves.iter().copied().filter(|m| m.rect.is_some()).collect();
    if !claims.is_empty() && rng.random_bool(0.7) {
        return choose(rng, &claims);
    }
    let p = rb.to_move();
    let frame = &mut frames[p as usize];
    let blocked = frame
        .iter()
        .flat_map(|&r| corners(r))
        .any(|(x, y)| rb.stone[x][y] == 1 - p);
    let done = corners(frame[1]).iter().all(|&(x, y)| rb.stone[x][y] == p);
    if blocked || done || rng.random_bool(0.02) {
        *frame = new_frame(rng, rb.n);
    }
    if rng.random_bool(0.5) {
        for r in *frame {
            let on_frame: Vec<RefMove> = moves
                .iter()
                .copied()
                .filter(|m| m.rect.is_none() && corners(r).contains(&(m.x, m.y)))
                .collect();
            if !on_frame.is_empty() {
                return choose(rng, &on_frame);
            }
        }
    }
    let mirrors: Vec<RefMove> = moves
        .iter()
        .copied()
        .filter(|m| m.rect.is_none() && rb.types_now((m.x, m.y)).iter().any(|&t| t))
        .collect();
    if !mirrors.is_empty() && rng.random_bool(0.3) {
        return choose(rng, &mirrors);
    }
    let aligned: Vec<RefMove> = moves
        .iter()
        .copied()
        .filter(|m| {
            m.rect.is_none()
                && (0..rb.n).any(|x| rb.stone[x][m.y] == p)
                && (0..rb.n).any(|y| rb.stone[m.x][y] == p)
        })
        .collect();
    if !aligned.is_empty() && rng.random_bool(0.6) {
        return choose(rng, &aligned);
    }
    choose(rng, moves)
}

fn types_bits(t: [bool; 3]) -> u8 {
    [mirror::H, mirror::V, mirror::R]
        .into_iter()
        .zip(t)
        .filter(|&(_, on)| on)
        .fold(0, |acc, (bit, _)| acc | bit)
}

/// Compares one position; returns the reference move list.
fn compare(fast: &Board, rb: &RefBoard, with_perft2: bool, stats: &mut Stats) -> Vec<RefMove> {
    let ref_moves = rb.moves();
    let ref_set: HashSet<String> = ref_moves.iter().map(RefMove::text).collect();
    assert_eq!(
        ref_set.len(),
        ref_moves.len(),
        "reference listed a move twice"
    );

    let mut list = Vec::new();
    fast.generate_moves(&mut list);
    let fast_texts: Vec<String> = list.iter().map(|&m| fast.format_move(m)).collect();
    let fast_set: HashSet<String> = fast_texts.iter().cloned().collect();
    assert_eq!(fast_set.len(), list.len(), "fast listed a move twice");
    if fast_set != ref_set {
        let extra: Vec<_> = fast_set.difference(&ref_set).collect();
        let missing: Vec<_> = ref_set.difference(&fast_set).collect();
        panic!(
            "move sets differ\n{}\nextra {extra:?}\nmissing {missing:?}",
            fast.showboard()
        );
    }
    assert_eq!(fast.count_moves(), list.len() as u64);
    let mut work = fast.clone();
    assert_eq!(perft(&mut work, 1), ref_moves.len() as u64);

    // Every reference move parses to the same generated move.
    for (m, t) in list.iter().zip(&fast_texts) {
        assert_eq!(fast.parse_move(t).as_ref(), Ok(m), "{t}");
    }

    let expected_status = match rb.result() {
        None => Status::Ongoing,
        Some(0) => Status::Won(Side::First),
        Some(1) => Status::Won(Side::Second),
        Some(_) => Status::Draw,
    };
    assert_eq!(fast.status(), expected_status);
    assert_eq!(fast.tile_counts(), [rb.tiles_of(0), rb.tiles_of(1)]);
    assert_eq!(fast.ply(), rb.placed.len());
    for (i, side) in [
        (rb.placed.len().wrapping_sub(1)),
        rb.placed.len().wrapping_sub(2),
    ]
    .into_iter()
    .zip([fast.side_to_move().opp(), fast.side_to_move()])
    {
        if i < rb.placed.len() {
            let (v, t) = fast.last_placement(side).expect("a placement was made");
            assert_eq!(v, rb.placed[i]);
            assert_eq!(t, types_bits(rb.types_of_placement(i)));
        } else {
            assert_eq!(fast.last_placement(side), None);
        }
    }

    if with_perft2 {
        let mut work = fast.clone();
        assert_eq!(
            perft(&mut work, 2),
            rb.perft(2),
            "perft(2)\n{}",
            fast.showboard()
        );
        stats.perft2 += 1;
    }
    stats.positions += 1;
    ref_moves
}

fn play_games(size: usize, games: u64, perft2_every: usize, seed: u64) -> Stats {
    let mut stats = Stats::default();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..games {
        let mut fast = Board::new(size).expect("valid size");
        let mut rb = RefBoard::new(size);
        let mut frames = [new_frame(&mut rng, size), new_frame(&mut rng, size)];
        loop {
            let ply = rb.placed.len();
            let moves = compare(&fast, &rb, ply.is_multiple_of(perft2_every), &mut stats);
            if moves.is_empty() {
                assert_ne!(fast.status(), Status::Ongoing);
                stats.games_finished += 1;
                break;
            }
            let m = pick(&mut rng, &rb, &moves, &mut frames);
            if m.rect.is_some() {
                stats.claims += 1;
            }
            if rb.types_now((m.x, m.y)).iter().any(|&t| t) {
                stats.mirror_moves += 1;
            }
            let fm = fast.parse_move(&m.text()).expect("reference move is legal");
            fast.make_move(fm);
            rb.apply(m);
            assert_eq!(fast.hash(), fast.compute_hash());
        }
    }
    eprintln!("size {size}: {stats:?}");
    stats
}

fn check_stats(s: &Stats, games: u64) {
    assert_eq!(s.games_finished, games);
    assert!(s.claims >= 5 * games, "too few claims: {s:?}");
    assert!(s.mirror_moves >= 2 * games, "too few mirror moves: {s:?}");
}

#[test]
fn differential_8() {
    let s = play_games(8, 30, 1, 8);
    check_stats(&s, 30);
}

#[test]
fn differential_9() {
    let s = play_games(9, 30, 1, 9);
    check_stats(&s, 30);
}

#[test]
fn differential_14() {
    let s = play_games(14, 6, 10, 14);
    check_stats(&s, 6);
}

#[test]
fn differential_20() {
    let s = play_games(20, 3, 40, 20);
    check_stats(&s, 3);
}
