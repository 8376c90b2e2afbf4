//! The record: what one processed input becomes, written once as a walk.
//!
//! Owns: [`RecordView`] (one processed input record: its source, status, diagnostics, feed,
//! extraction and lint report), and the record's schema, written exactly once as a walk
//! (`Walk` implementations in `walk/`) that every output is derived from. A walk calls a
//! `Visit`or once per key, in the record's key order: the JSON Lines writer
//! (`crate::sink::json`), the Arrow schema and builders (`crate::columnar`), the docs' key
//! tables and the Python type stubs (`docs.rs`) are each one `Visit` implementation.
//!
//! The contract of a walk, relied on by every visitor:
//! - it visits **every key, every time, in the same order**, whatever the value (an absent
//!   value is visited as `None`, an absent list as an empty one). So a walk of any value of a
//!   type (its `Default`) gives the type's schema;
//! - each key is visited with the `Key` that documents it: its name and a short description,
//!   which the docs' key tables are made of;
//! - values are the model's: nothing is computed in a visitor except the form of the output
//!   (escaping, the HTML serialization of a text value, Arrow column types).
//!
//! The output rules the visitors share: a value that is null or empty (an empty string, an
//! empty list, an object none of whose keys has a value) is omitted from JSON Lines and null
//! in Arrow (a list: empty); list elements are never dropped (an element with no value is
//! `{}`), so positions stay meaningful.

mod docs;
#[cfg(feature = "serde")]
mod serialize;
#[cfg(test)]
mod tests;
mod walk;

pub use docs::{json_key_tables, python_typed_dicts};
pub(crate) use walk::LintLine;
#[cfg(feature = "arrow")]
pub(crate) use walk::{EntryRow, Inherited};

use std::borrow::Borrow;

use crate::extract::FeedExtraction;
use crate::model::Text;
use crate::sanitize::SanitizeOptions;
use crate::{Diagnostic, DiagnosticKind, Feed, Format, Parsed, Timestamp};

/// A record key: its name in the output and what it holds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Key {
    /// The key's name (JSON Lines key, Arrow field name).
    pub(crate) name: &'static str,
    /// What the value is and where it comes from, for the docs' key tables.
    pub(crate) doc: &'static str,
    /// Written even when empty (a list written as `[]`); only the lint line's `findings`.
    pub(crate) always: bool,
}

/// A [`Key`] named `name`, documented by `doc`.
pub(crate) const fn key(name: &'static str, doc: &'static str) -> Key {
    Key { name, doc, always: false }
}

impl Key {
    /// This key, written even when its value is empty.
    pub(crate) const fn always(self) -> Key {
        Key { always: true, ..self }
    }
}

/// What a walk calls for each key of a record (see the module docs for the contract).
pub(crate) trait Visit: Sized {
    /// A string; `None` or `""` is no value.
    fn str(&mut self, k: Key, v: Option<&str>);
    /// A URL (a string; the strict mode's URL check covers every key visited as one).
    fn url(&mut self, k: Key, v: Option<&str>) {
        self.str(k, v);
    }
    /// A non-negative integer.
    fn uint(&mut self, k: Key, v: Option<u64>);
    /// A non-negative decimal number (finite; JSON in its shortest round-trip form, as
    /// serde_json writes it: `73.0`, `5e-8`).
    fn num(&mut self, k: Key, v: Option<f64>);
    /// A boolean.
    fn bool(&mut self, k: Key, v: Option<bool>);
    /// An instant (RFC 3339 UTC in JSON, `timestamp[us, UTC]` in Arrow) under `k.name`, how
    /// the feed wrote it beside it: the UTC offset it was written in (minutes east of UTC) under
    /// `<name>_offset`, and under `<name>_raw` the text as written when it is not the RFC 3339
    /// form of the value in that offset (`raw`, given only then: see
    /// [`crate::model::date::as_written`]).
    fn date(&mut self, k: Key, v: Option<Timestamp>, raw: Option<&str>);
    /// A text construct: the value (plain text, or the HTML serialized) under `k.name`, and
    /// `text` or `html` under `<name>_type`.
    fn text(&mut self, k: Key, v: Option<&Text<'_>>);
    /// A list of strings.
    fn strs(&mut self, k: Key, v: &[&str]);
    /// A list of non-negative integers.
    fn uints<N: Copy + Into<u64>>(&mut self, k: Key, v: &[N]);
    /// A nested object.
    fn object<T: Walk + Shape>(&mut self, k: Key, v: Option<&T>);
    /// A list of objects.
    fn list<T: Walk + Shape>(&mut self, k: Key, v: &[T]) {
        self.list_with::<T, &T>(k, v.len(), |i| &v[i]);
    }
    /// A list of `n` objects, the `i`th given by `item(i)` (a value in the list, or a view
    /// made for the walk).
    fn list_with<T: Walk + Shape, R: Borrow<T>>(
        &mut self,
        k: Key,
        n: usize,
        item: impl FnMut(usize) -> R,
    );
    #[cfg_attr(not(feature = "arrow"), allow(dead_code))]
    /// The keys of `v` in the object being visited, as if they were its own (the entry layout
    /// puts an entry's keys beside its record's); a key that is already there gets `prefix`
    /// in front of its name.
    fn flatten<T: Walk>(&mut self, prefix: &'static str, v: &T);
}

/// A value the record holds: its keys, visited in order (see the module docs).
pub(crate) trait Walk {
    /// The name of this shape in the docs and the Python stubs (`person`, `entry`, …).
    const NAME: &'static str;
    /// Visits every key of `self`, in order.
    fn walk<V: Visit>(&self, v: &mut V);
}

/// A value of a type whose walk gives the type's schema: any value does (a walk visits every
/// key whatever the values); `Default` where the type has one.
pub(crate) trait Shape {
    /// A value of the type.
    fn shape() -> Self;
}

impl<T: Default> Shape for T {
    fn shape() -> Self {
        T::default()
    }
}

/// The most bytes the JSON line of a record whose document is `input` bytes long takes at the
/// default [`crate::Limits`]: 32 times the document plus 32 MiB. What each value derived from
/// others may add is bounded (docs/safety.md, "Output bounded by input"): values copied from
/// the feed into its entries by [`crate::Limits::max_inherited_bytes`], resolved URLs by the
/// document's length plus [`crate::Limits::max_url_growth`] (and, in strictly sanitized HTML,
/// each value's length plus 64 KiB), lint findings by [`crate::Limits::max_diagnostics`]; the
/// rest (escaping, the keys of each entry) by a small factor of the document.
pub const fn json_line_bound(input: usize) -> usize {
    input.saturating_mul(32).saturating_add(32 << 20)
}

/// The most bytes of Arrow arrays the rows of a record whose document is `input` bytes long
/// take in memory: 128 times the document plus 32 MiB (a row has a fixed cost, the offsets
/// and validity of its some 200 columns, about 600 bytes, so an entry written as `<item/>`
/// costs the most per byte).
pub const fn arrow_rows_bound(input: usize) -> usize {
    input.saturating_mul(128).saturating_add(32 << 20)
}

/// What became of one input record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Status {
    /// The document is a feed; `feed` is set.
    Ok,
    /// The record was read, but holds no feed (HTTP status other than 200, root element not
    /// a feed root, ...). `error` says why.
    NotAFeed,
    /// The record could not be read or processed (broken gzip, truncated record, limits).
    #[default]
    Error,
    /// A WARC `revisit` record: the same content captured again ("same payload as record
    /// X"). `capture` names the record it refers to; `feed` is that record's, when it was
    /// read in the same run and kept (see `bulk::Config::revisit_memory`), and `error`
    /// says why there is none otherwise.
    Revisit,
}

impl Status {
    /// Stable name used in records: `ok`, `not_a_feed`, `error`, `revisit`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::NotAFeed => "not_a_feed",
            Status::Error => "error",
            Status::Revisit => "revisit",
        }
    }
}

/// Why a record is not `ok`: a stable snake_case `kind` and a human message.
#[derive(Clone, Copy, Debug, Default)]
pub struct Problem<'r> {
    /// Stable snake_case kind (`http_status`, `too_large`, `truncated`, …).
    pub kind: &'r str,
    /// A human-readable account of the problem.
    pub message: &'r str,
}

/// One processed input record, as handed to a sink.
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
    /// Strict sanitizing (`--sanitize strict`): every `html` text value is written through
    /// [`crate::sanitize::sanitize_text`] with these options (the base URL is the record's).
    pub sanitize: Option<&'r SanitizeOptions>,
    /// The record's lint report (`--lint`, [`crate::Options::lint`]): its findings are written
    /// as the `findings` key, after all other keys, when there are any.
    pub lint: Option<&'r crate::lint::Report>,
    /// Where and when the record was captured, for a record of a WARC or ARC file (`None`
    /// for a plain document): written as the `capture` key.
    pub capture: Option<&'r Capture>,
    /// Most bytes of the feed's values copied into its entries
    /// ([`crate::Limits::max_inherited_bytes`]): [`RecordView::parsed`] takes the limit the
    /// document was parsed with; `default` the limit's default.
    pub max_inherited_bytes: usize,
}

impl Default for RecordView<'_, '_> {
    fn default() -> Self {
        RecordView {
            source: "",
            url: None,
            status: Status::default(),
            error: None,
            format: None,
            encoding: None,
            diagnostics: &[],
            feed: None,
            extraction: None,
            sanitize: None,
            lint: None,
            capture: None,
            max_inherited_bytes: crate::Limits::DEFAULT.max_inherited_bytes,
        }
    }
}

/// What a WARC or ARC record says about its capture: the record's `capture` key. Every
/// value is as the archive wrote it, except dates, read as instants (WARC-Date: W3C-DTF;
/// ARC: `YYYYMMDDhhmmss`, UTC) and `None` when they do not read as one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Capture {
    /// The record's type: `response`, `resource` or `revisit` (`WARC-Type`; an ARC record is a
    /// `response`).
    pub record_type: Option<&'static str>,
    /// When the capture began: `WARC-Date`, the ARC header's archive date.
    pub date: Option<Timestamp>,
    /// What was captured: `WARC-Target-URI`, the ARC header's URL.
    pub target_uri: Option<String>,
    /// `WARC-Record-ID` (ARC records have none).
    pub record_id: Option<String>,
    /// `WARC-Payload-Digest` (e.g. `sha1:` and base32), as written.
    pub payload_digest: Option<String>,
    /// The HTTP response's status code (none for a `resource` record, or an unreadable HTTP
    /// message).
    pub http_status: Option<u16>,
    /// The HTTP response's `Content-Type`; a `resource` record's own `Content-Type`.
    pub content_type: Option<String>,
    /// Why the archive holds less than the whole capture: `WARC-Truncated` as written
    /// (`length`, `time`, `disconnect`, `unspecified`), or `segment` for a record its crawler
    /// split into segments (`WARC-Segment-Number`) whose segments were not all read in order:
    /// its content is the segments read (a record whose segments were all read is joined, and
    /// not truncated). The feed read from such a body may lack its end.
    pub truncated: Option<String>,
    /// A revisit's `WARC-Refers-To`: the record id of the capture it repeats.
    pub refers_to_record_id: Option<String>,
    /// A revisit's `WARC-Refers-To-Target-URI`.
    pub refers_to_target_uri: Option<String>,
    /// A revisit's `WARC-Refers-To-Date`.
    pub refers_to_date: Option<Timestamp>,
    /// A revisit's original as read in this run: its `source` (none when it was not read
    /// before the revisit, or is no longer remembered).
    pub refers_to_source: Option<String>,
}

impl Capture {
    /// Heap bytes its strings hold.
    pub fn held_bytes(&self) -> usize {
        [
            &self.target_uri,
            &self.record_id,
            &self.payload_digest,
            &self.content_type,
            &self.truncated,
            &self.refers_to_record_id,
            &self.refers_to_target_uri,
            &self.refers_to_source,
        ]
        .iter()
        .map(|s| s.as_ref().map_or(0, String::capacity))
        .sum()
    }
}

impl<'r, 'a> RecordView<'r, 'a> {
    /// The record of a parsed document, as the bulk pipeline writes it: status `ok` with its
    /// feed, or `not_a_feed` with the `NotAFeed` diagnostic's message as its `error`; its
    /// format, encoding, diagnostics and lint report. `extraction`, `sanitize` and `capture`
    /// are left unset; set them with struct update syntax:
    ///
    /// ```
    /// # use feedmill::{Options, Parser, sink::{RecordView, Status, json::encode_record}};
    /// let mut parser = Parser::new(Options::default());
    /// let parsed = parser.parse_bytes(b"<rss><channel><title>T</title></channel></rss>", None)?;
    /// let record = RecordView::parsed("feed.xml", None, &parsed);
    /// assert_eq!(record.status, Status::Ok);
    /// let mut line = Vec::new();
    /// encode_record(&mut line, &record);
    /// assert!(line.starts_with(br#"{"source":"feed.xml","status":"ok""#));
    /// # Ok::<(), feedmill::Error>(())
    /// ```
    pub fn parsed(source: &'r str, url: Option<&'r str>, parsed: &'r Parsed<'a>) -> Self {
        let (status, error) = match parsed.feed {
            Some(_) => (Status::Ok, None),
            None => {
                let message = parsed
                    .diagnostics
                    .iter()
                    .find(|d| d.kind == DiagnosticKind::NotAFeed)
                    .map_or("the document is not a feed", |d| d.message.as_str());
                (Status::NotAFeed, Some(Problem { kind: "not_a_feed", message }))
            }
        };
        RecordView {
            source,
            url,
            status,
            error,
            format: parsed.format,
            encoding: parsed.encoding.map(|e| e.name()),
            diagnostics: &parsed.diagnostics,
            feed: parsed.feed.as_ref(),
            extraction: None,
            sanitize: None,
            lint: parsed.lint.as_ref(),
            capture: None,
            max_inherited_bytes: parsed.max_inherited_bytes,
        }
    }
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
            ..RecordView::default()
        }
    }

    /// The error record of an archive record (of `capture`) that could not be processed: as
    /// [`RecordView::error`], with its `capture`; a revisit's status is `revisit` (its `error`
    /// says why it has no content).
    pub fn capture_error(
        source: &'r str,
        url: Option<&'r str>,
        kind: &'r str,
        message: &'r str,
        capture: Option<&'r Capture>,
    ) -> Self {
        let revisit = capture.and_then(|c| c.record_type) == Some("revisit");
        RecordView {
            capture,
            status: if revisit { Status::Revisit } else { Status::Error },
            ..RecordView::error(source, url, kind, message)
        }
    }
}

#[cfg(any(feature = "arrow", feature = "serde"))]
/// The text of a text construct as records write it, appended to `out`: a plain value as
/// is; an HTML value serialized (strictly sanitized when `sanitize` is given) straight into
/// `out`. The one place that decides how an HTML value becomes a string, for every visitor
/// that needs the string (the JSON sink writes the same through its escaper).
pub(crate) fn write_text_str(t: &Text<'_>, sanitize: Option<&SanitizeOptions>, out: &mut String) {
    match (t, sanitize) {
        (Text::Plain(s), _) => out.push_str(s),
        (Text::Html(h), None) => h.write_html(out),
        (Text::Html(h), Some(opts)) => crate::sanitize::write_sanitized_html(h, opts, out),
    }
}
