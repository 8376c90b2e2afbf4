//! The forgiving, namespace-resolving pull reader the format state machines walk.
//!
//! Owns: turning the tokenizer's raw tokens (`super::scan`) into a balanced stream of
//! [`Event`]s —
//! every [`Event::Start`] is matched by exactly one [`Event::End`], even when the document
//! is not well-formed (mismatched or missing end tags, truncated bodies) — with element
//! names resolved to [`Ns`], XML5-style recovery from malformed markup, and every recovery
//! recorded as a [`Diagnostic`] whose offset is a byte offset into the input.
//!
//! Invariants:
//! - Zero-copy: names, attribute text and text chunks borrow from the input; only text that
//!   needed rewriting (references, CR normalization, forbidden control characters) is
//!   copied, into the arena. The clean path does no per-event heap allocation (a tag with
//!   attributes gets its list of `(name, raw value)` in the arena); its extra per-byte work
//!   is one vectorizable scan of the whole input for forbidden C0 controls (done once, in
//!   [`XmlReader::with_limits`]), a search for `<` in each tag, and one scan of the
//!   attribute text of tags that have attributes (quoting, duplicates, references), which
//!   also lists them: attribute lookups do not scan the tag text again.
//! - Namespaces: quick-xml's `NamespaceResolver` keeps the bindings; what a prefix (or no
//!   prefix) resolves to is cached until a tag that may declare namespaces opens or closes,
//!   and only such a tag updates the resolver's level, so the usual element costs no
//!   resolver call at all.
//! - Balanced: Start/End pairs nest properly; after the root element closes, or at the end
//!   of input, the stream yields [`Event::Eof`] forever.
//! - Progress: every token consumes input or is `Eof`; after a construct that cannot be read
//!   (quick-xml's error for it) the reader resumes strictly after the failed position, so
//!   the reader always terminates, in time linear in the input.
//! - Text runs are decoded in one pass: a run with no `&` or CR is borrowed as is; otherwise
//!   references are resolved and line ends normalized into one arena string, each repair
//!   diagnosed at its own offset.
//! - Clean documents are silent: a namespace-well-formed document within the limits yields
//!   no diagnostic (a DOCTYPE with entity declarations, whose entities are not expanded,
//!   excepted).
//! - Bounded: at most [`crate::Limits::max_depth`] elements are open at once (deeper
//!   elements are skipped with their content), at most `max_attributes` attributes and
//!   `max_namespace_bindings` bindings are considered, at most `max_diagnostics`
//!   diagnostics are kept; no recursion anywhere.
//! - Never fetches or reads anything: a DOCTYPE is skipped, except that with the recovery
//!   rules on the general entities of its internal subset are read and expanded under a
//!   budget; no external entity is ever expanded (a reference to one is kept literally).
//!
//! Layout, lowest first: `tag` the start tag, its attribute scan and attribute value decoding;
//! `text` the forbidden-control scan and reference boundaries of text runs; `base` the
//! `xml:base` scopes; `state` the [`XmlReader`] struct, its [`Event`]s, constructors and
//! diagnostics; `scope` namespace resolution (and the `well_known_prefix` recovery); `decode`
//! character data and references; `element` start and end tags (and `xml:base` scopes); this
//! file the event loop ([`XmlReader::next`]) and the recovery from constructs the tokenizer
//! could not read.
//!
//! [`Ns`]: crate::xml::Ns
//! [`Diagnostic`]: crate::Diagnostic

mod base;
mod decode;
mod element;
mod scope;
mod state;
mod tag;
#[cfg(test)]
mod tests;
mod text;

pub(crate) use base::BaseScopes;
pub use state::{Event, XmlReader};
pub use tag::{decode_attr_value, Tag};
// Used inside the reader only; public for the crate's tests and the `internals` feature.
#[cfg(any(test, feature = "internals"))]
pub use tag::Attrs;
#[cfg(any(test, feature = "internals"))]
pub use text::find_forbidden_control;

use state::Phase;
use tag::is_ws;

use super::entities;
use super::scan::{self, is_name_start, Step, Token};
use crate::error::DiagnosticKind;

impl<'a> XmlReader<'a> {
    /// The next event of the balanced stream. Not an `Iterator`: the stream never ends
    /// (after the document it yields `Event::Eof` on every call).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Event<'a> {
        self.close_base_scopes();
        loop {
            debug_assert!(self.slow || !self.is_slow());
            if self.slow {
                if let Some(text) = self.pending_text.take() {
                    if !text.is_empty() {
                        return Event::Text(text);
                    }
                }
                if self.pending_ends > 0 {
                    self.pending_ends -= 1;
                    self.pop();
                    return Event::End;
                }
                if self.phase == Phase::Done {
                    return Event::Eof;
                }
                self.slow = self.is_slow();
            }
            let offset = self.pos();
            self.last_offset = offset;
            let token = match scan::next(self.src, &mut self.pos, self.arena) {
                Step::Token(token) => token,
                Step::Error { error, at } => {
                    self.recover(error, at.max(offset), offset);
                    continue;
                }
            };
            if self.slow && self.skip_depth > 0 {
                // Inside an element deeper than max_depth: count, deliver nothing.
                match token {
                    Token::Start { empty: false, .. } => self.skip_depth += 1,
                    Token::End(_) => self.skip_depth -= 1,
                    Token::Eof => {
                        self.skip_depth = 0;
                        self.on_eof();
                    }
                    _ => {}
                }
                continue;
            }
            match token {
                Token::Start { content, name_len, empty, lt } => {
                    if let Some(ev) = self.on_start(content, name_len, offset, empty, lt) {
                        return ev;
                    }
                }
                Token::End(name) => {
                    if let Some(ev) = self.on_end(name, offset) {
                        return ev;
                    }
                }
                Token::StrayLt => {
                    if self.open.is_empty() {
                        self.diag(
                            DiagnosticKind::MalformedXml,
                            offset,
                            "text outside the root element ignored",
                        );
                        continue;
                    }
                    self.diag(
                        DiagnosticKind::MalformedXml,
                        offset,
                        "'<' that starts no tag kept as text",
                    );
                    return Event::Text("<");
                }
                Token::Text { raw, special } => {
                    if self.open.is_empty() {
                        if raw.bytes().any(|b| !is_ws(b)) {
                            self.diag(
                                DiagnosticKind::MalformedXml,
                                offset,
                                "text outside the root element ignored",
                            );
                        }
                        continue;
                    }
                    let mut s = match special {
                        None => raw,
                        Some(first) => self.decode_text(raw, first, offset),
                    };
                    if self.has_controls {
                        s = self.clean_controls(s, raw, offset);
                    }
                    if !s.is_empty() {
                        return Event::Text(s);
                    }
                }
                Token::CData(raw) => {
                    if self.open.is_empty() {
                        self.diag(
                            DiagnosticKind::MalformedXml,
                            offset,
                            "CDATA section outside the root element ignored",
                        );
                        continue;
                    }
                    let mut s = self.normalize_eols(raw);
                    if self.has_controls {
                        s = self.clean_controls(s, raw, offset + 9);
                    }
                    if !s.is_empty() {
                        return Event::Text(s);
                    }
                }
                Token::Comment(mut s) => {
                    if self.open.is_empty() {
                        continue;
                    }
                    if self.has_controls {
                        s = self.clean_controls(s, s, offset + 4);
                    }
                    return Event::Comment(s);
                }
                Token::Pi(raw) => {
                    if self.open.is_empty() {
                        continue;
                    }
                    let raw = if self.has_controls {
                        self.clean_controls(raw, raw, offset + 2)
                    } else {
                        raw
                    };
                    let (target, data) = match raw.find([' ', '\t', '\n', '\r']) {
                        Some(i) => {
                            (&raw[..i], raw[i..].trim_start_matches([' ', '\t', '\n', '\r']))
                        }
                        None => (raw, ""),
                    };
                    return Event::Pi { target, data };
                }
                Token::DocType(t) => {
                    if self.recover && t.contains("<!ENTITY") {
                        self.internal_entities =
                            entities::InternalEntities::parse(self.arena, t, self.src.len());
                        if !self.internal_entities.is_empty() {
                            continue;
                        }
                    }
                    if t.contains("<!ENTITY") {
                        self.diag(
                            DiagnosticKind::DoctypeIgnored,
                            offset,
                            "DOCTYPE entity declarations are not expanded",
                        );
                    }
                }
                Token::Decl => {}
                Token::Eof => self.on_eof(),
            }
        }
    }

    /// Moves over the whitespace at the current position when a `<` follows it inside the
    /// root element: the text event it would be, which [`Self::next_child`] and
    /// [`Self::skip`] drop, is not made. The stream is otherwise the same (that text is
    /// never diagnosed, and the next event sets [`Self::last_offset`] again).
    ///
    /// NOTE: pretty-printed feeds put an indentation run before nearly every element; one
    /// block compare or two here cost less than reading it as a text event and dropping it.
    #[inline(always)]
    pub(crate) fn skip_indentation(&mut self) {
        if self.slow {
            return;
        }
        let bytes = self.src.as_bytes();
        let mut i = self.pos;
        for _ in 0..2 {
            let Some(b) = crate::simd::block::at(bytes, i) else { return };
            let other = !crate::simd::block::eq_mask(b, crate::xml::scan::WS) & 0xFFFF;
            if other != 0 {
                let n = other.trailing_zeros() as usize;
                if b[n] == b'<' {
                    self.pos = i + n;
                }
                return;
            }
            i += crate::simd::block::BLOCK;
        }
    }

    /// The common `<t>text</t>` read in one step: when the rest of the current element is
    /// one text run with nothing to decode (no reference, no CR) of at most `max_bytes`,
    /// or nothing, followed directly by the element's own end tag `</qname>`, consumes it
    /// through that end tag and returns the text (borrowed from the input). The reader is
    /// left as the [`Event::Text`] (when the text is not empty) and [`Event::End`] that
    /// [`Self::next`] would deliver leave it: same position, `last_offset` (the end tag),
    /// open elements and namespace scope. `None`, having consumed nothing, for anything
    /// else (markup or a reference in the text, an end tag with whitespace or another
    /// name, the end of input, a pending event, forbidden control characters in the input),
    /// which the caller then reads event by event.
    ///
    /// NOTE: the text run and the end tag are found by the tokenizer's own functions
    /// (`scan::plain_text`, `scan::tag_end`), so their extent is the general path's by
    /// construction; what this saves is the two dispatches of [`Self::next`] (~0.8 % of the
    /// library loop, where most child texts are this shape).
    #[inline]
    pub(crate) fn text_then_end(&mut self, max_bytes: usize) -> Option<&'a str> {
        if self.slow || self.has_controls {
            return None;
        }
        let qname = self.open.last()?.qname;
        let src = self.src;
        let bytes = src.as_bytes();
        let start = self.pos();
        let mut lt = start;
        let text = match bytes.get(start) {
            Some(b'<') => "",
            Some(_) => scan::plain_text(src, &mut lt)?,
            None => return None,
        };
        // `lt` is at the `<` after the text, or at the end of the input.
        if text.len() > max_bytes || bytes.get(lt + 1) != Some(&b'/') {
            return None;
        }
        let gt = scan::tag_end(bytes, lt + 2)?;
        if &src[lt + 2..gt] != qname {
            return None;
        }
        // What the End token's `next` does: base scopes closed at the current depth, the
        // end tag's offset recorded, the element popped.
        self.close_base_scopes();
        self.last_offset = lt;
        self.pos = gt + 1;
        self.pop();
        Some(text)
    }

    /// End of input: close what is open (truncated body), then yield Eof forever.
    fn on_eof(&mut self) {
        if let Some(inner) = self.open.last() {
            let msg = format!(
                "input ended with {} open element(s); innermost <{}> at byte {} closed",
                self.open.len(),
                inner.qname,
                inner.offset
            );
            self.diag(DiagnosticKind::UnclosedElement, self.src.len(), msg);
            self.pending_ends = self.open.len();
        } else {
            self.phase = Phase::Done;
        }
        self.slow = true;
        // From here on the tokenizer yields nothing new.
        self.reset_at(self.src.len());
    }

    /// Recovers from a quick-xml error at `at` (the start of the construct it could not read;
    /// `offset` is where the failed read started). Always resumes strictly after `offset`.
    fn recover(&mut self, err: quick_xml::Error, at: usize, offset: usize) {
        use quick_xml::errors::SyntaxError;
        let msg = err.to_string();
        let src = self.src;
        let rest = src.get(at..).unwrap_or("");
        // Just after the next `>` (a bogus comment or broken tag ends there, as in HTML).
        let after_gt = |from: usize| -> usize {
            memchr::memchr(b'>', &src.as_bytes()[from.min(src.len())..])
                .map_or(src.len(), |i| from + i + 1)
        };
        let resume = match err {
            quick_xml::Error::Syntax(SyntaxError::UnclosedCData)
                if rest.starts_with("<![CDATA[") =>
            {
                if self.open.is_empty() || self.skip_depth > 0 {
                    self.diag(DiagnosticKind::MalformedXml, at, msg);
                } else {
                    // Keep the rest of the input as the CDATA section's text.
                    self.diag(
                        DiagnosticKind::MalformedXml,
                        at,
                        "CDATA section not closed: the rest of the input is its text",
                    );
                    let text = &src[at + 9..];
                    let text = if self.has_controls {
                        self.clean_controls(text, text, at + 9)
                    } else {
                        text
                    };
                    self.pending_text = Some(text);
                    self.slow = true;
                }
                self.src.len()
            }
            quick_xml::Error::Syntax(SyntaxError::UnclosedComment) if rest.starts_with("<!--") => {
                // As in HTML and XML5: an unclosed comment runs to the end of the input.
                self.diag(DiagnosticKind::MalformedXml, at, msg);
                self.src.len()
            }
            quick_xml::Error::Syntax(SyntaxError::UnclosedPI | SyntaxError::UnclosedXmlDecl)
                if rest.starts_with("<?")
                    && !rest.as_bytes().get(2).is_some_and(|&b| is_name_start(b)) =>
            {
                // `<? no` in text: no PI target, so the `<` is text (XML5).
                if self.open.is_empty() || self.skip_depth > 0 {
                    self.diag(
                        DiagnosticKind::MalformedXml,
                        at,
                        "text outside the root element ignored",
                    );
                } else {
                    self.diag(
                        DiagnosticKind::MalformedXml,
                        at,
                        "'<' that starts no tag kept as text",
                    );
                    self.pending_text = Some(&src[at..at + 1]);
                    self.slow = true;
                }
                at + 1
            }
            quick_xml::Error::Syntax(_) => {
                // Broken tag (unclosed quote, `>` missing), bogus `<!…>`/`<?…`, unclosed DOCTYPE:
                // skip to the next `>`, or to the end when there is none (truncated input).
                self.diag(DiagnosticKind::MalformedXml, at, msg);
                after_gt(at + 1)
            }
            _ => {
                // Ill-formed constructs quick-xml has already read past.
                self.diag(DiagnosticKind::MalformedXml, at, msg);
                self.pos()
            }
        };
        let resume = resume.max(offset + 1).min(self.src.len());
        if resume != self.pos() {
            self.reset_at(resume);
        }
    }
}
