//! One hand-built position per rule of rules.md §2, through the public API.

use tessera::core::{Game, MoveError, Notation, Side, Status};
use tessera::games::rebus::{Move, Position};

/// A board string: `tiles` on a checkerboard of Green Theta/Phi (no two
/// orthogonal neighbours alike, so no accidental chains).
fn board_with(default: impl Fn(usize, usize) -> &'static str, tiles: &[(&str, &str)]) -> String {
    let mut grid: Vec<Vec<String>> = (0..9)
        .map(|r| (0..9).map(|f| default(f, r).to_string()).collect())
        .collect();
    for (sq, tok) in tiles {
        let b = sq.as_bytes();
        grid[(b[1] - b'1') as usize][(b[0] - b'a') as usize] = tok.to_string();
    }
    (0..9)
        .rev()
        .map(|r| grid[r].concat())
        .collect::<Vec<_>>()
        .join("/")
}

fn checker(f: usize, r: usize) -> &'static str {
    if (f + r).is_multiple_of(2) {
        "gH"
    } else {
        "gF"
    }
}

fn pos(tiles: &[(&str, &str)], side: &str, locks: &str, prot: &str) -> Position {
    let s = format!("{} {side} {locks} {prot}", board_with(checker, tiles));
    Position::from_position_string(&s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

fn legal(p: &Position, tok: &str) -> bool {
    p.parse_move(tok).is_ok()
}

fn why(p: &Position, tok: &str) -> String {
    match p.parse_move(tok) {
        Err(MoveError::Illegal(m)) => m,
        other => panic!("{tok}: expected an illegal move, got {other:?}"),
    }
}

fn play(p: &mut Position, tok: &str) {
    let m = p.parse_move(tok).unwrap_or_else(|e| panic!("{tok}: {e}"));
    p.make_move(m);
}

fn listed(p: &Position) -> Vec<String> {
    let mut v = Vec::new();
    p.generate_moves(&mut v);
    v.iter().map(|&m| p.format_move(m)).collect()
}

fn field(p: &Position, i: usize) -> String {
    p.position_string()
        .split(' ')
        .nth(i)
        .unwrap_or_default()
        .to_string()
}

/// The token of one square in the board field.
fn square(p: &Position, sq: &str) -> String {
    let b = sq.as_bytes();
    let (f, r) = ((b[0] - b'a') as usize, (b[1] - b'1') as usize);
    let board = field(p, 0);
    let rank = board.split('/').nth(8 - r).unwrap_or_default().to_string();
    let mut toks = Vec::new();
    let c: Vec<char> = rank.chars().collect();
    let mut k = 0;
    while k < c.len() {
        let mut t: String = c[k..k + 2].iter().collect();
        k += 2;
        if k < c.len() && c[k] == '(' {
            t.extend(&c[k..k + 4]);
            k += 4;
        }
        toks.push(t);
    }
    toks[f].clone()
}

#[test]
fn star_reaches_two_squares_others_one() {
    let p = pos(
        &[
            ("e5", "rS"),
            ("e7", "bO"),
            ("e8", "bO"),
            ("a1", "rW"),
            ("b2", "bO"),
            ("a3", "bO"),
        ],
        "red",
        "-",
        "-",
    );
    assert!(legal(&p, "e5xe7"));
    assert!(legal(&p, "e5xg7"));
    assert!(why(&p, "e5xe8").contains("e5 cannot reach e8"));
    assert!(legal(&p, "a1xb2"));
    assert!(why(&p, "a1xa3").contains("a1 cannot reach a3"));
}

#[test]
fn no_capture_of_the_same_symbol() {
    let p = pos(&[("e5", "rW"), ("e6", "bW"), ("e4", "bO")], "red", "-", "-");
    assert!(why(&p, "e5xe6").contains("same symbol"));
    assert!(legal(&p, "e5xe4"));
    assert!(!listed(&p).iter().any(|t| t.contains("e6")));
}

#[test]
fn attacker_stays_and_its_symbol_is_copied() {
    let mut p = pos(&[("e5", "rW"), ("e6", "bO")], "red", "-", "-");
    play(&mut p, "e5xe6");
    assert_eq!(square(&p, "e5"), "rW");
    assert_eq!(square(&p, "e6"), "rW(bO)");
    assert_eq!(p.counts(), [2, 0]);
}

#[test]
fn recapture_restores_the_lost_tile_and_green() {
    // Blue wins back e6 with its own original symbol.
    let mut p = pos(
        &[("e5", "rW"), ("e6", "rW(bO)"), ("e7", "bT")],
        "blue",
        "-",
        "-",
    );
    play(&mut p, "e7xe6");
    assert_eq!(square(&p, "e6"), "bO");
    assert_eq!(square(&p, "e7"), "bT");
    // A Green square Blue took returns to Green.
    let mut p = pos(&[("e5", "rW"), ("e6", "bT(gH)")], "red", "-", "-");
    play(&mut p, "e5xe6");
    assert_eq!(square(&p, "e6"), "gH");
    assert_eq!(p.counts(), [1, 0]);
}

#[test]
fn chains_follow_the_captured_symbol_and_stop_where_the_rules_say() {
    let tiles = [
        ("e4", "rW"),
        ("e5", "bO"),
        ("e6", "bO"),
        ("f6", "bO"),
        ("f5", "bO"),
        ("d6", "bT"),
        ("e7", "bO"),
        ("f7", "bO"),
        ("e8", "bO"),
        ("f8", "bO"),
    ];
    let p = pos(&tiles, "red", "e7L2", "-");
    assert!(legal(&p, "e4xe5xe6xf6xf5"));
    assert!(why(&p, "e4xe5xe6xe7").contains("e7 is locked"));
    assert!(why(&p, "e4xe5xe6xf6xf5xe5").contains("e5 was already captured"));
    assert!(why(&p, "e4xe5xe6xd6").contains("chain step d6 does not show the captured symbol"));
    assert!(why(&p, "e4xe5xf6").contains("not orthogonally next"));
    // One move per set: the square e5..f5 ring walked in any order is one move.
    let toks = listed(&p);
    let ring: Vec<_> = toks
        .iter()
        .filter(|t| t.matches('x').count() == 4 && !t.contains('+'))
        .collect();
    assert_eq!(ring, vec!["e4xe5xe6xf6xf5"]);
    let mut q = p.clone();
    play(&mut q, "e4xe5xf5xf6xe6");
    for sq in ["e5", "e6", "f6", "f5"] {
        assert_eq!(square(&q, sq), "rW(bO)");
    }
    assert_eq!(field(&q, 3), "e5,f5,e6,f6");
    assert_eq!(
        p.format_move(p.parse_move("e4xe5xf5xf6xe6").unwrap()),
        "e4xe5xe6xf6xf5"
    );
    // Stops at a protected square and at the mover's own square.
    let p = pos(
        &[
            ("e4", "rW"),
            ("e5", "bO"),
            ("e6", "bO"),
            ("e7", "rO"),
            ("e8", "bO"),
        ],
        "red",
        "-",
        "e6",
    );
    assert!(why(&p, "e4xe5xe6").contains("e6 is protected"));
    let p = pos(
        &[("e4", "rW"), ("e5", "bO"), ("e6", "rO"), ("e7", "bO")],
        "red",
        "-",
        "-",
    );
    assert!(why(&p, "e4xe5xe6").contains("e6 is Red's"));
    assert!(listed(&p).iter().all(|t| !t.starts_with("e4xe5xe")));
}

#[test]
fn sixth_star_refused_by_copy_and_by_restoration() {
    let stars = [("a1", "rS"), ("c1", "rS"), ("e1", "rS"), ("g1", "rS")];
    let mut tiles = stars.to_vec();
    tiles.extend([
        ("e5", "rS"),
        ("e6", "bO"),
        ("e7", "bO"),
        ("d5", "rW"),
        ("d6", "rW(bO)"),
        ("d4", "bO(rS)"),
    ]);
    // Five Red Stars: the Star may not copy itself, not even as a chain's second step.
    let p = pos(&tiles, "red", "-", "-");
    assert!(why(&p, "e5xe6").contains("a Star on e6 would give Red a sixth active Star"));
    assert!(why(&p, "d5xd4").contains("a Star on d4 would give Red a sixth active Star"));
    assert!(
        !listed(&p)
            .iter()
            .any(|t| t.contains("xd4") || t.starts_with("e5xe6"))
    );
    // Four Stars: the first copy is fine, the second step would be the sixth.
    tiles.retain(|t| t.0 != "g1");
    let p = pos(&tiles, "red", "-", "-");
    assert!(legal(&p, "e5xe6"));
    assert!(why(&p, "e5xe6xe7").contains("a Star on e7 would give Red a sixth active Star"));
    assert!(legal(&p, "d5xd4"));
    // A Star attacker recapturing a square restores the buried tile: no new Star.
    let p = pos(
        &[
            ("a1", "rS"),
            ("c1", "rS"),
            ("e1", "rS"),
            ("g1", "rS"),
            ("e5", "rS"),
            ("e6", "bO(gH)"),
        ],
        "red",
        "-",
        "-",
    );
    assert!(legal(&p, "e5xe6"));
    let too_many = format!(
        "{} red - -",
        board_with(
            checker,
            &[
                ("a1", "rS"),
                ("b1", "rS"),
                ("c1", "rS"),
                ("d1", "rS"),
                ("e1", "rS"),
                ("f1", "rS")
            ]
        )
    );
    assert_eq!(
        Position::from_position_string(&too_many)
            .unwrap_err()
            .to_string(),
        "Red has 6 active Stars"
    );
}

#[test]
fn protection_covers_captured_and_nominated_squares_for_one_turn() {
    let tiles = [
        ("e4", "rW"),
        ("e5", "bO"),
        ("d4", "rO"),
        ("e6", "bT"),
        ("c4", "bT"),
        ("h8", "bT"),
        ("h9", "rO"),
    ];
    let mut p = pos(&tiles, "red", "-", "-");
    assert!(why(&p, "e4xe5+e5").contains("captured this turn"));
    assert!(why(&p, "e4xe5+h8").contains("not Red's"));
    play(&mut p, "e4xe5+d4");
    assert_eq!(field(&p, 3), "d4,e5");
    assert!(why(&p, "e6xe5").contains("e5 is protected"));
    assert!(why(&p, "c4xd4").contains("d4 is protected"));
    assert!(legal(&p, "c4xd5"));
    // Blue's turn ends the protection; Blue's own capture is now protected instead.
    play(&mut p, "h8xh9");
    assert_eq!(field(&p, 3), "h9");
    play(&mut p, "e5xe6");
    assert_eq!(field(&p, 3), "e6");
    assert!(legal(&p, "c4xd4"));
}

#[test]
fn locks_need_a_complete_free_block_that_would_not_break_at_once() {
    let p = pos(
        &[("c3", "rW"), ("d3", "rO"), ("c4", "rW"), ("d4", "bO")],
        "red",
        "-",
        "-",
    );
    assert_eq!(why(&p, "c3L2"), "c3L2: d4 is not Red's");
    assert!(why(&p, "h8L3").contains("does not fit"));
    let block = [
        ("c3", "rW"),
        ("d3", "rO"),
        ("c4", "rW"),
        ("d4", "rO"),
        ("e3", "rT"),
        ("e4", "rT"),
    ];
    let p = pos(&block, "red", "c3L2", "-");
    assert!(why(&p, "d3L2").contains("d3L2: d3 is already locked"));
    // Mixed: one covered edge is fine, two are not.
    let mixed = [
        ("e5", "rW"),
        ("f5", "rO"),
        ("e6", "rW"),
        ("f6", "rO"),
        ("e4", "bT"),
        ("f4", "bT"),
    ];
    let p = pos(&mixed, "red", "-", "-");
    assert!(listed(&p).contains(&"e5L2".to_string()));
    let mut two = mixed.to_vec();
    two.extend([("d5", "bT"), ("d6", "bT")]);
    let p = pos(&two, "red", "-", "-");
    assert!(
        why(&p, "e5L2")
            .contains("would break at once: Blue covers 2 outside edges of this mixed block")
    );
    assert!(!listed(&p).contains(&"e5L2".to_string()));
    // Uniform: two covered edges are fine, three are not.
    let mut uni: Vec<_> = two
        .iter()
        .map(|&(q, t)| {
            if t.starts_with('r') {
                (q, "rW")
            } else {
                (q, t)
            }
        })
        .collect();
    let p = pos(&uni, "red", "-", "-");
    assert!(legal(&p, "e5L2"));
    uni.extend([("g5", "bT"), ("g6", "bT")]);
    let p = pos(&uni, "red", "-", "-");
    assert!(why(&p, "e5L2").contains("3 outside edges of this uniform block"));
    // An edge on the border does not exist, so it cannot be covered.
    let corner = [
        ("a1", "rW"),
        ("b1", "rO"),
        ("a2", "rW"),
        ("b2", "rO"),
        ("a3", "bT"),
        ("b3", "bT"),
    ];
    let mut p = pos(&corner, "red", "-", "-");
    play(&mut p, "a1L2");
    assert_eq!(field(&p, 2), "a1L2");
    assert_eq!(field(&p, 3), "-");
    assert!(why(&p, "a3xa2").contains("a2 is locked"));
    assert!(
        listed(&p)
            .iter()
            .all(|t| !t.starts_with("a1x") && !t.starts_with("b2x"))
    );
}

#[test]
fn mixed_lock_breaks_at_two_covered_edges_uniform_at_three() {
    // Mixed Red lock, Blue covers the edge below; capturing d6 covers the left edge.
    let tiles = [
        ("e5", "rW"),
        ("f5", "rO"),
        ("e6", "rW"),
        ("f6", "rO"),
        ("e4", "bT"),
        ("f4", "bT"),
        ("d5", "bT"),
        ("c6", "bT"),
    ];
    let mut p = pos(&tiles, "blue", "e5L2", "-");
    assert!(why(&p, "d5xe5").contains("e5 is locked"));
    play(&mut p, "c6xd6");
    assert_eq!(field(&p, 2), "-");
    assert!(legal(&p, "e5xd5"));
    // The same with a uniform block: two edges are not enough, three are.
    let uni: Vec<_> = tiles
        .iter()
        .map(|&(q, t)| {
            if t.starts_with('r') {
                (q, "rW")
            } else {
                (q, t)
            }
        })
        .collect();
    let mut p = pos(&uni, "blue", "e5L2", "-");
    play(&mut p, "c6xd6");
    assert_eq!(field(&p, 2), "e5L2");
    let mut three = uni.clone();
    three.extend([("g5", "bT"), ("h6", "bT")]);
    let mut p = pos(&three, "blue", "e5L2", "-");
    play(&mut p, "c6xd6");
    assert_eq!(field(&p, 2), "e5L2");
    play(&mut p, "pass");
    play(&mut p, "h6xg6");
    assert_eq!(field(&p, 2), "-");
    // A lock set up already broken is broken by the check after the next turn.
    let mut broken = uni.clone();
    broken.extend([("d6", "bT"), ("g5", "bT"), ("g6", "bT"), ("a9", "bT")]);
    let mut p = pos(&broken, "blue", "e5L2", "-");
    assert_eq!(field(&p, 2), "e5L2");
    play(&mut p, "a9xa8");
    assert_eq!(field(&p, 2), "-");
}

#[test]
fn pass_only_without_a_capture() {
    let p = pos(&[("e5", "rW"), ("e6", "bO")], "red", "-", "-");
    assert_eq!(why(&p, "pass"), "pass: Red has a capture");
    assert!(!listed(&p).contains(&"pass".to_string()));
    // Red's only tile is walled in by protected squares; Blue could still capture.
    let p = pos(&[("a1", "rW"), ("i9", "bO")], "red", "-", "a2,b1,b2");
    assert_eq!(p.status(), Status::Ongoing);
    assert_eq!(listed(&p), vec!["pass".to_string()]);
    let mut q = p.clone();
    play(&mut q, "PASS");
    assert_eq!(field(&q, 3), "-");
    assert_eq!(q.side_to_move(), Side::Second);
}

fn blue_top(f: usize, r: usize) -> &'static str {
    if r >= 4 {
        if (f + r).is_multiple_of(2) {
            "bW"
        } else {
            "bO"
        }
    } else {
        checker(f, r)
    }
}

#[test]
fn yield_only_when_the_opponent_controls_41() {
    let s = format!("{} red - -", board_with(blue_top, &[("a1", "rT")]));
    let mut p = Position::from_position_string(&s).unwrap();
    assert_eq!(p.counts(), [1, 45]);
    assert!(legal(&p, "yield"));
    let mut v = Vec::new();
    p.generate_moves(&mut v);
    assert!(!v.contains(&Move::YIELD));
    play(&mut p, "Yield");
    assert_eq!(p.status(), Status::Won(Side::Second));
    let s = format!("{} blue - -", board_with(blue_top, &[("a1", "rT")]));
    let p = Position::from_position_string(&s).unwrap();
    assert_eq!(
        why(&p, "yield"),
        "yield: needs Red to control 41 or more squares"
    );
    let s = format!("{} red - -", board_with(blue_top, &[("e5", "rT")]));
    let p = Position::from_position_string(&s).unwrap();
    assert_eq!(p.counts(), [1, 44]);
    assert!(legal(&p, "yield"));
}

fn red_fifty(f: usize, r: usize) -> &'static str {
    if r < 5 || (r == 5 && f < 5) {
        if (f + r).is_multiple_of(2) {
            "rW"
        } else {
            "rO"
        }
    } else {
        checker(f, r)
    }
}

#[test]
fn fifty_one_squares_win() {
    let s = format!("{} red - -", board_with(red_fifty, &[]));
    let mut p = Position::from_position_string(&s).unwrap();
    assert_eq!(p.counts(), [50, 0]);
    assert_eq!(p.status(), Status::Ongoing);
    play(&mut p, "e6xf6");
    assert_eq!(p.status(), Status::Won(Side::First));
    let mut v = Vec::new();
    p.generate_moves(&mut v);
    assert!(v.is_empty());
    assert_eq!(p.count_moves(), 0);
    assert!(why(&p, "pass").contains("the game is over"));
    // Set up with 51: already over.
    let s = format!("{} red - -", board_with(red_fifty, &[("f6", "rW")]));
    let p = Position::from_position_string(&s).unwrap();
    assert_eq!(p.status(), Status::Won(Side::First));
}

fn all_w(f: usize, r: usize) -> &'static str {
    if r < 4 || (r == 4 && f < 5) {
        "rW"
    } else {
        "bW"
    }
}

#[test]
fn the_game_ends_when_neither_side_can_capture() {
    // Every tile shows W: nobody can capture. Red controls 41, Blue 40.
    let s = format!("{} blue - -", board_with(all_w, &[]));
    let p = Position::from_position_string(&s).unwrap();
    assert_eq!(p.status(), Status::Won(Side::First));
    assert!(listed(&p).is_empty());
    // Green i9 touches only Blue. Protected with Blue to move: Blue has no capture
    // and Red none either, so the game is over.
    let s = format!("{} blue - i9", board_with(all_w, &[("i9", "gH")]));
    let p = Position::from_position_string(&s).unwrap();
    assert_eq!(p.status(), Status::Won(Side::First));
    // Protected with Red to move: Red has no capture, but Blue would have one
    // (protection ignored for the side not to move), so Red passes and play goes on.
    let s = format!("{} red - i9", board_with(all_w, &[("i9", "gH")]));
    let p = Position::from_position_string(&s).unwrap();
    assert_eq!(p.status(), Status::Ongoing);
    assert!(listed(&p).contains(&"pass".to_string()));
    assert!(!listed(&p).iter().any(|t| t.contains('x')));
}

#[test]
fn the_turn_limit_ends_and_scores_the_game() {
    let mut p = Position::standard();
    assert_eq!(p.turn_limit(), 400);
    p.set_turn_limit(2);
    play(&mut p, "d3xd4");
    assert_eq!(p.status(), Status::Ongoing);
    play(&mut p, "d7xd6");
    assert_eq!(p.ply(), 2);
    assert_eq!(p.counts(), [28, 28]);
    assert_eq!(p.status(), Status::Draw);
    assert_eq!(p.count_moves(), 0);
    p.set_turn_limit(0);
    assert_eq!(p.status(), Status::Ongoing);
    p.set_turn_limit(3);
    play(&mut p, "e3xe4");
    assert_eq!(p.status(), Status::Won(Side::First));
}

#[test]
fn move_syntax_errors_quote_the_input() {
    let p = Position::standard();
    // Each malformed move says why, quoting what was typed.
    for (bad, reason) in [
        ("d3yd5", "not a REBUS move: a capture (d3xd5"),
        ("", "not a REBUS move"),
        ("K10", "not a REBUS move"),
        ("d3-d5", "not a REBUS move"),
        ("passs", "not a REBUS move"),
        ("d3x", "a square is missing"),
        (
            "j1xa2",
            "the attacker: j1 is off the 9x9 board (files a to i, ranks 1 to 9)",
        ),
        ("d3xj5", "j5 is off the 9x9 board"),
        ("D3Xd0", "d0 is off the 9x9 board"),
        ("d3xd5+", "the nomination: a square is missing"),
        ("d3xd5+c2+c3", "the nomination: 'c2+c3' is not a square"),
        ("c3L4", "a lock is a 2x2 or 3x3 block (c3L2, c3L3), not '4'"),
        ("z1L2", "z1 is off the 9x9 board"),
        ("d3xé5", "not a REBUS move"),
    ] {
        match p.parse_move(bad) {
            Err(MoveError::Syntax(m)) => {
                assert!(
                    m.starts_with(&format!("could not parse move '{bad}': ")),
                    "{m}"
                );
                assert!(m.contains(reason), "{bad}: {m}");
            }
            other => panic!("{bad}: {other:?}"),
        }
    }
    assert!(why(&p, "d4xd5").contains("d4 is not Red's"));
    assert!(why(&p, "d3xd6").contains("d3 cannot reach d6"));
    assert!(why(&p, "d3xe3").contains("e3 is Red's"));
    assert_eq!(
        p.format_move(p.parse_move(" D3XD5+C2 ").unwrap()),
        "d3xd5+c2"
    );
}
