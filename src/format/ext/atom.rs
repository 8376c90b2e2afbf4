//! Atom elements beyond the spec's tables: `generator`, `source`, plain text of a text
//! construct.

use crate::model::ext::*;
use crate::xml::{Ns, Tag, XmlReader};

use super::super::common::*;
use super::read::*;

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
