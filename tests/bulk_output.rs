//! The bulk pipeline's output over `corpus/real`, pinned by SHA-256: the JSON Lines of the
//! default run, `--extract` and `--sanitize strict` are byte-identical to what the engine
//! wrote before the streaming pipeline and the fast escaping replaced the windowed loop and
//! the char-by-char escapes (hashes taken from that build's CLI, `--threads 1`, run from
//! the repository root as `feedmill corpus/real`). The same bytes come out for any number of
//! threads and any in-flight budget.
//!
//! A deliberate schema or value change (a new key, a fixed value) changes these hashes:
//! update them in the same commit, with the reason in its message.
//! To print the current ones: `cargo test --release --test bulk_output -- --nocapture`.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use feedmill::bulk::{self, Config, Input};
use feedmill::extract::ExtractOptions;
use feedmill::sanitize::SanitizeOptions;
use feedmill::sink::{RecordView, Status};
use sha2::{Digest, Sha256};

const DEFAULT: &str = "46d5d38518a62bcc6c6ad469ccaa56a02f53681044659b8b44cc07cf9e8a3716";
const EXTRACT: &str = "efd076b721292899d2c77f06846d56797b3dbc418e8a3b74fa88a05db9d5d468";
const STRICT: &str = "ad7d3504e85a98aebf8b84490e4fb09ecaad3792e0d6ce40ee27e5157a269083";

/// A `Write` the test keeps a handle on (the pipeline takes a boxed writer).
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn corpus() -> Option<PathBuf> {
    // Sources are written as given: run from the package root with the relative path, as
    // the hashes were taken.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::env::set_current_dir(root).ok()?;
    let p = PathBuf::from("corpus/real");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("skipped: corpus/real is not in this checkout");
        None
    }
}

fn jsonl(cfg: &Config, corpus: &Path) -> Vec<u8> {
    let out = Shared::default();
    bulk::run(vec![Input::Path(corpus.to_owned())], cfg, Box::new(out.clone()), &mut |_| {})
        .expect("bulk run");
    let bytes = out.0.lock().unwrap().clone();
    bytes
}

fn sha256(b: &[u8]) -> String {
    Sha256::digest(b).iter().map(|x| format!("{x:02x}")).collect()
}

fn configs() -> [(&'static str, Config, &'static str); 3] {
    let base = Config { threads: 1, ..Config::default() };
    let extract = Config { extract: Some(ExtractOptions::default()), ..base.clone() };
    let strict = Config { sanitize: Some(SanitizeOptions::default()), ..base.clone() };
    [
        ("default", base, DEFAULT),
        ("--extract", extract, EXTRACT),
        ("--sanitize strict", strict, STRICT),
    ]
}

#[test]
fn corpus_jsonl_is_byte_identical_to_the_pinned_hashes() {
    let Some(corpus) = corpus() else { return };
    for (name, cfg, want) in configs() {
        let out = jsonl(&cfg, &corpus);
        let got = sha256(&out);
        println!("{name}: {got} ({} bytes)", out.len());
        assert_eq!(got, want, "{name}: corpus/real JSON Lines changed");
    }
}

#[test]
fn output_is_the_same_for_any_threads_and_budget() {
    let Some(corpus) = corpus() else { return };
    let (_, base, want) = configs().into_iter().nth(1).unwrap();
    for (threads, budget) in [(2, 16 << 20), (3, 1), (4, 64 << 10)] {
        let cfg = Config { threads, max_bytes_in_flight: budget, ..base.clone() };
        let got = sha256(&jsonl(&cfg, &corpus));
        assert_eq!(got, want, "--extract with {threads} threads, budget {budget}");
    }
}

#[test]
fn run_with_sees_every_record_in_order_and_stops_early() {
    let Some(corpus) = corpus() else { return };
    let cfg = Config { threads: 3, ..Config::default() };
    // Every record, in order: the sources match the default run's lines.
    let lines = jsonl(&Config { threads: 1, ..Config::default() }, &corpus);
    let want: Vec<String> = lines
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_slice(l).unwrap();
            v["source"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(want.len(), 289);
    let step = || {
        |rec: &RecordView<'_, '_>, b: &mut Vec<(String, bool)>| {
            b.push((rec.source.to_owned(), rec.status == Status::Ok));
        }
    };
    let mut seen = Vec::new();
    let mut all = |b: &mut Vec<(String, bool)>| {
        seen.extend(b.drain(..).map(|(s, _)| s));
        Ok(ControlFlow::Continue(()))
    };
    let summary =
        bulk::run_with(vec![Input::Path(corpus.clone())], &cfg, step, &mut all, &mut |_| {})
            .unwrap();
    assert_eq!(seen, want);
    assert_eq!(summary.stats.records, 289);
    // Early stop: the consumer breaks after the first batch; nothing more is consumed and
    // the run returns normally.
    let mut batches = 0;
    let mut first = |_: &mut Vec<(String, bool)>| {
        batches += 1;
        Ok(ControlFlow::Break(()))
    };
    let s = bulk::run_with(vec![Input::Path(corpus)], &cfg, step, &mut first, &mut |_| {}).unwrap();
    assert_eq!(batches, 1);
    assert!(s.stats.records >= 1 && s.stats.records < 289, "{} records", s.stats.records);
}
