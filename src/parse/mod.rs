//! The driver: one document in, one [`Parsed`] out. Owns [`Parser`] (a reusable parser: its
//! arena and buffers), the owned result [`OwnedParsed`] (and [`OwnedEntry`]), and the
//! spec's "process a feed response" \[1\] up to the document.
//!
//! Every entry point gives the same result shape, [`Parsed`]: the feed (or none), the format,
//! the diagnostics, the encoding and the lint report. Borrowed from a [`Parser`]:
//! [`Parser::parse_bytes`], [`Parser::parse_str`], [`Parser::parse_response`]; owned
//! (`'static`, `Send + Sync`): [`OwnedParsed::parse_bytes`], [`OwnedParsed::parse_str`],
//! [`OwnedParsed::parse_response`], and the one-call [`parse`].

mod compact;
mod owned;

use std::borrow::Cow;
use std::io::{self, Read as _};

use bumpalo::Bump;

pub use owned::{OwnedEntry, OwnedParsed};

use crate::format::{self, Parsed};
use crate::input::{self, Decoded, Response, ResponseVerdict};
use crate::{Diagnostic, DiagnosticKind, Error, Options};

/// The base URL used when the caller gives none (the spec's document address is then
/// unknown; relative URLs resolve against this placeholder).
pub const DEFAULT_BASE_URL: &str = "about:blank";

/// A reusable parser: owns the per-parse arena and options. Keep one per worker thread;
/// each parse resets the arena, so memory is reused across documents.
///
/// ```
/// let mut parser = feedmill::Parser::new(feedmill::Options::default());
/// let parsed = parser.parse_str("<rss><channel><title>Hi</title></channel></rss>", None).unwrap();
/// let feed = parsed.feed.as_ref().unwrap();
/// assert_eq!(feed.title_text().as_deref(), Some("Hi"));
/// assert!(parsed.diagnostics.is_empty());
/// ```
pub struct Parser {
    arena: Bump,
    options: Options,
    /// The decoded text of a non-UTF-8 body (reused between documents).
    decoded: String,
}

impl Parser {
    /// A parser with these options and an empty arena; keep it for many documents (its
    /// arena and buffers are reset and reused by each `parse_*` call).
    pub fn new(options: Options) -> Self {
        Parser { arena: Bump::new(), options, decoded: String::new() }
    }

    /// The options every parse of this parser uses.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Processes the bytes of a stored document. The encoding is taken from the byte order
    /// mark, then the XML declaration, then UTF-8 (with the web recovery rules: detected from
    /// the bytes when nothing names it usably); for a `Content-Type` charset, give a
    /// [`Response`] to [`Parser::parse_response`]. Valid UTF-8 is not copied. `base_url` is
    /// the document's address; `None` uses [`DEFAULT_BASE_URL`].
    pub fn parse_bytes<'p>(
        &'p mut self,
        body: &'p [u8],
        base_url: Option<&str>,
    ) -> Result<Parsed<'p>, Error> {
        self.arena.reset();
        within_input_limit(body.len(), &self.options)?;
        let decoded = input::decode::decode_with(body, None, self.options.recover());
        run_decoded(&self.arena, &self.options, &mut self.decoded, decoded, base_url)
    }

    /// Processes a decoded document (the spec's "process a feed document").
    /// `base_url` is the document's address; `None` uses [`DEFAULT_BASE_URL`].
    pub fn parse_str<'p>(
        &'p mut self,
        document: &'p str,
        base_url: Option<&str>,
    ) -> Result<Parsed<'p>, Error> {
        self.arena.reset();
        run(&self.arena, &self.options, document, base_url)
    }

    /// The spec's "process a feed response" \[1\]: a status other than 200, or a computed
    /// MIME type that is neither XML nor JSON, gives no feed (with a
    /// [`DiagnosticKind::NotAFeed`] diagnostic saying why); otherwise the body is decoded
    /// (the `Content-Type` charset is the transport label) and processed with the response
    /// URL as base URL.
    pub fn parse_response<'p>(&'p mut self, response: &Response<'p>) -> Result<Parsed<'p>, Error> {
        self.arena.reset();
        match response_document(response, &self.options)? {
            ResponseDocument::Rejected(d) => Ok(Parsed::not_a_feed(d)),
            ResponseDocument::Decoded { decoded, url } => {
                run_decoded(&self.arena, &self.options, &mut self.decoded, decoded, url)
            }
        }
    }
}

/// Reads a stored document (bytes from a file, a socket, a slice) with the default options
/// and returns its owned result — the one-call entry point, like `feed_rs::parser::parse`.
/// The encoding is detected as by [`Parser::parse_bytes`]; there is no base URL, so relative
/// URLs are kept as written (recovery rule `relative_url`, with a diagnostic). For many documents keep a [`Parser`]: it reuses its buffers and
/// arena and copies nothing.
///
/// ```
/// let body: &[u8] = b"<rss><channel><title>News</title>\
///     <item><title>B</title><pubDate>Tue, 16 Jan 2024 08:00:00 GMT</pubDate></item>\
///     <item><title>A</title><pubDate>Mon, 15 Jan 2024 08:00:00 GMT</pubDate></item>\
///     </channel></rss>";
/// let parsed = feedmill::parse(body).unwrap();
/// let mut entries = parsed.entries(); // owned: 'static, Send + Sync
/// entries.sort_by_key(|e| e.get().date());
/// let titles: Vec<String> = entries.iter().filter_map(|e| e.get().title_text()).collect();
/// assert_eq!(titles, ["A", "B"]);
/// // Each `pubDate` is also the entry's `published` (recovery rule `date_published`).
/// assert!(parsed.diagnostics().iter().all(|d| d.message.starts_with("date_published: ")));
/// ```
pub fn parse<R: io::Read>(reader: R) -> Result<OwnedParsed, Error> {
    let options = Options::default();
    let mut body = Vec::new();
    reader
        .take(options.limits.max_input_bytes as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| Error::Read { kind: e.kind(), message: e.to_string() })?;
    OwnedParsed::parse_bytes(&body, &options, None)
}

fn run_decoded<'p>(
    arena: &'p Bump,
    options: &Options,
    scratch: &'p mut String,
    decoded: Decoded<'p>,
    base_url: Option<&str>,
) -> Result<Parsed<'p>, Error> {
    let (text, notes) = DecodeNotes::split(decoded);
    let text: &'p str = match text {
        Cow::Borrowed(s) => s,
        Cow::Owned(s) => {
            *scratch = s;
            scratch.as_str()
        }
    };
    run_noted(arena, options, text, notes, base_url)
}

/// Processes `text`, decoded from a body with `notes`, whose diagnostics come first.
fn run_noted<'p>(
    arena: &'p Bump,
    options: &Options,
    text: &'p str,
    notes: DecodeNotes,
    base_url: Option<&str>,
) -> Result<Parsed<'p>, Error> {
    // The decoder applied the C1 rule already (to the text the offsets are into).
    let mut parsed = run_with(arena, options, text, base_url, false)?;
    parsed.encoding = Some(notes.encoding);
    if let Some((first, count)) = notes.c1_mapped {
        parsed.diagnostics.insert(0, c1_diagnostic(first, count));
    }
    if let Some(message) = notes.guessed {
        parsed
            .diagnostics
            .insert(0, Diagnostic { kind: DiagnosticKind::EncodingGuessed, offset: 0, message });
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
fn run<'p>(
    arena: &'p Bump,
    options: &Options,
    document: &'p str,
    base_url: Option<&str>,
) -> Result<Parsed<'p>, Error> {
    run_with(arena, options, document, base_url, true)
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
    let base = match base_url {
        None => url::Url::parse(DEFAULT_BASE_URL).expect("constant URL parses"),
        Some(b) => url::Url::parse(b).map_err(|_| Error::InvalidBaseUrl { url: b.to_owned() })?,
    };
    let mapped = if c1 && options.recover() && !format::json_feed::looks_like_json(document) {
        input::decode::map_c1(document)
    } else {
        None
    };
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

/// A response after the spec's step \[1\]: rejected (with the `NotAFeed` diagnostic saying
/// why), or a decoded document and its address.
enum ResponseDocument<'r> {
    Rejected(Diagnostic),
    Decoded { decoded: Decoded<'r>, url: Option<&'r str> },
}

/// The spec's "process a feed response" \[1\] up to the document: a status other than 200,
/// or a computed MIME type that is neither XML nor JSON, rejects it; a JSON MIME type
/// (`application/feed+json`, `application/json`, any `+json`) is read as JSON (UTF-8 unless a
/// BOM or charset says otherwise); otherwise the body is decoded with the `Content-Type`
/// charset as transport label.
fn response_document<'r>(
    response: &Response<'r>,
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
        ResponseVerdict::NotOk { status } => {
            rejected(format!("response status {status} is not 200"))
        }
        ResponseVerdict::NotXml { computed_mime }
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
        ResponseVerdict::NotXml { computed_mime } => {
            rejected(format!("computed MIME type {computed_mime} is not an XML MIME type"))
        }
        ResponseVerdict::Xml { decoded, url, .. } => ResponseDocument::Decoded { decoded, url },
    })
}

/// [`Error::InputTooLarge`] when `size` bytes are over [`crate::Limits::max_input_bytes`].
fn within_input_limit(size: usize, options: &Options) -> Result<(), Error> {
    let limit = options.limits.max_input_bytes;
    if size > limit {
        return Err(Error::InputTooLarge { size, limit });
    }
    Ok(())
}

/// What decoding a body noted beside its text; a parse reports it as its first diagnostics.
struct DecodeNotes {
    encoding: &'static encoding_rs::Encoding,
    /// Offset of the first invalid byte sequence, and how many there were.
    malformed: Option<(usize, usize)>,
    guessed: Option<String>,
    c1_mapped: Option<(usize, usize)>,
}

impl DecodeNotes {
    /// The decoded text and the notes on how it was decoded.
    fn split(decoded: Decoded<'_>) -> (Cow<'_, str>, DecodeNotes) {
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
