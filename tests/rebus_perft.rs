//! Perft counts from `tests/data/rebus_perft.txt` (computed by the slow reference
//! in `rebus_reference`; regenerate with
//! `cargo test --release --test all rebus_perft:: -- --ignored --nocapture`).

use crate::rebus_games;
use crate::rebus_reference;

use tessera::core::perft::{perft, perft_divide};
use tessera::games::rebus::Position;

const DATA: &str = include_str!("data/rebus_perft.txt");

#[test]
fn perft_data_file() {
    let mut n = 0;
    for line in DATA
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let mut parts = line.splitn(3, ' ');
        let depth: u32 = parts.next().and_then(|d| d.parse().ok()).expect("depth");
        let count: u64 = parts.next().and_then(|c| c.parse().ok()).expect("count");
        let s = parts.next().expect("position");
        let mut p = Position::from_position_string(s).expect("valid position");
        assert_eq!(perft(&mut p, depth), count, "perft {depth} of {s}");
        if depth >= 2 {
            let sum: u64 = perft_divide(&mut p, depth).iter().map(|(_, c)| c).sum();
            assert_eq!(sum, count);
        }
        n += 1;
    }
    assert!(n >= 12, "{n} entries");
}

#[test]
#[ignore]
fn generate_perft_data() {
    let mut positions = vec![Position::standard().position_string()];
    positions.push(Position::random(1).position_string());
    positions.push(Position::random(2).position_string());
    let sample = rebus_games::sample_positions(2024, 8, 120);
    for s in sample.iter().step_by(97).take(8) {
        positions.push(s.clone());
    }
    for s in positions {
        let r = rebus_reference::RefPos::parse(&s);
        for depth in 1..=3 {
            let Some(c) = r.perft(depth, 1_000_000) else {
                break;
            };
            println!("{depth} {c} {s}");
            if depth == 2 && c > 40_000 {
                break;
            }
        }
    }
}

#[test]
#[ignore]
fn generate_standard_perft3() {
    let s = Position::standard().position_string();
    let r = rebus_reference::RefPos::parse(&s);
    let c = r.perft(3, 1_000_000).expect("within budget");
    println!("3 {c} {s}");
}
