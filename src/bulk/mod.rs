//! Bulk processing (stage 8): inputs → records → workers → an ordered consumer, in input
//! order whatever the number of threads.
//!
//! ```text
//!  reader thread          worker threads (--threads)             calling thread
//!  input::enumerate ─►    parse, extract, sanitize; Step    ─►   reorder ─► Consumer
//!  (files, dirs, tar,     (JSON Lines: encode the lines)          (JSON Lines: write them)
//!   WARC, WARC.gz)
//! ```
//!
//! - [`run`]: the CLI's job, JSON Lines to a writer.
//! - [`run_with`]: the same pipeline with your own per-record [`Step`] (on the workers, with
//!   per-worker state) and ordered [`Consumer`] (on the calling thread, may stop early); see
//!   [`pipeline`] for the contract and the memory bound, and `examples/host_counts.rs`.
//!
//! Decoding and parsing go through [`process`], which calls the library's response and
//! document entry points; nothing else here knows about charsets.

mod deflate;
pub mod input;
pub mod pipeline;
pub mod process;
pub mod warc;

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::time::Duration;

use bumpalo::Bump;

pub use input::{BufPool, Counters, Input, Payload, ReadConfig, Record};
pub use pipeline::{internal_error_message, run_with, Batch, Consumer, Panicked, Step};
pub use warc::block::Block;

use crate::extract::{extract, ExtractOptions};
use crate::sanitize::SanitizeOptions;
use crate::sink::json::{encode_lint_line, encode_record};
use crate::sink::stats::Stats;
use crate::sink::{Problem, RecordView, Status};
use crate::{Error, Options, Parser};
use process::{Outcome, Processed};

/// Settings of a bulk run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Worker threads. Default: the number of CPUs. With 1 (and one reader) the calling
    /// thread does all the work: reading, processing and consuming, no other thread.
    pub threads: usize,
    /// Reader threads: with more than one, the inputs (the files named and the files in the
    /// directories named) are read concurrently, in chunks of consecutive files, and the
    /// output is still in input order. Default: 0, one reader per 8 workers (at least one).
    pub readers: usize,
    /// Base URL for plain documents (WARC records use their target URI). Default: none.
    pub base_url: Option<String>,
    /// Parser options (its `max_input_bytes` also bounds one record). Default: defaults.
    pub options: Options,
    /// Bytes in flight between the reader and the consumer: record bodies read and not yet
    /// consumed, plus the output they became (see [`pipeline`] for the exact bound).
    /// Default: 16 MiB.
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
            batch_records: pipeline::BATCH_RECORDS,
            batch_bytes: pipeline::BATCH_BYTES,
        }
    }
}

impl Config {
    /// The reader threads of a run with `threads` workers.
    pub(crate) fn readers_for(&self, threads: usize) -> usize {
        match self.readers {
            0 => threads.div_ceil(8),
            n => n,
        }
        .clamp(1, 256)
    }
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Records by status, entries and output bytes.
    pub stats: Stats,
    /// WARC records of other types than `response`.
    pub skipped_records: u64,
    /// Raw input bytes read.
    pub input_bytes: u64,
    /// Wall time of the run.
    pub elapsed: Duration,
}

/// Progress, reported after each consumed batch.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Records written so far.
    pub records: u64,
    /// Raw input bytes read so far.
    pub input_bytes: u64,
}

/// Processes `inputs`, writing one JSON line per record to `out`, in input order.
/// The only error is an output failure; per-record problems are records.
pub fn run(
    inputs: Vec<Input>,
    cfg: &Config,
    mut out: Box<dyn Write + Send>,
    progress: &mut dyn FnMut(Progress),
) -> io::Result<Summary> {
    let make_step = || {
        let lint_only = cfg.lint_only;
        move |rec: &RecordView<'_, '_>, lines: &mut Vec<u8>| encode_line(lines, rec, lint_only)
    };
    let mut write = |lines: &mut Vec<u8>| out.write_all(lines).map(|()| ControlFlow::Continue(()));
    let summary = run_with(inputs, cfg, make_step, &mut write, progress)?;
    out.flush()?;
    Ok(summary)
}

/// A worker: a reusable parser (its arena is reset per document), the extraction arena and
/// reused buffers. It turns one [`Record`] into one [`RecordView`].
pub struct Worker {
    parser: Parser,
    base_url: Option<String>,
    max_body: usize,
    /// Extraction settings and the arena their strings go to (reset per record).
    post: Post,
}

/// What is done to a parsed feed before it is handed on: extraction, strict sanitizing.
struct Post {
    extract: Option<ExtractOptions>,
    arena: Bump,
    sanitize: Option<SanitizeOptions>,
    lint_only: bool,
}

impl Worker {
    /// A worker for `cfg` (its options, base URL, extraction and sanitizing settings).
    pub fn new(cfg: &Config) -> Self {
        Worker {
            parser: Parser::new(cfg.options.clone()),
            base_url: cfg.base_url.clone(),
            max_body: cfg.options.limits.max_input_bytes,
            post: Post {
                extract: cfg.extract.clone(),
                arena: Bump::new(),
                sanitize: cfg.sanitize.clone(),
                lint_only: cfg.lint_only,
            },
        }
    }

    /// Sets the base URL of the plain documents processed next (a WARC response always uses
    /// its target URI).
    pub fn set_base_url(&mut self, url: Option<&str>) {
        if self.base_url.as_deref() != url {
            self.base_url = url.map(str::to_owned);
        }
    }

    /// Serializes the records of `chunk` (one JSON line each) into a new buffer.
    pub fn process_chunk(&mut self, chunk: &[Record]) -> (Vec<u8>, Stats) {
        let mut out = Vec::with_capacity(chunk.len() * 2048);
        let mut stats = Stats::default();
        for r in chunk {
            let lint_only = self.post.lint_only;
            self.view(r, &mut |view, body| {
                encode_line(&mut out, view, lint_only);
                count(&mut stats, view, body);
            });
        }
        (out, stats)
    }

    /// Processes `rec` and calls `f` once with its view and the size of the body that was
    /// decoded (0 when none was).
    pub fn view(&mut self, rec: &Record, f: &mut dyn FnMut(&RecordView<'_, '_>, usize)) {
        let Worker { parser, base_url, max_body, post, .. } = self;
        let url = record_url(base_url.as_deref(), rec);
        match &rec.payload {
            Payload::Broken { kind, message } => {
                f(&RecordView::error(&rec.source, url, kind, message), 0);
            }
            Payload::Document(bytes) => {
                let p = process::process_document(parser, bytes, url);
                with_processed(post, url, &rec.source, p, bytes.len(), f);
            }
            Payload::Response { target_uri, message } => {
                match warc::parse_http_response(message, *max_body) {
                    Err((kind, msg)) => f(&RecordView::error(&rec.source, url, kind, &msg), 0),
                    Ok(resp) => {
                        let p = process::process_http_response(
                            parser,
                            resp.status,
                            resp.content_type.as_deref(),
                            Some(target_uri),
                            &resp.body,
                        );
                        with_processed(post, url, &rec.source, p, resp.body.len(), f);
                    }
                }
            }
        }
    }

    /// The `error` record of `rec` with `kind` and `message`, for a record whose processing
    /// failed outside the parser (the pipeline's `internal` records).
    pub(crate) fn view_failed(
        &self,
        rec: &Record,
        kind: &str,
        message: &str,
        f: &mut dyn FnMut(&RecordView<'_, '_>, usize),
    ) {
        let url = record_url(self.base_url.as_deref(), rec);
        f(&RecordView::error(&rec.source, url, kind, message), 0);
    }
}

/// Counts the record `view` (whose decoded body had `body` bytes) into `stats`: its status,
/// entries, diagnostics and lint findings.
fn count(stats: &mut Stats, view: &RecordView<'_, '_>, body: usize) {
    stats.count(view.status, view.feed.map_or(0, |f| f.entries.len()), body);
    stats.count_diagnostics(view.diagnostics, view.error.as_ref().map(|e| e.kind));
    if let Some(report) = view.lint {
        stats.lint.count(report);
    }
}

/// The URL of `rec`'s record (its base URL): a WARC response's target URI (none when empty),
/// else the run's base URL.
fn record_url<'r>(base_url: Option<&'r str>, rec: &'r Record) -> Option<&'r str> {
    match &rec.payload {
        Payload::Response { target_uri, .. } => Some(target_uri.as_str()).filter(|u| !u.is_empty()),
        _ => base_url,
    }
}

/// One output line for `rec`: its JSON record, or its `feedmill lint` line when `lint_only`.
fn encode_line(out: &mut Vec<u8>, rec: &RecordView<'_, '_>, lint_only: bool) {
    if lint_only {
        encode_lint_line(out, rec);
    } else {
        encode_record(out, rec);
    }
    out.push(b'\n');
}

fn error_kind(e: &Error) -> &'static str {
    match e {
        Error::InputTooLarge { .. } => "input_too_large",
        Error::InvalidBaseUrl { .. } => "invalid_base_url",
        #[allow(unreachable_patterns)]
        _ => "parse_error",
    }
}

fn with_processed(
    post: &mut Post,
    url: Option<&str>,
    source: &str,
    mut p: Processed<'_>,
    body: usize,
    f: &mut dyn FnMut(&RecordView<'_, '_>, usize),
) {
    let mut view = RecordView {
        source,
        url,
        status: Status::Error,
        error: None,
        format: None,
        encoding: p.encoding,
        diagnostics: &[],
        feed: None,
        extraction: None,
        sanitize: None,
        lint: None,
    };
    match &mut p.outcome {
        Outcome::NotAFeed { kind, message } => {
            view.status = Status::NotAFeed;
            view.error = Some(Problem { kind, message });
            f(&view, body);
        }
        Outcome::Failed(e) => {
            let message = e.to_string();
            view.error = Some(Problem { kind: error_kind(e), message: &message });
            f(&view, body);
        }
        Outcome::Parsed(parsed) => {
            view.format = parsed.format;
            view.diagnostics = &parsed.diagnostics;
            view.lint = parsed.lint.as_ref();
            match &mut parsed.feed {
                Some(feed) => {
                    // Strict sanitizing covers URL fields too (`javascript:`, `data:` …
                    // removed), in place.
                    if post.sanitize.is_some() {
                        crate::sanitize::drop_unsafe_urls(feed);
                    }
                    let feed = &*feed;
                    view.status = Status::Ok;
                    view.feed = Some(feed);
                    post.arena.reset();
                    let extraction =
                        post.extract.as_ref().map(|opts| extract(feed, &post.arena, opts));
                    view.extraction = extraction.as_ref();
                    let sanitize = post.sanitize.as_ref().map(|s| SanitizeOptions {
                        base_url: url.and_then(|u| url::Url::parse(u).ok()),
                        allow_video_embeds: s.allow_video_embeds,
                    });
                    view.sanitize = sanitize.as_ref();
                    f(&view, body);
                }
                None => {
                    view.status = Status::NotAFeed;
                    let message = parsed
                        .diagnostics
                        .iter()
                        .find(|d| d.kind == crate::DiagnosticKind::NotAFeed)
                        .map_or("the document is not a feed", |d| d.message.as_str());
                    view.error = Some(Problem { kind: "not_a_feed", message });
                    f(&view, body);
                }
            }
        }
    }
}
