//! Extraction: plain text, word counts, best body, canonical URLs (one test
//! per rule), dedup keys.

use bumpalo::Bump;
use feedmill::extract::*;
use feedmill::{Options, Parser};

fn c(u: &str) -> Option<String> {
    canonicalize_url(u)
}

#[test]
fn rule1_lowercase_scheme_and_host() {
    assert_eq!(c("HTTPS://WWW.Example.COM/Path").as_deref(), Some("https://www.example.com/Path"));
}

#[test]
fn rule2_default_ports() {
    assert_eq!(c("http://example.com:80/a").as_deref(), Some("http://example.com/a"));
    assert_eq!(c("https://example.com:443/a").as_deref(), Some("https://example.com/a"));
    assert_eq!(c("https://example.com:8443/a").as_deref(), Some("https://example.com:8443/a"));
    assert_eq!(c("http://example.com:443/a").as_deref(), Some("http://example.com:443/a"));
}

#[test]
fn rule3_trailing_slash() {
    assert_eq!(c("https://example.com/a/b/").as_deref(), Some("https://example.com/a/b"));
    assert_eq!(c("https://example.com/a//").as_deref(), Some("https://example.com/a"));
    assert_eq!(c("https://example.com/").as_deref(), Some("https://example.com/"));
    assert_eq!(c("https://example.com").as_deref(), Some("https://example.com/"));
    assert_eq!(c("https://example.com/a/?x=1").as_deref(), Some("https://example.com/a?x=1"));
}

#[test]
fn rule4_sorted_query() {
    assert_eq!(c("https://e.com/p?b=2&a=1&c=3").as_deref(), Some("https://e.com/p?a=1&b=2&c=3"));
    // Stable for repeated names.
    assert_eq!(c("https://e.com/p?t=2&a=1&t=1").as_deref(), Some("https://e.com/p?a=1&t=2&t=1"));
    assert_eq!(c("https://e.com/p?&&b&a=").as_deref(), Some("https://e.com/p?a=&b"));
}

#[test]
fn rule5_tracking_parameters() {
    assert_eq!(
        c("https://e.com/p?utm_source=rss&utm_medium=feed&utm_campaign=x&utm_content=y&utm_term=z&id=7").as_deref(),
        Some("https://e.com/p?id=7")
    );
    assert_eq!(
        c("https://e.com/p?ref=hn&source=tw&fbclid=abc&gclid=def&mc_cid=1&mc_eid=2").as_deref(),
        Some("https://e.com/p")
    );
    assert_eq!(
        c("https://e.com/p?UTM_Source=x&utm_id=3&q=rust").as_deref(),
        Some("https://e.com/p?q=rust")
    );
    // Only exact names: `reference` and `sources` stay.
    assert_eq!(
        c("https://e.com/p?reference=1&sources=2").as_deref(),
        Some("https://e.com/p?reference=1&sources=2")
    );
}

#[test]
fn rule6_unnecessary_percent_encoding() {
    assert_eq!(c("https://e.com/%41%62c%2Dd%7e").as_deref(), Some("https://e.com/Abc-d~"));
    // Reserved characters stay encoded, hex uppercased.
    assert_eq!(
        c("https://e.com/a%2fb?q=a%2bb%3d").as_deref(),
        Some("https://e.com/a%2Fb?q=a%2Bb%3D")
    );
    assert_eq!(c("https://e.com/caf%C3%A9").as_deref(), Some("https://e.com/caf%C3%A9"));
    assert_eq!(c("https://e.com/?%71=%31").as_deref(), Some("https://e.com/?q=1"));
}

#[test]
fn rule7_fragment() {
    assert_eq!(c("https://e.com/a#section").as_deref(), Some("https://e.com/a"));
    assert_eq!(c("https://e.com/#!/post/1").as_deref(), Some("https://e.com/#!/post/1"));
    assert_eq!(c("https://e.com/#/post/1").as_deref(), Some("https://e.com/#/post/1"));
}

#[test]
fn canonicalization_other_inputs_and_idempotence() {
    assert_eq!(c("mailto:a@b.c"), None);
    assert_eq!(c("tag:example.org,2024:1"), None);
    assert_eq!(c("not a url"), None);
    for u in [
        "HTTPS://WWW.Example.COM:443/a/b/?utm_source=x&b=%41&a=1#frag",
        "http://e.com/%7Euser/?q=%2f",
        "https://e.com/#!/x?b=1",
        "https://user:pw@E.com:8080/x/",
    ] {
        let once = c(u).unwrap();
        assert_eq!(c(&once).as_deref(), Some(once.as_str()), "{u}");
    }
    // Credentials are removed.
    assert_eq!(c("https://user:pw@E.com:8080/x/").as_deref(), Some("https://e.com:8080/x"));
}

#[test]
fn word_counts() {
    assert_eq!(word_count(""), 0);
    assert_eq!(word_count("  Hello,   world!  "), 2);
    assert_eq!(word_count("don't stop — well-known 3.5 items"), 5);
    assert_eq!(word_count("— … !!"), 0);
    assert_eq!(word_count("日本語のテキスト"), 8);
    assert_eq!(word_count("Rust 日本"), 3);
}

#[test]
fn plain_text_collapses_unicode_whitespace() {
    let arena = Bump::new();
    let t = feedmill::Text::Plain("  a\u{3000}b\u{A0} c\n\td  ");
    assert_eq!(plain_text(&arena, &t), Some("a b c d"));
    let t = feedmill::Text::Plain("already clean é");
    assert!(
        std::ptr::eq(plain_text(&arena, &t).unwrap(), "already clean é")
            || plain_text(&arena, &t) == Some("already clean é")
    );
    assert_eq!(plain_text(&arena, &feedmill::Text::Plain(" \u{2003} ")), None);
}

#[test]
fn fnv1a64_reference_values() {
    // Published FNV-1a 64 test vectors.
    assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
    assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
    assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
}

const FEED: &str = r#"<?xml version="1.0"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel>
  <title>  Plain   title </title>
  <link>HTTPS://Blog.Example.COM:443/?utm_source=rss</link>
  <description>d</description>
  <item>
    <title>With content</title>
    <link>https://blog.example.com/post/1/?utm_medium=rss&amp;b=2&amp;a=1#comments</link>
    <guid isPermaLink="false">post-1</guid>
    <description>&lt;p&gt;Short &lt;b&gt;summary&lt;/b&gt;&lt;/p&gt;</description>
    <content:encoded><![CDATA[<h1>Head</h1><p>First   paragraph.</p><p>Second<br>line</p><script>var x = 1;</script><style>p{}</style>]]></content:encoded>
  </item>
  <item>
    <title>Only description</title>
    <link>https://blog.example.com/post/2</link>
    <description>&lt;p&gt;Body &lt;i&gt;text&lt;/i&gt; here&lt;/p&gt;</description>
  </item>
  <item>
    <title>Permalink guid</title>
    <guid>HTTP://Blog.Example.com/post/3/</guid>
  </item>
  <item>
    <title>Hashed</title>
    <pubDate>Mon, 15 Jan 2024 13:45:00 GMT</pubDate>
  </item>
  <item>
    <title>Hashed</title>
    <pubDate>Tue, 16 Jan 2024 13:45:00 GMT</pubDate>
  </item>
  <item>
    <description>untitled one</description>
  </item>
  <item>
    <description>untitled two</description>
  </item>
</channel>
</rss>"#;

#[test]
fn extraction_over_a_feed() {
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(FEED, Some("https://blog.example.com/feed")).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    let arena = Bump::new();
    let x = extract(feed, &arena, &ExtractOptions::default());
    assert_eq!(x.title_text, Some("Plain title"));
    assert_eq!(x.canonical_url, Some("https://blog.example.com/"));
    // page_url is never replaced.
    assert_eq!(feed.page_url, Some("https://blog.example.com/?utm_source=rss"));
    assert_eq!(x.entries.len(), feed.entries.len());

    let e0 = &x.entries[0];
    assert_eq!(e0.summary_text, Some("Short summary"));
    assert_eq!(e0.content_text, Some("Head First paragraph. Second line"));
    assert_eq!(e0.body_source, Some(Source::Content));
    assert_eq!(e0.body_text, e0.content_text);
    assert_eq!(e0.word_count, 5);
    assert_eq!(e0.canonical_url, Some("https://blog.example.com/post/1?a=1&b=2"));
    assert_eq!((e0.dedup_key, e0.dedup_source), (Some("post-1"), Some(Source::Id)));

    let e1 = &x.entries[1];
    assert_eq!(e1.body_source, Some(Source::Summary));
    assert_eq!(e1.body_text, Some("Body text here"));
    assert_eq!(e1.word_count, 3);
    assert_eq!(
        (e1.dedup_key, e1.dedup_source),
        (Some("https://blog.example.com/post/2"), Some(Source::Url))
    );

    // A permalink guid is a URL source (dedup still prefers the id as written).
    let e2 = &x.entries[2];
    assert_eq!(e2.canonical_url, Some("http://blog.example.com/post/3"));
    assert_eq!(e2.dedup_source, Some(Source::Id));
    assert_eq!(e2.body_source, None);
    assert_eq!(e2.word_count, 0);

    // Hash keys: stable, and different dates give different keys.
    let (h3, h4) = (&x.entries[3], &x.entries[4]);
    assert_eq!(h3.dedup_source, Some(Source::Hash));
    assert_eq!(h3.dedup_key.unwrap().len(), 16);
    assert_ne!(h3.dedup_key, h4.dedup_key);
    let h = fnv1a64(b"feedmill-dedup-v1\x1fHashed\x1f2024-01-15T13:45:00Z");
    assert_eq!(h3.dedup_key.unwrap(), format!("{h:016x}"));
    // Untitled, undated: the body distinguishes them.
    assert_ne!(x.entries[5].dedup_key, x.entries[6].dedup_key);

    // Same input → same keys (deterministic across runs).
    let arena2 = Bump::new();
    let again = extract(feed, &arena2, &ExtractOptions::default());
    assert_eq!(again, x);
}

#[test]
fn extraction_options_turn_parts_off() {
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(FEED, None).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    let arena = Bump::new();
    let off = ExtractOptions {
        plain_text: false,
        body: false,
        canonical_urls: false,
        dedup_keys: false,
        title_fallback: false,
        images: false,
        categories: false,
        date_flags: false,
        as_of: None,
        max_url_growth: ExtractOptions::default().max_url_growth,
    };
    let x = extract(feed, &arena, &off);
    assert!(x.entries.iter().all(|e| *e == EntryExtraction::default()));
    assert_eq!(x.title_text, None);
    let only_dedup = ExtractOptions { dedup_keys: true, ..off };
    let x = extract(feed, &arena, &only_dedup);
    assert_eq!(x.entries[0].dedup_key, Some("post-1"));
    assert_eq!(x.entries[0].body_text, None);
    assert_eq!(x.entries[0].canonical_url, None);
}

#[test]
fn atom_body_priority_and_xhtml_text() {
    let doc = r#"<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>urn:x</id>
      <summary>The summary</summary>
      <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Full <em>content</em></p><p>here</p></div></content>
      </entry></feed>"#;
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(doc, None).unwrap();
    let arena = Bump::new();
    let x = extract(parsed.feed.as_ref().unwrap(), &arena, &ExtractOptions::default());
    assert_eq!(x.entries[0].body_source, Some(Source::Content));
    assert_eq!(x.entries[0].body_text, Some("Full content here"));
    assert_eq!(x.entries[0].summary_text, Some("The summary"));
    assert_eq!(x.entries[0].dedup_key, Some("urn:x"));
}

/// Throughput of parse alone vs parse + extraction over `corpus/real` (run with `cargo test
/// --release -p feedmill --test it extraction::extraction_throughput -- --ignored --nocapture`).
#[test]
#[ignore]
fn extraction_throughput() {
    let mut docs = Vec::new();
    for path in crate::real_feeds() {
        docs.push(std::fs::read(path).unwrap());
    }
    let bytes: usize = docs.iter().map(Vec::len).sum();
    let rounds = 20;
    let mut parser = Parser::new(Options::default());
    let mut arena = Bump::new();
    let opts = ExtractOptions::default();
    for with_extract in [false, true, false, true] {
        let start = std::time::Instant::now();
        let mut n = 0usize;
        for _ in 0..rounds {
            for d in &docs {
                let parsed = parser.parse_bytes(d, Some("https://example.org/feed")).unwrap();
                if let Some(feed) = parsed.feed.as_ref() {
                    n += feed.entries.len();
                    if with_extract {
                        arena.reset();
                        let x = extract(feed, &arena, &opts);
                        n += x.entries.iter().map(|e| e.word_count as usize).sum::<usize>() & 1;
                    }
                }
            }
        }
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "extract={with_extract}: {:.1} MB/s ({} bytes x {rounds}, {n})",
            (bytes * rounds) as f64 / secs / 1e6,
            bytes
        );
    }
}

/// Every real captured feed: extraction runs, every entry gets a dedup key, canonical URLs
/// are idempotent.
#[test]
fn real_corpus_extraction() {
    let (mut entries, mut by_id, mut by_url, mut by_hash) = (0, 0, 0, 0);
    for path in crate::real_feeds() {
        let bytes = std::fs::read(path).unwrap();
        let mut parser = Parser::new(Options::default());
        let parsed = parser.parse_bytes(&bytes, Some("https://example.org/feed")).unwrap();
        let Some(feed) = parsed.feed.as_ref() else { continue };
        let arena = Bump::new();
        let x = extract(feed, &arena, &ExtractOptions::default());
        for (e, xe) in feed.entries.iter().zip(&x.entries) {
            entries += 1;
            match xe.dedup_source.expect("always a key") {
                Source::Id => by_id += 1,
                Source::Url => by_url += 1,
                Source::Hash => by_hash += 1,
                other => panic!("dedup_source {other:?}"),
            }
            if let Some(c) = xe.canonical_url {
                assert_eq!(canonicalize_url(c).as_deref(), Some(c));
            }
            assert_eq!(xe.body_text.is_some(), xe.body_source.is_some());
            if xe.body_source == Some(Source::Summary) {
                assert!(xe.content_text.is_none(), "content with text wins");
            }
            let _ = e;
        }
    }
    eprintln!("{entries} entries: {by_id} by id, {by_url} by url, {by_hash} by hash");
    assert!(entries > 3000 && by_id > entries / 2, "{entries} {by_id}");
}
