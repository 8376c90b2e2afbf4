//! Quick single-thread throughput check over `corpus/real/` (the criterion benches in
//! `benches/` are the reference numbers; this is for profiling runs):
//! `cargo run --release --example throughput [ROUNDS] [spec-exact] [json]` (`spec-exact`: the
//! web recovery rules off; compare instruction counts of both with callgrind, `perf/README.md`;
//! `json`, with `--features json`: each record also encoded as the CLI's JSON line, with no
//! base URL and the file's path as its source, as the CLI's directory job does).

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
            let bytes = std::fs::read(&p).unwrap();
            docs.push((p.display().to_string(), bytes));
        }
    }
    let bytes: usize = docs.iter().map(|(_, d)| d.len()).sum();
    let args: Vec<String> = std::env::args().skip(2).collect();
    let mut options = feedmill::Options::default();
    options.spec_exact = args.iter().any(|a| a == "spec-exact");
    let json = args.iter().any(|a| a == "json");
    if json && cfg!(not(feature = "json")) {
        eprintln!("throughput: `json` needs `--features json`");
        std::process::exit(2);
    }
    let mut out = Json::default();
    let mut parser = feedmill::Parser::new(options);
    let mut best = f64::MAX;
    let mut entries = 0;
    for _ in 0..rounds {
        let t = Instant::now();
        entries = 0;
        for (path, d) in &docs {
            if json {
                let parsed = parser.parse_bytes(d, None).unwrap();
                out.encode(path, &parsed);
                entries += parsed.feed.map_or(0, |f| f.entries.len());
                continue;
            }
            let parsed = parser.parse_bytes(d, Some("https://example.org/")).unwrap();
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

/// The JSON line of each record, as the CLI writes it (its buffers reused).
#[derive(Default)]
struct Json {
    #[cfg(feature = "json")]
    line: Vec<u8>,
}

impl Json {
    #[cfg(feature = "json")]
    fn encode(&mut self, source: &str, parsed: &feedmill::Parsed<'_>) {
        let view = feedmill::sink::RecordView::parsed(source, None, parsed);
        self.line.clear();
        feedmill::sink::json::encode_record(&mut self.line, &view);
        std::hint::black_box(&self.line);
    }

    #[cfg(not(feature = "json"))]
    fn encode(&mut self, _: &str, _: &feedmill::Parsed<'_>) {}
}
