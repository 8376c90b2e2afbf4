//! The spec's official test suite (tests-web `feed/parsing/*.dat`, vendored under
//! `corpus/conformance/tests-web/`), one named test per case.
//!
//! Harness format (NOTES.md §6): `#data` is an XML document with URL `https://base/`;
//! `#parsed` is the expected JSON of "process a feed document" (null for non-feeds), with
//! null/empty values dropped and HTML values in XML serialization; compared as JSON data.
//! Each case runs in the default mode (web recovery rules on) and with `spec_exact`
//! (`…::spec_exact`): 255 + 255 tests.

use std::path::Path;

use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{json, Map, Value};

use feedmill::{Entry, Feed, Image, Options, Parser, Person, Text};

struct Case {
    file: String,
    index: usize,
    data: String,
    parsed: String,
}

/// Splits an HTCT `.dat` file into its cases.
fn read_cases(path: &Path) -> Vec<Case> {
    let file = path.file_stem().unwrap().to_string_lossy().into_owned();
    let content = std::fs::read_to_string(path).expect("read .dat file");
    let lines: Vec<&str> = content.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let mut cases = Vec::new();
    let mut fields: Vec<(String, Vec<&str>)> = Vec::new();
    let mut prev_blank = true;
    let flush = |fields: &mut Vec<(String, Vec<&str>)>, cases: &mut Vec<Case>| {
        if fields.is_empty() {
            return;
        }
        let get = |name: &str| {
            fields.iter().find(|(n, _)| n == name).map(|(_, v)| {
                let mut v = v.clone();
                // The value excludes the final newline; blank separator lines belong to
                // the next case, so drop trailing empties.
                while v.last() == Some(&"") {
                    v.pop();
                }
                v.join("\n")
            })
        };
        if let (Some(data), Some(parsed)) = (get("data"), get("parsed")) {
            cases.push(Case { file: file.clone(), index: cases.len() + 1, data, parsed });
        }
        fields.clear();
    };
    for line in lines {
        if let Some(name) = line.strip_prefix('#') {
            if prev_blank && name == "data" {
                flush(&mut fields, &mut cases);
            }
            fields.push((name.to_owned(), Vec::new()));
        } else if let Some((_, v)) = fields.last_mut() {
            v.push(line);
        }
        prev_blank = line.is_empty();
    }
    flush(&mut fields, &mut cases);
    cases
}

fn text_json(t: &Option<Text<'_>>) -> Option<Value> {
    t.as_ref().map(|t| match t {
        Text::Plain(s) => json!(s),
        Text::Html(h) => json!(h.to_xml_string()),
    })
}

fn insert(map: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    match value {
        None | Some(Value::Null) => {}
        Some(Value::Array(a)) if a.is_empty() => {}
        Some(Value::Object(o)) if o.is_empty() => {}
        Some(v) => {
            map.insert(key.to_owned(), v);
        }
    }
}

fn str_json(s: Option<&str>) -> Option<Value> {
    s.map(|s| json!(s))
}

fn image_json(i: &Option<Image<'_>>) -> Option<Value> {
    let i = i.as_ref()?;
    let mut m = Map::new();
    insert(&mut m, "url", str_json(i.url));
    insert(&mut m, "width", i.width.map(|w| json!(w)));
    insert(&mut m, "height", i.height.map(|h| json!(h)));
    Some(Value::Object(m))
}

fn person_json(p: &Person<'_>) -> Value {
    let mut m = Map::new();
    insert(&mut m, "name", str_json(p.name));
    insert(&mut m, "email", str_json(p.email));
    insert(&mut m, "page_url", str_json(p.page_url));
    insert(&mut m, "logo", image_json(&p.icon));
    Value::Object(m)
}

fn entry_json(e: &Entry<'_>) -> Value {
    let mut m = Map::new();
    insert(&mut m, "title", text_json(&e.title));
    insert(&mut m, "subtitle", text_json(&e.subtitle));
    insert(&mut m, "summary", text_json(&e.summary));
    insert(&mut m, "content", text_json(&e.content));
    insert(&mut m, "page_url", str_json(e.page_url));
    insert(&mut m, "thumbnail", image_json(&e.thumbnail));
    insert(&mut m, "duration", e.duration.map(|d| json!(d)));
    insert(&mut m, "published", e.published.map(|d| json!(d.to_string())));
    insert(&mut m, "updated", e.updated.map(|d| json!(d.to_string())));
    insert(&mut m, "authors", Some(Value::Array(e.authors.iter().map(person_json).collect())));
    let cats: Map<String, Value> =
        e.categories.iter().map(|c| ((*c).to_owned(), json!(1))).collect();
    insert(&mut m, "categories", Some(Value::Object(cats)));
    let encs = e
        .enclosures
        .iter()
        .map(|x| {
            let mut em = Map::new();
            insert(&mut em, "url", str_json(x.url));
            insert(&mut em, "type", str_json(x.mime_type));
            insert(&mut em, "length", x.length.map(|l| json!(l)));
            Value::Object(em)
        })
        .collect();
    insert(&mut m, "enclosures", Some(Value::Array(encs)));
    Value::Object(m)
}

fn feed_json(f: &Feed<'_>) -> Value {
    let mut m = Map::new();
    insert(&mut m, "title", text_json(&f.title));
    insert(&mut m, "subtitle", text_json(&f.subtitle));
    insert(&mut m, "desc", text_json(&f.description));
    insert(&mut m, "page_url", str_json(f.page_url));
    insert(&mut m, "feed_url", str_json(f.feed_url));
    insert(&mut m, "prev_feed_url", str_json(f.prev_feed_url));
    insert(&mut m, "next_feed_url", str_json(f.next_feed_url));
    insert(&mut m, "icon", image_json(&f.icon));
    insert(&mut m, "logo", image_json(&f.logo));
    insert(&mut m, "updated", f.updated.map(|d| json!(d.to_string())));
    insert(&mut m, "authors", Some(Value::Array(f.authors.iter().map(person_json).collect())));
    insert(&mut m, "entries", Some(Value::Array(f.entries.iter().map(entry_json).collect())));
    Value::Object(m)
}

fn run_case(case: &Case, spec_exact: bool) -> Result<(), Failed> {
    let expected: Value = serde_json::from_str(&case.parsed)
        .map_err(|e| format!("bad #parsed JSON in test data: {e}\n{}", case.parsed))?;
    let mut options = Options::default();
    options.spec_exact = spec_exact;
    let mut parser = Parser::new(options);
    let parsed = parser.parse_str(&case.data, Some("https://base/")).map_err(|e| e.to_string())?;
    let actual = parsed.feed.as_ref().map_or(Value::Null, feed_json);
    if actual == expected {
        Ok(())
    } else {
        Err(format!(
            "\n#data\n{}\n#expected\n{}\n#actual\n{}\n",
            case.data,
            serde_json::to_string(&expected).unwrap(),
            serde_json::to_string(&actual).unwrap()
        )
        .into())
    }
}

fn main() {
    let args = Arguments::from_args();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/conformance/tests-web");
    let mut trials = Vec::new();
    let mut total = 0;
    // Every case runs twice: with the web recovery rules (the default) and with
    // `spec_exact`; both modes must pass the whole suite.
    for name in ["atom", "atom03", "nonfeed", "rss1", "rss2"] {
        for case in read_cases(&dir.join(format!("{name}.dat"))) {
            total += 1;
            let case = std::sync::Arc::new(case);
            let test_name = format!("{}::case_{:03}", case.file, case.index);
            let exact = case.clone();
            trials.push(Trial::test(test_name.clone(), move || run_case(&case, false)));
            trials.push(Trial::test(format!("{test_name}::spec_exact"), move || {
                run_case(&exact, true)
            }));
        }
    }
    assert_eq!(total, 255, "the official suite has 255 cases");
    libtest_mimic::run(&args, trials).exit();
}
