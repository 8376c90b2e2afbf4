//! The forgiving, namespace-resolving pull reader the format state machines walk.
//!
//! Owns: turning quick-xml's raw events into a balanced stream of [`Event`]s —
//! every [`Event::Start`] is matched by exactly one [`Event::End`], even when the document
//! is not well-formed (mismatched or missing end tags, truncated bodies) — with element
//! names resolved to [`Ns`] and every recovery recorded as a [`Diagnostic`].
//!
//! Invariants:
//! - Zero-copy: names, attribute text and text chunks borrow from the input; only text that
//!   needed rewriting (references, CR normalization) is copied, into the arena.
//! - Balanced: Start/End pairs nest properly; after the root element closes, or at the end
//!   of input, the stream yields [`Event::Eof`] forever.
//! - Bounded: elements deeper than [`crate::Limits::max_depth`] are reported as
//!   [`Ns::Other`] without namespace processing; no recursion anywhere.
//! - Never fetches anything: a DOCTYPE is skipped; DTD-declared entities are never expanded.

use bumpalo::Bump;
use quick_xml::events::Event as QEvent;
use quick_xml::name::{NamespaceResolver, QName, ResolveResult};

use super::entities::{self, Resolved};
use super::ns::Ns;
use crate::error::{Diagnostic, DiagnosticKind};

/// One event of the balanced stream.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    Start(Tag<'a>),
    End,
    /// A chunk of character data: text, CDATA content, or a resolved reference.
    /// Consecutive chunks belong to the same text run.
    Text(&'a str),
    Comment(&'a str),
    Pi { target: &'a str, data: &'a str },
    Eof,
}

/// A start tag (or an empty-element tag, which is followed by a synthetic End).
#[derive(Clone, Copy, Debug)]
pub struct Tag<'a> {
    pub ns: Ns,
    pub local: &'a str,
    pub qname: &'a str,
    /// Raw attribute text after the name, undecoded.
    pub attrs_raw: &'a str,
    /// Byte offset of the `<`.
    pub offset: usize,
}

impl<'a> Tag<'a> {
    /// The raw (undecoded) value of the first null-namespace attribute named `name`.
    pub fn raw_attr(&self, name: &str) -> Option<&'a str> {
        Attrs::new(self.attrs_raw).find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// The decoded value of the first null-namespace attribute named `name`.
    pub fn attr(&self, arena: &'a Bump, name: &str) -> Option<&'a str> {
        self.raw_attr(name).map(|raw| decode_attr_value(arena, raw))
    }

    /// All attributes, in document order, as `(qualified name, raw value)`.
    pub fn attrs(&self) -> Attrs<'a> {
        Attrs::new(self.attrs_raw)
    }
}

/// A lenient attribute scanner over raw tag text: quoted, unquoted and valueless values.
#[derive(Clone)]
pub struct Attrs<'a> {
    rest: &'a str,
}

impl<'a> Attrs<'a> {
    pub fn new(raw: &'a str) -> Self {
        Attrs { rest: raw }
    }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

impl<'a> Iterator for Attrs<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let s = self.rest.trim_start_matches([' ', '\t', '\n', '\r', '/']);
            if s.is_empty() {
                self.rest = s;
                return None;
            }
            let bytes = s.as_bytes();
            let name_end = bytes
                .iter()
                .position(|&b| is_ws(b) || b == b'=' || b == b'/' || b == b'>')
                .unwrap_or(bytes.len());
            if name_end == 0 {
                // A stray '=' or '>': skip one byte (ASCII, so a char boundary).
                self.rest = &s[1..];
                continue;
            }
            let name = &s[..name_end];
            let after = s[name_end..].trim_start_matches([' ', '\t', '\n', '\r']);
            if let Some(v) = after.strip_prefix('=') {
                let v = v.trim_start_matches([' ', '\t', '\n', '\r']);
                match v.as_bytes().first() {
                    Some(&q) if q == b'"' || q == b'\'' => {
                        let body = &v[1..];
                        match memchr::memchr(q, body.as_bytes()) {
                            Some(end) => {
                                self.rest = &body[end + 1..];
                                return Some((name, &body[..end]));
                            }
                            None => {
                                self.rest = "";
                                return Some((name, body));
                            }
                        }
                    }
                    _ => {
                        let end = v.bytes().position(is_ws).unwrap_or(v.len());
                        self.rest = &v[end..];
                        return Some((name, &v[..end]));
                    }
                }
            } else {
                self.rest = after;
                return Some((name, ""));
            }
        }
    }
}

/// Decodes an attribute value: references resolved (HTML named references too) and
/// literal TAB/LF/CR normalized to spaces, as XML attribute-value normalization does.
pub fn decode_attr_value<'a>(arena: &'a Bump, raw: &'a str) -> &'a str {
    if !raw.bytes().any(|b| b == b'&' || b == b'\t' || b == b'\n' || b == b'\r') {
        return raw;
    }
    let mut out = bumpalo::collections::String::with_capacity_in(raw.len(), arena);
    let mut rest = raw;
    while let Some(i) = rest.find(['&', '\t', '\n', '\r']) {
        out.push_str(&rest[..i]);
        let b = rest.as_bytes()[i];
        if b != b'&' {
            // CRLF counts once.
            out.push(' ');
            rest = if b == b'\r' && rest[i + 1..].starts_with('\n') { &rest[i + 2..] } else { &rest[i + 1..] };
            continue;
        }
        let after = &rest[i + 1..];
        match after.find(';').filter(|&j| j <= 40) {
            Some(j) => {
                match entities::resolve(&after[..j]) {
                    Resolved::Xml(c) | Resolved::Html(c, None) => out.push(c),
                    Resolved::Html(a, Some(b)) => {
                        out.push(a);
                        out.push(b);
                    }
                    Resolved::InvalidChar => out.push('\u{FFFD}'),
                    Resolved::Unknown => out.push_str(&rest[i..i + 2 + j]),
                }
                rest = &after[j + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.into_bump_str()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    BeforeRoot,
    InRoot,
    Done,
}

struct Open<'a> {
    qname: &'a str,
    /// Whether this element's namespace declarations were pushed on the resolver.
    resolved: bool,
}

/// The reader. Create one per document.
pub struct XmlReader<'a> {
    src: &'a str,
    arena: &'a Bump,
    reader: quick_xml::Reader<&'a [u8]>,
    resolver: NamespaceResolver,
    open: Vec<Open<'a>>,
    /// Synthetic End events still to deliver (empty elements, recovery).
    pending_ends: usize,
    phase: Phase,
    max_depth: usize,
    depth_reported: bool,
    /// Text recovered from an unclosed CDATA section, delivered before the final Ends.
    pending_text: Option<&'a str>,
    /// Diagnostics, in document order.
    pub diagnostics: Vec<Diagnostic>,
}

impl<'a> XmlReader<'a> {
    pub fn new(arena: &'a Bump, src: &'a str, max_depth: usize) -> Self {
        let mut reader = quick_xml::Reader::from_str(src);
        let config = reader.config_mut();
        config.check_end_names = false;
        config.allow_unmatched_ends = true;
        config.allow_dangling_amp = true;
        config.check_comments = false;
        config.expand_empty_elements = false;
        config.trim_text(false);
        let mut resolver = NamespaceResolver::default();
        resolver.set_max_namespace_bindings(4096);
        XmlReader {
            src,
            arena,
            reader,
            resolver,
            open: Vec::new(),
            pending_ends: 0,
            phase: Phase::BeforeRoot,
            max_depth: max_depth.clamp(1, u16::MAX as usize - 1),
            depth_reported: false,
            pending_text: None,
            diagnostics: Vec::new(),
        }
    }

    pub fn arena(&self) -> &'a Bump {
        self.arena
    }

    pub fn src(&self) -> &'a str {
        self.src
    }

    /// Current nesting depth (number of open elements).
    pub fn depth(&self) -> usize {
        self.open.len()
    }

    pub fn diag(&mut self, kind: DiagnosticKind, offset: usize, message: impl Into<String>) {
        let offset = offset.min(self.src.len());
        self.diagnostics.push(Diagnostic { kind, offset, message: message.into() });
    }

    /// Re-borrows a slice of an event (which borrows the input) with the input's lifetime.
    fn reborrow(&self, s: &str) -> &'a str {
        let base = self.src.as_ptr() as usize;
        let p = s.as_ptr() as usize;
        if p >= base && p + s.len() <= base + self.src.len() {
            let start = p - base;
            // Both ends are char boundaries of the input because `s` is a valid str inside it.
            self.src.get(start..start + s.len()).unwrap_or_else(|| self.arena.alloc_str(s))
        } else {
            self.arena.alloc_str(s)
        }
    }

    fn cow(&self, c: std::borrow::Cow<'a, str>) -> &'a str {
        match c {
            std::borrow::Cow::Borrowed(s) => s,
            std::borrow::Cow::Owned(s) => self.arena.alloc_str(&s),
        }
    }

    /// Namespace URI of an element's qualified name in the current scope ("" = null).
    pub fn element_ns_uri(&self, qname: &str) -> &'a str {
        match self.resolver.resolve_element(QName(qname)).0 {
            ResolveResult::Bound(ns) => self.arena.alloc_str(ns.0),
            _ => "",
        }
    }

    /// Namespace URI of an attribute's qualified name in the current scope ("" = null).
    pub fn attr_ns_uri(&self, qname: &str) -> &'a str {
        if qname == "xmlns" || qname.starts_with("xmlns:") {
            return "http://www.w3.org/2000/xmlns/";
        }
        if qname.starts_with("xml:") {
            return "http://www.w3.org/XML/1998/namespace";
        }
        match self.resolver.resolve_attribute(QName(qname)).0 {
            ResolveResult::Bound(ns) => self.arena.alloc_str(ns.0),
            _ => "",
        }
    }

    fn pop(&mut self) {
        if let Some(o) = self.open.pop() {
            if o.resolved {
                self.resolver.pop();
            }
        }
        if self.open.is_empty() && self.phase == Phase::InRoot {
            self.phase = Phase::Done;
            self.check_after_root();
        }
    }

    fn check_after_root(&mut self) {
        let pos = (self.reader.buffer_position() as usize).min(self.src.len());
        let rest = &self.src[pos..];
        let trimmed = rest.trim_start_matches([' ', '\t', '\n', '\r']);
        if !trimmed.is_empty() && !trimmed.starts_with("<!--") && !trimmed.starts_with("<?") {
            let off = pos + (rest.len() - trimmed.len());
            self.diag(DiagnosticKind::ContentAfterRoot, off, "content after the root element ignored");
        }
    }

    fn start(&mut self, e: &quick_xml::events::BytesStart<'a>, offset: usize) -> Tag<'a> {
        let qname = self.reborrow(e.name().0);
        let attrs_raw = self.reborrow(e.attributes_raw());
        let local = qname.rsplit_once(':').map_or(qname, |(_, l)| l);
        let ns = if self.open.len() >= self.max_depth {
            if !self.depth_reported {
                self.depth_reported = true;
                self.diag(DiagnosticKind::LimitReached, offset, "nesting deeper than max_depth: content ignored");
            }
            self.open.push(Open { qname, resolved: false });
            Ns::Other
        } else {
            if self.resolver.push(e).is_err() {
                self.diag(DiagnosticKind::LimitReached, offset, "too many namespace declarations");
            }
            self.open.push(Open { qname, resolved: true });
            match self.resolver.resolve_element(QName(qname)).0 {
                ResolveResult::Unbound => Ns::Null,
                ResolveResult::Bound(uri) => Ns::from_uri(uri.0),
                ResolveResult::Unknown(prefix) => {
                    let msg = format!("namespace prefix {prefix:?} is not declared");
                    self.diag(DiagnosticKind::UnboundPrefix, offset, msg);
                    Ns::UnboundPrefix
                }
            }
        };
        if self.phase == Phase::BeforeRoot {
            self.phase = Phase::InRoot;
        }
        Tag { ns, local, qname, attrs_raw, offset }
    }

    /// The next event of the balanced stream.
    pub fn next(&mut self) -> Event<'a> {
        loop {
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
            let offset = self.reader.buffer_position() as usize;
            let event = match self.reader.read_event() {
                Ok(ev) => ev,
                Err(err) => {
                    let at = (self.reader.error_position() as usize).min(self.src.len());
                    self.recover(err, at, offset);
                    continue;
                }
            };
            match event {
                QEvent::Start(e) => {
                    return Event::Start(self.start(&e, offset));
                }
                QEvent::Empty(e) => {
                    let tag = self.start(&e, offset);
                    self.pending_ends = 1;
                    return Event::Start(tag);
                }
                QEvent::End(e) => {
                    let name = e.name().0;
                    match self.open.iter().rposition(|o| o.qname == name) {
                        Some(i) => {
                            let closes = self.open.len() - i;
                            if closes > 1 {
                                let msg = format!("end tag </{name}> closes {} open elements", closes);
                                self.diag(DiagnosticKind::MismatchedEndTag, offset, msg);
                            }
                            self.pending_ends = closes;
                        }
                        None => {
                            let msg = format!("end tag </{name}> matches no open element; ignored");
                            self.diag(DiagnosticKind::MismatchedEndTag, offset, msg);
                        }
                    }
                }
                QEvent::Text(t) => {
                    if self.open.is_empty() {
                        continue;
                    }
                    let s = self.cow(t.xml10_content());
                    if !s.is_empty() {
                        return Event::Text(s);
                    }
                }
                QEvent::CData(t) => {
                    if self.open.is_empty() {
                        continue;
                    }
                    let s = self.cow(t.xml10_content());
                    if !s.is_empty() {
                        return Event::Text(s);
                    }
                }
                QEvent::GeneralRef(r) => {
                    if self.open.is_empty() {
                        continue;
                    }
                    let name = self.cow(r.into_inner());
                    return Event::Text(self.reference(name, offset));
                }
                QEvent::Comment(t) => {
                    if self.open.is_empty() {
                        continue;
                    }
                    return Event::Comment(self.cow(t.into_inner()));
                }
                QEvent::PI(p) => {
                    if self.open.is_empty() {
                        continue;
                    }
                    let raw = self.cow(p.into_inner());
                    let (target, data) = match raw.find([' ', '\t', '\n', '\r']) {
                        Some(i) => (&raw[..i], raw[i..].trim_start_matches([' ', '\t', '\n', '\r'])),
                        None => (raw, ""),
                    };
                    return Event::Pi { target, data };
                }
                QEvent::DocType(t) => {
                    if t.contains("<!ENTITY") {
                        self.diag(
                            DiagnosticKind::DoctypeIgnored,
                            offset,
                            "DOCTYPE entity declarations are not expanded",
                        );
                    }
                }
                QEvent::Decl(_) => {}
                QEvent::Eof => {
                    if !self.open.is_empty() {
                        let msg = format!("input ended with {} open elements", self.open.len());
                        self.diag(DiagnosticKind::UnclosedElement, self.src.len(), msg);
                        self.pending_ends = self.open.len();
                    } else {
                        self.phase = Phase::Done;
                    }
                    // From here on the reader yields nothing new.
                    self.phase_after_eof();
                }
            }
        }
    }

    fn phase_after_eof(&mut self) {
        if self.open.is_empty() {
            self.phase = Phase::Done;
        }
        // Point quick-xml at the end so further reads yield Eof.
        self.reader = quick_xml::Reader::from_str("");
    }

    fn reference(&mut self, name: &'a str, offset: usize) -> &'a str {
        match entities::resolve(name) {
            Resolved::Xml(c) => match c {
                '<' => "<",
                '>' => ">",
                '&' => "&",
                '"' => "\"",
                '\'' => "'",
                c => self.alloc_chars(c, None),
            },
            Resolved::Html(a, b) => {
                self.diag(DiagnosticKind::HtmlEntity, offset, format!("&{name}; is not an XML entity; read as HTML"));
                self.alloc_chars(a, b)
            }
            Resolved::InvalidChar => {
                self.diag(DiagnosticKind::InvalidCharacter, offset, format!("&{name}; is not an XML character"));
                "\u{FFFD}"
            }
            Resolved::Unknown => {
                self.diag(DiagnosticKind::UnknownEntity, offset, format!("&{name}; is not defined; kept literally"));
                // The input holds "&name;" right at offset.
                self.src.get(offset..offset + name.len() + 2).filter(|s| s.starts_with('&')).unwrap_or_else(|| {
                    let s = bumpalo::format!(in self.arena, "&{};", name);
                    s.into_bump_str()
                })
            }
        }
    }

    fn alloc_chars(&self, a: char, b: Option<char>) -> &'a str {
        let mut s = bumpalo::collections::String::new_in(self.arena);
        s.push(a);
        if let Some(b) = b {
            s.push(b);
        }
        s.into_bump_str()
    }

    fn recover(&mut self, err: quick_xml::Error, at: usize, offset: usize) {
        use quick_xml::errors::SyntaxError;
        let msg = err.to_string();
        match err {
            quick_xml::Error::Syntax(SyntaxError::UnclosedCData) if !self.open.is_empty() => {
                // Keep the rest of the input as the CDATA section's text.
                let start = self.src[at.min(self.src.len())..].find("<![CDATA[").map(|i| at + i + 9);
                self.diag(DiagnosticKind::MalformedXml, at, msg);
                if let Some(start) = start {
                    let text = &self.src[start.min(self.src.len())..];
                    self.reader = quick_xml::Reader::from_str("");
                    self.pending_text = Some(text);
                }
            }
            _ => {
                self.diag(DiagnosticKind::MalformedXml, at, msg);
            }
        }
        // A syntax error at the end of input leaves nothing more to read; quick-xml then
        // reports Eof, which closes open elements. If the reader did not advance, stop.
        if self.reader.buffer_position() as usize == offset && self.pending_text.is_none() {
            self.reader = quick_xml::Reader::from_str("");
        }
    }
}
