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
mod packed;
pub(crate) mod serialize;

pub(crate) use node::{attr_sets_equal, kinds_equal};
pub use node::{
    Attribute, Element, Node, NodeKind, HTML_NS, MATHML_NS, SVG_NS, XLINK_NS, XMLNS_NS, XML_NS,
};
pub(crate) use packed::Packed;
use serialize::HtmlOut;

/// A sanitized fragment (the spec's DocumentFragment / "Node" value). Top-level children are the nodes
/// at index 0, nodes\[0\].end, ... . Namespace "" = null namespace; HTML elements have namespace `http://www.w3.org/1999/xhtml`.
#[derive(Clone, Copy)]
pub struct Html<'a> {
    repr: Repr<'a>,
}

/// Where a fragment's nodes are.
#[derive(Clone, Copy)]
enum Repr<'a> {
    /// A node list (in the parse's arena).
    Nodes(&'a [Node<'a>]),
    /// Encoded ([`crate::OwnedParsed`] keeps its fragments so).
    Packed(&'a Packed),
}

impl<'a> Html<'a> {
    /// The fragment of `nodes`, which must satisfy the module's invariants (the HTML
    /// parser's and the XHTML walker's output, sanitized).
    pub(crate) fn from_nodes(nodes: &'a [Node<'a>]) -> Self {
        Html { repr: Repr::Nodes(nodes) }
    }

    /// The fragment kept encoded in `packed`.
    pub(crate) fn from_packed(packed: &'a Packed) -> Self {
        Html { repr: Repr::Packed(packed) }
    }

    /// The fragment's nodes, flat in pre-order (see [`Node`]; top-level children at 0,
    /// `nodes[0].end`, …). (A fragment of a [`crate::OwnedParsed`] is kept encoded: its
    /// nodes are decoded on the first call, and kept.)
    pub fn nodes(&self) -> &'a [Node<'a>] {
        match self.repr {
            Repr::Nodes(nodes) => nodes,
            Repr::Packed(p) => p.nodes(),
        }
    }

    /// How the fragment is held: `"nodes"` or `"packed"`.
    #[cfg(test)]
    pub(crate) fn repr_for_tests(&self) -> &'static str {
        match self.repr {
            Repr::Nodes(_) => "nodes",
            Repr::Packed(_) => "packed",
        }
    }

    /// `f` of the nodes, decoding an encoded fragment for the call only.
    #[inline]
    fn with_nodes<R>(&self, f: impl FnOnce(&[Node<'_>]) -> R) -> R {
        match self.repr {
            Repr::Nodes(nodes) => f(nodes),
            Repr::Packed(p) => p.with_nodes(f),
        }
    }

    /// DOM `isEqualNode` of the two fragments. A pre-order sequence together with every
    /// node's subtree size determines the tree, so comparing both position by position is
    /// exactly tree equality.
    pub fn is_equal_node(&self, other: &Html<'_>) -> bool {
        self.with_nodes(|a| {
            other.with_nodes(|b| {
                a.len() == b.len()
                    && a.iter().zip(b).enumerate().all(|(i, (x, y))| {
                        x.end.wrapping_sub(i as u32) == y.end.wrapping_sub(i as u32)
                            && kinds_equal(&x.kind, &y.kind)
                    })
            })
        })
    }

    /// The harness XML serialization (NOTES §3 "Node serialization (harness)").
    pub fn write_xml(&self, out: &mut String) {
        self.with_nodes(|nodes| serialize::write_xml(nodes, out))
    }

    /// HTML5 fragment serialization (for end users).
    pub fn write_html(&self, out: &mut String) {
        self.write_html_to(out)
    }

    /// [`Html::write_html`] into any [`HtmlOut`] (e.g. straight into a JSON string).
    pub(crate) fn write_html_to(&self, out: &mut impl HtmlOut) {
        self.with_nodes(|nodes| serialize::write_html(nodes, out))
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

/// Equal node lists (as the lists' `==`, node by node).
impl PartialEq for Html<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.with_nodes(|a| other.with_nodes(|b| a == b))
    }
}

impl Eq for Html<'_> {}

impl std::fmt::Debug for Html<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.with_nodes(|nodes| f.debug_struct("Html").field("nodes", &nodes).finish())
    }
}
