//! Exact fast tree builder for the common, well-nested subset of HTML (spec step \[178\]).
//!
//! A hand-written tokenizer + tree builder that produces the same flat pre-order node list as
//! html5ever's fragment parser followed by `tree::flatten` (context `div`, no-quirks,
//! scripting disabled), or gives up: [`build`] returns `false` the moment the input needs a
//! tree-construction or tokenizer rule that is not implemented here exactly, and the caller
//! then runs html5ever. Correctness is established by differential tests against html5ever
//! (`html::tests`: the real corpus, a table of tricky inputs, random tag soups).
//!
//! Invariants:
//! - Every node is appended at the end of the output list, into the current node (no foster
//!   parenting), so the stack of open elements is a chain in which each element is the last
//!   child of the one before it, and an open element's subtree is the tail of the list from
//!   its index. Closed nodes get their `end` when popped.
//! - The list of active formatting elements is kept in full (`Builder::afe`: elements with
//!   their tokens, and markers for cells and `applet`/`marquee`/`object`): formatting start
//!   tags push (with the Noah's Ark clause), "reconstruct the active formatting elements"
//!   runs before character data and the start tags that ask for it, cells and marker
//!   elements clear it to the last marker. Popping a formatting element only marks its entry
//!   closed (`Formatting::open`).
//! - Formatting end tags run the adoption agency as html5ever does (`Builder::adoption_agency`,
//!   `Builder::adopt`). With a furthest block, the elements it creates go right before the
//!   furthest block and right after it in the list (the tail from the furthest block moves;
//!   see `adopt`), which keeps the chain invariant. Text after it that lands in a Text node's
//!   parent is merged with it (`Builder::reopen_text`), as the DOM merges adjacent text.
//! - Scopes are computed exactly where used (`pop_until_in_scope`, `in_scope`, the
//!   adoption agency): "generate implied end tags, then pop until X" is done when X is in
//!   scope; "any other end tag" pops to the nearest element of that name unless a special
//!   element comes first (ignored).
//! - Tag names are interned (`tags`): the tree builder's tag sets are bit tests on a small
//!   id, and per-tag open counts answer "is any X open" in O(1).
//! - Supported beyond plain insertion: implied ends for `p`, `li`, `dd`/`dt`, headings,
//!   block end tags; `</p>` without `p` (empty `p`); `</br>` (a `br`); void elements;
//!   `pre`/`listing`/`textarea` leading newline; raw-text elements (`script` with its
//!   escaped and double-escaped states, `style`, `iframe`, `noembed`, `noframes`, `xmp`;
//!   RCDATA `title`, `textarea`); `ruby`
//!   children; `object`/`applet`/`marquee`; tables of the strict shape table > tbody/thead/
//!   tfoot > tr > td/th (implied `tbody`/`tr`, cells closed by `td`/`th`/`tr`/`</table>`…,
//!   whitespace-only text and comments directly in table parts). The insertion mode is
//!   derived from the stack (per-frame nearest table part); inline SVG (foreign content:
//!   tag and attribute names adjusted, self-closing tags, CDATA sections, breakout start
//!   tags, end tags matched across namespaces; `Frame::svg`).
//! - Bails on: `math`, SVG's HTML integration points (`foreignObject`, `desc`, `title`),
//!   `template`, `form`, `select`/`option`/`optgroup`, `caption`/`col`/`colgroup` in a
//!   table, table parts outside that shape, foster parenting (anything else directly in a
//!   table part); an `a` inside an `a` that is not in scope (the adoption agency leaves it
//!   open); more than [`AFE_MAX`] entries in the list of active formatting elements; the
//!   adoption agency moving more than `Builder::move_budget` nodes in all; `</form>`,
//!   `</template>`; `<!DOCTYPE`; comments that are abrupt (`<!-->`, `<!--->`), unterminated
//!   or contain `--!` or `<!-`; EOF inside a tag; NUL anywhere; `&#`/`&NewLine` references
//!   right after `pre`/`listing`/`textarea` (the dropped newline); `&#`/`&#x` without digits
//!   is text.
//! - Ignored as html5ever ignores them in a fragment: `html`, `head`, `body`, `frameset`,
//!   `frame` and table-part start tags in body, `</body>`, `</html>`, `</>`. Implemented
//!   besides: "in head" void elements (`meta`, `link`, `base`, `basefont`, `bgsound`),
//!   `image` (as `img`), `nobr`, `button`, `plaintext`, bogus comments (`<?`, `<!x`, `</3`),
//!   end tags with attributes, legacy references without `;` (longest prefix, attribute
//!   rules) and every numeric reference (C1 replacements, U+FFFD).
//! - Tokenizer: CR/CRLF are normalized to LF first (as html5ever's input preprocessing);
//!   tag and attribute names ASCII-lowercased; duplicate attributes dropped (first wins);
//!   quoted, unquoted and missing values; a self-closing flag is ignored for HTML elements
//!   and acknowledged for SVG ones; `<` not followed by an ASCII letter, `!`, `/` or `?` is
//!   text.
//! - Linear time: every token costs O(1) amortized (per-frame barrier indices for the
//!   `li`/`dd`/`dt` walk, open counts, scans of at most [`SCOPE_SCAN`]/[`END_TAG_SCAN`]
//!   frames that either pop what they scanned or bail; list walks and reconstruction of at
//!   most [`AFE_MAX`] entries; at most 8 × 3 clones per adoption agency run; the nodes it
//!   moves bounded by a constant times the input length).
//! - Strings borrow from the input when no decoding or lowercasing is needed, else live in
//!   the arena.
//!
//! Layout: this file holds the tree builder (the stack of open elements, the active
//! formatting elements, the adoption agency) and its main loop [`run`]; `tokenizer` the
//! scanners of tags, attributes and raw text; `refs` character references and attribute
//! values; `svg` the SVG name adjustments.

use bumpalo::Bump;
use markup5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};

use super::tags::{
    self, Cat, RawKind, Tag, BLOCK_END, BREAKOUT, FORMATTING, HEADING, IMPLIED_END, SCOPE, SPECIAL,
    TAGS, T_CELL, T_NONE, T_SECTION, T_TABLE,
};
use super::{Attribute, Element, Node, NodeKind, HTML_NS, SVG_NS, XLINK_NS, XMLNS_NS, XML_NS};

mod refs;
#[cfg(feature = "strict-sanitize")]
pub(crate) use refs::decode_attribute_references;
mod svg;
#[cfg(test)]
mod tests;
mod tokenizer;

use refs::*;
use svg::*;
use tokenizer::*;

/// How many open elements an unmatched end tag is looked for in before giving up.
const END_TAG_SCAN: usize = 64;
/// How many open elements a "pop until … in scope" looks at before giving up (keeps every
/// token O(1): a successful scan pops what it looked at).
const SCOPE_SCAN: usize = 256;

#[inline]
fn is_ws_or_cr(b: u8) -> bool {
    is_ws(b) || b == b'\r'
}

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b' ')
}

struct Frame<'a> {
    /// Output index of the element.
    idx: u32,
    tag: Tag,
    /// The lowercased name (what `tag` stands for, unless it is [`Tag::Other`]).
    name: &'a str,
    /// Stack index of the nearest frame at or below this one that is extra-special (see
    /// [`Tag::is_extra_special`]; `u32::MAX` = none): where the `li`/`dd`/`dt` start-tag walk
    /// stops (`li`, `dd`, `dt` are extra-special themselves).
    bar: u32,
    /// Kind of the nearest table-structure frame at or below this one (`T_*`) and its stack
    /// index: the insertion mode follows from it (see [`Builder::mode`]).
    tkind: u8,
    tidx: u32,
    /// An SVG element (then `tag` is [`Tag::Other`] and `name` its adjusted name).
    svg: bool,
}

impl Frame<'_> {
    /// Whether this is the HTML element named by an end tag (`tag`, `name`).
    #[inline]
    fn is(&self, tag: Tag, name: &str) -> bool {
        self.tag == tag && (tag != Tag::Other || (self.name == name && !self.svg))
    }
}

/// Insertion mode, derived from the stack: only the strict structure table > tbody/thead/
/// tfoot > tr > td/th is ever built, and nothing but whitespace text and comments is put
/// directly in a table, section or row (anything else would be foster-parented: bail).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Body,
    Table,
    Section,
    Row,
    Cell,
}

/// The Text node being accumulated (adjacent character tokens share one node).
struct TextAcc<'a> {
    open: bool,
    /// Input byte range while the node is one contiguous raw slice of the input.
    start: usize,
    end: usize,
    multi: bool,
    /// The joined text once it is no longer one raw slice (arena scratch, reused).
    buf: bumpalo::collections::String<'a>,
}

impl TextAcc<'_> {
    #[inline]
    fn raw(&mut self, text: &str, s: usize, e: usize) {
        if s == e {
            return;
        }
        if !self.open {
            self.open = true;
            self.multi = false;
            self.start = s;
            self.end = e;
        } else if !self.multi && self.end == s {
            self.end = e;
        } else {
            self.become_multi(text);
            self.buf.push_str(&text[s..e]);
        }
    }

    fn become_multi(&mut self, text: &str) {
        if !self.open {
            self.open = true;
            self.multi = true;
            self.buf.clear();
        } else if !self.multi {
            self.multi = true;
            self.buf.clear();
            self.buf.push_str(&text[self.start..self.end]);
        }
    }

    #[inline]
    fn push_char(&mut self, text: &str, c: char) {
        self.become_multi(text);
        self.buf.push(c);
    }

    /// Appends the character reference at `text[j] == '&'`, read within `text[..end]`
    /// (see [`char_ref`]; a literal `&` stays a slice of the input). Returns the index after it.
    fn char_ref(&mut self, text: &str, j: usize, end: usize) -> Option<usize> {
        let mut push = |s: &str, c: Option<char>| {
            if !s.is_empty() {
                // The literal '&' is the input byte at j.
                self.raw(text, j, j + 1);
            }
            if let Some(c) = c {
                self.push_char(text, c);
            }
        };
        char_ref(&text[..end], j, false, &mut push)
    }
}

/// An entry of the list of active formatting elements: a marker, or an element with the
/// token it was created for (to create it again: reconstruction, adoption agency).
#[derive(Clone, Copy)]
struct Formatting<'a> {
    /// Output index of the element; [`MARKER`] for a marker.
    node: u32,
    tag: Tag,
    name: &'a str,
    attrs: &'a [Attribute<'a>],
    /// Whether the element is on the stack of open elements (markers: true).
    open: bool,
}

const MARKER: u32 = u32::MAX;
/// Longest list of active formatting elements handled (keeps reconstruction and the list
/// walks O(1) per token); a longer one bails.
const AFE_MAX: usize = 64;

/// Scratch vectors live in the per-parse arena: no global-heap allocation per value.
type AVec<'a, T> = bumpalo::collections::Vec<'a, T>;

struct Builder<'a, 'o> {
    arena: &'a Bump,
    text: &'a str,
    out: &'o mut AVec<'a, Node<'a>>,
    stack: AVec<'a, Frame<'a>>,
    acc: TextAcc<'a>,
    /// How many elements of each tag are on the stack (by `Tag as usize`).
    open: [u32; TAGS.len()],
    /// The list of active formatting elements (at most [`AFE_MAX`] entries).
    afe: AVec<'a, Formatting<'a>>,
    /// Nodes moved so far by the adoption agency (bounded by [`Builder::move_budget`]).
    moved: usize,
    /// A Text node that is the current node's last child (index, current node's index): set
    /// by [`Builder::adopt`], see [`Builder::reopen_text`].
    reopen: Option<(u32, u32)>,
    /// Start of the token being processed (where a bail-out happened; for statistics).
    tok: usize,
    /// Non-whitespace text directly in a table, section or row (foster parenting): bail.
    bad: bool,
    /// Most attributes a tag may have (more: bail). See [`FAST_MAX_ATTRS`].
    max_attrs: usize,
}

/// The fast builder gives up on a tag with more attributes than this (or than the caller's
/// cap, if smaller): the duplicate check is a scan of the tag's earlier attributes, so a
/// tag costs at most `FAST_MAX_ATTRS`² / 2 comparisons; html5ever takes such tags, under the
/// caller's cap (`attrs::first_over_cap`).
pub(crate) const FAST_MAX_ATTRS: usize = 64;

impl<'a, 'o> Builder<'a, 'o> {
    /// Ends the Text node being accumulated, if any.
    #[inline]
    fn flush_text(&mut self) {
        if self.acc.open {
            self.push_text();
        }
    }

    fn push_text(&mut self) {
        self.acc.open = false;
        let t = if self.acc.multi {
            self.arena.alloc_str(&self.acc.buf) as &str
        } else {
            &self.text[self.acc.start..self.acc.end]
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
    fn comment(&mut self, data: &'a str) {
        self.flush_text();
        let idx = self.out.len() as u32;
        self.out.push(Node { kind: NodeKind::Comment(data), end: idx + 1 });
    }

    /// Character data `text[s..e]` of the data state.
    #[inline]
    fn chars(&mut self, s: usize, e: usize) -> Option<()> {
        if s < e {
            self.before_chars()?;
            self.acc.raw(self.text, s, e);
        }
        Some(())
    }

    /// Before character data is inserted: "in body" (and "in cell") reconstructs the active
    /// formatting elements first; directly in a table part it does not (only whitespace may
    /// be inserted there, see [`Builder::flush_text`]).
    #[inline]
    fn before_chars(&mut self) -> Option<()> {
        if !self.acc.open {
            if self.afe.last().is_some_and(|e| !e.open)
                && matches!(self.mode(), Mode::Body | Mode::Cell)
                && !self.in_svg()
            {
                self.reconstruct()?;
            }
            if let Some((text, parent)) = self.reopen.take() {
                self.reopen_text(text, parent);
            }
        }
        Some(())
    }

    /// Character data is merged into a Text node that is the current node's last child
    /// (as the DOM does): only the adoption agency leaves one (see [`Builder::adopt`]);
    /// `text` is that node's index if nothing was inserted or popped since.
    #[cold]
    fn reopen_text(&mut self, text: u32, parent: u32) {
        if text as usize + 1 != self.out.len() || self.stack.last().map(|f| f.idx) != Some(parent) {
            return;
        }
        if let Some(Node { kind: NodeKind::Text(t), .. }) = self.out.pop() {
            self.acc.open = true;
            self.acc.multi = true;
            self.acc.buf.clear();
            self.acc.buf.push_str(t);
        }
    }

    #[inline]
    fn mode(&self) -> Mode {
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
    fn below(&self, k: usize) -> Option<Tag> {
        let n = self.stack.len();
        if n > k {
            Some(self.stack[n - 1 - k].tag)
        } else {
            None
        }
    }

    #[inline]
    fn current(&self) -> Option<Tag> {
        self.stack.last().map(|f| f.tag)
    }

    #[inline]
    fn is_open(&self, tag: Tag) -> bool {
        self.open[tag as usize] > 0
    }

    fn heading_open(&self) -> bool {
        [Tag::H1, Tag::H2, Tag::H3, Tag::H4, Tag::H5, Tag::H6].iter().any(|&t| self.is_open(t))
    }

    /// "Close the cell": pop up to and including the cell (generate implied end tags, pop
    /// until `td`/`th`), clear the list of active formatting elements up to the last marker.
    fn close_cell(&mut self) -> Option<()> {
        let cell = self.stack.last()?.tidx as usize;
        while self.stack.len() > cell {
            self.pop();
        }
        self.clear_to_marker();
        Some(())
    }

    /// Start tags in the "in table", "in table body" and "in row" modes.
    fn table_start(&mut self, mode: Mode, tag: Tag, attrs: &'a [Attribute<'a>]) -> Option<()> {
        match (mode, tag) {
            (Mode::Table, Tag::Tbody | Tag::Thead | Tag::Tfoot) => self.insert(tag, attrs),
            (Mode::Table, Tag::Tr | Tag::Td | Tag::Th) => {
                self.insert(Tag::Tbody, &[]);
                return self.table_start(Mode::Section, tag, attrs);
            }
            (Mode::Section, Tag::Tr) => self.insert(tag, attrs),
            (Mode::Section, Tag::Td | Tag::Th) => {
                self.insert(Tag::Tr, &[]);
                return self.table_start(Mode::Row, tag, attrs);
            }
            (Mode::Row, Tag::Td | Tag::Th) => {
                self.insert(tag, attrs);
                self.push_marker()?;
            }
            (Mode::Row, Tag::Tr) => {
                self.pop();
                self.insert(tag, attrs);
            }
            _ => return None,
        }
        Some(())
    }

    /// End tags in the "in table", "in table body" and "in row" modes.
    fn table_end(&mut self, mode: Mode, tag: Tag) -> Option<()> {
        use Tag::*;
        match (mode, tag) {
            (_, Body | Caption | Col | Colgroup | Html | Td | Th) => {}
            (Mode::Table, Tbody | Tfoot | Thead | Tr) => {}
            (Mode::Table, Table) => self.pop(),
            (Mode::Section, Tr) => {}
            (Mode::Section, Tbody | Tfoot | Thead) => {
                if self.current() == Some(tag) {
                    self.pop();
                }
            }
            (Mode::Section, Table) => {
                self.pop();
                self.pop();
            }
            (Mode::Row, Tr) => self.pop(),
            (Mode::Row, Table) => {
                self.pop();
                self.pop();
                self.pop();
            }
            (Mode::Row, Tbody | Tfoot | Thead) => {
                if self.below(1) == Some(tag) {
                    self.pop();
                    self.pop();
                }
            }
            _ => return None,
        }
        Some(())
    }

    fn pop(&mut self) {
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
    fn insert(&mut self, tag: Tag, attrs: &'a [Attribute<'a>]) {
        self.insert_named(tag, tag.info().name, attrs, true);
    }

    /// Inserts an HTML element named `name` (`tag` interned), pushing it unless `void`;
    /// returns its output index.
    fn insert_named(
        &mut self,
        tag: Tag,
        name: &'a str,
        attrs: &'a [Attribute<'a>],
        push: bool,
    ) -> u32 {
        self.flush_text();
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
    fn link(&mut self, k: usize) {
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
    fn in_scope(&self, target: Tag, extra: &[Tag]) -> Option<bool> {
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
    fn close_p(&mut self) -> Option<()> {
        if self.is_open(Tag::P) {
            self.pop_until_in_scope(|t| t == Tag::P, &[Tag::Button])?;
        }
        Some(())
    }

    /// If an element satisfying `is_target` is in scope (default scope plus the `extra`
    /// boundaries), pops everything down to and including it and returns true ("generate
    /// implied end tags, then pop until"); returns false when it is not in scope. Bails if
    /// the element is more than [`SCOPE_SCAN`] frames down.
    fn pop_until_in_scope(
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

    fn push_marker(&mut self) -> Option<()> {
        if self.afe.len() >= AFE_MAX {
            return None;
        }
        self.afe.push(Formatting {
            node: MARKER,
            tag: Tag::Other,
            name: "",
            attrs: &[],
            open: true,
        });
        Some(())
    }

    /// "Clear the list of active formatting elements up to the last marker".
    fn clear_to_marker(&mut self) {
        while let Some(e) = self.afe.pop() {
            if e.node == MARKER {
                break;
            }
        }
    }

    /// Index of the first entry after the last marker.
    fn afe_start(&self) -> usize {
        self.afe.iter().rposition(|e| e.node == MARKER).map_or(0, |i| i + 1)
    }

    /// Inserts a formatting element and pushes it onto the list of active formatting
    /// elements, after the "Noah's Ark" clause (at most three equal entries after the last
    /// marker: the earliest goes).
    fn push_formatting(&mut self, tag: Tag, attrs: &'a [Attribute<'a>]) -> Option<()> {
        if self.afe.len() >= 3 {
            let start = self.afe_start();
            let mut equal = self.afe[start..].iter().enumerate().filter(|(_, e)| {
                e.tag == tag && crate::model::fragment::attr_sets_equal(e.attrs, attrs)
            });
            if let Some((first, _)) = equal.next() {
                if equal.count() >= 2 {
                    self.afe.remove(start + first);
                }
            }
        }
        if self.afe.len() >= AFE_MAX {
            return None;
        }
        let name = tag.info().name;
        let node = self.insert_named(tag, name, attrs, true);
        self.afe.push(Formatting { node, tag, name, attrs, open: true });
        Some(())
    }

    /// "Reconstruct the active formatting elements" (a no-op unless the last entry is an
    /// element that is no longer open).
    #[inline]
    fn reconstruct(&mut self) -> Option<()> {
        if self.afe.last().is_some_and(|e| !e.open) {
            self.reconstruct_entries();
        }
        Some(())
    }

    fn reconstruct_entries(&mut self) {
        let mut first = self.afe.len() - 1;
        while first > 0 && !self.afe[first - 1].open {
            first -= 1;
        }
        for k in first..self.afe.len() {
            let e = self.afe[k];
            self.afe[k].node = self.insert_named(e.tag, e.name, e.attrs, true);
            self.afe[k].open = true;
        }
    }

    /// Stack index of the open element whose output index is `node`, looked for in the top
    /// [`SCOPE_SCAN`] frames (None: bail).
    fn stack_index(&self, node: u32) -> Option<usize> {
        let n = self.stack.len();
        (n.saturating_sub(SCOPE_SCAN)..n).rev().find(|&k| self.stack[k].idx == node)
    }

    /// The adoption agency algorithm for the end tag `subject` (a formatting element),
    /// exactly as html5ever runs it.
    fn adoption_agency(&mut self, subject: Tag, name: &'a str) -> Option<()> {
        // The common case first: the current node is the last entry of the list. It is then
        // the formatting element, in scope, with no furthest block: popped and removed.
        if let (Some(cur), Some(last)) = (self.stack.last(), self.afe.last()) {
            if last.node == cur.idx && last.tag == subject {
                self.pop();
                self.afe.pop();
                return Some(());
            }
        }
        // 1. The current node is that element and not in the list: pop it.
        if let Some(cur) = self.stack.last() {
            if cur.tag == subject && !self.afe.iter().any(|e| e.node == cur.idx) {
                self.pop();
                return Some(());
            }
        }
        for _ in 0..8 {
            // The formatting element: the last entry after the last marker with that name.
            let start = self.afe_start();
            let Some(fi) = (start..self.afe.len()).rev().find(|&i| self.afe[i].tag == subject)
            else {
                return self.any_other_end_tag(subject, name);
            };
            if !self.afe[fi].open {
                self.afe.remove(fi);
                return Some(());
            }
            let fs = self.stack_index(self.afe[fi].node)?;
            if self.stack[fs + 1..].iter().any(|f| f.tag.has(SCOPE)) {
                return Some(()); // not in scope: ignored
            }
            let Some(bs) = (fs + 1..self.stack.len()).find(|&k| self.stack[k].tag.has(SPECIAL))
            else {
                // No furthest block: pop up to and including the formatting element.
                while self.stack.len() > fs {
                    self.pop();
                }
                self.afe.remove(fi);
                return Some(());
            };
            self.adopt(fi, fs, bs)?;
        }
        Some(())
    }

    /// Steps 11–19 of the adoption agency: formatting element `afe[fi]` at stack index `fs`,
    /// furthest block at `bs`.
    ///
    /// On the flat list: the furthest block's subtree is the tail of `out` from its index
    /// `fb`, and everything before `fb` stays where it is. The elements between the
    /// formatting element and the furthest block that are cloned (in the list, at most
    /// three) are inserted before `fb` in stack order (the new chain under the common
    /// ancestor, right after the formatting element's subtree, which now ends at `fb`), and
    /// the formatting element's clone right after the furthest block (taking over its
    /// children): the tail moves by the number of new nodes.
    fn adopt(&mut self, fi: usize, fs: usize, bs: usize) -> Option<()> {
        self.flush_text();
        let fb = self.stack[bs].idx;
        let tail = self.out.len() - fb as usize;
        self.moved += tail;
        if self.moved > self.move_budget() {
            return None;
        }
        let fe = self.afe[fi];
        // Inner loop (13): which frames between the two are cloned, which are dropped.
        // `keep[k - fs - 1]`: frame k gets a clone. The bookmark is the entry after which
        // the formatting element's clone goes (None: in place of the formatting element).
        let mut keep: AVec<'_, bool> = AVec::from_iter_in((fs + 1..bs).map(|_| false), self.arena);
        let mut bookmark: Option<u32> = None;
        for (counter, k) in (fs + 1..bs).rev().enumerate() {
            let node = self.stack[k].idx;
            let entry = self.afe.iter().position(|e| e.node == node);
            match entry {
                Some(p) if counter + 1 > 3 => {
                    self.afe.remove(p);
                }
                Some(_) => {
                    if bookmark.is_none() && !keep.iter().any(|&c| c) {
                        bookmark = Some(node);
                    }
                    keep[k - fs - 1] = true;
                }
                None => {}
            }
        }
        let clones = keep.iter().filter(|&&c| c).count() as u32;
        let shift = clones + 1;
        // When the furthest block is the current node, its clone of the formatting element
        // becomes the current node with its children: text that follows is appended to
        // (merged with) a last Text child.
        self.reopen = None;
        if bs + 1 == self.stack.len() {
            let mut last = None;
            let mut c = fb as usize + 1;
            while c < self.out.len() {
                last = Some(c);
                c = self.out[c].end as usize;
            }
            if let Some(c) = last.filter(|&c| matches!(self.out[c].kind, NodeKind::Text(_))) {
                self.reopen = Some((c as u32 + shift, fb + shift));
            }
        }
        // Old elements between the formatting element and the furthest block (and the
        // formatting element itself) end where the new chain starts.
        for k in fs..bs {
            let f = &self.stack[k];
            self.out[f.idx as usize].end = fb;
            self.open[f.tag as usize] -= 1;
        }
        // The list: entries inside the furthest block move with it; the formatting element's
        // entry goes to the bookmark, as its clone's.
        for e in self.afe.iter_mut() {
            if e.node != MARKER && e.node > fb {
                e.node += shift;
            }
        }
        let fe_pos = self.afe.iter().position(|e| e.node == fe.node)?;
        self.afe.remove(fe_pos);
        let at = match bookmark {
            None => fe_pos,
            Some(node) => self.afe.iter().position(|e| e.node == node)? + 1,
        };
        self.afe.insert(at, Formatting { node: fb + clones + 1, open: true, ..fe });
        // The output: make room for the clones before the furthest block and for the
        // formatting element's clone after it.
        let old_len = self.out.len();
        let fb_node = self.out[fb as usize];
        let filler = fb_node;
        for _ in 0..shift {
            self.out.push(filler);
        }
        let fbu = fb as usize;
        let sh = shift as usize;
        self.out.copy_within(fbu + 1..old_len, fbu + 1 + sh);
        for node in &mut self.out[fbu + 1 + sh..] {
            node.end += shift;
        }
        self.out[fbu + clones as usize] = Node { end: fb_node.end + shift, ..fb_node };
        let element = |name: &'a str, attrs: &'a [Attribute<'a>]| {
            NodeKind::Element(Element { namespace: HTML_NS, prefix: None, local: name, attrs })
        };
        self.out[fbu + sh] = Node { kind: element(fe.name, fe.attrs), end: fb + shift + 1 };
        // The stack: [.. common ancestor] + clones + furthest block + clone of the
        // formatting element + the frames that were below the furthest block.
        let mut new_frames: AVec<'_, Frame<'a>> =
            AVec::with_capacity_in(self.stack.len() - fs + 1, self.arena);
        let mut at = fb;
        for k in fs + 1..bs {
            if !keep[k - fs - 1] {
                continue;
            }
            let f = &self.stack[k];
            let p = self.afe.iter().position(|e| e.node == f.idx)?;
            let e = self.afe[p];
            self.out[at as usize] = Node { kind: element(e.name, e.attrs), end: at + 1 };
            self.afe[p].node = at;
            new_frames.push(Frame { idx: at, ..*f });
            self.open[f.tag as usize] += 1;
            at += 1;
        }
        new_frames.push(Frame { idx: fb + clones, ..self.stack[bs] });
        new_frames.push(Frame {
            idx: fb + clones + 1,
            tag: fe.tag,
            name: fe.name,
            bar: u32::MAX,
            tkind: T_NONE,
            tidx: u32::MAX,
            svg: false,
        });
        self.open[fe.tag as usize] += 1;
        for f in &self.stack[bs + 1..] {
            new_frames.push(Frame { idx: f.idx + shift, ..*f });
        }
        self.stack.truncate(fs);
        for f in new_frames {
            self.stack.push(f);
            self.link(self.stack.len() - 1);
        }
        Some(())
    }

    /// How many nodes the adoption agency may move in all (keeps the builder linear: each
    /// run moves the furthest block's subtree).
    fn move_budget(&self) -> usize {
        4 * self.text.len() + 4096
    }

    /// "Any other end tag": the nearest open element of that name, unless a special
    /// element comes first (then the token is ignored); generate implied end tags except
    /// it and pop up to it.
    fn any_other_end_tag(&mut self, tag: Tag, name: &str) -> Option<()> {
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
    fn in_svg(&self) -> bool {
        self.stack.last().is_some_and(|f| f.svg)
    }

    /// A start tag; returns whether it was inserted as an HTML element (else the tokenizer
    /// stays in the data state whatever its name).
    fn start_tag(
        &mut self,
        tag: Tag,
        name: &'a str,
        attrs: &'a [Attribute<'a>],
        self_closing: bool,
    ) -> Option<bool> {
        if self.in_svg() {
            let breakout = tag.has(BREAKOUT)
                || (tag == Tag::Font
                    && attrs.iter().any(|a| matches!(a.local, "color" | "face" | "size")));
            if !breakout {
                self.insert_svg(svg_element_name(name), attrs, self_closing)?;
                return Some(false);
            }
            // Pop until the current node is an HTML element, then the insertion mode's rules.
            while self.in_svg() {
                self.pop();
            }
        }
        self.html_start_tag(tag, name, attrs, self_closing)?;
        Some(true)
    }

    /// Inserts an SVG element (attributes adjusted), pushing it unless `self_closing`.
    fn insert_svg(
        &mut self,
        name: &'a str,
        attrs: &'a [Attribute<'a>],
        self_closing: bool,
    ) -> Option<()> {
        if matches!(name, "foreignObject" | "desc" | "title") {
            return None; // HTML integration points
        }
        let attrs = adjust_svg_attributes(self.arena, attrs);
        self.flush_text();
        let idx = self.out.len() as u32;
        self.out.push(Node {
            kind: NodeKind::Element(Element {
                namespace: SVG_NS,
                prefix: None,
                local: name,
                attrs,
            }),
            end: idx + 1,
        });
        if !self_closing {
            self.stack.push(Frame {
                idx,
                tag: Tag::Other,
                name,
                bar: u32::MAX,
                tkind: T_NONE,
                tidx: u32::MAX,
                svg: true,
            });
            self.link(self.stack.len() - 1);
            self.open[Tag::Other as usize] += 1;
        }
        Some(())
    }

    /// An end tag in foreign content: pops up to the nearest element of that name (ASCII
    /// case-insensitively, any namespace) unless an HTML element comes first (below the
    /// current node): then the insertion mode's rules.
    fn end_tag(&mut self, tag: Tag, name: &'a str) -> Option<()> {
        if !self.in_svg() {
            return self.html_end_tag(tag, name);
        }
        if matches!(tag, Tag::Br | Tag::P) {
            while self.in_svg() {
                self.pop();
            }
            return self.html_end_tag(tag, name);
        }
        let n = self.stack.len();
        for k in (n.saturating_sub(END_TAG_SCAN)..n).rev() {
            let f = &self.stack[k];
            if k + 1 < n && !f.svg {
                return self.html_end_tag(tag, name);
            }
            if f.name.eq_ignore_ascii_case(name) {
                while self.stack.len() > k {
                    self.pop();
                }
                return Some(());
            }
        }
        if n > END_TAG_SCAN {
            return None;
        }
        Some(()) // reached the root `html`: ignored
    }

    fn html_start_tag(
        &mut self,
        tag: Tag,
        name: &'a str,
        attrs: &'a [Attribute<'a>],
        self_closing: bool,
    ) -> Option<()> {
        match self.mode() {
            Mode::Body => {}
            Mode::Cell => {
                if matches!(
                    tag,
                    Tag::Caption
                        | Tag::Col
                        | Tag::Colgroup
                        | Tag::Tbody
                        | Tag::Td
                        | Tag::Tfoot
                        | Tag::Th
                        | Tag::Thead
                        | Tag::Tr
                ) {
                    self.close_cell()?;
                    return self.table_start(Mode::Row, tag, attrs);
                }
            }
            m => return self.table_start(m, tag, attrs),
        }
        match tag.info().cat {
            Cat::Ordinary => {
                self.reconstruct()?;
                self.insert_named(tag, name, attrs, true);
            }
            Cat::Formatting => {
                self.reconstruct()?;
                self.push_formatting(tag, attrs)?;
            }
            Cat::A => {
                // An `a` still in the list (after the last marker) is closed first.
                let start = self.afe_start();
                if let Some(p) = (start..self.afe.len()).rev().find(|&i| self.afe[i].tag == Tag::A)
                {
                    let node = self.afe[p].node;
                    self.adoption_agency(Tag::A, "a")?;
                    if let Some(q) = self.afe.iter().position(|e| e.node == node) {
                        if self.afe[q].open {
                            // Still open (not in scope): removing it from the middle of
                            // the stack is not implemented.
                            return None;
                        }
                        self.afe.remove(q);
                    }
                }
                self.reconstruct()?;
                self.push_formatting(tag, attrs)?;
            }
            Cat::Marker => {
                self.reconstruct()?;
                self.insert(tag, attrs);
                self.push_marker()?;
            }
            Cat::PClose | Cat::Pre | Cat::Table => {
                self.close_p()?;
                self.insert(tag, attrs);
            }
            Cat::Raw(k) => {
                if k == RawKind::Xmp {
                    self.close_p()?;
                    self.reconstruct()?;
                }
                self.insert(tag, attrs);
            }
            Cat::Heading => {
                self.close_p()?;
                if self.current().is_some_and(|t| t.has(HEADING)) {
                    self.pop();
                }
                self.insert(tag, attrs);
            }
            Cat::Li | Cat::DdDt => {
                if let Some(f) = self.stack.last() {
                    let bar = f.bar as usize;
                    let closes = match self.stack.get(bar).map(|f| f.tag) {
                        Some(Tag::Li) => tag == Tag::Li,
                        Some(Tag::Dd | Tag::Dt) => tag != Tag::Li,
                        _ => false,
                    };
                    if closes {
                        // Generate implied end tags except this one, pop until it.
                        while self.stack.len() > bar {
                            self.pop();
                        }
                    }
                }
                self.close_p()?;
                self.insert(tag, attrs);
            }
            Cat::Void => {
                self.reconstruct()?;
                self.insert_named(tag, name, attrs, false);
            }
            Cat::VoidPlain => {
                self.insert_named(tag, name, attrs, false);
            }
            Cat::Hr => {
                self.close_p()?;
                self.insert_named(tag, name, attrs, false);
            }
            Cat::RubyChild => {
                // If a `ruby` is in scope: generate implied end tags (except `rtc` for
                // `rp`/`rt`).
                if self.in_scope(Tag::Ruby, &[])? {
                    let except =
                        if matches!(tag, Tag::Rp | Tag::Rt) { Tag::Rtc } else { Tag::Other };
                    while let Some(cur) = self.current() {
                        if cur != except && cur.has(IMPLIED_END) {
                            self.pop();
                        } else {
                            break;
                        }
                    }
                }
                self.insert(tag, attrs);
            }
            Cat::Svg => {
                self.reconstruct()?;
                self.insert_svg("svg", attrs, self_closing)?;
            }
            Cat::Ignored => {}
            Cat::Image => {
                self.reconstruct()?;
                self.insert_named(Tag::Img, "img", attrs, false);
            }
            Cat::Nobr => {
                self.reconstruct()?;
                if self.in_scope(Tag::Nobr, &[])? {
                    self.adoption_agency(Tag::Nobr, "nobr")?;
                    self.reconstruct()?;
                }
                self.push_formatting(tag, attrs)?;
            }
            Cat::Button => {
                if self.in_scope(Tag::Button, &[])? {
                    self.pop_until_in_scope(|t| t == Tag::Button, &[])?;
                }
                self.reconstruct()?;
                self.insert(tag, attrs);
            }
            Cat::Plaintext => {
                self.close_p()?;
                self.insert(tag, attrs);
            }
            Cat::Bail => return None,
        }
        Some(())
    }

    fn html_end_tag(&mut self, tag: Tag, name: &'a str) -> Option<()> {
        match self.mode() {
            Mode::Body => {}
            Mode::Cell => match tag {
                Tag::Td | Tag::Th => {
                    let f = self.stack.last()?;
                    if self.stack[f.tidx as usize].tag == tag {
                        self.close_cell()?;
                    }
                    return Some(());
                }
                Tag::Body | Tag::Caption | Tag::Col | Tag::Colgroup | Tag::Html => return Some(()),
                Tag::Table | Tag::Tbody | Tag::Tfoot | Tag::Thead | Tag::Tr => {
                    let f = self.stack.last()?;
                    let cell = f.tidx as usize;
                    // The structure above the cell is table > section > tr > cell.
                    let in_scope = match tag {
                        Tag::Table | Tag::Tr => true,
                        _ => cell >= 2 && self.stack[cell - 2].tag == tag,
                    };
                    if in_scope {
                        self.close_cell()?;
                        return self.table_end(Mode::Row, tag);
                    }
                    return Some(());
                }
                _ => {}
            },
            m => return self.table_end(m, tag),
        }
        match tag {
            Tag::Br => {
                // `</br>` is processed as a `<br>` start tag without attributes.
                self.reconstruct()?;
                self.insert_named(Tag::Br, "br", &[], false);
                return Some(());
            }
            // No `body` in scope in a fragment: ignored.
            Tag::Body | Tag::Html => return Some(()),
            Tag::Template | Tag::Form => return None,
            _ => {}
        }
        if tag.has(FORMATTING) {
            return self.adoption_agency(tag, name);
        }
        let marker = tag.info().cat == Cat::Marker;
        let heading = tag.has(HEADING);
        if let Some(cur) = self.stack.last() {
            if !marker && (cur.is(tag, name) || (heading && cur.tag.has(HEADING))) {
                self.pop();
                return Some(());
            }
        }
        // End tags that "generate implied end tags" (cursory set; `except` = not that one)
        // once their element is in scope, then pop up to it.
        if tag.has(BLOCK_END) {
            let in_scope = match tag {
                Tag::P if !self.is_open(Tag::P) => false,
                Tag::P => self.pop_until_in_scope(|t| t == Tag::P, &[Tag::Button])?,
                Tag::Li => self.pop_until_in_scope(|t| t == Tag::Li, &[Tag::Ol, Tag::Ul])?,
                _ if heading => {
                    self.heading_open() && self.pop_until_in_scope(|t| t.has(HEADING), &[])?
                }
                _ => self.is_open(tag) && self.pop_until_in_scope(|t| t == tag, &[])?,
            };
            if in_scope && marker {
                self.clear_to_marker();
            }
            if !in_scope && tag == Tag::P {
                // `</p>` without a `p` in button scope: an empty `p` is inserted and closed.
                self.insert_named(Tag::P, "p", &[], false);
            }
            return Some(()); // done, or ignored
        }
        self.any_other_end_tag(tag, name)
    }
}

/// The data of the single Text node that `text` parses to when no `<` in it can open a tag
/// (the caller guarantees that), or None if the fast tokenizer gives up. Borrows `text`
/// when nothing is decoded.
pub(crate) fn decode_text<'a>(arena: &'a Bump, text: &'a str) -> Option<&'a str> {
    let mut out = AVec::new_in(arena);
    if !build(arena, text, &mut out, FAST_MAX_ATTRS) {
        return None;
    }
    match out.as_slice() {
        [] => Some(""),
        [Node { kind: NodeKind::Text(t), .. }] => Some(t),
        _ => None,
    }
}

/// Builds the flat pre-order fragment for `text` into `out` (cleared first), exactly as
/// html5ever's fragment parser + flattening would. Returns false (with `out` in an
/// unspecified state) when the input is outside the supported subset.
///
/// Gives up as well on a tag with more than `max_attrs` attributes (or [`FAST_MAX_ATTRS`]).
pub(crate) fn build<'a>(
    arena: &'a Bump,
    text: &'a str,
    out: &mut AVec<'a, Node<'a>>,
    max_attrs: usize,
) -> bool {
    build_at(arena, text, out, max_attrs, &mut 0)
}

/// [`build`], also reporting the byte offset of the token at which it gave up.
pub(crate) fn build_at<'a>(
    arena: &'a Bump,
    text: &'a str,
    out: &mut AVec<'a, Node<'a>>,
    max_attrs: usize,
    bail_at: &mut usize,
) -> bool {
    out.clear();
    if text.len() >= u32::MAX as usize || memchr::memchr(0, text.as_bytes()).is_some() {
        *bail_at = usize::MAX;
        return false;
    }
    // The tokenizer's input preprocessing: CRLF and lone CR become LF.
    let text = crate::xml::normalize_newlines(arena, text);
    // Every node but the first starts at a `<` (an element or comment, or the text after
    // one), so twice the number of `<` bounds the node count: reserve it once instead of
    // growing (and copying) the list node by node.
    out.reserve(2 * memchr::memchr_iter(b'<', text.as_bytes()).count() + 1);
    let mut b = Builder {
        arena,
        text,
        out,
        stack: AVec::new_in(arena),
        acc: TextAcc {
            open: false,
            start: 0,
            end: 0,
            multi: false,
            buf: bumpalo::collections::String::new_in(arena),
        },
        open: [0; TAGS.len()],
        afe: AVec::new_in(arena),
        moved: 0,
        reopen: None,
        tok: 0,
        bad: false,
        max_attrs: max_attrs.min(FAST_MAX_ATTRS),
    };
    if run(&mut b).is_none() || b.bad {
        *bail_at = b.tok;
        return false;
    }
    b.flush_text();
    if b.bad {
        *bail_at = text.len();
        return false;
    }
    let len = b.out.len() as u32;
    for f in &b.stack {
        b.out[f.idx as usize].end = len;
    }
    true
}

fn run(bd: &mut Builder<'_, '_>) -> Option<()> {
    let text = bd.text;
    let arena = bd.arena;
    let b = text.as_bytes();
    let n = b.len();
    let mut i = 0;
    let mut attrs: AVec<'_, Attribute<'_>> = AVec::new_in(arena);
    while i < n {
        let j = crate::xml::find_near(b, i, [b'<', b'&'])
            .unwrap_or_else(|k| memchr::memchr2(b'<', b'&', &b[k..]).map_or(n, |p| k + p));
        bd.chars(i, j)?;
        if j == n {
            break;
        }
        bd.tok = j;
        if b[j] == b'&' {
            bd.before_chars()?;
            i = bd.acc.char_ref(text, j, n)?;
            continue;
        }
        // b[j] == '<'
        match b.get(j + 1).copied() {
            Some(c) if c.is_ascii_alphabetic() => {
                let (k, tag, name, self_closing) =
                    start_tag(bd.arena, text, j + 1, &mut attrs, bd.max_attrs)?;
                let attrs_slice: &[Attribute<'_>] =
                    if attrs.is_empty() { &[] } else { bd.arena.alloc_slice_copy(&attrs) };
                // The self-closing flag only matters for foreign elements (HTML void elements
                // are popped anyway).
                let html = bd.start_tag(tag, name, attrs_slice, self_closing)?;
                i = k;
                if !html {
                    continue;
                }
                match tag.info().cat {
                    Cat::Raw(kind) => {
                        if kind == RawKind::Textarea {
                            i = skip_leading_newline(text, i)?;
                        }
                        i = raw_text(bd, i, name, kind)?;
                    }
                    // The tree builder drops a newline at the start of the next token if it
                    // is character data.
                    Cat::Pre => i = skip_leading_newline(text, i)?,
                    // The tokenizer's PLAINTEXT state: everything after is character data.
                    Cat::Plaintext => {
                        bd.chars(i, n)?;
                        i = n;
                    }
                    _ => {}
                }
            }
            Some(b'/') => match b.get(j + 2) {
                Some(c) if c.is_ascii_alphabetic() => {
                    let (k, tag, name) = tag_name(bd.arena, text, j + 2);
                    let k = skip_ws(b, k);
                    i = if b.get(k) == Some(&b'>') {
                        k + 1
                    } else {
                        // Attributes and a self-closing flag of end tags are read and ignored.
                        end_tag_attributes(bd.arena, text, k, &mut attrs, bd.max_attrs)?.0
                    };
                    bd.end_tag(tag, name)?;
                }
                // `</>` is dropped.
                Some(b'>') => i = j + 3,
                // `</` at EOF is text.
                None => {
                    bd.chars(j, n)?;
                    i = n;
                }
                // `</` + anything else opens a bogus comment.
                Some(_) => i = bogus_comment(bd, j + 2),
            },
            Some(b'!') if bd.in_svg() && text[j..].starts_with("<![CDATA[") => {
                // A CDATA section (foreign content only): its text, up to `]]>` or EOF.
                let s = j + 9;
                let e = crate::xml::find_terminator(&b[s..], b"]]>").map_or(n, |p| s + p);
                bd.chars(s, e)?;
                i = (e + 3).min(n);
            }
            Some(b'!') if !text[j..].starts_with("<!--") => {
                let rest = &b[j + 2..];
                if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
                    return None; // a DOCTYPE token
                }
                i = bogus_comment(bd, j + 2);
            }
            Some(b'!') => {
                let s = j + 4;
                let e = s + crate::xml::find_terminator(&b[s..], b"-->")?;
                let data = &text[s..e];
                if data.starts_with('>')
                    || data.starts_with("->")
                    || data.contains("--!")
                    || data.contains("<!-")
                {
                    return None;
                }
                bd.comment(data);
                i = e + 3;
            }
            // `<?` opens a bogus comment (the `?` included).
            Some(b'?') => i = bogus_comment(bd, j + 1),
            _ => {
                // Literal '<' (also at EOF).
                bd.chars(j, j + 1)?;
                i = j + 1;
            }
        }
    }
    Some(())
}
