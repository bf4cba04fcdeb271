//! `savegame` and `loadgame`: a game saved and loaded again is the same game
//! (the engine's fingerprint), in both games, with claims, chains, locks,
//! nominations, yield, resignation and undo; `loadgame <file> <n>` stops after
//! n moves; every error quotes its input and changes nothing.

use std::path::{Path, PathBuf};

use tessera::core::SplitMix64;
use tessera::protocol::Engine;
use tessera::record::Record;

use crate::common;
use common::{ok, run};

fn scratch(name: &str) -> PathBuf {
    common::scratch("protocol_records", name)
}

/// Saves `e`'s game, loads it into a fresh engine (which starts on another
/// game to prove the switch), and checks both engines agree, then that
/// `undo` takes back the same moves in both.
fn round_trip(e: &mut Engine, dir: &Path, name: &str) -> Engine {
    let path = dir.join(name);
    let path = path.display();
    ok(e, &format!("savegame {path}"));
    let mut f = Engine::new();
    let other = if ok(e, "game") == "rekushu" {
        "rebus"
    } else {
        "rekushu"
    };
    ok(&mut f, &format!("game {other}"));
    ok(&mut f, &format!("loadgame {path}"));
    assert_eq!(f.fingerprint(), e.fingerprint(), "after loadgame");
    for cmd in ["showboard", "game_status", "final_score", "list_moves"] {
        assert_eq!(ok(&mut f, cmd), ok(e, cmd), "{cmd}");
    }
    let mut g = Engine::new();
    ok(&mut g, &format!("loadgame {path}"));
    for _ in 0..3 {
        let a = run(e, "undo");
        let b = run(&mut g, "undo");
        assert_eq!(a, b);
        assert_eq!(e.fingerprint(), g.fingerprint(), "after undo");
    }
    f
}

#[test]
fn rekushu_games_with_claims_round_trip() {
    let dir = scratch("rekushu");
    let mut e = Engine::new();
    ok(&mut e, "boardsize 6");
    for (colour, mv) in [
        ("b", "A1"),
        ("w", "F6"),
        ("b", "B1"),
        ("w", "F5"),
        ("b", "A2"),
        ("w", "E6"),
        ("b", "B2:B1-A2"),
        ("w", "E5"),
    ] {
        ok(&mut e, &format!("play {colour} {mv}"));
    }
    // The second claim through the `claim` command.
    ok(&mut e, "claim w E5 F6");
    ok(&mut e, "play b C3");
    let text = std::fs::read_to_string({
        ok(
            &mut e,
            &format!("savegame {}", dir.join("peek.txt").display()),
        );
        dir.join("peek.txt")
    })
    .expect("saved");
    assert!(
        text.contains("\nB2:A1-B2\n") && text.contains("\nE5:E5-F6\n"),
        "{text}"
    );
    assert!(
        text.contains("[Result \"*\"]") && text.contains("[Score \"0\"]"),
        "{text}"
    );
    round_trip(&mut e, &dir, "game.txt");
}

#[test]
fn rekushu_finished_and_resigned_games_round_trip() {
    let dir = scratch("rekushu-end");
    // A whole 4x4 game by the engine, to its end by the rules.
    let mut e = Engine::new();
    ok(&mut e, "boardsize 4");
    ok(&mut e, "limit depth 2");
    while ok(&mut e, "game_status") == "ongoing" {
        let colour = if e.side_to_move_name() == "Black" {
            "b"
        } else {
            "w"
        };
        if ok(&mut e, &format!("genmove {colour}")) == "resign" {
            break;
        }
    }
    let saved = dir.join("end.txt");
    ok(&mut e, &format!("savegame {}", saved.display()));
    let r = Record::parse(&std::fs::read_to_string(&saved).expect("saved")).expect("parses");
    assert_ne!(r.tags.result.text(), "*");
    round_trip(&mut e, &dir, "end2.txt");

    // A resignation is not a move; the record's Reason keeps it.
    let resigned = dir.join("resigned.txt");
    std::fs::write(
        &resigned,
        "[Game \"rekushu\"]\n[Size \"6\"]\n[First \"a\"]\n[Second \"b\"]\n[Result \"0-1\"]\n\
         [Reason \"resign\"]\n[Date \"2026-01-01\"]\n\nA1\nF6\n",
    )
    .expect("written");
    let mut e = Engine::new();
    ok(&mut e, &format!("loadgame {}", resigned.display()));
    assert_eq!(ok(&mut e, "game_status"), "over W+R resign");
    round_trip(&mut e, &dir, "resigned2.txt");
    // Positioned before the end, the resignation has not happened yet.
    ok(&mut e, &format!("loadgame {} 1", resigned.display()));
    assert_eq!(ok(&mut e, "game_status"), "ongoing");
}

/// Plays `plies` moves of a REBUS game from `list_moves`: a lock, a chain and a
/// nomination as soon as one is legal (once each), otherwise a seeded pick.
fn play_rebus(e: &mut Engine, plies: usize, seed: u64) -> [bool; 3] {
    let mut rng = SplitMix64::new(seed);
    let mut seen = [false; 3];
    for _ in 0..plies {
        if ok(e, "game_status") != "ongoing" {
            break;
        }
        let list = ok(e, "list_moves");
        let moves: Vec<&str> = list.split(' ').collect();
        let kinds: [fn(&str) -> bool; 3] = [
            |m| m.contains('L'),
            |m| m.matches('x').count() >= 3 && !m.contains('+'),
            |m| m.contains('+'),
        ];
        let pick = (0..3)
            .find_map(|k| {
                (!seen[k])
                    .then(|| moves.iter().find(|m| kinds[k](m)))
                    .flatten()
                    .map(|m| (k, *m))
            })
            .map(|(k, m)| {
                seen[k] = true;
                m
            })
            .unwrap_or_else(|| moves[rng.below(moves.len() as u64) as usize]);
        let colour = e.side_to_move_name().to_ascii_lowercase();
        ok(e, &format!("play {colour} {pick}"));
    }
    seen
}

#[test]
fn rebus_games_with_chains_locks_and_nominations_round_trip() {
    let dir = scratch("rebus");
    let mut e = Engine::new();
    ok(&mut e, "game rebus");
    ok(&mut e, "turn_limit 90");
    ok(&mut e, "setup random 3");
    let seen = play_rebus(&mut e, 60, 3);
    assert_eq!(
        seen, [true; 3],
        "a lock, a chain and a nomination were played"
    );
    let f = round_trip(&mut e, &dir, "rebus.txt");
    assert!(f.fingerprint().contains("turn_limit=90"));
    // From the standard setup as well.
    let mut e = Engine::new();
    ok(&mut e, "game rebus");
    play_rebus(&mut e, 20, 9);
    round_trip(&mut e, &dir, "standard.txt");
}

#[test]
fn rebus_set_up_positions_and_yield_round_trip() {
    let dir = scratch("rebus-yield");
    // Blue holds 45 squares, Red 27: Red may yield.
    let blue = "bWbPbTbObQbGbJbKbW";
    let red = "rWrPrTrOrQrGrJrKrS";
    let position =
        format!("{blue}/{blue}/{blue}/{blue}/{blue}/gHgFgXgHgFgXgHgFgX/{red}/{red}/{red} red - -");
    let mut e = Engine::new();
    ok(&mut e, "game rebus");
    ok(&mut e, &format!("setup {position}"));
    play_rebus(&mut e, 2, 1);
    ok(&mut e, "play red yield");
    assert!(ok(&mut e, "game_status").ends_with("yield"));
    let mut f = round_trip(&mut e, &dir, "yield.txt");
    assert!(ok(&mut f, "game_status").ends_with("yield"));
}

#[test]
fn loadgame_stops_after_the_given_move() {
    let dir = scratch("partial");
    let mut e = Engine::new();
    ok(&mut e, "boardsize 6");
    let moves = ["A1", "F6", "B1", "F5", "A2", "E6", "B2:A1-B2"];
    let mut prints = vec![e.fingerprint()];
    for (i, mv) in moves.iter().enumerate() {
        ok(&mut e, &format!("play {} {mv}", ["b", "w"][i % 2]));
        prints.push(e.fingerprint());
    }
    // A path with spaces: the rest of the line, the last number the move.
    let sub = dir.join("with space");
    std::fs::create_dir_all(&sub).expect("folder");
    let path = sub.join("my game.txt");
    ok(&mut e, &format!("savegame {}", path.display()));
    for (n, print) in prints.iter().enumerate() {
        let mut f = Engine::new();
        ok(&mut f, &format!("loadgame {} {n}", path.display()));
        assert_eq!(&f.fingerprint(), print, "after {n} moves");
        ok(&mut f, &format!("loadgame \"{}\" {n}", path.display()));
        assert_eq!(&f.fingerprint(), print, "quoted, after {n} moves");
    }
    // Loaded after 3 moves, the game goes on from there.
    let mut f = Engine::new();
    ok(&mut f, &format!("loadgame {} 3", path.display()));
    ok(&mut f, "play w F5");
    assert_eq!(f.fingerprint(), prints[4]);
}

#[test]
fn loadgame_errors_quote_the_input_and_change_nothing() {
    let dir = scratch("errors");
    let write = |name: &str, text: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("written");
        p.display().to_string()
    };
    let good = write(
        "good.txt",
        b"[Game \"rekushu\"]\n[Size \"6\"]\n[First \"a\"]\n[Second \"b\"]\n[Result \"*\"]\n\
          [Date \"d\"]\n\nA1\nF6\n",
    );
    let illegal = write(
        "illegal.txt",
        b"[Game \"rekushu\"]\n[Size \"6\"]\n[First \"a\"]\n[Second \"b\"]\n[Result \"*\"]\n\
          [Date \"d\"]\n\nA1\nA1\n",
    );
    let bad_tag = write(
        "badtag.txt",
        b"[Game \"rekushu\"]\n[Size \"six\"]\n[First \"a\"]\n[Second \"b\"]\n[Result \"*\"]\n\
          [Date \"d\"]\n\nA1\n",
    );
    let binary = write("binary.txt", &[0xff, 0xfe, 0x00, 0x41]);
    let missing = dir.join("missing.txt").display().to_string();
    let folder = dir.display().to_string();
    let cases = [
        (
            "loadgame".to_string(),
            "? syntax error: usage: loadgame <file> [move number] (got nothing)",
        ),
        (format!("loadgame {missing}"), "No such file or directory"),
        (format!("loadgame {folder}"), "cannot read"),
        (format!("loadgame {binary}"), "not UTF-8 text"),
        (
            format!("loadgame {illegal}"),
            "move 2 'A1' (line 9): illegal move",
        ),
        (
            format!("loadgame {bad_tag}"),
            "line 2: not a Rekushu board size (4 to 26): '[Size \"six\"]'",
        ),
        (
            format!("loadgame {good} 3"),
            "move number '3' is out of range",
        ),
        (
            format!("loadgame {good} 99999999999999999999999"),
            "out of range",
        ),
        (
            format!("loadgame \"{good}\" x"),
            "'x' after the quoted file name is not a move number",
        ),
        (
            "savegame".to_string(),
            "? syntax error: usage: savegame <file> (got nothing)",
        ),
        (format!("savegame {folder}"), "savegame: cannot write"),
        (
            format!("savegame {missing}/x/y.txt"),
            "savegame: cannot write",
        ),
    ];
    for setup in ["boardsize 8", "game rebus"] {
        let mut e = Engine::new();
        ok(&mut e, setup);
        ok(&mut e, "limit depth 1");
        let colour = e.side_to_move_name().to_ascii_lowercase();
        ok(&mut e, &format!("genmove {colour}"));
        let before = e.fingerprint();
        for (cmd, want) in &cases {
            let reply = run(&mut e, cmd);
            assert!(reply.starts_with("? "), "`{cmd}`: {reply}");
            assert!(reply.contains(want), "`{cmd}`: want '{want}', got {reply}");
            let quoted_path = cmd.split(' ').nth(1).unwrap_or("");
            assert!(
                reply.contains(quoted_path.trim_matches('"')),
                "`{cmd}` quotes its input: {reply}"
            );
            assert_eq!(e.fingerprint(), before, "`{cmd}` changed the state");
        }
    }
}

#[test]
fn the_commands_are_in_the_table() {
    let mut e = Engine::new();
    let list = ok(&mut e, "list_commands");
    assert!(list.lines().any(|l| l == "savegame") && list.lines().any(|l| l == "loadgame"));
    assert_eq!(ok(&mut e, "known_command loadgame"), "true");
    assert!(ok(&mut e, "help savegame").starts_with("savegame <file> - "));
    assert!(ok(&mut e, "help loadgame").starts_with("loadgame <file> [move number] - "));
}
