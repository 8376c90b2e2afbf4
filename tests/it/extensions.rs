//! Extension capture: every element no table reads is kept on its feed or entry, flattened
//! in document order (path, parent index, namespace, name, attributes, text), within the
//! `max_extension_*` limits (each cut a `limit_reached` diagnostic), in both modes;
//! `Options::skip_extensions` turns it off.

use feedmill::sink::RecordView;
use feedmill::{DiagnosticKind, Options, Parser};
use serde_json::{json, Value};

const DOC: &str = r#"<rss version="2.0" xmlns:og="http://ogp.me/ns#" xmlns:x="urn:x">
<channel><title>t</title>
<og:image og:w="1" plain="a&amp;b">x<og:url>http://a/&amp;b</og:url> tail</og:image>
<item><title>a</title>
<image><url>u</url><deep><d2>z</d2></deep></image>
<x:rating>5</x:rating><image>second</image>
</item></channel></rss>"#;

/// The record's `feed` object and the parse's diagnostics.
fn record(doc: &str, options: Options) -> (Value, Vec<feedmill::Diagnostic>) {
    let mut parser = Parser::new(options);
    let parsed = parser.parse_str(doc, Some("https://base.example/")).unwrap();
    let v = crate::json_value(&RecordView::parsed("t", None, &parsed));
    (v["feed"].clone(), parsed.diagnostics.clone())
}

#[test]
fn unread_elements_are_kept_flattened_in_document_order() {
    for spec_exact in [false, true] {
        let mut options = Options::default();
        options.spec_exact = spec_exact;
        let (f, diagnostics) = record(DOC, options);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(
            f["extensions"],
            json!([
                {"path": "image", "namespace": "http://ogp.me/ns#", "name": "image",
                 "attributes": [{"namespace": "http://ogp.me/ns#", "name": "w", "value": "1"},
                                {"name": "plain", "value": "a&b"}],
                 "text": "x tail"},
                {"path": "image/url", "parent": 0, "namespace": "http://ogp.me/ns#",
                 "name": "url", "text": "http://a/&b"},
            ])
        );
        assert_eq!(
            f["entries"][0]["extensions"],
            json!([
                {"path": "image", "name": "image"},
                {"path": "image/url", "parent": 0, "name": "url", "text": "u"},
                {"path": "image/deep", "parent": 0, "name": "deep"},
                {"path": "image/deep/d2", "parent": 2, "name": "d2", "text": "z"},
                {"path": "rating", "namespace": "urn:x", "name": "rating", "text": "5"},
                {"path": "image", "name": "image", "text": "second"},
            ]),
            "spec_exact {spec_exact}"
        );
    }
}

#[test]
fn capture_can_be_turned_off() {
    let mut options = Options::default();
    options.skip_extensions = true;
    let (f, _) = record(DOC, options);
    assert_eq!(f.get("extensions"), None);
    assert_eq!(f["entries"][0].get("extensions"), None);
    assert_eq!(f["entries"][0]["title"], "a");
}

#[test]
fn every_limit_cuts_with_a_diagnostic() {
    let limited = |set: fn(&mut feedmill::Limits)| {
        let mut options = Options::default();
        set(&mut options.limits);
        let (f, d) = record(DOC, options);
        let cuts = d
            .iter()
            .filter(|d| d.kind == DiagnosticKind::LimitReached)
            .map(|d| d.message.clone())
            .collect::<Vec<_>>();
        let rows = f["entries"][0]["extensions"].as_array().map_or(0, Vec::len)
            + f["extensions"].as_array().map_or(0, Vec::len);
        (rows, cuts)
    };
    // Depth 2: `d2` (depth 3) is cut.
    let (rows, cuts) = limited(|l| l.max_extension_depth = 2);
    assert_eq!(rows, 7);
    assert_eq!(cuts.len(), 1, "{cuts:?}");
    assert!(cuts[0].contains("<d2> deeper than max_extension_depth (2)"), "{cuts:?}");
    // Three elements: the rest of the document's are skipped, one diagnostic.
    let (rows, cuts) = limited(|l| l.max_extension_elements = 3);
    assert_eq!(rows, 3);
    assert_eq!(cuts.len(), 1, "{cuts:?}");
    assert!(cuts[0].contains("max_extension_elements"), "{cuts:?}");
    // Bytes: the first row only.
    let (rows, cuts) = limited(|l| l.max_extension_bytes = 200);
    assert_eq!(rows, 1);
    assert_eq!(cuts.len(), 1, "{cuts:?}");
}

#[test]
fn a_long_text_is_cut_within_the_byte_budget() {
    let doc = format!(
        "<rss version='2.0'><channel><title>t</title><big>{}</big></channel></rss>",
        "é".repeat(1000)
    );
    let mut options = Options::default();
    options.limits.max_extension_bytes = 64 + 3 + 3 + 101;
    let (f, d) = record(&doc, options);
    assert_eq!(f["extensions"][0]["text"], "é".repeat(50));
    assert_eq!(d.iter().filter(|d| d.kind == DiagnosticKind::LimitReached).count(), 1);
}

#[test]
fn podcast_elements_no_table_reads_are_kept() {
    let doc = r#"<rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0">
<channel><title>t</title><podcast:guid>g</podcast:guid>
<podcast:future kind="a"><podcast:part n="90"/><podcast:part n="10"/></podcast:future>
<item><title>a</title><podcast:newThing at="1">s</podcast:newThing><podcast:season>1</podcast:season></item>
</channel></rss>"#;
    let (f, _) = record(doc, Options::default());
    let ns = "https://podcastindex.org/namespace/1.0";
    assert_eq!(f["podcast"]["guid"], "g");
    let rows = f["extensions"].as_array().unwrap();
    let paths = rows.iter().map(|r| r["path"].as_str().unwrap()).collect::<Vec<_>>();
    assert_eq!(paths, ["future", "future/part", "future/part"]);
    assert!(rows.iter().all(|r| r["namespace"] == ns));
    assert_eq!(rows[2]["attributes"][0], json!({"name": "n", "value": "10"}));
    let e = &f["entries"][0];
    assert_eq!(e["podcast"]["season"]["number"], 1);
    assert_eq!(e["extensions"][0]["name"], "newThing");
    assert_eq!(e["extensions"][0]["text"], "s");
}
