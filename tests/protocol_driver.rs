//! The streaming driver ([`tessera::engine::driver`]) in-process: the loop the
//! binary runs on stdin/stdout, here on byte buffers. A reply per command, in
//! order; `stop` read ahead interrupts the search it was sent for; a streamed
//! analysis ends at the next line; a line over the cap is refused.

use std::io::{Cursor, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tessera::engine::driver::{self, Ended, MAX_LINE_BYTES};
use tessera::protocol::{Engine, Gtp};

use crate::common::binary_output;

/// An output both the driver and the test hold.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("lock").extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Everything the driver wrote for `input`, run on a thread; `None` if it had
/// not finished after a minute (a hang: what `stop` exists to prevent).
fn drive(input: &str) -> Option<String> {
    let out = Shared::default();
    let writer = out.clone();
    let input = input.as_bytes().to_vec();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut engine = Engine::new();
        let ended = driver::run(&mut engine, &mut Gtp, Cursor::new(input), writer);
        let _ = tx.send(matches!(ended, Ended::Done));
    });
    let done = rx.recv_timeout(Duration::from_secs(60)).ok()?;
    assert!(done, "the driver reported a read error");
    let bytes = out.0.lock().expect("lock").clone();
    Some(String::from_utf8(bytes).expect("utf-8 replies"))
}

#[test]
fn replies_come_in_order_as_handle_line_gives_them() {
    let script = [
        "1 name",
        "2 boardsize 8",
        "# a comment",
        "3 play b D4",
        "4 frobnicate",
        "5 list_moves extra",
        "6 game_status",
    ];
    let mut engine = Engine::new();
    let expected: String = script
        .iter()
        .filter_map(|l| engine.handle_line(l))
        .collect();
    let got = drive(&(script.join("\n") + "\n")).expect("the driver finished");
    assert_eq!(got, expected);
}

#[test]
fn quit_ends_the_loop_and_later_lines_are_not_answered() {
    let got = drive("name\nquit\nversion\n").expect("the driver finished");
    assert_eq!(got, "= tessera\n\n=\n\n");
}

#[test]
fn a_stop_read_ahead_stops_the_search_it_follows() {
    // A thousand seconds a move: only the stop can end this genmove.
    let got =
        drive("move_time 1000\ngenmove b\nstop\ngame_status\n").expect("the stop ended the search");
    let replies: Vec<&str> = got.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies.len(), 4, "{got}");
    assert_eq!(replies[0], "=");
    assert!(
        replies[1].starts_with("= ") && replies[1].len() > 3,
        "{got}"
    );
    assert_eq!(replies[2], "=");
    assert_eq!(replies[3], "= ongoing");
}

#[test]
fn a_streamed_analysis_ends_at_the_next_line() {
    let got = drive("boardsize 6\n7 analyze 10\nname\n").expect("the analysis ended");
    let (analysis, rest) = got
        .trim_start_matches("=\n\n")
        .split_once("\n\n")
        .expect("two replies after boardsize");
    assert!(analysis.starts_with("=7\ninfo move "), "{analysis}");
    assert_eq!(rest, "= tessera\n\n");
}

#[test]
fn a_line_over_the_cap_is_refused_and_the_next_one_read() {
    let long = "x".repeat(MAX_LINE_BYTES + 10);
    let got = drive(&format!("{long}\nname\n")).expect("the driver finished");
    let (first, second) = got.split_once("\n\n").expect("two replies");
    assert!(
        first.starts_with("? syntax error: input line of")
            && first.contains(&MAX_LINE_BYTES.to_string()),
        "{first}"
    );
    assert_eq!(second, "= tessera\n\n");
}

/// The same script gives the same replies every time: blank lines and
/// comments are no input, and a `stop` after a command whose answer does not
/// depend on time (perft, list_moves, a search under `limit`, `level random`)
/// changes nothing. Each script is piped in whole, 50 times.
#[test]
fn scripts_with_blank_lines_comments_and_stop_reply_the_same_every_time() {
    let scripts = [
        "boardsize 4\nperft 1\nstop\n",
        "game rebus\nperft 1\n\n",
        "perft 1\n\nperft 1\n",
        "list_moves\nstop\n",
        "boardsize 6\n# a comment\n\nlimit depth 3\ngenmove b\nstop\n\ngenmove w\n  \t \nlist_moves\nstop\nshowboard\nperft 2\n\nstop\nfinal_score\n",
        "boardsize 8\nlevel random\nsetoption seed 7\ngenmove b\nstop\ngenmove w\nstop\n\nshowboard\n",
        "game rebus\nlimit nodes 3000\ngenmove red\nstop\n\nperft 1\nstop\nposition\n# end\n",
        "stop\n\nstop\nname\n12 perft 2\n13 stop\n",
    ];
    for script in scripts {
        let first = binary_output(script.as_bytes());
        assert!(!first.contains("interrupted"), "{script:?}: {first}");
        for run in 1..50 {
            let again = binary_output(script.as_bytes());
            assert_eq!(again, first, "{script:?}: run {run} differs");
        }
    }
}

/// A `stop` is meant for the newest search read before it: it ends that one
/// (here, a search of a thousand seconds) even when other commands come
/// between. (That it reaches no later search is tested in the driver's own
/// unit tests, which can look at the stop flag.)
#[test]
fn a_stop_ends_the_newest_search_before_it() {
    let got =
        drive("move_time 1000\ngenmove b\nname\nstop\nmove_time 0.05\ngenmove w\ngame_status\n")
            .expect("the stop ended the first search, the second one ended on its clock");
    let replies: Vec<&str> = got.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies.len(), 7, "{got}");
    assert!(
        replies[1].starts_with("= ") && replies[1].len() > 3,
        "{got}"
    );
    assert_eq!(replies[2..5], ["= tessera", "=", "="]);
    assert!(replies[5].starts_with("= "), "{got}");
    assert_eq!(replies[6], "= ongoing");
}

/// `--init` commands run before stdin is read: their replies are not printed,
/// a refused one ends the program with status 1 and its message, and `quit`
/// ends it there (stdin left open: it is never read).
#[test]
fn init_commands_run_first_and_quit_ends_the_program() {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let tessera = |init: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tessera"));
        for i in init {
            cmd.arg("--init").arg(i);
        }
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn tessera")
    };
    let mut child = tessera(&["game rebus", "quit"]);
    let (tx, rx) = mpsc::channel();
    let mut stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        let mut out = String::new();
        let _ = stdout.read_to_string(&mut out);
        let _ = tx.send(out);
    });
    let out = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("--init quit ended the program with stdin still open");
    assert_eq!(out, "");
    assert!(child.wait().expect("wait").success());

    let mut child = tessera(&["game rebus", "level easy"]);
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"game\nlevel\n")
        .expect("write");
    let out = child.wait_with_output().expect("output");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "= rebus\n\n= easy\n\n"
    );

    let out = tessera(&["boardsize 99"])
        .wait_with_output()
        .expect("output");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--init 'boardsize 99': ? unacceptable size: 99"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
