//! Quick single-thread throughput check over `corpus/real/` (the criterion benches in
//! `benches/` are the reference numbers; this is for profiling runs):
//! `cargo run --release --example throughput [ROUNDS] [spec-exact]` (`spec-exact`: the web
//! recovery rules off; compare instruction counts of both with callgrind, `perf/README.md`).

use std::time::Instant;

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/real");
    let mut docs = Vec::new();
    for dir in ["atom", "atom03", "rss1", "rss2"] {
        let mut paths: Vec<_> =
            std::fs::read_dir(root.join(dir)).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths {
            docs.push(std::fs::read(p).unwrap());
        }
    }
    let bytes: usize = docs.iter().map(Vec::len).sum();
    let mut options = feedmill::Options::default();
    options.spec_exact = std::env::args().nth(2).is_some_and(|a| a == "spec-exact");
    let mut parser = feedmill::Parser::new(options);
    let mut best = f64::MAX;
    let mut entries = 0;
    for _ in 0..rounds {
        let t = Instant::now();
        entries = 0;
        for d in &docs {
            let parsed = parser.parse_bytes(d, None, Some("https://example.org/")).unwrap();
            entries += parsed.feed.map_or(0, |f| f.entries.len());
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{} docs, {:.1} MB, {} entries: best of {} = {:.1} ms, {:.0} MB/s",
        docs.len(),
        bytes as f64 / 1e6,
        entries,
        rounds,
        best * 1e3,
        bytes as f64 / 1e6 / best
    );
}
