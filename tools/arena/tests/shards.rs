//! Shards and merge: the shards of a match, merged, are the unsharded match,
//! game for game; shards never split a pair; merges of different matches or
//! of overlapping inputs are refused. The engines are `level random` with
//! fixed seeds, whose moves depend only on the seed and the position, so the
//! same game index gives the same game in any run.

use std::process::Command;

use crate::common::*;
use serde_json::Value;

fn base_args(seed2: &str) -> Vec<String> {
    [
        "--game",
        "rekushu",
        "--size",
        "6",
        "--engine",
        &engine("r1", ""),
        "--engine",
        &engine("r2", ""),
        "--init",
        "r1=level random",
        "--init",
        "r2=level random",
        "--init",
        &format!("r2=setoption seed {seed2}"),
        "--games",
        "14",
        "--seed",
        "21",
        // An SPRT that cannot stop this match: its LLR is compared, not its verdict.
        "--sprt",
        "elo0=0",
        "elo1=50",
        "--sprt-min-pairs",
        "1000",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn run(name: &str, args: &[String]) -> (Value, String) {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    run_arena(name, &a)
}

/// What must agree between the merged shards and the whole run, per game.
fn games(s: &Value) -> Vec<String> {
    s["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| {
            format!(
                "{} r{} {} {} {} {} {} {}",
                g["index"],
                g["round"],
                g["first"],
                g["second"],
                g["result"],
                g["reason"],
                g["plies"],
                g["score"]
            )
        })
        .collect()
}

fn pairing(s: &Value) -> Value {
    let p = &s["pairings"][0];
    serde_json::json!({
        "games": p["games"], "wins": p["wins"], "losses": p["losses"], "draws": p["draws"],
        "pentanomial": p["pentanomial"], "reasons": p["reasons"], "faults": p["faults"],
        "score": p["score"], "elo": p["elo"], "los": p["los"],
    })
}

#[test]
fn merged_shards_are_the_unsharded_match() {
    let (whole, whole_table) = run("shard-whole", &base_args("3"));
    assert_eq!(u(&whole, "games_played"), 14, "{whole}");
    let dir = scratch("shard-merge");
    let mut files = Vec::new();
    let mut rounds_seen = std::collections::BTreeMap::new();
    for i in 1..=3 {
        let mut args = base_args("3");
        args.extend(["--shard".to_string(), format!("{i}/3")]);
        let name = format!("shard-{i}");
        let (s, table) = run(&name, &args);
        assert_eq!(s["shard"], format!("{i}/3"));
        assert!(table.contains(&format!("(shard {i}/3)")), "{table}");
        // Each round (opening) belongs to one shard only: no pair is split.
        for g in s["games"].as_array().expect("games") {
            let round = u(g, "round");
            let owner = rounds_seen.entry(round).or_insert(i);
            assert_eq!(*owner, i, "round {round} in two shards");
        }
        let file = dir.join(format!("s{i}.json"));
        std::fs::write(&file, s.to_string()).expect("shard json");
        files.push(file);
    }
    assert_eq!(rounds_seen.len(), 7, "7 rounds of 2 games: {rounds_seen:?}");
    let merged_json = dir.join("merged.json");
    let out = Command::new(ARENA)
        .arg("merge")
        .args(&files)
        .arg("--json")
        .arg(&merged_json)
        .output()
        .expect("arena merge runs");
    let table = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged: Value =
        serde_json::from_str(&std::fs::read_to_string(&merged_json).expect("merged"))
            .expect("json");
    assert_eq!(games(&merged), games(&whole));
    assert_eq!(pairing(&merged), pairing(&whole));
    assert_eq!(merged["sprt"]["llr"], whole["sprt"]["llr"], "{merged}");
    assert_eq!(u(&merged, "games_played"), 14);
    // The same table but for the first line (shards named) and the latencies.
    let body = |t: &str| -> Vec<String> {
        t.lines()
            .skip(1)
            .filter(|l| !l.trim_start().starts_with("id "))
            .map(String::from)
            .collect()
    };
    assert_eq!(
        body(&table),
        body(&whole_table),
        "{table}\n---\n{whole_table}"
    );
    assert!(table.contains("merged: shards 1/3, 2/3, 3/3"), "{table}");

    // The same shard twice overlaps.
    let out = Command::new(ARENA)
        .arg("merge")
        .arg(&files[0])
        .arg(&files[0])
        .output()
        .expect("arena merge runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("overlap"), "{err}");

    // A shard of another match (another engine seed) is refused, naming it.
    let mut args = base_args("4");
    args.extend(["--shard".to_string(), "2/3".to_string()]);
    let (other, _) = run("shard-other", &args);
    let other_file = dir.join("other.json");
    std::fs::write(&other_file, other.to_string()).expect("json");
    let out = Command::new(ARENA)
        .arg("merge")
        .arg(&files[0])
        .arg(&other_file)
        .output()
        .expect("arena merge runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not a shard of the same match") && err.contains("setoption seed 4"),
        "{err}"
    );

    // A partial merge says what is missing, and still adds up.
    let out = Command::new(ARENA)
        .arg("merge")
        .arg(&files[0])
        .arg(&files[2])
        .output()
        .expect("arena merge runs");
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("2 of 3 shards merged, 1 missing"), "{err}");

    // Not a summary at all.
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"hello\": 1}").expect("junk");
    let out = Command::new(ARENA)
        .arg("merge")
        .arg(&junk)
        .output()
        .expect("arena merge runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("junk.json"));
}

#[test]
fn bad_shards_are_refused() {
    let dir = scratch("shard-bad-spec");
    let (state, json) = (dir.join("s.state"), dir.join("s.json"));
    for bad in ["0/3", "4/3", "two/3", "0/4", "5/4", "1/0", "3"] {
        let mut args = base_args("3");
        args.extend(["--shard".to_string(), bad.to_string()]);
        let out = Command::new(ARENA)
            .args(&args)
            .arg("--state")
            .arg(&state)
            .arg("--json")
            .arg(&json)
            .output()
            .expect("arena runs");
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("--shard '{bad}'")), "{err}");
        assert!(
            !state.exists() && !json.exists(),
            "{bad}: a file was written"
        );
    }
    // A shard of a match of unknown size is refused.
    let out = Command::new(ARENA)
        .args(["--engine", "a=x", "--engine", "b=y", "--shard", "1/2"])
        .output()
        .expect("arena runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs --games"));
}

/// Inputs that are not the finished shards of one match: each refused with
/// exit status 2, the file named, and no merged summary written.
#[test]
fn bad_merge_inputs_are_refused_and_nothing_is_written() {
    let dir = scratch("shard-bad-merge");
    let mut files = Vec::new();
    for i in 1..=2 {
        let mut args = base_args("3");
        args.extend(["--shard".to_string(), format!("{i}/2")]);
        let (s, _) = run(&format!("shard-bad-merge-{i}"), &args);
        let file = dir.join(format!("shard-{i}.json"));
        std::fs::write(&file, serde_json::to_string_pretty(&s).expect("json")).expect("write");
        files.push(file);
    }
    let mut other_args = base_args("4");
    other_args.extend(["--shard".to_string(), "2/2".to_string()]);
    let (other, _) = run("shard-bad-merge-other", &other_args);
    let other_file = dir.join("other-match.json");
    std::fs::write(&other_file, other.to_string()).expect("write");
    let missing = dir.join("shard-9.json");
    let text = std::fs::read_to_string(&files[1]).expect("shard 2");
    let truncated = dir.join("truncated.json");
    std::fs::write(&truncated, &text[..text.len() / 2]).expect("write");
    let garbled = dir.join("garbled.json");
    std::fs::write(&garbled, text.replacen("\"games\"", "\"gmaes\"", 1)).expect("write");

    let merged = dir.join("merged.json");
    let cases: [(&std::path::Path, &[&str]); 4] = [
        (&missing, &["cannot read", "shard-9.json"]),
        (&truncated, &["truncated.json", "not an arena summary"]),
        (&garbled, &["garbled.json", "games"]),
        (
            &other_file,
            &[
                "other-match.json",
                "not a shard of the same match",
                "setoption seed 4",
            ],
        ),
    ];
    for (bad, wanted) in cases {
        let out = Command::new(ARENA)
            .arg("merge")
            .arg(&files[0])
            .arg(bad)
            .arg("--json")
            .arg(&merged)
            .output()
            .expect("arena merge runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {err}", bad.display());
        for w in wanted {
            assert!(err.contains(w), "{}: '{w}' not in: {err}", bad.display());
        }
        assert!(
            out.stdout.is_empty(),
            "a table was printed for {}",
            bad.display()
        );
        assert!(!merged.exists(), "{}: a merge was written", bad.display());
    }
    // A state file is of one shard: another shard's run refuses it, and
    // leaves it as it was.
    let state = dir.join("shard-1.state");
    let mut args = base_args("3");
    args.extend(["--shard".to_string(), "1/2".to_string()]);
    let out = Command::new(ARENA)
        .args(&args)
        .arg("--state")
        .arg(&state)
        .arg("--quiet")
        .output()
        .expect("arena runs");
    assert!(out.status.success());
    let before = std::fs::read_to_string(&state).expect("state");
    let mut args = base_args("3");
    args.extend(["--shard".to_string(), "2/2".to_string()]);
    let out = Command::new(ARENA)
        .args(&args)
        .arg("--state")
        .arg(&state)
        .arg("--json")
        .arg(&merged)
        .output()
        .expect("arena runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("shard-1.state") && err.contains("is of shard 1/2, not 2/2"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&state).expect("state"), before);
    assert!(!merged.exists());

    // The good pair merges, and no temporary file is left beside the result.
    let out = Command::new(ARENA)
        .arg("merge")
        .args(&files)
        .arg("--json")
        .arg(&merged)
        .output()
        .expect("arena merge runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(merged.exists() && !dir.join("merged.json.tmp").exists());
}
