//! The record's `feed` object: the spec's feed model, then the keys beyond it (identity,
//! rights, module objects, captured extensions), then the feed's `--extract` keys and its
//! entries.

use super::entry::EntryRecord;
use super::extraction::walk_feed_extraction;
#[cfg(feature = "serde")]
use super::inherit::authors_inherited_by;
use crate::extract::FeedExtraction;
use crate::record::{key, Visit, Walk};
use crate::Feed;

/// A feed with its extraction: the record's `feed` object.
#[derive(Default)]
pub(crate) struct FeedRecord<'r, 'a> {
    pub(super) feed: Option<&'r Feed<'a>>,
    pub(super) x: Option<&'r FeedExtraction<'r>>,
    /// How many of its entries (from the first) get the feed's authors as their computed
    /// authors (`authors_inherited_by`, within the record's `max_inherited_bytes`).
    pub(super) inherits: usize,
}

impl<'r, 'a> FeedRecord<'r, 'a> {
    /// The `feed` object of a feed without extraction, its entries inheriting within the
    /// default [`max_inherited_bytes`](crate::Limits::max_inherited_bytes).
    #[cfg(feature = "serde")]
    pub(crate) fn of(feed: &'r Feed<'a>) -> Self {
        let max = crate::Limits::DEFAULT.max_inherited_bytes;
        FeedRecord { feed: Some(feed), x: None, inherits: authors_inherited_by(feed, max) }
    }
}

impl Walk for FeedRecord<'_, '_> {
    const NAME: &'static str = "feed";
    fn walk<V: Visit>(&self, v: &mut V) {
        let empty;
        let f = match self.feed {
            Some(f) => f,
            None => {
                empty = Feed::default();
                &empty
            }
        };
        v.text(
            key("title", "Atom `title` (text construct), RSS channel `title`, JSON Feed `title`"),
            f.title.as_ref(),
        );
        v.text(
            key("subtitle", "Atom `subtitle` (0.3: `tagline`), `itunes:subtitle`"),
            f.subtitle.as_ref(),
        );
        v.text(
            key(
                "description",
                "RSS `description` (else `itunes:summary`), JSON Feed `description`",
            ),
            f.description.as_ref(),
        );
        v.url(
            key(
                "page_url",
                "the site: RSS `link`, Atom `link rel=alternate`, JSON Feed `home_page_url`",
            ),
            f.page_url,
        );
        v.url(key("feed_url", "Atom `link rel=self`, JSON Feed `feed_url`"), f.feed_url);
        v.url(key("prev_feed_url", "Atom `link rel=previous`/`prev`"), f.prev_feed_url);
        v.url(key("next_feed_url", "Atom `link rel=next`, JSON Feed `next_url`"), f.next_feed_url);
        v.object(key("icon", "Atom `icon`, `itunes:image`, JSON Feed `favicon`"), f.icon.as_ref());
        v.object(key("logo", "Atom `logo`, RSS `image/url`, JSON Feed `icon`"), f.logo.as_ref());
        v.date(
            key(
                "updated",
                "Atom `updated`/`modified`, RSS `pubDate` or `lastBuildDate` (first readable), \
                 RSS 1.0 `dc:date`",
            ),
            f.updated,
            f.updated_raw,
        );
        v.list(
            key(
                "authors",
                "Atom `author`, RSS `managingEditor`, `dc:creator`, `itunes:author`, JSON Feed \
                 `authors`",
            ),
            &f.authors,
        );
        walk_feed_beyond_spec(v, f);
        walk_feed_extraction(v, self.x);
        let inherit = self.inherits;
        v.list_with(key("entries", "the entries, in document order"), f.entries.len(), |i| {
            EntryRecord {
                feed: Some(f),
                entry: Some(&f.entries[i]),
                x: self.x.and_then(|x| x.entries.get(i)),
                inherits: i < inherit,
            }
        });
    }
}

/// The feed's keys beyond the spec's model.
fn walk_feed_beyond_spec<V: Visit>(v: &mut V, f: &Feed<'_>) {
    v.str(key("id", "Atom `id`, RSS 1.0 channel `rdf:about`"), f.id);
    v.str(key("language", "RSS `language` / `dc:language`, Atom root `xml:lang`"), f.language);
    v.object(key("generator", "RSS/Atom `generator`"), f.generator.as_ref());
    v.str(key("rights", "RSS `copyright`, Atom `rights` (plain text), `dc:rights`"), f.rights);
    v.uint(key("ttl", "RSS `ttl`: minutes the feed may be cached"), f.ttl);
    v.uints(
        key(
            "skip_hours",
            "RSS `skipHours`: hours 0–23 (RSS 0.91's `24` is 0), unique, document order",
        ),
        &f.skip_hours,
    );
    v.strs(
        key("skip_days", "RSS `skipDays`: `Monday` … `Sunday`, unique, document order"),
        &f.skip_days,
    );
    v.object(
        key("image", "the first RSS `image`, every child (its `url` is also the spec's `logo`)"),
        f.image.as_ref(),
    );
    v.list(
        key(
            "category_details",
            "categories with scheme and label: RSS channel `category` (`domain` is `scheme`), Atom \
             `category`, RSS 1.0 `dc:subject`; unique"
        ),
        &f.category_details,
    );
    v.list(key("contributors", "Atom `contributor`s"), &f.contributors);
    v.object(key("itunes", "the iTunes podcast namespace, channel level"), Some(&f.itunes));
    v.object(
        key("podcast", "the Podcast namespace (podcastindex.org), channel level"),
        Some(&f.podcast),
    );
    v.object(
        key(
            "updated_lenient",
            "set only when the spec's `updated` is null and a date in a non-standard form was \
             readable (the lenient reader, checked against Python feedparser)",
        ),
        f.updated_lenient,
    );
    v.str(
        key(
            "version",
            "format version: RSS `rss@version` as written; RSS 1.0 `1.0` (`0.90`); Atom \
             `1.0`; Atom 0.3 its `version`, else `0.3`; JSON Feed the end of its `version` URL \
             (`1.1`)",
        ),
        f.version,
    );
    v.date(
        key(
            "pub_date",
            "RSS 2.0 channel `pubDate`, on its own (the spec merges it into `updated`)",
        ),
        f.pub_date,
        f.pub_date_raw,
    );
    v.date(
        key(
            "last_build_date",
            "RSS 2.0 channel `lastBuildDate`, on its own (the spec merges it into `updated`)",
        ),
        f.last_build_date,
        f.last_build_date_raw,
    );
    v.str(
        key(
            "updated_from",
            "`pubDate` | `lastBuildDate`: which element gave the spec's `updated` (RSS 2.0; absent \
             when a recovery rule filled it)"
        ),
        f.updated_from,
    );
    v.object(
        key(
            "web_master",
            "RSS `webMaster` (the mailbox form `email (name)` split, as for `managingEditor`)",
        ),
        f.web_master.as_ref(),
    );
    v.url(key("docs", "RSS `docs` (URL)"), f.docs);
    v.object(key("cloud", "RSS `cloud`"), f.cloud.as_ref());
    v.str(key("rating", "RSS `rating` (the PICS label)"), f.rating);
    v.object(
        key(
            "text_input",
            "RSS `textInput` (also `textinput`; RSS 1.0 `textinput`): the first one with a child",
        ),
        f.text_input.as_ref(),
    );
    v.object(
        key("syndication", "RSS 1.0 `mod_syndication` (`sy:`, in any format)"),
        f.syndication.as_ref(),
    );
    v.strs(key("topics", "`taxo:topics` resources, as written, unique"), &f.topics);
    v.list(
        key(
            "links",
            "Atom `link`s (also `atom:link` in RSS) whose relation is none of the spec's five \
             (alternate, self, previous/prev, next, enclosure): `hub`, `payment`, `license`, \
             `replies`, `edit`, `via`, …; and those of the spec's alternate, self, \
             previous/prev and next that carry a `type`, `title`, `hreflang` or `length` (the \
             spec's URL key holds the `href` alone)",
        ),
        &f.links,
    );
    v.list(
        key(
            "extensions",
            "the channel's (feed's) children no table reads, and their descendants: one row \
             per element, in document order (`--extensions none`: empty). Also a later element \
             of a value already set (a second `title`; `itunes:summary` after `description`), \
             and one a recovery rule could not apply: the first is read, nothing is dropped",
        ),
        &f.extensions,
    );
}
