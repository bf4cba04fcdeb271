//! Replays protocol sessions from `tests/data/transcripts/*.txt` and compares
//! every reply with the one written there.
//!
//! Format: a line starting with `> ` is sent to the engine (the rest of the line,
//! as is); every other line, up to the next `> ` line, is the expected output,
//! byte for byte (replies end with their empty line). Lines starting with `;;`
//! are comments for the reader and are skipped.
//!
//! Beyond the text, every command answered with `?` must leave the engine's
//! state exactly as it was (its fingerprint before = after).
//!
//! After a change of replies made on purpose, `TESSERA_BLESS=1 cargo test
//! --release --test all transcripts` writes the replies the engine gives now
//! into the files (comments kept); review the diff before committing it.

use std::fs;
use std::path::Path;
use tessera::protocol::Engine;

fn replay(path: &Path) -> Result<(), String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut engine = Engine::new();
    // (command, expected output, the comment lines after it)
    let mut steps: Vec<(String, String, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with(";;") {
            if let Some(last) = steps.last_mut() {
                last.2.push_str(line);
            }
            continue;
        }
        if let Some(cmd) = line.strip_prefix("> ") {
            steps.push((
                cmd.trim_end_matches('\n').to_string(),
                String::new(),
                String::new(),
            ));
        } else if let Some(last) = steps.last_mut() {
            last.1.push_str(line);
        } else if !line.trim().is_empty() {
            return Err(format!(
                "{}: output before the first command: {line:?}",
                path.display()
            ));
        }
    }
    let bless = std::env::var_os("TESSERA_BLESS").is_some();
    let mut blessed = String::new();
    for (n, (cmd, expected, comments)) in steps.iter().enumerate() {
        let before = engine.fingerprint();
        let got = engine.handle_line(cmd).unwrap_or_default();
        if bless {
            // The comments written before the next command stay before it.
            blessed.push_str(&format!("> {cmd}\n{got}{comments}"));
            continue;
        }
        if &got != expected {
            return Err(format!(
                "{} step {} `{cmd}`:\n--- expected\n{expected}--- got\n{got}---",
                path.display(),
                n + 1
            ));
        }
        if got.starts_with('?') && engine.fingerprint() != before {
            return Err(format!(
                "{} step {} `{cmd}`: rejected but changed the state",
                path.display(),
                n + 1
            ));
        }
    }
    if bless {
        let head: String = text
            .split_inclusive('\n')
            .take_while(|l| !l.starts_with("> "))
            .collect();
        fs::write(path, head + &blessed).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

#[test]
fn transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/transcripts");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "txt"));
    files.sort();
    assert!(!files.is_empty(), "no transcripts in {}", dir.display());
    let failures: Vec<String> = files.iter().filter_map(|f| replay(f).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
