//! The cost of extraction (the throughput goal must still hold with extraction on) over the
//! real corpus (`corpus/real/`, every file of its MANIFEST.tsv, decoded before
//! timing), single thread, one reused `Parser`:
//!
//! | id | what is timed |
//! |----|---------------|
//! | `extract/real_corpus/parse` | `parse_str` of every document (= `pipeline/real_corpus/1_thread`) |
//! | `extract/real_corpus/parse_extract` | `parse_str` + `extract::extract` with every option on |
//! | `extract/real_corpus/extract_only` | `extract::extract` alone, over feeds parsed before timing (one `Parser` per document, kept alive) |
//!
//! Throughput is the corpus's raw byte count for all three. The number to report is the
//! ratio of the medians `parse_extract / parse` (see perf/README.md, "Cost of the opt-in
//! extras"); `extract_only / parse` is the same cost measured directly, less noisy.
//!
//! Checks (a fast-but-wrong change cannot win):
//! - parse results: every iteration checks each file's parse fingerprint against
//!   `perf/expected/real-corpus.tsv`, as the pipeline bench does;
//! - extraction results: an untimed pass hashes every extraction string of every file
//!   (FNV-1a over all `*_text`, body, canonical URL and dedup fields, with the word counts,
//!   body and dedup sources) and compares it, with per-file counts, to
//!   `perf/expected/real-corpus-extract.tsv`; every timed iteration recomputes the cheap part
//!   of that fingerprint (word count, canonical URLs, dedup keys, bodies, total length of
//!   every extracted string) per file and compares it with the table.
//!
//! `FEEDMILL_BENCH_REGEN=1 cargo bench --bench extract` rewrites the extraction table from
//! the current code instead of benchmarking (only on purpose: extraction results are meant
//! not to change; a parser change that moves them must say so in its commit).

pub(crate) mod common;

use bumpalo::Bump;
use common::{check, fingerprint, Doc, Expected, BASE_URL};
use criterion::{Criterion, Throughput};
use feedmill::extract::{extract, fnv1a64, ExtractOptions, FeedExtraction};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::hint::black_box;

/// What the timed iterations check about one extraction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct XPrint {
    /// Sum of the entries' word counts.
    words: u64,
    /// Canonical URLs (feed and entries).
    canonical: u64,
    /// Entries with a dedup key.
    dedup: u64,
    /// Entries with a best body.
    bodies: u64,
    /// Total bytes of every extracted string.
    text_bytes: u64,
}

impl std::ops::AddAssign for XPrint {
    fn add_assign(&mut self, o: Self) {
        self.words += o.words;
        self.canonical += o.canonical;
        self.dedup += o.dedup;
        self.bodies += o.bodies;
        self.text_bytes += o.text_bytes;
    }
}

fn len(s: Option<&str>) -> u64 {
    s.map_or(0, |s| s.len() as u64)
}

#[inline]
fn xprint(x: &FeedExtraction<'_>) -> XPrint {
    let mut p = XPrint {
        canonical: x.canonical_url.is_some() as u64,
        text_bytes: len(x.title_text)
            + len(x.subtitle_text)
            + len(x.description_text)
            + len(x.canonical_url),
        ..XPrint::default()
    };
    for e in &x.entries {
        p.words += e.word_count as u64;
        p.canonical += e.canonical_url.is_some() as u64;
        p.dedup += e.dedup_key.is_some() as u64;
        p.bodies += e.body_text.is_some() as u64;
        p.text_bytes += len(e.title_text)
            + len(e.subtitle_text)
            + len(e.summary_text)
            + len(e.content_text)
            + len(e.body_text)
            + len(e.canonical_url)
            + len(e.dedup_key);
    }
    p
}

/// FNV-1a 64 of every extracted value of a feed (untimed check).
fn xhash(x: &FeedExtraction<'_>) -> u64 {
    // The values, each framed, hashed at the end (FNV-1a has no incremental API here).
    let mut bytes = Vec::new();
    let mut s = |v: Option<&str>| match v {
        Some(v) => {
            bytes.push(1);
            bytes.extend_from_slice(v.as_bytes());
            bytes.push(0);
        }
        None => bytes.push(2),
    };
    s(x.title_text);
    s(x.subtitle_text);
    s(x.description_text);
    s(x.canonical_url);
    for e in &x.entries {
        s(e.title_text);
        s(e.subtitle_text);
        s(e.summary_text);
        s(e.content_text);
        s(e.body_source.map(|b| b.as_str()));
        s(e.body_text);
        s(Some(&e.word_count.to_string()));
        s(e.canonical_url);
        s(e.dedup_key);
        s(e.dedup_source.map(|d| d.as_str()));
    }
    fnv1a64(&bytes)
}

fn expected_path() -> std::path::PathBuf {
    common::repo_dir().join("perf/expected/real-corpus-extract.tsv")
}

/// Extraction of every doc (untimed): per file, the timed fingerprint and the full hash.
fn extract_untimed(docs: &[&Doc]) -> Vec<(XPrint, u64)> {
    let mut parser = feedmill::Parser::new(feedmill::Options::default());
    let arena = Bump::new();
    let opts = ExtractOptions::default();
    docs.iter()
        .map(|d| match parser.parse_str(&d.text, Some(BASE_URL)) {
            Ok(feedmill::Parsed { feed: Some(feed), .. }) => {
                let x = extract(&feed, &arena, &opts);
                (xprint(&x), xhash(&x))
            }
            _ => (XPrint::default(), 0),
        })
        .collect()
}

pub(crate) fn regenerate(docs: &[&Doc]) {
    let got = extract_untimed(docs);
    let mut out = String::from(
        "# Expected extraction results on corpus/real/, checked by benches/extract.rs.\n\
         # Regenerate: FEEDMILL_BENCH_REGEN=1 cargo bench --bench extract ; review the diff.\n\
         # hash = FNV-1a 64 of every extracted value (see xhash in benches/extract.rs).\n\
         file\twords\tcanonical\tdedup\tbodies\ttext_bytes\thash\n",
    );
    let mut total = XPrint::default();
    for (d, (p, h)) in docs.iter().zip(&got) {
        total += *p;
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{h:016x}",
            d.path, p.words, p.canonical, p.dedup, p.bodies, p.text_bytes
        );
    }
    assert!(total.dedup > 0, "refusing to record a table without extraction results");
    std::fs::write(expected_path(), out).unwrap();
    println!("wrote {} ({} files): total {total:?}", expected_path().display(), docs.len());
}

/// The recorded table, per doc; checks the untimed extraction against it.
pub(crate) fn expected_extraction(docs: &[&Doc]) -> Vec<XPrint> {
    let text = std::fs::read_to_string(expected_path()).unwrap_or_default();
    let mut table: HashMap<&str, (XPrint, u64)> = HashMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        assert!(f.len() == 7, "bad line in {}: {line:?}", expected_path().display());
        let n = |i: usize| f[i].parse::<u64>().expect("number");
        let p =
            XPrint { words: n(1), canonical: n(2), dedup: n(3), bodies: n(4), text_bytes: n(5) };
        table.insert(f[0], (p, u64::from_str_radix(f[6], 16).expect("hash")));
    }
    check(!table.is_empty(), || {
        format!(
            "{} is missing or empty: FEEDMILL_BENCH_REGEN=1 cargo bench --bench extract",
            expected_path().display()
        )
    });
    let got = extract_untimed(docs);
    let mut out = Vec::with_capacity(docs.len());
    let mut total = XPrint::default();
    for (d, (p, h)) in docs.iter().zip(got) {
        let want = table.get(d.path.as_str()).copied();
        check(want == Some((p, h)), || {
            format!("{}: extraction gives {p:?} hash {h:016x}, table says {want:?}", d.path)
        });
        total += p;
        out.push(want.map_or(p, |w| w.0));
    }
    check(total.dedup > 0, || "extraction finds no dedup keys in the whole corpus".to_owned());
    eprintln!("extract: expected total {total:?}");
    out
}

fn bench_extract(c: &mut Criterion) {
    let owned = common::load_corpus();
    let docs: Vec<&Doc> = owned.iter().collect();
    let expected = Expected::for_docs(&docs);
    let mut parser = feedmill::Parser::new(feedmill::Options::default());
    let total = common::verify_untimed(&mut parser, &docs, &expected);
    let xexpected = expected_extraction(&docs);
    let xtotal = xexpected.iter().fold(XPrint::default(), |mut a, p| {
        a += *p;
        a
    });
    let bytes = common::total_bytes(&docs);
    eprintln!("extract: {} files, {:.2} MB, parse total {total:?}", docs.len(), bytes as f64 / 1e6);
    let sfx = common::id_suffix();
    let opts = ExtractOptions::default();
    let mut arena = Bump::new();

    let mut g = c.benchmark_group("extract/real_corpus");
    g.throughput(Throughput::Bytes(bytes));
    g.sample_size(20);

    g.bench_function(format!("parse{sfx}"), |b| {
        b.iter(|| {
            let mut n = 0;
            for (i, d) in docs.iter().enumerate() {
                let fp = fingerprint(&parser.parse_str(black_box(&d.text), Some(BASE_URL)));
                if fp != expected[i] {
                    check(false, || format!("{}: got {fp:?}, expected {:?}", d.path, expected[i]));
                }
                n += fp.entries;
            }
            check(n == total.entries, || format!("total entries {n} != {}", total.entries));
            n
        })
    });

    g.bench_function(format!("parse_extract{sfx}"), |b| {
        b.iter(|| {
            let mut n = 0;
            for (i, d) in docs.iter().enumerate() {
                let parsed = parser.parse_str(black_box(&d.text), Some(BASE_URL));
                let fp = fingerprint(&parsed);
                if fp != expected[i] {
                    check(false, || format!("{}: got {fp:?}, expected {:?}", d.path, expected[i]));
                }
                n += fp.entries;
                let xp = match &parsed {
                    Ok(feedmill::Parsed { feed: Some(feed), .. }) => {
                        arena.reset();
                        xprint(&extract(feed, &arena, &opts))
                    }
                    _ => XPrint::default(),
                };
                if xp != xexpected[i] {
                    check(false, || {
                        format!("{}: extraction {xp:?}, expected {:?}", d.path, xexpected[i])
                    });
                }
            }
            check(n == total.entries, || format!("total entries {n} != {}", total.entries));
            n
        })
    });

    // Every document parsed once, in its own parser, kept for the whole benchmark.
    let mut parsers: Vec<feedmill::Parser> =
        docs.iter().map(|_| feedmill::Parser::new(feedmill::Options::default())).collect();
    let parsed: Vec<_> =
        parsers.iter_mut().zip(&docs).map(|(p, d)| p.parse_str(&d.text, Some(BASE_URL))).collect();
    g.bench_function(format!("extract_only{sfx}"), |b| {
        b.iter(|| {
            let mut sum = XPrint::default();
            for (i, parsed) in parsed.iter().enumerate() {
                let xp = match parsed {
                    Ok(feedmill::Parsed { feed: Some(feed), .. }) => {
                        arena.reset();
                        xprint(&extract(black_box(feed), &arena, &opts))
                    }
                    _ => XPrint::default(),
                };
                if xp != xexpected[i] {
                    check(false, || {
                        format!("{}: extraction {xp:?}, expected {:?}", docs[i].path, xexpected[i])
                    });
                }
                sum += xp;
            }
            check(sum == xtotal, || format!("extraction total {sum:?} != {xtotal:?}"));
            sum.words
        })
    });
    g.finish();
}

fn main() {
    if std::env::var_os("FEEDMILL_BENCH_REGEN").is_some() {
        let owned = common::load_corpus();
        let docs: Vec<&Doc> = owned.iter().collect();
        regenerate(&docs);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench_extract(&mut c);
    c.final_summary();
}
