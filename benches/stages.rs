//! Each pipeline stage alone, on real data from `corpus/real/`.
//!
//! | id | what is timed | input | checked |
//! |----|---------------|-------|---------|
//! | `stages/decode/real_corpus` | BOM > XML decl > UTF-8 decode of every file's bytes | whole corpus | decoded length |
//! | `stages/xml_walk/ns_from_str` | quick-xml `NsReader::read_resolved_event` over every event | whole corpus, decoded | event count |
//! | `stages/xml_walk/no_ns_from_str` | quick-xml `Reader::read_event` over every event | whole corpus, decoded | event count |
//! | `stages/format/full_parse_docs_without_markup` | full `parse_str` (format state machines + dates + URLs; the HTML stage only sees values without markup) | corpus files with no escaped markup, CDATA or html/xhtml-typed text | fingerprints vs `perf/expected/real-corpus.tsv` |
//! | `stages/escaped_html/{with_markup,without_markup}` | `html::parse_escaped_html` | description / content:encoded / Atom html summary+content values from the corpus, split by whether they contain `<` | number of `Some` results |
//! | `stages/dates/{rfc822,rfc3339,w3cdtf}` | `model::date::parse_*` | every date string in the corpus, routed by element (RSS pubDate/lastBuildDate; Atom 1.0; dc/dcterms/Atom 0.3) | number parsed |
//! | `stages/url_resolve/real_hrefs` | `model::url::resolve` against a fixed base | link/href/url values from the corpus | number resolved |
//!
//! There is no separate "format state machines only" entry point; the `format` row is the
//! honest approximation: the whole parse on documents that give the HTML stage nothing to do.

mod common;

use common::{check, fingerprint, Doc, Expected, BASE_URL};
use criterion::{BenchmarkId, Criterion, Throughput};
use quick_xml::events::Event;
use quick_xml::name::ResolveResult;
use std::hint::black_box;

const ATOM10: &str = "http://www.w3.org/2005/Atom";
const ATOM03: &str = "http://purl.org/atom/ns#";
const DC: &str = "http://purl.org/dc/elements/1.1/";
const DCTERMS: &str = "http://purl.org/dc/terms/";
const CONTENT: &str = "http://purl.org/rss/1.0/modules/content/";
const RSS10: &str = "http://purl.org/rss/1.0/";
const MEDIA: &str = "http://search.yahoo.com/mrss/";

#[derive(Default)]
struct Samples {
    html: Vec<String>,
    rfc822: Vec<String>,
    rfc3339: Vec<String>,
    w3cdtf: Vec<String>,
    urls: Vec<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum Want {
    Html,
    Rfc822,
    Rfc3339,
    W3cdtf,
    Url,
}

/// Which text-valued elements to collect. `ns` is the resolved namespace ("" = none).
fn classify(ns: &str, local: &str, atom_type: Option<&str>) -> Option<Want> {
    match (ns, local) {
        ("" | RSS10, "description") => Some(Want::Html),
        (CONTENT, "encoded") => Some(Want::Html),
        (ATOM10 | ATOM03, "summary" | "content" | "subtitle" | "tagline")
            if matches!(atom_type, Some("html") | Some("text/html")) =>
        {
            Some(Want::Html)
        }
        ("", "pubDate" | "lastBuildDate") => Some(Want::Rfc822),
        (ATOM10, "published" | "updated") => Some(Want::Rfc3339),
        (ATOM03, "issued" | "modified" | "created") => Some(Want::W3cdtf),
        (DC, "date") => Some(Want::W3cdtf),
        (DCTERMS, "date" | "modified" | "created" | "issued") => Some(Want::W3cdtf),
        ("" | RSS10, "link" | "comments" | "docs" | "url") => Some(Want::Url),
        (ATOM10 | ATOM03, "uri" | "url" | "icon" | "logo" | "id") => Some(Want::Url),
        _ => None,
    }
}

fn ns_str(r: &ResolveResult<'_>) -> String {
    match r {
        ResolveResult::Bound(ns) => String::from_utf8_lossy(ns.as_ref().as_ref()).into_owned(),
        _ => String::new(),
    }
}

fn push_ref(out: &mut String, name: &str) {
    let c = match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => name.strip_prefix('#').and_then(|n| {
            let v = match n.strip_prefix('x').or_else(|| n.strip_prefix('X')) {
                Some(h) => u32::from_str_radix(h, 16).ok(),
                None => n.parse().ok(),
            };
            v.and_then(char::from_u32)
        }),
    };
    match c {
        Some(c) => out.push(c),
        None => {
            out.push('&');
            out.push_str(name);
            out.push(';');
        }
    }
}

/// One quick-xml pass per document collecting real values (bench setup, untimed).
fn extract(docs: &[&Doc]) -> Samples {
    let mut s = Samples::default();
    for d in docs {
        let mut r = quick_xml::NsReader::from_str(&d.text);
        // (kind, text so far, nesting inside the captured element; None = abandoned)
        let mut cap: Option<(Want, String, usize)> = None;
        loop {
            let ev = match r.read_resolved_event() {
                Ok((_, Event::Eof)) | Err(_) => break,
                Ok((ns, ev)) => (ns_str(&ns), ev),
            };
            match ev {
                (ns, Event::Start(e)) => {
                    if let Some(c) = &mut cap {
                        // Nested markup (xhtml, unknown children): not a text value; the NUL
                        // marks the capture as abandoned.
                        c.2 += 1;
                        c.1.push('\u{0}');
                        continue;
                    }
                    let local = e.local_name().as_ref().to_owned();
                    let ty = e.try_get_attribute("type").ok().flatten().and_then(|a| {
                        a.normalized_value(quick_xml::XmlVersion::default())
                            .ok()
                            .map(|v| v.into_owned())
                    });
                    collect_url_attrs(&ns, &local, &e, &mut s.urls);
                    if let Some(w) = classify(&ns, &local, ty.as_deref()) {
                        cap = Some((w, String::new(), 0));
                    }
                }
                (ns, Event::Empty(e)) => {
                    if let Some(c) = &mut cap {
                        c.1.push('\u{0}');
                    } else {
                        let local = e.local_name().as_ref().to_owned();
                        collect_url_attrs(&ns, &local, &e, &mut s.urls);
                    }
                }
                (_, Event::Text(t)) => {
                    if let Some(c) = &mut cap {
                        c.1.push_str(&t.xml10_content());
                    }
                }
                (_, Event::CData(t)) => {
                    if let Some(c) = &mut cap {
                        c.1.push_str(&t.xml10_content());
                    }
                }
                (_, Event::GeneralRef(t)) => {
                    if let Some(c) = &mut cap {
                        push_ref(&mut c.1, &t.xml10_content());
                    }
                }
                (_, Event::End(_)) => {
                    if let Some(c) = &mut cap {
                        if c.2 > 0 {
                            c.2 -= 1;
                            continue;
                        }
                        let (w, text, _) = cap.take().unwrap();
                        if text.contains('\u{0}') {
                            continue;
                        }
                        let text = if w == Want::Html { text } else { text.trim().to_owned() };
                        if text.is_empty() {
                            continue;
                        }
                        match w {
                            Want::Html => s.html.push(text),
                            Want::Rfc822 => s.rfc822.push(text),
                            Want::Rfc3339 => s.rfc3339.push(text),
                            Want::W3cdtf => s.w3cdtf.push(text),
                            Want::Url => s.urls.push(text),
                        }
                    }
                }
                _ => {}
            }
        }
    }
    s
}

fn collect_url_attrs(
    ns: &str,
    local: &str,
    e: &quick_xml::events::BytesStart<'_>,
    out: &mut Vec<String>,
) {
    let attr = match (ns, local) {
        (ATOM10 | ATOM03, "link") => "href",
        ("", "enclosure") | (MEDIA, "content" | "thumbnail" | "player") => "url",
        ("" | RSS10, "source" | "category") => "url",
        _ => return,
    };
    if let Ok(Some(a)) = e.try_get_attribute(attr) {
        if let Ok(v) = a.normalized_value(quick_xml::XmlVersion::default()) {
            if !v.trim().is_empty() {
                out.push(v.trim().to_owned());
            }
        }
    }
}

fn has_no_markup(text: &str) -> bool {
    ![
        "&lt;",
        "&#60;",
        "&#x3C;",
        "&#x3c;",
        "CDATA",
        "type=\"html\"",
        "type=\"xhtml\"",
        "type='html'",
        "type='xhtml'",
    ]
    .iter()
    .any(|p| text.contains(p))
}

fn bench_stages(c: &mut Criterion) {
    let owned = common::load_corpus();
    let docs: Vec<&Doc> = owned.iter().collect();
    let corpus_bytes = common::total_bytes(&docs);
    let sfx = common::id_suffix();

    // ---- decode ------------------------------------------------------------------------------
    {
        let want: usize = docs.iter().map(|d| d.text.len()).sum();
        let mut g = c.benchmark_group("stages/decode");
        g.throughput(Throughput::Bytes(corpus_bytes));
        g.bench_function(format!("real_corpus{sfx}"), |b| {
            b.iter(|| {
                let mut n = 0;
                for d in &docs {
                    n += feedmill::input::decode(black_box(&d.bytes), None).text.len();
                }
                check(n == want, || format!("decoded {n} bytes, expected {want}"));
                n
            })
        });
        g.finish();
    }

    // ---- XML event walk ----------------------------------------------------------------------
    {
        let walk_ns = |docs: &[&Doc]| -> u64 {
            let mut n = 0;
            for d in docs {
                let mut r = quick_xml::NsReader::from_str(black_box(&d.text));
                loop {
                    match r.read_resolved_event() {
                        Ok((_, Event::Eof)) | Err(_) => break,
                        Ok(_) => n += 1,
                    }
                }
            }
            n
        };
        let walk_plain = |docs: &[&Doc]| -> u64 {
            let mut n = 0;
            for d in docs {
                let mut r = quick_xml::Reader::from_str(black_box(&d.text));
                loop {
                    match r.read_event() {
                        Ok(Event::Eof) | Err(_) => break,
                        Ok(_) => n += 1,
                    }
                }
            }
            n
        };
        let (want_ns, want_plain) = (walk_ns(&docs), walk_plain(&docs));
        eprintln!("xml_walk: {want_ns} events (ns), {want_plain} events (no ns)");
        let mut g = c.benchmark_group("stages/xml_walk");
        g.throughput(Throughput::Bytes(corpus_bytes));
        g.sample_size(20); // ~50-100 ms per pass
        g.bench_function(format!("ns_from_str{sfx}"), |b| {
            b.iter(|| {
                let n = walk_ns(&docs);
                check(n == want_ns, || format!("{n} events != {want_ns}"));
                n
            })
        });
        g.bench_function(format!("no_ns_from_str{sfx}"), |b| {
            b.iter(|| {
                let n = walk_plain(&docs);
                check(n == want_plain, || format!("{n} events != {want_plain}"));
                n
            })
        });
        g.finish();
    }

    // ---- format state machines (full parse of documents without markup) ---------------------
    {
        let plain: Vec<&Doc> = docs.iter().copied().filter(|d| has_no_markup(&d.text)).collect();
        let expected = Expected::for_docs(&plain);
        let mut parser = feedmill::Parser::new(feedmill::Options::default());
        let total = common::verify_untimed(&mut parser, &plain, &expected);
        let bytes = common::total_bytes(&plain);
        eprintln!(
            "format: {} documents without markup, {:.2} MB, {total:?}",
            plain.len(),
            bytes as f64 / 1e6
        );
        let mut g = c.benchmark_group("stages/format");
        g.throughput(Throughput::Bytes(bytes));
        g.bench_function(format!("full_parse_docs_without_markup{sfx}"), |b| {
            b.iter(|| {
                let mut n = 0;
                for (d, want) in plain.iter().zip(&expected) {
                    let fp = fingerprint(&parser.parse_str(black_box(&d.text), Some(BASE_URL)));
                    if fp != *want {
                        check(false, || format!("{}: got {fp:?}, expected {want:?}", d.path));
                    }
                    n += fp.entries;
                }
                n
            })
        });
        g.finish();
    }

    let samples = extract(&docs);

    // ---- escaped HTML ------------------------------------------------------------------------
    {
        let (markup, text): (Vec<&String>, Vec<&String>) =
            samples.html.iter().partition(|s| s.contains('<'));
        let mut arena = bumpalo::Bump::new();
        let mut g = c.benchmark_group("stages/escaped_html");
        for (name, set) in [("with_markup", &markup), ("without_markup", &text)] {
            let bytes: u64 = set.iter().map(|s| s.len() as u64).sum();
            let run = |arena: &mut bumpalo::Bump| -> usize {
                arena.reset();
                let a = &*arena;
                set.iter()
                    .filter(|s| feedmill::html::parse_escaped_html(a, black_box(s)).is_some())
                    .count()
            };
            let want = run(&mut arena);
            eprintln!(
                "escaped_html/{name}: {} values, {:.2} MB, {want} give a value",
                set.len(),
                bytes as f64 / 1e6
            );
            g.throughput(Throughput::Bytes(bytes));
            g.bench_function(BenchmarkId::new(format!("{name}{sfx}"), set.len()), |b| {
                b.iter(|| {
                    let n = run(&mut arena);
                    check(n == want, || format!("{n} values != {want}"));
                    n
                })
            });
        }
        g.finish();
    }

    // ---- dates -------------------------------------------------------------------------------
    {
        use feedmill::model::date;
        let mut g = c.benchmark_group("stages/dates");
        type Reader = fn(&str) -> Option<feedmill::Timestamp>;
        let sets: [(&str, &Vec<String>, Reader); 3] = [
            ("rfc822", &samples.rfc822, date::parse_rfc822),
            ("rfc3339", &samples.rfc3339, date::parse_rfc3339),
            ("w3cdtf", &samples.w3cdtf, date::parse_w3cdtf),
        ];
        for (name, set, f) in sets {
            let run = || set.iter().filter(|s| f(black_box(s)).is_some()).count();
            let want = run();
            eprintln!("dates/{name}: {} strings, {want} parse", set.len());
            if want == 0 && !set.is_empty() {
                eprintln!("WARNING: no {name} date parses: is the date stage still a stub?");
            }
            g.throughput(Throughput::Elements(set.len() as u64));
            g.bench_function(BenchmarkId::new(format!("{name}{sfx}"), set.len()), |b| {
                b.iter(|| {
                    let n = run();
                    check(n == want, || format!("{n} parsed != {want}"));
                    n
                })
            });
        }
        g.finish();
    }

    // ---- URL resolution ----------------------------------------------------------------------
    {
        let base = url::Url::parse(BASE_URL).unwrap();
        let mut arena = bumpalo::Bump::new();
        let set = &samples.urls;
        let run = |arena: &mut bumpalo::Bump| -> usize {
            arena.reset();
            let a = &*arena;
            set.iter()
                .filter(|s| feedmill::model::url::resolve(a, &base, black_box(s)).is_some())
                .count()
        };
        let want = run(&mut arena);
        let relative = set.iter().filter(|s| !s.contains("://")).count();
        eprintln!(
            "url_resolve: {} values ({relative} without a scheme), {want} resolve",
            set.len()
        );
        let mut g = c.benchmark_group("stages/url_resolve");
        g.throughput(Throughput::Elements(set.len() as u64));
        g.bench_function(BenchmarkId::new(format!("real_hrefs{sfx}"), set.len()), |b| {
            b.iter(|| {
                let n = run(&mut arena);
                check(n == want, || format!("{n} resolved != {want}"));
                n
            })
        });
        g.finish();
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_stages(&mut c);
    c.final_summary();
}
