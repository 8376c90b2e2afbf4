//! Arms for the fields beyond the spec's model ([`crate::model::ext`]), shared by the format
//! state machines. Each `fn` taking the reader right after a child's start tag consumes that
//! child completely, like the spec steps in [`super::common`].
//!
//! Cost: these arms run only for elements the spec tables do not match (or, for shared
//! elements like RSS `category`, as a few extra attribute reads); absent elements cost nothing
//! but the extra match arms.

use std::collections::HashMap;
use std::hash::Hash;

use crate::model::ext::*;
use crate::model::lenient_date::{parse_lenient, LenientDate};
use crate::model::url::resolve;
use crate::model::{date, Entry, Feed, Timestamp};
use crate::xml::{Ns, Tag, XmlReader};

use super::common::*;

/// The RDF namespace (`rdf:about`, `rdf:li@rdf:resource`).
pub const RDF: &str = crate::xml::ns::RDF;
/// RSS 1.0 `mod_slash`.
pub const SLASH: &str = "http://purl.org/rss/1.0/modules/slash/";
/// Well-Formed Web's CommentAPI (`wfw:commentRss`).
pub const WFW: &str = "http://wellformedweb.org/CommentAPI/";
/// RSS 1.0 `mod_syndication`.
pub const SYNDICATION: &str = "http://purl.org/rss/1.0/modules/syndication/";
/// RSS 1.0 `mod_taxonomy`.
pub const TAXONOMY: &str = "http://purl.org/rss/1.0/modules/taxonomy/";
/// Atom threading extensions (RFC 4685).
pub const THREAD: &str = "http://purl.org/syndication/thread/1.0";

/// Below this many items a uniqueness check scans the list; above it, a hash index of the
/// keys (built on first need) answers it, so adding n unique items costs O(n), not O(n²).
const SCAN_MAX: usize = 16;

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

    fn add_category(&mut self, cats: &mut Vec<Category<'a>>, c: Category<'a>) {
        if !self.categories.contains(cats, |c| Some(*c), c) {
            cats.push(c);
        }
    }
}

/// Adds the comma-separated keywords of the element's text (`itunes:keywords`,
/// `media:keywords`) to `list`: each trimmed, empty ones skipped, unique, first-seen order.
/// `seen` is the list's index, kept for the whole entry or channel, so that many keyword
/// elements cost linear time, not a re-index of the list each.
fn add_keywords<'a>(
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
    resolve(cx.arena, &cx.base, v)
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

/// A date element with the lenient fallback: the spec value is filled exactly as
/// `fill(slot, date_element(..))` would; when the strict parse fails, the slot is still empty
/// and no fallback was recorded yet, [`parse_lenient`] reads the raw text into `lenient`.
/// (The fallback is cleared at cleanup when a later element fills the spec slot.)
pub fn date_with_fallback<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    syntax: DateSyntax,
    slot: &mut Option<Timestamp>,
    lenient: &mut Option<&'a LenientDate>,
    cx: &Ctx<'a>,
) {
    let t = text(r, cx);
    let strict = match syntax {
        DateSyntax::Rfc3339 => date::parse_rfc3339(t),
        DateSyntax::W3cDtf => date::parse_w3cdtf(t),
        DateSyntax::Rfc822 => date::parse_rfc822(t),
    };
    if strict.is_none() {
        lenient_or_invalid(r, tag, t, slot.is_none() && lenient.is_none(), lenient, cx);
    }
    fill(slot, strict);
}

/// A date the spec's syntax rejected: read leniently into `lenient` when `keep` (the
/// first such value with no spec value before it), or recorded as invalid when the lenient
/// reading fails too.
fn lenient_or_invalid<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    t: &str,
    keep: bool,
    lenient: &mut Option<&'a LenientDate>,
    cx: &Ctx<'a>,
) {
    match checked(r, tag.offset, tag.qname, kind::DATE, Some(t), parse_lenient) {
        Some(l) if keep => *lenient = Some(&*cx.arena.alloc(l)),
        _ => {}
    }
}

/// The format version of a feed document from its root element: `rss@version` (trimmed,
/// as written); `1.0` for RSS 1.0 (`0.90` when the root binds RSS 0.90's namespace);
/// `1.0` for Atom 1.0; Atom 0.3's `feed@version`, else `0.3`. `None` for other roots.
pub fn version<'a>(root: &Tag<'a>, cx: &Ctx<'a>) -> Option<&'a str> {
    use crate::xml::ns;
    match (root.ns, root.local) {
        (Ns::Null, "rss") => attr_trimmed(root, "version", cx),
        (Ns::Rdf, "RDF") => {
            let rss090 = root.attrs().any(|(n, raw)| {
                (n == "xmlns" || n.starts_with("xmlns:"))
                    && matches!(raw.trim_matches(is_space), ns::RSS090 | ns::RSS090_ALT)
            });
            Some(if rss090 { "0.90" } else { "1.0" })
        }
        (Ns::Atom, "feed") => Some("1.0"),
        (Ns::Atom03, "feed") => attr_trimmed(root, "version", cx).or(Some("0.3")),
        _ => None,
    }
}

/// RSS 2.0 channel `pubDate` / `lastBuildDate` (`name`): the spec's `updated` (first
/// readable one wins, lenient fallback as [`date_with_fallback`]) and, apart, the element's
/// own value; `updated_from` names the element that set `updated`.
pub fn rss_channel_date<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    name: &'static str,
    feed: &mut Feed<'a>,
    cx: &Ctx<'a>,
) {
    let t = text(r, cx);
    let strict = date::parse_rfc822(t);
    if strict.is_none() {
        let keep = feed.updated.is_none() && feed.updated_lenient.is_none();
        lenient_or_invalid(r, tag, t, keep, &mut feed.updated_lenient, cx);
    }
    if feed.updated.is_none() && strict.is_some() {
        feed.updated = strict;
        feed.updated_from = Some(name);
    }
    let own = if name == "pubDate" { &mut feed.pub_date } else { &mut feed.last_build_date };
    fill(own, strict);
}

/// `Some(true)` for `yes`, `Some(false)` for `no` (ASCII case-insensitive), else `None`.
fn word_bool(v: &str, yes: &str, no: &str) -> Option<bool> {
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

/// A category of an RSS `category` element whose text is `term` (already read).
pub fn rss_category<'a>(
    cats: &mut Vec<Category<'a>>,
    seen: &mut Seen<'a>,
    tag: &Tag<'a>,
    term: &'a str,
    cx: &Ctx<'a>,
) {
    let term = term.trim_matches(is_space);
    if term.is_empty() {
        return;
    }
    let c = Category { term, scheme: attr_trimmed(tag, "domain", cx), label: None };
    seen.add_category(cats, c);
}

/// A category of an Atom `category` element (attributes only; the caller consumes it).
pub fn atom_category<'a>(
    cats: &mut Vec<Category<'a>>,
    seen: &mut Seen<'a>,
    tag: &Tag<'a>,
    cx: &Ctx<'a>,
) {
    if let Some(term) = attr_trimmed(tag, "term", cx) {
        let c = Category {
            term,
            scheme: attr_trimmed(tag, "scheme", cx),
            label: attr_trimmed(tag, "label", cx),
        };
        seen.add_category(cats, c);
    }
}

/// A term-only category (`dc:subject`): added unless a category with that term and no
/// scheme exists.
pub fn plain_category<'a>(cats: &mut Vec<Category<'a>>, seen: &mut Seen<'a>, term: &'a str) {
    let term = term.trim_matches(is_space);
    let key = |c: &Category<'a>| c.scheme.is_none().then_some(c.term);
    if !term.is_empty() && !seen.plain_terms.contains(cats, key, term) {
        cats.push(Category { term, scheme: None, label: None });
    }
}

/// RSS `skipHours`: `hour` children 0–23 (24 is read as 0, as some generators write 1–24).
pub fn skip_hours<'a>(r: &mut XmlReader<'a>, out: &mut Vec<u8>, cx: &Ctx<'a>) {
    while let Some(child) = r.next_child() {
        if child.local == "hour" && matches!(child.ns, Ns::Null | Ns::Rss1) {
            let hour = |t: &str| t.parse::<u8>().ok().filter(|&h| h <= 24);
            if let Some(h) = typed_text(r, &child, kind::HOUR, cx, hour) {
                let h = h % 24;
                if !out.contains(&h) {
                    out.push(h);
                }
            }
        } else {
            r.skip();
        }
    }
}

const DAYS: [&str; 7] =
    ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/// RSS `skipDays`: `day` children, normalized to the spec's day names (case-insensitive;
/// three-letter abbreviations accepted).
pub fn skip_days<'a>(r: &mut XmlReader<'a>, out: &mut Vec<&'static str>, cx: &Ctx<'a>) {
    while let Some(child) = r.next_child() {
        if child.local == "day" && matches!(child.ns, Ns::Null | Ns::Rss1) {
            let Some(t) = trimmed(r, cx) else { continue };
            let day = DAYS.iter().find(|d| {
                d.eq_ignore_ascii_case(t) || (t.len() == 3 && d[..3].eq_ignore_ascii_case(t))
            });
            match day {
                Some(d) if !out.contains(d) => out.push(d),
                Some(_) => {}
                None => invalid_value(r, child.offset, child.qname, kind::DAY, t),
            }
        } else {
            r.skip();
        }
    }
}

/// RSS `image`: the spec's logo (the first `url` child, processed as a URL element) and,
/// beside it, every sub-element. Consumes the image element.
pub fn rss_image<'a>(
    r: &mut XmlReader<'a>,
    ns: Ns,
    cx: &Ctx<'a>,
) -> (Option<crate::model::Image<'a>>, ImageInfo<'a>) {
    let mut logo = None;
    let mut seen_url = false;
    let mut info = ImageInfo::default();
    while let Some(child) = r.next_child() {
        if child.ns != ns {
            r.skip();
            continue;
        }
        match child.local {
            "url" if !seen_url => {
                seen_url = true;
                logo = url_element(r, cx)
                    .map(|u| crate::model::Image { url: Some(u), ..Default::default() });
                info.url = logo.and_then(|l| l.url);
            }
            "title" => fill(&mut info.title, trimmed(r, cx)),
            "link" => fill(&mut info.link, url_element(r, cx)),
            "description" => fill(&mut info.description, trimmed(r, cx)),
            "width" => fill(
                &mut info.width,
                typed_text(r, &child, kind::INTEGER, cx, non_negative_integer),
            ),
            "height" => {
                let v = typed_text(r, &child, kind::INTEGER, cx, non_negative_integer);
                fill(&mut info.height, v)
            }
            _ => r.skip(),
        }
    }
    // RSS 2.0 `image`: "Maximum value for width is 144, default value is 88. Maximum value
    // for height is 400, default value is 31."
    info.display_width = Some(info.width.map_or(88, |w| w.min(144)));
    info.display_height = Some(info.height.map_or(31, |h| h.min(400)));
    (logo, info)
}

/// RSS 2.0 `cloud` (attributes only; the caller consumes the element).
pub fn cloud<'a>(r: &mut XmlReader<'a>, tag: &Tag<'a>, cx: &Ctx<'a>) -> Option<Cloud<'a>> {
    let c = Cloud {
        domain: attr_trimmed(tag, "domain", cx),
        port: typed_attr(r, tag, "port", kind::INTEGER, cx, non_negative_integer),
        path: attr_trimmed(tag, "path", cx),
        register_procedure: attr_trimmed(tag, "registerProcedure", cx),
        protocol: attr_trimmed(tag, "protocol", cx),
    };
    (c != Cloud::default()).then_some(c)
}

/// RSS `textInput` / `textinput`: its `title`, `description`, `name` and `link` children
/// in namespace `ns`. Consumes the element.
pub fn text_input<'a>(r: &mut XmlReader<'a>, ns: Ns, cx: &Ctx<'a>) -> Option<TextInput<'a>> {
    let mut t = TextInput::default();
    while let Some(child) = r.next_child() {
        if child.ns != ns {
            r.skip();
            continue;
        }
        match child.local {
            "title" => fill(&mut t.title, trimmed(r, cx)),
            "description" => fill(&mut t.description, trimmed(r, cx)),
            "name" => fill(&mut t.name, trimmed(r, cx)),
            "link" => fill(&mut t.link, url_element(r, cx)),
            _ => r.skip(),
        }
    }
    (t != TextInput::default()).then_some(t)
}

/// The namespace URI of an element in a namespace the reader does not name ([`Ns::Other`]),
/// looked up only for the local names the module arms read (the lookup allocates).
fn module_ns<'a>(r: &XmlReader<'a>, tag: &Tag<'a>) -> &'a str {
    match tag.local {
        "comments" | "commentRss" | "commentRSS" | "total" | "in-reply-to" | "topics"
        | "updatePeriod" | "updateFrequency" | "updateBase" => r.element_ns_uri(tag.qname),
        _ => "",
    }
}

/// `taxo:topics`: the `resource` of each `rdf:li` in its `rdf:Bag` (any depth; as written,
/// trimmed, unique across the entry's or channel's `taxo:topics`, whose index `seen` is).
/// Consumes the element.
fn taxo_topics<'a>(
    r: &mut XmlReader<'a>,
    out: &mut Vec<&'a str>,
    seen: &mut Index<&'a str>,
    cx: &Ctx<'a>,
) {
    let mut depth = 0usize;
    loop {
        match r.next() {
            crate::xml::Event::Start(t) => {
                depth += 1;
                if t.ns == Ns::Rdf && t.local == "li" {
                    let v = t
                        .attrs()
                        .find(|(n, _)| {
                            (*n == "resource" || n.ends_with(":resource"))
                                && matches!(r.attr_ns_uri(n), "" | RDF)
                        })
                        .map(|(_, raw)| crate::xml::reader::decode_attr_value(cx.arena, raw))
                        .map(|v| v.trim_matches(is_space))
                        .filter(|v| !v.is_empty());
                    if let Some(v) = v {
                        if !seen.contains(out, |t| Some(*t), v) {
                            out.push(v);
                        }
                    }
                }
            }
            crate::xml::Event::End => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            crate::xml::Event::Eof => break,
            _ => {}
        }
    }
}

/// Channel-level module elements in namespaces the reader does not name: `sy:*`,
/// `taxo:topics`. Returns false (without consuming) for any other element.
pub fn module_channel<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    feed: &mut Feed<'a>,
    seen: &mut Seen<'a>,
    cx: &Ctx<'a>,
) -> bool {
    let ns = module_ns(r, tag);
    let x = &mut *feed;
    match (ns, tag.local) {
        (SYNDICATION, "updatePeriod") => {
            let v = trimmed(r, cx);
            let s = x.syndication.get_or_insert_with(Default::default);
            fill(&mut s.update_period, v);
        }
        (SYNDICATION, "updateFrequency") => {
            let v = typed_text(r, tag, kind::INTEGER, cx, non_negative_integer);
            let s = x.syndication.get_or_insert_with(Default::default);
            fill(&mut s.update_frequency, v);
        }
        (SYNDICATION, "updateBase") => {
            let v = typed_text(r, tag, kind::DATE, cx, date::parse_w3cdtf);
            let s = x.syndication.get_or_insert_with(Default::default);
            fill(&mut s.update_base, v);
        }
        (TAXONOMY, "topics") => taxo_topics(r, &mut x.topics, &mut seen.topics, cx),
        _ => return false,
    }
    if x.syndication.is_some_and(|s| s == Syndication::default()) {
        x.syndication = None;
    }
    true
}

/// Item-level module elements in namespaces the reader does not name: `slash:comments`,
/// `wfw:commentRss`, `thr:total`, `thr:in-reply-to`, `taxo:topics`. Returns false (without
/// consuming) for any other element.
pub fn module_item<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    entry: &mut Entry<'a>,
    seen: &mut Seen<'a>,
    cx: &Ctx<'a>,
) -> bool {
    let ns = module_ns(r, tag);
    let x = &mut *entry;
    match (ns, tag.local) {
        (SLASH, "comments") => {
            fill(&mut x.comment_count, typed_text(r, tag, kind::INTEGER, cx, non_negative_integer))
        }
        (WFW, "commentRss" | "commentRSS") => fill(&mut x.comment_feed_url, url_element(r, cx)),
        (THREAD, "total") => {
            fill(&mut x.thread_total, typed_text(r, tag, kind::INTEGER, cx, non_negative_integer))
        }
        (THREAD, "in-reply-to") => {
            r.skip();
            if let Some(id) = attr_trimmed(tag, "ref", cx) {
                x.in_reply_to.push(InReplyTo {
                    id,
                    url: attr_url(tag, "href", cx),
                    mime_type: attr_trimmed(tag, "type", cx),
                    source: attr_url(tag, "source", cx),
                });
            }
        }
        (TAXONOMY, "topics") => taxo_topics(r, &mut x.topics, &mut seen.topics, cx),
        _ => return false,
    }
    true
}

/// Appends the Atom `link` `tag` to `links` when its relation is one the spec does not read
/// (see [`other_link`]). Reads attributes only (the caller consumes the element).
pub fn collect_other_link<'a>(
    links: &mut Vec<Link<'a>>,
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    cx: &Ctx<'a>,
) {
    if let Some(l) = other_link(r, tag, cx) {
        links.push(l);
    }
}

/// An Atom `link` whose relation the spec does not read ([`Rel::Other`]), for the `links`
/// list: `None` for the spec's relations, or without a usable `href`. Reads attributes
/// only (the caller consumes the element).
pub fn other_link<'a>(r: &mut XmlReader<'a>, tag: &Tag<'a>, cx: &Ctx<'a>) -> Option<Link<'a>> {
    let raw_rel = tag.attr(cx.arena, "rel");
    if link_rel(raw_rel) != Rel::Other {
        return None;
    }
    let rel = raw_rel?.trim_matches(is_space);
    if rel.is_empty() {
        return None;
    }
    let url = attr_url(tag, "href", cx)?;
    let count = if rel == "replies" {
        let attr = tag.attrs().find(|(n, _)| n.ends_with(":count") && r.attr_ns_uri(n) == THREAD);
        attr.and_then(|(n, raw)| {
            let raw = Some(raw.trim_matches(is_space));
            checked_attr(r, tag, n, kind::INTEGER, raw, non_negative_integer)
        })
    } else {
        None
    };
    Some(Link {
        rel,
        url,
        mime_type: attr_trimmed(tag, "type", cx),
        title: attr_trimmed(tag, "title", cx),
        hreflang: attr_trimmed(tag, "hreflang", cx),
        length: typed_attr(r, tag, "length", kind::INTEGER, cx, non_negative_integer),
        count,
    })
}

/// A Media RSS number attribute: leading digits (a fraction such as `duration="12.5"` is
/// cut).
fn media_number<'a>(r: &mut XmlReader<'a>, tag: &Tag<'a>, name: &str, cx: &Ctx<'a>) -> Option<u64> {
    typed_attr(r, tag, name, kind::INTEGER, cx, leading_digits)
}

/// The attributes of a `media:content` (the caller consumes the element).
pub fn media_content<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    group: Option<u32>,
    cx: &Ctx<'a>,
) -> MediaContent<'a> {
    let is_default =
        typed_attr(r, tag, "isDefault", kind::TRUE_FALSE, cx, |v| word_bool(v, "true", "false"));
    MediaContent {
        url: attr_url(tag, "url", cx),
        mime_type: attr_trimmed(tag, "type", cx),
        medium: attr_trimmed(tag, "medium", cx),
        width: media_number(r, tag, "width", cx),
        height: media_number(r, tag, "height", cx),
        file_size: media_number(r, tag, "fileSize", cx),
        duration: media_number(r, tag, "duration", cx),
        bitrate: media_number(r, tag, "bitrate", cx),
        lang: attr_trimmed(tag, "lang", cx),
        is_default,
        expression: attr_trimmed(tag, "expression", cx),
        group,
    }
}

/// Records a `media:content` of the entry (beside the spec's enclosure, which the caller
/// handles), with its optional children (`description`, `credit`, `rating`, `player`).
/// Consumes the element.
pub fn media_content_element<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    entry: &mut Entry<'a>,
    group: Option<u32>,
    seen: &mut Seen<'a>,
    cx: &Ctx<'a>,
) {
    let c = media_content(r, tag, group, cx);
    let m = entry.media.get_or_insert_with(Default::default);
    m.contents.push(c);
    while let Some(child) = r.next_child() {
        if child.ns != Ns::MediaRss || !media_optional(r, &child, m, seen, cx) {
            r.skip();
        }
    }
}

/// The Media RSS optional elements read at every level: `description`, `credit`,
/// `rating`, `player`, `keywords`. Returns false (without consuming) for any other local name.
pub fn media_optional<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    m: &mut MediaEntry<'a>,
    seen: &mut Seen<'a>,
    cx: &Ctx<'a>,
) -> bool {
    match tag.local {
        "description" => fill(&mut m.description, trimmed(r, cx)),
        "keywords" => add_keywords(r, &mut m.keywords, &mut seen.media_keywords, cx),
        "credit" => {
            if let Some(name) = trimmed(r, cx) {
                m.credits.push(MediaCredit {
                    name,
                    role: attr_trimmed(tag, "role", cx),
                    scheme: attr_trimmed(tag, "scheme", cx),
                });
            }
        }
        "rating" => {
            if let Some(value) = trimmed(r, cx) {
                m.ratings.push(MediaRating { value, scheme: attr_trimmed(tag, "scheme", cx) });
            }
        }
        "player" => {
            r.skip();
            if let Some(url) = attr_url(tag, "url", cx) {
                fill(
                    &mut m.player,
                    Some(MediaPlayer {
                        url,
                        width: media_number(r, tag, "width", cx),
                        height: media_number(r, tag, "height", cx),
                    }),
                );
            }
        }
        _ => return false,
    }
    true
}

/// Item-level Media RSS elements the spec's table does not read: `description`, `credit`,
/// `rating`, `player`, `keywords`, and (with `group_content`) `media:group` holding `media:content`s
/// and the same optional elements, kept in [`MediaEntry`] only (the spec's RSS 2.0 item
/// table has no `media:group` row). Returns false (without consuming) for any other local
/// name.
pub fn media_item<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    entry: &mut Entry<'a>,
    groups: &mut u32,
    seen: &mut Seen<'a>,
    cx: &Ctx<'a>,
) -> bool {
    match tag.local {
        "description" | "credit" | "rating" | "player" | "keywords" => {
            let m = entry.media.get_or_insert_with(Default::default);
            media_optional(r, tag, m, seen, cx);
            if m.is_empty() {
                entry.media = None;
            }
            true
        }
        "group" => {
            let g = *groups;
            *groups += 1;
            while let Some(child) = r.next_child() {
                match (child.ns, child.local) {
                    (Ns::MediaRss, "content") => {
                        media_content_element(r, &child, entry, Some(g), seen, cx)
                    }
                    (Ns::MediaRss, _) => {
                        let m = entry.media.get_or_insert_with(Default::default);
                        if !media_optional(r, &child, m, seen, cx) {
                            r.skip();
                        }
                        if m.is_empty() {
                            entry.media = None;
                        }
                    }
                    _ => r.skip(),
                }
            }
            true
        }
        _ => false,
    }
}

/// Channel-level `itunes:*` elements the spec does not read. Returns false (without
/// consuming) for any other local name.
pub fn itunes_channel<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    it: &mut ItunesFeed<'a>,
    seen: &mut Seen<'a>,
    cx: &Ctx<'a>,
) -> bool {
    match tag.local {
        "explicit" => {
            let t = text(r, cx);
            fill(
                &mut it.explicit,
                checked(r, tag.offset, tag.qname, kind::YES_NO, Some(t), parse_explicit),
            )
        }
        "type" => fill(&mut it.kind, trimmed(r, cx)),
        "block" => fill(&mut it.block, Some(parse_yes(text(r, cx)))),
        "complete" => fill(&mut it.complete, Some(parse_yes(text(r, cx)))),
        "new-feed-url" => fill(&mut it.new_feed_url, url_element(r, cx)),
        "keywords" => add_keywords(r, &mut it.keywords, &mut seen.itunes_keywords, cx),
        "owner" => {
            let mut owner = ItunesOwner::default();
            while let Some(c) = r.next_child() {
                match (c.ns, c.local) {
                    (Ns::Itunes, "name") => fill(&mut owner.name, trimmed(r, cx)),
                    (Ns::Itunes, "email") => fill(&mut owner.email, trimmed(r, cx)),
                    _ => r.skip(),
                }
            }
            if it.owner.is_none() && (owner.name.is_some() || owner.email.is_some()) {
                it.owner = Some(owner);
            }
        }
        "category" => {
            // Categories unique by `text`, subcategories unique within their category; both
            // in first-seen order (hash indexes: linear in the number of elements).
            let Some(text) = attr_trimmed(tag, "text", cx) else {
                r.skip();
                return true;
            };
            let i = match seen.itunes.position(&it.categories, |c| Some(c.text), text) {
                Some(i) => i,
                None => {
                    it.categories.push(ItunesCategory { text, subcategories: Vec::new() });
                    it.categories.len() - 1
                }
            };
            while let Some(c) = r.next_child() {
                if c.ns == Ns::Itunes && c.local == "category" {
                    if let Some(t) = attr_trimmed(&c, "text", cx) {
                        if seen.itunes_subs.insert((text, t)) {
                            it.categories[i].subcategories.push(t);
                        }
                    }
                }
                r.skip();
            }
        }
        _ => return false,
    }
    true
}

/// Item-level `itunes:*` elements the spec does not read. Returns false (without consuming)
/// for any other local name.
pub fn itunes_item<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    it: &mut ItunesEntry<'a>,
    seen: &mut Seen<'a>,
    cx: &Ctx<'a>,
) -> bool {
    match tag.local {
        "explicit" => {
            let t = text(r, cx);
            fill(
                &mut it.explicit,
                checked(r, tag.offset, tag.qname, kind::YES_NO, Some(t), parse_explicit),
            )
        }
        "episode" => {
            fill(&mut it.episode, typed_text(r, tag, kind::INTEGER, cx, non_negative_integer))
        }
        "season" => {
            fill(&mut it.season, typed_text(r, tag, kind::INTEGER, cx, non_negative_integer))
        }
        "episodeType" => fill(&mut it.episode_type, trimmed(r, cx)),
        "block" => fill(&mut it.block, Some(parse_yes(text(r, cx)))),
        "title" => fill(&mut it.title, trimmed(r, cx)),
        "keywords" => add_keywords(r, &mut it.keywords, &mut seen.itunes_keywords, cx),
        _ => return false,
    }
    true
}

fn podcast_person<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    cx: &Ctx<'a>,
) -> Option<PodcastPerson<'a>> {
    let name = trimmed(r, cx)?;
    Some(PodcastPerson {
        name,
        role: attr_trimmed(tag, "role", cx),
        group: attr_trimmed(tag, "group", cx),
        img: attr_url(tag, "img", cx),
        href: attr_url(tag, "href", cx),
    })
}

/// Channel-level `podcast:*` elements (the caller matched `Ns::Podcast`). Always consumes.
pub fn podcast_channel<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    feed: &mut Feed<'a>,
    cx: &Ctx<'a>,
) {
    let pc = &mut feed.podcast;
    match tag.local {
        "guid" => fill(&mut pc.guid, trimmed(r, cx)),
        "locked" => {
            let locked = typed_text(r, tag, kind::YES_OR_NO, cx, |v| word_bool(v, "yes", "no"));
            if let Some(locked) = locked {
                fill(
                    &mut pc.locked,
                    Some(PodcastLocked { locked, owner: attr_trimmed(tag, "owner", cx) }),
                );
            }
        }
        "funding" => {
            let message = trimmed(r, cx);
            if let Some(url) = attr_url(tag, "url", cx) {
                pc.funding.push(PodcastFunding { url, message });
            }
        }
        "person" => {
            if let Some(p) = podcast_person(r, tag, cx) {
                pc.persons.push(p);
            }
        }
        _ => r.skip(),
    }
}

/// Item-level `podcast:*` elements (the caller matched `Ns::Podcast`). Always consumes.
pub fn podcast_item<'a>(r: &mut XmlReader<'a>, tag: &Tag<'a>, entry: &mut Entry<'a>, cx: &Ctx<'a>) {
    let pc = entry.podcast.get_or_insert_with(Default::default);
    match tag.local {
        "transcript" => {
            r.skip();
            if let Some(url) = attr_url(tag, "url", cx) {
                pc.transcripts.push(PodcastTranscript {
                    url,
                    mime_type: attr_trimmed(tag, "type", cx),
                    language: attr_trimmed(tag, "language", cx),
                    rel: attr_trimmed(tag, "rel", cx),
                });
            }
        }
        "chapters" => {
            r.skip();
            if let Some(url) = attr_url(tag, "url", cx) {
                fill(
                    &mut pc.chapters,
                    Some(PodcastChapters { url, mime_type: attr_trimmed(tag, "type", cx) }),
                );
            }
        }
        "person" => {
            if let Some(p) = podcast_person(r, tag, cx) {
                pc.persons.push(p);
            }
        }
        "season" => {
            let n = typed_text(r, tag, kind::INTEGER, cx, non_negative_integer);
            if let Some(number) = n {
                fill(
                    &mut pc.season,
                    Some(PodcastSeason { number, name: attr_trimmed(tag, "name", cx) }),
                );
            }
        }
        "episode" => {
            let number =
                |t: &'a str| t.parse::<f64>().is_ok_and(|v| v.is_finite() && v >= 0.0).then_some(t);
            let n = typed_text(r, tag, kind::NUMBER, cx, number);
            if let Some(number) = n {
                fill(
                    &mut pc.episode,
                    Some(PodcastEpisode { number, display: attr_trimmed(tag, "display", cx) }),
                );
            }
        }
        _ => r.skip(),
    }
    if pc.is_empty() {
        entry.podcast = None;
    }
}

/// Atom `generator` (1.0: `uri`; 0.3: `url`), consumed.
pub fn atom_generator<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    cx: &Ctx<'a>,
) -> Option<Generator<'a>> {
    let name = trimmed(r, cx);
    let uri = attr_url(tag, "uri", cx).or_else(|| attr_url(tag, "url", cx));
    let g = Generator { name, uri, version: attr_trimmed(tag, "version", cx) };
    (g.name.is_some() || g.uri.is_some()).then_some(g)
}

/// Atom entry `source`: its title and its `self` link, else its `alternate` link. Consumed.
pub fn atom_source<'a>(r: &mut XmlReader<'a>, cx: &Ctx<'a>) -> Option<Source<'a>> {
    let mut title = None;
    let mut self_url = None;
    let mut alt_url = None;
    while let Some(c) = r.next_child() {
        match (c.ns, c.local) {
            (Ns::Atom | Ns::Atom03, "title") => fill(&mut title, atom_plain_text(r, &c, cx)),
            (Ns::Atom | Ns::Atom03, "link") => {
                let link = atom_link(r, &c, cx);
                match link.rel {
                    Rel::SelfLink => fill(&mut self_url, link.url),
                    Rel::Alternate => fill(&mut alt_url, link.url),
                    _ => {}
                }
            }
            _ => r.skip(),
        }
    }
    let s = Source { title, url: self_url.or(alt_url) };
    (s.title.is_some() || s.url.is_some()).then_some(s)
}

/// An Atom text construct reduced to plain text (HTML values by their text content), trimmed.
pub fn atom_plain_text<'a>(r: &mut XmlReader<'a>, tag: &Tag<'a>, cx: &Ctx<'a>) -> Option<&'a str> {
    let t = atom_text(r, tag, cx)?;
    let s = match t {
        crate::Text::Plain(s) => s,
        crate::Text::Html(h) => crate::extract::text_content(cx.arena, &h),
    };
    let s = s.trim_matches(is_space);
    (!s.is_empty()).then_some(s)
}

/// End-of-entry step for the extension fields: a lenient date is kept only when its spec
/// field stayed null.
pub fn finish_entry(entry: &mut Entry<'_>) {
    if entry.updated.is_some() {
        entry.updated_lenient = None;
    }
    if entry.published.is_some() {
        entry.published_lenient = None;
    }
}

/// End-of-feed step for the extension fields.
pub fn finish_feed(feed: &mut Feed<'_>) {
    if feed.updated.is_some() {
        feed.updated_lenient = None;
    }
}
