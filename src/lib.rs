//! feedmill: turns feed documents (RSS 0.9x/1.0/2.0, Atom 0.3/1.0 and their modules) into the
//! records the "Feed processing" spec defines.
//!
//! Pipeline (one pass, no DOM):
//!
//! ```text
//!  bytes ──► input (response: status, MIME, charset) ──► decode (BOM > transport > XML decl > UTF-8)
//!        ──► xml (zero-copy tokenizer, quick-xml namespace scopes, recovery, known namespaces → Ns)
//!        ──► format (root dispatch; atom / rss2 / rss1 switch tables; cleanup)
//!        ──► model (Feed<'a> borrowing input + arena; html values sanitized)
//! ```
//!
//! ```
//! let mut parser = feedmill::Parser::new(feedmill::Options::default());
//! let parsed = parser
//!     .parse_str("<rss><channel><title>Hi</title></channel></rss>", None)
//!     .unwrap();
//! let feed = parsed.feed.as_ref().unwrap();
//! assert_eq!(feed.title.as_ref().unwrap().as_plain(), Some("Hi"));
//! ```

// Every public item is documented. CI turns the warning into an error twice: clippy with
// every feature (the test-only `internals` included, which makes `xml` and `format` public)
// and rustdoc with the public features (the API as docs.rs shows it). The internals are held
// to the same rule rather than exempted: they are what the next maintainer reads first.
#![warn(missing_docs)]

#[cfg(feature = "bulk")]
pub mod bulk;
#[cfg(feature = "arrow")]
pub mod columnar;
#[cfg(feature = "discover")]
pub mod discover;
pub mod error;
pub mod extract;
// Internal (the format state machines and the XML tokenizer): public only with the
// test-only `internals` feature, for this crate's tests and fuzz targets.
#[cfg(feature = "internals")]
pub mod format;
#[cfg(not(feature = "internals"))]
mod format;
pub mod html;
pub mod input;
pub mod lint;
pub mod model;
pub mod options;
#[cfg(feature = "strict-sanitize")]
pub mod sanitize;
mod simd;
#[cfg(feature = "json")]
pub mod sink;
#[cfg(feature = "internals")]
pub mod xml;
#[cfg(not(feature = "internals"))]
mod xml;

pub use error::{Diagnostic, DiagnosticKind, Error};
pub use model::{Enclosure, Entry, Feed, Image, OwnedFeed, Person, Text, Timestamp};
pub use options::{Limits, Options};

/// Crates whose types appear in this crate's signatures (the per-parse arena, parsed URLs),
/// re-exported so callers need not depend on matching versions themselves.
pub use bumpalo;
pub use url;

use std::io::{self, Read as _};

use bumpalo::Bump;

/// The Rust examples of the README and of `docs/`, compiled and run as doctests.
#[cfg(doctest)]
mod doctests;

/// The base URL used when the caller gives none (the spec's document address is then
/// unknown; relative URLs resolve against this placeholder).
pub const DEFAULT_BASE_URL: &str = "about:blank";

/// The feed format, by root element (JSON Feed: by its `version`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// `rss` in the null namespace (RSS 0.9x and 2.0).
    Rss2,
    /// `rdf:RDF` (RSS 1.0 and 0.90).
    Rss1,
    /// `feed` in the Atom 1.0 namespace.
    Atom,
    /// `feed` in the Atom 0.3 namespace.
    Atom03,
    /// JSON Feed 1.0 or 1.1 (`format::json_feed`).
    Json,
}

impl Format {
    /// Stable name used in JSON records.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Rss2 => "rss2",
            Format::Rss1 => "rss1",
            Format::Atom => "atom",
            Format::Atom03 => "atom03",
            Format::Json => "json",
        }
    }
}

/// The result of processing one document.
#[derive(Debug)]
#[non_exhaustive]
pub struct Parsed<'a> {
    /// The feed, or `None` when the document is not a feed (spec: null).
    pub feed: Option<Feed<'a>>,
    /// The format, when the root element is a feed root.
    pub format: Option<Format>,
    /// Everything recovered or ignored, in the order recorded: as the document is read, so in
    /// document order, except that a diagnostic about an element's value (`recovered`,
    /// `invalid_value`) is recorded once the element is read, with the element's start offset
    /// (after any diagnostic from inside it).
    pub diagnostics: Vec<Diagnostic>,
    /// The character encoding the document was decoded with (`None` when the caller gave
    /// decoded text, or when a response was rejected before decoding).
    pub encoding: Option<&'static encoding_rs::Encoding>,
    /// The lint report, when [`Options::lint`] is set (its findings are empty for documents
    /// that are not RSS 2.0).
    pub lint: Option<lint::Report>,
}

/// A reusable parser: owns the per-parse arena and options. Keep one per worker thread;
/// each parse resets the arena, so memory is reused across documents.
pub struct Parser {
    arena: Bump,
    options: Options,
    /// The decoded text of a non-UTF-8 body (reused between documents).
    decoded: String,
    /// The bytes read by [`Parser::parse_reader`] (reused between documents).
    read: Vec<u8>,
}

impl Parser {
    /// A parser with these options and an empty arena; keep it for many documents (its
    /// arena and buffers are reset and reused by each `parse_*` call).
    pub fn new(options: Options) -> Self {
        Parser { arena: Bump::new(), options, decoded: String::new(), read: Vec::new() }
    }

    /// The options every parse of this parser uses.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Processes a decoded document (the spec's "process a feed document").
    /// `base_url` is the document's address; `None` uses [`DEFAULT_BASE_URL`].
    pub fn parse_str<'p>(
        &'p mut self,
        document: &'p str,
        base_url: Option<&str>,
    ) -> Result<Parsed<'p>, Error> {
        self.arena.reset();
        Self::run(&self.arena, &self.options, document, base_url)
    }

    /// Processes the bytes of a stored document: the encoding is taken from the byte order
    /// mark, then `transport_charset` (a `Content-Type` charset, if known), then the XML
    /// declaration, then UTF-8. Valid UTF-8 is not copied.
    pub fn parse_bytes<'p>(
        &'p mut self,
        body: &'p [u8],
        transport_charset: Option<&str>,
        base_url: Option<&str>,
    ) -> Result<Parsed<'p>, Error> {
        self.arena.reset();
        within_input_limit(body.len(), &self.options)?;
        let decoded = input::decode::decode_with(body, transport_charset, self.options.recover());
        Self::run_decoded(&self.arena, &self.options, &mut self.decoded, decoded, base_url)
    }

    /// Reads a document from `reader` (up to [`Limits::max_input_bytes`]; more is
    /// [`Error::InputTooLarge`]) into a buffer the parser keeps and reuses, then processes it
    /// as [`Parser::parse_bytes`] does.
    ///
    /// ```
    /// let mut parser = feedmill::Parser::new(feedmill::Options::default());
    /// let file: &[u8] = b"<feed xmlns='http://www.w3.org/2005/Atom'><title>Hi</title></feed>";
    /// let parsed = parser.parse_reader(file, None, None).unwrap();
    /// assert_eq!(parsed.feed.unwrap().title.unwrap().to_string(), "Hi");
    /// ```
    pub fn parse_reader<R: io::Read>(
        &mut self,
        reader: R,
        transport_charset: Option<&str>,
        base_url: Option<&str>,
    ) -> Result<Parsed<'_>, Error> {
        read_limited(reader, &self.options, &mut self.read)?;
        self.arena.reset();
        let decoded =
            input::decode::decode_with(&self.read, transport_charset, self.options.recover());
        Self::run_decoded(&self.arena, &self.options, &mut self.decoded, decoded, base_url)
    }

    /// The spec's "process a feed response" \[1\]: a status other than 200, or a computed
    /// MIME type that is not XML, gives no feed (with a [`DiagnosticKind::NotAFeed`]
    /// diagnostic saying why); otherwise the body is decoded (the `Content-Type` charset is
    /// the transport label) and processed with the response URL as base URL.
    pub fn parse_response<'p>(
        &'p mut self,
        response: &input::Response<'p>,
    ) -> Result<Parsed<'p>, Error> {
        self.arena.reset();
        match response_document(response, &self.options)? {
            ResponseDocument::Rejected(d) => Ok(Parsed {
                feed: None,
                format: None,
                diagnostics: vec![d],
                encoding: None,
                lint: None,
            }),
            ResponseDocument::Decoded { decoded, url } => {
                Self::run_decoded(&self.arena, &self.options, &mut self.decoded, decoded, url)
            }
        }
    }

    fn run_decoded<'p>(
        arena: &'p Bump,
        options: &Options,
        scratch: &'p mut String,
        decoded: input::Decoded<'p>,
        base_url: Option<&str>,
    ) -> Result<Parsed<'p>, Error> {
        let (text, notes) = DecodeNotes::split(decoded);
        let text: &'p str = match text {
            std::borrow::Cow::Borrowed(s) => s,
            std::borrow::Cow::Owned(s) => {
                *scratch = s;
                scratch.as_str()
            }
        };
        Self::run_noted(arena, options, text, notes, base_url)
    }

    /// Processes `text`, decoded from a body with `notes`, whose diagnostics come first.
    pub(crate) fn run_noted<'p>(
        arena: &'p Bump,
        options: &Options,
        text: &'p str,
        notes: DecodeNotes,
        base_url: Option<&str>,
    ) -> Result<Parsed<'p>, Error> {
        // The decoder applied the C1 rule already (to the text the offsets are into).
        let mut parsed = Self::run_with(arena, options, text, base_url, false)?;
        parsed.encoding = Some(notes.encoding);
        if let Some((first, count)) = notes.c1_mapped {
            parsed.diagnostics.insert(0, c1_diagnostic(first, count));
        }
        if let Some(message) = notes.guessed {
            parsed.diagnostics.insert(
                0,
                Diagnostic { kind: DiagnosticKind::EncodingGuessed, offset: 0, message },
            );
        }
        if let Some((offset, count)) = notes.malformed {
            parsed.diagnostics.insert(
                0,
                Diagnostic {
                    kind: DiagnosticKind::InvalidEncoding,
                    offset,
                    message: format!(
                        "{count} invalid {} byte sequence(s) replaced by U+FFFD",
                        notes.encoding.name()
                    ),
                },
            );
        }
        Ok(parsed)
    }

    /// Processes a document the caller decoded (the `c1_control` rule applies to it).
    pub(crate) fn run<'p>(
        arena: &'p Bump,
        options: &Options,
        document: &'p str,
        base_url: Option<&str>,
    ) -> Result<Parsed<'p>, Error> {
        Self::run_with(arena, options, document, base_url, true)
    }

    /// `c1`: whether to apply the `c1_control` rule to `document` (text the caller decoded;
    /// a body decoded by [`input::decode::decode_with`] had it applied there).
    fn run_with<'p>(
        arena: &'p Bump,
        options: &Options,
        document: &'p str,
        base_url: Option<&str>,
        c1: bool,
    ) -> Result<Parsed<'p>, Error> {
        within_input_limit(document.len(), options)?;
        let limits = &options.limits;
        let base = match base_url {
            None => url::Url::parse(DEFAULT_BASE_URL).expect("constant URL parses"),
            Some(b) => {
                url::Url::parse(b).map_err(|_| Error::InvalidBaseUrl { url: b.to_owned() })?
            }
        };
        if format::json_feed::looks_like_json(document) {
            let mut parsed = format::json_feed::process_document(arena, document, &base, limits);
            // The lint covers RSS 2.0 only: other formats get an empty report.
            parsed.lint = options.lint.as_ref().map(|_| lint::Report::default());
            return Ok(parsed);
        }
        let mapped = if c1 && options.recover() { input::decode::map_c1(document) } else { None };
        match mapped {
            None => Ok(format::process_document(arena, document, base, options)),
            Some((text, first, count)) => {
                let text = arena.alloc_str(&text);
                let mut parsed = format::process_document(arena, text, base, options);
                parsed.diagnostics.insert(0, c1_diagnostic(first, count));
                Ok(parsed)
            }
        }
    }
}

/// A response after the spec's step \[1\]: rejected (with the `NotAFeed` diagnostic saying
/// why), or a decoded document and its address.
pub(crate) enum ResponseDocument<'r> {
    Rejected(Diagnostic),
    Decoded { decoded: input::Decoded<'r>, url: Option<&'r str> },
}

/// The spec's "process a feed response" \[1\] up to the document: a status other than 200,
/// or a computed MIME type that is neither XML nor JSON, rejects it; a JSON MIME type
/// (`application/feed+json`, `application/json`, any `+json`) is read as JSON (UTF-8 unless a
/// BOM or charset says otherwise); otherwise the body is decoded with the `Content-Type`
/// charset as transport label.
pub(crate) fn response_document<'r>(
    response: &input::Response<'r>,
    options: &Options,
) -> Result<ResponseDocument<'r>, Error> {
    within_input_limit(response.body.len(), options)?;
    let rejected = |message: String| {
        ResponseDocument::Rejected(Diagnostic {
            kind: DiagnosticKind::NotAFeed,
            offset: 0,
            message,
        })
    };
    Ok(match input::prepare_response_with(response, options.recover()) {
        input::ResponseVerdict::NotOk { status } => {
            rejected(format!("response status {status} is not 200"))
        }
        input::ResponseVerdict::NotXml { computed_mime }
            if input::mime::is_json_mime_type(
                &computed_mime.essence_raw().to_ascii_lowercase(),
            ) =>
        {
            let charset = response
                .content_type
                .and_then(input::mime::MimeType::parse)
                .and_then(|m| m.charset().map(|c| c.into_owned()));
            ResponseDocument::Decoded {
                decoded: input::decode(response.body, charset.as_deref()),
                url: response.url,
            }
        }
        input::ResponseVerdict::NotXml { computed_mime } => {
            rejected(format!("computed MIME type {computed_mime} is not an XML MIME type"))
        }
        input::ResponseVerdict::Xml { decoded, url, .. } => {
            ResponseDocument::Decoded { decoded, url }
        }
    })
}

/// [`Error::InputTooLarge`] when `size` bytes are over [`Limits::max_input_bytes`].
pub(crate) fn within_input_limit(size: usize, options: &Options) -> Result<(), Error> {
    let limit = options.limits.max_input_bytes;
    if size > limit {
        return Err(Error::InputTooLarge { size, limit });
    }
    Ok(())
}

/// Reads `reader` into `buf` (cleared first), one byte past [`Limits::max_input_bytes`] at
/// most; more is [`Error::InputTooLarge`].
fn read_limited<R: io::Read>(reader: R, options: &Options, buf: &mut Vec<u8>) -> Result<(), Error> {
    buf.clear();
    reader
        .take(options.limits.max_input_bytes as u64 + 1)
        .read_to_end(buf)
        .map_err(|e| Error::Read { kind: e.kind(), message: e.to_string() })?;
    within_input_limit(buf.len(), options)
}

/// What decoding a body noted beside its text; a parse reports it as its first diagnostics.
pub(crate) struct DecodeNotes {
    encoding: &'static encoding_rs::Encoding,
    /// Offset of the first invalid byte sequence, and how many there were.
    malformed: Option<(usize, usize)>,
    guessed: Option<String>,
    c1_mapped: Option<(usize, usize)>,
}

impl DecodeNotes {
    /// The decoded text and the notes on how it was decoded.
    pub(crate) fn split(decoded: input::Decoded<'_>) -> (std::borrow::Cow<'_, str>, DecodeNotes) {
        let notes = DecodeNotes {
            encoding: decoded.encoding,
            malformed: decoded.malformed.map(|offset| (offset, decoded.malformed_count)),
            guessed: decoded.guessed,
            c1_mapped: decoded.c1_mapped,
        };
        (decoded.text, notes)
    }
}

fn c1_diagnostic(offset: usize, count: usize) -> Diagnostic {
    Diagnostic {
        kind: DiagnosticKind::Recovered,
        offset,
        message: format!(
            "c1_control: {count} C1 control character(s) read as the windows-1252 characters they stand for"
        ),
    }
}

/// Reads a stored document (bytes from a file, a socket, a slice) and returns the owned feed,
/// or `None` when the document is not a feed — the one-call entry point, like
/// `feed_rs::parser::parse`. The encoding is detected as by [`Parser::parse_bytes`]; relative
/// URLs are kept only when absolute (no base URL). For many documents, keep a [`Parser`]: it
/// reuses its buffers and arena and copies nothing.
///
/// ```
/// let body: &[u8] = b"<rss><channel><title>News</title>\
///     <item><title>B</title><pubDate>Tue, 16 Jan 2024 08:00:00 GMT</pubDate></item>\
///     <item><title>A</title><pubDate>Mon, 15 Jan 2024 08:00:00 GMT</pubDate></item>\
///     </channel></rss>";
/// let feed = feedmill::parse(body).unwrap().expect("a feed");
/// let mut entries: Vec<_> = feed.feed().entries.iter().collect();
/// entries.sort_by_key(|e| e.date());
/// let titles: Vec<String> = entries.iter().map(|e| e.title.as_ref().unwrap().to_string()).collect();
/// assert_eq!(titles, ["A", "B"]);
/// ```
pub fn parse<R: io::Read>(reader: R) -> Result<Option<OwnedFeed>, Error> {
    let options = Options::default();
    let mut body = Vec::new();
    read_limited(reader, &options, &mut body)?;
    Ok(OwnedFeed::parse_bytes(&body, &options, None, None)?.0)
}

/// Parses a decoded document into an [`OwnedFeed`] with the default options (for callers
/// who want no lifetimes); the feed (`None` when the document is not one) and the
/// diagnostics.
pub fn parse_owned(
    document: &str,
    base_url: Option<&str>,
) -> Result<(Option<OwnedFeed>, Vec<Diagnostic>), Error> {
    OwnedFeed::parse_str(document, &Options::default(), base_url)
}
