//! The library's integration tests, one module per area, in one test binary (`it`): each
//! binary of `cargo test --release` is a separate thin-LTO link of the whole dependency
//! graph, so one binary instead of one per file. A test's name is its module and function,
//! e.g. `cargo test --release --test it safety::` or `… --test it lint::finding_fields`.
//!
//! The tests of all modules share one process and run in parallel threads: a test must not
//! change process-wide state that another reads (environment variables, the working
//! directory, panic hooks). Paths are absolute, from `env!("CARGO_MANIFEST_DIR")`; the one
//! `set_current_dir` (`bulk_output`) sets the directory cargo already runs the binary in.

mod archives;
mod bench_tables;
mod bulk_output;
mod columnar;
mod conformance;
mod dates_feedparser;
mod elements;
mod extended;
mod extensions;
mod extract_checklist;
mod extraction;
mod fuzz_regressions;
mod generated;
mod input;
mod invalid_values;
mod json_feed;
mod layers;
#[cfg(target_os = "linux")]
mod linear;
mod lint;
mod output_bound;
mod podcasting;
mod real_corpus;
mod recovery;
mod recovery_rules;
mod relative_urls;
mod safety;
mod sanitize;
mod value_coverage;

/// Every file under `dir`, recursively, in sorted path order (a directory's files and
/// subdirectories by name, depth first): what the bulk reader walks for a directory input.
fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    let mut files = Vec::new();
    for p in entries {
        if p.is_dir() {
            files.extend(files_under(&p));
        } else {
            files.push(p);
        }
    }
    files
}

/// The vendored real feeds, `corpus/real/<format>/<file>`, sorted (287; the manifest and
/// README beside the format folders are not feeds).
fn real_feeds() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/real");
    files_under(&root).into_iter().filter(|p| p.parent() != Some(root.as_path())).collect()
}

/// A record's JSON line, read back as a JSON value.
fn json_value(record: &feedmill::sink::RecordView<'_, '_>) -> serde_json::Value {
    let mut line = Vec::new();
    feedmill::sink::json::encode_record(&mut line, record);
    serde_json::from_slice(&line).unwrap()
}
