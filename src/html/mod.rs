//! HTML text constructs: spec step \[178\] "parse escaped HTML content", sanitizing and the
//! significant-content test (\[112\]–\[129\]), node equality (\[362\]–\[363\]) and the two
//! serializations (harness XML, HTML5). See NOTES §3.
//!
//! Owns: the fragment data types ([`Html`], [`Node`], [`NodeKind`], [`Element`], [`Attribute`]),
//! [`parse_escaped_html`] and [`finish_fragment`].
//!
//! Invariants:
//! - A fragment is a flat pre-order node list in the per-parse arena; `Node::end` is one past
//!   the node's last descendant, and every `end` lies within its parent's range. Top-level
//!   children are at 0, `nodes\[0\].end`, …
//! - Every fragment handed out is sanitized (no HTML `img` with `width="1"` and `height="1"`)
//!   and has significant content; parse results that are exactly one Text node are returned
//!   as [`Text::Plain`] instead.
//! - Namespace `""` is the null namespace; well-known namespace strings are the `*_NS`
//!   constants (static, not arena-allocated).
//! - Nothing recurses over the tree (parsing, sanitizing, equality, serializing are all
//!   iterative), so nesting depth is bounded only by memory; nothing panics on any input
//!   (html5ever calls are additionally wrapped in `catch_unwind`: a parser panic yields None).
//! - Fast paths, both exactly what tree construction would produce. Input in which no `<` can
//!   open a tag (no `<` followed by an ASCII letter, `!`, `/` or `?`) tokenizes to character
//!   tokens only, so the fragment is at most one Text node:
//!   - without `&`, CR or NUL as well, its data is `text` itself: no html5ever at all, and
//!     the result borrows `text` (zero-copy);
//!   - otherwise its data is decoded (character references, CR/CRLF normalization) by the
//!     fast builder's tokenizer (`fast::decode_text`), or where that gives up by html5ever's
//!     tokenizer alone, NULs dropped as the tree builder does (see `tree::decode_text`).
//! - Input that may hold tags first goes to the exact fast tree builder (`fast`, tag names
//!   interned by `tags`), which covers what feeds contain (misnesting and the adoption
//!   agency, tables of the usual shape, inline SVG, script escapes…) and gives up on the
//!   rest (its docs list what); then to html5ever, whose work is bounded
//!   (`parse_escaped_html_limited`). `parse_escaped_html_reference` is html5ever alone, for
//!   differential tests and fuzzing.

mod attrs;
mod fast;
mod sanitize;
mod serialize;
mod tags;
#[cfg(test)]
mod tests;
mod tree;

#[cfg(feature = "strict-sanitize")]
pub(crate) use serialize::{html_escape, is_void};

use bumpalo::Bump;

use crate::model::Text;

/// The HTML namespace: every HTML element of a fragment has it.
pub const HTML_NS: &str = "http://www.w3.org/1999/xhtml";
/// The SVG namespace (inline `<svg>` and its descendants).
pub const SVG_NS: &str = "http://www.w3.org/2000/svg";
/// The MathML namespace (inline `<math>` and its descendants).
pub const MATHML_NS: &str = "http://www.w3.org/1998/Math/MathML";
/// The XLink namespace (`xlink:href` and the other `xlink:` attributes of SVG/MathML).
pub const XLINK_NS: &str = "http://www.w3.org/1999/xlink";
/// The XML namespace (`xml:lang`, `xml:space` attributes).
pub const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";
/// The XMLNS namespace (`xmlns` and `xmlns:*` attributes on foreign elements).
pub const XMLNS_NS: &str = "http://www.w3.org/2000/xmlns/";

/// An attribute of an [`Element`], as the HTML parser gave it, or for markup read from the
/// feed's XML (Atom `xhtml` content, markup kept by the `markup_in_text` recovery rule) as
/// the XML tokenizer gave it: value decoded, never re-escaped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attribute<'a> {
    /// The attribute's namespace: `""` (the null namespace) for ordinary attributes, one
    /// of the `*_NS` constants for adjusted foreign attributes (`xlink:href`, `xml:lang`).
    pub namespace: &'a str,
    /// The prefix the attribute was written with (`xlink` of `xlink:href`); `None` for
    /// unprefixed ones.
    pub prefix: Option<&'a str>,
    /// The local name (from the HTML parser: lowercase, SVG/MathML names case-adjusted,
    /// e.g. `viewBox`; from the feed's XML: as written).
    pub local: &'a str,
    /// The value, character references decoded.
    pub value: &'a str,
}

/// An element node's name and attributes (its children follow it in the node list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Element<'a> {
    /// The element's namespace: [`HTML_NS`], [`SVG_NS`], [`MATHML_NS`], or for markup read
    /// from the feed's XML the namespace it had there (`""` when none).
    pub namespace: &'a str,
    /// The prefix the element was written with in the feed's XML (e.g. `xhtml` of
    /// `xhtml:p`); `None` for everything the HTML parser builds.
    pub prefix: Option<&'a str>,
    /// The local name (`p`, `a`, `svg`, `foreignObject`).
    pub local: &'a str,
    /// The attributes, in source order.
    pub attrs: &'a [Attribute<'a>],
}

/// What a [`Node`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind<'a> {
    /// An element; its descendants are the following nodes up to [`Node::end`].
    Element(Element<'a>),
    /// A text node's data (character references decoded; adjacent text merged).
    Text(&'a str),
    /// A comment's data (without `<!--` and `-->`).
    Comment(&'a str),
    /// A processing instruction (only in markup read from the feed's XML; the HTML parser
    /// makes none).
    ProcessingInstruction {
        /// The PI target (`xml-stylesheet` of `<?xml-stylesheet ...?>`).
        target: &'a str,
        /// Everything after the target and its following spaces.
        data: &'a str,
    },
}

/// Nodes of a fragment are stored flat, in pre-order; `end` = index one past this node's last descendant
/// (so a leaf at index i has end == i+1; children of node i start at i+1 and are walked by jumping to `end`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node<'a> {
    /// What the node is.
    pub kind: NodeKind<'a>,
    /// Index one past this node's last descendant in the fragment's node list.
    pub end: u32,
}

/// A sanitized fragment (the spec's DocumentFragment / "Node" value). Top-level children are the nodes
/// at index 0, nodes\[0\].end, ... . Namespace "" = null namespace; HTML elements have namespace `http://www.w3.org/1999/xhtml`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Html<'a> {
    nodes: &'a [Node<'a>],
}

fn attr_sets_equal(a: &[Attribute<'_>], b: &[Attribute<'_>]) -> bool {
    a.len() == b.len()
        && a.iter().all(|x| {
            b.iter().any(|y| x.namespace == y.namespace && x.local == y.local && x.value == y.value)
        })
}

fn kinds_equal(a: &NodeKind<'_>, b: &NodeKind<'_>) -> bool {
    match (a, b) {
        (NodeKind::Element(x), NodeKind::Element(y)) => {
            x.namespace == y.namespace
                && x.prefix == y.prefix
                && x.local == y.local
                && attr_sets_equal(x.attrs, y.attrs)
        }
        (NodeKind::Text(x), NodeKind::Text(y)) => x == y,
        (NodeKind::Comment(x), NodeKind::Comment(y)) => x == y,
        (
            NodeKind::ProcessingInstruction { target: t1, data: d1 },
            NodeKind::ProcessingInstruction { target: t2, data: d2 },
        ) => t1 == t2 && d1 == d2,
        _ => false,
    }
}

impl<'a> Html<'a> {
    /// The fragment's nodes, flat in pre-order (see [`Node`]; top-level children at 0,
    /// `nodes[0].end`, …).
    pub fn nodes(&self) -> &'a [Node<'a>] {
        self.nodes
    }

    /// DOM `isEqualNode` of the two fragments. A pre-order sequence together with every
    /// node's subtree size determines the tree, so comparing both position by position is
    /// exactly tree equality.
    pub fn is_equal_node(&self, other: &Html<'_>) -> bool {
        let (a, b) = (self.nodes, other.nodes);
        a.len() == b.len()
            && a.iter().zip(b).enumerate().all(|(i, (x, y))| {
                x.end.wrapping_sub(i as u32) == y.end.wrapping_sub(i as u32)
                    && kinds_equal(&x.kind, &y.kind)
            })
    }

    /// The harness XML serialization (NOTES §3 "Node serialization (harness)").
    pub fn write_xml(&self, out: &mut String) {
        serialize::write_xml(self.nodes, out)
    }

    /// HTML5 fragment serialization (for end users).
    pub fn write_html(&self, out: &mut String) {
        serialize::write_html(self.nodes, out)
    }

    /// [`Html::write_xml`] into a new string (the form "same text content" compares).
    pub fn to_xml_string(&self) -> String {
        let mut s = String::new();
        self.write_xml(&mut s);
        s
    }

    /// [`Html::write_html`] into a new string (the JSONL value of an HTML text).
    pub fn to_html_string(&self) -> String {
        let mut s = String::new();
        self.write_html(&mut s);
        s
    }
}

/// True when the tokenizer's character output for `text` is `text` itself: no character
/// references, no newline normalization, no NUL handling. (Literal `<`s are the caller's
/// concern, see [`may_open_tag`].)
#[inline]
fn is_plain_run(text: &str) -> bool {
    memchr::memchr3(b'&', b'\r', 0, text.as_bytes()).is_none()
}

/// Whether the tokenizer could leave the data state for anything but a literal `<` somewhere
/// in `text`: a `<` followed by an ASCII letter, `!`, `/` or `?` (tag, comment, end tag,
/// bogus comment). Any other `<` (including at EOF) is emitted as a character.
#[inline]
fn may_open_tag(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memchr_iter(b'<', b).any(|i| {
        b.get(i + 1).is_some_and(|&c| c.is_ascii_alphabetic() || matches!(c, b'!' | b'/' | b'?'))
    })
}

/// Spec step \[178\] "parse escaped HTML content" given the element's child text content `text`
/// (already XML-unescaped by the caller): HTML fragment parsing (context div, no-quirks, scripting
/// DISABLED), sanitize (remove 1x1 img), significance test; None if not significant; Text::Plain(data)
/// when the fragment is exactly one Text node; else Text::Html. All allocations in `arena`.
///
/// Work is bounded (see [`parse_escaped_html_limited`]); on the rare adversarial input that
/// hits the limit the result is that of a prefix of `text`.
///
/// Tags with more than the default [`crate::Limits::max_html_attributes`] attributes cut the
/// text (see [`parse_escaped_html_with`]).
pub fn parse_escaped_html<'a>(arena: &'a Bump, text: &'a str) -> Option<Text<'a>> {
    parse_escaped_html_limited(arena, text).0
}

/// [`parse_escaped_html_limited`] with the default attribute cap.
pub fn parse_escaped_html_limited<'a>(arena: &'a Bump, text: &'a str) -> (Option<Text<'a>>, bool) {
    parse_escaped_html_with(arena, text, crate::Limits::default().max_html_attributes)
}

/// [`parse_escaped_html`], also telling whether the work limit was hit.
///
/// Texts the fast tree builder cannot take go to html5ever, whose tree construction is
/// quadratic in the nesting depth and can create far more nodes than the input has tags
/// (reconstruction of active formatting elements). html5ever is therefore fed the text in
/// 256-byte chunks and stopped after the first chunk at which it has made more than
/// 4 000 000 + 8 × len sink calls (each step of its stack walks is one), created more than
/// 4 096 + len / 2 nodes, or inserted a node deeper than 1 000 levels; the document then
/// ends there, as if the text were cut after that chunk, and the flag is true. The
/// superlinear part of the work is thus bounded to tens of milliseconds; what remains is
/// linear in the input. No text of the real corpus comes near the limit.
///
/// Attribute cap (`max_attributes`, [`crate::Limits::max_html_attributes`]): the text is read
/// only up to the first `<` from which the tokenizer could read a tag (start or end tag) with
/// more than `max_attributes` attributes, duplicates counted; the flag is then true as well.
/// (html5ever's duplicate check makes a tag with n attributes cost n² / 2; the fast builder
/// reads tags exactly and hands such a tag to this cut.) The test is linear and errs only
/// towards cutting: after the part of the text the fast builder has read, every `<` that
/// opens a tag in the data state counts, wherever it is (even inside a comment or an
/// attribute value), which no text of the real corpus comes near.
pub fn parse_escaped_html_with<'a>(
    arena: &'a Bump,
    text: &'a str,
    max_attributes: usize,
) -> (Option<Text<'a>>, bool) {
    if may_open_tag(text) {
        let mut flat = bumpalo::collections::Vec::new_in(arena);
        let mut read = 0;
        if fast::build_at(arena, text, &mut flat, max_attributes, &mut read) {
            return match sanitize::significance_if_clean(&flat) {
                // The common case: nothing to remove, keep the builder's list without a copy.
                Some(true) => (Some(single_text_or_html(flat.into_bump_slice())), false),
                Some(false) => (None, false),
                None => (finish_parsed(arena, &flat, &[]), false),
            };
        }
        // The builder tokenized `text[..read]` exactly (an offset in the newline-normalized
        // text, which is never past the same place in `text`; `usize::MAX`: nothing read).
        let from = if read > text.len() { 0 } else { read };
        return match attrs::first_over_cap(text, from, max_attributes) {
            Some(cut) => {
                let (v, _) = parse_full(arena, &text[..cut], true);
                (v, true)
            }
            None => parse_full(arena, text, true),
        };
    }
    let data = if is_plain_run(text) {
        text
    } else if let Some(d) = fast::decode_text(arena, text) {
        d
    } else {
        match guard(|| tree::decode_text(arena, text)) {
            Some(d) => d,
            None => return (None, false),
        }
    };
    if sanitize::has_non_space(data) {
        (Some(Text::Plain(data)), false)
    } else {
        (None, false)
    }
}

/// Test hook (differential fuzzing): [`parse_escaped_html`] computed by html5ever alone, fed
/// in one piece, without fast paths or work limit. Same result as [`parse_escaped_html`] on
/// every input that does not hit the limit.
#[doc(hidden)]
pub fn parse_escaped_html_reference<'a>(arena: &'a Bump, text: &'a str) -> Option<Text<'a>> {
    parse_full(arena, text, false).0
}

/// Defence in depth around html5ever (which asserts internally): a panic inside the parser
/// must not take down a bulk run; the text construct is then treated as not significant.
/// Our own code does not panic; the arena may hold some garbage afterwards, nothing else.
fn guard<R>(f: impl FnOnce() -> R) -> Option<R> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok()
}

/// The html5ever path of [`parse_escaped_html`]: tree construction (with the work limit when
/// `limited`), sanitize, significance. Returns the result and whether the limit was hit.
pub(crate) fn parse_full<'a>(
    arena: &'a Bump,
    text: &str,
    limited: bool,
) -> (Option<Text<'a>>, bool) {
    let mut flat = Vec::new();
    let mut templates = Vec::new();
    let Some(hit) = guard(|| tree::parse_into(arena, text, &mut flat, &mut templates, limited))
    else {
        return (None, false);
    };
    (finish_parsed(arena, &flat, &templates), hit)
}

/// Sanitize + significance + the single-Text-node rule on a parsed flat fragment.
fn finish_parsed<'a>(arena: &'a Bump, flat: &[Node<'a>], templates: &[u32]) -> Option<Text<'a>> {
    let (nodes, significant) = sanitize::sanitize(arena, flat, templates, false);
    significant.then(|| single_text_or_html(nodes))
}

/// A fragment that is exactly one Text node is handed out as plain text.
fn single_text_or_html<'a>(nodes: &'a [Node<'a>]) -> Text<'a> {
    match nodes {
        [Node { kind: NodeKind::Text(t), .. }] => Text::Plain(t),
        _ => Text::Html(Html { nodes }),
    }
}

/// For Atom `type="xhtml"`: the caller (the XML walker) has already built, in the arena, the flat pre-order node
/// list of the deep clones of the xhtml div's children (elements carry their XML namespace URI, prefix, and ALL
/// attributes including xmlns declarations, in document order). Sanitize + significance; return the fragment
/// (always Html, never converted to a string), or None if not significant.
///
/// Adjacent sibling Text nodes in `nodes` (e.g. split at a CDATA section) are joined, as in the
/// DOM the spec clones from; `end` values are trusted only within their parent's range.
pub fn finish_fragment<'a>(arena: &'a Bump, nodes: &[Node<'a>]) -> Option<Html<'a>> {
    let (nodes, significant) = sanitize::sanitize(arena, nodes, &[], true);
    if significant {
        Some(Html { nodes })
    } else {
        None
    }
}
