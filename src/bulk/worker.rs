//! The worker, the stage above the archive readers: one record in, its [`RecordView`] out.
//! A WARC or ARC record's content is taken apart here ([`record_content`]: a response's HTTP
//! message, a resource's document, a revisit's original), then the body goes through the
//! spec's "process a feed response" ([`Parser::parse_response`]: status, computed MIME type,
//! `Content-Type` charset, target URI as base URL; a resource as a response without HTTP); a
//! plain document through [`Parser::parse_bytes`] (BOM > XML declaration > UTF-8, the run's
//! base URL). Then extraction and strict sanitizing, as the run's [`Config`] says. A record
//! of an archive carries its capture fields (the record's `capture`); a revisit's record has
//! the status `revisit` whatever its content gave.
//!
//! Invariant: every record gives exactly one view, whatever its bytes. Nothing here knows
//! about charsets: decoding is the library's.

use bumpalo::Bump;

use super::archive::http::record_content;
use super::archive::{Payload, RawRecord};
use super::config::Config;
use super::read::{with_notes, Record};
use super::summary::internal_error_message;
use crate::extract::{extract_with, ExtractOptions};
use crate::input::Response;
use crate::record::{Capture, Problem, RecordView, Status};
use crate::sanitize::SanitizeOptions;
use crate::{Error, Parsed, Parser};

/// A worker: a reusable parser (its arena is reset per document), the extraction arena and
/// reused buffers. It turns one record into one [`RecordView`]: the pipeline keeps one per
/// worker thread; [`Worker::process`] processes a [`Record`] of [`crate::bulk::read`] (or
/// one of the caller's) the same way.
///
/// ```
/// use feedmill::bulk::{Config, Record, Worker};
/// let mut worker = Worker::new(&Config::default());
/// let rec = Record {
///     source: "feed.xml".into(),
///     url: Some("https://example.org/feed.xml".into()),
///     status: Some(200),
///     content_type: Some("application/rss+xml".into()),
///     body: Ok(b"<rss version='2.0'><channel><title>T</title></channel></rss>".to_vec()),
///     capture: None,
///     notes: Vec::new(),
/// };
/// let mut title = None;
/// worker.process(&rec, &mut |view| title = view.feed.and_then(|f| f.title_text()));
/// assert_eq!(title.as_deref(), Some("T"));
/// ```
pub struct Worker {
    /// The settings it was made with (to start afresh after a panic).
    cfg: Config,
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
}

impl Worker {
    /// A worker for `cfg` (its options, base URL, extraction and sanitizing settings).
    pub fn new(cfg: &Config) -> Self {
        Worker {
            cfg: cfg.clone(),
            parser: Parser::new(cfg.options.clone()),
            base_url: cfg.base_url.clone(),
            max_body: cfg.options.limits.max_input_bytes,
            post: Post {
                extract: cfg.extract.clone(),
                arena: Bump::new(),
                sanitize: cfg.sanitize.clone(),
            },
        }
    }

    /// Whether the run writes `feedmill lint` lines instead of records.
    #[cfg(any(test, feature = "internals"))]
    pub(crate) fn lint_only(&self) -> bool {
        self.cfg.lint_only
    }

    /// Processes `rec` and calls `f` once with its view: a body with a `status` as an HTTP
    /// response (a status other than 200 is not a feed; the MIME type computed from the
    /// `content_type` and the body; the charset from `content_type`; `url` as base URL), a
    /// body without one as a stored document (BOM, XML declaration, UTF-8; `url`, else the
    /// run's base URL, as base URL), an error as an error record. Then extraction and strict
    /// sanitizing, as the worker's [`Config`] says.
    ///
    /// A panic while processing `rec` (a bug) makes it an `error` record of kind `internal`,
    /// and the worker starts afresh, as in the pipeline; a panic inside `f` is resumed (the
    /// worker starts afresh first).
    pub fn process(&mut self, rec: &Record, f: &mut dyn FnMut(&RecordView<'_, '_>)) {
        let mut entered = false;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.process_record(rec, &mut |view, _| {
                entered = true;
                f(view)
            })
        }));
        let Err(panic) = result else { return };
        // The parser, its arenas and scratch may be left mid-document.
        *self = Worker::new(&self.cfg);
        if entered {
            std::panic::resume_unwind(panic);
        }
        let message = internal_error_message(&*panic);
        let url = rec.url.as_deref().or(self.base_url.as_deref());
        f(&RecordView::error(&rec.source, url, "internal", &message));
    }

    /// [`Worker::process`] without the panic guard; `f` also gets the size of the body that
    /// was decoded (0 when none was).
    fn process_record(&mut self, rec: &Record, f: &mut dyn FnMut(&RecordView<'_, '_>, usize)) {
        let Worker { parser, base_url, max_body, post, .. } = self;
        let capture = rec.capture.as_ref();
        let revisit = capture.and_then(|c| c.record_type) == Some("revisit");
        let extra = Extra { capture, revisit, notes: rec.notes.clone() };
        let body = match &rec.body {
            Ok(body) => body,
            Err(e) => {
                let url = rec.url.as_deref().or(base_url.as_deref());
                let message = rec.error_message().unwrap_or_default();
                return f(&extra.error(&rec.source, url, e.kind, &message), 0);
            }
        };
        let resource = capture.and_then(|c| c.record_type) == Some("resource");
        match rec.status.or(resource.then_some(200)) {
            Some(status) => {
                let url = rec.url.as_deref().filter(|u| !u.is_empty());
                if body.len() > *max_body {
                    let message = format!("body larger than {max_body} bytes");
                    return f(&extra.error(&rec.source, url, "too_large", &message), 0);
                }
                let ct = rec.content_type.as_deref();
                let p = process_http_response(parser, status, ct, url, body);
                with_processed(post, url, &rec.source, p, body.len(), extra, f);
            }
            None => {
                let url = rec.url.as_deref().or(base_url.as_deref());
                let p = process_document(parser, body, url);
                with_processed(post, url, &rec.source, p, body.len(), extra, f);
            }
        }
    }

    /// Processes `rec` (as the archive reader emitted it: a WARC response's HTTP message is
    /// taken apart here, on the worker) and calls `f` once with its view and the size of the
    /// body that was decoded (0 when none was).
    pub(crate) fn view(&mut self, rec: &RawRecord, f: &mut dyn FnMut(&RecordView<'_, '_>, usize)) {
        let Worker { parser, base_url, max_body, post, .. } = self;
        let url = record_url(base_url.as_deref(), rec);
        match &rec.payload {
            Payload::Broken { kind, message } => {
                f(&RecordView::error(&rec.source, url, kind, message), 0);
            }
            Payload::Document(bytes) => {
                let p = process_document(parser, bytes, url);
                with_processed(post, url, &rec.source, p, bytes.len(), Extra::default(), f);
            }
            Payload::Response {
                kind,
                target_uri,
                message,
                capture,
                original,
                original_error,
                note,
            } => {
                let mut capture = Capture::clone(capture);
                let original = original.as_ref().ok_or(original_error.as_ref());
                let content = record_content(*kind, message, original, &mut capture, *max_body);
                let revisit = *kind == crate::bulk::archive::Kind::Revisit;
                let notes = note.iter().cloned().collect();
                let mut extra = Extra { capture: Some(&capture), revisit, notes };
                match content {
                    Err((kind, msg)) => {
                        let msg = with_notes(&msg, &extra.notes);
                        f(&extra.error(&rec.source, url, kind, &msg), 0)
                    }
                    Ok(c) => {
                        extra.notes.extend(c.note);
                        let p = process_http_response(
                            parser,
                            c.status,
                            c.content_type.as_deref(),
                            Some(target_uri),
                            &c.body,
                        );
                        with_processed(post, url, &rec.source, p, c.body.len(), extra, f);
                    }
                }
            }
        }
    }

    /// The `error` record of `rec` with `kind` and `message`, for a record whose processing
    /// failed outside the parser (the pipeline's `internal` records).
    pub(crate) fn view_failed(
        &self,
        rec: &RawRecord,
        kind: &str,
        message: &str,
        f: &mut dyn FnMut(&RecordView<'_, '_>, usize),
    ) {
        let url = record_url(self.base_url.as_deref(), rec);
        f(&RecordView::error(&rec.source, url, kind, message), 0);
    }
}

/// The URL of `rec`'s record (its base URL): a WARC or ARC record's target URI (none when
/// empty), else the run's base URL.
fn record_url<'r>(base_url: Option<&'r str>, rec: &'r RawRecord) -> Option<&'r str> {
    match &rec.payload {
        Payload::Response { target_uri, .. } => Some(target_uri.as_str()).filter(|u| !u.is_empty()),
        _ => base_url,
    }
}

fn error_kind(e: &Error) -> &'static str {
    match e {
        // The kind of every record over `max_input_bytes`, wherever the size is found.
        Error::InputTooLarge { .. } => "too_large",
        Error::InvalidBaseUrl { .. } => "invalid_base_url",
        #[allow(unreachable_patterns)]
        _ => "parse_error",
    }
}

/// What a record of an archive adds to its view: its capture fields, whether it is a
/// revisit (its status is then `revisit`), and notes on how it and its body were read
/// (`recovered` diagnostics before the parser's).
#[derive(Default)]
struct Extra<'c> {
    capture: Option<&'c Capture>,
    revisit: bool,
    notes: Vec<String>,
}

impl<'c> Extra<'c> {
    /// The error record of `source` (a revisit's: status `revisit`, `error` saying why it
    /// has no content).
    fn error<'r>(
        &self,
        source: &'r str,
        url: Option<&'r str>,
        kind: &'r str,
        message: &'r str,
    ) -> RecordView<'r, 'static>
    where
        'c: 'r,
    {
        RecordView::capture_error(source, url, kind, message, self.capture)
    }
}

fn with_processed(
    post: &mut Post,
    url: Option<&str>,
    source: &str,
    mut p: Processed<'_>,
    body: usize,
    extra: Extra<'_>,
    f: &mut dyn FnMut(&RecordView<'_, '_>, usize),
) {
    // Notes go before the parser's diagnostics, or after the message of a record without
    // any.
    match &mut p.outcome {
        Outcome::Parsed(parsed) => {
            let kind = crate::DiagnosticKind::Recovered;
            let notes = extra.notes.iter().map(|message| crate::Diagnostic {
                kind,
                offset: 0,
                message: message.clone(),
            });
            parsed.diagnostics.splice(0..0, notes);
        }
        Outcome::NotAFeed { message, .. } => *message = with_notes(message, &extra.notes),
        Outcome::Failed(_) => {}
    }
    let mut view = RecordView {
        source,
        url,
        encoding: p.encoding,
        capture: extra.capture,
        ..RecordView::default()
    };
    let revisit = extra.revisit;
    let mut f = |view: &mut RecordView<'_, '_>, body: usize| {
        if revisit {
            view.status = Status::Revisit;
        }
        f(view, body)
    };
    match &mut p.outcome {
        Outcome::NotAFeed { kind, message } => {
            view.status = Status::NotAFeed;
            view.error = Some(Problem { kind, message });
            f(&mut view, body);
        }
        Outcome::Failed(e) => {
            let message = with_notes(&e.to_string(), &extra.notes);
            view.error = Some(Problem { kind: error_kind(e), message: &message });
            f(&mut view, body);
        }
        Outcome::Parsed(parsed) => {
            // Strict sanitizing covers URL fields too (`javascript:`, `data:` … removed), in
            // place.
            if let (Some(_), Some(feed)) = (&post.sanitize, &mut parsed.feed) {
                crate::sanitize::drop_unsafe_urls(feed);
            }
            let parsed = &*parsed;
            let mut view =
                RecordView { capture: extra.capture, ..RecordView::parsed(source, url, parsed) };
            let feed = parsed.feed.as_ref();
            if feed.is_some() {
                post.arena.reset();
            }
            // The reference instant of `future` dates: the record's capture date, else
            // `opts.as_of`, else now.
            let captured = extra.capture.and_then(|c| c.date);
            let extraction = feed
                .zip(post.extract.as_ref())
                .map(|(feed, opts)| extract_with(feed, &post.arena, opts, url, captured));
            view.extraction = extraction.as_ref();
            let sanitize =
                post.sanitize.as_ref().filter(|_| feed.is_some()).map(|s| SanitizeOptions {
                    base_url: url.and_then(|u| url::Url::parse(u).ok()),
                    allow_video_embeds: s.allow_video_embeds,
                    max_url_growth: s.max_url_growth,
                });
            view.sanitize = sanitize.as_ref();
            f(&mut view, body);
        }
    }
}

/// The parse outcome of one body.
// One Outcome lives on a worker's stack per record; boxing `Parsed` would add a heap
// allocation per record for nothing.
#[allow(clippy::large_enum_variant)]
enum Outcome<'p> {
    /// The parser ran (its `feed` may still be `None`: not a feed, with the reason as a
    /// `not_a_feed` diagnostic).
    Parsed(Parsed<'p>),
    /// The response is not a feed before parsing (e.g. HTTP 404).
    NotAFeed {
        /// The `not_a_feed` diagnostic's kind (e.g. `http_status`).
        kind: &'static str,
        /// Why, for the diagnostic's message.
        message: String,
    },
    /// The parser refused the input (limits, bad base URL).
    Failed(Error),
}

/// One processed body.
struct Processed<'p> {
    /// The encoding used to decode, when the body was decoded.
    encoding: Option<&'static str>,
    /// What processing gave.
    outcome: Outcome<'p>,
}

fn processed(result: Result<Parsed<'_>, Error>) -> Processed<'_> {
    match result {
        Ok(parsed) => Processed {
            encoding: parsed.encoding.map(|e| e.name()),
            outcome: Outcome::Parsed(parsed),
        },
        Err(e) => Processed { encoding: None, outcome: Outcome::Failed(e) },
    }
}

/// Processes an HTTP response (from a WARC `response` record).
fn process_http_response<'p>(
    parser: &'p mut Parser,
    status: u16,
    content_type: Option<&'p str>,
    target_uri: Option<&'p str>,
    body: &'p [u8],
) -> Processed<'p> {
    if status != 200 {
        return Processed {
            encoding: None,
            outcome: Outcome::NotAFeed {
                kind: "http_status",
                message: format!("HTTP status {status}"),
            },
        };
    }
    let url = target_uri.filter(|u| !u.is_empty());
    processed(parser.parse_response(&Response { status, content_type, url, body }))
}

/// Processes a plain document (a file, a tar member, standard input).
fn process_document<'p>(
    parser: &'p mut Parser,
    bytes: &'p [u8],
    base_url: Option<&'p str>,
) -> Processed<'p> {
    processed(parser.parse_bytes(bytes, base_url))
}
