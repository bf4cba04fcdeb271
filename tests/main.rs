//! Tessera's integration tests, in one test binary (`cargo test --release
//! --test all`): each file beside this one is a module, so the tests link and
//! optimise once instead of once per file (the release profile's LTO made 23
//! binaries cost most of a first `cargo test`). A test is named after its file:
//! `cargo test --release --test all rekushu_perft::` runs one file's tests.
//!
//! What goes in which file, the helper modules and the data: `tests/README.md`.
//! Cargo does not discover these files by itself (`autotests = false` in
//! `Cargo.toml`); `every_test_file_is_a_module` below fails if one is left out.

// Helpers shared by several files (`use crate::common;`).
mod common;
mod rebus_games;
mod rebus_reference;
mod rekushu_reference;

// Rules: hand-checked cases, perft data, differential and invariant tests.
mod rebus_differential;
mod rebus_invariants;
mod rebus_perft;
mod rebus_position;
mod rebus_rules;
mod rekushu_differential;
mod rekushu_invariants;
mod rekushu_notation_fuzz;
mod rekushu_perft;
mod rekushu_rules;

// Evaluation and search.
mod learned_eval;
mod rebus_eval;
mod reference_levels;
mod rekushu_eval;
mod rekushu_solver;
mod search_behaviour;
mod search_games_minimax;
mod search_minimax;

// Records, analysis and the protocol (in the library and through the binary).
mod analysis;
mod doc_examples;
mod gogui_session;
mod protocol_analyze;
mod protocol_driver;
mod protocol_play;
mod protocol_records;
mod protocol_transcripts;
mod protocol_usage;
mod records;
mod sabaki_gtp;

/// Every `tests/*.rs` file and every `tests/*/mod.rs` folder is declared above
/// (Cargo would not run a file this binary does not name).
#[test]
fn every_test_file_is_a_module() {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = include_str!("main.rs");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&here).expect("tests/") {
        let path = entry.expect("entry").path();
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let module = if path.is_dir() {
            path.join("mod.rs").is_file()
        } else {
            path.extension().is_some_and(|e| e == "rs") && name != "main"
        };
        if module && !main.lines().any(|l| l == format!("mod {name};")) {
            missing.push(path.display().to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "not declared as `mod` in tests/main.rs (so never run): {missing:?}"
    );
}
