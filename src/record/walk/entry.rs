//! An element of the record's `feed.entries` (the spec's entry model, the keys beyond it and
//! the computed values), and one row of the Arrow entry layout (the record's keys, its feed's
//! key columns and the entry's keys).

use super::extraction::walk_entry_extraction;
#[cfg(feature = "arrow")]
use super::inherit::Inherited;
use crate::extract::EntryExtraction;
#[cfg(feature = "arrow")]
use crate::record::RecordView;
use crate::record::{key, Visit, Walk};
use crate::{Entry, Feed};

/// An entry with its feed (for the computed values) and its extraction: an element of the
/// record's `feed.entries`.
#[derive(Default)]
pub(crate) struct EntryRecord<'r, 'a> {
    pub(super) feed: Option<&'r Feed<'a>>,
    pub(super) entry: Option<&'r Entry<'a>>,
    pub(super) x: Option<&'r EntryExtraction<'r>>,
    /// Whether the entry gets a copy of the feed's authors as its computed authors (within the
    /// record's [`max_inherited_bytes`](crate::Limits::max_inherited_bytes)).
    pub(super) inherits: bool,
}

impl Walk for EntryRecord<'_, '_> {
    const NAME: &'static str = "entry";
    fn walk<V: Visit>(&self, v: &mut V) {
        let (empty_entry, empty_feed);
        let e = match self.entry {
            Some(e) => e,
            None => {
                empty_entry = Entry::default();
                &empty_entry
            }
        };
        let f = match self.feed {
            Some(f) => f,
            None => {
                empty_feed = Feed::default();
                &empty_feed
            }
        };
        e.walk(v);
        v.list(
            key(
                "computed_authors",
                "**computed**: the spec's computed authors, the entry's `authors`, else the feed's \
                 (`Feed::computed_authors`; the feed's are copied into entries up to \
                 `max_inherited_bytes` per record, 16 MiB by default)"
            ),
            if self.inherits || !e.authors.is_empty() { f.computed_authors(e) } else { &[] },
        );
        v.date(
            key(
                "computed_updated",
                "**computed**: the spec's computed updated, the entry's `updated`, else its \
                 `published`, else the feed's `updated`, without the spec's last fallback \
                 (\"now\"), so a record does not depend on when it was written",
            ),
            f.computed_updated_opt(e),
            None,
        );
        walk_entry_extraction(v, self.x);
    }
}

impl Walk for Entry<'_> {
    const NAME: &'static str = "entry";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.text(
            key(
                "title",
                "Atom `title`, RSS `title`, `media:title` (Atom group), JSON Feed `title`",
            ),
            self.title.as_ref(),
        );
        v.text(key("subtitle", "`itunes:subtitle`, else `itunes:summary`"), self.subtitle.as_ref());
        v.text(
            key("summary", "Atom `summary`, RSS `description`, JSON Feed `summary`"),
            self.summary.as_ref(),
        );
        v.text(
            key(
                "content",
                "Atom `content`, `content:encoded`, JSON Feed `content_html` / `content_text`",
            ),
            self.content.as_ref(),
        );
        v.url(
            key("page_url", "RSS `link`, Atom `link rel=alternate`, JSON Feed `url`"),
            self.page_url,
        );
        v.object(
            key("thumbnail", "`media:thumbnail`, `itunes:image`, an image enclosure"),
            self.thumbnail.as_ref(),
        );
        v.uint(
            key("duration", "`itunes:duration` in seconds (`S`, `M:S` or `H:M:S`)"),
            self.duration,
        );
        v.date(
            key("published", "Atom `published`/`created`, JSON Feed `date_published`"),
            self.published,
            self.published_raw,
        );
        v.date(
            key(
                "updated",
                "Atom `updated`/`modified`, RSS `pubDate`, RSS 1.0 `dc:date`, JSON Feed \
                 `date_modified`",
            ),
            self.updated,
            self.updated_raw,
        );
        v.list(
            key(
                "authors",
                "Atom `author`, RSS `author`, `dc:creator`, `itunes:author`, JSON Feed `authors`",
            ),
            &self.authors,
        );
        v.strs(
            key(
                "categories",
                "category terms, unique: Atom `category@term`, RSS `category`, `dc:subject`, \
                 JSON Feed `tags`",
            ),
            &self.categories,
        );
        v.list(
            key(
                "enclosures",
                "RSS `enclosure`, `media:content`, Atom `link rel=enclosure`, JSON Feed \
                 `attachments`",
            ),
            &self.enclosures,
        );
        // Beyond the spec's model.
        v.str(
            key(
                "content_language",
                "the `xml:lang` in scope on Atom `content` (its own, else the entry's), when not \
                 the feed's `language`",
            ),
            self.content_language,
        );
        v.str(
            key("id", "Atom `id`, RSS `guid`, RSS 1.0 `rdf:about`, as written (never invented)"),
            self.id,
        );
        v.bool(
            key(
                "id_is_permalink",
                "RSS `guid@isPermaLink` (absent means true); only with a `guid`",
            ),
            self.id_is_permalink,
        );
        v.url(key("comments", "RSS `comments` (URL)"), self.comments);
        v.object(key("source", "RSS `source`, Atom `source`"), self.source.as_ref());
        v.list(
            key(
                "category_details",
                "categories with scheme and label: RSS `category` (`domain` is `scheme`), Atom \
                 `category`, `dc:subject`; unique",
            ),
            &self.category_details,
        );
        v.list(key("contributors", "Atom `contributor`s"), &self.contributors);
        v.object(key("itunes", "the iTunes podcast namespace, item level"), Some(&self.itunes));
        v.object(key("podcast", "the Podcast namespace, item level"), self.podcast.as_deref());
        v.object(
            key("published_lenient", "as the feed's `updated_lenient`, for `published`"),
            self.published_lenient,
        );
        v.object(
            key("updated_lenient", "as the feed's `updated_lenient`, for `updated`"),
            self.updated_lenient,
        );
        v.uint(key("comment_count", "`slash:comments`"), self.comment_count);
        v.url(key("comment_feed_url", "`wfw:commentRss` (URL)"), self.comment_feed_url);
        v.uint(key("thread_total", "`thr:total` (RFC 4685)"), self.thread_total);
        v.list(key("in_reply_to", "`thr:in-reply-to`"), &self.in_reply_to);
        v.strs(key("topics", "`taxo:topics` resources, as written, unique"), &self.topics);
        v.list(key("links", "as the feed's `links`: `replies`, `edit`, `via`, …"), &self.links);
        v.object(
            key(
                "media",
                "Media RSS beyond the spec's thumbnail and enclosures: every `media:content` \
                 (direct or in a `media:group`), and the optional elements from the item, its \
                 groups and its contents (in RSS 2.0 items, `media:group` is read here only)",
            ),
            self.media.as_deref(),
        );
        v.list(
            key(
                "extensions",
                "the item's (entry's) children no table reads, and their descendants, as the \
                 feed's `extensions`",
            ),
            &self.extensions,
        );
    }
}

#[cfg(feature = "arrow")]
/// One row of the entry layout: the record's own keys, its feed's key columns, the entry's
/// position and the entry's keys (all null for a record without entries).
#[derive(Default)]
pub(crate) struct EntryRow<'r, 'a> {
    /// The record.
    pub rec: RecordView<'r, 'a>,
    /// The entry's position in `rec.feed.entries`; `None`: the record's one row (no entry).
    pub index: Option<usize>,
    /// What the record's entries get from its feed ([`Inherited::of`]).
    pub inherited: Inherited,
}

#[cfg(feature = "arrow")]
impl Walk for EntryRow<'_, '_> {
    const NAME: &'static str = "entry_row";
    fn walk<V: Visit>(&self, v: &mut V) {
        let rec = &self.rec;
        v.str(key("source", "the record's `source`"), Some(rec.source));
        v.url(key("url", "the record's `url`"), rec.url);
        v.str(key("status", "the record's `status`"), Some(rec.status.as_str()));
        v.object(key("error", "the record's `error`"), rec.error.as_ref());
        v.str(key("format", "the record's `format`"), rec.format.map(|f| f.as_str()));
        v.str(key("encoding", "the record's `encoding`"), rec.encoding);
        v.object(key("capture", "the record's `capture`"), rec.capture);
        let position = self.index.unwrap_or(0);
        // The feed's values, in the rows within the record's budget for copies.
        let f = rec.feed.filter(|_| position < self.inherited.feed_columns);
        v.text(key("feed_title", "the feed's `title`"), f.and_then(|f| f.title.as_ref()));
        v.url(key("feed_page_url", "the feed's `page_url`"), f.and_then(|f| f.page_url));
        v.url(key("feed_url", "the feed's `feed_url`"), f.and_then(|f| f.feed_url));
        v.str(key("feed_id", "the feed's `id`"), f.and_then(|f| f.id));
        v.str(key("feed_language", "the feed's `language`"), f.and_then(|f| f.language));
        v.date(key("feed_updated", "the feed's `updated`"), f.and_then(|f| f.updated), None);
        v.url(
            key("feed_canonical_url", "the feed's `canonical_url` (`--extract`)"),
            rec.extraction.filter(|_| f.is_some()).and_then(|x| x.canonical_url),
        );
        v.uint(
            key("entry_index", "the entry's position in the feed (null: the record has none)"),
            self.index.map(|i| i as u64),
        );
        let entry = EntryRecord {
            feed: rec.feed,
            entry: self.index.and_then(|i| rec.feed?.entries.get(i)),
            x: self.index.and_then(|i| rec.extraction?.entries.get(i)),
            inherits: position < self.inherited.authors,
        };
        v.flatten("entry_", &entry);
    }
}
