//! The text accumulator: adjacent character tokens share one Text node, borrowed from the
//! input while it is one contiguous slice of it, joined in an arena buffer otherwise.

use super::refs::char_ref;

/// The Text node being accumulated (adjacent character tokens share one node).
pub(super) struct TextAcc<'a> {
    pub(super) open: bool,
    /// Input byte range while the node is one contiguous raw slice of the input.
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) multi: bool,
    /// The joined text once it is no longer one raw slice (arena scratch, reused).
    pub(super) buf: bumpalo::collections::String<'a>,
}

impl TextAcc<'_> {
    /// Appends `text[s..e]`, where `text` is the builder's text and `s`, `e` are char
    /// boundaries of it with `s <= e` (the Text node is sliced from it unchecked).
    #[inline]
    pub(super) fn raw(&mut self, text: &str, s: usize, e: usize) {
        debug_assert!(s <= e && text.is_char_boundary(s) && text.is_char_boundary(e));
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
    pub(super) fn char_ref(&mut self, text: &str, j: usize, end: usize) -> Option<usize> {
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
