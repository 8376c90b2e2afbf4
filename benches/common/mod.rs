//! Shared bench support: corpus loading, result fingerprints and the recorded expectations
//! that make a fast-but-wrong change lose.
//!
//! Checking policy (used by every bench):
//! - `perf/expected/real-corpus.tsv` records, per corpus file, a fingerprint of feedmill's
//!   result: entries, entries with a title, with a date, with a link, with a summary or content.
//!   The benches compute the fingerprint in an untimed pass AND inside every timed iteration and
//!   panic on any difference, and they refuse a table whose total entries is 0. Dropping
//!   entries, or skipping dates/links/bodies to go faster, fails the bench.
//! - The table is regenerated only on purpose: `FEEDMILL_BENCH_REGEN=1 cargo bench --bench
//!   pipeline` rewrites it from the current parser (refusing if the parser finds no entries)
//!   and prints every file whose entry count differs from a parser-independent count of
//!   `item`/`entry` tags (the `tags` column), for review. Commit the table with the parser
//!   change that moved it, and say why in the commit message.
//! - `FEEDMILL_BENCH_UNCHECKED=1` turns failed checks into warnings (for running against a
//!   stub parser). Every benchmark id then ends in `UNCHECKED` so those numbers cannot be
//!   mistaken for checked ones.
#![allow(dead_code)]

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The document address handed to the parser for every corpus file (relative URLs resolve
/// against it). The peers binary uses the same one.
pub const BASE_URL: &str = "https://example.org/feeds/feed.xml";

pub struct Doc {
    /// Path relative to `corpus/real/`, as in `MANIFEST.tsv`.
    pub path: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// The decoded document (decoded once, outside any timed region).
    pub text: String,
}

pub fn repo_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn corpus_dir() -> PathBuf {
    repo_dir().join("corpus/real")
}

pub fn expected_path() -> PathBuf {
    repo_dir().join("perf/expected/real-corpus.tsv")
}

/// Loads every file listed in `corpus/real/MANIFEST.tsv`, in manifest order.
pub fn load_corpus() -> Vec<Doc> {
    let dir = corpus_dir();
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv"))
        .unwrap_or_else(|e| panic!("reading {}/MANIFEST.tsv: {e}", dir.display()));
    let mut docs = Vec::new();
    for line in manifest.lines().skip(1) {
        let Some(rel) = line.split('\t').next().filter(|s| !s.is_empty()) else { continue };
        let bytes = std::fs::read(dir.join(rel)).unwrap_or_else(|e| panic!("reading {rel}: {e}"));
        let text = feedmill::input::decode(&bytes, None).text.into_owned();
        docs.push(Doc { path: rel.to_owned(), bytes, text });
    }
    assert!(docs.len() > 100, "corpus looks incomplete: {} files", docs.len());
    docs
}

pub fn total_bytes(docs: &[&Doc]) -> u64 {
    docs.iter().map(|d| d.bytes.len() as u64).sum()
}

/// What the benches check about one parse.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fingerprint {
    pub entries: u64,
    pub titled: u64,
    pub dated: u64,
    pub linked: u64,
    pub bodied: u64,
}

impl std::ops::AddAssign for Fingerprint {
    fn add_assign(&mut self, o: Self) {
        self.entries += o.entries;
        self.titled += o.titled;
        self.dated += o.dated;
        self.linked += o.linked;
        self.bodied += o.bodied;
    }
}

/// The fingerprint of a parse result (a parse error or "not a feed" is all zeros).
#[inline]
pub fn fingerprint(result: &Result<feedmill::Parsed<'_>, feedmill::Error>) -> Fingerprint {
    let mut fp = Fingerprint::default();
    if let Ok(parsed) = result {
        if let Some(feed) = &parsed.feed {
            for e in &feed.entries {
                fp.entries += 1;
                fp.titled += e.title.is_some() as u64;
                fp.dated += (e.published.is_some() || e.updated.is_some()) as u64;
                fp.linked += e.page_url.is_some() as u64;
                fp.bodied += (e.summary.is_some() || e.content.is_some()) as u64;
            }
        }
    }
    fp
}

pub fn unchecked() -> bool {
    std::env::var_os("FEEDMILL_BENCH_UNCHECKED").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Suffix for benchmark ids: marks numbers from runs whose checks were disabled.
pub fn id_suffix() -> &'static str {
    if unchecked() {
        "-UNCHECKED"
    } else {
        ""
    }
}

/// Fails the bench (or, in unchecked mode, warns; only the first few warnings are printed).
#[track_caller]
pub fn check(ok: bool, msg: impl FnOnce() -> String) {
    if !ok {
        let msg = msg();
        if unchecked() {
            // Warn a few times only: in unchecked mode this runs inside timed loops.
            static WARNED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = WARNED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if n < 8 {
                eprintln!("WARNING (FEEDMILL_BENCH_UNCHECKED): {msg}");
            } else if n == 8 {
                eprintln!("WARNING (FEEDMILL_BENCH_UNCHECKED): further failed checks not shown");
            }
        } else {
            panic!(
                "{msg}\n(benches check their results so a fast-but-wrong change cannot win; \
                 see benches/common/mod.rs for the policy)"
            );
        }
    }
}

/// Parser-independent count of `item`/`entry` start tags (any namespace, any depth), for
/// reviewing a regenerated table. `None` if the XML is not well-formed enough to walk.
pub fn count_entry_tags(text: &str) -> Option<u64> {
    use quick_xml::events::Event;
    let mut r = quick_xml::Reader::from_str(text);
    let mut n = 0;
    loop {
        match r.read_event() {
            Ok(Event::Eof) => return Some(n),
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => {
                let l = e.local_name();
                n += (l.as_ref() == "item" || l.as_ref() == "entry") as u64;
            }
            Ok(_) => {}
            Err(_) => return None,
        }
    }
}

pub struct Expected {
    pub by_file: HashMap<String, Fingerprint>,
}

impl Expected {
    /// Loads the recorded table; `None` if it does not exist yet.
    pub fn load() -> Option<Expected> {
        let text = std::fs::read_to_string(expected_path()).ok()?;
        let mut by_file = HashMap::new();
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).skip(1) {
            let f: Vec<&str> = line.split('\t').collect();
            assert!(f.len() >= 6, "bad line in {}: {line:?}", expected_path().display());
            let n = |i: usize| f[i].parse::<u64>().expect("number");
            by_file.insert(
                f[0].to_owned(),
                Fingerprint {
                    entries: n(1),
                    titled: n(2),
                    dated: n(3),
                    linked: n(4),
                    bodied: n(5),
                },
            );
        }
        Some(Expected { by_file })
    }

    /// The expected fingerprint of each doc, in order. Checks the table covers the corpus and
    /// is not empty.
    pub fn for_docs(docs: &[&Doc]) -> Vec<Fingerprint> {
        let Some(table) = Expected::load() else {
            check(false, || {
                format!(
                    "{} does not exist: after the parser lands, generate it with \
                     `FEEDMILL_BENCH_REGEN=1 cargo bench --bench pipeline`, review, commit",
                    expected_path().display()
                )
            });
            return vec![Fingerprint::default(); docs.len()];
        };
        let mut out = Vec::with_capacity(docs.len());
        let mut total = Fingerprint::default();
        for d in docs {
            let fp = table.by_file.get(&d.path).copied();
            check(fp.is_some(), || format!("{} has no line in the expected table", d.path));
            let fp = fp.unwrap_or_default();
            total += fp;
            out.push(fp);
        }
        check(total.entries > 0, || "expected table records 0 entries in total".to_owned());
        out
    }
}

/// Parses every doc once (untimed) with `parser` and checks each fingerprint against
/// `expected`. Returns the total.
pub fn verify_untimed(
    parser: &mut feedmill::Parser,
    docs: &[&Doc],
    expected: &[Fingerprint],
) -> Fingerprint {
    let mut total = Fingerprint::default();
    for (d, want) in docs.iter().zip(expected) {
        let got = fingerprint(&parser.parse_str(&d.text, Some(BASE_URL)));
        check(got == *want, || format!("{}: parser gives {got:?}, table says {want:?}", d.path));
        total += got;
    }
    check(total.entries > 0, || "the parser finds 0 entries in the whole corpus".to_owned());
    total
}

/// `FEEDMILL_BENCH_REGEN=1`: rewrite the expected table from the current parser.
pub fn regenerate_expected(docs: &[&Doc]) {
    let mut parser = feedmill::Parser::new(feedmill::Options::default());
    let mut out = String::new();
    out.push_str(
        "# Expected feedmill results on corpus/real/, checked by benches/ (see benches/common/mod.rs).\n\
         # Regenerate: FEEDMILL_BENCH_REGEN=1 cargo bench --bench pipeline ; review the diff.\n\
         # tags = parser-independent count of item/entry start tags (review aid, not checked; -1: not well-formed).\n",
    );
    out.push_str("file\tentries\ttitled\tdated\tlinked\tbodied\ttags\n");
    let mut total = Fingerprint::default();
    let mut review = Vec::new();
    for d in docs {
        let fp = fingerprint(&parser.parse_str(&d.text, Some(BASE_URL)));
        let tags = count_entry_tags(&d.text);
        if tags != Some(fp.entries) {
            review.push(format!("  {:<70} entries {:>5}  tags {:?}", d.path, fp.entries, tags));
        }
        total += fp;
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            d.path,
            fp.entries,
            fp.titled,
            fp.dated,
            fp.linked,
            fp.bodied,
            tags.map_or(-1, |t| t as i64)
        );
    }
    assert!(
        total.entries > 0,
        "refusing to record a table with 0 entries: the parser is not producing feeds yet"
    );
    let path = expected_path();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, out).unwrap();
    println!("wrote {} ({} files): total {total:?}", path.display(), docs.len());
    if !review.is_empty() {
        println!("files where entries != item/entry tag count (review these):");
        for r in review {
            println!("{r}");
        }
    }
}

/// Splits docs into `n` groups of about equal bytes (largest first, to the lightest group).
/// Returns, per group, the indices into `docs`.
pub fn split_balanced(docs: &[&Doc], n: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..docs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(docs[i].bytes.len()));
    let mut groups: Vec<(usize, Vec<usize>)> = (0..n).map(|_| (0, Vec::new())).collect();
    for i in order {
        let g = groups.iter_mut().min_by_key(|g| g.0).unwrap();
        g.0 += docs[i].bytes.len();
        g.1.push(i);
    }
    groups
        .into_iter()
        .map(|mut g| {
            g.1.sort();
            g.1
        })
        .collect()
}
