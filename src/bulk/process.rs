//! One record body through the library: a WARC response goes through the spec's "process a
//! feed response" ([`Parser::parse_response`]: status, computed MIME type, `Content-Type`
//! charset, target URI as base URL); a plain document through [`Parser::parse_bytes`]
//! (BOM > XML declaration > UTF-8, `--base-url` as base URL).
//!
//! Invariant: every call yields exactly one [`Processed`], whatever the bytes.

use crate::input::Response;
use crate::{Error, Parsed, Parser};

/// The parse outcome of one body.
// One Outcome lives on a worker's stack per record; boxing `Parsed` would add a heap
// allocation per record for nothing.
#[allow(clippy::large_enum_variant)]
pub enum Outcome<'p> {
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
pub struct Processed<'p> {
    /// The encoding used to decode, when the body was decoded.
    pub encoding: Option<&'static str>,
    /// What processing gave.
    pub outcome: Outcome<'p>,
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
pub fn process_http_response<'p>(
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
pub fn process_document<'p>(
    parser: &'p mut Parser,
    bytes: &'p [u8],
    base_url: Option<&'p str>,
) -> Processed<'p> {
    processed(parser.parse_bytes(bytes, base_url))
}
