//! Record files: read and written only when they are regular files (a FIFO,
//! a device or a directory is refused before it is opened, so nothing
//! blocks), read up to a size bound, with errors in words.

/// The largest record file read anywhere (`loadgame`, `tessera analyze`): far
/// beyond any real record, small enough that a wrong path cannot exhaust memory.
pub const MAX_RECORD_BYTES: u64 = 16 << 20;

/// An I/O error's text without the `(os error N)` tail.
pub fn io_text(err: &std::io::Error) -> String {
    let text = err.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// What a path names when it is not a regular file, in words.
fn not_regular(meta: &std::fs::Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if t.is_socket() {
            return Some("a socket");
        }
        if t.is_char_device() || t.is_block_device() {
            return Some("a device");
        }
    }
    Some("not a regular file")
}

/// Reads a whole record file: only a regular file (a FIFO, a device, a
/// directory or `/dev/stdin` is refused before it is opened, so nothing
/// blocks), at most [`MAX_RECORD_BYTES`], UTF-8 text. The error says why.
pub fn read_record_file(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| io_text(&e))?;
    if let Some(what) = not_regular(&meta) {
        return Err(format!("{what}, not a game record file"));
    }
    let file = std::fs::File::open(path).map_err(|e| io_text(&e))?;
    // The path could have been swapped since the look: ask the open file too.
    if let Some(what) = file.metadata().ok().as_ref().and_then(not_regular) {
        return Err(format!("{what}, not a game record file"));
    }
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io_text(&e))?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(format!(
            "larger than {} MB, not a game record",
            MAX_RECORD_BYTES >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".into())
}

/// Writes a record file: a new file, or a regular one replaced; anything else
/// (a FIFO, a device, a directory) is refused before it is opened.
pub fn write_record_file(path: &std::path::Path, text: &str) -> Result<(), String> {
    match std::fs::metadata(path) {
        Ok(meta) => {
            if let Some(what) = not_regular(&meta) {
                return Err(format!("{what}, not a file to write a record to"));
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_text(&e)),
    }
    std::fs::write(path, text).map_err(|e| io_text(&e))
}
