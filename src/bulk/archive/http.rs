//! The HTTP message inside a WARC `response` record (or an ARC record): status line,
//! headers, then the body with the transfer coding (chunked) and content codings (gzip,
//! deflate, br, zstd) removed, within a byte limit; and the content of each kind of archive
//! record ([`record_content`]: a response's body, a resource's document, a revisit's
//! original's).
//!
//! A body that does not decode with the coding its `Content-Encoding` declares but reads as
//! a feed as it is (MIME Sniffing §7.3's feed rules, or a JSON Feed's `version`) is taken as
//! is, with a note (crawlers often store bodies already decoded under the original header).

use std::borrow::Cow;
use std::io::Read;

use flate2::bufread::{DeflateDecoder, GzDecoder, ZlibDecoder};

use super::io::truncate;
use super::record::{Kind, Original};
use crate::bulk::gzip::deflate::OneShot;
use crate::record::Capture;

/// An HTTP response taken apart.
#[derive(Debug)]
pub struct HttpResponse<'b> {
    /// The status line's code.
    pub status: u16,
    /// The `Content-Type` header's value, if any.
    pub content_type: Option<String>,
    /// Borrowed from the record when no transfer or content coding was applied.
    pub body: Cow<'b, [u8]>,
    /// Why the body was read as stored although a `Content-Encoding` was declared (it did not
    /// decode, and it reads as a feed as it is).
    pub stale_encoding: Option<String>,
}

/// A problem with an HTTP message: (`kind`, message).
pub type HttpError = (&'static str, String);

/// Parses the HTTP message of a `response` record block: status line, headers, then the
/// body with transfer and content codings removed. The decoded body is limited to
/// `max_body` bytes. (The worker reads records through [`record_content`]; this is the
/// same reading for one `response` block, for the tests.)
#[cfg(any(test, feature = "internals"))]
pub fn parse_http_response(block: &[u8], max_body: usize) -> Result<HttpResponse<'_>, HttpError> {
    let (head, body_at) = parse_head(block)?;
    http_body(head, &block[body_at..], max_body)
}

/// The response of header `head` whose body is stored as `raw` (see
/// [`parse_http_response`]).
fn http_body(head: Head, raw: &[u8], max_body: usize) -> Result<HttpResponse<'_>, HttpError> {
    let Head { status, content_type, chunked, encodings } = head;
    // NOTE: an identity body is borrowed from the record, not copied.
    // NOTE: many crawlers store the body de-chunked but keep the `Transfer-Encoding: chunked`
    // header; a body whose first line is not a chunk size is read as is.
    let stored: Cow<'_, [u8]> = if chunked && starts_with_chunk_size(raw) {
        Cow::Owned(dechunk(raw, max_body)?)
    } else {
        Cow::Borrowed(raw)
    };
    let (body, stale_encoding) = match decode_codings(&stored, &encodings, max_body) {
        Ok(Some(decoded)) => (Cow::Owned(decoded), None),
        Ok(None) => (stored, None),
        Err(e) if e.0 == "content_encoding" && sniffs_as_feed(&stored) => {
            let note = format!(
                "Content-Encoding {:?} declared, but {}; the body reads as a feed as stored, \
                 so it was read as is",
                encodings.join(", "),
                e.1
            );
            (stored, Some(note))
        }
        Err(e) => return Err(e),
    };
    if body.len() > max_body {
        return Err(("too_large", format!("body larger than {max_body} bytes")));
    }
    Ok(HttpResponse { status, content_type, body, stale_encoding })
}

/// What an HTTP header says.
struct Head {
    status: u16,
    content_type: Option<String>,
    chunked: bool,
    encodings: Vec<String>,
}

/// The HTTP header at the start of `block`, and where its body starts.
fn parse_head(block: &[u8]) -> Result<(Head, usize), HttpError> {
    let head_end = memchr::memmem::find(block, b"\r\n\r\n")
        .map(|i| (i, i + 4))
        .or_else(|| memchr::memmem::find(block, b"\n\n").map(|i| (i, i + 2)))
        .ok_or(("bad_http", "HTTP header has no end".to_owned()))?;
    let head = super::warc::header_text(&block[..head_end.0]);
    let mut lines = super::warc::header_lines(&head);
    let status_line = lines.next().unwrap_or("");
    let mut parts = status_line.split_whitespace();
    let version = parts.next().unwrap_or("");
    if !version.starts_with("HTTP/") {
        return Err(("bad_http", format!("bad status line {:?}", truncate(status_line, 80))));
    }
    let status: u16 = parts
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| ("bad_http", format!("bad status line {:?}", truncate(status_line, 80))))?;
    let mut content_type = None;
    let mut chunked = false;
    let mut encodings: Vec<String> = Vec::new();
    for line in lines {
        let Some(colon) = crate::simd::block::find_byte(line.as_bytes(), b':') else {
            continue;
        };
        let name = line[..colon].trim();
        let value = line[colon + 1..].trim();
        if name.eq_ignore_ascii_case("Content-Type") {
            content_type.get_or_insert_with(|| value.to_owned());
        } else if name.eq_ignore_ascii_case("Transfer-Encoding") {
            chunked |= value.to_ascii_lowercase().contains("chunked");
        } else if name.eq_ignore_ascii_case("Content-Encoding") {
            encodings.extend(
                value
                    .split(',')
                    .map(|e| e.trim().to_ascii_lowercase())
                    .filter(|e| !e.is_empty() && e != "identity"),
            );
        }
    }
    Ok((Head { status, content_type, chunked, encodings }, head_end.1))
}

/// Most content codings undone for one body: each is decoded whole, so their number
/// multiplies the work (a body gzipped 20,000 times in stored blocks was 1.3 MB). Real
/// responses have one, rarely two.
const MAX_CODINGS: usize = 8;

/// `stored` with the content codings `encodings` (in the order applied) removed, within
/// `max_body` bytes; `None` when there are none. More than [`MAX_CODINGS`] is a
/// `content_encoding` error.
fn decode_codings(
    stored: &[u8],
    encodings: &[String],
    max_body: usize,
) -> Result<Option<Vec<u8>>, HttpError> {
    if encodings.len() > MAX_CODINGS {
        let message = format!(
            "{} content codings declared; at most {MAX_CODINGS} are undone",
            encodings.len()
        );
        return Err(("content_encoding", message));
    }
    let mut out: Option<Vec<u8>> = None;
    // Content codings apply in the order listed; undo them in reverse.
    for enc in encodings.iter().rev() {
        let decoded = decode_one(enc, out.as_deref().unwrap_or(stored), max_body)?;
        out = Some(decoded);
    }
    Ok(out)
}

/// `body` without the content coding `enc`, within `max_body` bytes.
fn decode_one(enc: &str, body: &[u8], max_body: usize) -> Result<Vec<u8>, HttpError> {
    match enc {
        "gzip" | "x-gzip" => match gunzip_whole(body, max_body) {
            Some(b) => Ok(b),
            None => inflate(GzDecoder::new(body), max_body, "gzip"),
        },
        // Servers send both zlib-wrapped (the RFC) and raw deflate.
        "deflate" => inflate(ZlibDecoder::new(body), max_body, "deflate")
            .or_else(|_| inflate(DeflateDecoder::new(body), max_body, "deflate")),
        "br" => inflate(brotli_decompressor::Decompressor::new(body, 32 << 10), max_body, "br"),
        "zstd" => {
            let decoder = zstd::stream::read::Decoder::with_buffer(body).and_then(|mut d| {
                d.window_log_max(crate::bulk::gzip::zstd::WINDOW_LOG_MAX)?;
                Ok(d)
            });
            match decoder {
                Ok(d) => inflate(d, max_body, "zstd"),
                Err(e) => Err(("content_encoding", format!("zstd body: {e}"))),
            }
        }
        other => Err(("content_encoding", format!("unsupported Content-Encoding {other:?}"))),
    }
}

/// Whether `body` reads as a feed as it is: an RSS, Atom or RSS 1.0 document by MIME
/// Sniffing §7.3's feed rules, or a JSON object naming a JSON Feed version in its first
/// 512 bytes.
fn sniffs_as_feed(body: &[u8]) -> bool {
    let head = &body[..body.len().min(512)];
    if crate::input::mime::feed_or_html(head).is_some() {
        return true;
    }
    let text = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head).trim_ascii_start();
    text.starts_with(b"{") && memchr::memmem::find(text, b"jsonfeed.org/version/").is_some()
}

/// What is processed of an archive record: its body, and the status and `Content-Type` it is
/// processed with.
#[derive(Debug)]
pub struct Content<'b> {
    /// The HTTP status (a `resource`'s document: 200, as a response without HTTP).
    pub status: u16,
    /// The `Content-Type` the body is processed with.
    pub content_type: Option<String>,
    /// The body, codings removed.
    pub body: Cow<'b, [u8]>,
    /// A note on how the body was read ([`HttpResponse::stale_encoding`]).
    pub note: Option<String>,
}

/// The content of an archive record of `kind` whose block is `block`, a revisit's taken from
/// its `original` (when remembered), and the capture fields its HTTP message gives
/// (`http_status`, `content_type`: a revisit's own HTTP header when it has one, else its
/// original's content type). An error is why there is no content: an unreadable HTTP message,
/// or a revisit's original not remembered (`original_not_found`) or, remembered, not read
/// again (`original_error`: `original_changed`, `original_unreadable`).
pub fn record_content<'b>(
    kind: Kind,
    block: &'b [u8],
    original: Result<&'b Original, Option<&(&'static str, String)>>,
    capture: &mut Capture,
    max_body: usize,
) -> Result<Content<'b>, HttpError> {
    match kind {
        Kind::Response => {
            let (head, body_at) = parse_head(block)?;
            capture.http_status = Some(head.status);
            capture.content_type.clone_from(&head.content_type);
            let r = http_body(head, &block[body_at..], max_body)?;
            let HttpResponse { status, content_type, body, stale_encoding } = r;
            Ok(Content { status, content_type, body, note: stale_encoding })
        }
        Kind::Resource => {
            if block.len() > max_body {
                return Err(("too_large", format!("body larger than {max_body} bytes")));
            }
            let content_type = capture.content_type.clone();
            Ok(Content { status: 200, content_type, body: Cow::Borrowed(block), note: None })
        }
        Kind::Continuation => {
            Err(("bad_segment", "a continuation record without its first segment".to_owned()))
        }
        Kind::Revisit => {
            // Its own HTTP header (the response that was not stored again), when it has one.
            if let Ok(own) = parse_http_head(block) {
                capture.http_status = Some(own.0);
                capture.content_type = own.1;
            }
            let o = match original {
                Ok(o) => o,
                Err(Some((kind, message))) => return Err((kind, message.clone())),
                Err(None) => {
                    let named = capture
                        .refers_to_record_id
                        .as_deref()
                        .or(capture.payload_digest.as_deref())
                        .unwrap_or("(none named)");
                    let message = format!(
                        "the record this revisit refers to ({named}) was not read earlier in this \
                     run, or is no longer remembered; its content is not here"
                    );
                    return Err(("original_not_found", message));
                }
            };
            let mut of_original = Capture::default();
            let content = record_content(o.kind, &o.block, Err(None), &mut of_original, max_body)?;
            if capture.content_type.is_none() {
                capture.content_type = of_original.content_type;
            }
            Ok(content)
        }
    }
}

/// The status and `Content-Type` of an HTTP header (a revisit's block, which may have no
/// body).
fn parse_http_head(block: &[u8]) -> Result<(u16, Option<String>), HttpError> {
    let ended = memchr::memmem::find(block, b"\n\n").is_some()
        || memchr::memmem::find(block, b"\r\n\r\n").is_some();
    let head = if ended { parse_head(block) } else { parse_head(&[block, b"\r\n\r\n"].concat()) };
    head.map(|(h, _)| (h.status, h.content_type))
}

/// A gzip body whose first member decodes whole (CRC and length checked) to at most `max`
/// bytes, in one call: the bytes [`GzDecoder`] reads from it, which stops after the first
/// member too. `None` (then [`GzDecoder`] decodes it and reports why it failed) for
/// anything else, and for a header CRC (FHCRC), which only [`GzDecoder`] checks.
fn gunzip_whole(body: &[u8], max: usize) -> Option<Vec<u8>> {
    thread_local! {
        static ONE: std::cell::RefCell<Option<OneShot>> =
            std::cell::RefCell::new(OneShot::new());
    }
    if body.len() < 18 || body[3] & 0x02 != 0 {
        return None;
    }
    // ISIZE of a body that is one member: the output size to try (deflate expands at most
    // 1032:1).
    let t = &body[body.len() - 4..];
    let size = u32::from_le_bytes([t[0], t[1], t[2], t[3]]) as usize;
    if size > max || size > body.len().saturating_mul(1032) {
        return None;
    }
    ONE.with_borrow_mut(|one| {
        let mut out = Vec::with_capacity(size);
        one.as_mut()?.gzip(body, &mut out, size).ok()?;
        Some(out)
    })
}

fn inflate<R: Read>(r: R, max: usize, name: &str) -> Result<Vec<u8>, HttpError> {
    let mut out = Vec::new();
    r.take(max as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| ("content_encoding", format!("{name} body: {e}")))?;
    if out.len() > max {
        return Err(("too_large", format!("decoded body larger than {max} bytes")));
    }
    Ok(out)
}

/// Whether the first line of `raw` is a chunk size (hex digits, then optional extensions).
fn starts_with_chunk_size(raw: &[u8]) -> bool {
    let line = &raw[..memchr::memchr(b'\n', raw).unwrap_or(raw.len())];
    let size = line.split(|b| *b == b';').next().unwrap_or(b"").trim_ascii();
    !size.is_empty() && size.len() <= 16 && size.iter().all(u8::is_ascii_hexdigit)
}

/// Removes the chunked transfer coding (RFC 9112 §7.1).
fn dechunk(mut raw: &[u8], max: usize) -> Result<Vec<u8>, HttpError> {
    // The data is never more than the coded body (nor than `max`): one allocation, no regrowth.
    let mut out = Vec::with_capacity(raw.len().min(max));
    loop {
        let eol = memchr::memchr(b'\n', raw)
            .ok_or(("bad_chunked", "chunk size line has no end".to_owned()))?;
        let line = std::str::from_utf8(&raw[..eol]).unwrap_or("").trim();
        let size_str = line.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_str, 16)
            .map_err(|_| ("bad_chunked", format!("bad chunk size {:?}", truncate(size_str, 40))))?;
        raw = &raw[eol + 1..];
        if size == 0 {
            return Ok(out); // trailers ignored
        }
        if raw.len() < size {
            return Err(("truncated", format!("chunk of {size} bytes has only {}", raw.len())));
        }
        if out.len() + size > max {
            return Err(("too_large", format!("body larger than {max} bytes")));
        }
        out.extend_from_slice(&raw[..size]);
        raw = &raw[size..];
        // CRLF after the chunk data.
        if raw.starts_with(b"\r\n") {
            raw = &raw[2..];
        } else if raw.starts_with(b"\n") {
            raw = &raw[1..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{write::GzEncoder, Compression};
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// A revisit's content: its original's, or why there is none (an original remembered but
    /// changed on disk keeps its own error kind).
    #[test]
    fn revisit_content_or_why_not() {
        let mut c = Capture::default();
        let o =
            Original { kind: Kind::Response, block: b"HTTP/1.1 200 OK\r\n\r\n<rss/>"[..].into() };
        let got = record_content(Kind::Revisit, b"", Ok(&o), &mut c, 1 << 20).unwrap();
        assert_eq!((got.status, &got.body[..]), (200, &b"<rss/>"[..]));
        let changed = ("original_changed", "the original x changed: y".to_owned());
        let err = record_content(Kind::Revisit, b"", Err(Some(&changed)), &mut c, 1 << 20);
        assert_eq!(err.unwrap_err(), changed);
        let err = record_content(Kind::Revisit, b"", Err(None), &mut c, 1 << 20);
        assert_eq!(err.unwrap_err().0, "original_not_found");
    }

    #[test]
    fn http_chunked_gzip() {
        let body = gz(b"<feed/>");
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Type: application/atom+xml; charset=utf-8\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        let (x, y) = body.split_at(5);
        for part in [x, y] {
            block.extend(format!("{:x}\r\n", part.len()).bytes());
            block.extend_from_slice(part);
            block.extend_from_slice(b"\r\n");
        }
        block.extend_from_slice(b"0\r\n\r\n");
        let r = parse_http_response(&block, 1 << 20).unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(&r.body[..], b"<feed/>");
        assert_eq!(r.content_type.as_deref(), Some("application/atom+xml; charset=utf-8"));
        let bad = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\nnot gzip";
        assert_eq!(parse_http_response(bad, 1 << 20).unwrap_err().0, "content_encoding");
        assert_eq!(parse_http_response(b"garbage", 10).unwrap_err().0, "bad_http");
    }

    /// Stacked content codings are undone up to `MAX_CODINGS`; more are an error.
    #[test]
    fn stacked_codings_are_undone_up_to_the_cap() {
        let response = |n: usize| {
            let mut body = b"<feed/>".to_vec();
            for _ in 0..n {
                body = gz(&body);
            }
            let codings = vec!["gzip"; n].join(", ");
            [format!("HTTP/1.1 200 OK\r\nContent-Encoding: {codings}\r\n\r\n").as_bytes(), &body]
                .concat()
        };
        let eight = response(MAX_CODINGS);
        let r = parse_http_response(&eight, 1 << 20).unwrap();
        assert_eq!(&r.body[..], b"<feed/>");
        let e = parse_http_response(&response(MAX_CODINGS + 1), 1 << 20).unwrap_err();
        let message = "9 content codings declared; at most 8 are undone";
        assert_eq!(e, ("content_encoding", message.into()));
    }

    /// Chunks are joined whole; the joined data is held to the byte limit.
    #[test]
    fn dechunk_joins_chunks_within_the_limit() {
        let coded = b"3\r\n<rs\r\n4;ext=1\r\ns/>x\r\n1\ny\n0\r\n\r\n";
        let got = dechunk(coded, 1 << 20).unwrap();
        assert_eq!(&got[..], b"<rss/>xy");
        assert!(got.capacity() <= coded.len());
        assert_eq!(dechunk(coded, 8).unwrap(), b"<rss/>xy");
        assert_eq!(dechunk(coded, 7).unwrap_err().0, "too_large");
        assert!(dechunk(coded, 2).unwrap_err().0 == "too_large");
        assert_eq!(dechunk(b"5\r\nab", 1 << 20).unwrap_err().0, "truncated");
    }

    /// Labelled chunked but stored de-chunked (common in real WARCs): read as is.
    #[test]
    fn chunked_label_on_a_dechunked_body() {
        let block =
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n<?xml version=\"1.0\"?><rss/>";
        let r = parse_http_response(block, 1 << 20).unwrap();
        assert_eq!(&r.body[..], b"<?xml version=\"1.0\"?><rss/>");
        let gzipped = [
            &b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n"[..],
            &gz(b"<feed/>"),
        ]
        .concat();
        assert_eq!(&parse_http_response(&gzipped, 1 << 20).unwrap().body[..], b"<feed/>");
        // A real chunk size line is still de-chunked (and a bad chunk still an error).
        let bad = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nshort";
        assert_eq!(parse_http_response(bad, 1 << 20).unwrap_err().0, "truncated");
    }
}
