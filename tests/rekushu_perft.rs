//! Perft counts from `tests/data/rekushu_perft.txt`: board size, moves from the
//! empty board (`-` for none), depth, count. The counts come from the reference
//! referee (`regenerate_perft_data_with_reference`, ignored: run it with
//! `--ignored --nocapture` to print the file) or, for the empty board up to
//! depth 3, from hand reasoning: no claim needs fewer than four stones of one
//! colour and no mirror ban exists before ply 4, so perft(d) = n²(n²−1)…(n²−d+1).

use crate::rekushu_reference;

use rekushu_reference::RefBoard;
use tessera::core::perft::{perft, perft_divide};
use tessera::core::{Game, Notation};
use tessera::games::rekushu::Board;

const DATA: &str = include_str!("data/rekushu_perft.txt");

struct Case {
    size: usize,
    moves: Vec<String>,
    depth: u32,
    count: u64,
}

fn cases() -> Vec<Case> {
    DATA.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 4, "bad line {l}");
            let moves = if f[1] == "-" {
                Vec::new()
            } else {
                f[1].split(',').map(str::to_string).collect()
            };
            Case {
                size: f[0].parse().unwrap(),
                moves,
                depth: f[2].parse().unwrap(),
                count: f[3].parse().unwrap(),
            }
        })
        .collect()
}

fn setup(c: &Case) -> Board {
    let mut b = Board::new(c.size).unwrap();
    for t in &c.moves {
        let m = b.parse_move(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        b.make_move(m);
    }
    b
}

#[test]
fn perft_file() {
    let cases = cases();
    assert!(cases.len() >= 15);
    for c in &cases {
        let mut b = setup(c);
        let before = b.clone();
        assert_eq!(
            perft(&mut b, c.depth),
            c.count,
            "{} {:?} depth {}",
            c.size,
            c.moves,
            c.depth
        );
        assert_eq!(b, before);
        if c.moves.is_empty() && c.depth <= 3 {
            let v = (c.size * c.size) as u64;
            let hand: u64 = (0..c.depth as u64).map(|i| v - i).product();
            assert_eq!(c.count, hand);
        }
    }
}

#[test]
fn perft3_empty_20() {
    let mut b = Board::new(20).unwrap();
    assert_eq!(perft(&mut b, 3), 400 * 399 * 398);
    let div = perft_divide(&mut b, 2);
    assert_eq!(div.len(), 400);
    assert!(div.iter().all(|&(_, n)| n == 399));
}

#[test]
#[ignore]
fn regenerate_perft_data_with_reference() {
    for c in cases() {
        let mut rb = RefBoard::new(c.size);
        for t in &c.moves {
            let m = rb.parse(t).unwrap();
            assert!(rb.moves().contains(&m), "{t} illegal in the reference");
            rb.apply(m);
        }
        let moves = if c.moves.is_empty() {
            "-".to_string()
        } else {
            c.moves.join(",")
        };
        // The reference is too slow for the big empty-board counts; keep them.
        let n = if c.size >= 14 && c.depth >= 3 {
            c.count
        } else {
            rb.perft(c.depth)
        };
        println!("{} {} {} {}", c.size, moves, c.depth, n);
    }
}
