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
