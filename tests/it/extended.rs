//! Fields beyond the spec's model and lenient dates (part 3): one fixture
//! feed per field family under `corpus/fixtures/extended/`.

use feedmill::{Entry, Feed, Options, OwnedParsed, Parser, Text};

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/fixtures/extended")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

fn parse(name: &str) -> OwnedParsed {
    let doc = fixture(name);
    let base = Some("https://base.example/feed.xml");
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(&doc, base).unwrap();
    let owned = OwnedParsed::parse_str(&doc, &Options::default(), base).unwrap();
    assert_eq!(owned.get(), &parsed, "the owned parse equals the borrowed one");
    assert!(owned.feed().is_some(), "a feed");
    owned
}

fn s(v: &str) -> Option<&str> {
    Some(v)
}

#[test]
fn rss2_channel_fields() {
    let owned = parse("rss2-fields.xml");
    let f = owned.feed().expect("a feed");
    let x = &f;
    assert_eq!(x.language, s("en-us"));
    assert_eq!(x.rights, s("Copyright 2002, Spartanburg Herald-Journal"));
    assert_eq!(x.generator.as_ref().unwrap().name, s("MightyInHouse Content System v2.3"));
    assert_eq!(x.ttl, Some(60));
    assert_eq!(x.skip_hours, vec![0, 1, 23]);
    assert_eq!(x.skip_days, vec!["Saturday", "Sunday"]);
    let img = x.image.as_ref().unwrap();
    assert_eq!(img.url, s("https://base.example/logo.gif"));
    assert_eq!(img.title, s("Herald logo"));
    assert_eq!(img.link, s("https://herald.example/"));
    assert_eq!(img.description, s("The Herald"));
    assert_eq!((img.width, img.height), (Some(88), Some(31)));
    // The spec's logo is unchanged.
    assert_eq!(f.logo.as_ref().unwrap().url, s("https://base.example/logo.gif"));
    assert_eq!(
        x.category_details.iter().map(|c| (c.term, c.scheme, c.label)).collect::<Vec<_>>(),
        [("1765", s("Syndic8"), None), ("Newspapers", None, None)]
    );
    assert_eq!(x.id, None);
}

#[test]
fn rss2_item_fields() {
    let owned = parse("rss2-fields.xml");
    let f = owned.feed().expect("a feed");
    let e = &f.entries[0];
    assert_eq!(e.id, s("https://herald.example/1"));
    assert_eq!(e.id_is_permalink, Some(true));
    assert_eq!(e.comments, s("https://base.example/1/comments"));
    let source = e.source.as_ref().unwrap();
    assert_eq!(source.title, s("Tomalak's Realm"));
    assert_eq!(source.url, s("http://www.tomalak.org/links2.xml"));
    assert_eq!(e.category_details.len(), 2);
    let c = &e.category_details[1];
    assert_eq!((c.term, c.scheme, c.label), ("MSFT", s("http://www.fool.com/cusips"), None));
    // The spec's set of terms is unchanged.
    assert_eq!(f.entries[0].categories, ["Grateful Dead", "MSFT"]);

    let two = &f.entries[1];
    assert_eq!(two.id, s("tag:herald.example,2024:2"), "trimmed, first guid wins");
    assert_eq!(two.id_is_permalink, Some(false));
    assert_eq!(f.entries[2].id_is_permalink, Some(true), "isPermaLink defaults to true");
    // Never invented: an empty guid gives no id.
    assert_eq!(f.entries[3].id, None);
    assert_eq!(f.entries[3].id_is_permalink, None);
    assert_eq!(f.entries[3].comments, None);
}

#[test]
fn atom_fields() {
    let owned = parse("atom-fields.xml");
    let f = owned.feed().expect("a feed");
    let x = &f;
    assert_eq!(x.id, s("urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6"));
    assert_eq!(x.language, s("fr-CA"));
    assert_eq!(x.rights, s("© 2024 Example"));
    let g = x.generator.as_ref().unwrap();
    assert_eq!(
        (g.name, g.uri, g.version),
        (s("Example Toolkit"), s("https://example.org/gen"), s("1.0"))
    );
    let c = &x.category_details[0];
    assert_eq!(
        (c.term, c.scheme, c.label),
        ("tech", s("https://example.org/cats"), s("Technology"))
    );
    assert_eq!(x.category_details.len(), 2);
    assert_eq!(x.contributors.len(), 1);
    assert_eq!(x.contributors[0].name, s("Carol"));
    assert_eq!(x.contributors[0].email, s("carol@example.org"));

    let e = &f.entries[0];
    assert_eq!(e.id, s("tag:example.org,2024:1"));
    assert_eq!(e.id_is_permalink, None);
    assert_eq!(e.category_details.len(), 1, "duplicates dropped");
    assert_eq!(e.category_details[0].label, s("Rust"));
    assert_eq!(e.contributors.iter().map(|p| p.name.unwrap()).collect::<Vec<_>>(), ["Dan", "Eve"]);
    assert_eq!(e.contributors[1].page_url, s("https://eve.example/"));
    let source = e.source.as_ref().unwrap();
    assert_eq!((source.title, source.url), (s("Other feed"), s("https://other.example/feed.xml")));
    assert_eq!(f.entries[1].id, None);
}

#[test]
fn rss1_fields() {
    let owned = parse("rss1-fields.xml");
    let f = owned.feed().expect("a feed");
    assert_eq!(f.id, s("http://www.xml.com/xml/news.rss"));
    assert_eq!(f.language, s("en"));
    assert_eq!(f.rights, s("Copyright 2000 O'Reilly"));
    let img = f.image.as_ref().unwrap();
    assert_eq!(img.title, s("XML.com"));
    assert_eq!(img.link, s("http://www.xml.com/"));
    assert_eq!(f.entries[0].id, s("http://xml.com/pub/2000/08/09/xslt/xslt.html"));
    assert_eq!(f.entries[0].category_details[0].term, "XSLT");
    assert_eq!(f.entries[1].id, None);
}

#[test]
fn itunes_fields() {
    let owned = parse("podcast.xml");
    let f = owned.feed().expect("a feed");
    let it = &f.itunes;
    assert_eq!(it.explicit, Some(false));
    assert_eq!(it.kind, s("serial"));
    assert_eq!(it.block, Some(true));
    assert_eq!(it.complete, Some(false));
    assert_eq!(it.new_feed_url, s("https://pod.example/new.xml"));
    let owner = it.owner.as_ref().unwrap();
    assert_eq!((owner.name, owner.email), (s("Pod Owner"), s("owner@pod.example")));
    assert_eq!(
        it.categories.iter().map(|c| (c.text, c.subcategories.clone())).collect::<Vec<_>>(),
        [("Society & Culture", vec!["Documentary", "Philosophy"]), ("Technology", vec![]),]
    );
    // Split at commas, trimmed, empty and repeated ones left out.
    assert_eq!(it.keywords, ["history", "ideas", "philosophy"]);
    let e = &f.entries[0];
    let ie = &e.itunes;
    assert_eq!(ie.explicit, Some(true));
    assert_eq!(ie.episode, Some(3));
    assert_eq!(ie.season, Some(2));
    assert_eq!(ie.episode_type, s("full"));
    assert_eq!(ie.block, Some(false));
    assert_eq!(ie.title, s("The third"));
    assert_eq!(ie.keywords, ["Socrates"]);
    assert_eq!(e.duration, Some(3723), "spec field unchanged");
}

#[test]
fn podcast_namespace_fields() {
    let owned = parse("podcast.xml");
    let f = owned.feed().expect("a feed");
    let pc = &f.podcast;
    assert_eq!(pc.guid, s("917393e3-1b1e-5cef-ace4-edaa54e1f810"));
    let locked = pc.locked.as_ref().unwrap();
    assert_eq!((locked.locked, locked.owner), (true, s("owner@pod.example")));
    assert_eq!(
        pc.funding.iter().map(|f| (f.url, f.message)).collect::<Vec<_>>(),
        [("https://pod.example/donate", s("Support the show!"))]
    );
    assert_eq!(pc.persons.len(), 1);
    assert_eq!(pc.persons[0].name, "Alice");
    assert_eq!(pc.persons[0].role, s("host"));
    assert_eq!(pc.persons[0].img, s("https://base.example/alice.jpg"));
    let pe = f.entries[0].podcast.as_ref().unwrap();
    assert_eq!(pe.transcripts.len(), 2);
    let t = &pe.transcripts[0];
    assert_eq!(
        (t.url, t.mime_type, t.language, t.rel),
        ("https://pod.example/ep3.vtt", s("text/vtt"), s("en"), s("captions"))
    );
    assert_eq!(pe.chapters.as_ref().unwrap().mime_type, s("application/json+chapters"));
    assert_eq!(pe.persons[0].group, s("cast"));
    let season = pe.season.as_ref().unwrap();
    assert_eq!((season.number, season.name), (2, s("Autumn")));
    let episode = pe.episode.as_ref().unwrap();
    assert_eq!((episode.number, episode.display), ("3.5", s("Ch. 3")));
    assert_eq!(f.entries[0].id, s("pod-ep-3"));
}

#[test]
fn podcast_namespace_by_uri_not_prefix() {
    let doc = r#"<rss xmlns:x="https://podcastindex.org/namespace/1.0" xmlns:podcast="urn:other"><channel>
        <x:guid>by-uri</x:guid><podcast:guid>wrong-ns</podcast:guid></channel></rss>"#;
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(doc, None).unwrap();
    assert_eq!(parsed.feed.unwrap().podcast.guid, Some("by-uri"));
}

#[test]
fn lenient_dates_beside_strict_fields() {
    let owned = parse("dates.xml");
    let f = owned.feed().expect("a feed");
    // Feed: strict rejected "Jan 15, 2024" → spec null, lenient value with assumed zone.
    assert_eq!(f.updated, None);
    let l = f.updated_lenient.unwrap();
    assert_eq!(l.timestamp.to_string(), "2024-01-15T00:00:00Z");
    assert!(l.zone_assumed);
    let by_title = |t: &str| {
        f.entries
            .iter()
            .find(|e| matches!(e.title, Some(feedmill::Text::Plain(x)) if x == t))
            .unwrap()
            .clone()
    };
    let strict = by_title("strict");
    assert_eq!(strict.updated.unwrap().to_string(), "2024-01-15T13:45:00Z");
    assert_eq!(strict.updated_lenient, None);
    let us = by_title("us");
    assert_eq!(us.updated, None);
    assert_eq!(us.updated_lenient.unwrap().form, "us-month-name");
    let slash = by_title("slash").updated_lenient.unwrap();
    assert_eq!(slash.timestamp.to_string(), "2024-01-15T10:00:00Z");
    assert!(slash.zone_assumed);
    let unix = by_title("unix").updated_lenient.unwrap();
    assert_eq!(unix.timestamp.to_string(), "2024-01-15T12:45:00Z");
    assert!(!unix.zone_assumed);
    let est = by_title("est").updated_lenient.unwrap();
    assert_eq!(est.timestamp.to_string(), "2024-01-15T13:45:00Z");
    assert!(!est.zone_assumed);
    // A later strict value fills the spec field; the fallback is dropped.
    let later = by_title("bad then strict");
    assert!(later.updated.is_some());
    assert_eq!(later.updated_lenient, None);
    // Ambiguous: no guess.
    let amb = by_title("unreadable");
    assert_eq!(amb.updated, None);
    assert_eq!(amb.updated_lenient, None);
}

#[test]
fn atom_published_lenient() {
    let doc = r#"<feed xmlns="http://www.w3.org/2005/Atom"><entry><published>2024-01-15 13:45:00</published>
        <updated>15 January 2024 13:45 +0100</updated></entry></feed>"#;
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(doc, None).unwrap();
    let e = &parsed.feed.as_ref().unwrap().entries[0];
    assert_eq!(e.published, None);
    assert_eq!(e.updated, None);
    let p = e.published_lenient.unwrap();
    assert_eq!(p.timestamp.to_string(), "2024-01-15T13:45:00Z");
    assert!(p.zone_assumed);
    assert_eq!(e.updated_lenient.unwrap().timestamp.to_string(), "2024-01-15T12:45:00Z");
}

#[test]
fn fields_beyond_the_spec_are_empty_for_a_minimal_feed() {
    let mut parser = Parser::new(Options::default());
    let parsed = parser
        .parse_str(
            "<rss><channel><title>t</title><item><title>x</title></item></channel></rss>",
            None,
        )
        .unwrap();
    let f = parsed.feed.unwrap();
    let mut entry = Entry::default();
    entry.title = Some(Text::Plain("x"));
    let mut expected = Feed::default();
    expected.title = Some(Text::Plain("t"));
    expected.entries.push(entry);
    assert_eq!(f, expected, "nothing beyond the spec's fields");
}

#[test]
fn rss2_dc_date_is_a_lenient_fallback_only() {
    let doc = r#"<rss xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><dc:date>2024-01-15T13:45:00+09:00</dc:date>
        <item><title>a</title><dc:date>2024-01-15T13:45:00Z</dc:date></item>
        <item><title>b</title><dc:date>2024-01-15T13:45:00Z</dc:date><pubDate>Tue, 16 Jan 2024 00:00:00 GMT</pubDate></item>
        </channel></rss>"#;
    // With the recovery rules on (the default), dc:date fills the null `updated` instead
    // (tests/it/recovery_rules.rs); this is the spec's processing.
    let mut options = Options::default();
    options.spec_exact = true;
    let mut parser = Parser::new(options);
    let parsed = parser.parse_str(doc, None).unwrap();
    let f = parsed.feed.as_ref().unwrap();
    assert_eq!(f.updated, None, "spec value unchanged");
    assert_eq!(f.updated_lenient.unwrap().timestamp.to_string(), "2024-01-15T04:45:00Z");
    assert_eq!(f.entries[0].updated, None);
    assert_eq!(f.entries[0].updated_lenient.unwrap().form, "rfc3339");
    assert!(f.entries[1].updated.is_some());
    assert_eq!(f.entries[1].updated_lenient, None);
}
