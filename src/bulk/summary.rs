//! What a run did ([`Summary`]: records by status, entries, bytes, lint tallies, time) and
//! what it has done so far ([`Progress`]).

use std::time::Duration;

use crate::record::{RecordView, Status};

/// What a run did. The pipeline also counts each batch into one and adds them up, in input
/// order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Output records (one per input record).
    pub records: u64,
    /// Records whose status is `ok` (a feed was read).
    pub ok: u64,
    /// Records whose status is `not_a_feed`.
    pub not_a_feed: u64,
    /// Records whose status is `error` (unreadable, too large, HTTP error, …).
    pub error: u64,
    /// Entries over all `ok` feeds.
    pub entries: u64,
    /// Body bytes handed to the decoder (after de-chunking and content decoding).
    pub body_bytes: u64,
    /// Lint counters (records linted, codes × records affected).
    pub lint: crate::lint::Tally,
    /// Records a limit cut: a `limit_reached` diagnostic, or the `input_too_large` error.
    pub limited: u64,
    /// `limit_reached` diagnostics over all records.
    pub limit_hits: u64,
    /// Records a web recovery rule read a value for (`recovered` / `encoding_guessed`).
    pub recovered: u64,
    /// WARC records of other types than `response` (skipped: no output record).
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

impl Summary {
    /// Counts the record `view`, whose decoded body had `body` bytes: its status, entries,
    /// diagnostics and lint findings.
    pub(crate) fn count(&mut self, view: &RecordView<'_, '_>, body: usize) {
        self.records += 1;
        match view.status {
            Status::Ok => self.ok += 1,
            Status::NotAFeed => self.not_a_feed += 1,
            Status::Error => self.error += 1,
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
        self.entries += other.entries;
        self.body_bytes += other.body_bytes;
        self.lint.add(&other.lint);
        self.limited += other.limited;
        self.limit_hits += other.limit_hits;
        self.recovered += other.recovered;
        self.skipped_records += other.skipped_records;
        self.input_bytes += other.input_bytes;
    }

    /// Counts what one record's diagnostics (and error kind) say about limits and recovery.
    fn count_diagnostics(&mut self, diagnostics: &[crate::Diagnostic], error_kind: Option<&str>) {
        use crate::DiagnosticKind as K;
        let hits = diagnostics.iter().filter(|d| d.kind == K::LimitReached).count() as u64;
        self.limit_hits += hits;
        if hits > 0 || error_kind == Some("input_too_large") {
            self.limited += 1;
        }
        if diagnostics.iter().any(|d| matches!(d.kind, K::Recovered | K::EncodingGuessed)) {
            self.recovered += 1;
        }
    }
}
