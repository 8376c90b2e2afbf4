//! Safety on untrusted input: nothing outside the document is ever read,
//! declared entities are never expanded, and every limit in [`Limits`] bounds the work and
//! the output — with a typed error or a `LimitReached` diagnostic, never a panic or a hang.
//!
//! These tests assert work-proportional properties (output no larger than the input,
//! events bounded by the input length, diagnostics bounded), never wall-clock time. Large
//! hostile inputs are generated here; small ones live in `corpus/fixtures/hostile/`.

use std::path::Path;

use bumpalo::Bump;
use feedmill::xml::{Event, XmlReader};
use feedmill::{DiagnosticKind, Error, Format, Limits, Options, Parser};

const SECRET: &str = "FEEDMILL-SECRET-7f3a9c";

fn hostile(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/fixtures/hostile").join(name))
        .unwrap()
}

fn options(f: impl FnOnce(&mut Limits)) -> Options {
    let mut options = Options::default();
    f(&mut options.limits);
    options
}

fn has(parsed: &feedmill::Parsed, kind: DiagnosticKind) -> bool {
    parsed.diagnostics.iter().any(|d| d.kind == kind)
}

/// Everything a caller can see of a parse, as one string.
fn everything(parsed: &feedmill::Parsed) -> String {
    format!("{:?} {:?}", parsed.feed, parsed.diagnostics)
}

#[test]
fn external_entities_leak_nothing() {
    // The fixture's entities point at a file next to it (relative system id), at
    // /etc/passwd, and at an external parameter-entity DTD that defines `&leak;`.
    let bytes = hostile("external-entity.xml");
    let mut parser = Parser::new(Options::default());
    let base = format!(
        "file://{}/corpus/fixtures/hostile/external-entity.xml",
        env!("CARGO_MANIFEST_DIR")
    );
    let parsed = parser.parse_bytes(&bytes, Some(&base)).unwrap();
    let all = everything(&parsed);
    assert!(!all.contains(SECRET), "{all}");
    assert!(!all.contains("root:"), "{all}");
    let feed = parsed.feed.as_ref().unwrap();
    // References to declared entities are kept literally.
    assert_eq!(feed.title.as_ref().unwrap().as_plain(), Some("&xxe;"));
    assert_eq!(feed.entries[0].title.as_ref().unwrap().as_plain(), Some("&passwd;"));
    assert!(has(&parsed, DiagnosticKind::DoctypeIgnored));
    assert!(has(&parsed, DiagnosticKind::UnknownEntity));
}

#[test]
fn an_external_entity_pointing_at_a_local_file_by_absolute_path_leaks_nothing() {
    let dir = std::env::temp_dir().join(format!("feedmill-safety-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let secret = dir.join("secret.txt");
    std::fs::write(&secret, SECRET).unwrap();
    let url = format!("file://{}", secret.display());
    let doc = format!(
        "<?xml version=\"1.0\"?><!DOCTYPE feed [<!ENTITY xxe SYSTEM \"{url}\"><!ENTITY xxp SYSTEM \"{}\">]>\
         <feed xmlns=\"http://www.w3.org/2005/Atom\"><title>&xxe;</title><entry><title>&xxp;</title>\
         <link href=\"&xxe;\"/><content type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\">&xxe;</div></content>\
         </entry></feed>",
        secret.display()
    );
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(&doc, Some("https://example.org/")).unwrap();
    let all = everything(&parsed);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(!all.contains(SECRET), "{all}");
    assert_eq!(parsed.format, Some(Format::Atom));
    assert_eq!(parsed.feed.as_ref().unwrap().title.as_ref().unwrap().as_plain(), Some("&xxe;"));
}

#[test]
fn an_external_dtd_is_never_read() {
    let bytes = hostile("external-dtd.xml");
    let mut parser = Parser::new(Options::default());
    let base =
        format!("file://{}/corpus/fixtures/hostile/external-dtd.xml", env!("CARGO_MANIFEST_DIR"));
    let parsed = parser.parse_bytes(&bytes, Some(&base)).unwrap();
    let all = everything(&parsed);
    assert!(!all.contains(SECRET), "{all}");
    let feed = parsed.feed.as_ref().unwrap();
    assert_eq!(feed.title.as_ref().unwrap().as_plain(), Some("&leak;"));
    assert_eq!(feed.entries[0].title.as_ref().unwrap().as_plain(), Some("Item &leak;"));
    assert!(has(&parsed, DiagnosticKind::UnknownEntity));
}

fn spec_exact() -> Options {
    let mut o = Options::default();
    o.spec_exact = true;
    o
}

#[test]
fn billion_laughs_is_not_expanded() {
    let bytes = hostile("billion-laughs.xml");
    // Default (recovery rules on): internal entities are expanded under the budget, which
    // this bomb exhausts at once; the references stay literal.
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_bytes(&bytes, None).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    assert_eq!(feed.title.as_ref().unwrap().as_plain(), Some("&lol9;"));
    assert_eq!(feed.entries[0].title.as_ref().unwrap().as_plain(), Some("Laughs &lol9;&lol9;"));
    assert!(everything(&parsed).len() < 4 * bytes.len());
    assert!(has(&parsed, DiagnosticKind::LimitReached));
    // spec_exact: no expansion at all.
    let mut parser = Parser::new(spec_exact());
    let parsed = parser.parse_bytes(&bytes, None).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    // No expansion: each reference stays as written, so nothing grows.
    assert_eq!(feed.title.as_ref().unwrap().as_plain(), Some("&lol9;"));
    assert_eq!(feed.entries[0].title.as_ref().unwrap().as_plain(), Some("Laughs &lol9;&lol9;"));
    assert!(everything(&parsed).len() < 4 * bytes.len());
    assert!(!everything(&parsed).contains("lollol"));
    assert!(has(&parsed, DiagnosticKind::DoctypeIgnored));
    assert!(has(&parsed, DiagnosticKind::UnknownEntity));
}

#[test]
fn quadratic_blowup_is_not_expanded() {
    // One 100 KB entity referenced 10 000 times: 1 GB if expanded.
    let big = "x".repeat(100_000);
    let refs = "&big;".repeat(10_000);
    let doc = format!("<!DOCTYPE rss [<!ENTITY big \"{big}\">]><rss><channel><title>{refs}</title></channel></rss>");
    // Default: expansions stop when they have produced the document's size.
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(&doc, None).unwrap();
    let title = parsed.feed.as_ref().unwrap().title.as_ref().unwrap().as_plain().unwrap();
    assert!(title.len() <= 2 * doc.len(), "{}", title.len());
    assert!(title.ends_with("&big;&big;"));
    assert!(parsed.diagnostics.len() <= Limits::default().max_diagnostics + 1);
    assert!(has(&parsed, DiagnosticKind::LimitReached));
    // spec_exact: no expansion at all.
    let mut parser = Parser::new(spec_exact());
    let parsed = parser.parse_str(&doc, None).unwrap();
    let title = parsed.feed.as_ref().unwrap().title.as_ref().unwrap().as_plain().unwrap();
    assert_eq!(title, refs);
    // One diagnostic per reference at most, and the diagnostic list is capped.
    assert!(parsed.diagnostics.len() <= Limits::default().max_diagnostics + 1);
    assert!(has(&parsed, DiagnosticKind::LimitReached));
}

/// A feed whose first item holds `depth` nested elements, followed by a normal item.
fn deep_feed(depth: usize, close: bool) -> String {
    let mut doc = String::from(
        "<rss><channel><title>Deep</title><item><title>Deep item</title><description>",
    );
    doc.push_str(&"<a>".repeat(depth));
    doc.push_str("bottom");
    if close {
        doc.push_str(&"</a>".repeat(depth));
        doc.push_str("</description></item><item><title>After</title></item></channel></rss>");
    }
    doc
}

#[test]
fn deep_nesting_is_skipped_below_max_depth() {
    let doc = deep_feed(100_000, true);
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(&doc, None).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    let titles: Vec<_> =
        feed.entries.iter().map(|e| e.title.as_ref().unwrap().as_plain().unwrap()).collect();
    assert_eq!(titles, ["Deep item", "After"]);
    assert!(has(&parsed, DiagnosticKind::LimitReached));
    assert!(parsed.diagnostics.len() <= 2, "{:?}", parsed.diagnostics);
}

#[test]
fn deep_nesting_truncated_is_closed() {
    let doc = deep_feed(100_000, false);
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(&doc, None).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    assert_eq!(feed.entries.len(), 1);
    assert!(has(&parsed, DiagnosticKind::UnclosedElement));
}

#[test]
fn deep_xhtml_content_is_bounded() {
    // Atom xhtml content is deep-cloned and sanitized: the reader only hands it max_depth.
    let depth = 100_000;
    let doc = format!(
        "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><title>x</title><content type=\"xhtml\">\
         <div xmlns=\"http://www.w3.org/1999/xhtml\">{}deep{}</div></content></entry></feed>",
        "<div>".repeat(depth),
        "</div>".repeat(depth)
    );
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(&doc, None).unwrap();
    assert_eq!(parsed.feed.as_ref().unwrap().entries.len(), 1);
    assert!(has(&parsed, DiagnosticKind::LimitReached));
}

/// Walks a document with the reader alone; checks the stream is balanced and its length
/// proportional to the input. Returns (max depth seen, diagnostics).
fn walk(src: &str, limits: &Limits) -> (usize, Vec<feedmill::Diagnostic>) {
    let arena = Bump::new();
    let mut r = XmlReader::with_limits(&arena, src, limits);
    let (mut depth, mut max_depth, mut events) = (0usize, 0usize, 0usize);
    loop {
        events += 1;
        assert!(events <= 2 * src.len() + 2, "the reader makes progress");
        match r.next() {
            Event::Start(_) => {
                depth += 1;
                max_depth = max_depth.max(depth);
            }
            Event::End => depth = depth.checked_sub(1).expect("balanced"),
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(depth, 0, "balanced at Eof");
    assert!(matches!(r.next(), Event::Eof), "Eof forever");
    for d in &r.diagnostics {
        assert!(d.offset <= src.len());
    }
    (max_depth, r.diagnostics)
}

#[test]
fn nesting_beyond_u16_is_handled_by_the_reader() {
    // quick-xml's namespace resolver counts nesting in a u16: max_depth is capped below it.
    let mut limits = Limits::default();
    limits.max_depth = usize::MAX;
    let depth = 100_000;
    let doc = format!("{}x{}", "<a xmlns:p=\"urn:x\">".repeat(depth), "</a>".repeat(depth));
    let (max_depth, diags) = walk(&doc, &limits);
    assert_eq!(max_depth, u16::MAX as usize - 1);
    assert!(diags.iter().any(|d| d.kind == DiagnosticKind::LimitReached));
    // Unclosed, too.
    let doc = "<a>".repeat(depth);
    let (max_depth, diags) = walk(&doc, &limits);
    assert_eq!(max_depth, u16::MAX as usize - 1);
    assert!(diags.iter().any(|d| d.kind == DiagnosticKind::UnclosedElement));
}

#[test]
fn a_20_mb_text_node_is_cut_at_max_text_bytes() {
    let text = "é".repeat(10 << 20); // 20 MiB, 2-byte chars
    let doc =
        format!("<rss><channel><title>{text}</title><item><title>i</title></item></channel></rss>");
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(&doc, None).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    let title = feed.title.as_ref().unwrap().as_plain().unwrap();
    assert_eq!(title.len(), Limits::default().max_text_bytes);
    assert_eq!(feed.entries.len(), 1);
    assert!(has(&parsed, DiagnosticKind::LimitReached));

    // A smaller limit, text in several chunks (references split it), cut at a char boundary.
    let doc = format!(
        "<rss><channel><title>{}&amp;{}</title></channel></rss>",
        "é".repeat(600),
        "ü".repeat(600)
    );
    let mut parser = Parser::new(options(|l| l.max_text_bytes = 1001));
    let parsed = parser.parse_str(&doc, None).unwrap();
    let title = parsed.feed.as_ref().unwrap().title.as_ref().unwrap().as_plain().unwrap();
    assert_eq!(title.len(), 1000);
    assert!(has(&parsed, DiagnosticKind::LimitReached));
}

#[test]
fn a_20_mb_attribute_is_dropped() {
    let value = "x".repeat(20 << 20);
    let doc = format!(
        "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><title>t</title><link href=\"https://example.org/{value}\"/>\
         <link rel=\"enclosure\" href=\"https://example.org/e\"/></entry></feed>"
    );
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(&doc, None).unwrap();
    let entry = &parsed.feed.as_ref().unwrap().entries[0];
    assert_eq!(entry.title.as_ref().unwrap().as_plain(), Some("t"));
    assert_eq!(entry.page_url, None);
    assert!(has(&parsed, DiagnosticKind::LimitReached));
    let all = everything(&parsed);
    assert!(all.len() < 1 << 20, "the huge value is not copied into the output");
}

#[test]
fn many_attributes_and_namespace_declarations_are_capped() {
    let attrs: String = (0..100_000).map(|i| format!(" a{i}=\"{i}\" a{i}=\"dup\"")).collect();
    let decls: String = (0..100_000).map(|i| format!(" xmlns:p{i}=\"urn:{i}\"")).collect();
    let doc = format!("<rss{decls}><channel{attrs}><title>T</title></channel></rss>");
    let (_, diags) = walk(&doc, &Limits::default());
    let limits: Vec<_> = diags.iter().filter(|d| d.kind == DiagnosticKind::LimitReached).collect();
    assert!(limits.iter().any(|d| d.message.contains("max_namespace_bindings")), "{limits:?}");
    assert!(limits.iter().any(|d| d.message.contains("max_attributes")), "{limits:?}");
    // Duplicates among the first max_attributes are reported, the rest is not even read.
    let dups = diags.iter().filter(|d| d.message.contains("duplicate")).count();
    assert_eq!(dups, Limits::default().max_attributes / 2);
}

#[test]
fn escaped_html_with_a_million_attributes_is_cut_before_the_tag() {
    let many: String = (0..1_000_000).map(|i| format!(" a{i}")).collect();
    // Escaped (as `&lt;`) in the description: the escaped HTML is the decoded text.
    let doc = format!(
        "<rss><channel><title>T</title><item><description>&lt;p>kept&lt;/p>&lt;b{many}>lost\
         </description></item></channel></rss>"
    );
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(&doc, None).unwrap();
    let entry = &parsed.feed.as_ref().unwrap().entries[0];
    let Some(feedmill::Text::Html(summary)) = &entry.summary else { panic!("{entry:?}") };
    assert_eq!(summary.to_html_string(), "<p>kept</p>");
    let cut: Vec<_> =
        parsed.diagnostics.iter().filter(|d| d.kind == DiagnosticKind::LimitReached).collect();
    assert_eq!(cut.len(), 1, "{cut:?}");
    assert!(cut[0].message.contains("max_html_attributes"), "{cut:?}");
    // A settable cap.
    let doc = "<rss><channel><title>T</title><item><description>&lt;p>x&lt;/p>&lt;p a b>y\
               </description></item></channel></rss>";
    for (cap, want) in [(2, "<p>x</p><p a=\"\" b=\"\">y</p>"), (1, "<p>x</p>")] {
        let mut parser = Parser::new(options(|l| l.max_html_attributes = cap));
        let parsed = parser.parse_str(doc, None).unwrap();
        let entry = &parsed.feed.as_ref().unwrap().entries[0];
        let Some(feedmill::Text::Html(summary)) = &entry.summary else { panic!("{entry:?}") };
        assert_eq!(summary.to_html_string(), want);
        assert_eq!(has(&parsed, DiagnosticKind::LimitReached), cap == 1);
    }
}

#[test]
fn json_feed_content_html_honours_max_html_attributes_and_reports_the_cut() {
    // As an XML feed's escaped HTML: the configured cap, and a `LimitReached` diagnostic at
    // the member's offset when the value was read only in part.
    let doc = r#"{"version": "https://jsonfeed.org/version/1.1", "title": "T", "items": [
        {"id": "1", "content_html": "<p>x</p><p a b>y"}]}"#;
    let at = doc.find(r#""<p>x"#).unwrap();
    for (cap, want) in [(2, "<p>x</p><p a=\"\" b=\"\">y</p>"), (1, "<p>x</p>")] {
        let mut parser = Parser::new(options(|l| l.max_html_attributes = cap));
        let parsed = parser.parse_str(doc, None).unwrap();
        assert_eq!(parsed.format, Some(Format::Json));
        let entry = &parsed.feed.as_ref().unwrap().entries[0];
        let Some(feedmill::Text::Html(content)) = &entry.content else { panic!("{entry:?}") };
        assert_eq!(content.to_html_string(), want);
        let cut: Vec<_> =
            parsed.diagnostics.iter().filter(|d| d.kind == DiagnosticKind::LimitReached).collect();
        assert_eq!(cut.len(), usize::from(cap == 1), "{cut:?}");
        if let [d] = cut[..] {
            assert!(d.message.contains("max_html_attributes"), "{d:?}");
            assert_eq!(d.offset, at);
        }
    }
}

#[test]
fn max_entries_and_max_input_bytes() {
    let items: String = (0..10).map(|i| format!("<item><title>{i}</title></item>")).collect();
    let doc = format!("<rss><channel>{items}</channel></rss>");
    let mut parser = Parser::new(options(|l| l.max_entries = 3));
    let parsed = parser.parse_str(&doc, None).unwrap();
    assert_eq!(parsed.feed.as_ref().unwrap().entries.len(), 3);
    assert!(has(&parsed, DiagnosticKind::LimitReached));

    let mut parser = Parser::new(options(|l| l.max_input_bytes = 100));
    let err = parser.parse_str(&doc, None).unwrap_err();
    assert!(matches!(err, Error::InputTooLarge { limit: 100, .. }), "{err:?}");
    let err = parser.parse_bytes(doc.as_bytes(), None).unwrap_err();
    assert!(matches!(err, Error::InputTooLarge { limit: 100, .. }), "{err:?}");
}

#[test]
fn a_run_of_stray_lt_is_text() {
    // Each `<` here starts no tag (the next `<` comes before any `>`); the tokenizer decides
    // that at the next `<`, not at a `>` at the far end (which made this quadratic).
    let body = "a<b ".repeat(100_000);
    let doc = format!("<rss><channel><title>{body}</title></channel></rss>");
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(&doc, None).unwrap();
    let title = parsed.feed.as_ref().unwrap().title.as_ref().unwrap().as_plain().unwrap();
    let want = body.as_str();
    let differs_at = title.bytes().zip(want.bytes()).position(|(a, b)| a != b);
    assert!(
        title == want,
        "title: {} bytes, expected {}; first difference at {differs_at:?}",
        title.len(),
        want.len()
    );
    assert!(has(&parsed, DiagnosticKind::MalformedXml));
}

#[test]
fn diagnostics_are_capped() {
    let doc = format!("<rss><channel><title>{}</title></channel></rss>", "a & b ".repeat(100_000));
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(&doc, None).unwrap();
    let cap = Limits::default().max_diagnostics;
    assert_eq!(parsed.diagnostics.len(), cap + 1);
    assert_eq!(parsed.diagnostics[cap].kind, DiagnosticKind::LimitReached);
    let title = parsed.feed.as_ref().unwrap().title.as_ref().unwrap().as_plain().unwrap();
    assert_eq!(title.len(), 600_000);
    // A configured cap (the reader's own limits; see XmlReader::with_limits).
    let mut limits = Limits::default();
    limits.max_diagnostics = 50;
    let (_, diags) = walk(&doc, &limits);
    assert_eq!(diags.len(), 51);
    assert_eq!(diags[50].kind, DiagnosticKind::LimitReached);
}

#[test]
fn the_reader_terminates_on_mangled_input() {
    // Deterministic mutations of a feed full of markup kinds: every one terminates, stays
    // balanced, makes progress (events <= 2 * input length) and keeps offsets in bounds.
    let seed_doc = "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY e \"v\">]><rss xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\
        <channel><title a='1' b=\"2\">T &amp; &e; &nbsp;</title><!-- c --><?pi d?>\
        <item><title><![CDATA[x <y>]]></title><dc:creator>z</dc:creator><link/></item></channel></rss>";
    let bytes = seed_doc.as_bytes();
    let specials =
        [b'<', b'>', b'&', b';', b'"', b'\'', b'/', b'!', b'?', b'[', b']', b'-', b'=', 0u8, b' '];
    let mut state = 0x2545F4914F6CDD1Du64;
    let mut rand = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..3_000 {
        let mut doc = bytes.to_vec();
        for _ in 0..(1 + rand() % 4) {
            let at = (rand() as usize) % doc.len();
            match rand() % 3 {
                0 => doc[at] = specials[(rand() as usize) % specials.len()],
                1 => {
                    doc.remove(at);
                }
                _ => doc.insert(at, specials[(rand() as usize) % specials.len()]),
            }
        }
        let Ok(src) = std::str::from_utf8(&doc) else { continue };
        walk(src, &Limits::default());
        let mut parser = Parser::new(Options::default());
        parser.parse_str(src, None).unwrap();
        // Every truncation of the mutated document, too (cheap: a few sampled cuts).
        for _ in 0..3 {
            let cut = (rand() as usize) % src.len();
            if src.is_char_boundary(cut) {
                walk(&src[..cut], &Limits::default());
            }
        }
    }
}
