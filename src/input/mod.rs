//! The response layer: everything in the spec's "process a feed response" (step \[1\]) before
//! XML parsing.
//!
//! Owns:
//! - [`Response`] — a received response (status, `Content-Type`, URL, body), borrowed;
//! - `prepare_response` — status check, computed MIME type, XML-MIME check, decoding;
//! - [`mime`] — `Content-Type` parsing, "XML MIME type", computed MIME type (MIME Sniffing,
//!   including §7.3's rules that recognise RSS/Atom served as `text/html`);
//! - [`decode`](mod@decode) — encoding determination (BOM > transport label > XML declaration >
//!   UTF-8, WHATWG labels) and decoding with `encoding_rs`.
//!
//! Invariants:
//! - nothing here fetches, reads files, or does I/O of any kind; it only looks at the bytes given;
//! - no function panics or fails on any input: bad bytes become U+FFFD (reported by offset), bad
//!   labels and headers are ignored (reported in [`Decoded::notes`] or by falling back);
//! - valid UTF-8 bodies are not copied ([`Decoded::text`] borrows the body);
//! - the decoded text never starts with a byte order mark, and the XML declaration is left in
//!   the text as is, even when it names an encoding other than the one used (the transport label
//!   and BOM win over it).
//!
//! ```
//! use feedmill::input::{prepare_response, Response, ResponseVerdict};
//! let res = Response {
//!     status: 200,
//!     content_type: Some("text/html; charset=windows-1252"),
//!     url: Some("https://example.com/feed"),
//!     body: b"<rss version=\"2.0\"><channel><title>Gr\xFC\xDFe</title></channel></rss>",
//! };
//! match prepare_response(&res) {
//!     ResponseVerdict::Xml { computed_mime, decoded, .. } => {
//!         assert_eq!(computed_mime.to_string(), "application/rss+xml"); // mislabeled feed
//!         assert!(decoded.text.contains("Grüße"));
//!     }
//!     other => panic!("{other:?}"),
//! }
//! ```

pub mod decode;
pub mod mime;

#[cfg(any(test, feature = "internals"))]
pub use decode::EncodingSource;
pub use decode::{decode, Decoded};
#[cfg(any(test, feature = "internals", feature = "discover"))]
pub use mime::computed_mime_type;
pub use mime::{ComputedMime, MimeType};

/// A received response, as far as feed processing needs it. Everything is borrowed from the
/// caller (e.g. a crawl archive record).
#[derive(Clone, Copy, Debug)]
pub struct Response<'i> {
    /// The HTTP status code. A network error has no response; callers never build one for it.
    pub status: u16,
    /// The `Content-Type` header value, if the response had one.
    pub content_type: Option<&'i str>,
    /// The response URL (after redirects): the document's address and base URL.
    pub url: Option<&'i str>,
    /// The body bytes, as received (after content-coding removal, e.g. gzip).
    pub body: &'i [u8],
}

/// What step \[1\] decided about a response, up to (not including) XML parsing.
#[derive(Debug)]
pub enum ResponseVerdict<'i> {
    /// Status is not 200: the result is null.
    NotOk {
        /// The response's status code.
        status: u16,
    },
    /// The computed MIME type is not an XML MIME type: the result is null.
    NotXml {
        /// The computed MIME type (MIME Sniffing) that is not an XML MIME type; a JSON one
        /// is read as JSON Feed by [`crate::Parser::parse_response`].
        computed_mime: ComputedMime<'i>,
    },
    /// Parse `decoded.text` as XML (then process the feed document), with `url` as the
    /// document's address and `decoded.encoding` as its character encoding.
    Xml {
        /// The computed MIME type (an XML MIME type).
        #[cfg_attr(not(any(test, feature = "internals")), allow(dead_code))]
        computed_mime: ComputedMime<'i>,
        /// The body decoded (BOM, then the `Content-Type` charset, then the XML
        /// declaration, then UTF-8).
        decoded: Decoded<'i>,
        /// The response URL: the document's address and base URL \[11\].
        url: Option<&'i str>,
    },
}

#[cfg(any(test, feature = "internals"))]
impl ResponseVerdict<'_> {
    /// Whether the body is to be parsed.
    pub fn is_xml(&self) -> bool {
        matches!(self, ResponseVerdict::Xml { .. })
    }
}

/// The spec's "process a feed response" up to XML parsing:
///
/// 1. status ≠ 200 → [`ResponseVerdict::NotOk`];
/// 2. the computed MIME type ([`computed_mime_type`]) of the body;
/// 3. not an XML MIME type → [`ResponseVerdict::NotXml`];
/// 4. otherwise decode the body ([`decode()`]) with the `Content-Type` `charset` parameter (if
///    any, even when the type itself was overridden by sniffing) as the transport label →
///    [`ResponseVerdict::Xml`].
#[cfg(any(test, feature = "internals"))]
pub fn prepare_response<'i>(res: &Response<'i>) -> ResponseVerdict<'i> {
    prepare_response_with(res, false)
}

/// `prepare_response`, decoding with the encoding recovery rules when `recover`
/// ([`decode::decode_with`]).
pub fn prepare_response_with<'i>(res: &Response<'i>, recover: bool) -> ResponseVerdict<'i> {
    if res.status != 200 {
        return ResponseVerdict::NotOk { status: res.status };
    }
    let supplied = res.content_type.and_then(MimeType::parse);
    let computed_mime = mime::computed_mime_type_of(supplied, res.body);
    if !computed_mime.is_xml() {
        return ResponseVerdict::NotXml { computed_mime };
    }
    let charset = supplied.and_then(|m| m.charset());
    let decoded = decode::decode_with(res.body, charset.as_deref(), recover);
    ResponseVerdict::Xml { computed_mime, decoded, url: res.url }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn res<'a>(status: u16, ct: Option<&'a str>, body: &'a [u8]) -> Response<'a> {
        Response { status, content_type: ct, url: Some("https://example.com/f"), body }
    }

    #[test]
    fn status() {
        for s in [0, 199, 201, 204, 301, 304, 404, 500] {
            assert!(
                matches!(prepare_response(&res(s, Some("text/xml"), b"<rss/>")), ResponseVerdict::NotOk { status } if status == s)
            );
        }
        assert!(prepare_response(&res(200, Some("text/xml"), b"<rss/>")).is_xml());
    }

    #[test]
    fn charset_of_sniffed_type_is_used() {
        let v = prepare_response(&res(
            200,
            Some("text/html; charset=koi8-r"),
            b"<rss>\xF0\xD2\xC9</rss>",
        ));
        let ResponseVerdict::Xml { decoded, url, .. } = v else { panic!() };
        assert_eq!(decoded.text, "<rss>При</rss>");
        assert_eq!(decoded.source, EncodingSource::Transport);
        assert_eq!(url, Some("https://example.com/f"));
    }
}
