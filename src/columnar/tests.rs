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
        ..RecordView::default()
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
            Column::List(_, items, _) => of(items),
        }
    }
    cols.cols.iter().map(of).sum()
}

/// Every file of `corpus/real` and `corpus/fixtures`, recursively, in a fixed order.
#[cfg(feature = "parquet")]
fn corpus_and_fixtures() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files = Vec::new();
    let mut dirs = vec![root.join("real"), root.join("fixtures")];
    while let Some(d) = dirs.pop() {
        let Ok(read) = std::fs::read_dir(&d) else { continue };
        let mut entries: Vec<_> = read.map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                dirs.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files
}

/// Our column-chunk encoder (`columnar::pages`) against parquet-rs's Arrow column writers
/// (the oracle): for the real corpus and the fixtures (parsed with extraction and linting),
/// in both layouts and with every codec, the files read back with parquet-rs's Arrow reader
/// hold the same rows (nulls and empty lists alike), and every column chunk has the same
/// statistics, level histograms, value count and codec.
#[cfg(feature = "parquet")]
#[test]
fn chunk_encoder_reads_back_as_parquet_rs_arrow_writer() {
    use crate::columnar::parquet::{assert_same_as_oracle, Codec, ParquetOptions, ParquetSink};

    let files = corpus_and_fixtures();
    assert!(files.len() > 100, "corpus found: {}", files.len());
    let options = crate::Options {
        lint: Some(crate::lint::LintOptions::at(1_700_000_000)),
        ..crate::Options::default()
    };
    let mut parser = crate::Parser::new(options);
    let arena = bumpalo::Bump::new();
    let xopts = crate::extract::ExtractOptions::default();
    // The records, as the sink's own rows (`append`) and as one batch the sink slices into
    // row groups (`write_batch`: arrays with offsets).
    let each = |parser: &mut crate::Parser, f: &mut dyn FnMut(&RecordView<'_, '_>)| {
        for path in &files {
            let bytes = std::fs::read(path).unwrap();
            let source = path.to_str().unwrap();
            match parser.parse_bytes(&bytes, Some("https://example.org/feed.xml")) {
                Ok(parsed) => {
                    let extraction =
                        parsed.feed.as_ref().map(|f| crate::extract::extract(f, &arena, &xopts));
                    let rec = RecordView {
                        extraction: extraction.as_ref(),
                        ..RecordView::parsed(source, Some("https://example.org/feed.xml"), &parsed)
                    };
                    f(&rec);
                }
                Err(e) => {
                    let message = e.to_string();
                    f(&RecordView::error(source, None, "parse", &message));
                }
            }
        }
    };
    let write = |layout: Layout,
                 codec: Codec,
                 oracle: bool,
                 whole: bool,
                 parser: &mut crate::Parser| {
        // Small row groups, so that files have several and pages are cut by row groups too.
        let opts =
            ParquetOptions { layout, codec, row_group_records: 97, ..ParquetOptions::default() };
        let mut sink = ParquetSink::new(Vec::new(), opts).unwrap();
        sink.use_arrow_oracle(oracle);
        if whole {
            let mut b = RecordBatchBuilder::new(layout);
            each(parser, &mut |rec| b.append(rec));
            sink.write_batch(&b.finish()).unwrap();
        } else {
            each(parser, &mut |rec| sink.append(rec).unwrap());
        }
        bytes::Bytes::from(sink.close().unwrap())
    };
    let codecs = [Codec::Snappy, Codec::Lz4, Codec::Zstd, Codec::None];
    let mut with_stats = 0;
    let runs = codecs.iter().flat_map(|&c| [(Layout::Records, c), (Layout::Entries, c)]);
    for (k, (layout, codec)) in runs.enumerate() {
        let whole = k % 3 == 0;
        let ours = write(layout, codec, false, whole, &mut parser);
        let theirs = write(layout, codec, true, whole, &mut parser);
        assert_ne!(ours, theirs, "the oracle is another encoder");
        let what = format!("{layout:?} {codec:?} whole batch {whole}");
        let read = assert_same_as_oracle(&ours, &theirs, &what);
        let rows: usize = read.batches.iter().map(|b| b.num_rows()).sum();
        assert!(rows >= files.len(), "{what}: {rows} rows");
        assert!(read.row_groups > 2, "{what}");
        with_stats += read.chunks_with_statistics;
    }
    assert!(with_stats > 1000, "{with_stats} chunks with statistics");
}

/// The running [`RecordBatchBuilder::rows_bytes`] equals the sum over every column after
/// every record, after a record that did not fit was undone (`truncate`), after an error
/// record, and after `finish` and `recycle`, in both layouts.
#[cfg(feature = "parquet")]
#[test]
fn running_rows_bytes_equals_the_walked_sum() {
    let mut parser = crate::Parser::new(crate::Options::default());
    let doc = br#"<rss version="2.0"><channel><title>T</title><ttl>5</ttl>
<item><title>One</title><category>a</category><category>b</category><pubDate>Tue, 02 Jan 2024 03:04:05 GMT</pubDate></item>
<item><description>&lt;p&gt;Two, a longer value that fills the column&lt;/p&gt;</description><enclosure url="http://e/x.mp3" length="12" type="audio/mpeg"/></item>
<item/>
</channel></rss>"#;
    let parsed = parser.parse_bytes(doc, None).unwrap();
    for layout in [Layout::Records, Layout::Entries] {
        let check = |b: &RecordBatchBuilder, at: &str| {
            assert_eq!(b.rows_bytes(), b.walked_rows_bytes(), "{layout:?} {at}");
        };
        // A limit that a few records fill: later ones are cut back, or are error records.
        let mut b = RecordBatchBuilder::new(layout).with_column_limit(400);
        check(&b, "empty");
        for round in 0..3 {
            for i in 0..23 {
                let feed = if i % 5 == 2 { None } else { parsed.feed.as_ref() };
                if !b.try_append(&view(feed)) {
                    check(&b, "after a record that did not fit");
                    b.append(&view(feed));
                }
                check(&b, &format!("round {round}, record {i}"));
                if i == 11 {
                    let rows = b.rows();
                    b.append(&view(feed));
                    b.truncate(rows);
                    check(&b, "truncated");
                }
            }
            let batch = b.finish();
            check(&b, "finished");
            b.recycle(batch, usize::MAX);
            check(&b, "recycled");
        }
    }
}

/// An HTML value serialized into its column in place that takes the column past its limit
/// is cut off again: the record is refused, the running sizes stay right, and the batch is
/// the one made without that record.
#[cfg(feature = "parquet")]
#[test]
fn an_html_value_past_the_limit_is_cut_off_again() {
    let (mut p1, mut p2) =
        (crate::Parser::new(Default::default()), crate::Parser::new(Default::default()));
    let small = br#"<feed xmlns="http://www.w3.org/2005/Atom"><title type="html">&lt;i&gt;s&lt;/i&gt;</title></feed>"#;
    let big = br#"<feed xmlns="http://www.w3.org/2005/Atom"><title type="html">&lt;p&gt;a value longer than the forty bytes the column may hold&lt;/p&gt;</title></feed>"#;
    let small = p1.parse_bytes(small, None).unwrap();
    let big = p2.parse_bytes(big, None).unwrap();
    let mut a = RecordBatchBuilder::new(Layout::Records).with_column_limit(40);
    let mut b = RecordBatchBuilder::new(Layout::Records).with_column_limit(40);
    for x in [&mut a, &mut b] {
        assert!(x.try_append(&view(small.feed.as_ref())));
    }
    assert!(!a.try_append(&view(big.feed.as_ref())));
    assert_eq!(a.rows_bytes(), a.walked_rows_bytes());
    for x in [&mut a, &mut b] {
        assert!(x.try_append(&view(small.feed.as_ref())));
    }
    assert_eq!(a.rows_bytes(), a.walked_rows_bytes());
    let (a, b) = (a.finish(), b.finish());
    assert_eq!(a, b);
    let feed = a.column_by_name("feed").unwrap().as_struct();
    let title = feed.column_by_name("title").unwrap().as_string::<i32>();
    assert_eq!((title.value(0), title.value(1)), ("<i>s</i>", "<i>s</i>"));
}
