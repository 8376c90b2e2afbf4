//! `peers`: feedmill against the other Rust feed parsers, in one run, over the same bytes.
//!
//! Loads every file of `corpus/real/` (listed by its `MANIFEST.tsv`) into memory once, then for
//! each parser: one warm-up pass, one pass with the counting allocator switched on
//! (allocations per KB of input), and `--runs` (default 5) timed passes; reports the median.
//! All single-threaded; `--threads N` (N > 1) adds feedmill with the files split across N
//! threads (one `Parser` per thread) and prints the scaling against one thread.
//!
//! Every parser is handed the raw bytes and does its own decoding (feedmill: `parse_bytes`,
//! BOM > XML declaration > UTF-8, inside the timed region).
//!
//! Usage: `cargo run --release --manifest-path perf/peers/Cargo.toml --bin peers -- [--runs N]
//!         [--threads N] [--corpus DIR] [--only NAME[,NAME…]]`

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// The document address handed to feedmill (same as `benches/common/mod.rs`).
const BASE_URL: &str = "https://example.org/feeds/feed.xml";

// ---------------------------------------------------------------------------------------------
// Counting allocator: counts allocation calls (alloc, alloc_zeroed, realloc) while ENABLED.
// Off during timed passes, so the timing does not pay for the counter.

struct Counting;
static ENABLED: AtomicBool = AtomicBool::new(false);
static ALLOCS: AtomicU64 = AtomicU64::new(0);
static REALLOCS: AtomicU64 = AtomicU64::new(0);
static ALLOC_BYTES: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        if ENABLED.load(Relaxed) {
            ALLOCS.fetch_add(1, Relaxed);
            ALLOC_BYTES.fetch_add(l.size() as u64, Relaxed);
        }
        System.alloc(l)
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        if ENABLED.load(Relaxed) {
            ALLOCS.fetch_add(1, Relaxed);
            ALLOC_BYTES.fetch_add(l.size() as u64, Relaxed);
        }
        System.alloc_zeroed(l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
        if ENABLED.load(Relaxed) {
            REALLOCS.fetch_add(1, Relaxed);
            ALLOC_BYTES.fetch_add(new_size.saturating_sub(l.size()) as u64, Relaxed);
        }
        System.realloc(p, l, new_size)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

// ---------------------------------------------------------------------------------------------

struct Doc {
    path: String,
    bytes: Vec<u8>,
}

/// What one pass over the corpus found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Outcome {
    /// Entries/items found (sum over files); XML walks count elements instead.
    entries: u64,
    /// Files the parser returned an error for (or, for feedmill, "not a feed").
    rejected: u64,
    /// XML walks: events read.
    events: u64,
    /// XML walks: bytes after the error that stopped a walk (not read; still in the MB/s
    /// denominator, so a walk's MB/s is slightly flattering when this is not 0).
    unread: u64,
}

impl std::ops::AddAssign for Outcome {
    fn add_assign(&mut self, o: Outcome) {
        self.entries += o.entries;
        self.rejected += o.rejected;
        self.events += o.events;
        self.unread += o.unread;
    }
}

struct Peer {
    name: &'static str,
    /// "entries" or "elements" (what `Outcome::entries` means for this row).
    counts: &'static str,
    run: fn(&[&Doc]) -> Outcome,
}

// ---- feedmill --------------------------------------------------------------------------------

fn run_feedmill(docs: &[&Doc]) -> Outcome {
    let mut parser = feedmill::Parser::new(feedmill::Options::default());
    let mut out = Outcome::default();
    for d in docs {
        // The library's own decoding (BOM > XML declaration > UTF-8) is inside the timed region.
        match parser.parse_bytes(&d.bytes, Some(BASE_URL)) {
            Ok(parsed) => match parsed.feed {
                Some(feed) => out.entries += feed.entries.len() as u64,
                None => out.rejected += 1,
            },
            Err(_) => out.rejected += 1,
        }
    }
    out
}

/// feedmill with every extraction on (plain text, best body and word count,
/// canonical URLs, dedup keys), computed after each parse into a scratch arena: the cost of
/// `feedmill --extract` without the JSON output.
fn run_feedmill_extract(docs: &[&Doc]) -> Outcome {
    let mut parser = feedmill::Parser::new(feedmill::Options::default());
    let options = feedmill::extract::ExtractOptions::default();
    let mut scratch = bumpalo::Bump::new();
    let mut out = Outcome::default();
    for d in docs {
        match parser.parse_bytes(&d.bytes, Some(BASE_URL)) {
            Ok(parsed) => match parsed.feed {
                Some(feed) => {
                    let x = feedmill::extract::extract(&feed, &scratch, &options);
                    out.entries += x.entries.len() as u64;
                }
                None => out.rejected += 1,
            },
            Err(_) => out.rejected += 1,
        }
        scratch.reset();
    }
    out
}

// ---- feed-rs ---------------------------------------------------------------------------------

fn run_feed_rs(docs: &[&Doc]) -> Outcome {
    let mut out = Outcome::default();
    for d in docs {
        match feed_rs::parser::parse(&d.bytes[..]) {
            Ok(feed) => out.entries += feed.entries.len() as u64,
            Err(_) => out.rejected += 1,
        }
    }
    out
}

// ---- rss + atom_syndication ------------------------------------------------------------------

/// Local name of the first element (skips the XML declaration, comments, PIs, doctype).
fn root_local_name(bytes: &[u8]) -> &[u8] {
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'<', &bytes[i..]) {
        let s = i + off + 1;
        match bytes.get(s) {
            Some(b'?') | Some(b'!') => i = s,
            Some(_) => {
                let end = bytes[s..]
                    .iter()
                    .position(|&b| b.is_ascii_whitespace() || b == b'>' || b == b'/')
                    .map_or(bytes.len(), |p| s + p);
                let name = &bytes[s..end];
                return match name.iter().rposition(|&b| b == b':') {
                    Some(c) => &name[c + 1..],
                    None => name,
                };
            }
            None => break,
        }
    }
    b""
}

fn run_rss_atom(docs: &[&Doc]) -> Outcome {
    let mut out = Outcome::default();
    for d in docs {
        if root_local_name(&d.bytes) == b"feed" {
            match atom_syndication::Feed::read_from(&d.bytes[..]) {
                Ok(feed) => out.entries += feed.entries().len() as u64,
                Err(_) => out.rejected += 1,
            }
        } else {
            match rss::Channel::read_from(&d.bytes[..]) {
                Ok(ch) => out.entries += ch.items().len() as u64,
                Err(_) => out.rejected += 1,
            }
        }
    }
    out
}

// ---- feedparser-rs ---------------------------------------------------------------------------

fn run_feedparser_with(docs: &[&Doc], opts: &feedparser_rs::ParseOptions) -> Outcome {
    let mut out = Outcome::default();
    for d in docs {
        match feedparser_rs::parse_with_options(&d.bytes, opts) {
            // feedparser-rs never fails on malformed XML: it sets `bozo` and returns what it
            // got. An unrecognized format is also returned as Ok + bozo; count that as a reject.
            Ok(feed) if feed.version == feedparser_rs::FeedVersion::Unknown => out.rejected += 1,
            Ok(feed) => out.entries += feed.entries.len() as u64,
            Err(_) => out.rejected += 1,
        }
    }
    out
}

fn run_feedparser_default(docs: &[&Doc]) -> Outcome {
    run_feedparser_with(docs, &feedparser_rs::ParseOptions::default())
}

fn run_feedparser_nosanitize(docs: &[&Doc]) -> Outcome {
    let opts = feedparser_rs::ParseOptions { sanitize_html: false, ..Default::default() };
    run_feedparser_with(docs, &opts)
}

// ---- bare quick-xml walks --------------------------------------------------------------------

fn is_entry(local: &str) -> bool {
    local == "item" || local == "entry"
}

/// `NsReader::read_resolved_event_into` over every event of the raw bytes. Besides reading,
/// only counts events and `item`/`entry` start tags (a sanity number, not an entry count).
fn run_qx_ns(docs: &[&Doc]) -> Outcome {
    use quick_xml::events::Event;
    let mut out = Outcome::default();
    let mut buf = Vec::with_capacity(4096);
    for d in docs {
        let mut r = quick_xml::NsReader::from_reader(&d.bytes[..]);
        loop {
            match r.read_resolved_event_into(&mut buf) {
                Ok((_, Event::Eof)) => break,
                Ok((_, Event::Start(e))) => {
                    out.events += 1;
                    out.entries += is_entry(e.local_name().as_ref()) as u64;
                }
                Ok(_) => out.events += 1,
                Err(_) => {
                    out.rejected += 1;
                    out.unread += (d.bytes.len() as u64).saturating_sub(r.buffer_position());
                    break;
                }
            }
            buf.clear();
        }
        buf.clear();
    }
    out
}

/// `Reader::read_event_into` (no namespace resolution) over every event of the raw bytes.
fn run_qx_plain(docs: &[&Doc]) -> Outcome {
    use quick_xml::events::Event;
    let mut out = Outcome::default();
    let mut buf = Vec::with_capacity(4096);
    for d in docs {
        let mut r = quick_xml::Reader::from_reader(&d.bytes[..]);
        loop {
            match r.read_event_into(&mut buf) {
                Ok(Event::Eof) => break,
                Ok(Event::Start(e)) => {
                    out.events += 1;
                    out.entries += is_entry(e.local_name().as_ref()) as u64;
                }
                Ok(_) => out.events += 1,
                Err(_) => {
                    out.rejected += 1;
                    out.unread += (d.bytes.len() as u64).saturating_sub(r.buffer_position());
                    break;
                }
            }
            buf.clear();
        }
        buf.clear();
    }
    out
}

const PEERS: &[Peer] = &[
    Peer { name: "feedmill", counts: "entries", run: run_feedmill },
    Peer { name: "feedmill + extract", counts: "entries", run: run_feedmill_extract },
    Peer { name: "feed-rs", counts: "entries", run: run_feed_rs },
    Peer { name: "rss+atom_syndication", counts: "entries", run: run_rss_atom },
    Peer {
        name: "feedparser-rs (sanitize on, default)",
        counts: "entries",
        run: run_feedparser_default,
    },
    Peer {
        name: "feedparser-rs (sanitize off)",
        counts: "entries",
        run: run_feedparser_nosanitize,
    },
    Peer { name: "quick-xml NsReader walk", counts: "item/entry tags", run: run_qx_ns },
    Peer { name: "quick-xml Reader walk (no ns)", counts: "item/entry tags", run: run_qx_plain },
];

// ---------------------------------------------------------------------------------------------

struct Row {
    name: &'static str,
    counts: &'static str,
    /// Timed passes, in round order.
    times: Vec<Duration>,
    median: Duration,
    min: Duration,
    max: Duration,
    outcome: Outcome,
    allocs: u64,
    reallocs: u64,
    alloc_bytes: u64,
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn median_f64(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn mbps(bytes: u64, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64()
}

/// Runs `f` over `docs`: warm-up, counted pass, `runs` timed passes. Every pass must agree.
fn measure(name: &'static str, counts: &'static str, runs: usize, f: &dyn Fn() -> Outcome) -> Row {
    let mut row = prepare(name, counts, f);
    for _ in 0..runs {
        time_one(&mut row, f);
    }
    finish(row)
}

/// The untimed passes: a warm-up, then one pass with the counting allocator on.
fn prepare(name: &'static str, counts: &'static str, f: &dyn Fn() -> Outcome) -> Row {
    let warm = f();
    ALLOCS.store(0, Relaxed);
    REALLOCS.store(0, Relaxed);
    ALLOC_BYTES.store(0, Relaxed);
    ENABLED.store(true, Relaxed);
    let counted = f();
    ENABLED.store(false, Relaxed);
    let (allocs, reallocs, alloc_bytes) =
        (ALLOCS.load(Relaxed), REALLOCS.load(Relaxed), ALLOC_BYTES.load(Relaxed));
    assert_eq!(warm, counted, "{name}: passes disagree");
    let zero = Duration::ZERO;
    Row {
        name,
        counts,
        times: Vec::new(),
        median: zero,
        min: zero,
        max: zero,
        outcome: warm,
        allocs,
        reallocs,
        alloc_bytes,
    }
}

/// One timed pass, checked against the untimed result.
fn time_one(row: &mut Row, f: &dyn Fn() -> Outcome) {
    let t = Instant::now();
    let o = std::hint::black_box(f());
    row.times.push(t.elapsed());
    assert_eq!(o, row.outcome, "{}: passes disagree", row.name);
}

fn finish(mut row: Row) -> Row {
    row.min = *row.times.iter().min().unwrap();
    row.max = *row.times.iter().max().unwrap();
    row.median = median(row.times.clone());
    row
}

/// Splits documents into `n` groups of about equal bytes (largest first, to the lightest group).
fn split_balanced<'d>(docs: &[&'d Doc], n: usize) -> Vec<Vec<&'d Doc>> {
    let mut sorted: Vec<&Doc> = docs.to_vec();
    sorted.sort_by_key(|d| std::cmp::Reverse(d.bytes.len()));
    let mut groups: Vec<(usize, Vec<&Doc>)> = (0..n).map(|_| (0, Vec::new())).collect();
    for d in sorted {
        let g = groups.iter_mut().min_by_key(|g| g.0).unwrap();
        g.0 += d.bytes.len();
        g.1.push(d);
    }
    groups.into_iter().map(|g| g.1).collect()
}

fn load_corpus(dir: &Path) -> Vec<Doc> {
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv"))
        .unwrap_or_else(|e| panic!("reading {}/MANIFEST.tsv: {e}", dir.display()));
    let mut docs = Vec::new();
    for line in manifest.lines().skip(1) {
        let Some(rel) = line.split('\t').next().filter(|s| !s.is_empty()) else { continue };
        let bytes = std::fs::read(dir.join(rel)).unwrap_or_else(|e| panic!("reading {rel}: {e}"));
        docs.push(Doc { path: rel.to_owned(), bytes });
    }
    docs
}

fn main() {
    let mut runs = 5usize;
    let mut threads = 1usize;
    let mut only: Option<Vec<String>> = None;
    let mut corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/real");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = |what: &str| args.next().unwrap_or_else(|| panic!("{what} needs a value"));
        match a.as_str() {
            "--runs" => runs = val("--runs").parse().expect("--runs N"),
            "--threads" => threads = val("--threads").parse().expect("--threads N"),
            "--corpus" => corpus = PathBuf::from(val("--corpus")),
            "--only" => only = Some(val("--only").split(',').map(str::to_owned).collect()),
            "-h" | "--help" => {
                println!("peers [--runs N] [--threads N] [--corpus DIR] [--only NAME,NAME]");
                println!("names: {}", PEERS.iter().map(|p| p.name).collect::<Vec<_>>().join(" | "));
                return;
            }
            other => panic!("unknown argument {other:?} (try --help)"),
        }
    }
    assert!(runs >= 1 && threads >= 1);

    let docs = load_corpus(&corpus);
    let refs: Vec<&Doc> = docs.iter().collect();
    let total: u64 = docs.iter().map(|d| d.bytes.len() as u64).sum();
    let non_utf8 = docs.iter().filter(|d| std::str::from_utf8(&d.bytes).is_err()).count();
    println!(
        "corpus: {} ({} files, {:.2} MB, {} not valid UTF-8); single thread; median of {runs} rounds (each round times every parser once, interleaved); \"vs feed-rs\" = median of the per-round time ratios",
        corpus.canonicalize().unwrap_or(corpus.clone()).display(),
        docs.len(),
        total as f64 / 1e6,
        non_utf8
    );
    if let Some(d) = docs.iter().max_by_key(|d| d.bytes.len()) {
        println!("largest file: {} ({} bytes)", d.path, d.bytes.len());
    }

    // Untimed passes first, then the timed passes interleaved round by round (each round
    // times every parser once), so a change in machine load hits all parsers alike.
    let selected: Vec<&Peer> = PEERS
        .iter()
        .filter(|p| {
            only.as_ref().is_none_or(|only| only.iter().any(|o| p.name.starts_with(o.as_str())))
        })
        .collect();
    let mut rows = Vec::new();
    for p in &selected {
        eprintln!("preparing {} …", p.name);
        rows.push(prepare(p.name, p.counts, &|| (p.run)(&refs)));
    }
    for round in 0..runs {
        eprintln!("round {} of {runs} …", round + 1);
        for (p, row) in selected.iter().zip(rows.iter_mut()) {
            time_one(row, &|| (p.run)(&refs));
        }
    }
    let rows: Vec<Row> = rows.into_iter().map(finish).collect();

    // Ratio to feed-rs: the median over rounds of (feed-rs time / parser time) in the same
    // round — paired, so slow rounds do not favour whoever ran in a quiet moment.
    let feed_rs_times = rows.iter().find(|r| r.name == "feed-rs").map(|r| r.times.clone());
    let paired_ratio = |r: &Row| -> Option<f64> {
        let base = feed_rs_times.as_ref()?;
        let ratios: Vec<f64> =
            base.iter().zip(&r.times).map(|(f, t)| f.as_secs_f64() / t.as_secs_f64()).collect();
        Some(median_f64(ratios))
    };
    let kb = total as f64 / 1024.0;
    println!();
    println!(
        "| {:<38} | {:>8} | {:>18} | {:>10} | {:>8} | {:>10} | {:>12} | {:>9} |",
        "parser",
        "MB/s",
        "slowest..fastest",
        "vs feed-rs",
        "found",
        "what",
        "rejected",
        "allocs/KB"
    );
    println!(
        "|{:-<40}|{:->10}|{:->20}|{:->12}|{:->10}|{:->12}|{:->14}|{:->11}|",
        "", "", "", "", "", "", "", ""
    );
    for r in &rows {
        let m = mbps(total, r.median);
        let ratio = paired_ratio(r).map_or("n/a".to_owned(), |x| format!("{x:.2}x"));
        println!(
            "| {:<38} | {:>8.1} | {:>8.1}..{:<8.1} | {:>10} | {:>8} | {:>10} | {:>4} of {:<4} | {:>9.2} |",
            r.name,
            m,
            mbps(total, r.max),
            mbps(total, r.min),
            ratio,
            r.outcome.entries,
            if r.counts == "entries" { "entries" } else { "item/entry" },
            r.outcome.rejected,
            docs.len(),
            (r.allocs + r.reallocs) as f64 / kb,
        );
    }
    println!();
    println!("allocation detail (one pass, counting allocator around the system allocator):");
    for r in &rows {
        println!(
            "  {:<38} allocs {:>9}  reallocs {:>9}  allocated {:>8.1} MB  ({:.2} allocs+reallocs per KB)",
            r.name,
            r.allocs,
            r.reallocs,
            r.alloc_bytes as f64 / 1e6,
            (r.allocs + r.reallocs) as f64 / kb
        );
    }
    for r in rows.iter().filter(|r| r.outcome.events > 0) {
        println!(
            "  {:<38} events read {}, bytes left unread after an error {} ({} files stopped early)",
            r.name, r.outcome.events, r.outcome.unread, r.outcome.rejected
        );
    }

    if threads > 1
        && only.as_ref().is_none_or(|o| o.iter().any(|n| "feedmill".starts_with(n.as_str())))
    {
        let one =
            rows.iter().find(|r| r.name == "feedmill").map(|r| r.median).unwrap_or_else(|| {
                measure("feedmill", "entries", runs, &|| run_feedmill(&refs)).median
            });
        let groups = split_balanced(&refs, threads);
        let row = measure("feedmill (threads)", "entries", runs, &|| {
            std::thread::scope(|s| {
                let handles: Vec<_> =
                    groups.iter().map(|g| s.spawn(move || run_feedmill(g))).collect();
                let mut o = Outcome::default();
                for h in handles {
                    o += h.join().expect("worker panicked");
                }
                o
            })
        });
        let single = rows.iter().find(|r| r.name == "feedmill").map(|r| r.outcome);
        if let Some(single) = single {
            assert_eq!(single, row.outcome, "threaded feedmill disagrees with single-threaded");
        }
        println!();
        println!(
            "feedmill scaling: 1 thread {:.1} MB/s, {threads} threads {:.1} MB/s = {:.2}x (groups: {})",
            mbps(total, one),
            mbps(total, row.median),
            one.as_secs_f64() / row.median.as_secs_f64(),
            groups
                .iter()
                .map(|g| format!("{:.2} MB", g.iter().map(|d| d.bytes.len()).sum::<usize>() as f64 / 1e6))
                .collect::<Vec<_>>()
                .join(" + ")
        );
        println!(
            "  (thread spawn is inside the timed region; machine has {} CPUs)",
            std::thread::available_parallelism().map_or(0, |n| n.get())
        );
    }
}
