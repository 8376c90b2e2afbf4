//! Extraction over the model: what bulk users index and de-duplicate on, computed
//! from a parsed [`Feed`] in the same pass, without reading the input again.
//!
//! - `text`: plain text of every text value, the entry's best body and its word count;
//! - `canonical`: canonical URLs by the seven rules of docs/spec/feed-formats-and-extraction.md (URL Canonicalization);
//! - `authors`: `authors_normalized` (names trimmed, addresses split out, repeats dropped);
//! - `title`: `title_text` for every entry (the body's first sentence or line when the title is missing);
//! - `image`: one image per entry (thumbnail, Media RSS, enclosure, the body's first `<img>`);
//! - `categories`: `categories_normalized` (case-folded, NFKC, hierarchies split);
//! - `dates`: `date_flags` (`future`, `zone_assumed`, `lenient`, `before_1995`);
//! - `source`: [`Source`], where every picked value came from (the `*_source` keys);
//! - here: the entry point [`extract`], its options and results, and dedup keys.
//!
//! Results borrow from the feed where they can; new strings go to the caller's arena.

use bumpalo::Bump;

mod authors;
mod canonical;
mod categories;
mod dates;
mod image;
mod source;
mod title;
mod unique;

pub use crate::html::text::{plain_text, text_content, word_count};
pub use canonical::{canonical_url_in, canonicalize_url, canonicalize_url_cow, TRACKING_PARAMS};
pub use categories::PATHS_GROWTH;
pub use dates::{DATE_FLAGS, FUTURE_SLACK_SECONDS, SYNDICATION_EPOCH};
pub use image::PIXEL_HOSTS;
pub use source::Source;
pub use title::TITLE_FROM_BODY_MAX_CHARS;

use crate::model::{Entry, Feed, Person, Text, Timestamp};

/// What [`extract`] computes. Everything is on by default; turn off what you don't need.
#[derive(Clone, Debug)]
pub struct ExtractOptions {
    /// Plain text of every text construct (`*_text` fields) and the persons'
    /// `authors_normalized`.
    pub plain_text: bool,
    /// The entry's best body, its plain text and its word count.
    pub body: bool,
    /// `canonical_url` for the feed and each entry.
    pub canonical_urls: bool,
    /// `dedup_key` for each entry.
    pub dedup_keys: bool,
    /// `title_text` made from the body for an entry without a title (`title_source`).
    pub title_fallback: bool,
    /// `image_url` (with `image_source`, `image_width`, `image_height`) for each entry.
    pub images: bool,
    /// `categories_normalized` for the feed and each entry.
    pub categories: bool,
    /// `date_flags` for each entry.
    pub date_flags: bool,
    /// The instant `future` dates are compared with when the record has no capture date of
    /// its own; `None` (the default): the current time, read once per [`extract`] call.
    pub as_of: Option<Timestamp>,
    /// Most bytes resolving relative body `<img>` URLs (`images`) may add to one feed's
    /// extraction: a long base URL repeated in every entry would otherwise multiply the
    /// output. Past it a relative `src` is not used, and an entry whose only image it was
    /// gets none. Default: [`crate::Limits::max_url_growth`]'s (the CLI sets both from
    /// `--max-url-growth`).
    pub max_url_growth: usize,
}

impl Default for ExtractOptions {
    fn default() -> Self {
        ExtractOptions {
            plain_text: true,
            body: true,
            canonical_urls: true,
            dedup_keys: true,
            title_fallback: true,
            images: true,
            categories: true,
            date_flags: true,
            as_of: None,
            max_url_growth: crate::Limits::default().max_url_growth,
        }
    }
}

/// Extraction results for one entry. Borrowed from the feed or the caller's arena.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntryExtraction<'a> {
    /// Plain text of the entry's title (markup removed, whitespace collapsed); without a
    /// title, a headline from the best body (its first sentence or line, within
    /// [`TITLE_FROM_BODY_MAX_CHARS`] characters) when [`ExtractOptions::title_fallback`].
    pub title_text: Option<&'a str>,
    /// Which of those `title_text` is.
    pub title_source: Option<Source>,
    /// Plain text of the entry's subtitle.
    pub subtitle_text: Option<&'a str>,
    /// The entry's own `authors` with names trimmed and whitespace collapsed, an address
    /// written inside a name (`jo@example.com (Jo)`, `Jo <jo@example.com>`) moved to `email`,
    /// `mailto:` removed, and empty or repeated persons dropped (the spec's `authors` are
    /// kept as written).
    pub authors_normalized: &'a [Person<'a>],
    /// Plain text of the entry's summary.
    pub summary_text: Option<&'a str>,
    /// Plain text of the entry's content.
    pub content_text: Option<&'a str>,
    /// The best body by the priority of docs/spec/feed-formats-and-extraction.md: Atom content / `content:encoded`, then
    /// Atom summary / RSS description — the first whose plain text is not empty.
    pub body_source: Option<Source>,
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
    pub dedup_source: Option<Source>,
    /// The entry's content, hashed: [`fnv1a64`] of its title's plain text, its canonical URL
    /// (else its `page_url`) and its best body's plain text (whitespace collapsed), as 16
    /// lowercase hex digits. Stable across runs and captures while the entry is unchanged, so
    /// two captures of one `dedup_key` with different fingerprints are an edit. Computed with
    /// the dedup key.
    pub fingerprint: Option<&'a str>,
    /// The entry's image: its thumbnail, else a Media RSS image, else an image enclosure,
    /// else the first `<img>` of its body that is not a tracking pixel (at most 1×1, or on a
    /// [`PIXEL_HOSTS`] host), resolved against the document's URL (else the entry's page).
    pub image_url: Option<&'a str>,
    /// Which of those `image_url` is.
    pub image_source: Option<Source>,
    /// The image's width in pixels, when the feed (or the `<img>`) states it.
    pub image_width: Option<u64>,
    /// The image's height in pixels, when stated.
    pub image_height: Option<u64>,
    /// The entry's category terms (the terms and labels of `category_details`, in document
    /// order, then `categories`), normalized (trimmed, NFKC, case-folded) with
    /// `/` hierarchies split into their paths, unique, in first-seen order.
    pub categories_normalized: &'a [&'a str],
    /// The names of the date flags set (a subset of [`DATE_FLAGS`], in that order).
    pub date_flags: &'static [&'static str],
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
    /// The feed's `authors`, normalized as [`EntryExtraction::authors_normalized`].
    pub authors_normalized: &'a [Person<'a>],
    /// The feed's page URL canonicalized ([`canonicalize_url`]).
    pub canonical_url: Option<&'a str>,
    /// The feed's own category terms and labels and its iTunes categories (`Category` and
    /// `Category/Subcategory`), normalized as [`EntryExtraction::categories_normalized`].
    pub categories_normalized: &'a [&'a str],
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
    extract_with(feed, arena, opts, None, None)
}

/// [`extract`] for a document read from `base_url` (relative `<img>` URLs of bodies are
/// resolved against it) and captured at `captured` (the reference instant of `future` dates,
/// before [`ExtractOptions::as_of`] and the current time).
pub fn extract_with<'a: 'b, 'b>(
    feed: &Feed<'a>,
    arena: &'b Bump,
    opts: &ExtractOptions,
    base_url: Option<&str>,
    captured: Option<Timestamp>,
) -> FeedExtraction<'b> {
    let mut out = FeedExtraction::default();
    if opts.plain_text {
        out.title_text = feed.title.as_ref().and_then(|t| plain_text(arena, t));
        out.subtitle_text = feed.subtitle.as_ref().and_then(|t| plain_text(arena, t));
        out.description_text = feed.description.as_ref().and_then(|t| plain_text(arena, t));
        out.authors_normalized = authors::normalized(arena, &feed.authors);
    }
    if opts.canonical_urls {
        out.canonical_url =
            feed.page_url.or(feed.feed_url).and_then(|u| canonical_url_in(arena, u));
    }
    if opts.categories {
        let mut cats = categories::Normalized::new(arena);
        for c in &feed.category_details {
            categories::push_normalized(arena, &mut cats, c.term);
            if let Some(l) = c.label {
                categories::push_normalized(arena, &mut cats, l);
            }
        }
        for c in &feed.itunes.categories {
            categories::push_normalized(arena, &mut cats, c.text);
            for sub in &c.subcategories {
                let mut path = bumpalo::collections::String::new_in(arena);
                path.push_str(c.text);
                path.push('/');
                path.push_str(sub);
                categories::push_normalized(arena, &mut cats, &path);
            }
        }
        out.categories_normalized = cats.finish();
    }
    let mut cx = EntryContext {
        base: base_url.and_then(|u| url::Url::parse(u).ok()),
        reference: if opts.date_flags {
            captured
                .or(opts.as_of)
                .or_else(|| Timestamp::from_system_time(std::time::SystemTime::now()))
        } else {
            None
        },
        image_growth_left: opts.max_url_growth,
    };
    out.entries = feed.entries.iter().map(|e| entry_with(e, arena, opts, &mut cx)).collect();
    out
}

/// What the entries of one feed share: the document's URL, the reference instant, and the
/// bytes resolving body images may still add ([`ExtractOptions::max_url_growth`]).
struct EntryContext {
    base: Option<url::Url>,
    reference: Option<Timestamp>,
    image_growth_left: usize,
}

/// Extraction for one entry (see [`extract`]).
pub fn extract_entry<'a: 'b, 'b>(
    e: &Entry<'a>,
    arena: &'b Bump,
    opts: &ExtractOptions,
) -> EntryExtraction<'b> {
    let reference = opts
        .as_of
        .or_else(|| Timestamp::from_system_time(std::time::SystemTime::now()))
        .filter(|_| opts.date_flags);
    let mut cx = EntryContext { base: None, reference, image_growth_left: opts.max_url_growth };
    entry_with(e, arena, opts, &mut cx)
}

fn entry_with<'a: 'b, 'b>(
    e: &Entry<'a>,
    arena: &'b Bump,
    opts: &ExtractOptions,
    cx: &mut EntryContext,
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
        x.title_source = title.map(|_| Source::Title);
        x.subtitle_text = text(&e.subtitle);
        x.authors_normalized = authors::normalized(arena, &e.authors);
        x.summary_text = summary;
        x.content_text = content;
    }
    let (source, body) = match (content, summary) {
        (Some(c), _) => (Some(Source::Content), Some(c)),
        (None, Some(s)) => (Some(Source::Summary), Some(s)),
        (None, None) => (None, None),
    };
    if opts.body {
        x.body_source = source;
        x.body_text = body;
        x.word_count = body.map_or(0, word_count);
    }
    if opts.plain_text && opts.title_fallback && title.is_none() {
        let best = if content.is_some() { e.content.as_ref() } else { e.summary.as_ref() };
        if let Some(t) = best.filter(|_| body.is_some()) {
            x.title_text = title::title_from_body(arena, t);
            x.title_source = x.title_text.map(|_| Source::Body);
        }
    }
    if opts.images {
        if let Some(found) =
            image::entry_image(e, arena, cx.base.as_ref(), &mut cx.image_growth_left)
        {
            x.image_url = Some(found.url);
            x.image_source = Some(found.source);
            x.image_width = found.width;
            x.image_height = found.height;
        }
    }
    if opts.categories && !(e.categories.is_empty() && e.category_details.is_empty()) {
        let mut cats = categories::Normalized::new(arena);
        // `category_details` is in document order with labels; `categories` adds JSON Feed
        // tags and any term recovery filled in.
        for c in &e.category_details {
            categories::push_normalized(arena, &mut cats, c.term);
            if let Some(l) = c.label {
                categories::push_normalized(arena, &mut cats, l);
            }
        }
        for c in &e.categories {
            categories::push_normalized(arena, &mut cats, c);
        }
        x.categories_normalized = cats.finish();
    }
    if let Some(reference) = cx.reference {
        x.date_flags = dates::flag_names(dates::date_flags(e, reference));
    }
    let canonical =
        if opts.canonical_urls || opts.dedup_keys { entry_canonical_url(e, arena) } else { None };
    if opts.canonical_urls {
        x.canonical_url = canonical;
    }
    if opts.dedup_keys {
        let (key, src) = if let Some(id) = e.id {
            (id, Source::Id)
        } else if let Some(u) = canonical {
            (u, Source::Url)
        } else {
            (dedup_hash(arena, e, title, body), Source::Hash)
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
    for (part, collapsed) in [(title, true), (link, false), (body, true)] {
        h.write(b"\x1f");
        let part = part.unwrap_or("");
        if collapsed {
            // Plain texts are collapsed already (`plain_text`: runs of Unicode `White_Space`,
            // the set `split_whitespace` splits on, made one space, trimmed), so their words
            // joined by one space are the text itself: hashed in one pass.
            debug_assert!(part.split_whitespace().collect::<Vec<_>>().join(" ") == part);
            h.write(part.as_bytes());
            continue;
        }
        for (i, word) in part.split_whitespace().enumerate() {
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
