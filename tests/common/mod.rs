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
