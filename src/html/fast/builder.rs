//! The tree builder's state and its operations on the stack of open elements: [`Builder`]
//! (the output list, the stack with its per-frame summaries, the list of active formatting
//! elements, the text being accumulated), inserting and popping elements, scopes, the
//! "any other end tag" rule.
//!
//! The token rules are `impl Builder` blocks above this file: `formatting` (the list of
//! active formatting elements and the adoption agency), `modes` (the insertion modes).

use bumpalo::Bump;

use super::text_acc::TextAcc;
use super::tokenizer::AVec;
use crate::html::tags::{
    Tag, FORMATTING, SCOPE, SPECIAL, TAGS, T_CELL, T_NONE, T_SECTION, T_TABLE,
};
use crate::model::fragment::{Attribute, Element, Node, NodeKind, HTML_NS};

/// How many open elements an unmatched end tag is looked for in before giving up.
pub(super) const END_TAG_SCAN: usize = 64;
/// How many open elements a "pop until … in scope" looks at before giving up (keeps every
/// token O(1): a successful scan pops what it looked at).
pub(super) const SCOPE_SCAN: usize = 256;

#[inline]
fn is_ws_or_cr(b: u8) -> bool {
    is_ws(b) || b == b'\r'
}

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b' ')
}

/// An entry of the stack of open elements.
pub(super) struct Frame<'a> {
    /// Output index of the element.
    pub(super) idx: u32,
    pub(super) tag: Tag,
    /// The lowercased name (what `tag` stands for, unless it is [`Tag::Other`]).
    pub(super) name: &'a str,
    /// Stack index of the nearest frame at or below this one that is extra-special (see
    /// [`Tag::is_extra_special`]; `u32::MAX` = none): where the `li`/`dd`/`dt` start-tag walk
    /// stops (`li`, `dd`, `dt` are extra-special themselves).
    pub(super) bar: u32,
    /// Kind of the nearest table-structure frame at or below this one (`T_*`) and its stack
    /// index: the insertion mode follows from it (see [`Builder::mode`]).
    pub(super) tkind: u8,
    pub(super) tidx: u32,
    /// An SVG element (then `tag` is [`Tag::Other`] and `name` its adjusted name).
    pub(super) svg: bool,
}

impl Frame<'_> {
    /// Whether this is the HTML element named by an end tag (`tag`, `name`).
    #[inline]
    pub(super) fn is(&self, tag: Tag, name: &str) -> bool {
        self.tag == tag && (tag != Tag::Other || (self.name == name && !self.svg))
    }
}

/// Insertion mode, derived from the stack: only the strict structure table > tbody/thead/
/// tfoot > tr > td/th is ever built, and nothing but whitespace text and comments is put
/// directly in a table, section or row (anything else would be foster-parented: bail).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    Body,
    Table,
    Section,
    Row,
    Cell,
}

/// An entry of the list of active formatting elements: a marker, or an element with the
/// token it was created for (to create it again: reconstruction, adoption agency).
#[derive(Clone, Copy)]
pub(super) struct Formatting<'a> {
    /// Output index of the element; [`MARKER`] for a marker.
    pub(super) node: u32,
    pub(super) tag: Tag,
    pub(super) name: &'a str,
    pub(super) attrs: &'a [Attribute<'a>],
    /// Whether the element is on the stack of open elements (markers: true).
    pub(super) open: bool,
}

pub(super) const MARKER: u32 = u32::MAX;
/// Longest list of active formatting elements handled (keeps reconstruction and the list
/// walks O(1) per token); a longer one bails.
pub(super) const AFE_MAX: usize = 64;

/// The tree builder: the output list, the stack of open elements, the list of active
/// formatting elements and the text being accumulated.
pub(super) struct Builder<'a, 'o> {
    pub(super) arena: &'a Bump,
    pub(super) text: &'a str,
    pub(super) out: &'o mut AVec<'a, Node<'a>>,
    pub(super) stack: AVec<'a, Frame<'a>>,
    pub(super) acc: TextAcc<'a>,
    /// How many elements of each tag are on the stack (by `Tag as usize`).
    pub(super) open: [u32; TAGS.len()],
    /// The list of active formatting elements (at most [`AFE_MAX`] entries).
    pub(super) afe: AVec<'a, Formatting<'a>>,
    /// Nodes moved so far by the adoption agency (bounded by [`Builder::move_budget`]).
    pub(super) moved: usize,
    /// A Text node that is the current node's last child (index, current node's index): set
    /// by [`Builder::adopt`], see [`Builder::reopen_text`].
    pub(super) reopen: Option<(u32, u32)>,
    /// Start of the token being processed (where a bail-out happened; for statistics).
    pub(super) tok: usize,
    /// Non-whitespace text directly in a table, section or row (foster parenting): bail.
    pub(super) bad: bool,
    /// Most attributes a tag may have (more: bail). See [`super::FAST_MAX_ATTRS`].
    pub(super) max_attrs: usize,
    /// An HTML `img` that sanitizing removes (1×1) was inserted: the only element it
    /// removes that the builder makes (`template` bails).
    pub(super) unclean: bool,
    /// An element with a URL attribute that may hold a relative URL was inserted
    /// ([`crate::html::urls::may_need_resolving`]): only then can the recovery rule
    /// `html_url` change the fragment.
    pub(super) relative_urls: bool,
}

impl<'a, 'o> Builder<'a, 'o> {
    /// Ends the Text node being accumulated, if any.
    #[inline]
    pub(super) fn flush_text(&mut self) {
        if self.acc.open {
            self.push_text();
        }
    }

    fn push_text(&mut self) {
        self.acc.open = false;
        let t = if self.acc.multi {
            self.arena.alloc_str(&self.acc.buf) as &str
        } else {
            // SAFETY: `acc.start..acc.end` is a range that `TextAcc::raw` was handed (or the
            // union of adjacent ones), and `raw`'s callers guarantee that both ends of every
            // such range are char boundaries of `text` within it (its `# Safety`; it
            // debug-asserts them). The checked slice's two boundary tests cost ~12
            // instructions a Text node.
            unsafe { self.text.get_unchecked(self.acc.start..self.acc.end) }
        };
        if matches!(self.mode(), Mode::Table | Mode::Section | Mode::Row)
            && !t.bytes().all(is_ws_or_cr)
        {
            self.bad = true;
        }
        let idx = self.out.len() as u32;
        self.out.push(Node { kind: NodeKind::Text(t), end: idx + 1 });
    }

    /// Inserts a Comment node (in any insertion mode, into the current node).
    pub(super) fn comment(&mut self, data: &'a str) {
        self.flush_text();
        let idx = self.out.len() as u32;
        self.out.push(Node { kind: NodeKind::Comment(data), end: idx + 1 });
    }

    #[inline]
    pub(super) fn mode(&self) -> Mode {
        match self.stack.last() {
            None => Mode::Body,
            Some(f) => match f.tkind {
                T_NONE => Mode::Body,
                T_CELL => Mode::Cell,
                T_TABLE => Mode::Table,
                T_SECTION => Mode::Section,
                _ => Mode::Row,
            },
        }
    }

    /// Tag of the element `k` frames below the current node.
    pub(super) fn below(&self, k: usize) -> Option<Tag> {
        let n = self.stack.len();
        if n > k {
            Some(self.stack[n - 1 - k].tag)
        } else {
            None
        }
    }

    #[inline]
    pub(super) fn current(&self) -> Option<Tag> {
        self.stack.last().map(|f| f.tag)
    }

    #[inline]
    pub(super) fn is_open(&self, tag: Tag) -> bool {
        self.open[tag as usize] > 0
    }

    pub(super) fn heading_open(&self) -> bool {
        [Tag::H1, Tag::H2, Tag::H3, Tag::H4, Tag::H5, Tag::H6].iter().any(|&t| self.is_open(t))
    }

    pub(super) fn pop(&mut self) {
        self.flush_text();
        if let Some(f) = self.stack.pop() {
            self.out[f.idx as usize].end = self.out.len() as u32;
            self.open[f.tag as usize] -= 1;
            if f.tag.has(FORMATTING) {
                if let Some(e) = self.afe.iter_mut().rev().find(|e| e.node == f.idx) {
                    e.open = false;
                }
            }
        }
    }

    /// Inserts an HTML element (a known tag: its name is the table's) and pushes it.
    #[inline]
    pub(super) fn insert(&mut self, tag: Tag, attrs: &'a [Attribute<'a>]) {
        self.insert_named(tag, tag.info().name, attrs, true);
    }

    /// Marks the fragment unclean when the HTML `img` with `attrs` is one sanitizing removes
    /// (1×1). Out of line: [`Self::insert_named`], which asks, stays small.
    #[inline(never)]
    fn note_img(&mut self, attrs: &[Attribute<'_>]) {
        if crate::html::sanitize::is_1x1(attrs) {
            self.unclean = true;
        }
    }

    /// Notes whether the HTML element `name` with `attrs` (not empty) has a URL attribute
    /// that may hold a relative URL. Out of line: most elements have no attributes, and once
    /// one has, the rest are not asked.
    #[inline(never)]
    fn note_urls(&mut self, name: &str, attrs: &[Attribute<'_>]) {
        self.relative_urls = crate::html::urls::may_need_resolving(name, attrs);
    }

    /// Inserts an HTML element named `name` (`tag` interned), pushing it unless `void`;
    /// returns its output index.
    pub(super) fn insert_named(
        &mut self,
        tag: Tag,
        name: &'a str,
        attrs: &'a [Attribute<'a>],
        push: bool,
    ) -> u32 {
        self.flush_text();
        // Every HTML element goes in here: a 1×1 `img` (which sanitizing removes) makes the
        // fragment unclean, whichever start tag inserted it (`img`, `image`).
        if tag == Tag::Img {
            self.note_img(attrs);
        }
        // The adoption agency's clones of a formatting element repeat an element inserted
        // here first, with its attributes; SVG elements (`insert_svg`) hold none that
        // `html_url` resolves. So this sees every element the rule could change. A known
        // tag's `name` is its table name, so `info().url` (true for `Tag::Other`) leaves out
        // only elements with no URL attribute at all (`p`, `div`, `span`, …).
        if !attrs.is_empty() && !self.relative_urls && tag.info().url {
            self.note_urls(name, attrs);
        }
        let idx = self.out.len() as u32;
        self.out.push(Node {
            kind: NodeKind::Element(Element {
                namespace: HTML_NS,
                prefix: None,
                local: name,
                attrs,
            }),
            end: idx + 1,
        });
        if push {
            self.stack.push(Frame {
                idx,
                tag,
                name,
                bar: u32::MAX,
                tkind: T_NONE,
                tidx: u32::MAX,
                svg: false,
            });
            self.link(self.stack.len() - 1);
            self.open[tag as usize] += 1;
        }
        idx
    }

    /// Derives the per-frame summaries of stack frame `k` from the frame below it.
    #[inline]
    pub(super) fn link(&mut self, k: usize) {
        let (bar, tkind, tidx) = match k.checked_sub(1).map(|p| &self.stack[p]) {
            Some(f) => (f.bar, f.tkind, f.tidx),
            None => (u32::MAX, T_NONE, u32::MAX),
        };
        let f = &mut self.stack[k];
        let info = f.tag.info();
        f.bar = if f.tag.is_extra_special() { k as u32 } else { bar };
        (f.tkind, f.tidx) =
            if info.table != T_NONE { (info.table, k as u32) } else { (tkind, tidx) };
    }

    /// Whether an HTML element `target` is in scope (default scope plus the `extra`
    /// boundaries); None (bail) beyond [`SCOPE_SCAN`] frames.
    pub(super) fn in_scope(&self, target: Tag, extra: &[Tag]) -> Option<bool> {
        if !self.is_open(target) {
            return Some(false);
        }
        let n = self.stack.len();
        for f in self.stack[n.saturating_sub(SCOPE_SCAN)..].iter().rev() {
            if f.tag == target {
                return Some(true);
            }
            if f.tag.has(SCOPE) || extra.contains(&f.tag) {
                return Some(false);
            }
        }
        if n > SCOPE_SCAN {
            None
        } else {
            Some(false)
        }
    }

    /// "Close a p element" if one is in button scope.
    #[inline]
    pub(super) fn close_p(&mut self) -> Option<()> {
        if self.is_open(Tag::P) {
            self.pop_until_in_scope(|t| t == Tag::P, &[Tag::Button])?;
        }
        Some(())
    }

    /// If an element satisfying `is_target` is in scope (default scope plus the `extra`
    /// boundaries), pops everything down to and including it and returns true ("generate
    /// implied end tags, then pop until"); returns false when it is not in scope. Bails if
    /// the element is more than [`SCOPE_SCAN`] frames down.
    pub(super) fn pop_until_in_scope(
        &mut self,
        is_target: impl Fn(Tag) -> bool,
        extra: &[Tag],
    ) -> Option<bool> {
        let n = self.stack.len();
        for k in (n.saturating_sub(SCOPE_SCAN)..n).rev() {
            let tag = self.stack[k].tag;
            if is_target(tag) {
                while self.stack.len() > k {
                    self.pop();
                }
                return Some(true);
            }
            if tag.has(SCOPE) || extra.contains(&tag) {
                return Some(false);
            }
        }
        if n > SCOPE_SCAN {
            return None;
        }
        Some(false)
    }

    /// Stack index of the open element whose output index is `node`, looked for in the top
    /// [`SCOPE_SCAN`] frames (None: bail).
    pub(super) fn stack_index(&self, node: u32) -> Option<usize> {
        let n = self.stack.len();
        (n.saturating_sub(SCOPE_SCAN)..n).rev().find(|&k| self.stack[k].idx == node)
    }

    /// "Any other end tag": the nearest open element of that name, unless a special
    /// element comes first (then the token is ignored); generate implied end tags except
    /// it and pop up to it.
    pub(super) fn any_other_end_tag(&mut self, tag: Tag, name: &str) -> Option<()> {
        if tag != Tag::Other && !self.is_open(tag) {
            return Some(()); // reaches a special element or the root `html`: ignored
        }
        let n = self.stack.len();
        for k in (n.saturating_sub(END_TAG_SCAN)..n).rev() {
            let f = &self.stack[k];
            if f.is(tag, name) {
                while self.stack.len() > k {
                    self.pop();
                }
                return Some(());
            }
            if f.tag.has(SPECIAL) {
                return Some(());
            }
        }
        if n > END_TAG_SCAN {
            return None;
        }
        Some(()) // reached the root `html` (special): ignored
    }

    /// Whether the current node is an SVG element: tokens are then processed by the rules
    /// for foreign content (SVG's HTML integration points, where they would not be, bail).
    #[inline]
    pub(super) fn in_svg(&self) -> bool {
        self.stack.last().is_some_and(|f| f.svg)
    }
}
