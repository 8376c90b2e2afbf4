//! Feed discovery: the feeds an HTML page advertises, resolved against the
//! page URL, plus the conventional candidate paths for its site. Fetches nothing.
//!
//! Read with lol_html (streaming, no tree): `<link rel="alternate">` with an RSS, Atom, RDF
//! or JSON Feed type (anywhere in the document, as browsers accept), `<base href>` before
//! them, and — lower confidence — `<a href>`s whose path looks like a feed.

use std::cell::RefCell;

use lol_html::{element, rewrite_str, RewriteStrSettings};
use url::Url;

use crate::sanitize::decode_entities;

/// How a feed link was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkSource {
    /// `<link rel="alternate" type="…">` (rules 1–2 of Feed Discovery in docs/spec/feed-formats-and-extraction.md).
    LinkAlternate,
    /// An `<a href>` whose path looks like a feed (rule 5).
    Anchor,
}

impl LinkSource {
    /// The name written in `discover` records (`found_by`): `link` or `anchor`.
    pub fn as_str(self) -> &'static str {
        match self {
            LinkSource::LinkAlternate => "link",
            LinkSource::Anchor => "anchor",
        }
    }
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
    pub source: LinkSource,
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
/// first, in document order, then feed-looking anchors; each URL once.
pub fn discover(html: &str, page_url: &Url) -> Vec<FeedLink> {
    let base = RefCell::new(page_url.clone());
    let base_seen = RefCell::new(false);
    let links = RefCell::new(Vec::<FeedLink>::new());
    let anchors = RefCell::new(Vec::<FeedLink>::new());
    let settings = RewriteStrSettings::new()
        .append_element_content_handler(element!("base[href]", |el| {
            if !*base_seen.borrow() {
                *base_seen.borrow_mut() = true;
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
            if let Some(url) = attr(el, "href").and_then(|h| base.borrow().join(&h).ok()) {
                if matches!(url.scheme(), "http" | "https") {
                    links.borrow_mut().push(FeedLink {
                        url: url.into(),
                        mime_type: Some(ty),
                        title: attr(el, "title"),
                        source: LinkSource::LinkAlternate,
                    });
                }
            }
            Ok(())
        }))
        .append_element_content_handler(element!("a[href]", |el| {
            if let Some(url) = attr(el, "href").and_then(|h| base.borrow().join(&h).ok()) {
                if matches!(url.scheme(), "http" | "https") && looks_like_feed_path(&url) {
                    anchors.borrow_mut().push(FeedLink {
                        url: url.into(),
                        mime_type: None,
                        title: attr(el, "title"),
                        source: LinkSource::Anchor,
                    });
                }
            }
            Ok(())
        }));
    let _ = rewrite_str(html, settings);
    // Each URL once, the first occurrence kept: a set of the URLs seen (linear in the links
    // found, however many a page repeats).
    let mut seen = std::collections::HashSet::new();
    links
        .into_inner()
        .into_iter()
        .chain(anchors.into_inner())
        .filter(|l| seen.insert(l.url.clone()))
        .collect()
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
        assert_eq!(found[2].source, LinkSource::Anchor);
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
        assert_eq!(found[0].source, LinkSource::LinkAlternate);
        assert_eq!(found[2].source, LinkSource::Anchor);
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
}
