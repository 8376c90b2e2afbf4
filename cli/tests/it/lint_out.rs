//! `feedmill lint`'s text report and SARIF output, `--deny` by code, the `--summary` table:
//! the SARIF log is validated against the SARIF 2.1.0 JSON schema (`cli/tests/sarif/`).

use std::path::PathBuf;

use serde_json::Value;

use crate::cli::{feedmill, ROOT};

const GUID_MISSING: &str = "corpus/fixtures/lint/guid-missing.bad.xml";
const IMAGE_WIDTH: &str = "corpus/fixtures/lint/image-width.bad.xml";
const CLEAN: &str = "corpus/fixtures/lint/clean.xml";

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("feedmill-lint-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stdout(args: &[&str]) -> String {
    let out = feedmill(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn text_report_names_place_message_line_and_reference() {
    let text = stdout(&["lint", "--format", "text", GUID_MISSING, CLEAN]);
    assert_eq!(
        text,
        "corpus/fixtures/lint/guid-missing.bad.xml:12:1: warning MissingGuid: item should \
         contain a guid element\n    | <item>\n    | ^\n    = Profile 4.1.1.20.6 guid; \
         https://validator.w3.org/feed/docs/warning/MissingGuid.html\n"
    );
    // -o FILE.txt is a text report too.
    let dir = temp_dir("text");
    let out = dir.join("report.txt");
    stdout(&["lint", "-o", out.to_str().unwrap(), GUID_MISSING, CLEAN]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An Atom 1.0 finding's reference is its RFC 4287 section; the JSON line names the format.
#[test]
fn atom_findings_in_text_and_json() {
    let bad = "corpus/fixtures/lint-atom/entry-missing-author.bad.xml";
    let text = stdout(&["lint", "--format", "text", bad]);
    assert_eq!(
        text,
        "corpus/fixtures/lint-atom/entry-missing-author.bad.xml:13:1: error MissingElement: \
         Missing entry element: author\n    | <entry>\n    | ^\n    = RFC 4287 4.1.2 \
         atom:entry; https://validator.w3.org/feed/docs/error/MissingElement.html\n"
    );
    let line: Value = serde_json::from_str(stdout(&["lint", bad]).trim()).unwrap();
    assert_eq!(line["format"], "atom");
    assert_eq!(line["findings"][0]["code"], "MissingElement");
    assert_eq!(line["findings"][0]["parent"], "entry");
    assert_eq!(line["findings"][0]["element"], "author");
    let clean = stdout(&["lint", "corpus/fixtures/lint-atom/clean.xml"]);
    assert!(clean.trim_end().ends_with(r#""format":"atom","findings":[]}"#), "{clean}");
}

/// Control characters of the offending line are escaped and the caret still points at the
/// finding; a line of any length is cut to a bounded excerpt.
#[test]
fn text_report_escapes_controls_and_bounds_the_line() {
    let dir = temp_dir("controls");
    let feed = std::fs::read_to_string(format!("{ROOT}/{IMAGE_WIDTH}")).unwrap();
    let feed =
        feed.replace("<width>145</width>", &format!("\t{}<width>145</width>", "x".repeat(5000)));
    let path = dir.join("feed.xml");
    std::fs::write(&path, &feed).unwrap();
    let text = stdout(&["lint", "--format", "text", path.to_str().unwrap()]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].ends_with(": error InvalidWidth: width must be between 1 and 144"), "{text}");
    let (excerpt, caret) = (lines[1], lines[2]);
    assert!(excerpt.len() < 200, "{excerpt}");
    let at = caret.find('^').unwrap();
    assert!(excerpt[at..].starts_with("<width>145</width>"), "{text}");
    assert_eq!(text.lines().count(), 4);

    let feed = std::fs::read_to_string(format!("{ROOT}/{IMAGE_WIDTH}")).unwrap();
    let feed = feed.replace("<width>145</width>", "\t\u{1b}<width>145</width>");
    std::fs::write(&path, &feed).unwrap();
    let text = stdout(&["lint", "--format", "text", path.to_str().unwrap()]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[1].contains("\\t\\u{1b}<width>145"), "{text}");
    let at = lines[2].find('^').unwrap();
    assert!(lines[1][at..].starts_with("<width>145</width>"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn sarif_validator() -> jsonschema::Validator {
    let schema = std::fs::read_to_string(format!("{ROOT}/cli/tests/sarif/sarif-schema-2.1.0.json"))
        .expect("the vendored SARIF schema");
    // The schema's `run.language` pattern has a stray `]` (`…-[a-zA-Z]{2}]?$`) that Rust's
    // regex rejects when the schema is checked against its meta-schema; the log has no
    // `language`, so the pattern is read as the SARIF text writes it (§3.14.16).
    let schema = schema.replace(r"-[a-zA-Z]{2}]?$", r"-[a-zA-Z]{2}$");
    let schema: Value = serde_json::from_str(&schema).unwrap();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles")
}

/// Valid against the schema, and every artifact URI a URI reference (RFC 3986 §4.1: the
/// draft-04 schema names the `uri-reference` format, which draft-04 validators do not know).
fn assert_valid_sarif(log: &Value) {
    let validator = sarif_validator();
    let errors: Vec<String> = validator.iter_errors(log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    for r in log["runs"][0]["results"].as_array().unwrap() {
        let uri =
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap();
        let b = uri.as_bytes();
        let ok = b.iter().enumerate().all(|(i, &c)| {
            c.is_ascii_alphanumeric()
                || b"-._~!$&'()*+,;=:@/?#".contains(&c)
                || (c == b'%'
                    && b.len() > i + 2
                    && b[i + 1..i + 3].iter().all(u8::is_ascii_hexdigit))
        });
        let scheme_like = uri.split('/').next().is_some_and(|s| s.contains(':'));
        assert!(ok && !scheme_like, "not a relative URI reference: {uri}");
    }
}

/// SARIF of every lint fixture: valid against the schema, one result per finding of the
/// JSON lines, each naming its rule by id and index.
#[test]
fn sarif_is_valid_and_has_a_result_per_finding() {
    let dir = "corpus/fixtures/lint";
    let log: Value = serde_json::from_str(&stdout(&["lint", "--format", "sarif", dir])).unwrap();
    assert_valid_sarif(&log);
    let lines = stdout(&["lint", dir]);
    let findings: usize = lines
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["findings"].as_array().unwrap().len())
        .sum();
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    assert!(findings > 100);
    assert_eq!(results.len(), findings);
    for r in results {
        let i = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[i]["id"], r["ruleId"]);
        assert_eq!(rules[i]["defaultConfiguration"]["level"], r["level"]);
    }
    let width = results.iter().find(|r| r["ruleId"] == "InvalidWidth").unwrap();
    let loc = &width["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "corpus/fixtures/lint/image-width.bad.xml");
    assert_eq!(loc["region"]["startLine"], 11);
    assert_eq!(width["message"]["text"], "width must be between 1 and 144");
    assert_eq!(width["properties"]["section"], "4.1.1.9.6 width");
    assert_eq!(width["properties"]["parameters"]["value"], "145");

    // The validator does reject what the schema forbids.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!sarif_validator().is_valid(&broken));

    // Parallel output is the same document.
    let parallel = stdout(&["lint", "--format", "sarif", "-j", "3", dir]);
    assert_eq!(serde_json::from_str::<Value>(&parallel).unwrap(), log);

    // No findings: a valid log with no results.
    let clean: Value =
        serde_json::from_str(&stdout(&["lint", "--format", "sarif", CLEAN])).unwrap();
    assert_valid_sarif(&clean);
    assert_eq!(clean["runs"][0]["results"], serde_json::json!([]));
}

/// A record not linted is a tool execution notification of the SARIF run (`error` when it
/// could not be read, `note` when it is not a feed): the first 1000 of each level, then one
/// counting the others, whatever the batches the records come in; the results of the feeds
/// between them are written as they come.
#[test]
fn sarif_notes_the_records_not_linted() {
    let dir = temp_dir("not-linted");
    for i in 0..1003 {
        std::fs::write(dir.join(format!("page-{i:04}.txt")), "not a feed").unwrap();
    }
    // Feeds first, in the middle and last; a cut gzip file after all the pages.
    for name in ["a.xml", "page-0500.xml", "zz.xml"] {
        std::fs::copy(format!("{ROOT}/{GUID_MISSING}"), dir.join(name)).unwrap();
    }
    std::fs::write(dir.join("zz-cut.xml.gz"), b"\x1f\x8b\x08\x00cut").unwrap();
    let dir_arg = dir.to_str().unwrap();
    let text = stdout(&["lint", "--format", "sarif", "-j", "2", dir_arg]);
    let log: Value = serde_json::from_str(&text).unwrap();
    assert_valid_sarif(&log);
    let run = &log["runs"][0];
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    assert!(results.iter().all(|r| r["ruleId"] == "MissingGuid"));
    let uri = |v: &Value| {
        let uri = v["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str();
        uri.unwrap().rsplit('/').next().unwrap().to_owned()
    };
    let names: Vec<String> = results.iter().map(uri).collect();
    assert_eq!(names, ["a.xml", "page-0500.xml", "zz.xml"]);
    let invocation = &run["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], true);
    let notes = invocation["toolExecutionNotifications"].as_array().unwrap();
    assert_eq!(notes.len(), 1002, "{notes:?}");
    let first = &notes[0];
    assert_eq!(first["level"], "note");
    assert!(first["message"]["text"].as_str().unwrap().starts_with("not linted (not_a_feed): "));
    assert_eq!(uri(first), "page-0000.txt");
    // The unreadable record after the first 1000 pages has its own.
    let cut = &notes[1000];
    assert_eq!((cut["level"].as_str(), uri(cut)), (Some("error"), "zz-cut.xml.gz".to_owned()));
    assert!(cut["message"]["text"].as_str().unwrap().starts_with("not linted (error: "), "{cut}");
    assert_eq!(notes[1001]["level"], "note");
    assert_eq!(
        notes[1001]["message"]["text"],
        "3 more records not linted (not feeds): a notification is written for the first 1000 \
         of each level, within 16777216 bytes"
    );
    assert_eq!(stdout(&["lint", "--format", "sarif", "-j", "1", dir_arg]), text);

    let small = stdout(&["lint", "--format", "sarif", "--max-input-bytes", "64", CLEAN]);
    let small: Value = serde_json::from_str(&small).unwrap();
    assert_valid_sarif(&small);
    let note = &small["runs"][0]["invocations"][0]["toolExecutionNotifications"][0];
    assert_eq!(note["level"], "error");
    assert_eq!(
        note["message"]["text"],
        "not linted (error: too_large): document larger than 64 bytes"
    );
    assert_eq!(note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], CLEAN);
    let _ = std::fs::remove_dir_all(&dir);
}

/// SARIF of the Media RSS and JSON Feed fixtures: valid; each rule names its rule set and
/// reference, a JSON Feed rule's help is the JSON Feed page (the validator has no page for
/// it), a result's reference is its finding's rule set's.
#[test]
fn sarif_rules_and_results_name_their_rule_set() {
    let dirs = ["corpus/fixtures/lint-media", "corpus/fixtures/lint-jsonfeed"];
    let log: Value =
        serde_json::from_str(&stdout(&["lint", "--format", "sarif", dirs[0], dirs[1]])).unwrap();
    assert_valid_sarif(&log);
    let driver = &log["runs"][0]["tool"]["driver"];
    assert_eq!(
        driver["informationUri"],
        "https://github.com/feedmill/feedmill/blob/main/docs/lint.md"
    );
    let rules = driver["rules"].as_array().unwrap();
    let rule = |id: &str| rules.iter().find(|r| r["id"] == id).unwrap();
    let r = rule("MissingJsonMember");
    assert_eq!(r["helpUri"], "https://www.jsonfeed.org/version/1.1/");
    assert_eq!(r["properties"]["family"], "JSON Feed 1.1");
    let r = rule("InvalidMediaMedium");
    assert_eq!(r["helpUri"], "https://validator.w3.org/feed/docs/error/InvalidMediaMedium.html");
    assert_eq!(r["properties"]["reference"], "https://www.rssboard.org/media-rss");
    assert_eq!(
        rule("MissingSelf")["properties"]["reference"],
        "https://www.rfc-editor.org/rfc/rfc4287"
    );
    assert_eq!(rule("MissingGuid")["properties"]["family"], "RSS Best Practices Profile");
    let results = log["runs"][0]["results"].as_array().unwrap();
    let thumb = results
        .iter()
        .find(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                == "corpus/fixtures/lint-media/thumbnail-url.bad.xml"
        })
        .unwrap();
    assert_eq!(thumb["ruleId"], "MissingAttribute");
    assert_eq!(thumb["properties"]["reference"], "https://www.rssboard.org/media-rss");
    let text = stdout(&[
        "lint",
        "--format",
        "text",
        "corpus/fixtures/lint-jsonfeed/item-number-id.bad.json",
    ]);
    assert!(
        text.ends_with("    = JSON Feed 1.1 Items; https://www.jsonfeed.org/version/1.1/\n"),
        "{text}"
    );
}

/// A WARC record's source (`path@offset uri`) is the artifact URI, percent-encoded into a
/// valid URI reference; `-o FILE.sarif` writes SARIF.
#[test]
fn sarif_of_a_warc_record() {
    let dir = temp_dir("warc");
    let body = std::fs::read(format!("{ROOT}/{GUID_MISSING}")).unwrap();
    let mut http = b"HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\n\r\n".to_vec();
    http.extend_from_slice(&body);
    let mut warc = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://feeds.example/a b?x=1\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    warc.extend_from_slice(&http);
    warc.extend_from_slice(b"\r\n\r\n");
    let input = dir.join("crawl 1.warc");
    std::fs::write(&input, &warc).unwrap();
    let out = dir.join("lint.sarif");
    stdout(&["lint", "-o", out.to_str().unwrap(), input.to_str().unwrap()]);
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_valid_sarif(&log);
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{log}");
    let uri =
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap();
    assert!(uri.ends_with("/crawl%201.warc@0%20http%3A//feeds.example/a%20b%3Fx=1"), "{uri}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn deny_by_code_and_severity() {
    let code = |args: &[&str]| feedmill(args).status.code();
    assert_eq!(code(&["lint", "--deny", "MissingGuid", GUID_MISSING]), Some(3));
    assert_eq!(code(&["lint", "--deny", "InvalidWidth", GUID_MISSING]), Some(0));
    assert_eq!(code(&["lint", "--deny", "InvalidWidth,errors", GUID_MISSING]), Some(0));
    assert_eq!(code(&["lint", "--deny", "InvalidWidth,warnings", GUID_MISSING]), Some(3));
    assert_eq!(
        code(&["lint", "--deny", "InvalidWidth", "--deny", "MissingGuid", GUID_MISSING]),
        Some(3)
    );
    assert_eq!(code(&["lint", "--format", "sarif", "--deny", "errors", IMAGE_WIDTH]), Some(3));
    let unknown = feedmill(&["lint", "--deny", "NoSuchCode", GUID_MISSING]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("NoSuchCode"));
    // Text and SARIF write one file, not part files.
    let dir = temp_dir("deny");
    let out = format!("{}/", dir.join("parts").display());
    assert_eq!(code(&["lint", "--format", "text", "-o", &out, CLEAN]), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The summary counts findings and feeds per code over the run: the findings column adds up
/// to the findings of the JSON lines, and each code's feeds to the lines having it.
#[test]
fn summary_counts_findings_and_feeds_per_code() {
    let dir = "corpus/fixtures/lint";
    let out = feedmill(&["lint", "--format", "text", "--summary", dir]);
    let table = String::from_utf8(out.stderr).unwrap();
    assert!(
        table.contains("\ncode                                 severity findings   feeds\n"),
        "{table}"
    );
    let mut per_code = std::collections::BTreeMap::<String, (u64, u64)>::new();
    for l in stdout(&["lint", dir]).lines() {
        let v: Value = serde_json::from_str(l).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for f in v["findings"].as_array().unwrap() {
            let code = f["code"].as_str().unwrap().to_owned();
            per_code.entry(code.clone()).or_default().0 += 1;
            if seen.insert(code.clone()) {
                per_code.entry(code).or_default().1 += 1;
            }
        }
    }
    let rows: std::collections::BTreeMap<String, (u64, u64)> = table
        .lines()
        .skip(2)
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[0].to_owned(), (w[2].parse().unwrap(), w[3].parse().unwrap()))
        })
        .collect();
    assert_eq!(rows, per_code);
}
