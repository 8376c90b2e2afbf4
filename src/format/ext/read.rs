//! The readers every module's arms share: trimmed text and typed values (recording what does
//! not read), attributes, dates with the lenient fallback, `rdf:about`, yes/no words, and the
//! uniqueness indexes (`Index`, `Seen`) that keep lists duplicate-free in linear time.

use std::collections::HashMap;
use std::hash::Hash;

use crate::model::ext::*;
use crate::model::lenient_date::{parse_lenient, LenientDate};
use crate::model::{date, Timestamp};
use crate::xml::{Tag, XmlReader};

use super::super::common::*;

/// The RDF namespace (`rdf:about`, `rdf:li@rdf:resource`).
pub const RDF: &str = crate::xml::ns::RDF;
pub use crate::xml::ns::{SLASH, SYNDICATION, TAXONOMY, THREAD, WFW};

/// Below this many items a uniqueness check scans the list; above it, a hash index of the
/// keys (built on first need) answers it, so adding n unique items costs O(n), not O(n²).
pub(super) const SCAN_MAX: usize = 16;

/// A first-position index of keys over an append-only list, for "add unless present"
/// steps that keep first-seen order. The list may also grow through other code: the index
/// catches up with the items appended since its last use.
pub struct Index<K> {
    map: HashMap<K, usize>,
    indexed: usize,
}

impl<K> Default for Index<K> {
    fn default() -> Self {
        Index { map: HashMap::new(), indexed: 0 }
    }
}

impl<K: Hash + Eq + Copy> Index<K> {
    /// The position of the first item of `items` whose key (`key`, `None`: no key) is `k`.
    pub fn position<T>(
        &mut self,
        items: &[T],
        key: impl Fn(&T) -> Option<K>,
        k: K,
    ) -> Option<usize> {
        if items.len() <= SCAN_MAX {
            return items.iter().position(|t| key(t) == Some(k));
        }
        if self.indexed > items.len() {
            // The list was replaced: start over.
            self.map.clear();
            self.indexed = 0;
        }
        for (i, t) in items.iter().enumerate().skip(self.indexed) {
            if let Some(kk) = key(t) {
                self.map.entry(kk).or_insert(i);
            }
        }
        self.indexed = items.len();
        self.map.get(&k).copied()
    }

    /// Whether an item of `items` has the key `k` (see [`Index::position`]).
    pub fn contains<T>(&mut self, items: &[T], key: impl Fn(&T) -> Option<K>, k: K) -> bool {
        self.position(items, key, k).is_some()
    }
}

/// The uniqueness indexes of one entry or one channel while it is read (see [`Index`]).
#[derive(Default)]
pub struct Seen<'a> {
    /// The spec's category set (terms).
    pub terms: Index<&'a str>,
    /// `category_details` by the whole category.
    pub categories: Index<Category<'a>>,
    /// `category_details` terms without a scheme (`dc:subject`).
    pub plain_terms: Index<&'a str>,
    /// Authors by name (`dc:creator`, `itunes:author`, RSS `author` without an email).
    pub authors: Index<Option<&'a str>>,
    /// `itunes:category` by `text`, and (text, subcategory) pairs.
    pub itunes: Index<&'a str>,
    /// `itunes:category` (text, subcategory) pairs already recorded.
    pub itunes_subs: std::collections::HashSet<(&'a str, &'a str)>,
    /// `itunes:keywords`.
    pub itunes_keywords: Index<&'a str>,
    /// `media:keywords`.
    pub media_keywords: Index<&'a str>,
    /// `taxo:topics` resources.
    pub topics: Index<&'a str>,
}

impl<'a> Seen<'a> {
    /// Adds `term` to the entry's category set (the spec's "add term to categories": unique,
    /// first-seen order).
    pub fn add_term(&mut self, terms: &mut Vec<&'a str>, term: &'a str) {
        if !term.is_empty() && !self.terms.contains(terms, |t| Some(*t), term) {
            terms.push(term);
        }
    }

    /// [`add_person`] with the author index.
    pub fn add_person(
        &mut self,
        authors: &mut Vec<crate::model::Person<'a>>,
        person: crate::model::Person<'a>,
    ) {
        if person.email.is_some() || !self.authors.contains(authors, |p| Some(p.name), person.name)
        {
            authors.push(person);
        }
    }

    /// A name-only author (`dc:creator`, `itunes:author`): appended when non-empty and new
    /// (looked up in the author index).
    pub fn add_named_author(
        &mut self,
        r: &mut XmlReader<'a>,
        authors: &mut Vec<crate::model::Person<'a>>,
        cx: &Ctx<'a>,
    ) {
        let t = text(r, cx);
        if !t.is_empty() && !self.authors.contains(authors, |p| Some(p.name), Some(t)) {
            authors.push(crate::model::Person { name: Some(t), ..Default::default() });
        }
    }

    pub(super) fn add_category(&mut self, cats: &mut Vec<Category<'a>>, c: Category<'a>) {
        if !self.categories.contains(cats, |c| Some(*c), c) {
            cats.push(c);
        }
    }
}

/// Adds the comma-separated keywords of the element's text (`itunes:keywords`,
/// `media:keywords`) to `list`: each trimmed, empty ones skipped, unique, first-seen order.
/// `seen` is the list's index, kept for the whole entry or channel, so that many keyword
/// elements cost linear time, not a re-index of the list each.
pub(super) fn add_keywords<'a>(
    r: &mut XmlReader<'a>,
    list: &mut Vec<&'a str>,
    seen: &mut Index<&'a str>,
    cx: &Ctx<'a>,
) {
    for k in text(r, cx).split(',').map(|k| k.trim_matches(is_space)) {
        if !k.is_empty() && !seen.contains(list, |t| Some(*t), k) {
            list.push(k);
        }
    }
}

/// Child text, trimmed; `None` when empty or whitespace-only.
pub fn trimmed<'a>(r: &mut XmlReader<'a>, cx: &Ctx<'a>) -> Option<&'a str> {
    let t = text(r, cx).trim_matches(is_space);
    (!t.is_empty()).then_some(t)
}

/// `conv` of `tag`'s trimmed text (the element is consumed); a value it rejects is recorded as
/// invalid ([`checked`]).
pub fn typed_text<'a, T>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    kind: &str,
    cx: &Ctx<'a>,
    conv: impl Fn(&'a str) -> Option<T>,
) -> Option<T> {
    let t = trimmed(r, cx);
    checked(r, tag.offset, tag.qname, kind, t, conv)
}

/// `conv` of `tag`'s trimmed attribute `name`; a value it rejects is recorded as invalid
/// ([`checked`]).
pub fn typed_attr<'a, T>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    name: &str,
    kind: &str,
    cx: &Ctx<'a>,
    conv: impl Fn(&'a str) -> Option<T>,
) -> Option<T> {
    checked_attr(r, tag, name, kind, attr_trimmed(tag, name, cx), conv)
}

/// An attribute value, trimmed; `None` when missing or empty.
pub fn attr_trimmed<'a>(tag: &Tag<'a>, name: &str, cx: &Ctx<'a>) -> Option<&'a str> {
    let v = tag.attr(cx.arena, name)?.trim_matches(is_space);
    (!v.is_empty()).then_some(v)
}

/// An attribute value resolved as a URL against the base; `None` when missing or empty.
pub fn attr_url<'a>(tag: &Tag<'a>, name: &str, cx: &Ctx<'a>) -> Option<&'a str> {
    let v = tag.attr(cx.arena, name).filter(|v| !v.trim_matches(is_space).is_empty())?;
    cx.resolve(v)
}

/// The `rdf:about` attribute of `tag` (by namespace, any prefix), trimmed.
pub fn rdf_about<'a>(r: &XmlReader<'a>, tag: &Tag<'a>, cx: &Ctx<'a>) -> Option<&'a str> {
    for (name, raw) in tag.attrs() {
        if name.ends_with(":about") && r.attr_ns_uri(name) == RDF {
            let v = crate::xml::reader::decode_attr_value(cx.arena, raw).trim_matches(is_space);
            return (!v.is_empty()).then_some(v);
        }
    }
    None
}

/// The slots of one date of an entry or a feed: the spec's value, its lenient reading and the
/// text as written ([`crate::model::date::as_written`]), which always belongs to the value,
/// else to the lenient reading.
pub struct DateSlots<'s, 'a> {
    /// The spec's value.
    pub value: &'s mut Option<Timestamp>,
    /// The lenient reading (kept while `value` is null).
    pub lenient: &'s mut Option<&'a LenientDate>,
    /// The text as written, when not canonical.
    pub raw: &'s mut Option<&'a str>,
}

impl<'a> DateSlots<'_, 'a> {
    /// Sets the value (first one wins) with its text `t`, which replaces the text of a
    /// lenient reading.
    pub fn fill(&mut self, v: Option<Timestamp>, t: &'a str) {
        if let (None, Some(v)) = (&self.value, v) {
            *self.value = Some(v);
            *self.raw = date::as_written(t, &v);
        }
    }
}

/// An entry's `updated` slots.
pub fn entry_updated<'s, 'a>(e: &'s mut crate::Entry<'a>) -> DateSlots<'s, 'a> {
    DateSlots { value: &mut e.updated, lenient: &mut e.updated_lenient, raw: &mut e.updated_raw }
}

/// An entry's `published` slots.
pub fn entry_published<'s, 'a>(e: &'s mut crate::Entry<'a>) -> DateSlots<'s, 'a> {
    DateSlots {
        value: &mut e.published,
        lenient: &mut e.published_lenient,
        raw: &mut e.published_raw,
    }
}

/// A feed's `updated` slots.
pub fn feed_updated<'s, 'a>(f: &'s mut crate::Feed<'a>) -> DateSlots<'s, 'a> {
    DateSlots { value: &mut f.updated, lenient: &mut f.updated_lenient, raw: &mut f.updated_raw }
}

/// A date element with the lenient fallback: the spec value is filled exactly as
/// `fill(slot, date_element(..))` would; when the strict parse fails, the slot is still empty
/// and no fallback was recorded yet, [`parse_lenient`] reads the raw text into `lenient`.
/// (The fallback is cleared at cleanup when a later element fills the spec slot.) The text is
/// kept as written beside the value it gave, when not canonical. Returns the element's instant
/// (strict, else lenient) with its text, whether or not it filled a slot.
pub fn date_with_fallback<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    syntax: DateSyntax,
    mut slots: DateSlots<'_, 'a>,
    cx: &Ctx<'a>,
) -> Option<(Timestamp, &'a str)> {
    let t = text(r, cx);
    let strict = match syntax {
        DateSyntax::Rfc3339 => date::parse_rfc3339(t),
        DateSyntax::W3cDtf => date::parse_w3cdtf(t),
        DateSyntax::Rfc822 => date::parse_rfc822(t),
    };
    let v = match strict {
        Some(v) => Some(v),
        None => {
            let keep = slots.value.is_none() && slots.lenient.is_none();
            lenient_or_invalid(r, tag, t, keep, &mut slots, cx)
        }
    };
    slots.fill(strict, t);
    v.map(|v| (v, t))
}

/// A date the spec's syntax rejected: read leniently into the lenient slot (with its text)
/// when `keep` (the first such value with no spec value before it), or recorded as invalid
/// when the lenient reading fails too. Returns the lenient reading's instant.
pub(super) fn lenient_or_invalid<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    t: &'a str,
    keep: bool,
    slots: &mut DateSlots<'_, 'a>,
    cx: &Ctx<'a>,
) -> Option<Timestamp> {
    let l = checked(r, tag.offset, tag.qname, kind::DATE, Some(t), parse_lenient)?;
    if keep {
        *slots.lenient = Some(&*cx.arena.alloc(l));
        *slots.raw = Some(t);
    }
    Some(l.timestamp)
}

/// `Some(true)` for `yes`, `Some(false)` for `no` (ASCII case-insensitive), else `None`.
pub(super) fn word_bool(v: &str, yes: &str, no: &str) -> Option<bool> {
    if v.eq_ignore_ascii_case(yes) {
        Some(true)
    } else if v.eq_ignore_ascii_case(no) {
        Some(false)
    } else {
        None
    }
}

/// `itunes:explicit` values.
pub fn parse_explicit(v: &str) -> Option<bool> {
    let v = v.trim_matches(is_space);
    if ["true", "yes", "explicit"].iter().any(|k| v.eq_ignore_ascii_case(k)) {
        Some(true)
    } else if ["false", "no", "clean"].iter().any(|k| v.eq_ignore_ascii_case(k)) {
        Some(false)
    } else {
        None
    }
}

/// `itunes:block` / `itunes:complete`: `Yes` → true, anything else → false.
pub fn parse_yes(v: &str) -> bool {
    v.trim_matches(is_space).eq_ignore_ascii_case("yes")
}

/// The namespace URI of an element in a namespace the reader does not name ([`Ns::Other`]),
/// looked up only for the local names the module arms read (the lookup allocates).
pub(super) fn module_ns<'a>(r: &XmlReader<'a>, tag: &Tag<'a>) -> &'a str {
    match tag.local {
        "comments" | "commentRss" | "commentRSS" | "total" | "in-reply-to" | "topics"
        | "updatePeriod" | "updateFrequency" | "updateBase" => r.element_ns_uri(tag.qname),
        _ => "",
    }
}

/// Attribute `name` of `tag` as a date: `strict`, else the lenient reading (as other dates);
/// recorded when neither reads it. The value and its text as written when not canonical.
pub fn attr_date<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    name: &str,
    strict: impl Fn(&str) -> Option<Timestamp>,
    cx: &Ctx<'a>,
) -> (Option<Timestamp>, Option<&'a str>) {
    let t = attr_trimmed(tag, name, cx);
    let read = |t: &str| strict(t).or_else(|| parse_lenient(t).map(|d| d.timestamp));
    match (typed_attr(r, tag, name, kind::DATE, cx, read), t) {
        (Some(v), Some(t)) => (Some(v), date::as_written(t, &v)),
        _ => (None, None),
    }
}
