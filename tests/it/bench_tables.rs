//! The benches' expected-result tables (`perf/expected/real-corpus.tsv`, checked by every
//! bench over the real corpus, and `perf/expected/real-corpus-extract.tsv`, by
//! `benches/extract.rs`) are what the parser and the extraction give now, so `cargo bench`
//! runs on a clean clone: a change that moves a count fails here, in `cargo test`, not later
//! in a bench. `GOLDEN_BLESS=1 cargo test --release --test it bench_tables::` rewrites both
//! (the benches' own `FEEDMILL_BENCH_REGEN=1` does the same); review the diff.
//!
//! The benches' code is compiled in here as it is (`#[path]`), so the check is theirs.

#[path = "../../benches/extract.rs"]
#[allow(dead_code, unused_imports)]
mod extract_bench;

use extract_bench::common::{self, verify_untimed, Doc, Expected};

fn corpus() -> Vec<Doc> {
    common::load_corpus()
}

#[test]
fn bench_tables_are_the_parsers() {
    let owned = corpus();
    let docs: Vec<&Doc> = owned.iter().collect();
    if std::env::var_os("GOLDEN_BLESS").is_some() {
        common::regenerate_expected(&docs);
        extract_bench::regenerate(&docs);
    }
    let expected = Expected::for_docs(&docs);
    let mut parser = feedmill::Parser::new(feedmill::Options::default());
    verify_untimed(&mut parser, &docs, &expected);
    extract_bench::expected_extraction(&docs);
}
