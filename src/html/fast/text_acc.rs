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
    /// Appends `text[s..e]`, where `text` is the builder's text.
    ///
    /// # Safety
    /// `s <= e <= text.len()`, and `s` and `e` are char boundaries of `text`: the Text node
    /// is sliced from it unchecked ([`super::builder::Builder::push_text`]). Every range the
    /// tokenizer hands in ends at 0, `text.len()`, the offset of an ASCII byte, or right after
    /// one.
    #[inline]
    pub(super) unsafe fn raw(&mut self, text: &str, s: usize, e: usize) {
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
    /// `None` (the fast path gives up) if `text[j]` is not `&`.
    pub(super) fn char_ref(&mut self, text: &str, j: usize, end: usize) -> Option<usize> {
        if text.as_bytes().get(j) != Some(&b'&') {
            return None;
        }
        let mut push = |s: &str, c: Option<char>| {
            if !s.is_empty() {
                // The literal '&' is the input byte at j.
                // SAFETY: `text[j]` is the ASCII `&` (checked above), so `j` and `j + 1` are
                // char boundaries within `text`.
                unsafe { self.raw(text, j, j + 1) };
            }
            if let Some(c) = c {
                self.push_char(text, c);
            }
        };
        char_ref(&text[..end], j, false, &mut push)
    }
}
