//! Parquet output of records: [`ParquetSink`] writes [`RecordBatch`]es (from
//! [`super::RecordBatchBuilder`]) to a Parquet file with the schema of [`super::schema`].
//!
//! Memory: the writer holds at most one row group being encoded. A row group is closed at
//! [`ParquetOptions::row_group_records`] rows or when its encoded size passes
//! [`ParquetOptions::row_group_bytes`], whichever comes first, so memory is bounded by the
//! records in flight, never by the file.

use std::io::{self, Write};

use arrow_array::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties};

use super::{schema, Layout, RecordBatchBuilder};
use crate::sink::{RecordView, Sink};

/// Page compression of the Parquet file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Codec {
    /// Snappy: fastest to write; the default.
    #[default]
    Snappy,
    /// Zstandard at level 1: smaller files, a little slower.
    Zstd,
    None,
}

/// Settings of a Parquet file.
#[derive(Clone, Debug)]
pub struct ParquetOptions {
    pub layout: Layout,
    pub codec: Codec,
    /// Rows per row group at most. Default: 8192.
    pub row_group_records: usize,
    /// Encoded bytes of the open row group that close it early. Default: 128 MiB.
    pub row_group_bytes: usize,
    /// Records per batch when records are appended one by one through [`Sink`].
    /// Default: 1024.
    pub batch_records: usize,
}

impl Default for ParquetOptions {
    fn default() -> Self {
        ParquetOptions {
            layout: Layout::Records,
            codec: Codec::Snappy,
            row_group_records: 8192,
            row_group_bytes: 128 << 20,
            batch_records: 1024,
        }
    }
}

/// A Parquet file being written. Call [`ParquetSink::close`] at the end (a file that is
/// not closed has no footer and is unreadable).
pub struct ParquetSink<W: Write + Send> {
    writer: ArrowWriter<W>,
    builder: RecordBatchBuilder,
    opts: ParquetOptions,
}

impl<W: Write + Send> ParquetSink<W> {
    pub fn new(out: W, opts: ParquetOptions) -> io::Result<Self> {
        let compression = match opts.codec {
            Codec::Snappy => Compression::SNAPPY,
            Codec::Zstd => Compression::ZSTD(ZstdLevel::try_new(1).map_err(io::Error::other)?),
            Codec::None => Compression::UNCOMPRESSED,
        };
        let props = WriterProperties::builder()
            .set_compression(compression)
            .set_max_row_group_size(opts.row_group_records.max(1))
            // Most of the bytes are long, distinct texts (content, summaries, URLs), where
            // dictionary pages cost hashing for nothing; the page codec takes the repeats.
            .set_dictionary_enabled(false)
            .set_statistics_enabled(EnabledStatistics::Chunk)
            .set_created_by(concat!("feedmill ", env!("CARGO_PKG_VERSION")).to_owned())
            .build();
        let writer = ArrowWriter::try_new(out, schema(opts.layout), Some(props))
            .map_err(io::Error::other)?;
        Ok(ParquetSink { writer, builder: RecordBatchBuilder::new(opts.layout), opts })
    }

    /// Writes a batch built with this sink's layout.
    pub fn write_batch(&mut self, batch: &RecordBatch) -> io::Result<()> {
        self.flush_builder()?;
        self.write(batch)
    }

    fn write(&mut self, batch: &RecordBatch) -> io::Result<()> {
        self.writer.write(batch).map_err(io::Error::other)?;
        if self.writer.in_progress_size() >= self.opts.row_group_bytes {
            self.writer.flush().map_err(io::Error::other)?;
        }
        Ok(())
    }

    fn flush_builder(&mut self) -> io::Result<()> {
        if self.builder.records() > 0 {
            let batch = self.builder.finish();
            self.write(&batch)?;
        }
        Ok(())
    }

    /// Writes what is buffered and the file footer; returns the output.
    pub fn close(mut self) -> io::Result<W> {
        self.flush_builder()?;
        self.writer.into_inner().map_err(io::Error::other)
    }
}

impl<W: Write + Send> Sink for ParquetSink<W> {
    fn record(&mut self, rec: &RecordView<'_, '_>) -> io::Result<()> {
        self.builder.append(rec);
        if self.builder.records() >= self.opts.batch_records {
            self.flush_builder()?;
        }
        Ok(())
    }
}
