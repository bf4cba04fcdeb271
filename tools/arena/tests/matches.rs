//! Tiny real matches: `level random` against itself on both games, two games
//! at a time; the summary adds up, nothing misbehaves, and every record
//! replays legally under the rules.

use crate::common::*;
use serde_json::Value;
use tessera::core::{Game, Notation, Status};
use tessera::games::rebus::Position;
use tessera::games::rekushu::Board;

fn check_summary(s: &Value, games: u64) {
    assert_eq!(u(s, "games_played"), games, "{s}");
    assert_eq!(u(s, "faults"), 0, "{s}");
    assert_eq!(u(s, "arena_errors"), 0, "{s}");
    let p = &s["pairings"][0];
    assert_eq!(u(p, "wins") + u(p, "losses") + u(p, "draws"), games);
    let penta: u64 = p["pentanomial"]
        .as_array()
        .expect("pentanomial")
        .iter()
        .filter_map(Value::as_u64)
        .sum();
    assert_eq!(penta, games / 2, "every pair complete: {p}");
    let games_list = s["games"].as_array().expect("games");
    assert_eq!(games_list.len() as u64, games);
    for g in games_list {
        assert!(g["fault"].is_null(), "{g}");
    }
}

/// Replays a record's moves with the rules, from `start`; returns the final status.
fn replay<G: Notation>(mut pos: G, record: &str) -> (G, usize) {
    let mut plies = 0;
    for line in record.lines().skip_while(|l| !l.is_empty()).skip(1) {
        let text = line.split('#').next().unwrap_or("").trim();
        let mv = pos
            .parse_move(text)
            .unwrap_or_else(|e| panic!("record move '{text}': {e}"));
        pos.make_move(mv);
        plies += 1;
    }
    (pos, plies)
}

fn tag<'a>(record: &'a str, name: &str) -> &'a str {
    let prefix = format!("[{name} \"");
    record
        .lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .and_then(|l| l.strip_suffix("\"]"))
        .unwrap_or_else(|| panic!("tag {name} in {record}"))
}

fn records(s: &Value) -> Vec<String> {
    s["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| {
            std::fs::read_to_string(g["record"].as_str().expect("record path")).expect("record")
        })
        .collect()
}

#[test]
fn random_vs_random_rebus() {
    let (s, table) = run_arena(
        "match-rebus",
        &[
            "--game",
            "rebus",
            "--engine",
            &engine("r1", ""),
            "--engine",
            &engine("r2", ""),
            "--init",
            "r1=level random",
            "--init",
            "r2=level random",
            "--init",
            "r2=setoption seed 99",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--seed",
            "5",
        ],
    );
    check_summary(&s, 4);
    assert!(table.contains("r1 vs r2"), "{table}");
    for r in records(&s) {
        assert_eq!(tag(&r, "Game"), "rebus");
        let start = Position::from_position_string(tag(&r, "Start")).expect("start position");
        let (end, plies) = replay(start, &r);
        assert_eq!(plies.to_string(), tag(&r, "Plies"));
        assert_ne!(end.status(), Status::Ongoing, "the game ended by the rules");
        let result = tag(&r, "Result");
        let expected = match end.status() {
            Status::Won(tessera::core::Side::First) => "1-0",
            Status::Won(_) => "0-1",
            _ => "1/2-1/2",
        };
        assert_eq!(result, expected, "{r}");
    }
    // Both deals of a pair are the same, and the two pairs differ.
    let starts: Vec<String> = records(&s)
        .iter()
        .map(|r| tag(r, "Start").to_string())
        .collect();
    assert_eq!(starts[0], starts[1]);
    assert_ne!(starts[0], starts[2]);
}

#[test]
fn random_vs_random_rekushu() {
    let (s, _) = run_arena(
        "match-rekushu",
        &[
            "--game",
            "rekushu",
            "--size",
            "8",
            "--engine",
            &engine("r1", ""),
            "--engine",
            &engine("r2", ""),
            "--init",
            "r1=level random",
            "--init",
            "r2=level random",
            "--init",
            "r2=setoption seed 7",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--opening-plies",
            "4",
            "--movetime",
            "0.5",
        ],
    );
    check_summary(&s, 4);
    assert_eq!(s["size"].as_u64(), Some(8));
    let mut comments = 0;
    for r in records(&s) {
        assert_eq!(tag(&r, "Size"), "8");
        let openings = r.lines().filter(|l| l.ends_with("# opening")).count();
        assert_eq!(openings, 4, "{r}");
        let (end, _) = replay(Board::new(8).expect("8x8"), &r);
        assert_ne!(end.status(), Status::Ongoing, "{r}");
        assert_eq!(tag(&r, "Reason"), "no-placement");
        // The engines' stderr summaries, when they arrive in time, are the
        // random level's own ("random"), never another move's.
        for line in r
            .lines()
            .filter(|l| l.contains('#') && !l.ends_with("# opening"))
        {
            assert!(line.contains(" # random wall "), "{line}");
        }
        comments += r.lines().filter(|l| l.contains(" # random wall ")).count();
        // The first move an engine chose has its summary too (the arena waits
        // for it even before it knows that the engine writes them).
        let first_engine_move = r
            .lines()
            .skip_while(|l| !l.is_empty())
            .skip(1)
            .find(|l| !l.ends_with("# opening"));
        if let Some(line) = first_engine_move {
            assert!(line.contains(" # random wall "), "{r}");
        }
        // The record reads back with the library's strict parser.
        let parsed = tessera::record::Record::parse(&r).unwrap_or_else(|e| panic!("{e}\n{r}"));
        assert_eq!(parsed.tags.other[0].0, "Round");
    }
    assert!(comments > 0, "no engine summary was recorded");
}

#[test]
fn sprt_stops_a_lopsided_match() {
    // UCT with 300 playouts a move against random play on 6x6: deterministic
    // (playout budgets and seeds, one game at a time), and lopsided enough for
    // the SPRT to accept H1 long before the 100-game cap.
    let (s, table) = run_arena(
        "match-sprt",
        &[
            "--game",
            "rekushu",
            "--size",
            "6",
            "--engine",
            &engine("uct", ""),
            "--engine",
            &engine("random", ""),
            "--init",
            "uct=level uct",
            "--init",
            "random=level random",
            "--nodes",
            "uct=300",
            "--games",
            "100",
            "--sprt",
            "elo0=0",
            "elo1=50",
            "alpha=0.05",
            "beta=0.05",
        ],
    );
    let sprt = &s["sprt"];
    assert_eq!(sprt["result"], "h1", "{s}");
    assert!(sprt["llr"].as_f64().expect("llr") >= sprt["upper"].as_f64().expect("upper"));
    let played = u(&s, "games_played");
    // Not before 10 pairs (--sprt-min-pairs), soon after; games already under
    // way when the SPRT decides are finished and counted.
    assert!((20..=21).contains(&played), "{played}");
    // The decision that stopped it: the games counted then, its LLR.
    let decided = &sprt["decided"];
    assert_eq!(decided["result"], "h1", "{s}");
    assert!(decided["llr"].as_f64().expect("llr") >= sprt["upper"].as_f64().expect("upper"));
    assert!((20..=played).contains(&u(decided, "games")), "{s}");
    assert_eq!(u(&s, "faults"), 0);
    assert!(table.contains("H1 accepted"), "{table}");
    assert!(s["engines"][0]["tc"] == "nodes 300", "{s}");
}

#[test]
fn openings_file_max_plies_and_round_robin() {
    let dir = scratch("openings-input");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "# two lines\nd4 e5\n\na1 h8 b2\n").expect("openings file");
    let file = file.display().to_string();
    let (s, table) = run_arena(
        "match-round-robin",
        &[
            "--game",
            "rekushu",
            "--size",
            "8",
            "--engine",
            &engine("a", ""),
            "--engine",
            &engine("b", ""),
            "--engine",
            &engine("c", ""),
            "--init",
            "a=level random",
            "--init",
            "b=level random",
            "--init",
            "c=level random",
            "--format",
            "round-robin",
            "--games",
            "4",
            "--openings",
            &file,
            "--max-plies",
            "3",
            "--concurrency",
            "2",
        ],
    );
    // Three pairings of four games each, every game adjudicated after 3 plies.
    assert_eq!(u(&s, "games_played"), 12, "{s}");
    let pairs: Vec<(String, String)> = s["pairings"]
        .as_array()
        .expect("pairings")
        .iter()
        .map(|p| (p["a"].to_string(), p["b"].to_string()))
        .collect();
    assert_eq!(pairs.len(), 3, "{pairs:?}");
    assert!(table.contains("a vs b") && table.contains("a vs c") && table.contains("b vs c"));
    for p in s["pairings"].as_array().expect("pairings") {
        assert_eq!(u(p, "draws"), 4, "{p}");
        assert_eq!(p["pentanomial"][2].as_u64(), Some(2), "two DD pairs: {p}");
    }
    for r in records(&s) {
        assert_eq!(tag(&r, "Reason"), "max-plies");
        assert_eq!(tag(&r, "Result"), "1/2-1/2");
        let moves: Vec<&str> = r.lines().skip_while(|l| !l.is_empty()).skip(1).collect();
        let opening: Vec<&str> = moves
            .iter()
            .filter(|l| l.ends_with("# opening"))
            .copied()
            .collect();
        let round: u64 = tag(&r, "Round").parse().expect("round");
        let expected = if round % 2 == 1 {
            vec!["D4 # opening", "E5 # opening"]
        } else {
            vec!["A1 # opening", "H8 # opening", "B2 # opening"]
        };
        assert_eq!(opening, expected, "{r}");
        assert_eq!(moves.len(), expected.len() + 3, "{r}");
    }
    // A bad openings file is refused before any game, quoting the move.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "d4 d4\n").expect("bad file");
    let out = std::process::Command::new(ARENA)
        .args([
            "--size",
            "8",
            "--engine",
            "a=x",
            "--engine",
            "b=y",
            "--openings",
        ])
        .arg(&bad)
        .output()
        .expect("arena runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("'d4'"));
}
