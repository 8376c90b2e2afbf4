//! The `--extract` keys of the feed and of an entry (plain texts, normalized URLs and
//! categories, date flags), walked after the keys of the object they extend.

use crate::extract::{EntryExtraction, FeedExtraction};
use crate::record::{key, Visit};

pub(super) fn walk_feed_extraction<V: Visit>(v: &mut V, x: Option<&FeedExtraction<'_>>) {
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
    v.list(
        key(
            "authors_normalized",
            "`--extract`: `authors` as names are read: whitespace trimmed and collapsed, an \
             address inside a name (`jo@example.com (Jo)`, `Jo <jo@example.com>`) moved to \
             `email`, `mailto:` removed, empty and repeated persons dropped",
        ),
        x.map_or(&[], |x| x.authors_normalized),
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

pub(super) fn walk_entry_extraction<V: Visit>(v: &mut V, x: Option<&EntryExtraction<'_>>) {
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
    v.list(
        key(
            "authors_normalized",
            "`--extract`: the entry's own `authors`, normalized as the feed's",
        ),
        x.map_or(&[], |x| x.authors_normalized),
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
