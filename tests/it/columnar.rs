//! The Arrow / Parquet form of records equals the JSON Lines form, field by field, on every
//! file of the real corpus (with extraction on, so every column is exercised) and on every
//! fixture and fuzz regression (hostile and odd input): each record
//! is encoded as JSON and appended to an Arrow builder; the batches go through a Parquet
//! file in memory and are read back; every row, turned into JSON by the generic converter
//! below (nulls, empty strings, empty lists and empty objects omitted, as the JSON writer
//! does), must equal the JSON record with its dates as microseconds.

use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int64Type, TimestampMicrosecondType};
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use bumpalo::Bump;
use feedmill::columnar::parquet::{Codec, ParquetOptions, ParquetSink};
use feedmill::columnar::{schema, timestamp_micros, Layout, RecordBatchBuilder};
use feedmill::extract::{extract, ExtractOptions};
use feedmill::sink::json::encode_record;
use feedmill::sink::RecordView;
use feedmill::{Options, Parser};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::{Map, Value};

/// Every file under `corpus/real`, as the bulk reader walks it: the feeds, and the manifest
/// and README beside them (records that are not feeds).
fn corpus_files() -> Vec<PathBuf> {
    crate::files_under(&Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/real"))
}

/// Runs every corpus file, and the Podcasting 2.0 fixture (every `double` column), through
/// the parser (with extraction), handing each record view to `each` as the bulk pipeline
/// would.
fn for_each_record(each: impl FnMut(&RecordView<'_, '_>)) -> usize {
    let mut files = corpus_files();
    files.push(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/fixtures/extended/podcasting-2.0.xml"),
    );
    for_each_record_of(&files, each)
}

/// Runs `files` through the parser (with extraction), handing each record view to `each`
/// as the bulk pipeline would (a file that is no feed is its record too).
fn for_each_record_of(files: &[PathBuf], mut each: impl FnMut(&RecordView<'_, '_>)) -> usize {
    // Linting on, so the `findings` column is compared too.
    let mut options = Options::default();
    options.lint = Some(feedmill::lint::LintOptions::at(1_700_000_000));
    let mut parser = Parser::new(options);
    let arena = Bump::new();
    let opts = ExtractOptions::default();
    for path in files {
        let bytes = std::fs::read(path).unwrap();
        let source = path.to_str().unwrap();
        let parsed = parser.parse_bytes(&bytes, Some("https://example.org/feed.xml"));
        let parsed = parsed.unwrap();
        let extraction = parsed.feed.as_ref().map(|f| extract(f, &arena, &opts));
        let rec = RecordView {
            extraction: extraction.as_ref(),
            ..RecordView::parsed(source, Some("https://example.org/feed.xml"), &parsed)
        };
        each(&rec);
    }
    files.len()
}

/// One row of `a` as JSON, with the JSON writer's omission rules; `None` when omitted.
fn value(a: &dyn Array, i: usize) -> Option<Value> {
    if a.is_null(i) {
        return None;
    }
    match a.data_type() {
        DataType::Utf8 => {
            let s = a.as_string::<i32>().value(i);
            (!s.is_empty()).then(|| Value::from(s))
        }
        DataType::Int64 => Some(Value::from(a.as_primitive::<Int64Type>().value(i))),
        DataType::Float64 => Some(Value::from(a.as_primitive::<Float64Type>().value(i))),
        DataType::Boolean => Some(Value::from(a.as_boolean().value(i))),
        DataType::Timestamp(_, _) => {
            Some(Value::from(a.as_primitive::<TimestampMicrosecondType>().value(i)))
        }
        DataType::Struct(fields) => {
            let s = a.as_struct();
            let mut o = Map::new();
            for (f, c) in fields.iter().zip(s.columns()) {
                if let Some(v) = value(c.as_ref(), i) {
                    o.insert(f.name().clone(), v);
                }
            }
            (!o.is_empty()).then_some(Value::Object(o))
        }
        DataType::List(_) => {
            let items = a.as_list::<i32>().value(i);
            let v: Vec<Value> = (0..items.len())
                .map(|j| value(items.as_ref(), j).unwrap_or_else(|| Value::Object(Map::new())))
                .collect();
            (!v.is_empty()).then_some(Value::Array(v))
        }
        other => panic!("unexpected column type {other}"),
    }
}

fn row(batch: &RecordBatch, i: usize) -> Value {
    let mut o = Map::new();
    for (f, c) in batch.schema().fields().iter().zip(batch.columns()) {
        if let Some(v) = value(c.as_ref(), i) {
            o.insert(f.name().clone(), v);
        }
    }
    Value::Object(o)
}

/// The JSON record with every date (`updated`, `published`, lenient `value`) as
/// microseconds since the epoch.
fn dates_as_micros(v: &mut Value) {
    match v {
        Value::Object(o) => {
            for (k, v) in o.iter_mut() {
                if k == "findings" {
                    // A finding's `value` is the text at fault, not a date. An empty one is
                    // `""` in both forms, which `row` (omitting empty strings) cannot show.
                    for f in v.as_array_mut().into_iter().flatten() {
                        f.as_object_mut().unwrap().retain(|_, p| p != "");
                    }
                    continue;
                }
                let date_key = matches!(
                    k.as_str(),
                    "updated"
                        | "published"
                        | "computed_updated"
                        | "pub_date"
                        | "last_build_date"
                        | "update_base"
                        // Podcasting 2.0: trailer, update frequency, live item.
                        | "pubdate"
                        | "dtstart"
                        | "start"
                        | "end"
                );
                // `value` is a lenient date's, or a Media RSS rating's (not a date).
                if date_key || k == "value" {
                    if let Value::String(s) = v {
                        let t = feedmill::model::date::parse_rfc3339(s);
                        if let Some(t) = t {
                            *v = Value::from(timestamp_micros(t).unwrap());
                            continue;
                        }
                        assert!(!date_key, "{k}: {s} is not an RFC 3339 date");
                    }
                }
                dates_as_micros(v);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(dates_as_micros),
        _ => {}
    }
}

fn parquet_round_trip(batches: &[RecordBatch], opts: ParquetOptions) -> Vec<RecordBatch> {
    let layout = opts.layout;
    let mut sink = ParquetSink::new(Vec::new(), opts).unwrap();
    for b in batches {
        sink.write_batch(b).unwrap();
    }
    let bytes = bytes::Bytes::from(sink.close().unwrap());
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes).unwrap();
    assert_eq!(reader.schema().fields(), schema(layout).fields());
    reader.build().unwrap().map(|b| b.unwrap()).collect()
}

/// A record with an empty `source` (one built without a name, as the Python bindings build a
/// row with neither `source` nor `url`) makes a valid batch: `source` is never null, so it is
/// an empty string there (the builder panicked: its batch failed its own schema).
#[test]
fn a_record_with_an_empty_source_makes_a_valid_batch() {
    for layout in [Layout::Records, Layout::Entries] {
        let mut b = RecordBatchBuilder::new(layout);
        b.append(&RecordView::error("", None, "no_body", "the record has no body"));
        b.append(&RecordView::error("named", None, "io", "gone"));
        let batch = b.finish();
        assert_eq!(batch.schema(), schema(layout));
        let source = batch.column_by_name("source").unwrap();
        assert_eq!(source.null_count(), 0);
        let source = source.as_any().downcast_ref::<arrow_array::StringArray>().unwrap();
        assert_eq!((source.value(0), source.value(1)), ("", "named"));
    }
}

#[test]
fn parquet_equals_json_lines_on_the_real_corpus() {
    let (n, json) = parquet_equals_json_lines(|each| for_each_record(each));
    assert!(n >= 287, "{n}");
    let mut html_titles = 0;
    let mut entries = 0;
    for j in &json {
        entries += j["feed"]["entries"].as_array().map_or(0, |e| e.len());
        if let Some(es) = j["feed"]["entries"].as_array() {
            html_titles += es.iter().filter(|e| e["summary_type"] == "html").count();
        }
    }
    // The corpus has thousands of entries, HTML values and lint findings: the comparison is
    // not vacuous.
    assert!(entries > 5000, "{entries}");
    assert!(html_titles > 1000, "{html_titles}");
    let findings: usize = json.iter().map(|j| j["findings"].as_array().map_or(0, Vec::len)).sum();
    assert!(findings > 100, "{findings}");
}

/// The same on hostile and odd input: every fixture (hostile documents, encodings, dates,
/// recovery rules, lint cases, JSON Feed) and every committed fuzz regression read as a
/// document — the Parquet output must say what the JSON Lines output says there too.
#[test]
fn parquet_equals_json_lines_on_every_fixture_and_fuzz_regression() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = crate::files_under(&root.join("corpus/fixtures"));
    files.extend(crate::files_under(&root.join("fuzz/regressions")));
    let (n, json) = parquet_equals_json_lines(|each| for_each_record_of(&files, each));
    assert!(n > 700, "{n}");
    let errors = json.iter().filter(|j| j["status"] == "error").count();
    let feeds = json.iter().filter(|j| j["status"] == "ok").count();
    assert!(feeds > 500, "{feeds} feeds, {errors} errors");
}

/// Appends every record `run` gives to an Arrow builder (batches of 50) and encodes it as
/// JSON; writes the batches to a Parquet file in memory, reads them back and asserts every
/// row equals its JSON record. Returns the records run and the JSON records.
fn parquet_equals_json_lines(
    run: impl FnOnce(&mut dyn FnMut(&RecordView<'_, '_>)) -> usize,
) -> (usize, Vec<Value>) {
    let mut json = Vec::new();
    let mut builder = RecordBatchBuilder::new(Layout::Records);
    let mut batches = Vec::new();
    let n = run(&mut |rec| {
        let mut line = Vec::new();
        encode_record(&mut line, rec);
        let mut v: Value = serde_json::from_slice(&line).unwrap();
        dates_as_micros(&mut v);
        json.push(v);
        builder.append(rec);
        // Small batches: many row groups and batch boundaries are exercised.
        if builder.records() == 50 {
            batches.push(builder.finish());
        }
    });
    batches.push(builder.finish());
    let opts = ParquetOptions { row_group_records: 100, ..ParquetOptions::default() };
    let back = parquet_round_trip(&batches, opts);
    let rows: Vec<Value> = back.iter().flat_map(|b| (0..b.num_rows()).map(|i| row(b, i))).collect();
    assert_eq!(rows.len(), json.len());
    for (a, j) in rows.iter().zip(&json) {
        assert_eq!(a, j, "record {}", j["source"]);
    }
    (n, json)
}

#[test]
fn entry_layout_has_one_row_per_entry_and_one_per_record_without_entries() {
    let mut builder = RecordBatchBuilder::new(Layout::Entries);
    let mut expected_rows = 0;
    let mut first_titles = Vec::new();
    for_each_record(|rec| {
        let n = rec.feed.map_or(0, |f| f.entries.len());
        expected_rows += n.max(1);
        let first = rec.feed.and_then(|f| f.entries.first());
        if let Some(feedmill::Text::Plain(s)) = first.and_then(|e| e.title.as_ref()) {
            first_titles.push((rec.source.to_owned(), s.to_string()));
        }
        builder.append(rec);
    });
    let batch = builder.finish();
    let opts =
        ParquetOptions { layout: Layout::Entries, codec: Codec::Zstd, ..ParquetOptions::default() };
    let back = parquet_round_trip(&[batch], opts);
    let rows: Vec<Value> = back.iter().flat_map(|b| (0..b.num_rows()).map(|i| row(b, i))).collect();
    assert_eq!(rows.len(), expected_rows);
    // Every record without entries is one row without `entry_index`; entry 0's title is in
    // the row with `entry_index` 0 of its source.
    let no_entries = rows.iter().filter(|r| r.get("entry_index").is_none()).count();
    assert!(no_entries >= 2, "README.md and MANIFEST.tsv are not feeds");
    for (source, title) in first_titles.iter().take(50) {
        let r =
            rows.iter().find(|r| r["source"] == source.as_str() && r["entry_index"] == 0).unwrap();
        assert_eq!(r["title"], title.as_str());
        assert_eq!(r["title_type"], "text");
    }
}

/// The bulk pipeline's Parquet output (row groups encoded on the workers) has the records of
/// the one-by-one sink, in input order, in row groups of at most `row_group_records`.
#[test]
fn bulk_parquet_row_groups_are_bounded_and_in_order() {
    use feedmill::bulk::{write_parquet, Config, Input};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/real");
    let run = |threads: usize, row_group_records: usize, row_group_bytes: usize| {
        let cfg = Config { threads, ..Config::default() };
        let opts =
            ParquetOptions { row_group_records, row_group_bytes, ..ParquetOptions::default() };
        let inputs = vec![Input::Path(root.clone())];
        let (summary, out) = write_parquet(inputs, &cfg, Vec::new(), opts, &mut |_| {}).unwrap();
        let bytes = bytes::Bytes::from(out);
        let reader = ParquetRecordBatchReaderBuilder::try_new(bytes).unwrap();
        let groups: Vec<i64> =
            reader.metadata().row_groups().iter().map(|g| g.num_rows()).collect();
        let batches: Vec<RecordBatch> = reader.build().unwrap().map(|b| b.unwrap()).collect();
        let sources: Vec<String> = batches
            .iter()
            .flat_map(|b| {
                let s = b.column_by_name("source").unwrap().as_string::<i32>().clone();
                (0..s.len()).map(move |i| s.value(i).to_owned())
            })
            .collect();
        (summary.records, groups, sources)
    };
    let (n, groups, sources) = run(3, 40, 8 << 20);
    assert!(n >= 287, "{n}");
    assert_eq!(sources.len() as u64, n);
    // Batches close at 40 records (or 8 MiB of bodies, which a few large files may reach).
    assert!(groups.len() as u64 >= n.div_ceil(40), "{groups:?}");
    assert!(groups.iter().all(|&g| g <= 40), "{groups:?}");
    assert_eq!(groups.iter().sum::<i64>() as u64, n);
    // The same records in the same order with one thread and one row group.
    let (_, one, sources_1) = run(1, 100_000, usize::MAX);
    assert_eq!(one, vec![n as i64]);
    assert_eq!(sources, sources_1);
}

/// Every page codec stores the same rows, and the file says which codec it used.
#[test]
fn every_codec_reads_back_the_same_rows() {
    use parquet::basic::Compression;
    let mut builder = RecordBatchBuilder::new(Layout::Records);
    for_each_record(|rec| builder.append(rec));
    let batch = builder.finish();
    let codecs = [
        (Codec::Snappy, Compression::SNAPPY),
        (Codec::Lz4, Compression::LZ4_RAW),
        (Codec::Zstd, Compression::ZSTD(parquet::basic::ZstdLevel::try_new(1).unwrap())),
        (Codec::None, Compression::UNCOMPRESSED),
    ];
    for (codec, stored) in codecs {
        let opts = ParquetOptions { codec, ..ParquetOptions::default() };
        let mut sink = ParquetSink::new(Vec::new(), opts).unwrap();
        sink.write_batch(&batch).unwrap();
        let bytes = bytes::Bytes::from(sink.close().unwrap());
        let reader = ParquetRecordBatchReaderBuilder::try_new(bytes).unwrap();
        let column = reader.metadata().row_group(0).column(0);
        assert_eq!(column.compression(), stored, "{codec:?}");
        let back: Vec<RecordBatch> = reader.build().unwrap().map(|b| b.unwrap()).collect();
        // The corpus (289 records) is below the reader's batch size: one batch back.
        assert_eq!(back, std::slice::from_ref(&batch), "{codec:?}");
    }
}

/// Chunk statistics are kept where a reader prunes row groups by them (the record's and the
/// feed's own columns) and left out for leaves inside lists and for long free text.
#[test]
fn statistics_are_kept_on_key_columns_only() {
    let mut builder = RecordBatchBuilder::new(Layout::Records);
    for_each_record(|rec| builder.append(rec));
    let mut sink = ParquetSink::new(Vec::new(), ParquetOptions::default()).unwrap();
    sink.write_batch(&builder.finish()).unwrap();
    let bytes = bytes::Bytes::from(sink.close().unwrap());
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes).unwrap();
    let group = reader.metadata().row_group(0);
    let stats = |path: &str| {
        let col = group.columns().iter().find(|c| c.column_path().string() == path);
        col.unwrap_or_else(|| panic!("no column {path}")).statistics().is_some()
    };
    for kept in ["source", "status", "feed.updated", "feed.title", "feed.language"] {
        assert!(stats(kept), "{kept} should have statistics");
    }
    for dropped in [
        "feed.description",
        "feed.entries.list.item.content",
        "feed.entries.list.item.published",
        "diagnostics.list.item.kind",
    ] {
        assert!(!stats(dropped), "{dropped} should have no statistics");
    }
}

/// A row group closes once its records' bytes reach `row_group_bytes`, whatever capacity
/// their (recycled) buffers have: the corpus read three times in 2 MiB groups makes no more
/// groups than its bytes fill.
#[test]
fn bulk_parquet_row_groups_are_cut_by_record_bytes() {
    use feedmill::bulk::{write_parquet, Config, Input};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/real");
    let inputs = vec![Input::Path(root.clone()), Input::Path(root.clone()), Input::Path(root)];
    let total: u64 = 3 * corpus_files()
        .iter()
        .map(|f| std::fs::metadata(f).unwrap().len() + f.as_os_str().len() as u64)
        .sum::<u64>();
    let step = 2 << 20;
    let cfg = Config { threads: 1, ..Config::default() };
    let opts = ParquetOptions {
        row_group_records: 100_000,
        row_group_bytes: step,
        ..ParquetOptions::default()
    };
    let (summary, out) = write_parquet(inputs, &cfg, Vec::new(), opts, &mut |_| {}).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(out)).unwrap();
    let groups = reader.metadata().num_row_groups() as u64;
    assert_eq!(summary.records, 3 * corpus_files().len() as u64);
    assert!(groups <= total / step as u64 + 1, "{groups} row groups for {total} bytes");
    assert!(groups >= total / (2 * step as u64), "{groups} row groups for {total} bytes");
}

/// The `serde` feature's `Serialize` is the record's walk too: `serde_json` writes every
/// record (lint findings and extraction included) as the very bytes of its JSON line, and a
/// feed as the record's `feed` object.
#[test]
fn serde_json_of_every_record_is_its_json_line() {
    let mut checked = 0;
    let n = for_each_record(|rec| {
        let mut line = Vec::new();
        encode_record(&mut line, rec);
        let via_serde = serde_json::to_vec(rec).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&via_serde),
            String::from_utf8_lossy(&line),
            "{}",
            rec.source
        );
        if let Some(feed) = rec.feed {
            let plain = RecordView { extraction: None, ..*rec };
            let mut line = Vec::new();
            encode_record(&mut line, &plain);
            let v: Value = serde_json::from_slice(&line).unwrap();
            let f: Value = serde_json::from_slice(&serde_json::to_vec(feed).unwrap()).unwrap();
            // A feed with no value at all is `{}` on its own, left out of its record.
            let in_record =
                if v["feed"].is_null() { serde_json::json!({}) } else { v["feed"].clone() };
            assert_eq!(f, in_record, "{}", rec.source);
        }
        checked += 1;
    });
    assert_eq!(checked, n);
    assert!(n > 280, "{n} records");
}

/// Parses `xml` and hands its record view (named `source`) to `f`.
fn with_record<R>(source: &str, xml: &str, f: impl FnOnce(&RecordView<'_, '_>) -> R) -> R {
    let mut parser = Parser::new(Options::default());
    let parsed = parser.parse_bytes(xml.as_bytes(), None).unwrap();
    f(&RecordView::parsed(source, None, &parsed))
}

/// An RSS feed whose channel title is `title_bytes` long, with `items` items.
fn rss(title_bytes: usize, items: usize) -> String {
    let items: String = (0..items).map(|i| format!("<item><title>i{i}</title></item>")).collect();
    format!("<rss><channel><title>{}</title>{items}</channel></rss>", "t".repeat(title_bytes))
}

fn error_kind(batch: &RecordBatch, row: usize) -> Option<String> {
    let error = batch.column_by_name("error").unwrap().as_struct();
    let kind = error.column_by_name("kind").unwrap().as_string::<i32>();
    (!error.is_null(row)).then(|| kind.value(row).to_owned())
}

/// A record that does not fit beside the rows a builder holds is refused whole by
/// `try_append` (the builder unchanged); one that cannot fit in an empty builder becomes its
/// `output_too_large` error record, one row, and the batch is valid.
#[test]
fn a_record_past_the_column_limit_is_refused_whole_or_becomes_an_error_record() {
    let mut b = RecordBatchBuilder::new(Layout::Records).with_column_limit(1000);
    with_record("a", &rss(600, 3), |rec| assert!(b.try_append(rec)));
    let held = (b.records(), b.rows());
    with_record("b", &rss(600, 3), |rec| assert!(!b.try_append(rec)));
    assert_eq!((b.records(), b.rows()), held, "a refused record leaves no rows");
    let first = b.finish();
    assert_eq!(first.num_rows(), 1);
    with_record("b", &rss(600, 3), |rec| assert!(b.try_append(rec)));
    with_record("huge", &rss(5000, 3), |rec| b.append(rec));
    with_record("c", &rss(10, 3), |rec| b.append(rec));
    let batch = b.finish();
    assert_eq!(batch.schema(), schema(Layout::Records));
    assert_eq!(batch.num_rows(), 3, "one row per record, the too large one included");
    let source = batch.column_by_name("source").unwrap().as_string::<i32>();
    let status = batch.column_by_name("status").unwrap().as_string::<i32>();
    assert_eq!((source.value(1), status.value(1)), ("huge", "error"));
    assert_eq!(error_kind(&batch, 1).as_deref(), Some(feedmill::columnar::OUTPUT_TOO_LARGE));
    assert_eq!((error_kind(&batch, 0), error_kind(&batch, 2)), (None, None));
    assert_eq!(status.value(2), "ok");
}

/// In the entries layout a record's values copied into every entry count once per entry:
/// a channel title that fits once but not 50 times makes the record an error row.
#[test]
fn entries_copying_a_value_past_the_column_limit_make_one_error_row() {
    let mut b = RecordBatchBuilder::new(Layout::Entries).with_column_limit(10_000);
    with_record("fits", &rss(100, 50), |rec| b.append(rec));
    with_record("copied", &rss(1000, 50), |rec| b.append(rec));
    let batch = b.finish();
    assert_eq!(batch.num_rows(), 51, "50 entry rows, then one error row");
    assert_eq!(error_kind(&batch, 50).as_deref(), Some("output_too_large"));
    assert!(batch.column_by_name("feed_title").unwrap().is_null(50));
}

/// The Parquet sink cuts a row group before a column would pass its limit, and writes every
/// record: the file holds one row per record, in order, the one too large for any row group
/// as its error record.
#[test]
fn parquet_row_groups_are_cut_by_column_bytes_and_keep_every_record() {
    let opts = ParquetOptions { column_limit: 2000, ..ParquetOptions::default() };
    let mut sink = ParquetSink::new(Vec::new(), opts).unwrap();
    let sizes = [700, 700, 700, 5000, 700, 10];
    for (i, n) in sizes.iter().enumerate() {
        with_record(&format!("r{i}"), &rss(*n, 2), |rec| sink.append(rec).unwrap());
    }
    let bytes = bytes::Bytes::from(sink.close().unwrap());
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes).unwrap();
    let groups: Vec<i64> = reader.metadata().row_groups().iter().map(|g| g.num_rows()).collect();
    assert!(groups.len() >= 3, "{groups:?}");
    let batches: Vec<RecordBatch> = reader.build().unwrap().map(|b| b.unwrap()).collect();
    let mut got = Vec::new();
    let mut kinds = Vec::new();
    for batch in &batches {
        let source = batch.column_by_name("source").unwrap().as_string::<i32>();
        got.extend((0..batch.num_rows()).map(|i| source.value(i).to_owned()));
        kinds.extend((0..batch.num_rows()).map(|i| error_kind(batch, i)));
    }
    assert_eq!(got, ["r0", "r1", "r2", "r3", "r4", "r5"]);
    assert_eq!(kinds[3].as_deref(), Some("output_too_large"));
    assert!(kinds.iter().enumerate().all(|(i, k)| i == 3 || k.is_none()), "{kinds:?}");
}

/// Data pages end at 128 KiB of values (parquet-rs's default is 1 MiB): 400 records of one
/// item with a 1,000-byte description make several pages of their `summary` column, none
/// past 128 KiB by more than one record's values, and the rows read back the same.
#[test]
fn data_pages_end_at_128_kib() {
    use parquet::basic::PageType;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let mut builder = RecordBatchBuilder::new(Layout::Records);
    for i in 0..400 {
        let text = format!("{i:04}{}", "d".repeat(996));
        let xml =
            format!("<rss><channel><item><description>{text}</description></item></channel></rss>");
        with_record(&format!("r{i}"), &xml, |rec| builder.append(rec));
    }
    let batch = builder.finish();
    let opts = ParquetOptions { codec: Codec::None, ..ParquetOptions::default() };
    let mut sink = ParquetSink::new(Vec::new(), opts.clone()).unwrap();
    sink.write_batch(&batch).unwrap();
    let bytes = bytes::Bytes::from(sink.close().unwrap());
    let reader = SerializedFileReader::new(bytes).unwrap();
    let group = reader.get_row_group(0).unwrap();
    let path = "feed.entries.list.item.summary";
    let col = group.metadata().columns().iter().position(|c| c.column_path().string() == path);
    let pages: Vec<usize> = group
        .get_column_page_reader(col.unwrap())
        .unwrap()
        .map(|p| p.unwrap())
        .filter(|p| matches!(p.page_type(), PageType::DATA_PAGE | PageType::DATA_PAGE_V2))
        .map(|p| p.buffer().len())
        .collect();
    assert!(pages.len() >= 3, "{pages:?}");
    assert!(pages.iter().all(|&n| n <= (128 << 10) + 2048), "{pages:?}");
    assert_eq!(parquet_round_trip(std::slice::from_ref(&batch), opts), [batch]);
}
