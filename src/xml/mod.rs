//! Stage 3: XML. A forgiving pull reader with namespace resolution ([`reader`]) over a
//! zero-copy tokenizer (`scan`: memchr/SWAR over the decoded `&str`, quick-xml for the rare
//! constructs and as its differential oracle; quick-xml's `NamespaceResolver` keeps the
//! scopes), known namespaces ([`ns`]), references ([`entities`]), and the few walking
//! primitives every format state machine uses ([`XmlReader::next_child`],
//! [`XmlReader::child_text`], [`XmlReader::skip`]).
//!
//! Invariant: a walker that receives `Some(tag)` from `next_child` consumes that child
//! completely (through `child_text`, `skip`, or its own `next_child` loop) before asking for
//! the next one. Walking is iterative; stack depth does not grow with document depth.
//!
//! ## Forgiving XML
//!
//! Like an XML5 parser, the reader never gives up on a document: it reads what can be read
//! and records each repair as a [`crate::Diagnostic`] (kind + byte offset into the decoded
//! text). A namespace-well-formed document gets no diagnostic at all, so a caller can tell
//! a clean feed from a repaired one.
//!
//! | input | what is read | diagnostic |
//! |---|---|---|
//! | `&nbsp;`, `&eacute;` … (HTML named references) | the character(s) | `html_entity` |
//! | `&foo;`, a reference to a DTD-declared entity | `&foo;` literally | `unknown_entity` |
//! | `AT&T`, `a & b` | `&` literally | `bare_ampersand` |
//! | `&#0;`, `&#xD800;` | U+FFFD | `invalid_character` |
//! | NUL and C0 controls other than TAB/LF/CR (text, CDATA, attributes, comments) | U+FFFD | `invalid_character` |
//! | `<item><title>a</item>` | the end tag closes the elements opened inside it | `mismatched_end_tag` |
//! | an end tag matching no open element, `</a junk>` | ignored / the name up to the space | `mismatched_end_tag` / `malformed_xml` |
//! | a body truncated anywhere | every open element is closed: entries completed before the cut are kept, the partial one too (its last value may be cut) | `unclosed_element` (plus `malformed_xml` when cut inside a tag) |
//! | unclosed `<![CDATA[` | the rest of the input is its text | `malformed_xml` |
//! | content after the root element | ignored | `content_after_root` |
//! | text before the root element | ignored | `malformed_xml` |
//! | `<foo:bar>` or `foo:x="…"` with `foo` undeclared | element in no known namespace; attribute in the null namespace | `unbound_prefix` |
//! | `a < b`, `x<3`, `c<d</a>`, `<? no` (a `<` that starts no tag) | `<` as text | `malformed_xml` |
//! | `<!bogus …>`, a tag with an unclosed quote | skipped to the next `>` | `malformed_xml` |
//! | `href=x` (unquoted), `checked` (no value) | the value (`""` when none) | `malformed_xml` |
//! | `x="1" x="2"` | the first | `malformed_xml` |
//!
//! ## Safety and limits
//!
//! feedmill is built to read untrusted documents in bulk:
//!
//! - **Nothing outside the document is ever read.** DOCTYPEs are skipped: external DTDs,
//!   external entities (`SYSTEM`/`PUBLIC`, `file:` or otherwise) and parameter entities are
//!   never fetched or opened.
//! - **Bounded entity expansion.** With the web recovery rules on
//!   ([`XmlReader::set_recover`]), general entities of the document's own internal subset
//!   are expanded as character data under a budget ([`entities::InternalEntities`]: all
//!   expansions together at most the document's size, nested at most 16 deep); external
//!   and parameter entities never are. Otherwise nothing declared in a DOCTYPE is expanded:
//!   a reference is kept literally (`&name;`) with an `unknown_entity` diagnostic, and the
//!   DOCTYPE gets a `doctype_ignored` diagnostic. An entity-expansion bomb ("billion
//!   laughs", quadratic blowup) costs at most one more pass over the document's size.
//! - **Bounded work and memory.** Parsing is a single forward pass, linear in the input,
//!   with no recursion (document depth never grows the stack). After a syntax error the
//!   reader always resumes past the error, so it cannot loop. Memory is the input, an arena
//!   bounded by a small multiple of the input, and the limits below.
//! - **No panics, no aborts** on any input: malformed markup is repaired with a diagnostic;
//!   invalid byte sequences become U+FFFD.
//!
//! Limits ([`crate::Limits`], set through [`crate::Options`]); exceeding one keeps what was
//! read and adds a `limit_reached` diagnostic, except `max_input_bytes`:
//!
//! | limit | default | when exceeded |
//! |---|---|---|
//! | `max_input_bytes` | 256 MiB | typed error `Error::InputTooLarge` (checked on the raw body and on the decoded text) |
//! | `max_depth` | 256 (capped at 65 534) | elements nested deeper are skipped with their content |
//! | `max_entries` | 100 000 | further entries are skipped |
//! | `max_text_bytes` | 16 MiB | a longer text value is cut at a char boundary; a longer attribute value is ignored, with the attributes after it on that element |
//! | `max_attributes` | 256 per element | further attributes are ignored |
//! | `max_html_attributes` | 256 per tag in escaped HTML (duplicates counted) | the HTML is read only up to the first `<` that could open a tag with more attributes (an over-approximation past what the exact fast tree builder read); without a cap html5ever's duplicate-attribute check is quadratic in a tag's attributes |
//! | `max_namespace_bindings` | 128 in scope | further `xmlns` declarations are ignored (this also bounds prefix-resolution cost) |
//! | `max_diagnostics` | 1 000 per document | further diagnostics are counted, not recorded |

pub mod entities;
pub mod ns;
pub mod reader;
mod scan;

pub use ns::Ns;
pub use reader::{Event, Tag, XmlReader};

use crate::error::DiagnosticKind;
use crate::simd::block;

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
        self.consume_element(|_, _| {});
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
    /// is cut at a char boundary, with a [`DiagnosticKind::LimitReached`] diagnostic.
    pub fn child_text(&mut self, max_bytes: usize) -> &'a str {
        let mut text = CappedText::new(self.arena(), max_bytes);
        self.consume_element(|reader, t| text.push(t, reader.last_offset()));
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
        match self.joined {
            Some(j) => j.into_bump_str(),
            None => self.first.unwrap_or(""),
        }
    }
}

/// End-of-line normalization, as both XML (§2.11) and the HTML tokenizer's input
/// preprocessing define it: CRLF and lone CR become LF. Borrowed when `s` has no CR;
/// otherwise rewritten into the arena.
pub fn normalize_newlines<'a>(arena: &'a bumpalo::Bump, s: &'a str) -> &'a str {
    let Some(first) = memchr::memchr(b'\r', s.as_bytes()) else {
        return s;
    };
    let mut out = bumpalo::collections::String::with_capacity_in(s.len(), arena);
    out.push_str(&s[..first]);
    let mut rest = &s[first..];
    while let Some(p) = memchr::memchr(b'\r', rest.as_bytes()) {
        out.push_str(&rest[..p]);
        out.push('\n');
        rest = &rest[p + 1..];
        if rest.starts_with('\n') {
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    out.into_bump_str()
}

/// Index of the first byte equal to one of `needles` at or after `from`, looking only at
/// the next 16 bytes (one block compare, or 8 at a time (SWAR) near the end of the input):
/// `Err(i)` when none is there, `i` being the first index not looked at. For the short gaps
/// of markup (indentation between tags, the text between references, tag names) this is
/// cheaper than starting a vector search, which the caller then runs from `i`.
#[inline(always)]
pub(crate) fn find_near<const N: usize>(
    bytes: &[u8],
    from: usize,
    needles: [u8; N],
) -> Result<usize, usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    if let Some(b) = block::at(bytes, from) {
        return match block::eq_mask(b, needles) {
            0 => Err(from + block::BLOCK),
            mask => Ok(from + mask.trailing_zeros() as usize),
        };
    }
    let mut i = from;
    for _ in 0..2 {
        let Some(word) = bytes.get(i..i + 8) else { break };
        let x = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        let mut found = 0;
        for n in needles {
            // A byte of y is zero where x holds n; the lowest flagged byte is always a true
            // match (borrows only flag bytes above a true one).
            let y = x ^ (LO * n as u64);
            found |= y.wrapping_sub(LO) & !y & HI;
        }
        if found != 0 {
            return Ok(i + (found.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    Err(i)
}

/// Index of the first occurrence of the three-byte `terminator` (`]]>`, `-->`) in `hay`.
/// Searches for the first byte and checks the two after it: cheaper than building a memmem
/// searcher per call, which is what these short, frequent searches would otherwise pay. The
/// first byte, not the `>`: CDATA sections mostly hold HTML, full of `>` and nearly free of
/// `]`, so the search rarely stops before the end.
pub(crate) fn find_terminator(hay: &[u8], terminator: &[u8; 3]) -> Option<usize> {
    memchr::memchr_iter(terminator[0], hay)
        .find(|&i| hay.get(i + 1) == Some(&terminator[1]) && hay.get(i + 2) == Some(&terminator[2]))
}

/// The largest char boundary of `s` at or below `i`.
pub(crate) fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    #[test]
    fn find_terminator_agrees_with_a_plain_search() {
        let mut state = 0x6a09_e667_f3bc_c909u64;
        for _ in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 24) as usize;
            let hay: Vec<u8> = (0..len)
                .map(|k| [b']', b'>', b'-', b'a'][((state >> (2 * k)) % 4) as usize])
                .collect();
            for t in [b"]]>", b"-->"] {
                let naive = hay.windows(3).position(|w| w == t);
                assert_eq!(super::find_terminator(&hay, t), naive, "{hay:?} {t:?}");
            }
        }
    }

    #[test]
    fn find_near_agrees_with_a_plain_search() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 40) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|k| [b'a', b'<', b'&', 0x80, 0xff, b'\r'][((state >> (k % 60)) % 6) as usize])
                .collect();
            let from = if len == 0 { 0 } else { (state >> 7) as usize % len };
            let naive =
                bytes[from..].iter().position(|&b| b == b'<' || b == b'&').map(|i| from + i);
            match super::find_near(&bytes, from, [b'<', b'&']) {
                Ok(i) => assert_eq!(Some(i), naive, "{bytes:?} from {from}"),
                Err(i) => {
                    assert!(i >= from && i <= bytes.len());
                    assert!(
                        naive.is_none_or(|n| n >= i),
                        "{bytes:?} from {from}: missed {naive:?}, stopped at {i}"
                    );
                }
            }
        }
    }
}
