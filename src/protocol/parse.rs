//! Turning one input line into a request, as GTP version 2 §3.1 prescribes:
//! control characters other than tab and newline are dropped, `#` starts a
//! comment, tabs read as spaces, a blank line is no command at all, an optional
//! numeric id comes first, and command names are case-insensitive.

use crate::engine::CommandError;
use crate::engine::driver::MAX_LINE_BYTES;

/// One command as typed: its id (digits, echoed in the reply exactly as sent:
/// `007 name` is answered `=007 tessera`), name (lower case) and arguments (as
/// given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub id: Option<String>,
    pub name: String,
    pub args: Vec<String>,
}

/// GTP preprocessing of a raw line; returns the words left. Control characters
/// other than tab and newline are discarded (not treated as spaces), so
/// `NA\x01ME` reads as `NAME`.
pub fn preprocess(line: &str) -> Vec<String> {
    let line = match line.find('#') {
        Some(i) => &line[..i],
        None => line,
    };
    let cleaned: String = line
        .chars()
        .filter(|&c| !c.is_control() || c == '\t' || c == '\n')
        .collect();
    cleaned
        .split([' ', '\t', '\n'])
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect()
}

/// The request on `line`, or `None` for a line with nothing to do. An id with no
/// command after it is a request with an empty name (answered as an error).
pub fn parse_request(line: &str) -> Option<Request> {
    let words = preprocess(line);
    let (first, rest) = words.split_first()?;
    let (id, words) = match first.bytes().all(|b| b.is_ascii_digit()) {
        true => (Some(first.clone()), rest),
        false => (None, &words[..]),
    };
    let (name, args) = match words.split_first() {
        Some((name, args)) => (name.to_ascii_lowercase(), args),
        None => (String::new(), &[][..]),
    };
    Some(Request {
        id,
        name,
        args: args.to_vec(),
    })
}

/// The longest error message sent; a longer one (which can only be quoting
/// long input) is cut there and says how long it was.
pub const MAX_ERROR_BYTES: usize = 512;

/// The reply to a line over [`MAX_LINE_BYTES`].
pub fn too_long_reply(len: usize) -> String {
    let e = CommandError::syntax(format!(
        "input line of {len} bytes refused (lines are at most {MAX_LINE_BYTES} bytes)"
    ));
    format_reply(None, &Err(e))
}

/// Whether `c` would print as nothing or as a plain space: whitespace other
/// than the space itself (a no-break space, an ideographic space…), and the
/// format characters (zero-width spaces and joiners, bidirectional marks, the
/// byte-order mark, the soft hyphen). Control characters never reach a
/// message: [`preprocess`] drops them.
fn invisible(c: char) -> bool {
    (c.is_whitespace() && c != ' ')
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}'
            | '\u{17B5}' | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}')
}

/// An error message with every invisible character written as `\u{…}`, so
/// that the quoted input shows what was really sent: `play\u{a0}b`, not a
/// `play b` that looks right.
fn show_invisible(text: String) -> String {
    if !text.chars().any(invisible) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if invisible(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` with invisible characters shown ([`show_invisible`]), cut to at
/// most [`MAX_ERROR_BYTES`] (on a character boundary), with the length it had.
fn clip(text: String) -> String {
    let text = show_invisible(text);
    if text.len() <= MAX_ERROR_BYTES {
        return text;
    }
    let mut end = MAX_ERROR_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes in all)", &text[..end], text.len())
}

/// The reply text for a request: `=id text` or `?id message`, one empty line
/// after it and none inside. Error messages are cut to [`MAX_ERROR_BYTES`].
pub fn format_reply(id: Option<&str>, result: &Result<String, CommandError>) -> String {
    let (mark, body) = match result {
        Ok(text) => ('=', text.clone()),
        Err(e) => ('?', clip(e.to_string())),
    };
    let mut out = String::with_capacity(body.len() + 8);
    out.push(mark);
    if let Some(id) = id {
        out.push_str(id);
    }
    // An empty line would end the reply early; drop any inside the body.
    let body: Vec<&str> = body.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    for (i, line) in body.iter().enumerate() {
        if i == 0 {
            // GTP's success reply is `=`, the id, a space, then the text; a
            // text that starts on the next line (`showboard`) keeps the
            // space: GoGui, like other clients, reads a reply's text from
            // after its first space, and would cut the first line of the
            // board without it.
            if !line.is_empty() {
                out.push(' ');
                out.push_str(line);
            } else if body.len() > 1 {
                out.push(' ');
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        out.push('\n');
        out.push_str(line);
    }
    out.push_str("\n\n");
    out
}

/// The end of a streamed reply whose first line (`=id`) and lines so far are
/// already out: the result's lines (blank ones dropped), then the empty line.
/// A failure this late cannot turn the reply into `?`; its message becomes a
/// line `error: …`.
pub fn format_stream_tail(result: &Result<String, CommandError>) -> String {
    let body = match result {
        Ok(text) => text.clone(),
        Err(e) => format!("error: {}", clip(e.to_string())),
    };
    let mut out = String::with_capacity(body.len() + 2);
    for line in body.split('\n').map(|l| l.trim_end_matches('\r')) {
        if !line.trim().is_empty() {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_controls_tabs_and_ids() {
        let r = parse_request("12\tPLAY  b\u{1}  K1\u{7}0 # a comment").unwrap();
        assert_eq!(r.id.as_deref(), Some("12"));
        assert_eq!(r.name, "play");
        assert_eq!(r.args, vec!["b", "K10"]);
        assert!(parse_request("   # only a comment").is_none());
        assert!(parse_request("\t \r").is_none());
        let r = parse_request("7").unwrap();
        assert_eq!((r.id.as_deref(), r.name.as_str()), (Some("7"), ""));
        let r = parse_request("+7 name").unwrap();
        assert_eq!((r.id, r.name.as_str()), (None, "+7"));
        let r = parse_request("007 name").unwrap();
        assert_eq!(r.id.as_deref(), Some("007"), "ids are echoed as sent");
        let r = parse_request("123456789012345678901234567890 name").unwrap();
        assert_eq!(r.id.as_deref(), Some("123456789012345678901234567890"));
    }

    #[test]
    fn invisible_characters_are_shown_escaped() {
        let e = CommandError::unknown_command("play\u{a0}b");
        assert_eq!(
            format_reply(None, &Err(e)),
            "? unknown command: 'play\\u{a0}b'\n\n"
        );
        let e = CommandError::syntax("'K\u{200b}10' and 'caf\u{e9}'");
        assert_eq!(
            format_reply(None, &Err(e)),
            "? syntax error: 'K\\u{200b}10' and 'caf\u{e9}'\n\n"
        );
    }

    #[test]
    fn long_error_messages_are_cut() {
        let e = CommandError::syntax(format!("bad '{}'", "é".repeat(1000)));
        let reply = format_reply(None, &Err(e));
        assert!(reply.len() < MAX_ERROR_BYTES + 64, "{}", reply.len());
        assert!(reply.ends_with("... (2020 bytes in all)\n\n"), "{reply}");
    }

    #[test]
    fn replies_have_no_inner_blank_lines() {
        assert_eq!(format_reply(Some("3"), &Ok("x".into())), "=3 x\n\n");
        assert_eq!(format_reply(None, &Ok(String::new())), "=\n\n");
        assert_eq!(format_reply(None, &Ok("\na\n\nb\n".into())), "= \na\nb\n\n");
        let e = CommandError::syntax("bad 'q'");
        assert_eq!(
            format_reply(Some("1"), &Err(e)),
            "?1 syntax error: bad 'q'\n\n"
        );
    }
}
