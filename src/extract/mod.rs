//! Extraction over the model (issue #7 part 2): plain text of HTML values.

use std::borrow::Cow;

use bumpalo::Bump;

use crate::model::url::is_canonical_http_url;

use crate::html::{Html, NodeKind, HTML_NS};

mod masks;

/// What [`text_content`] does with an HTML element.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Content that is not text a reader sees (`script`, `style`, …): skipped.
    Hidden,
    /// Block-level elements and line breaks: they separate words.
    Break,
    /// Everything else: its text runs on.
    Inline,
}

/// The element's [`Role`]. Matched on bytes, so the compiler decides by length first.
fn role(local: &str) -> Role {
    match local.as_bytes() {
        b"script" | b"style" | b"template" | b"noscript" | b"head" | b"title" => Role::Hidden,
        b"p" | b"br" | b"div" | b"li" | b"ul" | b"ol" | b"dl" | b"dt" | b"dd" | b"h1" | b"h2" | b"h3" | b"h4"
        | b"h5" | b"h6" | b"tr" | b"td" | b"th" | b"table" | b"thead" | b"tbody" | b"tfoot" | b"caption"
        | b"blockquote" | b"pre" | b"hr" | b"section" | b"article" | b"aside" | b"header" | b"footer" | b"nav"
        | b"figure" | b"figcaption" | b"address" | b"main" | b"details" | b"summary" | b"img" | b"iframe"
        | b"video" | b"audio" | b"option" => Role::Break,
        _ => Role::Inline,
    }
}

/// Plain text of an HTML fragment for indexing: the text nodes in document order, script /
/// style / template content left out, a space between block-level elements, and every run of
/// whitespace collapsed to one space; trimmed.
///
/// The visible text is gathered first ([`Gathered`]: the text nodes joined, with a newline
/// where a block-level element begins or ends), then collapsed in one pass ([`collapse`]).
/// Both steps borrow when they can: a fragment with one text node is collapsed from the
/// fragment itself, and text that collapsing leaves as it is is not copied again, so the
/// result is either a slice of the fragment (e.g. `<p>\n  Some title\n</p>`) or one string
/// in `arena` (at most two when the joined text needs collapsing).
pub fn text_content<'a>(arena: &'a Bump, html: &Html<'a>) -> &'a str {
    let nodes = html.nodes();
    let mut text = Gathered::new(arena);
    let mut i = 0usize;
    // Ends of open "break" elements, to add a separator after them.
    let mut break_ends = EndStack::new();
    while i < nodes.len() {
        while break_ends.last().is_some_and(|e| e <= i) {
            break_ends.pop();
            text.separate();
        }
        let node = &nodes[i];
        match node.kind {
            NodeKind::Element(el) => {
                let role = role(el.local);
                if role != Role::Inline && (el.namespace == HTML_NS || el.namespace.is_empty()) {
                    text.separate();
                    if role == Role::Hidden {
                        i = node.end as usize;
                        continue;
                    }
                    break_ends.push(node.end as usize);
                }
            }
            NodeKind::Text(t) => {
                // Upper bound of what is left to gather, should the text need its own string.
                let rest = || {
                    nodes[i..].iter().map(|n| if let NodeKind::Text(t) = n.kind { t.len() + 1 } else { 0 }).sum()
                };
                text.push(t, rest)
            }
            _ => {}
        }
        i += 1;
    }
    collapse(arena, text.finish())
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

/// The visible text of a fragment, gathered node by node: the first text node borrowed, the
/// joined text from the second on in one arena string, sized once from the caller's bound.
/// A separator owed (a block boundary) is written as a newline before the next text, so that
/// collapsing turns it into a space between words and drops it at either end.
struct Gathered<'a> {
    arena: &'a Bump,
    first: Option<&'a str>,
    joined: Option<bumpalo::collections::String<'a>>,
    separator_owed: bool,
}

impl<'a> Gathered<'a> {
    fn new(arena: &'a Bump) -> Self {
        Gathered { arena, first: None, joined: None, separator_owed: false }
    }

    /// A block boundary: words on either side of it are separate.
    #[inline]
    fn separate(&mut self) {
        self.separator_owed = true;
    }

    /// Appends a text node. `rest` bounds the bytes of this and the later text nodes (asked
    /// at most once, when the joined string is created).
    #[inline]
    fn push(&mut self, t: &'a str, rest: impl FnOnce() -> usize) {
        if t.is_empty() {
            return;
        }
        let sep = std::mem::take(&mut self.separator_owed);
        if let Some(s) = &mut self.joined {
            if sep {
                s.push('\n');
            }
            s.push_str(t);
            return;
        }
        let Some(first) = self.first else {
            self.first = Some(t);
            return;
        };
        let mut s = bumpalo::collections::String::with_capacity_in(first.len() + 1 + rest(), self.arena);
        s.push_str(first);
        if sep {
            s.push('\n');
        }
        s.push_str(t);
        self.joined = Some(s);
    }

    fn finish(self) -> &'a str {
        match (self.joined, self.first) {
            (Some(s), _) => s.into_bump_str(),
            (None, Some(t)) => t,
            (None, None) => "",
        }
    }
}

/// `s` with every run of whitespace (Unicode `White_Space`) replaced by one space, and
/// trimmed. Borrowed from `s` when that is all one stretch of words separated by single
/// spaces (collapsing would only trim it); otherwise one arena string, written once.
pub(crate) fn collapse<'b>(arena: &'b Bump, s: &'b str) -> &'b str {
    let mut scan = CollapseScan::new(s);
    let mut i = scan.whitespace_end(0);
    if i == s.len() {
        return "";
    }
    let first_end = scan.run_end(i);
    let mut next = scan.whitespace_end(first_end);
    if next == s.len() {
        return &s[i..first_end];
    }
    let mut out = bumpalo::collections::String::with_capacity_in(s.len() - i, arena);
    out.push_str(&s[i..first_end]);
    while next < s.len() {
        i = next;
        let end = scan.run_end(i);
        out.push(' ');
        out.push_str(&s[i..end]);
        next = scan.whitespace_end(end);
    }
    out.into_bump_str()
}

/// The scans of whitespace collapsing over one text. Texts of at least [`Self::MIN_LEN`]
/// bytes are classified a 64-byte block at a time ([`masks::collapse_masks`]); the masks of
/// the current block are kept, so a text is classified once however many runs it has.
/// Shorter ones are scanned byte by byte. Only lead bytes that may start non-ASCII
/// whitespace are decoded ([`ws_len_at`]).
struct CollapseScan<'t> {
    t: &'t str,
    /// The current block is `t[base..base + len]` (`len < 64` only for the last block, whose
    /// masks then cover padding: tabs, i.e. whitespace). Unused for short texts.
    base: usize,
    len: usize,
    /// Bytes at which a run of words may end: whitespace other than a space, a space followed
    /// by possible whitespace, and possible non-ASCII whitespace (to be decoded).
    run_stops: u64,
    /// Bytes that are not ASCII whitespace: surely not whitespace, or possibly (`ws_lead`,
    /// to be decoded).
    maybe_word: u64,
}

impl<'t> CollapseScan<'t> {
    /// Padding after the last byte of `t`: whitespace, so the end stops a run.
    const PAD: u8 = b'\t';
    /// Shorter texts are scanned byte by byte: one block's masks cost about as much as
    /// looking at this many bytes one at a time.
    const MIN_LEN: usize = 48;

    fn new(t: &'t str) -> Self {
        CollapseScan { t, base: usize::MAX, len: 0, run_stops: 0, maybe_word: 0 }
    }

    /// Makes the block hold byte `i` (`i < t.len()`), loading the block at `i` if it does
    /// not; returns the offset of `i` in the block.
    #[inline]
    fn block_at(&mut self, i: usize) -> usize {
        if i.wrapping_sub(self.base) < self.len {
            return i - self.base;
        }
        let b = self.t.as_bytes();
        let mut scratch = [0u8; 64];
        let (block, len) = masks::block(b, i, Self::PAD, &mut scratch);
        let m = masks::collapse_masks(block);
        let may_be_ws = m.ws_ctl | m.space | m.ws_lead;
        let after = masks::byte_after(b, i, Self::PAD);
        let after_may_be_ws = matches!(after, b'\t'..=b'\r' | b' ' | 0xC2 | 0xE1..=0xE3) as u64;
        let next_may_be_ws = (may_be_ws >> 1) | (after_may_be_ws << 63);
        self.run_stops = m.ws_ctl | (m.space & next_may_be_ws) | m.ws_lead;
        self.maybe_word = !(m.ws_ctl | m.space);
        (self.base, self.len) = (i, len);
        0
    }

    /// Whether the run of words ends at byte `p` (which may start whitespace): at
    /// whitespace other than a space, and at a space followed by whitespace or the end.
    #[inline]
    fn run_stops_at(&self, p: usize) -> bool {
        let b = self.t.as_bytes();
        match b.get(p) {
            None | Some(b'\t'..=b'\r') => true,
            Some(b' ') => p + 1 == b.len() || ws_len_at(self.t, p + 1).is_some(),
            Some(0xC2 | 0xE1..=0xE3) => ws_len_at(self.t, p).is_some(),
            Some(_) => false,
        }
    }

    /// From a non-whitespace character at byte `i`: the end of the longest stretch of words
    /// separated by single ASCII spaces, i.e. of text that collapsing leaves as it is.
    #[inline]
    fn run_end(&mut self, mut i: usize) -> usize {
        let n = self.t.len();
        if n < Self::MIN_LEN {
            while i < n && !self.run_stops_at(i) {
                i += 1;
            }
            return i;
        }
        while i < n {
            let off = self.block_at(i);
            let mut candidates = self.run_stops & (!0u64 << off);
            while candidates != 0 {
                let p = self.base + candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                if self.run_stops_at(p) {
                    return p.min(n);
                }
            }
            i = self.base + self.len;
        }
        n
    }

    /// The end of the whitespace starting at byte `i` (`i` itself when none does).
    #[inline]
    fn whitespace_end(&mut self, mut i: usize) -> usize {
        let n = self.t.len();
        if n < Self::MIN_LEN {
            while let Some(len) = (i < n).then(|| ws_len_at(self.t, i)).flatten() {
                i += len;
            }
            return i;
        }
        while i < n {
            let off = self.block_at(i);
            let candidates = self.maybe_word & (!0u64 << off);
            if candidates == 0 {
                i = self.base + self.len;
                continue;
            }
            let p = self.base + candidates.trailing_zeros() as usize;
            match (p < n).then(|| ws_len_at(self.t, p)) {
                None => return n,
                Some(None) => return p,
                // Non-ASCII whitespace (it may reach into the next block).
                Some(Some(len)) => i = p + len,
            }
        }
        n
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

/// Words in `text`: maximal runs of non-whitespace characters that contain a letter or a
/// digit; in scripts written without spaces (Han, Hiragana, Katakana, Thai), every such
/// character counts as one word.
///
/// Scanned 64 bytes at a time. In a block, every byte is whitespace (`ws`), a letter or digit
/// (`alnum`), or other (`o`: punctuation, symbols, the continuation bytes of a character); a
/// non-ASCII character is decoded and entered into the masks by its first byte (whitespace:
/// all its bytes `ws`; letter or digit: its first byte `alnum`; an unspaced-script character:
/// `ws`, `alnum`, `ws`…, a word of its own). A word is counted at a letter or digit whose
/// nearest non-other byte before it is whitespace (or the start of the text): those are the
/// `alnum` bits reachable from a position after whitespace by stepping over `o` bytes only —
/// found for all 64 bytes at once by adding the run starts into `o` (the carry runs through
/// each run of `o` and sets the byte after it).
pub fn word_count(text: &str) -> u32 {
    let b = text.as_bytes();
    let mut n = 0u32;
    // The state before the next byte: no letter or digit since the last whitespace.
    let mut fresh = true;
    let mut scratch = [0u8; 64];
    let mut i = 0;
    while i < b.len() {
        let (block, len) = masks::block(b, i, b' ', &mut scratch);
        let m = masks::word_masks(block);
        let (mut ws, mut alnum) = (m.ws, m.alnum);
        // Bytes of this block counted now; a character that straddles the block's end is
        // left for the next block.
        let mut take = len;
        let mut leads = m.high & !m.cont;
        while leads != 0 {
            let j = leads.trailing_zeros() as usize;
            leads &= leads - 1;
            let (class, c_len) = char_class_at(b, i + j);
            if j + c_len > len && j > 0 {
                take = j;
                break;
            }
            let bytes = ((1u64 << c_len) - 1) << j;
            match class {
                CharClass::Whitespace => ws |= bytes,
                // At least three bytes: whitespace, then a letter, then whitespace.
                CharClass::Unspaced => {
                    ws |= bytes & !(1 << (j + 1));
                    alnum |= 1 << (j + 1);
                }
                CharClass::Alphanumeric => alnum |= 1 << j,
                CharClass::Other => {}
            }
        }
        let kept = if take == 64 { !0 } else { (1u64 << take) - 1 };
        let (ws, alnum) = (ws & kept, alnum & kept);
        let other = !(ws | alnum);
        // Positions whose state before is "fresh": right after whitespace (or at the block's
        // start when fresh), and, through runs of `other`, the byte after such a run.
        let after_ws = (ws << 1) | fresh as u64;
        let reach = after_ws | (other.wrapping_add(after_ws & other) ^ other);
        n += (alnum & reach).count_ones();
        fresh = (ws | (other & reach)) >> 63 != 0;
        i += take;
    }
    n
}

/// How [`word_count`] treats a character (checked in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum CharClass {
    /// `char::is_whitespace`.
    Whitespace,
    /// [`is_unspaced_script`]: a word of its own.
    Unspaced,
    /// `char::is_alphanumeric`.
    Alphanumeric,
    Other,
}

impl CharClass {
    fn of(c: char) -> CharClass {
        if c.is_whitespace() {
            CharClass::Whitespace
        } else if is_unspaced_script(c) {
            CharClass::Unspaced
        } else if c.is_alphanumeric() {
            CharClass::Alphanumeric
        } else {
            CharClass::Other
        }
    }
}

/// [`CharClass::of`] a character of the Basic Multilingual Plane, from a table computed
/// from the `char` methods themselves (so it cannot disagree with them), one 256-character
/// page at a time on first use (a text touches few pages).
#[inline]
fn bmp_class(cp: u32) -> CharClass {
    use std::sync::OnceLock;
    static PAGES: [OnceLock<[CharClass; 256]>; 256] = [const { OnceLock::new() }; 256];
    let page = PAGES[(cp >> 8) as usize & 0xFF].get_or_init(|| {
        std::array::from_fn(|k| {
            // Surrogate code points are no characters; they never occur in a `str`.
            char::from_u32((cp & 0xFF00) | k as u32).map_or(CharClass::Other, CharClass::of)
        })
    });
    page[cp as usize & 0xFF]
}

/// The class and UTF-8 length of the character whose lead byte (`>= 0xC0`) is `b[i]`; `b`
/// is valid UTF-8. Characters of the BMP are looked up ([`bmp_class`]).
#[inline]
fn char_class_at(b: &[u8], i: usize) -> (CharClass, usize) {
    let cont = |k: usize| (b.get(i + k).copied().unwrap_or(0x80) & 0x3F) as u32;
    let lead = b[i] as u32;
    if lead < 0xE0 {
        (bmp_class(((lead & 0x1F) << 6) | cont(1)), 2)
    } else if lead < 0xF0 {
        (bmp_class(((lead & 0x0F) << 12) | (cont(1) << 6) | cont(2)), 3)
    } else {
        let cp = ((lead & 0x07) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3);
        (char::from_u32(cp).map_or(CharClass::Other, CharClass::of), 4)
    }
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
