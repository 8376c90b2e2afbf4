//! Atom 1.0 and Atom 0.3: "process an Atom feed element" \[20\] and "process an Atom entry
//! element" \[52\], one match arm per row of the spec's switch tables.

use super::cleanup::cleanup_entry;
use super::common::*;
use super::ext;
use super::recover::{self, Pending};
use crate::lint;
use crate::model::{Entry, Feed};
use crate::xml::{Ns, Tag, XmlReader};

/// Process an Atom feed element (the root `feed` is open; consumes it).
pub fn feed<'a>(r: &mut XmlReader<'a>, root: &Tag<'a>, cx: &Ctx<'a>) -> Feed<'a> {
    let mut feed = Feed { language: ext::attr_trimmed(root, "xml:lang", cx), ..Feed::default() };
    let mut limit_reported = false;
    let mut p = Pending::default();
    let mut seen = ext::Seen::default();
    // Atom 0.3 taglines have no pending slot of their own in `Pending`.
    let mut tagline = None;
    // The row of the first `published` and where it was (`recover::feed_published`).
    let mut published_row = None;
    while let Some(child) = r.next_child() {
        match (child.ns, child.local) {
            // A later element of a slot the spec has set is kept as an extension row
            // (`fill_or_keep`).
            (Ns::Atom | Ns::Atom03, "title") if feed.title.is_some() => {
                ext::capture(r, &child, &mut feed.extensions, cx)
            }
            (Ns::Atom, "title") => fill(&mut feed.title, atom_text(r, &child, cx)),
            (Ns::Atom03, "title") if cx.recover => {
                recover::atom03_text(r, &child, &mut feed.title, &mut p.title, cx)
            }
            (Ns::Atom03, "title") => fill(&mut feed.title, atom03_content(r, &child, cx)),
            (Ns::Atom, "subtitle") | (Ns::Atom03, "tagline") if feed.subtitle.is_some() => {
                ext::capture(r, &child, &mut feed.extensions, cx)
            }
            (Ns::Atom, "subtitle") => fill(&mut feed.subtitle, atom_text(r, &child, cx)),
            (Ns::Atom03, "tagline") if cx.recover => {
                recover::atom03_text(r, &child, &mut feed.subtitle, &mut tagline, cx)
            }
            (Ns::Atom03, "tagline") => fill(&mut feed.subtitle, atom03_content(r, &child, cx)),
            (Ns::Atom, "updated") => {
                ext::date_with_fallback(
                    r,
                    &child,
                    DateSyntax::Rfc3339,
                    ext::feed_updated(&mut feed),
                    cx,
                );
            }
            (Ns::Atom03 | Ns::Atom, "modified") => {
                ext::date_with_fallback(
                    r,
                    &child,
                    DateSyntax::W3cDtf,
                    ext::feed_updated(&mut feed),
                    cx,
                );
            }
            (Ns::Atom | Ns::Atom03, "link") => {
                ext::collect_other_link(&mut feed.links, r, &child, cx);
                let link = atom_link(r, &child, cx);
                feed_link(&mut feed, link);
            }
            (Ns::Atom, "icon") => {
                ext::fill_or_keep(r, &child, &mut feed.icon, &mut feed.extensions, cx, |r| {
                    let url = url_element(r, cx)?;
                    Some(crate::model::Image { url: Some(url), ..Default::default() })
                })
            }
            (Ns::Atom, "logo") => {
                ext::fill_or_keep(r, &child, &mut feed.logo, &mut feed.extensions, cx, |r| {
                    let url = url_element(r, cx)?;
                    Some(crate::model::Image { url: Some(url), ..Default::default() })
                })
            }
            (Ns::Atom | Ns::Atom03, "author") => {
                let person = atom_person(r, cx);
                feed.authors.push(person);
            }
            (Ns::Atom | Ns::Atom03, "entry") => {
                if feed.entries.len() >= cx.limits.max_entries {
                    entry_limit(r, &child, &mut limit_reported);
                    continue;
                }
                let mut e = entry(r, cx);
                cleanup_entry(&mut e);
                // The language in scope on the content: its own `xml:lang`, else the entry's;
                // kept when it is not the feed's.
                let lang = e.content_language.or_else(|| ext::attr_trimmed(&child, "xml:lang", cx));
                let feed_lang = feed.language.unwrap_or("");
                e.content_language =
                    lang.filter(|l| e.content.is_some() && !l.eq_ignore_ascii_case(feed_lang));
                push_entry(&mut feed.entries, e);
            }
            // Beyond the spec's table (model::ext).
            (Ns::Atom | Ns::Atom03, "id") => {
                ext::fill_or_keep(r, &child, &mut feed.id, &mut feed.extensions, cx, |r| {
                    ext::trimmed(r, cx)
                })
            }
            (Ns::Atom, "rights") | (Ns::Atom03, "copyright") => {
                ext::fill_or_keep(r, &child, &mut feed.rights, &mut feed.extensions, cx, |r| {
                    ext::atom_plain_text(r, &child, cx)
                })
            }
            (Ns::Atom | Ns::Atom03, "generator") => {
                ext::fill_or_keep(r, &child, &mut feed.generator, &mut feed.extensions, cx, |r| {
                    ext::atom_generator(r, &child, cx)
                })
            }
            (Ns::Atom, "category") => {
                r.skip();
                ext::atom_category(&mut feed.category_details, &mut seen, &child, cx);
            }
            (Ns::Atom | Ns::Atom03, "contributor") => {
                let person = atom_person(r, cx);
                feed.contributors.push(person);
            }
            (Ns::Itunes, _) if ext::itunes_channel(r, &child, &mut feed.itunes, &mut seen, cx) => {}
            (Ns::Podcast, _) => ext::podcast_channel(r, &child, &mut feed, cx),
            (Ns::Other, _) if ext::module_channel(r, &child, &mut feed, &mut seen, cx) => {}
            (Ns::Atom, "published") if cx.recover && published_row.is_none() => {
                let i = feed.extensions.len();
                ext::capture(r, &child, &mut feed.extensions, cx);
                if feed.extensions.len() > i {
                    published_row = Some((i, recover::Source::of("date", &child)));
                }
            }
            _ if cx.recover => {
                let filled = recover::Filled::feed(&feed);
                recover::feed_child(r, &child, &mut p, filled, &mut feed.extensions, cx)
            }
            _ => ext::capture(r, &child, &mut feed.extensions, cx),
        }
        cx.lint_child(r, lint::Level::Feed, &child);
    }
    if cx.recover {
        if let (None, Some((t, src))) = (&feed.subtitle, tagline) {
            feed.subtitle = Some(t);
            recover::record(r, &src, "subtitle");
        }
        p.apply_feed(r, &mut feed);
        if let Some((i, src)) = published_row {
            recover::feed_published(r, &mut feed, i, src);
        }
    }
    feed
}

/// The feed half of "process an Atom link": alternate, self, previous/prev, next.
pub fn feed_link<'a>(feed: &mut Feed<'a>, link: AtomLink<'a>) {
    let slot = match link.rel {
        Rel::Alternate => &mut feed.page_url,
        Rel::SelfLink => &mut feed.feed_url,
        Rel::Previous => &mut feed.prev_feed_url,
        Rel::Next => &mut feed.next_feed_url,
        Rel::Enclosure | Rel::Other => return,
    };
    fill(slot, link.url);
}

/// Process an Atom entry element (consumes it).
pub fn entry<'a>(r: &mut XmlReader<'a>, cx: &Ctx<'a>) -> Entry<'a> {
    let mut entry = Entry::default();
    let mut p = Pending::default();
    let mut seen = ext::Seen::default();
    let mut media_groups = 0;
    while let Some(child) = r.next_child() {
        match (child.ns, child.local) {
            (Ns::Atom | Ns::Atom03, "author") => {
                let person = atom_person(r, cx);
                entry.authors.push(person);
            }
            (Ns::Atom, "category") => {
                r.skip();
                if let Some(term) = child.attr(cx.arena, "term") {
                    seen.add_term(&mut entry.categories, term);
                }
                ext::atom_category(&mut entry.category_details, &mut seen, &child, cx);
            }
            (Ns::DublinCore, "subject") => {
                let term = text(r, cx);
                seen.add_term(&mut entry.categories, term);
                ext::plain_category(&mut entry.category_details, &mut seen, term);
            }
            (Ns::Atom, "published") => {
                ext::date_with_fallback(
                    r,
                    &child,
                    DateSyntax::Rfc3339,
                    ext::entry_published(&mut entry),
                    cx,
                );
            }
            (Ns::Atom03 | Ns::Atom, "created") => {
                ext::date_with_fallback(
                    r,
                    &child,
                    DateSyntax::W3cDtf,
                    ext::entry_published(&mut entry),
                    cx,
                );
            }
            (Ns::Atom, "updated") => {
                ext::date_with_fallback(
                    r,
                    &child,
                    DateSyntax::Rfc3339,
                    ext::entry_updated(&mut entry),
                    cx,
                );
            }
            (Ns::Atom03 | Ns::Atom, "modified") => {
                ext::date_with_fallback(
                    r,
                    &child,
                    DateSyntax::W3cDtf,
                    ext::entry_updated(&mut entry),
                    cx,
                );
            }
            // A later element of a slot the spec has set is kept as an extension row
            // (`fill_or_keep`).
            (Ns::Atom | Ns::Atom03, "title") if entry.title.is_some() => {
                ext::capture(r, &child, &mut entry.extensions, cx)
            }
            (Ns::Atom | Ns::Atom03, "summary") if entry.summary.is_some() => {
                ext::capture(r, &child, &mut entry.extensions, cx)
            }
            (Ns::Atom | Ns::Atom03, "content") if entry.content.is_some() => {
                ext::capture(r, &child, &mut entry.extensions, cx)
            }
            (Ns::Atom, "title") => fill(&mut entry.title, atom_text(r, &child, cx)),
            (Ns::Atom03, "title") if cx.recover => {
                recover::atom03_text(r, &child, &mut entry.title, &mut p.title, cx)
            }
            (Ns::Atom03, "title") => fill(&mut entry.title, atom03_content(r, &child, cx)),
            (Ns::Atom, "summary") => fill(&mut entry.summary, atom_text(r, &child, cx)),
            (Ns::Atom03, "summary") if cx.recover => {
                recover::atom03_text(r, &child, &mut entry.summary, &mut p.summary, cx)
            }
            (Ns::Atom03, "summary") => fill(&mut entry.summary, atom03_content(r, &child, cx)),
            (Ns::Atom, "content") => {
                let had = entry.content.is_some();
                fill(&mut entry.content, atom_text(r, &child, cx));
                content_language(&mut entry, had, &child, cx);
            }
            (Ns::Atom03, "content") if cx.recover => {
                let had = entry.content.is_some();
                recover::atom03_text(r, &child, &mut entry.content, &mut p.content, cx);
                content_language(&mut entry, had, &child, cx);
            }
            (Ns::Atom03, "content") => {
                let had = entry.content.is_some();
                fill(&mut entry.content, atom03_content(r, &child, cx));
                content_language(&mut entry, had, &child, cx);
            }
            (Ns::Atom | Ns::Atom03, "link") => {
                let type_attr = child.attr(cx.arena, "type");
                ext::collect_other_link(&mut entry.links, r, &child, cx);
                let link = atom_link(r, &child, cx);
                match link.rel {
                    Rel::Alternate => fill(&mut entry.page_url, link.url),
                    Rel::Enclosure => {
                        if let Some(url) = link.url {
                            // Checked here, where it is used (`other_link` checks its own).
                            let raw = child.attr(cx.arena, "length");
                            let length = checked_attr(
                                r,
                                &child,
                                "length",
                                kind::INTEGER,
                                raw,
                                leading_digits,
                            );
                            let enclosure = crate::model::Enclosure {
                                url: Some(url),
                                mime_type: type_attr,
                                length,
                                source: Some("link"),
                                ..Default::default()
                            };
                            recover::push_enclosure(r, &mut entry, enclosure, &child, &mut p, cx);
                        }
                    }
                    _ => {}
                }
            }
            // A later thumbnail (the first is the entry's) is kept as an extension row.
            (Ns::MediaRss, "thumbnail") if entry.thumbnail.is_some() => {
                ext::capture(r, &child, &mut entry.extensions, cx)
            }
            (Ns::MediaRss, "thumbnail") => {
                fill(&mut entry.thumbnail, image_element(r, &child, "url", cx))
            }
            (Ns::MediaRss, "group") => {
                let g = media_groups;
                media_groups += 1;
                media_group(r, &mut entry, g, &mut seen, &mut p, cx)
            }
            // Beyond the spec's table (model::ext).
            (Ns::Atom | Ns::Atom03, "id") => {
                ext::fill_or_keep(r, &child, &mut entry.id, &mut entry.extensions, cx, |r| {
                    ext::trimmed(r, cx)
                })
            }
            (Ns::Atom | Ns::Atom03, "contributor") => {
                let person = atom_person(r, cx);
                entry.contributors.push(person);
            }
            (Ns::Atom, "source") => {
                ext::fill_or_keep(r, &child, &mut entry.source, &mut entry.extensions, cx, |r| {
                    ext::atom_source(r, cx)
                })
            }
            (Ns::MediaRss, "content") => {
                ext::media_content_element(r, &child, &mut entry, None, &mut seen, cx)
            }
            (Ns::MediaRss, _)
                if ext::media_item(r, &child, &mut entry, &mut media_groups, &mut seen, cx) => {}
            (Ns::Itunes, _) if ext::itunes_item(r, &child, &mut entry.itunes, &mut seen, cx) => {}
            (Ns::Podcast, _) => ext::podcast_item(r, &child, &mut entry, cx),
            (Ns::Other, _) if ext::module_item(r, &child, &mut entry, &mut seen, cx) => {}
            _ if cx.recover => {
                let filled = recover::Filled::entry(&entry);
                recover::entry_child(r, &child, &mut p, filled, &mut entry.extensions, cx)
            }
            _ => ext::capture(r, &child, &mut entry.extensions, cx),
        }
        cx.lint_child(r, lint::Level::Entry, &child);
    }
    if cx.recover {
        p.apply_entry(r, &mut entry, cx);
    }
    entry
}

/// The `xml:lang` written on the `content` element `tag` when it gave the entry its content
/// (`had`: the entry had one before it).
fn content_language<'a>(entry: &mut Entry<'a>, had: bool, tag: &Tag<'a>, cx: &Ctx<'a>) {
    if !had && entry.content.is_some() {
        entry.content_language = ext::attr_trimmed(tag, "xml:lang", cx);
    }
}

/// The `media:group` rows of the Atom entry table (the `group`-th of the entry); beside
/// them, every `media:content` and the Media RSS optional elements go to `ext.media`.
fn media_group<'a>(
    r: &mut XmlReader<'a>,
    entry: &mut Entry<'a>,
    group: u32,
    seen: &mut ext::Seen<'a>,
    p: &mut Pending<'a>,
    cx: &Ctx<'a>,
) {
    while let Some(gc) = r.next_child() {
        match (gc.ns, gc.local) {
            (Ns::MediaRss, "title") => fill(&mut entry.title, string_element(r, cx)),
            (Ns::MediaRss, "description") => {
                let t = text(r, cx);
                fill(&mut entry.summary, has_non_space(t).then_some(crate::Text::Plain(t)));
                let d = t.trim_matches(is_space);
                if !d.is_empty() {
                    let m = entry.media.get_or_insert_with(Default::default);
                    fill(&mut m.description, Some(d));
                }
            }
            (Ns::MediaRss, "thumbnail") if entry.thumbnail.is_some() => {
                ext::capture(r, &gc, &mut entry.extensions, cx)
            }
            (Ns::MediaRss, "thumbnail") => {
                fill(&mut entry.thumbnail, image_element(r, &gc, "url", cx))
            }
            (Ns::MediaRss, "content") => {
                let enclosure = enclosure_from(&gc, "url", "media", cx);
                ext::media_content_element(r, &gc, entry, Some(group), seen, cx);
                if let Some(enclosure) = enclosure {
                    recover::push_enclosure(r, entry, enclosure, &gc, p, cx);
                }
            }
            (Ns::MediaRss, "credit" | "rating" | "player" | "keywords") => {
                let m = entry.media.get_or_insert_with(Default::default);
                ext::media_optional(r, &gc, m, seen, cx);
                if m.is_empty() {
                    entry.media = None;
                }
            }
            // What no table reads (`media:community`, `media:hash`, …): kept as extension
            // rows of the entry.
            _ => ext::capture(r, &gc, &mut entry.extensions, cx),
        }
    }
}
