//! The spec's data model ("Data model" section of the Feed processing spec).
//!
//! Owns: [`Feed`], [`Entry`], [`Person`], [`Image`], [`Enclosure`], [`Text`]; the HTML/XHTML
//! values of a [`Text`] are [`fragment`]'s node trees. One model serves borrowed and owned
//! use: [`crate::OwnedParsed`] keeps a parse's [`Feed`] together with the document and arena
//! it borrows.
//!
//! Invariants:
//! - Every `&'a str` points either into the input document or into the per-parse
//!   [`bumpalo::Bump`] arena; both outlive `'a` (in an [`crate::OwnedParsed`], both live in it).
//! - Single-valued fields follow the spec's "first non-null wins": once set, a later element
//!   never overwrites them (the format state machines enforce this).
//! - URLs are already resolved and serialized by the WHATWG URL parser (`model::url`).
//! - Dates are instants with their original fractional-second digits (see [`date`]).
//! - `Entry::categories` is a set: no duplicates, first-seen order kept for determinism.

mod access;
pub mod date;
pub mod ext;
pub mod fragment;
pub mod lenient_date;
internal! {
    url;
}

pub use date::Timestamp;
use ext::{
    Category, Cloud, Extension, Generator, ImageInfo, InReplyTo, ItunesEntry, ItunesFeed, Link,
    MediaEntry, PodcastEntry, PodcastFeed, Source, Syndication, TextInput,
};
use fragment::Html;
use lenient_date::LenientDate;

/// A text construct value: the spec's "null, a string, or a Node" minus null
/// (null is `Option::None` on the field).
#[derive(Clone, Debug, PartialEq)]
pub enum Text<'a> {
    /// A plain string (a text node's data, or a string element's child text content).
    Plain(&'a str),
    /// A sanitized HTML fragment (the spec's `Node`).
    Html(Html<'a>),
}

impl<'a> Text<'a> {
    /// The spec's "same text content": two strings that are equal, or two Nodes that are
    /// DOM-equal (`isEqualNode`). A string never equals a Node.
    pub fn same_text_content(&self, other: &Text<'_>) -> bool {
        match (self, other) {
            (Text::Plain(a), Text::Plain(b)) => a == b,
            (Text::Html(a), Text::Html(b)) => a.is_equal_node(b),
            _ => false,
        }
    }

    /// The plain string, if this is one.
    pub fn as_plain(&self) -> Option<&'a str> {
        match self {
            Text::Plain(s) => Some(s),
            Text::Html(_) => None,
        }
    }
}

/// An image (icon, logo, thumbnail, person icon) \[160\]. JSONL: `{url, width, height}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Image<'a> {
    /// The image's URL, resolved against the document's base URL (the response URL or the
    /// caller's `base_url`) and serialized by the WHATWG URL parser; with no base URL, against
    /// the `xml:base` in scope (recovery rule `xml_base`), else kept as written when relative
    /// (`relative_url`). Every image the parsers build has one; `None` only in a hand-built value.
    pub url: Option<&'a str>,
    /// Width in pixels: the `width` attribute of the element the image came from
    /// (`media:thumbnail`, `itunes:image`, `gd:image`), read as its leading ASCII digits
    /// (`"120px"` → 120). `None` when absent or not a number, and always for images read
    /// from a URL element's text (Atom `icon`/`logo`, RSS `image/url`, `hatena:imageurl`).
    pub width: Option<u64>,
    /// Height in pixels, read as [`Image::width`] from the `height` attribute.
    pub height: Option<u64>,
    /// The relation the element states, as written (trimmed): `gd:image@rel` of a person's
    /// icon (Google Data: `http://schemas.google.com/g/2005#thumbnail`). `None` otherwise.
    pub rel: Option<&'a str>,
}

/// A person (author, contributor) \[29\]. The harness names the spec's `icon` "logo".
/// JSONL: `{name, email, page_url, icon}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Person<'a> {
    /// The person's name: Atom `name` child (a string element \[60\], text as written, not
    /// trimmed); RSS 2.0 `author`/`managingEditor` text, or the part between `(` and `)` of
    /// the mailbox form `email (name)` \[157\]; the text of `dc:creator` or `itunes:author`;
    /// JSON Feed author `name`. `None` when the Atom person has no non-blank `name`.
    pub name: Option<&'a str>,
    /// The person's email address as written: Atom `email` child; the part before the first
    /// space of an RSS 2.0 mailbox `email (name)` \[159\]. Never validated. `None` otherwise.
    pub email: Option<&'a str>,
    /// The person's home page: Atom `uri` child (a URL element, resolved against the base
    /// URL); JSON Feed author `url`. `None` when absent, empty or unparsable.
    pub page_url: Option<&'a str>,
    /// The person's picture: `gd:image@src` in an Atom person (with its `width`/`height`);
    /// JSON Feed author `avatar`. JSONL key `icon`.
    pub icon: Option<Image<'a>>,
}

/// An enclosure \[188\]: a file attached to an entry (podcast audio, image, video).
/// `mime_type` is the attribute value as written (may be empty, may not parse \[190\]).
/// JSONL: `{url, type, length, title, duration, source}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Enclosure<'a> {
    /// The file's URL, resolved against the base URL: RSS `enclosure@url` \[195\],
    /// `media:content@url` \[369\] (RSS 2.0 items; Atom entries inside `media:group`
    /// \[163\]), Atom `link rel="enclosure"` `href`, JSON Feed attachment `url`. Every
    /// enclosure the parsers build has one (an element whose URL is missing, empty or does
    /// not parse gives no enclosure).
    pub url: Option<&'a str>,
    /// The MIME type as written, untrimmed and unvalidated: the `type` attribute
    /// \[284\]\[370\]\[165\], JSON Feed `mime_type`. `None` when absent. JSONL key `type`.
    pub mime_type: Option<&'a str>,
    /// Size in bytes: RSS `enclosure@length` read by the HTML non-negative integer rules and
    /// kept only when greater than zero \[287\]-\[289\]; Atom enclosure link `length`
    /// (leading digits); JSON Feed `size_in_bytes`. `None` when absent or unreadable, and for
    /// `media:content` unless the `media_file_size` recovery rule reads its `fileSize`.
    pub length: Option<u64>,
    /// The file's title (beyond the spec's model): JSON Feed attachment `title`, as written.
    pub title: Option<&'a str>,
    /// Playing time in seconds (beyond the spec's model): JSON Feed attachment
    /// `duration_in_seconds` (a fraction is cut).
    pub duration: Option<u64>,
    /// Where the enclosure came from (beyond the spec's model): `enclosure` (RSS
    /// `enclosure`), `media` (`media:content`), `link` (Atom `link rel="enclosure"`),
    /// `attachment` (JSON Feed). The parsers always set it. With the recovery rules on, an RSS
    /// enclosure (or Atom enclosure link) and a `media:content` of the same URL are merged
    /// into one (`enclosure_merged`): the source named is the kept one's.
    pub source: Option<&'static str>,
}

/// An entry (Atom `entry`, RSS `item`, JSON Feed item) \[28\]\[88\]\[227\], after the
/// spec's entry cleanup \[262\] (the XML formats; JSON Feed items are taken as they are).
/// Every field is `None`/empty when the document has no value for it; single values are the
/// first non-null one in document order.
///
/// Web recovery rules (on unless [`crate::Options::spec_exact`]) may fill a field the
/// spec's steps left null; each such value comes with a `recovered` diagnostic naming the
/// rule (README, "Web recovery rules").
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Entry<'a> {
    /// The entry's title: Atom `title` (an Atom text construct \[50\]: plain, or sanitized
    /// HTML for `type="html"`/`"xhtml"`, plain again when the HTML is one text node
    /// \[339\]), Atom 0.3 `title` \[153\], RSS `title` (a string
    /// element \[60\]), `media:title` in an Atom entry's `media:group` \[116\], JSON Feed
    /// `title`. Plain text is kept as written (not trimmed).
    pub title: Option<Text<'a>>,
    /// A short subtitle: the first of `itunes:subtitle` and `itunes:summary` (RSS 2.0 items,
    /// string elements; the spec's table reads both into the subtitle). Cleared when it has
    /// the same text content as the title \[265\].
    pub subtitle: Option<Text<'a>>,
    /// The entry's summary: Atom `summary` (text construct), Atom 0.3 `summary`, RSS
    /// `description` (escaped HTML \[178\]: parsed as an HTML fragment and sanitized, or
    /// plain when it holds text only), `media:description` in an Atom entry's `media:group`
    /// (plain), JSON Feed `summary`. Cleared when it has the same text content as the title
    /// \[266\].
    pub summary: Option<Text<'a>>,
    /// The entry's full content: Atom `content` (text construct; `src` and other MIME types
    /// are not read \[102\]), Atom 0.3 `content`, `content:encoded` (escaped HTML
    /// \[178\]), JSON Feed `content_html` (parsed as escaped HTML) else `content_text`.
    /// Cleared when it has the same text content as the summary \[291\].
    pub content: Option<Text<'a>>,
    /// The language of [`Entry::content`] (Atom): the `xml:lang` in scope on the `content`
    /// element (its own, else the entry's), as written, when it is not the feed's
    /// [`Feed::language`] (compared ignoring ASCII case); `None` otherwise (the feed's
    /// language applies).
    pub content_language: Option<&'a str>,
    /// The entry's web page: RSS `link` (a URL element: the text resolved against the base
    /// URL), Atom `link` with `rel="alternate"` or no `rel` (its `href`), JSON Feed `url`.
    /// Resolved against the document's base URL; with none, against the `xml:base` in scope
    /// (recovery rule `xml_base`), else a relative URL is kept as written (`relative_url`;
    /// `spec_exact`: dropped, with a diagnostic). Set back to `None` when an enclosure has the
    /// same URL \[263\].
    pub page_url: Option<&'a str>,
    /// The entry's picture: `media:thumbnail@url` (with `width`/`height`), `itunes:image@href`,
    /// `hatena:imageurl` (RSS 1.0), JSON Feed `image`. When the entry has a page URL and no
    /// thumbnail, cleanup moves the first image enclosure (type `image/*`, or no type and a
    /// `.jpeg`/`.jpg`/`.png` URL) here \[332\]-\[335\]. JSONL `{url, width, height}`.
    pub thumbnail: Option<Image<'a>>,
    /// Duration in seconds (`itunes:duration`): `S`, `M:S` or `H:M:S`, ASCII digits only,
    /// no range checks (`1:75` is 135) \[212\]-\[257\]. `None` for any other form (`1.5`,
    /// `" 53"`).
    pub duration: Option<u64>,
    /// When the entry was first published: Atom `published` (RFC 3339), Atom/Atom 0.3
    /// `created` (W3C-DTF), JSON Feed `date_published`; an instant in UTC with its original
    /// fractional digits (JSONL: RFC 3339 `...Z`). RSS `pubDate` is *not* here: the spec's
    /// tests read it into [`Entry::updated`]. `None` when absent or unparsable (see
    /// [`Entry::published_lenient`]).
    pub published: Option<Timestamp>,
    /// When the entry was last updated: Atom `updated` (RFC 3339, also `atom:updated` in RSS
    /// 2.0), Atom/Atom 0.3 `modified` (W3C-DTF), RSS 2.0 item `pubDate` (RFC 822), RSS 1.0
    /// `dc:date` (W3C-DTF), JSON Feed `date_modified`; UTC. `None` when absent or unparsable
    /// (see [`Entry::updated_lenient`]; [`Entry::date`] picks the best available date).
    pub updated: Option<Timestamp>,
    /// The entry's own authors, in document order: Atom `author` persons \[24\]; RSS 2.0
    /// `author` \[355\] (mailbox form split into email and name); `dc:creator` and
    /// `itunes:author` as name-only persons, skipped when an author of that name exists
    /// \[119\]; JSON Feed `authors` (1.0: `author`). Empty when none; see
    /// [`Feed::computed_authors`] for the feed-level fallback.
    pub authors: Vec<Person<'a>>,
    /// The entry's category terms, a set: unique, in first-seen order, never empty strings.
    /// Atom `category@term` \[30\], RSS `category` text \[92\], `dc:subject` \[90\]\[294\],
    /// JSON Feed `tags`. Terms are kept as written (not trimmed); schemes and labels are in
    /// [`Entry::category_details`].
    pub categories: Vec<&'a str>,
    /// The entry's attached files, in document order: RSS `enclosure` \[279\],
    /// `media:content` \[292\]\[123\], Atom `link rel="enclosure"`, JSON Feed
    /// `attachments`. Cleanup may move the first image enclosure to
    /// [`Entry::thumbnail`] \[335\].
    pub enclosures: Vec<Enclosure<'a>>,
    // Beyond the spec's model (never consulted by the spec's steps).
    /// Atom `id`; RSS `guid`; RSS 1.0 item `rdf:about`; JSON Feed `id` (a number coerced to
    /// its text). XML values trimmed; never invented (`None` when the entry has none).
    pub id: Option<&'a str>,
    /// RSS `guid@isPermaLink` (absent → true, per RSS 2.0); `None` when the id is not a guid.
    pub id_is_permalink: Option<bool>,
    /// RSS `comments` (resolved URL).
    pub comments: Option<&'a str>,
    /// Where the entry was republished from: RSS `source`, Atom `source` (the first one
    /// with a title or URL).
    pub source: Option<Source<'a>>,
    /// Entry categories with scheme/label (RSS `category`, Atom `category`, `dc:subject`);
    /// the spec's `categories` set of terms is unchanged. JSONL key `category_details`.
    pub category_details: Vec<Category<'a>>,
    /// Atom entry `contributor`s.
    pub contributors: Vec<Person<'a>>,
    /// Item-level iTunes podcast fields (RSS 2.0 items; empty otherwise).
    pub itunes: ItunesEntry<'a>,
    /// Podcast namespace fields; boxed (allocated only when the item has one) to keep
    /// `Entry` small.
    pub podcast: Option<Box<PodcastEntry<'a>>>,
    /// Lenient reading for `published` (see [`Feed::updated_lenient`]); in the arena.
    pub published_lenient: Option<&'a LenientDate>,
    /// Lenient reading for `updated`; in the arena.
    pub updated_lenient: Option<&'a LenientDate>,
    /// The text `published` (else `published_lenient`) was read from, as written, when it is
    /// not the RFC 3339 form of the value in the offset it was written in (an RFC 822 date,
    /// `+0100`, a date without a time, …; see [`date::as_written`]); `None` when
    /// [`Timestamp::write_rfc3339_local`] gives the text back.
    pub published_raw: Option<&'a str>,
    /// The text `updated` (else `updated_lenient`) was read from, as
    /// [`Entry::published_raw`].
    pub updated_raw: Option<&'a str>,
    /// `slash:comments`: the number of comments.
    pub comment_count: Option<u64>,
    /// `wfw:commentRss`: the entry's comment feed (resolved URL).
    pub comment_feed_url: Option<&'a str>,
    /// `thr:total` (Atom threading extension): the number of replies.
    pub thread_total: Option<u64>,
    /// `thr:in-reply-to` elements.
    pub in_reply_to: Vec<InReplyTo<'a>>,
    /// `taxo:topics` resources (as written).
    pub topics: Vec<&'a str>,
    /// Atom links with other relations (`replies`, `edit`, `via`, …).
    pub links: Vec<Link<'a>>,
    /// Media RSS beyond the spec's thumbnail and enclosures; boxed, allocated only when the
    /// item has such an element.
    pub media: Option<Box<MediaEntry<'a>>>,
    /// The entry's children no table reads, with their content, flattened in document order
    /// (see [`Extension`]).
    pub extensions: Vec<Extension<'a>>,
}

/// A feed \[15\]\[39\]\[226\]. The spec's entry → feed back-reference is expressed by
/// ownership: an entry's feed is the feed whose `entries` holds it (see
/// [`Feed::computed_authors`]). Every field is `None`/empty when the document has no value
/// for it; single values are the first non-null one in document order (web recovery rules
/// may fill a null one, with a `recovered` diagnostic, as for [`Entry`]).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Feed<'a> {
    /// The feed's title: Atom `title` (text construct \[50\]: plain, or sanitized HTML for
    /// `type="html"`/`"xhtml"`), Atom 0.3 `title` \[153\], RSS 2.0/1.0 channel `title` (a
    /// string element \[60\], plain, as written), JSON Feed `title`.
    pub title: Option<Text<'a>>,
    /// The feed's subtitle: Atom `subtitle` (text construct), Atom 0.3 `tagline`,
    /// `itunes:subtitle` (RSS 2.0 channel, string).
    pub subtitle: Option<Text<'a>>,
    /// The feed's description: the first of RSS 2.0 channel `description` and
    /// `itunes:summary`; RSS 1.0
    /// channel `description`; JSON Feed `description`. String elements \[60\], so always
    /// [`Text::Plain`] from the spec's steps (the `markup_in_text` recovery rule can give
    /// HTML). Atom has no description (its `subtitle` is [`Feed::subtitle`]).
    pub description: Option<Text<'a>>,
    /// The site the feed belongs to: RSS channel `link` (text resolved against the base URL),
    /// Atom `link` with `rel="alternate"` or no `rel` (also `atom:link` in RSS channels),
    /// JSON Feed `home_page_url`. Resolved against the document's base URL; with none,
    /// against the `xml:base` in scope (recovery rule `xml_base`), else a relative URL is
    /// kept as written (`relative_url`; `spec_exact`: dropped, with a diagnostic); an Atom
    /// link without `href` gives the base URL itself.
    pub page_url: Option<&'a str>,
    /// The feed's own address: Atom `link rel="self"` (also `atom:link` in RSS channels),
    /// JSON Feed `feed_url`; resolved as [`Feed::page_url`].
    pub feed_url: Option<&'a str>,
    /// The previous page of a paged feed: Atom `link rel="previous"` or `rel="prev"`.
    pub prev_feed_url: Option<&'a str>,
    /// The next page of a paged feed: Atom `link rel="next"`, JSON Feed `next_url`.
    pub next_feed_url: Option<&'a str>,
    /// A small square image: Atom `icon` (URL element \[181\]), `itunes:image@href` (RSS
    /// 2.0 channel), JSON Feed `favicon`. Set to `None` when it has the logo's URL (cleanup
    /// feed \[352\], XML formats).
    pub icon: Option<Image<'a>>,
    /// A larger image: Atom `logo` \[185\], the first RSS `image`'s `url` child
    /// \[211\]\[305\] (its other children are in [`Feed::image`]), JSON Feed `icon`.
    pub logo: Option<Image<'a>>,
    /// When the feed last changed: Atom `updated` (RFC 3339), Atom/Atom 0.3 `modified`
    /// (W3C-DTF), RSS 2.0 `pubDate` or `lastBuildDate` (RFC 822, the first readable one;
    /// [`Feed::updated_from`] says which), RSS 1.0 `dc:date` (W3C-DTF); an instant in
    /// UTC. `None` when absent or unparsable (see [`Feed::updated_lenient`]).
    pub updated: Option<Timestamp>,
    /// The feed's authors, in document order: Atom `author` persons; RSS 2.0
    /// `managingEditor` \[357\] (mailbox form split); `dc:creator`, `itunes:author` as
    /// name-only persons (skipped when an author of that name exists \[317\]); JSON Feed
    /// `authors` (1.0: `author`).
    pub authors: Vec<Person<'a>>,
    /// The entries, in document order (Atom `entry`, RSS `item` in `channel` or directly in
    /// `rss`/`rdf:RDF`, JSON Feed `items`), each cleaned up \[258\]; at most
    /// [`crate::Limits::max_entries`] (the rest are skipped with a `limit_reached`
    /// diagnostic).
    pub entries: Vec<Entry<'a>>,
    // Beyond the spec's model (never consulted by the spec's steps).
    /// Atom `id`; RSS 1.0 channel `rdf:about`.
    pub id: Option<&'a str>,
    /// RSS `language`, `dc:language`, the Atom root's `xml:lang`, or JSON Feed `language`
    /// (XML values trimmed; not validated as a language tag).
    pub language: Option<&'a str>,
    /// The software that made the feed: RSS 2.0 `generator`, Atom/Atom 0.3 `generator`
    /// (the first one with a name or URI).
    pub generator: Option<Generator<'a>>,
    /// RSS `copyright`, Atom `rights` (its plain text), `dc:rights`.
    pub rights: Option<&'a str>,
    /// RSS `ttl`, minutes.
    pub ttl: Option<u64>,
    /// RSS `skipHours/hour` values 0–23 (unique, document order; `24`, the midnight of RSS
    /// 0.91's 1–24 range, is read as 0; other values are dropped).
    pub skip_hours: Vec<u8>,
    /// RSS `skipDays/day` values, normalized to `Monday` … `Sunday` (unique, document order).
    pub skip_days: Vec<&'static str>,
    /// RSS `image` (the first one) with all its sub-elements.
    pub image: Option<ImageInfo<'a>>,
    /// Feed categories: RSS channel `category` (with `domain`), Atom feed `category`, RSS 1.0
    /// channel `dc:subject`; unique, document order. JSONL key `category_details`.
    pub category_details: Vec<Category<'a>>,
    /// Atom feed `contributor`s.
    pub contributors: Vec<Person<'a>>,
    /// Channel-level iTunes podcast fields (RSS 2.0 channels; empty otherwise).
    pub itunes: ItunesFeed<'a>,
    /// Channel-level Podcast namespace fields (RSS 2.0 channels; empty otherwise).
    pub podcast: PodcastFeed<'a>,
    /// Lenient reading of the first feed date the strict parser rejected, when `updated`
    /// stayed `None`.
    pub updated_lenient: Option<&'a LenientDate>,
    /// The text `updated` (else `updated_lenient`) was read from, as written, when it is not
    /// the RFC 3339 form of the value in the offset it was written in (see
    /// [`Entry::published_raw`]).
    pub updated_raw: Option<&'a str>,
    /// The format version: RSS 0.9x/2.0 the `rss` element's `version` attribute as written
    /// (trimmed); RSS 1.0 `1.0` (`0.90` with RSS 0.90's namespace); Atom 1.0 `1.0`;
    /// Atom 0.3 the `feed` element's `version` attribute, else `0.3`; JSON Feed the end of its
    /// `version` URL (`1.1` for `https://jsonfeed.org/version/1.1`).
    pub version: Option<&'a str>,
    /// RSS 2.0 channel `pubDate` (the first readable one), apart from `updated`.
    pub pub_date: Option<Timestamp>,
    /// RSS 2.0 channel `lastBuildDate` (the first readable one), apart from `updated`.
    pub last_build_date: Option<Timestamp>,
    /// The text of `pub_date`, as written (see [`Entry::published_raw`]).
    pub pub_date_raw: Option<&'a str>,
    /// The text of `last_build_date`, as written (see [`Entry::published_raw`]).
    pub last_build_date_raw: Option<&'a str>,
    /// The element the spec's `updated` came from (RSS 2.0: `pubDate` or `lastBuildDate`);
    /// `None` when `updated` is null or was filled by a recovery rule.
    pub updated_from: Option<&'static str>,
    /// RSS 2.0 `webMaster` (the person form of `managingEditor`).
    pub web_master: Option<Person<'a>>,
    /// RSS 2.0 `docs` (resolved URL).
    pub docs: Option<&'a str>,
    /// RSS 2.0 `cloud` (the first one with any attribute).
    pub cloud: Option<Cloud<'a>>,
    /// RSS 2.0 `rating` (the PICS label, trimmed).
    pub rating: Option<&'a str>,
    /// RSS `textInput` (also `textinput`; RSS 1.0 document-level `textinput`), the first
    /// one with any child.
    pub text_input: Option<TextInput<'a>>,
    /// RSS 1.0 `mod_syndication` (`sy:` elements in any format's channel); `None`
    /// without any readable `sy:` value.
    pub syndication: Option<Syndication<'a>>,
    /// RSS 1.0 `mod_taxonomy` `taxo:topics` resources (`rdf:li@resource`, as written).
    pub topics: Vec<&'a str>,
    /// Atom links (also `atom:link` in RSS channels) with other relations.
    pub links: Vec<Link<'a>>,
    /// The feed's children no table reads, with their content, flattened in document order
    /// (see [`Extension`]).
    pub extensions: Vec<Extension<'a>>,
}

impl<'a> Feed<'a> {
    /// The spec's "computed authors" of `entry` (which belongs to this feed): the entry's own
    /// authors, else the feed's.
    pub fn computed_authors<'e>(&'e self, entry: &'e Entry<'a>) -> &'e [Person<'a>] {
        if !entry.authors.is_empty() {
            &entry.authors
        } else {
            &self.authors
        }
    }

    /// The spec's "computed updated" of `entry`: entry updated, else published, else the
    /// feed's updated, else `now` (the caller supplies the current time so results stay
    /// deterministic).
    pub fn computed_updated(&self, entry: &Entry<'a>, now: Timestamp) -> Timestamp {
        self.computed_updated_opt(entry).unwrap_or(now)
    }

    /// The spec's "computed updated" of `entry` without its last fallback (the current
    /// time): entry updated, else published, else the feed's updated, else `None`. This is
    /// the records' `computed_updated`, which must not depend on when they were written.
    pub fn computed_updated_opt(&self, entry: &Entry<'a>) -> Option<Timestamp> {
        entry.updated.or(entry.published).or(self.updated)
    }
}
