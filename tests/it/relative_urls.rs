//! Relative URLs with no base URL to resolve them against are never dropped silently: the
//! recovery rule `relative_url` keeps them as written (one `recovered` diagnostic per
//! document, with their count); `--spec-exact` leaves them out, as the spec says, with one
//! `invalid_value` diagnostic. A malformed URL is left out in both modes, counted in one
//! `invalid_value` diagnostic. With no base URL, the recovery rule `xml_base` resolves
//! relative URLs against the `xml:base` in scope. The recovery rule `html_url` resolves the
//! relative URLs inside HTML values against the same base.

use feedmill::{DiagnosticKind, Options, Parser, Text};

const DOC: &str = r#"<rss version="2.0"><channel><title>t</title><link>/home</link>
<item><title>a</title><link> posts/1 </link><comments>http://a.example/c</comments>
<enclosure url="media/a.mp3" length="1" type="audio/mpeg"/></item>
<item><title>b</title><link>http://[bad</link></item>
</channel></rss>"#;

#[test]
fn relative_urls_without_a_base_are_kept_as_written_with_a_diagnostic() {
    for spec_exact in [false, true] {
        let mut options = Options::default();
        options.spec_exact = spec_exact;
        let mut parser = Parser::new(options);
        let p = parser.parse_str(DOC, None).unwrap();
        let f = p.feed.as_ref().unwrap();
        let e = &f.entries[0];
        let kept = |v: &str| (!spec_exact).then(|| v.to_owned());
        assert_eq!(f.page_url.map(str::to_owned), kept("/home"));
        assert_eq!(e.page_url.map(str::to_owned), kept("posts/1"));
        assert_eq!(
            e.enclosures.first().and_then(|x| x.url.map(str::to_owned)),
            kept("media/a.mp3")
        );
        assert_eq!(e.comments, Some("http://a.example/c"));
        assert_eq!(f.entries[1].page_url, None, "a malformed URL is left out");
        let messages = p
            .diagnostics
            .iter()
            .filter(|d| matches!(d.kind, DiagnosticKind::Recovered | DiagnosticKind::InvalidValue))
            .map(|d| d.message.as_str())
            .collect::<Vec<_>>();
        let expected = if spec_exact {
            "3 relative URLs with no base URL to resolve them against left out"
        } else {
            "relative_url: 3 relative URLs with no base URL to resolve them against kept as \
             written"
        };
        let malformed = "1 URLs that do not parse left out";
        assert_eq!(messages, [expected, malformed], "spec_exact {spec_exact}");
    }
}

#[test]
fn with_a_base_nothing_changes() {
    let mut parser = Parser::new(Options::default());
    let p = parser.parse_str(DOC, Some("https://a.example/feed/")).unwrap();
    let e = &p.feed.as_ref().unwrap().entries[0];
    assert_eq!(e.page_url, Some("https://a.example/feed/posts/1"));
    assert!(p.diagnostics.iter().all(|d| !d.message.contains("relative URLs")));
}

/// `xml:base` (the recovery rule `xml_base`): with no base URL given, relative URLs resolve
/// against the `xml:base` in scope (nested, relative ones against the outer one, on any
/// element); a base that is not an http(s) URL is ignored with a diagnostic.
const XML_BASE: &str = r#"<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://a.example/blog/">
<title>t</title><link href="/home"/><logo>logo.png</logo>
<entry xml:base="2024/"><id>1</id><title>a</title><link href="post-a"/>
  <link rel="enclosure" xml:base="/media/" href="a.mp3" length="1" type="audio/mpeg"/></entry>
<entry><id>2</id><title>b</title><link href="post-b"/></entry>
<entry xml:base="javascript:alert(1)"><id>3</id><title>c</title><link href="post-c"/></entry>
<entry xml:base="https://b.example/"><id>4</id><title>d</title><link href="http://c.example/abs"/></entry>
</feed>"#;

#[test]
fn xml_base_resolves_relative_urls_when_no_base_url_is_given() {
    let mut parser = Parser::new(Options::default());
    let p = parser.parse_str(XML_BASE, None).unwrap();
    let f = p.feed.as_ref().unwrap();
    assert_eq!(f.page_url, Some("http://a.example/home"));
    assert_eq!(f.logo.as_ref().and_then(|i| i.url), Some("http://a.example/blog/logo.png"));
    let pages: Vec<_> = f.entries.iter().map(|e| e.page_url).collect();
    assert_eq!(
        pages,
        [
            Some("http://a.example/blog/2024/post-a"),
            Some("http://a.example/blog/post-b"),
            Some("http://a.example/blog/post-c"),
            Some("http://c.example/abs"),
        ]
    );
    assert_eq!(f.entries[0].enclosures[0].url, Some("http://a.example/media/a.mp3"));
    let messages: Vec<_> = p.diagnostics.iter().map(|d| (d.kind, d.message.as_str())).collect();
    assert_eq!(
        messages,
        [
            (
                DiagnosticKind::Recovered,
                "xml_base: 6 relative URLs with no base URL given resolved against their xml:base"
            ),
            (DiagnosticKind::InvalidValue, "1 xml:base values that are not http(s) URLs ignored"),
        ]
    );
}

#[test]
fn xml_base_never_overrides_the_spec_value() {
    // With a base URL the spec resolves against it ([128]): xml:base is not read.
    let mut parser = Parser::new(Options::default());
    let p = parser.parse_str(XML_BASE, Some("https://base.example/feed")).unwrap();
    let f = p.feed.as_ref().unwrap();
    assert_eq!(f.entries[0].page_url, Some("https://base.example/post-a"));
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    // --spec-exact, no base URL: left out as the spec says, with the count.
    let mut options = Options::default();
    options.spec_exact = true;
    let mut parser = Parser::new(options);
    let p = parser.parse_str(XML_BASE, None).unwrap();
    assert!(p.feed.as_ref().unwrap().entries.iter().take(3).all(|e| e.page_url.is_none()));
    let messages: Vec<_> = p.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages, ["6 relative URLs with no base URL to resolve them against left out"]);
}

#[test]
fn a_relative_xml_base_with_nothing_absolute_around_it_keeps_urls_as_written() {
    let doc = r#"<rss version="2.0" xml:base="/"><channel><title>t</title>
        <item xml:base="/.rss"><title>a</title><link>posts/1</link></item></channel></rss>"#;
    let mut parser = Parser::new(Options::default());
    let p = parser.parse_str(doc, None).unwrap();
    assert_eq!(p.feed.as_ref().unwrap().entries[0].page_url, Some("posts/1"));
    let messages: Vec<_> = p.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "relative_url: 1 relative URLs with no base URL to resolve them against kept as \
             written",
            "2 relative xml:base values with no absolute base to resolve them against ignored \
             (the relative URLs in their scope kept as written)"
        ]
    );
    // HTML under it: kept as written too (the spec keeps attributes as written), nothing
    // dropped, no `html_url`.
    let doc = r#"<rss version="2.0"><channel xml:base="news/"><title>t</title>
        <item><title>a</title><description>&lt;a href="p/1"&gt;x&lt;/a&gt;</description>
        </item></channel></rss>"#;
    let p = parser.parse_str(doc, None).unwrap();
    let e = &p.feed.as_ref().unwrap().entries[0];
    assert_eq!(html(&e.summary), "<a href=\"p/1\">x</a>");
    assert!(p.diagnostics.iter().all(|d| !d.message.starts_with("html_url")));
}

fn html(t: &Option<Text<'_>>) -> String {
    match t {
        Some(Text::Html(h)) => h.to_html_string(),
        Some(Text::Plain(s)) => format!("plain:{s}"),
        None => "null".to_owned(),
    }
}

fn rules_fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/fixtures/rules");
    std::fs::read_to_string(path.join(name)).unwrap()
}

fn messages(p: &feedmill::Parsed<'_>) -> Vec<String> {
    p.diagnostics.iter().map(|d| d.message.clone()).collect()
}

const HTML_URL_MSG: &str = "relative URLs in HTML values resolved against their base (the \
                            xml:base in scope when there is no base URL, else the base URL)";

/// The recovery rule `html_url`: with no base URL, the URL attributes of HTML and XHTML
/// values resolve against the `xml:base` in scope of the element holding the value (nested
/// scopes; inside XHTML, the fragment's own `xml:base`s); `#fragment`s, empty values,
/// absolute URLs and attributes that hold no URL stay as written. `--spec-exact` keeps
/// every attribute as written, as the spec does.
#[test]
fn html_urls_resolve_against_the_xml_base_in_scope() {
    let doc = rules_fixture("xml-base-html.xml");
    let mut parser = Parser::new(Options::default());
    let p = parser.parse_str(&doc, None).unwrap();
    let f = p.feed.as_ref().unwrap();
    assert_eq!(html(&f.title), r#"Notes <img src="http://blog.example/icons/notes.png" alt="">"#);
    let e = &f.entries;
    assert_eq!(
        html(&e[0].summary),
        "See <a href=\"http://blog.example/2024/05/first-post#more\">more</a> and \
         <a href=\"#fn1\">note 1</a>."
    );
    let content = html(&e[0].content);
    for part in [
        r#"<img src="http://blog.example/media/cat.jpg" srcset="http://blog.example/media/cat.jpg 1x, http://blog.example/media/cat@2x.jpg 2x" alt="cat">"#,
        r#"<a href="https://other.example/x">absolute</a> <a href="mailto:me@blog.example">mail</a>"#,
        r#"<video src="http://blog.example/media/clip.mp4" poster="http://blog.example/media/clip.jpg"></video>"#,
        r#"<q cite="http://blog.example/quotes/1">q</q>"#,
        r#"<a href="">empty</a> <span src="not-a-url-attribute">x</span>"#,
    ] {
        assert!(content.contains(part), "{part} in {content}");
    }
    let xhtml = html(&e[1].content);
    for part in [
        r#"<img src="https://cdn.example/img/dog.png" alt="dog"> <a href="https://cdn.example/about">"#,
        r#"<a href="https://docs.example/guide/intro">intro</a> <img src="https://docs.example/guide/fig1.png""#,
        r#"<a href="https://mirror.example/m">"#,
    ] {
        assert!(xhtml.contains(part), "{part} in {xhtml}");
    }
    assert_eq!(
        messages(&p),
        [
            "xml_base: 3 relative URLs with no base URL given resolved against their xml:base"
                .to_owned(),
            format!("html_url: 13 {HTML_URL_MSG}")
        ]
    );

    let mut options = Options::default();
    options.spec_exact = true;
    let mut parser = Parser::new(options);
    let p = parser.parse_str(&doc, None).unwrap();
    let f = p.feed.as_ref().unwrap();
    assert_eq!(html(&f.title), r#"Notes <img src="icons/notes.png" alt="">"#);
    assert!(html(&f.entries[0].content)
        .contains(r#"<img src="cat.jpg" srcset="cat.jpg 1x, cat@2x.jpg 2x""#));
    assert!(html(&f.entries[1].content).contains(r#"<a href="intro">intro</a>"#));
    assert!(messages(&p).iter().all(|m| !m.contains("HTML values")), "{:?}", messages(&p));
}

/// With a base URL, HTML values resolve against it, like every other URL of the document
/// (\[128\]: the spec's nodes have the document's base URL); `xml:base` is not read.
#[test]
fn html_urls_resolve_against_the_base_url_when_there_is_one() {
    let doc = rules_fixture("xml-base-rss.xml");
    for spec_exact in [false, true] {
        let mut options = Options::default();
        options.spec_exact = spec_exact;
        let mut parser = Parser::new(options);
        let p = parser.parse_str(&doc, Some("https://feeds.example/a/feed.xml")).unwrap();
        let e = &p.feed.as_ref().unwrap().entries;
        let (summary, content) = if spec_exact {
            (
                r#"<img src="lead.jpg" alt="lead"> A story."#,
                r#"<p><a href="../story-0/">previous</a> <img srcset="a.jpg 480w, b.jpg 800w" sizes="50vw" src="a.jpg" alt=""></p>"#,
            )
        } else {
            (
                r#"<img src="https://feeds.example/a/lead.jpg" alt="lead"> A story."#,
                r#"<p><a href="https://feeds.example/story-0/">previous</a> <img srcset="https://feeds.example/a/a.jpg 480w, https://feeds.example/a/b.jpg 800w" sizes="50vw" src="https://feeds.example/a/a.jpg" alt=""></p>"#,
            )
        };
        assert_eq!(html(&e[0].summary), summary);
        assert_eq!(html(&e[0].content), content);
        let expected: Vec<String> =
            if spec_exact { vec![] } else { vec![format!("html_url: 6 {HTML_URL_MSG}")] };
        assert_eq!(messages(&p), expected);
    }
    // No base URL: the channel's and items' xml:base.
    let mut parser = Parser::new(Options::default());
    let p = parser.parse_str(&doc, None).unwrap();
    let e = &p.feed.as_ref().unwrap().entries;
    assert_eq!(
        html(&e[0].summary),
        r#"<img src="https://news.example/section/2024/story-1/lead.jpg" alt="lead"> A story."#
    );
    assert_eq!(
        html(&e[1].summary),
        r#"<a href="https://news.example/section/story-2.html#comments">comments</a>"#
    );
}

/// JSON Feed's `content_html` resolves against the base URL too (it has no `xml:base`). A
/// value whose URL attributes are all absolute (which skips the rule's walk) comes back as
/// parsed.
#[test]
fn json_feed_content_html_urls_resolve_against_the_base_url() {
    let doc = r##"{"version":"https://jsonfeed.org/version/1.1","title":"t",
        "items":[{"id":"1","content_html":"<a href=\"p/1\">x</a> <img src=\"https://c.example/i.png\">"},
        {"id":"2","content_html":"<p class=\"c\"><a href=\"https://c.example/a\">y</a><a href=\"#n\">z</a></p>"}]}"##;
    for spec_exact in [false, true] {
        let mut options = Options::default();
        options.spec_exact = spec_exact;
        let mut parser = Parser::new(options);
        let p = parser.parse_str(doc, Some("https://j.example/feed.json")).unwrap();
        let href = if spec_exact { "p/1" } else { "https://j.example/p/1" };
        assert_eq!(
            html(&p.feed.as_ref().unwrap().entries[0].content),
            format!(r#"<a href="{href}">x</a> <img src="https://c.example/i.png">"#)
        );
        assert_eq!(
            html(&p.feed.as_ref().unwrap().entries[1].content),
            r##"<p class="c"><a href="https://c.example/a">y</a><a href="#n">z</a></p>"##
        );
        let expected: Vec<String> =
            if spec_exact { vec![] } else { vec![format!("html_url: 1 {HTML_URL_MSG}")] };
        assert_eq!(messages(&p), expected);
    }
}

#[test]
fn urls_that_do_not_parse_are_left_out_with_a_diagnostic() {
    for spec_exact in [false, true] {
        let mut options = Options::default();
        options.spec_exact = spec_exact;
        let mut parser = Parser::new(options);
        let p = parser.parse_str(DOC, Some("https://a.example/")).unwrap();
        assert_eq!(p.feed.as_ref().unwrap().entries[1].page_url, None);
        let messages: Vec<_> = p
            .diagnostics
            .iter()
            .filter(|d| d.kind == DiagnosticKind::InvalidValue)
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(messages, ["1 URLs that do not parse left out"], "spec_exact {spec_exact}");
    }
}

#[test]
fn json_feed_relative_urls_are_kept_or_counted_like_xml_ones() {
    let doc = r#"{"version":"https://jsonfeed.org/version/1.1","title":"t","home_page_url":"/home",
        "items":[{"id":"1","url":"posts/1","image":"http://[bad"}]}"#;
    for spec_exact in [false, true] {
        let mut options = Options::default();
        options.spec_exact = spec_exact;
        let mut parser = Parser::new(options);
        let p = parser.parse_str(doc, None).unwrap();
        let f = p.feed.as_ref().unwrap();
        let kept = |v: &'static str| (!spec_exact).then_some(v);
        assert_eq!(f.page_url, kept("/home"));
        assert_eq!(f.entries[0].page_url, kept("posts/1"));
        assert!(f.entries[0].thumbnail.is_none());
        let messages: Vec<_> = p.diagnostics.iter().map(|d| d.message.as_str()).collect();
        let relative = if spec_exact {
            "2 relative URLs with no base URL to resolve them against left out"
        } else {
            "relative_url: 2 relative URLs with no base URL to resolve them against kept as \
             written"
        };
        assert_eq!(messages, [relative, "1 URLs that do not parse left out"]);
    }
}
