//! The RSS 2.0 element set beyond the spec's model and the namespace modules (`slash`,
//! `wfw`, Media RSS, `sy`, `taxo`, Atom link relations, `thr`), the computed values and
//! linear de-duplication: one fixture per group under `corpus/fixtures/extended/`, read
//! through the library (owned form) and through the JSON Lines writer.

use feedmill::sink::RecordView;
use feedmill::{Options, OwnedParsed, Parser};
use serde_json::{json, Value};

const BASE: &str = "https://base.example/feed.xml";

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/fixtures/extended")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

/// The owned feed and the JSON record's `feed` object of a document.
fn parse_doc(doc: &str, options: Options) -> (OwnedParsed, Value) {
    let mut parser = Parser::new(options.clone());
    let parsed = parser.parse_str(doc, Some(BASE)).unwrap();
    assert!(parsed.feed.is_some(), "a feed");
    let v = crate::json_value(&RecordView::parsed("t", None, &parsed));
    let owned = OwnedParsed::parse_str(doc, &options, Some(BASE)).unwrap();
    assert_eq!(owned.get(), &parsed, "the owned parse equals the borrowed one");
    (owned, v["feed"].clone())
}

fn parse(name: &str) -> (OwnedParsed, Value) {
    parse_doc(&fixture(name), Options::default())
}

fn s(v: &str) -> Option<&str> {
    Some(v)
}

#[test]
fn rss2_channel_elements() {
    let (owned, j) = parse("rss2-channel-elements.xml");
    let f = owned.feed().expect("a feed");
    let x = &f;
    assert_eq!(x.version, s("0.92"));
    assert_eq!(x.web_master.as_ref().unwrap().email, s("betty@herald.example"));
    assert_eq!(x.web_master.as_ref().unwrap().name, s("Betty Guernsey"));
    assert_eq!(x.docs, s("https://base.example/rss-specification"));
    let c = x.cloud.as_ref().unwrap();
    assert_eq!(c.domain, s("rpc.sys.example"));
    assert_eq!(c.port, Some(80));
    assert_eq!(c.register_procedure, s("myCloud.rssPleaseNotify"));
    assert_eq!(x.text_input.as_ref().unwrap().link, s("https://base.example/search"));
    let img = x.image.as_ref().unwrap();
    assert_eq!((img.width, img.height), (Some(200), Some(500)), "as written");
    assert_eq!((img.display_width, img.display_height), (Some(144), Some(400)), "maxima");
    // The spec's merged `updated` is unchanged (the first readable date: lastBuildDate here);
    // both elements are kept apart.
    assert_eq!(f.updated.unwrap().to_string(), "2002-09-07T09:42:31Z");
    assert_eq!(x.updated_from, Some("lastBuildDate"));
    assert_eq!(x.pub_date.unwrap().to_string(), "2002-09-07T00:00:01Z");
    assert_eq!(x.last_build_date.unwrap().to_string(), "2002-09-07T09:42:31Z");
    assert_eq!(f.feed_url, s("https://herald.example/feed.xml"), "spec link unchanged");
    assert_eq!(x.links.iter().map(|l| l.rel).collect::<Vec<_>>(), ["hub", "payment"]);

    assert_eq!(j["version"], "0.92");
    assert_eq!(j["pub_date"], "2002-09-07T00:00:01Z");
    assert_eq!(j["last_build_date"], "2002-09-07T09:42:31Z");
    assert_eq!(j["updated_from"], "lastBuildDate");
    assert_eq!(j["web_master"], json!({"name": "Betty Guernsey", "email": "betty@herald.example"}));
    assert_eq!(j["docs"], "https://base.example/rss-specification");
    assert_eq!(
        j["cloud"],
        json!({"domain": "rpc.sys.example", "port": 80, "path": "/RPC2",
               "register_procedure": "myCloud.rssPleaseNotify", "protocol": "xml-rpc"})
    );
    assert_eq!(j["rating"], r#"(PICS-1.1 "http://www.classify.org/safesurf/" l r (SS~~000 1))"#);
    assert_eq!(
        j["text_input"],
        json!({"title": "Search", "description": "Search the archive", "name": "q",
               "link": "https://base.example/search"})
    );
    assert_eq!(j["image"]["display_width"], 144);
    assert_eq!(j["image"]["display_height"], 400);
    assert_eq!(
        j["links"],
        json!([{"rel": "hub", "url": "https://hub.example/"},
               {"rel": "payment", "url": "https://pay.example/herald", "type": "text/html",
                "title": "Support us"}])
    );
}

#[test]
fn computed_values_in_the_record() {
    let (owned, j) = parse("rss2-channel-elements.xml");
    let f = owned.feed().expect("a feed");
    // Entry one has its own author and date; entry two takes the feed's.
    let e = &j["entries"];
    assert_eq!(e[0]["computed_authors"], json!([{"name": "Ed", "email": "ed@herald.example"}]));
    assert_eq!(e[0]["computed_updated"], "2002-09-06T10:00:00Z");
    assert_eq!(
        e[1]["computed_authors"],
        json!([{"name": "George Matesky", "email": "geo@herald.example"}])
    );
    assert_eq!(e[1]["computed_updated"], "2002-09-07T09:42:31Z");
    assert_eq!(e[1].get("authors"), None, "the spec's own field stays empty");
    assert_eq!(f.entries[1].authors, Vec::<feedmill::Person>::new());
    // No date anywhere: no computed_updated (the spec's "now" fallback is not written).
    let (_, j) = parse_doc(
        "<rss><channel><item><title>x</title></item></channel></rss>",
        Options::default(),
    );
    assert_eq!(j["entries"][0].get("computed_updated"), None);
    assert_eq!(j["entries"][0].get("computed_authors"), None);
}

#[test]
fn image_defaults() {
    let doc = "<rss version='2.0'><channel><image><url>/i.gif</url><width>100</width></image></channel></rss>";
    let (owned, j) = parse_doc(doc, Options::default());
    let f = owned.feed().expect("a feed");
    let img = f.image.unwrap();
    assert_eq!((img.width, img.height), (Some(100), None));
    assert_eq!((img.display_width, img.display_height), (Some(100), Some(31)));
    assert_eq!(
        j["image"],
        json!({"url": "https://base.example/i.gif", "width": 100,
                                  "display_width": 100, "display_height": 31})
    );
    assert_eq!(f.version, s("2.0"));
}

#[test]
fn rss2_modules() {
    let (owned, j) = parse("rss2-modules.xml");
    let f = owned.feed().expect("a feed");
    let sy = f.syndication.as_ref().unwrap();
    assert_eq!(sy.update_period, s("hourly"));
    assert_eq!(sy.update_frequency, Some(2));
    assert_eq!(sy.update_base.unwrap().to_string(), "2000-01-01T12:00:00Z");
    assert_eq!(
        j["syndication"],
        json!({"update_period": "hourly", "update_frequency": 2,
               "update_base": "2000-01-01T12:00:00Z", "update_base_offset": 0,
               "update_base_raw": "2000-01-01T12:00+00:00"})
    );
    let e = &f.entries[0];
    assert_eq!(e.comment_count, Some(42));
    assert_eq!(e.comment_feed_url, s("https://base.example/1/comments/feed"));
    assert_eq!(e.thread_total, Some(7));
    assert_eq!(e.links[0].rel, "replies");
    assert_eq!(e.links[0].count, Some(7));
    let m = e.media.as_ref().unwrap();
    assert_eq!(m.contents.len(), 3);
    let c = &m.contents[0];
    assert_eq!(c.medium, s("video"));
    assert_eq!((c.width, c.height, c.file_size), (Some(1280), Some(720), Some(1_048_576)));
    assert_eq!((c.duration, c.bitrate, c.is_default), (Some(185), Some(1500), Some(true)));
    assert_eq!((c.lang, c.group), (Some("en"), None));
    assert_eq!(m.contents[1].group, Some(0));
    assert_eq!(m.contents[2].is_default, Some(false));
    assert_eq!(m.description, s("A clip about clips."));
    assert_eq!(m.credits.iter().map(|c| c.name).collect::<Vec<_>>(), ["Jane Doe", "John Roe"]);
    // Keywords of the content, the item and the group, in document order, each once.
    assert_eq!(m.keywords, ["clips", "video", "kittens", "hd"]);
    // The spec's enclosures: the direct media:content only (media:group is not in the RSS
    // 2.0 item table).
    assert_eq!(f.entries[0].enclosures.len(), 1);

    let e0 = &j["entries"][0];
    assert_eq!(e0["comment_count"], 42);
    assert_eq!(e0["comment_feed_url"], "https://base.example/1/comments/feed");
    assert_eq!(e0["thread_total"], 7);
    assert_eq!(
        e0["links"],
        json!([{"rel": "replies", "url": "https://base.example/1#comments", "type": "text/html",
                "count": 7}])
    );
    assert_eq!(
        e0["media"],
        json!({
            "contents": [
                {"url": "https://cdn.example/1.mp4", "type": "video/mp4", "medium": "video",
                 "width": 1280, "height": 720, "file_size": 1048576, "duration": 185,
                 "bitrate": 1500, "lang": "en", "is_default": true, "expression": "full"},
                {"url": "https://cdn.example/1-hd.mp4", "type": "video/mp4", "height": 1080,
                 "group": 0},
                {"url": "https://cdn.example/1-sd.mp4", "type": "video/mp4", "height": 480,
                 "is_default": false, "group": 0}
            ],
            "description": "A clip about clips.",
            "credits": [{"name": "Jane Doe", "role": "producer", "scheme": "urn:ebu"},
                        {"name": "John Roe", "role": "author"}],
            "ratings": [{"value": "pg", "scheme": "urn:mpaa"}],
            "player": {"url": "https://clips.example/player/1", "width": 640, "height": 360},
            "keywords": ["clips", "video", "kittens", "hd"]
        })
    );
    // Computed authors from the channel's dc:creator; the second entry has its own.
    assert_eq!(e0["computed_authors"], json!([{"name": "Clips Team"}]));
    assert_eq!(j["entries"][1]["computed_authors"], json!([{"name": "Mia"}]));
}

#[test]
fn atom_modules() {
    let (owned, j) = parse("atom-modules.xml");
    let f = owned.feed().expect("a feed");
    assert_eq!(f.version, s("1.0"));
    assert_eq!(
        j["links"],
        json!([{"rel": "hub", "url": "https://pubsubhubbub.example/"},
               {"rel": "license", "url": "https://creativecommons.org/licenses/by/4.0/"}])
    );
    let e0 = &j["entries"][0];
    assert_eq!(
        e0["links"],
        json!([{"rel": "replies", "url": "https://base.example/2/comments.atom",
                "type": "application/atom+xml", "count": 3},
               {"rel": "edit", "url": "https://base.example/api/2"}])
    );
    assert_eq!(
        e0["in_reply_to"],
        json!([{"id": "tag:blog.example,2024:1", "url": "https://blog.example/1",
                "type": "text/html", "source": "https://base.example/feed.atom"}])
    );
    assert_eq!(e0["thread_total"], 3);
    // The spec's media:group rows are unchanged (summary, enclosure); ext.media adds the rest.
    assert_eq!(e0["summary"], "The talk, recorded.");
    assert_eq!(
        e0["enclosures"],
        json!([{"url": "https://cdn.example/talk.webm", "type": "video/webm", "source": "media"}])
    );
    assert_eq!(
        e0["media"],
        json!({"contents": [{"url": "https://cdn.example/talk.webm", "type": "video/webm",
                             "medium": "video", "duration": 3600, "group": 0}],
               "description": "The talk, recorded.", "ratings": [{"value": "nonadult"}],
               "keywords": ["talks", "video"]})
    );
    assert_eq!(e0["computed_updated"], "2024-01-20T10:00:00Z");
    assert_eq!(e0["computed_authors"], json!([{"name": "Ann"}]));
    assert_eq!(j["entries"][1]["computed_updated"], "2024-02-01T00:00:00Z");
    assert_eq!(f.entries[0].in_reply_to[0].id, "tag:blog.example,2024:1");
}

#[test]
fn rss1_modules() {
    let (owned, j) = parse("rss1-modules.xml");
    let f = owned.feed().expect("a feed");
    assert_eq!(f.version, s("1.0"));
    assert_eq!(
        j["topics"],
        json!(["http://meerkat.oreillynet.com/?c=cat23", "http://meerkat.oreillynet.com/?c=47"])
    );
    assert_eq!(j["syndication"], json!({"update_period": "daily", "update_frequency": 1}));
    assert_eq!(
        j["text_input"],
        json!({"title": "Search", "description": "Search News", "name": "q",
               "link": "https://news.example/search"})
    );
    assert_eq!(j["entries"][0]["comment_count"], 12);
    assert_eq!(j["entries"][0]["topics"], json!(["http://dmoz.org/Computers/"]));
    assert_eq!(j["entries"][0]["computed_updated"], "2024-03-01T09:00:00Z");
}

#[test]
fn versions() {
    let v =
        |doc: &str| parse_doc(doc, Options::default()).0.feed().unwrap().version.map(str::to_owned);
    assert_eq!(v("<rss version='0.91'><channel/></rss>"), Some("0.91".to_owned()));
    assert_eq!(v("<rss><channel/></rss>"), None);
    assert_eq!(v("<feed xmlns='http://purl.org/atom/ns#' version='0.3'/>"), Some("0.3".to_owned()));
    assert_eq!(v("<feed xmlns='http://purl.org/atom/ns#'/>"), Some("0.3".to_owned()));
    assert_eq!(
        v("<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#' \
           xmlns='http://my.netscape.com/rdf/simple/0.9/'><channel><title>t</title></channel></rdf:RDF>"),
        Some("0.90".to_owned())
    );
}

#[test]
fn spec_exact_keeps_the_additions() {
    // The additions are not recovery rules: spec-exact output has them too, and the spec's
    // values are the same.
    let mut o = Options::default();
    o.spec_exact = true;
    let (exact, _) = parse_doc(&fixture("rss2-modules.xml"), o);
    let (default, _) = parse("rss2-modules.xml");
    assert_eq!(exact.feed().unwrap().entries[0].media, default.feed().unwrap().entries[0].media);
    // Enclosures too, but for the `media_file_size` recovery rule: the spec reads no length
    // from `media:content`, so only the default output takes its `fileSize`.
    let (exact, default) = (
        &exact.feed().unwrap().entries[0].enclosures,
        &default.feed().unwrap().entries[0].enclosures,
    );
    assert_eq!(exact.len(), default.len());
    for (e, d) in exact.iter().zip(default) {
        assert_eq!((e.url, e.mime_type, e.source), (d.url, d.mime_type, d.source));
    }
    assert_eq!((exact[0].length, default[0].length), (None, Some(1_048_576)));
}

/// Hostile input: 200 000 distinct categories (and `dc:subject`s, `dc:creator`s,
/// `itunes:category`s, `itunes:keywords`, `media:keywords` and `taxo:topics` elements) in
/// one item or channel. De-duplication is a hash index above a
/// few items, so this is linear by construction (the quadratic scan took minutes); the
/// output keeps first-seen order and drops the repeats.
#[test]
fn dedup_is_linear_and_keeps_first_seen_order() {
    const N: usize = 200_000;
    let mut doc = String::from(
        "<rss xmlns:dc='http://purl.org/dc/elements/1.1/' \
         xmlns:itunes='http://www.itunes.com/dtds/podcast-1.0.dtd' \
         xmlns:media='http://search.yahoo.com/mrss/' \
         xmlns:taxo='http://purl.org/rss/1.0/modules/taxonomy/' \
         xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'><channel>",
    );
    for i in 0..N {
        doc.push_str(&format!(
            "<itunes:category text='c{}'><itunes:category text='s{}'/></itunes:category>",
            i % (N / 2),
            i
        ));
    }
    doc.push_str("<item>");
    for i in 0..N {
        doc.push_str(&format!(
            "<category>t{i}</category><dc:subject>u{i}</dc:subject><dc:creator>a{i}</dc:creator>\
             <itunes:keywords>k{i}</itunes:keywords><media:keywords>m{i}, k{i}</media:keywords>\
             <taxo:topics><rdf:Bag><rdf:li rdf:resource='r{i}'/></rdf:Bag></taxo:topics>"
        ));
    }
    // Repeats of the first and of a late value.
    doc.push_str("<category>t0</category><category>t199999</category><dc:subject>u5</dc:subject><dc:creator>a7</dc:creator>");
    doc.push_str(
        "<itunes:keywords>k3, k199999</itunes:keywords><media:keywords>m0</media:keywords>",
    );
    doc.push_str("<taxo:topics><rdf:Bag><rdf:li rdf:resource='r9'/></rdf:Bag></taxo:topics>");
    doc.push_str("</item></channel></rss>");
    let mut o = Options::default();
    o.limits.max_diagnostics = 10;
    let mut parser = Parser::new(o);
    let parsed = parser.parse_str(&doc, None).unwrap();
    let f = parsed.feed.unwrap();
    let e = &f.entries[0];
    // RSS 2.0: the spec's categories are the `category` terms; `category_details` also has
    // the `dc:subject`s.
    assert_eq!(e.categories.len(), N, "each term once");
    assert_eq!((e.categories[0], e.categories[N - 1]), ("t0", "t199999"));
    assert_eq!(e.category_details.len(), 2 * N);
    assert_eq!((e.category_details[0].term, e.category_details[1].term), ("t0", "u0"));
    assert_eq!(e.category_details[2 * N - 1].term, "u199999");
    assert_eq!(e.authors.len(), N);
    assert_eq!(e.authors[7].name, Some("a7"));
    let keywords = &e.itunes.keywords;
    assert_eq!((keywords.len(), keywords[0], keywords[N - 1]), (N, "k0", "k199999"));
    let media = &e.media.as_ref().unwrap().keywords;
    assert_eq!(media.len(), 2 * N);
    assert_eq!((media[0], media[1], media[2 * N - 1]), ("m0", "k0", "k199999"));
    let topics = &e.topics;
    assert_eq!((topics.len(), topics[0], topics[N - 1]), (N, "r0", "r199999"));
    let it = &f.itunes.categories;
    assert_eq!(it.len(), N / 2);
    assert_eq!(it[0].text, "c0");
    assert_eq!(it[0].subcategories, vec!["s0", "s100000"]);
}
