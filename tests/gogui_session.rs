//! GoGui as it really drives an engine (its sources: a program and a ruler
//! process started from the same program line, `tessera --gogui`; the ruler
//! replays the whole game from `clear_board` after every change; moves are
//! `play B <point>` in GoGui's names, without `I`): the command sequence of
//! attaching, a person's clicks and the computer's moves, on boards wider than
//! eight columns, and the two processes stay in step.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// One engine process and its replies.
struct Gtp {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(init: &str) -> Gtp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["--gogui", "--init", init])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn tessera");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Gtp {
            child,
            stdin,
            stdout,
        }
    }

    /// The reply to `line`: `Ok(text)` or `Err(message)`, the text read as
    /// GoGui reads it (from after the first space).
    fn ask(&mut self, line: &str) -> Result<String, String> {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
        let mut reply = String::new();
        loop {
            let mut l = String::new();
            assert!(
                self.stdout.read_line(&mut l).expect("read") > 0,
                "{line}: exited"
            );
            if l == "\n" {
                break;
            }
            reply.push_str(&l);
        }
        let text = match reply.find(' ') {
            Some(i) => reply[i + 1..].trim_end().to_string(),
            None => String::new(),
        };
        match reply.starts_with('=') {
            true => Ok(text),
            false => Err(text),
        }
    }

    fn ok(&mut self, line: &str) -> String {
        self.ask(line).unwrap_or_else(|e| panic!("`{line}`: {e}"))
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// GoGui's update of the ruler's board after a change: `clear_board` (never
/// `boardsize`), the queries, every move from the start, the queries again.
fn replay(ruler: &mut Gtp, moves: &[(char, String)]) {
    ruler.ok("clear_board");
    for q in [
        "gogui-rules_board",
        "gogui-rules_board_size",
        "gogui-rules_side_to_move",
    ] {
        ruler.ok(q);
    }
    ruler.ok("clear_board");
    for (c, p) in moves {
        ruler.ok(&format!("play {c} {p}"));
    }
    for q in [
        "gogui-rules_board",
        "gogui-rules_board_size",
        "gogui-rules_side_to_move",
    ] {
        ruler.ok(q);
    }
}

/// The points of a `gogui-rules_legal_moves` reply.
fn legal(ruler: &mut Gtp) -> Vec<String> {
    ruler
        .ok("gogui-rules_legal_moves")
        .split_whitespace()
        .map(String::from)
        .collect()
}

/// A GoGui point's column index (no `I`; `AA` is 25).
fn column(point: &str) -> usize {
    let letters: Vec<u8> = point.bytes().take_while(u8::is_ascii_alphabetic).collect();
    let v = |c: u8| usize::from(c - b'A') - usize::from(c > b'I');
    match letters[..] {
        [a] => v(a),
        [a, b] => (v(a) + 1) * 25 + v(b),
        _ => panic!("{point}"),
    }
}

/// A game as GoGui plays it: attach, then a person (Black) clicks the
/// rightmost legal point, the computer (White) answers
/// with `genmove`; `plies` moves, or to the end.
fn play_through_gogui(size: usize, plies: usize) {
    let line = format!("boardsize {size}");
    let mut program = Gtp::start(&line);
    let mut ruler = Gtp::start(&line);
    // Attaching: the program's handshake, then the ruler (same program line).
    for q in ["name", "protocol_version", "version", "list_commands"] {
        program.ok(q);
    }
    assert_eq!(program.ok("gogui-rules_game_id"), "rekushu");
    assert!(
        ruler
            .ok("list_commands")
            .contains("gogui-rules_legal_moves")
    );
    assert_eq!(ruler.ok("gogui-rules_game_id"), "rekushu");
    let n = ruler.ok("gogui-rules_board_size");
    assert_eq!(n, size.to_string());
    program.ok(&format!("boardsize {n}"));
    program.ok("clear_board");
    program.ok("komi 6.5");
    replay(&mut ruler, &[]);
    program.ok("gogui-analyze_commands");
    program.ok("level easy");
    program.ok("move_time 0.02");
    let mut moves: Vec<(char, String)> = Vec::new();
    let mut past_h = 0;
    for ply in 0..plies {
        let points = legal(&mut ruler);
        if points.is_empty() {
            assert!(!ruler.ok("gogui-rules_final_result").is_empty());
            break;
        }
        let (colour, point) = if ply % 2 == 0 {
            // A click: the ruler's side to move and legal points decide.
            assert_eq!(ruler.ok("gogui-rules_side_to_move"), "black");
            let p = points
                .iter()
                .max_by_key(|p| column(p))
                .expect("a point")
                .clone();
            program.ok(&format!("play B {p}"));
            ('B', p)
        } else {
            let p = program.ok("genmove W");
            assert!(
                points.contains(&p),
                "genmove answered '{p}', not a legal GoGui point: {points:?}"
            );
            ('W', p)
        };
        past_h += usize::from(column(&point) > 7);
        moves.push((colour, point.clone()));
        replay(&mut ruler, &moves);
        // GoGui sends the move to the ruler again: refused, nothing changes.
        assert!(ruler.ask(&format!("play {colour} {point}")).is_err());
        ruler.ok("gogui-rules_board_gfx");
        // The two processes show the same position.
        assert_eq!(
            program.ok("gogui-rules_board"),
            ruler.ok("gogui-rules_board"),
            "after {moves:?}"
        );
        assert_eq!(program.ok("final_score"), ruler.ok("final_score"));
        assert_eq!(
            program.ok("gogui-rules_side_to_move"),
            ruler.ok("gogui-rules_side_to_move")
        );
    }
    assert!(past_h > 0, "no move past column H: {moves:?}");
}

#[test]
fn gogui_program_and_ruler_stay_in_step_on_12x12() {
    play_through_gogui(12, 60);
}

#[test]
fn gogui_names_columns_past_z_on_26x26() {
    play_through_gogui(26, 6);
    let mut e = Gtp::start("boardsize 26");
    e.ok("play B AA26");
    let board = e.ok("gogui-rules_board");
    assert!(
        board
            .trim_start()
            .starts_with(". . . . . . . . . . . . . . . . . . . . . . . . . X"),
        "{board}"
    );
    assert!(e.ask("play W I5").is_err(), "GoGui never names a column I");
}
