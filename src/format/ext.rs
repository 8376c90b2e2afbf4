//! Arms for the fields beyond the spec's model ([`crate::model::ext`]), shared by the format
//! state machines. Each `fn` taking the reader right after a child's start tag consumes that
//! child completely, like the spec steps in [`super::common`].
//!
//! Cost: these arms run only for elements the spec tables do not match (or, for shared
//! elements like RSS `category`, as a few extra attribute reads); absent elements cost nothing
//! but the extra match arms.

use crate::model::ext::*;
use crate::model::lenient_date::{parse_lenient, LenientDate};
use crate::model::url::resolve;
use crate::model::{date, Entry, Feed, Timestamp};
use crate::xml::{Ns, Tag, XmlReader};

use super::common::*;

pub const RDF: &str = crate::xml::ns::RDF;

/// Child text, trimmed; `None` when empty or whitespace-only.
pub fn trimmed<'a>(r: &mut XmlReader<'a>, cx: &Ctx<'a>) -> Option<&'a str> {
    let t = text(r, cx).trim_matches(is_space);
    (!t.is_empty()).then_some(t)
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
    if strict.is_none() && slot.is_none() && lenient.is_none() {
        *lenient = parse_lenient(t).map(|l| &*cx.arena.alloc(l));
    }
    fill(slot, strict);
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
pub fn rss_category<'a>(cats: &mut Vec<Category<'a>>, tag: &Tag<'a>, term: &'a str, cx: &Ctx<'a>) {
    let term = term.trim_matches(is_space);
    if term.is_empty() {
        return;
    }
    let c = Category { term, scheme: attr_trimmed(tag, "domain", cx), label: None };
    if !cats.contains(&c) {
        cats.push(c);
    }
}

/// A category of an Atom `category` element (attributes only; the caller consumes it).
pub fn atom_category<'a>(cats: &mut Vec<Category<'a>>, tag: &Tag<'a>, cx: &Ctx<'a>) {
    if let Some(term) = attr_trimmed(tag, "term", cx) {
        let c = Category {
            term,
            scheme: attr_trimmed(tag, "scheme", cx),
            label: attr_trimmed(tag, "label", cx),
        };
        if !cats.contains(&c) {
            cats.push(c);
        }
    }
}

/// A term-only category (`dc:subject`).
pub fn plain_category<'a>(cats: &mut Vec<Category<'a>>, term: &'a str) {
    let term = term.trim_matches(is_space);
    if !term.is_empty() && !cats.iter().any(|c| c.term == term && c.scheme.is_none()) {
        cats.push(Category { term, scheme: None, label: None });
    }
}

/// RSS `skipHours`: `hour` children 0–23 (24 is read as 0, as some generators write 1–24).
pub fn skip_hours<'a>(r: &mut XmlReader<'a>, out: &mut Vec<u8>, cx: &Ctx<'a>) {
    while let Some(child) = r.next_child() {
        if child.local == "hour" && matches!(child.ns, Ns::Null | Ns::Rss1) {
            if let Some(h) = trimmed(r, cx).and_then(|t| t.parse::<u8>().ok()).filter(|&h| h <= 24)
            {
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
            if let Some(d) = day {
                if !out.contains(d) {
                    out.push(d);
                }
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
            "width" => fill(&mut info.width, trimmed(r, cx).and_then(non_negative_integer)),
            "height" => fill(&mut info.height, trimmed(r, cx).and_then(non_negative_integer)),
            _ => r.skip(),
        }
    }
    (logo, info)
}

/// Channel-level `itunes:*` elements the spec does not read. Returns false (without
/// consuming) for any other local name.
pub fn itunes_channel<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    it: &mut ItunesFeed<'a>,
    cx: &Ctx<'a>,
) -> bool {
    match tag.local {
        "explicit" => fill(&mut it.explicit, parse_explicit(text(r, cx))),
        "type" => fill(&mut it.kind, trimmed(r, cx)),
        "block" => fill(&mut it.block, Some(parse_yes(text(r, cx)))),
        "complete" => fill(&mut it.complete, Some(parse_yes(text(r, cx)))),
        "new-feed-url" => fill(&mut it.new_feed_url, url_element(r, cx)),
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
            let text_attr = attr_trimmed(tag, "text", cx);
            let mut subs = Vec::new();
            while let Some(c) = r.next_child() {
                if c.ns == Ns::Itunes && c.local == "category" {
                    if let Some(t) = attr_trimmed(&c, "text", cx) {
                        if !subs.contains(&t) {
                            subs.push(t);
                        }
                    }
                }
                r.skip();
            }
            if let Some(text) = text_attr {
                match it.categories.iter_mut().find(|c| c.text == text) {
                    Some(existing) => {
                        for s in subs {
                            if !existing.subcategories.contains(&s) {
                                existing.subcategories.push(s);
                            }
                        }
                    }
                    None => it.categories.push(ItunesCategory { text, subcategories: subs }),
                }
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
    cx: &Ctx<'a>,
) -> bool {
    match tag.local {
        "explicit" => fill(&mut it.explicit, parse_explicit(text(r, cx))),
        "episode" => fill(&mut it.episode, trimmed(r, cx).and_then(non_negative_integer)),
        "season" => fill(&mut it.season, trimmed(r, cx).and_then(non_negative_integer)),
        "episodeType" => fill(&mut it.episode_type, trimmed(r, cx)),
        "block" => fill(&mut it.block, Some(parse_yes(text(r, cx)))),
        "title" => fill(&mut it.title, trimmed(r, cx)),
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
    let pc = &mut feed.ext.podcast;
    match tag.local {
        "guid" => fill(&mut pc.guid, trimmed(r, cx)),
        "locked" => {
            let v = text(r, cx).trim_matches(is_space);
            let locked = if v.eq_ignore_ascii_case("yes") {
                Some(true)
            } else if v.eq_ignore_ascii_case("no") {
                Some(false)
            } else {
                None
            };
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
    let pc = entry.ext.podcast.get_or_insert_with(Default::default);
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
            let n = trimmed(r, cx).and_then(non_negative_integer);
            if let Some(number) = n {
                fill(
                    &mut pc.season,
                    Some(PodcastSeason { number, name: attr_trimmed(tag, "name", cx) }),
                );
            }
        }
        "episode" => {
            let n = trimmed(r, cx)
                .filter(|t| t.parse::<f64>().is_ok_and(|v| v.is_finite() && v >= 0.0));
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
        entry.ext.podcast = None;
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
        entry.ext.updated_lenient = None;
    }
    if entry.published.is_some() {
        entry.ext.published_lenient = None;
    }
}

/// End-of-feed step for the extension fields.
pub fn finish_feed(feed: &mut Feed<'_>) {
    if feed.updated.is_some() {
        feed.ext.updated_lenient = None;
    }
}
