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
    /// `info move M order K score S [bound upper] [depth … time T] pv …`;
    /// `depth` only (and always) on order 0.
    Info {
        mv: String,
        order: usize,
        bound: bool,
        depth: Option<u32>,
        pv: Vec<String>,
    },
    Play(String),
}

/// Parses a line of a streamed reply, checking its exact format:
/// `info move M order K score X [bound upper] [depth D seldepth S nodes N nps N
/// time T] pv M…` (the figures on order 0 only), or `play M`.
fn parse_line(line: &str) -> Result<Line, String> {
    let w: Vec<&str> = line.split(' ').collect();
    let bad = |what: &str| format!("{what}: {line:?}");
    if w.len() == 2 && w[0] == "play" {
        return Ok(Line::Play(w[1].to_string()));
    }
    if w.len() < 9 || w[0] != "info" || w[1] != "move" || w[3] != "order" || w[5] != "score" {
        return Err(bad("not an info move line"));
    }
    let order: usize = w[4].parse().map_err(|_| bad("order"))?;
    if !is_score(w[6]) {
        return Err(bad("score"));
    }
    let mut at = 7;
    let bound = w[at] == "bound";
    if bound {
        if w.get(at + 1) != Some(&"upper") {
            return Err(bad("bound"));
        }
        at += 2;
    }
    let mut depth = None;
    if order == 0 {
        let mut figures = Vec::new();
        for key in ["depth", "seldepth", "nodes", "nps", "time"] {
            if w.get(at) != Some(&key) {
                return Err(bad(key));
            }
            let v: u64 = w
                .get(at + 1)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| bad(key))?;
            figures.push(v);
            at += 2;
        }
        depth = Some(figures[0] as u32);
    }
    if w.get(at) != Some(&"pv") || w.len() < at + 2 {
        return Err(bad("pv"));
    }
    let pv: Vec<String> = w[at + 1..].iter().map(|s| s.to_string()).collect();
    if pv[0] != w[2] {
        return Err(bad("the line must start with its move"));
    }
    Ok(Line::Info {
        mv: w[2].to_string(),
        order,
        bound,
        depth,
        pv,
    })
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

/// The lines come in blocks: order 0 (exact, with the figures), 1, 2… up to
/// `moves` lines; a `play` line may end the reply.
fn check_blocks(lines: &[Line], moves: usize) {
    let mut expected = 0;
    for (i, l) in lines.iter().enumerate() {
        match l {
            Line::Info {
                order,
                bound,
                depth,
                ..
            } => {
                if *order == 0 {
                    expected = 0;
                    assert!(!bound && depth.is_some(), "{l:?}");
                }
                assert_eq!(*order, expected, "{lines:?}");
                assert!(*order < moves, "{lines:?}");
                expected += 1;
            }
            Line::Play(_) => assert_eq!(i, lines.len() - 1, "{lines:?}"),
        }
    }
    assert!(
        matches!(lines.first(), Some(Line::Info { order: 0, .. })),
        "{lines:?}"
    );
}

/// The depths of the blocks.
fn depths(lines: &[Line]) -> Vec<u32> {
    lines
        .iter()
        .filter_map(|l| match l {
            Line::Info { depth, .. } => *depth,
            _ => None,
        })
        .collect()
}

#[test]
fn library_analysis_ends_on_input_and_leaves_the_position() {
    let mut e = Engine::new();
    for cmd in ["boardsize 7", "play b D4", "play w C3"] {
        assert!(e.handle_line(cmd).is_some_and(|r| r.starts_with('=')));
    }
    let line_arrived = Arc::new(AtomicBool::new(false));
    let probe = Arc::clone(&line_arrived);
    e.set_input(Box::new(move || {
        if probe.load(Ordering::SeqCst) {
            Input::Line
        } else {
            Input::Quiet
        }
    }));
    let before = e.fingerprint();
    let flag = Arc::clone(&line_arrived);
    let started = Instant::now();
    let timer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(400));
        flag.store(true, Ordering::SeqCst);
    });
    // With the colour GUIs send (Sabaki, as to lz-analyze), upper case.
    let reply = e.handle_line("5 analyze B 5 4").expect("a reply");
    timer.join().expect("timer");
    assert!(started.elapsed() >= Duration::from_millis(400));
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(e.fingerprint(), before);
    let lines = parse_reply(&reply, "5");
    check_blocks(&lines, 4);
    // Depths grow, blocks at most every 50 ms.
    let depths = depths(&lines);
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
    // Multi-PV: the listed moves are exact, distinct and legal.
    let legal = e.handle_line("list_moves").expect("reply");
    for l in &lines {
        if let Line::Info { mv, bound, .. } = l {
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
    e.set_reply_sink(Box::new(move |text| {
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
    assert_eq!(depths(&lines).last(), Some(&3), "{reply}");
    assert_eq!(e.fingerprint(), before);
}

#[test]
fn library_analysis_without_input_or_limit_ends_at_once() {
    // No input source (the default probe: input closed) and no limit: nothing
    // could stop it later, so it stops as soon as its first iteration is in
    // (a quick second one may slip in before the stop arrives).
    let mut e = Engine::new();
    e.handle_line("boardsize 9");
    let reply = e.handle_line("analyze").expect("a reply");
    let lines = parse_reply(&reply, "");
    let depths = depths(&lines);
    assert_eq!(depths.first(), Some(&1), "{reply}");
    assert!(depths.len() <= 3, "{reply}");
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
            "? syntax error: analyze interval: '0' is out of range (1 to 360000 centiseconds)\n\n",
        ),
        (
            "4 analyze 1 x",
            "?4 syntax error: analyze moves: 'x' is not a whole number (1 to 20)\n\n",
        ),
        (
            "analyze w",
            "? analyze w: it is Black's turn, not White's\n\n",
        ),
        (
            "analyze purple 10",
            "? syntax error: analyze: 'purple' is neither a colour (black, white, b, w) nor an interval (1 to 360000 centiseconds)\n\n",
        ),
        (
            "analyze black 10 2 1",
            "? syntax error: usage: analyze [colour] [interval] [moves] (got 'black 10 2 1')\n\n",
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
fn binary_analysis_ends_on_the_next_command_not_on_a_blank_line() {
    let mut t = Tessera::start();
    assert_eq!(t.reply("boardsize 8"), "=");
    assert_eq!(t.reply("play b D4"), "=");
    let board = t.reply("showboard");
    t.send("7 analyze 10\n");
    assert_eq!(t.line(), "=7");
    // Three lines of the stream, then a blank line and a comment: no input at
    // all, so the stream goes on (three more lines, none the empty line that
    // would end it); then `stop` ends it and is answered after it.
    let mut seen = Vec::new();
    for _ in 0..3 {
        seen.push(t.line());
    }
    t.send("\n# a comment\n");
    for _ in 0..3 {
        let line = t.line();
        assert!(!line.is_empty(), "a blank line ended the analysis");
        seen.push(line);
    }
    t.send("stop\n");
    seen.extend(t.rest());
    assert_eq!(t.rest(), vec!["=".to_string()]);
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
    assert!(t.line().starts_with("info move "));
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
    assert!(t.line().starts_with("info move "));
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
