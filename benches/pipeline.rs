//! The whole pipeline over the real corpus (`corpus/real/`, every file of its MANIFEST.tsv).
//!
//! - `pipeline/real_corpus/1_thread`: every document through one reused `Parser`, in manifest
//!   order, `parse_str` on text decoded before timing (decoding is the `decode` stage of
//!   `benches/stages.rs`, and is included in `…/1_thread_with_decode`).
//! - `pipeline/real_corpus/1_thread_with_decode`: the same, decoding the raw bytes inside the
//!   timed region (what the peers comparison in `perf/peers` measures for feedmill).
//! - `pipeline/real_corpus/1_thread_with_decode_and_json`: the same, and every record's final
//!   values written as its JSON line (`sink::json::encode_record`: escaped HTML serialized,
//!   strings JSON-escaped) into a reused buffer: the library side of what the CLI does per
//!   record, so library and CLI numbers mean the same thing.
//! - `pipeline/real_corpus/2_threads`: files split across 2 rayon threads by bytes, one
//!   `Parser` per thread; compare with `1_thread` for scaling.
//!
//! Throughput is the corpus's raw byte count for all three, so the numbers compare directly.
//! Every timed iteration checks each file's fingerprint (entries, titled, dated, linked,
//! bodied) against `perf/expected/real-corpus.tsv`; see `benches/common/mod.rs`.
//! `FEEDMILL_BENCH_REGEN=1 cargo bench --bench pipeline` rewrites that table instead of
//! benchmarking.

mod common;

use common::{check, fingerprint, Doc, Expected, Fingerprint, BASE_URL};
use criterion::{Criterion, Throughput};
use std::hint::black_box;

fn parse_all(
    parser: &mut feedmill::Parser,
    docs: &[&Doc],
    idx: &[usize],
    expected: &[Fingerprint],
) -> u64 {
    let mut entries = 0;
    for &i in idx {
        let fp = fingerprint(&parser.parse_str(black_box(&docs[i].text), Some(BASE_URL)));
        if fp != expected[i] {
            check(false, || format!("{}: got {fp:?}, expected {:?}", docs[i].path, expected[i]));
        }
        entries += fp.entries;
    }
    entries
}

fn bench_pipeline(c: &mut Criterion) {
    let owned = common::load_corpus();
    let docs: Vec<&Doc> = owned.iter().collect();
    let expected = Expected::for_docs(&docs);
    let mut parser = feedmill::Parser::new(feedmill::Options::default());
    let total = common::verify_untimed(&mut parser, &docs, &expected);
    let bytes = common::total_bytes(&docs);
    eprintln!(
        "pipeline: {} files, {:.2} MB, expected total {total:?}",
        docs.len(),
        bytes as f64 / 1e6
    );
    let all: Vec<usize> = (0..docs.len()).collect();
    let sfx = common::id_suffix();

    let mut g = c.benchmark_group("pipeline/real_corpus");
    g.throughput(Throughput::Bytes(bytes));
    g.sample_size(20);

    g.bench_function(format!("1_thread{sfx}"), |b| {
        b.iter(|| {
            let n = parse_all(&mut parser, &docs, &all, &expected);
            check(n == total.entries, || format!("total entries {n} != {}", total.entries));
            n
        })
    });

    g.bench_function(format!("1_thread_with_decode{sfx}"), |b| {
        b.iter(|| {
            let mut n = 0;
            for (i, d) in docs.iter().enumerate() {
                let fp = fingerprint(&parser.parse_bytes(black_box(&d.bytes), Some(BASE_URL)));
                if fp != expected[i] {
                    check(false, || format!("{}: got {fp:?}, expected {:?}", d.path, expected[i]));
                }
                n += fp.entries;
            }
            check(n == total.entries, || format!("total entries {n} != {}", total.entries));
            n
        })
    });

    let mut line = Vec::new();
    g.bench_function(format!("1_thread_with_decode_and_json{sfx}"), |b| {
        b.iter(|| {
            let mut n = 0;
            for (i, d) in docs.iter().enumerate() {
                let parsed = parser.parse_bytes(black_box(&d.bytes), Some(BASE_URL));
                let fp = fingerprint(&parsed);
                if fp != expected[i] {
                    check(false, || format!("{}: got {fp:?}, expected {:?}", d.path, expected[i]));
                }
                n += fp.entries;
                if let Ok(p) = &parsed {
                    let view = feedmill::sink::RecordView::parsed(&d.path, Some(BASE_URL), p);
                    line.clear();
                    feedmill::sink::json::encode_record(&mut line, &view);
                    black_box(&line);
                }
            }
            check(n == total.entries, || format!("total entries {n} != {}", total.entries));
            n
        })
    });

    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("rayon pool");
    let groups = common::split_balanced(&docs, 2);
    let mut parsers = [
        feedmill::Parser::new(feedmill::Options::default()),
        feedmill::Parser::new(feedmill::Options::default()),
    ];
    g.bench_function(format!("2_threads{sfx}"), |b| {
        b.iter(|| {
            let [p0, p1] = &mut parsers;
            let (a, z) = pool.install(|| {
                rayon::join(
                    || parse_all(p0, &docs, &groups[0], &expected),
                    || parse_all(p1, &docs, &groups[1], &expected),
                )
            });
            check(a + z == total.entries, || {
                format!("total entries {} != {}", a + z, total.entries)
            });
            a + z
        })
    });
    g.finish();
}

fn main() {
    if std::env::var_os("FEEDMILL_BENCH_REGEN").is_some() {
        let owned = common::load_corpus();
        let docs: Vec<&Doc> = owned.iter().collect();
        common::regenerate_expected(&docs);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench_pipeline(&mut c);
    c.final_summary();
}
