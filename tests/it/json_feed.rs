//! JSON Feed 1.0 / 1.1: the mapping into the model (fixtures under
//! `corpus/fixtures/json-feed/`, shaped after the specification's examples), sniffing by
//! content and by MIME type, and hostile documents: malformed JSON, wrong member types, huge
//! arrays, deep nesting — a diagnostic or `not_a_feed`, never a panic, memory bounded by what
//! is kept.

use feedmill::input::Response;
use feedmill::{DiagnosticKind, Format, Options, Parser, Text};

fn fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/fixtures/json-feed")
        .join(name);
    std::fs::read(path).unwrap()
}

fn plain<'a>(t: &Option<Text<'a>>) -> Option<&'a str> {
    t.as_ref().and_then(Text::as_plain)
}

#[test]
fn json_feed_1_1_maps_into_the_model() {
    let body = fixture("blog-1.1.json");
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_bytes(&body, Some("https://notebook.example.org/feed.json")).unwrap();
    assert_eq!(parsed.format, Some(Format::Json));
    assert_eq!(parsed.diagnostics, []);
    let feed = parsed.feed.as_ref().unwrap();
    assert_eq!(plain(&feed.title), Some("Brent’s Notebook"));
    assert_eq!(plain(&feed.description), Some("Notes on writing software"));
    assert_eq!(feed.page_url, Some("https://notebook.example.org/"));
    assert_eq!(feed.feed_url, Some("https://notebook.example.org/feed.json"));
    assert_eq!(feed.logo.unwrap().url, Some("https://notebook.example.org/images/icon-512.png"));
    assert_eq!(feed.icon.unwrap().url, Some("https://notebook.example.org/favicon.ico"));
    assert_eq!(feed.language, Some("en-US"));
    assert_eq!(feed.version, Some("1.1"), "the end of the version URL");
    let author = feed.authors[0];
    assert_eq!(author.name, Some("Brent Example"));
    assert_eq!(author.page_url, Some("https://brent.example.org/"));
    assert_eq!(author.icon.unwrap().url, Some("https://notebook.example.org/images/brent.png"));

    assert_eq!(feed.entries.len(), 2);
    let e = &feed.entries[0];
    assert_eq!(e.id, Some("https://notebook.example.org/2024/01/15/json-feed"));
    assert_eq!(e.page_url, Some("https://notebook.example.org/2024/01/15/json-feed"));
    assert_eq!(plain(&e.title), Some("Why \"JSON Feed\"?"));
    assert_eq!(plain(&e.summary), Some("A format for the rest of us"));
    let Some(Text::Html(content)) = &e.content else { panic!("content_html is HTML") };
    assert!(content
        .to_html_string()
        .starts_with("<p>We — Manton and I — think it’s <em>simpler</em>.</p>"));
    assert_eq!(e.thumbnail.unwrap().url, Some("https://notebook.example.org/images/post.png"));
    assert_eq!(e.published.unwrap().to_string(), "2024-01-15T15:30:00Z");
    assert_eq!(e.updated.unwrap().to_string(), "2024-01-16T08:00:00.25Z");
    assert_eq!(e.categories, ["json", "feeds"]);
    assert!(e.authors.is_empty());
    assert_eq!(feed.computed_authors(e)[0].name, Some("Brent Example"));

    let e = &feed.entries[1];
    assert_eq!(e.id, Some("2"), "a numeric id is coerced to its text");
    assert_eq!(plain(&e.content), Some("A short note, no title."));
    assert_eq!(e.published, None);
    let lenient = e.published_lenient.unwrap();
    assert_eq!(
        (lenient.timestamp.to_string(), lenient.form.as_str()),
        ("2024-01-17T09:15:00Z".into(), "us-month-name")
    );
    assert_eq!(e.date().unwrap().to_string(), "2024-01-17T09:15:00Z");
    assert_eq!(e.authors[0].name, Some("Guest Author"));
}

#[test]
fn json_feed_1_0_author_and_attachments() {
    let body = fixture("podcast-1.0.json");
    let mut parser = Parser::new(Options::default());
    let parsed =
        parser.parse_bytes(&body, Some("https://timetable.example.com/feed.json")).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    assert_eq!(feed.authors[0].name, Some("Manton Example"));
    assert_eq!(feed.next_feed_url, Some("https://timetable.example.com/feed.json?page=2"));
    let e = &feed.entries[0];
    assert_eq!(e.page_url, Some("https://timetable.example.com/episodes/42"));
    assert_eq!(e.enclosures.len(), 2);
    assert_eq!(e.enclosures[0].url, Some("https://cdn.example.com/42.m4a"));
    assert_eq!(e.enclosures[0].mime_type, Some("audio/x-m4a"));
    assert_eq!(e.enclosures[0].length, Some(89970236));
    assert_eq!(e.enclosures[0].duration, Some(6629));
    assert_eq!(e.enclosures[1].length, None);
    assert_eq!(parsed.diagnostics.len(), 1);
    assert_eq!(parsed.diagnostics[0].kind, DiagnosticKind::InvalidJson);
    assert!(parsed.diagnostics[0].message.contains("size_in_bytes"));
}

#[test]
fn attachment_title_and_duration_are_kept() {
    let doc = r#"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "1",
        "attachments": [{"url": "https://x.example/a.mp3", "title": "Chapter one",
        "duration_in_seconds": 90.7}, {"url": "https://x.example/b.mp3",
        "duration_in_seconds": "long"}]}]}"#;
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(doc, None).unwrap();
    let e = &parsed.feed.as_ref().unwrap().entries[0];
    assert_eq!((e.enclosures[0].title, e.enclosures[0].duration), (Some("Chapter one"), Some(90)));
    assert_eq!((e.enclosures[1].title, e.enclosures[1].duration), (None, None));
    assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
    assert!(parsed.diagnostics[0].message.contains("duration_in_seconds"));
}

#[test]
fn members_of_the_wrong_type_are_ignored_with_a_diagnostic() {
    let body = fixture("wrong-types.json");
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_bytes(&body, None).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    assert_eq!(feed.title, None);
    assert_eq!(feed.page_url, None);
    assert!(feed.authors.is_empty());
    assert_eq!(feed.entries.len(), 1, "the two non-object items are skipped");
    assert_eq!(plain(&feed.entries[0].title), Some("Kept"));
    let kinds: Vec<_> = parsed.diagnostics.iter().map(|d| d.kind).collect();
    assert_eq!(kinds, [DiagnosticKind::InvalidJson; 8]);
    for d in &parsed.diagnostics {
        assert!(d.offset < body.len());
    }
}

#[test]
fn malformed_or_foreign_json_is_not_a_feed() {
    let mut parser = Parser::new(Options::default());
    for (name, message) in [
        ("truncated.json", "the document is not JSON: EOF while parsing"),
        ("not-json-feed.json", "is not a JSON Feed version"),
    ] {
        let body = fixture(name);
        let parsed = parser.parse_bytes(&body, None).unwrap();
        assert!(parsed.feed.is_none(), "{name}");
        assert_eq!(parsed.format, None);
        assert_eq!(parsed.diagnostics[0].kind, DiagnosticKind::NotAFeed);
        assert!(
            parsed.diagnostics[0].message.contains(message),
            "{name}: {:?}",
            parsed.diagnostics
        );
    }
    for doc in ["{}", "{\"items\": []}", "{\"version\": 1}", "{ \"version\": \"x\" } trailing"] {
        let parsed = parser.parse_str(doc, None).unwrap();
        assert!(parsed.feed.is_none(), "{doc}");
        assert_eq!(parsed.diagnostics.last().unwrap().kind, DiagnosticKind::NotAFeed, "{doc}");
    }
}

#[test]
fn a_json_mime_type_is_read_as_json_feed() {
    let body = fixture("podcast-1.0.json");
    let mut parser = Parser::new(Options::default());
    for ct in ["application/feed+json", "application/json; charset=utf-8"] {
        let res = Response {
            status: 200,
            content_type: Some(ct),
            url: Some("https://timetable.example.com/feed.json"),
            body: &body,
        };
        let parsed = parser.parse_response(&res).unwrap();
        assert_eq!(parsed.format, Some(Format::Json), "{ct}");
        assert_eq!(parsed.feed.unwrap().entries.len(), 1);
    }
    let res = Response { status: 200, content_type: Some("image/png"), url: None, body: &body };
    assert!(parser.parse_response(&res).unwrap().feed.is_none());
}

#[test]
fn huge_arrays_are_cut_at_max_entries_and_skipped_without_being_built() {
    let mut doc = String::from(r#"{"version":"https://jsonfeed.org/version/1.1","items":["#);
    for i in 0..50_000 {
        if i > 0 {
            doc.push(',');
        }
        doc += &format!(r#"{{"id":"{i}","tags":["a","b"],"_ext":[1,2,3,[4,[5]]]}}"#);
    }
    doc += r#"],"_big":["#;
    doc += &"0,".repeat(200_000);
    doc += "0]}";
    let mut options = Options::default();
    options.limits.max_entries = 1000;
    let mut parser = Parser::new(options);
    let parsed = parser.parse_str(&doc, None).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    assert_eq!(feed.entries.len(), 1000);
    assert_eq!(feed.entries[999].id, Some("999"));
    let limits: Vec<_> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.kind == DiagnosticKind::LimitReached)
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        limits.iter().any(|m| m.contains("49000 members past the limit of 1000")),
        "{limits:?}"
    );
    // `_big` (200,001 numbers) is kept as rows until the capture budget is spent, once.
    assert_eq!(feed.extensions.len(), 50_000);
    assert_eq!(limits.iter().filter(|m| m.contains("max_extension_elements")).count(), 1);
    assert!(feed.entries.iter().all(|e| e.extensions.is_empty()), "nothing left for the items");
}

/// A JSON Feed 1.0 `author` is a list of one, capped by `max_entries` as the 1.1 `authors`
/// list is: at 0 it is skipped with the list's diagnostic.
#[test]
fn a_json_feed_1_0_author_is_capped_as_the_authors_list() {
    let doc = r#"{"version":"https://jsonfeed.org/version/1","author":{"name":"E"}}"#;
    for (max, authors) in [(0, 0), (1, 1)] {
        let mut options = Options::default();
        options.limits.max_entries = max;
        let mut parser = Parser::new(options);
        let parsed = parser.parse_str(doc, None).unwrap();
        assert_eq!(parsed.feed.as_ref().unwrap().authors.len(), authors, "max_entries {max}");
        let limits = parsed.diagnostics.iter().filter(|d| d.kind == DiagnosticKind::LimitReached);
        assert_eq!(limits.count(), 1 - authors, "max_entries {max}");
    }
}

/// Every member no table reads is kept as extension rows: scalars as text, objects as rows
/// with child rows, arrays as one row per element named by the array's key; nesting past
/// `max_extension_depth` is cut with a diagnostic; `skip_extensions` keeps none.
#[test]
fn members_no_table_reads_are_kept_as_extensions() {
    let doc = r#"{"version": "https://jsonfeed.org/version/1.1", "title": "T",
        "hubs": [{"type": "WebSub", "url": "https://hub.example/"}],
        "expired": false, "user_comment": "  Subscribe!  ", "title": "second title",
        "_podcast": {"explicit": null, "episodes": [1, 2.5], "owner": {"name": "Joé"}},
        "items": [{"id": "1", "language": "de", "external_url": "https://elsewhere.example/",
                   "_deep": [[[[1]]]]}]}"#;
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(doc, None).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    let rows: Vec<_> = feed
        .extensions
        .iter()
        .map(|x| (x.path, x.parent, x.namespace, x.name, x.text, x.attributes.len()))
        .collect();
    assert_eq!(
        rows,
        [
            ("hubs", None, None, "hubs", None, 0),
            ("hubs/type", Some(0), None, "type", Some("WebSub"), 0),
            ("hubs/url", Some(0), None, "url", Some("https://hub.example/"), 0),
            ("expired", None, None, "expired", Some("false"), 0),
            ("user_comment", None, None, "user_comment", Some("Subscribe!"), 0),
            ("title", None, None, "title", Some("second title"), 0),
            ("_podcast", None, None, "_podcast", None, 0),
            ("_podcast/explicit", Some(6), None, "explicit", None, 0),
            ("_podcast/episodes", Some(6), None, "episodes", Some("1"), 0),
            ("_podcast/episodes", Some(6), None, "episodes", Some("2.5"), 0),
            ("_podcast/owner", Some(6), None, "owner", None, 0),
            ("_podcast/owner/name", Some(10), None, "name", Some("Joé"), 0),
        ]
    );
    assert_eq!(plain(&feed.title), Some("T"), "the first `title` is the title");
    let e = &feed.entries[0];
    let rows: Vec<_> = e.extensions.iter().map(|x| (x.path, x.text)).collect();
    assert_eq!(
        rows,
        [
            ("language", Some("de")),
            ("external_url", Some("https://elsewhere.example/")),
            ("_deep", Some("1")),
        ]
    );
    let messages: Vec<_> = parsed.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages, ["`title` is repeated; its first value is used"]);

    let mut options = Options::default();
    options.limits.max_extension_depth = 2;
    let mut parser = Parser::new(options);
    let parsed = parser.parse_str(doc, None).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    assert!(feed.extensions.iter().all(|x| x.path != "_podcast/owner/name"));
    assert!(feed.extensions.iter().any(|x| x.path == "_podcast/owner"));
    assert!(feed.entries[0].extensions.iter().all(|x| x.name != "_deep"));
    let deep: Vec<_> =
        parsed.diagnostics.iter().filter(|d| d.message.contains("max_extension_depth")).collect();
    assert_eq!(deep.len(), 2, "{:?}", parsed.diagnostics);

    let mut options = Options::default();
    options.skip_extensions = true;
    let mut parser = Parser::new(options);
    let parsed = parser.parse_str(doc, None).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    assert!(feed.extensions.is_empty() && feed.entries[0].extensions.is_empty());
}

#[test]
fn deep_nesting_and_odd_input_never_panic() {
    let mut parser = Parser::new(Options::default());
    // Skipped and raw members are scanned without recursion: depth costs no stack.
    let deep = format!(
        r#"{{"version":"https://jsonfeed.org/version/1.1","_x":{open}1{close},"title":{open}2{close}}}"#,
        open = "[".repeat(100_000),
        close = "]".repeat(100_000)
    );
    let parsed = parser.parse_str(&deep, None).unwrap();
    assert_eq!(parsed.feed.unwrap().title, None);
    assert_eq!(parsed.diagnostics[0].kind, DiagnosticKind::InvalidJson);
    for doc in [
        "{",
        "{\"version\":",
        "{\"version\":\"https://jsonfeed.org/version/1\",\"items\":[{\"id\":1e999}]}",
        "{\"version\":\"https://jsonfeed.org/version/1\",\"title\":\"\\ud800\"}",
        "{\"version\":\"https://jsonfeed.org/version/1\",\"title\":\"\\u00e9t\\u00e9\",\"title\":\"second\"}",
        "\u{FEFF}{\"version\":\"https://jsonfeed.org/version/1\"}",
    ] {
        let _ = parser.parse_str(doc, None).unwrap();
    }
    let parsed = parser
        .parse_str("{\"version\":\"https://jsonfeed.org/version/1\",\"title\":\"\\u00e9t\\u00e9\",\"title\":\"second\"}", None)
        .unwrap();
    assert_eq!(
        plain(&parsed.feed.unwrap().title),
        Some("été"),
        "escapes decoded; the first member wins"
    );
}

/// Each entry's `(id, title)`, when a feed.
type Entries = Option<Vec<(Option<String>, Option<String>)>>;

fn parse_json(doc: &str, options: Options) -> (Entries, Vec<(DiagnosticKind, String)>) {
    let mut parser = Parser::new(options);
    let parsed = parser.parse_bytes(doc.as_bytes(), None).unwrap();
    let entries = parsed.feed.as_ref().map(|f| {
        f.entries
            .iter()
            .map(|e| (e.id.map(str::to_owned), plain(&e.title).map(str::to_owned)))
            .collect()
    });
    let diags = parsed.diagnostics.iter().map(|d| (d.kind, d.message.clone())).collect();
    (entries, diags)
}

const V: &str = "https://jsonfeed.org/version/1.1";

/// A `\u` escape of a lone surrogate is valid JSON syntax but no character: it is read as
/// U+FFFD (the string holding it was dropped whole, and a key holding it made the document
/// not a feed), with an `invalid_character` diagnostic at the escape. Pairs are decoded; other
/// escapes keep their meaning.
#[test]
fn a_lone_surrogate_escape_becomes_u_fffd_and_the_string_is_kept() {
    for (title, want, lone) in [
        (r"a\ud800b", "a\u{FFFD}b", &["\\ud800"][..]),
        (r"\udc00", "\u{FFFD}", &["\\udc00"]),
        (r"x\uD800", "x\u{FFFD}", &["\\uD800"]),
        (r"\ud800\ud800\udc00", "\u{FFFD}\u{10000}", &["\\ud800"]),
        (r#"\ud83d\ude00 \"q\" \\ \/ \n\ud800\t"#, "😀 \"q\" \\ / \n\u{FFFD}\t", &["\\ud800"]),
        (r"\\ud800", "\\ud800", &[]),
        (r"\udbff\u0041\udfff", "\u{FFFD}A\u{FFFD}", &["\\udbff", "\\udfff"]),
    ] {
        let doc = format!(r#"{{"version":"{V}","items":[{{"id":"1","title":"{title}"}}]}}"#);
        let (entries, diags) = parse_json(&doc, Options::default());
        assert_eq!(entries.unwrap()[0].1.as_deref(), Some(want), "{title}");
        let want: Vec<_> = lone
            .iter()
            .map(|e| {
                let msg = format!("the escape {e} is a lone surrogate; read as U+FFFD");
                (DiagnosticKind::InvalidCharacter, msg)
            })
            .collect();
        assert_eq!(diags, want, "{title}");
    }
    // In a key: the member is an unknown one, the document still a feed.
    let doc = format!(r#"{{"version":"{V}","x\ud800":1,"items":[{{"id":"1","t\udc00":"t"}}]}}"#);
    let (entries, diags) = parse_json(&doc, Options::default());
    assert_eq!(entries.expect("a feed"), [(Some("1".to_owned()), None)]);
    assert_eq!(diags.len(), 2, "{diags:?}");
}

/// An item `id` written as a number is kept as written, also when it does not fit a double.
#[test]
fn a_numeric_id_is_kept_as_written_whatever_its_size() {
    for id in ["123456789012345678901234567890", "1e400", "-0.5", "42", &"9".repeat(500)] {
        let doc = format!(r#"{{"version":"{V}","items":[{{"id":{id},"title":"t"}}]}}"#);
        let (entries, diags) = parse_json(&doc, Options::default());
        assert_eq!(entries.unwrap()[0].0.as_deref(), Some(id));
        assert_eq!(diags, []);
    }
}

/// The text limit cuts values kept, not the `version` that recognizes the format: with
/// `max_text_bytes` of 8 the document is still a JSON Feed (it was `not_a_feed`), and the
/// kept values are cut as before.
#[test]
fn a_small_text_limit_does_not_cut_the_version() {
    let mut options = Options::default();
    options.limits.max_text_bytes = 8;
    let doc = format!(r#"{{"version":"{V}","items":[{{"id":"1","title":"a long title"}}]}}"#);
    let (entries, diags) = parse_json(&doc, options);
    assert_eq!(entries.expect("a feed")[0].1.as_deref(), Some("a long t"));
    assert!(diags.iter().all(|(k, _)| *k == DiagnosticKind::LimitReached), "{diags:?}");
    assert!(diags.iter().all(|(_, m)| !m.contains("version")), "{diags:?}");
}

/// Diagnostics past `max_diagnostics` are counted with one `limit_reached` marker, as in XML
/// documents (they vanished without one).
#[test]
fn diagnostics_past_the_cap_leave_one_limit_reached_marker() {
    let items: Vec<String> = (0..50).map(|i| format!(r#"{{"id":"{i}","title":7}}"#)).collect();
    let doc = format!(r#"{{"version":"{V}","items":[{}]}}"#, items.join(","));
    for max in [0, 1, 10] {
        let mut options = Options::default();
        options.limits.max_diagnostics = max;
        let (entries, diags) = parse_json(&doc, options);
        assert_eq!(entries.unwrap().len(), 50);
        assert_eq!(diags.len(), max + 1, "{max}");
        assert!(diags[..max].iter().all(|(k, _)| *k == DiagnosticKind::InvalidJson));
        let marker = (
            DiagnosticKind::LimitReached,
            "max_diagnostics reached: further diagnostics are not recorded".to_owned(),
        );
        assert_eq!(diags[max], marker);
    }
    // The same rule as XML: a document over the cap ends with the same marker.
    let xml = format!(
        "<rss version=\"2.0\"><channel><title>t</title>{}</channel></rss>",
        "<ttl>x</ttl>".repeat(20)
    );
    let mut options = Options::default();
    options.limits.max_diagnostics = 10;
    let (_, diags) = parse_json(&xml, options);
    assert_eq!(diags.len(), 11);
    assert_eq!(diags[10].0, DiagnosticKind::LimitReached);
}

/// A member the mapping reads given twice (RFC 8259: names SHOULD be unique): the first value
/// is read, each later one has an `invalid_json` diagnostic at its value, and is an
/// `extensions` row where the object keeps other members (the feed and its items).
#[test]
fn repeated_members_keep_the_first_with_a_diagnostic() {
    let doc = r#"{"version":"https://jsonfeed.org/version/1.1","title":"A","title":"B",
        "items":[{"id":"1","url":"http://x/1","url":"http://x/2","attachments":[
        {"url":"http://x/a.mp3","url":"http://x/b.mp3","mime_type":"audio/mpeg"}]}]}"#;
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(doc, None).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    assert_eq!(plain(&feed.title), Some("A"));
    let e = &feed.entries[0];
    assert_eq!(e.page_url, Some("http://x/1"));
    assert_eq!(e.enclosures[0].url, Some("http://x/a.mp3"));
    let got: Vec<_> = parsed
        .diagnostics
        .iter()
        .map(|d| (d.kind, d.message.as_str(), &doc[d.offset..d.offset + 3]))
        .collect();
    let kind = DiagnosticKind::InvalidJson;
    assert_eq!(
        got,
        [
            (kind, "`title` is repeated; its first value is used", "\"B\""),
            (kind, "`items[].url` is repeated; its first value is used", "\"ht"),
            (kind, "`attachments[].url` is repeated; its first value is used", "\"ht"),
        ]
    );
    assert_eq!(&doc[parsed.diagnostics[1].offset..][..11], "\"http://x/2");
    assert_eq!(&doc[parsed.diagnostics[2].offset..][..11], "\"http://x/b");
    let texts = |ext: &[feedmill::model::ext::Extension<'_>]| {
        ext.iter().map(|x| format!("{} {:?}", x.name, x.text)).collect::<Vec<_>>()
    };
    assert_eq!(texts(&feed.extensions), ["title Some(\"B\")"]);
    assert_eq!(texts(&e.extensions), ["url Some(\"http://x/2\")"]);
}
