//! The list of active formatting elements — formatting elements pushed (with the Noah's Ark
//! clause), markers, "reconstruct the active formatting elements" — and the adoption agency
//! that formatting end tags run on it, exactly as html5ever runs it.

use super::builder::{Builder, Formatting, Frame, AFE_MAX, MARKER};
use super::tokenizer::AVec;
use crate::html::tags::{Tag, SCOPE, SPECIAL, T_NONE};
use crate::model::fragment::{Attribute, Element, Node, NodeKind, HTML_NS};

impl<'a, 'o> Builder<'a, 'o> {
    pub(super) fn push_marker(&mut self) -> Option<()> {
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
    pub(super) fn clear_to_marker(&mut self) {
        while let Some(e) = self.afe.pop() {
            if e.node == MARKER {
                break;
            }
        }
    }

    /// Index of the first entry after the last marker.
    pub(super) fn afe_start(&self) -> usize {
        self.afe.iter().rposition(|e| e.node == MARKER).map_or(0, |i| i + 1)
    }

    /// Inserts a formatting element and pushes it onto the list of active formatting
    /// elements, after the "Noah's Ark" clause (at most three equal entries after the last
    /// marker: the earliest goes).
    pub(super) fn push_formatting(&mut self, tag: Tag, attrs: &'a [Attribute<'a>]) -> Option<()> {
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
    pub(super) fn reconstruct(&mut self) -> Option<()> {
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

    /// The adoption agency algorithm for the end tag `subject` (a formatting element),
    /// exactly as html5ever runs it.
    ///
    /// Inlined for its common case (most formatting end tags close the current node), the
    /// rest out of line ([`Self::adoption_agency_steps`]).
    #[inline]
    pub(super) fn adoption_agency(&mut self, subject: Tag, name: &'a str) -> Option<()> {
        // The current node is the last entry of the list. It is then the formatting
        // element, in scope, with no furthest block: popped and removed.
        if let (Some(cur), Some(last)) = (self.stack.last(), self.afe.last()) {
            if last.node == cur.idx && last.tag == subject {
                self.pop();
                self.afe.pop();
                return Some(());
            }
        }
        self.adoption_agency_steps(subject, name)
    }

    /// [`Self::adoption_agency`] past its common case.
    #[inline(never)]
    fn adoption_agency_steps(&mut self, subject: Tag, name: &'a str) -> Option<()> {
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
}
