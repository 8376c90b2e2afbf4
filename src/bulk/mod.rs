//! Bulk processing (stage 8): inputs → records → workers → an ordered consumer, in input
//! order whatever the number of threads.
//!
//! ```text
//!  reader thread          worker threads (--threads)             calling thread
//!  archive reader   ─►    parse, extract, sanitize; Step    ─►   reorder ─► Consumer
//!  (files, dirs, tar,     (JSON Lines: encode the lines)          (JSON Lines: write them)
//!   WARC, WARC.gz)
//! ```
//!
//! - [`run`]: the CLI's job, JSON Lines to a writer ([`write_parquet`]: a Parquet file);
//!   [`write_jsonl_files`] and [`write_parquet_files`]: the same into a sequence of files of
//!   bounded size, each valid on its own. [`Config::stop`] ends a run early, its output
//!   complete up to the last batch written.
//! - [`run_with`]: the same pipeline with your own per-record [`Step`] (on the workers, with
//!   per-worker state) filling a [`Batch`], and an ordered [`Consumer`] (on the calling
//!   thread, may stop early); see `examples/host_counts.rs` (a step may append each record
//!   to a `columnar::RecordBatchBuilder` for Arrow batches). A run gives its [`Summary`], reports
//!   [`Progress`] after each batch, and stops with [`Panicked`] only on a bug.
//! - [`read`]: the records themselves, one at a time ([`Records`] of [`Record`]s, a WARC
//!   response's HTTP message taken apart, or a [`ReadError`]), read ahead on a thread within
//!   a byte budget; a [`Worker`] processes one into its record as the pipeline does.
//! - [`Config`] holds a run's settings; an [`Input`] is a path or standard input.
//!
//! # Names
//!
//! A record's `source` says where it was read: the input as named (`path`, `-` for standard
//! input), `archive!member` for a tar member, `path@offset target-uri` for a WARC record
//! (`offset` of its gzip member, `offset+n` for a record `n` decoded bytes into a member).
//! Formats are recognized by content wherever they are, so an archive inside an archive (a
//! WARC, WARC.gz, tar or tar.gz stored in a tar) is read as one and named through both
//! (`outer.tar!inner.warc.gz@1234 uri`); an ARC or zip file is one `unsupported_archive`
//! error record, never a document holding its first feed.
//! File and member names are written as UTF-8, except that a byte that is not part of valid
//! UTF-8 is written `\xNN` (two lowercase hex digits) and a backslash `\\`: a `\` always
//! starts an escape, so the bytes of the name can be read back and two different names never
//! give the same source (a file named `a\xff` is `a\\xff`; one whose name holds the byte
//! 0xFF is `a\xff`). An input that cannot be read (missing, not openable, whatever its name)
//! is an error record with that source, and the run goes on.
//!
//! # Stages
//!
//! Each stage uses only the ones before it in this list:
//!
//! ```text
//!  buf        record buffers and their pool; blocks shared with an inflated range
//!  gzip       inflating gzip members: one-shot and streaming, read-ahead on other threads
//!  archive    the inputs walked and read: files, directories, gzip, tar, WARC; HTTP messages
//!  config     Config;  summary: Summary, Progress
//!  worker     one record → its RecordView: parse, extract, sanitize
//!  pipeline   reader, worker and writer threads; ordered batches; run_with
//!  jsonl      run: JSON Lines;  columnar: Arrow batches and Parquet files
//! ```

// The stages below the worker: internal, public only with the test-only `internals` feature
// (this crate's tests, benches and fuzz targets read archives through them).
internal! {
    archive;
    buf;
    gzip;
}
#[cfg(feature = "arrow")]
mod columnar;
mod config;
mod jsonl;
mod pipeline;
mod read;
mod summary;
mod worker;

pub use archive::Input;
#[cfg(feature = "parquet")]
pub use columnar::{write_parquet, write_parquet_files};
pub use config::Config;
#[cfg(feature = "internals")]
pub use jsonl::encode_records;
pub use jsonl::{run, write_jsonl_files};
pub use pipeline::{run_with, Batch, Consumer, Step};
pub use read::{read, ReadError, Record, Records};
pub use summary::{Panicked, Progress, Summary};
pub use worker::Worker;
