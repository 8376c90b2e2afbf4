//! Compaction of a finished parse for [`super::OwnedParsed`]: every value the result borrows
//! from the parse's arena is copied into one store sized exactly for it, so the arena — its
//! chunks grown by doubling, the HTML builders' reserved node lists, intermediate values no
//! field points to — can be dropped. Values borrowing the document (or `'static` data) are
//! left where they are; every list of the model is rebuilt with no spare capacity. HTML
//! values are kept encoded ([`Packed`], beside the store): over the real-feed corpus their
//! node lists were 34 of the 35.5 MB the store would otherwise hold.
//!
//! Two walks over the same fields: [`Compact::extent`] sums what the copy allocates in the
//! store (each allocation's size plus its alignment less one, an upper bound whatever the
//! order), then [`Compact::compact`] copies into a store of that capacity (one chunk).
//!
//! Every model type is listed once below with all its fields (destructured without `..`, so
//! a field added to the model without being listed here does not compile).

use std::cell::RefCell;
use std::mem::{align_of, size_of, size_of_val};

use bumpalo::Bump;

use crate::format::Parsed;
use crate::model::ext::{
    Category, Cloud, Extension, ExtensionAttribute, Generator, ImageInfo, InReplyTo,
    ItunesCategory, ItunesEntry, ItunesFeed, ItunesOwner, Link, MediaContent, MediaCredit,
    MediaEntry, MediaPlayer, MediaRating, PodcastAlternateEnclosure, PodcastBlock, PodcastChapters,
    PodcastChat, PodcastContentLink, PodcastEntry, PodcastEpisode, PodcastFeed, PodcastFunding,
    PodcastImage, PodcastIntegrity, PodcastLicense, PodcastLive, PodcastLocation, PodcastLocked,
    PodcastPerson, PodcastRemoteItem, PodcastSeason, PodcastSocialInteract, PodcastSoundbite,
    PodcastSource, PodcastTrailer, PodcastTranscript, PodcastTxt, PodcastUpdateFrequency,
    PodcastValue, PodcastValueRecipient, PodcastValueTimeSplit, Source, Syndication, TextInput,
};
use crate::model::fragment::{Attribute, Element, Html, Node, NodeKind, Packed};
use crate::model::lenient_date::LenientDate;
use crate::model::{Enclosure, Entry, Feed, Image, Person, Text, Timestamp};

/// Where values are copied from and to.
pub(super) struct Compactor<'s> {
    /// The used part of each of the parse arena's chunks (`start`, `end` addresses).
    arena: Vec<(usize, usize)>,
    /// The store the values are copied into.
    store: &'s Bump,
    /// The document, which HTML values encoded for keeping point into.
    doc: *const str,
    /// The HTML values, encoded (kept beside the store: they own heap data). Each on the
    /// heap on its own: the values point to each, and the list grows.
    packed: RefCell<Vec<KeptPacked>>,
}

/// An encoded HTML value that compacted values point to: owned through a raw pointer, not a
/// `Box`, because moving a `Box` (into the list, the list into the result) asserts it is the
/// only access to its contents, which the values' references into it contradict (Stacked
/// Borrows; `cargo +nightly miri test --lib parse::owned` checks it). Freed on drop.
pub(super) struct KeptPacked(std::ptr::NonNull<Packed>);

impl KeptPacked {
    fn new(packed: Packed) -> Self {
        KeptPacked(std::ptr::NonNull::from(Box::leak(Box::new(packed))))
    }

    /// The value, for as long as the caller keeps `self` alive (the caller's promise).
    ///
    /// # Safety
    ///
    /// The reference must not be used after `self` is dropped.
    unsafe fn get<'k>(&self) -> &'k Packed {
        // SAFETY: allocated by `new`, freed only by `drop`; the caller bounds the lifetime.
        unsafe { self.0.as_ref() }
    }
}

impl Drop for KeptPacked {
    fn drop(&mut self) {
        // SAFETY: allocated by `Box::new` in `new`, and dropped once, here.
        drop(unsafe { Box::from_raw(self.0.as_ptr()) });
    }
}

// SAFETY: a `KeptPacked` owns its `Packed` as a `Box` would (`Packed` is `Send + Sync`).
unsafe impl Send for KeptPacked {}
// SAFETY: as for `Send`: shared access only reads the `Packed`.
unsafe impl Sync for KeptPacked {}

impl<'s> Compactor<'s> {
    /// A compactor moving what lies in `arena` into `store`.
    ///
    /// # Safety
    ///
    /// The values [`Compact::compact`] returns borrow `store` under the lifetime of the values
    /// they were copied from: the caller keeps `store` (its chunks) alive and unmoved-from as
    /// long as it uses them, and allocates nothing else from `arena` meanwhile.
    /// `doc` (the document the values read) stays alive and unchanged while they are used.
    pub(super) unsafe fn new(arena: &Bump, store: &'s Bump, doc: &str) -> Self {
        // SAFETY: the chunks are only read as address ranges; nothing allocates from `arena`
        // while the compactor lives (the caller's promise).
        let mut chunks: Vec<(usize, usize)> = unsafe { arena.iter_allocated_chunks_raw() }
            .map(|(p, len)| (p as usize, p as usize + len))
            .collect();
        chunks.sort_unstable();
        Compactor { arena: chunks, store, doc, packed: RefCell::new(Vec::new()) }
    }

    /// A compactor over the same arena into another store.
    ///
    /// # Safety
    ///
    /// As [`Compactor::new`].
    pub(super) unsafe fn into_store<'t>(self, store: &'t Bump) -> Compactor<'t> {
        Compactor { arena: self.arena, store, doc: self.doc, packed: self.packed }
    }

    /// The encoded HTML values, which the compacted values point to.
    pub(super) fn into_packed(self) -> Vec<KeptPacked> {
        self.packed.into_inner()
    }

    /// Whether the value at `p` lives in the parse's arena (and must be copied).
    #[inline]
    fn in_arena(&self, p: *const u8) -> bool {
        let p = p as usize;
        let i = self.arena.partition_point(|&(start, _)| start <= p);
        i > 0 && p < self.arena[i - 1].1
    }

    /// A slice that must be copied when it lives in the arena: the store's copy, with each
    /// element compacted; else `s` itself.
    fn slice<'x, T: Compact + Copy>(&self, s: &'x [T]) -> &'x [T] {
        if s.is_empty() {
            return &[];
        }
        if !self.in_arena(s.as_ptr().cast()) {
            return s;
        }
        let copy = self.store.alloc_slice_fill_iter(s.iter().map(|v| v.compact(self)));
        // SAFETY: the store outlives every use of the compacted values (`Compactor::new`).
        unsafe { &*(copy as *const [T]) }
    }

    /// What [`Compactor::slice`] allocates for `s`.
    fn slice_extent<T: Compact>(&self, s: &[T]) -> usize {
        let own = if !s.is_empty() && self.in_arena(s.as_ptr().cast()) {
            size_of_val(s) + align_of::<T>() - 1
        } else {
            0
        };
        own + s.iter().map(|v| v.extent(self)).sum::<usize>()
    }
}

/// A value that can be copied out of the parse's arena.
pub(super) trait Compact: Sized {
    /// The bytes [`Compact::compact`] allocates in the store (an upper bound).
    fn extent(&self, c: &Compactor<'_>) -> usize;
    /// The value with everything it borrows from the arena copied into the store, and its
    /// lists rebuilt with no spare capacity.
    fn compact(&self, c: &Compactor<'_>) -> Self;
}

/// The parse result compacted (see the module docs); the diagnostics lose their spare
/// capacity.
pub(super) fn parsed<'a>(mut parsed: Parsed<'a>, c: &Compactor<'_>) -> Parsed<'a> {
    parsed.diagnostics.shrink_to_fit();
    parsed.feed = parsed.feed.as_ref().map(|f| f.compact(c));
    parsed
}

/// What [`parsed`] allocates in the store.
pub(super) fn parsed_extent(parsed: &Parsed<'_>, c: &Compactor<'_>) -> usize {
    parsed.feed.extent(c)
}

/// Types with no borrowed data.
macro_rules! copied {
    ($($t:ty),* $(,)?) => {$(
        impl Compact for $t {
            #[inline]
            fn extent(&self, _: &Compactor<'_>) -> usize {
                0
            }
            #[inline]
            fn compact(&self, _: &Compactor<'_>) -> Self {
                *self
            }
        }
    )*};
}

copied!(bool, u8, u32, u64, f64, Timestamp);

/// Model structs: every field compacted.
macro_rules! structs {
    ($($name:ident { $($f:ident),* $(,)? }),* $(,)?) => {$(
        impl Compact for $name<'_> {
            fn extent(&self, c: &Compactor<'_>) -> usize {
                let $name { $($f),* } = self;
                0 $(+ $f.extent(c))*
            }
            fn compact(&self, c: &Compactor<'_>) -> Self {
                let $name { $($f),* } = self;
                $name { $($f: $f.compact(c)),* }
            }
        }
    )*};
}

structs! {
    Image { url, width, height, rel },
    Person { name, email, page_url, icon },
    Enclosure { url, mime_type, length, title, duration, source },
    Entry {
        title, subtitle, summary, content, content_language, page_url, thumbnail, duration,
        published, updated, authors, categories, enclosures, id, id_is_permalink, comments,
        source, category_details, contributors, itunes, podcast, published_lenient,
        updated_lenient, published_raw, updated_raw, comment_count, comment_feed_url,
        thread_total, in_reply_to, topics, links, media, extensions,
    },
    Feed {
        title, subtitle, description, page_url, feed_url, prev_feed_url, next_feed_url, icon,
        logo, updated, authors, entries, id, language, generator, rights, ttl, skip_hours,
        skip_days, image, category_details, contributors, itunes, podcast, updated_lenient,
        updated_raw, version, pub_date, last_build_date, pub_date_raw, last_build_date_raw,
        updated_from, web_master, docs, cloud, rating, text_input, syndication, topics, links,
        extensions,
    },
    Category { term, scheme, label },
    Generator { name, uri, version },
    ImageInfo { url, title, link, description, width, height, display_width, display_height },
    Cloud { domain, port, path, register_procedure, protocol },
    TextInput { title, description, name, link },
    Syndication { update_period, update_frequency, update_base, update_base_raw },
    Link { rel, url, mime_type, title, hreflang, length, count, updated, updated_raw },
    InReplyTo { id, url, mime_type, source },
    MediaContent {
        url, mime_type, medium, width, height, file_size, duration, bitrate, lang, is_default,
        expression, group,
    },
    MediaCredit { name, role, scheme },
    MediaRating { value, scheme },
    MediaPlayer { url, width, height },
    MediaEntry { contents, description, credits, ratings, player, keywords },
    Source { title, url },
    ItunesCategory { text, subcategories },
    ItunesOwner { name, email },
    ItunesFeed { explicit, kind, categories, owner, block, complete, new_feed_url, keywords },
    ItunesEntry { explicit, episode, season, episode_type, block, title, keywords },
    PodcastPerson { name, role, group, img, href },
    PodcastTranscript { url, mime_type, language, rel },
    PodcastChapters { url, mime_type },
    PodcastFunding { url, message },
    PodcastLocked { locked, owner },
    PodcastSeason { number, name },
    PodcastEpisode { number, display },
    PodcastValue { kind, method, suggested, recipients, time_splits },
    PodcastValueRecipient { name, custom_key, custom_value, kind, address, split, fee },
    PodcastValueTimeSplit {
        start_time, duration, remote_start_time, remote_percentage, remote_item, recipients,
    },
    PodcastRemoteItem { feed_guid, feed_url, item_guid, medium, title },
    PodcastSoundbite { start_time, duration, title },
    PodcastAlternateEnclosure {
        mime_type, length, bitrate, height, lang, title, rel, codecs, default, sources,
        integrity,
    },
    PodcastSource { uri, content_type },
    PodcastIntegrity { kind, value },
    PodcastLocation { name, geo, osm, rel, country },
    PodcastTrailer { title, url, pubdate, pubdate_raw, length, mime_type, season },
    PodcastLicense { name, url },
    PodcastImage { href, alt, aspect_ratio, width, height, mime_type, purpose },
    PodcastTxt { text, purpose },
    PodcastBlock { blocked, id },
    PodcastUpdateFrequency { description, complete, dtstart, dtstart_raw, rrule },
    PodcastSocialInteract { uri, protocol, account_id, account_url, priority },
    PodcastChat { server, protocol, account_id, space },
    PodcastLive { status, start, start_raw, end, end_raw },
    PodcastContentLink { href, text },
    PodcastFeed {
        guid, locked, funding, persons, medium, locations, license, images, values, txts,
        blocks, update_frequency, trailers, remote_items, podroll, publisher, social_interacts,
        chat, podping,
    },
    PodcastEntry {
        transcripts, chapters, persons, season, episode, live, soundbites,
        alternate_enclosures, locations, license, images, values, txts, social_interacts, chat,
        content_links,
    },
    Extension { path, parent, namespace, name, attributes, text },
    ExtensionAttribute { namespace, name, value },
    Element { namespace, prefix, local, attrs },
    Attribute { namespace, prefix, local, value },
    Node { kind, end },
}

impl<T: Compact> Compact for Option<T> {
    #[inline]
    fn extent(&self, c: &Compactor<'_>) -> usize {
        self.as_ref().map_or(0, |v| v.extent(c))
    }
    #[inline]
    fn compact(&self, c: &Compactor<'_>) -> Self {
        self.as_ref().map(|v| v.compact(c))
    }
}

impl<T: Compact> Compact for Vec<T> {
    fn extent(&self, c: &Compactor<'_>) -> usize {
        self.iter().map(|v| v.extent(c)).sum()
    }
    fn compact(&self, c: &Compactor<'_>) -> Self {
        let mut out = Vec::with_capacity(self.len());
        out.extend(self.iter().map(|v| v.compact(c)));
        out
    }
}

impl<T: Compact> Compact for Box<T> {
    fn extent(&self, c: &Compactor<'_>) -> usize {
        (**self).extent(c)
    }
    fn compact(&self, c: &Compactor<'_>) -> Self {
        Box::new((**self).compact(c))
    }
}

impl Compact for &str {
    #[inline]
    fn extent(&self, c: &Compactor<'_>) -> usize {
        if !self.is_empty() && c.in_arena(self.as_ptr()) {
            self.len()
        } else {
            0
        }
    }
    #[inline]
    fn compact(&self, c: &Compactor<'_>) -> Self {
        if self.is_empty() {
            return "";
        }
        if !c.in_arena(self.as_ptr()) {
            return self;
        }
        let copy = c.store.alloc_str(self);
        // SAFETY: the store outlives every use of the compacted values (`Compactor::new`).
        unsafe { &*(copy as *const str) }
    }
}

impl Compact for &LenientDate {
    fn extent(&self, c: &Compactor<'_>) -> usize {
        if c.in_arena((*self as *const LenientDate).cast()) {
            size_of::<LenientDate>() + align_of::<LenientDate>() - 1
        } else {
            0
        }
    }
    fn compact(&self, c: &Compactor<'_>) -> Self {
        if !c.in_arena((*self as *const LenientDate).cast()) {
            return self;
        }
        let copy = c.store.alloc(**self);
        // SAFETY: the store outlives every use of the compacted values (`Compactor::new`).
        unsafe { &*(copy as *const LenientDate) }
    }
}

impl Compact for &[Attribute<'_>] {
    fn extent(&self, c: &Compactor<'_>) -> usize {
        c.slice_extent(self)
    }
    fn compact(&self, c: &Compactor<'_>) -> Self {
        c.slice(self)
    }
}

impl Compact for NodeKind<'_> {
    fn extent(&self, c: &Compactor<'_>) -> usize {
        match self {
            NodeKind::Element(e) => e.extent(c),
            NodeKind::Text(s) | NodeKind::Comment(s) => s.extent(c),
            NodeKind::ProcessingInstruction { target, data } => target.extent(c) + data.extent(c),
        }
    }
    fn compact(&self, c: &Compactor<'_>) -> Self {
        match self {
            NodeKind::Element(e) => NodeKind::Element(e.compact(c)),
            NodeKind::Text(s) => NodeKind::Text(s.compact(c)),
            NodeKind::Comment(s) => NodeKind::Comment(s.compact(c)),
            NodeKind::ProcessingInstruction { target, data } => {
                NodeKind::ProcessingInstruction { target: target.compact(c), data: data.compact(c) }
            }
        }
    }
}

/// An HTML value is kept encoded ([`Packed`]: a few bytes a node, strings in the document
/// as offsets) rather than as its node list, 72 bytes a node.
impl Compact for Html<'_> {
    fn extent(&self, _: &Compactor<'_>) -> usize {
        0
    }
    fn compact(&self, c: &Compactor<'_>) -> Self {
        // SAFETY: the document outlives the compacted values (`Compactor::new`).
        let packed = KeptPacked::new(unsafe { Packed::new(self.nodes(), &*c.doc) });
        // SAFETY: the `KeptPacked` is kept with the compacted values
        // (`Compactor::into_packed`) and its contents never move.
        let kept: &Packed = unsafe { packed.get() };
        c.packed.borrow_mut().push(packed);
        Html::from_packed(kept)
    }
}

impl Compact for Text<'_> {
    fn extent(&self, c: &Compactor<'_>) -> usize {
        match self {
            Text::Plain(s) => s.extent(c),
            Text::Html(h) => h.extent(c),
        }
    }
    fn compact(&self, c: &Compactor<'_>) -> Self {
        match self {
            Text::Plain(s) => Text::Plain(s.compact(c)),
            Text::Html(h) => Text::Html(h.compact(c)),
        }
    }
}
