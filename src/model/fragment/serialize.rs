//! Serializations of a flat fragment: the harness XML serialization (NOTES §3 "Node
//! serialization (harness)") and the HTML5 fragment serialization for end users.
//!
//! Both are iterative walks over the pre-order node list with a stack of open elements,
//! so nesting depth is bounded only by memory.

use crate::simd::block;

use super::node::{
    Attribute, Element, Node, NodeKind, HTML_NS, MATHML_NS, SVG_NS, XLINK_NS, XMLNS_NS, XML_NS,
};

fn escape(out: &mut String, s: &str, attr: bool) {
    let bytes = s.as_bytes();
    let mut last = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let rep = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => continue,
        };
        let _ = attr;
        out.push_str(&s[last..i]);
        out.push_str(rep);
        last = i + 1;
    }
    out.push_str(&s[last..]);
}

#[inline(always)]
fn push_qname(out: &mut impl HtmlOut, prefix: Option<&str>, local: &str) {
    if let Some(p) = prefix {
        out.verbatim(p);
        out.markup(":");
    }
    out.verbatim(local);
}

fn is_default_decl(a: &Attribute<'_>) -> bool {
    a.prefix.is_none() && a.local == "xmlns" && (a.namespace == XMLNS_NS || a.namespace.is_empty())
}

fn prefix_decl<'a>(a: &Attribute<'a>) -> Option<(&'a str, &'a str)> {
    if a.prefix == Some("xmlns") {
        Some((a.local, a.value))
    } else {
        None
    }
}

fn lookup<'a>(map: &[(&'a str, &'a str)], prefix: &str) -> Option<&'a str> {
    match prefix {
        "xml" => Some(XML_NS),
        "xmlns" => Some(XMLNS_NS),
        _ => map.iter().rev().find(|(p, _)| *p == prefix).map(|&(_, ns)| ns),
    }
}

struct XFrame<'a> {
    end: usize,
    el: Element<'a>,
    default: &'a str,
    map_len: usize,
}

/// The harness XML serialization of the fragment's children.
pub(crate) fn write_xml<'a>(nodes: &[Node<'a>], out: &mut String) {
    let n = nodes.len();
    let mut stack: Vec<XFrame<'a>> = Vec::new();
    let mut default: &'a str = ""; // "" = null namespace
    let mut map: Vec<(&'a str, &'a str)> = Vec::new();
    let mut i = 0;
    loop {
        while let Some(f) = stack.last() {
            if f.end > i && i < n {
                break;
            }
            out.push_str("</");
            push_qname(out, f.el.prefix, f.el.local);
            out.push('>');
            default = f.default;
            map.truncate(f.map_len);
            stack.pop();
        }
        if i >= n {
            break;
        }
        let node = &nodes[i];
        match &node.kind {
            NodeKind::Element(e) => {
                let saved_default = default;
                let saved_len = map.len();
                out.push('<');
                push_qname(out, e.prefix, e.local);
                // Declarations present on the element itself (xhtml content) are in scope for it.
                let mut own_default = None;
                for a in e.attrs {
                    if let Some(d) = prefix_decl(a) {
                        map.push(d);
                    } else if is_default_decl(a) && own_default.is_none() {
                        own_default = Some(a.value);
                    }
                }
                match e.prefix {
                    None => {
                        if e.namespace != default && own_default != Some(e.namespace) {
                            out.push_str(" xmlns=\"");
                            escape(out, e.namespace, true);
                            out.push('"');
                        }
                        default = e.namespace;
                    }
                    Some(p) => {
                        // A default declaration on a prefixed element applies to its children.
                        if let Some(d) = own_default {
                            default = d;
                        }
                        if lookup(&map, p) != Some(e.namespace) {
                            out.push_str(" xmlns:");
                            out.push_str(p);
                            out.push_str("=\"");
                            escape(out, e.namespace, true);
                            out.push('"');
                            map.push((p, e.namespace));
                        }
                    }
                }
                for a in e.attrs {
                    // An unprefixed element's own default declaration that contradicts its
                    // namespace is dropped (the generated one above replaces it), as in the
                    // DOM Parsing "ignore namespace definition attribute" rule.
                    if e.prefix.is_none() && is_default_decl(a) && a.value != e.namespace {
                        continue;
                    }
                    out.push(' ');
                    push_qname(out, a.prefix, a.local);
                    out.push_str("=\"");
                    escape(out, a.value, true);
                    out.push('"');
                    if let Some(p) = a.prefix {
                        if p != "xmlns"
                            && !a.namespace.is_empty()
                            && lookup(&map, p) != Some(a.namespace)
                        {
                            out.push_str(" xmlns:");
                            out.push_str(p);
                            out.push_str("=\"");
                            escape(out, a.namespace, true);
                            out.push('"');
                            map.push((p, a.namespace));
                        }
                    }
                }
                out.push('>');
                let end = (node.end as usize).clamp(i + 1, stack.last().map_or(n, |f| f.end));
                stack.push(XFrame { end, el: *e, default: saved_default, map_len: saved_len });
            }
            NodeKind::Text(t) => escape(out, t, false),
            NodeKind::Comment(c) => {
                out.push_str("<!--");
                out.push_str(c);
                out.push_str("-->");
            }
            NodeKind::ProcessingInstruction { target, data } => {
                out.push_str("<?");
                out.push_str(target);
                out.push(' ');
                out.push_str(data);
                out.push_str("?>");
            }
        }
        i += 1;
    }
}

/// Where [`write_html`] writes: a `String` (the serialization as is), or a form of it made in
/// the same pass (the JSON sink writes it straight into a JSON string, each byte escaped once
/// for both HTML and JSON).
pub(crate) trait HtmlOut {
    /// Markup the serializer adds itself (`<`, `</`, `>`, `=`, `<!--`, a space): ASCII
    /// without `"`, `\\` or control characters.
    fn markup(&mut self, s: &'static str);
    /// Text written as it is: names, raw text, comments, processing instructions.
    fn verbatim(&mut self, s: &str);
    /// Text or an attribute value, escaped ([`html_escape`]).
    fn escaped(&mut self, s: &str, attr: bool);
    /// The `"` around an attribute value.
    fn quote(&mut self);
    /// `<` and an unprefixed element name (the name written [`HtmlOut::verbatim`]).
    #[inline(always)]
    fn start_tag(&mut self, local: &str) {
        self.markup("<");
        self.verbatim(local);
    }
    /// ` name="`: an unprefixed attribute name between its space and its value's opening quote.
    #[inline(always)]
    fn attr_start(&mut self, local: &str) {
        self.markup(" ");
        self.verbatim(local);
        self.markup("=");
        self.quote();
    }
    /// `<name>`: [`HtmlOut::start_tag`] of an element without attributes, and its `>`.
    #[inline(always)]
    fn start_tag_closed(&mut self, local: &str) {
        self.start_tag(local);
        self.markup(">");
    }
    /// The `"` after the last attribute value, and the start tag's `>`.
    #[inline(always)]
    fn quote_close(&mut self) {
        self.quote();
        self.markup(">");
    }
    /// `</name>` of an unprefixed element name.
    #[inline(always)]
    fn end_tag(&mut self, local: &str) {
        self.markup("</");
        self.verbatim(local);
        self.markup(">");
    }
}

impl HtmlOut for String {
    #[inline(always)]
    fn markup(&mut self, s: &'static str) {
        self.push_str(s);
    }
    #[inline(always)]
    fn verbatim(&mut self, s: &str) {
        self.push_str(s);
    }
    #[inline(always)]
    fn escaped(&mut self, s: &str, attr: bool) {
        html_escape(self, s, attr);
    }
    #[inline(always)]
    fn quote(&mut self) {
        self.push('"');
    }
}

/// The bytes [`html_escape`] always marks: `& < >` and 0xC2 (the first byte of U+00A0 in
/// UTF-8); in an attribute value it marks `"` too.
pub(crate) const HTML_ESCAPED: [u8; 4] = [b'&', b'<', b'>', 0xC2];

/// The replacement of the marked byte `b[j]` in [`html_escape`] (a [`block::copy_escaped`]
/// escape): `&amp; &lt; &gt; &quot;`, `&nbsp;` for U+00A0 (two bytes), else the byte itself
/// (a 0xC2 starting another character).
#[inline(always)]
pub(crate) fn html_escape_at(b: &[u8], j: usize) -> ([u8; 8], usize, usize) {
    #[inline(always)]
    fn rep(r: &[u8]) -> ([u8; 8], usize) {
        let mut b = [0u8; 8];
        b[..r.len()].copy_from_slice(r);
        (b, r.len())
    }
    let ((bytes, len), used) = match b[j] {
        b'&' => (rep(b"&amp;"), 1),
        b'<' => (rep(b"&lt;"), 1),
        b'>' => (rep(b"&gt;"), 1),
        b'"' => (rep(b"&quot;"), 1),
        0xC2 if b.get(j + 1) == Some(&0xA0) => (rep(b"&nbsp;"), 2),
        c => (rep(&[c]), 1),
    };
    (bytes, len, used)
}

/// Escapes `s` for the HTML fragment serialization: `&`, U+00A0, `<` and `>` always, `"`
/// in attribute values.
///
/// Sixteen bytes at a time, 32 with AVX2 in long values (`simd::block::copy_marked`): the
/// candidates ([`HTML_ESCAPED`], and `"` in an attribute) come out of a block as a bitmask,
/// and the clean bytes between them cost nothing but the block's copy.
pub(crate) fn html_escape(out: &mut String, s: &str, attr: bool) {
    // SAFETY: the bytes appended are those of `s` with ASCII bytes and whole U+00A0 sequences
    // replaced by ASCII: UTF-8 again.
    let out = unsafe { out.as_mut_vec() };
    if attr {
        block::copy_marked(out, s.as_bytes(), b'a', HtmlAttrEscaped, html_escape_at);
    } else {
        block::copy_marked(out, s.as_bytes(), b'a', HtmlTextEscaped, html_escape_at);
    }
}

/// The bytes [`html_escape`] marks in text: [`HTML_ESCAPED`] (`<` and `>` differ in one bit:
/// one compare for both).
struct HtmlTextEscaped;

impl block::MarkSet<3> for HtmlTextEscaped {
    const MARKS: block::Marks<3> = {
        let [amp, lt, gt, c2] = HTML_ESCAPED;
        assert!(lt | 2 == gt);
        block::Marks { limit: 0, folded: [(0, amp), (2, gt), (0, c2)] }
    };
}

/// The bytes [`html_escape`] marks in an attribute value: [`HTML_ESCAPED`] and `"` (which
/// differs from `&` in one bit).
struct HtmlAttrEscaped;

impl block::MarkSet<3> for HtmlAttrEscaped {
    const MARKS: block::Marks<3> = {
        let [amp, lt, gt, c2] = HTML_ESCAPED;
        assert!(amp == b'"' | 4 && lt | 2 == gt);
        block::Marks { limit: 0, folded: [(4, amp), (2, gt), (0, c2)] }
    };
}

/// Whether `ns` is `known`: the builders use the constants themselves, so an address compare
/// settles most calls before the string compare.
#[inline(always)]
fn is_ns(ns: &str, known: &'static str) -> bool {
    std::ptr::eq(ns, known) || ns == known
}

/// An HTML void element: the serialization writes neither its children nor an end tag, so
/// significance does not read its children either (`html::sanitize`).
#[inline]
pub(crate) fn is_void(e: &Element<'_>) -> bool {
    // The name first: it rules out most elements before the namespace compare.
    is_void_name(e.local) && is_ns(e.namespace, HTML_NS)
}

/// HTML's void elements (no end tag, no children serialized).
fn is_void_name(local: &str) -> bool {
    matches!(
        local,
        "area"
            | "base"
            | "basefont"
            | "bgsound"
            | "br"
            | "col"
            | "embed"
            | "frame"
            | "hr"
            | "img"
            | "input"
            | "keygen"
            | "link"
            | "meta"
            | "param"
            | "source"
            | "track"
            | "wbr"
    )
}

/// HTML elements whose text is serialized as is. noscript is escaped: fragments are parsed
/// with scripting disabled.
#[cfg(test)]
fn is_raw_text_name(local: &str) -> bool {
    matches!(local, "style" | "script" | "xmp" | "iframe" | "noembed" | "noframes" | "plaintext")
}

/// What the HTML serialization does with an HTML element besides its tags.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Special {
    /// Nothing: children serialized, text escaped, an end tag.
    No,
    /// A void element ([`is_void_name`]): no end tag, no children.
    Void,
    /// A raw text element ([`is_raw_text_name`]): its text as is.
    RawText,
    /// `pre`, `textarea`, `listing`: a newline that starts the first child text is doubled.
    Newline,
}

/// [`Special`] of an HTML element's local name: one match on the length, then on the few
/// names of that length (every element written asks, and most names are none of these; the
/// three separate name tests cost ~25 instructions an element).
#[inline(always)]
fn special(local: &str) -> Special {
    use Special::*;
    match local.len() {
        2 => match local {
            "br" | "hr" => Void,
            _ => No,
        },
        3 => match local {
            "col" | "img" | "wbr" => Void,
            "xmp" => RawText,
            "pre" => Newline,
            _ => No,
        },
        4 => match local {
            "area" | "base" | "link" | "meta" => Void,
            _ => No,
        },
        5 => match local {
            "embed" | "frame" | "input" | "param" | "track" => Void,
            "style" => RawText,
            _ => No,
        },
        6 => match local {
            "keygen" | "source" => Void,
            "script" | "iframe" => RawText,
            _ => No,
        },
        7 => match local {
            "bgsound" => Void,
            "noembed" => RawText,
            "listing" => Newline,
            _ => No,
        },
        8 => match local {
            "basefont" => Void,
            "noframes" => RawText,
            "textarea" => Newline,
            _ => No,
        },
        9 => match local {
            "plaintext" => RawText,
            _ => No,
        },
        _ => No,
    }
}

/// An element open in [`write_html`]: where it ends, the name its end tag writes, and whether
/// its text is raw.
struct Open<'a> {
    end: usize,
    prefix: Option<&'a str>,
    local: &'a str,
    raw_text: bool,
}

/// HTML fragment serialization algorithm (void elements without end tag, raw text elements).
pub(crate) fn write_html(nodes: &[Node<'_>], out: &mut impl HtmlOut) {
    let n = nodes.len();
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut i = 0;
    loop {
        while let Some(top) = stack.last() {
            if top.end > i && i < n {
                break;
            }
            match top.prefix {
                None => out.end_tag(top.local),
                Some(_) => {
                    out.markup("</");
                    push_qname(out, top.prefix, top.local);
                    out.markup(">");
                }
            }
            stack.pop();
        }
        if i >= n {
            break;
        }
        let node = &nodes[i];
        let limit = stack.last().map_or(n, |top| top.end);
        // `clamp(i + 1, limit)`: `limit > i` (the loop above closed every element ending at
        // `i`, and `i < n`), so the two bounds are ordered; without `clamp`'s check of that.
        debug_assert!(i < limit);
        let end = (node.end as usize).min(limit).max(i + 1);
        match &node.kind {
            NodeKind::Element(e) => {
                let html = is_ns(e.namespace, HTML_NS);
                // HTML, SVG and MathML elements by their local name, others qualified.
                let prefix = if html || is_ns(e.namespace, SVG_NS) || is_ns(e.namespace, MATHML_NS)
                {
                    None
                } else {
                    e.prefix
                };
                match (prefix, e.attrs.is_empty()) {
                    (None, true) => out.start_tag_closed(e.local),
                    (None, false) => out.start_tag(e.local),
                    (Some(_), _) => {
                        out.markup("<");
                        push_qname(out, prefix, e.local);
                    }
                }
                // HTML serialization writes every attribute (no namespace fix-up: the XML
                // serializer's "ignore namespace definition attribute" rule does not apply).
                for (k, a) in e.attrs.iter().enumerate() {
                    if a.namespace.is_empty() {
                        out.attr_start(a.local);
                    } else {
                        out.markup(" ");
                        if a.namespace == XML_NS {
                            out.markup("xml:");
                            out.verbatim(a.local);
                        } else if a.namespace == XMLNS_NS {
                            if a.local != "xmlns" {
                                out.markup("xmlns:");
                            }
                            out.verbatim(a.local);
                        } else if a.namespace == XLINK_NS {
                            out.markup("xlink:");
                            out.verbatim(a.local);
                        } else {
                            push_qname(out, a.prefix, a.local);
                        }
                        out.markup("=");
                        out.quote();
                    }
                    out.escaped(a.value, true);
                    // The value's closing quote; after the last attribute, the tag's `>` too.
                    if k + 1 == e.attrs.len() {
                        out.quote_close();
                    } else {
                        out.quote();
                    }
                }
                if prefix.is_some() && e.attrs.is_empty() {
                    out.markup(">");
                }
                let special = if html { special(e.local) } else { Special::No };
                if special == Special::Void {
                    i = end; // children of a void element are not serialized
                    continue;
                }
                if special == Special::Newline {
                    if let Some(NodeKind::Text(t)) =
                        nodes.get(i + 1).filter(|_| end > i + 1).map(|c| c.kind)
                    {
                        if t.starts_with('\n') {
                            out.verbatim("\n");
                        }
                    }
                }
                let raw_text = special == Special::RawText;
                stack.push(Open { end, prefix, local: e.local, raw_text });
            }
            NodeKind::Text(t) => {
                if stack.last().is_some_and(|top| top.raw_text) {
                    out.verbatim(t);
                } else {
                    out.escaped(t, false);
                }
            }
            NodeKind::Comment(c) => {
                out.markup("<!--");
                out.verbatim(c);
                out.markup("-->");
            }
            NodeKind::ProcessingInstruction { target, data } => {
                out.markup("<?");
                out.verbatim(target);
                out.markup(" ");
                out.verbatim(data);
                out.markup(">");
            }
        }
        i += 1;
    }
}

#[cfg(test)]
mod special_tests {
    use super::{is_raw_text_name, is_void_name, special, Special};

    /// `special` agrees with the three name tests on their names, their case and length
    /// variants, and other names.
    #[test]
    fn special_agrees_with_the_name_lists() {
        let mut names = vec![
            "",
            "a",
            "p",
            "b",
            "br",
            "hr",
            "li",
            "col",
            "img",
            "wbr",
            "xmp",
            "pre",
            "div",
            "area",
            "base",
            "link",
            "meta",
            "span",
            "embed",
            "frame",
            "input",
            "param",
            "track",
            "style",
            "table",
            "keygen",
            "source",
            "script",
            "iframe",
            "strong",
            "bgsound",
            "noembed",
            "listing",
            "section",
            "basefont",
            "noframes",
            "textarea",
            "noscript",
            "plaintext",
            "blockquote",
            "figcaption",
            "BR",
            "Pre",
            "imgx",
            "scripts",
            "textare",
        ];
        let more: Vec<String> = names.iter().map(|n| format!("{n}x")).collect();
        names.extend(more.iter().map(String::as_str));
        for name in names {
            let want = if is_void_name(name) {
                Special::Void
            } else if is_raw_text_name(name) {
                Special::RawText
            } else if matches!(name, "pre" | "textarea" | "listing") {
                Special::Newline
            } else {
                Special::No
            };
            assert_eq!(special(name), want, "{name}");
        }
    }
}

#[cfg(test)]
mod escape_tests {
    use super::html_escape;

    /// The plain char-by-char definition the fast escape must match.
    fn reference(s: &str, attr: bool) -> String {
        let mut out = String::new();
        for c in s.chars() {
            match c {
                '&' => out.push_str("&amp;"),
                '\u{A0}' => out.push_str("&nbsp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '"' if attr => out.push_str("&quot;"),
                c => out.push(c),
            }
        }
        out
    }

    #[test]
    fn html_escape_matches_the_char_by_char_definition() {
        let pieces =
            ["a", "&", "<", ">", "\"", "\u{A0}", "\u{C2}", "é", "€", "😀", "abcdefgh", " "];
        let mut next = crate::test_rng(0x9E37_79B9_7F4A_7C15);
        for len in 0..200 {
            for _ in 0..20 {
                let mut s = String::new();
                for _ in 0..len % 40 {
                    s.push_str(pieces[(next() % pieces.len() as u64) as usize]);
                }
                for attr in [false, true] {
                    let mut out = String::from("x");
                    html_escape(&mut out, &s, attr);
                    assert_eq!(out[1..], reference(&s, attr), "{s:?} attr={attr}");
                }
            }
        }
        // Long values: the output room is reserved 4 KiB of input at a time, and a U+00A0
        // may straddle the boundary.
        for len in [4090, 4095, 4096, 4097, 8191, 8192, 8193, 20_000] {
            for at in [len - 17, len - 2, 4094, 4095, 4096, 8191] {
                let mut s = "ab\"c<d".repeat(len / 6 + 1)[..len].to_string();
                if at + 2 <= s.len() && s.is_char_boundary(at) && s.is_char_boundary(at + 2) {
                    s.replace_range(at..at + 2, "\u{A0}");
                }
                for attr in [false, true] {
                    let mut out = String::new();
                    html_escape(&mut out, &s, attr);
                    assert_eq!(out, reference(&s, attr), "len {len} nbsp at {at}");
                }
            }
        }
        let mut out = String::new();
        html_escape(&mut out, "0123456\u{A0}<b title=\"x\">&amp;</b>\u{A0}", false);
        assert_eq!(out, "0123456&nbsp;&lt;b title=\"x\"&gt;&amp;amp;&lt;/b&gt;&nbsp;");
    }
}
