//! Parse + extraction over `corpus/real/` (every file of its MANIFEST.tsv, decoded before
//! timing), for profiling and for checking that extraction results do not change:
//!
//! - `cargo run --release --example extract -- parse [ROUNDS]`: parse only;
//! - `cargo run --release --example extract -- extract [ROUNDS]`: parse + `extract` with every
//!   option on (what `perf record` / `valgrind --tool=callgrind` should run);
//! - `cargo run --release --example extract -- dump > out.txt`: every extraction result of
//!   every file, one `Debug` line per feed, to diff before and after a change.

use std::time::Instant;

use feedmill::extract::{extract, ExtractOptions};

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "extract".to_owned());
    let rounds: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(5);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/real");
    let manifest =
        std::fs::read_to_string(root.join("MANIFEST.tsv")).expect("corpus/real/MANIFEST.tsv");
    let mut docs = Vec::new();
    for line in manifest.lines().skip(1) {
        let Some(rel) = line.split('\t').next().filter(|s| !s.is_empty()) else { continue };
        let bytes = std::fs::read(root.join(rel)).unwrap();
        let text = feedmill::input::decode(&bytes, None).text.into_owned();
        docs.push((rel.to_owned(), bytes.len(), text));
    }
    let bytes: usize = docs.iter().map(|d| d.1).sum();
    let mut parser = feedmill::Parser::new(feedmill::Options::default());
    let mut arena = bumpalo::Bump::new();
    let opts = ExtractOptions::default();
    let base = Some("https://example.org/feeds/feed.xml");

    if mode == "dump" {
        for (path, _, text) in &docs {
            let parsed = parser.parse_str(text, base);
            let Ok(parsed) = parsed else {
                println!("{path}\terror");
                continue;
            };
            let Some(feed) = &parsed.feed else {
                println!("{path}\tnot a feed");
                continue;
            };
            arena.reset();
            println!("{path}\t{:?}", extract(feed, &arena, &opts));
        }
        return;
    }
    let with_extract = match mode.as_str() {
        "parse" => false,
        "extract" => true,
        _ => panic!("mode: parse | extract | dump"),
    };
    let mut best = f64::MAX;
    let mut check = 0u64;
    for _ in 0..rounds {
        let t = Instant::now();
        check = 0;
        for (_, _, text) in &docs {
            let Ok(parsed) = parser.parse_str(text, base) else { continue };
            let Some(feed) = &parsed.feed else { continue };
            check += feed.entries.len() as u64;
            if with_extract {
                arena.reset();
                let x = extract(feed, &arena, &opts);
                for e in &x.entries {
                    check += e.word_count as u64
                        + e.canonical_url.is_some() as u64
                        + e.dedup_key.is_some() as u64;
                }
            }
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{mode}: {} docs, {:.1} MB, check {check}: best of {rounds} = {:.1} ms, {:.0} MB/s",
        docs.len(),
        bytes as f64 / 1e6,
        best * 1e3,
        bytes as f64 / 1e6 / best
    );
}
