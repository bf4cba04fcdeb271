//! The streaming driver: the protocol loop over any input and output. One reply
//! per command, flushed at once, until `quit` or the end of input. A reader
//! thread reads ahead, so that a `stop` line can interrupt a running search or
//! enumeration and any line can end a streamed analysis; bytes that are not
//! UTF-8 are read lossily, and a line longer than [`MAX_LINE_BYTES`] is refused
//! without being held. The binary runs it on stdin and stdout; tests run it on
//! byte buffers.
//!
//! What a line means is the protocol's business: the driver asks a
//! [`Frontend`] whether a line searches or stops, and for the reply.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Instant;

use super::{Engine, Input};

/// The longest input line read, in bytes (newline included); a longer one is
/// refused whole, and its bytes are never held.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// What a line read ahead means to the command running now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// A command that searches or enumerates, and so may run long: a `stop`
    /// read while it runs or waits its turn stops it.
    Search,
    /// `stop`.
    Stop,
    /// Anything else (a blank line too).
    Other,
}

/// The protocol as the driver sees it.
pub trait Frontend {
    /// What `line` is, read ahead of its turn.
    fn kind(&self, line: &str) -> LineKind;
    /// The full reply to `line`, whose time starts at `at`: when the line
    /// was read, or when the command before it ended if that was later.
    /// `None` for a line with no command.
    fn reply(&mut self, engine: &mut Engine, line: &str, at: Instant) -> Option<String>;
    /// The reply to a line of `len` bytes, over [`MAX_LINE_BYTES`].
    fn too_long(&self, len: usize) -> String;
}

/// How the loop ended.
#[derive(Debug)]
pub enum Ended {
    /// `quit`, the end of input, or a controller that went away.
    Done,
    /// The input could not be read.
    ReadError(io::Error),
}

/// One line read by [`read_line_capped`].
#[derive(Debug, PartialEq, Eq)]
pub enum ReadLine {
    /// A line, its newline included when it had one.
    Line(String),
    /// A line longer than the cap, skipped to its newline: its length in bytes.
    TooLong(usize),
    /// The input has ended.
    End,
}

/// Reads one line of at most `cap` bytes from `input`: a longer one is read
/// through to its newline and dropped (memory stays within `cap`), so the next
/// line starts cleanly. Bytes that are not UTF-8 are read lossily.
pub fn read_line_capped(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<ReadLine> {
    buf.clear();
    let mut len = 0usize;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        len += take;
        if len <= cap {
            buf.extend_from_slice(&chunk[..take]);
        }
        input.consume(take);
        if done {
            break;
        }
    }
    Ok(match len {
        0 => ReadLine::End,
        n if n > cap => ReadLine::TooLong(n),
        _ => ReadLine::Line(String::from_utf8_lossy(buf).into_owned()),
    })
}

/// Writes and flushes `text`; false if the controller has gone away.
fn send(out: &Mutex<impl Write>, text: &str) -> bool {
    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .is_ok()
}

/// What the reader thread shares with the loop.
#[derive(Default)]
struct Shared {
    /// Search commands read but not yet answered. The reader sets the stop
    /// flag only while one is pending, and the loop clears it when the last
    /// one is answered, both under this lock: a `stop` read just as a search
    /// ends can never stop the next one.
    pending: Mutex<usize>,
    /// Lines read by the reader, and taken by the loop: more read than taken
    /// means the controller has sent another line (blank or not) since the
    /// command now running.
    read: AtomicU64,
    taken: AtomicU64,
    closed: AtomicBool,
    /// Blank lines read, and how many had been read when the command running
    /// now was taken: one more interrupts a long enumeration.
    blanks: AtomicU64,
    blanks_before: AtomicU64,
}

/// Runs the protocol loop: lines from `input`, replies (streamed ones a piece at
/// a time) to `output`. The engine's reply sink and input probes are set here.
pub fn run<F, R, W>(engine: &mut Engine, frontend: &mut F, input: R, output: W) -> Ended
where
    F: Frontend + Clone + Send + 'static,
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let output = Arc::new(Mutex::new(output));
    let shared = Arc::new(Shared::default());
    {
        let out = Arc::clone(&output);
        // A controller that went away is noticed by the loop's next write.
        engine.set_reply_sink(Box::new(move |text| {
            send(&out, text);
        }));
    }
    {
        let s = Arc::clone(&shared);
        engine.set_interrupt(Box::new(move || {
            s.blanks.load(Ordering::SeqCst) > s.blanks_before.load(Ordering::SeqCst)
        }));
    }
    {
        let s = Arc::clone(&shared);
        engine.set_input(Box::new(move || {
            if s.read.load(Ordering::SeqCst) > s.taken.load(Ordering::SeqCst) {
                Input::Line
            } else if s.closed.load(Ordering::SeqCst) {
                Input::Closed
            } else {
                Input::Quiet
            }
        }));
    }
    // Each line as read, with the moment it was read (a search's time counts
    // from then, as the controller's clock does, unless an earlier command
    // still ran) and the blank lines read before it.
    let (tx, rx) = mpsc::channel::<(io::Result<ReadLine>, Instant, u64)>();
    let reader_shared = Arc::clone(&shared);
    let stop = engine.stop_flag();
    let classify = frontend.clone();
    std::thread::spawn(move || read_ahead(input, &reader_shared, &stop, &classify, &tx));
    // When the loop last became free: a line read while an earlier command
    // ran (a script piped in) is timed from when its turn came, not from when
    // it was read, so every `genmove` of a script gets its whole time.
    let mut free_since = Instant::now();
    for (got, read_at, blanks_so_far) in rx {
        let at = read_at.max(free_since);
        let line = match got {
            Ok(ReadLine::Line(line)) => line,
            Ok(ReadLine::End) => break,
            Ok(ReadLine::TooLong(len)) => {
                shared.taken.fetch_add(1, Ordering::SeqCst);
                if !send(&output, &frontend.too_long(len)) {
                    return Ended::Done;
                }
                free_since = Instant::now();
                continue;
            }
            Err(e) => return Ended::ReadError(e),
        };
        shared.taken.fetch_add(1, Ordering::SeqCst);
        shared.blanks_before.store(blanks_so_far, Ordering::SeqCst);
        let searched = frontend.kind(&line) == LineKind::Search;
        let reply = frontend.reply(engine, &line, at);
        if searched {
            let mut pending = shared.pending.lock().unwrap_or_else(|e| e.into_inner());
            *pending = pending.saturating_sub(1);
            if *pending == 0 {
                engine.clear_stop();
            }
        }
        if let Some(reply) = reply
            && !send(&output, &reply)
        {
            // The controller went away; nothing left to answer.
            return Ended::Done;
        }
        free_since = Instant::now();
        if engine.should_quit() {
            break;
        }
    }
    Ended::Done
}

/// The reader thread: reads every line as it comes, counts it, sets the stop
/// flag for a `stop` while a search is pending, and passes the line on.
fn read_ahead(
    mut input: impl BufRead,
    shared: &Shared,
    stop: &AtomicBool,
    frontend: &impl Frontend,
    tx: &mpsc::Sender<(io::Result<ReadLine>, Instant, u64)>,
) {
    let mut buf = Vec::with_capacity(256);
    loop {
        let got = read_line_capped(&mut input, &mut buf, MAX_LINE_BYTES);
        let at = Instant::now();
        let blanks_so_far = shared.blanks.load(Ordering::SeqCst);
        match &got {
            Ok(ReadLine::End) | Err(_) => {
                let _ = tx.send((got, at, blanks_so_far));
                break;
            }
            Ok(ReadLine::TooLong(_)) => {
                shared.read.fetch_add(1, Ordering::SeqCst);
            }
            Ok(ReadLine::Line(line)) => {
                // Every line counts, a blank one too (Enter ends an analysis).
                shared.read.fetch_add(1, Ordering::SeqCst);
                if line.trim().is_empty() {
                    shared.blanks.fetch_add(1, Ordering::SeqCst);
                }
                let mut pending = shared.pending.lock().unwrap_or_else(|e| e.into_inner());
                match frontend.kind(line) {
                    LineKind::Search => *pending += 1,
                    LineKind::Stop if *pending > 0 => stop.store(true, Ordering::SeqCst),
                    _ => {}
                }
            }
        }
        if tx.send((got, at, blanks_so_far)).is_err() {
            break;
        }
    }
    shared.closed.store(true, Ordering::SeqCst);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_dropped_whole_and_the_next_one_read() {
        let text = format!("name\n{}\nversion\nlast", "x".repeat(100));
        let mut input = std::io::BufReader::with_capacity(7, text.as_bytes());
        let mut buf = Vec::new();
        let mut read = || read_line_capped(&mut input, &mut buf, 20).unwrap();
        assert_eq!(read(), ReadLine::Line("name\n".into()));
        assert_eq!(read(), ReadLine::TooLong(101));
        assert_eq!(read(), ReadLine::Line("version\n".into()));
        assert_eq!(read(), ReadLine::Line("last".into()));
        assert_eq!(read(), ReadLine::End);
        assert!(buf.capacity() < 64, "the long line was never held");
    }

    /// A frontend whose `slow` command returns only once the reader has read
    /// the line after it, and which keeps the start time of every line.
    #[derive(Clone, Default)]
    struct Recorder {
        next_read: Arc<AtomicBool>,
        starts: Arc<Mutex<Vec<(String, Instant)>>>,
        slow_ended: Arc<Mutex<Option<Instant>>>,
    }

    impl Frontend for Recorder {
        fn kind(&self, line: &str) -> LineKind {
            if line.trim() == "next" {
                self.next_read.store(true, Ordering::SeqCst);
            }
            LineKind::Search
        }
        fn reply(&mut self, _: &mut Engine, line: &str, at: Instant) -> Option<String> {
            let line = line.trim().to_string();
            if line == "slow" {
                let give_up = Instant::now() + std::time::Duration::from_secs(10);
                while !self.next_read.load(Ordering::SeqCst) && Instant::now() < give_up {
                    std::thread::yield_now();
                }
                *self.slow_ended.lock().unwrap() = Some(Instant::now());
            }
            self.starts.lock().unwrap().push((line, at));
            Some("=\n\n".into())
        }
        fn too_long(&self, _: usize) -> String {
            "?\n\n".into()
        }
    }

    /// A line read while the command before it still ran is timed from when
    /// that command ended: a `genmove` queued in a script keeps its time.
    #[test]
    fn a_queued_line_is_timed_from_its_turn() {
        let mut recorder = Recorder::default();
        let mut engine = Engine::new();
        let before = Instant::now();
        run(&mut engine, &mut recorder, &b"slow\nnext\n"[..], Vec::new());
        assert!(recorder.next_read.load(Ordering::SeqCst));
        let starts = recorder.starts.lock().unwrap().clone();
        let slow_ended = recorder.slow_ended.lock().unwrap().expect("slow ran");
        assert_eq!(starts.len(), 2);
        assert_eq!(starts[0].0, "slow");
        assert!(starts[0].1 >= before && starts[0].1 <= slow_ended);
        assert_eq!(starts[1].0, "next");
        assert!(
            starts[1].1 >= slow_ended,
            "the queued line was timed from when it was read"
        );
    }
}
