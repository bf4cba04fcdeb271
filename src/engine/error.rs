//! Why a command failed. Each kind maps to GTP's own error string where GTP has
//! one; the detail always quotes the input that was refused.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    UnknownCommand,
    Syntax,
    IllegalMove,
    UnacceptableSize,
    CannotUndo,
    InvalidPosition,
    /// Anything else the command cannot do now (a command of the other game…);
    /// GTP has no string for it, so the reply is the detail alone.
    Refused,
}

impl ErrorKind {
    /// The fixed text a controller can match on; GTP's own where it has one.
    pub fn text(self) -> &'static str {
        match self {
            ErrorKind::UnknownCommand => "unknown command",
            ErrorKind::Syntax => "syntax error",
            ErrorKind::IllegalMove => "illegal move",
            ErrorKind::UnacceptableSize => "unacceptable size",
            ErrorKind::CannotUndo => "cannot undo",
            ErrorKind::InvalidPosition => "invalid position",
            ErrorKind::Refused => "",
        }
    }
}

/// A failed command: `? <kind>: <detail>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError {
    pub kind: ErrorKind,
    pub detail: String,
}

impl CommandError {
    pub fn new(kind: ErrorKind, detail: impl Into<String>) -> Self {
        CommandError {
            kind,
            detail: detail.into(),
        }
    }
    pub fn syntax(detail: impl Into<String>) -> Self {
        Self::new(ErrorKind::Syntax, detail)
    }
    pub fn illegal(detail: impl Into<String>) -> Self {
        Self::new(ErrorKind::IllegalMove, detail)
    }
    pub fn refused(detail: impl Into<String>) -> Self {
        Self::new(ErrorKind::Refused, detail)
    }
    /// `unknown command: 'name'`, the name quoted up to [`MAX_ECHO_CHARS`]
    /// characters: `'xxxx...' (N bytes in all)` beyond.
    pub fn unknown_command(name: &str) -> Self {
        let detail = match name.char_indices().nth(MAX_ECHO_CHARS) {
            None => format!("'{name}'"),
            Some((end, _)) => format!("'{}...' ({} bytes in all)", &name[..end], name.len()),
        };
        Self::new(ErrorKind::UnknownCommand, detail)
    }
}

/// The most characters of an unknown command's name its error quotes.
pub const MAX_ECHO_CHARS: usize = 64;

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.detail.is_empty() || self.kind.text().is_empty() {
            write!(f, "{}{}", self.kind.text(), self.detail)
        } else {
            write!(f, "{}: {}", self.kind.text(), self.detail)
        }
    }
}

impl std::error::Error for CommandError {}

impl From<crate::core::MoveError> for CommandError {
    fn from(e: crate::core::MoveError) -> Self {
        match e {
            crate::core::MoveError::Syntax(s) => CommandError::syntax(s),
            crate::core::MoveError::Illegal(s) => CommandError::illegal(s),
        }
    }
}

pub type CommandResult = Result<String, CommandError>;
