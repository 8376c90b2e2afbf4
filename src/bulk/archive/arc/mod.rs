//! ARC reading: the records of ARC and ARC.gz files, the Internet Archive's format before
//! WARC (most feeds captured before ~2009 are in one). The records are parsed out of one
//! decoded stream by the framed reader ([`super::framed`]: the same gzip member layouts,
//! recovery rules and limits as WARC's); this module is the ARC framing.
//!
//! ```text
//!  filedesc://IA-001102.arc 0.0.0.0 19960923142103 text/plain 76     version block: skipped
//!  1 0 Alexa Internet
//!  URL IP-address Archive-date Content-type Archive-length
//!
//!  http://example.org/feed.xml 192.0.2.1 19961104142103 text/xml 202 record: a response
//!  HTTP/1.0 200 OK                                                      (its length bytes:
//!  ...                                                                   the HTTP message)
//! ```
//!
//! A record is one header line, then as many bytes as its last field says, then a line end.
//! The header line has 5 fields in version 1 (`URL IP-address Archive-date Content-type
//! Archive-length`) and 10 in version 2 (`URL IP-address Archive-date Content-type
//! Result-code Checksum Location Offset Filename Archive-length`); a version 1 line with more
//! fields has spaces in its URL (the last four fields are read from the end). The date is
//! `YYYYMMDDhhmmss` (UTC; 12 or 8 digits are read too). A candidate record start is a line
//! start (or the read position) whose whole line reads as such a header, so junk is skipped
//! to the next one. Records are named like WARC's (`path@offset url`) and handed on as WARC
//! `response` records; the `filedesc://` version block and `dns:` records are counted as
//! skipped. A record whose block has no HTTP header (it does not start with `HTTP/`) is a
//! document, handed on as a WARC `resource` typed by the header line's content type.

use std::io;

use super::framed::{read_framed, Framing};
use super::record::Kind;
use super::warc::WarcItem;
use crate::bulk::gzip::stream::{Break, Source};
use crate::model::date::{days_from_civil, days_in_month};
use crate::record::Capture;
use crate::Timestamp;

/// Longest ARC header line read (a URL of up to 64 KiB).
pub const MAX_HEADER: usize = 64 << 10;

/// Reads the ARC records of a decoded stream, as [`super::warc::read_records`] reads WARC's
/// (same arguments, same items: an ARC record is a `response`, its version block and `dns:`
/// records are `Skipped` as `filedesc` and `dns`). Returns the most bytes it buffered at once.
pub fn read_records<S: Source>(
    src: &mut S,
    head: Vec<u8>,
    brk: Option<Break>,
    max_record: usize,
    new_buf: &mut dyn FnMut() -> Vec<u8>,
    emit: &mut dyn FnMut(WarcItem) -> bool,
) -> io::Result<usize> {
    read_framed::<S, ArcFormat>(src, head, brk, max_record, new_buf, &mut |item| {
        let mut content_type = None;
        let mut item = WarcItem::of_framed(item, |h| {
            let capture = Box::new(Capture {
                record_type: Some("response"),
                date: h.date,
                target_uri: Some(h.url.clone()),
                ..Capture::default()
            });
            let skipped_as = h.skipped_as().to_owned();
            let kind = h.kind();
            content_type = Some(h.content_type);
            (kind, h.url, capture, skipped_as, None)
        });
        // A block without an HTTP header: the document itself, typed by the header line.
        if let WarcItem::Record { kind, block, capture, .. } = &mut item {
            if !block.starts_with(b"HTTP/") {
                *kind = Kind::Resource;
                capture.record_type = Some("resource");
                capture.content_type = content_type.filter(|t| t != "-");
            }
        }
        emit(item)
    })
}

/// Reads an ARC or ARC.gz stream from memory (`gzip`: the stream is gzip), as
/// [`super::warc::read_warc`] reads a WARC.
#[cfg(any(test, feature = "internals"))]
pub fn read_arc<R: std::io::Read>(
    input: R,
    gzip: bool,
    max_record: usize,
    new_buf: &mut dyn FnMut() -> Vec<u8>,
    emit: &mut dyn FnMut(WarcItem) -> bool,
) -> io::Result<usize> {
    use crate::bulk::gzip::raw::Raw;
    use crate::bulk::gzip::stream::{GzStream, PlainStream};
    let raw = Raw::new(input);
    if gzip {
        read_records(&mut GzStream::new(raw), Vec::new(), None, max_record, new_buf, emit)
    } else {
        read_records(&mut PlainStream::new(raw), Vec::new(), None, max_record, new_buf, emit)
    }
}

/// Most decoded bytes [`read_records`] buffers at once for records of at most `max_record`.
#[cfg(any(test, feature = "internals"))]
pub const fn buffer_bound(max_record: usize) -> usize {
    super::framed::buffer_bound(max_record, MAX_HEADER)
}

/// The ARC framing (see the module docs).
pub(crate) struct ArcFormat;

/// What an ARC header line says.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct ArcHeader {
    url: String,
    date: Option<Timestamp>,
    content_type: String,
    length: usize,
}

impl ArcHeader {
    /// `filedesc` for the version block, `dns` for a DNS lookup, else none (a response).
    fn skipped_as(&self) -> &'static str {
        let scheme = self.url.split(':').next().unwrap_or("");
        if scheme.eq_ignore_ascii_case("filedesc") {
            "filedesc"
        } else if scheme.eq_ignore_ascii_case("dns") {
            "dns"
        } else {
            ""
        }
    }

    fn kind(&self) -> Option<Kind> {
        self.skipped_as().is_empty().then_some(Kind::Response)
    }
}

impl Framing for ArcFormat {
    type Header = ArcHeader;
    const NAME: &'static str = "ARC";
    const A_RECORD: &'static str = "an ARC";
    const BAD: &'static str = "bad_arc";
    const LENGTH: &'static str = "length";
    const TRAILER: &'static str = "no line end after the block";
    const MAX_HEADER: usize = MAX_HEADER;
    const KEEP: usize = 0;

    fn candidate(b: &[u8], complete: bool) -> Option<bool> {
        if !b.first().is_some_and(u8::is_ascii_alphabetic) {
            return Some(false);
        }
        match memchr::memchr(b'\n', b) {
            Some(i) => Some(parse_line(&b[..i]).is_ok()),
            None if complete => Some(false),
            None => None,
        }
    }

    /// The next line start.
    fn next_candidate(a: &[u8]) -> Option<usize> {
        memchr::memchr(b'\n', a).map(|i| i + 1)
    }

    /// The end of the header line, after its line end.
    fn header_end(b: &[u8], from: usize) -> Option<usize> {
        memchr::memchr(b'\n', &b[from..]).map(|i| from + i + 1)
    }

    fn parse_header(b: &[u8]) -> Result<(ArcHeader, usize), String> {
        let line = b.strip_suffix(b"\n").unwrap_or(b);
        parse_line(line).map(|h| {
            let len = h.length;
            (h, len)
        })
    }

    fn target_uri(h: &ArcHeader) -> Option<&str> {
        Some(&h.url)
    }

    fn keeps_block(h: &ArcHeader) -> bool {
        h.kind().is_some()
    }

    /// A line end, or nothing at the end of the stream.
    fn trailer_ok(rest: &[u8], at_end: bool) -> bool {
        rest.starts_with(b"\n") || rest.starts_with(b"\r\n") || (rest.is_empty() && at_end)
    }

    /// A line end, or none (a record's last bytes may be its block's).
    fn trailer_len(b: &[u8]) -> Option<usize> {
        Some(usize::from(b.ends_with(b"\n")))
    }
}

/// Reads a header line (without its line end; see the module docs for the fields).
fn parse_line(line: &[u8]) -> Result<ArcHeader, String> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = std::str::from_utf8(line).map_err(|_| "ARC header line is not UTF-8".to_owned())?;
    let fields: Vec<&str> = text.split(' ').filter(|f| !f.is_empty()).collect();
    let n = fields.len();
    if n < 5 {
        return Err(format!("ARC header line has {n} fields, not 5 or 10"));
    }
    // Version 2 has 10 fields; version 1 has 5, more when its URL holds spaces.
    let url = if n == 10 { fields[0].to_owned() } else { fields[..n - 4].join(" ") };
    let date = fields[if n == 10 { 2 } else { n - 3 }];
    let content_type = fields[if n == 10 { 3 } else { n - 2 }].to_owned();
    let length = fields[n - 1];
    if !url.contains(':') {
        return Err("ARC header line does not start with a URL".to_owned());
    }
    if !matches!(date.len(), 8 | 12 | 14) || !date.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("ARC archive date {:?} is not YYYYMMDDhhmmss", date));
    }
    if length.is_empty() || length.len() > 18 || !length.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("bad ARC length {:?}", super::io::truncate(length, 40)));
    }
    let length: usize = length.parse().map_err(|_| format!("ARC length {length} is too large"))?;
    Ok(ArcHeader { url, date: arc_date(date), content_type, length })
}

/// `YYYYMMDDhhmmss` (or its first 12 or 8 digits) as an instant, UTC; `None` for a date that
/// does not exist.
fn arc_date(d: &str) -> Option<Timestamp> {
    let num = |r: std::ops::Range<usize>| d.get(r).map_or(Some(0), |s| s.parse::<u32>().ok());
    let (y, m, day) = (num(0..4)? as i64, num(4..6)?, num(6..8)?);
    let (h, min, s) = (num(8..10)?, num(10..12)?, num(12..14)?);
    if !(1..=12).contains(&m) || day == 0 || day > days_in_month(y, m) || h > 23 || min > 59 {
        return None;
    }
    if s > 59 {
        return None;
    }
    let days = days_from_civil(y, m, day)?;
    Timestamp::from_unix(days * 86_400 + i64::from(h * 3600 + min * 60 + s))
}

#[cfg(test)]
mod tests;
