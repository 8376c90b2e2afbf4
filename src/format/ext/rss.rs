//! RSS 2.0 and RSS 1.0 channel elements beyond the spec's tables: the format version, channel
//! dates, categories, `skipHours`/`skipDays`, `image`, `cloud`, `textInput`.

use crate::model::ext::*;
use crate::model::{date, Feed};
use crate::xml::{Ns, Tag, XmlReader};

use super::super::common::*;
use super::read::*;

/// The format version of a feed document from its root element: `rss@version` (trimmed,
/// as written); `1.0` for RSS 1.0 (`0.90` when the root binds RSS 0.90's namespace);
/// `1.0` for Atom 1.0; Atom 0.3's `feed@version`, else `0.3`. `None` for other roots.
pub fn version<'a>(root: &Tag<'a>, cx: &Ctx<'a>) -> Option<&'a str> {
    use crate::xml::ns;
    match (root.ns, root.local) {
        (Ns::Null, "rss") => attr_trimmed(root, "version", cx),
        (Ns::Rdf, "RDF") => {
            let rss090 = root.attrs().any(|(n, raw)| {
                (n == "xmlns" || n.starts_with("xmlns:"))
                    && matches!(raw.trim_matches(is_space), ns::RSS090 | ns::RSS090_ALT)
            });
            Some(if rss090 { "0.90" } else { "1.0" })
        }
        (Ns::Atom, "feed") => Some("1.0"),
        (Ns::Atom03, "feed") => attr_trimmed(root, "version", cx).or(Some("0.3")),
        _ => None,
    }
}

/// RSS 2.0 channel `pubDate` / `lastBuildDate` (`name`): the spec's `updated` (first
/// readable one wins, lenient fallback as [`date_with_fallback`]) and, apart, the element's
/// own value; `updated_from` names the element that set `updated`.
pub fn rss_channel_date<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    name: &'static str,
    feed: &mut Feed<'a>,
    cx: &Ctx<'a>,
) {
    let t = text(r, cx);
    let strict = date::parse_rfc822(t);
    if strict.is_none() {
        let keep = feed.updated.is_none() && feed.updated_lenient.is_none();
        lenient_or_invalid(r, tag, t, keep, &mut feed_updated(feed), cx);
    }
    if feed.updated.is_none() && strict.is_some() {
        feed.updated_from = Some(name);
        feed_updated(feed).fill(strict, t);
    }
    let (own, raw) = if name == "pubDate" {
        (&mut feed.pub_date, &mut feed.pub_date_raw)
    } else {
        (&mut feed.last_build_date, &mut feed.last_build_date_raw)
    };
    if let (None, Some(v)) = (&own, strict) {
        *own = Some(v);
        *raw = date::as_written(t, &v);
    }
}

/// A category of an RSS `category` element whose text is `term` (already read).
pub fn rss_category<'a>(
    cats: &mut Vec<Category<'a>>,
    seen: &mut Seen<'a>,
    tag: &Tag<'a>,
    term: &'a str,
    cx: &Ctx<'a>,
) {
    let term = term.trim_matches(is_space);
    if term.is_empty() {
        return;
    }
    let c = Category { term, scheme: attr_trimmed(tag, "domain", cx), label: None };
    seen.add_category(cats, c);
}

/// A category of an Atom `category` element (attributes only; the caller consumes it).
pub fn atom_category<'a>(
    cats: &mut Vec<Category<'a>>,
    seen: &mut Seen<'a>,
    tag: &Tag<'a>,
    cx: &Ctx<'a>,
) {
    if let Some(term) = attr_trimmed(tag, "term", cx) {
        let c = Category {
            term,
            scheme: attr_trimmed(tag, "scheme", cx),
            label: attr_trimmed(tag, "label", cx),
        };
        seen.add_category(cats, c);
    }
}

/// A term-only category (`dc:subject`): added unless a category with that term and no
/// scheme exists.
pub fn plain_category<'a>(cats: &mut Vec<Category<'a>>, seen: &mut Seen<'a>, term: &'a str) {
    let term = term.trim_matches(is_space);
    let key = |c: &Category<'a>| c.scheme.is_none().then_some(c.term);
    if !term.is_empty() && !seen.plain_terms.contains(cats, key, term) {
        cats.push(Category { term, scheme: None, label: None });
    }
}

/// RSS `skipHours`: `hour` children 0–23 (24 is read as 0, as some generators write 1–24).
pub fn skip_hours<'a>(r: &mut XmlReader<'a>, out: &mut Vec<u8>, cx: &Ctx<'a>) {
    while let Some(child) = r.next_child() {
        if child.local == "hour" && matches!(child.ns, Ns::Null | Ns::Rss1) {
            let hour = |t: &str| t.parse::<u8>().ok().filter(|&h| h <= 24);
            if let Some(h) = typed_text(r, &child, kind::HOUR, cx, hour) {
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

pub(super) const DAYS: [&str; 7] =
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
            match day {
                Some(d) if !out.contains(d) => out.push(d),
                Some(_) => {}
                None => invalid_value(r, child.offset, child.qname, kind::DAY, t),
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
            "width" => fill(
                &mut info.width,
                typed_text(r, &child, kind::INTEGER, cx, non_negative_integer),
            ),
            "height" => {
                let v = typed_text(r, &child, kind::INTEGER, cx, non_negative_integer);
                fill(&mut info.height, v)
            }
            _ => r.skip(),
        }
    }
    // RSS 2.0 `image`: "Maximum value for width is 144, default value is 88. Maximum value
    // for height is 400, default value is 31."
    info.display_width = Some(info.width.map_or(88, |w| w.min(144)));
    info.display_height = Some(info.height.map_or(31, |h| h.min(400)));
    (logo, info)
}

/// RSS 2.0 `cloud` (attributes only; the caller consumes the element).
pub fn cloud<'a>(r: &mut XmlReader<'a>, tag: &Tag<'a>, cx: &Ctx<'a>) -> Option<Cloud<'a>> {
    let c = Cloud {
        domain: attr_trimmed(tag, "domain", cx),
        port: typed_attr(r, tag, "port", kind::INTEGER, cx, non_negative_integer),
        path: attr_trimmed(tag, "path", cx),
        register_procedure: attr_trimmed(tag, "registerProcedure", cx),
        protocol: attr_trimmed(tag, "protocol", cx),
    };
    (c != Cloud::default()).then_some(c)
}

/// RSS `textInput` / `textinput`: its `title`, `description`, `name` and `link` children
/// in namespace `ns`. Consumes the element.
pub fn text_input<'a>(r: &mut XmlReader<'a>, ns: Ns, cx: &Ctx<'a>) -> Option<TextInput<'a>> {
    let mut t = TextInput::default();
    while let Some(child) = r.next_child() {
        if child.ns != ns {
            r.skip();
            continue;
        }
        match child.local {
            "title" => fill(&mut t.title, trimmed(r, cx)),
            "description" => fill(&mut t.description, trimmed(r, cx)),
            "name" => fill(&mut t.name, trimmed(r, cx)),
            "link" => fill(&mut t.link, url_element(r, cx)),
            _ => r.skip(),
        }
    }
    (t != TextInput::default()).then_some(t)
}
