//! The arena's integration tests, in one test binary (`cargo test --release -p
//! arena --test all`): each file beside this one is a module, so the tests link
//! once instead of once per file. A test is named after its file
//! (`cargo test --release -p arena --test all shards::`). Cargo does not
//! discover these files by itself (`autotests = false`);
//! `every_test_file_is_a_module` fails if one is left out.

mod common;

mod adjudication;
mod faults;
mod matches;
mod openings;
mod resume;
mod shards;

/// Every `tests/*.rs` file and `tests/*/mod.rs` folder is declared above.
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
        "not declared as `mod` in tools/arena/tests/main.rs (so never run): {missing:?}"
    );
}
