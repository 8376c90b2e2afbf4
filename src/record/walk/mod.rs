//! The record's schema, written once: every key of a record, in order, with what it holds.
//!
//! Each [`Walk`] is one object of the record; each line one key. Adding a field to the
//! record is one line in a walk (plus the model and format code that fill it): the JSON Lines
//! writer, the Arrow schema and builders, the docs' key tables and the Python stubs follow.
//!
//! This module owns the record's own keys (`RecordView`), its `capture` and `error`, the
//! diagnostics and lint findings, and the `feedmill lint` line; the feed, the entry and the
//! objects they hold are walked in the submodules:
//! - `feed`: the record's `feed` object (the spec's model, then the keys beyond it);
//! - `entry`: an entry of `feed.entries`, and a row of the Arrow entry layout;
//! - `extraction`: the `--extract` keys of the feed and of an entry;
//! - `inherit`: what entries get from their feed (authors, the entry layout's feed columns)
//!   within the record's `max_inherited_bytes`;
//! - `elements`: the core objects a feed or entry holds (people, links, images, enclosures,
//!   categories, dates as written, RSS 2.0's `cloud`/`textInput`, syndication, sources);
//! - `itunes`, `podcast`, `media`: the iTunes, Podcasting 2.0 and Media RSS modules;
//! - `extension`: the captured elements no table reads.

use super::{key, Capture, Key, Problem, RecordView, Shape, Visit, Walk};
use crate::lint::{Finding, Report};
use crate::{Diagnostic, DiagnosticKind};
use inherit::{authors_cut, authors_inherited_by};

mod elements;
mod entry;
mod extension;
mod extraction;
mod feed;
mod inherit;
mod itunes;
mod media;
mod podcast;

#[cfg(feature = "arrow")]
pub(crate) use entry::EntryRow;
pub(crate) use feed::FeedRecord;
#[cfg(feature = "arrow")]
pub(crate) use inherit::Inherited;

/// The lint's parameters, in the order records write them.
const FINDING_PARAMS: [Key; 8] = [
    key("element", "the element at fault"),
    key("parent", "its parent element"),
    key("attr", "the attribute at fault"),
    key("value", "the value at fault"),
    key("core", "the core element a module element duplicates"),
    key("ext", "the module element duplicating it"),
    key("uri", "a URI as written"),
    key("curi", "its canonical form"),
];

impl Walk for RecordView<'_, '_> {
    const NAME: &'static str = "record";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(
            key(
                "source",
                "the input: a file path; `path!member` for a tar member; `path@offset \
                 target-uri` for a WARC or ARC record (the offset of its gzip member, or of the \
                 record in a plain WARC; `offset+n` when the record starts `n` decoded bytes \
                 into its gzip member; a target URI over 1 KiB is cut there at a character \
                 boundary and marked `…`: it is whole in `url`). Bytes of a name that are not \
                 UTF-8 are written `\\xNN`",
            ),
            Some(self.source),
        );
        v.url(
            key(
                "url",
                "the record's URL: a WARC record's target URI, else the base URL given \
                 (`--base-url`; Python `url`, else `base_url`); none when unknown",
            ),
            self.url,
        );
        v.str(
            key(
                "status",
                "`ok` | `not_a_feed` | `error` | `revisit` (a WARC revisit record: `feed` is its \
                 original's when that was read earlier in the run)",
            ),
            Some(self.status.as_str()),
        );
        v.object(
            key(
                "error",
                "why the record is not `ok`: not a feed (`not_a_feed`, `http_status`) or not \
                 readable (`truncated`, `bad_chunked`, `content_encoding`, `too_large`, \
                 `invalid_base_url`, …; `internal`: processing the record hit a bug)",
            ),
            self.error.as_ref(),
        );
        v.str(
            key("format", "`rss2` | `rss1` | `atom` | `atom03` | `json` (JSON Feed)"),
            self.format.map(|f| f.as_str()),
        );
        v.str(
            key(
                "encoding",
                "the encoding the body was decoded with (WHATWG name: `UTF-8`, `windows-1252`, …)",
            ),
            self.encoding,
        );
        v.object(
            key(
                "capture",
                "where and when a WARC or ARC record was captured (none for a plain document)",
            ),
            self.capture,
        );
        let max = self.max_inherited_bytes;
        let inherits = self.feed.map_or(0, |f| authors_inherited_by(f, max));
        let cut = self.feed.and_then(|f| authors_cut(f, inherits, max));
        let diagnostics = self.diagnostics;
        v.list_with::<Diagnostic, _>(
            key(
                "diagnostics",
                "what was recovered or ignored, in document order (decoding's first; a limit \
                 met writing the record last)",
            ),
            diagnostics.len() + usize::from(cut.is_some()),
            |i| match diagnostics.get(i) {
                Some(d) => std::borrow::Cow::Borrowed(d),
                None => std::borrow::Cow::Owned(cut.clone().expect("counted above")),
            },
        );
        let feed =
            self.feed.map(|feed| FeedRecord { feed: Some(feed), x: self.extraction, inherits });
        v.object(
            key("feed", "the feed, when the status is `ok`: the spec's data model"),
            feed.as_ref(),
        );
        v.list(
            key("findings", "with `--lint`, the lint's findings, after every other key"),
            self.lint.map_or(&[][..], |r| &r.findings[..]),
        );
    }
}

impl Walk for Capture {
    const NAME: &'static str = "capture";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(
            key(
                "record_type",
                "`response` | `resource` | `revisit` (`WARC-Type`; an ARC record is a `response`)",
            ),
            self.record_type,
        );
        v.date(
            key("date", "when the capture began: `WARC-Date`, the ARC archive date"),
            // Always UTC (WARC 1.1 section 5.4; ARC dates are UTC too): no offset to keep.
            self.date.map(|t| t.with_offset_minutes(None)),
            None,
        );
        v.url(
            key("target_uri", "what was captured: `WARC-Target-URI`, the ARC URL"),
            self.target_uri.as_deref(),
        );
        v.str(key("record_id", "`WARC-Record-ID` (ARC: none)"), self.record_id.as_deref());
        v.str(
            key("payload_digest", "`WARC-Payload-Digest`, as written (`sha1:…`)"),
            self.payload_digest.as_deref(),
        );
        v.uint(
            key("http_status", "the HTTP response's status code"),
            self.http_status.map(u64::from),
        );
        v.str(
            key(
                "content_type",
                "the HTTP response's `Content-Type`; a `resource` record's own `Content-Type`",
            ),
            self.content_type.as_deref(),
        );
        v.str(
            key(
                "truncated",
                "why the archive holds less than the capture: `WARC-Truncated` as written \
                 (`length` | `time` | `disconnect` | `unspecified`), or `segment` (a record split \
                 into segments whose segments were not all read: its content is the ones read)",
            ),
            self.truncated.as_deref(),
        );
        v.object(
            key("refers_to", "a revisit's original: the capture it repeats"),
            Some(&RefersTo(self)).filter(|r| r.is_some()),
        );
    }
}

/// The `refers_to` object of a capture.
struct RefersTo<'c>(&'c Capture);

impl RefersTo<'_> {
    fn is_some(&self) -> bool {
        let c = self.0;
        c.refers_to_record_id.is_some()
            || c.refers_to_target_uri.is_some()
            || c.refers_to_date.is_some()
            || c.refers_to_source.is_some()
    }
}

impl Shape for RefersTo<'_> {
    fn shape() -> Self {
        static NONE: Capture = Capture {
            record_type: None,
            date: None,
            target_uri: None,
            record_id: None,
            payload_digest: None,
            http_status: None,
            content_type: None,
            truncated: None,
            refers_to_record_id: None,
            refers_to_target_uri: None,
            refers_to_date: None,
            refers_to_source: None,
        };
        RefersTo(&NONE)
    }
}

impl Walk for RefersTo<'_> {
    const NAME: &'static str = "refers_to";
    fn walk<V: Visit>(&self, v: &mut V) {
        let c = self.0;
        v.str(key("record_id", "`WARC-Refers-To`"), c.refers_to_record_id.as_deref());
        v.url(key("target_uri", "`WARC-Refers-To-Target-URI`"), c.refers_to_target_uri.as_deref());
        v.date(
            key("date", "`WARC-Refers-To-Date`"),
            c.refers_to_date.map(|t| t.with_offset_minutes(None)),
            None,
        );
        v.str(
            key(
                "source",
                "the original's `source` when it was read earlier in this run (and is still \
                 remembered: see `--help`, revisits)",
            ),
            c.refers_to_source.as_deref(),
        );
    }
}

impl Walk for Problem<'_> {
    const NAME: &'static str = "problem";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("kind", "a stable snake_case kind"), Some(self.kind));
        v.str(key("message", "a human account of the problem"), Some(self.message));
    }
}

impl Walk for Diagnostic {
    const NAME: &'static str = "diagnostic";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(
            key(
                "kind",
                "`malformed_xml`, `mismatched_end_tag`, `unclosed_element`, `html_entity`, \
                 `unknown_entity`, `bare_ampersand`, `unbound_prefix`, `content_after_root`, \
                 `invalid_character`, `doctype_ignored`, `invalid_encoding`, `limit_reached`, \
                 `not_a_feed`, `invalid_json` (a JSON Feed member of the wrong type, ignored, \
                 or a member read given again, whose first value is used), \
                 `invalid_value` (a value of the wrong type that nothing reads, left out), and \
                 from the web recovery rules `recovered`, `encoding_guessed`",
            ),
            Some(self.kind.as_str()),
        );
        v.uint(key("offset", "byte offset in the decoded text"), Some(self.offset as u64));
        v.str(key("message", "what happened, naming the element or value"), Some(&self.message));
    }
}

impl Shape for Diagnostic {
    fn shape() -> Self {
        Diagnostic { kind: DiagnosticKind::Recovered, offset: 0, message: String::new() }
    }
}

impl Walk for Finding {
    const NAME: &'static str = "finding";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("code", "the Feed Validator message class"), Some(self.code.name()));
        v.str(key("severity", "`error` | `warning` | `info`"), Some(self.severity().as_str()));
        v.str(key("message", "the validator's message, filled in"), Some(&self.message()));
        for k in FINDING_PARAMS {
            v.str(k, self.param(k.name));
        }
        v.uint(key("offset", "byte offset in the decoded text"), Some(self.offset as u64));
        v.uint(key("line", "1-based line"), Some(self.line.into()));
        v.uint(key("column", "1-based column, in characters"), Some(self.column.into()));
        v.str(key("section", "the Profile section enforced"), Some(self.section));
    }
}

impl Shape for Finding {
    fn shape() -> Self {
        Finding {
            code: crate::lint::messages::ALL[0],
            params: Vec::new(),
            offset: 0,
            line: 0,
            column: 0,
            section: "",
            excerpt: Box::default(),
            excerpt_column: 0,
        }
    }
}

/// A `feedmill lint` line: `{source, status, error, format, version, findings}`.
#[derive(Default)]
pub(crate) struct LintLine<'r> {
    /// The record's `source`.
    pub source: &'r str,
    /// The record's status.
    pub status: crate::record::Status,
    /// Why the record is not `ok` (why it was not linted).
    pub error: Option<crate::record::Problem<'r>>,
    /// The record's format.
    pub format: Option<crate::Format>,
    /// The lint report (none: the record was not a feed the lint read).
    pub report: Option<&'r Report>,
}

impl Walk for LintLine<'_> {
    const NAME: &'static str = "lint_line";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("source", "the record's `source`"), Some(self.source));
        v.str(key("status", "the record's `status`"), Some(self.status.as_str()));
        v.object(key("error", "the record's `error`: why it was not linted"), self.error.as_ref());
        v.str(key("format", "the record's `format`"), self.format.map(|f| f.as_str()));
        v.str(
            key("version", "the `rss` element's `version`, as written"),
            self.report.and_then(|r| r.version.as_deref()),
        );
        v.list(
            key("findings", "the findings, in document order").always(),
            self.report.map_or(&[][..], |r| &r.findings[..]),
        );
        v.uint(
            key("findings_dropped", "findings past `--max-diagnostics`, counted, not listed"),
            self.report.map(|r| r.dropped as u64).filter(|n| *n > 0),
        );
    }
}
