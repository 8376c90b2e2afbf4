//! The data of a fragment: its nodes (elements with their attributes, text, comments,
//! processing instructions) in a flat pre-order list, the well-known namespace strings, and
//! node equality (DOM `isEqualNode`).

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

/// Attribute lists equal as sets (namespace, local name, value), as `isEqualNode` compares
/// them; also the Noah's Ark clause's attribute comparison of the HTML tree builder.
pub(crate) fn attr_sets_equal(a: &[Attribute<'_>], b: &[Attribute<'_>]) -> bool {
    a.len() == b.len()
        && a.iter().all(|x| {
            b.iter().any(|y| x.namespace == y.namespace && x.local == y.local && x.value == y.value)
        })
}

pub(crate) fn kinds_equal(a: &NodeKind<'_>, b: &NodeKind<'_>) -> bool {
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
