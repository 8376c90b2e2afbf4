//! The settings of a bulk run ([`Config`]): threads, readers, the parser's options and
//! limits, the in-flight byte budget, extraction, sanitizing, batch sizes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::archive::ReadConfig;
use crate::extract::ExtractOptions;
use crate::sanitize::SanitizeOptions;
use crate::Options;

/// Records per batch at most, by default ([`Config::batch_records`]). NOTE: small enough that
/// two workers balance on records of mixed sizes and the reorder buffer stays short; large
/// enough to amortize channel traffic.
pub(crate) const BATCH_RECORDS: usize = 16;
/// Bytes of records per batch at most, by default ([`Config::batch_bytes`]; one larger record
/// is a batch of its own).
pub(crate) const BATCH_BYTES: usize = 256 << 10;

/// Bytes remembered for revisits by default ([`Config::revisit_memory`]).
pub(crate) const REVISIT_MEMORY: usize = 16 << 20;
/// The revisit expansion limit by default ([`Config::revisit_expansion`]). NOTE: a revisit
/// record (WARC and HTTP headers) is about 1 KiB, so 64 gives each one about 64 KiB of its
/// original's content to spend: a typical feed polled unchanged again and again is given to
/// every revisit, while one large original and thousands of small revisits of it do not
/// multiply the output by thousands.
pub(crate) const REVISIT_EXPANSION: usize = 64;

/// Settings of a bulk run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Worker threads. Default: the number of CPUs. With 1 (and one reader) the calling
    /// thread does all the work: reading, processing and consuming, no other thread.
    pub threads: usize,
    /// Reader threads: with more than one, the inputs (the files named and the files in the
    /// directories named) are read concurrently, in chunks of consecutive files, and the
    /// output is still in input order. Default: 0, one reader per 8 workers (at least one;
    /// a Parquet run: one, so that the readers' chunks do not end row groups).
    pub readers: usize,
    /// Base URL for plain documents (WARC records use their target URI). Default: none.
    pub base_url: Option<String>,
    /// Parser options (its `max_input_bytes` also bounds one record). Default: defaults.
    pub options: Options,
    /// Bytes in flight between the reader and the consumer: record bodies read and not yet
    /// consumed, plus the output they became (see [`crate::bulk::run_with`] for the exact
    /// bound). Default: 16 MiB.
    pub max_bytes_in_flight: usize,
    /// Extraction per record (`--extract`), computed in the worker's extraction arena.
    /// Default: none.
    pub extract: Option<ExtractOptions>,
    /// Strict sanitizing of every HTML value (`--sanitize strict`). Its `base_url` is
    /// ignored: each record uses its own URL (WARC target URI, else [`Config::base_url`]).
    /// Default: none (the spec's sanitizing only).
    pub sanitize: Option<SanitizeOptions>,
    /// Write `feedmill lint` lines (`{source, status, format, version, findings}`) instead of
    /// records. Linting itself is turned on by `options.lint`; without `lint_only`, a
    /// record with findings gets a `findings` key after its other keys. Default: false.
    pub lint_only: bool,
    /// Records per pipeline batch at most: the unit a worker takes and the consumer receives.
    /// Default: 16 (small batches balance the workers; a columnar sink wants larger ones).
    pub batch_records: usize,
    /// Bytes of record bodies per pipeline batch at most (a larger record is a batch of its
    /// own). Default: 256 KiB.
    pub batch_bytes: usize,
    /// Ends the run early once set (by a signal handler, a UI, another thread): the batch
    /// being consumed is finished (a JSON Lines batch's last line, a Parquet row group) and
    /// the run returns `Ok` with the summary of what was consumed; the records read but
    /// not consumed yet are dropped. Looked at after every batch, and every 50 ms while the
    /// consumer waits for one. Default: none.
    pub stop: Option<Arc<AtomicBool>>,
    /// Bytes of WARC `response` and `resource` records (sources and keys; blocks too for
    /// records of standard input or of a tar member, which cannot be read again — a record
    /// of an input file is re-read from it) the reader remembers for the `revisit` records
    /// after them, the oldest forgotten first: a revisit whose original is remembered is
    /// processed with the original's content, so its record has the feed. 0: none remembered
    /// (a revisit record names its original but has no feed). Each reader thread remembers its own, so peak memory grows by up to this much per
    /// reader (CLI: `--revisit-memory`). Default: 16 MiB.
    pub revisit_memory: usize,
    /// Bounds what revisits make of their input: each reader gives the revisits it reads
    /// their originals' content only while the bytes so given stay within this many times
    /// the bytes of the `response`, `resource` and `revisit` blocks it has read (originals
    /// and revisits included); a revisit past that is a record with the error
    /// `revisit_limit_reached` (it names its original, without its feed). 0: no revisit is
    /// given its original (CLI: `--revisit-expansion`). Default: 64.
    pub revisit_expansion: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            readers: 0,
            base_url: None,
            options: Options::default(),
            max_bytes_in_flight: 16 << 20,
            extract: None,
            sanitize: None,
            lint_only: false,
            batch_records: BATCH_RECORDS,
            batch_bytes: BATCH_BYTES,
            stop: None,
            revisit_memory: REVISIT_MEMORY,
            revisit_expansion: REVISIT_EXPANSION,
        }
    }
}

/// The settings [`Config::default`] gives the readers.
impl Default for ReadConfig {
    fn default() -> Self {
        Config::default().read_config()
    }
}

impl Config {
    /// The archive readers' settings of this run (for `bulk::archive::reader::enumerate`).
    pub fn read_config(&self) -> ReadConfig {
        ReadConfig {
            max_record_bytes: self.options.limits.max_input_bytes,
            revisit_memory: self.revisit_memory,
            revisit_expansion: self.revisit_expansion,
        }
    }

    /// The reader threads of a run with `threads` workers.
    pub(crate) fn readers_for(&self, threads: usize) -> usize {
        match self.readers {
            0 => threads.div_ceil(8),
            n => n,
        }
        .clamp(1, 256)
    }

    /// Whether [`Config::stop`] is set.
    pub(crate) fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
    }
}
