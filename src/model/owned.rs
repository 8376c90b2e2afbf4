//! The owned form of a parsed feed: [`OwnedFeed`] keeps a [`Feed`] together with the document
//! text and the arena its values borrow, so the one model serves callers who want no
//! lifetimes (`'static`, `Send + Sync`, storable in any collection) without a second,
//! copied set of types.
//!
//! The self-reference is a [`yoke::Yoke`] (ICU4X's crate for zero-copy values kept with their
//! backing data, already in the dependency tree through `url`): its cart is a boxed
//! [`Storage`], whose address never changes while the feed borrows it.

use std::fmt;

use bumpalo::Bump;
use yoke::{Yoke, Yokeable};

use super::Feed;
use crate::{Diagnostic, Error, Format, Options, Parsed, Parser};

/// The feed as the yoke holds it (a private wrapper, so the public [`Feed`] does not carry
/// `yoke`'s trait in its API).
#[derive(Yokeable)]
struct YokedFeed<'a>(Feed<'a>);

/// What the values of an [`OwnedFeed`] borrow: the decoded document and the parse's arena.
struct Storage {
    text: String,
    arena: FrozenArena,
}

/// The parse's arena, allocated from only while the feed is built.
struct FrozenArena(Bump);

// SAFETY: `Bump` is `!Sync` only because allocating takes `&self` and mutates through cells.
// A `FrozenArena` is allocated from solely inside `OwnedFeed::build`, on the building thread,
// before the `OwnedFeed` exists; no code path reaches the `Bump` afterwards (the `Storage` is
// private and no method hands it out). Sharing an `OwnedFeed` between threads therefore only
// shares immutable bytes already written into the arena's chunks.
//
// The feed borrows the text's heap buffer and the arena's chunks, never the boxed `Storage`
// itself, so moving the `Box` (yoke's cart) does not alias what the feed points into; a
// field borrowing `Storage` (a `&String`, a `&Bump`) must never be added to `Feed`.
unsafe impl Sync for FrozenArena {}

/// A parsed [`Feed`] that owns what it borrows: `'static`, `Send + Sync`, the same
/// [`Feed`] (HTML values as node trees, every field and accessor) as the borrowed parse
/// returns. Made by [`crate::parse`], [`crate::parse_owned`], [`OwnedFeed::parse_bytes`] and
/// [`OwnedFeed::parse_str`].
///
/// It holds the decoded document and the parse's arena, about one to three times the
/// document's size; a caller keeping only a few fields of many feeds should copy those out.
///
/// ```
/// let body: &[u8] = b"<rss><channel><title>News</title>\
///     <item><title>B</title><pubDate>Tue, 16 Jan 2024 08:00:00 GMT</pubDate></item>\
///     <item><title>A</title><pubDate>Mon, 15 Jan 2024 08:00:00 GMT</pubDate></item>\
///     </channel></rss>";
/// let mut owned = feedmill::parse(body).unwrap().expect("a feed");
/// owned.with_feed_mut(|feed| feed.entries.sort_by_key(|e| e.date()));
/// let feed = owned.feed();
/// assert_eq!(feed.title.as_ref().unwrap().to_string(), "News");
/// let titles: Vec<String> = feed.entries.iter().map(|e| e.title.as_ref().unwrap().to_string()).collect();
/// assert_eq!(titles, ["A", "B"]);
/// ```
pub struct OwnedFeed {
    yoke: Yoke<YokedFeed<'static>, Box<Storage>>,
    format: Format,
}

impl OwnedFeed {
    /// Processes the bytes of a stored document as [`Parser::parse_bytes`] does, with
    /// `options`; the feed (`None` when the document is not a feed) and the diagnostics.
    ///
    /// ```
    /// let body = b"<feed xmlns='http://www.w3.org/2005/Atom'><title>Hi</title></feed>";
    /// let options = feedmill::Options::default();
    /// let (feed, diagnostics) =
    ///     feedmill::OwnedFeed::parse_bytes(body, &options, None, Some("https://example.com/"))
    ///         .unwrap();
    /// assert_eq!(feed.unwrap().format(), feedmill::Format::Atom);
    /// assert!(diagnostics.is_empty());
    /// ```
    pub fn parse_bytes(
        body: &[u8],
        options: &Options,
        transport_charset: Option<&str>,
        base_url: Option<&str>,
    ) -> Result<(Option<OwnedFeed>, Vec<Diagnostic>), Error> {
        crate::within_input_limit(body.len(), options)?;
        let decoded = crate::input::decode::decode_with(body, transport_charset, options.recover());
        Self::build_decoded(decoded, options, base_url)
    }

    /// Processes a decoded document as [`Parser::parse_str`] does, with `options`.
    pub fn parse_str(
        document: &str,
        options: &Options,
        base_url: Option<&str>,
    ) -> Result<(Option<OwnedFeed>, Vec<Diagnostic>), Error> {
        // Before the copy (the parse checks it again).
        crate::within_input_limit(document.len(), options)?;
        Self::build(document.to_owned(), |text, arena| Parser::run(arena, options, text, base_url))
    }

    /// Processes a response as [`Parser::parse_response`] does (status, computed MIME type,
    /// charset, the response URL as base URL), with `options`. A rejected response gives no
    /// feed and the `NotAFeed` diagnostic saying why.
    pub fn parse_response(
        response: &crate::input::Response<'_>,
        options: &Options,
    ) -> Result<(Option<OwnedFeed>, Vec<Diagnostic>), Error> {
        match crate::response_document(response, options)? {
            crate::ResponseDocument::Rejected(d) => Ok((None, vec![d])),
            crate::ResponseDocument::Decoded { decoded, url } => {
                Self::build_decoded(decoded, options, url)
            }
        }
    }

    /// A decoded body, its text copied into the owned feed, then processed with the
    /// decoding's diagnostics first (as [`Parser`] processes it).
    fn build_decoded(
        decoded: crate::input::Decoded<'_>,
        options: &Options,
        base_url: Option<&str>,
    ) -> Result<(Option<OwnedFeed>, Vec<Diagnostic>), Error> {
        let (text, notes) = crate::DecodeNotes::split(decoded);
        Self::build(text.into_owned(), |text, arena| {
            Parser::run_noted(arena, options, text, notes, base_url)
        })
    }

    /// Runs `parse` over `text` and a fresh arena, both then kept with the feed. (The lint
    /// report of a parse with [`Options::lint`] is not kept: lint with a [`Parser`].)
    fn build(
        text: String,
        parse: impl for<'a> FnOnce(&'a str, &'a Bump) -> Result<Parsed<'a>, Error>,
    ) -> Result<(Option<OwnedFeed>, Vec<Diagnostic>), Error> {
        let storage = Box::new(Storage { text, arena: FrozenArena(Bump::new()) });
        let mut diagnostics = Vec::new();
        let mut format = None;
        let yoke = Yoke::try_attach_to_cart(storage, |storage: &Storage| {
            let parsed = parse(&storage.text, &storage.arena.0).map_err(Some)?;
            diagnostics = parsed.diagnostics;
            format = parsed.format;
            parsed.feed.map(YokedFeed).ok_or(None)
        });
        match (yoke, format) {
            (Ok(yoke), Some(format)) => Ok((Some(OwnedFeed { yoke, format }), diagnostics)),
            (Err(Some(e)), _) => Err(e),
            (Ok(_), None) => {
                debug_assert!(false, "a parse gives a format with every feed");
                Ok((None, diagnostics))
            }
            (Err(None), _) => Ok((None, diagnostics)),
        }
    }

    /// The feed.
    pub fn feed(&self) -> &Feed<'_> {
        &self.yoke.get().0
    }

    /// Changes the feed in place (e.g. sorts its entries). Values put in must be `'static`
    /// or taken from the feed itself, which the closure's signature enforces.
    pub fn with_feed_mut<'s, F>(&'s mut self, f: F)
    where
        F: 'static + for<'b> FnOnce(&'b mut Feed<'s>),
    {
        self.yoke.with_mut(move |yoked| f(&mut yoked.0));
    }

    /// The feed's format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The decoded document the feed was read from. (When the `c1_control` recovery rule
    /// mapped C1 controls in text given to [`OwnedFeed::parse_str`], the values were read
    /// from the mapped copy, kept in the arena.)
    pub fn document(&self) -> &str {
        &self.yoke.backing_cart().text
    }
}

impl fmt::Debug for OwnedFeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OwnedFeed")
            .field("format", &self.format)
            .field("feed", self.feed())
            .finish_non_exhaustive()
    }
}

/// Two owned feeds are equal when their formats and feeds are (the documents may differ).
impl PartialEq for OwnedFeed {
    fn eq(&self, other: &Self) -> bool {
        self.format == other.format && self.feed() == other.feed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owned_feed_is_static_send_and_sync() {
        fn assert_traits<T: Send + Sync + 'static>() {}
        assert_traits::<OwnedFeed>();
    }

    #[test]
    fn owned_parse_equals_the_borrowed_parse() {
        let doc = "<rss><channel><title>T</title><item><title>x</title>\
                   <description>&lt;p&gt;a &lt;b&gt;b&lt;/b&gt;&lt;/p&gt;</description>\
                   <link>/p</link></item></channel></rss>";
        let options = Options::default();
        let mut parser = Parser::new(options.clone());
        let borrowed =
            parser.parse_bytes(doc.as_bytes(), None, Some("https://h.example/")).unwrap();
        let (owned, diagnostics) =
            OwnedFeed::parse_bytes(doc.as_bytes(), &options, None, Some("https://h.example/"))
                .unwrap();
        let owned = owned.unwrap();
        assert_eq!(owned.feed(), borrowed.feed.as_ref().unwrap());
        assert_eq!(Some(owned.format()), borrowed.format);
        assert_eq!(diagnostics, borrowed.diagnostics);
        assert_eq!(owned.feed().entries[0].page_url, Some("https://h.example/p"));
        assert_eq!(owned.document(), doc);
    }

    #[test]
    fn an_owned_response_parse_equals_the_borrowed_one() {
        let body = b"<rss><channel><title>R</title><link>/home</link></channel></rss>";
        let ok = crate::input::Response {
            status: 200,
            content_type: Some("application/rss+xml"),
            url: Some("https://r.example/feed"),
            body,
        };
        let options = Options::default();
        let mut parser = Parser::new(options.clone());
        let borrowed = parser.parse_response(&ok).unwrap();
        let (owned, diagnostics) = OwnedFeed::parse_response(&ok, &options).unwrap();
        assert_eq!(owned.as_ref().map(|o| o.feed()), borrowed.feed.as_ref());
        assert_eq!(diagnostics, borrowed.diagnostics);
        assert_eq!(owned.unwrap().feed().page_url, Some("https://r.example/home"));
        let not_found = crate::input::Response { status: 404, ..ok };
        let (owned, diagnostics) = OwnedFeed::parse_response(&not_found, &options).unwrap();
        assert!(owned.is_none());
        assert_eq!(diagnostics.len(), 1);
    }

    #[test]
    fn not_a_feed_gives_none_with_the_diagnostics() {
        let (owned, diagnostics) =
            OwnedFeed::parse_str("<html><body/></html>", &Options::default(), None).unwrap();
        assert!(owned.is_none());
        assert!(!diagnostics.is_empty());
    }

    #[test]
    fn a_decoded_body_is_kept_as_its_text() {
        let body = b"<?xml version='1.0' encoding='iso-8859-1'?><rss><channel><title>caf\xe9</title></channel></rss>";
        let (owned, _) = OwnedFeed::parse_bytes(body, &Options::default(), None, None).unwrap();
        let owned = owned.unwrap();
        assert_eq!(owned.feed().title.as_ref().unwrap().to_string(), "café");
        assert!(owned.document().contains("café"));
    }

    #[test]
    fn mutation_in_place_keeps_the_values() {
        let doc = "<rss><channel><item><title>b</title></item><item><title>a</title></item>\
                   </channel></rss>";
        let (owned, _) = OwnedFeed::parse_str(doc, &Options::default(), None).unwrap();
        let mut owned = owned.unwrap();
        owned.with_feed_mut(|f| f.entries.reverse());
        let titles: Vec<String> =
            owned.feed().entries.iter().map(|e| e.title.as_ref().unwrap().to_string()).collect();
        assert_eq!(titles, ["a", "b"]);
        // Moving it to another thread (the yoke's cart is boxed) keeps the borrows valid.
        let on_thread = std::thread::spawn(move || owned.feed().entries.len());
        assert_eq!(on_thread.join().unwrap(), 2);
    }
}
