//! A command's arguments, with its name and usage from the command table: the
//! usage a handler's errors show is the one `help` shows, never typed again.

use std::ops::Deref;

use crate::engine::CommandError;

/// The arguments of one command, as typed.
#[derive(Clone, Copy, Debug)]
pub struct Args<'a> {
    name: &'static str,
    usage: &'static str,
    words: &'a [String],
}

impl<'a> Args<'a> {
    /// The arguments of the command `name`, whose usage is `usage`.
    pub fn new(name: &'static str, usage: &'static str, words: &'a [String]) -> Self {
        Args { name, usage, words }
    }

    pub fn name(&self) -> &'static str {
        self.name
    }

    pub fn usage(&self) -> &'static str {
        self.usage
    }

    pub fn words(&self) -> &'a [String] {
        self.words
    }

    /// The arguments as typed, joined by spaces.
    pub fn text(&self) -> String {
        self.words.join(" ")
    }

    /// Refuses any argument, with [`Args::usage_error`] as every wrong count does.
    pub fn none(&self) -> Result<(), CommandError> {
        match self.words.is_empty() {
            true => Ok(()),
            false => Err(self.usage_error()),
        }
    }

    /// Exactly `N` arguments, or [`Args::usage_error`].
    pub fn exact<const N: usize>(&self) -> Result<[&'a str; N], CommandError> {
        if self.words.len() != N {
            return Err(self.usage_error());
        }
        let words = self.words;
        Ok(std::array::from_fn(|i| words[i].as_str()))
    }

    /// `usage: <name> <usage> (got '<args>')`, or `(got nothing)`; a command
    /// without arguments: `usage: undo (got '2')`.
    pub fn usage_error(&self) -> CommandError {
        let got = if self.words.is_empty() {
            "nothing".to_string()
        } else {
            format!("'{}'", self.text())
        };
        let usage = match self.usage {
            "" => self.name.to_string(),
            usage => format!("{} {usage}", self.name),
        };
        CommandError::syntax(format!("usage: {usage} (got {got})"))
    }
}

impl<'a> Deref for Args<'a> {
    type Target = [String];

    fn deref(&self) -> &[String] {
        self.words
    }
}
