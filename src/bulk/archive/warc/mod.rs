//! WARC reading: the records of WARC, WARC.gz and WARC.zst streams (the HTTP message inside
//! a `response` record is taken apart by [`super::http`]). The records are parsed out of one
//! decoded stream by the framed reader ([`super::framed`], whose recovery rules apply); this
//! module is the WARC framing: a `WARC/x.y` line, named fields up to the empty line,
//! Content-Length bytes, CRLF CRLF. It also reads header bytes as text and splits them into
//! lines for both headers, WARC and HTTP (`header_text`, `header_lines`).
//!
//! NOTE: why not the `warc` crate (0.4): it decompresses a `.warc.gz` as one multi-member
//! stream, so a record's offset in the file is unknown, and one corrupt member ends the
//! whole file. Here any gzip member layout reads the same: one member per record, several
//! records per member, one member for the whole file (`gzip crawl.warc`), or members cut at
//! fixed sizes regardless of records (block-gzip writers); and so do zstd frames.
//!
//! ```text
//!  raw bytes ─► Raw (1 MiB look-behind) ─► GzStream / ZstdStream / PlainStream ─► records
//! ```
//!
//! A candidate record start is `WARC/<digit>`, where a line starts or not (junk may end
//! without a line end). `response`, `resource` and `revisit` records are handed on with
//! their capture fields ([`Capture`]); the other types are only counted.

use std::io;

use super::framed::{read_framed, Framed, Framing};
use super::io::truncate;
use super::record::Kind;
use crate::bulk::buf::Block;
use crate::bulk::gzip::stream::{Break, Source};
use crate::record::Capture;
use crate::simd::block;

pub use super::framed::Loc;

/// Longest WARC record header read.
pub const MAX_HEADER: usize = 1 << 20;

/// A record read from a WARC or ARC file (an ARC record is a `response`).
#[derive(Debug)]
pub enum WarcItem {
    /// A `response`, `resource` or `revisit` record.
    Record {
        /// Where the record is.
        at: Loc,
        /// Its type.
        kind: Kind,
        /// Its `WARC-Target-URI` (empty when it has none).
        target_uri: String,
        /// The record block: the HTTP message, a resource's document, a revisit's HTTP
        /// header (or nothing).
        block: Block,
        /// What its header says about the capture.
        capture: Box<Capture>,
        /// How it was read when its header was wrong (see [`super::framed`]): a diagnostic
        /// for its record.
        note: Option<String>,
        /// Its place in a segmented record (WARC 1.1 §6: a `WARC-Segment-Number`), joined by
        /// the reader ([`super::segments`]).
        segment: Option<Segment>,
    },
    /// Any other record type (`request`, `metadata`, `warcinfo`, ...), skipped (the reader
    /// counts it by type).
    Skipped {
        /// Where the record is.
        at: Loc,
        /// Its `WARC-Type`.
        warc_type: String,
    },
    /// A record (or a region) that could not be read; reading goes on after it.
    Broken {
        /// Where the unreadable record or region starts.
        at: Loc,
        /// Its `WARC-Target-URI`, when the header was read.
        target_uri: Option<String>,
        /// The error kind (`bad_warc`, `truncated`, `bad_gzip`, `too_large`, ...).
        kind: &'static str,
        /// What went wrong.
        message: String,
    },
}

/// What a record's header says about its segment of a record its crawler split (WARC 1.1 §6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// `WARC-Segment-Number` (1 for the first segment, the record that names the capture).
    pub number: u64,
    /// A `continuation` record's `WARC-Segment-Origin-ID`: the first segment's record id.
    pub origin_id: Option<String>,
    /// The last segment's `WARC-Segment-Total-Length`: the length of all segments' blocks
    /// joined.
    pub total_length: Option<u64>,
}

impl WarcItem {
    /// Where the item is.
    #[cfg(any(test, feature = "internals"))]
    pub fn at(&self) -> Loc {
        match self {
            WarcItem::Record { at, .. }
            | WarcItem::Skipped { at, .. }
            | WarcItem::Broken { at, .. } => *at,
        }
    }

    /// The item of a framed record whose header became `kind`, `uri` and `capture` (a kind
    /// of `None`: skipped as `warc_type`).
    pub(crate) fn of_framed<H>(
        item: Framed<H>,
        parts: impl FnOnce(H) -> (Option<Kind>, String, Box<Capture>, String, Option<Segment>),
    ) -> WarcItem {
        match item {
            Framed::Record { at, header, block, note } => {
                let (kind, target_uri, capture, warc_type, segment) = parts(header);
                match (kind, block) {
                    (Some(kind), Some(block)) => {
                        WarcItem::Record { at, kind, target_uri, block, capture, note, segment }
                    }
                    _ => WarcItem::Skipped { at, warc_type },
                }
            }
            Framed::Broken { at, target_uri, kind, message } => {
                WarcItem::Broken { at, target_uri, kind, message }
            }
        }
    }
}

/// Reads every record of a WARC stream, calling `emit` for each (stops when it returns
/// false). `gzip`: the stream is gzip (any member layout). `max_record`: largest record
/// block accepted (larger ones are skipped, as `too_large`). `new_buf` supplies the buffer
/// each record's block is copied into (a recycled one, when the caller has a pool) when it
/// is not a range of a shared buffer.
#[cfg(any(test, feature = "internals"))]
pub fn read_warc<R: std::io::Read>(
    input: R,
    gzip: bool,
    max_record: usize,
    new_buf: &mut dyn FnMut() -> Vec<u8>,
    emit: &mut dyn FnMut(WarcItem) -> bool,
) -> io::Result<usize> {
    read_warc_with(input, gzip, max_record, None, new_buf, emit)
}

/// [`read_warc`], with the gzip members inflated ahead by `offload`'s threads (see
/// [`crate::bulk::gzip::ahead`]): the same items, with the inflating off the calling thread.
#[cfg(any(test, feature = "internals"))]
pub fn read_warc_with<R: std::io::Read>(
    input: R,
    gzip: bool,
    max_record: usize,
    offload: Option<std::sync::Arc<dyn crate::bulk::gzip::ahead::Offload>>,
    new_buf: &mut dyn FnMut() -> Vec<u8>,
    emit: &mut dyn FnMut(WarcItem) -> bool,
) -> io::Result<usize> {
    use crate::bulk::gzip::raw::Raw;
    use crate::bulk::gzip::stream::{GzStream, PlainStream};
    let raw = Raw::new(input);
    if gzip {
        let mut src = GzStream::new(raw);
        if let Some(o) = offload {
            src.offload(o);
        }
        read_records(&mut src, Vec::new(), None, max_record, new_buf, emit)
    } else {
        read_records(&mut PlainStream::new(raw), Vec::new(), None, max_record, new_buf, emit)
    }
}

/// Most decoded bytes [`read_records`] buffers at once for records of at most `max_record`
/// bytes: a header, a block and its 8-byte look-ahead, plus up to two reads.
#[cfg(any(test, feature = "internals"))]
pub const fn buffer_bound(max_record: usize) -> usize {
    super::framed::buffer_bound(max_record, MAX_HEADER)
}

/// Reads the WARC records of a decoded stream; `head`: bytes already pulled from it (from
/// decoded position 0), and `brk`, the break that came after them if any. Returns the most
/// bytes it buffered at once (≤ [`buffer_bound`]).
pub fn read_records<S: Source>(
    src: &mut S,
    head: Vec<u8>,
    brk: Option<Break>,
    max_record: usize,
    new_buf: &mut dyn FnMut() -> Vec<u8>,
    emit: &mut dyn FnMut(WarcItem) -> bool,
) -> io::Result<usize> {
    read_framed::<S, Warc>(src, head, brk, max_record, new_buf, &mut |item| {
        let mut repeated = None;
        let mut item = WarcItem::of_framed(item, |h| {
            repeated = h.repeated;
            let kind = match h.warc_type.as_str() {
                "response" => Some(Kind::Response),
                "resource" => Some(Kind::Resource),
                "revisit" => Some(Kind::Revisit),
                "continuation" => Some(Kind::Continuation),
                _ => None,
            };
            let uri = h.capture.target_uri.clone().unwrap_or_default();
            (kind, uri, h.capture, h.warc_type, h.segment)
        });
        if let (WarcItem::Record { note, .. }, Some(r)) = (&mut item, repeated) {
            *note = Some(match note.take() {
                Some(n) => format!("{n}; {r}"),
                None => r,
            });
        }
        emit(item)
    })
}

/// The WARC framing (see the module docs).
pub(crate) struct Warc;

fn is_version(b: &[u8]) -> bool {
    b.len() > 5 && b.starts_with(b"WARC/") && b[5].is_ascii_digit()
}

impl Framing for Warc {
    type Header = WarcHeader;
    const NAME: &'static str = "WARC";
    const A_RECORD: &'static str = "a WARC";
    const BAD: &'static str = "bad_warc";
    const LENGTH: &'static str = "Content-Length";
    const TRAILER: &'static str = "no empty line after the block";
    const MAX_HEADER: usize = MAX_HEADER;
    const KEEP: usize = 6;

    fn candidate(b: &[u8], complete: bool) -> Option<bool> {
        (b.len() >= 6 || complete).then(|| is_version(b))
    }

    fn next_candidate(a: &[u8]) -> Option<usize> {
        memchr::memmem::find_iter(&a[1..], b"WARC/")
            .map(|i| i + 1)
            .find(|&i| is_version(&a[i..]) || a.len() - i < 6)
    }

    /// The end of the header, after its empty line.
    fn header_end(b: &[u8], from: usize) -> Option<usize> {
        for i in memchr::memchr_iter(b'\n', &b[from..]).map(|i| i + from) {
            match b.get(i + 1) {
                Some(b'\n') => return Some(i + 2),
                Some(b'\r') if b.get(i + 2) == Some(&b'\n') => return Some(i + 3),
                _ => {}
            }
        }
        None
    }

    fn parse_header(b: &[u8]) -> Result<(WarcHeader, usize), String> {
        parse_warc_header(b).map(|h| {
            let len = h.content_length;
            (h, len)
        })
    }

    fn target_uri(h: &WarcHeader) -> Option<&str> {
        h.capture.target_uri.as_deref()
    }

    fn keeps_block(h: &WarcHeader) -> bool {
        matches!(h.warc_type.as_str(), "response" | "resource" | "revisit" | "continuation")
    }

    /// `CRLF CRLF` (or LF LF), or only line ends before the end of the stream or a version
    /// line.
    fn trailer_ok(rest: &[u8], at_end: bool) -> bool {
        let run = rest.iter().take(4).take_while(|b| **b == b'\r' || **b == b'\n').count();
        let lfs = rest[..run].iter().filter(|b| **b == b'\n').count();
        lfs >= 2 || (run == rest.len() && at_end) || is_version(&rest[run..])
    }

    /// `CRLF CRLF`, or LF LF.
    fn trailer_len(b: &[u8]) -> Option<usize> {
        if b.ends_with(b"\r\n\r\n") {
            Some(4)
        } else {
            b.ends_with(b"\n\n").then_some(2)
        }
    }
}

/// What a WARC header says.
pub(crate) struct WarcHeader {
    warc_type: String,
    content_length: usize,
    capture: Box<Capture>,
    segment: Option<Segment>,
    /// Fields given twice with different values (the first one is used), as a note for the
    /// record.
    repeated: Option<String>,
}

/// Parses `WARC/x.y` + named fields (the header, up to and with its empty line). The
/// Content-Length is a decimal count of bytes no block can exceed (at most `isize::MAX`, the
/// largest allocation); a value past that, even one past `u64`, is reported as too large, a
/// value that is no number as bad, none at all as missing, and two that differ as conflicting
/// (the same value repeated is that value). Any other field read that is given again with
/// another value keeps its first (as warcio reads a header), and the record says so. The
/// capture fields are read as written (a `<>`-wrapped URI unwrapped), the dates as W3C-DTF
/// (`None` when not one); a `resource` record's `Content-Type` is its document's;
/// `WARC-Truncated` makes the capture `truncated`. The segment fields (WARC 1.1 §5.9-5.11)
/// are read when `WARC-Segment-Number` is a number; a first segment's capture is
/// `truncated: segment` until the reader has joined its continuations
/// ([`super::segments`]).
fn parse_warc_header(buf: &[u8]) -> Result<WarcHeader, String> {
    let text = header_text(buf);
    let (mut warc_type, mut content_length) = (String::new(), None);
    let mut c = Box::<Capture>::default();
    let mut content_type = None;
    let mut segment: Option<Segment> = None;
    let (mut origin_id, mut total_length) = (None, None);
    // Some writers wrap URIs in <>.
    let uri = |v: &str| Some(v.trim_start_matches('<').trim_end_matches('>').to_owned());
    let date = |v: &str| crate::model::date::parse_w3cdtf(v);
    let mut first: [Option<&str>; Field::ALL.len()] = [None; Field::ALL.len()];
    let mut repeated: Vec<(Field, &str)> = Vec::new();
    for line in header_lines(&text).skip(1) {
        let Some(colon) = block::find_byte(line.as_bytes(), b':') else {
            continue;
        };
        let value = line[colon + 1..].trim();
        // The field names are matched without regard to ASCII case: the name lowercased
        // once, then one `match` ([`Field::named`]; a name longer than every known one is
        // none of them).
        let name = &line.as_bytes()[..colon];
        let mut lower = [0u8; LONGEST_NAME];
        let Some(lower) = lower.get_mut(..name.len()) else {
            continue;
        };
        for (l, b) in lower.iter_mut().zip(name) {
            *l = b.to_ascii_lowercase();
        }
        let Some(field) = Field::named(lower) else {
            continue;
        };
        if field != Field::ContentLength {
            match first[field as usize] {
                None => first[field as usize] = Some(value),
                Some(v) => {
                    if v != value && repeated.iter().all(|r| r.0 != field) {
                        repeated.push((field, &line[..colon]));
                    }
                    continue;
                }
            }
        }
        match field {
            Field::Type => warc_type = value.to_ascii_lowercase(),
            Field::TargetUri => c.target_uri = uri(value),
            Field::ContentLength => {
                // Two lengths that differ frame the record two ways: neither is trusted
                // (as HTTP/1.1 treats them, RFC 9112 §6.3).
                let n = parse_content_length(value)?;
                if let Some(m) = content_length.filter(|&m| m != n) {
                    return Err(format!("conflicting Content-Length fields ({m} and {n})"));
                }
                content_length = Some(n);
            }
            Field::Date => c.date = date(value),
            Field::RecordId => c.record_id = Some(value.to_owned()),
            Field::PayloadDigest => c.payload_digest = Some(value.to_owned()),
            Field::ContentType => content_type = Some(value.to_owned()),
            Field::RefersTo => c.refers_to_record_id = Some(value.to_owned()),
            Field::RefersToTargetUri => c.refers_to_target_uri = uri(value),
            Field::RefersToDate => c.refers_to_date = date(value),
            Field::Truncated => c.truncated = Some(value.to_owned()),
            Field::SegmentNumber => {
                segment = value.parse().ok().map(|number| Segment {
                    number,
                    origin_id: None,
                    total_length: None,
                });
            }
            Field::SegmentOriginId => origin_id = Some(value.to_owned()),
            Field::SegmentTotalLength => total_length = value.parse().ok(),
        }
    }
    if let Some(s) = &mut segment {
        (s.origin_id, s.total_length) = (origin_id, total_length);
        if s.number == 1 && c.truncated.is_none() {
            c.truncated = Some("segment".to_owned());
        }
    }
    let content_length = content_length.ok_or("WARC header has no Content-Length")?;
    if warc_type == "resource" {
        c.content_type = content_type;
    } else {
        repeated.retain(|r| r.0 != Field::ContentType);
    }
    let repeated = match repeated[..] {
        [] => None,
        [(_, name)] => {
            Some(format!("WARC header repeats {name} with another value: the first is used"))
        }
        _ => {
            let names: Vec<&str> = repeated.iter().map(|r| r.1).collect();
            Some(format!(
                "WARC header repeats {} with other values: the first of each is used",
                names.join(", ")
            ))
        }
    };
    c.record_type = match warc_type.as_str() {
        "response" => Some("response"),
        "resource" => Some("resource"),
        "revisit" => Some("revisit"),
        _ => None,
    };
    Ok(WarcHeader { warc_type, content_length, capture: c, segment, repeated })
}

/// Declares the header fields [`parse_warc_header`] reads, once: [`Field`], its names
/// ([`Field::ALL`]) and the `match` that reads a name ([`Field::named`]).
macro_rules! fields {
    ($($field:ident = $name:literal;)*) => {
        /// A WARC header field [`parse_warc_header`] reads (WARC 1.1 section 5): each variant
        /// is the field's name without `WARC-`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum Field {
            $($field,)*
        }

        impl Field {
            /// Every field, with its name lowercased.
            const ALL: &[(Field, &[u8])] = &[$((Field::$field, $name),)*];

            /// The field whose name, lowercased, is `lower`.
            #[inline]
            fn named(lower: &[u8]) -> Option<Field> {
                match lower {
                    $($name => Some(Field::$field),)*
                    _ => None,
                }
            }
        }
    };
}

fields! {
    Type = b"warc-type";
    TargetUri = b"warc-target-uri";
    ContentLength = b"content-length";
    Date = b"warc-date";
    RecordId = b"warc-record-id";
    PayloadDigest = b"warc-payload-digest";
    ContentType = b"content-type";
    RefersTo = b"warc-refers-to";
    RefersToTargetUri = b"warc-refers-to-target-uri";
    RefersToDate = b"warc-refers-to-date";
    Truncated = b"warc-truncated";
    SegmentNumber = b"warc-segment-number";
    SegmentOriginId = b"warc-segment-origin-id";
    SegmentTotalLength = b"warc-segment-total-length";
}

/// Bytes in the longest name of [`Field::ALL`].
const LONGEST_NAME: usize = {
    let (mut i, mut longest) = (0, 0);
    while i < Field::ALL.len() {
        if Field::ALL[i].1.len() > longest {
            longest = Field::ALL[i].1.len();
        }
        i += 1;
    }
    longest
};

/// A header's bytes as text, invalid UTF-8 replaced by U+FFFD as
/// [`String::from_utf8_lossy`] does, borrowed when valid: [`std::str::from_utf8`] first,
/// whose ASCII check takes a word at a time where `from_utf8_lossy`'s chunk walk takes a
/// byte (~2,000 instructions a WARC header). The HTTP header's too ([`super::http`]).
pub(super) fn header_text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// The lines of `text` as [`str::lines`] gives them (split after each LF, a CR before the LF
/// dropped; a last line without LF kept whole), the LFs found with a block search: `lines`
/// searches with a `char` (`CharSearcher`), which cost ~2,400 instructions a WARC header.
/// The HTTP header's lines too ([`super::http`]).
pub(super) fn header_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let line = match block::find_byte(rest.as_bytes(), b'\n') {
            Some(i) => {
                let line = &rest[..i];
                rest = &rest[i + 1..];
                line.strip_suffix('\r').unwrap_or(line)
            }
            None => std::mem::take(&mut rest),
        };
        Some(line)
    })
}

/// A Content-Length value (see [`parse_warc_header`]).
fn parse_content_length(value: &str) -> Result<usize, String> {
    let too_large = || format!("Content-Length {} is too large", truncate(value, 40));
    match value.parse::<u64>() {
        Ok(n) => {
            usize::try_from(n).ok().filter(|&n| n <= isize::MAX as usize).ok_or_else(too_large)
        }
        Err(_) if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
            Err(too_large())
        }
        Err(_) => Err(format!("bad Content-Length {:?}", truncate(value, 40))),
    }
}

#[cfg(test)]
mod tests;
