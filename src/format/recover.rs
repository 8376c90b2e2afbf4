//! Web recovery rules: values real feeds carry in widespread forms the spec's tables do not
//! read (Python feedparser, the field's reference for what real feeds mean, reads them all).
//! On by default; `Options::spec_exact` turns every one off.
//!
//! Invariant: a rule never replaces a value the spec's processing produced. Values from
//! elements outside the spec's tables are *offered* into a [`Pending`] slot while the
//! element is read and applied only at the end of the entry or feed, to slots the spec left
//! null; the one exception is a spec value that is plainly not the value — raw base64, or
//! the child text of an element whose markup the spec dropped — which is replaced by the
//! decoded or kept value from the same element. An element whose value can no longer be
//! applied (its slot set by the spec or an earlier offer: [`Filled`]) is kept as an
//! extension row instead of being read. Every application is a
//! [`DiagnosticKind::Recovered`] diagnostic whose message starts with the rule's name and
//! names the source element.
//!
//! Rules (name — what it reads):
//! - `userland_namespace` — RSS 2.0 in `http://backend.userland.com/rss2` or `…/rss`
//!   (default or prefixed) read as the null namespace's RSS 2.0.
//! - `date` — `dc:date` (RSS 2.0, Atom), `dcterms:modified` → updated, `dcterms:issued` /
//!   `dcterms:created` → published (RSS 1.0, RSS 2.0, Atom; channel and item), Atom 0.3
//!   `issued` and `atom:published` in an RSS item → published, an Atom feed's `published` →
//!   its updated ([`feed_published`]); W3C-DTF first, then the lenient parser.
//! - `date_published` — an RSS 2.0 item's `pubDate` (RFC 822, then lenient) or `dc:date`, an
//!   RSS 1.0 item's `dc:date` → published, after the `date` rule (the spec reads them into
//!   `updated`, which keeps them; its text reads `pubDate` as the published date, NOTES §7
//!   D1, and so do feed-rs and feedparser).
//! - `atom03_xhtml`, `atom03_base64`, `atom03_html` — Atom 0.3 text constructs of type
//!   `application/xhtml+xml` (mode `xml`) read like Atom 1.0 `xhtml`; `mode="base64"` decoded,
//!   then the text/html or string rule; `type="html"` (Atom 1.0's keyword) over text, mode
//!   `xml` or `escaped`, read as escaped HTML.
//! - `markup_in_text` — an RSS `title`/`description` or Atom 0.3 text holding child elements
//!   keeps them (sanitized, as HTML) instead of only the text between them;
//!   `xhtml_body` — an RSS item's `xhtml:body` as its content.
//! - `author_name_child` — RSS `author` with no text but a `name` (and `email`) child;
//!   `categories_wrapper` — `category` elements inside `categories`; `dc_subject`,
//!   `media_category` — as categories; `media_title`, `dc_title` — as title;
//!   `dc_description` — as summary / description (each only while the spec's value is empty);
//!   `itunes_summary` — an RSS 2.0 item's `itunes:summary` (the spec's subtitle) also as the
//!   summary.
//! - `relative_url` — a relative URL with no base URL to resolve it against kept as written
//!   (`Ctx::resolve` in `common`; one diagnostic per document with the count).
//! - `xml_base` — with no base URL, a relative URL resolved against the `xml:base` in scope
//!   (nested scopes, each resolved against the outer one; only http(s) bases): the reader's
//!   `BaseScopes` (`crate::xml::reader`), read by `Ctx::resolve`; one diagnostic per document
//!   with the count. With a base URL the spec resolves against it (\[128\]) and `xml:base` is
//!   not read: a rule never replaces a spec value.
//!   A relative `xml:base` with no absolute base around it is ignored (RFC 3986 §5.1: a base
//!   is absolute), the relative URLs in its scope kept as written (`relative_url`), with one
//!   `invalid_value` diagnostic per document with the count.
//! - `html_url` — the relative URLs of the URL attributes of HTML and XHTML values
//!   (feedparser's `resolve_relative_uris` list plus `srcset`: `crate::html::urls`) resolved
//!   against the base in scope of the element holding the value: the document's base URL,
//!   which the spec's nodes have (\[128\]: same meaning, so no spec value is replaced),
//!   else the `xml:base` in scope (`Ctx::html_urls` in `common`; JSON Feed `content_html`
//!   against the base URL). Within the document's URL budget; one diagnostic per document
//!   with the count.
//! - `well_known_prefix` — an undeclared prefix of [`crate::xml::ns::WELL_KNOWN_PREFIXES`]
//!   (`content:`, `dc:`, `itunes:`, `media:` …) bound to its namespace for the whole
//!   document, in the XML reader (one diagnostic per prefix and document).
//! - `guid_permalink` — an RSS `guid` that is a permalink (isPermaLink absent or `true`) and
//!   an http(s) URL as `page_url` when there is none.
//! - `atom_link`, `atom_author` — in an RSS 2.0 or RSS 1.0 item, an Atom `link` whose
//!   relation is `alternate` (or absent) as `page_url` (before `guid_permalink`), and Atom
//!   `author`s as authors; an Atom `author` in a channel as the feed's authors. (The spec's
//!   item tables read only `atom:updated`; its channel table already reads `atom:link`.)
//! - `media_file_size`, `enclosure_merged` — a `media:content` enclosure's `fileSize` as its
//!   length; the enclosures of an entry with the same URL merged into one
//!   ([`push_enclosure`]).
//! - `c1_control`, `internal_entity`, `double_utf8` — in the XML reader
//!   ([`crate::xml::entities`]; `double_utf8`: element text wholly UTF-8 decoded twice read as
//!   decoded once, counted and recorded at the end of the document in `format`).
//! - Encodings — in `crate::input::decode` (`encoding_guessed` diagnostics).

use crate::html::{self, NodeKind};
use crate::model::ext::Extension;
use crate::model::lenient_date::parse_lenient;
use crate::model::{date, Enclosure, Entry, Feed, Person, Text, Timestamp};
use crate::xml::{Ns, Tag, XmlReader};
use crate::DiagnosticKind;

use super::common::*;

/// Where a recovered value came from.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// The rule's name (the diagnostic message's prefix, e.g. `dc_subject`).
    pub rule: &'static str,
    /// The qualified name of the element the value was read from.
    pub element: &'a str,
    /// Byte offset of that element's start tag (the diagnostic's offset).
    pub offset: usize,
}

impl<'a> Source<'a> {
    /// The source `tag` for `rule`.
    pub fn of(rule: &'static str, tag: &Tag<'a>) -> Self {
        Source { rule, element: tag.qname, offset: tag.offset }
    }
}

/// Values offered by recovery rules while an entry or a feed is read; applied at its end to
/// the slots the spec left null ([`Pending::apply_entry`], [`Pending::apply_feed`]).
#[derive(Default)]
pub struct Pending<'a> {
    /// A date for `updated`, with its text.
    pub updated: Option<((Timestamp, &'a str), Source<'a>)>,
    /// A date for `published`, with its text.
    pub published: Option<((Timestamp, &'a str), Source<'a>)>,
    /// A date for `published` when nothing else gives one (`date_published`: an RSS item's
    /// `pubDate` or `dc:date`, which the spec reads into `updated`), with its text.
    pub published_fallback: Option<((Timestamp, &'a str), Source<'a>)>,
    /// A title.
    pub title: Option<(Text<'a>, Source<'a>)>,
    /// Entry summary, or feed description.
    pub summary: Option<(Text<'a>, Source<'a>)>,
    /// Entry content.
    pub content: Option<(Text<'a>, Source<'a>)>,
    /// Authors, used only when the spec's steps found none.
    pub authors: Vec<(Person<'a>, Source<'a>)>,
    /// Category terms, used only when the spec's steps found none.
    pub categories: Vec<(&'a str, Source<'a>)>,
    /// The offset of the `guid` element (for `guid_permalink`).
    pub guid_at: Option<usize>,
    /// A page URL (`atom_link`).
    pub page_url: Option<(&'a str, Source<'a>)>,
    /// The index in the entry's enclosures of each URL and whether it is a `media:content`
    /// (`enclosure_merged`), once the entry has more than a few.
    pub enclosure_at: std::collections::HashMap<(&'a str, bool), usize>,
}

/// Offers `value` into a pending slot (first offer wins).
pub fn offer<'a, T>(slot: &mut Option<(T, Source<'a>)>, value: Option<T>, src: Source<'a>) {
    if slot.is_none() {
        if let Some(v) = value {
            *slot = Some((v, src));
        }
    }
}

/// Records the `recovered` diagnostic `RULE: <element> read as WHAT` for an applied value.
pub fn record(r: &mut XmlReader<'_>, src: &Source<'_>, what: &str) {
    // NOTE: `concat` sizes the message once and copies the parts: `format!` (the formatting
    // machinery and a realloc as the string grows) cost ~1,400 instructions a call, ~1 % of
    // the library loop, where most entries of a recovered feed record one.
    let message = [src.rule, ": <", src.element, "> read as ", what].concat();
    r.diag(DiagnosticKind::Recovered, src.offset, message);
}

fn apply<'a, T>(
    r: &mut XmlReader<'a>,
    slot: &mut Option<T>,
    pending: Option<(T, Source<'a>)>,
    what: &str,
) {
    if let (None, Some((v, src))) = (&slot, pending) {
        *slot = Some(v);
        record(r, &src, what);
    }
}

/// [`apply`] for a date: its text as written goes with it (replacing a lenient reading's).
/// Returns the source of the applied value (its diagnostic is the caller's to record).
fn apply_date<'a>(
    slot: &mut Option<Timestamp>,
    raw: &mut Option<&'a str>,
    pending: Option<((Timestamp, &'a str), Source<'a>)>,
    what: &'static str,
) -> Option<(Source<'a>, &'static str)> {
    match (&slot, pending) {
        (None, Some(((v, t), src))) => {
            *slot = Some(v);
            *raw = date::as_written(t, &v);
            Some((src, what))
        }
        _ => None,
    }
}

impl<'a> Pending<'a> {
    /// Fills the entry's null slots from the offers (before "cleanup entry").
    pub fn apply_entry(self, r: &mut XmlReader<'a>, e: &mut Entry<'a>, cx: &Ctx<'a>) {
        let mut dates = [
            apply_date(&mut e.updated, &mut e.updated_raw, self.updated, "updated"),
            apply_date(&mut e.published, &mut e.published_raw, self.published, "published"),
            apply_date(
                &mut e.published,
                &mut e.published_raw,
                self.published_fallback,
                "published",
            ),
        ];
        // Diagnostics in document order: the dates' elements may come in any order.
        dates.sort_by_key(|d| d.as_ref().map(|(src, _)| src.offset));
        for (src, what) in dates.iter().flatten() {
            record(r, src, what);
        }
        apply(r, &mut e.title, self.title, "title");
        apply(r, &mut e.summary, self.summary, "summary");
        apply(r, &mut e.content, self.content, "content");
        apply(r, &mut e.page_url, self.page_url, "page_url");
        if e.authors.is_empty() {
            let mut seen = std::collections::HashSet::with_capacity(self.authors.len());
            for (p, src) in self.authors {
                if seen.insert((p.name, p.email)) {
                    e.authors.push(p);
                    record(r, &src, "author");
                }
            }
        }
        if e.categories.is_empty() {
            // Unique through a set: a scan of the terms kept was quadratic in repeated
            // `dc:subject`s (128k in one item: 13.6 s).
            let mut seen = std::collections::HashSet::with_capacity(self.categories.len());
            for (term, src) in self.categories {
                if !term.is_empty() && seen.insert(term) {
                    e.categories.push(term);
                    record(r, &src, "category");
                }
            }
        }
        if let (None, Some(at), Some(true), Some(id)) =
            (e.page_url, self.guid_at, e.id_is_permalink, e.id)
        {
            let lower = id.get(..8).map(str::to_ascii_lowercase);
            let http = lower.is_some_and(|l| l.starts_with("http://") || l == "https://");
            if let Some(url) = http.then(|| cx.resolve(id)).flatten() {
                e.page_url = Some(url);
                let src = Source { rule: "guid_permalink", element: "guid", offset: at };
                record(r, &src, "page_url");
            }
        }
    }

    /// Fills the feed's null slots from the offers (before "cleanup feed").
    pub fn apply_feed(self, r: &mut XmlReader<'a>, f: &mut Feed<'a>) {
        if let Some((src, what)) =
            apply_date(&mut f.updated, &mut f.updated_raw, self.updated, "updated")
        {
            record(r, &src, what);
        }
        apply(r, &mut f.title, self.title, "title");
        apply(r, &mut f.description, self.summary, "description");
        if f.authors.is_empty() {
            for (p, src) in self.authors {
                f.authors.push(p);
                record(r, &src, "author");
            }
        }
    }
}

/// A date outside the spec's tables: W3C-DTF first, then the lenient parser.
pub fn date_value(t: &str) -> Option<Timestamp> {
    date::parse_w3cdtf(t).or_else(|| parse_lenient(t).map(|l| l.timestamp))
}

/// [`date_value`] of `child`'s text (consumed), with the text; a value neither reading takes
/// is recorded as invalid.
pub fn date_child<'a>(
    r: &mut XmlReader<'a>,
    child: &Tag<'a>,
    cx: &Ctx<'a>,
) -> Option<(Timestamp, &'a str)> {
    let t = text(r, cx);
    checked(r, child.offset, child.qname, kind::DATE, Some(t), date_value).map(|v| (v, t))
}

/// `date` for an Atom feed's `published` (Atom 1.0 has none in a feed, but feeds carry one:
/// YouTube's channel feeds), kept as row `i` of the feed's extensions while the feed is read:
/// when nothing gave the feed an updated date, a readable one is that date and the row goes.
/// (Read from its row at the feed's end, so that a later `updated` still wins and the value
/// is never dropped.)
pub fn feed_published<'a>(r: &mut XmlReader<'a>, f: &mut Feed<'a>, i: usize, src: Source<'a>) {
    let Some(t) = f.extensions.get(i).and_then(|row| row.text) else { return };
    let has_children = f.extensions.get(i + 1).is_some_and(|x| x.parent == Some(i as u64));
    if f.updated.is_some() || has_children {
        return;
    }
    let Some(v) = date_value(t) else { return };
    f.updated = Some(v);
    f.updated_raw = date::as_written(t, &v);
    f.extensions.remove(i);
    for row in &mut f.extensions[i..] {
        if let Some(parent) = row.parent.as_mut().filter(|p| **p > i as u64) {
            *parent -= 1;
        }
    }
    record(r, &src, "updated");
}

/// Which of the slots the rules offer values to are set already, by the spec's table or an
/// earlier offer (first offer wins): an element whose value could not be applied is kept as
/// an extension row instead of being read and dropped. (A value offered before the spec's
/// element that sets its slot is still dropped when the entry or feed ends.)
#[derive(Clone, Copy, Default)]
pub struct Filled {
    updated: bool,
    published: bool,
    title: bool,
    summary: bool,
    content: bool,
    authors: bool,
    categories: bool,
}

impl Filled {
    /// The slots of `e` the spec's table has set.
    pub fn entry(e: &Entry<'_>) -> Self {
        Filled {
            updated: e.updated.is_some(),
            published: e.published.is_some(),
            title: e.title.is_some(),
            summary: e.summary.is_some(),
            content: e.content.is_some(),
            authors: !e.authors.is_empty(),
            categories: !e.categories.is_empty(),
        }
    }

    /// The slots of `f` the spec's table has set.
    pub fn feed(f: &Feed<'_>) -> Self {
        Filled {
            updated: f.updated.is_some(),
            title: f.title.is_some(),
            summary: f.description.is_some(),
            authors: !f.authors.is_empty(),
            ..Filled::default()
        }
    }

    /// Whether the value of `child` (a rule's element) can no longer be applied.
    fn takes(&self, child: &Tag<'_>, p: &Pending<'_>) -> bool {
        match (child.ns, child.local) {
            (Ns::DublinCore, "date") | (Ns::DcTerms, "modified") => {
                self.updated || p.updated.is_some()
            }
            (Ns::DcTerms, "issued" | "created")
            | (Ns::Atom03, "issued")
            | (Ns::Atom, "published") => self.published || p.published.is_some(),
            (Ns::DublinCore | Ns::MediaRss, "title") => self.title || p.title.is_some(),
            (Ns::DublinCore, "description") => self.summary || p.summary.is_some(),
            (Ns::Html, "body") => self.content || p.content.is_some(),
            (Ns::Atom, "author") => self.authors,
            (Ns::DublinCore, "subject") | (Ns::MediaRss, "category") | (Ns::Null, "categories") => {
                self.categories
            }
            _ => false,
        }
    }
}

/// The recovery rules for a child of an entry (RSS 2.0 item, RSS 1.0 item, Atom entry) that
/// the spec's table did not match; `filled`: the entry's slots the spec has set. Consumes the
/// child.
pub fn entry_child<'a>(
    r: &mut XmlReader<'a>,
    child: &Tag<'a>,
    p: &mut Pending<'a>,
    filled: Filled,
    extensions: &mut Vec<Extension<'a>>,
    cx: &Ctx<'a>,
) {
    if filled.takes(child, p) {
        return super::ext::capture(r, child, extensions, cx);
    }
    match (child.ns, child.local) {
        (Ns::DublinCore, "date") => {
            let v = date_child(r, child, cx);
            offer(&mut p.updated, v, Source::of("date", child));
        }
        (Ns::DcTerms, "modified") => {
            let v = date_child(r, child, cx);
            offer(&mut p.updated, v, Source::of("date", child));
        }
        (Ns::DcTerms, "issued" | "created") | (Ns::Atom03, "issued") | (Ns::Atom, "published") => {
            let v = date_child(r, child, cx);
            offer(&mut p.published, v, Source::of("date", child));
        }
        (Ns::DublinCore, "title") => {
            offer(&mut p.title, string_element(r, cx), Source::of("dc_title", child))
        }
        (Ns::MediaRss, "title") => {
            offer(&mut p.title, string_element(r, cx), Source::of("media_title", child))
        }
        (Ns::DublinCore, "description") => {
            offer(&mut p.summary, escaped_html(r, cx), Source::of("dc_description", child))
        }
        (Ns::DublinCore, "subject") => {
            let t = text(r, cx).trim_matches(is_space);
            if !t.is_empty() {
                p.categories.push((t, Source::of("dc_subject", child)));
            }
        }
        (Ns::MediaRss, "category") => {
            let t = text(r, cx).trim_matches(is_space);
            if !t.is_empty() {
                p.categories.push((t, Source::of("media_category", child)));
            }
        }
        (Ns::Null, "categories") => {
            while let Some(c) = r.next_child() {
                if c.ns == Ns::Null && c.local == "category" {
                    let t = text(r, cx).trim_matches(is_space);
                    if !t.is_empty() {
                        p.categories.push((t, Source::of("categories_wrapper", &c)));
                    }
                } else {
                    r.skip();
                }
            }
        }
        (Ns::Html, "body") => {
            let nodes = capture_children_seeded(r, cx, "", None, false);
            let v = cx.html_urls(html::finish_fragment(cx.arena, &nodes).map(Text::Html));
            offer(&mut p.content, v, Source::of("xhtml_body", child));
        }
        (Ns::Atom, "author") => atom_author(r, child, p, cx),
        _ => super::ext::capture(r, child, extensions, cx),
    }
}

/// `atom_link`: an Atom `link` in an RSS item (the caller recorded it in `links` if its
/// relation is another one): an alternate one is offered as the page URL. Consumes it.
pub fn atom_link_in_item<'a>(
    r: &mut XmlReader<'a>,
    child: &Tag<'a>,
    p: &mut Pending<'a>,
    cx: &Ctx<'a>,
) {
    let link = atom_link(r, child, cx);
    if link.rel == Rel::Alternate {
        offer(&mut p.page_url, link.url, Source::of("atom_link", child));
    }
}

/// `atom_author`: an Atom `author` in an RSS item or channel, offered as an author when it
/// has a name or an email. Consumes it.
fn atom_author<'a>(r: &mut XmlReader<'a>, child: &Tag<'a>, p: &mut Pending<'a>, cx: &Ctx<'a>) {
    let person = atom_person(r, cx);
    if person.name.is_some() || person.email.is_some() {
        p.authors.push((person, Source::of("atom_author", child)));
    }
}

/// The recovery rules for a child of a feed (RSS 2.0 or RSS 1.0 channel, Atom feed) that the
/// spec's table did not match; `filled`: the feed's slots the spec has set. Consumes the
/// child.
pub fn feed_child<'a>(
    r: &mut XmlReader<'a>,
    child: &Tag<'a>,
    p: &mut Pending<'a>,
    filled: Filled,
    extensions: &mut Vec<Extension<'a>>,
    cx: &Ctx<'a>,
) {
    if filled.takes(child, p) {
        return super::ext::capture(r, child, extensions, cx);
    }
    match (child.ns, child.local) {
        (Ns::DublinCore, "date") | (Ns::DcTerms, "modified") => {
            let v = date_child(r, child, cx);
            offer(&mut p.updated, v, Source::of("date", child));
        }
        (Ns::DublinCore, "title") => {
            offer(&mut p.title, string_element(r, cx), Source::of("dc_title", child))
        }
        (Ns::DublinCore, "description") => {
            offer(&mut p.summary, string_element(r, cx), Source::of("dc_description", child))
        }
        (Ns::Atom, "author") => atom_author(r, child, p, cx),
        _ => super::ext::capture(r, child, extensions, cx),
    }
}

/// How a text element's child text becomes the spec's value.
#[derive(Clone, Copy)]
pub enum TextRule {
    /// "Process a string element".
    String,
    /// Escaped HTML (RSS `description`).
    EscapedHtml,
}

fn by_rule<'a>(
    r: &mut XmlReader<'a>,
    t: &'a str,
    rule: TextRule,
    cx: &Ctx<'a>,
) -> Option<Text<'a>> {
    match rule {
        TextRule::String => has_non_space(t).then_some(Text::Plain(t)),
        TextRule::EscapedHtml => escaped_html_of(r, t, cx),
    }
}

/// An RSS `title` / `description` with the `markup_in_text` rule: exactly the spec's value
/// unless the element holds child elements; then the children, serialized as HTML, replace
/// the spec's value (the text between them) or are offered when the spec's value is null.
/// Consumes the element.
pub fn text_element<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    rule: TextRule,
    slot: &mut Option<Text<'a>>,
    pending: &mut Option<(Text<'a>, Source<'a>)>,
    cx: &Ctx<'a>,
) {
    match text_or_markup(r, cx) {
        TextOrMarkup::Text(t) => fill(slot, by_rule(r, t, rule, cx)),
        TextOrMarkup::Markup { text, nodes } => {
            let kept = match rule {
                TextRule::String => {
                    cx.html_urls(html::finish_fragment(cx.arena, nodes).map(Text::Html))
                }
                // The text is escaped HTML, as the spec reads it; the child elements are
                // HTML written unescaped: both together are the HTML source.
                TextRule::EscapedHtml => escaped_html_of(r, html_source(cx.arena, nodes), cx),
            };
            let spec = by_rule(r, text, rule, cx);
            replace_or_offer(r, spec, kept, slot, pending, tag, "markup_in_text");
        }
    }
}

/// The HTML source an element's content stands for when its text is escaped HTML and its
/// child elements are unescaped HTML: top-level text as written, elements serialized.
fn html_source<'a>(arena: &'a bumpalo::Bump, nodes: &[html::Node<'a>]) -> &'a str {
    let mut out = bumpalo::collections::String::new_in(arena);
    let mut i = 0;
    while i < nodes.len() {
        let end = (nodes[i].end as usize).clamp(i + 1, nodes.len());
        match nodes[i].kind {
            NodeKind::Text(t) => out.push_str(t),
            NodeKind::Element(_) => {
                let base = i as u32;
                let subtree = arena.alloc_slice_fill_iter(
                    nodes[i..end]
                        .iter()
                        .map(|n| html::Node { kind: n.kind, end: n.end.saturating_sub(base) }),
                );
                if let Some(h) = html::finish_fragment(arena, subtree) {
                    out.push_str(&h.to_html_string());
                }
            }
            _ => {}
        }
        i = end;
    }
    out.into_bump_str()
}

/// Puts a recovered value from the element `tag`: in place of the spec's value from the same
/// element when that one is garbage but not null (and the slot was still empty), else as an
/// offer.
fn replace_or_offer<'a>(
    r: &mut XmlReader<'a>,
    spec: Option<Text<'a>>,
    recovered: Option<Text<'a>>,
    slot: &mut Option<Text<'a>>,
    pending: &mut Option<(Text<'a>, Source<'a>)>,
    tag: &Tag<'a>,
    rule: &'static str,
) {
    if slot.is_some() {
        return;
    }
    let src = Source::of(rule, tag);
    match (spec, recovered) {
        (Some(_), Some(v)) => {
            *slot = Some(v);
            record(r, &src, "the element's value");
        }
        (Some(s), None) => *slot = Some(s),
        (None, v) => offer(pending, v, src),
    }
}

/// An Atom 0.3 text construct (`title`, `tagline`, `summary`, `content`) with the recovery
/// rules: `mode="base64"` decoded; `type="application/xhtml+xml"` (and any other type) in
/// mode `xml` holding child elements keeps them. Consumes the element.
pub fn atom03_text<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    slot: &mut Option<Text<'a>>,
    pending: &mut Option<(Text<'a>, Source<'a>)>,
    cx: &Ctx<'a>,
) {
    let mode = tag.attr(cx.arena, "mode").unwrap_or("xml");
    let ty = tag.attr(cx.arena, "type").unwrap_or("text/plain");
    let html_type = ty.eq_ignore_ascii_case("text/html");
    // `atom03_html`: Atom 1.0's `type="html"`, which Atom 0.3 does not define, written over
    // escaped HTML: the spec's value is the markup as text.
    let html_keyword = ty.eq_ignore_ascii_case("html");
    if mode == "escaped" && !html_keyword {
        fill(slot, atom03_content(r, tag, cx));
        return;
    }
    if mode == "base64" {
        let t = text(r, cx);
        let spec = has_non_space(t).then_some(Text::Plain(t));
        let decoded = decode_base64(t).and_then(|bytes| String::from_utf8(bytes).ok());
        let recovered = decoded.and_then(|s| {
            let s = cx.arena.alloc_str(&s);
            by_rule(r, s, if html_type { TextRule::EscapedHtml } else { TextRule::String }, cx)
        });
        replace_or_offer(r, spec, recovered, slot, pending, tag, "atom03_base64");
        return;
    }
    if mode != "xml" && mode != "escaped" {
        fill(slot, atom03_content(r, tag, cx));
        return;
    }
    match text_or_markup(r, cx) {
        TextOrMarkup::Text(t) if html_keyword => {
            let spec = by_rule(r, t, TextRule::String, cx);
            let html = by_rule(r, t, TextRule::EscapedHtml, cx);
            replace_or_offer(r, spec, html, slot, pending, tag, "atom03_html");
        }
        TextOrMarkup::Text(t) => fill(slot, by_rule(r, t, TextRule::String, cx)),
        TextOrMarkup::Markup { text, nodes } => {
            let xhtml = ty.eq_ignore_ascii_case("application/xhtml+xml")
                || ty.eq_ignore_ascii_case("xhtml");
            // Like Atom 1.0 `xhtml`: a wrapping XHTML div is not part of the value.
            let nodes = match xhtml.then(|| single_div(nodes)).flatten() {
                Some(i) => children_of(cx.arena, nodes, i),
                None => nodes,
            };
            let kept = cx.html_urls(html::finish_fragment(cx.arena, nodes).map(Text::Html));
            let rule = if xhtml { "atom03_xhtml" } else { "markup_in_text" };
            let spec = by_rule(r, text, TextRule::String, cx);
            replace_or_offer(r, spec, kept, slot, pending, tag, rule);
        }
    }
}

/// The index of the only top-level element when it is an XHTML `div` and everything else at
/// the top level is whitespace.
fn single_div(nodes: &[html::Node<'_>]) -> Option<usize> {
    let mut div = None;
    let mut i = 0;
    while i < nodes.len() {
        match nodes[i].kind {
            NodeKind::Element(e) if div.is_none() && e.local == "div" && e.namespace == HTML_NS => {
                div = Some(i)
            }
            NodeKind::Text(t) if !has_non_space(t) => {}
            NodeKind::Comment(_) => {}
            _ => return None,
        }
        i = (nodes[i].end as usize).max(i + 1);
    }
    div
}

const HTML_NS: &str = crate::xml::ns::HTML;

/// Base64 (RFC 4648, standard alphabet, padding optional) with whitespace ignored; `None`
/// when anything else is in the text.
pub fn decode_base64(t: &str) -> Option<Vec<u8>> {
    use base64::Engine as _;
    let compact: Vec<u8> = t.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if compact.is_empty() {
        return None;
    }
    let engine = base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    );
    engine.decode(&compact).ok()
}

/// RSS `author` with the `author_name_child` rule: exactly the spec's person unless the
/// element's text is blank and it has a `name` child; then the person from the `name` and
/// `email` children is offered instead (the spec's blank-named person is not added).
/// Consumes the element.
pub fn rss_author<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    authors: &mut Vec<Person<'a>>,
    p: &mut Pending<'a>,
    cx: &Ctx<'a>,
) {
    let (t, first) = r.child_text_or_first_child(cx.limits.max_text_bytes);
    let Some(first) = first else {
        if let Some(person) = parse_rss_person(t) {
            add_person(authors, person);
        }
        return;
    };
    let mut own = bumpalo::collections::String::from_str_in(t, cx.arena);
    let mut person = Person::default();
    let mut child = Some(first);
    loop {
        if let Some(c) = child.take() {
            match c.local {
                "name" if person.name.is_none() => {
                    person.name = ext_trimmed(r, cx);
                }
                "email" if person.email.is_none() => {
                    person.email = ext_trimmed(r, cx);
                }
                _ => r.skip(),
            }
        }
        match r.next() {
            crate::xml::Event::Start(c) => child = Some(c),
            crate::xml::Event::Text(t) => own.push_str(t),
            crate::xml::Event::End | crate::xml::Event::Eof => break,
            _ => {}
        }
    }
    let own = own.into_bump_str();
    if has_non_space(own) || person.name.is_none() {
        // The spec's value stands (the text, markup dropped).
        if let Some(spec) = parse_rss_person(own) {
            add_person(authors, spec);
        }
        return;
    }
    p.authors.push((person, Source::of("author_name_child", tag)));
}

fn ext_trimmed<'a>(r: &mut XmlReader<'a>, cx: &Ctx<'a>) -> Option<&'a str> {
    let t = text(r, cx).trim_matches(is_space);
    (!t.is_empty()).then_some(t)
}

/// Appends `enc`, read from `tag`, to the entry's enclosures. With the recovery rules on:
/// - `media_file_size`: a `media:content` enclosure with no length takes the element's
///   `fileSize` (greater than zero; the spec reads no length from `media:content`);
/// - `enclosure_merged`: an enclosure and a `media:content` of the same URL are merged
///   into one, at the earlier one's place, with the RSS `enclosure`'s (or Atom enclosure
///   link's) values; a type or length the kept one lacks
///   is taken from the other.
///
/// The applications are counted, one diagnostic per rule and document
/// ([`enclosure_summary`]): a podcast feed repeats its files in every item, and a
/// diagnostic each would crowd out the others past `max_diagnostics`. A value of the merged
/// enclosure that differs from the kept one and is kept nowhere else (a `media:content`'s
/// values all stay in `media`) has a diagnostic of its own, at its element.
pub fn push_enclosure<'a>(
    r: &mut XmlReader<'a>,
    entry: &mut Entry<'a>,
    mut enc: Enclosure<'a>,
    tag: &Tag<'a>,
    p: &mut Pending<'a>,
    cx: &Ctx<'a>,
) {
    let (true, Some(url)) = (cx.recover, enc.url) else {
        entry.enclosures.push(enc);
        return;
    };
    let mut counts = cx.enclosure_rules.get();
    if enc.source == Some("media") && enc.length.is_none() {
        let size = entry.media.as_ref().and_then(|m| m.contents.last()).and_then(|c| c.file_size);
        if let Some(n) = size.filter(|&n| n > 0) {
            enc.length = Some(n);
            counts.file_sizes += 1;
        }
    }
    // Only an enclosure and a `media:content` (or two of them) of one file are merged: two
    // RSS enclosures of the same URL stay two, as the spec keeps them (and its test suite
    // checks). A scan while the entry has few enclosures (most have one); an index past that.
    const SCAN: usize = 16;
    let media = |e: &Enclosure<'_>| e.source == Some("media");
    let is_media = media(&enc);
    let n = entry.enclosures.len();
    let earlier = if n <= SCAN {
        entry.enclosures.iter().position(|e| e.url == Some(url) && media(e) != is_media)
    } else {
        if p.enclosure_at.is_empty() {
            for (i, e) in entry.enclosures.iter().enumerate() {
                if let Some(u) = e.url {
                    p.enclosure_at.entry((u, media(e))).or_insert(i);
                }
            }
        }
        p.enclosure_at.get(&(url, !is_media)).copied()
    };
    match earlier {
        None => {
            if n > SCAN {
                p.enclosure_at.entry((url, is_media)).or_insert(n);
            }
            entry.enclosures.push(enc);
        }
        Some(i) => {
            let earlier = entry.enclosures[i];
            let (mut kept, other) =
                if earlier.source == Some("media") && enc.source != Some("media") {
                    (enc, earlier)
                } else {
                    (earlier, enc)
                };
            let mut dropped = String::new();
            counts.filled += fill_from(&mut kept.mime_type, other.mime_type, "type", &mut dropped);
            counts.filled += fill_from(&mut kept.length, other.length, "length", &mut dropped);
            kept.title = kept.title.or(other.title);
            kept.duration = kept.duration.or(other.duration);
            entry.enclosures[i] = kept;
            if n > SCAN {
                // The slot is now the enclosure's (not a `media:content`'s).
                p.enclosure_at.remove(&(url, true));
                p.enclosure_at.entry((url, false)).or_insert(i);
            }
            counts.merged += 1;
            if !dropped.is_empty() && other.source != Some("media") {
                let what = format!(
                    "one enclosure with the earlier `{}` of the same URL, the `{}`'s values \
                     kept: {dropped} dropped",
                    earlier.source.unwrap_or(""),
                    kept.source.unwrap_or("")
                );
                record(r, &Source::of("enclosure_merged", tag), &what);
            }
        }
    }
    cx.enclosure_rules.set(counts);
}

/// The document's diagnostics of the enclosure rules ([`push_enclosure`]), at offset 0.
pub(crate) fn enclosure_summary(r: &mut XmlReader<'_>, c: &EnclosureRules) {
    if c.merged > 0 {
        let msg = format!(
            "enclosure_merged: {} enclosures read as an earlier one of the same URL ({} types \
             or lengths filled from them)",
            c.merged, c.filled
        );
        r.diag(DiagnosticKind::Recovered, 0, msg);
    }
    if c.file_sizes > 0 {
        let msg = format!(
            "media_file_size: {} <media:content> fileSize read as enclosure length",
            c.file_sizes
        );
        r.diag(DiagnosticKind::Recovered, 0, msg);
    }
}

/// Fills `kept` from `other` when it is null (returns 1 then); notes in `dropped` an `other`
/// value that differs from the kept one.
fn fill_from<T: PartialEq + std::fmt::Display + Copy>(
    kept: &mut Option<T>,
    other: Option<T>,
    name: &str,
    dropped: &mut String,
) -> usize {
    use std::fmt::Write;
    match (*kept, other) {
        (None, Some(o)) => {
            *kept = Some(o);
            1
        }
        (Some(k), Some(o)) if k != o => {
            let sep = if dropped.is_empty() { "" } else { ", " };
            let _ = write!(dropped, "{sep}{name} {o} (kept {k})");
            0
        }
        _ => 0,
    }
}
