//! Run counters: what a summary reports.

use super::Status;

/// Counts over a run (or a part of one; [`Stats::add`] merges parts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
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
}

impl Stats {
    /// Counts one record.
    pub fn count(&mut self, status: Status, entries: usize, body_bytes: usize) {
        self.records += 1;
        match status {
            Status::Ok => self.ok += 1,
            Status::NotAFeed => self.not_a_feed += 1,
            Status::Error => self.error += 1,
        }
        self.entries += entries as u64;
        self.body_bytes += body_bytes as u64;
    }

    /// Merges another part's counts into this one.
    pub fn add(&mut self, other: &Stats) {
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
    }

    /// Counts what one record's diagnostics (and error kind) say about limits and recovery.
    pub fn count_diagnostics(
        &mut self,
        diagnostics: &[crate::Diagnostic],
        error_kind: Option<&str>,
    ) {
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
