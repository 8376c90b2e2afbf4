//! Fields beyond the spec's data model, kept *beside* the spec's
//! fields: [`FeedExt`] on [`super::Feed::ext`], [`EntryExt`] on [`super::Entry::ext`].
//!
//! Invariants:
//! - Nothing here ever changes a spec value; the spec's fields are filled exactly as before
//!   and these are filled in the same pass by additional arms of the format state machines.
//! - Every `&'a str` borrows the input or the per-parse arena (as in the spec model); `Vec`s
//!   are empty (no allocation) unless the feed has the element.
//! - Single-valued fields follow "first non-null wins", like the spec's.
//! - Identifiers are never invented: `id` is only ever a value written in the document
//!   (trimmed; whitespace-only → `None`).
//! - `*_lenient` dates are set only when the spec field they shadow is `None` at the end of
//!   the element (the strict parser rejected every candidate) and
//!   [`crate::model::lenient_date::parse_lenient`] accepted the first rejected text.

use super::lenient_date::LenientDate;
use super::{owned, OwnedPerson, Person, Timestamp};

/// A category with its scheme and label. RSS `category@domain` is stored as `scheme`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Category<'a> {
    pub term: &'a str,
    /// Atom `scheme`, RSS `domain`.
    pub scheme: Option<&'a str>,
    /// Atom `label`.
    pub label: Option<&'a str>,
}

/// The generator of a feed (RSS `generator` text; Atom `generator` text, `uri`, `version`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Generator<'a> {
    pub name: Option<&'a str>,
    pub uri: Option<&'a str>,
    pub version: Option<&'a str>,
}

/// RSS `image` (channel logo) sub-elements beyond the `url` the spec reads into `logo`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ImageInfo<'a> {
    pub url: Option<&'a str>,
    pub title: Option<&'a str>,
    pub link: Option<&'a str>,
    pub description: Option<&'a str>,
    pub width: Option<u64>,
    pub height: Option<u64>,
    /// The width RSS 2.0 gives the image: `width` when it is a number up to the maximum
    /// (144), the maximum when it is larger, the default (88) when it is absent or not a
    /// number. Set whenever the `image` element is read.
    pub display_width: Option<u64>,
    /// As [`ImageInfo::display_width`] for `height` (maximum 400, default 31).
    pub display_height: Option<u64>,
}

/// RSS 2.0 channel `cloud`: the rssCloud interface to register for update notifications.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Cloud<'a> {
    pub domain: Option<&'a str>,
    /// `port`, read as a non-negative integer.
    pub port: Option<u64>,
    pub path: Option<&'a str>,
    /// `registerProcedure`.
    pub register_procedure: Option<&'a str>,
    /// `protocol`: `xml-rpc`, `soap` or `http-post` (as written, trimmed).
    pub protocol: Option<&'a str>,
}

/// RSS `textInput` (RSS 1.0 and 0.9x: `textinput`): a text box shown with the channel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TextInput<'a> {
    pub title: Option<&'a str>,
    pub description: Option<&'a str>,
    /// The text object's `name`.
    pub name: Option<&'a str>,
    /// The CGI script processing the request (resolved URL).
    pub link: Option<&'a str>,
}

/// RSS 1.0 `mod_syndication` (`sy:`): how often the channel is updated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Syndication<'a> {
    /// `sy:updatePeriod`: `hourly`, `daily`, `weekly`, `monthly`, `yearly` (as written,
    /// trimmed).
    pub update_period: Option<&'a str>,
    /// `sy:updateFrequency`: updates per period (a positive integer).
    pub update_frequency: Option<u64>,
    /// `sy:updateBase` (W3C-DTF).
    pub update_base: Option<Timestamp>,
}

/// An Atom `link` (also `atom:link` in RSS) whose relation is none of the five the spec
/// reads (alternate, self, previous/prev, next, enclosure): `replies`, `hub`, `payment`,
/// `license`, `edit`, `via`, … kept as a plain list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Link<'a> {
    /// The `rel` attribute as written (trimmed).
    pub rel: &'a str,
    /// `href`, resolved against the base.
    pub url: &'a str,
    pub mime_type: Option<&'a str>,
    pub title: Option<&'a str>,
    pub hreflang: Option<&'a str>,
    /// `length`, a non-negative integer.
    pub length: Option<u64>,
    /// `thr:count` on a `replies` link (the Atom threading extension).
    pub count: Option<u64>,
}

/// Atom threading extension (RFC 4685) `thr:in-reply-to`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct InReplyTo<'a> {
    /// `ref`: the id of the resource replied to (as written, trimmed).
    pub id: &'a str,
    /// `href`, resolved.
    pub url: Option<&'a str>,
    pub mime_type: Option<&'a str>,
    /// `source`, resolved: the feed of the resource replied to.
    pub source: Option<&'a str>,
}

/// A Media RSS `media:content` with its attributes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MediaContent<'a> {
    /// `url`, resolved (`None` for a content given only by a `media:player`).
    pub url: Option<&'a str>,
    pub mime_type: Option<&'a str>,
    /// `medium`: `image`, `audio`, `video`, `document`, `executable` (as written, trimmed).
    pub medium: Option<&'a str>,
    pub width: Option<u64>,
    pub height: Option<u64>,
    /// `fileSize`, bytes.
    pub file_size: Option<u64>,
    /// `duration`, seconds (a fraction is cut).
    pub duration: Option<u64>,
    /// `bitrate`, kilobits per second (a fraction is cut).
    pub bitrate: Option<u64>,
    pub lang: Option<&'a str>,
    /// `isDefault`: `true` → true, `false` → false.
    pub is_default: Option<bool>,
    /// `expression`: `sample`, `full`, `nonstop`.
    pub expression: Option<&'a str>,
    /// The position of the `media:group` holding it among the item's groups (0-based);
    /// `None` for a `media:content` directly in the item.
    pub group: Option<u32>,
}

/// `media:credit`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MediaCredit<'a> {
    pub name: &'a str,
    pub role: Option<&'a str>,
    pub scheme: Option<&'a str>,
}

/// `media:rating`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MediaRating<'a> {
    pub value: &'a str,
    /// `scheme` (`urn:simple` by Media RSS's default when absent; kept as written).
    pub scheme: Option<&'a str>,
}

/// `media:player`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MediaPlayer<'a> {
    pub url: &'a str,
    pub width: Option<u64>,
    pub height: Option<u64>,
}

/// Media RSS (`http://search.yahoo.com/mrss/`) fields of an item beyond the spec's
/// thumbnail and enclosures. The optional elements (`description`, `credit`, `rating`,
/// `player`) are collected from the item, its `media:group`s and its `media:content`s
/// alike (first one wins for single values; lists in document order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MediaEntry<'a> {
    /// Every `media:content` (direct or in a `media:group`), in document order.
    pub contents: Vec<MediaContent<'a>>,
    /// `media:description` (plain text, trimmed).
    pub description: Option<&'a str>,
    pub credits: Vec<MediaCredit<'a>>,
    pub ratings: Vec<MediaRating<'a>>,
    pub player: Option<MediaPlayer<'a>>,
}

impl MediaEntry<'_> {
    pub fn is_empty(&self) -> bool {
        self == &MediaEntry::default()
    }
}

/// RSS item `source`: the channel the item was republished from. Atom entry `source`: its
/// `title` and the `self` link (else the `alternate` link).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Source<'a> {
    pub title: Option<&'a str>,
    pub url: Option<&'a str>,
}

/// `itunes:category text="…"` with its nested `itunes:category` children (Apple allows one
/// level of nesting).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ItunesCategory<'a> {
    pub text: &'a str,
    pub subcategories: Vec<&'a str>,
}

/// `itunes:owner`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ItunesOwner<'a> {
    pub name: Option<&'a str>,
    pub email: Option<&'a str>,
}

/// Channel-level iTunes fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ItunesFeed<'a> {
    /// `itunes:explicit`: `true`/`yes`/`explicit` → true; `false`/`no`/`clean` → false.
    pub explicit: Option<bool>,
    /// `itunes:type`: `episodic` or `serial` (as written, trimmed).
    pub kind: Option<&'a str>,
    pub categories: Vec<ItunesCategory<'a>>,
    pub owner: Option<ItunesOwner<'a>>,
    /// `itunes:block`: `Yes` (any case) → true, anything else → false.
    pub block: Option<bool>,
    /// `itunes:complete`: `Yes` (any case) → true, anything else → false.
    pub complete: Option<bool>,
    /// `itunes:new-feed-url`, resolved.
    pub new_feed_url: Option<&'a str>,
}

/// Item-level iTunes fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ItunesEntry<'a> {
    pub explicit: Option<bool>,
    pub episode: Option<u64>,
    pub season: Option<u64>,
    /// `itunes:episodeType`: `full`, `trailer` or `bonus` (as written, trimmed).
    pub episode_type: Option<&'a str>,
    pub block: Option<bool>,
    /// `itunes:title` (the episode title without numbering).
    pub title: Option<&'a str>,
}

impl ItunesFeed<'_> {
    pub fn is_empty(&self) -> bool {
        self == &ItunesFeed::default()
    }
}

impl ItunesEntry<'_> {
    pub fn is_empty(&self) -> bool {
        self == &ItunesEntry::default()
    }
}

/// `podcast:person`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastPerson<'a> {
    pub name: &'a str,
    pub role: Option<&'a str>,
    pub group: Option<&'a str>,
    pub img: Option<&'a str>,
    pub href: Option<&'a str>,
}

/// `podcast:transcript`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastTranscript<'a> {
    pub url: &'a str,
    pub mime_type: Option<&'a str>,
    pub language: Option<&'a str>,
    pub rel: Option<&'a str>,
}

/// `podcast:chapters`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastChapters<'a> {
    pub url: &'a str,
    pub mime_type: Option<&'a str>,
}

/// `podcast:funding`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastFunding<'a> {
    pub url: &'a str,
    /// The element's text (the call to action), if any.
    pub message: Option<&'a str>,
}

/// `podcast:locked`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastLocked<'a> {
    /// `yes` → true, `no` → false (case-insensitive); other values give no `locked`.
    pub locked: bool,
    pub owner: Option<&'a str>,
}

/// `podcast:season`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastSeason<'a> {
    pub number: u64,
    pub name: Option<&'a str>,
}

/// `podcast:episode`. The number may be decimal (`1.5`), so it is kept as written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastEpisode<'a> {
    pub number: &'a str,
    pub display: Option<&'a str>,
}

/// Channel-level Podcast namespace (`https://podcastindex.org/namespace/1.0`) fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastFeed<'a> {
    pub guid: Option<&'a str>,
    pub locked: Option<PodcastLocked<'a>>,
    pub funding: Vec<PodcastFunding<'a>>,
    pub persons: Vec<PodcastPerson<'a>>,
}

/// Item-level Podcast namespace fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastEntry<'a> {
    pub transcripts: Vec<PodcastTranscript<'a>>,
    pub chapters: Option<PodcastChapters<'a>>,
    pub persons: Vec<PodcastPerson<'a>>,
    pub season: Option<PodcastSeason<'a>>,
    pub episode: Option<PodcastEpisode<'a>>,
}

impl PodcastFeed<'_> {
    pub fn is_empty(&self) -> bool {
        self == &PodcastFeed::default()
    }
}

impl PodcastEntry<'_> {
    pub fn is_empty(&self) -> bool {
        self == &PodcastEntry::default()
    }
}

/// Feed fields beyond the spec's model.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct FeedExt<'a> {
    /// Atom `id`; RSS 1.0 channel `rdf:about`.
    pub id: Option<&'a str>,
    /// RSS `language`, `dc:language`, or the Atom root's `xml:lang`.
    pub language: Option<&'a str>,
    pub generator: Option<Generator<'a>>,
    /// RSS `copyright`, Atom `rights` (its plain text), `dc:rights`.
    pub rights: Option<&'a str>,
    /// RSS `ttl`, minutes.
    pub ttl: Option<u64>,
    /// RSS `skipHours/hour` values 0–23 (unique, document order).
    pub skip_hours: Vec<u8>,
    /// RSS `skipDays/day` values, normalized to `Monday` … `Sunday` (unique, document order).
    pub skip_days: Vec<&'static str>,
    /// RSS `image` (the first one) with all its sub-elements.
    pub image: Option<ImageInfo<'a>>,
    /// Feed categories: RSS channel `category` (with `domain`), Atom feed `category`.
    pub categories: Vec<Category<'a>>,
    /// Atom feed `contributor`s.
    pub contributors: Vec<Person<'a>>,
    pub itunes: ItunesFeed<'a>,
    pub podcast: PodcastFeed<'a>,
    /// Lenient reading of the first feed date the strict parser rejected, when `updated`
    /// stayed `None`.
    pub updated_lenient: Option<&'a LenientDate>,
    /// The format version: RSS 0.9x/2.0 the `rss` element's `version` attribute as written
    /// (trimmed); RSS 1.0 `1.0` (`0.90` with RSS 0.90's namespace); Atom 1.0 `1.0`;
    /// Atom 0.3 the `feed` element's `version` attribute, else `0.3`.
    pub version: Option<&'a str>,
    /// RSS 2.0 channel `pubDate` (the first readable one), apart from `updated`.
    pub pub_date: Option<Timestamp>,
    /// RSS 2.0 channel `lastBuildDate` (the first readable one), apart from `updated`.
    pub last_build_date: Option<Timestamp>,
    /// The element the spec's `updated` came from (RSS 2.0: `pubDate` or `lastBuildDate`);
    /// `None` when `updated` is null or was filled by a recovery rule.
    pub updated_from: Option<&'static str>,
    /// RSS 2.0 `webMaster` (the person form of `managingEditor`).
    pub web_master: Option<Person<'a>>,
    /// RSS 2.0 `docs` (resolved URL).
    pub docs: Option<&'a str>,
    pub cloud: Option<Cloud<'a>>,
    /// RSS 2.0 `rating` (the PICS label, trimmed).
    pub rating: Option<&'a str>,
    pub text_input: Option<TextInput<'a>>,
    pub syndication: Option<Syndication<'a>>,
    /// RSS 1.0 `mod_taxonomy` `taxo:topics` resources (`rdf:li@resource`, as written).
    pub topics: Vec<&'a str>,
    /// Atom links (also `atom:link` in RSS channels) with other relations.
    pub links: Vec<Link<'a>>,
}

/// Entry fields beyond the spec's model.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct EntryExt<'a> {
    /// Atom `id`; RSS `guid`; RSS 1.0 item `rdf:about`.
    pub id: Option<&'a str>,
    /// RSS `guid@isPermaLink` (absent → true, per RSS 2.0); `None` when the id is not a guid.
    pub id_is_permalink: Option<bool>,
    /// RSS `comments` (resolved URL).
    pub comments: Option<&'a str>,
    pub source: Option<Source<'a>>,
    /// Entry categories with scheme/label (RSS `category`, Atom `category`, `dc:subject`);
    /// the spec's `categories` set of terms is unchanged.
    pub categories: Vec<Category<'a>>,
    /// Atom entry `contributor`s.
    pub contributors: Vec<Person<'a>>,
    pub itunes: ItunesEntry<'a>,
    /// Podcast namespace fields; boxed (allocated only when the item has one) to keep
    /// `Entry` small.
    pub podcast: Option<Box<PodcastEntry<'a>>>,
    /// Lenient reading for `published` (see [`FeedExt::updated_lenient`]); in the arena.
    pub published_lenient: Option<&'a LenientDate>,
    /// Lenient reading for `updated`; in the arena.
    pub updated_lenient: Option<&'a LenientDate>,
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
}

// ------------------------------------------------------------------------------------------
// Owned forms

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedCategory {
    pub term: String,
    pub scheme: Option<String>,
    pub label: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedGenerator {
    pub name: Option<String>,
    pub uri: Option<String>,
    pub version: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedImageInfo {
    pub url: Option<String>,
    pub title: Option<String>,
    pub link: Option<String>,
    pub description: Option<String>,
    pub width: Option<u64>,
    pub height: Option<u64>,
    pub display_width: Option<u64>,
    pub display_height: Option<u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedSource {
    pub title: Option<String>,
    pub url: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedItunesCategory {
    pub text: String,
    pub subcategories: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedItunesOwner {
    pub name: Option<String>,
    pub email: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedItunesFeed {
    pub explicit: Option<bool>,
    pub kind: Option<String>,
    pub categories: Vec<OwnedItunesCategory>,
    pub owner: Option<OwnedItunesOwner>,
    pub block: Option<bool>,
    pub complete: Option<bool>,
    pub new_feed_url: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedItunesEntry {
    pub explicit: Option<bool>,
    pub episode: Option<u64>,
    pub season: Option<u64>,
    pub episode_type: Option<String>,
    pub block: Option<bool>,
    pub title: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedPodcastPerson {
    pub name: String,
    pub role: Option<String>,
    pub group: Option<String>,
    pub img: Option<String>,
    pub href: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedPodcastTranscript {
    pub url: String,
    pub mime_type: Option<String>,
    pub language: Option<String>,
    pub rel: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedPodcastChapters {
    pub url: String,
    pub mime_type: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedPodcastFunding {
    pub url: String,
    pub message: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedPodcastLocked {
    pub locked: bool,
    pub owner: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedPodcastSeason {
    pub number: u64,
    pub name: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedPodcastEpisode {
    pub number: String,
    pub display: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedPodcastFeed {
    pub guid: Option<String>,
    pub locked: Option<OwnedPodcastLocked>,
    pub funding: Vec<OwnedPodcastFunding>,
    pub persons: Vec<OwnedPodcastPerson>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedPodcastEntry {
    pub transcripts: Vec<OwnedPodcastTranscript>,
    pub chapters: Option<OwnedPodcastChapters>,
    pub persons: Vec<OwnedPodcastPerson>,
    pub season: Option<OwnedPodcastSeason>,
    pub episode: Option<OwnedPodcastEpisode>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedCloud {
    pub domain: Option<String>,
    pub port: Option<u64>,
    pub path: Option<String>,
    pub register_procedure: Option<String>,
    pub protocol: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedTextInput {
    pub title: Option<String>,
    pub description: Option<String>,
    pub name: Option<String>,
    pub link: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedSyndication {
    pub update_period: Option<String>,
    pub update_frequency: Option<u64>,
    pub update_base: Option<Timestamp>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedLink {
    pub rel: String,
    pub url: String,
    pub mime_type: Option<String>,
    pub title: Option<String>,
    pub hreflang: Option<String>,
    pub length: Option<u64>,
    pub count: Option<u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedInReplyTo {
    pub id: String,
    pub url: Option<String>,
    pub mime_type: Option<String>,
    pub source: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedMediaContent {
    pub url: Option<String>,
    pub mime_type: Option<String>,
    pub medium: Option<String>,
    pub width: Option<u64>,
    pub height: Option<u64>,
    pub file_size: Option<u64>,
    pub duration: Option<u64>,
    pub bitrate: Option<u64>,
    pub lang: Option<String>,
    pub is_default: Option<bool>,
    pub expression: Option<String>,
    pub group: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedMediaCredit {
    pub name: String,
    pub role: Option<String>,
    pub scheme: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedMediaRating {
    pub value: String,
    pub scheme: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedMediaPlayer {
    pub url: String,
    pub width: Option<u64>,
    pub height: Option<u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedMediaEntry {
    pub contents: Vec<OwnedMediaContent>,
    pub description: Option<String>,
    pub credits: Vec<OwnedMediaCredit>,
    pub ratings: Vec<OwnedMediaRating>,
    pub player: Option<OwnedMediaPlayer>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedFeedExt {
    pub id: Option<String>,
    pub language: Option<String>,
    pub generator: Option<OwnedGenerator>,
    pub rights: Option<String>,
    pub ttl: Option<u64>,
    pub skip_hours: Vec<u8>,
    pub skip_days: Vec<&'static str>,
    pub image: Option<OwnedImageInfo>,
    pub categories: Vec<OwnedCategory>,
    pub contributors: Vec<OwnedPerson>,
    pub itunes: OwnedItunesFeed,
    pub podcast: OwnedPodcastFeed,
    pub updated_lenient: Option<LenientDate>,
    pub version: Option<String>,
    pub pub_date: Option<Timestamp>,
    pub last_build_date: Option<Timestamp>,
    pub updated_from: Option<&'static str>,
    pub web_master: Option<OwnedPerson>,
    pub docs: Option<String>,
    pub cloud: Option<OwnedCloud>,
    pub rating: Option<String>,
    pub text_input: Option<OwnedTextInput>,
    pub syndication: Option<OwnedSyndication>,
    pub topics: Vec<String>,
    pub links: Vec<OwnedLink>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedEntryExt {
    pub id: Option<String>,
    pub id_is_permalink: Option<bool>,
    pub comments: Option<String>,
    pub source: Option<OwnedSource>,
    pub categories: Vec<OwnedCategory>,
    pub contributors: Vec<OwnedPerson>,
    pub itunes: OwnedItunesEntry,
    pub podcast: Option<OwnedPodcastEntry>,
    pub published_lenient: Option<LenientDate>,
    pub updated_lenient: Option<LenientDate>,
    pub comment_count: Option<u64>,
    pub comment_feed_url: Option<String>,
    pub thread_total: Option<u64>,
    pub in_reply_to: Vec<OwnedInReplyTo>,
    pub topics: Vec<String>,
    pub links: Vec<OwnedLink>,
    pub media: Option<OwnedMediaEntry>,
}

impl Category<'_> {
    pub fn into_owned(&self) -> OwnedCategory {
        OwnedCategory {
            term: self.term.to_owned(),
            scheme: owned(self.scheme),
            label: owned(self.label),
        }
    }
}

impl PodcastPerson<'_> {
    pub fn into_owned(&self) -> OwnedPodcastPerson {
        OwnedPodcastPerson {
            name: self.name.to_owned(),
            role: owned(self.role),
            group: owned(self.group),
            img: owned(self.img),
            href: owned(self.href),
        }
    }
}

impl FeedExt<'_> {
    pub fn into_owned(&self) -> OwnedFeedExt {
        let it = &self.itunes;
        let pc = &self.podcast;
        OwnedFeedExt {
            id: owned(self.id),
            language: owned(self.language),
            generator: self.generator.map(|g| OwnedGenerator {
                name: owned(g.name),
                uri: owned(g.uri),
                version: owned(g.version),
            }),
            rights: owned(self.rights),
            ttl: self.ttl,
            skip_hours: self.skip_hours.clone(),
            skip_days: self.skip_days.clone(),
            image: self.image.map(|i| OwnedImageInfo {
                url: owned(i.url),
                title: owned(i.title),
                link: owned(i.link),
                description: owned(i.description),
                width: i.width,
                height: i.height,
                display_width: i.display_width,
                display_height: i.display_height,
            }),
            categories: self.categories.iter().map(Category::into_owned).collect(),
            contributors: self.contributors.iter().map(Person::into_owned).collect(),
            itunes: OwnedItunesFeed {
                explicit: it.explicit,
                kind: owned(it.kind),
                categories: it
                    .categories
                    .iter()
                    .map(|c| OwnedItunesCategory {
                        text: c.text.to_owned(),
                        subcategories: c.subcategories.iter().map(|s| (*s).to_owned()).collect(),
                    })
                    .collect(),
                owner: it
                    .owner
                    .map(|o| OwnedItunesOwner { name: owned(o.name), email: owned(o.email) }),
                block: it.block,
                complete: it.complete,
                new_feed_url: owned(it.new_feed_url),
            },
            podcast: OwnedPodcastFeed {
                guid: owned(pc.guid),
                locked: pc
                    .locked
                    .map(|l| OwnedPodcastLocked { locked: l.locked, owner: owned(l.owner) }),
                funding: pc
                    .funding
                    .iter()
                    .map(|f| OwnedPodcastFunding {
                        url: f.url.to_owned(),
                        message: owned(f.message),
                    })
                    .collect(),
                persons: pc.persons.iter().map(PodcastPerson::into_owned).collect(),
            },
            updated_lenient: self.updated_lenient.copied(),
            version: owned(self.version),
            pub_date: self.pub_date,
            last_build_date: self.last_build_date,
            updated_from: self.updated_from,
            web_master: self.web_master.as_ref().map(Person::into_owned),
            docs: owned(self.docs),
            cloud: self.cloud.map(|c| OwnedCloud {
                domain: owned(c.domain),
                port: c.port,
                path: owned(c.path),
                register_procedure: owned(c.register_procedure),
                protocol: owned(c.protocol),
            }),
            rating: owned(self.rating),
            text_input: self.text_input.map(|t| OwnedTextInput {
                title: owned(t.title),
                description: owned(t.description),
                name: owned(t.name),
                link: owned(t.link),
            }),
            syndication: self.syndication.map(|s| OwnedSyndication {
                update_period: owned(s.update_period),
                update_frequency: s.update_frequency,
                update_base: s.update_base,
            }),
            topics: self.topics.iter().map(|t| (*t).to_owned()).collect(),
            links: self.links.iter().map(Link::into_owned).collect(),
        }
    }
}

impl Link<'_> {
    pub fn into_owned(&self) -> OwnedLink {
        OwnedLink {
            rel: self.rel.to_owned(),
            url: self.url.to_owned(),
            mime_type: owned(self.mime_type),
            title: owned(self.title),
            hreflang: owned(self.hreflang),
            length: self.length,
            count: self.count,
        }
    }
}

impl MediaEntry<'_> {
    pub fn into_owned(&self) -> OwnedMediaEntry {
        OwnedMediaEntry {
            contents: self
                .contents
                .iter()
                .map(|c| OwnedMediaContent {
                    url: owned(c.url),
                    mime_type: owned(c.mime_type),
                    medium: owned(c.medium),
                    width: c.width,
                    height: c.height,
                    file_size: c.file_size,
                    duration: c.duration,
                    bitrate: c.bitrate,
                    lang: owned(c.lang),
                    is_default: c.is_default,
                    expression: owned(c.expression),
                    group: c.group,
                })
                .collect(),
            description: owned(self.description),
            credits: self
                .credits
                .iter()
                .map(|c| OwnedMediaCredit {
                    name: c.name.to_owned(),
                    role: owned(c.role),
                    scheme: owned(c.scheme),
                })
                .collect(),
            ratings: self
                .ratings
                .iter()
                .map(|r| OwnedMediaRating { value: r.value.to_owned(), scheme: owned(r.scheme) })
                .collect(),
            player: self.player.map(|p| OwnedMediaPlayer {
                url: p.url.to_owned(),
                width: p.width,
                height: p.height,
            }),
        }
    }
}

impl EntryExt<'_> {
    pub fn into_owned(&self) -> OwnedEntryExt {
        let it = &self.itunes;
        let pc = &self.podcast;
        OwnedEntryExt {
            id: owned(self.id),
            id_is_permalink: self.id_is_permalink,
            comments: owned(self.comments),
            source: self.source.map(|s| OwnedSource { title: owned(s.title), url: owned(s.url) }),
            categories: self.categories.iter().map(Category::into_owned).collect(),
            contributors: self.contributors.iter().map(Person::into_owned).collect(),
            itunes: OwnedItunesEntry {
                explicit: it.explicit,
                episode: it.episode,
                season: it.season,
                episode_type: owned(it.episode_type),
                block: it.block,
                title: owned(it.title),
            },
            podcast: pc.as_deref().map(|pc| OwnedPodcastEntry {
                transcripts: pc
                    .transcripts
                    .iter()
                    .map(|t| OwnedPodcastTranscript {
                        url: t.url.to_owned(),
                        mime_type: owned(t.mime_type),
                        language: owned(t.language),
                        rel: owned(t.rel),
                    })
                    .collect(),
                chapters: pc.chapters.map(|c| OwnedPodcastChapters {
                    url: c.url.to_owned(),
                    mime_type: owned(c.mime_type),
                }),
                persons: pc.persons.iter().map(PodcastPerson::into_owned).collect(),
                season: pc
                    .season
                    .map(|s| OwnedPodcastSeason { number: s.number, name: owned(s.name) }),
                episode: pc.episode.map(|e| OwnedPodcastEpisode {
                    number: e.number.to_owned(),
                    display: owned(e.display),
                }),
            }),
            published_lenient: self.published_lenient.copied(),
            updated_lenient: self.updated_lenient.copied(),
            comment_count: self.comment_count,
            comment_feed_url: owned(self.comment_feed_url),
            thread_total: self.thread_total,
            in_reply_to: self
                .in_reply_to
                .iter()
                .map(|t| OwnedInReplyTo {
                    id: t.id.to_owned(),
                    url: owned(t.url),
                    mime_type: owned(t.mime_type),
                    source: owned(t.source),
                })
                .collect(),
            topics: self.topics.iter().map(|t| (*t).to_owned()).collect(),
            links: self.links.iter().map(Link::into_owned).collect(),
            media: self.media.as_deref().map(MediaEntry::into_owned),
        }
    }
}
