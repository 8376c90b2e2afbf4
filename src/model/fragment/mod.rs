//! Fragment values: the sanitized node trees an HTML or XHTML text construct becomes (the
//! spec's DocumentFragment "Node" value: \[178\] for escaped HTML, \[63\] for Atom
//! `xhtml`), their equality (DOM `isEqualNode`, \[362\]–\[363\]) and their two
//! serializations (harness XML, HTML5; its `serialize` submodule).
//!
//! Owns the data types ([`Html`], [`Node`], [`NodeKind`], [`Element`], [`Attribute`]) and
//! the well-known namespace strings. Building fragments — parsing escaped HTML, sanitizing,
//! the significance test — is `crate::html`'s; this module depends on no parser, so the
//! model ([`crate::model::Text`]) and the parsers both depend on it and not on each other.
//!
//! Invariants (established by the builders, relied on here):
//! - A fragment is a flat pre-order node list in the per-parse arena; `Node::end` is one
//!   past the node's last descendant, and every `end` lies within its parent's range.
//!   Top-level children are at 0, `nodes\[0\].end`, …
//! - Namespace `""` is the null namespace; well-known namespace strings are the `*_NS`
//!   constants (static, not arena-allocated).
//! - Nothing here recurses over the tree (equality and serializing are iterative), so
//!   nesting depth is bounded only by memory.

mod node;
pub(crate) mod serialize;

pub(crate) use node::{attr_sets_equal, kinds_equal};
pub use node::{
    Attribute, Element, Node, NodeKind, HTML_NS, MATHML_NS, SVG_NS, XLINK_NS, XMLNS_NS, XML_NS,
};
use serialize::HtmlOut;

/// A sanitized fragment (the spec's DocumentFragment / "Node" value). Top-level children are the nodes
/// at index 0, nodes\[0\].end, ... . Namespace "" = null namespace; HTML elements have namespace `http://www.w3.org/1999/xhtml`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Html<'a> {
    nodes: &'a [Node<'a>],
}

impl<'a> Html<'a> {
    /// The fragment of `nodes`, which must satisfy the module's invariants (the HTML
    /// parser's and the XHTML walker's output, sanitized).
    pub(crate) fn from_nodes(nodes: &'a [Node<'a>]) -> Self {
        Html { nodes }
    }

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
        self.write_html_to(out)
    }

    /// [`Html::write_html`] into any [`HtmlOut`] (e.g. straight into a JSON string).
    pub(crate) fn write_html_to(&self, out: &mut impl HtmlOut) {
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
