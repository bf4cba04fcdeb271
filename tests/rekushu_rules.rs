//! Hand-checked Rekushu rules cases (rules.md §1.2–§1.7), set up by playing real
//! move sequences: the seed's mirror examples, dead vertices, each claim
//! condition, claim effects, the end of the game, notation and showboard.

use tessera::core::{Game, MoveError, Notation, Side, Status};
use tessera::games::rekushu::{Board, Move, Rect, mirror};

fn play(b: &mut Board, seq: &[&str]) {
    for t in seq {
        match b.parse_move(t) {
            Ok(m) => b.make_move(m),
            Err(e) => panic!("{t}: {e}\n{}", b.showboard()),
        }
    }
}

fn illegal(b: &Board, text: &str) -> String {
    match b.parse_move(text) {
        Err(MoveError::Illegal(msg)) => msg,
        other => panic!("{text}: expected Illegal, got {other:?}\n{}", b.showboard()),
    }
}

fn listed(b: &Board) -> Vec<String> {
    let mut v = Vec::new();
    b.generate_moves(&mut v);
    v.into_iter().map(|m| b.format_move(m)).collect()
}

#[test]
fn sizes() {
    assert!(Board::new(3).is_none());
    assert!(Board::new(27).is_none());
    assert!(Board::new(0).is_none());
    let b = Board::new(4).expect("4 is valid");
    assert_eq!(b.size(), 4);
    assert_eq!(Board::new(26).map(|b| b.size()), Some(26));
    assert_eq!(b.side_to_move(), Side::First);
    assert_eq!(b.ply(), 0);
    assert_eq!(b.tile_counts(), [0, 0]);
    assert_eq!(b.status(), Status::Ongoing);
}

#[test]
fn seed_mirror_v_j10_e10() {
    let mut b = Board::new(14).unwrap();
    play(&mut b, &["A1", "J10", "E10"]);
    // E = column 5 (0-based 4), J = column 10 (0-based 9): 10 + 5 = 15 = N + 1.
    assert_eq!(b.last_placement(Side::First), Some(((4, 9), mirror::V)));
    assert_eq!(b.last_placement(Side::Second), Some(((9, 9), 0)));
}

#[test]
fn seed_mirror_ban_after_c6() {
    let mut b = Board::new(14).unwrap();
    play(&mut b, &["A1", "J10", "E10", "C6"]);
    let msg = illegal(&b, "L6");
    assert_eq!(msg, "L6 repeats your previous mirror type (v)");
    assert!(!listed(&b).iter().any(|m| m.starts_with("L6")));
    // C9 is an h mirror of C6 and L9 an r mirror: other types are fine.
    assert!(b.parse_move("C9").is_ok());
    assert!(b.parse_move("l9").is_ok());
    play(&mut b, &["C9"]);
    assert_eq!(b.last_placement(Side::First), Some(((2, 8), mirror::H)));
}

#[test]
fn odd_board_centre_has_all_types() {
    let mut b = Board::new(9).unwrap();
    play(&mut b, &["A1", "E5", "B1", "D4"]);
    // E5 by Black mirrors D4? No: D4 -> F6 is r. Black's B1 had no type.
    play(&mut b, &["F6"]);
    assert_eq!(b.last_placement(Side::First), Some(((5, 5), mirror::R)));
    play(&mut b, &["A9"]);
    // A9's images: h A1 (occupied), v I9, r I1. Black's previous type was r.
    assert_eq!(
        illegal(&b, "I1"),
        "I1 repeats your previous mirror type (r)"
    );
    assert!(b.parse_move("I9").is_ok());
    assert!(matches!(b.parse_move("J1"), Err(MoveError::Syntax(_))));
    // Now White plays the centre... it is occupied; use the middle column instead.
    let mut c = Board::new(9).unwrap();
    play(&mut c, &["E2", "E8"]);
    // E8 is the h and r image of E2 at once (middle column).
    assert_eq!(
        c.last_placement(Side::Second),
        Some(((4, 7), mirror::H | mirror::R))
    );
    play(&mut c, &["A1"]);
    // White may not repeat h or r: the h image of A1 is A9, the r image I9.
    assert_eq!(
        illegal(&c, "A9"),
        "A9 repeats your previous mirror type (h)"
    );
    assert_eq!(
        illegal(&c, "I9"),
        "I9 repeats your previous mirror type (r)"
    );
    assert!(c.parse_move("I1").is_ok());
}

#[test]
fn claimed_away_placement_still_counts_for_mirror() {
    let mut b = Board::new(8).unwrap();
    play(
        &mut b,
        &["A8", "B2", "H1", "C2", "H3", "B3", "A6", "C3:B2-C3"],
    );
    // White's C3 stone is gone, but C3 is still White's last placement.
    assert_eq!(b.stone_at(2, 2), None);
    assert_eq!(b.tile_owner(1, 1), Some(Side::Second));
    assert_eq!(b.tile_counts(), [0, 1]);
    // The vacated vertices may be played (they touch unclaimed tiles).
    assert!(b.parse_move("C3").is_ok());
    assert!(b.parse_move("B2").is_ok());
    play(&mut b, &["F3"]);
    assert_eq!(b.last_placement(Side::First), Some(((5, 2), mirror::V)));
    play(&mut b, &["A2"]);
    assert_eq!(
        illegal(&b, "H2"),
        "H2 repeats your previous mirror type (v)"
    );
    assert!(b.parse_move("A7").is_ok());
}

#[test]
fn dead_vertices_are_not_playable() {
    let mut b = Board::new(8).unwrap();
    play(&mut b, &["A1", "H8", "C1", "H6", "A3", "F8", "C3:A1-C3"]);
    assert_eq!(b.tile_counts(), [4, 0]);
    assert_eq!(illegal(&b, "B2"), "B2 touches only claimed tiles");
    assert_eq!(illegal(&b, "A1"), "A1 touches only claimed tiles");
    assert_eq!(illegal(&b, "b1"), "B1 touches only claimed tiles");
    assert_eq!(illegal(&b, "A2"), "A2 touches only claimed tiles");
    let moves = listed(&b);
    for dead in ["A1", "B1", "A2", "B2"] {
        assert!(
            !moves.iter().any(|m| m.split(':').next() == Some(dead)),
            "{dead}"
        );
    }
    // C2 and C3 touch unclaimed tiles on the right.
    assert!(b.parse_move("C2").is_ok());
    assert!(b.parse_move("C3").is_ok());
    assert!(b.parse_move("A4").is_ok());
    assert_eq!(illegal(&b, "H8"), "H8 is occupied");
}

#[test]
fn claim_effect() {
    let mut b = Board::new(8).unwrap();
    play(&mut b, &["A1", "H8", "C1", "H6", "A3", "F8"]);
    let before = b.clone();
    let m = b.parse_move("C3:C3-A1").unwrap();
    assert_eq!(
        m,
        Move::with_claim(
            2,
            2,
            Rect {
                x1: 0,
                y1: 0,
                x2: 2,
                y2: 2
            }
        )
    );
    assert_eq!(b.format_move(m), "C3:A1-C3");
    b.make_move(m);
    for (x, y) in [(0, 0), (2, 0), (0, 2), (2, 2)] {
        assert_eq!(b.stone_at(x, y), None);
    }
    for x in 0..7 {
        for y in 0..7 {
            let inside = x < 2 && y < 2;
            assert_eq!(b.tile_owner(x, y), inside.then_some(Side::First), "{x},{y}");
        }
    }
    assert_eq!(b.tile_counts(), [4, 0]);
    assert_eq!(b.hash(), b.compute_hash());
    assert_eq!(b.side_to_move(), Side::Second);
    b.unmake_move(m);
    assert_eq!(b, before);
}

#[test]
fn claim_needs_own_corners() {
    let mut b = Board::new(8).unwrap();
    play(&mut b, &["A1", "C1", "A3", "H8"]);
    assert_eq!(
        illegal(&b, "C3:A1-C3"),
        "A1-C3: corner C1 is not your stone"
    );
    assert_eq!(
        illegal(&b, "C3:A1-D4"),
        "A1-D4: corner D1 is not your stone"
    );
    // Without the claim the placement is fine, and the list has no such claim.
    assert!(b.parse_move("C3").is_ok());
    assert!(!listed(&b).iter().any(|m| m.contains(':')));
}

#[test]
fn claim_needs_empty_edges_and_inside() {
    let mut b = Board::new(8).unwrap();
    play(&mut b, &["A1", "B1", "C1", "H8", "A3", "H6"]);
    assert_eq!(
        illegal(&b, "C3:A1-C3"),
        "A1-C3 has a stone on its edge or inside (B1)"
    );
    // The stone being placed counts too.
    let mut c = Board::new(8).unwrap();
    play(&mut c, &["A1", "H8", "C1", "H6", "A3", "F8", "C3", "F6"]);
    assert_eq!(
        illegal(&c, "B2:A1-C3"),
        "A1-C3 has a stone on its edge or inside (B2)"
    );
    assert_eq!(
        illegal(&c, "B3:A1-C3"),
        "A1-C3 has a stone on its edge or inside (B3)"
    );
    // Any other placement may claim it: the claim need not use the new stone.
    assert!(c.parse_move("E5:A1-C3").is_ok());
    assert!(c.parse_move("D2:C3-A1").is_ok());
}

#[test]
fn claim_needs_unclaimed_tiles() {
    let mut b = Board::new(8).unwrap();
    play(
        &mut b,
        &[
            "B2", "H8", "C2", "H6", "B3", "F8", "C3:B2-C3", "F6", "A1", "H4", "D1", "G8", "A4",
            "G6",
        ],
    );
    assert_eq!(b.tile_counts(), [1, 0]);
    assert_eq!(illegal(&b, "D4:A1-D4"), "A1-D4 contains claimed tiles");
    assert!(!listed(&b).iter().any(|m| m.contains(':')));
    // White may not take it either: same board, tiles of either player block.
    assert!(b.parse_move("D4").is_ok());
}

#[test]
fn not_a_rectangle() {
    let mut b = Board::new(8).unwrap();
    play(&mut b, &["A1", "H7", "A3", "G8"]);
    assert_eq!(illegal(&b, "C3:A1-A3"), "A1-A3 is not a rectangle");
    assert_eq!(illegal(&b, "C3:A1-A1"), "A1-A1 is not a rectangle");
}

#[test]
fn notation_forms() {
    // K is the 11th column: I is a column letter.
    let canonical = Move::with_claim(
        10,
        9,
        Rect {
            x1: 2,
            y1: 2,
            x2: 10,
            y2: 9,
        },
    );
    let mut b = Board::new(20).unwrap();
    play(&mut b, &["C3", "T20", "K3", "T19", "C10", "S20"]);
    for t in [
        "K10:C3-K10",
        "k10:k10-c3",
        "  K10:C10-K3 ",
        "K10:K3-C10",
        "\tk10:c3-K10\n",
    ] {
        assert_eq!(b.parse_move(t), Ok(canonical), "{t}");
    }
    assert_eq!(b.format_move(canonical), "K10:C3-K10");
    assert_eq!(b.parse_move("i5"), Ok(Move::place(8, 4)));
    assert_eq!(b.format_move(Move::place(8, 4)), "I5");
    assert!(b.parse_move("A1").is_ok());
    for bad in [
        "",
        " ",
        "K",
        "K0",
        "K21",
        "U1",
        "Z99",
        "10K",
        "K10:",
        "K10:C3",
        "K10:C3-",
        "K10:-C3",
        "K10:C3-K10:",
        "K10:C3-K10-D4",
        "K1O",
        "K 10",
        "K+1",
        "K-1",
        "KK10",
        "ü",
        "K10ü",
        "K010",
        "K10:C3–K10",
    ] {
        match b.parse_move(bad) {
            Err(MoveError::Syntax(msg)) => {
                assert!(msg.starts_with("could not parse move '"), "{msg}");
                assert!(msg.contains(&format!("'{}'", bad.trim())), "{msg}");
            }
            other => panic!("{bad:?}: {other:?}"),
        }
    }
    // Off the board, however far: the column or the row, with the range.
    for (text, why) in [
        ("z99", "column Z is off the 20x20 board (columns A to T)"),
        (
            "A1:A1-U3",
            "column U is off the 20x20 board (columns A to T)",
        ),
        ("A0", "row 0 is off the 20x20 board (rows 1 to 20)"),
        ("A21", "row 21 is off the 20x20 board (rows 1 to 20)"),
        (
            "K99999999999999999999",
            "row 99999999999999999999 is off the 20x20 board (rows 1 to 20)",
        ),
        (
            "garbage",
            "'garbage' is not a vertex (a column letter A to T, then a row 1 to 20: K10)",
        ),
        (
            "K10:C3",
            "the claim 'C3' is not two corners joined by '-' (K10:C3-K10)",
        ),
    ] {
        assert_eq!(
            b.parse_move(text),
            Err(MoveError::Syntax(format!(
                "could not parse move '{text}': {why}"
            ))),
            "{text}"
        );
    }
    let big = Board::new(26).unwrap();
    assert_eq!(big.parse_move("z26"), Ok(Move::place(25, 25)));
    assert_eq!(big.format_move(Move::place(25, 25)), "Z26");
}

#[test]
fn showboard_layout() {
    let mut b = Board::new(20).unwrap();
    play(
        &mut b,
        &["A1", "T20", "C1", "T18", "A3", "R20", "C3:A1-C3", "J10"],
    );
    let s = b.showboard();
    assert!(!s.ends_with('\n'));
    assert!(s.lines().all(|l| !l.trim().is_empty()), "{s}");
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<String>(),
        "ABCDEFGHIJKLMNOPQRST"
    );
    assert_eq!(lines[21], lines[0]);
    // Row 20 has White stones on T20 and R20.
    assert!(lines[1].starts_with("20  ") && lines[1].ends_with("  20"));
    assert_eq!(lines[1].matches('O').count(), 2);
    // Row 1: tiles A1 and B1 are Black's, shown right of A1 and B1.
    assert!(lines[20].starts_with(" 1  .b.b. ."), "{}", lines[20]);
    assert!(lines[11].contains('O'), "{}", lines[11]);
    assert!(s.contains("Black to move"));
    assert!(s.contains("Tiles: Black 4, White 0"));
    assert!(s.contains("White last placed: J10"));
}

/// The game ends when the side to move has no placement, scored by claimed tiles.
#[test]
fn game_end_on_4x4() {
    // Black claims tile A1, White tile C3 (its C3 is an r mirror of B2); then the
    // game is played out, claims first.
    let mut b = Board::new(4).unwrap();
    play(&mut b, &["A1", "D4", "B1", "D3", "A2", "C4", "B2:A1-B2"]);
    play(&mut b, &["C3:C3-D4"]);
    assert_eq!(b.tile_counts(), [1, 1]);
    assert_eq!(b.last_placement(Side::Second), Some(((2, 2), mirror::R)));
    let mut plies = 0;
    while b.status() == Status::Ongoing {
        let mut moves = Vec::new();
        b.generate_moves(&mut moves);
        // Prefer claims, else the first placement in list order.
        let m = moves
            .iter()
            .copied()
            .find(|m| m.claim().is_some())
            .unwrap_or(moves[0]);
        b.make_move(m);
        plies += 1;
        assert!(plies < 100);
    }
    let [bl, wh] = b.tile_counts();
    let expected = if bl > wh {
        Status::Won(Side::First)
    } else if wh > bl {
        Status::Won(Side::Second)
    } else {
        Status::Draw
    };
    assert_eq!(b.status(), expected);
    assert_eq!(b.count_moves(), 0);
    let mut moves = Vec::new();
    b.generate_moves(&mut moves);
    assert!(moves.is_empty());
    for y in 0..4 {
        for x in 0..4 {
            let t = tessera::games::rekushu::vertex_text(x, y);
            assert!(
                matches!(b.parse_move(&t), Err(MoveError::Illegal(_))),
                "{t}"
            );
        }
    }
}
