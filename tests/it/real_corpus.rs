//! Every real captured feed in `corpus/real/` parses without panicking, and a handful of
//! them give the entry counts a reader can verify by hand (one per format family).

use std::path::Path;

use feedmill::{Format, Options, Parser};

fn parse_file(path: &Path) -> (Option<Format>, usize) {
    let bytes = std::fs::read(path).unwrap();
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_bytes(&bytes, Some("https://example.org/feed")).unwrap();
    (parsed.format, parsed.feed.map_or(0, |f| f.entries.len()))
}

#[test]
fn every_real_feed_parses_as_its_format() {
    let files = crate::real_feeds();
    assert_eq!(files.len(), 287);
    for path in &files {
        let (format, _) = parse_file(path);
        let dir = path.parent().unwrap().file_name().unwrap().to_str().unwrap();
        let expected = match dir {
            "atom" => Format::Atom,
            "atom03" => Format::Atom03,
            "rss1" => Format::Rss1,
            _ => Format::Rss2,
        };
        // `<rss xmlns="http://backend.userland.com/rss2">` puts `rss` in a namespace: not a
        // feed for the spec, RSS 2.0 for the `userland_namespace` recovery rule (default).
        assert_eq!(format, Some(expected), "{}", path.display());
        if path.ends_with("node-feedparser--iconv.xml") {
            let mut options = Options::default();
            options.spec_exact = true;
            let bytes = std::fs::read(path).unwrap();
            let parsed = Parser::new(options).parse_bytes(&bytes, None).map(|p| p.format);
            assert_eq!(parsed, Ok(None));
        }
    }
}

#[test]
fn entry_counts_of_known_feeds() {
    // Counts checked against the files (`grep -c '<item'` / `'<entry'` on each).
    let cases = [
        ("atom/codehollow-feedreader--AtomAdobe.xml", 10),
        ("atom03/feedjira2009--StakeVentures.xml", 20),
        ("rss1/feed-rs--rss_1.0_debian.xml", 1),
        ("rss1/rust-rss--rss090.xml", 5),
        ("rss2/codehollow-feedreader--Rss20Spiegel.xml", 17),
        ("rss2/codehollow-feedreader--Rss091Stadtfeuerwehr.xml", 15),
        ("rss2/codehollow-feedreader--Rss20NYTimes.xml", 33),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/real");
    for (file, count) in cases {
        let (_, n) = parse_file(&root.join(file));
        assert_eq!(n, count, "{file}");
    }
}

/// An owned parse gives every value of the borrowed one (its values are copied out of the
/// parse's arena into a compacted store): for every real feed, with and without a base URL,
/// the results are equal field by field, their JSON lines are the same bytes, and each
/// entry taken out on its own equals the borrowed entry.
#[test]
fn owned_parses_give_every_value_of_the_borrowed_parse() {
    use feedmill::sink::json::encode_record;
    use feedmill::sink::RecordView;
    use feedmill::{OwnedParsed, Text};

    fn line(source: &str, parsed: &feedmill::Parsed<'_>) -> String {
        let mut out = Vec::new();
        encode_record(&mut out, &RecordView::parsed(source, None, parsed));
        String::from_utf8(out).unwrap()
    }

    let options = Options::default();
    let mut parser = Parser::new(options.clone());
    let (mut entries, mut html) = (0, 0);
    for path in crate::real_feeds() {
        let bytes = std::fs::read(&path).unwrap();
        let source = path.display().to_string();
        for base in [None, Some("https://example.org/feed")] {
            let borrowed = parser.parse_bytes(&bytes, base).unwrap();
            let owned = OwnedParsed::parse_bytes(&bytes, &options, base).unwrap();
            assert_eq!(line(&source, owned.get()), line(&source, &borrowed), "{source}");
            assert_eq!(owned.get(), &borrowed, "{source}");
            let kept = owned.entries();
            drop(owned);
            let feed_entries = borrowed.feed.as_ref().map_or(&[][..], |f| &f.entries);
            assert_eq!(kept.len(), feed_entries.len(), "{source}");
            for (k, e) in kept.iter().zip(feed_entries) {
                assert_eq!(k.get(), e, "{source}");
                // HTML values are kept encoded: their nodes, decoded once and kept, are the
                // borrowed parse's (compared twice: decoding, then the kept list).
                let (k, e) = (k.get(), e);
                for (a, b) in
                    [(&k.title, &e.title), (&k.summary, &e.summary), (&k.content, &e.content)]
                {
                    if let (Some(Text::Html(a)), Some(Text::Html(b))) = (a, b) {
                        assert_eq!(a.nodes(), b.nodes(), "{source}");
                        assert_eq!(a.nodes(), b.nodes(), "{source}");
                        assert_eq!(a.to_html_string(), b.to_html_string(), "{source}");
                        html += 1;
                    }
                }
            }
            entries += kept.len();
        }
    }
    assert!(entries > 10_000, "{entries} entries");
    assert!(html > 5_000, "{html} HTML values");
}
