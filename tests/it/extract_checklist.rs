//! The extraction checklist's fallbacks (docs/spec/feed-formats-and-extraction.md, Metadata
//! Extraction Checklist): a title from the body, one image per entry, normalized categories and
//! date flags, each asserted on the extraction and on the record in JSON Lines and Arrow.

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use bumpalo::Bump;
use feedmill::columnar::{Layout, RecordBatchBuilder};
use feedmill::extract::{extract_with, ExtractOptions, Source};
use feedmill::sink::RecordView;
use feedmill::{Options, Parser, Timestamp};
use serde_json::{json, Value};

const FEED: &str = r#"<?xml version="1.0"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"
  xmlns:dc="http://purl.org/dc/elements/1.1/"
  xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
<channel><title>Checklist</title><link>https://example.org/</link><description>d</description>
<itunes:category text="News"><itunes:category text="Politics"/></itunes:category>
<item><description>Just landed in Lisbon after a long night. The light here is unreal.</description></item>
<item><description>&lt;p&gt;Microblog &lt;b&gt;line&lt;/b&gt; one&lt;br&gt;second line&lt;/p&gt;</description></item>
<item><description>An untitled status that goes on and on without any sentence end, well past the hundred and twenty characters a headline keeps</description></item>
<item><title>Image in body</title><description>&lt;p&gt;Text&lt;/p&gt;&lt;img src="/img/a.jpg" width="640" height="480"&gt;</description></item>
<item><title>Pixels only</title><description>&lt;p&gt;Hi&lt;/p&gt;&lt;img src="https://pixel.wp.com/g.gif?x=1"&gt;&lt;img src="https://example.org/t.gif" width="0" height="0"&gt;&lt;img src="https://stats.wordpress.com/b.gif"&gt;</description></item>
<item><title>Categories</title><category>News/World/Europe</category><category> news </category><dc:subject>ＥＣＯＮＯＭＹ</dc:subject><category>Straße</category><category>STRASSE</category></item>
<item><title>Future</title><pubDate>Sat, 01 Dec 2035 00:00:00 GMT</pubDate></item>
<item><title>Lenient</title><pubDate>2024-01-15 13:45</pubDate></item>
<item><title>Old</title><pubDate>Sun, 01 Jan 1989 00:00:00 GMT</pubDate></item>
<item><title>Thumbnail</title><media:thumbnail url="https://cdn.example.org/t.jpg" width="120" height="90"/><description>&lt;img src="https://cdn.example.org/b.jpg"&gt;</description></item>
<item><title>Media</title><media:content url="https://cdn.example.org/m.jpg" medium="image" width="800" height="600"/></item>
<item><title>Enclosure</title><enclosure url="https://cdn.example.org/e.png" type="image/png" length="1"/></item>
</channel></rss>"#;

/// 2026-11-28T00:00:00Z.
fn as_of() -> Timestamp {
    Timestamp::from_unix(1_795_824_000).unwrap()
}

/// The records of `FEED` read from `https://example.org/feed.xml` (captured at `captured`),
/// in JSON Lines and as Arrow rows (entry layout), to `f`.
fn with_outputs(
    captured: Option<Timestamp>,
    f: impl FnOnce(&feedmill::extract::FeedExtraction<'_>, Value, RecordBatch),
) {
    let url = "https://example.org/feed.xml";
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_bytes(FEED.as_bytes(), Some(url)).unwrap();
    let feed = parsed.feed.as_ref().unwrap();
    let arena = Bump::new();
    let opts = ExtractOptions { as_of: Some(as_of()), ..ExtractOptions::default() };
    let x = extract_with(feed, &arena, &opts, Some(url), captured);
    let rec = RecordView {
        extraction: Some(&x),
        ..RecordView::parsed("checklist.xml", Some(url), &parsed)
    };
    let json = crate::json_value(&rec);
    let mut builder = RecordBatchBuilder::new(Layout::Entries);
    builder.append(&rec);
    f(&x, json, builder.finish());
}

/// Column `name` of row `i` as JSON (strings, integers, lists of strings; null as `Null`).
fn cell(batch: &RecordBatch, name: &str, i: usize) -> Value {
    let a = batch.column_by_name(name).unwrap_or_else(|| panic!("no column {name}"));
    if a.is_null(i) {
        return Value::Null;
    }
    if let Some(s) = a.as_string_opt::<i32>() {
        return json!(s.value(i));
    }
    if let Some(n) = a.as_primitive_opt::<arrow_array::types::Int64Type>() {
        return json!(n.value(i));
    }
    if let Some(n) = a.as_primitive_opt::<arrow_array::types::UInt64Type>() {
        return json!(n.value(i));
    }
    let l = a.as_list::<i32>().value(i);
    let s = l.as_string::<i32>();
    Value::Array((0..s.len()).map(|j| json!(s.value(j))).collect())
}

/// `key` of entry `i` in the JSON record and in the Arrow row (its column in the entry
/// layout has the key's name), which must agree; absent and
/// empty both read as `Null`.
fn both(json: &Value, batch: &RecordBatch, i: usize, key: &str) -> Value {
    let j = json["feed"]["entries"][i].get(key).cloned().unwrap_or(Value::Null);
    let mut a = cell(batch, key, i);
    if a == json!([]) {
        a = Value::Null;
    }
    assert_eq!(j, a, "entry {i} key {key}: JSON Lines and Arrow disagree");
    j
}

#[test]
fn title_from_the_body_when_the_entry_has_none() {
    with_outputs(None, |x, json, batch| {
        assert_eq!(x.entries[0].title_source, Some(Source::Body));
        assert_eq!(
            both(&json, &batch, 0, "title_text"),
            "Just landed in Lisbon after a long night."
        );
        assert_eq!(both(&json, &batch, 0, "title_source"), "body");
        // The first line: a `<br>` ends it.
        assert_eq!(both(&json, &batch, 1, "title_text"), "Microblog line one");
        // No sentence end: cut at a word boundary within 120 characters, with an ellipsis.
        let long = both(&json, &batch, 2, "title_text");
        let long = long.as_str().unwrap();
        assert!(long.ends_with("a headline…"), "{long}");
        assert!(long.chars().count() <= 121);
        // An entry with a title keeps it, `title_source` says so.
        assert_eq!(both(&json, &batch, 3, "title_text"), "Image in body");
        assert_eq!(both(&json, &batch, 3, "title_source"), "title");
        // The title-less entry's own `title` stays absent.
        assert_eq!(both(&json, &batch, 0, "title"), Value::Null);
    });
}

#[test]
fn one_image_per_entry_in_order_with_the_body_last() {
    with_outputs(None, |x, json, batch| {
        // Only in the body, relative: resolved against the document's URL, with its size.
        assert_eq!(x.entries[3].image_source, Some(Source::Body));
        assert_eq!(both(&json, &batch, 3, "image_url"), "https://example.org/img/a.jpg");
        assert_eq!(both(&json, &batch, 3, "image_source"), "body");
        assert_eq!(both(&json, &batch, 3, "image_width"), 640);
        assert_eq!(both(&json, &batch, 3, "image_height"), 480);
        // Tracking pixels only (a pixel host, a 0×0 image, a stats host): no image.
        assert_eq!(both(&json, &batch, 4, "image_url"), Value::Null);
        assert_eq!(both(&json, &batch, 4, "image_source"), Value::Null);
        // The thumbnail before the body's image.
        assert_eq!(both(&json, &batch, 9, "image_url"), "https://cdn.example.org/t.jpg");
        assert_eq!(both(&json, &batch, 9, "image_source"), "thumbnail");
        assert_eq!(both(&json, &batch, 9, "image_width"), 120);
        assert_eq!(both(&json, &batch, 10, "image_url"), "https://cdn.example.org/m.jpg");
        assert_eq!(both(&json, &batch, 10, "image_source"), "media");
        assert_eq!(both(&json, &batch, 10, "image_height"), 600);
        assert_eq!(both(&json, &batch, 11, "image_url"), "https://cdn.example.org/e.png");
        assert_eq!(both(&json, &batch, 11, "image_source"), "enclosure");
        assert_eq!(both(&json, &batch, 11, "image_width"), Value::Null);
    });
}

#[test]
fn categories_normalized_and_split_into_paths() {
    with_outputs(None, |x, json, batch| {
        assert_eq!(
            both(&json, &batch, 5, "categories_normalized"),
            json!(["news", "news/world", "news/world/europe", "economy", "strasse"])
        );
        assert_eq!(x.entries[5].categories_normalized.len(), 5);
        // The raw terms are unchanged (RSS 2.0 `dc:subject` is in `category_details`).
        assert_eq!(
            both(&json, &batch, 5, "categories"),
            json!(["News/World/Europe", " news ", "Straße", "STRASSE"])
        );
        // The feed's iTunes categories, with their subcategory as a path.
        assert_eq!(json["feed"]["categories_normalized"], json!(["news", "news/politics"]));
        assert_eq!(x.categories_normalized, ["news", "news/politics"]);
    });
}

#[test]
fn date_flags_against_the_as_of_date_without_a_capture_date() {
    with_outputs(None, |_, json, batch| {
        assert_eq!(both(&json, &batch, 6, "date_flags"), json!(["future"]));
        assert_eq!(both(&json, &batch, 7, "date_flags"), json!(["zone_assumed", "lenient"]));
        assert_eq!(both(&json, &batch, 8, "date_flags"), json!(["before_1995"]));
        // Undated entries have no flags.
        assert_eq!(both(&json, &batch, 0, "date_flags"), Value::Null);
    });
}

#[test]
fn date_flags_against_the_capture_date_when_the_record_has_one() {
    // Captured 2035-11-30T12:00:00Z: 1 December 2035 is less than a day later.
    let captured = Timestamp::from_unix(2_080_036_800).unwrap();
    with_outputs(Some(captured), |_, json, batch| {
        assert_eq!(both(&json, &batch, 6, "date_flags"), Value::Null);
        assert_eq!(both(&json, &batch, 8, "date_flags"), json!(["before_1995"]));
    });
    // Captured 2020-01-01: every date after 2 January 2020 is in its future.
    let captured = Timestamp::from_unix(1_577_836_800).unwrap();
    with_outputs(Some(captured), |_, json, batch| {
        assert_eq!(both(&json, &batch, 6, "date_flags"), json!(["future"]));
        assert_eq!(
            both(&json, &batch, 7, "date_flags"),
            json!(["future", "zone_assumed", "lenient"])
        );
    });
}
