//! Invariant checks shared by the fuzz targets (`fuzz/fuzz_targets/*.rs`, through
//! `fuzz/src/lib.rs`) and the stable replay test (`tests/it/fuzz_regressions.rs`, through
//! `#[path]`). Depends on `feedmill`, `bumpalo`, `encoding_rs`, `chardetng`, `serde_json`,
//! `flate2`, `zstd`, `parquet`, `bytes` and `std` only, so both crates can compile it.
//!
//! Every `check_*` function takes the raw fuzz input (exactly the bytes libFuzzer hands the
//! target, i.e. exactly a crash artifact's bytes), decodes it with the documented byte layout
//! below, runs the code under test and panics (with a message naming the invariant) when an
//! invariant does not hold. The decoders are total: every byte string is a valid input.
//!
//! The checks of each target are in a module of that name; the input decoders, the checks
//! of a parse result and the archive builders the targets share are here, and so are the
//! checks several targets run (`extraction`, `sanitize`, `fragment`).
#![allow(dead_code)]

use std::borrow::Cow;

use bumpalo::Bump;
use feedmill::html::{Html, NodeKind};
use feedmill::input::{self, Response, ResponseVerdict};
use feedmill::model::date::{parse_rfc3339, parse_rfc822, parse_w3cdtf};
use feedmill::model::lenient_date::parse_lenient;
use feedmill::{
    DiagnosticKind, Error, Feed, Limits, Options, OwnedParsed, Parsed, Parser, Text, Timestamp,
};

mod archive;
mod bulk;
mod canonical_url;
mod dates;
mod decode;
mod discover;
mod document_lint;
mod escaped_html;
mod extraction;
mod fragment;
mod json_feed;
mod parquet;
mod parse_document;
mod parse_limits;
mod parse_response;
mod sanitize;
mod tar;

// The fuzz crate calls every check; the replay test a part of them (the others are unused
// there, as `dead_code` allows for the items of this module).
#[allow(unused_imports)]
pub use self::parquet::check_parquet;
#[allow(unused_imports)]
pub use archive::check_archive;
#[allow(unused_imports)]
pub use bulk::check_bulk;
#[allow(unused_imports)]
pub use canonical_url::check_canonical_url_idempotent;
#[allow(unused_imports)]
pub use dates::check_dates;
#[allow(unused_imports)]
pub use decode::{check_decode, check_decode_case};
#[allow(unused_imports)]
pub use discover::check_discover;
#[allow(unused_imports)]
pub use document_lint::{check_document_lint, check_document_lint_heavy};
#[allow(unused_imports)]
pub use escaped_html::{check_escaped_html, check_escaped_html_heavy};
#[allow(unused_imports)]
pub use extraction::check_extraction;
#[allow(unused_imports)]
pub use fragment::{check_fragment, html_roundtrip_exception};
#[allow(unused_imports)]
pub use json_feed::{check_json_feed, check_json_feed_heavy};
#[allow(unused_imports)]
pub use parse_document::{check_parse_document, check_parse_document_heavy};
#[allow(unused_imports)]
pub use parse_limits::{
    check_limits_case, check_limits_case_heavy, check_parse_limits, check_parse_limits_heavy,
};
#[allow(unused_imports)]
pub use parse_response::{
    check_parse_response, check_parse_response_heavy, check_response_case,
    check_response_case_heavy,
};
#[allow(unused_imports)]
pub use sanitize::{check_strict_sanitizing, check_strictly_safe};
#[allow(unused_imports)]
pub use tar::check_tar;

/// The HTML namespace (as `feedmill::html::HTML_NS`, spelled out so this file also builds
/// against the interface stub).
const HTML_NS: &str = "http://www.w3.org/1999/xhtml";

/// A total reader over the fuzz input: reading past the end yields zeros / empty slices.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data }
    }
    pub fn u8(&mut self) -> u8 {
        match self.data.split_first() {
            Some((b, rest)) => {
                self.data = rest;
                *b
            }
            None => 0,
        }
    }
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.data.len());
        let (a, b) = self.data.split_at(n);
        self.data = b;
        a
    }
    /// A string of at most 255 bytes: one length byte, then that many bytes (lossy UTF-8).
    pub fn short_string(&mut self) -> String {
        let n = self.u8() as usize;
        String::from_utf8_lossy(self.take(n)).into_owned()
    }
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.data)
    }
}

/// Small resource limits (byte layout: 4 bytes).
///
/// - byte 0: `max_depth` = b % 48 (0 and 1 both mean 1 level: the reader clamps to ≥ 1);
/// - byte 1: `max_entries` = b % 24;
/// - byte 2: `max_text_bytes` = b (0..=255, so cuts fall inside multi-byte characters);
/// - byte 3: `max_input_bytes` = default, 0, 64 or 4096 (b % 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmallLimits {
    pub max_depth: usize,
    pub max_entries: usize,
    pub max_text_bytes: usize,
    pub max_input_bytes: Option<usize>,
}

impl SmallLimits {
    pub fn decode(b: &mut Bytes<'_>) -> Self {
        SmallLimits {
            max_depth: (b.u8() % 48) as usize,
            max_entries: (b.u8() % 24) as usize,
            max_text_bytes: b.u8() as usize,
            max_input_bytes: [None, Some(0), Some(64), Some(4096)][(b.u8() % 4) as usize],
        }
    }

    pub fn to_limits(self) -> Limits {
        let mut l = Limits::default();
        l.max_depth = self.max_depth;
        l.max_entries = self.max_entries;
        l.max_text_bytes = self.max_text_bytes;
        if let Some(m) = self.max_input_bytes {
            l.max_input_bytes = m;
        }
        l
    }
}

/// Input of `parse_limits`: [`SmallLimits`] (4 bytes), then the document bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitsCase {
    pub limits: SmallLimits,
    pub body: Vec<u8>,
}

impl LimitsCase {
    pub fn decode(data: &[u8]) -> Self {
        let mut b = Bytes::new(data);
        let limits = SmallLimits::decode(&mut b);
        LimitsCase { limits, body: b.rest().to_vec() }
    }
}

/// Response URLs the `parse_response` target chooses from (the last is not absolute, so it is
/// an invalid base URL).
pub const URLS: [Option<&str>; 4] = [
    None,
    Some("https://example.com/feeds/main.xml"),
    Some("http://[::1]:8080/a/b/?q=1#frag"),
    Some("relative/not-absolute"),
];

/// Statuses other than 200 the `parse_response` target chooses from.
pub const OTHER_STATUSES: [u16; 16] =
    [0, 100, 199, 201, 203, 204, 206, 299, 301, 304, 400, 404, 418, 500, 503, 65535];

/// Input of `parse_response`.
///
/// - byte 0: status: `b < 0xF0` → 200, else `OTHER_STATUSES[b - 0xF0]`;
/// - byte 1: bit 0 set → a `Content-Type` header is present; bits 1–2 → `URLS[...]`;
/// - byte 2 and the next (byte 2) bytes: the `Content-Type` value (lossy UTF-8);
/// - the rest: the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResponseCase {
    pub status: u16,
    pub content_type: Option<String>,
    pub url: Option<&'static str>,
    pub body: Vec<u8>,
}

impl ResponseCase {
    pub fn decode(data: &[u8]) -> Self {
        let mut b = Bytes::new(data);
        let s = b.u8();
        let status = if s < 0xF0 { 200 } else { OTHER_STATUSES[(s - 0xF0) as usize] };
        let flags = b.u8();
        let ct = b.short_string();
        let content_type = (flags & 1 != 0).then_some(ct);
        let url = URLS[((flags >> 1) & 3) as usize];
        ResponseCase { status, content_type, url, body: b.rest().to_vec() }
    }

    /// The inverse of [`Self::decode`] (for seeds).
    pub fn encode(
        status_byte: u8,
        content_type: Option<&str>,
        url_index: u8,
        body: &[u8],
    ) -> Vec<u8> {
        let ct = content_type.unwrap_or("").as_bytes();
        let ct = &ct[..ct.len().min(255)];
        let mut out = vec![
            status_byte,
            (content_type.is_some() as u8) | ((url_index & 3) << 1),
            ct.len() as u8,
        ];
        out.extend_from_slice(ct);
        out.extend_from_slice(body);
        out
    }
}

/// Input of `decode`: byte 0 = 0 → no transport label; otherwise the label is the next
/// `byte 0 - 1` bytes (lossy UTF-8). The rest is the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeCase {
    pub label: Option<String>,
    pub body: Vec<u8>,
}

impl DecodeCase {
    pub fn decode(data: &[u8]) -> Self {
        let mut b = Bytes::new(data);
        let n = b.u8() as usize;
        let label =
            if n == 0 { None } else { Some(String::from_utf8_lossy(b.take(n - 1)).into_owned()) };
        DecodeCase { label, body: b.rest().to_vec() }
    }
}

/// Everything a parse returns, owned (so two parses can be compared): the feed as its
/// `Debug` text, which shows every field and every node of its HTML values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub feed: Option<String>,
    pub format: Option<feedmill::Format>,
    pub diagnostics: Vec<feedmill::Diagnostic>,
    pub encoding: Option<&'static str>,
}

pub fn snapshot(p: &Parsed<'_>) -> Snapshot {
    Snapshot {
        feed: p.feed.as_ref().map(|f| format!("{f:?}")),
        format: p.format,
        diagnostics: p.diagnostics.clone(),
        encoding: p.encoding.map(|e| e.name()),
    }
}

/// Every HTML value of the feed is a well-formed fragment, and serializes both ways.
pub fn check_fragments(f: &Feed<'_>) {
    let texts = [&f.title, &f.subtitle, &f.description]
        .into_iter()
        .chain(f.entries.iter().flat_map(|e| [&e.title, &e.subtitle, &e.summary, &e.content]));
    for t in texts {
        if let Some(Text::Html(h)) = t {
            check_fragment(h);
            assert!(!h.to_xml_string().is_empty() || h.to_html_string().is_empty());
        }
    }
}

/// The owned parse ([`OwnedParsed::parse_bytes`]) of a body gives what the borrowed one gave,
/// and so do its entries taken on their own.
pub fn check_owned_matches(data: &[u8], options: &Options, borrowed: &Snapshot) {
    let owned = OwnedParsed::parse_bytes(data, options, None)
        .expect("the owned parse fails where the borrowed one succeeded");
    assert_eq!(&snapshot(owned.get()), borrowed, "owned parse");
    let entries: Vec<String> = owned.entries().iter().map(|e| format!("{:?}", e.get())).collect();
    let in_feed: Vec<String> =
        owned.feed().map_or(vec![], |f| f.entries.iter().map(|e| format!("{e:?}")).collect());
    assert_eq!(entries, in_feed, "owned entries");
}

/// Diagnostics lie inside the input: an [`DiagnosticKind::InvalidEncoding`] offset is into the
/// raw body (`raw_len` bytes); every other offset is into the decoded `text`, at a char
/// boundary, and not past its end.
pub fn check_diagnostics(p: &Parsed<'_>, raw_len: usize, text: &str) {
    for d in &p.diagnostics {
        if d.kind == DiagnosticKind::InvalidEncoding {
            assert!(
                d.offset < raw_len.max(1),
                "InvalidEncoding offset {} past the body ({raw_len} bytes)",
                d.offset
            );
        } else {
            assert!(
                d.offset <= text.len(),
                "diagnostic {d} past the end of the text ({} bytes)",
                text.len()
            );
            assert!(text.is_char_boundary(d.offset), "diagnostic {d} not at a char boundary");
        }
    }
}

/// The cheap checks of a successful parse of decoded `text` (from a body of `raw_len` bytes)
/// with `limits`: diagnostics inside the input, a feed iff a format, the entry limit,
/// categories a set of non-empty terms, every date round-trips through RFC 3339. Linear in the
/// result's size; what the light targets assert on every run.
pub fn check_parsed_light(p: &Parsed<'_>, raw_len: usize, text: &str, limits: &Limits) {
    check_diagnostics(p, raw_len, text);
    assert_eq!(p.feed.is_some(), p.format.is_some(), "a feed without a format or vice versa");
    if let Some(f) = &p.feed {
        assert!(
            f.entries.len() <= limits.max_entries,
            "{} entries > max_entries {}",
            f.entries.len(),
            limits.max_entries
        );
        let dates = f
            .updated
            .iter()
            .chain(f.entries.iter().flat_map(|e| [&e.published, &e.updated].into_iter().flatten()));
        for t in dates {
            check_timestamp_roundtrip(t, "feed date");
        }
        for e in &f.entries {
            // Model invariant: categories are a set of non-empty terms.
            let mut seen = std::collections::HashSet::with_capacity(e.categories.len());
            for c in &e.categories {
                assert!(!c.is_empty(), "empty category");
                assert!(seen.insert(*c), "duplicate category {c:?}");
            }
        }
    }
}

/// Every check of a successful parse: [`check_parsed_light`], plus the JSON records (with
/// and without `--extract --sanitize strict`), the HTML values' fragment structure and
/// serializations, and extraction against its reference definitions. What the `*_heavy` targets assert.
pub fn check_parsed(p: &Parsed<'_>, raw_len: usize, text: &str, limits: &Limits) {
    check_parsed_light(p, raw_len, text, limits);
    check_json(p, raw_len.max(text.len()));
    if let Some(f) = &p.feed {
        check_fragments(f);
        check_extraction(f);
    }
}

/// The JSON Lines record of a parse result (`sink::json::encode_record`) is one line of valid
/// JSON: an object whose `status`, `format` and entry count match the result, and whose
/// length is within the documented bound of the input's (`record::json_line_bound`).
pub fn check_json(p: &Parsed<'_>, input_len: usize) {
    use feedmill::extract::{extract, ExtractOptions};
    use feedmill::sanitize::SanitizeOptions;
    use feedmill::sink::{json::encode_record, Problem, RecordView, Status};
    let arena = Bump::new();
    let extraction = p.feed.as_ref().map(|f| extract(f, &arena, &ExtractOptions::default()));
    let strict = SanitizeOptions::default();
    // As written by default, and with `--extract --sanitize strict`.
    for extras in [false, true] {
        let view = RecordView {
            source: "fuzz\n\"input\"",
            url: None,
            status: if p.feed.is_some() { Status::Ok } else { Status::NotAFeed },
            error: p
                .feed
                .is_none()
                .then_some(Problem { kind: "not_a_feed", message: "no feed \u{0}\u{2028}" }),
            format: p.format,
            encoding: p.encoding.map(|e| e.name()),
            diagnostics: &p.diagnostics,
            feed: p.feed.as_ref(),
            extraction: extraction.as_ref().filter(|_| extras),
            sanitize: extras.then_some(&strict),
            lint: p.lint.as_ref(),
            capture: None,
            ..RecordView::default()
        };
        let mut out = Vec::new();
        encode_record(&mut out, &view);
        check_json_line(&out, Some(p));
        let bound = feedmill::record::json_line_bound(input_len);
        assert!(out.len() <= bound, "a {input_len}-byte input gave a {}-byte line", out.len());
    }
}

/// `line` (without its newline) is one JSON object with a known `status`; with `p`, its
/// format, diagnostics and entries match.
pub fn check_json_line(line: &[u8], p: Option<&Parsed<'_>>) -> serde_json::Value {
    assert!(!line.contains(&b'\n'), "a JSON record contains a raw newline");
    let v: serde_json::Value = serde_json::from_slice(line)
        .unwrap_or_else(|e| panic!("invalid JSON record ({e}): {}", String::from_utf8_lossy(line)));
    let status = v.get("status").and_then(|s| s.as_str()).expect("record without a status");
    assert!(["ok", "not_a_feed", "error"].contains(&status), "unknown status {status}");
    if let Some(p) = p {
        assert_eq!(
            v.get("format").and_then(|f| f.as_str()),
            p.format.map(|f| f.as_str()),
            "JSON format"
        );
        let diags = v.get("diagnostics").and_then(|d| d.as_array()).map_or(0, Vec::len);
        assert_eq!(diags, p.diagnostics.len(), "JSON diagnostics");
        if let Some(f) = &p.feed {
            let entries = v["feed"].get("entries").and_then(|e| e.as_array()).map_or(0, Vec::len);
            assert_eq!(entries, f.entries.len(), "JSON entries");
        }
    }
    v
}

/// A gzip member of `data` compressed at `level`: byte for byte what
/// `flate2::write::GzEncoder::new(.., Compression::new(level))` writes (mtime 0, XFL as flate2
/// sets it, OS 255), from a compressor reused per level and thread. Building a deflate
/// compressor zeroes ~300 KB of tables; done per generated member, that was most of the
/// archive target's time.
pub fn gzip_member(data: &[u8], level: u32) -> Vec<u8> {
    use flate2::{Compress, Compression, Crc, FlushCompress, Status};
    use std::cell::RefCell;
    thread_local! {
        static COMPRESSORS: RefCell<Vec<(u32, Compress)>> = const { RefCell::new(Vec::new()) };
    }
    let xfl = if level >= 9 {
        2
    } else if level <= 1 {
        4
    } else {
        0
    };
    let mut out = Vec::with_capacity(data.len() + data.len() / 8 + 64);
    out.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, xfl, 0xff]);
    COMPRESSORS.with(|cs| {
        let mut cs = cs.borrow_mut();
        let i = match cs.iter().position(|(l, _)| *l == level) {
            Some(i) => i,
            None => {
                cs.push((level, Compress::new(Compression::new(level), false)));
                cs.len() - 1
            }
        };
        let c = &mut cs[i].1;
        c.reset();
        loop {
            let read = c.total_in() as usize;
            match c.compress_vec(&data[read..], &mut out, FlushCompress::Finish) {
                Ok(Status::StreamEnd) => break,
                Ok(_) => out.reserve(out.capacity().max(64)),
                Err(e) => panic!("deflate of a generated member failed: {e}"),
            }
        }
    });
    let mut crc = Crc::new();
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

/// A gzip member of `data` in one stored (uncompressed) deflate block, for generated
/// archives of many small members (`data` under 64 KiB).
pub fn gzip_stored(data: &[u8]) -> Vec<u8> {
    let len = u16::try_from(data.len()).expect("a stored block holds at most 65,535 bytes");
    let mut out = Vec::with_capacity(data.len() + 23);
    out.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 1]);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&(!len).to_le_bytes());
    out.extend_from_slice(data);
    let mut crc = flate2::Crc::new();
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

/// A timestamp is in UTC years 0001–9999 (no `Timestamp` outside them can be made) and
/// formats to a string `parse_rfc3339` reads back as the same instant (with the same
/// fractional digits).
pub fn check_timestamp_roundtrip(t: &Timestamp, what: &str) {
    let (year, ..) = t.civil();
    let s = t.to_string();
    assert!((1..=9999).contains(&year), "{what} {s} is outside years 0001-9999");
    assert_eq!(parse_rfc3339(&s), Some(*t), "{what} {s} does not round-trip through parse_rfc3339");
}

/// A temporary file holding `data` (on tmpfs when there is one: a file is written and read
/// per run), removed by the caller.
fn scratch_file(kind: &str, data: &[u8]) -> std::path::PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static FILES: AtomicU64 = AtomicU64::new(0);
    let shm = std::path::Path::new("/dev/shm");
    let dir = if shm.is_dir() { shm.to_path_buf() } else { std::env::temp_dir() };
    let n = FILES.fetch_add(1, Ordering::Relaxed);
    let path = dir.join(format!("feedmill-fuzz-{kind}-{}-{n}", std::process::id()));
    std::fs::write(&path, data).expect("write a temporary file");
    path
}
