//! The small RSS modules (`slash:`, `wfw:`, `sy:`, `taxo:`, `thr:`) and Atom links of other
//! relations.

use crate::model::ext::*;
use crate::model::{date, Entry, Feed};
use crate::xml::{Ns, Tag, XmlReader};

use super::super::common::*;
use super::read::*;

/// `taxo:topics`: the `resource` of each `rdf:li` in its `rdf:Bag` (any depth; as written,
/// trimmed, unique across the entry's or channel's `taxo:topics`, whose index `seen` is).
/// Consumes the element.
pub(super) fn taxo_topics<'a>(
    r: &mut XmlReader<'a>,
    out: &mut Vec<&'a str>,
    seen: &mut Index<&'a str>,
    cx: &Ctx<'a>,
) {
    let mut depth = 0usize;
    loop {
        match r.next() {
            crate::xml::Event::Start(t) => {
                depth += 1;
                if t.ns == Ns::Rdf && t.local == "li" {
                    let v = t
                        .attrs()
                        .find(|(n, _)| {
                            (*n == "resource" || n.ends_with(":resource"))
                                && matches!(r.attr_ns_uri(n), "" | RDF)
                        })
                        .map(|(_, raw)| crate::xml::reader::decode_attr_value(cx.arena, raw))
                        .map(|v| v.trim_matches(is_space))
                        .filter(|v| !v.is_empty());
                    if let Some(v) = v {
                        if !seen.contains(out, |t| Some(*t), v) {
                            out.push(v);
                        }
                    }
                }
            }
            crate::xml::Event::End => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            crate::xml::Event::Eof => break,
            _ => {}
        }
    }
}

/// Channel-level module elements in namespaces the reader does not name: `sy:*`,
/// `taxo:topics`. Returns false (without consuming) for any other element.
pub fn module_channel<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    feed: &mut Feed<'a>,
    seen: &mut Seen<'a>,
    cx: &Ctx<'a>,
) -> bool {
    let ns = module_ns(r, tag);
    let x = &mut *feed;
    match (ns, tag.local) {
        (SYNDICATION, "updatePeriod") => {
            let v = trimmed(r, cx);
            let s = x.syndication.get_or_insert_with(Default::default);
            fill(&mut s.update_period, v);
        }
        (SYNDICATION, "updateFrequency") => {
            let v = typed_text(r, tag, kind::INTEGER, cx, non_negative_integer);
            let s = x.syndication.get_or_insert_with(Default::default);
            fill(&mut s.update_frequency, v);
        }
        (SYNDICATION, "updateBase") => {
            let t = trimmed(r, cx);
            let v = checked(r, tag.offset, tag.qname, kind::DATE, t, date::parse_w3cdtf);
            let s = x.syndication.get_or_insert_with(Default::default);
            if let (None, Some(v), Some(t)) = (s.update_base, v, t) {
                s.update_base = Some(v);
                s.update_base_raw = date::as_written(t, &v);
            }
        }
        (TAXONOMY, "topics") => taxo_topics(r, &mut x.topics, &mut seen.topics, cx),
        _ => return false,
    }
    if x.syndication.is_some_and(|s| s == Syndication::default()) {
        x.syndication = None;
    }
    true
}

/// Item-level module elements in namespaces the reader does not name: `slash:comments`,
/// `wfw:commentRss`, `thr:total`, `thr:in-reply-to`, `taxo:topics`. Returns false (without
/// consuming) for any other element.
pub fn module_item<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    entry: &mut Entry<'a>,
    seen: &mut Seen<'a>,
    cx: &Ctx<'a>,
) -> bool {
    let ns = module_ns(r, tag);
    let x = &mut *entry;
    match (ns, tag.local) {
        (SLASH, "comments") => {
            fill(&mut x.comment_count, typed_text(r, tag, kind::INTEGER, cx, non_negative_integer))
        }
        (WFW, "commentRss" | "commentRSS") => fill(&mut x.comment_feed_url, url_element(r, cx)),
        (THREAD, "total") => {
            fill(&mut x.thread_total, typed_text(r, tag, kind::INTEGER, cx, non_negative_integer))
        }
        (THREAD, "in-reply-to") => {
            r.skip();
            if let Some(id) = attr_trimmed(tag, "ref", cx) {
                x.in_reply_to.push(InReplyTo {
                    id,
                    url: attr_url(tag, "href", cx),
                    mime_type: attr_trimmed(tag, "type", cx),
                    source: attr_url(tag, "source", cx),
                });
            }
        }
        (TAXONOMY, "topics") => taxo_topics(r, &mut x.topics, &mut seen.topics, cx),
        _ => return false,
    }
    true
}

/// Appends the Atom `link` `tag` to `links` when its relation is one the spec does not read,
/// or one it reads with values its key does not carry (see [`other_link`]). Reads attributes
/// only (the caller consumes the element).
pub fn collect_other_link<'a>(
    links: &mut Vec<Link<'a>>,
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    cx: &Ctx<'a>,
) {
    if let Some(l) = other_link(r, tag, cx) {
        links.push(l);
    }
}

/// An Atom `link` for the `links` list: one whose relation the spec does not read
/// ([`Rel::Other`]), or one of the spec's `alternate`, `self`, `previous`/`prev`, `next`
/// that carries a `type`, `title`, `hreflang` or `length` (values the spec's URL key does
/// not hold; its `rel` as written, `alternate` when missing). `None` for the others, an
/// `enclosure` (the entry's enclosure keeps its values), or without a usable `href`. Reads
/// attributes only (the caller consumes the element).
pub fn other_link<'a>(r: &mut XmlReader<'a>, tag: &Tag<'a>, cx: &Ctx<'a>) -> Option<Link<'a>> {
    let raw_rel = tag.attr(cx.arena, "rel");
    let rel = match link_rel(raw_rel) {
        Rel::Other => raw_rel?.trim_matches(is_space),
        Rel::Enclosure => return None,
        _ => {
            let says_more = ["type", "title", "hreflang", "length"]
                .iter()
                .any(|&name| tag.attr(cx.arena, name).is_some_and(has_non_space));
            if !says_more {
                return None;
            }
            raw_rel.map_or("alternate", |r| r.trim_matches(is_space))
        }
    };
    if rel.is_empty() {
        return None;
    }
    let url = attr_url(tag, "href", cx)?;
    let thread = |r: &XmlReader<'a>, local: &str| {
        let suffix = |n: &str| n.strip_suffix(local).is_some_and(|p| p.ends_with(':'));
        tag.attrs().find(|(n, _)| suffix(n) && r.attr_ns_uri(n) == THREAD)
    };
    let (mut count, mut updated, mut updated_raw) = (None, None, None);
    if rel == "replies" {
        count = thread(r, "count").and_then(|(n, raw)| {
            let raw = Some(raw.trim_matches(is_space));
            checked_attr(r, tag, n, kind::INTEGER, raw, non_negative_integer)
        });
        if let Some((n, _)) = thread(r, "updated").or_else(|| thread(r, "when")) {
            (updated, updated_raw) = attr_date(r, tag, n, date::parse_rfc3339, cx);
        }
    }
    Some(Link {
        rel,
        url,
        mime_type: attr_trimmed(tag, "type", cx),
        title: attr_trimmed(tag, "title", cx),
        hreflang: attr_trimmed(tag, "hreflang", cx),
        length: typed_attr(r, tag, "length", kind::INTEGER, cx, non_negative_integer),
        count,
        updated,
        updated_raw,
    })
}
