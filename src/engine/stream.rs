//! The streamed reply (`analyze`, `genmove_analyze`): its first line goes
//! out as soon as the command is accepted, then its blocks as they come, to
//! the reply sink the binary gives ([`super::Engine::set_reply_sink`]), or
//! collected for the reply when there is none. The input probes tell a
//! running command what the controller has sent meanwhile.

/// What the controller has sent since the command running now was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Nothing yet.
    Quiet,
    /// At least one more command line.
    Line,
    /// The input has ended: nothing more can come.
    Closed,
}

/// Asks whether more input has arrived ([`super::Engine::set_input`]).
pub type InputProbe = Box<dyn Fn() -> Input + Send>;
/// Receives a streamed reply a piece at a time ([`super::Engine::set_reply_sink`]).
pub type ReplySink = Box<dyn FnMut(&str) + Send>;

/// The streamed reply of the command running now.
#[derive(Debug, Default)]
pub struct StreamState {
    /// The reply's first line, as the protocol frames it (`=12`).
    head: String,
    started: bool,
    /// What was streamed while no sink was set.
    collected: String,
}

impl StreamState {
    /// The stream of a reply whose first line is `head` (without its newline).
    pub fn new(head: String) -> Self {
        StreamState {
            head,
            ..StreamState::default()
        }
    }

    /// True once the reply's first line went out.
    pub fn started(&self) -> bool {
        self.started
    }

    pub fn into_collected(self) -> String {
        self.collected
    }
}

/// Writes the lines of a streamed reply: the first line (`=id`) once, then
/// each line given, to the sink or into the collected text.
pub struct Emitter<'a> {
    sink: Option<&'a mut ReplySink>,
    state: &'a mut StreamState,
}

impl<'a> Emitter<'a> {
    pub fn new(sink: Option<&'a mut ReplySink>, state: &'a mut StreamState) -> Self {
        Emitter { sink, state }
    }

    /// Starts the reply (its first line); the command can no longer fail.
    pub fn start(&mut self) {
        if self.state.started {
            return;
        }
        self.state.started = true;
        let head = format!("{}\n", self.state.head);
        self.write(&head);
    }

    /// Lines of the reply; blank ones are dropped (they would end the reply).
    pub fn lines(&mut self, text: &str) {
        self.start();
        let mut out = String::with_capacity(text.len() + 1);
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            out.push_str(line);
            out.push('\n');
        }
        if !out.is_empty() {
            self.write(&out);
        }
    }

    fn write(&mut self, text: &str) {
        match self.sink.as_mut() {
            Some(sink) => sink(text),
            None => self.state.collected.push_str(text),
        }
    }
}
