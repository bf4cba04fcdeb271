//! A misbehaving engine loses each game it misbehaves in, with the right
//! reason, and the tournament goes on: the engine is restarted for its next
//! game. The test engine misbehaves at its 2nd `genmove` of each process.
//!
//! Timeouts here are the referee's behaviour under test, not timed assertions:
//! the sleeping engine sleeps 60 s against limits well under a second.

use crate::common::*;
use serde_json::Value;

/// Plays one pair of `game` between a good engine and `bad` (faulting with
/// `fault`); returns the games as JSON values.
fn pair(name: &str, game: &[&str], fault: &str, limits: &[&str]) -> Vec<Value> {
    let good = engine("good", "");
    let bad = engine("bad", &format!("{fault} 2"));
    let mut args = vec![
        "--engine",
        &good,
        "--engine",
        &bad,
        "--init",
        "good=level random",
        "--init",
        "bad=level random",
        "--games",
        "2",
    ];
    args.extend_from_slice(game);
    args.extend_from_slice(limits);
    let (s, _) = run_arena(name, &args);
    assert_eq!(u(&s, "games_played"), 2, "{s}");
    s["games"].as_array().expect("games").clone()
}

const REKUSHU: &[&str] = &["--game", "rekushu", "--size", "8"];
const REBUS: &[&str] = &["--game", "rebus"];

/// Every game lost by `bad` for a fault whose reason starts with `reason`.
fn assert_bad_loses(games: &[Value], reason: &str) {
    for g in games {
        let bad_first = g["first"] == "bad";
        let expected = if bad_first { "0-1" } else { "1-0" };
        assert_eq!(g["result"], expected, "{g}");
        assert_eq!(g["fault"], "bad", "{g}");
        let r = g["reason"].as_str().expect("reason");
        assert!(r.starts_with(reason), "expected '{reason}…', got {g}");
    }
}

#[test]
fn garbage_loses() {
    assert_bad_loses(
        &pair("fault-garbage", REKUSHU, "garbage", &[]),
        "garbled reply",
    );
}

#[test]
fn unparsable_move_loses() {
    assert_bad_loses(
        &pair("fault-nonsense", REBUS, "nonsense", &[]),
        "unparsable move '@@@'",
    );
}

#[test]
fn illegal_move_loses() {
    assert_bad_loses(
        &pair("fault-illegal-rk", REKUSHU, "illegal", &[]),
        "illegal move",
    );
    assert_bad_loses(
        &pair("fault-illegal-rb", REBUS, "illegal", &[]),
        "illegal move",
    );
}

#[test]
fn crash_loses() {
    assert_bad_loses(&pair("fault-exit", REBUS, "exit", &[]), "crash");
}

#[test]
fn refusal_loses() {
    assert_bad_loses(
        &pair("fault-refuse", REKUSHU, "refuse", &[]),
        "refused 'genmove",
    );
}

#[test]
fn stall_loses_under_move_time() {
    let limits = [
        "--movetime",
        "0.05",
        "--margin-ms",
        "50",
        "--stall-ms",
        "400",
    ];
    assert_bad_loses(&pair("fault-sleep", REKUSHU, "sleep", &limits), "stall");
}

#[test]
fn stall_loses_under_depth_limit() {
    let limits = ["--depth", "1", "--move-timeout", "0.5"];
    assert_bad_loses(&pair("fault-sleep-depth", REBUS, "sleep", &limits), "stall");
}

/// The first game is lost on time; the process is kept (its reply came, it
/// is sane), so the second game is played by the same process, which does not
/// misbehave again: a time forfeit does not cascade into restarts.
fn assert_forfeit_without_restart(games: &[Value]) {
    assert_bad_loses(&games[..1], "time forfeit");
    let g = &games[1];
    assert!(g["fault"].is_null(), "{g}");
    let bad_seat = if g["first"] == "bad" { 0 } else { 1 };
    assert!(
        g["times"][bad_seat]["handshake_ms"].is_null(),
        "no new process (no handshake) in game 2: {g}"
    );
}

#[test]
fn overrun_loses_on_time() {
    // 1.5 s against 50 ms + 50 ms, with a long stall window: a late reply.
    let limits = [
        "--movetime",
        "0.05",
        "--margin-ms",
        "50",
        "--stall-ms",
        "30000",
    ];
    assert_forfeit_without_restart(&pair("fault-slow", REKUSHU, "slow", &limits));
    // The same under a Fischer clock of 0.3 s.
    let limits = ["--tc", "0.3+0", "--margin-ms", "50", "--stall-ms", "30000"];
    assert_forfeit_without_restart(&pair("fault-slow-tc", REBUS, "slow", &limits));
}

#[test]
fn resignation_is_a_loss_not_a_fault() {
    let games = pair("fault-resign", REKUSHU, "resign", &[]);
    // The first game: bad plays second, resigns at its 2nd genmove.
    let g = &games[0];
    assert_eq!(g["result"], "1-0", "{g}");
    assert_eq!(g["reason"], "resign");
    assert!(g["fault"].is_null());
    // The process was kept; it does not resign again.
    assert_ne!(games[1]["reason"], "resign", "{}", games[1]);
}

#[test]
fn an_engine_that_cannot_start_loses_every_game() {
    let (s, _) = run_arena(
        "fault-spawn",
        &[
            "--game",
            "rebus",
            "--engine",
            &engine("good", ""),
            "--engine",
            "bad=/nonexistent/engine",
            "--init",
            "good=level random",
            "--games",
            "2",
        ],
    );
    let games = s["games"].as_array().expect("games").clone();
    assert_bad_loses(&games, "crash");
}

#[test]
fn bad_arguments_are_refused() {
    let out = std::process::Command::new(ARENA)
        .args(["--engine", "a=x", "--engine", "b=y", "--tc", "soon"])
        .output()
        .expect("arena runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("'soon'"));
    let out = std::process::Command::new(ARENA)
        .args(["--help"])
        .output()
        .expect("arena runs");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Examples:"));
}
