//! The board server over plain HTTP (no browser): its first line, refusals
//! with 4xx and a message, and engines that answer garbage, play illegal
//! moves, crash or stall — each reported in the state, the game kept, a
//! restart offered.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

struct Board {
    child: Child,
    addr: String,
}

impl Drop for Board {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn engine_binary() -> PathBuf {
    let board = PathBuf::from(env!("CARGO_BIN_EXE_tessera-board"));
    let dir = board.parent().expect("the target folder").to_path_buf();
    let engine = dir.join("tessera");
    if !engine.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.args(["build", "-p", "tessera", "--bin", "tessera"]);
        if dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        assert!(
            cmd.status().expect("cargo").success(),
            "building tessera failed"
        );
    }
    engine
}

fn start(extra: &[&str]) -> Board {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera-board"))
        .args(["--port", "0", "--engine"])
        .arg(engine_binary().display().to_string())
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start tessera-board");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("first line");
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("first line {line:?}"))
        .to_string();
    Board { child, addr }
}

/// One HTTP/1.1 request; the status and the body.
fn http(board: &Board, method: &str, path: &str, content_type: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(&board.addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).ok();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        board.addr,
        body.len()
    );
    s.write_all(req.as_bytes()).expect("send");
    let mut out = String::new();
    s.read_to_string(&mut out).expect("read");
    let status = out
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = out
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

fn post(board: &Board, path: &str, body: Value) -> (u16, Value) {
    let (status, text) = http(board, "POST", path, "application/json", &body.to_string());
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn state(board: &Board) -> Value {
    let (status, text) = http(board, "GET", "/api/state", "text/plain", "");
    assert_eq!(status, 200);
    serde_json::from_str(&text).expect("state JSON")
}

fn wait_until(board: &Board, what: &str, f: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let s = state(board);
        if f(&s) {
            return s;
        }
        assert!(Instant::now() < deadline, "waited too long for {what}: {s}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A new game of two humans (`game`: the fields of `/api/new` but the
/// players); the board's state after it.
fn new_human_game(board: &Board, mut game: Value) -> Value {
    game["players"] =
        json!([{"kind": "human", "level": "easy"}, {"kind": "human", "level": "easy"}]);
    let (status, s) = post(board, "/api/new", game);
    assert_eq!(status, 200, "{s}");
    s
}

#[test]
fn serves_the_page_and_refuses_bad_requests_with_4xx() {
    let b = start(&[]);
    let (status, page) = http(&b, "GET", "/", "text/plain", "");
    assert_eq!(status, 200);
    assert!(page.contains("<svg id=\"board\"") && page.contains("EventSource"));
    let (status, body) = http(&b, "GET", "/nothing", "text/plain", "");
    assert_eq!(status, 404);
    assert!(body.contains("no such page"), "{body}");
    let (status, body) = http(&b, "POST", "/api/move", "text/plain", "A1");
    assert_eq!(status, 400);
    assert!(body.contains("JSON"), "{body}");
    let (status, body) = http(&b, "POST", "/api/move", "application/json", "{not json");
    assert_eq!(status, 400, "{body}");
    let (status, v) = post(&b, "/api/new", json!({"game": "chess"}));
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("'chess'"));
    let (status, v) = post(&b, "/api/new", json!({"game": "rekushu", "size": 27}));
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("4 to 26"));
    let (status, v) = post(
        &b,
        "/api/new",
        json!({"game": "rebus", "start": "rS red - -"}),
    );
    assert_eq!(status, 400);
    assert!(
        v["error"].as_str().unwrap().contains("invalid position"),
        "{v}"
    );
    let (status, v) = post(
        &b,
        "/api/settings",
        json!({"players": [{"kind": "human", "level": "easy"}, {"kind": "engine", "level": "genius"}]}),
    );
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("genius"));

    new_human_game(&b, json!({"game": "rekushu", "size": 5}));
    let before = state(&b);
    let (status, v) = post(&b, "/api/move", json!({"move": "Z9"}));
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("syntax error"), "{v}");
    let (status, v) = post(&b, "/api/move", json!({"move": 7}));
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("its points"), "{v}");
    let (status, v) = post(
        &b,
        "/api/move",
        json!({"move": {"kind": "capture", "attacker": 0, "steps": [1]}}),
    );
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("REBUS"), "{v}");
    let (status, v) = post(&b, "/api/move", json!({"move": {"kind": "place", "at": 0}}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["moves"], json!(["A1"]));
    assert_eq!(v["last"], json!({"kind": "place", "at": 0, "claim": null}));
    let (status, v) = post(&b, "/api/move", json!({"move": {"kind": "place", "at": 0}}));
    assert_eq!(status, 422);
    assert!(
        v["error"].as_str().unwrap().contains("A1 is occupied"),
        "{v}"
    );
    let (status, _) = post(&b, "/api/undo", json!({}));
    assert_eq!(status, 200);
    let (status, v) = post(&b, "/api/move", json!({"move": "A1\nquit"}));
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("character"));
    let (status, v) = post(&b, "/api/undo", json!({}));
    assert_eq!(status, 409, "{v}");
    // Nothing changed.
    assert_eq!(state(&b)["moves"], before["moves"]);
    // A REBUS move on a Rekushu board is refused by the rules.
    let (status, v) = post(&b, "/api/move", json!({"move": "d3xd5"}));
    assert!((400..500).contains(&status), "{status} {v}");
    assert_eq!(state(&b)["moves"], before["moves"]);
}

#[test]
fn records_are_saved_and_loaded() {
    let b = start(&[]);
    new_human_game(&b, json!({"game": "rekushu", "size": 6}));
    for m in ["A1", "F6", "B1", "F5", "A2", "E6", "B2:A1-B2"] {
        let (status, v) = post(&b, "/api/move", json!({"move": m}));
        assert_eq!(status, 200, "{m}: {v}");
    }
    let (status, record) = http(&b, "GET", "/api/record", "text/plain", "");
    assert_eq!(status, 200);
    assert!(
        record.starts_with("[Game \"rekushu\"]\n[Size \"6\"]"),
        "{record}"
    );
    assert!(record.ends_with("E6\nB2:A1-B2\n"), "{record}");
    let (status, _) = post(&b, "/api/new", json!({"game": "rebus"}));
    assert_eq!(status, 200);
    let (status, text) = http(&b, "POST", "/api/load", "text/plain", &record);
    assert_eq!(status, 200, "{text}");
    let s = state(&b);
    assert_eq!(s["game"], "rekushu");
    assert_eq!(s["moves"].as_array().unwrap().len(), 7);
    assert_eq!(
        s["rekushu"]["tiles"].as_str().unwrap().chars().next(),
        Some('b')
    );
    // A broken record is refused with the reason; the game stays.
    let broken = record.replace("F5\n", "A1\n");
    let (status, text) = http(&b, "POST", "/api/load", "text/plain", &broken);
    assert_eq!(status, 422, "{text}");
    assert!(text.contains("occupied"), "{text}");
    assert_eq!(state(&b)["moves"].as_array().unwrap().len(), 7);
}

/// A fake engine for White: answers `=` to everything, and `genmove` as `mode` says.
fn fake_engine(mode: &str) -> String {
    let on_genmove = match mode {
        "garbage" => "printf \"hello world\\n\\n\"",
        "illegal" => "printf \"= A1\\n\\n\"",
        "crash" => "exit 3",
        // exec: the stalled engine is this one process, which the board kills.
        "stall" => "exec sleep 20",
        _ => unreachable!(),
    };
    format!(
        "sh -c 'while IFS= read -r l; do case \"$l\" in genmove*) {on_genmove};; *) printf \"=\\n\\n\";; esac; done'"
    )
}

fn engine_fault(mode: &str, expect: &str) {
    let fake = fake_engine(mode);
    let b = start(&["--engine", &fake, "--move-timeout", "1"]);
    let players = json!([{"kind": "human", "level": "easy"}, {"kind": "engine", "level": "easy"}]);
    let (status, _) = post(
        &b,
        "/api/new",
        json!({"game": "rekushu", "size": 5, "players": players}),
    );
    assert_eq!(status, 200);
    let (status, v) = post(&b, "/api/move", json!({"move": "A1"}));
    assert_eq!(status, 200, "{v}");
    let s = wait_until(&b, "the engine error", |s| !s["engine_error"].is_null());
    let err = s["engine_error"].as_str().unwrap();
    assert!(
        err.starts_with("white's engine") && err.contains(expect),
        "{mode}: {err}"
    );
    assert_eq!(s["moves"], json!(["A1"]));
    let (_, record) = http(&b, "GET", "/api/record", "text/plain", "");
    assert!(record.ends_with("\nA1\n"), "{record}");
    // Moves are refused while the engine is to move; a restart clears the error.
    let (status, _) = post(&b, "/api/move", json!({"move": "B1"}));
    assert_eq!(status, 409);
    let (status, v) = post(&b, "/api/restart", json!({}));
    assert_eq!(status, 200);
    assert!(v["engine_error"].is_null(), "{v}");
    assert_eq!(v["moves"], json!(["A1"]));
}

#[test]
fn an_engine_that_answers_garbage_is_reported() {
    engine_fault("garbage", "garbage: 'hello world'");
}

#[test]
fn an_engine_that_plays_an_illegal_move_is_reported() {
    engine_fault("illegal", "illegal move 'A1'");
}

#[test]
fn an_engine_that_crashes_is_reported() {
    engine_fault("crash", "crashed");
}

#[test]
fn an_engine_that_stalls_is_reported() {
    engine_fault("stall", "stalled");
}

/// Reads the event stream until an `analysis` event of the position after
/// `ply` moves; returns its data.
fn analysis_of(events: &mut impl BufRead, ply: usize) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut line = String::new();
    while Instant::now() < deadline {
        line.clear();
        if events.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        let Some(data) = line.trim().strip_prefix("data: ") else {
            continue;
        };
        let v: Value = serde_json::from_str(data).unwrap_or(Value::Null);
        if v["ply"] == ply && v["block"].is_object() {
            return v;
        }
    }
    panic!("no analysis of ply {ply}");
}

#[test]
fn analysis_follows_the_game_with_moves_decoded() {
    let b = start(&[]);
    new_human_game(&b, json!({"game": "rekushu", "size": 6}));
    let mut s = TcpStream::connect(&b.addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).ok();
    write!(
        s,
        "GET /events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
        b.addr
    )
    .expect("send");
    let mut events = BufReader::new(s);
    post(&b, "/api/settings", json!({"analysis": true}));
    let first = analysis_of(&mut events, 0);
    let line = &first["block"]["lines"][0];
    assert_eq!(line["parts"]["kind"], "place", "{first}");
    // Each move ends the stream on the old position and starts a new one.
    for (ply, mv) in [(1, "C3"), (2, "D4")] {
        let (status, _) = post(&b, "/api/move", json!({"move": mv}));
        assert_eq!(status, 200);
        let a = analysis_of(&mut events, ply);
        assert_eq!(a["generation"], state(&b)["generation"], "{a}");
    }
}

#[test]
fn rebus_chains_are_checked_step_by_step() {
    let b = start(&[]);
    let s = new_human_game(&b, json!({"game": "rebus", "start": "standard"}));
    // d3 (square 21) is Red's Star: it reaches d5 (39), two ranks up.
    assert_eq!(s["points"][21], "d3");
    assert!(
        s["rebus"]["squares"][21]["targets"]
            .as_array()
            .unwrap()
            .contains(&json!(39))
    );
    let (status, v) = post(
        &b,
        "/api/check",
        json!({"move": {"kind": "capture", "attacker": 21, "steps": [39]}}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["text"], "d3xd5");
    assert!(v["next"].is_array(), "{v}");
    let (status, v) = post(
        &b,
        "/api/check",
        json!({"move": {"kind": "capture", "attacker": 21, "steps": [57]}}),
    );
    assert_eq!(status, 422);
    assert!(v["error"].as_str().unwrap().contains("cannot reach"), "{v}");
    assert_eq!(state(&b)["moves"], json!([]));
    let (status, v) = post(
        &b,
        "/api/move",
        json!({"move": {"kind": "capture", "attacker": 21, "steps": [39], "nominee": 4}}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["moves"], json!(["d3xd5+e1"]));
    assert_eq!(
        v["last"],
        json!({"kind": "capture", "attacker": 21, "steps": [39], "nominee": 4})
    );
    // The record starts from the position string (protocol.md §10).
    let (_, record) = http(&b, "GET", "/api/record", "text/plain", "");
    assert!(record.contains("[Start \"bSbWbPbTbObQbGbJbK/"), "{record}");
}
