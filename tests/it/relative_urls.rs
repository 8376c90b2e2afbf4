//! Relative URLs with no base URL to resolve them against are never dropped silently: the
//! recovery rule `relative_url` keeps them as written (one `recovered` diagnostic per
//! document, with their count); `--spec-exact` leaves them out, as the spec says, with one
//! `invalid_value` diagnostic. A malformed URL is left out in both modes.

use feedmill::{DiagnosticKind, Options, Parser};

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
        assert_eq!(messages, [expected], "spec_exact {spec_exact}");
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
