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
    /// Borrowed from the input when the content is a single chunk.
    pub fn child_text(&mut self, max_bytes: usize) -> &'a str {
        let arena = self.arena();
        let mut first: Option<&'a str> = None;
        let mut joined: Option<bumpalo::collections::String<'a>> = None;
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
                Event::Text(t) if depth == 0 => match (&mut joined, first) {
                    (Some(j), _) => {
                        if j.len() + t.len() <= max_bytes {
                            j.push_str(t)
                        }
                    }
                    (None, None) => first = Some(t),
                    (None, Some(f)) => {
                        let mut j = bumpalo::collections::String::with_capacity_in(f.len() + t.len(), arena);
                        j.push_str(f);
                        if j.len() + t.len() <= max_bytes {
                            j.push_str(t);
                        }
                        joined = Some(j);
                    }
                },
                _ => {}
            }
        }
        let text = match joined {
            Some(j) => j.into_bump_str(),
            None => first.unwrap_or(""),
        };
        if text.len() > max_bytes {
            let mut cut = max_bytes;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            return &text[..cut];
        }
        text
    }
}
