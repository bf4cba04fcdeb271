//! Resuming: a match interrupted by SIGINT (as Ctrl-C sends it) leaves no
//! engine behind, exits 130 with its state file; the same command then plays
//! only the missing games, and the result is the uninterrupted match's, game
//! for game, each game counted once. The engines pace their moves (20 ms) so
//! that the interrupt lands mid-match; nothing here asserts a duration.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::Value;

const MARKER: &str = "resume-test-marker-5d1c";

fn args(state: &Path, json: &Path) -> Vec<String> {
    args_marked(state, json, MARKER)
}

/// The match, its engines' command lines holding `marker` (one per test that
/// looks for its engines, as the tests run at once).
fn args_marked(state: &Path, json: &Path, marker: &str) -> Vec<String> {
    let e1 = engine("p1", &format!("pace 20 {marker}"));
    let e2 = engine("p2", &format!("pace 20 {marker}"));
    let mut v: Vec<String> = [
        "--game",
        "rekushu",
        "--size",
        "6",
        "--engine",
        &e1,
        "--engine",
        &e2,
        "--init",
        "p1=level random",
        "--init",
        "p2=level random",
        "--init",
        "p2=setoption seed 8",
        "--games",
        "8",
        "--concurrency",
        "2",
        "--quiet",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.push("--state".into());
    v.push(state.display().to_string());
    v.push("--json".into());
    v.push(json.display().to_string());
    v
}

/// Processes whose command line holds the marker.
fn marked_processes() -> Vec<String> {
    processes_with(MARKER)
}

/// Processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(dir) = std::fs::read_dir("/proc") {
        for e in dir.flatten() {
            if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
                let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
                if cmd.contains(marker) {
                    out.push(format!("{}: {cmd}", e.file_name().to_string_lossy()));
                }
            }
        }
    }
    out
}

fn results(s: &Value) -> Vec<String> {
    s["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| {
            format!(
                "{} {} {} {}",
                g["index"], g["result"], g["reason"], g["plies"]
            )
        })
        .collect()
}

fn state_games(path: &Path) -> Vec<u64> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .skip(1)
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|g| g["index"].as_u64())
        .collect()
}

/// Runs the arena with `args` to its end; asserts that it succeeded and
/// returns what it said on stderr.
fn run_ok(args: &[String]) -> String {
    let out = Command::new(ARENA).args(args).output().expect("arena runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    err
}

/// The JSON summary at `path`.
fn summary(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("summary written"))
        .expect("summary is JSON")
}

/// The state file at `path` holds each of the match's 8 games once.
fn assert_each_game_once(path: &Path) {
    let mut indices = state_games(path);
    indices.sort_unstable();
    assert_eq!(indices, (1..=8).collect::<Vec<u64>>(), "each game once");
}

/// The run whose summary is `json` and state file `state` finished as the
/// uninterrupted match `whole` did: each of its 8 games once, the same
/// results and the same pair counts.
fn assert_finished_as(json: &Path, state: &Path, whole: &Value) {
    let s = summary(json);
    assert_eq!(s["status"], "finished");
    assert_each_game_once(state);
    assert_eq!(results(&s), results(whole));
    assert_eq!(
        s["pairings"][0]["pentanomial"],
        whole["pairings"][0]["pentanomial"]
    );
}

#[test]
fn an_interrupted_match_resumes_without_loss_or_double_count() {
    let dir = scratch("resume");
    // The uninterrupted match.
    let whole_json = dir.join("whole.json");
    run_ok(&args(&dir.join("whole.state"), &whole_json));
    let whole = summary(&whole_json);

    // The same match, interrupted once two games are in the state file.
    let state = dir.join("run.state");
    let json = dir.join("run.json");
    let mut child = Command::new(ARENA)
        .args(args(&state, &json))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arena starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    while state_games(&state).len() < 2 {
        assert!(Instant::now() < deadline, "no games in the state file");
        assert!(
            child.try_wait().expect("wait").is_none(),
            "finished too soon"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let pid = child.id().to_string();
    let killed = Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .expect("kill");
    assert!(killed.success());
    let out = child.wait_with_output().expect("arena ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("resumes from"), "{err}");
    // An engine killed or told to quit may take a moment to be gone (one
    // still thinking ends its move first): allow it a few seconds.
    let gone_by = Instant::now() + Duration::from_secs(5);
    while !marked_processes().is_empty() && Instant::now() < gone_by {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        marked_processes().is_empty(),
        "engines left behind: {:?}",
        marked_processes()
    );
    let partial = state_games(&state);
    assert!(partial.len() < 8, "interrupted before the end: {partial:?}");
    let s = summary(&json);
    assert_eq!(s["status"], "interrupted");
    assert_eq!(u(&s, "games_played") as usize, partial.len());

    // Resumed: the rest is played, nothing twice.
    run_ok(&args(&state, &json));
    assert_finished_as(&json, &state, &whole);

    // Once finished, the same command plays nothing more.
    run_ok(&args(&state, &json));
    assert_eq!(state_games(&state).len(), 8);

    // A state file of another match is refused, naming the difference.
    let mut other = args(&state, &json);
    let g = other.iter().position(|a| a == "8").expect("--games 8");
    other[g] = "10".into();
    let out = Command::new(ARENA)
        .args(&other)
        .output()
        .expect("arena runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("of another match") && err.contains("games"),
        "{err}"
    );
}

#[test]
fn a_torn_last_line_is_played_again() {
    let dir = scratch("resume-torn");
    let state = dir.join("s.state");
    let json = dir.join("s.json");
    run_ok(&args(&state, &json));
    // Cut the file in the middle of its last game, as a power cut would.
    let text = std::fs::read_to_string(&state).expect("state");
    let cut = text.trim_end().rfind('\n').expect("lines") + 20;
    std::fs::write(&state, &text[..cut]).expect("cut");
    assert_eq!(state_games(&state).len(), 7);
    run_ok(&args(&state, &json));
    assert_each_game_once(&state);
}

/// Two SIGTERMs a moment apart (GNU parallel's remote wrapper sends its second
/// as soon as the shell around the arena dies) are one request: the arena
/// still writes its summary and says how to resume.
#[test]
fn two_sigterms_at_once_still_save_the_summary() {
    let dir = scratch("resume-two-terms");
    let state = dir.join("s.state");
    let json = dir.join("s.json");
    let marker = "resume-test-marker-two-terms-7a3e";
    let mut child = Command::new(ARENA)
        .args(args_marked(&state, &json, marker))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arena starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    while state_games(&state).is_empty() {
        assert!(Instant::now() < deadline, "no games in the state file");
        assert!(
            child.try_wait().expect("wait").is_none(),
            "finished too soon"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let pid = child.id() as libc::pid_t;
    // SAFETY: kill sends a signal to the child this test started.
    unsafe {
        assert_eq!(libc::kill(pid, libc::SIGTERM), 0);
        assert_eq!(libc::kill(pid, libc::SIGTERM), 0);
    }
    let out = child.wait_with_output().expect("arena ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("resumes from"), "{err}");
    let s = summary(&json);
    assert_eq!(s["status"], "interrupted");
    assert_eq!(u(&s, "games_played") as usize, state_games(&state).len());
    let gone_by = Instant::now() + Duration::from_secs(5);
    while !processes_with(marker).is_empty() && Instant::now() < gone_by {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        processes_with(marker).is_empty(),
        "{:?}",
        processes_with(marker)
    );
}

/// A run started without `--state` and interrupted is resumed by the same
/// command with a new `--state` file, which starts with the games of the
/// run's `--json` summary; a finished run's summary gives it none.
#[test]
fn a_run_without_a_state_file_resumes_from_its_summary() {
    let dir = scratch("resume-summary");
    let marker = "resume-test-marker-summary-4b9e";
    let whole_json = dir.join("whole.json");
    run_ok(&args_marked(&dir.join("whole.state"), &whole_json, marker));
    let whole = summary(&whole_json);

    // The same match without --state (and with its progress lines), stopped
    // by SIGINT once two games have ended.
    let state = dir.join("s.state");
    let json = dir.join("s.json");
    let stateless: Vec<String> = args_marked(&state, &json, marker)
        .into_iter()
        .filter(|a| a != "--quiet")
        .collect();
    let at = stateless
        .iter()
        .position(|a| a == "--state")
        .expect("--state");
    let stateless = [&stateless[..at], &stateless[at + 2..]].concat();
    let mut child = Command::new(ARENA)
        .args(&stateless)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arena starts");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut err = String::new();
    let mut ended = 0;
    while ended < 2 {
        let line = rx
            .recv_timeout(Duration::from_secs(120))
            .expect("two games end");
        ended += usize::from(line.starts_with("game "));
        err += &(line + "\n");
    }
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .expect("kill")
            .success()
    );
    let status = child.wait().expect("arena ends");
    reader.join().expect("reader");
    err.extend(rx.try_iter().map(|l| l + "\n"));
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(
        err.contains("the same command with --state FILE resumes"),
        "{err}"
    );
    assert!(!state.exists());
    let mut s = summary(&json);
    assert_eq!(s["status"], "interrupted");
    let played = u(&s, "games_played");
    assert!((2..8).contains(&played), "{err}");

    // Its games say in which order they ended (1 to `played`); a new state
    // file takes them in that order. Changed here, as if the last game had
    // ended first and the others in game order, to see the state file
    // follow an order that is not the games' own.
    let games = s["games"].as_array_mut().expect("games");
    let mut ended: Vec<u64> = games
        .iter()
        .map(|g| g["finished"].as_u64().expect("finished"))
        .collect();
    ended.sort_unstable();
    assert_eq!(ended, (1..=played).collect::<Vec<u64>>());
    games.sort_by_key(|g| g["index"].as_u64());
    let mut in_end_order: Vec<u64> = Vec::new();
    for (i, g) in games.iter_mut().enumerate() {
        g["finished"] = ((i as u64 + 1) % played + 1).into();
        in_end_order.push(g["index"].as_u64().expect("index"));
    }
    in_end_order.rotate_right(1);
    std::fs::write(&json, s.to_string()).expect("write the summary");

    // Another match's new state file does not take them, and says why.
    let other_json = dir.join("o.json");
    std::fs::copy(&json, &other_json).expect("copy");
    let mut other = args_marked(&dir.join("o.state"), &other_json, marker);
    let g = other.iter().position(|a| a == "8").expect("--games 8");
    other[g] = "10".into();
    let err = run_ok(&other);
    assert!(
        err.contains("the summary of another interrupted match") && err.contains("games"),
        "{err}"
    );
    assert_eq!(state_games(&dir.join("o.state")).len(), 10);

    // The same command with a new state file plays only the rest.
    let err = run_ok(&args_marked(&state, &json, marker));
    assert!(
        err.contains(&format!(
            "starts with the {played} games of the interrupted run"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "{played} games already played, {} to play",
            8 - played
        )),
        "{err}"
    );
    assert_eq!(state_games(&state)[..in_end_order.len()], in_end_order);
    assert_finished_as(&json, &state, &whole);

    // A finished run's summary gives a new state file nothing: every game
    // is played again.
    std::fs::remove_file(&state).expect("remove");
    let err = run_ok(&args_marked(&state, &json, marker));
    assert!(!err.contains("starts with"), "{err}");
    assert!(!err.contains("already played"), "{err}");
    assert_eq!(state_games(&state).len(), 8);
}
