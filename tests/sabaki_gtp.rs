//! A third-party GTP client against the `tessera` binary: `tests/sabaki/game.mjs`
//! drives it through `@sabaki/gtp` (the GTP library of the Sabaki GUI, pinned in
//! `tests/sabaki/package-lock.json`): a whole Rekushu game, a streamed analysis,
//! genmove_analyze, errors, REBUS moves.
//!
//! Needs Node.js and npm. Without them (a machine with only the Rust
//! toolchain) the test prints a notice and passes, except under `CI=true`,
//! where missing tools fail it (`.ci/run` installs them); with them, any
//! failure, `npm ci` included, fails it. `npm ci` runs once, when
//! `tests/sabaki/node_modules` lacks the package.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// True if `program --version` runs.
fn installed(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs `cmd` to completion within `limit`, returning its status and output.
fn run(mut cmd: Command, limit: Duration) -> (bool, String) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let out = child.wait_with_output().expect("output");
                panic!(
                    "{cmd:?} took more than {limit:?}\n{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => panic!("{cmd:?}: {e}"),
        }
    }
    let out = child.wait_with_output().expect("output");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn sabaki_gtp_client_plays_a_game() {
    // npm is `npm.cmd` on Windows.
    let npm = if cfg!(windows) { "npm.cmd" } else { "npm" };
    let missing: Vec<&str> = ["node", npm]
        .into_iter()
        .filter(|p| !installed(p))
        .collect();
    if !missing.is_empty() {
        let msg = format!(
            "{} not installed: the @sabaki/gtp client test (tests/sabaki) needs Node.js and npm",
            missing.join(" and ")
        );
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{msg}; under CI=true it must run (.ci/run installs nodejs and npm)");
        }
        // Straight to stderr, past the test harness's capture, so that the skip shows.
        let _ = writeln!(std::io::stderr(), "NOTICE: {msg}; the test did not run");
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sabaki");
    if !dir.join("node_modules/@sabaki/gtp/package.json").is_file() {
        let mut ci = Command::new(npm);
        ci.args(["ci", "--no-audit", "--no-fund"]).current_dir(&dir);
        let (ok, out) = run(ci, Duration::from_secs(300));
        assert!(ok, "npm ci in {} failed:\n{out}", dir.display());
    }
    let mut game = Command::new("node");
    game.arg("game.mjs")
        .arg(env!("CARGO_BIN_EXE_tessera"))
        .current_dir(&dir);
    let (ok, out) = run(game, Duration::from_secs(180));
    eprintln!("{out}");
    assert!(ok, "tests/sabaki/game.mjs failed:\n{out}");
}
