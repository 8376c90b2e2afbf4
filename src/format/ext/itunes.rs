//! The iTunes podcast namespace (`itunes:`), channel and item.

use crate::model::ext::*;
use crate::xml::{Ns, Tag, XmlReader};

use super::super::common::*;
use super::read::*;

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
