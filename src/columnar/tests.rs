use arrow_array::cast::AsArray;
use arrow_schema::{DataType, TimeUnit};

use super::*;
use crate::sink::Status;
use crate::Feed;

fn view<'r, 'a>(feed: Option<&'r Feed<'a>>) -> RecordView<'r, 'a> {
    RecordView {
        source: "s.xml",
        status: if feed.is_some() { Status::Ok } else { Status::Error },
        error: None,
        format: Some(crate::Format::Atom),
        encoding: Some("UTF-8"),
        diagnostics: &[],
        feed,
        extraction: None,
        sanitize: None,
        url: None,
        lint: None,
        capture: None,
    }
}

#[test]
fn schema_types_are_fixed() {
    let s = schema(Layout::Records);
    let feed = s.field_with_name("feed").unwrap();
    let DataType::Struct(ff) = feed.data_type() else { panic!("feed is a struct") };
    let (_, title) = ff.find("title").unwrap();
    assert_eq!(title.data_type(), &DataType::Utf8);
    assert_eq!(ff.find("title_type").unwrap().1.data_type(), &DataType::Utf8);
    assert_eq!(
        ff.find("updated").unwrap().1.data_type(),
        &DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into()))
    );
    assert_eq!(ff.find("ttl").unwrap().1.data_type(), &DataType::Int64);
    let DataType::List(item) = ff.find("entries").unwrap().1.data_type() else { panic!() };
    let DataType::Struct(ef) = item.data_type() else { panic!("entries are structs") };
    assert_eq!(ef.find("word_count").unwrap().1.data_type(), &DataType::Int64);
    assert!(!s.field_with_name("source").unwrap().is_nullable());
    // The entry layout flattens the entry; its own `source` element is renamed.
    let e = schema(Layout::Entries);
    assert!(e.field_with_name("entry_source").is_ok());
    assert!(e.field_with_name("feed_title_type").is_ok());
    assert_eq!(
        e.field_with_name("published").unwrap().data_type(),
        ff.find("updated").unwrap().1.data_type()
    );
    assert!(describe(Layout::Records).contains("\n  entries: list<struct>\n    title: utf8\n"));
}

#[test]
fn text_values_are_a_string_and_a_type() {
    let mut parser = crate::Parser::new(crate::Options::default());
    let doc = br#"<feed xmlns="http://www.w3.org/2005/Atom"><title type="html">&lt;b&gt;B&lt;/b&gt;</title>
<entry><title>Plain</title><updated>2024-01-02T03:04:05.1234567Z</updated></entry><entry/></feed>"#;
    let parsed = parser.parse_bytes(doc, None).unwrap();
    let mut b = RecordBatchBuilder::new(Layout::Records);
    b.append(&view(parsed.feed.as_ref()));
    b.append(&view(None));
    assert_eq!((b.records(), b.rows()), (2, 2));
    let batch = b.finish();
    assert_eq!(b.records(), 0);
    let feed = batch.column_by_name("feed").unwrap().as_struct();
    assert!(feed.is_valid(0) && feed.is_null(1));
    let title = feed.column_by_name("title").unwrap().as_string::<i32>();
    let kind = feed.column_by_name("title_type").unwrap().as_string::<i32>();
    assert_eq!((title.value(0), kind.value(0)), ("<b>B</b>", "html"));
    let entries = feed.column_by_name("entries").unwrap().as_list::<i32>();
    assert_eq!(entries.value_length(0), 2);
    let e = entries.value(0);
    let e = e.as_struct();
    let t = e.column_by_name("title").unwrap().as_string::<i32>();
    assert_eq!(t.value(0), "Plain");
    assert!(t.is_null(1));
    let up = e.column_by_name("updated").unwrap();
    let up = up.as_primitive::<arrow_array::types::TimestampMicrosecondType>();
    // 1704164645 s + .123456 (the seventh fraction digit is cut).
    assert_eq!(up.value(0), 1_704_164_645_123_456);
}

/// A builder that took back an encoded batch's buffers makes the same batches as a fresh
/// one, keeps (at most `keep` bytes of) those buffers, and cuts by the rows' bytes, not by
/// what it kept.
#[cfg(feature = "parquet")]
#[test]
fn recycled_buffers_make_the_same_batches() {
    let mut parser = crate::Parser::new(crate::Options::default());
    let doc = br#"<rss version="2.0"><channel><title>T</title><ttl>5</ttl>
<item><title>One</title><category>a</category><category>b</category><pubDate>Tue, 02 Jan 2024 03:04:05 GMT</pubDate></item>
<item><description>&lt;p&gt;Two&lt;/p&gt;</description><enclosure url="http://e/x.mp3" length="12" type="audio/mpeg"/></item>
</channel></rss>"#;
    let parsed = parser.parse_bytes(doc, None).unwrap();
    for layout in [Layout::Records, Layout::Entries] {
        let fill = |b: &mut RecordBatchBuilder| {
            for i in 0..50 {
                b.append(&view(if i % 7 == 3 { None } else { parsed.feed.as_ref() }));
            }
        };
        let mut fresh = RecordBatchBuilder::new(layout);
        fill(&mut fresh);
        let rows_bytes = fresh.rows_bytes();
        let expected = fresh.finish();

        let mut b = RecordBatchBuilder::new(layout);
        fill(&mut b);
        let first = b.finish();
        let (empty, no_rows) = (b.held_bytes(), b.rows_bytes());
        b.recycle(first, usize::MAX);
        let kept = b.held_bytes();
        assert!(kept > empty + rows_bytes / 2, "{layout:?}: kept {kept} of {rows_bytes}");
        assert_eq!((b.rows(), b.rows_bytes()), (0, no_rows), "{layout:?}: kept buffers are empty");
        fill(&mut b);
        assert_eq!(b.rows_bytes(), rows_bytes, "{layout:?}");
        // Only the validity bitmaps (not kept) are allocated again.
        let grown = b.held_bytes() - kept;
        assert_eq!(
            grown,
            validity_bytes(&b.columns),
            "{layout:?}: the rows fit in the buffers kept"
        );
        assert_eq!(b.finish(), expected, "{layout:?}");

        // Nothing past `keep`; a batch still shared is dropped, not reused.
        let mut b = RecordBatchBuilder::new(layout);
        fill(&mut b);
        let batch = b.finish();
        b.recycle(batch, 0);
        assert_eq!(b.held_bytes(), empty, "{layout:?}");
        fill(&mut b);
        let batch = b.finish();
        let shared = batch.clone();
        b.recycle(batch, usize::MAX);
        assert_eq!(b.held_bytes(), empty, "{layout:?}");
        drop(shared);
    }
}

/// Bytes the validity bitmaps of `cols` hold.
#[cfg(feature = "parquet")]
fn validity_bytes(cols: &Columns) -> usize {
    fn of(c: &Column) -> usize {
        match c {
            Column::Str(s) => s.valid.allocated_size(),
            Column::Int(_, v) | Column::Date(_, v) | Column::Float(_, v) | Column::Bool(_, v) => {
                v.allocated_size()
            }
            Column::Struct(cols, v) => validity_bytes(cols) + v.allocated_size(),
            Column::List(_, items) => of(items),
        }
    }
    cols.cols.iter().map(of).sum()
}
