//! The Podcast namespace (`podcast:`, podcastindex.org), channel and item.

use crate::model::ext::*;
use crate::model::{Entry, Feed};
use crate::xml::{Tag, XmlReader};

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
        // The rest of the namespace (`value`, `soundbite`, `location`, `medium`, …): kept by
        // extension capture.
        _ => super::capture(r, tag, &mut feed.extensions, cx),
    }
}

/// Item-level `podcast:*` elements (the caller matched `Ns::Podcast`). Always consumes.
pub fn podcast_item<'a>(r: &mut XmlReader<'a>, tag: &Tag<'a>, entry: &mut Entry<'a>, cx: &Ctx<'a>) {
    let pc = entry.podcast.get_or_insert_with(Default::default);
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
        _ => super::capture(r, tag, &mut entry.extensions, cx),
    }
    if pc.is_empty() {
        entry.podcast = None;
    }
}
