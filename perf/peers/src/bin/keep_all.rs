//! `keep-all`: the memory a program needs to keep every parsed feed of a corpus, for one
//! parser per process (feedmill's `OwnedParsed` or feed-rs's `Feed`). Not part of feedmill.
//!
//! Reads each file of the corpus (files listed in `MANIFEST.tsv`, `--copies N` times over),
//! parses it, drops the input bytes and keeps the result in one `Vec`. Prints, as one
//! tab-separated line: the parser, the number of documents, their total input bytes, the
//! live heap bytes after all are kept, the peak live heap bytes (both from a counting global
//! allocator: load-independent) and the process's peak RSS (`VmHWM` from
//! `/proc/self/status`).
//!
//! Usage: `keep-all feedmill|feed-rs [--copies N] [--corpus DIR]`

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting live and peak live bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let live = LIVE.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(live, Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size(), Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let parser = args.next().expect("usage: keep-all feedmill|feed-rs [--copies N] [--corpus DIR]");
    let mut copies = 1usize;
    let mut corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/real");
    while let Some(a) = args.next() {
        match a.as_str() {
            "--copies" => copies = args.next().and_then(|v| v.parse().ok()).expect("--copies N"),
            "--corpus" => corpus = args.next().expect("--corpus DIR").into(),
            other => panic!("unknown argument {other}"),
        }
    }
    let manifest = std::fs::read_to_string(corpus.join("MANIFEST.tsv")).expect("MANIFEST.tsv");
    let files: Vec<PathBuf> = manifest
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next().filter(|s| !s.is_empty()))
        .map(|rel| corpus.join(rel))
        .collect();

    let options = feedmill::Options::default();
    let mut kept_feedmill = Vec::new();
    let mut kept_feedrs = Vec::new();
    let (mut docs, mut input_bytes, mut failed) = (0usize, 0usize, 0usize);
    for _ in 0..copies {
        for path in &files {
            let bytes = std::fs::read(path).expect("reading a corpus file");
            docs += 1;
            input_bytes += bytes.len();
            match parser.as_str() {
                "feedmill" => match feedmill::OwnedParsed::parse_bytes(&bytes, &options, None) {
                    Ok(p) => kept_feedmill.push(p),
                    Err(_) => failed += 1,
                },
                "feed-rs" => match feed_rs::parser::parse(&bytes[..]) {
                    Ok(f) => kept_feedrs.push(f),
                    Err(_) => failed += 1,
                },
                other => panic!("unknown parser {other}"),
            }
        }
    }
    let live = LIVE.load(Relaxed);
    println!(
        "parser\tdocs\tfailed\tinput_bytes\tlive_heap_bytes\tpeak_heap_bytes\tpeak_rss_kib\n\
         {parser}\t{docs}\t{failed}\t{input_bytes}\t{live}\t{}\t{}",
        PEAK.load(Relaxed),
        peak_rss_kib()
    );
    std::hint::black_box((&kept_feedmill, &kept_feedrs));
}
