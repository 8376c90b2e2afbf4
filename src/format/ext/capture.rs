//! Extension capture: an element no table reads is kept, with its attributes, text and
//! descendants, as rows of [`Extension`] on its feed or entry (flattened in document order:
//! each row names its parent by index and its place by path), within the document's
//! `max_extension_*` limits ([`CaptureBudget`]); each cut is a `LimitReached` diagnostic.
//!
//! Hand-written over the reader's event stream (no tree crate): the reader already gives
//! balanced events with resolved namespaces, and rows borrow the input or the arena like every
//! other value. No recursion: the open elements are a stack of row indexes, at most
//! `max_extension_depth` deep.
//!
//! Also here: [`fill_or_keep`], the tables' "if SLOT is null, set it" that keeps a later
//! element of a slot already set as rows.

use std::cell::Cell;

use crate::format::common::Ctx;
use crate::model::ext::{Extension, ExtensionAttribute};
use crate::options::Limits;
use crate::xml::{Event, Tag, XmlReader};
use crate::DiagnosticKind;

/// The bytes a row counts beyond its strings, and an attribute beyond its own (about their
/// JSON keys and punctuation).
pub(crate) const ROW_BYTES: usize = 64;
const ATTRIBUTE_BYTES: usize = 32;

/// The message of the one diagnostic of a document whose capture budget ran out.
pub(crate) const CAPTURE_SPENT: &str = "extension capture reached max_extension_elements or \
     max_extension_bytes; further extension elements of the document are skipped";

/// What extension capture may still keep in one document.
pub struct CaptureBudget {
    max_depth: usize,
    elements: Cell<usize>,
    bytes: Cell<usize>,
    /// Whether the document's budget ran out (its one diagnostic recorded).
    spent: Cell<bool>,
}

impl CaptureBudget {
    /// The budget of a document under `limits`.
    pub fn new(limits: &Limits) -> Self {
        CaptureBudget {
            max_depth: limits.max_extension_depth,
            elements: Cell::new(limits.max_extension_elements),
            bytes: Cell::new(limits.max_extension_bytes),
            spent: Cell::new(false),
        }
    }

    /// How deep captured elements may nest (`max_extension_depth`).
    pub(crate) fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// Takes one element of `bytes`; `false` (and nothing taken) when either would run out.
    pub(crate) fn take(&self, bytes: usize) -> bool {
        let (e, b) = (self.elements.get(), self.bytes.get());
        if e == 0 || b < bytes {
            return false;
        }
        self.elements.set(e - 1);
        self.bytes.set(b - bytes);
        true
    }

    /// Takes `bytes` of text; as many as are left when fewer are.
    pub(crate) fn take_text(&self, bytes: usize) -> usize {
        let n = bytes.min(self.bytes.get());
        self.bytes.set(self.bytes.get() - n);
        n
    }

    /// Whether the budget has run out.
    pub(crate) fn spent(&self) -> bool {
        self.spent.get()
    }

    /// Marks the budget run out: `true` the first time (when its one diagnostic,
    /// [`CAPTURE_SPENT`], is to be recorded).
    pub(crate) fn spend_first(&self) -> bool {
        !self.spent.replace(true)
    }

    /// Records, once per document, that the budget ran out at `offset`.
    fn spend(&self, r: &mut XmlReader<'_>, offset: usize) {
        if self.spend_first() {
            r.diag(DiagnosticKind::LimitReached, offset, CAPTURE_SPENT);
        }
    }
}

/// An element of a feed or entry that no arm read (the reader right after its start tag):
/// kept in `out` with its descendants when capture is on and the budget allows, else skipped.
/// Consumes the element.
pub fn capture<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    out: &mut Vec<Extension<'a>>,
    cx: &Ctx<'a>,
) {
    let Some(budget) = &cx.extensions else { return r.skip() };
    if budget.spent.get() {
        return r.skip();
    }
    if budget.max_depth == 0 {
        return too_deep(r, tag, 0);
    }
    // The open elements: each one's row and its text chunks, joined only when there are
    // several.
    let mut open: Vec<(usize, Text<'a>)> = Vec::new();
    match row(r, tag, None, "", out, budget, cx) {
        Some(i) => open.push((i, Text::None)),
        None => return r.skip(),
    }
    loop {
        match r.next() {
            Event::Start(child) => {
                let Some(&(parent, _)) = open.last() else { return r.skip() };
                if open.len() >= budget.max_depth {
                    too_deep(r, &child, budget.max_depth);
                    continue;
                }
                let path = out[parent].path;
                match row(r, &child, Some(parent), path, out, budget, cx) {
                    Some(i) => open.push((i, Text::None)),
                    None => r.skip(),
                }
            }
            Event::Text(t) => {
                if let Some((_, text)) = open.last_mut() {
                    let n = budget.take_text(t.len());
                    if n < t.len() {
                        budget.spend(r, r.last_offset());
                    }
                    text.push(cut(t, n));
                }
            }
            Event::End => {
                let Some((i, text)) = open.pop() else { return };
                let t = text.finish(cx).trim();
                out[i].text = (!t.is_empty()).then_some(t);
                if open.is_empty() {
                    return;
                }
            }
            // The reader closes every open element with an End before its Eof.
            Event::Eof => return,
            Event::Comment(_) | Event::Pi { .. } => {}
        }
    }
}

/// Skips `tag` (deeper than `max`) with its content, recorded.
fn too_deep(r: &mut XmlReader<'_>, tag: &Tag<'_>, max: usize) {
    r.diag(
        DiagnosticKind::LimitReached,
        tag.offset,
        format!(
            "extension element <{}> deeper than max_extension_depth ({max}); skipped with its \
             content",
            tag.qname
        ),
    );
    r.skip();
}

/// The row of `tag` pushed onto `out` (its index), or `None` when the budget does not allow
/// it (recorded).
fn row<'a>(
    r: &mut XmlReader<'a>,
    tag: &Tag<'a>,
    parent: Option<usize>,
    parent_path: &str,
    out: &mut Vec<Extension<'a>>,
    budget: &CaptureBudget,
    cx: &Ctx<'a>,
) -> Option<usize> {
    let ns = r.element_ns_uri(tag.qname);
    let path: &'a str = if parent_path.is_empty() {
        tag.local
    } else {
        bumpalo::format!(in cx.arena, "{parent_path}/{}", tag.local).into_bump_str()
    };
    let mut bytes = ROW_BYTES + path.len() + ns.len() + tag.local.len();
    let mut attributes = Vec::new();
    for (qname, raw) in tag.attrs() {
        if qname == "xmlns" || qname.starts_with("xmlns:") {
            continue;
        }
        let ns = r.attr_ns_uri(qname);
        // After the last `:` (a byte loop: names are short).
        let name = qname.bytes().rposition(|b| b == b':').map_or(qname, |i| &qname[i + 1..]);
        let value = crate::xml::reader::decode_attr_value(cx.arena, raw);
        bytes += ATTRIBUTE_BYTES + ns.len() + name.len() + value.len();
        attributes.push(ExtensionAttribute {
            namespace: Some(ns).filter(|n| !n.is_empty()),
            name,
            value,
        });
    }
    if !budget.take(bytes) {
        budget.spend(r, tag.offset);
        return None;
    }
    out.push(Extension {
        path,
        parent: parent.map(|p| p as u64),
        namespace: Some(ns).filter(|n| !n.is_empty()),
        name: tag.local,
        attributes,
        text: None,
    });
    Some(out.len() - 1)
}

/// `t` cut to at most `n` bytes, at a char boundary.
fn cut(t: &str, mut n: usize) -> &str {
    while !t.is_char_boundary(n) {
        n -= 1;
    }
    &t[..n]
}

/// The text chunks of an open element: none, one borrowed, or several joined.
enum Text<'a> {
    None,
    One(&'a str),
    Many(String),
}

impl<'a> Text<'a> {
    fn push(&mut self, t: &'a str) {
        *self = match std::mem::replace(self, Text::None) {
            Text::None => Text::One(t),
            Text::One(a) => Text::Many([a, t].concat()),
            Text::Many(mut s) => {
                s.push_str(t);
                Text::Many(s)
            }
        };
    }

    fn finish(self, cx: &Ctx<'a>) -> &'a str {
        match self {
            Text::None => "",
            Text::One(t) => t,
            Text::Many(s) => cx.arena.alloc_str(&s),
        }
    }
}

/// The spec's "if SLOT is null, set it" for the element `child`: while `slot` is null, its
/// value as `read` gives it (none, for an empty or invalid value, leaves the slot to a later
/// element). Once the slot is set, a later element is not read for it but kept whole as a
/// row of `extensions` ([`capture`]): the spec reads the first, and what the
/// document says in the others is not lost.
pub fn fill_or_keep<'a, T>(
    r: &mut XmlReader<'a>,
    child: &Tag<'a>,
    slot: &mut Option<T>,
    extensions: &mut Vec<Extension<'a>>,
    cx: &Ctx<'a>,
    read: impl FnOnce(&mut XmlReader<'a>) -> Option<T>,
) {
    if slot.is_some() {
        capture(r, child, extensions, cx);
    } else {
        *slot = read(r);
    }
}
