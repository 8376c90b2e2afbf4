//! Sinks: where processed records go (stage 7 of the pipeline).
//!
//! Owns: [`RecordView`] (one processed input record, borrowed from the worker that made it),
//! the [`Sink`] trait, the JSON Lines encoder ([`json::JsonLines`]) and the run counters
//! ([`stats::Stats`]).
//!
//! Invariant: every input record becomes exactly one `RecordView`, whatever happened to it
//! (unreadable, not a feed, parse error); a sink never drops one.

pub mod json;
pub mod stats;

use crate::{Diagnostic, Feed, Format};

/// What became of one input record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The document is a feed; `feed` is set.
    Ok,
    /// The record was read, but holds no feed (HTTP status other than 200, root element not
    /// a feed root, ...). `error` says why.
    NotAFeed,
    /// The record could not be read or processed (broken gzip, truncated record, limits).
    Error,
}

impl Status {
    /// Stable name used in records: `ok`, `not_a_feed`, `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::NotAFeed => "not_a_feed",
            Status::Error => "error",
        }
    }
}

/// Why a record is not `ok`: a stable snake_case `kind` and a human message.
#[derive(Clone, Copy, Debug)]
pub struct Problem<'r> {
    pub kind: &'r str,
    pub message: &'r str,
}

/// One processed input record, as handed to a [`Sink`].
#[derive(Clone, Copy, Debug)]
pub struct RecordView<'r, 'a> {
    /// `path`, `path!member` (tar), or `path@offset uri` (WARC).
    pub source: &'r str,
    pub status: Status,
    pub error: Option<Problem<'r>>,
    pub format: Option<Format>,
    /// The encoding the body was decoded with (encoding_rs name, e.g. `UTF-8`).
    pub encoding: Option<&'static str>,
    /// Decoding diagnostics (first) then the parser's, in document order.
    pub diagnostics: &'r [Diagnostic],
    /// Extra diagnostics produced before parsing (decoding), written before `diagnostics`.
    pub pre_diagnostics: &'r [Diagnostic],
    pub feed: Option<&'r Feed<'a>>,
}

/// Receives processed records in input order.
pub trait Sink {
    /// Writes one record. An `Err` is an output failure (fatal for the run).
    fn record(&mut self, rec: &RecordView<'_, '_>) -> std::io::Result<()>;
}
