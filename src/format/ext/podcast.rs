//! The Podcast namespace (`podcast:`, podcastindex.org), channel and item: every element
//! the namespace documents (podcastindex-org/podcast-namespace, `docs/tags/*.md`), typed.
//! An element of the namespace it does not document, and an unknown child of one it reads,
//! is kept by extension capture, as is a repeat of an element the namespace allows once
//! (`medium`, `license`, `chapters`, …: the first is read). A value that does not read as its
//! type (a number, a boolean, a date) is left out with an `invalid_value` diagnostic.
//! RSS 2.0 channels and items, Atom feeds and entries and RSS 1.0 channels and items read
//! them alike; `podcast:liveItem` is an entry in RSS 2.0 only (its children are an RSS 2.0
//! item's: in Atom and RSS 1.0 it is kept by extension capture).

use crate::model::ext::*;
use crate::model::{date, Entry, Feed};
use crate::xml::{Ns, Tag, XmlReader};

use super::super::common::*;
use super::read::*;

pub(super) fn podcast_person<'a>(
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
    // An element the namespace allows once, repeated: the first is read, a later one is kept
    // by extension capture rather than dropped.
    let repeated = match tag.local {
        "guid" => pc.guid.is_some(),
        "locked" => pc.locked.is_some(),
        "medium" => pc.medium.is_some(),
        "updateFrequency" => pc.update_frequency.is_some(),
        "podping" => pc.podping.is_some(),
        "publisher" => pc.publisher.is_some(),
        "license" => pc.license.is_some(),
        "chat" => pc.chat.is_some(),
        _ => false,
    };
    if repeated {
        return super::capture(r, tag, &mut feed.extensions, cx);
    }
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
        "medium" => fill(&mut pc.medium, trimmed(r, cx)),
        "block" => {
            let id = attr_trimmed(tag, "id", cx);
            let blocked = typed_text(r, tag, kind::YES_OR_NO, cx, |v| word_bool(v, "yes", "no"));
            if let Some(blocked) = blocked {
                pc.blocks.push(PodcastBlock { blocked, id });
            }
        }
        "updateFrequency" => {
            let complete = true_false_attr(r, tag, "complete", cx);
            let (dtstart, dtstart_raw) = attr_date(r, tag, "dtstart", date::parse_w3cdtf, cx);
            let rrule = attr_trimmed(tag, "rrule", cx);
            let description = trimmed(r, cx);
            let v = PodcastUpdateFrequency { description, complete, dtstart, dtstart_raw, rrule };
            if v != PodcastUpdateFrequency::default() {
                fill(&mut pc.update_frequency, Some(v));
            }
        }
        "trailer" => {
            let pubdate = |t: &str| date::parse_rfc822(t).or_else(|| date::parse_w3cdtf(t));
            let (pubdate, pubdate_raw) = attr_date(r, tag, "pubdate", pubdate, cx);
            let v = PodcastTrailer {
                url: attr_url(tag, "url", cx),
                pubdate,
                pubdate_raw,
                length: typed_attr(r, tag, "length", kind::INTEGER, cx, non_negative_integer),
                mime_type: attr_trimmed(tag, "type", cx),
                season: typed_attr(r, tag, "season", kind::INTEGER, cx, non_negative_integer),
                title: trimmed(r, cx),
            };
            if v != PodcastTrailer::default() {
                pc.trailers.push(v);
            }
        }
        "remoteItem" => {
            if let Some(v) = remote_item(r, tag, cx) {
                pc.remote_items.push(v);
            }
        }
        "podroll" => remote_items(r, &mut pc.podroll, &mut feed.extensions, cx),
        "publisher" => {
            // One `remoteItem` by the namespace: the first is read, any other is captured.
            while let Some(child) = r.next_child() {
                match (child.ns, child.local) {
                    (Ns::Podcast, "remoteItem") if pc.publisher.is_none() => {
                        pc.publisher = remote_item(r, &child, cx);
                    }
                    _ => super::capture(r, &child, &mut feed.extensions, cx),
                }
            }
        }
        "podping" => {
            r.skip();
            fill(&mut pc.podping, true_false_attr(r, tag, "usesPodping", cx));
        }
        _ => {
            let shared = Shared {
                locations: &mut pc.locations,
                license: &mut pc.license,
                images: &mut pc.images,
                values: &mut pc.values,
                txts: &mut pc.txts,
                social_interacts: &mut pc.social_interacts,
                chat: &mut pc.chat,
            };
            shared.element(r, tag, &mut feed.extensions, cx);
        }
    }
}

/// The elements documented at both the channel and the item level, and where they go.
struct Shared<'s, 'a> {
    locations: &'s mut Vec<PodcastLocation<'a>>,
    license: &'s mut Option<PodcastLicense<'a>>,
    images: &'s mut Vec<PodcastImage<'a>>,
    values: &'s mut Vec<PodcastValue<'a>>,
    txts: &'s mut Vec<PodcastTxt<'a>>,
    social_interacts: &'s mut Vec<PodcastSocialInteract<'a>>,
    chat: &'s mut Option<PodcastChat<'a>>,
}

impl<'a> Shared<'_, 'a> {
    /// Reads `tag` (consumed) into its slot; another element goes to extension capture.
    fn element(
        self,
        r: &mut XmlReader<'a>,
        tag: &Tag<'a>,
        extensions: &mut Vec<Extension<'a>>,
        cx: &Ctx<'a>,
    ) {
        match tag.local {
            "location" => {
                let v = PodcastLocation {
                    geo: attr_trimmed(tag, "geo", cx),
                    osm: attr_trimmed(tag, "osm", cx),
                    rel: attr_trimmed(tag, "rel", cx),
                    country: attr_trimmed(tag, "country", cx),
                    name: trimmed(r, cx),
                };
                if v != PodcastLocation::default() {
                    self.locations.push(v);
                }
            }
            "license" => {
                let v = PodcastLicense { url: attr_url(tag, "url", cx), name: trimmed(r, cx) };
                if v != PodcastLicense::default() {
                    fill(self.license, Some(v));
                }
            }
            "image" => {
                r.skip();
                if let Some(href) = attr_url(tag, "href", cx) {
                    self.images.push(PodcastImage {
                        href,
                        alt: attr_trimmed(tag, "alt", cx),
                        aspect_ratio: attr_trimmed(tag, "aspect-ratio", cx),
                        width: typed_attr(r, tag, "width", kind::INTEGER, cx, non_negative_integer),
                        height: typed_attr(
                            r,
                            tag,
                            "height",
                            kind::INTEGER,
                            cx,
                            non_negative_integer,
                        ),
                        mime_type: attr_trimmed(tag, "type", cx),
                        purpose: attr_trimmed(tag, "purpose", cx),
                    });
                }
            }
            "images" => {
                r.skip();
                srcset(r, tag, self.images, cx);
            }
            "value" => {
                if let Some(v) = value(r, tag, extensions, cx) {
                    self.values.push(v);
                }
            }
            "txt" => {
                let purpose = attr_trimmed(tag, "purpose", cx);
                if let Some(text) = trimmed(r, cx) {
                    self.txts.push(PodcastTxt { text, purpose });
                }
            }
            "socialInteract" => {
                r.skip();
                let v = PodcastSocialInteract {
                    uri: attr_url(tag, "uri", cx),
                    protocol: attr_trimmed(tag, "protocol", cx),
                    account_id: attr_trimmed(tag, "accountId", cx),
                    account_url: attr_url(tag, "accountUrl", cx),
                    priority: typed_attr(
                        r,
                        tag,
                        "priority",
                        kind::INTEGER,
                        cx,
                        non_negative_integer,
                    ),
                };
                if v != PodcastSocialInteract::default() {
                    self.social_interacts.push(v);
                }
            }
            "chat" => {
                r.skip();
                let v = PodcastChat {
                    server: attr_trimmed(tag, "server", cx),
                    protocol: attr_trimmed(tag, "protocol", cx),
                    account_id: attr_trimmed(tag, "accountId", cx),
                    space: attr_trimmed(tag, "space", cx),
                };
                if v != PodcastChat::default() {
                    fill(self.chat, Some(v));
                }
            }
            // Not in the namespace's documents: kept by extension capture.
            _ => super::capture(r, tag, extensions, cx),
        }
    }
}

/// A plain non-negative decimal (`12`, `0.00005`, `.5`), the form the namespace's examples
/// use; a sign, an exponent, `inf` or `NaN` is not one.
pub(super) fn decimal(t: &str) -> Option<f64> {
    let (int, frac) = t.split_once('.').unwrap_or((t, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.len() + frac.len() == 0 || !digits(int) || !digits(frac) {
        return None;
    }
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Attribute `name` of `tag` as a decimal (recorded when it is not one).
fn decimal_attr<'a>(r: &mut XmlReader<'a>, tag: &Tag<'a>, name: &str, cx: &Ctx<'a>) -> Option<f64> {
    typed_attr(r, tag, name, kind::NUMBER, cx, decimal)
}

/// Attribute `name` of `tag`: `true` or `false`, case-insensitive (recorded when neither).
fn true_false_attr<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    name: &str,
    cx: &Ctx<'a>,
) -> Option<bool> {
    typed_attr(r, tag, name, kind::TRUE_FALSE, cx, |v| word_bool(v, "true", "false"))
}

/// `podcast:remoteItem` (consumed); `None` when it has no value.
fn remote_item<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    cx: &Ctx<'a>,
) -> Option<PodcastRemoteItem<'a>> {
    let v = PodcastRemoteItem {
        feed_guid: attr_trimmed(tag, "feedGuid", cx),
        feed_url: attr_url(tag, "feedUrl", cx),
        item_guid: attr_trimmed(tag, "itemGuid", cx),
        medium: attr_trimmed(tag, "medium", cx),
        title: trimmed(r, cx),
    };
    (v != PodcastRemoteItem::default()).then_some(v)
}

/// The `podcast:remoteItem` children of the current element (`podcast:podroll`,
/// `podcast:publisher`), appended to `out`; other children go to extension capture.
fn remote_items<'a>(
    r: &mut XmlReader<'a>,
    out: &mut Vec<PodcastRemoteItem<'a>>,
    extensions: &mut Vec<Extension<'a>>,
    cx: &Ctx<'a>,
) {
    while let Some(child) = r.next_child() {
        match (child.ns, child.local) {
            (Ns::Podcast, "remoteItem") => out.extend(remote_item(r, &child, cx)),
            _ => super::capture(r, &child, extensions, cx),
        }
    }
}

/// `podcast:valueRecipient` (consumed); `None` when it has no value.
fn value_recipient<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    cx: &Ctx<'a>,
) -> Option<PodcastValueRecipient<'a>> {
    r.skip();
    let v = PodcastValueRecipient {
        name: attr_trimmed(tag, "name", cx),
        custom_key: attr_trimmed(tag, "customKey", cx),
        custom_value: attr_trimmed(tag, "customValue", cx),
        kind: attr_trimmed(tag, "type", cx),
        address: attr_trimmed(tag, "address", cx),
        split: typed_attr(r, tag, "split", kind::INTEGER, cx, non_negative_integer),
        fee: true_false_attr(r, tag, "fee", cx),
    };
    (v != PodcastValueRecipient::default()).then_some(v)
}

/// `podcast:value` with its recipients and time splits (consumed); `None` when it has no
/// value.
fn value<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    extensions: &mut Vec<Extension<'a>>,
    cx: &Ctx<'a>,
) -> Option<PodcastValue<'a>> {
    let mut v = PodcastValue {
        kind: attr_trimmed(tag, "type", cx),
        method: attr_trimmed(tag, "method", cx),
        suggested: decimal_attr(r, tag, "suggested", cx),
        ..Default::default()
    };
    while let Some(child) = r.next_child() {
        match (child.ns, child.local) {
            (Ns::Podcast, "valueRecipient") => {
                v.recipients.extend(value_recipient(r, &child, cx));
            }
            (Ns::Podcast, "valueTimeSplit") => {
                let mut split = PodcastValueTimeSplit {
                    start_time: decimal_attr(r, &child, "startTime", cx),
                    duration: decimal_attr(r, &child, "duration", cx),
                    remote_start_time: decimal_attr(r, &child, "remoteStartTime", cx),
                    remote_percentage: typed_attr(
                        r,
                        &child,
                        "remotePercentage",
                        kind::INTEGER,
                        cx,
                        non_negative_integer,
                    ),
                    ..Default::default()
                };
                while let Some(c) = r.next_child() {
                    match (c.ns, c.local) {
                        (Ns::Podcast, "valueRecipient") => {
                            split.recipients.extend(value_recipient(r, &c, cx));
                        }
                        (Ns::Podcast, "remoteItem") if split.remote_item.is_none() => {
                            split.remote_item = remote_item(r, &c, cx);
                        }
                        _ => super::capture(r, &c, extensions, cx),
                    }
                }
                if split != PodcastValueTimeSplit::default() {
                    v.time_splits.push(split);
                }
            }
            _ => super::capture(r, &child, extensions, cx),
        }
    }
    (v != PodcastValue::default()).then_some(v)
}

/// The candidates of `podcast:images@srcset` (the HTML `srcset` syntax, split by
/// `html::urls::srcset_candidates`: comma-separated URLs, each with an optional `<n>w`
/// width descriptor), appended to `images` as [`PodcastImage`]s with `href` and `width`. A
/// candidate whose descriptors are not one width (`2x`) is kept without one, recorded.
fn srcset<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    images: &mut Vec<PodcastImage<'a>>,
    cx: &Ctx<'a>,
) {
    let Some(set) = attr_trimmed(tag, "srcset", cx) else { return };
    for (url, descriptors) in crate::html::urls::srcset_candidates(set) {
        let Some(href) = cx.resolve(&set[url]) else { continue };
        let descriptors = &set[descriptors];
        let width = Some(descriptors).filter(|d| !d.is_empty()).and_then(|d| {
            let n = d.strip_suffix('w').and_then(|n| n.parse::<u64>().ok());
            if n.is_none() {
                invalid_value(
                    r,
                    tag.offset,
                    format_args!("{}@srcset", tag.qname),
                    "a width (`<n>w`)",
                    d,
                );
            }
            n
        });
        images.push(PodcastImage { href, width, ..Default::default() });
    }
}

/// Item-level `podcast:*` elements (the caller matched `Ns::Podcast`). Always consumes.
pub fn podcast_item<'a>(r: &mut XmlReader<'a>, tag: &Tag<'a>, entry: &mut Entry<'a>, cx: &Ctx<'a>) {
    let pc = entry.podcast.get_or_insert_with(Default::default);
    // As for the channel: a repeat of an element allowed once is captured, not dropped.
    let repeated = match tag.local {
        "chapters" => pc.chapters.is_some(),
        "season" => pc.season.is_some(),
        "episode" => pc.episode.is_some(),
        "license" => pc.license.is_some(),
        "chat" => pc.chat.is_some(),
        _ => false,
    };
    if repeated {
        return super::capture(r, tag, &mut entry.extensions, cx);
    }
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
        "soundbite" => {
            let v = PodcastSoundbite {
                start_time: decimal_attr(r, tag, "startTime", cx),
                duration: decimal_attr(r, tag, "duration", cx),
                title: trimmed(r, cx),
            };
            if v != PodcastSoundbite::default() {
                pc.soundbites.push(v);
            }
        }
        "alternateEnclosure" => {
            let mut v = PodcastAlternateEnclosure {
                mime_type: attr_trimmed(tag, "type", cx),
                length: typed_attr(r, tag, "length", kind::INTEGER, cx, non_negative_integer),
                bitrate: decimal_attr(r, tag, "bitrate", cx),
                height: typed_attr(r, tag, "height", kind::INTEGER, cx, non_negative_integer),
                lang: attr_trimmed(tag, "lang", cx),
                title: attr_trimmed(tag, "title", cx),
                rel: attr_trimmed(tag, "rel", cx),
                codecs: attr_trimmed(tag, "codecs", cx),
                default: true_false_attr(r, tag, "default", cx),
                ..Default::default()
            };
            while let Some(child) = r.next_child() {
                match (child.ns, child.local) {
                    (Ns::Podcast, "source") => {
                        r.skip();
                        if let Some(uri) = attr_url(&child, "uri", cx) {
                            let content_type = attr_trimmed(&child, "contentType", cx);
                            v.sources.push(PodcastSource { uri, content_type });
                        }
                    }
                    (Ns::Podcast, "integrity") if v.integrity.is_none() => {
                        r.skip();
                        let i = PodcastIntegrity {
                            kind: attr_trimmed(&child, "type", cx),
                            value: attr_trimmed(&child, "value", cx),
                        };
                        v.integrity = (i != PodcastIntegrity::default()).then_some(i);
                    }
                    _ => super::capture(r, &child, &mut entry.extensions, cx),
                }
            }
            if v != PodcastAlternateEnclosure::default() {
                pc.alternate_enclosures.push(v);
            }
        }
        "contentLink" => {
            let v = PodcastContentLink { href: attr_url(tag, "href", cx), text: trimmed(r, cx) };
            if v != PodcastContentLink::default() {
                pc.content_links.push(v);
            }
        }
        _ => {
            let shared = Shared {
                locations: &mut pc.locations,
                license: &mut pc.license,
                images: &mut pc.images,
                values: &mut pc.values,
                txts: &mut pc.txts,
                social_interacts: &mut pc.social_interacts,
                chat: &mut pc.chat,
            };
            shared.element(r, tag, &mut entry.extensions, cx);
        }
    }
    if pc.is_empty() {
        entry.podcast = None;
    }
}

/// The attributes of a `podcast:liveItem` (the caller reads its children as an item's).
pub fn podcast_live<'a>(r: &mut XmlReader<'a>, tag: &Tag<'a>, cx: &Ctx<'a>) -> PodcastLive<'a> {
    let (start, start_raw) = attr_date(r, tag, "start", date::parse_w3cdtf, cx);
    let (end, end_raw) = attr_date(r, tag, "end", date::parse_w3cdtf, cx);
    PodcastLive { status: attr_trimmed(tag, "status", cx), start, start_raw, end, end_raw }
}
