//! The fast REBUS rules against the slow reference in `rebus_reference`: legal
//! move sets (by canonical token), parsing of every token the reference writes,
//! status, and perft(1)/perft(2), over positions from biased random games.

use crate::rebus_games;
use crate::rebus_reference;

use std::collections::BTreeSet;

use rebus_reference::RefPos;
use tessera::core::perft::perft;
use tessera::core::{Game, Notation, Status};
use tessera::games::rebus::{Move, Position};

const BUDGET: usize = 300_000;

fn fast_tokens(p: &Position) -> Vec<String> {
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    moves.iter().map(|&m| p.format_move(m)).collect()
}

#[test]
fn legal_move_sets_match_reference() {
    let positions = rebus_games::sample_positions(11, 48, 160);
    let (mut checked, mut skipped, mut chains, mut locked, mut over) = (0, 0, 0, 0, 0);
    for s in &positions {
        let p = Position::from_position_string(s).expect("own string reads back");
        let r = RefPos::parse(s);
        let Some(rm) = r.moves(BUDGET) else {
            skipped += 1;
            continue;
        };
        let fast = fast_tokens(&p);
        let fast_set: BTreeSet<String> = fast.iter().cloned().collect();
        assert_eq!(fast.len(), fast_set.len(), "duplicate moves in {s}");
        let ref_set = RefPos::canonical_set(&rm);
        assert_eq!(rm.len(), ref_set.len(), "reference duplicates in {s}");
        if fast_set != ref_set {
            let a: Vec<_> = fast_set.difference(&ref_set).take(10).collect();
            let b: Vec<_> = ref_set.difference(&fast_set).take(10).collect();
            panic!("move sets differ in {s}\nonly fast: {a:?}\nonly reference: {b:?}");
        }
        assert_eq!(
            p.status() != Status::Ongoing,
            r.over(),
            "status differs in {s}"
        );
        assert_eq!(p.count_moves(), rm.len() as u64, "count_moves in {s}");
        if rm.iter().any(
            |(m, _)| matches!(m, rebus_reference::RefMove::Capture { set, .. } if set.len() >= 2),
        ) {
            chains += 1;
        }
        if !r.locks.is_empty() {
            locked += 1;
        }
        if r.over() {
            over += 1;
        }
        checked += 1;
    }
    eprintln!(
        "move sets: {checked} positions checked, {skipped} skipped, {chains} with chains, {locked} with locks, {over} over"
    );
    assert!(checked >= 3000, "too few positions: {checked}");
    assert!(
        chains >= 300 && locked >= 300,
        "the sample lacks chains or locks"
    );
}

#[test]
fn every_reference_token_parses_to_its_move() {
    let positions = rebus_games::sample_positions(23, 16, 120);
    let mut tokens = 0;
    for s in positions.iter().step_by(3) {
        let p = Position::from_position_string(s).expect("reads back");
        let r = RefPos::parse(s);
        if r.over() {
            continue;
        }
        let Some(all) = r.all_capture_tokens(BUDGET) else {
            continue;
        };
        for (tok, canon) in all.iter().take(400) {
            for text in [tok.clone(), tok.to_uppercase(), format!("  {tok} ")] {
                let m = p
                    .parse_move(&text)
                    .unwrap_or_else(|e| panic!("{text} refused in {s}: {e}"));
                assert_eq!(&p.format_move(m), canon, "{text} in {s}");
            }
            tokens += 1;
        }
        let mut moves = Vec::new();
        p.generate_moves(&mut moves);
        for &m in moves.iter().step_by(7) {
            assert_eq!(p.parse_move(&p.format_move(m)), Ok(m), "round trip in {s}");
        }
    }
    eprintln!("parser: {tokens} reference tokens parsed");
    assert!(tokens > 10_000);
}

#[test]
fn perft_matches_reference() {
    let positions = rebus_games::sample_positions(37, 24, 140);
    let (mut p1, mut p2) = (0, 0);
    for (i, s) in positions.iter().enumerate() {
        let mut p = Position::from_position_string(s).expect("reads back");
        let r = RefPos::parse(s);
        let Some(c1) = r.perft(1, BUDGET) else {
            continue;
        };
        assert_eq!(perft(&mut p, 1), c1, "perft 1 of {s}");
        p1 += 1;
        if i % 23 == 0 && c1 <= 1500 {
            let Some(c2) = r.perft(2, BUDGET) else {
                continue;
            };
            assert_eq!(perft(&mut p, 2), c2, "perft 2 of {s}");
            p2 += 1;
        }
    }
    eprintln!("perft: {p1} positions at depth 1, {p2} at depth 2");
    assert!(p1 >= 2000 && p2 >= 50);
}

#[test]
fn make_unmake_matches_reference_apply() {
    // The position after each move equals the reference's successor.
    let positions = rebus_games::sample_positions(41, 8, 120);
    let mut n = 0;
    for s in positions.iter().step_by(5) {
        let mut p = Position::from_position_string(s).expect("reads back");
        let r = RefPos::parse(s);
        let Some(rm) = r.moves(BUDGET) else { continue };
        for (m, tok) in rm.iter().step_by(13) {
            let mv: Move = p.parse_move(tok).expect("canonical token parses");
            p.make_move(mv);
            let after = RefPos::parse(&p.position_string());
            let expect = r.apply(m);
            assert_eq!(
                format!("{:?}", after.vis),
                format!("{:?}", expect.vis),
                "{tok} in {s}"
            );
            assert_eq!(after.boxes, expect.boxes, "{tok} in {s}");
            assert_eq!(after.protected, expect.protected, "{tok} in {s}");
            let (mut la, mut lb) = (after.locks.clone(), expect.locks.clone());
            la.sort();
            lb.sort();
            assert_eq!(la, lb, "{tok} in {s}");
            assert_eq!(after.side, expect.side);
            p.unmake_move(mv);
            n += 1;
        }
    }
    eprintln!("successors: {n} compared");
    assert!(n > 1000);
}

/// rules.md §2.7's ruling: a yield is a turn like any other (the protection that
/// guarded against the yielder ends, locks are checked, the opponent is to
/// move), and then the game is over. Checked on every sampled position where
/// yielding is legal, and on positions made so (Blue given 41 or more squares).
#[test]
fn yield_matches_reference_apply() {
    let mut positions = rebus_games::sample_positions(43, 12, 160);
    // Positions where Red may yield: most of Red's squares handed to Blue.
    let extra: Vec<String> = positions
        .iter()
        .step_by(9)
        .map(|s| {
            let (board, rest) = s.split_once(' ').expect("fields");
            let mut red_left = 20;
            let board: String = board
                .chars()
                .map(|c| match c {
                    'r' if red_left == 0 => 'b',
                    'r' => {
                        red_left -= 1;
                        'r'
                    }
                    c => c,
                })
                .collect();
            format!("{board} {rest}")
        })
        .collect();
    positions.extend(extra);
    let (mut n, mut with_protection, mut broke_lock) = (0, 0, 0);
    for s in &positions {
        let Ok(mut p) = Position::from_position_string(s) else {
            continue; // an edited position may break a set-up rule
        };
        let r = RefPos::parse(s);
        let legal = p.parse_move("yield").is_ok();
        assert_eq!(legal, r.may_yield(), "yield legal in {s}");
        if !legal {
            continue;
        }
        let mv = p.parse_move("yield").expect("legal");
        p.make_move(mv);
        let after = RefPos::parse(&p.position_string());
        let expect = r.apply(&rebus_reference::RefMove::Yield);
        assert_eq!(after.protected, expect.protected, "yield in {s}");
        let (mut la, mut lb) = (after.locks.clone(), expect.locks.clone());
        la.sort();
        lb.sort();
        assert_eq!(la, lb, "locks after yield in {s}");
        assert_eq!(after.side, expect.side, "side after yield in {s}");
        assert!(
            p.status() != Status::Ongoing && expect.over(),
            "over after yield in {s}"
        );
        p.unmake_move(mv);
        assert_eq!(p.position_string(), *s, "unmake yield in {s}");
        n += 1;
        with_protection += usize::from(r.protected.iter().flatten().any(|&b| b));
        broke_lock += usize::from(lb.len() < r.locks.len());
    }
    eprintln!(
        "yield: {n} compared, {with_protection} with protection, {broke_lock} breaking a lock"
    );
    assert!(
        n >= 50 && with_protection >= 20,
        "too few: {n}, {with_protection}"
    );
}
