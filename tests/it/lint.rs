//! The RSS Best Practices Profile lint (`feedmill::lint`): every rule's fixture pair in
//! `corpus/fixtures/lint/` (NAME.bad.xml triggers the code in its Profile section,
//! NAME.good.xml does not trigger it), the clean document, exact finding fields, the model
//! unchanged by linting, and bulk output independent of the thread count.

use std::path::{Path, PathBuf};

use feedmill::lint::{messages, Code, LintOptions, Report};
use feedmill::Severity;
use feedmill::{Options, Parser};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/fixtures/lint");
/// The Atom 1.0 rules' fixtures (RFC 4287), laid out as `DIR`'s.
const ATOM_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/fixtures/lint-atom");
/// The iTunes rules' fixtures (Apple Podcasts' requirements), laid out as `DIR`'s.
const ITUNES_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/fixtures/lint-itunes");
/// The Media RSS rules' fixtures, laid out as `DIR`'s.
const MEDIA_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/fixtures/lint-media");
/// The JSON Feed 1.1 rules' fixtures, laid out as `DIR`'s with `.json` files.
const JSONFEED_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/fixtures/lint-jsonfeed");
/// The RSS 1.0 rules' fixtures, laid out as `DIR`'s.
const RSS1_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/fixtures/lint-rss1");
/// Every fixture directory and its documents' extension.
const DIRS: [(&str, &str); 6] = [
    (DIR, "xml"),
    (ATOM_DIR, "xml"),
    (ITUNES_DIR, "xml"),
    (MEDIA_DIR, "xml"),
    (JSONFEED_DIR, "json"),
    (RSS1_DIR, "xml"),
];
/// 2026-11-24T00:00:00Z: "now" for the future-date rule.
const NOW: i64 = 1_795_478_400;

fn options() -> Options {
    let mut o = Options::default();
    o.lint = Some(LintOptions::at(NOW));
    o
}

fn lint(doc: &[u8]) -> Report {
    let mut parser = Parser::new(options());
    let parsed = parser.parse_bytes(doc, None).expect("parses");
    parsed.lint.expect("lint is on")
}

fn lint_file(name: &str) -> Report {
    lint_in(DIR, name)
}

fn lint_in(dir: &str, name: &str) -> Report {
    let path = Path::new(dir).join(name);
    lint(&std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// One row of `cases.tsv`.
struct Case {
    name: String,
    code: String,
    section: String,
    /// Codes the bad document triggers besides `code`.
    bad_also: Vec<String>,
    /// Codes the good document triggers.
    good_also: Vec<String>,
}

fn cases_in(dir: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(Path::new(dir).join("cases.tsv")).expect("cases.tsv");
    let list = |s: Option<&str>| -> Vec<String> {
        s.unwrap_or("").split(',').filter(|c| !c.is_empty()).map(str::to_owned).collect()
    };
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let mut p = l.split('\t');
            Case {
                name: p.next().unwrap().to_owned(),
                code: p.next().unwrap().to_owned(),
                section: p.next().unwrap().to_owned(),
                bad_also: list(p.next()),
                good_also: list(p.next()),
            }
        })
        .collect()
}

fn codes(r: &Report) -> Vec<String> {
    r.findings.iter().map(|f| format!("{} [{}]", f.code.name(), f.section)).collect()
}

#[test]
fn clean_document_has_no_findings() {
    let r = lint_file("clean.xml");
    assert_eq!(codes(&r), Vec::<String>::new());
    assert_eq!(r.version.as_deref(), Some("2.0"));
}

#[test]
fn clean_atom_document_has_no_findings() {
    let r = lint_in(ATOM_DIR, "clean.xml");
    assert_eq!(codes(&r), Vec::<String>::new());
    assert_eq!(r.version, None);
    let r = lint_in(ITUNES_DIR, "clean.xml");
    assert_eq!(codes(&r), Vec::<String>::new());
    let r = lint_in(MEDIA_DIR, "clean.xml");
    assert_eq!(codes(&r), Vec::<String>::new());
    let r = lint_in(JSONFEED_DIR, "clean.json");
    assert_eq!(codes(&r), Vec::<String>::new());
    let r = lint_in(RSS1_DIR, "clean.xml");
    assert_eq!(codes(&r), Vec::<String>::new());
}

/// iTunes findings: the validator's parameters (`text` for categories).
#[test]
fn itunes_finding_fields() {
    let one = |name: &str| {
        let r = lint_in(ITUNES_DIR, name);
        assert_eq!(r.findings.len(), 1, "{name}: {:?}", codes(&r));
        r.findings.into_iter().next().unwrap()
    };
    let f = one("subcategory-invalid.bad.xml");
    assert_eq!(
        f.message(),
        "Software How-To is not one of the predefined iTunes categories or sub-categories"
    );
    assert_eq!(f.param("parent"), Some("Arts"));
    let f = one("category-obsolete.bad.xml");
    assert_eq!((f.code, f.severity()), (Code::ObsoleteItunesCategory, Severity::Warning));
    assert_eq!(f.param("text"), Some("Games & Hobbies"));
    let f = one("image-missing.bad.xml");
    assert_eq!(f.message(), "Missing recommended iTunes channel element: itunes:image");
    let f = one("duration-invalid.bad.xml");
    assert_eq!((f.param("element"), f.param("value")), (Some("itunes:duration"), Some("5 min")));
}

#[test]
fn every_rule_fixture_pair() {
    let mut failures = Vec::new();
    for (dir, ext) in DIRS {
        for Case { name, code, section, .. } in cases_in(dir) {
            let bad = lint_in(dir, &format!("{name}.bad.{ext}"));
            if !bad.findings.iter().any(|f| f.code.name() == code && f.section == section) {
                failures.push(format!(
                    "{name}.bad.{ext}: no {code} [{section}]; got {:?}",
                    codes(&bad)
                ));
            }
            let good = lint_in(dir, &format!("{name}.good.{ext}"));
            if good.findings.iter().any(|f| f.code.name() == code) {
                failures.push(format!("{name}.good.{ext}: {code} fired; got {:?}", codes(&good)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fixtures_trigger_exactly_their_findings() {
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let mut failures = Vec::new();
    for (dir, ext) in DIRS {
        for case in cases_in(dir) {
            let bad = lint_in(dir, &format!("{}.bad.{ext}", case.name));
            let got = sorted(bad.findings.iter().map(|f| f.code.name().to_owned()).collect());
            let want = sorted([vec![case.code.clone()], case.bad_also.clone()].concat());
            if got != want {
                let name = &case.name;
                failures.push(format!("{name}.bad.{ext}: want {want:?}, got {:?}", codes(&bad)));
            }
            let good = lint_in(dir, &format!("{}.good.{ext}", case.name));
            let got = sorted(good.findings.iter().map(|f| f.code.name().to_owned()).collect());
            if got != sorted(case.good_also.clone()) {
                let (name, want) = (&case.name, &case.good_also);
                failures.push(format!("{name}.good.{ext}: want {want:?}, got {:?}", codes(&good)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_code_has_a_fixture() {
    let cases: Vec<Case> = DIRS.iter().flat_map(|(dir, _)| cases_in(dir)).collect();
    let missing: Vec<&str> = messages::ALL
        .iter()
        .map(|c| c.name())
        .filter(|n| !cases.iter().any(|c| c.code == *n))
        .collect();
    assert_eq!(missing, Vec::<&str>::new());
}

#[test]
fn finding_fields() {
    let r = lint_file("character-data-amp.bad.xml");
    assert_eq!(r.findings.len(), 1, "{:?}", codes(&r));
    let f = &r.findings[0];
    assert_eq!(f.code, Code::CharacterData);
    assert_eq!(f.severity(), Severity::Warning);
    assert_eq!(
        f.message(),
        "Encode \"&\" and \"<\" in plain text using hexadecimal character references."
    );
    assert_eq!(f.param("element"), Some("title"));
    assert_eq!(f.param("parent"), Some("item"));
    assert_eq!(f.param("value"), Some("&amp;"));
    assert_eq!((f.line, f.column), (13, 1));
    let doc = std::fs::read_to_string(Path::new(DIR).join("character-data-amp.bad.xml")).unwrap();
    assert!(doc[f.offset..].starts_with("<title>Q &amp; A</title>"));
    assert_eq!(f.section, "3.1 Character Data");

    let r = lint_file("channel-missing-link.bad.xml");
    let f = &r.findings[0];
    assert_eq!(f.code, Code::MissingLink);
    assert_eq!(f.severity(), Severity::Error);
    assert_eq!(f.message(), "Missing channel element: link");
    assert_eq!((f.line, f.column), (3, 1));

    let r = lint_file("dc-creator-and-author.bad.xml");
    let f = r.findings.iter().find(|f| f.code == Code::DuplicateItemSemantics).unwrap();
    assert_eq!(f.message(), "An item should not include both author and dc:creator");

    let r = lint_file("date-two-digit-year.bad.xml");
    let f = &r.findings[0];
    assert_eq!(f.message(), "Problematical RFC 822 date-time value");
    assert_eq!(f.param("value"), Some("Sat, 07 Sep 02 09:42:31 GMT"));
    assert_eq!((f.line, f.column), (17, 1));
}

#[test]
fn finding_fields_of_profile_notes_and_nested_elements() {
    let one = |name: &str| {
        let r = lint_file(name);
        assert_eq!(r.findings.len(), 1, "{name}: {:?}", codes(&r));
        r.findings.into_iter().next().unwrap()
    };
    let f = one("description-not-html.bad.xml");
    assert_eq!((f.code, f.severity()), (Code::NotHtml, Severity::Warning));
    assert_eq!(f.message(), "Non-html tag");
    assert_eq!((f.param("parent"), f.param("element")), (Some("item"), Some("description")));
    assert_eq!(f.param("value"), Some("o:p"));

    let f = one("docs-rssboard-url.bad.xml");
    assert_eq!(
        f.message(),
        "Identifier \"https://rssboard.org/rss-specification/\" is not in canonical form (the \
         canonical form would be \"http://www.rssboard.org/rss-specification\")"
    );
    assert_eq!((f.code, f.section), (Code::NonCanonicalURI, "4.1.1.7 docs"));

    let f = one("rating-pics.bad.xml");
    assert_eq!(
        (f.code, f.severity(), f.message()),
        (Code::InvalidMediaRating, Severity::Error, "Invalid Media Rating".into())
    );
    assert_eq!(f.param("value"), Some("PG-13"));

    let f = one("item-category-empty-level.bad.xml");
    assert_eq!((f.code, f.severity()), (Code::RSS20Profile, Severity::Warning));
    assert!(f.message().starts_with("The category's value should be a slash-delimited string"));
    assert_eq!(f.param("value"), Some("/News/"));

    // Reported where the second of the pair appears (here `author`, after `dc:creator`).
    let f = one("dc-creator-before-author.bad.xml");
    assert_eq!(f.message(), "An item should not include both author and dc:creator");
    let doc = std::fs::read_to_string(Path::new(DIR).join("dc-creator-before-author.bad.xml"));
    assert!(doc.unwrap()[f.offset..].starts_with("<author>"));
    let f = one("dc-date-and-channel-pubdate.bad.xml");
    assert_eq!(f.message(), "A channel should not include both pubDate and dc:date");
    let f = one("admin-generator-agent-and-generator.bad.xml");
    assert_eq!(
        (f.param("core"), f.param("ext")),
        (Some("generator"), Some("admin:generatorAgent"))
    );

    let f = one("image-title-character-data.bad.xml");
    assert_eq!(
        (f.code, f.param("parent"), f.param("element")),
        (Code::CharacterData, Some("image"), Some("title"))
    );
    let f = one("textinput-child-element.good.xml");
    assert_eq!(f.code, Code::AvoidTextInput);
    let f = one("dc-creator-child-element.bad.xml");
    assert_eq!(
        (f.code, f.param("parent"), f.param("element")),
        (Code::UndefinedElement, Some("dc:creator"), Some("name"))
    );
}

#[test]
fn lint_leaves_the_model_unchanged() {
    let entries = DIRS.iter().flat_map(|(d, _)| std::fs::read_dir(d).unwrap());
    for entry in entries {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "xml" && e != "json") {
            continue;
        }
        let doc = std::fs::read(&path).unwrap();
        let mut plain = Parser::new(Options::default());
        let a = plain.parse_bytes(&doc, None).unwrap();
        assert!(a.lint.is_none());
        let mut linting = Parser::new(options());
        let b = linting.parse_bytes(&doc, None).unwrap();
        assert_eq!((&a.feed, &a.diagnostics), (&b.feed, &b.diagnostics), "{}", path.display());
    }
}

#[test]
fn other_formats_have_no_findings() {
    let atom03 = br#"<feed version="0.3" xmlns="http://purl.org/atom/ns#"><foo/></feed>"#;
    assert_eq!(lint(atom03), Report::default());
    // RSS 0.90: an `rdf:RDF` root whose channel is in RSS 0.90's namespace.
    let rss090 = br#"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
        xmlns="http://my.netscape.com/rdf/simple/0.9/"><channel><foo/></channel></rdf:RDF>"#;
    assert_eq!(lint(rss090), Report::default());
    let r = lint(b"<html><body>not a feed</body></html>");
    assert_eq!(r, Report::default());
}

/// Atom findings: the validator's parameters, positions, RFC 4287 sections.
#[test]
fn atom_finding_fields() {
    let one = |name: &str| {
        let r = lint_in(ATOM_DIR, name);
        assert_eq!(r.findings.len(), 1, "{name}: {:?}", codes(&r));
        r.findings.into_iter().next().unwrap()
    };
    let doc = |name: &str| std::fs::read_to_string(Path::new(ATOM_DIR).join(name)).unwrap();

    let f = one("feed-missing-id.bad.xml");
    assert_eq!((f.code, f.severity()), (Code::MissingElement, Severity::Error));
    assert_eq!(f.message(), "Missing feed element: id");
    assert_eq!((f.line, f.column), (2, 1));
    assert_eq!(f.section, "RFC 4287 4.1.1 atom:feed");

    // The entry without an author, in a feed without one, is where it is reported.
    let f = one("entry-missing-author.bad.xml");
    assert_eq!(f.message(), "Missing entry element: author");
    assert!(doc("entry-missing-author.bad.xml")[f.offset..].starts_with("<entry>"));

    let f = one("entry-updated-lowercase.bad.xml");
    assert_eq!(f.message(), "updated must be an RFC-3339 date-time");
    assert_eq!(
        (f.param("parent"), f.param("value")),
        (Some("entry"), Some("2002-09-07t09:40:00z"))
    );

    let f = one("link-rel-unregistered.bad.xml");
    assert_eq!((f.code, f.severity()), (Code::UnregisteredAtomLinkRel, Severity::Warning));
    assert_eq!((f.param("attr"), f.param("value")), (Some("rel"), Some("sidebar")));

    let f = one("duplicate-entry-ids.bad.xml");
    assert_eq!(
        (f.code, f.param("value")),
        (Code::DuplicateEntries, Some("tag:example.com,2002:1"))
    );
    let d = doc("duplicate-entry-ids.bad.xml");
    assert!(d[f.offset..].starts_with("<id>") && d[..f.offset].contains("Second"));

    let f = one("text-child-element.bad.xml");
    assert_eq!(f.message(), "Undefined title element: b");

    let f = one("xhtml-missing-div.bad.xml");
    assert_eq!(f.message(), "Missing xhtml:div element");
    assert_eq!((f.param("parent"), f.param("element")), (Some("entry"), Some("content")));

    let f = one("feed-missing-self.bad.xml");
    assert_eq!((f.code, f.severity()), (Code::MissingSelf, Severity::Warning));

    let f = one("link-href-invalid.bad.xml");
    assert_eq!(f.message(), "href attribute of link must be a valid URI");
}

/// Atom 1.0 documents nested in no `feed` (an entry document) and broken ones: no panic,
/// offsets in bounds.
#[test]
fn atom_offsets_stay_in_bounds_on_broken_documents() {
    let docs: [&[u8]; 4] = [
        br#"<feed xmlns="http://www.w3.org/2005/Atom"><entry><title type="xhtml">a"#,
        br#"<feed xmlns="http://www.w3.org/2005/Atom"><entry><content src="x">"#,
        br#"<feed xmlns="http://www.w3.org/2005/Atom"><link href="#,
        "<feed xmlns='http://www.w3.org/2005/Atom'><title type='xhtml'>é<div>ü</title>".as_bytes(),
    ];
    for doc in docs {
        for f in lint(doc).findings {
            assert!(f.offset <= doc.len(), "{f:?}");
            assert!(std::str::from_utf8(&doc[..f.offset]).is_ok(), "{f:?}");
        }
    }
}

#[test]
fn offsets_stay_in_bounds_on_broken_documents() {
    let docs: [&[u8]; 5] = [
        b"<rss version='2.0'><channel><title>a",
        b"<rss><channel><item><title>x</title><enclosure url='a'",
        b"<rss><channel><image><url>x</url></channel></rss>",
        b"<rss><channel><skipHours><hour>1</hour><hour>",
        "<rss><channel><title>é<b>ü</title></channel></rss>".as_bytes(),
    ];
    for doc in docs {
        for f in lint(doc).findings {
            assert!(f.offset <= doc.len(), "{f:?}");
            assert!(std::str::from_utf8(&doc[..f.offset]).is_ok(), "{f:?}");
        }
    }
}

fn bulk_lint(threads: usize) -> Vec<u8> {
    let mut cfg =
        feedmill::bulk::Config { threads, max_bytes_in_flight: 4096, ..Default::default() };
    cfg.options = options();
    cfg.lint_only = true;
    let out = SharedBuf::default();
    let inputs = vec![feedmill::bulk::Input::Path(PathBuf::from(DIR))];
    feedmill::bulk::run(inputs, &cfg, Box::new(out.clone()), &mut |_| {}).expect("runs");
    let bytes = out.0.lock().unwrap().clone();
    bytes
}

#[derive(Clone, Default)]
struct SharedBuf(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn bulk_lint_lines_do_not_depend_on_threads() {
    let one = bulk_lint(1);
    assert_eq!(one, bulk_lint(3));
    let text = String::from_utf8(one).unwrap();
    let first = text.lines().find(|l| l.contains("character-data-amp.bad.xml")).unwrap();
    let v: serde_json::Value = serde_json::from_str(first).unwrap();
    assert_eq!(v["status"], "ok");
    assert_eq!(v["format"], "rss2");
    assert_eq!(v["version"], "2.0");
    assert_eq!(v["findings"][0]["code"], "CharacterData");
    assert_eq!(v["findings"][0]["severity"], "warning");
    assert_eq!(v["findings"][0]["line"], 13);
    let clean = text.lines().find(|l| l.contains("clean.xml")).unwrap();
    assert!(clean.ends_with(r#""format":"rss2","version":"2.0","findings":[]}"#), "{clean}");
}

/// A one-line document of `items` items, each with two undefined elements (two findings)
/// and a non-ASCII title, so that columns count characters, not bytes.
fn one_line_feed(items: usize) -> String {
    let mut doc = String::from(
        "<rss version=\"2.0\"><channel><title>x</title><link>http://e.com/</link>\
         <description>d</description>",
    );
    for _ in 0..items {
        doc.push_str("<item><title>é ü</title><foo/><bar/></item>");
    }
    doc.push_str("</channel></rss>");
    doc
}

/// Each finding's line and column are those a direct count from the start of the text gives
/// (1-based, the column in characters), on a document mixing long lines, newlines and
/// multi-byte characters.
#[test]
fn finding_lines_and_columns_match_a_direct_count() {
    let mut doc = one_line_feed(50).replace("<item>", "<item>\n").replace("<foo/>", "ü\r\n<foo/>");
    doc = doc.replacen("<channel>", "<channel>\n\n", 1);
    let report = lint(doc.as_bytes());
    assert!(report.findings.len() >= 100);
    for f in &report.findings {
        let before = &doc[..f.offset];
        let line = before.matches('\n').count() as u32 + 1;
        let start = before.rfind('\n').map_or(0, |p| p + 1);
        let column = doc[start..f.offset].chars().count() as u32 + 1;
        assert_eq!((f.line, f.column), (line, column), "{f:?}");
    }
}

/// JSON Feed findings: positions at the member's key (line and column of the JSON reader's
/// offsets), parameters, sections, and the document linted when it is no feed.
#[test]
fn json_feed_finding_fields() {
    let one = |name: &str| {
        let r = lint_in(JSONFEED_DIR, name);
        assert_eq!(r.findings.len(), 1, "{name}: {:?}", codes(&r));
        r.findings.into_iter().next().unwrap()
    };
    let doc = |name: &str| std::fs::read_to_string(Path::new(JSONFEED_DIR).join(name)).unwrap();

    let f = one("item-number-id.bad.json");
    assert_eq!((f.code, f.severity()), (Code::JsonIdNotString, Severity::Warning));
    assert!(doc("item-number-id.bad.json")[f.offset..].starts_with("\"id\": 2"));
    assert_eq!((f.line, f.column), (33, 7));
    assert_eq!(f.section, "JSON Feed 1.1 Items");
    assert_eq!(f.reference(), "https://www.jsonfeed.org/version/1.1/");

    let f = one("title-not-string.bad.json");
    assert_eq!(f.message(), "title must be a string");
    assert_eq!((f.param("parent"), f.param("value")), (Some("feed"), Some("42")));

    let f = one("attachment-missing-mime-type.bad.json");
    assert_eq!(f.message(), "Missing attachment member: mime_type");
    assert!(doc("attachment-missing-mime-type.bad.json")[f.offset..].starts_with("{\"url\""));

    let f = one("duplicate-id.bad.json");
    assert_eq!(
        (f.code, f.param("value")),
        (Code::DuplicateJsonItemId, Some("https://www.example.com/1"))
    );
    assert!(doc("duplicate-id.bad.json")[..f.offset].contains("\"content_html\""));

    let f = one("date-published-invalid.bad.json");
    assert_eq!(f.message(), "date_published must be an RFC 3339 date-time");

    // A JSON object without `version` is not a feed (the record's status says so), and its
    // report names the member.
    let mut parser = Parser::new(options());
    let text = doc("missing-version.bad.json");
    let parsed = parser.parse_bytes(text.as_bytes(), None).unwrap();
    assert!(parsed.feed.is_none());
    let r = parsed.lint.unwrap();
    assert_eq!(r.findings[0].message(), "Missing feed member: version");
    assert_eq!((r.findings[0].line, r.findings[0].column), (1, 1));
}

/// Media RSS findings: the validator's parameters and the Media RSS sections; a class of
/// several rule sets is referenced by its finding's.
#[test]
fn media_finding_fields() {
    let one = |name: &str| {
        let r = lint_in(MEDIA_DIR, name);
        assert_eq!(r.findings.len(), 1, "{name}: {:?}", codes(&r));
        r.findings.into_iter().next().unwrap()
    };
    let f = one("content-medium.bad.xml");
    assert_eq!(f.message(), "Invalid content medium: \"movie\"");
    assert_eq!(
        (f.param("element"), f.param("parent"), f.param("attr")),
        (Some("media:content"), Some("item"), Some("medium"))
    );
    assert_eq!(f.section, "Media RSS media:content");
    let f = one("content-bitrate.bad.xml");
    assert_eq!((f.code, f.message()), (Code::InvalidFloat, "Invalid value for bitrate".into()));
    let f = one("group-content-medium.bad.xml");
    assert_eq!(f.param("parent"), Some("media:group"));
    let doc = std::fs::read_to_string(Path::new(MEDIA_DIR).join("group-content-medium.bad.xml"));
    assert!(doc.unwrap()[f.offset..]
        .starts_with("<media:content url=\"https://www.example.com/2.webm\""));
    let f = one("thumbnail-url.bad.xml");
    assert_eq!(f.message(), "Missing media:thumbnail attribute: url");
    assert_eq!(
        (f.code.reference(), f.reference()),
        ("https://www.rssboard.org/rss-profile", "https://www.rssboard.org/media-rss")
    );
    let f = one("restriction-relationship.bad.xml");
    assert_eq!(f.message(), "relationship must be 'allow' or 'deny'");
    assert_eq!(f.param("value"), Some("disallow"));
}

/// Every code has a family and a reference; only the JSON Feed classes and
/// `MultipleMediaDefaults` are not the validator's.
#[test]
fn every_code_has_a_family_and_reference() {
    for &c in &messages::ALL {
        assert!(c.reference().starts_with("https://"), "{c:?}");
        let feedmills = c.family() == "JSON Feed 1.1" || c == Code::MultipleMediaDefaults;
        assert_eq!(c.is_validator_class(), !feedmills, "{c:?}");
    }
    assert_eq!(Code::InvalidMediaMedium.family(), "Media RSS");
    assert_eq!(Code::MissingSelf.family(), "Atom 1.0 (RFC 4287)");
    assert_eq!(Code::MissingGuid.family(), "RSS Best Practices Profile");
}

/// Broken and hostile JSON Feed documents: no panic, offsets in bounds and on character
/// boundaries.
#[test]
fn json_feed_offsets_stay_in_bounds() {
    let docs: [&str; 6] = [
        r#"{"version": "https://jsonfeed.org/version/1.1", "items": [1, {"id": null}]}"#,
        r#"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "a", "attachments": [{"url": "\"x"}, 3]}]}"#,
        r#"{"\"a\\": 1, "version": "https://jsonfeed.org/version/1.1", "é": {"b": 2}}"#,
        r#"{"version": "https://jsonfeed.org/version/1.1", "hubs": [{"url": "\ud800"}], "items": []}"#,
        r#"{"version": "https://jsonfeed.org/version/1.1", "authors": [[], {}, "x"], "items": [{"id": "é", "authors": 1}]}"#,
        r#"  {"items": [{"id": 1}, {"id": 1}]}"#,
    ];
    for doc in docs {
        let r = lint(doc.as_bytes());
        assert!(!r.findings.is_empty(), "{doc}");
        for f in r.findings {
            assert!(f.offset <= doc.len(), "{f:?}");
            assert!(doc.is_char_boundary(f.offset), "{f:?}");
        }
    }
}

/// The remaining iTunes, Atom value and RSS 1.0 rules' parameters, and live items named as
/// such.
#[test]
fn live_item_itunes_atom_person_and_rss1_finding_fields() {
    let one = |dir: &str, name: &str| {
        let r = lint_in(dir, name);
        assert_eq!(r.findings.len(), 1, "{name}: {:?}", codes(&r));
        r.findings.into_iter().next().unwrap()
    };
    let f = one(DIR, "live-item-missing-guid.bad.xml");
    assert_eq!(f.message(), "liveItem should contain a guid element");
    let f = one(ITUNES_DIR, "keywords-too-long.bad.xml");
    assert_eq!(
        f.message(),
        "length of 256 exceeds the maximum allowable for itunes:keywords of 255"
    );
    let f = one(ITUNES_DIR, "owner-email-missing.bad.xml");
    assert_eq!(f.message(), "Missing itunes:owner element: itunes:email");
    let f = one(ITUNES_DIR, "season-not-positive.bad.xml");
    assert_eq!(f.message(), "itunes:season must be a positive integer");
    assert_eq!(f.param("value"), Some("0"));
    let f = one(ITUNES_DIR, "image-not-jpeg-png.bad.xml");
    assert_eq!((f.code, f.param("attr")), (Code::ImageUrlFormat, Some("href")));
    let f = one(ATOM_DIR, "person-missing-name.bad.xml");
    assert_eq!(f.message(), "Missing contributor element: name");
    let f = one(ATOM_DIR, "person-email-invalid.bad.xml");
    assert_eq!(f.message(), "email must be an email address");
    let f = one(ATOM_DIR, "xhtml-content-embed.bad.xml");
    assert_eq!(f.message(), "content should not contain embed tag");
    let f = one(ATOM_DIR, "link-hreflang-invalid.bad.xml");
    assert_eq!((f.param("attr"), f.param("value")), (Some("hreflang"), Some("french")));
    let f = one(RSS1_DIR, "channel-missing-items.bad.xml");
    assert_eq!(f.message(), "Missing channel element: items");
    let f = one(RSS1_DIR, "items-li-missing-resource.bad.xml");
    assert_eq!(f.message(), "Missing rdf:li attribute: rdf:resource");
    let f = one(RSS1_DIR, "channel-undefined-element.bad.xml");
    assert_eq!(f.message(), "Undefined channel element: language");
}
