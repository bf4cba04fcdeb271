//! `tessera analyze`: a short game of each game analysed at a small depth; the
//! deliberately terrible move is the one marked worst; JSON lines parse, one
//! per move; the table has a line per move; bad input exits with status 2.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;
use tessera::analysis::{Budget, Options, analyze};
use tessera::protocol::Engine;
use tessera::record::Record;

const TESSERA: &str = env!("CARGO_BIN_EXE_tessera");

use crate::common;

fn scratch(name: &str) -> PathBuf {
    common::scratch("analysis", name)
}

/// 6x6: Black builds three corners of A1-D4; White's sixth move (E6) ignores
/// the fourth, and Black claims nine tiles at once.
const REKUSHU_BLUNDER: &str = "[Game \"rekushu\"]\n[Size \"6\"]\n[First \"?\"]\n[Second \"?\"]\n\
    [Result \"*\"]\n[Date \"2026-01-15\"]\n\nA1\nF6\nD1\nF5\nA4\nE6 # the blunder\n\
    D4:A1-D4\nF4\n";

/// REBUS: Red controls 50 squares, so any capture wins at once (51); Red
/// locks a1 instead (move 1), then each side plays the engine's choice at
/// depth 1.
fn rebus_blunder(dir: &std::path::Path) -> PathBuf {
    let red = "rWrPrTrOrQrGrJrKrW";
    let blue = "bWbPbTbObQbGbJbKbW";
    let mut e = Engine::new();
    let ok = |e: &mut Engine, line: &str| {
        let r = e.handle_line(line).unwrap_or_default();
        assert!(r.starts_with('='), "{line}: {r}");
        r.trim_start_matches('=').trim().to_string()
    };
    ok(&mut e, "game rebus");
    ok(
        &mut e,
        &format!(
            "setup {blue}/{blue}/{blue}/rWrPrTrOrQgHgFgXgH/{red}/{red}/{red}/{red}/{red} red - -"
        ),
    );
    ok(&mut e, "play red a1L2");
    ok(&mut e, "limit depth 1");
    ok(&mut e, "genmove blue");
    ok(&mut e, "genmove red");
    let path = dir.join("rebus blunder.txt");
    ok(&mut e, &format!("savegame {}", path.display()));
    path
}

fn depth(d: u32) -> Options {
    Options {
        budget: Budget::Depth(d),
        ..Options::default()
    }
}

#[test]
fn the_rekushu_blunder_is_the_worst_move() {
    let (_, replay) = Record::read(REKUSHU_BLUNDER).expect("a legal record");
    let mut calls = Vec::new();
    let a = analyze(&replay, &depth(3), &mut |done, total| {
        calls.push((done, total))
    });
    assert_eq!(a.moves.len(), 8);
    assert_eq!(calls.last(), Some(&(8, 8)));
    let worst = a.worst().expect("a worst move");
    assert_eq!((worst.number, worst.played.as_str()), (6, "E6"), "{a:?}");
    assert_eq!(worst.mark, "??");
    assert!(worst.loss >= 5.0, "nine tiles given away: {worst:?}");
    assert_eq!(worst.side, "white");
    // Black's claim was the best move: no loss, before = after.
    let claim = &a.moves[6];
    assert_eq!(claim.best.as_deref(), Some("D4:A1-D4"));
    assert_eq!(
        (claim.loss, claim.before.as_str()),
        (0.0, claim.after.as_str())
    );
    // The fixed view is Black's: White's move shows the mover's score negated.
    assert_eq!(
        worst.after_first.trim_start_matches('+'),
        worst.after.trim_start_matches('-')
    );
    // The same analysis twice (one thread, fixed depth): the same numbers.
    let again = analyze(&replay, &depth(3), &mut |_, _| {});
    assert_eq!(again, a);
}

#[test]
fn the_rebus_blunder_is_the_worst_move() {
    let dir = scratch("rebus-lib");
    let path = rebus_blunder(&dir);
    let (_, replay) =
        Record::read(&std::fs::read_to_string(&path).expect("saved")).expect("parses");
    let a = analyze(&replay, &depth(1), &mut |_, _| {});
    assert_eq!(a.moves.len(), 3);
    let first = &a.moves[0];
    assert_eq!(first.played, "a1L2");
    assert!(
        first.before.starts_with('W'),
        "a capture wins at once: {first:?}"
    );
    assert!(!first.after.starts_with('W'), "{first:?}");
    assert_eq!(first.mark, "??");
    assert_eq!(a.worst().map(|m| m.number), Some(1));
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(TESSERA)
        .args(args)
        .output()
        .expect("tessera runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn json_lines_and_the_table_from_the_command_line() {
    let dir = scratch("cli");
    let rekushu = dir.join("rekushu.txt");
    std::fs::write(&rekushu, REKUSHU_BLUNDER).expect("written");
    let rebus = rebus_blunder(&dir);
    for (path, moves, worst, d) in [(&rekushu, 8, 6, "3"), (&rebus, 3, 1, "1")] {
        let path = path.display().to_string();
        let (code, out, err) = run(&["analyze", &path, "--depth", d, "--json"]);
        assert_eq!(code, Some(0), "{err}");
        // No progress when stderr is not a terminal.
        assert!(err.is_empty(), "{err}");
        let rows: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect();
        assert_eq!(rows.len(), moves, "{out}");
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(r["move"].as_u64(), Some(i as u64 + 1));
            for key in [
                "side",
                "played",
                "before",
                "after",
                "before_first",
                "after_first",
                "mark",
            ] {
                assert!(r[key].is_string(), "{key} in {r}");
            }
            assert!(r["loss"].as_f64().is_some_and(|l| l >= 0.0), "{r}");
        }
        let max = rows
            .iter()
            .max_by(|a, b| {
                a["loss"]
                    .as_f64()
                    .partial_cmp(&b["loss"].as_f64())
                    .expect("numbers")
            })
            .expect("rows");
        assert_eq!(max["move"].as_u64(), Some(worst), "{out}");
        assert_eq!(max["mark"], "??");

        let (code, table, _) = run(&["analyze", &path, "--depth", d]);
        assert_eq!(code, Some(0));
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[0].starts_with("move  side"), "{table}");
        for (i, r) in rows.iter().enumerate() {
            let line = lines[i + 1];
            let played = r["played"].as_str().expect("played");
            assert!(
                line.trim_start().starts_with(&format!("{}  ", i + 1)) && line.contains(played),
                "{line}"
            );
        }
        assert_eq!(
            lines.len(),
            moves + 3,
            "header, moves, two summary lines:\n{table}"
        );
    }
}

#[test]
fn bad_input_exits_with_status_2() {
    let dir = scratch("bad");
    let illegal = dir.join("illegal.txt");
    std::fs::write(&illegal, REKUSHU_BLUNDER.replace("\nD1\n", "\nA1\n")).expect("written");
    let missing = dir.join("missing.txt");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec![missing.display().to_string()], "cannot read"),
        (
            vec![illegal.display().to_string()],
            "move 3 'A1' (line 10): illegal move: A1 is occupied",
        ),
        (
            vec![
                illegal.display().to_string(),
                "--level".into(),
                "grand".into(),
            ],
            "could not parse level 'grand'",
        ),
        (
            vec![illegal.display().to_string(), "--depth".into(), "0".into()],
            "--depth 0",
        ),
        (
            vec![illegal.display().to_string(), "--time".into(), "0".into()],
            "--time 0",
        ),
        (
            vec![
                illegal.display().to_string(),
                "--depth".into(),
                "2".into(),
                "--time".into(),
                "1".into(),
            ],
            "cannot be used with",
        ),
    ];
    for (args, want) in cases {
        let mut all = vec!["analyze"];
        all.extend(args.iter().map(String::as_str));
        let (code, out, err) = run(&all);
        assert_eq!(code, Some(2), "{all:?}: {err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains(want), "{all:?}: want '{want}', got {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
