//! Helpers shared by the integration tests (each test file that needs them
//! says `mod common;`; not every file uses every helper).
#![allow(dead_code)]

use std::path::PathBuf;

use tessera::protocol::Engine;

/// The whole reply to `line` (empty when the line holds no command).
pub fn run(e: &mut Engine, line: &str) -> String {
    e.handle_line(line).unwrap_or_default()
}

/// The text of a successful reply (panics with the reply otherwise).
pub fn ok(e: &mut Engine, line: &str) -> String {
    let r = run(e, line);
    assert!(r.starts_with('='), "`{line}` failed: {r}");
    r.trim_start_matches('=').trim().to_string()
}

/// A fresh, empty scratch folder `<target tmp>/<group>/<name>` for one test.
pub fn scratch(group: &str, name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(group)
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Everything the binary writes on stdout for `input` (all of it written,
/// then stdin closed); it must exit with success.
pub fn binary_output(input: &[u8]) -> String {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn tessera");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut out)
        .expect("read replies");
    writer.join().expect("writer");
    assert!(child.wait().expect("wait").success());
    out
}
