//! Parquet output of records: [`ParquetSink`] writes [`RecordBatch`]es (from
//! [`super::RecordBatchBuilder`]) to a Parquet file with the schema of [`super::schema`], one
//! row group at a time.
//!
//! Encoding (levels, Parquet pages, compression: `super::pages`) is separate from writing: a
//! `RowGroupEncoder` (cheap to clone, usable on any thread) turns a batch into an encoded
//! `RowGroup`, and `ParquetSink::write_row_group` appends it to the file. The bulk
//! pipeline (`feedmill::bulk::write_parquet`, feature `bulk`) encodes each row group on the
//! worker that parsed its records, so the ordered writer only copies finished bytes out.
//!
//! Memory: a row group is written out as soon as it is complete; the sink holds at most one
//! open row group's records ([`ParquetOptions::row_group_records`], and their Arrow rows
//! within [`ParquetOptions::row_group_held_bytes`]), and the pipeline at most the row groups
//! of the batches in flight. Memory is bounded by the records in flight, never by the file.
//! A builder whose rows were encoded takes back its column buffers for the next row group
//! (up to [`ParquetOptions::row_group_held_bytes`]) instead of allocating them again, and the
//! encoders keep the buffers of written row groups for the next ones (at most 4, of at most
//! 32 MiB each: a few MiB with the default row groups).
//!
//! No column overflows: a row group is cut before a string column's values pass
//! [`ParquetOptions::column_limit`] (Arrow's 32-bit offsets: 2 GiB − 1), and a record whose
//! rows alone would pass it, or whose row group cannot be encoded, is written as its error
//! record (`output_too_large`, `output_error`) in its place: every record is in the file.

use std::io::{self, Write};
use std::sync::{Arc, OnceLock};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_writer::ArrowWriterOptions;
#[cfg(any(test, feature = "internals"))]
use parquet::arrow::arrow_writer::{compute_leaves, ArrowColumnChunk, ArrowRowGroupWriterFactory};
use parquet::arrow::{add_encoded_arrow_schema_to_metadata, ArrowSchemaConverter, ArrowWriter};
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::KeyValue;
#[cfg(any(test, feature = "internals"))]
use parquet::file::properties::WriterPropertiesBuilder;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::SchemaDescriptor;

use super::pages::{ChunkEncoder, Encoded, Leaf};
use super::{schema, Layout, RecordBatchBuilder, COLUMN_BYTES_MAX};
use crate::record::RecordView;

/// The error kind of a record whose rows the Parquet encoder refused (the message is the
/// encoder's).
pub const OUTPUT_ERROR: &str = "output_error";

/// Page compression of the Parquet file. Every codec here is read by Spark (3.3+), DuckDB,
/// pyarrow and polars.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Codec {
    /// Snappy: the default, the codec every Parquet reader has supported longest.
    #[default]
    Snappy,
    /// LZ4 (the `LZ4_RAW` Parquet codec, block format): about Snappy's size, faster to write.
    Lz4,
    /// Zstandard at level 1: the smallest files, the slowest to write.
    Zstd,
    /// No compression: the fastest to write, the largest files.
    None,
}

/// Settings of a Parquet file.
#[derive(Clone, Debug)]
pub struct ParquetOptions {
    /// One row per record (default) or per entry.
    pub layout: Layout,
    /// Page compression; default Snappy.
    pub codec: Codec,
    /// Input records per row group at most. [`ParquetSink::write_batch`] splits a larger
    /// batch; records appended one by one ([`ParquetSink::append`]) are written every this many. Default: 4096.
    pub row_group_records: usize,
    /// Bytes of input (record bodies) per row group at most in the bulk pipeline's Parquet
    /// output (`feedmill::bulk::write_parquet`; a larger
    /// record is a row group of its own). Default: 8 MiB, about 2-4 MiB of Parquet.
    pub row_group_bytes: usize,
    /// Bytes the Arrow rows of an open row group may take in memory (their values, offsets
    /// and validity): once past it, the row group is encoded and written, so records whose
    /// rows are much larger than their input (values copied into every entry) make more row
    /// groups, not more memory. It also bounds the column buffers a writer keeps from one
    /// row group for the next, instead of allocating them again. Default: 128 MiB.
    pub row_group_held_bytes: usize,
    /// Bytes of one string column's values in one row group at most
    /// ([`RecordBatchBuilder::with_column_limit`]): the row group is cut before a record
    /// would pass it, and a record whose rows alone pass it is its `output_too_large` error
    /// record. Default and most: [`COLUMN_BYTES_MAX`] (2 GiB − 1, Arrow's 32-bit offsets);
    /// less makes the cut testable on small inputs.
    pub column_limit: usize,
}

impl Default for ParquetOptions {
    fn default() -> Self {
        ParquetOptions {
            layout: Layout::Records,
            codec: Codec::Snappy,
            row_group_records: 4096,
            row_group_bytes: 8 << 20,
            row_group_held_bytes: 128 << 20,
            column_limit: COLUMN_BYTES_MAX,
        }
    }
}

/// Bytes of a data page before compression at most (parquet-rs's default: 1 MiB), unless one
/// record's values in a column are more (a record never spans pages of a nested column).
/// NOTE: page-sized buffers (a column's encoded values, the assembled page, the compressor's
/// output) are then below the 1 MiB from which malloc serves a buffer with a fresh mapping
/// (glibc's threshold, which the CLI fixes at 1 MiB for a Parquet run): they come from its
/// arenas, reused page after page, instead of each being a new mapping the kernel zero-fills
/// on first touch. On the corpus ×10 WARC.gz at `-j2` that is 80,000 page faults instead of
/// 143,000 and 0.1 s less system time (user time the same, +1.1 % instructions, files
/// +0.12 %; perf/runs/2026-11-29-parquet-cpu). Readers see the same values.
const PAGE_BYTES: usize = 128 << 10;

/// Free-text leaves: long, distinct values whose min and max no reader prunes by.
const LONG_TEXT: [&str; 9] = [
    "content",
    "summary",
    "description",
    "subtitle",
    "content_text",
    "summary_text",
    "description_text",
    "subtitle_text",
    "body_text",
];

/// What every Parquet file of one layout has the same: its Arrow schema, the Parquet schema
/// converted from it, its leaves (with whether they have statistics), and the `ARROW:schema`
/// key-value metadata. Made once per process and layout ([`FileSchema::of`]), 4.9 M
/// instructions; a file's own setup is then 1.5 M (on corpus ×1 a file's setup and its drop
/// cost 10.0 M when all of it was made per file, the Parquet schema converted twice: for
/// the leaves and by the Arrow writer).
struct FileSchema {
    arrow: SchemaRef,
    parquet: SchemaDescriptor,
    leaves: Arc<[Leaf]>,
    /// The `ARROW:schema` entry, as parquet-rs's Arrow writer adds it.
    metadata: Vec<KeyValue>,
}

impl FileSchema {
    fn of(layout: Layout) -> io::Result<&'static FileSchema> {
        static RECORDS: OnceLock<Result<FileSchema, String>> = OnceLock::new();
        static ENTRIES: OnceLock<Result<FileSchema, String>> = OnceLock::new();
        let cell = match layout {
            Layout::Records => &RECORDS,
            Layout::Entries => &ENTRIES,
        };
        let made = cell.get_or_init(|| FileSchema::new(layout).map_err(|e| e.to_string()));
        made.as_ref().map_err(|e| io::Error::other(e.clone()))
    }

    fn new(layout: Layout) -> Result<Self, parquet::errors::ParquetError> {
        let arrow = schema(layout);
        let parquet = ArrowSchemaConverter::new().convert(&arrow)?;
        let leaves = parquet.columns().iter();
        let leaves = leaves.map(|col| Leaf { descr: col.clone(), stats: stats(col) }).collect();
        let mut props = WriterProperties::builder().build();
        add_encoded_arrow_schema_to_metadata(&arrow, &mut props);
        let metadata = props.key_value_metadata().cloned().unwrap_or_default();
        Ok(FileSchema { arrow, parquet, leaves, metadata })
    }
}

/// Chunk statistics (min, max, null count, level histograms) stay on the columns a reader
/// prunes row groups by (the record's and feed's own columns, the entry layout's entry
/// columns) and are off for the leaves inside lists (readers do not prune by list
/// elements, and those leaves hold most of the levels the histograms count) and for long
/// free text (a min and max copied from every write batch, for nothing).
fn stats(col: &parquet::schema::types::ColumnDescriptor) -> bool {
    !(col.max_rep_level() > 0 || LONG_TEXT.contains(&col.name()))
}

/// Only parquet-rs's column writers (the tests' oracle) read the per-column statistics
/// setting; our encoder reads `Leaf::stats` (a per-column entry for each of the some 300
/// leaves without statistics cost about 3.3 M instructions per file).
#[cfg(any(test, feature = "internals"))]
fn oracle_statistics(
    mut props: WriterPropertiesBuilder,
    leaves: &[Leaf],
) -> WriterPropertiesBuilder {
    for leaf in leaves.iter().filter(|l| !l.stats) {
        props =
            props.set_column_statistics_enabled(leaf.descr.path().clone(), EnabledStatistics::None);
    }
    props
}

/// A Parquet error as an I/O error; an I/O error of the output keeps its kind (a closed pipe
/// stays `BrokenPipe`).
fn err(e: parquet::errors::ParquetError) -> io::Error {
    match e {
        parquet::errors::ParquetError::External(inner) => match inner.downcast::<io::Error>() {
            Ok(io) => *io,
            Err(other) => io::Error::other(other),
        },
        e => io::Error::other(e),
    }
}

/// Encodes record batches of one layout into Parquet row groups, on any thread. Clones
/// share the file's schema and settings.
#[derive(Clone)]
pub(crate) struct RowGroupEncoder {
    /// parquet-rs's Arrow column writers: the encoder the tests compare ours with.
    #[cfg(any(test, feature = "internals"))]
    factory: Arc<ArrowRowGroupWriterFactory>,
    /// The column chunks' encoder (its scratch buffers are per clone).
    chunks: ChunkEncoder,
    #[cfg(any(test, feature = "internals"))]
    schema: SchemaRef,
    /// Encode with parquet-rs's Arrow column writers instead (tests and fuzzing: the oracle).
    #[cfg(any(test, feature = "internals"))]
    arrow_oracle: bool,
    /// Bytes of column buffers a builder keeps from one row group to the next
    /// ([`RecordBatchBuilder::recycle`]): [`ParquetOptions::row_group_held_bytes`], what the
    /// rows of one open row group may take anyway.
    keep: usize,
}

impl RowGroupEncoder {
    /// The row group of `batch` (a batch of this encoder's layout), encoded and compressed.
    pub fn encode(&mut self, batch: &RecordBatch) -> io::Result<RowGroup> {
        #[cfg(any(test, feature = "internals"))]
        if self.arrow_oracle {
            return self.encode_arrow(batch);
        }
        let encoded = self.chunks.encode(batch)?;
        let bytes = encoded.bytes.len();
        Ok(RowGroup { chunks: Chunks::Ours(encoded), bytes })
    }

    /// The row group of `batch` encoded by parquet-rs's Arrow column writers.
    #[cfg(any(test, feature = "internals"))]
    fn encode_arrow(&self, batch: &RecordBatch) -> io::Result<RowGroup> {
        // The row group index only matters to encrypted files, which this writer never makes.
        let mut writers = self.factory.create_column_writers(0).map_err(err)?;
        let mut leaves = writers.iter_mut();
        for (field, column) in self.schema.fields().iter().zip(batch.columns()) {
            for leaf in compute_leaves(field, column).map_err(err)? {
                let w = leaves.next().ok_or_else(|| {
                    io::Error::other("columnar: batch has more leaves than schema")
                })?;
                w.write(&leaf).map_err(err)?;
            }
        }
        let bytes = writers.iter().map(|w| w.memory_size()).sum();
        let chunks = writers.into_iter().map(|w| w.close()).collect::<Result<_, _>>();
        Ok(RowGroup { chunks: Chunks::Arrow(chunks.map_err(err)?), bytes })
    }

    /// The rows of `builder` (emptied) as row groups appended to `out`: one row group, or,
    /// if it cannot be encoded, one per record, a record that still cannot be encoded
    /// becoming its `output_error` error record. An `Err` only if even an error record
    /// cannot be encoded (a bug).
    pub fn encode_builder(
        &mut self,
        builder: &mut RecordBatchBuilder,
        out: &mut Vec<RowGroup>,
    ) -> io::Result<()> {
        if builder.records() == 0 {
            return Ok(());
        }
        let records: Vec<_> = builder.record_rows().collect();
        let batch = builder.finish();
        let whole = match self.encode(&batch) {
            Ok(group) => {
                out.push(group);
                builder.recycle(batch, self.keep);
                return Ok(());
            }
            Err(e) => e,
        };
        if records.len() == 1 {
            return self.encode_error(builder, &batch, &whole, out);
        }
        for rows in records {
            let one = batch.slice(rows.start, rows.len());
            match self.encode(&one) {
                Ok(group) => out.push(group),
                Err(e) => self.encode_error(builder, &one, &e, out)?,
            }
        }
        builder.recycle(batch, self.keep);
        Ok(())
    }

    /// The error record of the one record whose rows are `rows` (its source read back from
    /// them), encoded into `out`.
    fn encode_error(
        &mut self,
        builder: &mut RecordBatchBuilder,
        rows: &RecordBatch,
        e: &io::Error,
        out: &mut Vec<RowGroup>,
    ) -> io::Result<()> {
        use arrow_array::cast::AsArray;
        use arrow_array::Array;
        let source = rows
            .column_by_name("source")
            .and_then(|c| c.as_string_opt::<i32>())
            .filter(|c| !c.is_empty())
            .map_or("", |c| c.value(0));
        let message = format!("the record's rows cannot be written as Parquet: {e}");
        builder.append_error(&RecordView::error(source, None, "", ""), OUTPUT_ERROR, &message);
        out.push(self.encode(&builder.finish())?);
        Ok(())
    }
}

/// One encoded row group, ready to be appended to the file ([`ParquetSink::write_row_group`]).
pub(crate) struct RowGroup {
    chunks: Chunks,
    #[cfg_attr(not(feature = "bulk"), allow(dead_code))]
    bytes: usize,
}

/// A row group's column chunks, in leaf order.
enum Chunks {
    Ours(Encoded),
    #[cfg(any(test, feature = "internals"))]
    Arrow(Vec<ArrowColumnChunk>),
}

#[cfg(feature = "bulk")]
impl RowGroup {
    /// Bytes the encoded row group holds in memory (about its size in the file).
    pub fn held_bytes(&self) -> usize {
        self.bytes
    }
}

/// A Parquet file being written. Call [`ParquetSink::close`] at the end (a file that is
/// not closed has no footer and is unreadable).
pub struct ParquetSink<W: Write + Send> {
    file: SerializedFileWriter<W>,
    encoder: RowGroupEncoder,
    builder: RecordBatchBuilder,
    opts: ParquetOptions,
}

impl<W: Write + Send> ParquetSink<W> {
    /// Starts a Parquet file of `opts.layout`'s schema on `out`.
    pub fn new(out: W, opts: ParquetOptions) -> io::Result<Self> {
        let compression = match opts.codec {
            Codec::Snappy => Compression::SNAPPY,
            Codec::Lz4 => Compression::LZ4_RAW,
            Codec::Zstd => Compression::ZSTD(ZstdLevel::try_new(1).map_err(err)?),
            Codec::None => Compression::UNCOMPRESSED,
        };
        let file_schema = FileSchema::of(opts.layout)?;
        let schema = file_schema.arrow.clone();
        let props = WriterProperties::builder()
            .set_compression(compression)
            // Most of the bytes are long, distinct texts (content, summaries, URLs), where
            // dictionary pages cost hashing for nothing; the page codec takes the repeats.
            .set_dictionary_enabled(false)
            .set_data_page_size_limit(PAGE_BYTES)
            .set_statistics_enabled(EnabledStatistics::Chunk)
            .set_created_by(concat!("feedmill ", env!("CARGO_PKG_VERSION")).to_owned())
            // The Arrow schema in the file's metadata (so readers get `timestamp[us, UTC]`
            // back, not a bare int64), as the Arrow writer would add it.
            .set_key_value_metadata(Some(file_schema.metadata.clone()));
        #[cfg(any(test, feature = "internals"))]
        let props = oracle_statistics(props, &file_schema.leaves);
        let props = props.build();
        // The Arrow writer's lower half writes row groups.
        let options = ArrowWriterOptions::new()
            .with_properties(props)
            .with_parquet_schema(file_schema.parquet.clone())
            .with_skip_arrow_metadata(true);
        let writer =
            ArrowWriter::try_new_with_options(out, schema.clone(), options).map_err(err)?;
        let (file, factory) = writer.into_serialized_writer().map_err(err)?;
        let keep = opts.row_group_held_bytes;
        #[cfg(not(any(test, feature = "internals")))]
        let _ = factory;
        let leaves = file_schema.leaves.clone();
        let chunks = ChunkEncoder::new(schema.clone(), leaves, compression, PAGE_BYTES);
        let encoder = RowGroupEncoder {
            #[cfg(any(test, feature = "internals"))]
            factory: Arc::new(factory),
            chunks,
            #[cfg(any(test, feature = "internals"))]
            schema,
            #[cfg(any(test, feature = "internals"))]
            arrow_oracle: false,
            keep,
        };
        let builder = RecordBatchBuilder::new(opts.layout).with_column_limit(opts.column_limit);
        Ok(ParquetSink { file, encoder, builder, opts })
    }

    /// Encodes this file's row groups with parquet-rs's Arrow column writers (the oracle
    /// our encoder is compared with). For this crate's tests and the `parquet` fuzz target
    /// (the test-only `internals` feature).
    #[cfg(any(test, feature = "internals"))]
    pub fn use_arrow_oracle(&mut self, yes: bool) {
        self.encoder.arrow_oracle = yes;
    }

    /// An encoder of row groups for this file, to use on other threads.
    #[cfg(feature = "bulk")]
    pub(crate) fn encoder(&self) -> RowGroupEncoder {
        self.encoder.clone()
    }

    /// Appends an encoded row group (from this file's [`ParquetSink::encoder`]) and writes it
    /// out.
    pub(crate) fn write_row_group(&mut self, group: RowGroup) -> io::Result<()> {
        let mut rg = self.file.next_row_group().map_err(err)?;
        match group.chunks {
            Chunks::Ours(Encoded { bytes, chunks, spares }) => {
                for close in chunks {
                    rg.append_column(&bytes, close).map_err(err)?;
                }
                spares.recycle(bytes);
            }
            #[cfg(any(test, feature = "internals"))]
            Chunks::Arrow(chunks) => {
                for chunk in chunks {
                    chunk.append_to_row_group(&mut rg).map_err(err)?;
                }
            }
        }
        rg.close().map_err(err)?;
        Ok(())
    }

    /// Bytes written to the output so far (the file's magic and the row groups; the footer
    /// comes at [`ParquetSink::close`]).
    #[cfg(feature = "bulk")]
    pub(crate) fn bytes_written(&self) -> usize {
        self.file.bytes_written()
    }

    /// Writes a batch built with this sink's layout, as row groups of at most
    /// [`ParquetOptions::row_group_records`] rows.
    pub fn write_batch(&mut self, batch: &RecordBatch) -> io::Result<()> {
        self.flush_builder()?;
        let step = self.opts.row_group_records.max(1);
        let mut at = 0;
        while at < batch.num_rows() {
            let n = step.min(batch.num_rows() - at);
            let group = self.encoder.encode(&batch.slice(at, n))?;
            self.write_row_group(group)?;
            at += n;
        }
        Ok(())
    }

    fn flush_builder(&mut self) -> io::Result<()> {
        let mut groups = Vec::new();
        self.encoder.encode_builder(&mut self.builder, &mut groups)?;
        groups.into_iter().try_for_each(|g| self.write_row_group(g))
    }

    /// Writes what is buffered and the file footer; returns the output.
    pub fn close(mut self) -> io::Result<W> {
        self.flush_builder()?;
        self.file.into_inner().map_err(err)
    }
}

impl<W: Write + Send> ParquetSink<W> {
    /// Appends one record; every [`ParquetOptions::row_group_records`] records, or once
    /// their rows hold [`ParquetOptions::row_group_held_bytes`], they are written out as a row
    /// group. A record that does not fit beside them starts the next row group; one whose
    /// rows alone pass [`ParquetOptions::column_limit`] is written as its `output_too_large`
    /// error record. An `Err` is an output failure.
    pub fn append(&mut self, rec: &RecordView<'_, '_>) -> io::Result<()> {
        if let Err(why) = self.builder.append_checked(rec) {
            if self.builder.records() == 0 {
                self.builder.append_too_large(rec, why);
            } else {
                self.flush_builder()?;
                if let Err(why) = self.builder.append_checked(rec) {
                    self.builder.append_too_large(rec, why);
                }
            }
        }
        if self.builder.records() >= self.opts.row_group_records
            || self.builder.rows_bytes() >= self.opts.row_group_held_bytes
        {
            self.flush_builder()?;
        }
        Ok(())
    }
}

/// What [`assert_same_as_oracle`] read back from our file.
#[cfg(any(test, feature = "internals"))]
pub struct OracleComparison {
    /// Our file's rows, as parquet-rs's Arrow reader cuts them into batches.
    pub batches: Vec<RecordBatch>,
    /// Our file's row groups.
    pub row_groups: usize,
    /// Our file's column chunks that have statistics.
    pub chunks_with_statistics: usize,
}

/// Reads `ours` and `theirs` (the same records written by our encoder and by the oracle,
/// [`ParquetSink::use_arrow_oracle`]) with parquet-rs's Arrow reader and panics, naming
/// `what`, unless they hold the same rows in every column (nulls and empty lists alike) and
/// the same row groups with the same row and column counts, every column chunk with the same
/// statistics, value count, codec, level histograms and unencoded byte-array bytes. For this
/// crate's tests and the `parquet` fuzz target (the test-only `internals` feature).
#[cfg(any(test, feature = "internals"))]
pub fn assert_same_as_oracle(
    ours: &bytes::Bytes,
    theirs: &bytes::Bytes,
    what: &str,
) -> OracleComparison {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let read = |file: &bytes::Bytes, whose: &str| {
        let reader = ParquetRecordBatchReaderBuilder::try_new(file.clone())
            .unwrap_or_else(|e| panic!("{what}: {whose} file's footer does not read: {e}"));
        let meta = reader.metadata().clone();
        let batches: Vec<RecordBatch> = reader
            .build()
            .unwrap_or_else(|e| panic!("{what}: {whose} file does not read: {e}"))
            .map(|b| b.unwrap_or_else(|e| panic!("{what}: {whose} row group does not read: {e}")))
            .collect();
        (meta, batches)
    };
    let (om, obs) = read(ours, "our");
    let (tm, tbs) = read(theirs, "parquet-rs's");
    // Same rows, so the reader cuts both into the same batches.
    assert_eq!(obs.len(), tbs.len(), "{what}: batches read back");
    for (ob, tb) in obs.iter().zip(&tbs) {
        assert_eq!(ob.schema(), tb.schema(), "{what}");
        for (k, (a, t)) in ob.columns().iter().zip(tb.columns()).enumerate() {
            let name = ob.schema().field(k).name().clone();
            assert_eq!(a, t, "{what}: column {name} differs from parquet-rs's");
        }
    }
    assert_eq!(om.num_row_groups(), tm.num_row_groups(), "{what}: row groups");
    let mut chunks_with_statistics = 0;
    for (g, (og, tg)) in om.row_groups().iter().zip(tm.row_groups()).enumerate() {
        assert_eq!(og.num_rows(), tg.num_rows(), "{what}: rows of group {g}");
        assert_eq!(og.num_columns(), tg.num_columns(), "{what}: columns of group {g}");
        for (oc, tc) in og.columns().iter().zip(tg.columns()) {
            let at = format!("{what} group {g} {}", oc.column_path().string());
            assert_eq!(oc.statistics(), tc.statistics(), "{at}: statistics");
            chunks_with_statistics += usize::from(oc.statistics().is_some());
            assert_eq!(oc.num_values(), tc.num_values(), "{at}: values");
            assert_eq!(oc.compression(), tc.compression(), "{at}: codec");
            assert_eq!(
                oc.definition_level_histogram(),
                tc.definition_level_histogram(),
                "{at}: definition levels"
            );
            assert_eq!(
                oc.repetition_level_histogram(),
                tc.repetition_level_histogram(),
                "{at}: repetition levels"
            );
            assert_eq!(
                oc.unencoded_byte_array_data_bytes(),
                tc.unencoded_byte_array_data_bytes(),
                "{at}: unencoded bytes"
            );
        }
    }
    OracleComparison { batches: obs, row_groups: om.num_row_groups(), chunks_with_statistics }
}
