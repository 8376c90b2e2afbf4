//! The `feedmill` binary's integration tests in one test binary (`it`; each test binary of
//! `cargo test --release` is a separate thin-LTO link): `cli` (inputs, records, exit codes),
//! `output` (safe writes, signals, closed pipes, part files) and `golden` (the committed
//! output snapshots), e.g. `cargo test --release --test it golden::`. The tests run the
//! binary as a child process with its own working directory.

mod cli;
mod golden;
mod lint_out;
mod output;

/// The binary is built without a unit-test harness (`test = false` in cli/Cargo.toml): a
/// `#[test]` in cli/src would never run, so there must be none (tests go here).
#[test]
fn the_binary_has_no_unit_tests() {
    fn visit(dir: &std::path::Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("read cli/src") {
            let path = entry.expect("read cli/src").path();
            if path.is_dir() {
                visit(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("read a source file");
                if text.contains("#[test]") || text.contains("cfg(test)") {
                    found.push(path.display().to_string());
                }
            }
        }
    }
    let mut found = Vec::new();
    visit(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut found);
    assert!(found.is_empty(), "unit tests in {found:?} would not run: move them to cli/tests/it");
}
