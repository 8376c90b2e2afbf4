//! What a run did ([`Summary`]: records by status, entries, bytes, lint tallies, time), what
//! it has done so far ([`Progress`]), and why it stopped when a bug stopped it
//! ([`Panicked`]).

use std::time::Duration;

use crate::record::{RecordView, Status};

/// What a run did. The pipeline also counts each batch into one and adds them up, in input
/// order. Non-exhaustive: counters are added as the reader learns new cases.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Summary {
    /// Output records (one per input record).
    pub records: u64,
    /// Records whose status is `ok` (a feed was read).
    pub ok: u64,
    /// Records whose status is `not_a_feed`.
    pub not_a_feed: u64,
    /// Records whose status is `error` (unreadable, too large, HTTP error, …).
    pub error: u64,
    /// Records whose status is `revisit` (WARC `revisit` records).
    pub revisit: u64,
    /// Entries over all feeds (`ok` records, and `revisit` records with their original's).
    pub entries: u64,
    /// Body bytes handed to the decoder (after de-chunking and content decoding).
    pub body_bytes: u64,
    /// Lint counters (records linted, codes × records affected).
    pub lint: crate::lint::Tally,
    /// Records a limit cut: a `limit_reached` diagnostic, or one of the errors of a limit
    /// (`too_large`: a document, record or body over `max_input_bytes`;
    /// `revisit_limit_reached`).
    pub limited: u64,
    /// `limit_reached` diagnostics over all records.
    pub limit_hits: u64,
    /// Records a web recovery rule read a value for (`recovered` / `encoding_guessed`).
    pub recovered: u64,
    /// Archive records of the types that give no output record: WARC `warcinfo`,
    /// `request`, `metadata`, `conversion`, `continuation`; an ARC file's version block and
    /// `dns:` records (counted here, never dropped silently).
    pub skipped_records: u64,
    /// [`Summary::skipped_records`] by record type: `skipped_by_type[i]` records of type
    /// [`Summary::SKIPPED_TYPES`]`[i]` (they add up to `skipped_records`).
    pub skipped_by_type: [u64; Summary::SKIPPED_TYPES.len()],
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

impl Summary {
    /// The record types [`Summary::skipped_by_type`] counts: the WARC types that give no
    /// output record (`warcinfo`, `request`, `metadata`, `conversion`, `continuation`), an
    /// ARC file's version block (`filedesc`) and `dns:` records, and `other` (a WARC type
    /// not in WARC 1.1).
    pub const SKIPPED_TYPES: [&'static str; 8] = [
        "warcinfo",
        "request",
        "metadata",
        "conversion",
        "continuation",
        "filedesc",
        "dns",
        "other",
    ];

    /// The index in [`Summary::SKIPPED_TYPES`] of skipped record type `record_type` (compared
    /// without case; `other` when not listed).
    pub(crate) fn skipped_index(record_type: &str) -> usize {
        let n = Self::SKIPPED_TYPES.len();
        Self::SKIPPED_TYPES[..n - 1]
            .iter()
            .position(|t| t.eq_ignore_ascii_case(record_type))
            .unwrap_or(n - 1)
    }

    /// The skipped record types counted at least once and their counts, in
    /// [`Summary::SKIPPED_TYPES`] order.
    pub fn skipped(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        Self::SKIPPED_TYPES
            .iter()
            .zip(self.skipped_by_type)
            .filter(|(_, n)| *n > 0)
            .map(|(t, n)| (*t, n))
    }

    /// Counts the record `view`, whose decoded body had `body` bytes: its status, entries,
    /// diagnostics and lint findings.
    pub(crate) fn count(&mut self, view: &RecordView<'_, '_>, body: usize) {
        self.records += 1;
        match view.status {
            Status::Ok => self.ok += 1,
            Status::NotAFeed => self.not_a_feed += 1,
            Status::Error => self.error += 1,
            Status::Revisit => self.revisit += 1,
        }
        self.entries += view.feed.map_or(0, |f| f.entries.len()) as u64;
        self.body_bytes += body as u64;
        self.count_diagnostics(view.diagnostics, view.error.as_ref().map(|e| e.kind));
        if let Some(report) = view.lint {
            self.lint.count(report);
        }
    }

    /// Adds the counts of another part of the run (a batch) to these.
    pub(crate) fn add(&mut self, other: &Summary) {
        self.records += other.records;
        self.ok += other.ok;
        self.not_a_feed += other.not_a_feed;
        self.error += other.error;
        self.revisit += other.revisit;
        self.entries += other.entries;
        self.body_bytes += other.body_bytes;
        self.lint.add(&other.lint);
        self.limited += other.limited;
        self.limit_hits += other.limit_hits;
        self.recovered += other.recovered;
        self.skipped_records += other.skipped_records;
        for (a, b) in self.skipped_by_type.iter_mut().zip(other.skipped_by_type) {
            *a += b;
        }
        self.input_bytes += other.input_bytes;
    }

    /// Counts what one record's diagnostics (and error kind) say about limits and recovery.
    fn count_diagnostics(&mut self, diagnostics: &[crate::Diagnostic], error_kind: Option<&str>) {
        use crate::DiagnosticKind as K;
        let hits = diagnostics.iter().filter(|d| d.kind == K::LimitReached).count() as u64;
        self.limit_hits += hits;
        let limit_error = matches!(error_kind, Some("too_large" | "revisit_limit_reached"));
        if hits > 0 || limit_error {
            self.limited += 1;
        }
        if diagnostics.iter().any(|d| matches!(d.kind, K::Recovered | K::EncodingGuessed)) {
            self.recovered += 1;
        }
    }
}

/// The current thread's name, for [`Panicked`].
pub(crate) fn this_thread_name() -> String {
    std::thread::current().name().unwrap_or("unnamed").to_owned()
}

/// The message of an `internal` error record, from the panic's payload (`catch_unwind`'s
/// `Err`): "internal error while processing this record (a bug): " and the panic's message.
pub(crate) fn internal_error_message(panic: &(dyn std::any::Any + Send)) -> String {
    let message = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message");
    format!("internal error while processing this record (a bug): {message}")
}

/// The error of a run stopped by a panic outside any record's processing (a bug: in a reader,
/// in [`Step::end_batch`](crate::bulk::Step::end_batch), or in a
/// [`Step::record`](crate::bulk::Step::record) whose batch cannot undo a record). The
/// panic's own message went to standard error; the output is incomplete. It is the inner error
/// of the `io::Error` [`crate::bulk::run_with`] returns (`err.get_ref()`, downcast).
#[derive(Debug)]
pub struct Panicked {
    /// The name of the thread that panicked (`feedmill-worker-N`, `feedmill-reader-N`, …; with
    /// one worker and one reader, the thread that called [`crate::bulk::run_with`], or
    /// `unnamed`).
    pub thread: String,
}

impl std::fmt::Display for Panicked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "internal error: thread {} panicked (a bug; its message is above); the run stopped \
             and its output is incomplete",
            self.thread
        )
    }
}

impl std::error::Error for Panicked {}
