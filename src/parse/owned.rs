//! The owned result of a parse: [`OwnedParsed`] keeps a [`Parsed`] together with the document
//! text and the store its values borrow, so the one model serves callers who want no
//! lifetimes (`'static`, `Send + Sync`, storable in any collection) without a second, copied
//! set of types; [`OwnedEntry`] is one of its entries, on its own (sharing the document).
//!
//! The self-reference is a [`yoke::Yoke`] (ICU4X's crate for zero-copy values kept with their
//! backing data, already in the dependency tree through `url`): its cart is an `Arc` of a
//! [`Storage`], whose address never changes while the values borrow it, shared by the
//! entries taken out. The store is the values the parse made in its arena, copied into one
//! allocation sized for them once the parse is done (`super::compact`); the arena is dropped.

use std::fmt;
use std::sync::Arc;

use bumpalo::Bump;
use yoke::{Yoke, Yokeable};

use super::{run, run_noted, within_input_limit, DecodeNotes, ResponseDocument};
use crate::format::Parsed;
use crate::input::Response;
use crate::{Diagnostic, Entry, Error, Feed, Format, Options};

/// The parse result as the yoke holds it (a private wrapper, so the public [`Parsed`] does
/// not carry `yoke`'s trait in its API).
#[derive(Yokeable)]
struct YokedParsed<'a>(Parsed<'a>);

/// An entry as the yoke holds it.
#[derive(Yokeable)]
struct YokedEntry<'a>(Entry<'a>);

/// What the values of an [`OwnedParsed`] borrow: the decoded document, the store the values
/// the parse made (decoded text, resolved URLs) were compacted into, and the HTML values,
/// encoded.
struct Storage {
    text: String,
    /// Never read: it owns the chunks the values point into.
    _store: FrozenArena,
    /// Never read: the HTML values, encoded, which the values point to.
    _packed: Vec<super::compact::KeptPacked>,
}

/// The store of the compacted values, allocated from only while the result is built; never
/// read: it owns the chunks the values point into.
struct FrozenArena {
    _chunks: Bump,
}

// SAFETY: `Bump` is `!Sync` only because allocating takes `&self` and mutates through cells.
// A `FrozenArena` is allocated from solely inside `OwnedParsed::build`, on the building
// thread, before the `OwnedParsed` exists; no code path reaches the `Bump` afterwards (the
// `Storage` is private, its field is never read and no method hands it out). Sharing an
// `OwnedParsed` (or an `OwnedEntry`) between threads therefore only shares immutable bytes
// already written into the store's chunk.
//
// The values borrow the text's heap buffer and the store's chunk, never the `Storage`
// itself, so moving the `Arc` (yoke's cart) does not alias what they point into; a field
// borrowing `Storage` (a `&String`, a `&Bump`) must never be added to the model.
unsafe impl Sync for FrozenArena {}

/// A [`Parsed`] that owns what it borrows: `'static`, `Send + Sync`, the same result (the
/// feed with its HTML values as node trees, the diagnostics, the format and encoding, the
/// lint report) as the borrowed parse gives. Made by [`crate::parse`],
/// [`OwnedParsed::parse_bytes`], [`OwnedParsed::parse_str`] and
/// [`OwnedParsed::parse_response`].
///
/// It holds the decoded document, one allocation sized for the values the parse made
/// (decoded text, resolved URLs), copied out of the parse's arena once the parse is done,
/// and its HTML values encoded (a few bytes per node, strings of the document as offsets;
/// [`crate::model::fragment::Html::nodes`] decodes a value's nodes on its first call and
/// keeps them); its lists have no spare capacity. Over the real-feed corpus a kept result is
/// about twice the document's bytes in all.
///
/// ```
/// let body = b"<feed xmlns='http://www.w3.org/2005/Atom'><title>Hi</title></feed>";
/// let options = feedmill::Options::default();
/// let parsed = feedmill::OwnedParsed::parse_bytes(body, &options, Some("https://example.com/"))
///     .unwrap();
/// assert_eq!(parsed.get().format, Some(feedmill::Format::Atom));
/// assert_eq!(parsed.feed().unwrap().title_text().as_deref(), Some("Hi"));
/// assert!(parsed.diagnostics().is_empty());
/// ```
pub struct OwnedParsed {
    yoke: Yoke<YokedParsed<'static>, Arc<Storage>>,
}

impl OwnedParsed {
    /// Processes the bytes of a stored document as [`super::Parser::parse_bytes`] does, with
    /// `options`.
    pub fn parse_bytes(
        body: &[u8],
        options: &Options,
        base_url: Option<&str>,
    ) -> Result<OwnedParsed, Error> {
        within_input_limit(body.len(), options)?;
        let decoded = crate::input::decode::decode_with(body, None, options.recover());
        let (text, notes) = DecodeNotes::split(decoded);
        Self::build(text.into_owned(), |text, arena| {
            run_noted(arena, options, text, notes, base_url)
        })
    }

    /// Processes a decoded document as [`super::Parser::parse_str`] does, with `options`.
    pub fn parse_str(
        document: &str,
        options: &Options,
        base_url: Option<&str>,
    ) -> Result<OwnedParsed, Error> {
        // Before the copy (the parse checks it again).
        within_input_limit(document.len(), options)?;
        Self::build(document.to_owned(), |text, arena| run(arena, options, text, base_url))
    }

    /// Processes a response as [`super::Parser::parse_response`] does (status, computed MIME
    /// type, charset, the response URL as base URL), with `options`. A rejected response
    /// gives no feed and the `NotAFeed` diagnostic saying why.
    pub fn parse_response(
        response: &Response<'_>,
        options: &Options,
    ) -> Result<OwnedParsed, Error> {
        match super::response_document(response, options)? {
            ResponseDocument::Rejected(d) => {
                Self::build(String::new(), |_, _| Ok(Parsed::not_a_feed(d)))
            }
            ResponseDocument::Decoded { decoded, url } => {
                let (text, notes) = DecodeNotes::split(decoded);
                Self::build(text.into_owned(), |text, arena| {
                    run_noted(arena, options, text, notes, url)
                })
            }
        }
    }

    /// Runs `parse` over `text` and a fresh arena, then keeps `text` with the result
    /// compacted: what the values borrow from the arena copied into one store sized for it
    /// (`super::compact`), the arena dropped.
    fn build(
        text: String,
        parse: impl for<'a> FnOnce(&'a str, &'a Bump) -> Result<Parsed<'a>, Error>,
    ) -> Result<OwnedParsed, Error> {
        let arena = Bump::new();
        let parsed = parse(&text, &arena)?;
        let empty = Bump::new();
        // SAFETY: nothing allocates from `arena` while the compactors live; `store` is moved
        // (its chunks are not) into the `Storage` kept with the values copied into it.
        let measure = unsafe { super::compact::Compactor::new(&arena, &empty, &text) };
        let store = Bump::with_capacity(super::compact::parsed_extent(&parsed, &measure));
        let compactor = unsafe { measure.into_store(&store) };
        let compacted = super::compact::parsed(parsed, &compactor);
        let packed = compactor.into_packed();
        // SAFETY: `compacted` borrows only `text`'s heap buffer, `store`'s chunks and static
        // data (not `arena`: every value in it was copied); both are kept in the `Storage`
        // the yoke holds with it, and moving the `String` and the `Bump` moves neither.
        let compacted: Parsed<'static> =
            unsafe { std::mem::transmute::<Parsed<'_>, Parsed<'static>>(compacted) };
        drop(arena);
        let storage =
            Arc::new(Storage { text, _store: FrozenArena { _chunks: store }, _packed: packed });
        let yoke: Yoke<YokedParsed<'static>, Arc<Storage>> =
            Yoke::attach_to_cart(storage, |_: &Storage| YokedParsed(compacted));
        Ok(OwnedParsed { yoke })
    }

    /// The result, as a borrowed parse gives it.
    pub fn get(&self) -> &Parsed<'_> {
        &self.yoke.get().0
    }

    /// The feed, or `None` when the document is not a feed.
    pub fn feed(&self) -> Option<&Feed<'_>> {
        self.get().feed.as_ref()
    }

    /// What was recovered or ignored, in document order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.get().diagnostics
    }

    /// The format, when the document is a feed.
    pub fn format(&self) -> Option<Format> {
        self.get().format
    }

    /// The feed's entries, each on its own (`'static`, `Send + Sync`): to sort, filter and
    /// keep, also across feeds, with no lifetime to carry. Each shares this result's
    /// document and store (kept while any of them lives). Empty when there is no feed.
    pub fn entries(&self) -> Vec<OwnedEntry> {
        let n = self.feed().map_or(0, |f| f.entries.len());
        (0..n)
            .map(|i| OwnedEntry {
                yoke: self.yoke.map_project_cloned(move |parsed, _| {
                    let feed = parsed.0.feed.as_ref().expect("entries exist only in a feed");
                    YokedEntry(feed.entries[i].clone())
                }),
            })
            .collect()
    }

    /// The decoded document the result was read from. (When the `c1_control` recovery rule
    /// mapped C1 controls in text given to [`OwnedParsed::parse_str`], the values were read
    /// from a mapped copy, not kept: the values read from it are.)
    pub fn document(&self) -> &str {
        &self.yoke.backing_cart().text
    }
}

impl fmt::Debug for OwnedParsed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.get(), f)
    }
}

/// Two owned results are equal when their [`Parsed`] are (the documents may differ).
impl PartialEq for OwnedParsed {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

/// One entry of an [`OwnedParsed`], on its own: `'static`, `Send + Sync`, sharing the
/// document and store of the result it came from ([`OwnedParsed::entries`]).
pub struct OwnedEntry {
    yoke: Yoke<YokedEntry<'static>, Arc<Storage>>,
}

impl OwnedEntry {
    /// The entry.
    pub fn get(&self) -> &Entry<'_> {
        &self.yoke.get().0
    }
}

impl fmt::Debug for OwnedEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.get(), f)
    }
}

impl PartialEq for OwnedEntry {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Parser, Text};

    #[test]
    fn owned_results_are_static_send_and_sync() {
        fn assert_traits<T: Send + Sync + 'static>() {}
        assert_traits::<OwnedParsed>();
        assert_traits::<OwnedEntry>();
    }

    #[test]
    fn owned_parse_equals_the_borrowed_parse() {
        let doc = "<rss><channel><title>T</title><item><title>x</title>\
                   <description>&lt;p&gt;a &lt;b&gt;b&lt;/b&gt;&lt;/p&gt;</description>\
                   <link>/p</link></item></channel></rss>";
        let options = Options::default();
        let mut parser = Parser::new(options.clone());
        let borrowed = parser.parse_bytes(doc.as_bytes(), Some("https://h.example/")).unwrap();
        let owned =
            OwnedParsed::parse_bytes(doc.as_bytes(), &options, Some("https://h.example/")).unwrap();
        assert_eq!(owned.get(), &borrowed);
        assert_eq!(owned.feed().unwrap().entries[0].page_url, Some("https://h.example/p"));
        assert_eq!(owned.document(), doc);
    }

    #[test]
    fn an_owned_response_parse_equals_the_borrowed_one() {
        let body = b"<rss><channel><title>R</title><link>/home</link></channel></rss>";
        let ok = Response {
            status: 200,
            content_type: Some("application/rss+xml"),
            url: Some("https://r.example/feed"),
            body,
        };
        let options = Options::default();
        let mut parser = Parser::new(options.clone());
        let borrowed = parser.parse_response(&ok).unwrap();
        let owned = OwnedParsed::parse_response(&ok, &options).unwrap();
        assert_eq!(owned.get(), &borrowed);
        assert_eq!(owned.feed().unwrap().page_url, Some("https://r.example/home"));
        let not_found = Response { status: 404, ..ok };
        let owned = OwnedParsed::parse_response(&not_found, &options).unwrap();
        assert!(owned.feed().is_none());
        assert_eq!(owned.diagnostics().len(), 1);
    }

    #[test]
    fn not_a_feed_gives_none_with_the_diagnostics() {
        let owned =
            OwnedParsed::parse_str("<html><body/></html>", &Options::default(), None).unwrap();
        assert!(owned.feed().is_none());
        assert!(owned.entries().is_empty());
        assert!(!owned.diagnostics().is_empty());
    }

    #[test]
    fn a_decoded_body_is_kept_as_its_text() {
        let body = b"<?xml version='1.0' encoding='iso-8859-1'?><rss><channel><title>caf\xe9</title></channel></rss>";
        let owned = OwnedParsed::parse_bytes(body, &Options::default(), None).unwrap();
        assert_eq!(owned.feed().unwrap().title.as_ref().unwrap().to_string(), "café");
        assert!(owned.document().contains("café"));
    }

    #[test]
    fn entries_outlive_their_result_and_move_between_threads() {
        let doc = "<rss><channel><item><title>b</title></item><item><title>a</title></item>\
                   </channel></rss>";
        let owned = OwnedParsed::parse_str(doc, &Options::default(), None).unwrap();
        let mut entries = owned.entries();
        drop(owned);
        entries.sort_by_key(|e| e.get().title_text());
        let on_thread = std::thread::spawn(move || {
            entries.iter().filter_map(|e| e.get().title_text()).collect::<Vec<_>>()
        });
        assert_eq!(on_thread.join().unwrap(), ["a", "b"]);
    }

    #[test]
    fn values_are_kept_in_one_store_sized_for_them() {
        // Escaped HTML (nodes, attributes, decoded text) and resolved URLs live in the
        // parse's arena; a compacted result keeps them in one chunk of about their size.
        let item = "<item><link>/p</link><description>&lt;p class=&quot;c&quot;&gt;a &amp;amp; \
                    &lt;b&gt;b&lt;/b&gt;&lt;/p&gt;</description></item>";
        let doc = format!("<rss><channel>{}</channel></rss>", item.repeat(2000));
        let owned =
            OwnedParsed::parse_str(&doc, &Options::default(), Some("https://h.example/")).unwrap();
        let arena = Bump::new();
        let borrowed = run(&arena, &Options::default(), &doc, Some("https://h.example/")).unwrap();
        assert_eq!(owned.get(), &borrowed);
        let store = &owned.yoke.backing_cart()._store._chunks;
        // SAFETY: only the chunks' sizes are read; nothing allocates from the store.
        let chunks: Vec<usize> =
            unsafe { store.iter_allocated_chunks_raw() }.map(|c| c.1).collect();
        assert_eq!(chunks.len(), 1);
        // What the parse's arena held for the same result, its chunks grown by doubling.
        let parse_arena = arena.allocated_bytes();
        assert!(store.allocated_bytes() * 2 < parse_arena, "{chunks:?} {parse_arena}");
        // Sized by an upper bound: up to 7 bytes of alignment per list, a page's rounding.
        let allocated = store.allocated_bytes();
        assert!(allocated <= chunks[0] + chunks[0] / 20 + 4096, "{allocated} {chunks:?}");
    }

    #[test]
    fn html_values_are_kept_encoded_and_give_the_same_nodes() {
        // Atom XHTML keeps prefixes, foreign namespaces, comments and processing
        // instructions; escaped HTML gives SVG with adjusted attributes and decoded text.
        let doc = "<feed xmlns='http://www.w3.org/2005/Atom' xmlns:x='http://www.w3.org/1999/xhtml'>\
            <entry><title type='xhtml'><x:div><x:p class='a' x:lang='en'>caf\u{e9} <x:b>b</x:b>\
            <!-- note --><?pi data?></x:p><q xmlns='urn:other' z='1'>o</q></x:div></title>\
            <content type='html'>&lt;p&gt;a &amp;amp; b&lt;svg viewbox=&quot;0 0 1 1&quot; \
            xlink:href=&quot;#u&quot;&gt;&lt;/svg&gt;&lt;/p&gt;&lt;p&gt;&lt;![CDATA[c]]&gt;</content>\
            <summary type='html'><![CDATA[<p>s <i>t</i></p>]]></summary></entry></feed>";
        let options = Options::default();
        let owned = OwnedParsed::parse_str(doc, &options, None).unwrap();
        let arena = Bump::new();
        let borrowed = run(&arena, &options, doc, None).unwrap();
        let (o, b) =
            (&owned.feed().unwrap().entries[0], &borrowed.feed.as_ref().unwrap().entries[0]);
        for (o, b) in [(&o.title, &b.title), (&o.content, &b.content), (&o.summary, &b.summary)] {
            let (Some(Text::Html(o)), Some(Text::Html(b))) = (o, b) else { panic!("{o:?}") };
            assert!(matches!(o.repr_for_tests(), "packed"));
            assert_eq!(o, b);
            assert_eq!(format!("{o:?}"), format!("{b:?}"));
            assert_eq!(o.to_xml_string(), b.to_xml_string());
            assert!(o.is_equal_node(b) && b.is_equal_node(o));
            assert_eq!(o.nodes(), b.nodes());
            // Kept once decoded: the same list on every call.
            assert!(std::ptr::eq(o.nodes(), o.nodes()));
        }
        let entries = owned.entries();
        drop(owned);
        let content = entries[0].get().content.as_ref().unwrap().to_string();
        assert_eq!(
            content,
            borrowed.feed.as_ref().unwrap().entries[0].content.as_ref().unwrap().to_string()
        );
    }

    #[test]
    fn kept_lists_have_no_spare_capacity() {
        let item = "<item><title>t</title></item>";
        let doc = format!("<rss><channel>{}<bogus/></channel></rss>", item.repeat(5));
        let owned = OwnedParsed::parse_str(&doc, &Options::default(), None).unwrap();
        let entries = &owned.feed().unwrap().entries;
        assert_eq!((entries.len(), entries.capacity()), (5, 5));
        let diagnostics = &owned.get().diagnostics;
        assert_eq!(diagnostics.len(), diagnostics.capacity());
    }
}
