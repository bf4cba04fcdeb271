//! Helpers of the arena's tests: run the `arena` binary on the test engine
//! and read back its JSON summary.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

pub const ENGINE: &str = env!("CARGO_BIN_EXE_arena-test-engine");
pub const ARENA: &str = env!("CARGO_BIN_EXE_arena");

/// A fresh scratch folder under the target dir.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Runs the arena with `args` plus `--json`; returns the parsed summary and stdout.
pub fn run_arena(name: &str, args: &[&str]) -> (Value, String) {
    let dir = scratch(name);
    let json = dir.join("summary.json");
    let records = dir.join("records");
    let out = Command::new(ARENA)
        .args(args)
        .arg("--quiet")
        .arg("--json")
        .arg(&json)
        .arg("--records")
        .arg(&records)
        .output()
        .expect("arena runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "arena failed: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&json).expect("summary written");
    (
        serde_json::from_str(&text).expect("summary is JSON"),
        stdout,
    )
}

pub fn engine(name: &str, extra: &str) -> String {
    format!("{name}={ENGINE} {extra}")
}

pub fn u(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("'{key}' in {v}"))
}
