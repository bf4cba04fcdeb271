//! Every `console` example of the docs is run and its output compared with
//! the one the page shows: README.md, protocol.md and `docs/*.md` (not the
//! dated pages of `docs/history/`). In an example, a line starting `$ ` is a
//! command, run by `sh` from the repository's root with `tessera` meaning this
//! build's binary (so is `cargo run --release -q [--]`); the lines after it,
//! up to the next command or the end of the block, are its standard output.
//! A `gtp` block is a session with the engine: each `> ` line is sent to one
//! engine process, in order, and the other lines are the replies it answers.
//! In the expected output `…` stands for any text within the line (times,
//! speeds). Examples that depend on time or take long are written as `sh`
//! or plain blocks instead, and are not run.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The pages whose examples are run.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md"), root.join("protocol.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// One example: the page, the line the command is on, the command, the
/// output shown.
struct Example {
    page: PathBuf,
    line: usize,
    command: String,
    output: Vec<String>,
}

/// The examples of a page: each `console` command, and each `gtp` session
/// as one command that pipes its lines into `tessera`.
fn examples(page: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(page).expect("page");
    let mut out: Vec<Example> = Vec::new();
    // The kind of block the line is in, if it is run.
    let mut block: Option<&str> = None;
    let mut session: Vec<String> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(kind) = block else {
            block = match line.trim() {
                "```console" => Some("console"),
                "```gtp" => Some("gtp"),
                _ => None,
            };
            if block == Some("gtp") {
                session.clear();
                out.push(Example {
                    page: page.to_path_buf(),
                    line: i + 1,
                    command: String::new(),
                    output: Vec::new(),
                });
            }
            continue;
        };
        if line.trim() == "```" {
            if kind == "gtp"
                && let Some(last) = out.last_mut()
            {
                let input: String = session.iter().map(|c| format!("{c}\n")).collect();
                last.command = format!("printf '%s' '{}' | tessera", input.replace('\'', "'\\''"));
            }
            block = None;
            continue;
        }
        match (kind, line.strip_prefix("$ "), line.strip_prefix("> ")) {
            ("console", Some(command), _) => out.push(Example {
                page: page.to_path_buf(),
                line: i + 1,
                command: command.to_string(),
                output: Vec::new(),
            }),
            ("gtp", _, Some(command)) => session.push(command.to_string()),
            _ => {
                if let Some(last) = out.last_mut() {
                    last.output.push(line.to_string());
                }
            }
        }
    }
    out
}

/// Whether `got` is `want` with each `…` standing for any text.
fn matches(want: &str, got: &str) -> bool {
    let mut parts = want.split('…');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = got.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (k, part) in parts.iter().enumerate() {
        if k + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Runs a command of a page with `tessera` on the PATH (this build's binary).
fn run(command: &str, bin_dir: &Path) -> String {
    let command = command
        .replace("cargo run --release -q --", "tessera")
        .replace("cargo run --release -q", "tessera");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(&command)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", path)
        .stdin(Stdio::null())
        .output()
        .expect("sh");
    assert!(
        out.status.success(),
        "`{command}` failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn every_console_example_shows_what_it_prints() {
    // `tessera` on the PATH: a folder holding a link to this build's binary.
    let bin_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("doc-examples-bin");
    let _ = std::fs::remove_dir_all(&bin_dir);
    std::fs::create_dir_all(&bin_dir).expect("bin dir");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_tessera"), bin_dir.join("tessera"))
        .expect("link");
    let mut ran = 0;
    let mut failures = Vec::new();
    for page in pages() {
        for ex in examples(&page) {
            let got = run(&ex.command, &bin_dir);
            // A block may show the last reply's empty line, or not.
            let mut got: Vec<&str> = got.lines().collect();
            let mut want: Vec<&str> = ex.output.iter().map(String::as_str).collect();
            for lines in [&mut got, &mut want] {
                while lines.last().is_some_and(|l| l.is_empty()) {
                    lines.pop();
                }
            }
            let same = want.len() == got.len() && want.iter().zip(&got).all(|(w, g)| matches(w, g));
            if !same {
                failures.push(format!(
                    "{}:{} `{}`:\n--- the page shows\n{}\n--- it printed\n{}",
                    ex.page.display(),
                    ex.line,
                    ex.command,
                    want.join("\n"),
                    got.join("\n")
                ));
            }
            ran += 1;
        }
    }
    assert!(ran >= 4, "only {ran} examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_wildcard_matches_within_a_line() {
    assert!(matches("time … s", "time 0.003 s"));
    assert!(matches("a … b … c", "a 1 b 2 c"));
    assert!(matches("exact", "exact"));
    assert!(!matches("exact", "exactly"));
    assert!(!matches("time … s", "time 0.003 ms!"));
}

/// Every relative link of the docs (history included) leads to a file of the
/// repository: pages move, and a link left behind is a dead end.
#[test]
fn every_relative_link_leads_somewhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = pages();
    pages.push(root.join("CHANGELOG.md"));
    pages.push(root.join("CONTRIBUTING.md"));
    pages.push(root.join("tests/README.md"));
    for sub in ["docs/history", "docs/history/experiments"] {
        if let Ok(dir) = std::fs::read_dir(root.join(sub)) {
            pages.extend(
                dir.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "md")),
            );
        }
    }
    let mut dead = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).expect("page");
        for (n, line) in text.lines().enumerate() {
            let mut rest = line;
            while let Some(at) = rest.find("](") {
                rest = &rest[at + 2..];
                let Some(end) = rest.find(')') else { break };
                let target = &rest[..end];
                rest = &rest[end..];
                let path = target.split('#').next().unwrap_or("");
                if path.is_empty() || path.contains("://") || path.starts_with("mailto:") {
                    continue;
                }
                let file = page.parent().expect("folder").join(path);
                if !file.exists() {
                    dead.push(format!("{}:{}: {target}", page.display(), n + 1));
                }
            }
        }
    }
    assert!(dead.is_empty(), "links to nothing:\n{}", dead.join("\n"));
}
