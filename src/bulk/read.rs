//! The records of the inputs for callers that process them one at a time themselves (the
//! CLI's `discover`, the Python bindings) instead of through the pipeline: [`read`] reads
//! them on a thread of its own, in input order, with each WARC response's HTTP message
//! already taken apart ([`Record`]).
//!
//! The read-ahead is bounded by bytes, as the pipeline's is: a record is read ahead only
//! while the records read and not yet done with hold at most [`Config::max_bytes_in_flight`]
//! with it, or when there are none (a record larger than the budget is read alone). A record
//! is done with once the next one is asked for, so memory is at most the larger of the
//! budget and the largest record (a record is at most `options.limits.max_input_bytes`),
//! however many records are read ahead.

use std::fmt;
use std::io;
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use super::archive::http::record_content;
use super::archive::reader::enumerate;
use super::archive::{Counters, Input, Kind, Payload, RawRecord};
use super::buf::BufPool;
use super::config::Config;
use super::summary::Panicked;
use crate::record::Capture;

/// One record of the inputs: a document (a file, a tar member, standard input, gzip or zstd
/// removed), a WARC `response` (or ARC record) with its HTTP message taken apart, a WARC
/// `resource` (its document), a WARC `revisit` (its original's content, when remembered), or
/// a record that could not be read. Other WARC record types are skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Where it was read (`path`, `archive!member`, `path@offset target-uri`; see
    /// [`crate::bulk`] on names).
    pub source: String,
    /// The record's own URL: a WARC record's `WARC-Target-URI`, an ARC record's URL (none
    /// when it is empty). None for a plain document, whose base URL is the run's
    /// ([`Config::base_url`]).
    pub url: Option<String>,
    /// A WARC response's HTTP status (a revisit's: its original's). None for a plain document,
    /// a `resource` record, and a response whose HTTP message could not be read (its `body` is
    /// the error).
    pub status: Option<u16>,
    /// A WARC response's `Content-Type` header, as sent; a `resource` record's own.
    pub content_type: Option<String>,
    /// The document, or the response's body with its transfer coding (chunked) and content
    /// codings (gzip, deflate, br, zstd) removed; or why there is none.
    pub body: Result<Vec<u8>, ReadError>,
    /// What a WARC or ARC record says about its capture (none for a plain document): its
    /// `record_type` tells a `resource` (processed as a response without HTTP) and a `revisit`
    /// (whose record has the status `revisit`) from a `response`.
    pub capture: Option<Capture>,
    /// How the record was read where that differs from what it says (a stated length that
    /// did not end it, segments missing, a body read as is under a stale `Content-Encoding`):
    /// [`crate::bulk::Worker::process`] makes each a `recovered` diagnostic of the record, or
    /// adds it to its error message. Empty for most records.
    pub notes: Vec<String>,
}

/// Why a record has no body: its error record's `error.kind` (`io`, `truncated`,
/// `bad_gzip`, `bad_warc`, `bad_tar`, `bad_http`, `too_large`, …) and `error.message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The error kind.
    pub kind: &'static str,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}

impl std::error::Error for ReadError {}

/// `message`, then the notes on how its record was read (for a record with no diagnostics).
pub(crate) fn with_notes(message: &str, notes: &[String]) -> String {
    let mut m = message.to_owned();
    for n in notes {
        m.push_str(" (");
        m.push_str(n);
        m.push(')');
    }
    m
}

impl Record {
    /// The `error.message` of the error record of a record without a body (what
    /// [`crate::bulk::Worker::process`] writes): the [`ReadError`]'s message, then each note in
    /// parentheses. `None` when the record has a body.
    pub fn error_message(&self) -> Option<String> {
        self.body.as_ref().err().map(|e| with_notes(&e.message, &self.notes))
    }

    /// The record of `raw`, its HTTP message (if any) taken apart with bodies of at most
    /// `max_body` bytes.
    fn of(raw: RawRecord, max_body: usize, pool: &BufPool) -> Record {
        let mut rec = Record {
            source: raw.source,
            url: None,
            status: None,
            content_type: None,
            body: Ok(Vec::new()),
            capture: None,
            notes: Vec::new(),
        };
        match raw.payload {
            Payload::Document(bytes) => rec.body = Ok(bytes),
            Payload::Broken { kind, message } => rec.body = Err(ReadError { kind, message }),
            Payload::Response {
                kind,
                target_uri,
                message,
                mut capture,
                original,
                original_error,
                note,
            } => {
                rec.notes.extend(note);
                let original = original.as_ref().ok_or(original_error.as_ref());
                match record_content(kind, &message, original, &mut capture, max_body) {
                    Ok(c) => {
                        rec.status = (kind != Kind::Resource).then_some(c.status);
                        rec.content_type = c.content_type;
                        rec.body = Ok(c.body.into_owned());
                        rec.notes.extend(c.note);
                    }
                    Err((kind, message)) => rec.body = Err(ReadError { kind, message }),
                }
                rec.url = Some(target_uri).filter(|u| !u.is_empty());
                rec.capture = Some(*capture);
                if let Some(own) = message.into_own() {
                    pool.put(own);
                }
            }
        }
        rec
    }

    /// Heap bytes the record holds (capacities: what the read-ahead budget bounds).
    fn held_bytes(&self) -> usize {
        self.source.capacity()
            + self.url.as_ref().map_or(0, String::capacity)
            + self.content_type.as_ref().map_or(0, String::capacity)
            + self.capture.as_ref().map_or(0, Capture::held_bytes)
            + self.notes.iter().map(String::capacity).sum::<usize>()
            + match &self.body {
                Ok(b) => b.capacity(),
                Err(e) => e.message.capacity(),
            }
    }
}

/// The records of `inputs`, in order: files, directories (walked in name order), standard
/// input (`-`), gzip, zstd, tar, WARC, WARC.gz, WARC.zst, ARC and ARC.gz, recognized by
/// their content, and archives
/// inside archives (see [`crate::bulk`]). They are read on a thread of their own, ahead of
/// the caller within `cfg.max_bytes_in_flight` (see the module docs); a record is at most
/// `cfg.options.limits.max_input_bytes` (a larger one is a `too_large` error record).
///
/// Every input record is one [`Record`], unreadable ones included; the iterator's only
/// error is [`Panicked`] (a bug stopped the reader: the records after it are missing), the
/// inner error of the `io::Error`, after which it ends. Dropping the iterator stops the
/// reader.
pub fn read(inputs: Vec<Input>, cfg: &Config) -> Records {
    let max = cfg.options.limits.max_input_bytes;
    let read_cfg = cfg.read_config();
    let budget = Arc::new(Budget {
        state: Mutex::default(),
        room: Condvar::new(),
        max: cfg.max_bytes_in_flight.max(1),
    });
    let (tx, rx) = channel();
    let spawned = {
        let budget = Arc::clone(&budget);
        std::thread::Builder::new().name(READER.into()).spawn(move || {
            let (counters, pool) = (Counters::default(), BufPool::default());
            enumerate(&inputs, &read_cfg, &counters, &pool, &mut |raw| {
                let rec = Record::of(raw, max, &pool);
                let n = rec.held_bytes();
                budget.admit(n) && tx.send((rec, n)).is_ok()
            });
        })
    };
    let (reader, failed) = match spawned {
        Ok(handle) => (Some(handle), None),
        Err(e) => (None, Some(e)),
    };
    Records { rx, budget, held: 0, reader, failed }
}

/// The name of [`read`]'s thread (in a [`Panicked`] error).
const READER: &str = "feedmill-reader";

/// The iterator [`read`] returns.
pub struct Records {
    rx: Receiver<(Record, usize)>,
    budget: Arc<Budget>,
    /// Bytes the record handed out last holds (released when the next one is asked for).
    held: usize,
    /// The reader thread, joined once it is done (to tell a panic from the end).
    reader: Option<JoinHandle<()>>,
    /// The reader thread could not be started.
    failed: Option<io::Error>,
}

impl Records {
    /// The most bytes the records read and not yet done with held at once so far (see the
    /// module docs): at most the larger of the budget and the largest record.
    pub fn peak_bytes_in_flight(&self) -> usize {
        self.budget.lock().peak
    }
}

impl Iterator for Records {
    type Item = io::Result<Record>;

    fn next(&mut self) -> Option<io::Result<Record>> {
        self.budget.release(std::mem::take(&mut self.held));
        if let Some(e) = self.failed.take() {
            return Some(Err(e));
        }
        match self.rx.recv() {
            Ok((rec, n)) => {
                self.held = n;
                Some(Ok(rec))
            }
            // The reader is done: at the end of the inputs, or because it panicked.
            Err(_) => match self.reader.take()?.join() {
                Ok(()) => None,
                Err(_) => Some(Err(io::Error::other(Panicked { thread: READER.into() }))),
            },
        }
    }
}

impl Drop for Records {
    /// Stops the reader at its next record (it is not waited for: it may be inside a read
    /// of standard input).
    fn drop(&mut self) {
        self.budget.stop();
    }
}

/// Bytes held by the records read and not yet done with, and a wait for room.
struct Budget {
    state: Mutex<Flight>,
    room: Condvar,
    max: usize,
}

#[derive(Default)]
struct Flight {
    bytes: usize,
    stopped: bool,
    peak: usize,
}

impl Budget {
    fn lock(&self) -> std::sync::MutexGuard<'_, Flight> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits until a record holding `n` bytes fits (or none is in flight); false when the
    /// iterator is gone.
    fn admit(&self, n: usize) -> bool {
        let mut s = self.lock();
        while !s.stopped && s.bytes > 0 && s.bytes.saturating_add(n) > self.max {
            s = self.room.wait(s).unwrap_or_else(|p| p.into_inner());
        }
        s.bytes += n;
        s.peak = s.peak.max(s.bytes);
        !s.stopped
    }

    fn release(&self, n: usize) {
        if n == 0 {
            return;
        }
        let mut s = self.lock();
        s.bytes = s.bytes.saturating_sub(n);
        drop(s);
        self.room.notify_all();
    }

    fn stop(&self) {
        self.lock().stopped = true;
        self.room.notify_all();
    }
}
