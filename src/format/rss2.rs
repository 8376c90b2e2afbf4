//! RSS 0.9x and 2.0: "process an rss element" \[301\], "process an RSS 2.0 channel element"
//! \[206\] and "process an RSS 2.0 item element" \[249\].
//!
//! Where the spec text and its official tests disagree (NOTES.md §7), the tests win:
//! item `pubDate` sets *updated* (D1); `itunes:duration` applies only while null (D2);
//! `dc:creator`/`itunes:author` read the child's text (D3).

use super::atom::feed_link;
use super::cleanup::cleanup_entry;
use super::common::*;
use super::ext;
use super::recover::{self, offer, Pending, Source, TextRule};
use crate::lint;
use crate::model::{Enclosure, Entry, Feed};
use crate::xml::{Ns, Tag, XmlReader};

/// Process an rss element (the root `rss` is open; consumes it).
pub fn rss<'a>(r: &mut XmlReader<'a>, cx: &Ctx<'a>) -> Feed<'a> {
    let mut feed = Feed::default();
    let mut limit_reported = false;
    while let Some(child) = r.next_child() {
        match (child.ns, child.local) {
            (Ns::Null, "channel") => channel(r, &mut feed, &mut limit_reported, cx),
            (Ns::Null, "item") => push_item(r, &child, &mut feed, &mut limit_reported, cx),
            _ => ext::capture(r, &child, &mut feed.extensions, cx),
        }
        cx.lint_child(r, lint::Level::Rss, &child);
    }
    feed
}

/// An `item`, or a `podcast:liveItem` (`tag.local`): an item whose `podcast.live` holds its
/// `status`, `start` and `end`, its children read as an item's, under the same entry limit.
fn push_item<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    feed: &mut Feed<'a>,
    limit_reported: &mut bool,
    cx: &Ctx<'a>,
) {
    if feed.entries.len() >= cx.limits.max_entries {
        entry_limit(r, tag, limit_reported);
        return;
    }
    let live = (tag.local == "liveItem").then(|| ext::podcast_live(r, tag, cx));
    cx.lint_item_start(tag);
    let mut e = item(r, cx);
    // A live item's children were linted as an item's: the lint's item ends here too.
    cx.lint_item_end(tag);
    if let Some(live) = live {
        e.podcast.get_or_insert_with(Default::default).live = Some(live);
    }
    cleanup_entry(&mut e);
    push_entry(&mut feed.entries, e);
}

fn channel<'a>(
    r: &mut XmlReader<'a>,
    feed: &mut Feed<'a>,
    limit_reported: &mut bool,
    cx: &Ctx<'a>,
) {
    let mut p = Pending::default();
    let mut seen = ext::Seen::default();
    while let Some(child) = r.next_child() {
        match (child.ns, child.local) {
            // A later element of a slot the spec has set is kept as an extension row
            // (`fill_or_keep`).
            (Ns::Null, "image") if feed.image.is_some() => {
                ext::capture(r, &child, &mut feed.extensions, cx)
            }
            (Ns::Null, "image") => {
                let (logo, info) = ext::rss_image(r, Ns::Null, cx);
                fill(&mut feed.logo, logo);
                fill(&mut feed.image, Some(info));
            }
            (Ns::Itunes, "image") => {
                ext::fill_or_keep(r, &child, &mut feed.icon, &mut feed.extensions, cx, |r| {
                    image_element(r, &child, "href", cx)
                })
            }
            (Ns::DublinCore, "creator") | (Ns::Itunes, "author") => {
                seen.add_named_author(r, &mut feed.authors, cx)
            }
            (Ns::Null, "managingEditor") => {
                if let Some(person) = rss_person(r, cx) {
                    seen.add_person(&mut feed.authors, person);
                }
            }
            (Ns::Null, "pubDate") => ext::rss_channel_date(r, &child, "pubDate", feed, cx),
            (Ns::Null, "lastBuildDate") => {
                ext::rss_channel_date(r, &child, "lastBuildDate", feed, cx)
            }
            (Ns::Null, "title") if feed.title.is_some() => {
                ext::capture(r, &child, &mut feed.extensions, cx)
            }
            (Ns::Null, "title") if cx.recover => recover::text_element(
                r,
                &child,
                TextRule::String,
                &mut feed.title,
                &mut p.title,
                cx,
            ),
            (Ns::Null, "title") => fill(&mut feed.title, string_element(r, cx)),
            (Ns::Itunes, "subtitle") => {
                ext::fill_or_keep(r, &child, &mut feed.subtitle, &mut feed.extensions, cx, |r| {
                    string_element(r, cx)
                })
            }
            (Ns::Null, "description") | (Ns::Itunes, "summary") if feed.description.is_some() => {
                ext::capture(r, &child, &mut feed.extensions, cx)
            }
            (Ns::Null, "description") if cx.recover => recover::text_element(
                r,
                &child,
                TextRule::String,
                &mut feed.description,
                &mut p.summary,
                cx,
            ),
            (Ns::Null, "description") | (Ns::Itunes, "summary") => {
                fill(&mut feed.description, string_element(r, cx))
            }
            (Ns::Null, "link") => {
                ext::fill_or_keep(r, &child, &mut feed.page_url, &mut feed.extensions, cx, |r| {
                    url_element(r, cx)
                })
            }
            (Ns::Atom, "link") => {
                ext::collect_other_link(&mut feed.links, r, &child, cx);
                let link = atom_link(r, &child, cx);
                feed_link(feed, link);
            }
            (Ns::Null, "item") => push_item(r, &child, feed, limit_reported, cx),
            // Beyond the spec's table (model::ext).
            (Ns::Null, "language") | (Ns::DublinCore, "language") => {
                ext::fill_or_keep(r, &child, &mut feed.language, &mut feed.extensions, cx, |r| {
                    ext::trimmed(r, cx)
                })
            }
            (Ns::Null, "copyright") | (Ns::DublinCore, "rights") => {
                ext::fill_or_keep(r, &child, &mut feed.rights, &mut feed.extensions, cx, |r| {
                    ext::trimmed(r, cx)
                })
            }
            (Ns::Null, "generator") => {
                let generator = |r: &mut XmlReader<'a>| {
                    let name = ext::trimmed(r, cx)?;
                    Some(crate::model::ext::Generator { name: Some(name), ..Default::default() })
                };
                ext::fill_or_keep(
                    r,
                    &child,
                    &mut feed.generator,
                    &mut feed.extensions,
                    cx,
                    generator,
                )
            }
            // dc:date is not in the RSS 2.0 table: read only as a lenient fallback.
            (Ns::DublinCore, "date") => {
                dc_date(r, &child, ext::feed_updated(feed), &mut p.updated, None, cx)
            }
            (Ns::Null, "ttl") => {
                let ttl = |r: &mut XmlReader<'a>| {
                    ext::typed_text(r, &child, kind::INTEGER, cx, non_negative_integer)
                };
                ext::fill_or_keep(r, &child, &mut feed.ttl, &mut feed.extensions, cx, ttl)
            }
            (Ns::Null, "skipHours") => ext::skip_hours(r, &mut feed.skip_hours, cx),
            (Ns::Null, "skipDays") => ext::skip_days(r, &mut feed.skip_days, cx),
            (Ns::Null, "category") => {
                let term = text(r, cx);
                ext::rss_category(&mut feed.category_details, &mut seen, &child, term, cx);
            }
            (Ns::Atom, "id") => {
                ext::fill_or_keep(r, &child, &mut feed.id, &mut feed.extensions, cx, |r| {
                    ext::trimmed(r, cx)
                })
            }
            (Ns::Itunes, _) if ext::itunes_channel(r, &child, &mut feed.itunes, &mut seen, cx) => {}
            (Ns::Podcast, "liveItem") => push_item(r, &child, feed, limit_reported, cx),
            (Ns::Podcast, _) => ext::podcast_channel(r, &child, feed, cx),
            (Ns::Null, "webMaster") => {
                ext::fill_or_keep(r, &child, &mut feed.web_master, &mut feed.extensions, cx, |r| {
                    rss_person(r, cx)
                })
            }
            (Ns::Null, "docs") => {
                ext::fill_or_keep(r, &child, &mut feed.docs, &mut feed.extensions, cx, |r| {
                    url_element(r, cx)
                })
            }
            (Ns::Null, "cloud") => {
                let cloud = |r: &mut XmlReader<'a>| {
                    r.skip();
                    ext::cloud(r, &child, cx)
                };
                ext::fill_or_keep(r, &child, &mut feed.cloud, &mut feed.extensions, cx, cloud)
            }
            (Ns::Null, "rating") => {
                ext::fill_or_keep(r, &child, &mut feed.rating, &mut feed.extensions, cx, |r| {
                    ext::trimmed(r, cx)
                })
            }
            (Ns::Null, "textInput" | "textinput") => {
                ext::fill_or_keep(r, &child, &mut feed.text_input, &mut feed.extensions, cx, |r| {
                    ext::text_input(r, Ns::Null, cx)
                })
            }
            (Ns::Other, _) if ext::module_channel(r, &child, feed, &mut seen, cx) => {}
            _ if cx.recover => {
                let filled = recover::Filled::feed(feed);
                recover::feed_child(r, &child, &mut p, filled, &mut feed.extensions, cx)
            }
            _ => ext::capture(r, &child, &mut feed.extensions, cx),
        }
        cx.lint_child(r, lint::Level::Channel, &child);
    }
    if cx.recover {
        p.apply_feed(r, feed);
    }
}

/// Process an RSS 2.0 item element (consumes it).
pub fn item<'a>(r: &mut XmlReader<'a>, cx: &Ctx<'a>) -> Entry<'a> {
    let mut entry = Entry::default();
    let mut p = Pending::default();
    let mut seen = ext::Seen::default();
    let mut media_groups = 0;
    while let Some(child) = r.next_child() {
        match (child.ns, child.local) {
            (Ns::Null, "category") => {
                let term = text(r, cx);
                seen.add_term(&mut entry.categories, term);
                ext::rss_category(&mut entry.category_details, &mut seen, &child, term, cx);
            }
            (Ns::Null, "author") if cx.recover => {
                recover::rss_author(r, &child, &mut entry.authors, &mut p, cx)
            }
            (Ns::Null, "author") => {
                if let Some(person) = rss_person(r, cx) {
                    seen.add_person(&mut entry.authors, person);
                }
            }
            (Ns::DublinCore, "creator") | (Ns::Itunes, "author") => {
                seen.add_named_author(r, &mut entry.authors, cx)
            }
            (Ns::Null, "pubDate") => {
                let slots = ext::entry_updated(&mut entry);
                let v = ext::date_with_fallback(r, &child, DateSyntax::Rfc822, slots, cx);
                if cx.recover {
                    // The first readable pubDate is the published date, before any dc:date
                    // (as the spec's `updated` takes it before dc:date).
                    let fallback = &mut p.published_fallback;
                    if v.is_some() && fallback.as_ref().is_some_and(|(_, s)| s.element != "pubDate")
                    {
                        *fallback = None;
                    }
                    offer(fallback, v, Source::of("date_published", &child));
                }
            }
            (Ns::Atom, "updated") => {
                let slots = ext::entry_updated(&mut entry);
                ext::date_with_fallback(r, &child, DateSyntax::Rfc3339, slots, cx);
            }
            (Ns::Null, "link") => {
                ext::fill_or_keep(r, &child, &mut entry.page_url, &mut entry.extensions, cx, |r| {
                    url_element(r, cx)
                })
            }
            // A later thumbnail (the first is the entry's) is kept as an extension row.
            (Ns::MediaRss, "thumbnail") | (Ns::Itunes, "image") if entry.thumbnail.is_some() => {
                ext::capture(r, &child, &mut entry.extensions, cx)
            }
            (Ns::MediaRss, "thumbnail") => {
                fill(&mut entry.thumbnail, image_element(r, &child, "url", cx))
            }
            (Ns::Itunes, "image") => {
                fill(&mut entry.thumbnail, image_element(r, &child, "href", cx))
            }
            (Ns::MediaRss, "content") => {
                let enclosure = enclosure_from(&child, "url", "media", cx);
                ext::media_content_element(r, &child, &mut entry, None, &mut seen, cx);
                if let Some(enclosure) = enclosure {
                    recover::push_enclosure(r, &mut entry, enclosure, &child, &mut p, cx);
                }
            }
            (Ns::Null, "enclosure") => {
                r.skip();
                if let Some(enclosure) = enclosure_from(&child, "url", "enclosure", cx) {
                    let raw = child.attr(cx.arena, "length");
                    let length =
                        checked_attr(r, &child, "length", kind::INTEGER, raw, non_negative_integer)
                            .filter(|&n| n > 0);
                    let enclosure = Enclosure { length, ..enclosure };
                    recover::push_enclosure(r, &mut entry, enclosure, &child, &mut p, cx);
                }
            }
            // A later element of a slot the spec has set is kept as an extension row
            // (`fill_or_keep`).
            (Ns::Null, "title") if entry.title.is_some() => {
                ext::capture(r, &child, &mut entry.extensions, cx)
            }
            (Ns::Null, "title") if cx.recover => recover::text_element(
                r,
                &child,
                TextRule::String,
                &mut entry.title,
                &mut p.title,
                cx,
            ),
            (Ns::Null, "title") => fill(&mut entry.title, string_element(r, cx)),
            // Neither the spec's subtitle nor the summary: kept as a row.
            (Ns::Itunes, "summary")
                if entry.subtitle.is_some() && (entry.summary.is_some() || p.summary.is_some()) =>
            {
                ext::capture(r, &child, &mut entry.extensions, cx)
            }
            (Ns::Itunes, "summary") if cx.recover => {
                // The spec's subtitle, and the summary when the spec leaves it null.
                let v = string_element(r, cx);
                offer(&mut p.summary, v.clone(), Source::of("itunes_summary", &child));
                fill(&mut entry.subtitle, v)
            }
            (Ns::Itunes, "subtitle" | "summary") => {
                ext::fill_or_keep(r, &child, &mut entry.subtitle, &mut entry.extensions, cx, |r| {
                    string_element(r, cx)
                })
            }
            (Ns::Null, "description") if entry.summary.is_some() => {
                ext::capture(r, &child, &mut entry.extensions, cx)
            }
            (Ns::Null, "description") if cx.recover => recover::text_element(
                r,
                &child,
                TextRule::EscapedHtml,
                &mut entry.summary,
                &mut p.summary,
                cx,
            ),
            (Ns::Null, "description") => fill(&mut entry.summary, escaped_html(r, cx)),
            (Ns::RssContent, "encoded") => {
                ext::fill_or_keep(r, &child, &mut entry.content, &mut entry.extensions, cx, |r| {
                    escaped_html(r, cx)
                })
            }
            (Ns::Itunes, "duration") => {
                let t = text(r, cx);
                let at = child.offset;
                fill(
                    &mut entry.duration,
                    checked(r, at, child.qname, kind::DURATION, Some(t), parse_duration),
                );
            }
            // Beyond the spec's table (model::ext).
            (Ns::Null, "guid") => {
                if entry.id.is_none() {
                    entry.id = ext::trimmed(r, cx);
                    if entry.id.is_some() {
                        let permalink =
                            child.attr(cx.arena, "isPermaLink").map(|v| v.trim_matches(is_space));
                        entry.id_is_permalink =
                            Some(!permalink.is_some_and(|v| v.eq_ignore_ascii_case("false")));
                        if cx.recover {
                            p.guid_at = Some(child.offset);
                        }
                    }
                } else {
                    ext::capture(r, &child, &mut entry.extensions, cx)
                }
            }
            (Ns::DublinCore, "date") => {
                let published = Some(&mut p.published_fallback);
                dc_date(r, &child, ext::entry_updated(&mut entry), &mut p.updated, published, cx)
            }
            (Ns::Null, "comments") => {
                ext::fill_or_keep(r, &child, &mut entry.comments, &mut entry.extensions, cx, |r| {
                    url_element(r, cx)
                })
            }
            (Ns::Null, "source") if entry.source.is_some() => {
                ext::capture(r, &child, &mut entry.extensions, cx)
            }
            (Ns::Null, "source") => {
                let title = ext::trimmed(r, cx);
                let url = ext::attr_url(&child, "url", cx);
                if title.is_some() || url.is_some() {
                    fill(&mut entry.source, Some(crate::model::ext::Source { title, url }));
                }
            }
            (Ns::DublinCore, "subject") => {
                let term = text(r, cx);
                ext::plain_category(&mut entry.category_details, &mut seen, term);
                let t = term.trim_matches(is_space);
                if cx.recover && !t.is_empty() {
                    p.categories.push((t, Source::of("dc_subject", &child)));
                }
            }
            (Ns::Itunes, _) if ext::itunes_item(r, &child, &mut entry.itunes, &mut seen, cx) => {}
            (Ns::Podcast, _) => ext::podcast_item(r, &child, &mut entry, cx),
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
            (Ns::Other, _) if ext::module_item(r, &child, &mut entry, &mut seen, cx) => {}
            _ if cx.recover => {
                let filled = recover::Filled::entry(&entry);
                recover::entry_child(r, &child, &mut p, filled, &mut entry.extensions, cx)
            }
            _ => ext::capture(r, &child, &mut entry.extensions, cx),
        }
        cx.lint_child(r, lint::Level::Item, &child);
    }
    if cx.recover {
        p.apply_entry(r, &mut entry, cx);
    }
    entry
}

/// A date offered to a pending slot, with its text.
type Offer<'a> = Option<((crate::model::Timestamp, &'a str), Source<'a>)>;

/// `dc:date` (channel or item), outside the RSS 2.0 table: read leniently into the lenient
/// slot (first one wins; dropped at cleanup if the spec field is set; its text kept while the
/// spec's value is null) and, with the recovery rules, offered as `updated` (`date`) and, in
/// an item, as `published` (`date_published`); a value no reading takes is recorded as
/// invalid.
fn dc_date<'a>(
    r: &mut XmlReader<'a>,
    child: &Tag<'a>,
    slots: ext::DateSlots<'_, 'a>,
    updated: &mut Offer<'a>,
    published: Option<&mut Offer<'a>>,
    cx: &Ctx<'a>,
) {
    let t = text(r, cx);
    if slots.lenient.is_none() {
        *slots.lenient = crate::model::lenient_date::parse_lenient(t).map(|l| &*cx.arena.alloc(l));
        if slots.lenient.is_some() && slots.value.is_none() {
            *slots.raw = Some(t);
        }
    }
    let v = checked(r, child.offset, child.qname, kind::DATE, Some(t), recover::date_value);
    if cx.recover {
        offer(updated, v.map(|v| (v, t)), Source::of("date", child));
        if let Some(published) = published {
            offer(published, v.map(|v| (v, t)), Source::of("date_published", child));
        }
    }
}

/// `itunes:duration`: `D+`, `D+:D+` or `D+:D+:D+` (ASCII digits only, no range checks).
pub fn parse_duration(t: &str) -> Option<u64> {
    let mut parts = [0u64; 3];
    let mut n = 0;
    for part in t.split(':') {
        if n == 3 || part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        parts[n] = part.parse().ok()?;
        n += 1;
    }
    match n {
        1 => Some(parts[0]),
        2 => parts[0].checked_mul(60)?.checked_add(parts[1]),
        3 => parts[0]
            .checked_mul(3600)?
            .checked_add(parts[1].checked_mul(60)?)?
            .checked_add(parts[2]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::parse_duration;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("53"), Some(53));
        assert_eq!(parse_duration("53:45"), Some(3225));
        assert_eq!(parse_duration("5:53:45"), Some(21225));
        assert_eq!(parse_duration("1:75"), Some(135));
        assert_eq!(parse_duration("53:45:43:44"), None);
        assert_eq!(parse_duration(" 53"), None);
        assert_eq!(parse_duration("1.5"), None);
        assert_eq!(parse_duration(""), None);
        assert_eq!(parse_duration(":5"), None);
        assert_eq!(parse_duration("5:"), None);
        assert_eq!(parse_duration("99999999999999999999999"), None);
    }
}
