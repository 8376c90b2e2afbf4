//! Stage 3: XML. A forgiving pull reader over quick-xml with namespace resolution
//! ([`reader`]), known namespaces ([`ns`]), references ([`entities`]), and the few walking
//! primitives every format state machine uses ([`XmlReader::next_child`],
//! [`XmlReader::child_text`], [`XmlReader::skip`]).
//!
//! Invariant: a walker that receives `Some(tag)` from `next_child` consumes that child
//! completely (through `child_text`, `skip`, or its own `next_child` loop) before asking for
//! the next one. Walking is iterative; stack depth does not grow with document depth.

pub mod entities;
pub mod ns;
pub mod reader;

pub use ns::Ns;
pub use reader::{Event, Tag, XmlReader};

use crate::error::DiagnosticKind;

impl<'a> XmlReader<'a> {
    /// The next child element of the element being walked, or `None` at its end tag.
    /// Text, comments and processing instructions between children are skipped.
    pub fn next_child(&mut self) -> Option<Tag<'a>> {
        loop {
            match self.next() {
                Event::Start(tag) => return Some(tag),
                Event::End | Event::Eof => return None,
                Event::Text(_) | Event::Comment(_) | Event::Pi { .. } => {}
            }
        }
    }

    /// Consumes the rest of the current element, including its end tag.
    pub fn skip(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.next() {
                Event::Start(_) => depth += 1,
                Event::End => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                }
                Event::Eof => return,
                _ => {}
            }
        }
    }

    /// The current element's child text content (its Text/CDATA children, concatenated;
    /// descendants' text is not included), consuming the element through its end tag.
    /// Borrowed from the input when the content is a single chunk. Text beyond `max_bytes`
    /// is cut at a char boundary, with a [`DiagnosticKind::LimitReached`] diagnostic.
    pub fn child_text(&mut self, max_bytes: usize) -> &'a str {
        let arena = self.arena();
        let mut first: Option<&'a str> = None;
        let mut joined: Option<bumpalo::collections::String<'a>> = None;
        let mut cut_at: Option<usize> = None;
        let mut depth = 0usize;
        loop {
            match self.next() {
                Event::Start(_) => depth += 1,
                Event::End => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                }
                Event::Eof => break,
                Event::Text(t) if depth == 0 && cut_at.is_none() => {
                    let so_far = joined.as_ref().map_or(first.map_or(0, str::len), |j| j.len());
                    let t = if so_far + t.len() > max_bytes {
                        cut_at = Some(self.last_offset());
                        &t[..floor_char_boundary(t, max_bytes - so_far)]
                    } else {
                        t
                    };
                    match (&mut joined, first) {
                        (Some(j), _) => j.push_str(t),
                        (None, None) => first = Some(t),
                        (None, Some(f)) => {
                            let mut j = bumpalo::collections::String::with_capacity_in(f.len() + t.len(), arena);
                            j.push_str(f);
                            j.push_str(t);
                            joined = Some(j);
                        }
                    }
                }
                _ => {}
            }
        }
        if let Some(at) = cut_at {
            self.diag(DiagnosticKind::LimitReached, at, format!("text longer than max_text_bytes ({max_bytes}) cut"));
        }
        match joined {
            Some(j) => j.into_bump_str(),
            None => first.unwrap_or(""),
        }
    }
}

/// The largest char boundary of `s` at or below `i`.
fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}
