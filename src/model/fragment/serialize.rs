//! Serializations of a flat fragment: the harness XML serialization (NOTES §3 "Node
//! serialization (harness)") and the HTML5 fragment serialization for end users.
//!
//! Both are iterative walks over the pre-order node list with a stack of open elements,
//! so nesting depth is bounded only by memory.

use crate::simd::block;

use super::{
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

fn push_qname(out: &mut String, prefix: Option<&str>, local: &str) {
    if let Some(p) = prefix {
        out.push_str(p);
        out.push(':');
    }
    out.push_str(local);
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

/// Escapes `s` for the HTML fragment serialization: `&`, U+00A0, `<` and `>` always, `"`
/// in attribute values.
///
/// Sixteen bytes at a time (SSE2 compares, `simd::block`): the candidates (`& < >`, `"` in an
/// attribute, 0xC2: the first byte of U+00A0 in UTF-8) come out of a block as a bitmask, and
/// the runs between them are copied whole.
pub(crate) fn html_escape(out: &mut String, s: &str, attr: bool) {
    let b = s.as_bytes();
    out.reserve(b.len());
    let mut start = 0;
    // Escapes the byte at `j` if it needs it; every boundary is before an ASCII byte or a
    // U+00A0, so a char boundary.
    let mut at = |out: &mut String, j: usize| {
        let (rep, n) = match b[j] {
            b'&' => ("&amp;", 1),
            b'<' => ("&lt;", 1),
            b'>' => ("&gt;", 1),
            b'"' if attr => ("&quot;", 1),
            0xC2 if b.get(j + 1) == Some(&0xA0) => ("&nbsp;", 2),
            _ => return,
        };
        out.push_str(&s[start..j]);
        out.push_str(rep);
        start = j + n;
    };
    let mut i = 0;
    while let Some(blk) = block::at(b, i) {
        let mut m = block::eq_mask(blk, [b'&', b'<', b'>', 0xC2]);
        if attr {
            m |= block::eq_mask(blk, [b'"']);
        }
        while m != 0 {
            at(out, i + m.trailing_zeros() as usize);
            m &= m - 1;
        }
        i += block::BLOCK;
    }
    for j in i..b.len() {
        at(out, j);
    }
    out.push_str(&s[start..]);
}

pub(crate) fn is_void(e: &Element<'_>) -> bool {
    e.namespace == HTML_NS
        && matches!(
            e.local,
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

fn is_raw_text(e: &Element<'_>) -> bool {
    // noscript is escaped: fragments are parsed with scripting disabled.
    e.namespace == HTML_NS
        && matches!(
            e.local,
            "style" | "script" | "xmp" | "iframe" | "noembed" | "noframes" | "plaintext"
        )
}

fn push_html_tag_name(out: &mut String, e: &Element<'_>) {
    if e.namespace == HTML_NS || e.namespace == SVG_NS || e.namespace == MATHML_NS {
        out.push_str(e.local);
    } else {
        push_qname(out, e.prefix, e.local);
    }
}

/// HTML fragment serialization algorithm (void elements without end tag, raw text elements).
pub(crate) fn write_html(nodes: &[Node<'_>], out: &mut String) {
    let n = nodes.len();
    // Open elements: (end index, node index).
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    loop {
        while let Some(&(end, idx)) = stack.last() {
            if end > i && i < n {
                break;
            }
            if let NodeKind::Element(e) = &nodes[idx].kind {
                out.push_str("</");
                push_html_tag_name(out, e);
                out.push('>');
            }
            stack.pop();
        }
        if i >= n {
            break;
        }
        let node = &nodes[i];
        let limit = stack.last().map_or(n, |&(e, _)| e);
        let end = (node.end as usize).clamp(i + 1, limit);
        let parent = stack.last().and_then(|&(_, p)| match &nodes[p].kind {
            NodeKind::Element(e) => Some(*e),
            _ => None,
        });
        match &node.kind {
            NodeKind::Element(e) => {
                out.push('<');
                push_html_tag_name(out, e);
                // HTML serialization writes every attribute (no namespace fix-up: the XML
                // serializer's "ignore namespace definition attribute" rule does not apply).
                for a in e.attrs {
                    out.push(' ');
                    if a.namespace.is_empty() {
                        out.push_str(a.local);
                    } else if a.namespace == XML_NS {
                        out.push_str("xml:");
                        out.push_str(a.local);
                    } else if a.namespace == XMLNS_NS {
                        if a.local != "xmlns" {
                            out.push_str("xmlns:");
                        }
                        out.push_str(a.local);
                    } else if a.namespace == XLINK_NS {
                        out.push_str("xlink:");
                        out.push_str(a.local);
                    } else {
                        push_qname(out, a.prefix, a.local);
                    }
                    out.push_str("=\"");
                    html_escape(out, a.value, true);
                    out.push('"');
                }
                out.push('>');
                if is_void(e) {
                    i = end; // children of a void element are not serialized
                    continue;
                }
                if e.namespace == HTML_NS && matches!(e.local, "pre" | "textarea" | "listing") {
                    if let Some(NodeKind::Text(t)) =
                        nodes.get(i + 1).filter(|_| end > i + 1).map(|c| c.kind)
                    {
                        if t.starts_with('\n') {
                            out.push('\n');
                        }
                    }
                }
                stack.push((end, i));
            }
            NodeKind::Text(t) => {
                if parent.is_some_and(|p| is_raw_text(&p)) {
                    out.push_str(t);
                } else {
                    html_escape(out, t, false);
                }
            }
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
                out.push('>');
            }
        }
        i += 1;
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
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for len in 0..200 {
            for _ in 0..20 {
                let mut s = String::new();
                for _ in 0..len % 40 {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    s.push_str(pieces[(seed % pieces.len() as u64) as usize]);
                }
                for attr in [false, true] {
                    let mut out = String::from("x");
                    html_escape(&mut out, &s, attr);
                    assert_eq!(out[1..], reference(&s, attr), "{s:?} attr={attr}");
                }
            }
        }
        let mut out = String::new();
        html_escape(&mut out, "0123456\u{A0}<b title=\"x\">&amp;</b>\u{A0}", false);
        assert_eq!(out, "0123456&nbsp;&lt;b title=\"x\"&gt;&amp;amp;&lt;/b&gt;&nbsp;");
    }
}
