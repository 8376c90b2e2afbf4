//! The record's schema, written once: every key of a record, in order, with what it holds.
//!
//! Each [`Walk`] below is one object of the record; each line one key. Adding a field to the
//! record is one line here (plus the model and format code that fill it): the JSON Lines
//! writer, the Arrow schema and builders, the docs' key tables and the Python stubs follow.

use super::{key, Capture, Key, Problem, RecordView, Shape, Visit, Walk};
use crate::extract::{EntryExtraction, FeedExtraction};
use crate::lint::{Finding, Report};
use crate::model::ext::{
    Category, Cloud, Extension, ExtensionAttribute, Generator, ImageInfo, InReplyTo,
    ItunesCategory, ItunesEntry, ItunesFeed, ItunesOwner, Link, MediaContent, MediaCredit,
    MediaEntry, MediaPlayer, MediaRating, PodcastChapters, PodcastEntry, PodcastEpisode,
    PodcastFeed, PodcastFunding, PodcastLocked, PodcastPerson, PodcastSeason, PodcastTranscript,
    Source, Syndication, TextInput,
};
use crate::model::lenient_date::{LenientDate, LenientForm};
use crate::{Diagnostic, DiagnosticKind, Enclosure, Entry, Feed, Image, Person, Timestamp};

/// The lint's parameters, in the order records write them.
const FINDING_PARAMS: [Key; 8] = [
    key("element", "the element at fault"),
    key("parent", "its parent element"),
    key("attr", "the attribute at fault"),
    key("value", "the value at fault"),
    key("core", "the core element a module element duplicates"),
    key("ext", "the module element duplicating it"),
    key("uri", "a URI as written"),
    key("curi", "its canonical form"),
];

/// Bytes of the feed's values a record may copy into its entries: `computed_authors` taken
/// from the feed, and the `feed_*` columns of the entry layout. Past it, the entries after the
/// last that fits get none (a record's `limit_reached` diagnostic says so), so one long value
/// in the channel cannot multiply the output by the number of entries.
pub const INHERITED_MAX: usize = 16 << 20;

/// Approximate bytes a person takes in a record.
fn person_bytes(p: &Person<'_>) -> usize {
    let len = |s: Option<&str>| s.map_or(0, str::len);
    48 + len(p.name) + len(p.email) + len(p.page_url) + len(p.icon.and_then(|i| i.url))
}

/// The number of entries (from the first) that get a copy of the feed's authors as their
/// `computed_authors`: those with authors of their own cost nothing; the others
/// the feed's authors' size each, within [`INHERITED_MAX`].
fn authors_inherited_by(f: &Feed<'_>) -> usize {
    let each: usize = f.authors.iter().map(person_bytes).sum();
    let mut left = INHERITED_MAX;
    for (i, e) in f.entries.iter().enumerate() {
        if e.authors.is_empty() && each > 0 {
            match left.checked_sub(each) {
                Some(l) => left = l,
                None => return i,
            }
        }
    }
    f.entries.len()
}

/// The diagnostic of a record whose entries do not all get the feed's authors.
fn authors_cut(f: &Feed<'_>) -> Option<Diagnostic> {
    let n = authors_inherited_by(f);
    (n < f.entries.len()).then(|| Diagnostic {
        kind: DiagnosticKind::LimitReached,
        offset: 0,
        message: format!(
            "computed_authors: the feed's authors are copied into the entries without authors \
             of their own up to {INHERITED_MAX} bytes, so into the first {n} of {} entries only",
            f.entries.len()
        ),
    })
}

impl Walk for RecordView<'_, '_> {
    const NAME: &'static str = "record";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(
            key(
                "source",
                "the input: a file path; `path!member` for a tar member; `path@offset \
                 target-uri` for a WARC record (the offset of its gzip member, or of the record \
                 in a plain WARC; `offset+n` when the record starts `n` decoded bytes into its \
                 gzip member). Bytes of a name that are not UTF-8 are written `\\xNN`",
            ),
            Some(self.source),
        );
        v.url(
            key(
                "url",
                "the record's URL: a WARC record's target URI, else the base URL given \
                 (`--base-url`; Python `url`, else `base_url`); none when unknown",
            ),
            self.url,
        );
        v.str(
            key(
                "status",
                "`ok` | `not_a_feed` | `error` | `revisit` (a WARC revisit record: `feed` is its \
                 original's when that was read earlier in the run)",
            ),
            Some(self.status.as_str()),
        );
        v.object(
            key(
                "error",
                "why the record is not `ok`: not a feed (`not_a_feed`, `http_status`) or not \
                 readable (`truncated`, `bad_chunked`, `content_encoding`, `input_too_large`, \
                 `invalid_base_url`, …; `internal`: processing the record hit a bug)",
            ),
            self.error.as_ref(),
        );
        v.str(
            key("format", "`rss2` | `rss1` | `atom` | `atom03` | `json` (JSON Feed)"),
            self.format.map(|f| f.as_str()),
        );
        v.str(
            key(
                "encoding",
                "the encoding the body was decoded with (WHATWG name: `UTF-8`, `windows-1252`, …)",
            ),
            self.encoding,
        );
        v.object(
            key(
                "capture",
                "where and when a WARC or ARC record was captured (none for a plain document)",
            ),
            self.capture,
        );
        let cut = self.feed.and_then(authors_cut);
        let diagnostics = self.diagnostics;
        v.list_with::<Diagnostic, _>(
            key(
                "diagnostics",
                "what was recovered or ignored, in document order (decoding's first; a limit \
                 met writing the record last)",
            ),
            diagnostics.len() + usize::from(cut.is_some()),
            |i| match diagnostics.get(i) {
                Some(d) => std::borrow::Cow::Borrowed(d),
                None => std::borrow::Cow::Owned(cut.clone().expect("counted above")),
            },
        );
        let feed = self.feed.map(|feed| FeedRecord { feed: Some(feed), x: self.extraction });
        v.object(
            key("feed", "the feed, when the status is `ok`: the spec's data model"),
            feed.as_ref(),
        );
        v.list(
            key("findings", "with `--lint`, the lint's findings, after every other key"),
            self.lint.map_or(&[][..], |r| &r.findings[..]),
        );
    }
}

impl Walk for Capture {
    const NAME: &'static str = "capture";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(
            key(
                "record_type",
                "`response` | `resource` | `revisit` (`WARC-Type`; an ARC record is a `response`)",
            ),
            self.record_type,
        );
        v.date(
            key("date", "when the capture began: `WARC-Date`, the ARC archive date"),
            // Always UTC (WARC 1.1 section 5.4; ARC dates are UTC too): no offset to keep.
            self.date.map(|t| t.with_offset_minutes(None)),
            None,
        );
        v.url(
            key("target_uri", "what was captured: `WARC-Target-URI`, the ARC URL"),
            self.target_uri.as_deref(),
        );
        v.str(key("record_id", "`WARC-Record-ID` (ARC: none)"), self.record_id.as_deref());
        v.str(
            key("payload_digest", "`WARC-Payload-Digest`, as written (`sha1:…`)"),
            self.payload_digest.as_deref(),
        );
        v.uint(
            key("http_status", "the HTTP response's status code"),
            self.http_status.map(u64::from),
        );
        v.str(
            key(
                "content_type",
                "the HTTP response's `Content-Type`; a `resource` record's own `Content-Type`",
            ),
            self.content_type.as_deref(),
        );
        v.str(
            key(
                "truncated",
                "why the archive holds less than the capture: `WARC-Truncated` as written \
                 (`length` | `time` | `disconnect` | `unspecified`), or `segment` (the first \
                 segment of a split record; its continuations are not joined)",
            ),
            self.truncated.as_deref(),
        );
        v.object(
            key("refers_to", "a revisit's original: the capture it repeats"),
            Some(&RefersTo(self)).filter(|r| r.is_some()),
        );
    }
}

/// The `refers_to` object of a capture.
struct RefersTo<'c>(&'c Capture);

impl RefersTo<'_> {
    fn is_some(&self) -> bool {
        let c = self.0;
        c.refers_to_record_id.is_some()
            || c.refers_to_target_uri.is_some()
            || c.refers_to_date.is_some()
            || c.refers_to_source.is_some()
    }
}

impl Shape for RefersTo<'_> {
    fn shape() -> Self {
        static NONE: Capture = Capture {
            record_type: None,
            date: None,
            target_uri: None,
            record_id: None,
            payload_digest: None,
            http_status: None,
            content_type: None,
            truncated: None,
            refers_to_record_id: None,
            refers_to_target_uri: None,
            refers_to_date: None,
            refers_to_source: None,
        };
        RefersTo(&NONE)
    }
}

impl Walk for RefersTo<'_> {
    const NAME: &'static str = "refers_to";
    fn walk<V: Visit>(&self, v: &mut V) {
        let c = self.0;
        v.str(key("record_id", "`WARC-Refers-To`"), c.refers_to_record_id.as_deref());
        v.url(key("target_uri", "`WARC-Refers-To-Target-URI`"), c.refers_to_target_uri.as_deref());
        v.date(
            key("date", "`WARC-Refers-To-Date`"),
            c.refers_to_date.map(|t| t.with_offset_minutes(None)),
            None,
        );
        v.str(
            key(
                "source",
                "the original's `source` when it was read earlier in this run (and is still \
                 remembered: see `--help`, revisits)",
            ),
            c.refers_to_source.as_deref(),
        );
    }
}

impl Walk for Problem<'_> {
    const NAME: &'static str = "problem";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("kind", "a stable snake_case kind"), Some(self.kind));
        v.str(key("message", "a human account of the problem"), Some(self.message));
    }
}

impl Walk for Diagnostic {
    const NAME: &'static str = "diagnostic";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(
            key(
                "kind",
                "`malformed_xml`, `mismatched_end_tag`, `unclosed_element`, `html_entity`, \
                 `unknown_entity`, `bare_ampersand`, `unbound_prefix`, `content_after_root`, \
                 `invalid_character`, `doctype_ignored`, `invalid_encoding`, `limit_reached`, \
                 `not_a_feed`, `invalid_json` (a JSON Feed member of the wrong type, ignored), \
                 `invalid_value` (a value of the wrong type that nothing reads, left out), and \
                 from the web recovery rules `recovered`, `encoding_guessed`",
            ),
            Some(self.kind.as_str()),
        );
        v.uint(key("offset", "byte offset in the decoded text"), Some(self.offset as u64));
        v.str(key("message", "what happened, naming the element or value"), Some(&self.message));
    }
}

impl Shape for Diagnostic {
    fn shape() -> Self {
        Diagnostic { kind: DiagnosticKind::Recovered, offset: 0, message: String::new() }
    }
}

impl Walk for Finding {
    const NAME: &'static str = "finding";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("code", "the Feed Validator message class"), Some(self.code.name()));
        v.str(key("severity", "`error` | `warning` | `info`"), Some(self.severity().as_str()));
        v.str(key("message", "the validator's message, filled in"), Some(&self.message()));
        for k in FINDING_PARAMS {
            v.str(k, self.param(k.name));
        }
        v.uint(key("offset", "byte offset in the decoded text"), Some(self.offset as u64));
        v.uint(key("line", "1-based line"), Some(self.line.into()));
        v.uint(key("column", "1-based column, in characters"), Some(self.column.into()));
        v.str(key("section", "the Profile section enforced"), Some(self.section));
    }
}

impl Shape for Finding {
    fn shape() -> Self {
        Finding {
            code: crate::lint::messages::ALL[0],
            params: Vec::new(),
            offset: 0,
            line: 0,
            column: 0,
            section: "",
            excerpt: Box::default(),
            excerpt_column: 0,
        }
    }
}

/// A feed with its extraction: the record's `feed` object.
#[derive(Default)]
pub(crate) struct FeedRecord<'r, 'a> {
    feed: Option<&'r Feed<'a>>,
    x: Option<&'r FeedExtraction<'r>>,
}

impl<'r, 'a> FeedRecord<'r, 'a> {
    /// The `feed` object of a feed without extraction.
    #[cfg(feature = "serde")]
    pub(crate) fn of(feed: &'r Feed<'a>) -> Self {
        FeedRecord { feed: Some(feed), x: None }
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
        let inherit = authors_inherited_by(f);
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
             `replies`, `edit`, `via`, …",
        ),
        &f.links,
    );
    v.list(
        key(
            "extensions",
            "the channel's (feed's) children no table reads, and their descendants: one row \
             per element, in document order (`--extensions none`: empty)",
        ),
        &f.extensions,
    );
}

fn walk_feed_extraction<V: Visit>(v: &mut V, x: Option<&FeedExtraction<'_>>) {
    v.str(
        key(
            "title_text",
            "`--extract`: plain text of `title` (markup removed, whitespace collapsed, \
             script/style content left out)",
        ),
        x.and_then(|x| x.title_text),
    );
    v.str(
        key("subtitle_text", "`--extract`: plain text of `subtitle`"),
        x.and_then(|x| x.subtitle_text),
    );
    v.str(
        key("description_text", "`--extract`: plain text of `description`"),
        x.and_then(|x| x.description_text),
    );
    v.url(
        key("canonical_url", "`--extract`: canonical form of `page_url` (else `feed_url`)"),
        x.and_then(|x| x.canonical_url),
    );
    v.strs(
        key(
            "categories_normalized",
            "`--extract`: the feed's `category_details` terms and labels and its iTunes \
             categories (`Category/Subcategory`), normalized as the entries'",
        ),
        x.map_or(&[], |x| x.categories_normalized),
    );
}

/// An entry with its feed (for the computed values) and its extraction: an element of the
/// record's `feed.entries`.
#[derive(Default)]
pub(crate) struct EntryRecord<'r, 'a> {
    feed: Option<&'r Feed<'a>>,
    entry: Option<&'r Entry<'a>>,
    x: Option<&'r EntryExtraction<'r>>,
    /// Whether the entry gets a copy of the feed's authors as its computed authors (within
    /// [`INHERITED_MAX`]).
    inherits: bool,
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
                 (`Feed::computed_authors`; the feed's are copied into entries up to 16 MiB per \
                 record)"
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

fn walk_entry_extraction<V: Visit>(v: &mut V, x: Option<&EntryExtraction<'_>>) {
    v.str(
        key(
            "title_text",
            "`--extract`: plain text of `title`; without one, the first sentence or line of \
             `body_text`'s body, cut at a word boundary within 120 characters (then `…`)",
        ),
        x.and_then(|x| x.title_text),
    );
    v.str(
        key("title_source", "`--extract`: `title` | `body`: where `title_text` came from"),
        x.and_then(|x| x.title_source).map(|s| s.as_str()),
    );
    v.str(
        key("subtitle_text", "`--extract`: plain text of `subtitle`"),
        x.and_then(|x| x.subtitle_text),
    );
    v.str(
        key("summary_text", "`--extract`: plain text of `summary`"),
        x.and_then(|x| x.summary_text),
    );
    v.str(
        key("content_text", "`--extract`: plain text of `content`"),
        x.and_then(|x| x.content_text),
    );
    v.str(
        key(
            "body_source",
            "`--extract`: `content` (Atom `content`, `content:encoded`) or `summary` (Atom \
             `summary`, RSS `description`): the first with non-empty text",
        ),
        x.and_then(|x| x.body_source).map(|s| s.as_str()),
    );
    v.str(key("body_text", "`--extract`: plain text of that body"), x.and_then(|x| x.body_text));
    v.uint(
        key(
            "word_count",
            "`--extract`: words in `body_text`; always written with `--extract` (0 without a body)",
        ),
        x.map(|x| x.word_count.into()),
    );
    v.url(
        key(
            "canonical_url",
            "`--extract`: canonical form of `page_url` (else of a permalink id): lowercase scheme \
             and host, default port removed, trailing slashes removed (except a bare `/`), query \
             sorted by name, tracking parameters (`utm_*`, `fbclid`, `gclid`, …) removed, \
             percent-encoded unreserved characters decoded, fragment dropped (except `#!`/`#/` \
             routes), credentials removed; `page_url` is never replaced",
        ),
        x.and_then(|x| x.canonical_url),
    );
    v.str(
        key(
            "dedup_key",
            "`--extract`: the entry's `id`, else its canonical URL, else a stable 64-bit FNV-1a of \
             title and date as 16 hex digits"
        ),
        x.and_then(|x| x.dedup_key),
    );
    v.str(
        key("dedup_source", "`--extract`: `id` | `url` | `hash`"),
        x.and_then(|x| x.dedup_source).map(|s| s.as_str()),
    );
    v.str(
        key(
            "fingerprint",
            "`--extract`: the entry's content as 16 hex digits (64-bit FNV-1a of its title, \
             canonical URL and body text, whitespace collapsed): equal across captures while \
             the entry is unchanged; a new value under the same `dedup_key` is an edit",
        ),
        x.and_then(|x| x.fingerprint),
    );
    v.url(
        key(
            "image_url",
            "`--extract`: the entry's image: `thumbnail`, else a `media:content` image, else an \
             image enclosure, else the body's first `<img>` that is not a tracking pixel (at most \
             1×1, or on a known pixel host), resolved against the document's URL (else \
             `page_url`)",
        ),
        x.and_then(|x| x.image_url),
    );
    v.str(
        key("image_source", "`--extract`: `thumbnail` | `media` | `enclosure` | `body`"),
        x.and_then(|x| x.image_source).map(|s| s.as_str()),
    );
    v.uint(
        key("image_width", "`--extract`: the image's width in pixels, when stated"),
        x.and_then(|x| x.image_width),
    );
    v.uint(
        key("image_height", "`--extract`: the image's height in pixels, when stated"),
        x.and_then(|x| x.image_height),
    );
    v.strs(
        key(
            "categories_normalized",
            "`--extract`: `category_details` terms and labels, then `categories`, trimmed, NFKC, \
             case-folded, \
             `a/b/c` split into `a`, `a/b`, `a/b/c`; unique, first-seen order",
        ),
        x.map_or(&[], |x| x.categories_normalized),
    );
    v.strs(
        key(
            "date_flags",
            "`--extract`: `future` (more than a day after the capture date, else `--as-of`, else \
             now), `zone_assumed`, `lenient`, `before_1995`",
        ),
        x.map_or(&[], |x| x.date_flags),
    );
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

/// How many of a record's entries (from the first) get copies of its feed's values, within
/// [`INHERITED_MAX`]: its authors as their `computed_authors`, and (entry layout) the feed's
/// key columns in their rows.
#[cfg(feature = "arrow")]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Inherited {
    authors: usize,
    feed_columns: usize,
}

#[cfg(feature = "arrow")]
impl Inherited {
    /// The copies `rec`'s entries get.
    pub(crate) fn of(rec: &RecordView<'_, '_>) -> Self {
        let Some(f) = rec.feed else { return Inherited::default() };
        let len = |s: Option<&str>| s.map_or(0, str::len);
        let title = match &f.title {
            None => 0,
            Some(crate::Text::Plain(t)) => t.len(),
            Some(crate::Text::Html(h)) => h.to_html_string().len(),
        };
        let canonical = len(rec.extraction.and_then(|x| x.canonical_url));
        let each = 64 + title + len(f.page_url) + len(f.feed_url) + len(f.id) + len(f.language);
        Inherited {
            authors: authors_inherited_by(f),
            // The first row gets them whatever their size.
            feed_columns: (INHERITED_MAX / (each + canonical)).max(1),
        }
    }
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

/// A `feedmill lint` line: `{source, status, format, version, findings}`.
#[derive(Default)]
pub(crate) struct LintLine<'r> {
    /// The record's `source`.
    pub source: &'r str,
    /// The record's status.
    pub status: super::Status,
    /// The record's format.
    pub format: Option<crate::Format>,
    /// The lint report (none: the record was not a feed the lint read).
    pub report: Option<&'r Report>,
}

impl Walk for LintLine<'_> {
    const NAME: &'static str = "lint_line";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("source", "the record's `source`"), Some(self.source));
        v.str(key("status", "the record's `status`"), Some(self.status.as_str()));
        v.str(key("format", "the record's `format`"), self.format.map(|f| f.as_str()));
        v.str(
            key("version", "the `rss` element's `version`, as written"),
            self.report.and_then(|r| r.version.as_deref()),
        );
        v.list(
            key("findings", "the findings, in document order").always(),
            self.report.map_or(&[][..], |r| &r.findings[..]),
        );
        v.uint(
            key("findings_dropped", "findings past `--max-diagnostics`, counted, not listed"),
            self.report.map(|r| r.dropped as u64).filter(|n| *n > 0),
        );
    }
}

impl Walk for Image<'_> {
    const NAME: &'static str = "image";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("url", "the image's URL, resolved"), self.url);
        v.uint(key("width", "width in pixels, as stated"), self.width);
        v.uint(key("height", "height in pixels, as stated"), self.height);
    }
}

impl Walk for Person<'_> {
    const NAME: &'static str = "person";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("name", "the name, as written"), self.name);
        v.str(key("email", "the email address, as written"), self.email);
        v.url(key("page_url", "Atom `uri`, JSON Feed `url`"), self.page_url);
        v.object(key("icon", "`gd:image`, JSON Feed `avatar`"), self.icon.as_ref());
    }
}

impl Walk for Enclosure<'_> {
    const NAME: &'static str = "enclosure";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("url", "the file's URL, resolved"), self.url);
        v.str(key("type", "the MIME type, as written"), self.mime_type);
        v.uint(key("length", "size in bytes (greater than zero)"), self.length);
        v.str(key("title", "JSON Feed attachment `title`"), self.title);
        v.uint(
            key("duration", "JSON Feed attachment `duration_in_seconds`, seconds"),
            self.duration,
        );
        v.str(
            key("source", "`enclosure` | `media` | `link` | `attachment`: where it came from"),
            self.source,
        );
    }
}

impl Walk for Generator<'_> {
    const NAME: &'static str = "generator";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("name", "the generator's name"), self.name);
        v.url(key("uri", "Atom `generator@uri`"), self.uri);
        v.str(key("version", "Atom `generator@version`"), self.version);
    }
}

impl Walk for ImageInfo<'_> {
    const NAME: &'static str = "rss_image";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("url", "`url` (the spec's `logo.url`)"), self.url);
        v.str(key("title", "`title`: the image's alternative text"), self.title);
        v.url(key("link", "`link`: the page the image links to"), self.link);
        v.str(key("description", "`description`"), self.description);
        v.uint(key("width", "`width`, as written"), self.width);
        v.uint(key("height", "`height`, as written"), self.height);
        v.uint(
            key("display_width", "the width RSS 2.0 gives it (default 88, at most 144)"),
            self.display_width,
        );
        v.uint(
            key("display_height", "the height RSS 2.0 gives it (default 31, at most 400)"),
            self.display_height,
        );
    }
}

impl Walk for Category<'_> {
    const NAME: &'static str = "category";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("term", "the term, trimmed"), Some(self.term));
        v.str(key("scheme", "Atom `scheme`, RSS `domain`"), self.scheme);
        v.str(key("label", "Atom `label`"), self.label);
    }
}

impl Walk for ItunesFeed<'_> {
    const NAME: &'static str = "itunes_feed";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.bool(key("explicit", "`itunes:explicit`"), self.explicit);
        v.str(key("type", "`itunes:type`: `episodic` | `serial`"), self.kind);
        v.list(key("categories", "`itunes:category`, unique by text"), &self.categories);
        v.object(key("owner", "`itunes:owner`"), self.owner.as_ref());
        v.bool(key("block", "`itunes:block`"), self.block);
        v.bool(key("complete", "`itunes:complete`"), self.complete);
        v.url(key("new_feed_url", "`itunes:new-feed-url`"), self.new_feed_url);
        v.strs(
            key("keywords", "`itunes:keywords`, split at commas, trimmed, unique"),
            &self.keywords,
        );
    }
}

impl Walk for ItunesCategory<'_> {
    const NAME: &'static str = "itunes_category";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("text", "the category"), Some(self.text));
        v.strs(key("subcategories", "nested categories, unique"), &self.subcategories);
    }
}

impl Walk for ItunesOwner<'_> {
    const NAME: &'static str = "itunes_owner";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("name", "`itunes:name`"), self.name);
        v.str(key("email", "`itunes:email`"), self.email);
    }
}

impl Walk for ItunesEntry<'_> {
    const NAME: &'static str = "itunes_entry";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.bool(key("explicit", "`itunes:explicit`"), self.explicit);
        v.uint(key("episode", "`itunes:episode`"), self.episode);
        v.uint(key("season", "`itunes:season`"), self.season);
        v.str(key("episode_type", "`itunes:episodeType`"), self.episode_type);
        v.bool(key("block", "`itunes:block`"), self.block);
        v.str(key("title", "`itunes:title`"), self.title);
        v.strs(key("keywords", "`itunes:keywords`"), &self.keywords);
    }
}

impl Walk for PodcastFeed<'_> {
    const NAME: &'static str = "podcast_feed";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("guid", "`podcast:guid`"), self.guid);
        v.object(key("locked", "`podcast:locked`"), self.locked.as_ref());
        v.list(key("funding", "`podcast:funding`"), &self.funding);
        v.list(key("persons", "`podcast:person`"), &self.persons);
    }
}

impl Walk for PodcastLocked<'_> {
    const NAME: &'static str = "podcast_locked";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.bool(key("locked", "`yes` → true, `no` → false"), Some(self.locked));
        v.str(key("owner", "`owner`"), self.owner);
    }
}

impl Walk for PodcastFunding<'_> {
    const NAME: &'static str = "podcast_funding";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("url", "`url`"), Some(self.url));
        v.str(key("message", "the element's text"), self.message);
    }
}

impl Walk for PodcastPerson<'_> {
    const NAME: &'static str = "podcast_person";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("name", "the element's text"), Some(self.name));
        v.str(key("role", "`role`"), self.role);
        v.str(key("group", "`group`"), self.group);
        v.url(key("img", "`img` (URL)"), self.img);
        v.url(key("href", "`href` (URL)"), self.href);
    }
}

impl Walk for PodcastEntry<'_> {
    const NAME: &'static str = "podcast_entry";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.list(key("transcripts", "`podcast:transcript`"), &self.transcripts);
        v.object(key("chapters", "`podcast:chapters`"), self.chapters.as_ref());
        v.list(key("persons", "`podcast:person`"), &self.persons);
        v.object(key("season", "`podcast:season`"), self.season.as_ref());
        v.object(key("episode", "`podcast:episode`"), self.episode.as_ref());
    }
}

impl Walk for PodcastTranscript<'_> {
    const NAME: &'static str = "podcast_transcript";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("url", "`url`"), Some(self.url));
        v.str(key("type", "`type`"), self.mime_type);
        v.str(key("language", "`language`"), self.language);
        v.str(key("rel", "`rel`"), self.rel);
    }
}

impl Walk for PodcastChapters<'_> {
    const NAME: &'static str = "podcast_chapters";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("url", "`url`"), Some(self.url));
        v.str(key("type", "`type`"), self.mime_type);
    }
}

impl Walk for PodcastSeason<'_> {
    const NAME: &'static str = "podcast_season";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.uint(key("number", "the season number"), Some(self.number));
        v.str(key("name", "`name`"), self.name);
    }
}

impl Walk for PodcastEpisode<'_> {
    const NAME: &'static str = "podcast_episode";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("number", "the episode number as written (may be `1.5`)"), Some(self.number));
        v.str(key("display", "`display`"), self.display);
    }
}

impl Walk for LenientDate {
    const NAME: &'static str = "lenient_date";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.date(key("value", "the instant read"), Some(self.timestamp), None);
        v.bool(
            key("zone_assumed", "the text had no zone: UTC (Korean forms: +09:00) was assumed"),
            Some(self.zone_assumed),
        );
        v.str(
            key("form", "the form read (`us-month-name`, `ymd-slash`, …)"),
            Some(self.form.as_str()),
        );
    }
}

impl Shape for LenientDate {
    fn shape() -> Self {
        LenientDate {
            timestamp: Timestamp::from_unix(0).expect("the epoch is a date"),
            zone_assumed: false,
            form: LenientForm::Rfc3339,
        }
    }
}

impl Walk for Cloud<'_> {
    const NAME: &'static str = "cloud";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("domain", "`domain`"), self.domain);
        v.uint(key("port", "`port`"), self.port);
        v.str(key("path", "`path`"), self.path);
        v.str(key("register_procedure", "`registerProcedure`"), self.register_procedure);
        v.str(key("protocol", "`protocol`"), self.protocol);
    }
}

impl Walk for TextInput<'_> {
    const NAME: &'static str = "text_input";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("title", "`title`"), self.title);
        v.str(key("description", "`description`"), self.description);
        v.str(key("name", "`name`"), self.name);
        v.url(key("link", "`link` (URL)"), self.link);
    }
}

impl Walk for Syndication<'_> {
    const NAME: &'static str = "syndication";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("update_period", "`sy:updatePeriod`"), self.update_period);
        v.uint(key("update_frequency", "`sy:updateFrequency`"), self.update_frequency);
        v.date(key("update_base", "`sy:updateBase`"), self.update_base, self.update_base_raw);
    }
}

impl Walk for Link<'_> {
    const NAME: &'static str = "link";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("rel", "`rel`, as written"), Some(self.rel));
        v.url(key("url", "`href`, resolved"), Some(self.url));
        v.str(key("type", "`type`"), self.mime_type);
        v.str(key("title", "`title`"), self.title);
        v.str(key("hreflang", "`hreflang`"), self.hreflang);
        v.uint(key("length", "`length`"), self.length);
        v.uint(key("count", "`thr:count` on a `replies` link"), self.count);
    }
}

impl Walk for Source<'_> {
    const NAME: &'static str = "source";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("title", "RSS `source` text, Atom `source/title`"), self.title);
        v.url(key("url", "RSS `source@url`, Atom `source` self (else alternate) link"), self.url);
    }
}

impl Walk for InReplyTo<'_> {
    const NAME: &'static str = "in_reply_to";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("id", "`ref`"), Some(self.id));
        v.url(key("url", "`href`"), self.url);
        v.str(key("type", "`type`"), self.mime_type);
        v.url(key("source", "`source`: the feed of the resource replied to"), self.source);
    }
}

impl Walk for MediaEntry<'_> {
    const NAME: &'static str = "media";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.list(key("contents", "every `media:content`, direct or in a group"), &self.contents);
        v.str(key("description", "`media:description`"), self.description);
        v.list(key("credits", "`media:credit`"), &self.credits);
        v.list(key("ratings", "`media:rating`"), &self.ratings);
        v.object(key("player", "`media:player`"), self.player.as_ref());
        v.strs(key("keywords", "`media:keywords`, split at commas, unique"), &self.keywords);
    }
}

impl Walk for MediaContent<'_> {
    const NAME: &'static str = "media_content";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("url", "`url`"), self.url);
        v.str(key("type", "`type`"), self.mime_type);
        v.str(key("medium", "`medium`"), self.medium);
        v.uint(key("width", "`width`"), self.width);
        v.uint(key("height", "`height`"), self.height);
        v.uint(key("file_size", "`fileSize`, bytes"), self.file_size);
        v.uint(key("duration", "`duration`, seconds"), self.duration);
        v.uint(key("bitrate", "`bitrate`, kbit/s"), self.bitrate);
        v.str(key("lang", "`lang`"), self.lang);
        v.bool(key("is_default", "`isDefault`"), self.is_default);
        v.str(key("expression", "`expression`"), self.expression);
        v.uint(
            key("group", "the 0-based position of its `media:group` (none: direct)"),
            self.group.map(u64::from),
        );
    }
}

impl Walk for MediaCredit<'_> {
    const NAME: &'static str = "media_credit";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("name", "the credited entity"), Some(self.name));
        v.str(key("role", "`role`"), self.role);
        v.str(key("scheme", "`scheme`"), self.scheme);
    }
}

impl Walk for MediaRating<'_> {
    const NAME: &'static str = "media_rating";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("value", "the rating"), Some(self.value));
        v.str(key("scheme", "`scheme`"), self.scheme);
    }
}

impl Walk for MediaPlayer<'_> {
    const NAME: &'static str = "media_player";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("url", "`url`"), Some(self.url));
        v.uint(key("width", "`width`"), self.width);
        v.uint(key("height", "`height`"), self.height);
    }
}

impl Walk for Extension<'_> {
    const NAME: &'static str = "extension";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(
            key("path", "local names from the feed's or entry's child down to this element, `/`"),
            Some(self.path),
        );
        v.uint(
            key("parent", "index in this list of the parent element (absent: a direct child)"),
            self.parent,
        );
        v.str(key("namespace", "namespace URI (absent: no namespace)"), self.namespace);
        v.str(key("name", "local name"), Some(self.name));
        v.list(key("attributes", "attributes, namespace declarations excepted"), &self.attributes);
        v.str(key("text", "the element's own text, trimmed"), self.text);
    }
}

impl Walk for ExtensionAttribute<'_> {
    const NAME: &'static str = "extension_attribute";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("namespace", "namespace URI (absent: no prefix)"), self.namespace);
        v.str(key("name", "local name"), Some(self.name));
        v.str(key("value", "the value, references decoded"), Some(self.value));
    }
}
