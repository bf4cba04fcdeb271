//! Adjudication, records and handshakes. Engines search to fixed depths (one
//! thread: deterministic), so their scores are known from the records; the
//! tests check every adjudicated game against the rule it names, using the
//! scores the record itself carries.

use crate::common::*;
use serde_json::Value;
use tessera::record::Record;

fn records(s: &Value) -> Vec<String> {
    s["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| std::fs::read_to_string(g["record"].as_str().expect("path")).expect("record"))
        .collect()
}

/// The mover's score of each engine move of a record (`None`: no score).
fn engine_scores(record: &Record) -> Vec<Option<f64>> {
    record
        .moves
        .iter()
        .filter(|m| m.comment.as_deref() != Some("opening"))
        .map(|m| arena::adjudication::parse_summary(m.comment.as_deref().unwrap_or("")).score)
        .collect()
}

fn depth_match(name: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "--game",
        "rekushu",
        "--size",
        "6",
        "--engine",
        "deep=",
        "--engine",
        "shallow=",
        "--init",
        "deep=level hard",
        "--init",
        "shallow=level hard",
        "--depth",
        "deep=3",
        "--depth",
        "shallow=1",
        "--games",
        "6",
        "--seed",
        "4",
    ];
    let deep = engine("deep", "");
    let shallow = engine("shallow", "");
    args[5] = &deep;
    args[7] = &shallow;
    args.extend_from_slice(extra);
    run_arena(name, &args).0
}

#[test]
fn resign_adjudication_follows_the_scores() {
    let s = depth_match("adj-resign", &["--resign", "movecount=2", "score=0.75"]);
    let mut adjudicated = 0;
    for text in records(&s) {
        let r = Record::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let reason = r.tags.reason.clone().unwrap_or_default();
        if !reason.starts_with("adjudication: resign") {
            continue;
        }
        adjudicated += 1;
        // The loser made the last move; its last two own moves scored -2 or less.
        let scores = engine_scores(&r);
        let n = scores.len();
        let loser: Vec<f64> = [n - 1, n - 3]
            .iter()
            .map(|&i| scores[i].expect("score"))
            .collect();
        assert!(loser.iter().all(|&v| v <= -0.75), "{loser:?}\n{text}");
        // The result is the other side's win: the loser moved last.
        let loser_first = (r.moves.len() - 1).is_multiple_of(2);
        let expected = if loser_first { "0-1" } else { "1-0" };
        assert_eq!(r.tags.result.text(), expected, "{text}");
        assert_eq!(reason.contains("black"), loser_first, "{reason}");
    }
    assert!(adjudicated > 0, "no game was adjudicated: {s}");
    let reasons = &s["pairings"][0]["reasons"];
    assert_eq!(
        reasons["adjudication resign"].as_u64(),
        Some(adjudicated),
        "{s}"
    );
}

#[test]
fn draw_adjudication_and_records_worth_analysing() {
    // Every score is within ±100 tiles: drawn after one move each from ply 4 on.
    let s = depth_match(
        "adj-draw",
        &["--draw", "movenumber=4", "movecount=1", "score=100"],
    );
    for text in records(&s) {
        let (r, replay) = Record::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(r.tags.result.text(), "1/2-1/2", "{text}");
        assert!(
            r.tags
                .reason
                .as_deref()
                .is_some_and(|x| x.starts_with("adjudication: draw")),
            "{text}"
        );
        // 4 opening moves and 4 engine moves, unless the game ended first.
        assert_eq!(r.moves.len(), 8, "{text}");
        // Every engine move carries depth, score, nodes, time and the wall time.
        for m in r.moves.iter().skip(4) {
            let c = m.comment.as_deref().expect("a comment");
            let info = arena::adjudication::parse_summary(c);
            assert!(
                info.depth.is_some() && info.score.is_some() && info.nodes.is_some(),
                "{c}"
            );
            assert!(info.time_ms.is_some() && c.contains(" wall "), "{c}");
        }
        // tessera analyze reads the record as it is.
        let options = tessera::analysis::Options {
            budget: tessera::analysis::Budget::Depth(1),
            ..Default::default()
        };
        let a = tessera::analysis::analyze(&replay, &options, &mut |_, _| {});
        assert_eq!(a.moves.len(), 8);
    }
}

#[test]
fn adjudication_options_are_checked() {
    for (opt, bad, quoted) in [
        ("--resign", "movecount=two", "'two'"),
        ("--draw", "score=-3", "'-3'"),
        ("--resign", "moves=3", "'moves'"),
    ] {
        let out = std::process::Command::new(ARENA)
            .args(["--engine", "a=x", "--engine", "b=y", opt, bad, "score=1"])
            .output()
            .expect("arena runs");
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(quoted), "{err}");
    }
}

#[test]
fn a_failed_handshake_loses_and_latency_is_reported() {
    let good = engine("good", "");
    let deaf = engine("deaf", "deaf 0");
    let (s, table) = run_arena(
        "handshake",
        &[
            "--size",
            "6",
            "--engine",
            &good,
            "--engine",
            &deaf,
            "--init",
            "good=level random",
            "--games",
            "2",
            "--handshake-timeout",
            // Long enough for a fresh engine on a loaded machine (its table
            // is allocated before it answers); the deaf one never answers.
            "3",
        ],
    );
    for g in s["games"].as_array().expect("games") {
        assert_eq!(g["fault"], "deaf", "{g}");
        let reason = g["reason"].as_str().expect("reason");
        assert!(
            reason.starts_with("handshake: no handshake within 3000 ms"),
            "{g}"
        );
    }
    // The good engine's id and handshake are known; the table shows them.
    let e = &s["engines"][0];
    assert_eq!(e["id"], "tessera 0.2.0", "{e}");
    assert!(e["latency"]["mean_handshake_ms"].is_number(), "{e}");
    assert!(table.contains("id tessera 0.2.0; handshake"), "{table}");
}
