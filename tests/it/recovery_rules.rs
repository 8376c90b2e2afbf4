//! Web recovery rules (`feedmill::format::recover`): one real-world-shaped fixture per rule in
//! `corpus/fixtures/rules/`, read in the default mode (rules on) and with `spec_exact`; the
//! legacy-encoding matrix; and the whole real corpus, where the two modes may differ only
//! where the spec-exact value is null or garbage.

use std::path::Path;

use feedmill::{Diagnostic, DiagnosticKind, Entry, Feed, Options, Parser, Person, Text};

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/fixtures/rules").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn options(spec_exact: bool) -> Options {
    let mut o = Options::default();
    o.spec_exact = spec_exact;
    o
}

/// What the tests look at, owned.
#[derive(Debug, Default, PartialEq)]
struct Out {
    is_feed: bool,
    encoding: String,
    title: Option<String>,
    description: Option<String>,
    updated: Option<String>,
    authors: Vec<(Option<String>, Option<String>)>,
    entries: Vec<E>,
    diagnostics: Vec<Diagnostic>,
}

#[derive(Debug, Default, PartialEq)]
struct E {
    title: Option<String>,
    summary: Option<String>,
    content: Option<String>,
    page_url: Option<String>,
    updated: Option<String>,
    published: Option<String>,
    authors: Vec<(Option<String>, Option<String>)>,
    categories: Vec<String>,
    /// `(url, type, length, source)`.
    enclosures: Vec<(String, Option<String>, Option<u64>, String)>,
}

fn text(t: &Option<Text<'_>>) -> Option<String> {
    t.as_ref().map(|t| match t {
        Text::Plain(s) => s.to_string(),
        Text::Html(h) => format!("html:{}", h.to_html_string()),
    })
}

fn people(list: &[Person<'_>]) -> Vec<(Option<String>, Option<String>)> {
    list.iter().map(|p| (p.name.map(str::to_owned), p.email.map(str::to_owned))).collect()
}

fn entry(e: &Entry<'_>) -> E {
    E {
        title: text(&e.title),
        summary: text(&e.summary),
        content: text(&e.content),
        page_url: e.page_url.map(str::to_owned),
        updated: e.updated.map(|t| t.to_string()),
        published: e.published.map(|t| t.to_string()),
        authors: people(&e.authors),
        categories: e.categories.iter().map(|c| c.to_string()).collect(),
        enclosures: e
            .enclosures
            .iter()
            .map(|x| {
                let url = x.url.unwrap_or_default().to_owned();
                (url, x.mime_type.map(str::to_owned), x.length, x.source.unwrap_or("").to_owned())
            })
            .collect(),
    }
}

fn out(feed: Option<&Feed<'_>>, diagnostics: &[Diagnostic], encoding: String) -> Out {
    let Some(f) = feed else {
        return Out { encoding, diagnostics: diagnostics.to_vec(), ..Out::default() };
    };
    Out {
        is_feed: true,
        encoding,
        title: text(&f.title),
        description: text(&f.description),
        updated: f.updated.map(|t| t.to_string()),
        authors: people(&f.authors),
        entries: f.entries.iter().map(entry).collect(),
        diagnostics: diagnostics.to_vec(),
    }
}

fn parse(bytes: &[u8], spec_exact: bool) -> Out {
    let mut parser = Parser::new(options(spec_exact));
    let p = parser.parse_bytes(bytes, Some("https://example.org/feed")).unwrap();
    let enc = p.encoding.map_or(String::new(), |e| e.name().to_owned());
    out(p.feed.as_ref(), &p.diagnostics, enc)
}

/// Both modes of a fixture.
fn both(name: &str) -> (Out, Out) {
    let bytes = fixture(name);
    (parse(&bytes, false), parse(&bytes, true))
}

/// The `recovered` diagnostics' messages.
fn recovered(o: &Out) -> Vec<&str> {
    o.diagnostics
        .iter()
        .filter(|d| d.kind == DiagnosticKind::Recovered)
        .map(|d| d.message.as_str())
        .collect()
}

fn no_recovery_in(o: &Out) {
    assert!(
        o.diagnostics.iter().all(|d| !matches!(
            d.kind,
            DiagnosticKind::Recovered | DiagnosticKind::EncodingGuessed
        )),
        "spec_exact records no recovery: {:?}",
        o.diagnostics
    );
}

fn s(v: &str) -> Option<String> {
    Some(v.to_owned())
}

#[test]
fn userland_namespaces_are_rss2() {
    let (on, exact) = both("userland.xml");
    assert!(!exact.is_feed, "the spec: a root rss in another namespace is not a feed");
    no_recovery_in(&exact);
    assert!(on.is_feed);
    assert_eq!(on.title, s("Scripting News"));
    assert_eq!(on.updated, s("2002-09-30T11:00:00Z"));
    assert_eq!(on.entries.len(), 1);
    assert_eq!(on.entries[0].title, s("Really early morning no-coffee notes"));
    assert_eq!(
        recovered(&on),
        [
            "userland_namespace: <rss> in UserLand's RSS 2.0 namespace read as RSS 2.0",
            "date_published: <pubDate> read as published"
        ]
    );
    let (on, exact) = both("userland-prefixed.xml");
    assert!(!exact.is_feed);
    assert_eq!(on.title, s("Prefixed UserLand"));
    assert_eq!(on.entries[0].page_url, s("http://example.org/1"));
}

#[test]
fn dates_fill_only_null_spec_dates() {
    let (on, exact) = both("dates.xml");
    no_recovery_in(&exact);
    assert_eq!(exact.updated, None);
    assert_eq!(on.updated, s("2024-01-16T08:30:00Z"));
    let dates = |o: &Out| -> Vec<(Option<String>, Option<String>)> {
        o.entries.iter().map(|e| (e.updated.clone(), e.published.clone())).collect()
    };
    assert_eq!(
        dates(&exact),
        [(None, None), (s("2024-01-16T08:00:00Z"), None), (None, None), (None, None)]
    );
    assert_eq!(
        dates(&on),
        [
            // `date_published`: the item's date is its published date too.
            (s("2024-01-15T10:00:00Z"), s("2024-01-15T10:00:00Z")),
            // pubDate (the spec's) wins over an earlier dc:date, for both.
            (s("2024-01-16T08:00:00Z"), s("2024-01-16T08:00:00Z")),
            (s("2024-01-02T03:04:05Z"), s("2023-12-24T00:00:00Z")),
            // W3C-DTF fails; the lenient parser reads it.
            (s("2024-01-15T01:00:00Z"), s("2024-01-15T01:00:00Z")),
        ]
    );
    let r = recovered(&on);
    assert_eq!(r.len(), 8, "{r:?}");
    assert!(r.contains(&"date_published: <pubDate> read as published"), "{r:?}");
    assert_eq!(r.iter().filter(|m| m.starts_with("date_published: <dc:date>")).count(), 2);
    assert!(r.contains(&"date: <dcterms:issued> read as published"), "{r:?}");
    assert!(r.contains(&"date: <dc:date> read as updated"), "{r:?}");

    let (on, exact) = both("atom03-dates.xml");
    no_recovery_in(&exact);
    assert_eq!(exact.entries[0].published, None);
    assert_eq!(on.entries[0].published, s("2004-05-02T01:30:02Z"));
    // `created` is the spec's published: `issued` does not replace it.
    assert_eq!(on.entries[1].published, s("2004-04-30T00:00:00Z"));
    assert_eq!(recovered(&on), ["date: <issued> read as published"]);
}

#[test]
fn atom03_text_constructs() {
    let (on, exact) = both("atom03-text.xml");
    no_recovery_in(&exact);
    // XHTML content: the spec reads the (empty) child text; the rule keeps the div's content.
    assert_eq!(exact.entries[0].content, None);
    assert_eq!(on.entries[0].content, s("html:<p>Bake at <em>180</em> degrees.</p>"));
    // Base64: the spec's value is the raw base64; the rule decodes it, then text/html.
    assert!(exact.entries[1].content.as_deref().unwrap().contains("PHA+VGVh"));
    assert_eq!(on.entries[1].content, s("html:<p>Tea &amp; <b>biscuits</b></p>"));
    // Escaped: unchanged.
    assert_eq!(on.entries[2].content, s("html:<p>Escaped <i>as today</i></p>"));
    assert_eq!(on.entries[2].content, exact.entries[2].content);
    // Markup in an Atom 0.3 title (mode xml): the spec keeps only the text between tags.
    assert_eq!(exact.entries[3].title, s("Markup  a title"));
    assert_eq!(on.entries[3].title, s("html:Markup <b>in</b> a title"));
    // `type="html"` (Atom 1.0's keyword): the spec reads the escaped markup as text.
    assert_eq!(exact.entries[4].content, s("<p>Typed <i>html</i></p>"));
    assert_eq!(exact.entries[4].summary, s("<b>Short</b>"));
    assert_eq!(on.entries[4].content, s("html:<p>Typed <i>html</i></p>"));
    assert_eq!(on.entries[4].summary, s("html:<b>Short</b>"));
    assert_eq!(
        recovered(&on),
        [
            "atom03_xhtml: <content> read as content",
            "atom03_base64: <content> read as the element's value",
            "markup_in_text: <title> read as the element's value",
            "atom03_html: <content> read as the element's value",
            "atom03_html: <summary> read as the element's value",
        ]
    );
}

#[test]
fn markup_where_text_was_expected() {
    let (on, exact) = both("markup.xml");
    no_recovery_in(&exact);
    assert_eq!(exact.entries[0].summary, s("Read  now."));
    assert_eq!(
        on.entries[0].summary,
        s("html:Read <a href=\"https://unescaped.example/1\">the post</a> now.")
    );
    assert_eq!(exact.entries[1].summary, None);
    assert_eq!(on.entries[1].summary, s("html:<p>A paragraph.</p>"));
    assert_eq!(exact.entries[2].content, None);
    assert_eq!(on.entries[2].content, s("html:<p>The <strong>full</strong> text.</p>"));
    assert_eq!(on.entries[2].summary, s("Short summary"));
    assert_eq!(
        recovered(&on),
        [
            "markup_in_text: <description> read as the element's value",
            "markup_in_text: <description> read as summary",
            "xhtml_body: <xhtml:body> read as content",
        ]
    );
}

#[test]
fn authors_categories_and_titles() {
    let (on, exact) = both("people-categories.xml");
    no_recovery_in(&exact);
    assert_eq!(exact.description, None);
    assert_eq!(on.description, s("Clips and more"));
    let e = &on.entries;
    assert_eq!(e[0].authors, [(s("Jane Doe"), s("jane@video.example"))]);
    assert_eq!(e[0].categories, ["Travel", "Food"]);
    assert_eq!(e[0].title, s("Street food in Hanoi"));
    assert_eq!(e[0].summary, s("Ten minutes of noodles."));
    assert_eq!(e[1].title, s("Second clip"));
    assert_eq!(e[1].categories, ["Music", "Live"]);
    // Spec values stay: the rules only fill what is empty.
    assert_eq!(e[2], entry_of(&exact, 2));
    assert_eq!(e[2].title, s("Spec values stay"));
    assert_eq!(e[2].categories, ["News"]);
    assert_eq!(e[2].authors, [(s("The Editor"), s("editor@video.example"))]);
    // The spec reads the author's blank child text as a name; no title, no categories.
    assert_eq!(exact.entries[0].authors.len(), 1);
    assert!(exact.entries[0].authors[0].0.as_deref().unwrap().trim().is_empty());
    assert_eq!(exact.entries[0].title, None);
    assert!(exact.entries[1].categories.is_empty());
    let r = recovered(&on);
    for rule in [
        "dc_description: <dc:description> read as description",
        "author_name_child: <author> read as author",
        "categories_wrapper: <category> read as category",
        "media_title: <media:title> read as title",
        "dc_description: <dc:description> read as summary",
        "dc_title: <dc:title> read as title",
        "dc_subject: <dc:subject> read as category",
        "media_category: <media:category> read as category",
    ] {
        assert!(r.contains(&rule), "{rule} missing from {r:?}");
    }
}

fn entry_of(o: &Out, i: usize) -> E {
    let e = &o.entries[i];
    E {
        title: e.title.clone(),
        summary: e.summary.clone(),
        content: e.content.clone(),
        page_url: e.page_url.clone(),
        updated: e.updated.clone(),
        published: e.published.clone(),
        authors: e.authors.clone(),
        categories: e.categories.clone(),
        enclosures: e.enclosures.clone(),
    }
}

#[test]
fn permalink_guids_become_page_urls() {
    let (on, exact) = both("guid.xml");
    no_recovery_in(&exact);
    let urls = |o: &Out| o.entries.iter().map(|e| e.page_url.clone()).collect::<Vec<_>>();
    assert_eq!(urls(&exact), [None, None, None, None, s("https://perma.example/5")]);
    assert_eq!(
        urls(&on),
        [
            s("https://perma.example/2024/01/post"),
            s("http://perma.example/p?id=2"),
            None,
            None,
            s("https://perma.example/5"),
        ]
    );
    assert_eq!(recovered(&on).len(), 2);
}

#[test]
fn atom_links_and_authors_in_rss_fill_what_the_item_lacks() {
    let (on, exact) = both("atom-in-rss.xml");
    no_recovery_in(&exact);
    let urls = |o: &Out| o.entries.iter().map(|e| e.page_url.clone()).collect::<Vec<_>>();
    let site = |p: &str| s(&format!("https://atom-in-rss.example/{p}"));
    assert_eq!(urls(&exact), [None, site("posts/2"), None, None, None]);
    // An alternate link (rel absent or "alternate", resolved against the document's URL)
    // only where the item has no link of its own, and before a permalink guid; a self or
    // replies link is no page URL.
    let first = s("https://example.org/posts/1");
    assert_eq!(urls(&on), [first, site("posts/2"), site("posts/3"), site("posts/4"), None]);
    let person = |n: &str, e: &str| (s(n), s(e));
    assert_eq!(on.entries[0].authors, [person("Jo Doe", "jo@atom-in-rss.example")]);
    assert_eq!(on.entries[1].authors, exact.entries[1].authors, "the RSS author stays alone");
    assert!(on.entries[3].authors.is_empty(), "a person with neither name nor email");
    assert!(exact.authors.is_empty());
    assert_eq!(on.authors, [person("Channel Author", "chan@atom-in-rss.example")]);
    assert_eq!(
        recovered(&on),
        [
            "atom_link: <a10:link> read as page_url",
            "atom_author: <a10:author> read as author",
            "guid_permalink: <guid> read as page_url",
            "atom_link: <a10:link> read as page_url",
            // The channel's, applied at its end.
            "atom_author: <a10:author> read as author",
        ]
    );
}

#[test]
fn internal_dtd_entities_are_expanded_external_ones_never() {
    let (on, exact) = both("dtd-entities.xml");
    no_recovery_in(&exact);
    assert_eq!(exact.title, s("&company;"));
    assert_eq!(on.title, s("Widgets & Gadgets Ltd"));
    assert_eq!(on.description, s("Quality from Widgets & Gadgets Ltd"));
    assert_eq!(on.entries[0].title, s("Leak? &secret;"), "an external entity is never read");
    assert!(on.diagnostics.iter().any(|d| d.kind == DiagnosticKind::UnknownEntity));
    assert_eq!(
        recovered(&on),
        [
            "internal_entity: &company; expanded from the internal DTD subset",
            "internal_entity: &tagline; expanded from the internal DTD subset",
        ]
    );
}

#[test]
fn entity_bombs_stop_at_the_budget() {
    let mut doc = String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE rss [<!ENTITY l0 \"lol\">");
    for i in 1..10 {
        let r = format!("&l{};", i - 1).repeat(10);
        doc.push_str(&format!("<!ENTITY l{i} \"{r}\">"));
    }
    doc.push_str(
        "]>\n<rss><channel><title>&l9;</title><description>&l2;</description></channel></rss>",
    );
    let on = parse(doc.as_bytes(), false);
    assert_eq!(on.title, s("&l9;"), "kept literally once the budget is spent");
    assert_eq!(on.description.map(|d| d.len()), Some(300));
    assert!(on.diagnostics.iter().any(|d| d.kind == DiagnosticKind::LimitReached));
}

#[test]
fn utf8_declared_over_windows_1252_bytes() {
    let (on, exact) = both("utf8-declared-windows-1252.xml");
    assert_eq!(exact.encoding, "UTF-8");
    assert!(exact.title.as_deref().unwrap().contains('\u{FFFD}'));
    assert_eq!(on.encoding, "windows-1252");
    assert_eq!(on.title, s("Café “Quotes”"));
    assert_eq!(on.entries[0].title, s("Naïve résumé – it’s fine"));
    let guessed: Vec<_> =
        on.diagnostics.iter().filter(|d| d.kind == DiagnosticKind::EncodingGuessed).collect();
    assert_eq!(guessed.len(), 1);
    assert!(guessed[0].message.contains("detected windows-1252"), "{guessed:?}");
    assert!(!on.diagnostics.iter().any(|d| d.kind == DiagnosticKind::InvalidEncoding));
}

/// The owned parse decodes with the same rules as the borrowed one (recovery included).
#[test]
fn owned_parse_decodes_like_parse_bytes() {
    let bytes = fixture("utf8-declared-windows-1252.xml");
    for spec_exact in [false, true] {
        let owned = feedmill::OwnedParsed::parse_bytes(
            &bytes,
            &options(spec_exact),
            Some("https://example.org/feed"),
        )
        .unwrap();
        let p = owned.get();
        let enc = p.encoding.map_or(String::new(), |e| e.name().to_owned());
        let owned_out = out(p.feed.as_ref(), &p.diagnostics, enc);
        assert_eq!(owned_out, parse(&bytes, spec_exact), "spec_exact: {spec_exact}");
    }
}

#[test]
fn c1_controls_are_read_as_windows_1252() {
    let (on, exact) = both("c1-controls.xml");
    no_recovery_in(&exact);
    assert_eq!(exact.title, s("It\u{92}s \u{93}quoted\u{94}"));
    assert_eq!(on.title, s("It’s “quoted”"));
    assert_eq!(on.entries[0].title, s("Price: € 5"));
    let r = recovered(&on);
    assert!(r[0].starts_with("c1_control: 2 C1 control character(s)"), "{r:?}");
    assert_eq!(r.iter().filter(|m| m.starts_with("c1_control: &#14")).count(), 2, "{r:?}");
}

#[test]
fn utf32_is_decoded() {
    let doc = "<?xml version=\"1.0\" encoding=\"UTF-32\"?><rss><channel><title>Grüße 🌍</title></channel></rss>";
    for (bom, be) in [(false, false), (false, true), (true, false), (true, true)] {
        let mut bytes = Vec::new();
        let units = (bom.then_some('\u{FEFF}').into_iter()).chain(doc.chars());
        for c in units {
            let u = c as u32;
            bytes.extend(if be { u.to_be_bytes() } else { u.to_le_bytes() });
        }
        let on = parse(&bytes, false);
        assert_eq!(on.title, s("Grüße 🌍"), "bom {bom} be {be}");
        let d = on.diagnostics.iter().find(|d| d.kind == DiagnosticKind::EncodingGuessed).unwrap();
        assert!(d.message.starts_with(if be { "UTF-32BE" } else { "UTF-32LE" }), "{d:?}");
        assert!(parse(&bytes, true).title.is_none_or(|t| t != "Grüße 🌍"));
    }
}

/// Real text in each legacy encoding, with no declaration and no transport label.
#[test]
fn legacy_encodings_without_a_declaration() {
    let cases: &[(&str, &str)] = &[
        ("Big5", "台灣的天氣今天很好，我們去公園散步吧。這是一個測試新聞標題，關於經濟發展與文化交流。"),
        ("EUC-JP", "今日は天気が良いので、公園に散歩に行きましょう。これは経済と文化についてのニュースです。"),
        ("EUC-KR", "오늘은 날씨가 좋아서 공원에 산책하러 갑시다. 이것은 경제와 문화에 관한 뉴스 기사입니다."),
        ("GBK", "今天天气很好，我们去公园散步吧。这是一个关于经济发展和文化交流的新闻标题。"),
        ("KOI8-R", "Сегодня хорошая погода, давайте пойдём гулять в парк. Это новости об экономике и культуре."),
        ("Shift_JIS", "今日は天気が良いので、公園に散歩に行きましょう。これは経済と文化についてのニュースです。"),
        ("windows-874", "วันนี้อากาศดีมาก เราไปเดินเล่นที่สวนสาธารณะกันเถอะ นี่คือข่าวเกี่ยวกับเศรษฐกิจและวัฒนธรรม"),
        ("windows-1251", "Сегодня хорошая погода, давайте пойдём гулять в парк. Это новости об экономике и культуре."),
        ("windows-1255", "היום מזג האוויר טוב מאוד, בואו נלך לטייל בפארק. זוהי כתבה על כלכלה ותרבות בישראל."),
    ];
    for (label, text) in cases {
        let enc = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let doc = format!(
            "<rss version=\"2.0\"><channel><title>{text}</title><item><title>{text}</title></item></channel></rss>"
        );
        let (bytes, _, unmappable) = enc.encode(&doc);
        assert!(!unmappable, "{label}: the text is encodable");
        let on = parse(&bytes, false);
        assert_eq!(on.title.as_deref(), Some(*text), "{label}: guessed {}", on.encoding);
        assert_eq!(on.entries[0].title.as_deref(), Some(*text), "{label}");
        assert!(
            on.diagnostics.iter().any(|d| d.kind == DiagnosticKind::EncodingGuessed),
            "{label}: {:?}",
            on.diagnostics
        );
        let exact = parse(&bytes, true);
        assert_eq!(exact.encoding, "UTF-8", "{label}");
        assert_ne!(exact.title.as_deref(), Some(*text), "{label}");
    }
}

#[test]
fn strict_sanitizing_keeps_mathml_and_svg() {
    use feedmill::sanitize::{sanitize_text, SanitizeOptions};
    let bytes = fixture("mathml.xml");
    let mut parser = Parser::new(Options::default());
    let p = parser.parse_bytes(&bytes, None).unwrap();
    let content = p.feed.as_ref().unwrap().entries[0].content.as_ref().unwrap();
    let out = sanitize_text(content, &SanitizeOptions::default());
    assert_eq!(
        out,
        "<p>Famously <math><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math>, \
         drawn as <svg width=\"20\" height=\"20\"><circle cx=\"10\" cy=\"10\" r=\"8\" fill=\"blue\"></circle>\
         <text x=\"2\" y=\"14\">E</text></svg>.</p>"
    );
}

/// Every rule on every fixture is off with `spec_exact`, and no rule changes the official
/// suite: that is `tests/it/conformance.rs`, which runs every case in both modes.
#[test]
fn spec_exact_records_no_recovery_on_any_fixture() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/fixtures/rules");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let bytes = std::fs::read(&p).unwrap();
        no_recovery_in(&parse(&bytes, true));
        let on = parse(&bytes, false);
        assert!(
            on.diagnostics.iter().any(|d| matches!(
                d.kind,
                DiagnosticKind::Recovered | DiagnosticKind::EncodingGuessed
            )) || p.ends_with("mathml.xml"),
            "{}: a rule fires",
            p.display()
        );
        n += 1;
    }
    assert_eq!(n, 19);
}

/// Whether a spec-exact text value is garbage the rules may replace: raw base64, U+FFFD
/// from bytes the encoding chosen could not decode, C1 controls (mis-converted
/// windows-1252), or the text left between child elements
/// whose markup the spec dropped (every non-space character of it appears, in order, in the
/// recovered value).
/// `t` with each run of non-ASCII windows-1252 characters whose windows-1252 bytes are
/// UTF-8 read as that UTF-8.
fn once_decoded(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    let mut run = String::new();
    // Each windows-1252 character is one byte: byte `i` of the run is its character `i`.
    let flush = |run: &mut String, out: &mut String| {
        let bytes = encoding_rs::WINDOWS_1252.encode(run).0;
        let chars: Vec<char> = run.chars().collect();
        let mut i = 0;
        while i < bytes.len() {
            match std::str::from_utf8(&bytes[i..]) {
                Ok(once) => {
                    out.push_str(once);
                    break;
                }
                Err(e) => {
                    let valid = e.valid_up_to();
                    out.push_str(std::str::from_utf8(&bytes[i..i + valid]).unwrap());
                    let bad = e.error_len().unwrap_or(bytes.len() - i - valid);
                    out.extend(&chars[i + valid..i + valid + bad]);
                    i += valid + bad;
                }
            }
        }
        run.clear();
    };
    let mut buf = [0; 4];
    for c in t.chars() {
        let in_1252 = !encoding_rs::WINDOWS_1252.encode(c.encode_utf8(&mut buf)).2;
        if c.is_ascii() || !in_1252 {
            flush(&mut run, &mut out);
            out.push(c);
        } else {
            run.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}

fn garbage(spec: &str, recovered: &str) -> bool {
    if spec.contains(|c| matches!(c, '\u{FFFD}' | '\u{80}'..='\u{9F}')) {
        return true;
    }
    // A windows-1252 label over UTF-8 bytes: the spec's value is the recovered one's bytes
    // read as windows-1252 (`Ã¤` for `ä`).
    let recovered_bytes = text_content(recovered).into_bytes();
    let misread = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&recovered_bytes).0;
    if text_content(spec) == misread {
        return true;
    }
    // UTF-8 decoded twice (`double_utf8`; the rule repairs raw text, whose escaped markup may
    // turn into characters that are right, so here each run of non-ASCII characters is
    // repaired on its own).
    // Escaped HTML the spec read as text (`atom03_html`): the same text once parsed.
    if !spec.starts_with("html:") && recovered.starts_with("html:") {
        let squash = |t: String| t.split_whitespace().collect::<Vec<_>>().join(" ");
        if squash(text_content(&format!("html:{spec}"))) == squash(text_content(recovered)) {
            return true;
        }
    }
    // (HTML serialization writes U+00A0 as `&nbsp;`.)
    let nbsp = |t: &str| t.replace("&nbsp;", "\u{A0}");
    if once_decoded(&nbsp(spec)) == nbsp(recovered) {
        return true;
    }
    let base64 = spec.bytes().all(|b| {
        b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=') || b.is_ascii_whitespace()
    });
    let recovered = text_content(recovered);
    let mut rest = recovered.chars();
    let truncated = spec.chars().filter(|c| !c.is_whitespace()).all(|c| rest.any(|r| r == c));
    base64 || truncated
}

/// Whether the HTML value `on` is `spec` with some attribute values resolved against the
/// base URL [`parse`] gives (the recovery rule `html_url`), and nothing else changed.
fn urls_resolved(spec: &str, on: &str) -> bool {
    let (Some(spec), Some(on)) = (spec.strip_prefix("html:"), on.strip_prefix("html:")) else {
        return false;
    };
    let base = url::Url::parse("https://example.org/feed").unwrap();
    let (a, b) = (html_parts(spec), html_parts(on));
    a.len() == b.len()
        && a.iter().zip(&b).all(|((x_value, x), (y_value, y))| {
            x_value == y_value
                && (x == y
                    || *x_value
                        && base.join(&x.replace("&amp;", "&")).is_ok_and(|u| {
                            u.as_str().replace('&', "&amp;").replace('"', "&quot;") == *y
                        }))
        })
}

/// An HTML serialization cut into runs, each marked whether it is an attribute value (a
/// quoted run inside a tag; the serializer escapes `"` in values and `<` in text).
fn html_parts(h: &str) -> Vec<(bool, String)> {
    let mut parts = vec![(false, String::new())];
    let (mut in_tag, mut in_value) = (false, false);
    for c in h.chars() {
        match c {
            '"' if in_tag => {
                in_value = !in_value;
                parts.push((in_value, String::new()));
                continue;
            }
            '<' if !in_tag => in_tag = true,
            '>' if in_tag && !in_value => in_tag = false,
            _ => {}
        }
        parts.last_mut().unwrap().1.push(c);
    }
    parts
}

/// The text of a value as the tests write it (`html:` values: tags removed, the five
/// escapes decoded).
fn text_content(v: &str) -> String {
    let Some(h) = v.strip_prefix("html:") else { return v.to_owned() };
    let mut out = String::new();
    let mut in_tag = false;
    for c in h.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&nbsp;", "\u{A0}")
        .replace("&amp;", "&")
}

/// Equal, or the spec's value is [`garbage`] the recovered one replaced.
fn same_or_garbage(spec: &Option<String>, on: &Option<String>) -> bool {
    spec == on || matches!((spec, on), (Some(s), Some(o)) if garbage(s, o))
}

fn may_differ(field: &str, spec: &Option<String>, on: &Option<String>, at: &str) {
    if spec != on {
        match (spec, on) {
            (None, Some(_)) => {}
            (Some(s), Some(o)) if garbage(s, o) => {}
            (Some(s), Some(o)) if urls_resolved(s, o) => {}
            _ => panic!("{at}: {field} differs: spec_exact {spec:?}, default {on:?}"),
        }
    }
}

/// The rules' enclosures are the spec's with later ones of the same URL merged into one:
/// the same URLs in first-occurrence order, each value one of the spec's enclosures of that
/// URL gave (or, for a length, a `media:content` `fileSize`, where the spec's were all null).
fn enclosures_merged_only(
    spec: &[(String, Option<String>, Option<u64>, String)],
    on: &[(String, Option<String>, Option<u64>, String)],
    at: &str,
) {
    let distinct = |l: &[(String, Option<String>, Option<u64>, String)]| {
        l.iter().map(|x| x.0.clone()).collect::<std::collections::BTreeSet<_>>()
    };
    assert_eq!(distinct(on), distinct(spec), "{at}: enclosure URLs");
    assert!(on.len() <= spec.len(), "{at}");
    for x in on {
        let same: Vec<_> = spec.iter().filter(|y| y.0 == x.0).collect();
        assert!(
            x.1.is_none() || same.iter().any(|y| y.1 == x.1),
            "{at}: type {:?} of {}",
            x.1,
            x.0
        );
        assert!(
            x.2.is_none() || same.iter().any(|y| y.2 == x.2) || same.iter().all(|y| y.2.is_none()),
            "{at}: length {:?} of {}",
            x.2,
            x.0
        );
        assert!(same.iter().any(|y| y.3 == x.3), "{at}: source {} of {}", x.3, x.0);
    }
}

#[test]
fn utf8_decoded_twice_is_repaired_when_the_whole_value_is() {
    let (on, exact) = both("double-utf8.xml");
    assert_eq!(exact.title, s("CafÃ© crÃ¨me"));
    assert_eq!(entry_of(&exact, 0).title, s("Itâ€™s Ã©tÃ©"));
    assert_eq!(on.title, s("Café crème"));
    assert_eq!(entry_of(&on, 0).title, s("It’s été"));
    assert_eq!(entry_of(&on, 0).summary, s("html:<p>Déjà vu</p>"));
    // Partly right: left as written.
    assert_eq!(entry_of(&on, 1), entry_of(&exact, 1));
    assert_eq!(
        recovered(&on),
        ["double_utf8: 3 text values that were UTF-8 decoded twice (`Ã©` for `é`) read as \
          decoded once"]
    );
}

#[test]
fn itunes_summary_is_the_summary_the_spec_leaves_null() {
    let (on, exact) = both("itunes-summary.xml");
    let summaries = |o: &Out| (0..3).map(|i| entry_of(o, i).summary).collect::<Vec<_>>();
    assert_eq!(summaries(&exact), [None, s("The show notes."), None]);
    assert_eq!(summaries(&on), [s("We talk about feeds."), s("The show notes."), s("Long.")]);
    assert_eq!(
        recovered(&on),
        [
            "itunes_summary: <itunes:summary> read as summary",
            "itunes_summary: <itunes:summary> read as summary",
        ]
    );
}

#[test]
fn undeclared_well_known_prefixes_are_read_in_their_namespaces() {
    let (on, exact) = both("undeclared-prefixes.xml");
    let one = entry_of(&on, 0);
    assert_eq!(one.content, s("html:<p>The whole post.</p>"));
    assert_eq!(one.authors, [(s("Ann"), None)]);
    assert_eq!(one.enclosures.len(), 1);
    // A prefix the document declares, to whatever URI, keeps its binding.
    let two = entry_of(&on, 1);
    assert_eq!(two.content, s("Second."));
    assert_eq!(two.authors, []);
    for e in &exact.entries {
        assert_eq!((&e.content, e.authors.len(), e.enclosures.len()), (&None, 0, 0));
    }
    // One diagnostic per prefix and document, naming the URI.
    let bound: Vec<&str> =
        recovered(&on).into_iter().map(|m| m.split(" bound to ").nth(1).unwrap_or(m)).collect();
    assert_eq!(
        bound,
        [
            "http://www.w3.org/2005/Atom (every use in the document)",
            "http://purl.org/rss/1.0/modules/content/ (every use in the document)",
            "http://purl.org/dc/elements/1.1/ (every use in the document)",
            "http://www.itunes.com/dtds/podcast-1.0.dtd (every use in the document)",
            "http://search.yahoo.com/mrss/ (every use in the document)",
        ]
    );
    let unbound =
        |o: &Out| o.diagnostics.iter().filter(|d| d.kind == DiagnosticKind::UnboundPrefix).count();
    assert_eq!((unbound(&on), unbound(&exact)), (0, 6));
}

#[test]
fn many_enclosures_are_merged_by_url() {
    // Past the scan's few enclosures, the index: 30 files as enclosures, then as
    // media:content in the reverse order.
    let mut item = String::new();
    for round in 0..2 {
        for i in 0..30 {
            let j = if round == 0 { i } else { 29 - i };
            let el = if round == 0 { "enclosure" } else { "media:content" };
            item.push_str(&format!(
                "<{el} url=\"https://e.example/{j}.mp3\" length=\"{}\"/>",
                j + 1
            ));
        }
    }
    let feed = format!(
        "<rss version=\"2.0\" xmlns:media=\"http://search.yahoo.com/mrss/\"><channel><item>{item}\
         </item></channel></rss>"
    );
    let urls = |spec_exact| {
        let o = parse(feed.as_bytes(), spec_exact);
        o.entries[0].enclosures.iter().map(|e| e.0.clone()).collect::<Vec<_>>()
    };
    let want: Vec<String> = (0..30).map(|i| format!("https://e.example/{i}.mp3")).collect();
    assert_eq!(urls(false), want);
    assert_eq!(urls(true).len(), 60);
}

#[test]
fn enclosures_of_the_same_file_are_merged() {
    let (on, exact) = both("enclosures.xml");
    let enc = |o: &Out, i: usize| entry_of(o, i).enclosures;
    let e = |url: &str, ty: Option<&str>, len: Option<u64>, src: &str| {
        (url.to_owned(), ty.map(str::to_owned), len, src.to_owned())
    };
    // Spec-exact: every element is an enclosure, `media:content` without a length.
    assert_eq!(
        enc(&exact, 0),
        [
            e("https://example.org/ep1.mp3", Some("audio/mpeg"), None, "media"),
            e("https://example.org/ep1.mp3", Some("audio/mp3"), None, "enclosure"),
        ]
    );
    assert_eq!(enc(&exact, 1).len(), 3);
    assert_eq!(
        enc(&exact, 2),
        [
            e("https://example.org/ep3.mp4", Some("video/mp4"), None, "media"),
            e("https://example.org/ep3-low.mp4", Some("video/mp4"), None, "media"),
        ]
    );
    // Rules on: one per file, the RSS enclosure's values kept where it stood first, the
    // length filled from `fileSize`.
    assert_eq!(
        enc(&on, 0),
        [e("https://example.org/ep1.mp3", Some("audio/mp3"), Some(1234), "enclosure")]
    );
    // Two RSS enclosures of one URL stay two, as in the spec.
    assert_eq!(
        enc(&on, 1),
        [
            e("https://example.org/ep2.mp3", Some("audio/mpeg"), Some(5), "enclosure"),
            e("https://example.org/ep2.mp3", None, Some(7), "enclosure"),
        ]
    );
    assert_eq!(
        enc(&on, 2),
        [
            e("https://example.org/ep3.mp4", Some("video/mp4"), Some(4321), "media"),
            e("https://example.org/ep3-low.mp4", Some("video/mp4"), None, "media"),
        ]
    );
    // One diagnostic per rule and document.
    assert_eq!(
        recovered(&on),
        [
            "enclosure_merged: 2 enclosures read as an earlier one of the same URL (1 types or \
             lengths filled from them)",
            "media_file_size: 3 <media:content> fileSize read as enclosure length",
        ]
    );
}

#[test]
fn rules_never_override_a_spec_value_on_the_real_corpus() {
    let mut files = 0;
    let mut changed_values = 0;
    for path in crate::real_feeds() {
        let at = path.display().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let (on, exact) = (parse(&bytes, false), parse(&bytes, true));
        no_recovery_in(&exact);
        files += 1;
        if !exact.is_feed {
            continue; // null: anything the rules read is new
        }
        assert!(on.is_feed, "{at}");
        may_differ("title", &exact.title, &on.title, &at);
        may_differ("description", &exact.description, &on.description, &at);
        may_differ("updated", &exact.updated, &on.updated, &at);
        assert_eq!(on.entries.len(), exact.entries.len(), "{at}");
        for (i, (a, b)) in exact.entries.iter().zip(&on.entries).enumerate() {
            let at = format!("{at} entry {i}");
            may_differ("title", &a.title, &b.title, &at);
            may_differ("summary", &a.summary, &b.summary, &at);
            may_differ("content", &a.content, &b.content, &at);
            may_differ("page_url", &a.page_url, &b.page_url, &at);
            may_differ("updated", &a.updated, &b.updated, &at);
            may_differ("published", &a.published, &b.published, &at);
            if a.authors != b.authors {
                let blank =
                    a.authors.iter().all(|p| p.0.as_deref().is_none_or(|n| n.trim().is_empty()));
                let garbled = a.authors.len() == b.authors.len()
                    && a.authors
                        .iter()
                        .zip(&b.authors)
                        .all(|(x, y)| same_or_garbage(&x.0, &y.0) && same_or_garbage(&x.1, &y.1));
                assert!(blank || garbled, "{at}: authors {:?} -> {:?}", a.authors, b.authors);
            }
            if a.categories != b.categories {
                let garbled = a.categories.len() == b.categories.len()
                    && a.categories.iter().zip(&b.categories).all(|(x, y)| x == y || garbage(x, y));
                assert!(
                    a.categories.is_empty() || garbled,
                    "{at}: {:?} -> {:?}",
                    a.categories,
                    b.categories
                );
            }
            enclosures_merged_only(&a.enclosures, &b.enclosures, &at);
            changed_values += usize::from(a != b);
        }
    }
    assert_eq!(files, 287);
    assert!(changed_values > 0, "the rules read something on the real corpus");
}
