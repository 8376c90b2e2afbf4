//! Values of the wrong type (`DiagnosticKind::InvalidValue`): a date, number, duration, hour,
//! day or yes/no that nothing reads is left out *and* recorded, in both modes, naming the
//! element and quoting the value; the same elements with good values, or with nothing but
//! spaces, record nothing.

use feedmill::{DiagnosticKind, Options, Parser};

const BAD: &str = r#"<?xml version="1.0"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
     xmlns:slash="http://purl.org/rss/1.0/modules/slash/"
     xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>t</title><ttl>soon</ttl><pubDate>the day before yesterday</pubDate>
<skipHours><hour>noon</hour><hour>25</hour><hour>24</hour><hour>3</hour></skipHours>
<skipDays><day>Funday</day><day>mon</day></skipDays>
<image><url>http://example.org/i.png</url><title>i</title><link>http://example.org/</link><width>wide</width></image>
<itunes:explicit>maybe</itunes:explicit>
<item><title>a</title><pubDate>garbage</pubDate><dc:date>not a date</dc:date>
<itunes:duration>forever</itunes:duration><itunes:episode>first</itunes:episode>
<slash:comments>many</slash:comments>
<enclosure url="http://example.org/a.mp3" length="big" type="audio/mpeg"/></item>
</channel></rss>"#;

const GOOD: &str = r#"<?xml version="1.0"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
     xmlns:slash="http://purl.org/rss/1.0/modules/slash/"
     xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>t</title><ttl> 60 </ttl><pubDate>Sun, 20 Mar 2016 08:17:44 GMT</pubDate>
<skipHours><hour>0</hour><hour>24</hour><hour> </hour></skipHours>
<skipDays><day>Sunday</day><day>sat</day></skipDays>
<image><url>http://example.org/i.png</url><title>i</title><link>http://example.org/</link><width>88</width></image>
<itunes:explicit>clean</itunes:explicit>
<item><title>a</title><pubDate>2016-03-20 08:17</pubDate><dc:date>2016-03-20</dc:date>
<itunes:duration>1:02:03</itunes:duration><itunes:episode>3</itunes:episode>
<slash:comments>  </slash:comments>
<enclosure url="http://example.org/a.mp3" length="" type="audio/mpeg"/></item>
</channel></rss>"#;

/// The `invalid_value` messages of a parse, and the parse's other diagnostics' kinds.
fn invalid_values(doc: &str, spec_exact: bool) -> Vec<String> {
    let mut options = Options::default();
    options.spec_exact = spec_exact;
    let mut parser = Parser::new(options);
    let p = parser.parse_str(doc, Some("http://example.org/feed")).unwrap();
    let f = p.feed.as_ref().unwrap();
    if doc == BAD {
        // Left out: nothing of the bad values reaches the model.
        assert_eq!(f.ttl, None);
        assert_eq!(f.skip_hours, [0, 3]);
        assert_eq!(f.skip_days, ["Monday"]);
        assert_eq!(f.itunes.explicit, None);
        let e = &f.entries[0];
        assert_eq!((e.updated, e.duration), (None, None));
        assert_eq!(e.enclosures[0].length, None);
    }
    let mut offsets = p.diagnostics.iter().map(|d| d.offset).collect::<Vec<_>>();
    offsets.sort_unstable();
    assert!(p.diagnostics.iter().map(|d| d.offset).eq(offsets), "diagnostics in document order");
    p.diagnostics
        .iter()
        .filter(|d| d.kind == DiagnosticKind::InvalidValue)
        .map(|d| {
            assert!(doc[d.offset..].starts_with('<'), "{d:?} does not point at its element");
            d.message.clone()
        })
        .collect()
}

#[test]
fn values_of_the_wrong_type_are_recorded_in_both_modes() {
    let expected = [
        r#"ttl "soon" is not a non-negative integer; left out"#,
        r#"pubDate "the day before yesterday" is not a date; left out"#,
        r#"hour "noon" is not an hour (0 to 23, or 24); left out"#,
        r#"hour "25" is not an hour (0 to 23, or 24); left out"#,
        r#"day "Funday" is not a day of the week; left out"#,
        r#"width "wide" is not a non-negative integer; left out"#,
        r#"itunes:explicit "maybe" is not yes, no, true, false, explicit or clean; left out"#,
        r#"pubDate "garbage" is not a date; left out"#,
        r#"dc:date "not a date" is not a date; left out"#,
        r#"itunes:duration "forever" is not a duration (seconds, M:S or H:M:S); left out"#,
        r#"itunes:episode "first" is not a non-negative integer; left out"#,
        r#"slash:comments "many" is not a non-negative integer; left out"#,
        r#"enclosure@length "big" is not a non-negative integer; left out"#,
    ];
    for spec_exact in [false, true] {
        assert_eq!(invalid_values(BAD, spec_exact), expected, "spec_exact {spec_exact}");
    }
}

#[test]
fn good_and_blank_values_record_nothing() {
    for spec_exact in [false, true] {
        assert_eq!(invalid_values(GOOD, spec_exact), Vec::<String>::new());
    }
}

#[test]
fn a_long_value_is_quoted_cut() {
    let long = "x".repeat(500);
    let doc =
        format!("<rss version=\"2.0\"><channel><title>t</title><ttl>{long}</ttl></channel></rss>");
    let got = invalid_values(&doc, false);
    assert_eq!(got, [format!("ttl \"{}\"… is not a non-negative integer; left out", &long[..80])]);
}

#[test]
fn atom_and_json_feed_dates() {
    let atom = r#"<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>
        <entry><title>a</title><updated>yesterday-ish</updated><published>2016-03-20T08:17:44Z</published></entry></feed>"#;
    assert_eq!(invalid_values(atom, false), [r#"updated "yesterday-ish" is not a date; left out"#]);

    let json = r#"{"version":"https://jsonfeed.org/version/1.1","title":"x",
        "items":[{"id":"1","date_published":"someday","content_text":"a"}]}"#;
    let mut parser = Parser::new(Options::default());
    let p = parser.parse_str(json, None).unwrap();
    let d: Vec<_> = p.diagnostics.iter().map(|d| (d.kind, d.message.as_str())).collect();
    let msg = r#"`date_published` "someday" is not a date; left out"#;
    assert_eq!(d, [(DiagnosticKind::InvalidValue, msg)]);
    assert_eq!(DiagnosticKind::InvalidValue.as_str(), "invalid_value");
}

#[test]
fn spaces_around_a_value_the_spec_takes_as_written_are_named() {
    let doc = r#"<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
        <channel><title>t</title><item><title>a</title>
        <itunes:duration>
          1:02:03
        </itunes:duration></item></channel></rss>"#;
    let msg = r#"itunes:duration "\n          1:02:03\n        " is not a duration (seconds, M:S or H:M:S) (no spaces are allowed around it); left out"#;
    assert_eq!(invalid_values(doc, false), [msg]);
}

#[test]
fn module_attributes_and_flags() {
    let doc = r#"<feed xmlns="http://www.w3.org/2005/Atom" xmlns:thr="http://purl.org/syndication/thread/1.0"
        xmlns:media="http://search.yahoo.com/mrss/" xmlns:podcast="https://podcastindex.org/namespace/1.0">
        <title>t</title>
        <entry><title>a</title>
        <link rel="replies" href="http://example.org/c" thr:count="lots"/>
        <link rel="related" href="http://example.org/r" length=" 5"/>
        <link rel="enclosure" href="http://example.org/a.mp3" length="n/a"/>
        <media:content url="http://example.org/v.mp4" isDefault="sometimes"/>
        </entry></feed>"#;
    assert_eq!(
        invalid_values(doc, false),
        [
            r#"link@thr:count "lots" is not a non-negative integer; left out"#,
            r#"link@length "n/a" is not a non-negative integer; left out"#,
            r#"media:content@isDefault "sometimes" is not true or false; left out"#,
        ]
    );
    let mut parser = Parser::new(Options::default());
    let p = parser.parse_str(doc, None).unwrap();
    let e = &p.feed.as_ref().unwrap().entries[0];
    // The related link's length, which `other_link` reads trimmed, is kept (and not flagged).
    assert_eq!(e.links.iter().find(|l| l.rel == "related").and_then(|l| l.length), Some(5));

    let rss = r#"<rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0">
        <channel><title>t</title><podcast:locked>maybe</podcast:locked></channel></rss>"#;
    assert_eq!(
        invalid_values(rss, false),
        [r#"podcast:locked "maybe" is not yes or no; left out"#]
    );
}

/// Dates outside UTC years 0001–9999 (RFC 3339 cannot write them; pyarrow fails on a whole
/// Parquet file holding one) are left out and recorded like any other date nothing reads, on
/// every path: RFC 822 `pubDate`, W3C-DTF `dc:date`, RFC 3339 Atom dates, the lenient forms
/// (`June 15, 99999`) and JSON Feed dates. Years 0001 and 9999 are kept.
#[test]
fn dates_outside_years_0001_to_9999_are_left_out_and_recorded() {
    let docs = |y: &str| {
        let rss = format!(
            r#"<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>t</title>
            <item><title>a</title><pubDate>Sat, 15 Jun {y} 12:00:00 GMT</pubDate></item>
            <item><title>b</title><dc:date>{y}-06-15T12:00:00Z</dc:date></item>
            <item><title>c</title><pubDate>June 15, {y} 12:00 UTC</pubDate></item>
            <item><title>d</title><pubDate>{y}-06-15 12:00</pubDate></item></channel></rss>"#
        );
        let atom = format!(
            r#"<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>
            <entry><title>a</title><updated>{y}-06-15T12:00:00Z</updated><published>{y}-06-15T12:00:00+01:00</published></entry></feed>"#
        );
        let json = format!(
            r#"{{"version":"https://jsonfeed.org/version/1.1","title":"x","items":[
            {{"id":"1","date_published":"{y}-06-15T12:00:00Z","date_modified":"June 15, {y}"}}]}}"#
        );
        [rss, atom, json]
    };
    for y in ["0000", "10000", "99999", "-1"] {
        for (i, doc) in docs(y).iter().enumerate() {
            for spec_exact in [false, true] {
                let mut options = Options::default();
                options.spec_exact = spec_exact;
                let mut parser = Parser::new(options);
                let p = parser.parse_str(doc, None).unwrap();
                let f = p.feed.as_ref().unwrap();
                for e in &f.entries {
                    assert_eq!((e.updated, e.published), (None, None), "{y} {doc}");
                    assert_eq!(e.updated_lenient, None, "{y} {doc}");
                    assert_eq!(e.published_lenient, None, "{y} {doc}");
                }
                let recorded = p
                    .diagnostics
                    .iter()
                    .filter(|d| d.kind == DiagnosticKind::InvalidValue)
                    .filter(|d| d.message.contains("is not a date") && d.message.contains(y))
                    .count();
                assert_eq!(recorded, [4, 2, 2][i], "{y}: {:?}", p.diagnostics);
            }
        }
    }
    for (y, want) in [("0001", "0001-06-15T12:00:00Z"), ("9999", "9999-06-15T12:00:00Z")] {
        for doc in docs(y) {
            let mut parser = Parser::new(Options::default());
            let p = parser.parse_str(&doc, None).unwrap();
            let f = p.feed.as_ref().unwrap();
            let date = f.entries[0].date().map(|t| t.to_string());
            assert_eq!(date.as_deref(), Some(want), "{doc}");
            assert!(p.diagnostics.iter().all(|d| d.kind != DiagnosticKind::InvalidValue));
        }
    }
}
