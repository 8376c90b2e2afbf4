//! RSS 1.0 (RDF): "process an RDF element" \[207\], "process an RSS 1.0 channel element"
//! \[311\] and "process an RSS 1.0 item element" \[322\].
//!
//! Follows the tests where the spec text is garbled (NOTES.md §7 D3, D4): `dc:creator` is a
//! name-only author read from the child; item `description`/`content:encoded` parse the child.

use super::atom::feed_link;
use super::cleanup::cleanup_entry;
use super::common::*;
use super::ext;
use super::recover::{self, Pending, TextRule};
use crate::lint;
use crate::model::{Entry, Feed, Image};
use crate::xml::{Ns, Tag, XmlReader};

/// Process an RDF element (the root `rdf:RDF` is open; consumes it).
pub fn rdf<'a>(r: &mut XmlReader<'a>, cx: &Ctx<'a>) -> Feed<'a> {
    let mut feed = Feed::default();
    let mut limit_reported = false;
    while let Some(child) = r.next_child() {
        match (child.ns, child.local) {
            (Ns::Rss1, "channel") => {
                feed.id = feed.id.or(ext::rdf_about(r, &child, cx));
                channel(r, &mut feed, cx)
            }
            (Ns::Rss1, "item") => {
                if feed.entries.len() >= cx.limits.max_entries {
                    entry_limit(r, &child, &mut limit_reported);
                    continue;
                }
                let mut e = item(r, &child, cx);
                cleanup_entry(&mut e);
                push_entry(&mut feed.entries, e);
            }
            // A later element of a slot the spec has set is kept as an extension row
            // (`fill_or_keep`).
            (Ns::Rss1, "image") if feed.image.is_some() => {
                ext::capture(r, &child, &mut feed.extensions, cx)
            }
            (Ns::Rss1, "image") => {
                let (logo, info) = ext::rss_image(r, Ns::Rss1, cx);
                fill(&mut feed.logo, logo);
                fill(&mut feed.image, Some(info));
            }
            (Ns::Rss1, "textinput") => {
                ext::fill_or_keep(r, &child, &mut feed.text_input, &mut feed.extensions, cx, |r| {
                    ext::text_input(r, Ns::Rss1, cx)
                })
            }
            _ => ext::capture(r, &child, &mut feed.extensions, cx),
        }
        cx.lint_child(r, lint::Level::Rdf, &child);
    }
    feed
}

fn channel<'a>(r: &mut XmlReader<'a>, feed: &mut Feed<'a>, cx: &Ctx<'a>) {
    let mut p = Pending::default();
    let mut seen = ext::Seen::default();
    while let Some(child) = r.next_child() {
        match (child.ns, child.local) {
            (Ns::DublinCore, "date") => {
                ext::date_with_fallback(r, &child, DateSyntax::W3cDtf, ext::feed_updated(feed), cx);
            }
            (Ns::DublinCore, "creator") => seen.add_named_author(r, &mut feed.authors, cx),
            // A later element of a slot the spec has set is kept as an extension row
            // (`fill_or_keep`).
            (Ns::Rss1, "title") if feed.title.is_some() => {
                ext::capture(r, &child, &mut feed.extensions, cx)
            }
            (Ns::Rss1, "description") if feed.description.is_some() => {
                ext::capture(r, &child, &mut feed.extensions, cx)
            }
            (Ns::Rss1, "title") if cx.recover => recover::text_element(
                r,
                &child,
                TextRule::String,
                &mut feed.title,
                &mut p.title,
                cx,
            ),
            (Ns::Rss1, "title") => fill(&mut feed.title, string_element(r, cx)),
            (Ns::Rss1, "description") if cx.recover => recover::text_element(
                r,
                &child,
                TextRule::String,
                &mut feed.description,
                &mut p.summary,
                cx,
            ),
            (Ns::Rss1, "description") => fill(&mut feed.description, string_element(r, cx)),
            (Ns::Rss1, "link") => {
                ext::fill_or_keep(r, &child, &mut feed.page_url, &mut feed.extensions, cx, |r| {
                    url_element(r, cx)
                })
            }
            (Ns::Atom, "link") => {
                ext::collect_other_link(&mut feed.links, r, &child, cx);
                let link = atom_link(r, &child, cx);
                feed_link(feed, link);
            }
            // Beyond the spec's table (model::ext).
            (Ns::DublinCore, "language") => {
                ext::fill_or_keep(r, &child, &mut feed.language, &mut feed.extensions, cx, |r| {
                    ext::trimmed(r, cx)
                })
            }
            (Ns::DublinCore, "rights") => {
                ext::fill_or_keep(r, &child, &mut feed.rights, &mut feed.extensions, cx, |r| {
                    ext::trimmed(r, cx)
                })
            }
            (Ns::DublinCore, "subject") => {
                let term = text(r, cx);
                ext::plain_category(&mut feed.category_details, &mut seen, term);
            }
            (Ns::Itunes, _) if ext::itunes_channel(r, &child, &mut feed.itunes, &mut seen, cx) => {}
            (Ns::Podcast, _) => ext::podcast_channel(r, &child, feed, cx),
            (Ns::Other, _) if ext::module_channel(r, &child, feed, &mut seen, cx) => {}
            _ if cx.recover => {
                let filled = recover::Filled::feed(feed);
                recover::feed_child(r, &child, &mut p, filled, &mut feed.extensions, cx)
            }
            _ => ext::capture(r, &child, &mut feed.extensions, cx),
        }
        cx.lint_child(r, lint::Level::Rss1Channel, &child);
    }
    if cx.recover {
        p.apply_feed(r, feed);
    }
}

fn item<'a>(r: &mut XmlReader<'a>, tag: &Tag<'a>, cx: &Ctx<'a>) -> Entry<'a> {
    let mut entry = Entry { id: ext::rdf_about(r, tag, cx), ..Entry::default() };
    let mut p = Pending::default();
    let mut seen = ext::Seen::default();
    let mut media_groups = 0;
    while let Some(child) = r.next_child() {
        match (child.ns, child.local) {
            (Ns::Rss1, "link") => {
                ext::fill_or_keep(r, &child, &mut entry.page_url, &mut entry.extensions, cx, |r| {
                    url_element(r, cx)
                })
            }
            (Ns::Hatena, "imageurl") => {
                // Seed semantics (D10): an unusable URL gives no thumbnail and does not block
                // a later imageurl.
                let url = url_element(r, cx);
                if entry.thumbnail.is_none() {
                    entry.thumbnail = url.map(|u| Image { url: Some(u), ..Image::default() });
                }
            }
            (Ns::DublinCore, "creator") => seen.add_named_author(r, &mut entry.authors, cx),
            (Ns::DublinCore, "date") => {
                let slots = ext::entry_updated(&mut entry);
                let v = ext::date_with_fallback(r, &child, DateSyntax::W3cDtf, slots, cx);
                if cx.recover {
                    let src = recover::Source::of("date_published", &child);
                    recover::offer(&mut p.published_fallback, v, src);
                }
            }
            (Ns::DublinCore, "subject") => {
                let term = text(r, cx);
                seen.add_term(&mut entry.categories, term);
                ext::plain_category(&mut entry.category_details, &mut seen, term);
            }
            // A later element of a slot the spec has set is kept as an extension row
            // (`fill_or_keep`).
            (Ns::Rss1, "title") if entry.title.is_some() => {
                ext::capture(r, &child, &mut entry.extensions, cx)
            }
            (Ns::Rss1, "description") if entry.summary.is_some() => {
                ext::capture(r, &child, &mut entry.extensions, cx)
            }
            (Ns::Rss1, "title") if cx.recover => recover::text_element(
                r,
                &child,
                TextRule::String,
                &mut entry.title,
                &mut p.title,
                cx,
            ),
            (Ns::Rss1, "title") => fill(&mut entry.title, string_element(r, cx)),
            (Ns::Rss1, "description") if cx.recover => recover::text_element(
                r,
                &child,
                TextRule::EscapedHtml,
                &mut entry.summary,
                &mut p.summary,
                cx,
            ),
            (Ns::Rss1, "description") => fill(&mut entry.summary, escaped_html(r, cx)),
            (Ns::RssContent, "encoded") => {
                ext::fill_or_keep(r, &child, &mut entry.content, &mut entry.extensions, cx, |r| {
                    escaped_html(r, cx)
                })
            }
            // Beyond the spec's table (model::ext).
            (Ns::MediaRss, "content") => {
                ext::media_content_element(r, &child, &mut entry, None, &mut seen, cx)
            }
            (Ns::MediaRss, _)
                if ext::media_item(r, &child, &mut entry, &mut media_groups, &mut seen, cx) => {}
            (Ns::Atom, "link") => {
                ext::collect_other_link(&mut entry.links, r, &child, cx);
                if cx.recover {
                    recover::atom_link_in_item(r, &child, &mut p, cx);
                } else {
                    r.skip();
                }
            }
            (Ns::Itunes, _) if ext::itunes_item(r, &child, &mut entry.itunes, &mut seen, cx) => {}
            (Ns::Podcast, _) => ext::podcast_item(r, &child, &mut entry, cx),
            (Ns::Other, _) if ext::module_item(r, &child, &mut entry, &mut seen, cx) => {}
            _ if cx.recover => {
                let filled = recover::Filled::entry(&entry);
                recover::entry_child(r, &child, &mut p, filled, &mut entry.extensions, cx)
            }
            _ => ext::capture(r, &child, &mut entry.extensions, cx),
        }
        cx.lint_child(r, lint::Level::Rss1Item, &child);
    }
    if cx.recover {
        p.apply_entry(r, &mut entry, cx);
    }
    entry
}
