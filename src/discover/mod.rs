//! Feed discovery: the feeds an HTML page advertises, resolved against the
//! page URL, plus the conventional candidate paths for its site. Fetches nothing.
//!
//! Read with lol_html (streaming, no tree): `<link rel="alternate">` with an RSS, Atom, RDF
//! or JSON Feed type (anywhere in the document, as browsers accept), `<base href>` before
//! them, and — lower confidence — `<a href>`s whose path looks like a feed.
//!
//! Pages are bytes in an encoding the page itself may name: [`page_text`] (a stored page) and
//! [`response_page`] (an HTTP response: status, `Content-Type`) decode them by the HTML
//! Standard's encoding sniffing algorithm (byte order mark, transport label, the prescan's
//! `<meta charset>` / `<meta http-equiv>` in the first 1,024 bytes, then detection; see
//! `sniff.rs`).
//!
//! Output is bounded by the page: a link is resolved against the page's base URL, and a
//! `<base href>` is copied into every relative link, so a long one multiplied the page (a
//! 1 MB `<base href>` and many links gave over a thousand times the page). A link whose URL
//! would be longer than [`MAX_URL_BYTES`] is skipped (a link that may copy the base URL is not
//! even resolved when the base is longer than that), and so is every link that would take
//! resolving the page's links past [`RESOLVE_BUDGET_FACTOR`] times the page's length (plus
//! [`MAX_URL_BYTES`]) of URL text the page does not hold; [`Discovered::skipped`] counts them
//! (`skipped_links` in `feedmill discover` lines). Output and work are then within a small
//! multiple of the page's length.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use lol_html::{element, rewrite_str, RewriteStrSettings};
use url::Url;

use crate::extract::Source;
use crate::sanitize::decode_entities;

mod sniff;
use sniff::decode_page;

/// The text of a stored HTML page (no transport charset), decoded by the HTML encoding
/// sniffing algorithm; invalid sequences become U+FFFD.
pub fn page_text(bytes: &[u8]) -> Cow<'_, str> {
    decode_page(bytes, None).text
}

/// The text of the HTML page an HTTP response holds, decoded by the HTML encoding sniffing
/// algorithm with the `Content-Type` charset as transport label; `None` when the response is
/// not an HTML page: a status other than 200, or a computed MIME type (the `Content-Type`,
/// then the spec's feed-or-HTML sniffing) other than `text/html` or `application/xhtml+xml`.
pub fn response_page<'b>(response: &crate::Response<'b>) -> Option<Cow<'b, str>> {
    use crate::input::{computed_mime_type, MimeType};
    let mime = computed_mime_type(response.content_type, response.body);
    if response.status != 200
        || !(mime.essence_is("text/html") || mime.essence_is("application/xhtml+xml"))
    {
        return None;
    }
    let charset = response
        .content_type
        .and_then(MimeType::parse)
        .and_then(|m| m.charset().map(|c| c.into_owned()));
    Some(decode_page(response.body, charset.as_deref()).text)
}

/// The longest feed URL reported, in bytes (32 KiB: far past any URL a browser or server
/// takes); longer ones are skipped and counted.
pub const MAX_URL_BYTES: usize = 32 << 10;

/// Resolving a page's links may add at most this many times the page's length (plus
/// [`MAX_URL_BYTES`]) of URL text the page does not hold (a resolved URL's length less its
/// `href`'s); links past that are skipped and counted. An ordinary page adds a base URL of a
/// few dozen bytes per link, far below it.
pub const RESOLVE_BUDGET_FACTOR: usize = 8;

/// What [`discover_page`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Discovered {
    /// The feeds, as [`discover`] gives them.
    pub feeds: Vec<FeedLink>,
    /// Links (`<link rel=alternate>` with a feed type, `<a href>`) not resolved: their URL
    /// would be longer than [`MAX_URL_BYTES`], or the page's resolution budget was spent (see
    /// the module docs).
    pub skipped: usize,
}

/// One advertised feed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedLink {
    /// Absolute URL (resolved against `<base href>`, else the page URL).
    pub url: String,
    /// The `type` attribute, lowercased (`None` for anchors).
    pub mime_type: Option<String>,
    /// The `title` attribute (links) or the anchor's `title`.
    pub title: Option<String>,
    /// How the link was found (JSONL key `found_by`).
    pub source: Source,
}

/// Feed MIME types recognized on `<link rel="alternate">`.
pub const FEED_TYPES: &[&str] = &[
    "application/rss+xml",
    "application/atom+xml",
    "application/rdf+xml",
    "application/feed+json",
    "application/x.atom+xml",
    "application/x-atom+xml",
    "application/x-rss+xml",
    "text/xml",
    "application/xml",
];

/// Conventional feed paths (rule 3 of Feed Discovery in docs/spec/feed-formats-and-extraction.md).
pub const CANDIDATE_PATHS: &[&str] =
    &["/feed", "/rss", "/atom.xml", "/feed.xml", "/rss.xml", "/index.xml", "/feeds/posts/default"];

fn rel_has_alternate(rel: &str) -> bool {
    rel.split_ascii_whitespace().any(|t| t.eq_ignore_ascii_case("alternate"))
}

fn looks_like_feed_path(url: &Url) -> bool {
    let p = url.path().to_ascii_lowercase();
    let p = p.trim_end_matches('/');
    p.ends_with(".rss")
        || p.ends_with(".atom")
        || p.ends_with("/rss.xml")
        || p.ends_with("/atom.xml")
        || p.ends_with("/feed.xml")
        || p.ends_with("/index.xml")
        || p.ends_with("/feed")
        || p.ends_with("/rss")
        || p.ends_with("/feeds/posts/default")
}

fn attr(el: &lol_html::html_content::Element<'_, '_>, name: &str) -> Option<String> {
    el.get_attribute(name).map(|v| decode_entities(&v).trim().to_owned()).filter(|v| !v.is_empty())
}

/// The feeds `html` (a page fetched from `page_url`) advertises: `<link rel=alternate>` feeds
/// first, in document order, then feed-looking anchors; each URL once. Links skipped for
/// their length (see the module docs) are left out; [`discover_page`] counts them.
pub fn discover(html: &str, page_url: &Url) -> Vec<FeedLink> {
    discover_page(html, page_url).feeds
}

/// Whether `href` is an absolute URL with an authority (`scheme://…`) or scheme-relative
/// (`//…`): then resolving it copies nothing of the base URL but its scheme.
fn names_its_authority(href: &str) -> bool {
    let rest = match href.split_once(':') {
        Some((scheme, rest))
            if scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme.bytes().all(|c| c.is_ascii_alphanumeric() || b"+-.".contains(&c)) =>
        {
            rest
        }
        _ => href,
    };
    rest.starts_with("//") || rest.starts_with("\\\\")
}

/// Resolves the links of one page within the bounds of the module docs.
struct Resolver {
    /// URL text the page's links may still add.
    budget: Cell<usize>,
    skipped: Cell<usize>,
}

impl Resolver {
    /// `href` resolved against `base`, or `None` when it does not resolve or is skipped
    /// (counted). NOTE: the join, whose work is about the length of its result, is not even
    /// tried for an `href` that may copy the base URL when the base is longer than what is
    /// left of the budget or than [`MAX_URL_BYTES`]: so the work of a page's joins is bounded
    /// by the budget too.
    fn join(&self, base: &Url, href: &str) -> Option<Url> {
        let skip = || {
            self.skipped.set(self.skipped.get() + 1);
            None
        };
        let budget = self.budget.get();
        if !names_its_authority(href) && base.as_str().len() > budget.min(MAX_URL_BYTES) {
            return skip();
        }
        let url = base.join(href).ok()?;
        let added = url.as_str().len().saturating_sub(href.len());
        if url.as_str().len() > MAX_URL_BYTES || added > budget {
            return skip();
        }
        self.budget.set(budget - added);
        Some(url)
    }
}

/// [`discover`], with the count of links skipped for their length.
pub fn discover_page(html: &str, page_url: &Url) -> Discovered {
    let resolver = Resolver {
        budget: Cell::new(html.len().saturating_mul(RESOLVE_BUDGET_FACTOR) + MAX_URL_BYTES),
        skipped: Cell::new(0),
    };
    let base = RefCell::new(page_url.clone());
    let base_seen = RefCell::new(false);
    let links = RefCell::new(Vec::<FeedLink>::new());
    let anchors = RefCell::new(Vec::<FeedLink>::new());
    let settings = RewriteStrSettings::new()
        .append_element_content_handler(element!("base[href]", |el| {
            if !*base_seen.borrow() {
                *base_seen.borrow_mut() = true;
                // Resolved whatever its length: links relative to a base too long for them
                // are skipped as they are resolved.
                if let Some(u) = attr(el, "href").and_then(|h| page_url.join(&h).ok()) {
                    *base.borrow_mut() = u;
                }
            }
            Ok(())
        }))
        .append_element_content_handler(element!("link[rel][href]", |el| {
            let rel = el.get_attribute("rel").unwrap_or_default();
            if !rel_has_alternate(&rel) {
                return Ok(());
            }
            let ty = attr(el, "type").map(|t| t.to_ascii_lowercase());
            let Some(ty) =
                ty.filter(|t| FEED_TYPES.contains(&t.split(';').next().unwrap_or("").trim()))
            else {
                return Ok(());
            };
            if let Some(url) = attr(el, "href").and_then(|h| resolver.join(&base.borrow(), &h)) {
                if matches!(url.scheme(), "http" | "https") {
                    links.borrow_mut().push(FeedLink {
                        url: url.into(),
                        mime_type: Some(ty),
                        title: attr(el, "title"),
                        source: Source::Link,
                    });
                }
            }
            Ok(())
        }))
        .append_element_content_handler(element!("a[href]", |el| {
            if let Some(url) = attr(el, "href").and_then(|h| resolver.join(&base.borrow(), &h)) {
                if matches!(url.scheme(), "http" | "https") && looks_like_feed_path(&url) {
                    anchors.borrow_mut().push(FeedLink {
                        url: url.into(),
                        mime_type: None,
                        title: attr(el, "title"),
                        source: Source::Anchor,
                    });
                }
            }
            Ok(())
        }));
    let _ = rewrite_str(html, settings);
    // Each URL once, the first occurrence kept: a set of the URLs seen (linear in the links
    // found, however many a page repeats).
    let mut seen = std::collections::HashSet::new();
    let feeds = links
        .into_inner()
        .into_iter()
        .chain(anchors.into_inner())
        .filter(|l| seen.insert(l.url.clone()))
        .collect();
    Discovered { feeds, skipped: resolver.skipped.get() }
}

/// The conventional candidate feed URLs for the site of `page_url` ([`CANDIDATE_PATHS`] on its
/// origin). Not fetched: callers decide whether to try them.
pub fn candidate_urls(page_url: &Url) -> Vec<String> {
    if !matches!(page_url.scheme(), "http" | "https") {
        return Vec::new();
    }
    CANDIDATE_PATHS.iter().filter_map(|p| page_url.join(p).ok()).map(String::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_alternate_links() {
        let page = Url::parse("https://blog.example/posts/1").unwrap();
        let html = r#"<!doctype html><html><head>
            <link rel="stylesheet" href="/s.css">
            <link rel="alternate" type="application/rss+xml" title="RSS" href="/feed.xml">
            <LINK REL="Alternate Home" TYPE="Application/Atom+XML" href="atom.xml?a=1&amp;b=2">
            <link rel="alternate" type="text/html" href="/fr/">
            <link rel="alternate" type="application/rss+xml" href="/feed.xml">
            <link rel="alternate" type="application/rss+xml" href="javascript:x">
            </head><body><a href="/comments/feed/">Comments feed</a><a href="/about">About</a></body></html>"#;
        let found = discover(html, &page);
        let urls: Vec<&str> = found.iter().map(|f| f.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "https://blog.example/feed.xml",
                "https://blog.example/posts/atom.xml?a=1&b=2",
                "https://blog.example/comments/feed/"
            ]
        );
        assert_eq!(found[0].title.as_deref(), Some("RSS"));
        assert_eq!(found[1].mime_type.as_deref(), Some("application/atom+xml"));
        assert_eq!(found[2].source, Source::Anchor);
    }

    #[test]
    fn repeated_links_are_kept_once_in_first_seen_order() {
        let page = Url::parse("https://site.example/").unwrap();
        // 20 000 anchors over 1 000 distinct feed URLs, and link elements repeating some.
        let mut html = String::new();
        for i in 0..20_000 {
            html.push_str(&format!("<a href=\"/f{}/feed\">x</a>", (i * 7) % 1000));
        }
        for i in [5, 3, 5] {
            html.push_str(&format!(
                "<link rel=alternate type=application/rss+xml href=\"/f{i}/feed\">"
            ));
        }
        let found = discover(&html, &page);
        assert_eq!(found.len(), 1000);
        let urls: Vec<&str> = found.iter().take(4).map(|f| f.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "https://site.example/f5/feed",
                "https://site.example/f3/feed",
                "https://site.example/f0/feed",
                "https://site.example/f7/feed"
            ]
        );
        assert_eq!(found[0].source, Source::Link);
        assert_eq!(found[2].source, Source::Anchor);
        assert_eq!(found[999].url, "https://site.example/f993/feed");
    }

    #[test]
    fn base_href_and_candidates() {
        let page = Url::parse("https://site.example/a/b").unwrap();
        let html = r#"<head><base href="https://cdn.example/root/"><link rel=alternate type=application/atom+xml href=feed></head>"#;
        assert_eq!(discover(html, &page)[0].url, "https://cdn.example/root/feed");
        let c = candidate_urls(&page);
        assert_eq!(c[0], "https://site.example/feed");
        assert_eq!(c.len(), CANDIDATE_PATHS.len());
        assert!(candidate_urls(&Url::parse("file:///x").unwrap()).is_empty());
    }

    /// A page's links are resolved within bounds: a URL over [`MAX_URL_BYTES`] is skipped
    /// (a 1 MB `<base href>` made every relative link 1 MB), and so are links past the page's
    /// budget (a base just under the cap with many links); absolute links are still found,
    /// and the URL text reported stays within a small multiple of the page.
    #[test]
    fn long_base_href_and_many_links_stay_bounded() {
        let page = Url::parse("https://site.example/").unwrap();
        for base_len in [1 << 20, MAX_URL_BYTES - 100, 2_000, 50] {
            let mut html = format!("<base href=\"https://cdn.example/{}/\">", "b".repeat(base_len));
            for i in 0..5_000 {
                html.push_str(&format!("<a href=f{i}/feed>x</a>"));
            }
            html.push_str(
                "<link rel=alternate type=application/rss+xml href=https://x.example/feed>",
            );
            html.push_str("<a href=/abs/feed>y</a>");
            let d = discover_page(&html, &page);
            let urls: usize = d.feeds.iter().map(|f| f.url.len()).sum();
            // The budget bounds what resolving adds to the `href`s, which the page holds.
            let bound = (RESOLVE_BUDGET_FACTOR + 1) * html.len() + MAX_URL_BYTES;
            assert!(urls <= bound, "{base_len}: {urls}");
            assert!(d.feeds.iter().all(|f| f.url.len() <= MAX_URL_BYTES));
            assert_eq!(d.feeds[0].url, "https://x.example/feed", "{base_len}");
            assert_eq!(d.feeds.len() + d.skipped, 5_002, "{base_len}: every link found or counted");
            if base_len == 50 {
                assert_eq!(d.skipped, 0, "an ordinary base: nothing skipped");
            } else {
                assert!(d.skipped > 0);
            }
        }
    }
}
