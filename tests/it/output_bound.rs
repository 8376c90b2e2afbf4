//! A record's output is bounded by its input: on generated worst cases for every value
//! derived from others (values copied from the feed into each entry, URLs resolved against
//! a long base URL, in fields and in strictly sanitized HTML, lint findings, the per-entry
//! keys of `--extract`, escaping), the JSON line stays within `record::json_line_bound` of
//! the document's length, and the entry layout's Arrow batch within
//! `record::arrow_rows_bound`.

use bumpalo::Bump;
use feedmill::columnar::{Layout, RecordBatchBuilder};
use feedmill::extract::{extract_with, ExtractOptions};
use feedmill::lint::LintOptions;
use feedmill::record::{arrow_rows_bound, json_line_bound};
use feedmill::sanitize::SanitizeOptions;
use feedmill::sink::json::encode_record;
use feedmill::sink::RecordView;
use feedmill::{DiagnosticKind, Options, Parser, Text};

/// A long base URL whose directory every relative URL copies.
fn long_base() -> String {
    format!("https://example.org/{}/", "p".repeat(20_000))
}

struct Case {
    name: &'static str,
    doc: String,
    base: Option<String>,
    /// Whether the record is written with strict sanitizing too.
    strict: bool,
}

fn cases() -> Vec<Case> {
    let item = |s: &str, n: usize| s.repeat(n);
    let author = "x".repeat(1 << 20);
    let html = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    vec![
        Case {
            name: "one long channel author, many entries without their own",
            doc: format!(
                "<rss><channel><managingEditor>{author}</managingEditor>{}</channel></rss>",
                item("<item><title>t</title></item>", 2_100)
            ),
            base: None,
            strict: true,
        },
        Case {
            name: "one long channel title, many entries (entry layout)",
            doc: format!(
                "<rss><channel><title>{author}</title>{}</channel></rss>",
                item("<item/>", 2_100)
            ),
            base: None,
            strict: true,
        },
        Case {
            name: "many short relative links, a long base URL",
            doc: format!(
                "<rss><channel>{}</channel></rss>",
                item("<item><link>a</link></item>", 10_000)
            ),
            base: Some(long_base()),
            strict: true,
        },
        Case {
            name: "many relative URLs in HTML, a long base URL",
            doc: format!(
                "<rss><channel><item><description>{}</description></item></channel></rss>",
                html(&item("<a href=\"x\">y</a><img srcset=\"a 1x, b 2x\">", 5_000))
            ),
            base: Some(long_base()),
            strict: true,
        },
        Case {
            // The recovery rule `html_url`, against a long `xml:base` (no base URL given).
            name: "many relative URLs in HTML, a long xml:base",
            doc: format!(
                "<rss><channel xml:base=\"{}\"><item><description>{}</description></item>\
                 </channel></rss>",
                long_base(),
                html(&item("<a href=\"x\">y</a><img srcset=\"a 1x, b 2x\">", 5_000))
            ),
            base: None,
            strict: true,
        },
        Case {
            name: "many lint findings on one-byte-cheap elements",
            doc: format!(
                "<rss version=\"2.0\"><channel><title>t</title><link>http://x/</link>\
                 <description>d</description><item>{}</item>{}</channel></rss>",
                item("<a/>", 100_000),
                item("<item/>", 50_000)
            ),
            base: None,
            strict: true,
        },
        Case {
            name: "empty entries in a dated feed (computed and extraction keys per entry)",
            doc: format!(
                "<rss><channel><pubDate>Mon, 15 Jan 2024 13:45:00 GMT</pubDate>{}</channel></rss>",
                item("<item/>", 100_000)
            ),
            base: None,
            strict: true,
        },
        Case {
            name: "quotes in HTML attributes (escaped twice: HTML, then JSON)",
            doc: format!(
                "<rss><channel><item><description>{}</description></item></channel></rss>",
                html(&format!("<a title='{}'>x</a>", "\"".repeat(100_000)))
            ),
            base: None,
            strict: true,
        },
        Case {
            name: "many categories (terms and details)",
            doc: format!(
                "<rss><channel><item>{}</item></channel></rss>",
                (0..50_000).map(|i| format!("<category>c{i}</category>")).collect::<String>()
            ),
            base: None,
            strict: true,
        },
        Case {
            // Strictly sanitized too: each `src` resolved against the base, within the
            // record's URL budget (SanitizeOptions::max_url_growth; 200 MB without it).
            name: "a relative body image in many entries, a long base URL (image_url)",
            doc: format!(
                "<rss><channel>{}</channel></rss>",
                item("<item><description>&lt;img src=a&gt;</description></item>", 10_000)
            ),
            base: Some(long_base()),
            strict: true,
        },
        Case {
            name: "a deep category hierarchy (categories_normalized paths)",
            doc: format!(
                "<rss><channel><item><category>{}</category></item></channel></rss>",
                item("a/", 50_000)
            ),
            base: None,
            strict: true,
        },
        Case {
            name: "categories that NFKC expands, in a hierarchy",
            doc: format!(
                "<rss><channel><item><category>{}</category></item></channel></rss>",
                item("\u{FDFA}/", 30_000)
            ),
            base: None,
            strict: true,
        },
        Case {
            name: "untitled entries with long bodies (title_text from the body)",
            doc: format!(
                "<rss><channel>{}</channel></rss>",
                item(
                    &format!("<item><description>{}</description></item>", "w ".repeat(200)),
                    2_000
                )
            ),
            base: None,
            strict: true,
        },
    ]
}

#[test]
fn every_derived_value_keeps_the_output_within_a_multiple_of_the_input() {
    let mut options = Options::default();
    options.lint = Some(LintOptions::at(1_700_000_000));
    let mut parser = Parser::new(options);
    let arena = Bump::new();
    for case in cases() {
        let parsed = parser.parse_str(&case.doc, case.base.as_deref()).unwrap();
        let feed = parsed.feed.as_ref().expect("a feed");
        let extraction =
            extract_with(feed, &arena, &ExtractOptions::default(), case.base.as_deref(), None);
        let strict = SanitizeOptions {
            base_url: case.base.as_deref().map(|b| url::Url::parse(b).unwrap()),
            ..SanitizeOptions::default()
        };
        let rec = RecordView {
            extraction: Some(&extraction),
            sanitize: case.strict.then_some(&strict),
            ..RecordView::parsed("s", None, &parsed)
        };
        let mut line = Vec::new();
        encode_record(&mut line, &rec);
        let input = case.doc.len();
        assert!(
            line.len() <= json_line_bound(input),
            "{}: a {input}-byte document gave a {}-byte line",
            case.name,
            line.len()
        );
        let mut rows = RecordBatchBuilder::new(Layout::Entries);
        rows.append(&rec);
        let held = rows.finish().get_array_memory_size();
        assert!(
            held <= arrow_rows_bound(input),
            "{}: {input} bytes, {held} bytes of rows",
            case.name
        );
    }
}

/// The copies of the feed's authors stop at the budget, and the record says so.
#[test]
fn feed_authors_are_copied_into_entries_within_a_budget_and_the_cut_is_recorded() {
    let author = "x".repeat(1 << 20);
    let doc = format!(
        "<rss><channel><managingEditor>{author}</managingEditor>{}<item><author>a@b (A)</author></item></channel></rss>",
        "<item/>".repeat(100)
    );
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(&doc, None).unwrap();
    let v = crate::json_value(&RecordView::parsed("s", None, &parsed));
    let entries = v["feed"]["entries"].as_array().unwrap();
    let with = entries.iter().filter(|e| e.get("computed_authors").is_some()).count();
    // 16 MiB of copies of a 1 MiB author: 15 entries, and the one with its own author.
    assert_eq!(with, 16, "entries with computed_authors");
    assert!(entries[0].get("computed_authors").is_some());
    assert!(entries[99].get("computed_authors").is_none());
    assert_eq!(entries[100]["computed_authors"][0]["name"], "A");
    let d = &v["diagnostics"].as_array().unwrap().last().unwrap();
    assert_eq!(d["kind"], "limit_reached");
    assert!(d["message"].as_str().unwrap().contains("first 15 of 101 entries"), "{d}");
}

/// Relative URLs past the document's budget are kept as written, with one diagnostic.
#[test]
fn relative_urls_past_the_budget_are_kept_as_written() {
    let doc =
        format!("<rss><channel>{}</channel></rss>", "<item><link>a</link></item>".repeat(2_000));
    let mut options = Options::default();
    options.limits.max_url_growth = 100_000;
    let mut parser = Parser::new(options);
    let base = long_base();
    let parsed = parser.parse_str(&doc, Some(&base)).unwrap();
    let entries = &parsed.feed.as_ref().unwrap().entries;
    let resolved =
        entries.iter().filter(|e| e.page_url.is_some_and(|u| u.starts_with("https:"))).count();
    // (document + 100,000) / 20,020 bytes of growth each.
    assert_eq!(resolved, (doc.len() + 100_000) / base.len(), "resolved links");
    assert_eq!(entries.last().unwrap().page_url, Some("a"));
    let cut: Vec<_> =
        parsed.diagnostics.iter().filter(|d| d.message.contains("relative URLs")).collect();
    assert_eq!(cut.len(), 1, "{:?}", parsed.diagnostics);
}

/// Relative URLs inside HTML values (the recovery rule `html_url`) spend the same budget:
/// past it they are kept as written, with the same one diagnostic.
#[test]
fn relative_urls_in_html_past_the_budget_are_kept_as_written() {
    let links = "&lt;a href=\"a\"&gt;x&lt;/a&gt;".repeat(2_000);
    let doc =
        format!("<rss><channel><item><description>{links}</description></item></channel></rss>");
    let mut options = Options::default();
    options.limits.max_url_growth = 100_000;
    let mut parser = Parser::new(options);
    let base = long_base();
    let parsed = parser.parse_str(&doc, Some(&base)).unwrap();
    let summary = parsed.feed.as_ref().unwrap().entries[0].summary.as_ref().unwrap();
    let Text::Html(h) = summary else { panic!("an HTML summary") };
    let out = h.to_html_string();
    let resolved = out.matches(&format!("href=\"{base}a\"")).count();
    // (document + 100,000) / 20,020 bytes of growth each.
    assert_eq!(resolved, (doc.len() + 100_000) / base.len(), "resolved links");
    assert_eq!(out.matches("href=\"a\"").count(), 2_000 - resolved, "kept as written");
    let cut = parsed.diagnostics.iter().filter(|d| d.kind == DiagnosticKind::LimitReached);
    assert_eq!(cut.count(), 1, "{:?}", parsed.diagnostics);
    let html_url = format!("html_url: {resolved} relative URLs in HTML values");
    assert!(parsed.diagnostics.iter().any(|d| d.message.starts_with(&html_url)));
}

/// Strict sanitizing resolves the relative URLs of a record's HTML values within
/// `SanitizeOptions::max_url_growth`, and extraction its body images' within
/// `ExtractOptions::max_url_growth`: with a budget of three URLs' growth, three of ten
/// entries get their image resolved, and the rest stay relative (sanitizing) or get no image
/// (extraction).
#[test]
fn sanitizing_and_extraction_resolve_urls_within_their_settable_budgets() {
    let items = "<item><description>&lt;img src=a&gt;</description></item>".repeat(10);
    let doc = format!("<rss><channel>{items}</channel></rss>");
    // Parsed without a base: the HTML values keep their relative URLs for the later stages.
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(&doc, None).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    let base = long_base();
    let growth = base.len(); // "a" becomes the base followed by "a".
    let arena = Bump::new();
    let xopts = ExtractOptions { max_url_growth: 3 * growth, ..ExtractOptions::default() };
    let extraction = extract_with(feed, &arena, &xopts, Some(&base), None);
    let images = extraction.entries.iter().filter(|e| e.image_url.is_some()).count();
    assert_eq!(images, 3, "entries with a resolved body image");
    let strict = SanitizeOptions {
        base_url: Some(url::Url::parse(&base).unwrap()),
        max_url_growth: 3 * growth,
        ..SanitizeOptions::default()
    };
    let rec = RecordView { sanitize: Some(&strict), ..RecordView::parsed("s", None, &parsed) };
    let mut line = Vec::new();
    encode_record(&mut line, &rec);
    let line = String::from_utf8(line).unwrap();
    assert_eq!(line.matches(&format!("src=\\\"{base}a\\\"")).count(), 3, "resolved");
    assert_eq!(line.matches("src=\\\"a\\\"").count(), 7, "kept relative");
}

/// Past `max_diagnostics` lint findings are counted, not kept.
#[test]
fn lint_findings_are_capped_and_counted() {
    let doc = format!(
        "<rss version=\"2.0\"><channel><title>t</title><link>http://x/</link>\
         <description>d</description>{}</channel></rss>",
        "<item/>".repeat(5_000)
    );
    let mut options = Options::default();
    options.lint = Some(LintOptions::at(1_700_000_000));
    let mut parser = Parser::new(options);
    let parsed = parser.parse_str(&doc, None).unwrap();
    let report = parsed.lint.as_ref().unwrap();
    assert_eq!(report.findings.len(), 1_000);
    assert!(report.dropped >= 4_000, "{}", report.dropped);
    assert!(parsed
        .diagnostics
        .iter()
        .any(|d| d.message.contains("lint findings past max_diagnostics")));
}
