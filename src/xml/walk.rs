//! The walking primitives every format state machine uses on the reader's balanced event
//! stream: the next child element ([`XmlReader::next_child`]), an element's own text
//! ([`XmlReader::child_text`], capped at a byte limit and borrowed when it is one chunk),
//! and skipping an element ([`XmlReader::skip`]).

use super::bytes::floor_char_boundary;
use super::reader::{Event, Tag, XmlReader};
use crate::error::DiagnosticKind;

impl<'a> XmlReader<'a> {
    /// The next child element of the element being walked, or `None` at its end tag.
    /// Text, comments and processing instructions between children are skipped.
    pub fn next_child(&mut self) -> Option<Tag<'a>> {
        loop {
            self.skip_indentation();
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
            self.skip_indentation();
            match self.next() {
                Event::Start(_) => depth += 1,
                Event::End if depth == 0 => return,
                Event::End => depth -= 1,
                Event::Eof => return,
                Event::Text(_) | Event::Comment(_) | Event::Pi { .. } => {}
            }
        }
    }

    /// Consumes the rest of the current element through its end tag, handing every text
    /// chunk that is a direct child of it to `on_text` (with the reader, for diagnostics).
    fn consume_element(&mut self, mut on_text: impl FnMut(&mut Self, &'a str)) {
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
                Event::Text(t) if depth == 0 => on_text(self, t),
                _ => {}
            }
        }
    }

    /// The current element's child text content (its Text/CDATA children, concatenated;
    /// descendants' text is not included), consuming the element through its end tag.
    /// Borrowed from the input when the content is a single chunk. Text beyond `max_bytes`
    /// is cut at a char boundary, with a [`DiagnosticKind::LimitReached`] diagnostic. With
    /// the recovery rules on, a text that is wholly UTF-8 decoded twice is read as decoded
    /// once (`double_utf8`: [`super::entities::undo_double_utf8_in`]; counted in
    /// [`Self::double_utf8`]).
    pub fn child_text(&mut self, max_bytes: usize) -> &'a str {
        let mut text = CappedText::new(self.arena(), max_bytes);
        match self.text_then_end(max_bytes) {
            // One chunk within the cap: what the general path would keep (an empty text is
            // no chunk there, and `finish` reads either as "").
            Some(t) => text.first = Some(t),
            None => self.consume_element(|reader, t| text.push(t, reader.last_offset())),
        }
        text.finish(self)
    }
}

impl<'a> XmlReader<'a> {
    /// Like [`Self::child_text`], but stops at the current element's first child element:
    /// returns the child text read before it and that child's start tag (the reader is then
    /// inside the child), or the whole child text and `None` when the element has no child
    /// element (the element is then consumed through its end tag).
    pub fn child_text_or_first_child(&mut self, max_bytes: usize) -> (&'a str, Option<Tag<'a>>) {
        let mut text = CappedText::new(self.arena(), max_bytes);
        let mut child = None;
        loop {
            match self.next() {
                Event::Start(tag) => {
                    child = Some(tag);
                    break;
                }
                Event::End | Event::Eof => break,
                Event::Text(t) => text.push(t, self.last_offset()),
                Event::Comment(_) | Event::Pi { .. } => {}
            }
        }
        (text.finish(self), child)
    }
}

/// Text chunks joined up to `max` bytes: borrowed from the input while there is one chunk,
/// copied once into the arena when there are more; past `max` the text is cut at a char
/// boundary and the offset of the chunk that was cut is kept for the diagnostic.
struct CappedText<'a> {
    arena: &'a bumpalo::Bump,
    max: usize,
    first: Option<&'a str>,
    joined: Option<bumpalo::collections::String<'a>>,
    cut_at: Option<usize>,
}

impl<'a> CappedText<'a> {
    fn new(arena: &'a bumpalo::Bump, max: usize) -> Self {
        CappedText { arena, max, first: None, joined: None, cut_at: None }
    }

    /// Appends chunk `t`, read at `offset`; nothing once the text was cut.
    #[inline]
    fn push(&mut self, t: &'a str, offset: usize) {
        if self.cut_at.is_some() {
            return;
        }
        let so_far = self.joined.as_ref().map_or(self.first.map_or(0, str::len), |j| j.len());
        let t = if so_far + t.len() > self.max {
            self.cut_at = Some(offset);
            &t[..floor_char_boundary(t, self.max - so_far)]
        } else {
            t
        };
        match (&mut self.joined, self.first) {
            (Some(j), _) => j.push_str(t),
            (None, None) => self.first = Some(t),
            (None, Some(f)) => {
                let mut j =
                    bumpalo::collections::String::with_capacity_in(f.len() + t.len(), self.arena);
                j.push_str(f);
                j.push_str(t);
                self.joined = Some(j);
            }
        }
    }

    /// The text; records a [`DiagnosticKind::LimitReached`] diagnostic on `reader` if it
    /// was cut.
    fn finish(self, reader: &mut XmlReader<'a>) -> &'a str {
        if let Some(at) = self.cut_at {
            let max = self.max;
            reader.diag(
                DiagnosticKind::LimitReached,
                at,
                format!("text longer than max_text_bytes ({max}) cut"),
            );
        }
        let t = match self.joined {
            Some(j) => j.into_bump_str(),
            None => self.first.unwrap_or(""),
        };
        if reader.recover && super::entities::may_be_double_utf8(t) {
            if let Some(once) = super::entities::undo_double_utf8_in(self.arena, t) {
                reader.double_utf8 += 1;
                return once;
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `child_text` without the one-step path ([`XmlReader::text_then_end`]): the oracle.
    fn child_text_by_events<'a>(r: &mut XmlReader<'a>, max_bytes: usize) -> &'a str {
        let mut text = CappedText::new(r.arena(), max_bytes);
        r.consume_element(|reader, t| text.push(t, reader.last_offset()));
        text.finish(r)
    }

    /// Everything observable after reading the first `<t>`'s (or `<n:t>`'s) child text in
    /// `doc`, with the one-step path or without: the text, `last_offset`, the rest of the
    /// event stream with each event's offset, the diagnostics.
    fn observe(doc: &str, max_bytes: usize, one_step: bool) -> String {
        let arena = bumpalo::Bump::new();
        let mut r = XmlReader::new(&arena, doc, 64);
        r.set_recover(true);
        let base = r.track_xml_base();
        let mut out = String::new();
        let mut took = false;
        for _ in 0..10_000 {
            let ev = r.next();
            out.push_str(&format!("{ev:?}@{};", r.last_offset()));
            match ev {
                Event::Eof => break,
                Event::Start(tag) if !took && tag.local == "t" => {
                    took = true;
                    let t = if one_step {
                        r.child_text(max_bytes)
                    } else {
                        child_text_by_events(&mut r, max_bytes)
                    };
                    out.push_str(&format!("TEXT[{t}]@{};", r.last_offset()));
                }
                _ => {}
            }
            out.push_str(&format!("base={:?};", base.current()));
        }
        format!("{out}\n{:?}", r.diagnostics)
    }

    #[track_caller]
    fn same(doc: &str, max_bytes: usize) {
        assert_eq!(observe(doc, max_bytes, true), observe(doc, max_bytes, false), "{doc:?}");
    }

    #[test]
    fn one_step_child_text_matches_the_event_path() {
        let contents = [
            "",
            "plain",
            "  spaced  ",
            "caf\u{e9} \u{c3}\u{a9}t\u{c3}\u{a9}",
            "a &amp; b",
            "&#x41;",
            "a\r\nb",
            "x<![CDATA[<y>]]>z",
            "<![CDATA[]]>",
            "a<!--c-->b",
            "a<?pi data?>b",
            "a<b>inner</b>c",
            "<b/>",
            "a<b>",
            "a</b>c",
            "a > b ]]> c",
            "a\"b'c",
            "a<",
            "a< b",
        ];
        let ends = [
            "</t>",
            "</t >",
            "</t\n>",
            "</n:t>",
            "</T>",
            "</t2>",
            "</ t>",
            "</t",
            "</",
            "<",
            "",
            "</t a='>'>",
            "</r>",
        ];
        for c in contents {
            for e in ends {
                for open in ["<t>", "<n:t xmlns:n='urn:n'>", "<t xml:base='http://b/'>"] {
                    let e = if open.starts_with("<n:") {
                        e.replace("</t", "</n:t")
                    } else {
                        e.to_owned()
                    };
                    let doc =
                        format!("<r xml:base='http://a/'><x/>{open}{c}{e}<u>after</u>tail</r>");
                    for max in [0, 3, 1 << 20] {
                        same(&doc, max);
                        // Truncated at every byte after the start tag.
                        for cut in (doc.find(open).unwrap_or(0) + open.len())..doc.len() {
                            if doc.is_char_boundary(cut) {
                                same(&doc[..cut], max);
                            }
                        }
                    }
                }
            }
        }
        // Unusual names and states: quotes in the name, a control character in the input,
        // the root element itself, a BOM.
        for doc in [
            "<r><t\"a\">x</t\"a\"></r>",
            "<r><t>x\u{1}</t></r>",
            "<t>root</t>",
            "<t>root</t>trailing",
            "\u{feff}<t>bom</t>",
            "<r><t>a</t></r><t>b</t>",
        ] {
            same(doc, 1 << 20);
        }
    }

    #[test]
    fn one_step_child_text_matches_on_random_documents() {
        let pieces = [
            "<t>",
            "</t>",
            "<n:t xmlns:n='u'>",
            "</n:t>",
            "text",
            " ",
            "&amp;",
            "&bogus;",
            "\r",
            "<![CDATA[c]]>",
            "<!--k-->",
            "<?p?>",
            "<b>",
            "</b>",
            "<e/>",
            "</r>",
            "<",
            ">",
            "\u{e9}",
        ];
        let mut rand = crate::test_rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..3000 {
            let mut doc = String::from("<r>");
            for _ in 0..(rand() % 12) {
                doc.push_str(pieces[(rand() % pieces.len() as u64) as usize]);
            }
            doc.push_str("<t>v</t>");
            same(&doc, 1 << 20);
            same(&doc, 2);
        }
    }
}
