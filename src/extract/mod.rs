//! Extraction over the model: what bulk users index and de-duplicate on, computed
//! from a parsed [`Feed`] in the same pass, without reading the input again.
//!
//! - `text`: plain text of every text value, the entry's best body and its word count;
//! - `canonical`: canonical URLs by the seven rules of docs/spec/feed-formats-and-extraction.md (URL Canonicalization);
//! - here: the entry point [`extract`], its options and results, and dedup keys.
//!
//! Results borrow from the feed where they can; new strings go to the caller's arena.

use bumpalo::Bump;

mod canonical;

pub use crate::html::text::{plain_text, text_content, word_count};
pub use canonical::{canonical_url_in, canonicalize_url, canonicalize_url_cow, TRACKING_PARAMS};

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
    /// The name written in records (`body_source`).
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
    /// The name written in records (`dedup_source`).
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
    /// Plain text of the entry's title (markup removed, whitespace collapsed).
    pub title_text: Option<&'a str>,
    /// Plain text of the entry's subtitle.
    pub subtitle_text: Option<&'a str>,
    /// Plain text of the entry's summary.
    pub summary_text: Option<&'a str>,
    /// Plain text of the entry's content.
    pub content_text: Option<&'a str>,
    /// The best body by the priority of docs/spec/feed-formats-and-extraction.md: Atom content / `content:encoded`, then
    /// Atom summary / RSS description — the first whose plain text is not empty.
    pub body_source: Option<BodySource>,
    /// Plain text of the best body.
    pub body_text: Option<&'a str>,
    /// Words in `body_text` (0 without a body); see [`word_count`].
    pub word_count: u32,
    /// The entry's page URL in canonical form ([`canonicalize_url`]: host lowercased,
    /// default port, tracking parameters and fragment dropped, query sorted).
    pub canonical_url: Option<&'a str>,
    /// A key that identifies the entry across fetches of its feed: its id, else its
    /// canonical URL, else a hash of title and date.
    pub dedup_key: Option<&'a str>,
    /// Which of those `dedup_key` is.
    pub dedup_source: Option<DedupSource>,
    /// The entry's content, hashed: [`fnv1a64`] of its title's plain text, its canonical URL
    /// (else its `page_url`) and its best body's plain text (whitespace collapsed), as 16
    /// lowercase hex digits. Stable across runs and captures while the entry is unchanged, so
    /// two captures of one `dedup_key` with different fingerprints are an edit. Computed with
    /// the dedup key.
    pub fingerprint: Option<&'a str>,
}

/// Extraction results for a feed; `entries[i]` belongs to `feed.entries[i]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeedExtraction<'a> {
    /// Plain text of the feed's title.
    pub title_text: Option<&'a str>,
    /// Plain text of the feed's subtitle.
    pub subtitle_text: Option<&'a str>,
    /// Plain text of the feed's description (RSS `description`, Atom `subtitle`).
    pub description_text: Option<&'a str>,
    /// The feed's page URL canonicalized ([`canonicalize_url`]).
    pub canonical_url: Option<&'a str>,
    /// One per entry of the feed, in order.
    pub entries: Vec<EntryExtraction<'a>>,
}

/// Computes the extraction fields of `feed` (run right after parsing; it reads only the
/// model, never the input again). New strings go to `arena`; unchanged ones are borrowed.
pub fn extract<'a: 'b, 'b>(
    feed: &Feed<'a>,
    arena: &'b Bump,
    opts: &ExtractOptions,
) -> FeedExtraction<'b> {
    let mut out = FeedExtraction::default();
    if opts.plain_text {
        out.title_text = feed.title.as_ref().and_then(|t| plain_text(arena, t));
        out.subtitle_text = feed.subtitle.as_ref().and_then(|t| plain_text(arena, t));
        out.description_text = feed.description.as_ref().and_then(|t| plain_text(arena, t));
    }
    if opts.canonical_urls {
        out.canonical_url =
            feed.page_url.or(feed.feed_url).and_then(|u| canonical_url_in(arena, u));
    }
    out.entries = feed.entries.iter().map(|e| extract_entry(e, arena, opts)).collect();
    out
}

/// Extraction for one entry (see [`extract`]).
pub fn extract_entry<'a: 'b, 'b>(
    e: &Entry<'a>,
    arena: &'b Bump,
    opts: &ExtractOptions,
) -> EntryExtraction<'b> {
    let mut x = EntryExtraction::default();
    let need_text = opts.plain_text || opts.body || opts.dedup_keys;
    let text = |t: &Option<Text<'a>>| {
        if need_text {
            t.as_ref().and_then(|t| plain_text(arena, t))
        } else {
            None
        }
    };
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
    let canonical =
        if opts.canonical_urls || opts.dedup_keys { entry_canonical_url(e, arena) } else { None };
    if opts.canonical_urls {
        x.canonical_url = canonical;
    }
    if opts.dedup_keys {
        let (key, src) = if let Some(id) = e.id {
            (id, DedupSource::Id)
        } else if let Some(u) = canonical {
            (u, DedupSource::Url)
        } else {
            (dedup_hash(arena, e, title, body), DedupSource::Hash)
        };
        x.dedup_key = Some(key);
        x.dedup_source = Some(src);
        x.fingerprint = Some(fingerprint(arena, title, canonical.or(e.page_url), body));
    }
    x
}

/// The content fingerprint (see [`EntryExtraction::fingerprint`]): FNV-1a 64 over
/// `feedmill-fingerprint-v1`, then title, link and body, each after a 0x1F separator and
/// with its whitespace collapsed (the plain texts already are; a link has none to collapse
/// but is trimmed).
fn fingerprint<'b>(
    arena: &'b Bump,
    title: Option<&str>,
    link: Option<&str>,
    body: Option<&str>,
) -> &'b str {
    let mut h = Fnv1a64::new();
    h.write(b"feedmill-fingerprint-v1");
    for part in [title, link, body] {
        h.write(b"\x1f");
        for (i, word) in part.unwrap_or("").split_whitespace().enumerate() {
            if i > 0 {
                h.write(b" ");
            }
            h.write(word.as_bytes());
        }
    }
    hex16(arena, h.finish())
}

/// `v` as 16 lowercase hex digits, in `arena`.
fn hex16(arena: &Bump, v: u64) -> &str {
    let mut s = bumpalo::collections::String::with_capacity_in(16, arena);
    use std::fmt::Write;
    let _ = write!(s, "{v:016x}");
    s.into_bump_str()
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
    let id = e.id?;
    if e.id_is_permalink == Some(false) {
        return None;
    }
    canonical_url_in(arena, id)
}

/// The stable hash key: FNV-1a 64 over `title_text \x1f date`, where date is the RFC 3339
/// form of published, else updated, else their lenient readings, else empty. When both title
/// and date are missing, the body text is hashed instead so distinct untitled, undated
/// entries do not collide.
fn dedup_hash<'b>(
    arena: &'b Bump,
    e: &Entry<'_>,
    title: Option<&str>,
    body: Option<&str>,
) -> &'b str {
    let date = e
        .published
        .or(e.updated)
        .or(e.published_lenient.map(|l| l.timestamp))
        .or(e.updated_lenient.map(|l| l.timestamp));
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
    hex16(arena, h.finish())
}

/// FNV-1a, 64-bit (offset basis 0xcbf29ce484222325, prime 0x100000001b3): a fixed,
/// keyless function of the bytes alone, so keys are identical across runs, processes,
/// platforms and versions of this crate (the input is prefixed with `feedmill-dedup-v1`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fnv1a64(u64);

impl Fnv1a64 {
    /// A hasher at the FNV-1a 64-bit offset basis.
    pub(crate) const fn new() -> Self {
        Fnv1a64(0xcbf2_9ce4_8422_2325)
    }
    /// Hashes `bytes` into the state.
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    /// The hash of everything written so far.
    pub(crate) fn finish(&self) -> u64 {
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

#[cfg(test)]
mod tests;
