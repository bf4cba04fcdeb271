//! Position strings (rules.md §2.9): validation messages, round trips, never
//! panicking on any input; the standard setup; the seeded random deal.

use crate::rebus_games;

use proptest::prelude::*;
use tessera::core::{Game, Notation, Side, Status};
use tessera::games::rebus::deal::STANDARD;
use tessera::games::rebus::tile::{Owner, Tile};
use tessera::games::rebus::{DEFAULT_TURN_LIMIT, Position};

fn replace_square(s: &str, rank: usize, file: usize, tok: &str) -> String {
    let (board, rest) = s.split_once(' ').unwrap();
    let mut ranks: Vec<String> = board.split('/').map(String::from).collect();
    let i = 9 - rank;
    let mut toks: Vec<String> = ranks[i]
        .as_bytes()
        .chunks(2)
        .map(|c| String::from_utf8(c.to_vec()).unwrap())
        .collect();
    toks[file] = tok.to_string();
    ranks[i] = toks.concat();
    format!("{} {rest}", ranks.join("/"))
}

fn error(s: &str) -> String {
    match Position::from_position_string(s) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("accepted: {s}"),
    }
}

#[test]
fn standard_setup_matches_rules() {
    let p = Position::standard();
    assert_eq!(p.position_string(), STANDARD);
    assert_eq!(p.side_to_move(), Side::First);
    assert_eq!(p.turn_limit(), DEFAULT_TURN_LIMIT);
    assert_eq!(p.counts(), [27, 27]);
    assert_eq!(p.ply(), 0);
    assert_eq!(p.status(), Status::Ongoing);
    assert_eq!(p.hash(), p.compute_hash());
    let board = p.showboard(false);
    assert!(board.starts_with("9  bS bW bP bT bO bQ bG bJ bK\n"));
    assert!(board.contains("\n1  rS rW rP rT rO rQ rG rJ rK\n   a  b  c  d  e  f  g  h  i\n"));
    assert!(!board.contains("\n\n") && !board.ends_with('\n'));
    let busy = "bQbObWgXbJbTbKbSbT/bSbSgFgHbTbJ(gX)gHbJbG/bPgFbKbWgXbPbOgHbG/bQbQbWbGbObKbJgFbP/gXgHrG(gF)rG(gF)gXgHgFgHgX/rQrQrWrGrOrKrJgFrP/rPgFrKrWgXrPrOgHrG/rSrSgFgHrTgXgHrJrG/rQrOrWgXrJrTrKrSrT red a1L2 i6,f8";
    let b = Position::from_position_string(busy)
        .unwrap()
        .showboard(false);
    eprintln!("{b}");
    assert!(b.contains("\n5  gX     gH     rG(gF) rG(gF) gX"));
    assert!(b.contains("locks: a1L2 (Red, mixed)\nprotected: i6, f8"));
    let uni = p.showboard(true);
    assert!(uni.contains("r★") && !uni.contains("\n\n") && !uni.ends_with('\n'));
}

#[test]
fn validation_says_what_and_where() {
    let cases: Vec<(String, &str)> = vec![
        (
            "a b c".into(),
            "expected 4 fields separated by single spaces (board, side, locks, protected), found 3",
        ),
        (
            STANDARD.replacen("  ", " ", 1).replacen(" red", "  red", 1),
            "found 5",
        ),
        (
            STANDARD.replacen("bSbWbPbTbObQbGbJbK/", "", 1),
            "the board has 8 ranks, expected 9",
        ),
        (
            STANDARD.replacen("bSbWbPbTbObQbGbJbK", "bSbWbPbTbObQbGbJ", 1),
            "rank 9 has 8 squares",
        ),
        (
            replace_square(STANDARD, 7, 2, "rS(bW)bT"),
            "rank 7 has 10 squares",
        ),
        (
            replace_square(STANDARD, 4, 2, "rZ"),
            "square c4: unknown symbol 'Z' in 'rZ'",
        ),
        (
            replace_square(STANDARD, 4, 2, "xS"),
            "square c4: unknown owner 'x' in 'xS'",
        ),
        (
            replace_square(STANDARD, 4, 2, "gS"),
            "square c4: tile 'gS' in 'gS': Green tiles show only H, F, X",
        ),
        (
            replace_square(STANDARD, 4, 2, "rH"),
            "Red and Blue tiles show only",
        ),
        (
            replace_square(STANDARD, 4, 2, "rS(rW)"),
            "square c4: the buried tile has the visible tile's owner",
        ),
        (
            replace_square(STANDARD, 4, 2, "rS(bH)"),
            "square c4: buried tile 'bH'",
        ),
        (
            replace_square(STANDARD, 4, 2, "gH(rS)"),
            "square c4: a visible Green tile has an empty history box",
        ),
        (
            replace_square(STANDARD, 4, 2, "rS(bW"),
            "rank 4: unclosed '(' in 'rS(bWgFgXgHgFgXgH'",
        ),
        (
            STANDARD.replace(" red ", " green "),
            "unknown side 'green', expected 'red' or 'blue'",
        ),
        (
            STANDARD.replace(" red - -", " red c3L2 -"),
            "lock c3L2: c4 is not Red's",
        ),
        (
            STANDARD.replace(" red - -", " red c4L2 -"),
            "lock c4L2: c4 is Green",
        ),
        (
            STANDARD.replace(" red - -", " red a1L2,b1L2 -"),
            "lock b1L2 overlaps another lock",
        ),
        (
            STANDARD.replace(" red - -", " red h8L3 -"),
            "lock h8L3 does not fit on the board",
        ),
        (
            STANDARD.replace(" red - -", " red c3 -"),
            "cannot read lock 'c3'",
        ),
        (
            STANDARD.replace(" red - -", " red - z9"),
            "cannot read protected square 'z9'",
        ),
    ];
    for (s, want) in cases {
        let got = error(&s);
        assert!(got.contains(want), "{s}\n got: {got}\nwant: {want}");
    }
    let mut six = STANDARD.to_string();
    for (r, f) in [(4, 0), (4, 1), (4, 2)] {
        six = replace_square(&six, r, f, "bS");
    }
    assert_eq!(error(&six), "Blue has 6 active Stars");
    // The side is case-insensitive, like colours everywhere.
    for side in [" RED ", " Red ", " rEd "] {
        let upper = Position::from_position_string(&STANDARD.replace(" red ", side));
        assert_eq!(upper.expect("reads").position_string(), STANDARD);
    }
    // Totals are not required: a position after captures is fine.
    let ok = replace_square(STANDARD, 4, 2, "rS(gH)");
    assert!(Position::from_position_string(&ok).is_ok());
}

#[test]
fn strings_round_trip_over_random_games() {
    let mut n = 0;
    for seed in 0..6 {
        rebus_games::play(&Position::random(seed), 99 + seed, 200, |p, _| {
            let s = p.position_string();
            let q = Position::from_position_string(&s).expect("reads back");
            assert_eq!(q.position_string(), s);
            assert_eq!(q.hash(), p.hash());
            n += 1;
        });
    }
    assert!(n > 300, "{n}");
}

#[test]
fn random_deal_is_colour_fair_and_mirrored() {
    for seed in 0..500u64 {
        let p = Position::random(seed);
        assert_eq!(p, Position::random(seed));
        assert_eq!(p.side_to_move(), Side::First);
        assert_eq!(p.counts(), [27, 27]);
        let mut per = std::collections::HashMap::new();
        for sq in 0..81u8 {
            *per.entry(p.tile(sq)).or_insert(0) += 1;
            assert!(p.buried(sq).is_none());
            let (f, r) = (sq % 9, sq / 9);
            if r == 4 {
                assert_eq!(p.tile(sq).owner, Owner::Green);
            }
            if r > 4 {
                let low = p.tile(8 * 9 - sq / 9 * 9 + f);
                let want = if low.owner == Owner::Red {
                    Tile::new(Owner::Blue, low.symbol)
                } else {
                    low
                };
                assert_eq!(p.tile(sq), want, "seed {seed}, square {sq}");
            }
        }
        for (t, n) in per {
            let want = if t.owner == Owner::Green { 9 } else { 3 };
            assert_eq!(n, want, "seed {seed}: {t:?}");
        }
        assert_eq!(
            Position::from_position_string(&p.position_string()).as_ref(),
            Ok(&p)
        );
    }
    assert_ne!(Position::random(1), Position::random(2));
    // Pinned deals: the same seed gives the same deal on every machine.
    assert_eq!(Position::random(1).position_string(), SEED_1);
    assert_eq!(Position::random(2).position_string(), SEED_2);
}

const SEED_1: &str = "bJbOgXbObJbWbQgFbQ/gXbKbWbGbKbTbPgXbS/gFgFbTgHbJgHbGbPbG/bPbTbQbSbKgHbSbObW/gFgHgHgXgXgXgFgFgH/rPrTrQrSrKgHrSrOrW/gFgFrTgHrJgHrGrPrG/gXrKrWrGrKrTrPgXrS/rJrOgXrOrJrWrQgFrQ red - -";
const SEED_2: &str = "bQbKbKgXbPbTbWgHbS/gHbPbWgFbObWbKbGgX/bGbObObTbGbQbQbSgF/bJgHbSbPgFgXbTbJbJ/gFgHgHgXgHgFgXgFgX/rJgHrSrPgFgXrTrJrJ/rGrOrOrTrGrQrQrSgF/gHrPrWgFrOrWrKrGgX/rQrKrKgXrPrTrWgHrS red - -";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn position_strings_never_panic(s in ".{0,200}") {
        let _ = Position::from_position_string(&s);
    }

    #[test]
    fn mutated_standard_strings_never_panic(i in 0usize..200, c in any::<char>(), del in any::<bool>()) {
        let mut s: Vec<char> = STANDARD.chars().collect();
        let i = i % s.len();
        if del { s.remove(i); } else { s.insert(i, c); }
        let s: String = s.into_iter().collect();
        if let Ok(p) = Position::from_position_string(&s) {
            prop_assert_eq!(Position::from_position_string(&p.position_string()).ok(), Some(p));
        }
    }

    #[test]
    fn move_texts_never_panic(s in "[a-jA-J0-9xXlL+ ]{0,20}|.{0,20}") {
        let p = Position::standard();
        if let Ok(m) = p.parse_move(&s) {
            prop_assert_eq!(p.parse_move(&p.format_move(m)), Ok(m));
        }
    }
}
