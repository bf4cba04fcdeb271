//! Streamed analysis (`analyze`, `genmove_analyze`): through the library
//! (collected replies, a sink, an input probe) and through the `tessera` binary
//! (a newline ends the analysis, the next command is answered, the position is
//! untouched).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tessera::protocol::{Engine, Input};

/// A score token: `+1.50`, `-0.25`, `W7`, `L6`.
fn is_score(t: &str) -> bool {
    if let Some(n) = t.strip_prefix('W').or_else(|| t.strip_prefix('L')) {
        return !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    }
    let Some(rest) = t.strip_prefix('+').or_else(|| t.strip_prefix('-')) else {
        return false;
    };
    let Some((int, frac)) = rest.split_once('.') else {
        return false;
    };
    !int.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.len() == 2
        && frac.bytes().all(|b| b.is_ascii_digit())
}

/// What one streamed line says.
#[derive(Debug, PartialEq)]
enum Line {
    Info {
        depth: u32,
        pv: Vec<String>,
    },
    Move {
        mv: String,
        bound: bool,
        pv: Vec<String>,
    },
    Play(String),
}

/// Parses a line of a streamed reply, checking its exact format:
/// `info depth D seldepth S score X nodes N nps N time T pv M…`,
/// `move M score X [bound upper] pv M…`, `play M`.
fn parse_line(line: &str) -> Result<Line, String> {
    let w: Vec<&str> = line.split(' ').collect();
    let num = |i: usize, key: &str| -> Result<u64, String> {
        if w.get(i) != Some(&key) {
            return Err(format!("expected '{key}' at word {i}: {line:?}"));
        }
        w.get(i + 1)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("'{key}' needs a number: {line:?}"))
    };
    match w.first() {
        Some(&"info") => {
            let depth = num(1, "depth")? as u32;
            num(3, "seldepth")?;
            if w.get(5) != Some(&"score") || !w.get(6).is_some_and(|s| is_score(s)) {
                return Err(format!("bad score: {line:?}"));
            }
            num(7, "nodes")?;
            num(9, "nps")?;
            num(11, "time")?;
            if w.get(13) != Some(&"pv") || w.len() < 15 {
                return Err(format!("bad pv: {line:?}"));
            }
            Ok(Line::Info {
                depth,
                pv: w[14..].iter().map(|s| s.to_string()).collect(),
            })
        }
        Some(&"move") => {
            if w.len() < 6 || w[2] != "score" || !is_score(w[3]) {
                return Err(format!("bad move line: {line:?}"));
            }
            let (bound, at) = match (w.get(4), w.get(5)) {
                (Some(&"bound"), Some(&"upper")) => (true, 6),
                _ => (false, 4),
            };
            if w.get(at) != Some(&"pv") || w.len() < at + 2 {
                return Err(format!("bad move pv: {line:?}"));
            }
            let pv: Vec<String> = w[at + 1..].iter().map(|s| s.to_string()).collect();
            if pv[0] != w[1] {
                return Err(format!("the line must start with its move: {line:?}"));
            }
            Ok(Line::Move {
                mv: w[1].to_string(),
                bound,
                pv,
            })
        }
        Some(&"play") if w.len() == 2 => Ok(Line::Play(w[1].to_string())),
        _ => Err(format!("unknown line {line:?}")),
    }
}

/// Checks the framing of a whole streamed reply and parses its lines.
fn parse_reply(reply: &str, id: &str) -> Vec<Line> {
    let head = format!("={id}\n");
    assert!(reply.starts_with(&head), "{reply:?}");
    assert!(reply.ends_with("\n\n"), "{reply:?}");
    let body = &reply[head.len()..reply.len() - 2];
    assert!(!body.contains("\n\n"), "an empty line inside: {reply:?}");
    body.lines()
        .map(|l| parse_line(l).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// The infos come in blocks: one `info`, then its `move` lines (at most
/// `moves`), the first with the info's PV.
fn check_blocks(lines: &[Line], moves: usize) {
    let mut i = 0;
    while i < lines.len() {
        let Line::Info { pv, .. } = &lines[i] else {
            assert!(matches!(lines[i], Line::Play(_)) && i == lines.len() - 1);
            break;
        };
        let mut k = i + 1;
        while let Some(Line::Move { .. }) = lines.get(k) {
            k += 1;
        }
        assert!((1..=moves).contains(&(k - i - 1)), "{lines:?}");
        match &lines[i + 1] {
            Line::Move {
                pv: first, bound, ..
            } => {
                assert_eq!(first, pv);
                assert!(!bound);
            }
            other => panic!("{other:?}"),
        }
        i = k;
    }
}

#[test]
fn library_analysis_ends_on_input_and_leaves_the_position() {
    let mut e = Engine::new();
    for cmd in ["boardsize 7", "play b D4", "play w C3"] {
        assert!(e.handle_line(cmd).is_some_and(|r| r.starts_with('=')));
    }
    let line_arrived = Arc::new(AtomicBool::new(false));
    let probe = Arc::clone(&line_arrived);
    e.input = Box::new(move || {
        if probe.load(Ordering::SeqCst) {
            Input::Line
        } else {
            Input::Quiet
        }
    });
    let before = e.fingerprint();
    let flag = Arc::clone(&line_arrived);
    let started = Instant::now();
    let timer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(400));
        flag.store(true, Ordering::SeqCst);
    });
    let reply = e.handle_line("5 analyze 5 4").expect("a reply");
    timer.join().expect("timer");
    assert!(started.elapsed() >= Duration::from_millis(400));
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(e.fingerprint(), before);
    let lines = parse_reply(&reply, "5");
    assert!(matches!(lines.first(), Some(Line::Info { .. })), "{reply}");
    check_blocks(&lines, 4);
    // Depths grow, blocks at most every 50 ms: a few of them in 400 ms.
    let depths: Vec<u32> = lines
        .iter()
        .filter_map(|l| match l {
            Line::Info { depth, .. } => Some(*depth),
            _ => None,
        })
        .collect();
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
    // Multi-PV: the listed moves are exact, distinct and legal.
    let legal = e.handle_line("list_moves").expect("reply");
    for l in &lines {
        if let Line::Move { mv, bound, .. } = l {
            assert!(!bound, "{reply}");
            assert!(legal.split_whitespace().any(|m| m == mv), "{mv}");
        }
    }
    // The engine goes on normally.
    assert_eq!(e.handle_line("name").as_deref(), Some("= tessera\n\n"));
}

#[test]
fn library_analysis_with_a_limit_ends_by_itself_and_streams_to_the_sink() {
    let mut e = Engine::new();
    e.handle_line("game rebus");
    e.handle_line("limit depth 3");
    let streamed = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&streamed);
    e.reply_sink = Some(Box::new(move |text| {
        sink.lock().expect("lock").push_str(text)
    }));
    let before = e.fingerprint();
    // The default input probe says the input has ended: a limited analysis
    // still runs to its limit.
    let tail = e.handle_line("analyze 1 2").expect("a reply");
    assert_eq!(tail, "\n");
    let reply = streamed.lock().expect("lock").clone() + &tail;
    let lines = parse_reply(&reply, "");
    check_blocks(&lines, 2);
    let last_depth = lines.iter().rev().find_map(|l| match l {
        Line::Info { depth, .. } => Some(*depth),
        _ => None,
    });
    assert_eq!(last_depth, Some(3), "{reply}");
    assert_eq!(e.fingerprint(), before);
}

#[test]
fn library_analysis_without_input_or_limit_gives_one_block() {
    // No input source (the default probe: input closed) and no limit: nothing
    // could stop it later, so it ends after its first iteration.
    let mut e = Engine::new();
    e.handle_line("boardsize 9");
    let reply = e.handle_line("analyze").expect("a reply");
    let lines = parse_reply(&reply, "");
    assert!(matches!(lines[0], Line::Info { depth: 1, .. }), "{reply}");
    check_blocks(&lines, 3);
}

#[test]
fn library_genmove_analyze_plays_its_move() {
    for game in ["rekushu", "rebus"] {
        let mut e = Engine::new();
        e.handle_line(&format!("game {game}"));
        e.handle_line("limit depth 2");
        let legal = e.handle_line("list_moves").expect("reply");
        let colour = if game == "rebus" { "red" } else { "b" };
        let reply = e
            .handle_line(&format!("3 genmove_analyze {colour} 1 2"))
            .expect("a reply");
        let lines = parse_reply(&reply, "3");
        check_blocks(&lines, 2);
        let Some(Line::Play(mv)) = lines.last() else {
            panic!("no play line: {reply}");
        };
        assert!(legal.split_whitespace().any(|m| m == mv), "{mv}");
        // Played: it is the other side's turn and undo takes it back.
        let status = e.handle_line("gogui-rules_side_to_move").expect("reply");
        assert_eq!(status, "= white\n\n");
        assert_eq!(e.handle_line("undo").as_deref(), Some("=\n\n"));
    }
}

#[test]
fn library_streamed_errors_are_plain_replies() {
    let mut e = Engine::new();
    let before = e.fingerprint();
    for (cmd, want) in [
        (
            "analyze 0",
            "? syntax error: analyze: '0' is not an interval (1 to 360000 centiseconds)\n\n",
        ),
        (
            "4 analyze 1 x",
            "?4 syntax error: analyze: 'x' is not a number of moves (1 to 20)\n\n",
        ),
        (
            "genmove_analyze white",
            "? genmove_analyze white: it is Black's turn, not White's\n\n",
        ),
        (
            "genmove_analyze q",
            "? syntax error: 'q' is not a colour (black, white, b, w)\n\n",
        ),
    ] {
        assert_eq!(e.handle_line(cmd).as_deref(), Some(want), "{cmd}");
        assert_eq!(e.fingerprint(), before, "{cmd}");
    }
}

/// The binary, with a reader thread turning its stdout into lines.
struct Tessera {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Tessera {
    fn start() -> Tessera {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tessera starts");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Tessera {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).expect("write");
        stdin.flush().expect("flush");
    }

    fn line(&self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(30))
            .expect("a line from tessera within 30 s")
    }

    /// The rest of a reply, up to its empty line.
    fn rest(&self) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.line();
            if l.is_empty() {
                return out;
            }
            out.push(l);
        }
    }

    fn reply(&mut self, cmd: &str) -> String {
        self.send(&format!("{cmd}\n"));
        let mut lines = vec![self.line()];
        lines.extend(self.rest());
        lines.join("\n")
    }
}

impl Drop for Tessera {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn binary_analysis_ends_on_a_newline() {
    let mut t = Tessera::start();
    assert_eq!(t.reply("boardsize 8"), "=");
    assert_eq!(t.reply("play b D4"), "=");
    let board = t.reply("showboard");
    t.send("7 analyze 10\n");
    assert_eq!(t.line(), "=7");
    // Three lines of the stream, then a bare newline (Enter) ends it; a blank
    // line gets no reply of its own.
    let mut seen = Vec::new();
    for _ in 0..3 {
        seen.push(t.line());
    }
    t.send("\n");
    seen.extend(t.rest());
    let lines: Vec<Line> = seen
        .iter()
        .map(|l| parse_line(l).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    check_blocks(&lines, 3);
    assert_eq!(t.reply("name"), "= tessera");
    assert_eq!(t.reply("showboard"), board);
    // A command line ends it too, and is answered after it.
    t.send("analyze 10\n");
    assert_eq!(t.line(), "=");
    assert!(t.line().starts_with("info depth 1 "));
    t.send("8 version\n");
    let rest = t.rest();
    assert!(rest.iter().all(|l| parse_line(l).is_ok()), "{rest:?}");
    assert_eq!(t.rest(), vec![format!("=8 {}", env!("CARGO_PKG_VERSION"))]);
    assert_eq!(t.reply("showboard"), board);
}

#[test]
fn binary_genmove_analyze_and_stop() {
    let mut t = Tessera::start();
    assert_eq!(t.reply("boardsize 6"), "=");
    assert_eq!(t.reply("move_time 0.3"), "=");
    let legal = t.reply("list_moves");
    let reply = t.reply("genmove_analyze b 5 2");
    let lines = parse_reply(&(reply + "\n\n"), "");
    check_blocks(&lines, 2);
    let Some(Line::Play(mv)) = lines.last() else {
        panic!("no play line");
    };
    assert!(legal.split_whitespace().any(|m| m == mv), "{mv}");
    assert_eq!(t.reply("gogui-rules_side_to_move"), "= white");
    // `stop` ends an analysis like any other line, and is answered after it.
    t.send("analyze 50\n");
    assert_eq!(t.line(), "=");
    assert!(t.line().starts_with("info depth 1 "));
    t.send("stop\n");
    let rest = t.rest();
    assert!(rest.iter().all(|l| parse_line(l).is_ok()), "{rest:?}");
    assert_eq!(t.rest(), vec!["=".to_string()]);
    assert_eq!(t.reply("name"), "= tessera");
}

#[test]
fn binary_analysis_ends_at_end_of_input() {
    let mut t = Tessera::start();
    t.send("analyze\n");
    t.stdin = None; // closes it
    assert_eq!(t.line(), "=");
    let rest = t.rest();
    assert!(!rest.is_empty() && rest.iter().all(|l| parse_line(l).is_ok()));
    let status = t.child.wait().expect("exits");
    assert!(status.success());
}
