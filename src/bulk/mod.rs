//! Bulk processing (stage 8): inputs → records → rayon workers → JSON Lines, in input order.
//!
//! ```text
//!  reader thread                    rayon pool (--threads)                writer thread
//!  input::enumerate ─► channel ─►  window of records ─► par_chunks ─►   lines, in order
//!  (files, dirs, tar,   (bounded)   each chunk on one Worker (Parser       ─► stdout / -o
//!   WARC, WARC.gz)                  + arena + JSON buffers)
//! ```
//!
//! Memory is bounded by the records in flight: the reader channel ([`Config::window_records`]
//! records), one window being processed (at most `window_records` records or
//! [`Config::window_bytes`] bytes), and the serialized lines of the previous window being
//! written; each record is at most `Limits::max_input_bytes`. Never by the archive size.
//! Record buffers are recycled through a [`BufPool`] once their window is written.
//!
//! Decoding and parsing go through [`process`], which calls the library's response and
//! document entry points; nothing else here knows about charsets.
//!
//! Order: a window is split into chunks processed in parallel; `collect` keeps chunk order,
//! and the writer writes chunks in that order, so the output is byte-identical for any
//! number of threads.

pub mod input;
pub mod process;
pub mod warc;

use std::io::{self, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bumpalo::Bump;
use rayon::prelude::*;

pub use input::{BufPool, Counters, Input, Payload, ReadConfig, Record};

use crate::extract::{extract, ExtractOptions};
use crate::sanitize::SanitizeOptions;
use crate::sink::json::encode_record;
use crate::sink::stats::Stats;
use crate::sink::{Problem, RecordView, Status};
use crate::{Error, Options, Parser};
use process::{Outcome, Processed};

/// Settings of a bulk run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Worker threads. Default: the number of CPUs.
    pub threads: usize,
    /// Base URL for plain documents (WARC records use their target URI). Default: none.
    pub base_url: Option<String>,
    /// Parser options (its `max_input_bytes` also bounds one record). Default: defaults.
    pub options: Options,
    /// Records per window (and reader channel bound). Default: 1024.
    pub window_records: usize,
    /// Bytes of records per window. Default: 64 MiB.
    pub window_bytes: usize,
    /// Extraction per record (`--extract`), computed in the worker's extraction arena.
    /// Default: none.
    pub extract: Option<ExtractOptions>,
    /// Strict sanitizing of every HTML value (`--sanitize strict`). Its `base_url` is
    /// ignored: each record uses its own URL (WARC target URI, else [`Config::base_url`]).
    /// Default: none (the spec's sanitizing only).
    pub sanitize: Option<SanitizeOptions>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            base_url: None,
            options: Options::default(),
            window_records: 1024,
            window_bytes: 64 << 20,
            extract: None,
            sanitize: None,
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub stats: Stats,
    /// WARC records of other types than `response`.
    pub skipped_records: u64,
    /// Raw input bytes read.
    pub input_bytes: u64,
    pub elapsed: Duration,
}

/// Progress, reported after each window.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub records: u64,
    pub input_bytes: u64,
}

/// Records per parallel task. NOTE: small enough to balance 2..N threads on a window of
/// mixed sizes, large enough that the output buffer of a chunk is reused across records.
const CHUNK: usize = 16;

/// Processes `inputs`, writing one JSON line per record to `out`, in input order.
/// The only error is an output (or thread pool) failure; per-record problems are records.
pub fn run(
    inputs: Vec<Input>,
    cfg: &Config,
    out: Box<dyn Write + Send>,
    progress: &mut dyn FnMut(Progress),
) -> io::Result<Summary> {
    let make = |w: &mut Worker, chunk: &[Record]| w.process_chunk(chunk);
    run_with(inputs, cfg, CHUNK, &make, move |parts| write_all(out, parts), progress)
}

/// Turns one chunk of records into a `C` (on a worker thread, with its [`Worker`]).
pub type ChunkFn<C> = dyn Fn(&mut Worker, &[Record]) -> (C, Stats) + Sync;

/// Processes `inputs` with any per-chunk output: each chunk of at most `chunk` records is
/// turned into a `C` by `make` on a worker thread (with that thread's [`Worker`], see
/// [`Worker::process_with`]); `consume`, on the writer thread, receives the chunks of each
/// window in input order and returns when the channel closes (it writes any trailer then).
/// Memory is bounded as for [`run`]: one window in process, one window of `C`s being
/// consumed.
pub fn run_with<C: Send + 'static>(
    inputs: Vec<Input>,
    cfg: &Config,
    chunk: usize,
    make: &ChunkFn<C>,
    consume: impl FnOnce(Receiver<Vec<C>>) -> io::Result<()> + Send + 'static,
    progress: &mut dyn FnMut(Progress),
) -> io::Result<Summary> {
    let start = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads.max(1))
        .thread_name(|i| format!("feedmill-worker-{i}"))
        .build()
        .map_err(io::Error::other)?;
    // One Worker per pool thread, indexed by `rayon::current_thread_index`: each is only
    // ever locked by its own thread, so the locks never contend.
    let workers: Vec<Mutex<Worker>> =
        (0..pool.current_num_threads()).map(|_| Mutex::new(Worker::new(cfg))).collect();
    let counters = Arc::new(Counters::default());
    let read_cfg = ReadConfig { max_record_bytes: cfg.options.limits.max_input_bytes };
    let bufs = Arc::new(BufPool::default());
    let (records, reader) =
        input::spawn_reader(inputs, read_cfg, counters.clone(), bufs.clone(), cfg.window_records);
    let (parts_tx, parts_rx) = sync_channel::<Vec<C>>(1);
    let writer = std::thread::Builder::new()
        .name("feedmill-writer".into())
        .spawn(move || consume(parts_rx))?;

    let mut stats = Stats::default();
    let mut window: Vec<Record> = Vec::with_capacity(cfg.window_records);
    let mut write_failed = false;
    loop {
        fill_window(&records, &mut window, cfg);
        if window.is_empty() {
            break;
        }
        let parts: Vec<(C, Stats)> = pool.install(|| {
            window
                .par_chunks(chunk.max(1))
                .map(|chunk| {
                    let i = rayon::current_thread_index().unwrap_or(0);
                    let mut w = workers[i].lock().unwrap_or_else(|p| p.into_inner());
                    make(&mut w, chunk)
                })
                .collect()
        });
        for rec in window.drain(..) {
            bufs.recycle(rec);
        }
        let mut out = Vec::with_capacity(parts.len());
        for (part, s) in parts {
            stats.add(&s);
            out.push(part);
        }
        if parts_tx.send(out).is_err() {
            write_failed = true;
            break;
        }
        progress(Progress {
            records: stats.records,
            input_bytes: counters.bytes_read.load(Ordering::Relaxed),
        });
    }
    drop(parts_tx);
    // Stop the reader (if the writer failed) by dropping the receiver.
    drop(records);
    let written = writer.join().unwrap_or_else(|_| Err(io::Error::other("writer thread panicked")));
    let _ = reader.join();
    written?;
    if write_failed {
        return Err(io::Error::other("output writer stopped"));
    }
    Ok(Summary {
        stats,
        skipped_records: counters.skipped_records.load(Ordering::Relaxed),
        input_bytes: counters.bytes_read.load(Ordering::Relaxed),
        elapsed: start.elapsed(),
    })
}

fn fill_window(records: &Receiver<Record>, window: &mut Vec<Record>, cfg: &Config) {
    let mut bytes = 0;
    while window.len() < cfg.window_records && bytes < cfg.window_bytes {
        match records.recv() {
            Ok(r) => {
                bytes += r.size();
                window.push(r);
            }
            Err(_) => break,
        }
    }
}

fn write_all(mut out: Box<dyn Write + Send>, lines: Receiver<Vec<Vec<u8>>>) -> io::Result<()> {
    for batch in lines {
        for buf in batch {
            out.write_all(&buf)?;
        }
    }
    out.flush()
}

/// A worker: a reusable parser (its arena is reset per document) and reused buffers.
pub struct Worker {
    parser: Parser,
    /// HTML and date serialization scratch.
    scratch: String,
    base_url: Option<String>,
    max_body: usize,
    /// Extraction settings and the arena their strings go to (reset per record).
    post: Post,
}

/// What is done to a parsed feed before it is written: extraction, strict sanitizing.
struct Post {
    extract: Option<ExtractOptions>,
    arena: Bump,
    sanitize: Option<SanitizeOptions>,
}

impl Worker {
    pub fn new(cfg: &Config) -> Self {
        Worker {
            parser: Parser::new(cfg.options.clone()),
            scratch: String::new(),
            base_url: cfg.base_url.clone(),
            max_body: cfg.options.limits.max_input_bytes,
            post: Post {
                extract: cfg.extract.clone(),
                arena: Bump::new(),
                sanitize: cfg.sanitize.clone(),
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

    /// Serializes the records of `chunk` (one line each) into a new buffer.
    pub fn process_chunk(&mut self, chunk: &[Record]) -> (Vec<u8>, Stats) {
        let mut out = Vec::with_capacity(chunk.len() * 2048);
        let mut stats = Stats::default();
        for r in chunk {
            self.process(r, &mut out, &mut stats);
        }
        (out, stats)
    }

    /// Appends the line for `rec` to `out`.
    pub fn process(&mut self, rec: &Record, out: &mut Vec<u8>, stats: &mut Stats) {
        let mut scratch = std::mem::take(&mut self.scratch);
        self.process_with(
            rec,
            &mut |view| {
                encode_record(out, &mut scratch, view);
                out.push(b'\n');
            },
            stats,
        );
        self.scratch = scratch;
    }

    /// Processes `rec` and hands its one [`RecordView`] to `emit` (a JSON encoder, an Arrow
    /// builder, ...); counts it in `stats`.
    pub fn process_with(
        &mut self,
        rec: &Record,
        emit: &mut dyn FnMut(&RecordView<'_, '_>),
        stats: &mut Stats,
    ) {
        let Worker { parser, scratch: _, base_url, max_body, post } = self;
        match &rec.payload {
            Payload::Broken { kind, message } => {
                let view = bare(&rec.source, Status::Error, kind, message);
                line(emit, &view, stats, 0);
            }
            Payload::Document(bytes) => {
                let p = process::process_document(parser, bytes, base_url.as_deref());
                let url = base_url.as_deref();
                emit_processed(emit, post, url, &rec.source, p, stats, bytes.len());
            }
            Payload::Response { target_uri, message } => {
                match warc::parse_http_response(message, *max_body) {
                    Err((kind, msg)) => {
                        let view = bare(&rec.source, Status::Error, kind, &msg);
                        line(emit, &view, stats, 0);
                    }
                    Ok(resp) => {
                        let p = process::process_http_response(
                            parser,
                            resp.status,
                            resp.content_type.as_deref(),
                            Some(target_uri),
                            &resp.body,
                        );
                        let url = Some(target_uri.as_str()).filter(|u| !u.is_empty());
                        emit_processed(emit, post, url, &rec.source, p, stats, resp.body.len());
                    }
                }
            }
        }
    }
}

fn bare<'r>(
    source: &'r str,
    status: Status,
    kind: &'r str,
    message: &'r str,
) -> RecordView<'r, 'static> {
    RecordView {
        source,
        status,
        error: Some(Problem { kind, message }),
        format: None,
        encoding: None,
        diagnostics: &[],
        feed: None,
        extraction: None,
        sanitize: None,
    }
}

fn line(
    emit: &mut dyn FnMut(&RecordView<'_, '_>),
    view: &RecordView<'_, '_>,
    stats: &mut Stats,
    body: usize,
) {
    emit(view);
    stats.count(view.status, view.feed.map_or(0, |f| f.entries.len()), body);
}

fn error_kind(e: &Error) -> &'static str {
    match e {
        Error::InputTooLarge { .. } => "input_too_large",
        Error::InvalidBaseUrl { .. } => "invalid_base_url",
        #[allow(unreachable_patterns)]
        _ => "parse_error",
    }
}

fn emit_processed(
    emit: &mut dyn FnMut(&RecordView<'_, '_>),
    post: &mut Post,
    url: Option<&str>,
    source: &str,
    p: Processed<'_>,
    stats: &mut Stats,
    body: usize,
) {
    let mut view = RecordView {
        source,
        status: Status::Error,
        error: None,
        format: None,
        encoding: p.encoding,
        diagnostics: &[],
        feed: None,
        extraction: None,
        sanitize: None,
    };
    match &p.outcome {
        Outcome::NotAFeed { kind, message } => {
            view.status = Status::NotAFeed;
            view.error = Some(Problem { kind, message });
            line(emit, &view, stats, body);
        }
        Outcome::Failed(e) => {
            let message = e.to_string();
            view.error = Some(Problem { kind: error_kind(e), message: &message });
            line(emit, &view, stats, body);
        }
        Outcome::Parsed(parsed) => {
            view.format = parsed.format;
            view.diagnostics = &parsed.diagnostics;
            match &parsed.feed {
                Some(feed) => {
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
                    line(emit, &view, stats, body);
                    return;
                }
                None => {
                    view.status = Status::NotAFeed;
                    let message = parsed
                        .diagnostics
                        .iter()
                        .find(|d| d.kind == crate::DiagnosticKind::NotAFeed)
                        .map_or("the document is not a feed", |d| d.message.as_str());
                    view.error = Some(Problem { kind: "not_a_feed", message });
                }
            }
            line(emit, &view, stats, body);
        }
    }
}
