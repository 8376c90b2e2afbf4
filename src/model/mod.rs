//! The spec's data model ("Data model" section of the Feed processing spec).
//!
//! Owns: [`Feed`], [`Entry`], [`Person`], [`Image`], [`Enclosure`], [`Text`], and their owned
//! (`'static`) forms produced by `into_owned`.
//!
//! Invariants:
//! - Every `&'a str` points either into the input document or into the per-parse
//!   [`bumpalo::Bump`] arena; both outlive `'a`. Nothing here allocates on the global heap
//!   except the `Vec`s of the owned form.
//! - Single-valued fields follow the spec's "first non-null wins": once set, a later element
//!   never overwrites them (the format state machines enforce this).
//! - URLs are already resolved and serialized by the WHATWG URL parser (see [`url`]).
//! - Dates are instants with their original fractional-second digits (see [`date`]).
//! - `Entry::categories` is a set: no duplicates, first-seen order kept for determinism.

mod access;
pub mod date;
pub mod ext;
pub mod lenient_date;
pub mod url;

use crate::html::Html;
pub use date::Timestamp;
pub use ext::{EntryExt, FeedExt, OwnedEntryExt, OwnedFeedExt};

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

    pub fn into_owned(&self) -> OwnedText {
        match self {
            Text::Plain(s) => OwnedText::Plain((*s).to_owned()),
            Text::Html(h) => OwnedText::Html { html: h.to_html_string(), xml: h.to_xml_string() },
        }
    }
}

/// An image (icon, logo, thumbnail, person icon).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Image<'a> {
    pub url: Option<&'a str>,
    pub width: Option<u64>,
    pub height: Option<u64>,
}

/// A person (author). The harness names the spec's `icon` "logo".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Person<'a> {
    pub name: Option<&'a str>,
    pub email: Option<&'a str>,
    pub page_url: Option<&'a str>,
    pub icon: Option<Image<'a>>,
}

/// An enclosure. `mime_type` is the attribute value as written (may be empty, may not parse).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Enclosure<'a> {
    pub url: Option<&'a str>,
    pub mime_type: Option<&'a str>,
    pub length: Option<u64>,
}

/// An entry (Atom entry, RSS item).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Entry<'a> {
    pub title: Option<Text<'a>>,
    pub subtitle: Option<Text<'a>>,
    pub summary: Option<Text<'a>>,
    pub content: Option<Text<'a>>,
    pub page_url: Option<&'a str>,
    pub thumbnail: Option<Image<'a>>,
    /// Duration in seconds (`itunes:duration`).
    pub duration: Option<u64>,
    pub published: Option<Timestamp>,
    pub updated: Option<Timestamp>,
    pub authors: Vec<Person<'a>>,
    /// A set of terms: unique, in first-seen order.
    pub categories: Vec<&'a str>,
    pub enclosures: Vec<Enclosure<'a>>,
    /// Fields beyond the spec's model (never consulted by the spec's steps).
    pub ext: EntryExt<'a>,
}

/// A feed. The spec's entry → feed back-reference is expressed by ownership: an entry's feed
/// is the feed whose `entries` holds it (see [`Feed::computed_authors`]).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Feed<'a> {
    pub title: Option<Text<'a>>,
    pub subtitle: Option<Text<'a>>,
    pub description: Option<Text<'a>>,
    pub page_url: Option<&'a str>,
    pub feed_url: Option<&'a str>,
    pub prev_feed_url: Option<&'a str>,
    pub next_feed_url: Option<&'a str>,
    pub icon: Option<Image<'a>>,
    pub logo: Option<Image<'a>>,
    pub updated: Option<Timestamp>,
    pub authors: Vec<Person<'a>>,
    pub entries: Vec<Entry<'a>>,
    /// Fields beyond the spec's model (never consulted by the spec's steps).
    pub ext: FeedExt<'a>,
}

impl<'a> Entry<'a> {
    /// Adds a term to the category set (spec: "add term to entry's categories").
    pub(crate) fn add_category(&mut self, term: &'a str) {
        if !term.is_empty() && !self.categories.contains(&term) {
            self.categories.push(term);
        }
    }
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

    /// Converts to the lifetime-free form.
    pub fn into_owned(&self) -> OwnedFeed {
        OwnedFeed {
            title: self.title.as_ref().map(Text::into_owned),
            subtitle: self.subtitle.as_ref().map(Text::into_owned),
            description: self.description.as_ref().map(Text::into_owned),
            page_url: owned(self.page_url),
            feed_url: owned(self.feed_url),
            prev_feed_url: owned(self.prev_feed_url),
            next_feed_url: owned(self.next_feed_url),
            icon: self.icon.map(|i| i.into_owned()),
            logo: self.logo.map(|i| i.into_owned()),
            updated: self.updated,
            authors: self.authors.iter().map(Person::into_owned).collect(),
            entries: self.entries.iter().map(Entry::into_owned).collect(),
            ext: self.ext.into_owned(),
        }
    }
}

pub(crate) fn owned(s: Option<&str>) -> Option<String> {
    s.map(str::to_owned)
}

impl Image<'_> {
    pub fn into_owned(self) -> OwnedImage {
        OwnedImage { url: owned(self.url), width: self.width, height: self.height }
    }
}

impl Person<'_> {
    pub fn into_owned(&self) -> OwnedPerson {
        OwnedPerson {
            name: owned(self.name),
            email: owned(self.email),
            page_url: owned(self.page_url),
            icon: self.icon.map(|i| i.into_owned()),
        }
    }
}

impl Enclosure<'_> {
    pub fn into_owned(&self) -> OwnedEnclosure {
        OwnedEnclosure {
            url: owned(self.url),
            mime_type: owned(self.mime_type),
            length: self.length,
        }
    }
}

impl Entry<'_> {
    pub fn into_owned(&self) -> OwnedEntry {
        OwnedEntry {
            title: self.title.as_ref().map(Text::into_owned),
            subtitle: self.subtitle.as_ref().map(Text::into_owned),
            summary: self.summary.as_ref().map(Text::into_owned),
            content: self.content.as_ref().map(Text::into_owned),
            page_url: owned(self.page_url),
            thumbnail: self.thumbnail.map(|i| i.into_owned()),
            duration: self.duration,
            published: self.published,
            updated: self.updated,
            authors: self.authors.iter().map(Person::into_owned).collect(),
            categories: self.categories.iter().map(|s| (*s).to_owned()).collect(),
            enclosures: self.enclosures.iter().map(Enclosure::into_owned).collect(),
            ext: self.ext.into_owned(),
        }
    }
}

/// Owned [`Text`]. An HTML value keeps both serializations: `html` (HTML5 fragment
/// serialization, for display) and `xml` (the spec harness's XML serialization, which is
/// also the canonical form compared by "same text content").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OwnedText {
    Plain(String),
    Html { html: String, xml: String },
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedImage {
    pub url: Option<String>,
    pub width: Option<u64>,
    pub height: Option<u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedPerson {
    pub name: Option<String>,
    pub email: Option<String>,
    pub page_url: Option<String>,
    pub icon: Option<OwnedImage>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedEnclosure {
    pub url: Option<String>,
    pub mime_type: Option<String>,
    pub length: Option<u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedEntry {
    pub title: Option<OwnedText>,
    pub subtitle: Option<OwnedText>,
    pub summary: Option<OwnedText>,
    pub content: Option<OwnedText>,
    pub page_url: Option<String>,
    pub thumbnail: Option<OwnedImage>,
    pub duration: Option<u64>,
    pub published: Option<Timestamp>,
    pub updated: Option<Timestamp>,
    pub authors: Vec<OwnedPerson>,
    pub categories: Vec<String>,
    pub enclosures: Vec<OwnedEnclosure>,
    pub ext: OwnedEntryExt,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedFeed {
    pub title: Option<OwnedText>,
    pub subtitle: Option<OwnedText>,
    pub description: Option<OwnedText>,
    pub page_url: Option<String>,
    pub feed_url: Option<String>,
    pub prev_feed_url: Option<String>,
    pub next_feed_url: Option<String>,
    pub icon: Option<OwnedImage>,
    pub logo: Option<OwnedImage>,
    pub updated: Option<Timestamp>,
    pub authors: Vec<OwnedPerson>,
    pub entries: Vec<OwnedEntry>,
    pub ext: OwnedFeedExt,
}
