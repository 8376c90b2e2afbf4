//! Forgiving XML: each recovery case in `corpus/fixtures/recovery/` gives
//! the values that can be read and the diagnostic kinds that say what was repaired; every
//! well-formed document — the real corpus's and the conformance suite's — gives none.

use std::collections::HashSet;
use std::path::Path;

use feedmill::{Diagnostic, DiagnosticKind, Format, Options, Parser};

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/fixtures/recovery").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What a test checks of one parse (owned, so the parser can be dropped).
#[derive(Debug)]
struct Outcome {
    format: Option<Format>,
    title: Option<String>,
    entry_titles: Vec<Option<String>>,
    entry_links: Vec<Option<String>>,
    categories: Vec<Vec<String>>,
    diagnostics: Vec<Diagnostic>,
    len: usize,
}

impl Outcome {
    fn kinds(&self) -> HashSet<DiagnosticKind> {
        self.diagnostics.iter().map(|d| d.kind).collect()
    }
}

fn kinds(list: &[DiagnosticKind]) -> HashSet<DiagnosticKind> {
    list.iter().copied().collect()
}

fn parse(bytes: &[u8]) -> Outcome {
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_bytes(bytes, Some("https://example.org/feed")).unwrap();
    let plain =
        |t: &Option<feedmill::Text>| t.as_ref().and_then(|t| t.as_plain()).map(str::to_owned);
    let feed = parsed.feed.as_ref();
    let outcome = Outcome {
        format: parsed.format,
        title: feed.and_then(|f| plain(&f.title)),
        entry_titles: feed.map_or(vec![], |f| f.entries.iter().map(|e| plain(&e.title)).collect()),
        entry_links: feed
            .map_or(vec![], |f| f.entries.iter().map(|e| e.page_url.map(str::to_owned)).collect()),
        categories: feed.map_or(vec![], |f| {
            f.entries.iter().map(|e| e.categories.iter().map(|c| c.to_string()).collect()).collect()
        }),
        diagnostics: parsed.diagnostics.clone(),
        len: bytes.len(),
    };
    // Every diagnostic points inside the input (offsets are into the decoded text: check
    // UTF-8 input, which is not re-encoded).
    let utf8 = std::str::from_utf8(bytes).is_ok() && !bytes.starts_with(b"\xEF\xBB\xBF");
    for d in outcome.diagnostics.iter().filter(|_| utf8) {
        assert!(d.offset <= outcome.len, "{d} is past the end ({})", outcome.len);
    }
    outcome
}

fn titles(o: &Outcome) -> Vec<&str> {
    o.entry_titles.iter().map(|t| t.as_deref().unwrap_or("<none>")).collect()
}

fn parse_fixture(name: &str) -> Outcome {
    parse(&fixture(name))
}

/// The diagnostic kinds reported, and that each diagnostic of `kind` points at `at`.
fn offsets_of(o: &Outcome, kind: DiagnosticKind) -> Vec<usize> {
    o.diagnostics.iter().filter(|d| d.kind == kind).map(|d| d.offset).collect()
}

fn find(bytes: &[u8], needle: &str) -> usize {
    bytes.windows(needle.len()).position(|w| w == needle.as_bytes()).unwrap()
}

#[test]
fn html_named_references_are_read_as_html() {
    let o = parse_fixture("html-entities.xml");
    assert_eq!(titles(&o), ["Caf\u{e9}\u{a0}Noir \u{a9} 2024"]);
    assert_eq!(o.entry_links, [Some("https://example.org/a?x=1&y=2".to_owned())]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::HtmlEntity]));
    let bytes = fixture("html-entities.xml");
    assert_eq!(offsets_of(&o, DiagnosticKind::HtmlEntity)[0], find(&bytes, "&eacute;"));
}

#[test]
fn bare_ampersands_are_kept_literally() {
    let o = parse_fixture("bare-ampersand.xml");
    assert_eq!(titles(&o), ["AT&T & Friends"]);
    assert_eq!(o.categories, [vec!["Q&A".to_owned(), "a & b; c".to_owned()]]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::BareAmpersand]));
    assert_eq!(offsets_of(&o, DiagnosticKind::BareAmpersand).len(), 4);
}

#[test]
fn unknown_references_are_kept_literally() {
    let o = parse_fixture("unknown-entity.xml");
    assert_eq!(titles(&o), ["Hello &foo; world"]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::UnknownEntity]));
}

#[test]
fn mismatched_end_tags_keep_the_item() {
    // `<item><title>First</item>`: the item end tag closes the title too.
    let o = parse_fixture("mismatched-end-tag.xml");
    assert_eq!(titles(&o), ["First", "Second"]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::MismatchedEndTag]));
    assert_eq!(o.diagnostics.len(), 2, "{:?}", o.diagnostics);
}

#[test]
fn unclosed_elements_are_closed_by_their_parent() {
    let o = parse_fixture("unclosed-element.xml");
    assert_eq!(titles(&o), ["First", "Second"]);
    assert_eq!(o.categories[0], ["news"]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::MismatchedEndTag]));
}

#[test]
fn unclosed_cdata_keeps_the_rest_as_text() {
    let o = parse_fixture("unclosed-cdata.xml");
    assert_eq!(titles(&o), ["Done", "Cut <b>here</b> and"]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::MalformedXml, DiagnosticKind::UnclosedElement]));
    let bytes = fixture("unclosed-cdata.xml");
    assert_eq!(offsets_of(&o, DiagnosticKind::MalformedXml), [find(&bytes, "<![CDATA[")]);
}

#[test]
fn content_after_the_root_is_ignored() {
    let o = parse_fixture("content-after-root.xml");
    assert_eq!(titles(&o), ["Only"]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::ContentAfterRoot]));
    let bytes = fixture("content-after-root.xml");
    assert_eq!(offsets_of(&o, DiagnosticKind::ContentAfterRoot), [find(&bytes, "<script>")]);
}

#[test]
fn truncated_body_keeps_complete_entries_and_the_partial_one() {
    // Decision: the partial entry is kept (with whatever was read; its last value may be
    // cut) and the UnclosedElement diagnostic says the input ended inside it.
    let o = parse_fixture("truncated-mid-item.xml");
    assert_eq!(titles(&o), ["One", "Two", "Three (partial)"]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::UnclosedElement]));
    let d = &o.diagnostics[0];
    assert_eq!(d.offset, o.len);
    assert!(d.message.contains("<link>"), "{d}");

    let o = parse_fixture("truncated-in-tag.xml");
    assert_eq!(titles(&o), ["One", "Two", "<none>"]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::MalformedXml, DiagnosticKind::UnclosedElement]));
    assert!(o.diagnostics.iter().any(|d| d.message.contains("<item>")));
}

#[test]
fn every_prefix_of_a_feed_keeps_the_entries_completed_before_the_cut() {
    let doc = "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel><title>T</title>\
               <item><title>One &amp; &#233;</title><description><![CDATA[<p>x</p>]]></description></item>\
               <item><title>Two</title><link href='x'/></item><item><title>Three</title></item></channel></rss>";
    let ends: Vec<usize> = doc.match_indices("</item>").map(|(i, _)| i + "</item>".len()).collect();
    for cut in 0..=doc.len() {
        let o = parse(&doc.as_bytes()[..cut]);
        let complete = ends.iter().filter(|&&e| e <= cut).count();
        let expected = ["One & \u{e9}", "Two", "Three"];
        let got = titles(&o);
        assert!(got.len() >= complete, "cut {cut}: {got:?}");
        assert_eq!(got[..complete], expected[..complete], "cut {cut}");
        // A truncated body is never mistaken for a clean one.
        assert_eq!(o.diagnostics.is_empty(), cut == doc.len(), "cut {cut}: {:?}", o.diagnostics);
    }
}

#[test]
fn control_characters_are_replaced() {
    let o = parse_fixture("control-characters.xml");
    assert_eq!(titles(&o), ["Nul\u{fffd} and\u{fffd} vertical\ttab"]);
    assert_eq!(o.categories, [vec!["a\u{fffd}b".to_owned()]]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::InvalidCharacter]));
    let bytes = fixture("control-characters.xml");
    let offsets = offsets_of(&o, DiagnosticKind::InvalidCharacter);
    assert_eq!(offsets, [find(&bytes, "\0"), find(&bytes, "\u{1f}")]);
}

#[test]
fn control_characters_in_attributes_and_references() {
    let doc = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><title>t&#1;</title>\
               <link href=\"https://example.org/a\u{1}b\"/></entry></feed>";
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(doc, Some("https://example.org/")).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    assert_eq!(feed.entries[0].title.as_ref().unwrap().as_plain(), Some("t\u{fffd}"));
    let link = feed.entries[0].page_url.unwrap();
    assert!(!link.contains('\u{1}'), "{link}");
    let k: HashSet<_> = parsed.diagnostics.iter().map(|d| d.kind).collect();
    assert_eq!(k, kinds(&[DiagnosticKind::InvalidCharacter]));
    assert_eq!(parsed.diagnostics.len(), 2);
}

#[test]
fn undeclared_prefixes_are_reported() {
    let o = parse_fixture("undeclared-prefix.xml");
    assert_eq!(titles(&o), ["Kept"]);
    assert_eq!(o.categories, [vec!["c".to_owned()]]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::UnboundPrefix]));
}

#[test]
fn stray_less_than_is_text() {
    let o = parse_fixture("stray-less-than.xml");
    assert_eq!(titles(&o), ["a < b", "I <3 feeds", "x<y"]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::MalformedXml]));
    assert_eq!(o.diagnostics.len(), 3);
}

#[test]
fn unquoted_attribute_values_are_read() {
    let o = parse_fixture("unquoted-attributes.xml");
    assert_eq!(o.format, Some(Format::Atom));
    assert_eq!(o.entry_links, [Some("https://example.org/e1".to_owned())]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::MalformedXml]));
    assert_eq!(o.diagnostics.len(), 2);
}

#[test]
fn duplicate_attributes_keep_the_first() {
    let o = parse_fixture("duplicate-attributes.xml");
    assert_eq!(o.entry_links, [Some("https://example.org/first".to_owned())]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::MalformedXml]));
    assert!(o.diagnostics[0].message.contains("duplicate"));
}

#[test]
fn bogus_markup_does_not_swallow_the_document() {
    // `<!bogus …>` is skipped to its `>`; `<? not a pi` has no target, so its `<` is text.
    let o = parse_fixture("bogus-markup.xml");
    assert_eq!(titles(&o), ["One", "Two", "Three"]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::MalformedXml]));
}

#[test]
fn a_broken_tag_is_dropped() {
    // `<link href="…unclosed>`: no closing quote anywhere; the tag is skipped to its `>`.
    let o = parse_fixture("broken-tag.xml");
    assert_eq!(titles(&o), ["One", "Two"]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::MalformedXml]));
}

#[test]
fn junk_in_end_tags_is_ignored() {
    let o = parse_fixture("end-tag-junk.xml");
    assert_eq!(titles(&o), ["One", "Two"]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::MalformedXml]));
}

#[test]
fn text_before_the_root_is_ignored() {
    let o = parse_fixture("text-before-root.xml");
    assert_eq!(o.title.as_deref(), Some("Recovery"));
    assert_eq!(titles(&o), ["One"]);
    assert_eq!(o.kinds(), kinds(&[DiagnosticKind::MalformedXml]));
    assert_eq!(o.diagnostics[0].offset, 0);
}

/// Files of `corpus/real/` that are not namespace-well-formed (checked with expat, namespace
/// processing on, no external DTD, skipped entities counted as errors). Every other file is.
const NOT_WELL_FORMED: &[&str] = &[
    "atom/feedjira--AmazonWebServicesBlog.xml", // XML declaration after a blank line
    "atom/feedjira--PaulDixExplainsNothing.xml",
    "atom/feedjira--SamRuby.xml",
    "atom/feedjira--TrotterCashionHome.xml",
    "atom/feedjira--TypePadNews.xml",
    "atom/feedjira--youtube_atom.xml",
    "atom/feedjira2009--CoryForsyth.xml", // control character, <script> after the root
    "atom/feedjira2009--JustASummary.xml", // mismatched tags, &auml;
    "atom/feedjira2009--ZedShaw.xml",     // invalid UTF-8
    "rss1/feedjira--HREFConsideredHarmful.xml",
    "rss2/feed-rs--rss_2.0_dbengines.xml", // &nbsp;
    "rss2/feedjira--TechCrunch.xml",
    "rss2/feedjira--TenderLovemaking.xml",
    "rss2/feedjira--itunes.xml", // also an undeclared prefix
    "rss2/feedjira2009--IanLandsmansWeblogv20.xml",
    "rss2/feedjira2009--NotSoStupid.xml",
    "rss2/feedkit--Ampersand.xml",
    "rss2/rss-parser--uolNoticias.rss",
];

/// The real feeds as `<format>/<file>`, the form `NOT_WELL_FORMED` names them in.
fn real_files() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/real");
    let rel = |p: std::path::PathBuf| p.strip_prefix(&root).unwrap().to_str().unwrap().to_owned();
    crate::real_feeds().into_iter().map(rel).collect()
}

#[test]
fn well_formed_real_feeds_give_no_diagnostics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/real");
    let (mut checked, mut invalid_values) = (0, 0);
    for rel in real_files() {
        if NOT_WELL_FORMED.contains(&rel.as_str()) {
            continue;
        }
        let o = parse(&std::fs::read(root.join(&rel)).unwrap());
        // Web recovery rules (`recovered`, and the `encoding_guessed` of a windows-1252 label
        // over UTF-8 bytes) read values, they repair no XML; a value of the wrong type
        // (`invalid_value`) is the feed's content, not its XML. Any other encoding guess on
        // these well-formed feeds would be wrong.
        let utf8_under_label = |d: &&Diagnostic| {
            d.kind == DiagnosticKind::EncodingGuessed && d.message.contains("over UTF-8 bytes")
        };
        let (invalid, recoveries): (Vec<_>, Vec<_>) = o
            .diagnostics
            .iter()
            .filter(|d| d.kind != DiagnosticKind::Recovered && !utf8_under_label(d))
            .partition(|d| d.kind == DiagnosticKind::InvalidValue);
        assert!(recoveries.is_empty(), "{rel}: {recoveries:?}");
        for d in invalid {
            // The only ones in these files: a comment count of -1 (`thr:total` six times,
            // `thr:count` on `replies` links twelve times) in one feed.
            let counts = [
                r#"thr:total "-1" is not a non-negative integer; left out"#,
                r#"link@thr:count "-1" is not a non-negative integer; left out"#,
            ];
            assert!(counts.contains(&d.message.as_str()), "{rel}: {d:?}");
            invalid_values += 1;
        }
        checked += 1;
    }
    assert_eq!(checked, 269);
    assert_eq!(invalid_values, 18);
}

#[test]
fn malformed_real_feeds_are_flagged_and_read() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/real");
    // A blank line before the XML declaration is tolerated silently; every other file here
    // gives at least one diagnostic and its entries.
    let flagged = [
        ("atom/feedjira2009--CoryForsyth.xml", DiagnosticKind::ContentAfterRoot),
        ("atom/feedjira2009--JustASummary.xml", DiagnosticKind::MismatchedEndTag),
        ("atom/feedjira2009--JustASummary.xml", DiagnosticKind::HtmlEntity),
        ("rss2/feed-rs--rss_2.0_dbengines.xml", DiagnosticKind::HtmlEntity),
        // An undeclared `content:` (bound by the rule `well_known_prefix`).
        ("rss2/feedjira--itunes.xml", DiagnosticKind::Recovered),
        ("rss2/feedjira2009--NotSoStupid.xml", DiagnosticKind::InvalidCharacter),
        ("rss2/feedkit--Ampersand.xml", DiagnosticKind::BareAmpersand),
        ("atom/feedjira2009--CoryForsyth.xml", DiagnosticKind::InvalidCharacter),
    ];
    for (rel, kind) in flagged {
        let o = parse(&std::fs::read(root.join(rel)).unwrap());
        assert!(o.kinds().contains(&kind), "{rel}: {:?}", o.diagnostics);
        assert!(!o.entry_titles.is_empty(), "{rel}");
    }
}

/// The conformance cases, split as NOTES.md §6 says (only `#data` is needed here).
fn conformance_documents() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/conformance/tests-web");
    let mut docs = Vec::new();
    for file in ["atom.dat", "atom03.dat", "nonfeed.dat", "rss1.dat", "rss2.dat"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).peekable();
        while let Some(line) = lines.next() {
            if line == "#data" {
                let mut data = Vec::new();
                while let Some(l) = lines.peek() {
                    if l.starts_with('#') {
                        break;
                    }
                    data.push(*l);
                    lines.next();
                }
                docs.push((file.to_owned(), data.join("\n")));
            }
        }
    }
    docs
}

#[test]
fn well_formed_conformance_documents_give_no_diagnostics() {
    let docs = conformance_documents();
    assert_eq!(docs.len(), 255);
    let mut parser = Parser::new(Options::default());
    // Values of the wrong type the cases test on purpose (dates, image sizes, a link
    // length, a duration): each left out with an `invalid_value` diagnostic.
    let mut invalid_values = Vec::new();
    for (file, data) in &docs {
        let parsed = parser.parse_str(data, Some("https://base/")).unwrap();
        let (invalid, recoveries): (Vec<_>, Vec<_>) = parsed
            .diagnostics
            .iter()
            .filter(|d| d.kind != DiagnosticKind::NotAFeed)
            .partition(|d| d.kind == DiagnosticKind::InvalidValue);
        invalid_values.extend(invalid.iter().map(|d| d.message.clone()));
        // The one case that is not namespace-well-formed (NOTES.md §6); `rdf` is not a
        // prefix the rule `well_known_prefix` binds.
        if data == "<rdf:RDF/>" {
            assert_eq!(recoveries.len(), 1);
            assert_eq!(recoveries[0].kind, DiagnosticKind::UnboundPrefix);
            continue;
        }
        // `date_published` adds an RSS item's date as its published date (the harness in
        // conformance.rs accepts exactly those values).
        let recoveries = recoveries
            .iter()
            .filter(|d| !d.message.starts_with("date_published: "))
            .collect::<Vec<_>>();
        assert!(recoveries.is_empty(), "{file}: {data:?}: {recoveries:?}");
    }
    // 14 values, and 4 cases whose URLs do not parse (`https://foo:bar`, a bad port: the
    // spec's null), counted.
    assert_eq!(invalid_values.len(), 18, "{invalid_values:#?}");
    for v in [
        r#"updated "2052-01-0400:20:31+06:01" is not a date; left out"#,
        r#"modified "4a4" is not a date; left out"#,
        r#"gd:image@height "-300" is not a non-negative integer; left out"#,
        r#"link@length "large" is not a non-negative integer; left out"#,
        r#"lastBuildDate "3/5" is not a date; left out"#,
        r#"duration "53:45:43:44" is not a duration (seconds, M:S or H:M:S); left out"#,
        "1 URLs that do not parse left out",
    ] {
        assert!(invalid_values.iter().any(|m| m == v), "{v} not among {invalid_values:#?}");
    }
}

#[test]
fn every_diagnostic_offset_is_inside_the_input_for_every_fixture() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/fixtures/recovery");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|e| e == "xml") {
            let o = parse(&std::fs::read(&p).unwrap()); // `parse` asserts the offsets
            assert!(!o.diagnostics.is_empty(), "{}: a malformed fixture is flagged", p.display());
            n += 1;
        }
    }
    assert_eq!(n, 18);
}
