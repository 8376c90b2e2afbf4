//! A fragment kept compactly: its node list encoded as bytes (a few per node, strings inline
//! or as offsets into the document the fragment was read from) instead of 72 bytes per
//! [`Node`] and 64 per [`Attribute`]. [`crate::OwnedParsed`] keeps its HTML values so; the
//! node list is decoded for each serialization or comparison, and once, kept, when a caller
//! asks for the nodes ([`super::Html::nodes`]).
//!
//! Encoding (LEB128 numbers): the number of nodes and of attributes, then per node a kind
//! byte (element, text, comment, processing instruction), `end` less the node's index, and
//! its fields in order: a namespace is a byte (the well-known ones, else 7 and a string), a
//! prefix 0 (none) or 1 and a string, a string its length × 2 and its bytes, or its length ×
//! 2 + 1 and its offset in the document.

use std::sync::OnceLock;

use super::node::{
    Attribute, Element, Node, NodeKind, HTML_NS, MATHML_NS, SVG_NS, XLINK_NS, XMLNS_NS, XML_NS,
};

const WELL_KNOWN: [&str; 7] = ["", HTML_NS, SVG_NS, MATHML_NS, XLINK_NS, XML_NS, XMLNS_NS];
const OTHER_NS: u8 = 7;

/// A fragment's nodes, encoded (see the module docs).
pub(crate) struct Packed {
    bytes: Box<[u8]>,
    /// The document strings are offsets into (its address and length).
    doc: (*const u8, usize),
    /// The decoded nodes, once [`Packed::nodes`] was asked for.
    decoded: OnceLock<Decoded>,
}

// SAFETY: `doc` is only read as the immutable document text (see `Packed::new`); the rest is
// owned, immutable data and a `OnceLock`.
unsafe impl Send for Packed {}
unsafe impl Sync for Packed {}

/// Decoded nodes kept with the attribute lists they point into. The attributes are a `Vec`,
/// not a `Box`: moving a `Box` (into this struct) asserts it is the only access to its
/// contents, which the nodes' references into it contradict (Stacked Borrows; checked by
/// `cargo +nightly miri test --lib parse::owned`).
struct Decoded {
    nodes: Box<[Node<'static>]>,
    _attrs: Vec<Attribute<'static>>,
}

impl Packed {
    /// `nodes` encoded; strings lying in `doc` are kept as offsets into it.
    ///
    /// # Safety
    ///
    /// `doc` stays alive and unchanged as long as the result (and every node decoded from
    /// it) is used.
    pub(crate) unsafe fn new(nodes: &[Node<'_>], doc: &str) -> Packed {
        // An upper bound of the encoded size (strings inline, numbers of 8 bytes), so the
        // buffer never grows by doubling.
        let (mut attrs, mut bound) = (0, 20);
        for n in nodes {
            bound += match &n.kind {
                NodeKind::Element(e) => {
                    attrs += e.attrs.len();
                    let a: usize = e
                        .attrs
                        .iter()
                        .map(|a| 50 + names(a.namespace, a.prefix) + a.local.len() + a.value.len())
                        .sum();
                    40 + names(e.namespace, e.prefix) + e.local.len() + a
                }
                NodeKind::Text(s) | NodeKind::Comment(s) => 20 + s.len(),
                NodeKind::ProcessingInstruction { target, data } => 30 + target.len() + data.len(),
            };
        }
        let doc_range = doc.as_ptr() as usize..doc.as_ptr() as usize + doc.len();
        let mut w = Writer { out: Vec::with_capacity(bound), doc: doc_range };
        w.num(nodes.len());
        w.num(attrs);
        for (i, n) in nodes.iter().enumerate() {
            match &n.kind {
                NodeKind::Element(e) => {
                    w.out.push(0);
                    w.num(n.end as usize - i);
                    w.namespace(e.namespace);
                    w.prefix(e.prefix);
                    w.str(e.local);
                    w.num(e.attrs.len());
                    for a in e.attrs {
                        w.namespace(a.namespace);
                        w.prefix(a.prefix);
                        w.str(a.local);
                        w.str(a.value);
                    }
                }
                NodeKind::Text(s) | NodeKind::Comment(s) => {
                    w.out.push(if matches!(n.kind, NodeKind::Text(_)) { 1 } else { 2 });
                    w.num(n.end as usize - i);
                    w.str(s);
                }
                NodeKind::ProcessingInstruction { target, data } => {
                    w.out.push(3);
                    w.num(n.end as usize - i);
                    w.str(target);
                    w.str(data);
                }
            }
        }
        Packed {
            bytes: w.out.into_boxed_slice(),
            doc: (doc.as_ptr(), doc.len()),
            decoded: OnceLock::new(),
        }
    }

    fn doc(&self) -> &str {
        // SAFETY: the document outlives `self` (`Packed::new`) and was a `&str`.
        unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(self.doc.0, self.doc.1)) }
    }

    /// The nodes, decoded once and kept.
    pub(crate) fn nodes(&self) -> &[Node<'_>] {
        &self
            .decoded
            .get_or_init(|| {
                // SAFETY: the decoded nodes point into `self.bytes` (a heap buffer never
                // changed or moved while `self` lives), the document (alive as long as
                // `self`, `Packed::new`), static strings and `attrs` (kept beside them in
                // the `Decoded`, its heap buffer not moved); they are handed out only under
                // a borrow of `self`.
                let bytes: &'static [u8] = unsafe { &*(&*self.bytes as *const [u8]) };
                let doc: &'static str = unsafe { &*(self.doc() as *const str) };
                let attrs = decode_attrs(bytes, doc);
                let all: &'static [Attribute<'static>] =
                    unsafe { &*(attrs.as_slice() as *const [Attribute<'static>]) };
                Decoded { nodes: decode_nodes(bytes, doc, all).into_boxed_slice(), _attrs: attrs }
            })
            .nodes
    }

    /// `f` of the nodes: the kept ones if decoded already, else a temporary decoding.
    pub(crate) fn with_nodes<R>(&self, f: impl FnOnce(&[Node<'_>]) -> R) -> R {
        if let Some(d) = self.decoded.get() {
            return f(&d.nodes);
        }
        let doc = self.doc();
        let attrs = decode_attrs(&self.bytes, doc);
        f(&decode_nodes(&self.bytes, doc, &attrs))
    }
}

/// The bytes a namespace and prefix take at most beyond their fixed part.
fn names(namespace: &str, prefix: Option<&str>) -> usize {
    namespace.len() + prefix.map_or(0, str::len)
}

struct Writer {
    out: Vec<u8>,
    doc: std::ops::Range<usize>,
}

impl Writer {
    fn num(&mut self, mut v: usize) {
        while v >= 0x80 {
            self.out.push(v as u8 | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
    }

    fn str(&mut self, s: &str) {
        let p = s.as_ptr() as usize;
        if !s.is_empty() && self.doc.contains(&p) && p + s.len() <= self.doc.end {
            self.num(s.len() * 2 + 1);
            self.num(p - self.doc.start);
        } else {
            self.num(s.len() * 2);
            self.out.extend_from_slice(s.as_bytes());
        }
    }

    fn namespace(&mut self, ns: &str) {
        match WELL_KNOWN.iter().position(|k| *k == ns) {
            Some(i) => self.out.push(i as u8),
            None => {
                self.out.push(OTHER_NS);
                self.str(ns);
            }
        }
    }

    fn prefix(&mut self, p: Option<&str>) {
        match p {
            None => self.out.push(0),
            Some(p) => {
                self.out.push(1);
                self.str(p);
            }
        }
    }
}

struct Reader<'x> {
    bytes: &'x [u8],
    at: usize,
    doc: &'x str,
}

impl<'x> Reader<'x> {
    fn byte(&mut self) -> u8 {
        let b = self.bytes[self.at];
        self.at += 1;
        b
    }

    fn num(&mut self) -> usize {
        let (mut v, mut shift) = (0usize, 0);
        loop {
            let b = self.byte();
            v |= ((b & 0x7f) as usize) << shift;
            if b < 0x80 {
                return v;
            }
            shift += 7;
        }
    }

    fn str(&mut self) -> &'x str {
        let tag = self.num();
        let len = tag / 2;
        if tag % 2 == 1 {
            let at = self.num();
            &self.doc[at..at + len]
        } else {
            let s = &self.bytes[self.at..self.at + len];
            self.at += len;
            // SAFETY: the bytes were written from a `&str` (`Writer::str`).
            unsafe { std::str::from_utf8_unchecked(s) }
        }
    }

    fn namespace(&mut self) -> &'x str {
        match self.byte() {
            OTHER_NS => self.str(),
            i => WELL_KNOWN[i as usize],
        }
    }

    fn prefix(&mut self) -> Option<&'x str> {
        (self.byte() == 1).then(|| self.str())
    }

    fn attribute(&mut self) -> Attribute<'x> {
        let namespace = self.namespace();
        let prefix = self.prefix();
        let local = self.str();
        let value = self.str();
        Attribute { namespace, prefix, local, value }
    }
}

/// Every attribute of the encoded fragment, in node order.
fn decode_attrs<'x>(bytes: &'x [u8], doc: &'x str) -> Vec<Attribute<'x>> {
    let mut r = Reader { bytes, at: 0, doc };
    let n = r.num();
    let mut attrs = Vec::with_capacity(r.num());
    for _ in 0..n {
        match r.byte() {
            0 => {
                r.num();
                r.namespace();
                r.prefix();
                r.str();
                for _ in 0..r.num() {
                    attrs.push(r.attribute());
                }
            }
            1 | 2 => {
                r.num();
                r.str();
            }
            _ => {
                r.num();
                r.str();
                r.str();
            }
        }
    }
    attrs
}

/// The encoded fragment's nodes, their attribute lists taken in order from `attrs`.
fn decode_nodes<'x>(bytes: &'x [u8], doc: &'x str, attrs: &'x [Attribute<'x>]) -> Vec<Node<'x>> {
    let mut r = Reader { bytes, at: 0, doc };
    let n = r.num();
    r.num();
    let mut nodes = Vec::with_capacity(n);
    let mut next_attr = 0;
    for i in 0..n {
        let kind = r.byte();
        let end = (i + r.num()) as u32;
        let kind = match kind {
            0 => {
                let namespace = r.namespace();
                let prefix = r.prefix();
                let local = r.str();
                let count = r.num();
                for _ in 0..count {
                    r.attribute();
                }
                let own = &attrs[next_attr..next_attr + count];
                next_attr += count;
                NodeKind::Element(Element { namespace, prefix, local, attrs: own })
            }
            1 => NodeKind::Text(r.str()),
            2 => NodeKind::Comment(r.str()),
            _ => NodeKind::ProcessingInstruction { target: r.str(), data: r.str() },
        };
        nodes.push(Node { kind, end });
    }
    nodes
}
