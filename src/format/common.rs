//! The spec's shared element steps, used by every format's switch table: string, URL, image,
//! date, person, Atom link, Atom text, Atom 0.3 content, and escaped-HTML elements.
//!
//! Invariant: every `fn` taking the reader right after a child's start tag consumes that
//! child completely (through its end tag), whatever it returns.

use std::cell::RefCell;

use bumpalo::Bump;
use url::Url;

use crate::html::{self, Attribute, Element, Node, NodeKind};
use crate::lint;
use crate::model::url::{is_canonical_http_url, resolve_within, UrlBudget};
use crate::model::{Enclosure, Entry, Image, Person, Text};
use crate::options::Limits;
use crate::xml::{Event, Ns, Tag, XmlReader};
use crate::DiagnosticKind;

/// What every step needs besides the reader.
pub struct Ctx<'a> {
    /// The per-parse arena: decoded text, resolved URLs and HTML fragments live here.
    pub arena: &'a Bump,
    /// The document's base URL (the response URL or the caller's; `about:blank` when none),
    /// which every URL element and attribute is resolved against ([`Ctx::resolve`]).
    pub base: Url,
    /// What resolving relative URLs may still add to the document's values.
    pub(crate) url_budget: UrlBudget,
    /// The limits of this parse (text sizes, entries).
    pub limits: Limits,
    /// The lint collector, when [`crate::Options::lint`] is set (see [`crate::lint`]).
    pub(crate) lint: Option<RefCell<lint::Collector<'a>>>,
    /// Whether the web recovery rules apply ([`super::recover`]; off with
    /// `Options::spec_exact`).
    pub recover: bool,
    /// What extension capture may still keep in this document (`None`: capture is off;
    /// [`super::ext::capture`]).
    pub(crate) extensions: Option<super::ext::CaptureBudget>,
    /// How many relative references could not be resolved for want of a base URL (the
    /// `relative_url` rule keeps them as written; `--spec-exact` leaves them out): one
    /// diagnostic per document says so.
    pub(crate) unresolved: std::cell::Cell<usize>,
    /// URLs that do not parse, left out (as the spec says): one `invalid_value` diagnostic
    /// per document says how many.
    pub(crate) malformed: std::cell::Cell<usize>,
    /// The `xml:base` scopes, tracked when the recovery rule `xml_base` may apply (the rules
    /// are on and the document has no base URL: the spec resolves against the document's
    /// URL only, \[128\], so with one `xml:base` would override a spec value).
    pub(crate) xml_base: Option<std::rc::Rc<crate::xml::reader::BaseScopes>>,
    /// What the enclosure rules did in this document (one diagnostic each says so at its
    /// end: `super::recover::push_enclosure`).
    pub(crate) enclosure_rules: std::cell::Cell<EnclosureRules>,
    /// How many relative URLs inside HTML values the recovery rule `html_url` resolved
    /// ([`Ctx::html_urls`]; one diagnostic per document says so).
    pub(crate) html_urls: std::cell::Cell<usize>,
}

/// Counts of the enclosure recovery rules' applications in a document.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EnclosureRules {
    /// Enclosures merged into an earlier one of the same URL (`enclosure_merged`).
    pub(crate) merged: usize,
    /// Types and lengths the kept enclosures took from the merged ones.
    pub(crate) filled: usize,
    /// `media:content` `fileSize`s read as enclosure lengths (`media_file_size`).
    pub(crate) file_sizes: usize,
}

impl<'a> Ctx<'a> {
    /// `input` resolved against the base URL, within the document's URL budget (past it, as
    /// written); `None` when it does not parse.
    pub(crate) fn resolve(&self, input: &'a str) -> Option<&'a str> {
        if let Some(url) = self.xml_base.as_ref().and_then(|b| self.resolve_xml_base(b, input)) {
            return Some(url);
        }
        resolve_within(self.arena, &self.base, input, &self.url_budget)
            .or_else(|| self.unresolvable(input))
    }

    /// The recovery rule `xml_base`: a relative reference resolved against the `xml:base` in
    /// scope (there is no document base URL to resolve it against: the spec leaves it out,
    /// `relative_url` would keep it as written). `None` when no `xml:base` is in scope or
    /// `input` is not a relative reference (an absolute URL does not depend on a base).
    #[cold]
    fn resolve_xml_base(
        &self,
        bases: &crate::xml::reader::BaseScopes,
        input: &'a str,
    ) -> Option<&'a str> {
        if is_canonical_http_url(input) {
            return None;
        }
        let base = bases.current()?;
        if !matches!(Url::parse(input), Err(url::ParseError::RelativeUrlWithoutBase)) {
            return None;
        }
        let url = resolve_within(self.arena, &base, input, &self.url_budget)?;
        bases.applied.set(bases.applied.get() + 1);
        Some(url)
    }

    /// The recovery rule `html_url`: the relative URLs of the URL attributes of an HTML or
    /// XHTML value (`a@href`, `img@src`/`srcset`, `q@cite`, … [`html::urls`]) resolved
    /// against the base in scope of the element holding the value — the `xml:base` in scope
    /// (then, inside XHTML, the fragment's own `xml:base`s) when the document has no base
    /// URL, else the document's base URL, the base every other URL of the document resolves
    /// against (\[128\]: the spec's nodes share the document's base URL, so this resolves
    /// what the spec leaves relative to that very base and changes no meaning). Within the
    /// document's URL budget (past it, as written); values with no base to resolve against,
    /// same-document `#fragment`s, empty and absolute values are kept as written. Call it
    /// right after the element holding the value is consumed (the base in scope is then
    /// that element's). Off with `Options::spec_exact` (the spec keeps attributes as
    /// written).
    #[inline]
    pub(crate) fn html_urls(&self, v: Option<Text<'a>>) -> Option<Text<'a>> {
        match v {
            Some(Text::Html(h)) if self.recover => Some(Text::Html(self.html_urls_of(h))),
            v => v,
        }
    }

    fn html_urls_of(&self, h: html::Html<'a>) -> html::Html<'a> {
        let scoped = self.xml_base.as_ref().and_then(|b| b.current());
        let base: &Url = scoped.as_deref().unwrap_or(&self.base);
        html::urls::resolve_urls(self.arena, h, base, self.xml_base.is_some(), |base, v| {
            self.resolve_in_html(base, v)
        })
    }

    /// One URL of an HTML value for [`Ctx::html_urls`] ([`html_url_within`]), counted.
    fn resolve_in_html(&self, base: &Url, v: &'a str) -> Option<&'a str> {
        let url = html_url_within(self.arena, base, v, &self.url_budget)?;
        self.html_urls.set(self.html_urls.get() + 1);
        Some(url)
    }

    /// A URL that did not resolve: when it is a relative reference and there is no base URL
    /// to resolve it against (`about:blank`), counted, and kept as written (trimmed) by the
    /// recovery rule `relative_url` (it has no scheme, so it is never `javascript:` or
    /// `data:`). `None` for anything else (a malformed URL stays left out, as the spec says).
    #[cold]
    fn unresolvable(&self, input: &'a str) -> Option<&'a str> {
        let t = input.trim_matches(is_space);
        let relative = matches!(Url::parse(t), Err(url::ParseError::RelativeUrlWithoutBase));
        if t.is_empty() {
            return None;
        }
        if !relative || !self.base.cannot_be_a_base() {
            self.malformed.set(self.malformed.get() + 1);
            return None;
        }
        self.unresolved.set(self.unresolved.get() + 1);
        self.recover.then_some(t)
    }

    /// Lint hook: `tag` (a child of `level`) has just been consumed by the state machine.
    #[inline(always)]
    pub(crate) fn lint_child(&self, r: &XmlReader<'a>, level: lint::Level, tag: &Tag<'a>) {
        #[cold]
        #[inline(never)]
        fn slow<'a>(
            l: &RefCell<lint::Collector<'a>>,
            r: &XmlReader<'a>,
            level: lint::Level,
            tag: &Tag<'a>,
        ) {
            l.borrow_mut().child(r, level, tag);
        }
        // Out of line, so that the state machines' loops stay as compact as without linting.
        if let Some(l) = &self.lint {
            slow(l, r, level, tag);
        }
    }

    /// Lint hook: the item `tag` (`item` or `podcast:liveItem`) is open; its children follow.
    #[inline(always)]
    pub(crate) fn lint_item_start(&self, tag: &Tag<'a>) {
        #[cold]
        #[inline(never)]
        fn slow<'a>(l: &RefCell<lint::Collector<'a>>, tag: &Tag<'a>) {
            l.borrow_mut().item_start(tag);
        }
        if let Some(l) = &self.lint {
            slow(l, tag);
        }
    }

    /// Lint hook: the item `tag` has just been consumed.
    #[inline(always)]
    pub(crate) fn lint_item_end(&self, tag: &Tag<'a>) {
        #[cold]
        #[inline(never)]
        fn slow<'a>(l: &RefCell<lint::Collector<'a>>, tag: &Tag<'a>) {
            l.borrow_mut().item_end(tag);
        }
        if let Some(l) = &self.lint {
            slow(l, tag);
        }
    }
}

/// A URL attribute value `v` of an HTML value resolved against `base` for the recovery rule
/// `html_url`: `Some` only when `v` (trimmed) is a relative reference that `base` resolves,
/// within `budget`, to something else; `None` keeps `v` as written.
#[cold]
pub(crate) fn html_url_within<'a>(
    arena: &'a Bump,
    base: &Url,
    v: &'a str,
    budget: &UrlBudget,
) -> Option<&'a str> {
    let t = v.trim_matches(is_space);
    if base.cannot_be_a_base()
        || !matches!(Url::parse(t), Err(url::ParseError::RelativeUrlWithoutBase))
    {
        return None;
    }
    resolve_within(arena, base, t, budget).filter(|u| *u != t)
}

/// Space characters per the HTML Standard (ASCII whitespace: TAB, LF, FF, CR, SPACE).
pub fn is_space(c: char) -> bool {
    c.is_ascii_whitespace()
}

/// "contains a Unicode code point that is not a space character".
pub fn has_non_space(s: &str) -> bool {
    s.bytes().any(|b| !b.is_ascii_whitespace())
}

/// What [`checked`] says a rejected value is not.
pub mod kind {
    /// Counts, sizes, ports, episode numbers.
    pub const INTEGER: &str = "a non-negative integer";
    /// Any date element or attribute (after its lenient reading failed too).
    pub const DATE: &str = "a date";
    /// `itunes:duration`.
    pub const DURATION: &str = "a duration (seconds, M:S or H:M:S)";
    /// `skipHours/hour`.
    pub const HOUR: &str = "an hour (0 to 23, or 24)";
    /// `skipDays/day`.
    pub const DAY: &str = "a day of the week";
    /// `itunes:explicit`.
    pub const YES_NO: &str = "yes, no, true, false, explicit or clean";
    /// `podcast:episode` (a decimal number).
    pub const NUMBER: &str = "a non-negative number";
    /// `media:content@isDefault`.
    pub const TRUE_FALSE: &str = "true or false";
    /// `podcast:locked`.
    pub const YES_OR_NO: &str = "yes or no";
}

/// Longest part of a rejected value quoted in its diagnostic.
const QUOTED_MAX: usize = 80;

/// `conv(raw)`; when `raw` holds something but `conv` rejects it, records an
/// [`DiagnosticKind::InvalidValue`] at `at` naming `what` (the element or `element@attribute`
/// as written in feeds) and quoting the value. A value of nothing but spaces is absent, not
/// invalid. Where `conv` takes the value as written (the spec allows no spaces around it) and
/// only the spaces around it made it fail, the message says so.
pub fn checked<'s, T>(
    r: &mut XmlReader<'_>,
    at: usize,
    what: impl std::fmt::Display,
    kind: &str,
    raw: Option<&'s str>,
    conv: impl Fn(&'s str) -> Option<T>,
) -> Option<T> {
    let raw = raw?;
    let v = conv(raw);
    if v.is_none() && has_non_space(raw) {
        let trimmed = raw.trim_matches(is_space);
        if trimmed.len() < raw.len() && conv(trimmed).is_some() {
            let msg = format!(
                "{what} {} is not {kind} (no spaces are allowed around it); left out",
                quoted(raw)
            );
            r.diag(DiagnosticKind::InvalidValue, at, msg);
        } else {
            invalid_value(r, at, what, kind, trimmed);
        }
    }
    v
}

/// [`checked`] for attribute `name` of `tag` (its value `raw`, as the caller reads it: as
/// written or trimmed), named `element@attribute` as written.
pub fn checked_attr<'s, T>(
    r: &mut XmlReader<'_>,
    tag: &Tag<'_>,
    name: &str,
    kind: &str,
    raw: Option<&'s str>,
    conv: impl Fn(&'s str) -> Option<T>,
) -> Option<T> {
    checked(r, tag.offset, format_args!("{}@{name}", tag.qname), kind, raw, conv)
}

/// Records that `value` (trimmed), the value of `what`, is not `kind` and was left out.
pub fn invalid_value(
    r: &mut XmlReader<'_>,
    at: usize,
    what: impl std::fmt::Display,
    kind: &str,
    value: &str,
) {
    let msg = format!("{what} {} is not {kind}; left out", quoted(value));
    r.diag(DiagnosticKind::InvalidValue, at, msg);
}

/// `v` quoted and escaped for a diagnostic message, cut after [`QUOTED_MAX`] bytes (`…`
/// marks the cut).
pub fn quoted(v: &str) -> String {
    let mut end = v.len().min(QUOTED_MAX);
    while !v.is_char_boundary(end) {
        end -= 1;
    }
    let more = if end < v.len() { "…" } else { "" };
    format!("{:?}{more}", &v[..end])
}

/// Room for this many entries is made when a feed's first entry is added.
///
/// NOTE: an entry is large and most feeds hold 10 to 25 entries; from an empty `Vec`,
/// doubling from 4 reallocated and copied the list two or three times per feed (reserving
/// 16 first measured -0.24 % instructions in the library loop). A bounded constant, not an
/// estimate from the input.
const FIRST_ENTRIES: usize = 16;

/// Appends `e` to a feed's `entries` (callers check `max_entries` first).
#[inline]
pub fn push_entry<'a>(entries: &mut Vec<Entry<'a>>, e: Entry<'a>) {
    if entries.capacity() == 0 {
        entries.reserve_exact(FIRST_ENTRIES);
    }
    entries.push(e);
}

/// Stores `value` into `slot` unless it already holds something ("first non-null wins").
pub fn fill<T>(slot: &mut Option<T>, value: Option<T>) {
    if slot.is_none() {
        *slot = value;
    }
}

/// The current element's child text content (capped at `max_text_bytes`); consumes it.
/// With the recovery rules on, a value that is wholly UTF-8 decoded twice is repaired by
/// the reader (`double_utf8`: [`crate::xml::entities::undo_double_utf8_in`]).
pub fn text<'a>(r: &mut XmlReader<'a>, cx: &Ctx<'a>) -> &'a str {
    r.child_text(cx.limits.max_text_bytes)
}

/// Process a string element.
pub fn string_element<'a>(r: &mut XmlReader<'a>, cx: &Ctx<'a>) -> Option<Text<'a>> {
    let t = text(r, cx);
    has_non_space(t).then_some(Text::Plain(t))
}

/// Process a URL element: child text; "" → null; else parse against the base URL.
pub fn url_element<'a>(r: &mut XmlReader<'a>, cx: &Ctx<'a>) -> Option<&'a str> {
    let t = text(r, cx);
    if t.is_empty() {
        return None;
    }
    cx.resolve(t)
}

/// Process an image element with attribute name `attr`. Consumes the element.
pub fn image_element<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    attr: &str,
    cx: &Ctx<'a>,
) -> Option<Image<'a>> {
    r.skip();
    let v = tag.attr(cx.arena, attr).filter(|v| !v.is_empty())?;
    let url = cx.resolve(v)?;
    let mut number = |name: &str| {
        checked_attr(r, tag, name, kind::INTEGER, tag.attr(cx.arena, name), leading_digits)
    };
    Some(Image { url: Some(url), width: number("width"), height: number("height"), rel: None })
}

/// The value of a leading run of ASCII digits (no sign, no whitespace), if any.
pub fn leading_digits(s: &str) -> Option<u64> {
    let end = s.bytes().position(|b| !b.is_ascii_digit()).unwrap_or(s.len());
    if end == 0 {
        return None;
    }
    s[..end].parse().ok()
}

/// The HTML Standard's rules for parsing non-negative integers.
pub fn non_negative_integer(s: &str) -> Option<u64> {
    let s = s.trim_start_matches(['\t', '\n', '\u{C}', '\r', ' ']);
    let s = s.strip_prefix('+').unwrap_or(s);
    leading_digits(s)
}

/// Which of the spec's date element steps applies to a date element.
pub enum DateSyntax {
    /// An Atom date element \[51\]: RFC 3339 `xs:dateTime`.
    Rfc3339,
    /// A W3C-DTF date element \[166\] (year, year-month, date, or date-time).
    W3cDtf,
    /// An RSS 2.0 date element \[219\]: RFC 822 date-time.
    Rfc822,
}

/// Process an Atom person element.
pub fn atom_person<'a>(r: &mut XmlReader<'a>, cx: &Ctx<'a>) -> Person<'a> {
    let mut person = Person::default();
    while let Some(child) = r.next_child() {
        match (child.ns, child.local) {
            (Ns::Atom | Ns::Atom03, "name") => {
                fill(&mut person.name, string_element(r, cx).and_then(|t| t.as_plain()))
            }
            (Ns::Atom | Ns::Atom03, "email") => {
                fill(&mut person.email, string_element(r, cx).and_then(|t| t.as_plain()))
            }
            (Ns::Atom | Ns::Atom03, "uri") => fill(&mut person.page_url, url_element(r, cx)),
            (Ns::GData, "image") => {
                let icon = image_element(r, &child, "src", cx);
                let rel = child.attr(cx.arena, "rel").map(|v| v.trim_matches(is_space));
                let rel = rel.filter(|v| !v.is_empty());
                fill(&mut person.icon, icon.map(|i| Image { rel, ..i }));
            }
            _ => r.skip(),
        }
    }
    person
}

/// Process an RSS 2.0 person element (`author`, `managingEditor`): the mailbox form
/// `email (name)` or a bare name.
pub fn rss_person<'a>(r: &mut XmlReader<'a>, cx: &Ctx<'a>) -> Option<Person<'a>> {
    let t = text(r, cx);
    parse_rss_person(t)
}

/// "Process an RSS 2.0 person element" \[247\] on its text: `None` for `""` \[318\]; the
/// mailbox form `email (name)` \[157\]-\[159\]; otherwise a name-only person \[255\].
pub fn parse_rss_person(t: &str) -> Option<Person<'_>> {
    if t.is_empty() {
        return None;
    }
    // ≥1 non-space, ≥1 space, '(', ≥1 any, ')' as the last char.
    let email_end = t.find(is_space).unwrap_or(t.len());
    if email_end > 0 && t.ends_with(')') {
        let after = &t[email_end..];
        let spaces = after.len() - after.trim_start_matches(is_space).len();
        let rest = &after[spaces..];
        if spaces > 0 && rest.starts_with('(') && rest.len() >= 3 {
            return Some(Person {
                name: Some(&rest[1..rest.len() - 1]),
                email: Some(&t[..email_end]),
                ..Person::default()
            });
        }
    }
    Some(Person { name: Some(t), ..Person::default() })
}

/// Appends `person` unless it has no email and an author with the same name exists.
pub fn add_person<'a>(authors: &mut Vec<Person<'a>>, person: Person<'a>) {
    if person.email.is_some() || !authors.iter().any(|p| p.name == person.name) {
        authors.push(person);
    }
}

/// A link relation after the spec's normalization (missing → alternate; no ':' → IANA).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Rel {
    /// `alternate` (also a missing `rel`): page URL.
    Alternate,
    /// `self`: feed URL.
    SelfLink,
    /// `previous` or `prev`: previous feed URL.
    Previous,
    /// `next`: next feed URL.
    Next,
    /// `enclosure`: an entry enclosure.
    Enclosure,
    /// Any other relation (kept in the `ext` links, not by the spec).
    Other,
}

const IANA: &str = "http://www.iana.org/assignments/relation/";

/// Classifies a `rel` attribute value: missing → alternate; a name with `:` counts only
/// under the IANA relation prefix; matching is case-sensitive.
pub fn link_rel(rel: Option<&str>) -> Rel {
    let rel = rel.unwrap_or("alternate");
    let name = if rel.contains(':') {
        match rel.strip_prefix(IANA) {
            Some(n) => n,
            None => return Rel::Other,
        }
    } else {
        rel
    };
    match name {
        "alternate" => Rel::Alternate,
        "self" => Rel::SelfLink,
        "previous" | "prev" => Rel::Previous,
        "next" => Rel::Next,
        "enclosure" => Rel::Enclosure,
        _ => Rel::Other,
    }
}

/// An Atom link's relation and resolved href (href missing → "" → the base URL).
pub struct AtomLink<'a> {
    /// The normalized relation.
    pub rel: Rel,
    /// The resolved `href`; `None` when it does not parse, and always for [`Rel::Other`].
    pub url: Option<&'a str>,
}

/// Reads an Atom `link` element's relation and `href` (consumes the element).
pub fn atom_link<'a>(r: &mut XmlReader<'a>, tag: &Tag<'a>, cx: &Ctx<'a>) -> AtomLink<'a> {
    r.skip();
    let rel = link_rel(tag.attr(cx.arena, "rel"));
    if rel == Rel::Other {
        return AtomLink { rel, url: None };
    }
    let href = tag.attr(cx.arena, "href").unwrap_or("");
    AtomLink { rel, url: cx.resolve(href) }
}

/// An enclosure from an element's `url` (or `href`) attribute, its `source` named; `None`
/// when the URL is missing, empty or does not parse.
pub fn enclosure_from<'a>(
    tag: &Tag<'a>,
    url_attr: &str,
    source: &'static str,
    cx: &Ctx<'a>,
) -> Option<Enclosure<'a>> {
    let v = tag.attr(cx.arena, url_attr).filter(|v| !v.is_empty())?;
    let url = cx.resolve(v)?;
    Some(Enclosure {
        url: Some(url),
        mime_type: tag.attr(cx.arena, "type"),
        source: Some(source),
        ..Enclosure::default()
    })
}

/// Parse escaped HTML content of the current element.
pub fn escaped_html<'a>(r: &mut XmlReader<'a>, cx: &Ctx<'a>) -> Option<Text<'a>> {
    let t = text(r, cx);
    escaped_html_of(r, t, cx)
}

/// Parse `t` as escaped HTML under the limits; a cut is a `LimitReached` diagnostic.
pub fn escaped_html_of<'a>(r: &mut XmlReader<'a>, t: &'a str, cx: &Ctx<'a>) -> Option<Text<'a>> {
    let p = escaped_html_within(cx.arena, t, &cx.limits, |msg| {
        let at = r.last_offset();
        r.diag(DiagnosticKind::LimitReached, at, msg)
    });
    p.value_with_urls(|v| cx.html_urls(v))
}

/// Escaped HTML parsed under the parse's `limits` (`max_html_attributes`); a text read only
/// in part calls `cut` with the message of its `LimitReached` diagnostic. Every format's
/// escaped-HTML fields (XML feeds' and JSON Feed's `content_html`) go through it.
pub(crate) fn escaped_html_within<'a>(
    arena: &'a Bump,
    t: &'a str,
    limits: &Limits,
    cut: impl FnOnce(&'static str),
) -> html::EscapedHtml<'a> {
    let p = html::parse_escaped_html_checked(arena, t, limits.max_html_attributes);
    if p.cut {
        cut("escaped HTML read only in part (html5ever work limit or max_html_attributes)");
    }
    p
}

/// Process an Atom text element.
pub fn atom_text<'a>(r: &mut XmlReader<'a>, tag: &Tag<'a>, cx: &Ctx<'a>) -> Option<Text<'a>> {
    match tag.attr(cx.arena, "type") {
        Some("html") => escaped_html(r, cx),
        Some("xhtml") => xhtml_text(r, cx),
        _ => string_element(r, cx),
    }
}

/// Process an Atom 0.3 content element.
pub fn atom03_content<'a>(r: &mut XmlReader<'a>, tag: &Tag<'a>, cx: &Ctx<'a>) -> Option<Text<'a>> {
    let mode = tag.attr(cx.arena, "mode").unwrap_or("xml");
    let ty = tag.attr(cx.arena, "type").unwrap_or("text/plain");
    if mode == "escaped" && ty.eq_ignore_ascii_case("text/html") {
        return escaped_html(r, cx);
    }
    string_element(r, cx)
}

/// `type="xhtml"`: the first HTML `div` child's children, cloned and sanitized; without
/// such a div, the string-element rule on the element's child text content.
fn xhtml_text<'a>(r: &mut XmlReader<'a>, cx: &Ctx<'a>) -> Option<Text<'a>> {
    let arena = cx.arena;
    let mut own_text = bumpalo::collections::String::new_in(arena);
    let mut cut_at = None;
    loop {
        match r.next() {
            Event::Start(tag) if tag.ns == Ns::Html && tag.local == "div" => {
                let nodes = capture_children(r, cx);
                // The div's end tag was the last event: its base is in scope.
                let v = cx.html_urls(html::finish_fragment(arena, &nodes).map(Text::Html));
                r.skip(); // the rest of the xhtml element
                return v;
            }
            Event::Start(_) => r.skip(),
            Event::Text(t) => append_capped(
                &mut own_text,
                t,
                cx.limits.max_text_bytes,
                &mut cut_at,
                r.last_offset(),
            ),
            Event::End | Event::Eof => break,
            Event::Comment(_) | Event::Pi { .. } => {}
        }
    }
    report_cut(r, cut_at, cx);
    let t = own_text.into_bump_str();
    has_non_space(t).then_some(Text::Plain(t))
}

/// Builds the flat pre-order node list of the current element's children (deep clones),
/// consuming the element through its end tag. Adjacent text chunks form one Text node.
fn capture_children<'a>(
    r: &mut XmlReader<'a>,
    cx: &Ctx<'a>,
) -> bumpalo::collections::Vec<'a, Node<'a>> {
    capture_children_seeded(r, cx, "", None, false)
}

/// `name.split_once(':')`: the prefix before the first `:` and the rest. Names are short:
/// a plain byte loop, where `str::split_once` with a `char` set up a searcher.
#[inline]
fn split_prefix(name: &str) -> Option<(&str, &str)> {
    let i = name.bytes().position(|b| b == b':')?;
    Some((&name[..i], &name[i + 1..]))
}

/// `capture_children` after some of the element was read already: `before` is its child
/// text read so far, `first` the start tag of its first child element (just read). With
/// `null_as_html`, elements in no namespace are taken as HTML elements (markup written
/// unescaped inside an RSS text element).
pub fn capture_children_seeded<'a>(
    r: &mut XmlReader<'a>,
    cx: &Ctx<'a>,
    before: &'a str,
    first: Option<Tag<'a>>,
    null_as_html: bool,
) -> bumpalo::collections::Vec<'a, Node<'a>> {
    let arena = cx.arena;
    let mut nodes = bumpalo::collections::Vec::new_in(arena);
    if !before.is_empty() {
        nodes.push(Node { kind: NodeKind::Text(before), end: 1 });
    }
    let mut pending = first.map(Event::Start);
    let mut open: Vec<usize> = Vec::new();
    // The Text node the next chunk extends; its joined buffer exists once a second chunk came.
    let mut text_run: Option<(usize, Option<bumpalo::collections::String<'a>>)> = None;
    let mut cut_at = None;
    let flush =
        |nodes: &mut bumpalo::collections::Vec<'a, Node<'a>>,
         run: &mut Option<(usize, Option<bumpalo::collections::String<'a>>)>| {
            if let Some((i, Some(s))) = run.take() {
                nodes[i].kind = NodeKind::Text(s.into_bump_str());
            }
        };
    loop {
        match pending.take().unwrap_or_else(|| r.next()) {
            Event::Start(tag) => {
                flush(&mut nodes, &mut text_run);
                let mut namespace = r.element_ns_uri(tag.qname);
                if null_as_html && namespace.is_empty() {
                    namespace = crate::xml::ns::HTML;
                }
                let prefix = split_prefix(tag.qname).map(|(p, _)| p);
                let mut attrs = bumpalo::collections::Vec::new_in(arena);
                for (name, raw) in tag.attrs() {
                    let (aprefix, alocal) = match split_prefix(name) {
                        Some((p, l)) => (Some(p), l),
                        None => (None, name),
                    };
                    attrs.push(Attribute {
                        namespace: r.attr_ns_uri(name),
                        prefix: aprefix,
                        local: alocal,
                        value: crate::xml::reader::decode_attr_value(arena, raw),
                    });
                }
                let element =
                    Element { namespace, prefix, local: tag.local, attrs: attrs.into_bump_slice() };
                open.push(nodes.len());
                nodes.push(Node { kind: NodeKind::Element(element), end: 0 });
            }
            Event::End | Event::Eof => {
                flush(&mut nodes, &mut text_run);
                match open.pop() {
                    Some(i) => nodes[i].end = nodes.len() as u32,
                    None => break,
                }
            }
            Event::Text(t) => match &mut text_run {
                Some((i, joined)) => {
                    let buf = joined.get_or_insert_with(|| {
                        let first = match nodes[*i].kind {
                            NodeKind::Text(f) => f,
                            _ => "",
                        };
                        bumpalo::collections::String::from_str_in(first, arena)
                    });
                    append_capped(buf, t, cx.limits.max_text_bytes, &mut cut_at, r.last_offset());
                }
                None => {
                    let i = nodes.len();
                    let t = if t.len() > cx.limits.max_text_bytes {
                        cut_at.get_or_insert(r.last_offset());
                        &t[..crate::xml::floor_char_boundary(t, cx.limits.max_text_bytes)]
                    } else {
                        t
                    };
                    nodes.push(Node { kind: NodeKind::Text(t), end: i as u32 + 1 });
                    text_run = Some((i, None));
                }
            },
            Event::Comment(c) => {
                flush(&mut nodes, &mut text_run);
                let i = nodes.len() as u32;
                nodes.push(Node { kind: NodeKind::Comment(c), end: i + 1 });
            }
            Event::Pi { target, data } => {
                flush(&mut nodes, &mut text_run);
                let i = nodes.len() as u32;
                nodes.push(Node {
                    kind: NodeKind::ProcessingInstruction { target, data },
                    end: i + 1,
                });
            }
        }
    }
    report_cut(r, cut_at, cx);
    nodes
}

/// What a text element held, read by [`text_or_markup`].
pub enum TextOrMarkup<'a> {
    /// Only character data: its child text (exactly what [`text`] returns).
    Text(&'a str),
    /// Child elements too.
    Markup {
        /// The element's child text (what the spec reads, the markup lost).
        text: &'a str,
        /// The flat node list of all its children.
        nodes: &'a [Node<'a>],
    },
}

/// Reads the current element's content, keeping child elements when there are any.
/// Consumes the element. As cheap as [`text`] when there is no child element.
pub fn text_or_markup<'a>(r: &mut XmlReader<'a>, cx: &Ctx<'a>) -> TextOrMarkup<'a> {
    let (t, first) = r.child_text_or_first_child(cx.limits.max_text_bytes);
    let Some(first) = first else { return TextOrMarkup::Text(t) };
    let nodes = capture_children_seeded(r, cx, t, Some(first), true).into_bump_slice();
    TextOrMarkup::Markup { text: top_level_text(cx.arena, nodes), nodes }
}

/// The concatenated Text nodes at the top level of a flat node list (an element's child
/// text content).
fn top_level_text<'a>(arena: &'a Bump, nodes: &[Node<'a>]) -> &'a str {
    let mut out = bumpalo::collections::String::new_in(arena);
    let mut i = 0;
    while i < nodes.len() {
        if let NodeKind::Text(t) = nodes[i].kind {
            out.push_str(t);
        }
        i = (nodes[i].end as usize).max(i + 1);
    }
    out.into_bump_str()
}

/// The flat node list of the children of the element at `i` in `nodes` (end indices
/// rebased onto the new list).
pub fn children_of<'a>(arena: &'a Bump, nodes: &[Node<'a>], i: usize) -> &'a [Node<'a>] {
    let end = (nodes[i].end as usize).clamp(i + 1, nodes.len());
    let base = (i + 1) as u32;
    arena.alloc_slice_fill_iter(
        nodes[i + 1..end].iter().map(|n| Node { kind: n.kind, end: n.end.saturating_sub(base) }),
    )
}

/// Appends `t` to `buf` within `max` bytes (cut at a char boundary). Once a chunk has been
/// cut, `cut_at` holds where, and nothing more is appended (no gaps in the kept text).
fn append_capped(
    buf: &mut bumpalo::collections::String<'_>,
    t: &str,
    max: usize,
    cut_at: &mut Option<usize>,
    offset: usize,
) {
    if cut_at.is_some() {
        return;
    }
    if buf.len() + t.len() <= max {
        buf.push_str(t);
    } else {
        buf.push_str(&t[..crate::xml::floor_char_boundary(t, max.saturating_sub(buf.len()))]);
        *cut_at = Some(offset);
    }
}

fn report_cut(r: &mut XmlReader<'_>, cut_at: Option<usize>, cx: &Ctx<'_>) {
    if let Some(at) = cut_at {
        let msg = format!("text longer than max_text_bytes ({}) cut", cx.limits.max_text_bytes);
        r.diag(DiagnosticKind::LimitReached, at, msg);
    }
}

/// Records that the entry limit was reached (once per feed).
pub fn entry_limit<'a>(r: &mut XmlReader<'a>, tag: &Tag<'a>, reported: &mut bool) {
    if !*reported {
        *reported = true;
        r.diag(
            DiagnosticKind::LimitReached,
            tag.offset,
            "max_entries reached: further entries skipped",
        );
    }
    r.skip();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_prefix_is_split_once() {
        for name in ["", ":", "a", "a:", ":b", "a:b", "a:b:c", "é:ü", "日本:語:x", "xmlns:y"] {
            assert_eq!(split_prefix(name), name.split_once(':'), "{name:?}");
        }
    }

    fn person(t: &str) -> Option<(Option<&str>, Option<&str>)> {
        parse_rss_person(t).map(|p| (p.name, p.email))
    }

    #[test]
    fn rss_person_mailbox_forms() {
        // NOTES.md §2 "Process an RSS 2.0 person", every listed example.
        assert_eq!(person("ab (cd)"), Some((Some("cd"), Some("ab"))));
        assert_eq!(person("a@b.test (Mr. Foo Bar)"), Some((Some("Mr. Foo Bar"), Some("a@b.test"))));
        assert_eq!(person("a@b (x) (y)"), Some((Some("x) (y"), Some("a@b"))));
        assert_eq!(person("a@b ( )"), Some((Some(" "), Some("a@b"))));
        assert_eq!(person("ab ()"), Some((Some("ab ()"), None)));
        assert_eq!(person("a@b.test"), Some((Some("a@b.test"), None)));
        assert_eq!(person(" a@b (x)"), Some((Some(" a@b (x)"), None)));
        assert_eq!(person("a@b\n\t(multi\nline)"), Some((Some("multi\nline"), Some("a@b"))));
        assert_eq!(person("a@b (x"), Some((Some("a@b (x"), None)));
        assert_eq!(person(""), None);
    }

    #[test]
    fn author_append_rules() {
        let mut authors = Vec::new();
        add_person(&mut authors, Person { name: Some("x"), ..Person::default() });
        add_person(&mut authors, Person { name: Some("x"), ..Person::default() });
        assert_eq!(authors.len(), 1, "same name without email is not appended twice");
        add_person(
            &mut authors,
            Person { name: Some("x"), email: Some("x@y"), ..Person::default() },
        );
        assert_eq!(authors.len(), 2, "a person with an email is always appended");
    }

    #[test]
    fn link_relations() {
        assert_eq!(link_rel(None), Rel::Alternate);
        assert_eq!(link_rel(Some("self")), Rel::SelfLink);
        assert_eq!(link_rel(Some("prev")), Rel::Previous);
        assert_eq!(link_rel(Some("previous")), Rel::Previous);
        assert_eq!(link_rel(Some("http://www.iana.org/assignments/relation/next")), Rel::Next);
        assert_eq!(link_rel(Some("enclosure")), Rel::Enclosure);
        assert_eq!(link_rel(Some("ALTERNATE")), Rel::Other);
        assert_eq!(link_rel(Some(" self")), Rel::Other);
        assert_eq!(link_rel(Some("")), Rel::Other);
        assert_eq!(link_rel(Some("urn:x:alternate")), Rel::Other);
    }

    #[test]
    fn integer_rules() {
        assert_eq!(leading_digits("14"), Some(14));
        assert_eq!(leading_digits("3x"), Some(3));
        assert_eq!(leading_digits("+14"), None);
        assert_eq!(leading_digits(" 5"), None);
        assert_eq!(leading_digits("-300"), None);
        assert_eq!(non_negative_integer(" +5"), Some(5));
        assert_eq!(non_negative_integer("large"), None);
        assert_eq!(leading_digits("99999999999999999999999"), None);
    }
}
