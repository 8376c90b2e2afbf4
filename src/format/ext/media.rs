//! Media RSS (`media:`) beyond the spec's thumbnail and enclosures: contents, groups,
//! credits, ratings, player, keywords.

use crate::model::ext::*;
use crate::model::Entry;
use crate::xml::{Ns, Tag, XmlReader};

use super::super::common::*;
use super::read::*;

/// A Media RSS number attribute: leading digits (a fraction such as `duration="12.5"` is
/// cut).
pub(super) fn media_number<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    name: &str,
    cx: &Ctx<'a>,
) -> Option<u64> {
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
            // `media:title`, `media:thumbnail`, `media:hash`, … of this content: kept as
            // extension rows of the entry.
            super::capture(r, &child, &mut entry.extensions, cx);
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
                            // What no table reads (`media:title`, `media:thumbnail`,
                            // `media:community`, …): kept as extension rows of the entry.
                            super::capture(r, &child, &mut entry.extensions, cx);
                        }
                        if entry.media.as_ref().is_some_and(|m| m.is_empty()) {
                            entry.media = None;
                        }
                    }
                    _ => super::capture(r, &child, &mut entry.extensions, cx),
                }
            }
            true
        }
        _ => false,
    }
}
