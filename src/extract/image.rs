//! One image per entry (docs/spec/feed-formats-and-extraction.md, Metadata Extraction
//! Checklist: Media, fallback "embedded `<img>`"): the first of the entry's thumbnail, a Media
//! RSS image, an image enclosure and the first `<img>` of its body that is not a tracking
//! pixel.

use crate::model::fragment::{Element, Html, NodeKind, HTML_NS};
use crate::model::{Entry, Text};

use super::source::Source;

/// Hosts whose images are tracking pixels or feed-service badges, never an entry's picture:
/// WordPress.com stats and comment badges, Feedburner, Google Analytics and DoubleClick,
/// Quantcast, comScore, the Facebook and Pinterest pixels. A host matches itself and its
/// subdomains.
pub const PIXEL_HOSTS: [&str; 12] = [
    "pixel.wp.com",
    "stats.wordpress.com",
    "feeds.wordpress.com",
    "feeds.feedburner.com",
    "feedproxy.google.com",
    "google-analytics.com",
    "doubleclick.net",
    "pixel.quantserve.com",
    "scorecardresearch.com",
    "facebook.com",
    "ct.pinterest.com",
    "pixel.tapad.com",
];

/// An entry's image: URL, where it came from, and its size when the feed states it.
pub(crate) struct Found<'b> {
    pub url: &'b str,
    pub source: Source,
    pub width: Option<u64>,
    pub height: Option<u64>,
}

/// The entry's image (see the module docs). Body `<img>` URLs are resolved against `base`
/// (the document's URL) else the entry's absolute `page_url`; `growth_left` is what resolving
/// may still add in this feed ([`super::ExtractOptions::max_url_growth`]).
pub(crate) fn entry_image<'a: 'b, 'b>(
    e: &Entry<'a>,
    arena: &'b bumpalo::Bump,
    base: Option<&url::Url>,
    growth_left: &mut usize,
) -> Option<Found<'b>> {
    if let Some(t) = e.thumbnail.as_ref() {
        if let Some(url) = t.url {
            return Some(Found {
                url,
                source: Source::Thumbnail,
                width: t.width,
                height: t.height,
            });
        }
    }
    if let Some(m) = e.media.as_deref() {
        let image = m.contents.iter().find(|c| {
            c.url.is_some()
                && (c.medium.is_some_and(|m| m.eq_ignore_ascii_case("image"))
                    || (c.medium.is_none() && c.mime_type.is_some_and(is_image_type)))
        });
        if let Some(c) = image {
            return Some(Found {
                url: c.url?,
                source: Source::Media,
                width: c.width,
                height: c.height,
            });
        }
    }
    let enclosure = e.enclosures.iter().find(|x| match x.mime_type {
        Some(t) => is_image_type(t),
        None => x.url.is_some_and(has_image_extension),
    });
    if let Some(url) = enclosure.and_then(|x| x.url) {
        return Some(Found { url, source: Source::Enclosure, width: None, height: None });
    }
    let page;
    let base = match base {
        Some(b) => Some(b),
        None => {
            page = e.page_url.and_then(|u| url::Url::parse(u).ok());
            page.as_ref()
        }
    };
    for body in [&e.content, &e.summary] {
        if let Some(Text::Html(h)) = body {
            if let Some(found) = body_image(h, arena, base, growth_left) {
                return Some(found);
            }
        }
    }
    None
}

fn is_image_type(t: &str) -> bool {
    t.len() >= 6 && t.as_bytes()[..6].eq_ignore_ascii_case(b"image/")
}

fn has_image_extension(u: &str) -> bool {
    let path = u.split(['?', '#']).next().unwrap_or(u);
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    ["jpg", "jpeg", "png", "gif", "webp"].iter().any(|x| ext.eq_ignore_ascii_case(x))
}

fn attr<'a>(e: &Element<'a>, local: &str) -> Option<&'a str> {
    e.attrs.iter().find(|a| a.namespace.is_empty() && a.local == local).map(|a| a.value)
}

/// Leading ASCII digits of a size attribute (`"120px"` → 120), as the model reads sizes.
fn size(v: Option<&str>) -> Option<u64> {
    let v = v?.trim();
    let digits = v.bytes().take_while(u8::is_ascii_digit).count();
    v[..digits].parse().ok()
}

/// The first `<img>` of `h` with a usable `src` (else `data-src`, for lazily loaded images)
/// that is not a tracking pixel: not at most 1×1 by its `width`/`height`, not on a
/// [`PIXEL_HOSTS`] host, an http(s) URL once resolved.
fn body_image<'a: 'b, 'b>(
    h: &Html<'a>,
    arena: &'b bumpalo::Bump,
    base: Option<&url::Url>,
    growth_left: &mut usize,
) -> Option<Found<'b>> {
    for node in h.nodes() {
        let NodeKind::Element(el) = node.kind else { continue };
        if el.local != "img" || el.namespace != HTML_NS {
            continue;
        }
        let (width, height) = (size(attr(&el, "width")), size(attr(&el, "height")));
        if width.is_some_and(|w| w <= 1) && height.is_some_and(|h| h <= 1) {
            continue;
        }
        let src = [attr(&el, "src"), attr(&el, "data-src")]
            .into_iter()
            .flatten()
            .map(str::trim)
            .find(|s| !s.is_empty());
        let Some(src) = src else { continue };
        let resolved = match url::Url::parse(src) {
            Ok(u) => u,
            Err(url::ParseError::RelativeUrlWithoutBase) => {
                let Some(b) = base else { continue };
                let Ok(u) = b.join(src) else { continue };
                let added = u.as_str().len().saturating_sub(src.len());
                let Some(left) = growth_left.checked_sub(added) else { continue };
                *growth_left = left;
                u
            }
            Err(_) => continue,
        };
        if !matches!(resolved.scheme(), "http" | "https") {
            continue;
        }
        let host = resolved.host_str().unwrap_or("");
        let pixel = PIXEL_HOSTS.iter().any(|p| {
            host.strip_suffix(p).is_some_and(|rest| rest.is_empty() || rest.ends_with('.'))
        });
        if pixel {
            continue;
        }
        let url: &'b str =
            if resolved.as_str() == src { src } else { arena.alloc_str(resolved.as_str()) };
        return Some(Found { url, source: Source::Body, width, height });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_extensions_and_types() {
        assert!(has_image_extension("https://x/a.JPG?w=1"));
        assert!(has_image_extension("https://x/a.webp#f"));
        assert!(!has_image_extension("https://x/a.mp3"));
        assert!(!has_image_extension("https://x/jpg"));
        assert!(is_image_type("IMAGE/png"));
        assert!(!is_image_type("audio/mpeg"));
        assert_eq!(size(Some(" 120px")), Some(120));
        assert_eq!(size(Some("auto")), None);
    }
}
