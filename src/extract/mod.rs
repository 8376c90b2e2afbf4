//! Extraction over the model (issue #7 part 2): plain text of HTML values.

use bumpalo::Bump;

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
/// whitespace collapsed to one space; trimmed. Allocates in `arena` (one string).
pub fn text_content<'a>(arena: &'a Bump, html: &Html<'a>) -> &'a str {
    let nodes = html.nodes();
    let mut out = bumpalo::collections::String::new_in(arena);
    let mut pending_space = false;
    let mut i = 0usize;
    // Ends of open "break" elements, to add a separator after them.
    let mut break_ends: Vec<usize> = Vec::new();
    while i < nodes.len() {
        while break_ends.last().is_some_and(|&e| e <= i) {
            break_ends.pop();
            pending_space = true;
        }
        let node = &nodes[i];
        match node.kind {
            NodeKind::Element(el) => {
                let html_el = el.namespace == HTML_NS || el.namespace.is_empty();
                if html_el && is_hidden(el.local) {
                    i = node.end as usize;
                    pending_space = true;
                    continue;
                }
                if html_el && is_break(el.local) {
                    pending_space = true;
                    break_ends.push(node.end as usize);
                }
            }
            NodeKind::Text(t) => push_collapsed(&mut out, t, &mut pending_space),
            _ => {}
        }
        i += 1;
    }
    out.into_bump_str()
}

/// Appends `t` with whitespace runs collapsed; `pending_space` carries a separator owed
/// from before (written only between two words). Whitespace is Unicode `White_Space`.
pub(crate) fn push_collapsed(out: &mut bumpalo::collections::String<'_>, t: &str, pending_space: &mut bool) {
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let ws_start = i;
        while i < b.len() {
            match ws_len_at(t, i) {
                Some(len) => i += len,
                None => break,
            }
        }
        if i > ws_start {
            *pending_space = true;
        }
        let w0 = i;
        while i < b.len() && ws_len_at(t, i).is_none() {
            i += 1;
        }
        if i > w0 {
            if *pending_space && !out.is_empty() {
                out.push(' ');
            }
            *pending_space = false;
            out.push_str(&t[w0..i]);
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
    // Already collapsed (one pass): no whitespace other than single inner spaces.
    let b = s.as_bytes();
    let mut clean = b.first() != Some(&b' ') && b.last() != Some(&b' ');
    let mut prev_space = false;
    let mut i = 0;
    while clean && i < b.len() {
        if b[i] == b' ' {
            clean = !prev_space;
            prev_space = true;
        } else {
            prev_space = false;
            if ws_len_at(s, i).is_some() {
                clean = false;
            }
        }
        i += 1;
    }
    if clean {
        return s;
    }
    let mut out = bumpalo::collections::String::with_capacity_in(s.len(), arena);
    let mut pending = false;
    push_collapsed(&mut out, s, &mut pending);
    out.into_bump_str()
}

/// Words in `text`: maximal runs of non-whitespace characters that contain a letter or a
/// digit; in scripts written without spaces (Han, Hiragana, Katakana, Thai), every such
/// character counts as one word.
pub fn word_count(text: &str) -> u32 {
    let mut n = 0u32;
    let mut in_word = false;
    let mut word_has_alnum = false;
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let byte = b[i];
        // ASCII fast path.
        let (is_ws, is_alnum, unspaced, len) = if byte < 0x80 {
            (matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C), byte.is_ascii_alphanumeric(), false, 1)
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            (c.is_whitespace(), c.is_alphanumeric(), is_unspaced_script(c), c.len_utf8())
        };
        i += len;
        if is_ws || unspaced {
            if in_word && word_has_alnum {
                n += 1;
            }
            in_word = false;
            word_has_alnum = false;
            if unspaced {
                n += 1;
            }
        } else {
            in_word = true;
            word_has_alnum |= is_alnum;
        }
    }
    if in_word && word_has_alnum {
        n += 1;
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
    let url = url::Url::parse(input.trim()).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    let mut out = String::with_capacity(input.len());
    out.push_str(url.scheme());
    out.push_str("://");
    if !url.username().is_empty() || url.password().is_some() {
        out.push_str(url.username());
        if let Some(p) = url.password() {
            out.push(':');
            out.push_str(p);
        }
        out.push('@');
    }
    out.push_str(url.host_str()?);
    if let Some(port) = url.port() {
        use std::fmt::Write;
        let _ = write!(out, ":{port}");
    }
    let mut path = String::with_capacity(url.path().len());
    normalize_escapes(url.path(), &mut path);
    let trimmed = path.trim_end_matches('/');
    out.push_str(if trimmed.is_empty() { "/" } else { trimmed });
    if let Some(q) = url.query() {
        let mut params: Vec<String> = Vec::new();
        for pair in q.split('&').filter(|p| !p.is_empty()) {
            let mut norm = String::with_capacity(pair.len());
            normalize_escapes(pair, &mut norm);
            let key = norm.split('=').next().unwrap_or("");
            if !is_tracking(key) {
                params.push(norm);
            }
        }
        params.sort_by(|a, b| a.split('=').next().cmp(&b.split('=').next()));
        if !params.is_empty() {
            out.push('?');
            out.push_str(&params.join("&"));
        }
    }
    if let Some(f) = url.fragment() {
        if f.starts_with('!') || f.starts_with('/') {
            out.push('#');
            out.push_str(f);
        }
    }
    Some(out)
}

/// [`canonicalize_url`] into the arena, borrowing `input` when it is already canonical.
pub fn canonical_url_in<'a: 'b, 'b>(arena: &'b Bump, input: &'a str) -> Option<&'b str> {
    let c = canonicalize_url(input)?;
    if c == input {
        Some(input)
    } else {
        Some(arena.alloc_str(&c))
    }
}

fn hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Rule 6 over one component (ASCII in, ASCII out: the WHATWG serializer percent-encodes
/// everything else).
fn normalize_escapes(s: &str, out: &mut String) {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex_val(b[i + 1]), hex_val(b[i + 2])) {
                let v = h * 16 + l;
                if v.is_ascii_alphanumeric() || matches!(v, b'-' | b'.' | b'_' | b'~') {
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
        // Push the whole char (input is normally ASCII, but be safe on UTF-8).
        let ch = s[i..].chars().next().unwrap();
        out.push(ch);
        i += ch.len_utf8();
    }
}
