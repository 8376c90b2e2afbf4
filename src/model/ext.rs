//! The types of the fields beyond the spec's data model (module elements, RSS 2.0's
//! channel elements, Atom's other links), kept on [`super::Feed`] and [`super::Entry`]
//! beside the spec's fields.
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

use super::Timestamp;

/// A category with its scheme and label. RSS `category@domain` is stored as `scheme`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Category<'a> {
    /// The term, trimmed and never empty: RSS `category` text, Atom `category@term`,
    /// `dc:subject` text. A category is kept once per (term, scheme, label); a `dc:subject`
    /// term once among the scheme-less ones.
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
    /// The generator's name: RSS 2.0 `generator` text, Atom/Atom 0.3 `generator` text
    /// (trimmed; `None` when blank).
    pub name: Option<&'a str>,
    /// Atom `generator@uri` (Atom 0.3: `url`), resolved against the base URL. `None` in RSS.
    pub uri: Option<&'a str>,
    /// Atom `generator@version`, as written (trimmed). `None` in RSS.
    pub version: Option<&'a str>,
}

/// RSS `image` (channel logo) sub-elements beyond the `url` the spec reads into `logo`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ImageInfo<'a> {
    /// The first `url` child, resolved against the base URL: the same URL as the spec's
    /// `logo` \[211\]\[305\] when this is the feed's first `image`.
    pub url: Option<&'a str>,
    /// `title` child (trimmed): the image's alternative text (RSS 2.0: usually the channel
    /// title).
    pub title: Option<&'a str>,
    /// `link` child, resolved: the page the image links to (usually the site).
    pub link: Option<&'a str>,
    /// `description` child (trimmed): RSS 2.0's text for the link's `title` attribute.
    pub description: Option<&'a str>,
    /// `width` child, read by the HTML non-negative integer rules, as written (no maximum
    /// applied; see [`ImageInfo::display_width`]).
    pub width: Option<u64>,
    /// `height` child, read as [`ImageInfo::width`].
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
    /// `domain`: the host of the notification service (trimmed).
    pub domain: Option<&'a str>,
    /// `port`, read as a non-negative integer.
    pub port: Option<u64>,
    /// `path`: the service's path on that host (trimmed).
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
    /// `title` child (trimmed): the label of the Submit button.
    pub title: Option<&'a str>,
    /// `description` child (trimmed): explains the text box.
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
    /// The text of `update_base`, as written (see [`crate::Entry::published_raw`]).
    pub update_base_raw: Option<&'a str>,
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
    /// `type`: the advisory MIME type of the target (trimmed, unvalidated). JSONL key
    /// `type`.
    pub mime_type: Option<&'a str>,
    /// `title` attribute (trimmed).
    pub title: Option<&'a str>,
    /// `hreflang`: the target's language tag (trimmed).
    pub hreflang: Option<&'a str>,
    /// `length`, a non-negative integer.
    pub length: Option<u64>,
    /// `thr:count` on a `replies` link (the Atom threading extension).
    pub count: Option<u64>,
    /// `thr:updated` on a `replies` link (RFC 4685 §4: when the latest reply was made; the
    /// draft's `thr:when` when there is no `thr:updated`), read as an RFC 3339 date, else
    /// leniently; `None` when absent or unreadable (a diagnostic quotes it).
    pub updated: Option<crate::Timestamp>,
    /// [`Link::updated`] as written, when that is not its canonical form.
    pub updated_raw: Option<&'a str>,
}

/// Atom threading extension (RFC 4685) `thr:in-reply-to`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct InReplyTo<'a> {
    /// `ref`: the id of the resource replied to (as written, trimmed).
    pub id: &'a str,
    /// `href`, resolved.
    pub url: Option<&'a str>,
    /// `type`: the MIME type of the resource at `href` (trimmed). JSONL key `type`.
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
    /// `type`: the file's MIME type (trimmed, unvalidated). JSONL key `type`.
    pub mime_type: Option<&'a str>,
    /// `medium`: `image`, `audio`, `video`, `document`, `executable` (as written, trimmed).
    pub medium: Option<&'a str>,
    /// `width` in pixels (leading ASCII digits).
    pub width: Option<u64>,
    /// `height` in pixels (leading ASCII digits).
    pub height: Option<u64>,
    /// `fileSize`, bytes.
    pub file_size: Option<u64>,
    /// `duration`, seconds (a fraction is cut).
    pub duration: Option<u64>,
    /// `bitrate`, kilobits per second (a fraction is cut).
    pub bitrate: Option<u64>,
    /// `lang`: the language of the content (trimmed, as written, e.g. `en`).
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
    /// The credited entity: the element's text (trimmed, never empty).
    pub name: &'a str,
    /// `role`, e.g. `producer`, `author` (trimmed, as written).
    pub role: Option<&'a str>,
    /// `scheme`: the role vocabulary (Media RSS default `urn:ebu` when absent; kept as
    /// written, `None` when absent).
    pub scheme: Option<&'a str>,
}

/// `media:rating`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MediaRating<'a> {
    /// The rating: the element's text (trimmed, never empty), e.g. `adult`, `nonadult`.
    pub value: &'a str,
    /// `scheme` (`urn:simple` by Media RSS's default when absent; kept as written).
    pub scheme: Option<&'a str>,
}

/// `media:player`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MediaPlayer<'a> {
    /// `url`: the web page of the player, resolved against the base URL.
    pub url: &'a str,
    /// `width` in pixels (leading ASCII digits).
    pub width: Option<u64>,
    /// `height` in pixels (leading ASCII digits).
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
    /// Every `media:credit` with a non-blank text, in document order.
    pub credits: Vec<MediaCredit<'a>>,
    /// Every `media:rating` with a non-blank text, in document order.
    pub ratings: Vec<MediaRating<'a>>,
    /// The first `media:player` with a usable `url`.
    pub player: Option<MediaPlayer<'a>>,
    /// `media:keywords` (item, groups, contents): the comma-separated keywords, trimmed,
    /// unique, in document order.
    pub keywords: Vec<&'a str>,
}

impl MediaEntry<'_> {
    /// Whether every field is `None`/empty (no Media RSS value was read; not written in JSONL).
    pub fn is_empty(&self) -> bool {
        self == &MediaEntry::default()
    }
}

/// RSS item `source`: the channel the item was republished from. Atom entry `source`: its
/// `title` and the `self` link (else the `alternate` link).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Source<'a> {
    /// RSS `source` text (trimmed); Atom `source/title` as plain text (markup removed).
    pub title: Option<&'a str>,
    /// RSS `source@url`; Atom `source` `link rel="self"`, else its `rel="alternate"` link;
    /// resolved against the base URL.
    pub url: Option<&'a str>,
}

/// `itunes:category text="…"` with its nested `itunes:category` children (Apple allows one
/// level of nesting).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ItunesCategory<'a> {
    /// The `text` attribute (trimmed), e.g. `Technology`; unique among the channel's
    /// categories (a repeated one merges its subcategories).
    pub text: &'a str,
    /// The `text` of each nested `itunes:category`, unique, in document order.
    pub subcategories: Vec<&'a str>,
}

/// `itunes:owner`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ItunesOwner<'a> {
    /// `itunes:name` child (trimmed).
    pub name: Option<&'a str>,
    /// `itunes:email` child (trimmed, unvalidated).
    pub email: Option<&'a str>,
}

/// Channel-level iTunes fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ItunesFeed<'a> {
    /// `itunes:explicit`: `true`/`yes`/`explicit` → true; `false`/`no`/`clean` → false.
    pub explicit: Option<bool>,
    /// `itunes:type`: `episodic` or `serial` (as written, trimmed). JSONL key `type`.
    pub kind: Option<&'a str>,
    /// Every `itunes:category` with a `text` attribute, unique by `text`, in document order.
    pub categories: Vec<ItunesCategory<'a>>,
    /// The first `itunes:owner` with a name or an email.
    pub owner: Option<ItunesOwner<'a>>,
    /// `itunes:block`: `Yes` (any case) → true, anything else → false.
    pub block: Option<bool>,
    /// `itunes:complete`: `Yes` (any case) → true, anything else → false.
    pub complete: Option<bool>,
    /// `itunes:new-feed-url`, resolved.
    pub new_feed_url: Option<&'a str>,
    /// `itunes:keywords`: the comma-separated keywords, trimmed, unique, in document order.
    pub keywords: Vec<&'a str>,
}

/// Item-level iTunes fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ItunesEntry<'a> {
    /// `itunes:explicit`, read as [`ItunesFeed::explicit`].
    pub explicit: Option<bool>,
    /// `itunes:episode`: the episode number (HTML non-negative integer rules).
    pub episode: Option<u64>,
    /// `itunes:season`: the season number (HTML non-negative integer rules).
    pub season: Option<u64>,
    /// `itunes:episodeType`: `full`, `trailer` or `bonus` (as written, trimmed).
    pub episode_type: Option<&'a str>,
    /// `itunes:block`: `Yes` (any case) → true, anything else → false.
    pub block: Option<bool>,
    /// `itunes:title` (the episode title without numbering).
    pub title: Option<&'a str>,
    /// `itunes:keywords`, read as [`ItunesFeed::keywords`].
    pub keywords: Vec<&'a str>,
}

impl ItunesFeed<'_> {
    /// Whether every field is `None`/empty (no iTunes value was read; not written in JSONL).
    pub fn is_empty(&self) -> bool {
        self == &ItunesFeed::default()
    }
}

impl ItunesEntry<'_> {
    /// Whether every field is `None`/empty (no iTunes value was read; not written in JSONL).
    pub fn is_empty(&self) -> bool {
        self == &ItunesEntry::default()
    }
}

/// `podcast:person`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastPerson<'a> {
    /// The person's name: the element's text (trimmed, never empty).
    pub name: &'a str,
    /// `role`, e.g. `host`, `guest` (trimmed, as written; the namespace's default `host`
    /// is not filled in).
    pub role: Option<&'a str>,
    /// `group`, e.g. `cast`, `writing` (trimmed, as written).
    pub group: Option<&'a str>,
    /// `img`: a picture of the person, resolved against the base URL.
    pub img: Option<&'a str>,
    /// `href`: the person's page, resolved against the base URL.
    pub href: Option<&'a str>,
}

/// `podcast:transcript`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastTranscript<'a> {
    /// `url`, resolved against the base URL (an element without one is dropped).
    pub url: &'a str,
    /// `type`, e.g. `text/vtt`, `application/srt` (trimmed). JSONL key `type`.
    pub mime_type: Option<&'a str>,
    /// `language` (trimmed, as written).
    pub language: Option<&'a str>,
    /// `rel`: `captions` when the transcript is a closed-captions file (trimmed).
    pub rel: Option<&'a str>,
}

/// `podcast:chapters`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastChapters<'a> {
    /// `url` of the chapters file, resolved against the base URL.
    pub url: &'a str,
    /// `type`, e.g. `application/json+chapters` (trimmed). JSONL key `type`.
    pub mime_type: Option<&'a str>,
}

/// `podcast:funding`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastFunding<'a> {
    /// `url`: the donation or support page, resolved against the base URL.
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
    /// `owner`: the email of the feed's owner (trimmed).
    pub owner: Option<&'a str>,
}

/// `podcast:season`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastSeason<'a> {
    /// The season number: the element's text (HTML non-negative integer rules; an
    /// element without a number is dropped).
    pub number: u64,
    /// `name` (trimmed).
    pub name: Option<&'a str>,
}

/// `podcast:episode`. The number may be decimal (`1.5`), so it is kept as written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastEpisode<'a> {
    /// The episode number as written (trimmed): any finite non-negative decimal (`3`,
    /// `1.5`); other text drops the element.
    pub number: &'a str,
    /// `display`: the label to show instead of the number (trimmed).
    pub display: Option<&'a str>,
}

/// `podcast:value`: how to pay the podcast (channel, item or live item).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct PodcastValue<'a> {
    /// `type`: the service, e.g. `lightning` (trimmed). JSONL key `type`.
    pub kind: Option<&'a str>,
    /// `method`, e.g. `keysend` (trimmed).
    pub method: Option<&'a str>,
    /// `suggested`: the suggested amount per minute, in the service's unit (a decimal).
    pub suggested: Option<f64>,
    /// Every `podcast:valueRecipient` child, in document order.
    pub recipients: Vec<PodcastValueRecipient<'a>>,
    /// Every `podcast:valueTimeSplit` child, in document order.
    pub time_splits: Vec<PodcastValueTimeSplit<'a>>,
}

/// `podcast:valueRecipient`: one receiver of a [`PodcastValue`] or of a time split.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastValueRecipient<'a> {
    /// `name` (trimmed).
    pub name: Option<&'a str>,
    /// `customKey` (trimmed).
    pub custom_key: Option<&'a str>,
    /// `customValue` (trimmed).
    pub custom_value: Option<&'a str>,
    /// `type`: the address's kind, e.g. `node`, `lnaddress` (trimmed). JSONL key `type`.
    pub kind: Option<&'a str>,
    /// `address` (trimmed).
    pub address: Option<&'a str>,
    /// `split`: the recipient's share (a non-negative integer).
    pub split: Option<u64>,
    /// `fee`: `true`/`false` (case-insensitive).
    pub fee: Option<bool>,
}

/// `podcast:valueTimeSplit`: other recipients for a stretch of the playback.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct PodcastValueTimeSplit<'a> {
    /// `startTime`, in seconds (a decimal).
    pub start_time: Option<f64>,
    /// `duration`, in seconds (a decimal).
    pub duration: Option<f64>,
    /// `remoteStartTime`, in seconds (a decimal).
    pub remote_start_time: Option<f64>,
    /// `remotePercentage` (a non-negative integer, as written: not clamped to 100).
    pub remote_percentage: Option<u64>,
    /// The `podcast:remoteItem` child, if any (the first).
    pub remote_item: Option<PodcastRemoteItem<'a>>,
    /// Every `podcast:valueRecipient` child, in document order.
    pub recipients: Vec<PodcastValueRecipient<'a>>,
}

/// `podcast:remoteItem`: a reference to another feed or item (channel, `podcast:podroll`,
/// `podcast:publisher`, `podcast:valueTimeSplit`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastRemoteItem<'a> {
    /// `feedGuid` (trimmed).
    pub feed_guid: Option<&'a str>,
    /// `feedUrl`, resolved against the base URL.
    pub feed_url: Option<&'a str>,
    /// `itemGuid` (trimmed).
    pub item_guid: Option<&'a str>,
    /// `medium` (trimmed).
    pub medium: Option<&'a str>,
    /// The element's text, if any (trimmed).
    pub title: Option<&'a str>,
}

/// `podcast:soundbite`: a highlight of the episode.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct PodcastSoundbite<'a> {
    /// `startTime`, in seconds (a decimal).
    pub start_time: Option<f64>,
    /// `duration`, in seconds (a decimal).
    pub duration: Option<f64>,
    /// The element's text: the soundbite's title (trimmed).
    pub title: Option<&'a str>,
}

/// `podcast:alternateEnclosure`: another version of the episode's media.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct PodcastAlternateEnclosure<'a> {
    /// `type`: the media type (trimmed). JSONL key `type`.
    pub mime_type: Option<&'a str>,
    /// `length`, in bytes (a non-negative integer).
    pub length: Option<u64>,
    /// `bitrate`, in bits per second (a decimal).
    pub bitrate: Option<f64>,
    /// `height`, in pixels (a non-negative integer).
    pub height: Option<u64>,
    /// `lang` (trimmed).
    pub lang: Option<&'a str>,
    /// `title` (trimmed).
    pub title: Option<&'a str>,
    /// `rel` (trimmed).
    pub rel: Option<&'a str>,
    /// `codecs` (trimmed).
    pub codecs: Option<&'a str>,
    /// `default`: `true`/`false` (case-insensitive).
    pub default: Option<bool>,
    /// Every `podcast:source` child with a `uri`, in document order.
    pub sources: Vec<PodcastSource<'a>>,
    /// The first `podcast:integrity` child.
    pub integrity: Option<PodcastIntegrity<'a>>,
}

/// `podcast:source` of an alternate enclosure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastSource<'a> {
    /// `uri`, resolved against the base URL (other schemes, `ipfs:`, kept as written).
    pub uri: &'a str,
    /// `contentType` (trimmed).
    pub content_type: Option<&'a str>,
}

/// `podcast:integrity` of an alternate enclosure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastIntegrity<'a> {
    /// `type`: `sri` or `pgp-signature` (trimmed). JSONL key `type`.
    pub kind: Option<&'a str>,
    /// `value` (trimmed).
    pub value: Option<&'a str>,
}

/// `podcast:location`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastLocation<'a> {
    /// The element's text: the place's name (trimmed).
    pub name: Option<&'a str>,
    /// `geo`: a `geo:` URI (trimmed, as written).
    pub geo: Option<&'a str>,
    /// `osm`: an OpenStreetMap identifier such as `R113314` (trimmed).
    pub osm: Option<&'a str>,
    /// `rel`: `subject` or `creator` (trimmed).
    pub rel: Option<&'a str>,
    /// `country`: an ISO 3166-1 alpha-2 code (trimmed).
    pub country: Option<&'a str>,
}

/// `podcast:trailer`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastTrailer<'a> {
    /// The element's text: the trailer's title (trimmed).
    pub title: Option<&'a str>,
    /// `url`, resolved against the base URL.
    pub url: Option<&'a str>,
    /// `pubdate` (RFC 2822, or RFC 3339).
    pub pubdate: Option<Timestamp>,
    /// `pubdate` as written, when not the RFC 3339 form of the value.
    pub pubdate_raw: Option<&'a str>,
    /// `length`, in bytes (a non-negative integer).
    pub length: Option<u64>,
    /// `type`: the media type (trimmed). JSONL key `type`.
    pub mime_type: Option<&'a str>,
    /// `season` (a non-negative integer).
    pub season: Option<u64>,
}

/// `podcast:license`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastLicense<'a> {
    /// The element's text: an SPDX identifier or a license's name (trimmed).
    pub name: Option<&'a str>,
    /// `url`: the license's text, resolved against the base URL.
    pub url: Option<&'a str>,
}

/// An image of `podcast:image`, or one candidate of `podcast:images`' `srcset`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastImage<'a> {
    /// `href` (`podcast:image`) or the candidate's URL (`srcset`), resolved against the base.
    pub href: &'a str,
    /// `alt` (trimmed).
    pub alt: Option<&'a str>,
    /// `aspect-ratio`, e.g. `16/9` (trimmed, as written).
    pub aspect_ratio: Option<&'a str>,
    /// `width` in pixels, or the candidate's width descriptor (`1500w` → 1500).
    pub width: Option<u64>,
    /// `height` in pixels.
    pub height: Option<u64>,
    /// `type`: the media type (trimmed). JSONL key `type`.
    pub mime_type: Option<&'a str>,
    /// `purpose`: space-separated tokens (trimmed, as written).
    pub purpose: Option<&'a str>,
}

/// `podcast:txt`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastTxt<'a> {
    /// The element's text (trimmed, never empty).
    pub text: &'a str,
    /// `purpose` (trimmed).
    pub purpose: Option<&'a str>,
}

/// `podcast:block`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastBlock<'a> {
    /// `yes` → true, `no` → false (case-insensitive).
    pub blocked: bool,
    /// `id`: the platform the block is for (trimmed); none: every platform.
    pub id: Option<&'a str>,
}

/// `podcast:updateFrequency`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastUpdateFrequency<'a> {
    /// The element's text: the schedule in words (trimmed).
    pub description: Option<&'a str>,
    /// `complete`: `true`/`false` (case-insensitive).
    pub complete: Option<bool>,
    /// `dtstart` (an ISO 8601 date).
    pub dtstart: Option<Timestamp>,
    /// `dtstart` as written, when not the RFC 3339 form of the value.
    pub dtstart_raw: Option<&'a str>,
    /// `rrule`: an RFC 5545 recurrence rule (trimmed, as written).
    pub rrule: Option<&'a str>,
}

/// `podcast:socialInteract`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastSocialInteract<'a> {
    /// `uri` of the root post, resolved against the base URL.
    pub uri: Option<&'a str>,
    /// `protocol`, e.g. `activitypub`, `disabled` (trimmed).
    pub protocol: Option<&'a str>,
    /// `accountId` (trimmed).
    pub account_id: Option<&'a str>,
    /// `accountUrl`, resolved against the base URL.
    pub account_url: Option<&'a str>,
    /// `priority` (a non-negative integer; lower first).
    pub priority: Option<u64>,
}

/// `podcast:chat`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastChat<'a> {
    /// `server` (trimmed).
    pub server: Option<&'a str>,
    /// `protocol`, e.g. `irc`, `xmpp` (trimmed).
    pub protocol: Option<&'a str>,
    /// `accountId` (trimmed).
    pub account_id: Option<&'a str>,
    /// `space`: the channel or room (trimmed).
    pub space: Option<&'a str>,
}

/// What makes an entry a `podcast:liveItem`: its `status`, `start` and `end`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastLive<'a> {
    /// `status`: `pending`, `live` or `ended` (trimmed, as written).
    pub status: Option<&'a str>,
    /// `start` (an ISO 8601 date and time).
    pub start: Option<Timestamp>,
    /// `start` as written, when not the RFC 3339 form of the value.
    pub start_raw: Option<&'a str>,
    /// `end` (an ISO 8601 date and time).
    pub end: Option<Timestamp>,
    /// `end` as written, when not the RFC 3339 form of the value.
    pub end_raw: Option<&'a str>,
}

/// `podcast:contentLink` (of a live item).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PodcastContentLink<'a> {
    /// `href`, resolved against the base URL.
    pub href: Option<&'a str>,
    /// The element's text (trimmed).
    pub text: Option<&'a str>,
}

/// Channel-level Podcast namespace (`https://podcastindex.org/namespace/1.0`) fields.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct PodcastFeed<'a> {
    /// `podcast:guid`: the show's global identifier, a UUIDv5 by the namespace (trimmed,
    /// not validated).
    pub guid: Option<&'a str>,
    /// The first `podcast:locked` whose text is `yes` or `no`.
    pub locked: Option<PodcastLocked<'a>>,
    /// Every `podcast:funding` with a usable `url`, in document order.
    pub funding: Vec<PodcastFunding<'a>>,
    /// Every channel-level `podcast:person` with a non-blank name, in document order.
    pub persons: Vec<PodcastPerson<'a>>,
    /// The first `podcast:medium` (trimmed, as written: `podcast`, `music`, `musicL`, …).
    pub medium: Option<&'a str>,
    /// Every channel-level `podcast:location`, in document order.
    pub locations: Vec<PodcastLocation<'a>>,
    /// The first channel-level `podcast:license`.
    pub license: Option<PodcastLicense<'a>>,
    /// Every channel-level `podcast:image`, and each candidate of `podcast:images`.
    pub images: Vec<PodcastImage<'a>>,
    /// Every channel-level `podcast:value`, in document order.
    pub values: Vec<PodcastValue<'a>>,
    /// Every channel-level `podcast:txt`, in document order.
    pub txts: Vec<PodcastTxt<'a>>,
    /// Every `podcast:block` whose text is `yes` or `no`, in document order.
    pub blocks: Vec<PodcastBlock<'a>>,
    /// The first `podcast:updateFrequency`.
    pub update_frequency: Option<PodcastUpdateFrequency<'a>>,
    /// Every `podcast:trailer`, in document order.
    pub trailers: Vec<PodcastTrailer<'a>>,
    /// Every `podcast:remoteItem` child of the channel (a playlist), in document order.
    pub remote_items: Vec<PodcastRemoteItem<'a>>,
    /// The `podcast:remoteItem`s of every `podcast:podroll`, in document order.
    pub podroll: Vec<PodcastRemoteItem<'a>>,
    /// The first `podcast:remoteItem` of a `podcast:publisher` (the namespace allows one; any
    /// other is kept by extension capture).
    pub publisher: Option<PodcastRemoteItem<'a>>,
    /// Every channel-level `podcast:socialInteract`, in document order.
    pub social_interacts: Vec<PodcastSocialInteract<'a>>,
    /// The first channel-level `podcast:chat`.
    pub chat: Option<PodcastChat<'a>>,
    /// `podcast:podping@usesPodping`: `true`/`false` (case-insensitive).
    pub podping: Option<bool>,
}

/// Item-level Podcast namespace fields (also of a `podcast:liveItem`, read as an entry).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct PodcastEntry<'a> {
    /// Every `podcast:transcript` with a usable `url`, in document order.
    pub transcripts: Vec<PodcastTranscript<'a>>,
    /// The first `podcast:chapters` with a usable `url`.
    pub chapters: Option<PodcastChapters<'a>>,
    /// Every item-level `podcast:person` with a non-blank name, in document order.
    pub persons: Vec<PodcastPerson<'a>>,
    /// The first `podcast:season` with a number.
    pub season: Option<PodcastSeason<'a>>,
    /// The first `podcast:episode` with a number.
    pub episode: Option<PodcastEpisode<'a>>,
    /// Set when the entry is a `podcast:liveItem` (its attributes).
    pub live: Option<PodcastLive<'a>>,
    /// Every `podcast:soundbite`, in document order.
    pub soundbites: Vec<PodcastSoundbite<'a>>,
    /// Every `podcast:alternateEnclosure`, in document order.
    pub alternate_enclosures: Vec<PodcastAlternateEnclosure<'a>>,
    /// Every item-level `podcast:location`, in document order.
    pub locations: Vec<PodcastLocation<'a>>,
    /// The first item-level `podcast:license`.
    pub license: Option<PodcastLicense<'a>>,
    /// Every item-level `podcast:image`, and each candidate of `podcast:images`.
    pub images: Vec<PodcastImage<'a>>,
    /// Every item-level `podcast:value`, in document order.
    pub values: Vec<PodcastValue<'a>>,
    /// Every item-level `podcast:txt`, in document order.
    pub txts: Vec<PodcastTxt<'a>>,
    /// Every item-level `podcast:socialInteract`, in document order.
    pub social_interacts: Vec<PodcastSocialInteract<'a>>,
    /// The first item-level `podcast:chat`.
    pub chat: Option<PodcastChat<'a>>,
    /// Every `podcast:contentLink`, in document order.
    pub content_links: Vec<PodcastContentLink<'a>>,
}

impl PodcastFeed<'_> {
    /// Whether every field is `None`/empty (no Podcast namespace value was read; not written
    /// in JSONL).
    pub fn is_empty(&self) -> bool {
        self == &PodcastFeed::default()
    }
}

impl PodcastEntry<'_> {
    /// Whether every field is `None`/empty (no Podcast namespace value was read; not written
    /// in JSONL).
    pub fn is_empty(&self) -> bool {
        self == &PodcastEntry::default()
    }
}

/// An element no table reads, kept as written (extension capture, on unless
/// [`crate::Options::skip_extensions`]): one row per element, the element a feed or entry
/// holds and each of its descendants, in document order (repeats kept), flattened: a row
/// names its parent by index and its place by `path`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Extension<'a> {
    /// The local names from the child of the feed or entry down to this element, joined by
    /// `/` (`image`, `image/url`).
    pub path: &'a str,
    /// The index, in the same list, of the element this one is a child of; `None` for a
    /// child of the feed or entry itself.
    pub parent: Option<u64>,
    /// The namespace URI (`None`: no namespace).
    pub namespace: Option<&'a str>,
    /// The local name.
    pub name: &'a str,
    /// The attributes (namespace declarations excepted), in document order, values decoded.
    pub attributes: Vec<ExtensionAttribute<'a>>,
    /// The element's own text (its text chunks outside child elements, joined), trimmed;
    /// `None` when blank.
    pub text: Option<&'a str>,
}

/// An attribute of an [`Extension`] element.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExtensionAttribute<'a> {
    /// The namespace URI (`None` for an attribute without a prefix).
    pub namespace: Option<&'a str>,
    /// The local name.
    pub name: &'a str,
    /// The value, references decoded.
    pub value: &'a str,
}
