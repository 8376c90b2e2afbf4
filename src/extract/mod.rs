//! Extraction over the model (issue #7 part 2): plain text of HTML values.

use std::borrow::Cow;

use bumpalo::Bump;

use crate::model::url::is_canonical_http_url;

use crate::html::{Html, NodeKind, HTML_NS};

/// Elements whose content is not text a reader sees.
fn is_hidden(local: &str) -> bool {
    matches!(local, "script" | "style" | "template" | "noscript" | "head" | "title")
}

/// Elements that separate words (block-level and line breaks).
fn is_break(local: &str) -> bool {
    matches!(
        local,
        "p" | "br" | "div" | "li" | "ul" | "ol" | "dl" | "dt" | "dd" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6"
            | "tr" | "td" | "th" | "table" | "thead" | "tbody" | "tfoot" | "caption" | "blockquote" | "pre"
            | "hr" | "section" | "article" | "aside" | "header" | "footer" | "nav" | "figure"
            | "figcaption" | "address" | "main" | "details" | "summary" | "img" | "iframe" | "video"
            | "audio" | "option"
    )
}

/// Plain text of an HTML fragment for indexing: the text nodes in document order, script /
/// style / template content left out, a space between block-level elements, and every run of
/// whitespace collapsed to one space; trimmed. Borrowed from the fragment when the text is one
/// stretch of one text node (e.g. `<p>\n  Some title\n</p>`); otherwise one string in `arena`,
/// allocated once.
pub fn text_content<'a>(arena: &'a Bump, html: &Html<'a>) -> &'a str {
    let nodes = html.nodes();
    let mut out = Collapsed::new(arena);
    let mut i = 0usize;
    // Ends of open "break" elements, to add a separator after them.
    let mut break_ends = EndStack::new();
    while i < nodes.len() {
        while break_ends.last().is_some_and(|e| e <= i) {
            break_ends.pop();
            out.pending_space = true;
        }
        let node = &nodes[i];
        match node.kind {
            NodeKind::Element(el) => {
                let html_el = el.namespace == HTML_NS || el.namespace.is_empty();
                if html_el && is_hidden(el.local) {
                    i = node.end as usize;
                    out.pending_space = true;
                    continue;
                }
                if html_el && is_break(el.local) {
                    out.pending_space = true;
                    break_ends.push(node.end as usize);
                }
            }
            NodeKind::Text(t) => {
                // Upper bound of what is left to write, should the output need its own string.
                let rest = || {
                    nodes[i..].iter().map(|n| if let NodeKind::Text(t) = n.kind { t.len() + 1 } else { 0 }).sum()
                };
                out.push(t, rest)
            }
            _ => {}
        }
        i += 1;
    }
    out.finish()
}

/// A stack of node indices that lives on the stack up to a depth of 32 (deeper nesting of
/// block elements is rare; it spills to the heap).
struct EndStack {
    inline: [u32; 32],
    len: usize,
    spill: Vec<usize>,
}

impl EndStack {
    fn new() -> Self {
        EndStack { inline: [0; 32], len: 0, spill: Vec::new() }
    }

    #[inline]
    fn last(&self) -> Option<usize> {
        if let Some(&e) = self.spill.last() {
            Some(e)
        } else if self.len > 0 {
            Some(self.inline[self.len - 1] as usize)
        } else {
            None
        }
    }

    #[inline]
    fn push(&mut self, e: usize) {
        if self.len < self.inline.len() && self.spill.is_empty() {
            self.inline[self.len] = e as u32;
            self.len += 1;
        } else {
            self.spill.push(e);
        }
    }

    #[inline]
    fn pop(&mut self) {
        if self.spill.pop().is_none() {
            self.len -= 1;
        }
    }
}

/// Whitespace-collapsed text being built from one or more pieces ([`Collapsed::push`]): as
/// long as it is one run of one piece, a borrowed slice of that piece; from the second run on
/// a string in the arena, sized once from the caller's bound.
struct Collapsed<'a> {
    arena: &'a Bump,
    /// The borrowed run: `piece[start..end]` (nothing written yet when `start == end`).
    piece: &'a str,
    start: usize,
    end: usize,
    owned: Option<bumpalo::collections::String<'a>>,
    /// A separator is owed from before (written only between two words).
    pending_space: bool,
}

impl<'a> Collapsed<'a> {
    fn new(arena: &'a Bump) -> Self {
        Collapsed { arena, piece: "", start: 0, end: 0, owned: None, pending_space: false }
    }

    /// Appends `t` with whitespace runs collapsed (Unicode `White_Space`). `rest` bounds the
    /// bytes still to be written by this and later pieces (asked at most once).
    #[inline]
    fn push(&mut self, t: &'a str, rest: impl FnOnce() -> usize) {
        let mut rest = Some(rest);
        let b = t.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if let Some(len) = ws_len_at(t, i) {
                i += len;
                self.pending_space = true;
                continue;
            }
            let w0 = i;
            i = word_run_end(t, i);
            self.push_run(t, w0, i, &mut rest);
        }
    }

    /// Appends the words `t[w0..w1]` (already collapsed), after the owed separator if any.
    #[inline]
    fn push_run(&mut self, t: &'a str, w0: usize, w1: usize, rest: &mut Option<impl FnOnce() -> usize>) {
        let sep = self.pending_space;
        self.pending_space = false;
        if let Some(s) = &mut self.owned {
            if sep {
                s.push(' ');
            }
            s.push_str(&t[w0..w1]);
            return;
        }
        if self.start == self.end {
            // The first run: borrowed (nothing before it, so no separator).
            (self.piece, self.start, self.end) = (t, w0, w1);
            return;
        }
        let cap = (self.end - self.start) + 1 + rest.take().map_or(0, |f| f());
        let mut s = bumpalo::collections::String::with_capacity_in(cap, self.arena);
        s.push_str(&self.piece[self.start..self.end]);
        if sep {
            s.push(' ');
        }
        s.push_str(&t[w0..w1]);
        self.owned = Some(s);
    }

    fn finish(self) -> &'a str {
        match self.owned {
            Some(s) => s.into_bump_str(),
            None => &self.piece[self.start..self.end],
        }
    }
}

/// Byte classes for the scans below.
const PLAIN: u8 = 0;
const SPACE: u8 = 1;
const OTHER_WS: u8 = 2;
/// Lead byte of a possible non-ASCII White_Space character (see [`ws_len_at`]).
const MAYBE_WS: u8 = 3;

static BYTE_CLASS: [u8; 256] = {
    let mut t = [PLAIN; 256];
    t[b' ' as usize] = SPACE;
    t[b'\t' as usize] = OTHER_WS;
    t[b'\n' as usize] = OTHER_WS;
    t[b'\r' as usize] = OTHER_WS;
    t[0x0B] = OTHER_WS;
    t[0x0C] = OTHER_WS;
    t[0xC2] = MAYBE_WS;
    t[0xE1] = MAYBE_WS;
    t[0xE2] = MAYBE_WS;
    t[0xE3] = MAYBE_WS;
    t
};

// SWAR helpers: eight bytes of text in a `u64` (little-endian: byte `j` is bits `8j..8j+8`).
// The masks hold the high bit of each byte; for bytes below 0x80 they are exact (setting the
// high bit first keeps the subtraction from borrowing across bytes).
const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

#[inline(always)]
fn load8(b: &[u8], i: usize) -> Option<u64> {
    b.get(i..i + 8).map(|c| u64::from_le_bytes(c.try_into().unwrap()))
}

/// Bytes `>= lo` (`lo <= 0x80`) of an ASCII-only word.
#[inline(always)]
fn ge(x: u64, lo: u8) -> u64 {
    ((x | HIGH) - ONES * lo as u64) & HIGH
}

/// Bytes `< hi` (`hi <= 0x80`) of an ASCII-only word.
#[inline(always)]
fn lt(x: u64, hi: u8) -> u64 {
    !ge(x, hi) & HIGH
}

/// From a non-whitespace character at byte `i`: the end of the longest stretch of words
/// separated by single ASCII spaces, i.e. of text that collapsing leaves as it is. It ends at
/// the end of `t`, at whitespace other than a space, or at a space followed by whitespace or
/// by the end of `t`. ASCII is scanned eight bytes at a time.
#[inline]
fn word_run_end(t: &str, mut i: usize) -> usize {
    let b = t.as_bytes();
    loop {
        while let Some(x) = load8(b, i) {
            if x & HIGH != 0 {
                break;
            }
            // Stop at a control character (all ASCII whitespace but the space is one; other
            // controls are decided below) and at a space followed by a space or control; a
            // space in the last byte is followed by the byte after `x`.
            let ctl = lt(x, 0x20);
            let ctl_or_space = lt(x, 0x21);
            let space = ctl_or_space & !ctl;
            let mut stop = ctl | (space & (ctl_or_space >> 8));
            if space >> 63 != 0 && !b.get(i + 8).is_some_and(|&c| c > b' ' && ws_len_at(t, i + 8).is_none()) {
                stop |= 1 << 63;
            }
            if stop != 0 {
                i += (stop.trailing_zeros() / 8) as usize;
                break;
            }
            i += 8;
        }
        if i >= b.len() {
            return i;
        }
        // Byte by byte for the next eight bytes (non-ASCII, or where the above stopped).
        let limit = (i + 8).min(b.len());
        while i < limit {
            match BYTE_CLASS[b[i] as usize] {
                PLAIN => i += 1,
                MAYBE_WS if ws_len_at(t, i).is_none() => i += 1,
                SPACE if i + 1 < b.len() && ws_len_at(t, i + 1).is_none() => i += 1,
                _ => return i,
            }
        }
    }
}

/// The byte length of the whitespace character starting at byte `i`, if it is one. Only the
/// lead bytes of White_Space characters are decoded (`0xC2`: U+0085, U+00A0; `0xE1`: U+1680;
/// `0xE2`: U+2000–U+205F; `0xE3`: U+3000); other bytes, including continuation bytes, are
/// answered from the byte alone, so scanning byte by byte stays on char boundaries at
/// whitespace.
#[inline]
fn ws_len_at(t: &str, i: usize) -> Option<usize> {
    let b = t.as_bytes()[i];
    if b < 0x80 {
        return matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C).then_some(1);
    }
    if matches!(b, 0xC2 | 0xE1 | 0xE2 | 0xE3) && t.is_char_boundary(i) {
        let c = t[i..].chars().next()?;
        return c.is_whitespace().then(|| c.len_utf8());
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Entry point

use crate::model::{Entry, Feed, Text};

/// What [`extract`] computes. Everything is on by default; turn off what you don't need.
#[derive(Clone, Debug)]
pub struct ExtractOptions {
    /// Plain text of every text construct (`*_text` fields).
    pub plain_text: bool,
    /// The entry's best body, its plain text and its word count.
    pub body: bool,
    /// `canonical_url` for the feed and each entry.
    pub canonical_urls: bool,
    /// `dedup_key` for each entry.
    pub dedup_keys: bool,
}

impl Default for ExtractOptions {
    fn default() -> Self {
        ExtractOptions { plain_text: true, body: true, canonical_urls: true, dedup_keys: true }
    }
}

/// Which model field the best body came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodySource {
    /// `content`: Atom `content` or RSS `content:encoded`.
    Content,
    /// `summary`: Atom `summary` or RSS `description`.
    Summary,
}

impl BodySource {
    pub fn as_str(self) -> &'static str {
        match self {
            BodySource::Content => "content",
            BodySource::Summary => "summary",
        }
    }
}

/// Where an entry's dedup key came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DedupSource {
    /// The entry's own identifier (Atom `id`, RSS `guid`, RDF `rdf:about`), as written.
    Id,
    /// The entry's canonical URL.
    Url,
    /// [`fnv1a64`] of title and date (16 lowercase hex digits).
    Hash,
}

impl DedupSource {
    pub fn as_str(self) -> &'static str {
        match self {
            DedupSource::Id => "id",
            DedupSource::Url => "url",
            DedupSource::Hash => "hash",
        }
    }
}

/// Extraction results for one entry. Borrowed from the feed or the caller's arena.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntryExtraction<'a> {
    pub title_text: Option<&'a str>,
    pub subtitle_text: Option<&'a str>,
    pub summary_text: Option<&'a str>,
    pub content_text: Option<&'a str>,
    /// The best body by the brief's priority: Atom content / `content:encoded`, then
    /// Atom summary / RSS description — the first whose plain text is not empty.
    pub body_source: Option<BodySource>,
    /// Plain text of the best body.
    pub body_text: Option<&'a str>,
    /// Words in `body_text` (0 without a body); see [`word_count`].
    pub word_count: u32,
    pub canonical_url: Option<&'a str>,
    pub dedup_key: Option<&'a str>,
    pub dedup_source: Option<DedupSource>,
}

/// Extraction results for a feed; `entries[i]` belongs to `feed.entries[i]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeedExtraction<'a> {
    pub title_text: Option<&'a str>,
    pub subtitle_text: Option<&'a str>,
    pub description_text: Option<&'a str>,
    pub canonical_url: Option<&'a str>,
    pub entries: Vec<EntryExtraction<'a>>,
}

/// Computes the extraction fields of `feed` (run right after parsing; it reads only the
/// model, never the input again). New strings go to `arena`; unchanged ones are borrowed.
pub fn extract<'a: 'b, 'b>(feed: &Feed<'a>, arena: &'b Bump, opts: &ExtractOptions) -> FeedExtraction<'b> {
    let mut out = FeedExtraction::default();
    if opts.plain_text {
        out.title_text = feed.title.as_ref().and_then(|t| plain_text(arena, t));
        out.subtitle_text = feed.subtitle.as_ref().and_then(|t| plain_text(arena, t));
        out.description_text = feed.description.as_ref().and_then(|t| plain_text(arena, t));
    }
    if opts.canonical_urls {
        out.canonical_url = feed.page_url.or(feed.feed_url).and_then(|u| canonical_url_in(arena, u));
    }
    out.entries = feed.entries.iter().map(|e| extract_entry(e, arena, opts)).collect();
    out
}

/// Extraction for one entry (see [`extract`]).
pub fn extract_entry<'a: 'b, 'b>(e: &Entry<'a>, arena: &'b Bump, opts: &ExtractOptions) -> EntryExtraction<'b> {
    let mut x = EntryExtraction::default();
    let need_text = opts.plain_text || opts.body || opts.dedup_keys;
    let text = |t: &Option<Text<'a>>| if need_text { t.as_ref().and_then(|t| plain_text(arena, t)) } else { None };
    let title = text(&e.title);
    let summary = text(&e.summary);
    let content = text(&e.content);
    if opts.plain_text {
        x.title_text = title;
        x.subtitle_text = text(&e.subtitle);
        x.summary_text = summary;
        x.content_text = content;
    }
    let (source, body) = match (content, summary) {
        (Some(c), _) => (Some(BodySource::Content), Some(c)),
        (None, Some(s)) => (Some(BodySource::Summary), Some(s)),
        (None, None) => (None, None),
    };
    if opts.body {
        x.body_source = source;
        x.body_text = body;
        x.word_count = body.map_or(0, word_count);
    }
    let canonical = if opts.canonical_urls || opts.dedup_keys { entry_canonical_url(e, arena) } else { None };
    if opts.canonical_urls {
        x.canonical_url = canonical;
    }
    if opts.dedup_keys {
        let (key, src) = if let Some(id) = e.ext.id {
            (id, DedupSource::Id)
        } else if let Some(u) = canonical {
            (u, DedupSource::Url)
        } else {
            (dedup_hash(arena, e, title, body), DedupSource::Hash)
        };
        x.dedup_key = Some(key);
        x.dedup_source = Some(src);
    }
    x
}

/// The entry's canonical URL: from `page_url`, else from an id that is a permalink URL
/// (RSS `guid` with `isPermaLink` true or absent, or an Atom/RDF id) when it is an absolute
/// http(s) URL.
fn entry_canonical_url<'a: 'b, 'b>(e: &Entry<'a>, arena: &'b Bump) -> Option<&'b str> {
    if let Some(u) = e.page_url {
        if let Some(c) = canonical_url_in(arena, u) {
            return Some(c);
        }
    }
    let id = e.ext.id?;
    if e.ext.id_is_permalink == Some(false) {
        return None;
    }
    canonical_url_in(arena, id)
}

/// The stable hash key: FNV-1a 64 over `title_text \x1f date`, where date is the RFC 3339
/// form of published, else updated, else their lenient readings, else empty. When both title
/// and date are missing, the body text is hashed instead so distinct untitled, undated
/// entries do not collide.
fn dedup_hash<'b>(arena: &'b Bump, e: &Entry<'_>, title: Option<&str>, body: Option<&str>) -> &'b str {
    let date = e
        .published
        .or(e.updated)
        .or(e.ext.published_lenient.map(|l| l.timestamp))
        .or(e.ext.updated_lenient.map(|l| l.timestamp));
    let mut h = Fnv1a64::new();
    h.write(b"feedmill-dedup-v1\x1f");
    match (title, date) {
        (None, None) => {
            h.write(b"\x1f\x1f");
            h.write(body.unwrap_or("").as_bytes());
        }
        _ => {
            h.write(title.unwrap_or("").as_bytes());
            h.write(b"\x1f");
            if let Some(d) = date {
                h.write(d.to_string().as_bytes());
            }
        }
    }
    let mut s = bumpalo::collections::String::with_capacity_in(16, arena);
    use std::fmt::Write;
    let _ = write!(s, "{:016x}", h.finish());
    s.into_bump_str()
}

/// FNV-1a, 64-bit (offset basis 0xcbf29ce484222325, prime 0x100000001b3): a fixed,
/// keyless function of the bytes alone, so keys are identical across runs, processes,
/// platforms and versions of this crate (the input is prefixed with `feedmill-dedup-v1`).
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a64(u64);

impl Fnv1a64 {
    pub const fn new() -> Self {
        Fnv1a64(0xcbf2_9ce4_8422_2325)
    }
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv1a64 {
    fn default() -> Self {
        Self::new()
    }
}

/// FNV-1a 64 of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a64::new();
    h.write(bytes);
    h.finish()
}

/// Plain text of a text construct: HTML values by [`text_content`]; plain values with
/// whitespace collapsed (borrowed when already collapsed). `None` when nothing remains.
pub fn plain_text<'a: 'b, 'b>(arena: &'b Bump, t: &Text<'a>) -> Option<&'b str> {
    let s: &'b str = match t {
        Text::Plain(s) => collapse(arena, s),
        Text::Html(h) => text_content(arena, h),
    };
    (!s.is_empty()).then_some(s)
}

fn collapse<'b>(arena: &'b Bump, s: &'b str) -> &'b str {
    // Borrowed when collapsing only trims.
    let mut out = Collapsed::new(arena);
    out.push(s, || s.len());
    out.finish()
}

/// Words in `text`: maximal runs of non-whitespace characters that contain a letter or a
/// digit; in scripts written without spaces (Han, Hiragana, Katakana, Thai), every such
/// character counts as one word.
pub fn word_count(text: &str) -> u32 {
    // Each word is counted at its first letter or digit; `counted` says the current word has
    // been (it is reset by whitespace and by unspaced-script characters).
    let mut n = 0u32;
    let mut counted = false;
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        // Eight ASCII bytes at once. The state after each byte is "counted" after a letter or
        // digit, "not counted" after whitespace, and the state before it after anything else:
        // filled in by doubling (from the nearest letter, digit or whitespace up to 1, 2, 4
        // bytes back), then from `counted` for bytes with none before them. A letter or digit
        // starts a word when the state before it is "not counted".
        if let Some(x) = load8(b, i) {
            if x & HIGH == 0 {
                let ws = (ge(x, 0x09) & lt(x, 0x0E)) | (ge(x, 0x20) & lt(x, 0x21));
                let folded = x | (ONES * 0x20);
                let alnum = (ge(x, b'0') & lt(x, b'9' + 1)) | (ge(folded, b'a') & lt(folded, b'z' + 1));
                let (mut state, mut known) = (alnum, alnum | ws);
                for shift in [8, 16, 32] {
                    state |= (state << shift) & !known;
                    known |= known << shift;
                }
                let carry = (counted as u64) << 7;
                let state = state | ((carry * ONES) & !known);
                let before = (state << 8) | carry;
                // Count the flagged bytes (a multiply adds the eight low bits into the top byte;
                // cheaper than `count_ones` without the popcnt instruction).
                n += ((((alnum & !before) >> 7) * ONES) >> 56) as u32;
                counted = state >> 63 != 0;
                i += 8;
                continue;
            }
        }
        // Otherwise character by character, for the next eight bytes.
        let limit = (i + 8).min(b.len());
        while i < limit {
            let byte = b[i];
            if byte < 0x80 {
                let ws = matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C);
                let alnum = byte.is_ascii_alphanumeric();
                n += (alnum && !counted) as u32;
                counted = (counted || alnum) && !ws;
                i += 1;
            } else {
                let c = text[i..].chars().next().unwrap_or(' ');
                i += c.len_utf8();
                if c.is_whitespace() {
                    counted = false;
                } else if is_unspaced_script(c) {
                    n += 1;
                    counted = false;
                } else if !counted && c.is_alphanumeric() {
                    n += 1;
                    counted = true;
                }
            }
        }
    }
    n
}

fn is_unspaced_script(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF   // Hiragana, Katakana
        | 0x3400..=0x4DBF // CJK Ext A
        | 0x4E00..=0x9FFF // CJK Unified
        | 0xF900..=0xFAFF // CJK Compatibility
        | 0x0E00..=0x0E7F // Thai
        | 0x20000..=0x2FA1F)
}

// ---------------------------------------------------------------------------------------------
// Canonical URLs

/// Query parameters removed by [`canonicalize_url`] (rule 5), compared ASCII
/// case-insensitively; every other `utm_*` parameter is removed too.
pub const TRACKING_PARAMS: &[&str] = &[
    "utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term", "ref", "source", "fbclid", "gclid",
    "mc_cid", "mc_eid",
];

fn is_tracking(key: &str) -> bool {
    (key.len() > 4 && key.as_bytes()[..4].eq_ignore_ascii_case(b"utm_"))
        || TRACKING_PARAMS.iter().any(|t| t.eq_ignore_ascii_case(key))
}

/// The canonical form of an absolute http(s) URL by the brief's seven rules (non-http(s) or
/// unparsable input → `None`):
/// 1. scheme and host lowercased (and IDNA/percent-normalized by the WHATWG parser);
/// 2. default ports removed (`:80` for http, `:443` for https);
/// 3. trailing slashes removed from the path, unless the path is `/`;
/// 4. query parameters sorted by name (stable: repeated names keep their order);
/// 5. tracking parameters ([`TRACKING_PARAMS`], any `utm_*`) removed; an empty query is
///    dropped with its `?`;
/// 6. percent-encoded unreserved characters (`A-Z a-z 0-9 - . _ ~`) decoded in path and
///    query; the hex digits of the remaining escapes uppercased;
/// 7. the fragment dropped, unless it is a single-page-app route (`#!…` or `#/…`).
///
/// The result is idempotent: `canonicalize_url(canonicalize_url(u)) == canonicalize_url(u)`.
pub fn canonicalize_url(input: &str) -> Option<String> {
    canonicalize_url_cow(input).map(Cow::into_owned)
}

/// [`canonicalize_url`], borrowing `input` when it is already canonical.
///
/// Most feed URLs are absolute `http(s)` URLs in the URL parser's own serialization
/// ([`is_canonical_http_url`]): for those the components are read off the string itself (no
/// parsing), the input is returned as it is when none of the rules changes it, and otherwise
/// the rules are applied to those components exactly as to the parser's.
pub fn canonicalize_url_cow(input: &str) -> Option<Cow<'_, str>> {
    if let Some(parts) = serialized_parts(input) {
        if rules_keep(&parts) {
            return Some(Cow::Borrowed(input));
        }
        let mut out = String::with_capacity(input.len());
        write_canonical(&parts, &mut out);
        return Some(Cow::Owned(out));
    }
    let c = canonicalize_url_slow(input)?;
    Some(if c == input { Cow::Borrowed(input) } else { Cow::Owned(c) })
}

/// [`canonicalize_url`] into the arena, borrowing `input` when it is already canonical.
pub fn canonical_url_in<'a: 'b, 'b>(arena: &'b Bump, input: &'a str) -> Option<&'b str> {
    if let Some(parts) = serialized_parts(input) {
        if rules_keep(&parts) {
            return Some(input);
        }
        let mut out = bumpalo::collections::String::with_capacity_in(input.len(), arena);
        write_canonical(&parts, &mut out);
        return Some(out.into_bump_str());
    }
    let c = canonicalize_url_slow(input)?;
    Some(if c == input { input } else { arena.alloc_str(&c) })
}

/// What the rules read of a parsed URL (the `url` crate's accessors).
#[derive(Debug, PartialEq, Eq)]
struct UrlParts<'u> {
    scheme: &'u str,
    username: &'u str,
    password: Option<&'u str>,
    host: &'u str,
    port: Option<u16>,
    path: &'u str,
    query: Option<&'u str>,
    fragment: Option<&'u str>,
}

/// The parts of `s` when it is its own serialization by [`is_canonical_http_url`] (http(s), no
/// userinfo, no port, a path, then `?query`, then `#fragment`): what `Url::parse(s)` would
/// give, without parsing.
fn serialized_parts(s: &str) -> Option<UrlParts<'_>> {
    if !is_canonical_http_url(s) {
        return None;
    }
    let (scheme, rest) = s.split_once("://")?;
    let slash = rest.find('/')?;
    let (host, tail) = rest.split_at(slash);
    // The serialization has no `#` before its fragment and no `?` before its query.
    let (path_query, fragment) = match tail.split_once('#') {
        Some((pq, f)) => (pq, Some(f)),
        None => (tail, None),
    };
    let (path, query) = match path_query.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (path_query, None),
    };
    Some(UrlParts { scheme, username: "", password: None, host, port: None, path, query, fragment })
}

/// True when [`write_canonical`] would write the serialization `parts` came from: rules 1
/// and 2 hold already (lowercase scheme and host, no port), and rules 3–7 change nothing.
fn rules_keep(parts: &UrlParts<'_>) -> bool {
    // Rule 7: only a single-page-app route is kept.
    if parts.fragment.is_some_and(|f| !(f.starts_with('!') || f.starts_with('/'))) {
        return false;
    }
    // Rules 3 and 6 on the path.
    let path = parts.path;
    if (path.len() > 1 && path.ends_with('/')) || !escapes_kept(path) {
        return false;
    }
    let Some(query) = parts.query else { return true };
    // Rules 4–6 on the query: no empty parameter (dropped), none tracking, escapes kept,
    // names already in order (the sort is stable).
    let mut prev: Option<&str> = None;
    for pair in query.split('&') {
        let name = param_name(pair);
        if pair.is_empty() || is_tracking(name) || !escapes_kept(pair) || prev.is_some_and(|p| p > name) {
            return false;
        }
        prev = Some(name);
    }
    true
}

/// The name of a query parameter: up to its first `=`.
fn param_name(pair: &str) -> &str {
    pair.split('=').next().unwrap_or("")
}

/// True when [`normalize_escapes`] leaves `s` as it is: no escape of an unreserved
/// character and no lowercase hex digit in an escape.
fn escapes_kept(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(p) = memchr::memchr(b'%', &b[i..]) {
        i += p;
        if i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex_val(b[i + 1]), hex_val(b[i + 2])) {
                let v = h * 16 + l;
                if is_unreserved(v) || b[i + 1].is_ascii_lowercase() || b[i + 2].is_ascii_lowercase() {
                    return false;
                }
                i += 3;
                continue;
            }
        }
        i += 1;
    }
    true
}

/// The seven rules through the `url` crate (any input).
fn canonicalize_url_slow(input: &str) -> Option<String> {
    let url = url::Url::parse(input.trim()).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    let parts = UrlParts {
        scheme: url.scheme(),
        username: url.username(),
        password: url.password(),
        host: url.host_str()?,
        port: url.port(),
        path: url.path(),
        query: url.query(),
        fragment: url.fragment(),
    };
    let mut out = String::with_capacity(input.len());
    write_canonical(&parts, &mut out);
    Some(out)
}

/// A string being written: `std` or arena.
trait Out {
    fn push_str(&mut self, s: &str);
    fn push(&mut self, c: char);
    fn as_str(&self) -> &str;
    fn truncate(&mut self, len: usize);
}

impl Out for String {
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s)
    }
    fn push(&mut self, c: char) {
        String::push(self, c)
    }
    fn as_str(&self) -> &str {
        self
    }
    fn truncate(&mut self, len: usize) {
        String::truncate(self, len)
    }
}

impl Out for bumpalo::collections::String<'_> {
    fn push_str(&mut self, s: &str) {
        bumpalo::collections::String::push_str(self, s)
    }
    fn push(&mut self, c: char) {
        bumpalo::collections::String::push(self, c)
    }
    fn as_str(&self) -> &str {
        self
    }
    fn truncate(&mut self, len: usize) {
        bumpalo::collections::String::truncate(self, len)
    }
}

/// The canonical form of the URL with these parts (rules 1 and 2 are the parser's: its scheme
/// and host are lowercase, its port is `None` when it is the default one).
fn write_canonical(p: &UrlParts<'_>, out: &mut impl Out) {
    out.push_str(p.scheme);
    out.push_str("://");
    if !p.username.is_empty() || p.password.is_some() {
        out.push_str(p.username);
        if let Some(pw) = p.password {
            out.push(':');
            out.push_str(pw);
        }
        out.push('@');
    }
    out.push_str(p.host);
    if let Some(port) = p.port {
        out.push(':');
        out.push_str(itoa_u16(port, &mut [0; 5]));
    }
    // Rules 6 and 3.
    let path_start = out.as_str().len();
    normalize_escapes(p.path, out);
    let path_len = out.as_str()[path_start..].trim_end_matches('/').len();
    out.truncate(path_start + path_len);
    if path_len == 0 {
        out.push('/');
    }
    // Rules 6, 5 and 4. Escapes never span a `&` and decode to no `&` or `=`, so normalizing
    // the whole query and then splitting it equals splitting it and normalizing each pair.
    if let Some(q) = p.query {
        let mut norm = String::with_capacity(q.len());
        normalize_escapes(q, &mut norm);
        let mut params: Vec<&str> = norm.split('&').filter(|p| !p.is_empty() && !is_tracking(param_name(p))).collect();
        params.sort_by(|a, b| param_name(a).cmp(param_name(b)));
        for (i, param) in params.iter().enumerate() {
            out.push(if i == 0 { '?' } else { '&' });
            out.push_str(param);
        }
    }
    // Rule 7.
    if let Some(f) = p.fragment {
        if f.starts_with('!') || f.starts_with('/') {
            out.push('#');
            out.push_str(f);
        }
    }
}

/// Decimal digits of `n`, in `buf`.
fn itoa_u16(mut n: u16, buf: &mut [u8; 5]) -> &str {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[i..]).unwrap_or("")
}

fn hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// RFC 3986 unreserved: `A-Z a-z 0-9 - . _ ~`.
fn is_unreserved(v: u8) -> bool {
    v.is_ascii_alphanumeric() || matches!(v, b'-' | b'.' | b'_' | b'~')
}

/// Rule 6 over one component (ASCII in, ASCII out: the WHATWG serializer percent-encodes
/// everything else).
fn normalize_escapes(s: &str, out: &mut impl Out) {
    let b = s.as_bytes();
    let mut i = 0;
    // Runs without `%` are copied as they are.
    while let Some(p) = memchr::memchr(b'%', &b[i..]) {
        out.push_str(&s[i..i + p]);
        i += p;
        if i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex_val(b[i + 1]), hex_val(b[i + 2])) {
                let v = h * 16 + l;
                if is_unreserved(v) {
                    out.push(v as char);
                } else {
                    out.push('%');
                    out.push(b[i + 1].to_ascii_uppercase() as char);
                    out.push(b[i + 2].to_ascii_uppercase() as char);
                }
                i += 3;
                continue;
            }
        }
        out.push('%');
        i += 1;
    }
    out.push_str(&s[i..]);
}

#[cfg(test)]
mod tests;
