//! TEMPORARY ADAPTER — to be replaced by the response-level entry point `feedmill::input`
//! (being written in `src/input/`). Keep it small and isolated: [`process_http_response`]
//! and [`process_document`] are the only two calls the bulk runner makes.
//!
//! What it does meanwhile:
//! - HTTP status other than 200 → not a feed, with the status as the reason;
//! - charset: BOM > transport (`Content-Type` charset) > XML declaration > UTF-8;
//! - decodes with `encoding_rs`; replaced invalid sequences → an `invalid_encoding`
//!   diagnostic (offset: first replacement for UTF-8, else 0);
//! - calls [`Parser::parse_str`] with the target URI (or `--base-url`) as base URL.

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8};

use crate::{Diagnostic, DiagnosticKind, Error, Parsed, Parser};

/// The parse outcome of one body.
// NOTE: one Outcome lives on a worker's stack per record; boxing `Parsed` would add a heap
// allocation per record for nothing.
#[allow(clippy::large_enum_variant)]
pub enum Outcome<'p> {
    /// The parser ran (its `feed` may still be `None`: not a feed root).
    Parsed(Parsed<'p>),
    /// The response is not a feed before parsing (e.g. HTTP 404).
    NotAFeed { kind: &'static str, message: String },
    /// The parser refused the input (limits, bad base URL).
    Failed(Error),
}

/// One processed body.
pub struct Processed<'p> {
    /// The encoding used to decode, when the body was decoded.
    pub encoding: Option<&'static str>,
    /// Diagnostics from decoding (before the parser's).
    pub decode_diagnostics: Vec<Diagnostic>,
    pub outcome: Outcome<'p>,
}

/// Processes an HTTP response (from a WARC `response` record).
/// `text_buf` is reused scratch for decoded text.
pub fn process_http_response<'p>(
    parser: &'p mut Parser,
    status: u16,
    content_type: Option<&str>,
    target_uri: Option<&'p str>,
    body: &'p [u8],
    text_buf: &'p mut String,
) -> Processed<'p> {
    if status != 200 {
        return Processed {
            encoding: None,
            decode_diagnostics: Vec::new(),
            outcome: Outcome::NotAFeed {
                kind: "http_status",
                message: format!("HTTP status {status}"),
            },
        };
    }
    let charset = content_type.and_then(charset_param);
    let base = target_uri.filter(|u| !u.is_empty());
    parse(parser, body, charset, base, text_buf)
}

/// Processes a plain document (a file, a tar member, standard input).
pub fn process_document<'p>(
    parser: &'p mut Parser,
    bytes: &'p [u8],
    base_url: Option<&'p str>,
    text_buf: &'p mut String,
) -> Processed<'p> {
    parse(parser, bytes, None, base_url, text_buf)
}

fn parse<'p>(
    parser: &'p mut Parser,
    bytes: &'p [u8],
    transport: Option<&str>,
    base: Option<&'p str>,
    text_buf: &'p mut String,
) -> Processed<'p> {
    let mut diags = Vec::new();
    let (text, enc) = decode(bytes, transport, text_buf, &mut diags);
    let outcome = match parser.parse_str(text, base) {
        Ok(p) => Outcome::Parsed(p),
        Err(e) => Outcome::Failed(e),
    };
    Processed {
        encoding: Some(enc.name()),
        decode_diagnostics: diags,
        outcome,
    }
}

/// The `charset` parameter of a `Content-Type` value.
fn charset_param(ct: &str) -> Option<&str> {
    ct.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches('"').trim_matches('\''))
    })
}

/// Decodes `bytes`: BOM > transport label > XML declaration > UTF-8.
/// NOTE: valid UTF-8 (the common case) is borrowed, not copied.
fn decode<'t>(
    bytes: &'t [u8],
    transport: Option<&str>,
    buf: &'t mut String,
    diags: &mut Vec<Diagnostic>,
) -> (&'t str, &'static Encoding) {
    let (enc, bom_len) = match Encoding::for_bom(bytes) {
        Some((e, n)) => (e, n),
        None => {
            let e = transport
                .and_then(|l| Encoding::for_label(l.as_bytes()))
                .or_else(|| sniff_xml_declaration(bytes))
                .unwrap_or(UTF_8);
            (e, 0)
        }
    };
    // A label may name UTF-16 without a BOM; encoding_rs's `output_encoding` rule does not
    // apply to XML, so keep what was asked for.
    let body = &bytes[bom_len..];
    if enc == UTF_8 {
        match std::str::from_utf8(body) {
            Ok(s) => return (s, UTF_8),
            Err(e) => diags.push(Diagnostic {
                kind: DiagnosticKind::InvalidEncoding,
                offset: e.valid_up_to(),
                message: "invalid UTF-8 replaced by U+FFFD".to_owned(),
            }),
        }
        buf.clear();
        buf.push_str(&String::from_utf8_lossy(body));
        return (buf.as_str(), UTF_8);
    }
    buf.clear();
    let mut decoder = enc.new_decoder_without_bom_handling();
    buf.reserve(
        decoder
            .max_utf8_buffer_length(body.len())
            .unwrap_or(body.len() * 3),
    );
    let (_, _, had_errors) = decoder.decode_to_string(body, buf, true);
    if had_errors {
        diags.push(Diagnostic {
            kind: DiagnosticKind::InvalidEncoding,
            offset: 0,
            message: format!("invalid {} sequences replaced by U+FFFD", enc.name()),
        });
    }
    (buf.as_str(), enc)
}

/// The encoding named by an XML declaration, or UTF-16 by the `<?` byte pattern.
fn sniff_xml_declaration(bytes: &[u8]) -> Option<&'static Encoding> {
    if bytes.starts_with(b"<\0?\0") {
        return Some(UTF_16LE);
    }
    if bytes.starts_with(b"\0<\0?") {
        return Some(UTF_16BE);
    }
    let head = &bytes[..bytes.len().min(512)];
    if !head.starts_with(b"<?xml") {
        return None;
    }
    let end = memchr::memmem::find(head, b"?>")?;
    let decl = &head[..end];
    let at = memchr::memmem::find(decl, b"encoding")? + 8;
    let rest = &decl[at..];
    let q = rest.iter().position(|b| *b == b'"' || *b == b'\'')?;
    let quote = rest[q];
    let val = &rest[q + 1..];
    let close = val.iter().position(|b| *b == quote)?;
    let enc = Encoding::for_label(&val[..close])?;
    // A declaration in an ASCII-compatible document cannot mean UTF-16.
    if enc == UTF_16LE || enc == UTF_16BE {
        return Some(UTF_8);
    }
    Some(enc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charset_order() {
        let mut d = Vec::new();
        let mut buf = String::new();
        let latin = b"<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><rss>\xe9</rss>";
        let (t, e) = decode(latin, None, &mut buf, &mut d);
        assert_eq!(e.name(), "windows-1252");
        assert!(t.contains('é'));
        let (_, e) = decode(latin, Some("utf-8"), &mut buf, &mut d);
        assert_eq!(e, UTF_8);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].offset, latin.len() - 7);
        let (t, e) = decode(b"\xef\xbb\xbf<rss/>", Some("koi8-r"), &mut buf, &mut d);
        assert_eq!((t, e), ("<rss/>", UTF_8));
        assert_eq!(charset_param("text/xml; Charset=\"UTF-8\""), Some("UTF-8"));
    }
}
