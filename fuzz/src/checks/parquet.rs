//! The `parquet` target: the records of any documents written as a Parquet file by our
//! column-chunk encoder (`columnar::pages`), checked against parquet-rs's Arrow column
//! writers and read back with parquet-rs's Arrow reader.

use super::*;
use ::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use feedmill::columnar::arrow_array::cast::AsArray;
use feedmill::columnar::arrow_array::{Array, RecordBatch};
use feedmill::columnar::parquet::{assert_same_as_oracle, Codec, ParquetOptions, ParquetSink};
use feedmill::columnar::{Layout, RecordBatchBuilder, OUTPUT_TOO_LARGE};
use feedmill::extract::{extract, ExtractOptions};
use feedmill::lint::LintOptions;
use feedmill::record::{Capture, RecordView};

/// Separates the documents of a `parquet` input.
pub const PARQUET_SEPARATOR: &[u8] = b"\xff\xff\xff";

/// Documents of one `parquet` input at most.
const MAX_DOCUMENTS: usize = 16;

/// Input of `parquet`: settings, then documents, each one record.
///
/// - byte 0, flags: bit 0 the entry layout (else one row per record); bits 1-2 the codec
///   (Snappy, LZ4, Zstd, none); bit 3 the records built into one batch and written with
///   `write_batch` (else appended one by one with `append`); bit 4 lint and extraction on;
///   bit 5 a `capture` on every record (type, dates, strings, status varying per record);
/// - byte 1: records per row group, `% 8 + 1` (a batch written whole: rows per row group, at
///   least its rows / 16);
/// - byte 2: the column limit (`append` only): 0 the default, else `byte * 16` bytes, so that
///   records cut row groups and records too large alone become `output_too_large` records;
/// - byte 3: the held-bytes bound of an open row group: 0 the default, else `byte * 64`;
/// - then documents separated by `\xff\xff\xff` (at most 16; the rest is the last one),
///   each parsed as a feed (base URL `https://example.org/feed.xml`): its record, or the
///   `parse` error record when it cannot be read.
///
/// Invariants: both encoders write a file parquet-rs reads; the two files hold the same
/// rows (every column, nulls and empty lists alike), the same row groups with the same row
/// counts, and every column chunk the same statistics, value count, codec, level
/// histograms and unencoded byte-array bytes; every input record is exactly one row (one
/// per entry, at least one, in the entry layout) unless it became its `output_too_large`
/// record (one row); written as one batch, the rows read back equal the batch written.
pub fn check_parquet(data: &[u8]) {
    let mut b = Bytes::new(data);
    let flags = b.u8();
    let layout = if flags & 1 == 0 { Layout::Records } else { Layout::Entries };
    let codec = [Codec::Snappy, Codec::Lz4, Codec::Zstd, Codec::None][usize::from(flags >> 1 & 3)];
    let whole = flags & 8 != 0;
    let lint_and_extract = flags & 16 != 0;
    let captures = flags & 32 != 0;
    let row_group_records = usize::from(b.u8() % 8) + 1;
    let column_limit = match b.u8() {
        0 => ParquetOptions::default().column_limit,
        n => usize::from(n) * 16,
    };
    let row_group_held_bytes = match b.u8() {
        0 => ParquetOptions::default().row_group_held_bytes,
        n => usize::from(n) * 64,
    };
    let rest = b.take(usize::MAX);
    let mut documents = Vec::new();
    let mut tail = rest;
    while documents.len() + 1 < MAX_DOCUMENTS {
        let Some(at) = find(tail, PARQUET_SEPARATOR) else { break };
        documents.push(&tail[..at]);
        tail = &tail[at + PARQUET_SEPARATOR.len()..];
    }
    documents.push(tail);

    let mut options = Options::default();
    options.lint = lint_and_extract.then(|| LintOptions::at(1_700_000_000));
    let mut parser = Parser::new(options);
    let arena = Bump::new();
    let xopts = ExtractOptions::default();
    let base = Some("https://example.org/feed.xml");
    let sources: Vec<String> = (0..documents.len()).map(|i| format!("doc{i}.xml")).collect();
    let capture_of = |i: usize, doc: &[u8]| Capture {
        record_type: Some(["response", "resource", "revisit"][i % 3]),
        date: Timestamp::from_unix((i as i64 - 3) * 987_654_321),
        target_uri: Some(String::from_utf8_lossy(&doc[..doc.len().min(40)]).into_owned()),
        record_id: i.is_multiple_of(2).then(|| format!("<urn:uuid:{i}>")),
        payload_digest: None,
        http_status: (i % 3 != 1).then_some(200 + i as u16),
        content_type: Some("application/rss+xml".to_owned()),
        truncated: (i % 4 == 3).then(|| "length".to_owned()),
        refers_to_record_id: None,
        refers_to_target_uri: (i % 3 == 2).then(|| "https://example.org/".to_owned()),
        refers_to_date: Timestamp::from_unix(i as i64),
        refers_to_source: None,
    };
    // Every record, in input order, as the sink's row source; and its rows as expected:
    // one, or one per entry in the entry layout.
    let mut expected_rows = Vec::new();
    let mut each = |parser: &mut Parser, f: &mut dyn FnMut(&RecordView<'_, '_>)| {
        expected_rows.clear();
        for (i, doc) in documents.iter().enumerate() {
            let capture = captures.then(|| capture_of(i, doc));
            let source = sources[i].as_str();
            match parser.parse_bytes(doc, base) {
                Ok(parsed) => {
                    let extraction = parsed
                        .feed
                        .as_ref()
                        .filter(|_| lint_and_extract)
                        .map(|f| extract(f, &arena, &xopts));
                    let rec = RecordView {
                        extraction: extraction.as_ref(),
                        capture: capture.as_ref(),
                        ..RecordView::parsed(source, base, &parsed)
                    };
                    let entries = parsed.feed.as_ref().map_or(0, |f| f.entries.len());
                    expected_rows.push(match layout {
                        Layout::Records => 1,
                        _ => entries.max(1),
                    });
                    f(&rec);
                }
                Err(e) => {
                    let message = e.to_string();
                    let rec = RecordView {
                        capture: capture.as_ref(),
                        ..RecordView::error(source, base, "parse", &message)
                    };
                    expected_rows.push(1);
                    f(&rec);
                }
            }
        }
    };
    // Written whole, the batch is built once; its row groups are at most as many as the
    // documents (an entry layout's rows could make hundreds, each ~400 column chunks).
    let written = whole.then(|| {
        let mut builder = RecordBatchBuilder::new(layout);
        each(&mut parser, &mut |rec| builder.append(rec));
        builder.finish()
    });
    let row_group_records = written
        .as_ref()
        .map_or(row_group_records, |b| row_group_records.max(b.num_rows().div_ceil(MAX_DOCUMENTS)));
    let opts = ParquetOptions {
        layout,
        codec,
        row_group_records,
        column_limit,
        row_group_held_bytes,
        ..ParquetOptions::default()
    };
    let mut write = |oracle: bool, parser: &mut Parser| {
        let mut sink = ParquetSink::new(Vec::new(), opts.clone()).expect("a Parquet sink starts");
        sink.use_arrow_oracle(oracle);
        match &written {
            Some(batch) => sink.write_batch(batch).expect("a batch is written"),
            None => each(parser, &mut |rec| sink.append(rec).expect("a record is written")),
        }
        bytes::Bytes::from(sink.close().expect("the file is closed"))
    };
    let ours = write(false, &mut parser);
    let theirs = write(true, &mut parser);
    let what = format!("{layout:?} {codec:?} whole batch {whole}");
    let obs = assert_same_as_oracle(&ours, &theirs, &what).batches;
    // One record, its rows: in order, by source; an `output_too_large` record is one row.
    let mut rows = Vec::new();
    for batch in &obs {
        let column = |name| batch.column_by_name(name).unwrap_or_else(|| panic!("a {name} column"));
        let (source, error) = (column("source").as_string::<i32>(), column("error").as_struct());
        let kind = error.column_by_name("kind").expect("error.kind").as_string::<i32>();
        for r in 0..batch.num_rows() {
            let too_large =
                error.is_valid(r) && kind.is_valid(r) && kind.value(r) == OUTPUT_TOO_LARGE;
            rows.push((source.value(r).to_owned(), too_large));
        }
    }
    let mut at = 0;
    for (i, &n) in expected_rows.iter().enumerate() {
        let source = &sources[i];
        let first = rows.get(at).unwrap_or_else(|| panic!("{what}: no row of {source}"));
        assert_eq!(&first.0, source, "{what}: rows out of input order");
        let n = if first.1 { 1 } else { n };
        for row in &rows[at..at + n.min(rows.len() - at)] {
            assert_eq!(&row.0, source, "{what}: {source} has {n} rows");
        }
        at += n;
    }
    assert_eq!(at, rows.len(), "{what}: rows past the records'");

    // Written as one batch, the rows read back are the batch.
    if let Some(batch) = written {
        let single = ParquetRecordBatchReaderBuilder::try_new(ours.clone())
            .expect("our file's footer reads")
            .with_batch_size(batch.num_rows().max(1))
            .build()
            .expect("our file reads");
        let back: Vec<RecordBatch> = single.map(|b| b.expect("our row groups read")).collect();
        if batch.num_rows() == 0 {
            assert!(back.is_empty(), "{what}: rows out of none");
        } else {
            assert_eq!(back.len(), 1, "{what}");
            for (k, (a, w)) in back[0].columns().iter().zip(batch.columns()).enumerate() {
                assert_eq!(
                    a,
                    w,
                    "{what}: column {} read back differs",
                    batch.schema().field(k).name()
                );
            }
        }
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}
