//! Opening books: order and start, and `arena book`, whose books the arena
//! then plays.

use std::process::Command;

use crate::common::*;
use serde_json::Value;

fn openings_of(s: &Value) -> Vec<(u64, String)> {
    let mut v: Vec<(u64, String)> = s["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| {
            let text = std::fs::read_to_string(g["record"].as_str().expect("path")).expect("rec");
            let moves: Vec<&str> = text
                .lines()
                .filter_map(|l| l.strip_suffix(" # opening"))
                .collect();
            (g["round"].as_u64().expect("round"), moves.join(" "))
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

fn play_book(name: &str, book: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "--size",
        "6",
        "--engine",
        "",
        "--engine",
        "",
        "--init",
        "a=level random",
        "--init",
        "b=level random",
        "--games",
        "6",
    ];
    let (a, b) = (engine("a", ""), engine("b", ""));
    args[3] = &a;
    args[5] = &b;
    let spec = format!("file={book}");
    args.push("--openings");
    args.push(&spec);
    args.extend_from_slice(extra);
    run_arena(name, &args).0
}

#[test]
fn order_and_start() {
    let dir = scratch("book-order");
    let book = dir.join("book.txt");
    std::fs::write(&book, "# three\nA1 F6 # first\nB2 E5\nC3 D4 # third\n").expect("book");
    let book = book.display().to_string();
    let s = play_book("book-seq", &book, &["start=2"]);
    assert_eq!(
        openings_of(&s),
        vec![
            (1, "B2 E5".to_string()),
            (2, "C3 D4".to_string()),
            (3, "A1 F6".to_string())
        ]
    );
    let r1 = openings_of(&play_book(
        "book-rnd1",
        &book,
        &["order=random", "--seed", "9"],
    ));
    let r2 = openings_of(&play_book(
        "book-rnd2",
        &book,
        &["order=random", "--seed", "9"],
    ));
    assert_eq!(r1, r2, "the seed fixes the order");
    let mut lines: Vec<String> = r1.iter().map(|(_, m)| m.clone()).collect();
    lines.sort();
    assert_eq!(
        lines,
        vec!["A1 F6", "B2 E5", "C3 D4"],
        "each opening once per cycle"
    );
    // A start past the end is refused, quoting it.
    let out = Command::new(ARENA)
        .args([
            "--size",
            "6",
            "--engine",
            "a=x",
            "--engine",
            "b=y",
            "--openings",
        ])
        .arg(format!("file={book}"))
        .arg("start=4")
        .output()
        .expect("arena runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("start=4"));
}

#[test]
fn generated_books_are_balanced_and_playable() {
    let dir = scratch("book-gen");
    let out_file = dir.join("gen.txt");
    let run = |max: &str| {
        Command::new(ARENA)
            .args([
                "book",
                "--game",
                "rekushu",
                "--size",
                "6",
                "--plies",
                "2",
                "--depth",
                "2",
                "--count",
                "3",
                "--candidates",
                "40",
                "--max-score",
                max,
                "--engine",
                ENGINE,
                "--init",
                "level hard",
                "--out",
            ])
            .arg(&out_file)
            .output()
            .expect("arena book runs")
    };
    let out = run("0.5");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&out_file).expect("book");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3, "{text}");
    for l in &lines {
        let (_, note) = l.split_once("# score ").expect("score note");
        let score: f64 = note
            .split_whitespace()
            .next()
            .expect("score")
            .parse()
            .expect("num");
        assert!(score.abs() <= 0.5, "{l}");
    }
    // The same command makes the same book.
    let again = run("0.5");
    assert!(again.status.success());
    assert_eq!(std::fs::read_to_string(&out_file).expect("book"), text);
    // And the arena plays it.
    let s = play_book("book-gen-play", &out_file.display().to_string(), &[]);
    assert_eq!(u(&s, "games_played"), 6);
    assert_eq!(openings_of(&s).len(), 3);
}

#[test]
fn rebus_books_hold_position_strings() {
    let dir = scratch("book-rebus");
    let out_file = dir.join("rebus.txt");
    let out = Command::new(ARENA)
        .args([
            "book",
            "--game",
            "rebus",
            "--plies",
            "1",
            "--depth",
            "1",
            "--count",
            "2",
            "--max-score",
            "81",
            "--engine",
            ENGINE,
            "--init",
            "level easy",
            "--out",
        ])
        .arg(&out_file)
        .output()
        .expect("arena book runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&out_file).expect("book");
    let list = arena::openings::read_openings(
        &out_file.display().to_string(),
        arena::openings::GameKind::Rebus,
    )
    .expect("the arena reads it");
    assert_eq!(list.len(), 2, "{text}");
}
