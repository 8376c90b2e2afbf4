//! The RSS Best Practices Profile lint (`feedmill::lint`): every rule's fixture pair in
//! `corpus/fixtures/lint/` (NAME.bad.xml triggers the code in its Profile section,
//! NAME.good.xml does not trigger it), the clean document, exact finding fields, the model
//! unchanged by linting, and bulk output independent of the thread count.

use std::path::{Path, PathBuf};

use feedmill::lint::{messages, Code, LintOptions, Report, Severity};
use feedmill::{Options, Parser};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/fixtures/lint");
/// 2026-11-24T00:00:00Z: "now" for the future-date rule.
const NOW: i64 = 1_795_478_400;

fn options() -> Options {
    let mut o = Options::default();
    o.lint = Some(LintOptions::at(NOW));
    o
}

fn lint(doc: &[u8]) -> Report {
    let mut parser = Parser::new(options());
    let parsed = parser.parse_bytes(doc, None, None).expect("parses");
    parsed.lint.expect("lint is on")
}

fn lint_file(name: &str) -> Report {
    let path = Path::new(DIR).join(name);
    lint(&std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

fn cases() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(Path::new(DIR).join("cases.tsv")).expect("cases.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let mut p = l.split('\t').map(str::to_owned);
            (p.next().unwrap(), p.next().unwrap(), p.next().unwrap())
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
fn every_rule_fixture_pair() {
    let mut failures = Vec::new();
    for (name, code, section) in cases() {
        let bad = lint_file(&format!("{name}.bad.xml"));
        if !bad.findings.iter().any(|f| f.code.name() == code && f.section == section) {
            failures.push(format!("{name}.bad.xml: no {code} [{section}]; got {:?}", codes(&bad)));
        }
        let good = lint_file(&format!("{name}.good.xml"));
        if good.findings.iter().any(|f| f.code.name() == code) {
            failures.push(format!("{name}.good.xml: {code} fired; got {:?}", codes(&good)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_code_has_a_fixture() {
    let cases = cases();
    let missing: Vec<&str> = messages::ALL
        .iter()
        .map(|c| c.name())
        .filter(|n| !cases.iter().any(|(_, code, _)| code == n))
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
fn lint_leaves_the_model_unchanged() {
    for entry in std::fs::read_dir(DIR).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "xml") {
            continue;
        }
        let doc = std::fs::read(&path).unwrap();
        let mut plain = Parser::new(Options::default());
        let a = plain.parse_bytes(&doc, None, None).unwrap();
        assert!(a.lint.is_none());
        let a = (a.feed.as_ref().map(|f| f.into_owned()), a.diagnostics.clone());
        let mut linting = Parser::new(options());
        let b = linting.parse_bytes(&doc, None, None).unwrap();
        let b = (b.feed.as_ref().map(|f| f.into_owned()), b.diagnostics.clone());
        assert_eq!(a, b, "{}", path.display());
    }
}

#[test]
fn other_formats_have_no_findings() {
    let atom = br#"<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>"#;
    assert_eq!(lint(atom), Report::default());
    let r = lint(b"<html><body>not a feed</body></html>");
    assert_eq!(r, Report::default());
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
