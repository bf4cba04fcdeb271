//! The streaming driver: the protocol loop over any input and output. One reply
//! per command, flushed at once, until `quit` or the end of input. A reader
//! thread reads ahead, so that a `stop` line can end the search it follows and
//! a command line can end a streamed analysis; bytes that are not UTF-8 are
//! read lossily, and a line longer than [`MAX_LINE_BYTES`] is refused without
//! being held. The binary runs it on stdin and stdout; tests run it on byte
//! buffers.
//!
//! The same input gives the same replies, however fast it arrives:
//! - a line with no command (blank, or a comment) is no input at all: it is
//!   not answered, and it neither stops nor ends anything;
//! - `stop` is meant for the newest search command read before it (a line
//!   the protocol calls [`LineKind::Search`]), and for nothing else: if that
//!   search is running or still waiting its turn, the stop flag is raised for
//!   it, at once or as it starts; a stop read after it was answered does
//!   nothing. The searches themselves decide what the flag may change: only
//!   those whose answer is what they found when stopped (a move on the clock,
//!   a streamed analysis) listen to it.
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
    /// A command that searches, and so may run long: a `stop` read after it,
    /// while it runs or waits its turn, is meant for it.
    Search,
    /// `stop`.
    Stop,
    /// Any other command.
    Other,
    /// No command at all: a blank line or a comment. Never answered; never
    /// counts as input.
    Blank,
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

/// Which search a `stop` is meant for: searches are numbered 1, 2, … in the
/// order they were read.
#[derive(Default)]
struct Stops {
    /// The number of the newest search read.
    read: u64,
    /// Every search up to this number has been answered.
    answered: u64,
    /// The search running now.
    running: Option<u64>,
    /// The search a `stop` was read for, not yet answered.
    target: Option<u64>,
}

/// What the reader thread shares with the loop.
#[derive(Default)]
struct Shared {
    /// Under this lock the reader marks a search as stopped and the loop
    /// starts and ends searches, so a `stop` reaches exactly the search it
    /// was meant for, never the next one.
    stops: Mutex<Stops>,
    /// Command lines read by the reader, and taken by the loop: more read
    /// than taken means the controller has sent another command since the one
    /// running now. Lines with no command are not counted.
    read: AtomicU64,
    taken: AtomicU64,
    closed: AtomicBool,
}

impl Shared {
    fn stops(&self) -> std::sync::MutexGuard<'_, Stops> {
        self.stops.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One line as the reader passes it on: what it read, when, what the line
/// is, and a search's number.
type Read = (io::Result<ReadLine>, Instant, LineKind, u64);

/// Runs the protocol loop: lines from `input`, replies (streamed ones a piece at
/// a time) to `output`. The engine's reply sink and input probe are set here.
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
    // still ran).
    let (tx, rx) = mpsc::channel::<Read>();
    let reader_shared = Arc::clone(&shared);
    let stop = engine.stop_flag();
    let classify = frontend.clone();
    std::thread::spawn(move || read_ahead(input, &reader_shared, &stop, &classify, &tx));
    // When the loop last became free: a line read while an earlier command
    // ran (a script piped in) is timed from when its turn came, not from when
    // it was read, so every `genmove` of a script gets its whole time.
    let mut free_since = Instant::now();
    for (got, read_at, kind, search) in rx {
        let at = read_at.max(free_since);
        let line = match got {
            Ok(ReadLine::Line(_)) if kind == LineKind::Blank => continue,
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
        if kind == LineKind::Search {
            let mut stops = shared.stops();
            stops.running = Some(search);
            if stops.target == Some(search) {
                engine.stop_flag().store(true, Ordering::SeqCst);
            }
        }
        let reply = frontend.reply(engine, &line, at);
        if kind == LineKind::Search {
            let mut stops = shared.stops();
            stops.running = None;
            stops.answered = search;
            if stops.target.is_some_and(|t| t <= search) {
                stops.target = None;
            }
            engine.clear_stop();
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

/// The reader thread: reads every line as it comes, counts command lines,
/// numbers searches, marks the search a `stop` is meant for (raising the stop
/// flag at once if it runs now), and passes each line on.
fn read_ahead(
    mut input: impl BufRead,
    shared: &Shared,
    stop: &AtomicBool,
    frontend: &impl Frontend,
    tx: &mpsc::Sender<Read>,
) {
    let mut buf = Vec::with_capacity(256);
    loop {
        let got = read_line_capped(&mut input, &mut buf, MAX_LINE_BYTES);
        let at = Instant::now();
        let (kind, search) = match &got {
            Ok(ReadLine::End) | Err(_) => {
                let _ = tx.send((got, at, LineKind::Blank, 0));
                break;
            }
            Ok(ReadLine::TooLong(_)) => {
                shared.read.fetch_add(1, Ordering::SeqCst);
                (LineKind::Other, 0)
            }
            Ok(ReadLine::Line(line)) => {
                let kind = frontend.kind(line);
                if kind != LineKind::Blank {
                    shared.read.fetch_add(1, Ordering::SeqCst);
                }
                let mut stops = shared.stops();
                match kind {
                    LineKind::Search => {
                        stops.read += 1;
                        (kind, stops.read)
                    }
                    LineKind::Stop => {
                        // Meant for the newest search read, if not yet answered.
                        if stops.read > stops.answered {
                            stops.target = Some(stops.read);
                            if stops.running == Some(stops.read) {
                                stop.store(true, Ordering::SeqCst);
                            }
                        }
                        (kind, 0)
                    }
                    _ => (kind, 0),
                }
            }
        };
        if tx.send((got, at, kind, search)).is_err() {
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

    /// A frontend whose `slow` search waits (up to ten seconds) for the stop
    /// flag, and whose `fast` search waits a moment; each records whether
    /// the flag was up when it ended.
    #[derive(Clone, Default)]
    struct StopWatcher {
        seen: Arc<Mutex<Vec<(String, bool)>>>,
    }

    impl Frontend for StopWatcher {
        fn kind(&self, line: &str) -> LineKind {
            match line.trim() {
                "slow" | "fast" => LineKind::Search,
                "stop" => LineKind::Stop,
                "" => LineKind::Blank,
                _ => LineKind::Other,
            }
        }
        fn reply(&mut self, engine: &mut Engine, line: &str, _: Instant) -> Option<String> {
            let line = line.trim().to_string();
            let flag = engine.stop_flag();
            let give_up = Instant::now()
                + std::time::Duration::from_millis(if line == "slow" { 10_000 } else { 50 });
            while !(line == "slow" && flag.load(Ordering::SeqCst)) && Instant::now() < give_up {
                std::thread::yield_now();
            }
            self.seen
                .lock()
                .unwrap()
                .push((line, flag.load(Ordering::SeqCst)));
            Some("=\n\n".into())
        }
        fn too_long(&self, _: usize) -> String {
            "?\n\n".into()
        }
    }

    /// The stop reaches the newest search read before it, with other lines
    /// between, and never a search read after it; a blank line stops nothing.
    #[test]
    fn a_stop_reaches_exactly_the_search_it_follows() {
        for script in [
            "slow\nstop\nfast\n",
            "slow\nname\n\nstop\nfast\nfast\n",
            "fast\nslow\nstop\nstop\nfast\n",
        ] {
            let mut watcher = StopWatcher::default();
            let mut engine = Engine::new();
            run(&mut engine, &mut watcher, script.as_bytes(), Vec::new());
            let seen = watcher.seen.lock().unwrap().clone();
            let searches: Vec<&(String, bool)> = seen
                .iter()
                .filter(|(l, _)| l == "slow" || l == "fast")
                .collect();
            assert!(!searches.is_empty(), "{script:?}");
            for (line, stopped) in searches {
                assert_eq!(*stopped, line == "slow", "{script:?}: {seen:?}");
            }
        }
        // A blank line after a search is no input: the search is not stopped.
        let mut watcher = StopWatcher::default();
        run(
            &mut Engine::new(),
            &mut watcher,
            &b"fast\n\n\nfast\n"[..],
            Vec::new(),
        );
        let seen = watcher.seen.lock().unwrap().clone();
        assert_eq!(
            seen,
            [("fast".to_string(), false), ("fast".to_string(), false)]
        );
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
