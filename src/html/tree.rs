//! A minimal index-based [`TreeSink`] for html5ever's fragment parser, and the flattening of
//! the resulting tree into the arena (pre-order node list with `end` indices).
//!
//! Invariants:
//! - Node 0 is the Document. Every other node lives in `Vec<TNode>` and is linked by indices
//!   (parent / first child / last child / previous / next sibling); `NONE` = no link.
//! - Adjacent text siblings are merged on insertion, as the tree builder expects.
//! - Handles carry the element name in an `Rc`, so `elem_name` never borrows the `RefCell`
//!   (the tree builder may hold an element name while calling mutating sink methods).
//! - Nothing here recurses: flattening is an explicit-stack pre-order walk.
//! - The sink counts its calls, created nodes and insertion depth ([`Stats`]); the limited
//!   parse stops feeding html5ever when they exceed the limits (see [`MAX_WORK`]).

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use bumpalo::Bump;
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tokenizer::{
    BufferQueue, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeBuilderOpts, TreeSink};
use html5ever::{
    local_name, ns, Attribute as HAttribute, LocalName, Namespace, ParseOpts, QualName,
};

use crate::model::fragment::{
    Attribute, Element, Node, NodeKind, HTML_NS, MATHML_NS, SVG_NS, XLINK_NS, XMLNS_NS, XML_NS,
};

const NONE: usize = usize::MAX;

/// Handle to a node of [`Sink`]'s tree.
#[derive(Clone)]
pub(crate) struct Handle {
    id: usize,
    name: Rc<QualName>,
}

pub(crate) enum TData {
    Document,
    Fragment,
    Element { attrs: Vec<HAttribute>, template: usize },
    Text(StrTendril),
    Comment(StrTendril),
    Pi(StrTendril, StrTendril),
}

pub(crate) struct TNode {
    data: TData,
    name: Option<Rc<QualName>>,
    parent: usize,
    first: usize,
    last: usize,
    prev: usize,
    next: usize,
    /// Depth below the document when the node was last inserted (not updated for the
    /// descendants of a moved node: an estimate, used only for the work limit).
    depth: u32,
}

impl TNode {
    fn new(data: TData, name: Option<Rc<QualName>>) -> TNode {
        TNode {
            data,
            name,
            parent: NONE,
            first: NONE,
            last: NONE,
            prev: NONE,
            next: NONE,
            depth: 0,
        }
    }
}

pub(crate) struct Sink {
    nodes: RefCell<Vec<TNode>>,
    dummy: Rc<QualName>,
    stats: Rc<Stats>,
}

/// What the tree builder has done so far, as seen through the sink: `work` counts sink calls
/// (every step of html5ever's stack-of-open-elements and active-formatting walks asks the
/// sink for an element name or node identity, so this bounds its CPU time), `max_depth` the
/// deepest insertion.
#[derive(Default)]
pub(crate) struct Stats {
    work: Cell<u64>,
    max_depth: Cell<u32>,
    /// Nodes created (elements, comments, text nodes).
    nodes: Cell<u64>,
}

impl Stats {
    #[inline]
    fn tick(&self, n: u64) {
        self.work.set(self.work.get().wrapping_add(n));
    }
}

impl Sink {
    fn new(stats: Rc<Stats>) -> Sink {
        Sink {
            nodes: RefCell::new(vec![TNode::new(TData::Document, None)]),
            dummy: Rc::new(QualName::new(None, ns!(), LocalName::from(""))),
            stats,
        }
    }

    fn note_depth(&self, nodes: &mut [TNode], id: usize) {
        let p = nodes[id].parent;
        if p != NONE {
            let d = nodes[p].depth.saturating_add(1);
            nodes[id].depth = d;
            if d > self.stats.max_depth.get() {
                self.stats.max_depth.set(d);
            }
        }
    }

    fn push(&self, data: TData, name: Option<Rc<QualName>>) -> Handle {
        let mut nodes = self.nodes.borrow_mut();
        let id = nodes.len();
        let hname = name.clone().unwrap_or_else(|| self.dummy.clone());
        nodes.push(TNode::new(data, name));
        Handle { id, name: hname }
    }
}

fn detach(nodes: &mut [TNode], id: usize) {
    let (parent, prev, next) = (nodes[id].parent, nodes[id].prev, nodes[id].next);
    if parent == NONE {
        return;
    }
    if prev != NONE {
        nodes[prev].next = next;
    } else {
        nodes[parent].first = next;
    }
    if next != NONE {
        nodes[next].prev = prev;
    } else {
        nodes[parent].last = prev;
    }
    nodes[id].parent = NONE;
    nodes[id].prev = NONE;
    nodes[id].next = NONE;
}

fn append_child(nodes: &mut [TNode], parent: usize, id: usize) {
    let last = nodes[parent].last;
    nodes[id].parent = parent;
    nodes[id].prev = last;
    nodes[id].next = NONE;
    if last != NONE {
        nodes[last].next = id;
    } else {
        nodes[parent].first = id;
    }
    nodes[parent].last = id;
}

fn insert_before(nodes: &mut [TNode], sibling: usize, id: usize) {
    let parent = nodes[sibling].parent;
    if parent == NONE {
        return;
    }
    let prev = nodes[sibling].prev;
    nodes[id].parent = parent;
    nodes[id].prev = prev;
    nodes[id].next = sibling;
    nodes[sibling].prev = id;
    if prev != NONE {
        nodes[prev].next = id;
    } else {
        nodes[parent].first = id;
    }
}

impl TreeSink for Sink {
    type Handle = Handle;
    type Output = Vec<TNode>;
    type ElemName<'a> = &'a QualName;

    fn finish(self) -> Vec<TNode> {
        self.nodes.into_inner()
    }
    fn parse_error(&self, _msg: Cow<'static, str>) {}
    fn get_document(&self) -> Handle {
        Handle { id: 0, name: self.dummy.clone() }
    }
    fn elem_name<'a>(&'a self, target: &'a Handle) -> &'a QualName {
        self.stats.tick(1);
        &target.name
    }
    fn create_element(
        &self,
        name: QualName,
        attrs: Vec<HAttribute>,
        flags: ElementFlags,
    ) -> Handle {
        self.stats.tick(1);
        self.stats.nodes.set(self.stats.nodes.get() + 1);
        let template = if flags.template { self.push(TData::Fragment, None).id } else { NONE };
        self.push(TData::Element { attrs, template }, Some(Rc::new(name)))
    }
    fn create_comment(&self, text: StrTendril) -> Handle {
        self.stats.nodes.set(self.stats.nodes.get() + 1);
        self.push(TData::Comment(text), None)
    }
    fn create_pi(&self, target: StrTendril, data: StrTendril) -> Handle {
        self.push(TData::Pi(target, data), None)
    }
    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        self.stats.tick(1);
        let mut nodes = self.nodes.borrow_mut();
        match child {
            NodeOrText::AppendNode(h) => {
                detach(&mut nodes, h.id);
                append_child(&mut nodes, parent.id, h.id);
                self.note_depth(&mut nodes, h.id);
            }
            NodeOrText::AppendText(t) => {
                let last = nodes[parent.id].last;
                if last != NONE {
                    if let TData::Text(ref mut s) = nodes[last].data {
                        s.push_tendril(&t);
                        return;
                    }
                }
                let id = nodes.len();
                self.stats.nodes.set(self.stats.nodes.get() + 1);
                nodes.push(TNode::new(TData::Text(t), None));
                append_child(&mut nodes, parent.id, id);
            }
        }
    }
    fn append_based_on_parent_node(
        &self,
        element: &Handle,
        prev_element: &Handle,
        child: NodeOrText<Handle>,
    ) {
        let has_parent = self.nodes.borrow()[element.id].parent != NONE;
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }
    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {}
    fn get_template_contents(&self, target: &Handle) -> Handle {
        let nodes = self.nodes.borrow();
        let id = match nodes[target.id].data {
            TData::Element { template, .. } if template != NONE => template,
            _ => target.id,
        };
        Handle { id, name: self.dummy.clone() }
    }
    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        self.stats.tick(1);
        x.id == y.id
    }
    fn set_quirks_mode(&self, _mode: QuirksMode) {}
    fn append_before_sibling(&self, sibling: &Handle, new_node: NodeOrText<Handle>) {
        self.stats.tick(1);
        let mut nodes = self.nodes.borrow_mut();
        if nodes[sibling.id].parent == NONE {
            return;
        }
        match new_node {
            NodeOrText::AppendNode(h) => {
                detach(&mut nodes, h.id);
                insert_before(&mut nodes, sibling.id, h.id);
                self.note_depth(&mut nodes, h.id);
            }
            NodeOrText::AppendText(t) => {
                let prev = nodes[sibling.id].prev;
                if prev != NONE {
                    if let TData::Text(ref mut s) = nodes[prev].data {
                        s.push_tendril(&t);
                        return;
                    }
                }
                let id = nodes.len();
                self.stats.nodes.set(self.stats.nodes.get() + 1);
                nodes.push(TNode::new(TData::Text(t), None));
                insert_before(&mut nodes, sibling.id, id);
            }
        }
    }
    /// html5ever calls this for an `html` start tag in body (the root `html` element: a
    /// `body` start tag is ignored in a fragment, whose stack holds no `body`). The root's
    /// attributes are not part of the fragment (`flatten` starts at its children), so they
    /// are not merged: nothing to output, and no per-attribute search of a list that
    /// repeated `<html …>` tags could grow without bound.
    fn add_attrs_if_missing(&self, _target: &Handle, _attrs: Vec<HAttribute>) {}
    fn remove_from_parent(&self, target: &Handle) {
        detach(&mut self.nodes.borrow_mut(), target.id);
    }
    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        let mut nodes = self.nodes.borrow_mut();
        let mut c = nodes[node.id].first;
        while c != NONE {
            self.stats.tick(1);
            let next = nodes[c].next;
            detach(&mut nodes, c);
            append_child(&mut nodes, new_parent.id, c);
            self.note_depth(&mut nodes, c);
            c = next;
        }
    }
}

/// The input is a string, not a byte stream: a leading U+FEFF is content (no BOM sniffing).
fn tokenizer_opts() -> TokenizerOpts {
    TokenizerOpts { discard_bom: false, ..Default::default() }
}

/// Namespace URI as an arena string (static for the well-known ones).
fn ns_str<'a>(arena: &'a Bump, ns: &Namespace) -> &'a str {
    match *ns {
        ns!() => "",
        ns!(html) => HTML_NS,
        ns!(svg) => SVG_NS,
        ns!(mathml) => MATHML_NS,
        ns!(xlink) => XLINK_NS,
        ns!(xml) => XML_NS,
        ns!(xmlns) => XMLNS_NS,
        _ => arena.alloc_str(ns),
    }
}

/// Prefix as an arena string; html5ever uses an empty prefix for some adjusted foreign
/// attributes (`xmlns`), which is no prefix.
fn prefix_str<'a>(arena: &'a Bump, p: Option<&html5ever::Prefix>) -> Option<&'a str> {
    match p {
        Some(p) if !p.is_empty() => Some(match &**p {
            "xlink" => "xlink",
            "xml" => "xml",
            "xmlns" => "xmlns",
            other => arena.alloc_str(other),
        }),
        _ => None,
    }
}

fn opt_str<'a>(arena: &'a Bump, t: &StrTendril) -> &'a str {
    if t.is_empty() {
        ""
    } else {
        arena.alloc_str(t)
    }
}

/// Limits on html5ever's work (see [`parse_into`]).
///
/// html5ever's tree builder walks the stack of open elements (and the list of active
/// formatting elements) for many tokens, so its time is quadratic in the nesting depth
/// (20 000 nested `<div>` take about a second), and reconstructing active formatting
/// elements can create far more nodes than the input has tags. The input is fed in
/// [`CHUNK`]-byte pieces; after each piece feeding stops (the limit is hit) if
///   - the sink has seen more than `MAX_WORK + WORK_PER_BYTE * len` calls (each step of the
///     stack walks is one), or
///   - more than `MAX_NODES + len / 2` nodes were created (input without such reconstruction
///     makes at most about one node per 3 bytes: every element needs a `<x>`), or
///   - a node was inserted deeper than `MAX_DEPTH`.
///
/// Work after the last check is bounded by one chunk's tokens times the stack depth and
/// formatting-list length at that point.
pub(crate) const MAX_WORK: u64 = 4_000_000;
pub(crate) const WORK_PER_BYTE: u64 = 8;
pub(crate) const MAX_NODES: u64 = 4_096;
pub(crate) const MAX_DEPTH: u32 = 1_000;
pub(crate) const CHUNK: usize = 256;

/// Parse `text` with the HTML fragment parsing algorithm (context HTML `div`, no-quirks,
/// scripting disabled) and append the resulting fragment's nodes, flattened in pre-order,
/// to `out` (strings allocated in `arena`). HTML `template` contents are emitted as the
/// template's children; their indices are recorded in `templates` (as in the DOM they are
/// not descendants of the fragment).
///
/// With `limited`, the work limits above apply: returns true when they were hit, and the
/// fragment is then html5ever's parse of the prefix of `text` fed so far (whole chunks),
/// ended as if the input ended there. Without, `text` is fed in one piece (the reference).
pub(crate) fn parse_into<'a>(
    arena: &'a Bump,
    text: &str,
    out: &mut Vec<Node<'a>>,
    templates: &mut Vec<u32>,
    limited: bool,
) -> bool {
    let opts = ParseOpts {
        tree_builder: TreeBuilderOpts { scripting_enabled: false, ..Default::default() },
        tokenizer: tokenizer_opts(),
    };
    let stats = Rc::new(Stats::default());
    let mut parser = html5ever::parse_fragment(
        Sink::new(stats.clone()),
        opts,
        QualName::new(None, ns!(html), local_name!("div")),
        Vec::new(),
        false,
    );
    let mut hit = false;
    if !limited || text.len() <= CHUNK {
        parser.process(StrTendril::from_slice(text));
    } else {
        let mut pos = 0;
        while pos < text.len() {
            let mut end = (pos + CHUNK).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            parser.process(StrTendril::from_slice(&text[pos..end]));
            pos = end;
            let len = text.len() as u64;
            if pos < text.len()
                && (stats.work.get() > MAX_WORK + WORK_PER_BYTE * len
                    || stats.nodes.get() > MAX_NODES + len / 2
                    || stats.max_depth.get() > MAX_DEPTH)
            {
                hit = true;
                break;
            }
        }
    }
    let nodes = parser.finish();
    // Document -> html root -> fragment children.
    let root = nodes[0].first;
    if root != NONE {
        flatten(arena, &nodes, root, out, templates);
    }
    hit
}

fn flatten<'a>(
    arena: &'a Bump,
    nodes: &[TNode],
    root: usize,
    out: &mut Vec<Node<'a>>,
    templates: &mut Vec<u32>,
) {
    // Stack of (output index of an open element, tree id of its next sibling).
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let mut cur = nodes[root].first;
    loop {
        if cur == NONE {
            match stack.pop() {
                None => break,
                Some((idx, next)) => {
                    out[idx].end = out.len() as u32;
                    cur = next;
                    continue;
                }
            }
        }
        let n = &nodes[cur];
        let idx = out.len();
        let mut kids = NONE;
        let kind = match &n.data {
            TData::Element { attrs, template } => {
                let name = n.name.as_deref().expect("element has a name");
                let mut battrs = bumpalo::collections::Vec::with_capacity_in(attrs.len(), arena);
                for a in attrs {
                    battrs.push(Attribute {
                        namespace: ns_str(arena, &a.name.ns),
                        prefix: prefix_str(arena, a.name.prefix.as_ref()),
                        local: arena.alloc_str(&a.name.local),
                        value: opt_str(arena, &a.value),
                    });
                }
                if *template != NONE {
                    kids = nodes[*template].first;
                    templates.push(idx as u32);
                } else {
                    kids = n.first;
                }
                NodeKind::Element(Element {
                    namespace: ns_str(arena, &name.ns),
                    prefix: prefix_str(arena, name.prefix.as_ref()),
                    local: arena.alloc_str(&name.local),
                    attrs: battrs.into_bump_slice(),
                })
            }
            TData::Text(t) => NodeKind::Text(opt_str(arena, t)),
            TData::Comment(t) => NodeKind::Comment(opt_str(arena, t)),
            TData::Pi(t, d) => NodeKind::ProcessingInstruction {
                target: opt_str(arena, t),
                data: opt_str(arena, d),
            },
            TData::Document | TData::Fragment => NodeKind::Comment(""),
        };
        out.push(Node { kind, end: idx as u32 + 1 });
        if kids != NONE {
            stack.push((idx, n.next));
            cur = kids;
        } else {
            cur = n.next;
        }
    }
}

/// Token sink for markup-free input: collects the character data exactly as the tree builder
/// would insert it in the "in body" insertion mode (character tokens appended, NUL ignored).
struct CharSink<'a> {
    out: RefCell<bumpalo::collections::String<'a>>,
}

impl<'a> TokenSink for CharSink<'a> {
    type Handle = ();
    fn process_token(&self, token: Token, _line_number: u64) -> TokenSinkResult<()> {
        if let Token::CharacterTokens(t) = token {
            self.out.borrow_mut().push_str(&t);
        }
        TokenSinkResult::Continue
    }
}

/// The data of the single Text node that HTML fragment parsing (context `div`) produces for
/// `text` in which no `<` can open a tag: the tokenizer then emits only character tokens
/// (character references decoded, CR/CRLF normalized, literal `<`), the tree builder inserts
/// them all into one Text node and drops NULs, so it is skipped.
/// The caller guarantees that no `<` in `text` is followed by an ASCII letter, `!`, `/` or `?`.
pub(crate) fn decode_text<'a>(arena: &'a Bump, text: &str) -> &'a str {
    let sink = CharSink {
        out: RefCell::new(bumpalo::collections::String::with_capacity_in(text.len(), arena)),
    };
    let tok = Tokenizer::new(sink, tokenizer_opts());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(text));
    let _ = tok.feed(&input);
    tok.end();
    tok.sink.out.into_inner().into_bump_str()
}
