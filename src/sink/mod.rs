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

use crate::extract::FeedExtraction;
use crate::sanitize::SanitizeOptions;
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
    /// Stable snake_case kind (`http_status`, `too_large`, `truncated`, …).
    pub kind: &'r str,
    /// A human-readable account of the problem.
    pub message: &'r str,
}

/// One processed input record, as handed to a [`Sink`].
#[derive(Clone, Copy, Debug)]
pub struct RecordView<'r, 'a> {
    /// `path`, `path!member` (tar), or `path@offset uri` (WARC).
    pub source: &'r str,
    /// The record's URL, its base URL: the WARC target URI, else the run's base URL.
    pub url: Option<&'r str>,
    /// `ok`, `not_a_feed` or `error`.
    pub status: Status,
    /// Why the record is not `ok` (`None` when it is).
    pub error: Option<Problem<'r>>,
    /// The feed format, when the body was processed as a feed.
    pub format: Option<Format>,
    /// The encoding the body was decoded with (encoding_rs name, e.g. `UTF-8`).
    pub encoding: Option<&'static str>,
    /// Decoding diagnostics (first) then the parser's, in document order.
    pub diagnostics: &'r [Diagnostic],
    /// The parsed feed (`None` unless `status` is `ok`).
    pub feed: Option<&'r Feed<'a>>,
    /// Extraction results for `feed` (`--extract`): written as the `*_text`,
    /// `canonical_url`, `dedup_*`, `body_*` and `word_count` keys. `entries[i]` belongs to
    /// `feed.entries[i]`.
    pub extraction: Option<&'r FeedExtraction<'r>>,
    /// Strict sanitizing (`--sanitize strict`): every `{"html": …}` value is written through
    /// [`crate::sanitize::sanitize_text`] with these options (the base URL is the record's).
    pub sanitize: Option<&'r SanitizeOptions>,
    /// The record's lint report (`--lint`, [`crate::Options::lint`]): its findings are written
    /// as the `findings` key, after all other keys, when there are any.
    pub lint: Option<&'r crate::lint::Report>,
}

impl<'r> RecordView<'r, 'static> {
    /// The record of an input that could not be processed: status `error`, with `kind` and
    /// `message` (e.g. an unreadable file, a WARC record cut short, `internal`).
    pub fn error(source: &'r str, url: Option<&'r str>, kind: &'r str, message: &'r str) -> Self {
        RecordView {
            source,
            url,
            status: Status::Error,
            error: Some(Problem { kind, message }),
            format: None,
            encoding: None,
            diagnostics: &[],
            feed: None,
            extraction: None,
            sanitize: None,
            lint: None,
        }
    }
}

/// Receives processed records in input order.
pub trait Sink {
    /// Writes one record. An `Err` is an output failure (fatal for the run).
    fn record(&mut self, rec: &RecordView<'_, '_>) -> std::io::Result<()>;
}
