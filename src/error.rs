//! Errors (nothing could be salvaged) and diagnostics (something was recovered or ignored).
//!
//! Owns: [`Error`], [`Diagnostic`], [`DiagnosticKind`], [`Severity`] (also the lint findings').
//! Invariant: every diagnostic's `offset` is a byte offset into the document text the parser
//! was given (after decoding), pointing at the start of the construct it describes, and is
//! never past its end — except [`DiagnosticKind::InvalidEncoding`], whose offset is into the
//! raw body bytes (the decoded text has U+FFFD there).

use std::fmt;

/// What stopped a parse. Returned only when nothing can be salvaged.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The input is larger than [`crate::Limits::max_input_bytes`].
    InputTooLarge {
        /// The input's size in bytes (for a reader: at least `limit + 1`).
        size: usize,
        /// The limit it exceeds.
        limit: usize,
    },
    /// The base URL given by the caller does not parse as an absolute URL.
    InvalidBaseUrl {
        /// The URL as given.
        url: String,
    },
    /// Reading the document failed ([`crate::parse`]).
    Read {
        /// The I/O error's kind.
        kind: std::io::ErrorKind,
        /// The I/O error's message.
        message: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InputTooLarge { size, limit } => {
                write!(f, "input of {size} bytes exceeds the {limit}-byte limit")
            }
            Error::InvalidBaseUrl { url } => write!(f, "base URL {url:?} is not an absolute URL"),
            Error::Read { message, .. } => write!(f, "reading the document failed: {message}"),
        }
    }
}

impl std::error::Error for Error {}

/// The kind of a recovered or ignored problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DiagnosticKind {
    /// The document is not well-formed XML at this point; the parser recovered.
    MalformedXml,
    /// An end tag did not match the open element; the parser closed elements to recover.
    MismatchedEndTag,
    /// The document ended with open elements (truncated body); they were closed.
    UnclosedElement,
    /// An entity reference XML does not define was resolved as an HTML named reference.
    HtmlEntity,
    /// An entity reference nobody defines was kept literally.
    UnknownEntity,
    /// A bare `&` that starts no reference was kept literally.
    BareAmpersand,
    /// An element or attribute prefix is not bound to a namespace URI.
    UnboundPrefix,
    /// Content after the root element was ignored.
    ContentAfterRoot,
    /// A character not allowed in XML (NUL, C0 control) was replaced or dropped.
    InvalidCharacter,
    /// A DOCTYPE was seen; external subsets and entities are never fetched.
    DoctypeIgnored,
    /// Invalid byte sequences for the document's encoding were replaced by U+FFFD.
    InvalidEncoding,
    /// A configured limit was reached; the rest of the document was not processed.
    LimitReached,
    /// The document's root element is not a feed root.
    NotAFeed,
    /// A JSON Feed member has the wrong JSON type and was ignored, or a member the mapping
    /// reads was given again (its first value is the one read).
    InvalidJson,
    /// A value its element or attribute gives a type (a date, a number, a duration, an hour,
    /// a day, a yes/no) was not one and was left out: no parse and no lenient reading gave
    /// anything. The message names the element or attribute and quotes the value.
    InvalidValue,
    /// A web recovery rule supplied a value the spec's processing left null (or garbage:
    /// raw base64, a truncated fragment); the message names the rule and the source
    /// element. Never recorded with `Options::spec_exact`.
    Recovered,
    /// Nothing named the document's encoding usably (or the one named gave invalid
    /// sequences), and the encoding was detected from the bytes. Never recorded with
    /// `Options::spec_exact`.
    EncodingGuessed,
}

/// How serious a problem is, lowest first: the one scale of diagnostics
/// ([`DiagnosticKind::severity`]) and of lint findings (`lint::Code::severity`, the W3C Feed
/// Validator's class hierarchy). Written in JSON as [`Severity::as_str`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Informational: nothing the document held was lost or is invalid. A diagnostic read as
    /// the document meant it, or filled where the spec's steps left a null: a web recovery
    /// rule, an HTML entity in XML, a bare `&`, an encoding detected, a DOCTYPE skipped. (No
    /// lint code has it; kept for the validator's `Info` classes.)
    Info,
    /// A lint finding of the validator's `Warning` classes: valid, but against the Best
    /// Practices Profile or likely to break some readers. (No diagnostic has it.)
    Warning,
    /// Something was lost, cut or is invalid. A diagnostic: malformed or truncated markup,
    /// bytes not in the encoding, a value of the wrong type left out, a limit reached, not a
    /// feed. A lint finding of the validator's `Error` classes: invalid RSS 2.0 (a required
    /// element missing, a malformed value).
    Error,
}

impl Severity {
    /// `info`, `warning` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl DiagnosticKind {
    /// Whether this kind of diagnostic means data was lost, cut or may be wrong
    /// ([`Severity::Error`]) or is a note on how it was read ([`Severity::Info`]).
    pub fn severity(self) -> Severity {
        match self {
            DiagnosticKind::HtmlEntity
            | DiagnosticKind::BareAmpersand
            | DiagnosticKind::DoctypeIgnored
            | DiagnosticKind::Recovered
            | DiagnosticKind::EncodingGuessed => Severity::Info,
            DiagnosticKind::MalformedXml
            | DiagnosticKind::MismatchedEndTag
            | DiagnosticKind::UnclosedElement
            | DiagnosticKind::UnknownEntity
            | DiagnosticKind::UnboundPrefix
            | DiagnosticKind::ContentAfterRoot
            | DiagnosticKind::InvalidCharacter
            | DiagnosticKind::InvalidEncoding
            | DiagnosticKind::LimitReached
            | DiagnosticKind::NotAFeed
            | DiagnosticKind::InvalidJson
            | DiagnosticKind::InvalidValue => Severity::Error,
        }
    }

    /// A stable snake_case name (used in JSON records).
    pub fn as_str(self) -> &'static str {
        match self {
            DiagnosticKind::MalformedXml => "malformed_xml",
            DiagnosticKind::MismatchedEndTag => "mismatched_end_tag",
            DiagnosticKind::UnclosedElement => "unclosed_element",
            DiagnosticKind::HtmlEntity => "html_entity",
            DiagnosticKind::UnknownEntity => "unknown_entity",
            DiagnosticKind::BareAmpersand => "bare_ampersand",
            DiagnosticKind::UnboundPrefix => "unbound_prefix",
            DiagnosticKind::ContentAfterRoot => "content_after_root",
            DiagnosticKind::InvalidCharacter => "invalid_character",
            DiagnosticKind::DoctypeIgnored => "doctype_ignored",
            DiagnosticKind::InvalidEncoding => "invalid_encoding",
            DiagnosticKind::LimitReached => "limit_reached",
            DiagnosticKind::NotAFeed => "not_a_feed",
            DiagnosticKind::InvalidJson => "invalid_json",
            DiagnosticKind::InvalidValue => "invalid_value",
            DiagnosticKind::Recovered => "recovered",
            DiagnosticKind::EncodingGuessed => "encoding_guessed",
        }
    }
}

/// Something recovered or ignored, with where it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// What happened (stable snake_case name in JSON: [`DiagnosticKind::as_str`]).
    pub kind: DiagnosticKind,
    /// Byte offset into the decoded document text.
    pub offset: usize,
    /// A human-readable account naming the element or value concerned.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}: {}", self.kind.as_str(), self.offset, self.message)
    }
}

/// The cap on a document's diagnostics (`Limits::max_diagnostics`), one rule for every format:
/// `max` diagnostics are recorded; the first one past them is replaced by a single
/// [`DiagnosticKind::LimitReached`] diagnostic saying so (at its offset), and the rest are
/// counted in `dropped`, not kept. So `list` holds at most `max + 1` diagnostics, and a capped
/// list always ends with that marker.
pub(crate) fn record_capped(
    list: &mut Vec<Diagnostic>,
    dropped: &mut usize,
    max: usize,
    kind: DiagnosticKind,
    offset: usize,
    message: impl Into<String>,
) {
    if list.len() >= max {
        if *dropped == 0 {
            list.push(Diagnostic {
                kind: DiagnosticKind::LimitReached,
                offset,
                message: "max_diagnostics reached: further diagnostics are not recorded".into(),
            });
        }
        *dropped += 1;
        return;
    }
    list.push(Diagnostic { kind, offset, message: message.into() });
}
