//! [`Source`]: where a value extraction or feed discovery picked came from, one enum for
//! every `*_source` key of an extracted entry and for a discovered link's `found_by`.

/// Where a picked value came from. Each field that holds one says which variants it takes:
/// - `title_source` (an entry's `title_text`): [`Title`](Source::Title) or
///   [`Body`](Source::Body) (its first sentence or line, see
///   [`TITLE_FROM_BODY_MAX_CHARS`](crate::extract::TITLE_FROM_BODY_MAX_CHARS));
/// - `body_source` (the best body): [`Content`](Source::Content) or
///   [`Summary`](Source::Summary);
/// - `dedup_source` (the dedup key): [`Id`](Source::Id), [`Url`](Source::Url) or
///   [`Hash`](Source::Hash);
/// - `image_source` (an entry's `image_url`): [`Thumbnail`](Source::Thumbnail),
///   [`Media`](Source::Media), [`Enclosure`](Source::Enclosure) or [`Body`](Source::Body)
///   (the first `<img>` of the body);
/// - a discovered feed link's `source` (`found_by` in `discover` records):
///   [`Link`](Source::Link) or [`Anchor`](Source::Anchor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The entry's title.
    Title,
    /// The best body: for a title, its first sentence or line; for an image, its first
    /// `<img>` (content, then summary) that is not a tracking pixel.
    Body,
    /// `content`: Atom `content` or RSS `content:encoded`.
    Content,
    /// `summary`: Atom `summary` or RSS `description`.
    Summary,
    /// The entry's own identifier (Atom `id`, RSS `guid`, RDF `rdf:about`), as written.
    Id,
    /// The entry's canonical URL.
    Url,
    /// [`fnv1a64`](crate::extract::fnv1a64) of title and date (16 lowercase hex digits).
    Hash,
    /// The entry's thumbnail (`media:thumbnail`, `itunes:image`, JSON Feed `image`, or the
    /// image enclosure cleanup moved there).
    Thumbnail,
    /// A `media:content` with `medium="image"` or an `image/*` type.
    Media,
    /// An enclosure with an `image/*` type (or none and a `.jpg`/`.jpeg`/`.png`/`.gif`/`.webp`
    /// URL).
    Enclosure,
    /// `<link rel="alternate" type="…">` (rules 1–2 of Feed Discovery in
    /// docs/spec/feed-formats-and-extraction.md).
    Link,
    /// An `<a href>` whose path looks like a feed (rule 5 of Feed Discovery).
    Anchor,
}

impl Source {
    /// The name written in records (the `*_source` keys, `found_by`).
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Title => "title",
            Source::Body => "body",
            Source::Content => "content",
            Source::Summary => "summary",
            Source::Id => "id",
            Source::Url => "url",
            Source::Hash => "hash",
            Source::Thumbnail => "thumbnail",
            Source::Media => "media",
            Source::Enclosure => "enclosure",
            Source::Link => "link",
            Source::Anchor => "anchor",
        }
    }
}
