//! Generated worst-case inputs. Each is sized so that even a slow (10 MB/s) but linear parser
//! finishes an iteration in a few seconds; a super-linear one shows up as a collapse in MB/s
//! here rather than as a hang. Sampling is flat (10 samples, 1+ iteration each).
//!
//! Each input checks the entry count it was built with (`FEEDMILL_BENCH_UNCHECKED=1` turns a
//! mismatch into a warning, for the stub parser). Limits in play with `Options::default()`:
//! `max_text_bytes` 16 MiB (longer values are cut), `max_depth` 256 (deeper content skipped),
//! `max_entries` 100 000; the inputs stay inside or are built to exercise exactly those paths.

mod common;

use common::{check, fingerprint, BASE_URL};
use criterion::{Criterion, SamplingMode, Throughput};
use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Duration;

const HEAD: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:x="urn:x-ext">
<channel><title>pathological</title><link>https://example.org/</link><description>d</description>
"#;
const TAIL: &str = "</channel></rss>\n";

struct Case {
    name: &'static str,
    doc: String,
    entries: u64,
}

/// Defeats: per-value buffering and copying, quadratic text accumulation, and the
/// `max_text_bytes` cut (must be O(n), must not allocate the value twice).
/// One item whose description is 50 MB of escaped-HTML text.
fn giant_item() -> Case {
    let chunk =
        "&lt;p&gt;Lorem ipsum dolor sit amet, consectetur adipiscing elit &amp; more.&lt;/p&gt;\n";
    let mut doc = String::from(HEAD);
    doc.push_str("<item><title>giant</title><link>/giant</link><pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate><description>");
    while doc.len() < 50_000_000 {
        doc.push_str(chunk);
    }
    doc.push_str("</description></item>");
    doc.push_str(TAIL);
    Case { name: "giant_item_50MB_description", doc, entries: 1 }
}

/// Defeats: copying CDATA into owned buffers, slow `]]>` scanning, HTML sanitizing that is
/// super-linear in fragment size. One item with a 20 MB CDATA section of real-looking HTML.
fn huge_cdata() -> Case {
    let chunk = "<div class=\"c\"><p>Some <b>bold</b> and <a href=\"/rel/link\">a link</a> &amp; <img src=\"x.png\"></p></div>\n";
    let mut doc = String::from(HEAD);
    doc.push_str("<item><title>cdata</title><content:encoded><![CDATA[");
    while doc.len() < 20_000_000 {
        doc.push_str(chunk);
    }
    doc.push_str("]]></content:encoded></item>");
    doc.push_str(TAIL);
    Case { name: "huge_cdata_20MB", doc, entries: 1 }
}

/// Defeats: recursion (stack overflow), per-level namespace scopes, and the depth limit's
/// skip path (must skip, not buffer). 100 000 nested extension elements inside one item.
fn deep_nesting() -> Case {
    const DEPTH: usize = 100_000;
    let mut doc = String::from(HEAD);
    doc.push_str("<item><title>deep</title>");
    for _ in 0..DEPTH {
        doc.push_str("<x:n>");
    }
    doc.push_str("bottom");
    for _ in 0..DEPTH {
        doc.push_str("</x:n>");
    }
    doc.push_str("<link>/after-the-deep-part</link></item>");
    doc.push_str(TAIL);
    Case { name: "deep_nesting_100k_levels", doc, entries: 1 }
}

/// Defeats: per-entity events and string concatenation (quick-xml 0.42 reports each `&…;` as
/// its own event), slow entity tables. An `&amp;` every few bytes, double-escaped HTML
/// entities and numeric references; 10 MB in one description.
fn entity_heavy() -> Case {
    let chunk = "a&amp;b&amp;amp;c&lt;&gt;&quot;&apos;&#233;&#x20AC;&amp;nbsp;&amp;eacute;&amp;hellip;d&amp;#8212;";
    let mut doc = String::from(HEAD);
    doc.push_str("<item><title>A &amp; B &#8212; C</title><description>");
    while doc.len() < 10_000_000 {
        doc.push_str(chunk);
    }
    doc.push_str("</description></item>");
    doc.push_str(TAIL);
    Case { name: "entity_heavy_10MB", doc, entries: 1 }
}

/// Defeats: a tokenizer that looks for the end of a "tag" before deciding its `<` was text
/// (`a<b` scans to the next `>` far away, then backs off one byte: quadratic). 1 MB of
/// `x<y ` in one title, `>` only at the end.
fn stray_lt_run() -> Case {
    let mut doc = String::from(HEAD);
    doc.push_str("<item><title>");
    while doc.len() < 1_000_000 {
        doc.push_str("x<y ");
    }
    doc.push_str("</title></item>");
    doc.push_str(TAIL);
    Case { name: "stray_lt_run_1MB", doc, entries: 1 }
}

/// Defeats: namespace resolution by linear scan (each lookup of the first-declared prefix
/// walks all 10 000 bindings) and per-declaration allocation. 10 000 `xmlns:` declarations on
/// the root, then 2 000 items each using the first-declared prefix.
fn many_namespaces() -> Case {
    const DECLS: usize = 10_000;
    const ITEMS: u64 = 2_000;
    let mut doc = String::from("<?xml version=\"1.0\"?>\n<rss version=\"2.0\"");
    for i in 0..DECLS {
        let _ = write!(doc, " xmlns:p{i}=\"urn:x-ns-{i}\"");
    }
    doc.push_str("><channel><title>ns</title>\n");
    for i in 0..ITEMS {
        let _ = writeln!(doc, "<item><title>t{i}</title><p0:a>v</p0:a><p0:b p0:c=\"1\"/></item>");
    }
    doc.push_str(TAIL);
    Case { name: "many_namespaces_10k_decls", doc, entries: ITEMS }
}

/// Defeats: fixed per-entry overhead (allocations per entry, Vec growth, per-entry cleanup
/// passes). 90 000 tiny items (below the 100 000 `max_entries` limit).
fn many_tiny_entries() -> Case {
    const ITEMS: u64 = 90_000;
    let mut doc = String::from(HEAD);
    for i in 0..ITEMS {
        let _ = writeln!(doc, "<item><title>t{i}</title><link>/{i}</link></item>");
    }
    doc.push_str(TAIL);
    Case { name: "many_tiny_entries_90k", doc, entries: ITEMS }
}

fn bench_pathological(c: &mut Criterion) {
    let sfx = common::id_suffix();
    let mut g = c.benchmark_group("pathological");
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    let mut parser = feedmill::Parser::new(feedmill::Options::default());
    for make in [
        giant_item,
        huge_cdata,
        deep_nesting,
        entity_heavy,
        stray_lt_run,
        many_namespaces,
        many_tiny_entries,
    ] {
        let case = make();
        let t = std::time::Instant::now();
        let got = fingerprint(&parser.parse_str(&case.doc, Some(BASE_URL))).entries;
        let first = t.elapsed();
        eprintln!(
            "{}: {:.1} MB, {got} entries (built with {}), untimed first parse {first:.2?}",
            case.name,
            case.doc.len() as f64 / 1e6,
            case.entries
        );
        if first > Duration::from_secs(10) {
            // Guard against a hang: 10+ samples of this would take minutes. A linear parser
            // at 10 MB/s needs 5 s for the largest input; this is a super-linear collapse.
            eprintln!(
                "SKIPPED {}: one parse took {first:.2?} (super-linear?); investigate",
                case.name
            );
            check(false, || format!("{}: one parse took {first:.2?}", case.name));
            continue;
        }
        check(got == case.entries, || {
            format!("{}: {got} entries, built with {}", case.name, case.entries)
        });
        g.throughput(Throughput::Bytes(case.doc.len() as u64));
        g.bench_function(format!("{}{sfx}", case.name), |b| {
            b.iter(|| {
                let n =
                    fingerprint(&parser.parse_str(black_box(&case.doc), Some(BASE_URL))).entries;
                check(n == case.entries, || {
                    format!("{}: {n} entries, built with {}", case.name, case.entries)
                });
                n
            })
        });
    }
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_pathological(&mut c);
    c.final_summary();
}
