//! The insertion modes: character data, start and end tags "in body", in the table modes
//! (table, table body, row, cell; the mode is derived from the stack) and in foreign content
//! (inline SVG).

use super::builder::{Builder, Frame, Mode, END_TAG_SCAN};
use super::svg::{adjust_svg_attributes, svg_element_name};
use crate::html::tags::{
    Cat, RawKind, Tag, BLOCK_END, BREAKOUT, FORMATTING, HEADING, IMPLIED_END, T_NONE,
};
use crate::model::fragment::{Attribute, Element, Node, NodeKind, SVG_NS};

/// The tokenizer state a start tag leaves: which of the tokenizer's state switches of
/// [`Cat`] the tree builder asks for after inserting it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Next {
    /// The data state (every element but the ones below, and foreign elements).
    Data,
    /// RAWTEXT, RCDATA or script data, up to the element's end tag (`Cat::Raw`).
    Raw(RawKind),
    /// The data state, a newline at the start of the next token dropped (`Cat::Pre`).
    Pre,
    /// The PLAINTEXT state (`Cat::Plaintext`).
    Plaintext,
}

impl<'a, 'o> Builder<'a, 'o> {
    /// Character data `text[s..e]` of the data state.
    ///
    /// # Safety
    /// As [`super::text_acc::TextAcc::raw`]'s: `s` and `e` are char boundaries of the
    /// builder's text, `e <= text.len()`.
    #[inline]
    pub(super) unsafe fn chars(&mut self, s: usize, e: usize) -> Option<()> {
        if s < e {
            self.before_chars()?;
            // SAFETY: this function's precondition, with `s < e`.
            unsafe { self.acc.raw(self.text, s, e) };
        }
        Some(())
    }

    /// Before character data is inserted: "in body" (and "in cell") reconstructs the active
    /// formatting elements first; directly in a table part it does not (only whitespace may
    /// be inserted there, see [`Builder::flush_text`]).
    #[inline]
    pub(super) fn before_chars(&mut self) -> Option<()> {
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

    /// A start tag; returns the tokenizer state it leaves (the data state for a foreign
    /// element, whatever its name).
    pub(super) fn start_tag(
        &mut self,
        tag: Tag,
        name: &'a str,
        attrs: &'a [Attribute<'a>],
        self_closing: bool,
    ) -> Option<Next> {
        if self.in_svg() {
            let breakout = tag.has(BREAKOUT)
                || (tag == Tag::Font
                    && attrs.iter().any(|a| matches!(a.local, "color" | "face" | "size")));
            if !breakout {
                self.insert_svg(svg_element_name(name), attrs, self_closing)?;
                return Some(Next::Data);
            }
            // Pop until the current node is an HTML element, then the insertion mode's rules.
            while self.in_svg() {
                self.pop();
            }
        }
        self.html_start_tag(tag, name, attrs, self_closing)
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
    pub(super) fn end_tag(&mut self, tag: Tag, name: &'a str) -> Option<()> {
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

    /// A start tag in an HTML insertion mode; returns the tokenizer state it leaves (the table
    /// modes insert only table parts, which leave the data state).
    fn html_start_tag(
        &mut self,
        tag: Tag,
        name: &'a str,
        attrs: &'a [Attribute<'a>],
        self_closing: bool,
    ) -> Option<Next> {
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
                    self.table_start(Mode::Row, tag, attrs)?;
                    return Some(Next::Data);
                }
            }
            m => {
                self.table_start(m, tag, attrs)?;
                return Some(Next::Data);
            }
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
            Cat::PClose | Cat::Table => {
                self.close_p()?;
                self.insert(tag, attrs);
            }
            Cat::Pre => {
                self.close_p()?;
                self.insert(tag, attrs);
                return Some(Next::Pre);
            }
            Cat::Raw(k) => {
                if k == RawKind::Xmp {
                    self.close_p()?;
                    self.reconstruct()?;
                }
                self.insert(tag, attrs);
                return Some(Next::Raw(k));
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
                return Some(Next::Plaintext);
            }
            Cat::Bail => return None,
        }
        Some(Next::Data)
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
