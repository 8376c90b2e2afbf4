//! Podcasting 2.0: every element of the Podcast namespace as typed record keys (fixture
//! `corpus/fixtures/extended/podcasting-2.0.xml`), none of them also in the extension
//! capture rows; live items as entries with `podcast.live`; malformed numbers, booleans and
//! dates left out with an `invalid_value` diagnostic.

use feedmill::sink::json::encode_record;
use feedmill::sink::RecordView;
use feedmill::{DiagnosticKind, Options, Parser};
use serde_json::{json, Value};

fn fixture() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/fixtures/extended/podcasting-2.0.xml");
    std::fs::read_to_string(path).unwrap()
}

/// The record's `feed` object and the parse's diagnostics (base `https://pod.example/`).
fn record(doc: &str, options: Options) -> (Value, Vec<feedmill::Diagnostic>) {
    let mut parser = Parser::new(options);
    let parsed = parser.parse_str(doc, Some("https://pod.example/feed.xml")).unwrap();
    let v = crate::json_value(&RecordView::parsed("t", None, &parsed));
    (v["feed"].clone(), parsed.diagnostics.clone())
}

#[test]
fn every_element_of_the_namespace_is_a_typed_key_in_both_modes() {
    for spec_exact in [false, true] {
        let mut options = Options::default();
        options.spec_exact = spec_exact;
        let (f, diagnostics) = record(&fixture(), options);
        assert!(
            diagnostics.iter().all(|d| d.kind != DiagnosticKind::InvalidValue),
            "{diagnostics:?}"
        );
        // Nothing of the namespace is also captured as an extension row.
        assert_eq!(f.get("extensions"), None);
        let p = &f["podcast"];
        assert_eq!(p["guid"], "917393e3-1b1e-5cef-ace4-edaa54e1f810");
        assert_eq!(p["medium"], "music");
        assert_eq!(
            p["locations"],
            json!([
                {"name": "Austin, TX", "geo": "geo:30.2672,97.7431", "osm": "R113314",
                 "rel": "creator", "country": "US"},
                {"name": "London", "rel": "subject", "country": "GB"},
            ])
        );
        assert_eq!(
            p["license"],
            json!({"name": "my-podcast-license-v1", "url": "https://pod.example/license.html"})
        );
        assert_eq!(
            p["images"],
            json!([
                {"href": "https://pod.example/pod-1500.jpg", "width": 1500},
                {"href": "https://pod.example/pod-600.jpg", "width": 600},
                {"href": "https://pod.example/pod-wide.jpg", "alt": "A wide banner",
                 "aspect_ratio": "16/9", "width": 1920, "height": 1080, "type": "image/jpeg",
                 "purpose": "artwork social"},
            ])
        );
        let value = &p["values"][0];
        assert_eq!((&value["type"], &value["method"]), (&json!("lightning"), &json!("keysend")));
        assert_eq!(value["suggested"].as_f64(), Some(0.00000005));
        assert_eq!(value["recipients"].as_array().unwrap().len(), 2);
        assert_eq!(
            value["recipients"][1],
            json!({"name": "Hosting Provider", "type": "node",
                   "address": "03ae9f91a0cb8ff43840e3c322c4c61f019d8c1c3cea15a25cfc425ac605e61a4a",
                   "custom_key": "696969", "custom_value": "abc", "split": 5, "fee": true})
        );
        assert_eq!(
            p["txts"],
            json!([{"text": "S6lpp-7ZCn8-dZfGc-OoyaG", "purpose": "verify"}, {"text": "naked text"}])
        );
        assert_eq!(p["blocks"], json!([{"blocked": true}, {"blocked": false, "id": "spotify"}]));
        assert_eq!(
            p["update_frequency"],
            json!({"description": "Weekly", "complete": false, "dtstart": "2023-04-01T12:00:00Z",
                   "dtstart_offset": 0, "dtstart_raw": "2023-04-01T12:00:00.000Z",
                   "rrule": "FREQ=WEEKLY"})
        );
        assert_eq!(
            p["trailers"],
            json!([{"title": "Coming April 1st, 2021", "url": "https://pod.example/trailer.mp3",
                    "pubdate": "2021-04-01T13:00:00Z", "pubdate_offset": -300,
                    "pubdate_raw": "Thu, 01 Apr 2021 08:00:00 EST", "length": 12345678,
                    "type": "audio/mpeg", "season": 2}])
        );
        assert_eq!(
            p["remote_items"],
            json!([{"feed_guid": "917393e3-1b1e-5cef-ace4-edaa54e1f811",
                    "feed_url": "https://other.example/feed.xml",
                    "item_guid": "asdf089j0-ep240-20230510", "medium": "music"}])
        );
        assert_eq!(
            p["podroll"],
            json!([{"feed_guid": "a94f5cc9-8c58-55fc-91fe-a324087a655b"},
                   {"feed_guid": "d2e8c6f5-3f43-5c5c-b6a4-1ba8ffbdf3a4",
                    "feed_url": "https://pod.example/friend.xml"}])
        );
        assert_eq!(
            p["publisher"],
            json!({"feed_guid": "003af0a0-6a45-55cf-b765-68e3d349551a",
                   "feed_url": "https://agency.example/publisher.rss", "medium": "publisher"})
        );
        assert_eq!(
            p["social_interacts"],
            json!([{"uri": "https://podcastindex.social/@dave/1", "protocol": "activitypub",
                    "account_id": "@dave", "account_url": "https://podcastindex.social/@dave",
                    "priority": 1}])
        );
        assert_eq!(
            p["chat"],
            json!({"server": "irc.zeronode.net", "protocol": "irc", "account_id": "@dave",
                   "space": "#podcastindex"})
        );
        assert_eq!(p["podping"], true);

        // The live item is an entry, in document order, with its item fields.
        let entries = f["entries"].as_array().unwrap();
        assert_eq!(entries.len(), 2);
        let live = &entries[0];
        assert_eq!(live["title"], "Podcasting 2.0 Live Show");
        assert_eq!(live["id"], "e32b4890-983b-4ce5-8b46-f2d6bc1d8819");
        assert_eq!(live["enclosures"][0]["length"], 312);
        assert_eq!(
            live["podcast"]["live"],
            json!({"status": "live", "start": "2021-09-26T12:30:00Z", "start_offset": -300,
                   "start_raw": "2021-09-26T07:30:00.000-05:00", "end": "2021-09-26T14:30:00Z",
                   "end_offset": -300, "end_raw": "2021-09-26T09:30:00.000-05:00"})
        );
        assert_eq!(
            live["podcast"]["content_links"],
            json!([{"href": "https://youtube.com/pc20/livestream", "text": "YouTube!"}])
        );
        assert_eq!(live["podcast"]["chat"]["space"], "#live");

        let e = &entries[1];
        assert_eq!(e.get("extensions"), None);
        let p = &e["podcast"];
        assert_eq!(p.get("live"), None);
        assert_eq!(
            p["soundbites"],
            json!([{"start_time": 73.0, "duration": 60.0},
                   {"start_time": 1234.5, "duration": 42.25,
                    "title": "Why the Podcast Namespace Matters"}])
        );
        assert_eq!(
            p["alternate_enclosures"],
            json!([{"type": "audio/opus", "length": 32400000, "bitrate": 96000.5,
                    "height": 1080, "lang": "en-US", "title": "High quality", "rel": "Off stage",
                    "codecs": "opus", "default": false,
                    "sources": [
                        {"uri": "https://pod.example/ep1.opus"},
                        {"uri": "ipfs://QmdwGqd3d2gFPGeJNLLCshdiPert45fMu84552Y4XHTy4y"},
                        {"uri": "https://pod.example/ep1.torrent",
                         "content_type": "application/x-bittorrent"}],
                    "integrity": {"type": "sri", "value": "sha384-ExVqijgYHm15PqQqdXfW95x+Rs6C+d6E/ICxyQOeFevnxNLR/wtJNrNYTjIysUBo"}}])
        );
        assert_eq!(
            p["locations"],
            json!([{"name": "Birmingham Civil Rights Museum", "geo": "geo:33.51601,-86.81455",
                    "osm": "R6930627"}])
        );
        assert_eq!(p["license"], json!({"name": "cc-by-4.0"}));
        assert_eq!(
            p["images"],
            json!([{"href": "https://pod.example/ep1-3000.jpg", "width": 3000}])
        );
        assert_eq!(
            p["values"][0]["time_splits"],
            json!([
                {"start_time": 60.0, "duration": 237.0, "remote_percentage": 95,
                 "remote_item": {"feed_guid": "a94f5cc9-8c58-55fc-91fe-a324087a655b",
                                 "item_guid": "https://podcastindex.org/podcast/4148683#1",
                                 "medium": "music"}},
                {"start_time": 367.5, "duration": 246.0, "remote_start_time": 174.0,
                 "recipients": [{"name": "Bobjim (Guest)", "type": "node", "address": "032f4ffb",
                                 "split": 10}]},
            ])
        );
        assert_eq!(p["txts"], json!([{"text": "2023-10-01", "purpose": "release"}]));
        assert_eq!(p["social_interacts"], json!([{"protocol": "disabled"}]));
        assert_eq!(p["chat"], json!({"server": "irc.zeronode.net", "protocol": "irc"}));
    }
}

/// The decimals are JSON numbers in their shortest round-trip form, as serde_json writes them
/// (`0.00000005000` → `5e-8`, `73.0` stays a decimal).
#[test]
fn decimals_are_plain_json_numbers() {
    let doc = fixture();
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_str(&doc, None).unwrap();
    let rec = RecordView { source: "t", feed: parsed.feed.as_ref(), ..Default::default() };
    let mut out = Vec::new();
    encode_record(&mut out, &rec);
    let line = String::from_utf8(out).unwrap();
    assert!(line.contains(r#""suggested":5e-8,"#), "{line}");
    assert!(line.contains(r#""start_time":73.0,"duration":60.0}"#), "{line}");
    assert!(line.contains(r#""start_time":1234.5,"duration":42.25,"#), "{line}");
}

#[test]
fn malformed_values_are_left_out_and_recorded() {
    let doc = r#"<rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0">
<channel><title>t</title>
<podcast:value type="lightning" method="keysend" suggested="1e-8">
  <podcast:valueRecipient name="a" address="x" split="lots" fee="maybe"/>
  <podcast:valueTimeSplit startTime="-5" duration="ten"/>
</podcast:value>
<podcast:block>perhaps</podcast:block>
<podcast:updateFrequency complete="1" dtstart="someday">Weekly</podcast:updateFrequency>
<podcast:trailer pubdate="not a date" url="/t.mp3" length="big">T</podcast:trailer>
<podcast:podping usesPodping="yes please"/>
<podcast:publisher><podcast:remoteItem feedGuid="p1"/><podcast:remoteItem feedGuid="p2"/></podcast:publisher>
<podcast:images srcset="/a.jpg 2x, /b.jpg 100w,/w_300,h_300/c.jpg 300w"/>
<podcast:liveItem status="pending" start="tomorrow"><title>L</title></podcast:liveItem>
<podcast:unknownTag a="1">kept</podcast:unknownTag>
<item><title>a</title>
<podcast:soundbite startTime="1:00" duration="NaN">s</podcast:soundbite>
<podcast:alternateEnclosure type="audio/mpeg" bitrate="fast" default="yes"><podcast:source uri="/x.mp3"/><podcast:other/></podcast:alternateEnclosure>
</item></channel></rss>"#;
    let (f, d) = record(doc, Options::default());
    let invalid = d
        .iter()
        .filter(|d| d.kind == DiagnosticKind::InvalidValue)
        .map(|d| d.message.as_str())
        .collect::<Vec<_>>();
    assert_eq!(
        invalid,
        [
            r#"podcast:value@suggested "1e-8" is not a non-negative number; left out"#,
            r#"podcast:valueRecipient@split "lots" is not a non-negative integer; left out"#,
            r#"podcast:valueRecipient@fee "maybe" is not true or false; left out"#,
            r#"podcast:valueTimeSplit@startTime "-5" is not a non-negative number; left out"#,
            r#"podcast:valueTimeSplit@duration "ten" is not a non-negative number; left out"#,
            r#"podcast:block "perhaps" is not yes or no; left out"#,
            r#"podcast:updateFrequency@complete "1" is not true or false; left out"#,
            r#"podcast:updateFrequency@dtstart "someday" is not a date; left out"#,
            r#"podcast:trailer@pubdate "not a date" is not a date; left out"#,
            r#"podcast:trailer@length "big" is not a non-negative integer; left out"#,
            r#"podcast:podping@usesPodping "yes please" is not true or false; left out"#,
            r#"podcast:images@srcset "2x" is not a width (`<n>w`); left out"#,
            r#"podcast:liveItem@start "tomorrow" is not a date; left out"#,
            r#"podcast:soundbite@startTime "1:00" is not a non-negative number; left out"#,
            r#"podcast:soundbite@duration "NaN" is not a non-negative number; left out"#,
            r#"podcast:alternateEnclosure@bitrate "fast" is not a non-negative number; left out"#,
            r#"podcast:alternateEnclosure@default "yes" is not true or false; left out"#,
        ]
    );
    // The rest of each element is kept.
    let p = &f["podcast"];
    assert_eq!(p["values"][0]["recipients"], json!([{"name": "a", "address": "x"}]));
    assert_eq!(p.get("blocks"), None);
    assert_eq!(p["update_frequency"], json!({"description": "Weekly"}));
    assert_eq!(p["trailers"], json!([{"title": "T", "url": "https://pod.example/t.mp3"}]));
    assert_eq!(
        p["images"],
        json!([{"href": "https://pod.example/a.jpg"},
               {"href": "https://pod.example/b.jpg", "width": 100},
               // A comma inside a URL is the URL's (the HTML Standard's `srcset` parse).
               {"href": "https://pod.example/w_300,h_300/c.jpg", "width": 300}])
    );
    assert_eq!(f["entries"][0]["podcast"]["live"], json!({"status": "pending"}));
    // An element the namespace does not document, and an unknown child of one it does, are
    // extension rows.
    assert_eq!(p["publisher"], json!({"feed_guid": "p1"}));
    let rows = f["extensions"].as_array().unwrap();
    assert_eq!(rows[0]["path"], "remoteItem");
    assert_eq!(rows[0]["attributes"][0], json!({"name": "feedGuid", "value": "p2"}));
    assert_eq!(rows[1]["name"], "unknownTag");
    assert_eq!(rows[1]["text"], "kept");
    let e = &f["entries"][1];
    assert_eq!(e["podcast"]["soundbites"], json!([{"title": "s"}]));
    assert_eq!(
        e["podcast"]["alternate_enclosures"],
        json!([{"type": "audio/mpeg", "sources": [{"uri": "https://pod.example/x.mp3"}]}])
    );
    assert_eq!(e["extensions"][0]["name"], "other");
}

/// An element the namespace allows once, repeated: the first is the typed value, a later one
/// an `extensions` row (nothing dropped).
#[test]
fn a_repeated_single_element_is_captured_not_dropped() {
    let doc = r#"<rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0">
<channel><title>P</title>
<podcast:medium>podcast</podcast:medium><podcast:medium>music</podcast:medium>
<podcast:license url="https://a.example/">cc-by-4.0</podcast:license>
<podcast:license>cc0</podcast:license>
<item><title>E</title><podcast:season>1</podcast:season><podcast:season>2</podcast:season>
<podcast:chapters url="https://a.example/1.json" type="application/json+chapters"/>
<podcast:chapters url="https://a.example/2.json" type="application/json+chapters"/></item>
</channel></rss>"#;
    let (feed, diags) = record(doc, Options::default());
    assert_eq!(diags, []);
    assert_eq!(feed["podcast"]["medium"], "podcast");
    assert_eq!(feed["podcast"]["license"]["name"], "cc-by-4.0");
    let rows: Vec<_> =
        feed["extensions"].as_array().unwrap().iter().map(|x| (&x["name"], &x["text"])).collect();
    assert_eq!(rows, [(&json!("medium"), &json!("music")), (&json!("license"), &json!("cc0"))]);
    let e = &feed["entries"][0];
    assert_eq!(e["podcast"]["season"]["number"], 1);
    assert_eq!(e["podcast"]["chapters"]["url"], "https://a.example/1.json");
    let rows: Vec<_> = e["extensions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["name"].as_str().unwrap(), x["text"].as_str()))
        .collect();
    assert_eq!(rows, [("season", Some("2")), ("chapters", None)]);
    assert_eq!(e["extensions"][1]["attributes"][0]["value"], "https://a.example/2.json");
}

fn extended(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/fixtures/extended");
    std::fs::read_to_string(path.join(name)).unwrap()
}

/// Podcasting 2.0 and iTunes in an Atom feed: the feed's elements read as a channel's, the
/// entry's as an item's, typed in both modes; none of them an extension row.
#[test]
fn atom_feeds_and_entries_read_the_namespaces_typed() {
    for spec_exact in [false, true] {
        let mut options = Options::default();
        options.spec_exact = spec_exact;
        let (f, diagnostics) = record(&extended("podcasting-2.0-atom.xml"), options);
        assert_eq!(diagnostics, []);
        assert_eq!(f.get("extensions"), None);
        let p = &f["podcast"];
        assert_eq!(p["guid"], "6f1c1b1e-1b1e-5cef-ace4-edaa54e1f810");
        assert_eq!(p["medium"], "podcast");
        assert_eq!(p["locked"], json!({"locked": true, "owner": "owner@atompod.example"}));
        assert_eq!(
            p["funding"],
            json!([{"url": "https://pod.example/support", "message": "Support the show"}])
        );
        assert_eq!(
            p["persons"],
            json!([{"name": "Kim Host", "role": "host", "href": "https://atompod.example/kim"}])
        );
        assert_eq!(p["locations"], json!([{"name": "Paris", "geo": "geo:48.8566,2.3522"}]));
        assert_eq!(p["values"][0]["recipients"][0]["split"], 100);
        assert_eq!(p["podping"], true);
        let it = &f["itunes"];
        assert_eq!(it["explicit"], false);
        assert_eq!(it["type"], "serial");
        assert_eq!(it["categories"], json!([{"text": "Technology"}]));
        assert_eq!(it["owner"], json!({"name": "Kim", "email": "kim@atompod.example"}));
        let e = &f["entries"][0];
        assert_eq!(e.get("extensions"), None);
        let p = &e["podcast"];
        assert_eq!(
            p["transcripts"],
            json!([{"url": "https://pod.example/ep1.vtt", "type": "text/vtt", "language": "en"}])
        );
        assert_eq!(
            p["chapters"],
            json!({"url": "https://pod.example/ep1.json", "type": "application/json+chapters"})
        );
        assert_eq!(p["season"], json!({"number": 1, "name": "Origins"}));
        assert_eq!(p["episode"], json!({"number": "1", "display": "Ep. 1"}));
        assert_eq!(
            p["soundbites"],
            json!([{"start_time": 73.0, "duration": 60.0, "title": "The opening"}])
        );
        assert_eq!(
            p["alternate_enclosures"][0]["sources"],
            json!([{"uri": "https://atompod.example/ep1.opus"}])
        );
        let it = &e["itunes"];
        assert_eq!((&it["episode"], &it["season"]), (&json!(1), &json!(1)));
        assert_eq!((&it["episode_type"], &it["explicit"]), (&json!("full"), &json!(false)));
    }
}

/// The same in an RSS 1.0 channel and item.
#[test]
fn rss1_channels_and_items_read_the_namespaces_typed() {
    for spec_exact in [false, true] {
        let mut options = Options::default();
        options.spec_exact = spec_exact;
        let (f, diagnostics) = record(&extended("podcasting-2.0-rss1.xml"), options);
        assert_eq!(diagnostics, []);
        let p = &f["podcast"];
        assert_eq!(p["guid"], "0b7e3a5c-2f1d-5e8a-9c4b-1d2e3f4a5b6c");
        assert_eq!(p["medium"], "music");
        assert_eq!(
            p["license"],
            json!({"name": "my-license", "url": "https://pod.example/license.html"})
        );
        assert_eq!(p["txts"], json!([{"text": "abc-123", "purpose": "verify"}]));
        assert_eq!(p["blocks"], json!([{"blocked": false}]));
        let it = &f["itunes"];
        assert_eq!(it["explicit"], true);
        assert_eq!(it["keywords"], json!(["rdf", "audio"]));
        assert_eq!(it["categories"], json!([{"text": "Music"}]));
        let e = &f["entries"][0];
        assert_eq!(e.get("extensions"), None);
        let p = &e["podcast"];
        assert_eq!(p["season"], json!({"number": 2}));
        assert_eq!(p["episode"], json!({"number": "7"}));
        assert_eq!(
            p["transcripts"],
            json!([{"url": "https://rdfpod.example/ep1.srt", "type": "application/x-subrip"}])
        );
        assert_eq!(p["persons"], json!([{"name": "Lee Guest", "role": "guest"}]));
        let it = &e["itunes"];
        assert_eq!(
            (&it["episode"], &it["title"], &it["block"]),
            (&json!(7), &json!("Track one"), &json!(true))
        );
    }
}
