//! The URL attributes of a fragment, for the recovery rule `html_url` (`crate::format`'s
//! `Ctx::html_urls`): which attributes of which HTML elements hold a URL, and the rewrite of a
//! fragment with its relative ones resolved.
//!
//! Owns: the attribute list — Python feedparser's `RelativeURIResolver.relative_uris` (the
//! field's reference for what a feed's HTML means; `a@href`, `img@src`, `q@cite`, …) plus
//! what HTML added since (`srcset` of `img` and `source`, `track@src`, `embed@src`) — the
//! HTML Standard's `srcset` candidate split (§4.8.4.3.10 "parse a srcset attribute": only
//! the URLs are replaced, separators and descriptors stay as written), and nested `xml:base`
//! inside an XHTML fragment.
//!
//! Invariants: a fragment in which no URL attribute value changes costs one scan of its
//! attributes (names first, then a value's first bytes for a scheme) and is returned as is
//! (no copy); otherwise the node list is copied once, each changed element's attribute list
//! too, and everything unchanged is shared. What the caller's `resolve` declines (`None`) stays as written: nothing is
//! dropped.

use bumpalo::Bump;
use url::Url;

use crate::model::fragment::{Attribute, Element, Html, Node, NodeKind, HTML_NS, XML_NS};

/// How an attribute holds URLs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum UrlAttr {
    /// One URL (`href`, `src`, …).
    Url,
    /// A `srcset`: candidates of a URL and descriptors, comma-separated.
    Srcset,
}

/// The attribute list: each row is an attribute name (null namespace), how it holds URLs, and
/// the HTML elements on which it does. It defines both [`url_attr`] (the attribute's name
/// matched first: most attributes, `class`, `alt`, `width`, hold none) and
/// [`may_have_url_attrs`] (the elements of any row), so the two cannot disagree.
macro_rules! url_attrs {
    ($($attr:literal $kind:ident [$($element:literal)|+];)+) => {
        /// Whether attribute `attr` (null namespace) of the HTML element `element` holds URLs.
        fn url_attr(element: &str, attr: &str) -> Option<UrlAttr> {
            match attr {
                $($attr => matches!(element, $($element)|+).then_some(UrlAttr::$kind),)+
                _ => None,
            }
        }

        /// The rows of [`url_attr`]: (attribute, elements).
        const URL_ATTRS: &[(&str, &[&str])] = &[$(($attr, &[$($element),+])),+];
    };
}

url_attrs! {
    "href" Url ["a" | "area" | "link"];
    "src" Url [
        "img" | "audio" | "video" | "source" | "track" | "embed" | "iframe" | "frame" | "input"
            | "script"
    ];
    "srcset" Srcset ["img" | "source"];
    "cite" Url ["q" | "blockquote" | "ins" | "del"];
    "poster" Url ["video"];
    "longdesc" Url ["img" | "frame" | "iframe"];
    "usemap" Url ["img" | "input" | "object"];
    "codebase" Url ["object" | "applet"];
    "classid" Url ["object"];
    "data" Url ["object"];
    "background" Url ["body"];
    "action" Url ["form"];
    "profile" Url ["head"];
}

/// Whether the HTML element named `name` (lowercase) has a URL attribute at all: some
/// attribute of it is a [`url_attr`]. Evaluated at compile time for the fast tree builder's
/// tag table (`tags::Info::url`), so that elements without one (`p`, `div`, `span`) skip
/// [`may_need_resolving`].
pub(super) const fn may_have_url_attrs(name: &str) -> bool {
    const fn eq(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }
    let mut r = 0;
    while r < URL_ATTRS.len() {
        let elements = URL_ATTRS[r].1;
        let mut i = 0;
        while i < elements.len() {
            if eq(elements[i], name) {
                return true;
            }
            i += 1;
        }
        r += 1;
    }
    false
}

/// Whether `v` may be a relative reference worth resolving: not empty, not a same-document
/// `#fragment` (a footnote link inside the value: resolving it would point it at the feed),
/// not starting with a scheme (`https:`, `mailto:`: an absolute URL, by the URL Standard's
/// scheme state; a scheme broken by a tab or newline is left to the caller's parse). A
/// `true` is settled by the caller's resolution.
fn may_be_relative(v: &str) -> bool {
    let v = v.trim_start_matches(|c: char| c <= ' ');
    let b = v.as_bytes();
    if b.is_empty() || b[0] == b'#' {
        return false;
    }
    if !b[0].is_ascii_alphabetic() {
        return true;
    }
    let scheme = b[1..].iter().position(|c| !(c.is_ascii_alphanumeric() || b"+-.".contains(c)));
    scheme.is_none_or(|i| b[1 + i] != b':')
}

/// Whether a `srcset` value may hold a relative URL ([`may_be_relative`] for a candidate).
fn srcset_may_be_relative(v: &str) -> bool {
    srcset_urls(v).any(|(s, e)| may_be_relative(&v[s..e]))
}

/// How attribute `a` of the HTML element `local` holds URLs: [`url_attr`] of a null-namespace
/// attribute. The one filter of [`url_attrs`] and [`may_need_resolving`].
#[inline]
fn url_attr_of(local: &str, a: &Attribute<'_>) -> Option<UrlAttr> {
    if a.namespace.is_empty() {
        url_attr(local, a.local)
    } else {
        None
    }
}

/// Whether `ns` is the HTML namespace, or none (markup in no namespace is taken as HTML).
/// The tree builders hand out [`HTML_NS`] itself: its length, then its address, settle most
/// calls before the content is compared (a constant's address need not be unique).
#[inline]
fn is_html_ns(ns: &str) -> bool {
    ns.is_empty()
        || (ns.len() == HTML_NS.len()
            && (std::ptr::eq(ns.as_ptr(), HTML_NS.as_ptr()) || ns == HTML_NS))
}

/// The URL attributes of the element `e` (HTML, or markup in no namespace taken as HTML).
fn url_attrs<'e, 'a>(e: &'e Element<'a>) -> impl Iterator<Item = (usize, UrlAttr)> + 'e {
    let html = is_html_ns(e.namespace);
    e.attrs.iter().enumerate().filter_map(move |(i, a)| {
        if html {
            url_attr_of(e.local, a).map(|k| (i, k))
        } else {
            None
        }
    })
}

/// Whether [`resolve_urls`] could change the HTML element named `local` with `attrs` (null
/// namespace, as HTML's tokenizer makes them): one of its URL attributes may hold a relative
/// URL. The fast tree builder asks it of every element with attributes it inserts that may
/// have a URL attribute ([`may_have_url_attrs`]), so that a fragment with no such element
/// (most: their links are absolute) skips the walk of [`resolve_urls`], which would hand
/// `resolve` nothing and return the fragment as is.
pub(crate) fn may_need_resolving(local: &str, attrs: &[Attribute<'_>]) -> bool {
    // `url_attrs` of an HTML element, without the namespace test.
    attrs.iter().any(|a| match url_attr_of(local, a) {
        Some(UrlAttr::Url) => may_be_relative(a.value),
        Some(UrlAttr::Srcset) => srcset_may_be_relative(a.value),
        None => false,
    })
}

/// ASCII whitespace (the HTML Standard strips it around URL attribute values).
fn is_space(c: char) -> bool {
    c.is_ascii_whitespace()
}

fn is_xml_base(a: &Attribute<'_>) -> bool {
    a.namespace == XML_NS && a.local == "base"
}

/// The base of the `xml:base` scope the element `e` opens inside a fragment: its own
/// `xml:base` resolved against `outer` (the base in scope around it), when that gives an
/// http(s) URL (only such bases are taken, as for the feed's own elements). `None` when it
/// has no `xml:base`, an empty one, or one that does not resolve to an http(s) URL.
fn own_xml_base(e: &Element<'_>, outer: &Url) -> Option<Url> {
    let a = e.attrs.iter().find(|a| is_xml_base(a))?;
    let v = a.value.trim_matches(is_space);
    if v.is_empty() {
        return None;
    }
    outer.join(v).ok().filter(|u| matches!(u.scheme(), "http" | "https"))
}

/// The value `v` of a URL attribute of kind `kind` with its relative URLs resolved against
/// `here` by `resolve` (only values that [`may_be_relative`]; each URL of a `srcset`);
/// `None` when `resolve` gives nothing.
fn resolve_attr<'a>(
    arena: &'a Bump,
    v: &'a str,
    kind: UrlAttr,
    here: &Url,
    resolve: &mut impl FnMut(&Url, &'a str) -> Option<&'a str>,
) -> Option<&'a str> {
    match kind {
        UrlAttr::Url => may_be_relative(v).then(|| resolve(here, v)).flatten(),
        UrlAttr::Srcset => resolve_srcset(arena, v, |u| resolve(here, u)),
    }
}

/// The fragment `h` with the relative URLs of its URL attributes replaced by
/// `resolve(base, value)` where that gives one, `base` being `base` or, with `xml_base`, the
/// `xml:base` in scope inside the fragment (an XHTML element's own `xml:base`, resolved
/// against the outer one; only http(s) bases are taken, as for the feed's own elements).
/// Values that are not relative references ([`may_be_relative`]) are never handed to
/// `resolve`. `h` itself (no copy) when nothing changed.
pub(crate) fn resolve_urls<'a>(
    arena: &'a Bump,
    h: Html<'a>,
    base: &Url,
    xml_base: bool,
    mut resolve: impl FnMut(&Url, &'a str) -> Option<&'a str>,
) -> Html<'a> {
    let nodes = h.nodes();
    let mut out: Option<bumpalo::collections::Vec<'a, Node<'a>>> = None;
    // The `xml:base` scopes opened inside the fragment: (end of the element, its base).
    let mut scopes: Vec<(usize, Url)> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        let NodeKind::Element(e) = &n.kind else { continue };
        if e.attrs.is_empty() {
            continue;
        }
        // The scopes that ended before this node. They nest (an inner one ends first), so
        // popping them here, where they are read, leaves the stack popping at every node
        // would; most nodes (text, elements without attributes) then cost two tests.
        while scopes.last().is_some_and(|(end, _)| i >= *end) {
            scopes.pop();
        }
        if xml_base {
            if let Some(u) = own_xml_base(e, scopes.last().map_or(base, |(_, u)| u)) {
                scopes.push((n.end as usize, u));
            }
        }
        let here = scopes.last().map_or(base, |(_, u)| u);
        let mut attrs: Option<bumpalo::collections::Vec<'a, Attribute<'a>>> = None;
        for (j, kind) in url_attrs(e) {
            let v = e.attrs[j].value;
            let new = resolve_attr(arena, v, kind, here, &mut resolve);
            if let Some(new) = new.filter(|new| *new != v) {
                let attrs = attrs.get_or_insert_with(|| {
                    bumpalo::collections::Vec::from_iter_in(e.attrs.iter().copied(), arena)
                });
                attrs[j].value = new;
            }
        }
        if let Some(attrs) = attrs {
            let out = out.get_or_insert_with(|| {
                bumpalo::collections::Vec::from_iter_in(nodes.iter().copied(), arena)
            });
            out[i].kind = NodeKind::Element(Element { attrs: attrs.into_bump_slice(), ..*e });
        }
    }
    match out {
        Some(nodes) => Html::from_nodes(nodes.into_bump_slice()),
        None => h,
    }
}

/// The byte ranges of the URLs of the `srcset` value `v` ([`srcset_candidates`]).
fn srcset_urls(v: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    srcset_candidates(v).map(|(url, _)| (url.start, url.end))
}

/// The candidates of the `srcset` value `v`, each as the byte ranges of its URL and of its
/// descriptors (ASCII whitespace trimmed; empty when there are none), by the HTML Standard's
/// parse (§4.8.4.3.10 "parse a srcset attribute"): skip ASCII whitespace and commas; the URL
/// is the run of non-whitespace that follows, less trailing commas (which then end the
/// candidate, with no descriptors); otherwise descriptors run to the next comma outside
/// parentheses. So `img/w_100,h_100.png 1x` is one candidate: a comma inside a URL is the
/// URL's. The one split of `srcset` values: relative URLs resolved in HTML values, strict
/// sanitizing, `podcast:images`.
pub(crate) fn srcset_candidates(
    v: &str,
) -> impl Iterator<Item = (std::ops::Range<usize>, std::ops::Range<usize>)> + '_ {
    let b = v.as_bytes();
    let mut p = 0;
    std::iter::from_fn(move || {
        while p < b.len() && (b[p].is_ascii_whitespace() || b[p] == b',') {
            p += 1;
        }
        if p >= b.len() {
            return None;
        }
        let start = p;
        while p < b.len() && !b[p].is_ascii_whitespace() {
            p += 1;
        }
        let mut end = p;
        let mut descriptors = p..p;
        if b[end - 1] == b',' {
            while end > start && b[end - 1] == b',' {
                end -= 1;
            }
        } else {
            // Descriptors, to the next comma outside parentheses.
            let mut parens = false;
            while p < b.len() {
                match b[p] {
                    b'(' => parens = true,
                    b')' => parens = false,
                    b',' if !parens => break,
                    _ => {}
                }
                p += 1;
            }
            let (mut s, mut e) = (descriptors.start, p);
            while s < e && b[s].is_ascii_whitespace() {
                s += 1;
            }
            while e > s && b[e - 1].is_ascii_whitespace() {
                e -= 1;
            }
            descriptors = s..e;
        }
        Some((start..end, descriptors))
    })
    .filter(|(url, _)| !url.is_empty())
}

/// The `srcset` value `v` with each URL that [`may_be_relative`] replaced by `resolve(url)`
/// where that gives one (separators and descriptors as written); `None` when none changed.
fn resolve_srcset<'a>(
    arena: &'a Bump,
    v: &'a str,
    mut resolve: impl FnMut(&'a str) -> Option<&'a str>,
) -> Option<&'a str> {
    let mut out: Option<bumpalo::collections::String<'a>> = None;
    let mut copied = 0;
    for (s, e) in srcset_urls(v) {
        let url = &v[s..e];
        if !may_be_relative(url) {
            continue;
        }
        let Some(new) = resolve(url).filter(|n| *n != url) else { continue };
        let out = out.get_or_insert_with(|| bumpalo::collections::String::new_in(arena));
        out.push_str(&v[copied..s]);
        out.push_str(new);
        copied = e;
    }
    let mut out = out?;
    out.push_str(&v[copied..]);
    Some(out.into_bump_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`resolve_urls`] as it was written before its scopes were popped only at elements
    /// with attributes: the `xml:base` stack popped at every node. The oracle below.
    fn resolve_urls_popping_at_every_node<'a>(
        arena: &'a Bump,
        h: Html<'a>,
        base: &Url,
        mut resolve: impl FnMut(&Url, &'a str) -> Option<&'a str>,
    ) -> Vec<Node<'a>> {
        let nodes = h.nodes();
        let mut out = nodes.to_vec();
        let mut scopes: Vec<(usize, Url)> = Vec::new();
        for (i, n) in nodes.iter().enumerate() {
            while scopes.last().is_some_and(|(end, _)| i >= *end) {
                scopes.pop();
            }
            let NodeKind::Element(e) = &n.kind else { continue };
            if let Some(u) = own_xml_base(e, scopes.last().map_or(base, |(_, u)| u)) {
                scopes.push((n.end as usize, u));
            }
            let here = scopes.last().map_or(base, |(_, u)| u);
            let mut attrs = e.attrs.to_vec();
            for (j, kind) in url_attrs(e) {
                let v = e.attrs[j].value;
                if let Some(new) = resolve_attr(arena, v, kind, here, &mut resolve) {
                    attrs[j].value = new;
                }
            }
            out[i].kind =
                NodeKind::Element(Element { attrs: arena.alloc_slice_copy(&attrs), ..*e });
        }
        out
    }

    /// Pseudo-random XHTML fragments of nested `div`s (some with an `xml:base`, relative or
    /// absolute), links, attribute-less elements and text: every URL resolves against the
    /// same base as with the stack popped at every node.
    #[test]
    fn scopes_popped_at_elements_with_attributes_match_popping_at_every_node() {
        let arena = Bump::new();
        let base = Url::parse("http://feed.example/a/b/").unwrap();
        let bases = ["", "c/", "../d/", "https://x.example/e/", "f/g/", " "];
        let mut next = crate::test_rng(0x9E37_79B9_7F4A_7C15);
        let mut rand = move |n: u64| (next() % n) as usize;
        let attr = |namespace, local, value| Attribute { namespace, prefix: None, local, value };
        for _ in 0..300 {
            // Pre-order, with `end` filled in when an element closes.
            let mut nodes: Vec<Node<'_>> = Vec::new();
            let mut open: Vec<usize> = Vec::new();
            for _ in 0..rand(40) + 1 {
                match rand(6) {
                    0 if open.len() < 6 => {
                        let b = bases[rand(bases.len() as u64)];
                        let attrs: &[Attribute<'_>] = if b.is_empty() {
                            &[]
                        } else {
                            arena.alloc_slice_copy(&[attr(XML_NS, "base", b)])
                        };
                        open.push(nodes.len());
                        let e = Element { namespace: HTML_NS, prefix: None, local: "div", attrs };
                        nodes.push(Node { kind: NodeKind::Element(e), end: 0 });
                    }
                    1 => {
                        let end = nodes.len() as u32;
                        if let Some(k) = open.pop() {
                            nodes[k].end = end;
                        }
                    }
                    2 => {
                        let attrs = arena.alloc_slice_copy(&[attr("", "href", "p/q")]);
                        let e = Element { namespace: HTML_NS, prefix: None, local: "a", attrs };
                        let end = nodes.len() as u32 + 1;
                        nodes.push(Node { kind: NodeKind::Element(e), end });
                    }
                    3 => {
                        let e =
                            Element { namespace: HTML_NS, prefix: None, local: "b", attrs: &[] };
                        let end = nodes.len() as u32 + 1;
                        nodes.push(Node { kind: NodeKind::Element(e), end });
                    }
                    _ => {
                        let end = nodes.len() as u32 + 1;
                        nodes.push(Node { kind: NodeKind::Text("t"), end });
                    }
                }
            }
            let end = nodes.len() as u32;
            for k in open.drain(..) {
                nodes[k].end = end;
            }
            let nodes = arena.alloc_slice_copy(&nodes);
            let h = Html::from_nodes(nodes);
            let resolve = |b: &Url, v: &str| b.join(v).ok().map(|u| &*arena.alloc_str(u.as_str()));
            let got = resolve_urls(&arena, h, &base, true, resolve);
            let want = resolve_urls_popping_at_every_node(&arena, h, &base, resolve);
            assert_eq!(got.nodes(), &want[..], "{nodes:?}");
        }
    }

    fn urls(v: &str) -> Vec<&str> {
        srcset_urls(v).map(|(s, e)| &v[s..e]).collect()
    }

    #[test]
    fn srcset_split_follows_the_html_standard() {
        assert_eq!(urls("a.png 1x, b.png 2x"), ["a.png", "b.png"]);
        // A URL runs to whitespace; trailing commas end the candidate (so `a.png,b.png`
        // with no space is one URL, as browsers read it).
        assert_eq!(urls(" ,a.png,b.png, c.png 100w"), ["a.png,b.png", "c.png"]);
        // A comma inside a URL that is followed by a descriptor is part of the URL.
        assert_eq!(urls("img/w_100,h_100.png 1x"), ["img/w_100,h_100.png"]);
        assert_eq!(urls("a.png (x, y) 1x, b.png"), ["a.png", "b.png"]);
        assert!(urls(" , ,").is_empty());
    }

    #[test]
    fn srcset_candidates_give_each_url_with_its_descriptors() {
        let v = " a.png 1x ,b,c.png\t100w 2x,d.png (x, y) 1x , e.png,";
        let got: Vec<(&str, &str)> = srcset_candidates(v).map(|(u, d)| (&v[u], &v[d])).collect();
        assert_eq!(
            got,
            [("a.png", "1x"), ("b,c.png", "100w 2x"), ("d.png", "(x, y) 1x"), ("e.png", "")]
        );
    }

    #[test]
    fn srcset_rewrite_keeps_separators_and_descriptors() {
        let arena = Bump::new();
        let v = "a.png 1x,  https://x.test/b.png 2x ,#c 3x";
        let got = resolve_srcset(&arena, v, |u| Some(arena.alloc_str(&format!("https://b/{u}"))));
        assert_eq!(got, Some("https://b/a.png 1x,  https://x.test/b.png 2x ,#c 3x"));
        assert_eq!(resolve_srcset(&arena, "https://x.test/a 1x", |_| Some("no")), None);
    }

    /// The fast tree builder asks [`may_need_resolving`] only of elements whose tag-table
    /// entry has `url` set: it is set exactly for the known tags that [`url_attr`] gives some
    /// URL attribute (every (tag, attribute) pair walked), and for `Tag::Other`.
    #[test]
    fn tag_table_url_bit_is_url_attr_of_some_attribute() {
        use crate::html::tags::TAGS;
        assert!(TAGS[0].url, "Tag::Other is always asked");
        for info in &TAGS[1..] {
            let any = URL_ATTRS.iter().any(|(attr, _)| url_attr(info.name, attr).is_some());
            assert_eq!(info.url, any, "{}", info.name);
        }
        for (attr, elements) in URL_ATTRS {
            for e in *elements {
                assert!(url_attr(e, attr).is_some() && may_have_url_attrs(e), "{e}@{attr}");
            }
        }
        assert!(!may_have_url_attrs("p") && !may_have_url_attrs("audi"));
    }

    #[test]
    fn the_list_is_feedparsers_plus_srcset() {
        assert_eq!(url_attr("a", "href"), Some(UrlAttr::Url));
        assert_eq!(url_attr("img", "srcset"), Some(UrlAttr::Srcset));
        assert_eq!(url_attr("video", "poster"), Some(UrlAttr::Url));
        assert_eq!(url_attr("p", "href"), None);
        assert_eq!(url_attr("a", "title"), None);
        assert!(!may_be_relative("  "));
        assert!(!may_be_relative("#note-1"));
        assert!(!may_be_relative("https://example.com/a"));
        assert!(!may_be_relative(" HTTP://Example.com"));
        assert!(!may_be_relative("mailto:x@y.test"));
        assert!(!may_be_relative("javascript:void(0)"));
        assert!(may_be_relative("/a"));
        assert!(may_be_relative("a/b:c"));
        assert!(may_be_relative("//cdn.example/x"));
        assert!(may_be_relative("java\nscript:x"), "left to the URL parser");
        assert!(srcset_may_be_relative("https://a/x 1x, b 2x"));
        assert!(!srcset_may_be_relative("https://a/x 1x, #b 2x"));
    }
}
