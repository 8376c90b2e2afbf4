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
//! Layout: this file holds the event stream and the reader's state machine; `tag` the start
//! tag and its attribute scan and decoding; `text` the forbidden-control scan and reference
//! boundaries used when decoding text runs.

use std::collections::HashSet;

use bumpalo::Bump;
use quick_xml::events::BytesStart;
use quick_xml::name::{Namespace, NamespaceResolver, QName, ResolveResult};

use super::entities::{self, Resolved};
use super::ns::Ns;
use super::scan::{self, is_name_start, LtCheck, Step, Token};
use crate::error::{Diagnostic, DiagnosticKind};
use crate::options::Limits;
use crate::simd::block;

mod tag;
#[cfg(test)]
mod tests;
mod text;

pub use tag::{decode_attr_value, Attrs, Tag};
use tag::{gaps_are_ws, is_ws, may_declare_namespaces};
pub use text::find_forbidden_control;
use text::{common_reference, copy_to_special, is_forbidden_control, is_ref_name, reference_end};

/// One event of the balanced stream.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// A start tag (an empty-element tag too, followed by a synthetic [`Event::End`]).
    Start(Tag<'a>),
    /// The end of the innermost open element (written, synthesized for an empty-element
    /// tag, or recovered for an unclosed element).
    End,
    /// A chunk of character data: text, CDATA content, or a resolved reference.
    /// Consecutive chunks belong to the same text run.
    Text(&'a str),
    /// A comment's text (between `<!--` and `-->`).
    Comment(&'a str),
    /// A processing instruction inside the root element (the XML declaration and PIs
    /// outside the root are not reported).
    Pi {
        /// The PI target (the name after `<?`).
        target: &'a str,
        /// The text after the target and its spaces, up to `?>`.
        data: &'a str,
    },
    /// The end of the document (open elements were closed by synthesized [`Event::End`]s
    /// first); yielded again on every later call.
    Eof,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    BeforeRoot,
    InRoot,
    Done,
}

struct Open<'a> {
    qname: &'a str,
    /// Byte offset of the start tag's `<`.
    offset: usize,
    /// Whether its start tag may have declared namespaces (closing it may change the
    /// bindings in scope).
    declares: bool,
}

/// What names resolve to in the current scope, so that the resolver is asked once per
/// name prefix and scope rather than once per element: most documents declare their
/// namespaces on the root and then open thousands of elements under them.
///
/// Invariant: every entry is what the resolver answers for the bindings in scope; the cache
/// is emptied whenever those may change (a tag that may declare namespaces is opened or
/// closed). `None`: a prefix with no binding.
#[derive(Default)]
struct NsCache<'a> {
    /// The namespace of unprefixed element names (the default namespace).
    default: Option<Ns>,
    /// Prefixes (the text before the first `:` of a name, as quick-xml reads it).
    prefixes: Vec<(&'a str, Option<Ns>)>,
    /// Tests only: ask the resolver every time and keep its level on every tag (the reader
    /// without these shortcuts: the oracle of the differential test).
    #[cfg(test)]
    disabled: bool,
}

impl NsCache<'_> {
    fn clear(&mut self) {
        self.default = None;
        self.prefixes.clear();
    }

    fn enabled(&self) -> bool {
        #[cfg(test)]
        return !self.disabled;
        #[cfg(not(test))]
        true
    }
}

/// The limits the reader itself enforces (a subset of [`Limits`]).
#[derive(Clone, Copy, Debug)]
struct ReaderLimits {
    max_depth: usize,
    max_attributes: usize,
    max_text_bytes: usize,
    max_diagnostics: usize,
}

/// The reader. Create one per document.
pub struct XmlReader<'a> {
    src: &'a str,
    arena: &'a Bump,
    /// The tokenizer's position in `src` (always a char boundary).
    pos: usize,
    resolver: NamespaceResolver,
    ns_cache: NsCache<'a>,
    open: Vec<Open<'a>>,
    /// Synthetic End events still to deliver (empty elements, recovery).
    pending_ends: usize,
    phase: Phase,
    limits: ReaderLimits,
    depth_reported: bool,
    /// Inside an element deeper than `max_depth`: how many of its elements are open.
    skip_depth: usize,
    /// Whether the input holds a forbidden C0 control character anywhere (decided once).
    has_controls: bool,
    /// Text recovered from an unclosed CDATA section, delivered before the final Ends.
    pending_text: Option<&'a str>,
    /// Offset of the token last read (for diagnostics raised by walkers).
    last_offset: usize,
    /// Scratch for the attributes of the tag being checked (copied into the arena as the
    /// tag's list) and duplicate-attribute detection (reused; no per-event allocation).
    attr_list: Vec<(&'a str, &'a str)>,
    attr_set: HashSet<&'a str>,
    /// Whether every attribute `check_attrs` listed last had a quoted value.
    attrs_quoted: bool,
    diagnostics_dropped: usize,
    /// Whether the web recovery rules apply ([`Self::set_recover`]).
    recover: bool,
    /// General entities of the internal DTD subset (recovery only; empty otherwise).
    internal_entities: entities::InternalEntities<'a>,
    /// Diagnostics, in document order.
    pub diagnostics: Vec<Diagnostic>,
}

impl<'a> XmlReader<'a> {
    /// A reader with the default [`Limits`] except `max_depth`.
    pub fn new(arena: &'a Bump, src: &'a str, max_depth: usize) -> Self {
        let limits = Limits { max_depth, ..Limits::default() };
        Self::with_limits(arena, src, &limits)
    }

    /// A reader enforcing `limits` (`max_depth`, `max_attributes`, `max_namespace_bindings`,
    /// `max_diagnostics`, and `max_text_bytes` for attribute values).
    pub fn with_limits(arena: &'a Bump, src: &'a str, limits: &Limits) -> Self {
        let mut resolver = NamespaceResolver::default();
        resolver.set_max_namespace_bindings(limits.max_namespace_bindings);
        XmlReader {
            src,
            arena,
            // A UTF-8 byte order mark is not content (quick-xml skips it the same way).
            pos: if src.starts_with('\u{FEFF}') { 3 } else { 0 },
            resolver,
            ns_cache: NsCache::default(),
            open: Vec::new(),
            pending_ends: 0,
            phase: Phase::BeforeRoot,
            limits: ReaderLimits {
                // quick-xml's resolver counts nesting in a u16.
                max_depth: limits.max_depth.clamp(1, u16::MAX as usize - 1),
                max_attributes: limits.max_attributes.max(1),
                max_text_bytes: limits.max_text_bytes,
                max_diagnostics: limits.max_diagnostics,
            },
            depth_reported: false,
            skip_depth: 0,
            has_controls: find_forbidden_control(src.as_bytes()).is_some(),
            pending_text: None,
            last_offset: 0,
            attr_list: Vec::new(),
            attr_set: HashSet::new(),
            attrs_quoted: true,
            diagnostics_dropped: 0,
            recover: false,
            internal_entities: entities::InternalEntities::default(),
            diagnostics: Vec::new(),
        }
    }

    /// Turns the reader's web recovery rules on or off (default off): UserLand's RSS 2.0
    /// namespaces read as the null namespace, C1-control character references read as
    /// windows-1252, general entities of the internal DTD subset expanded. Call before the
    /// first event.
    pub fn set_recover(&mut self, on: bool) {
        self.recover = on;
    }

    /// The per-parse arena the reader allocates decoded text in.
    pub fn arena(&self) -> &'a Bump {
        self.arena
    }

    /// Byte offset of the construct the reader read last (where a walker's diagnostic about
    /// the current value should point).
    pub fn last_offset(&self) -> usize {
        self.last_offset
    }

    /// Records a diagnostic. After `max_diagnostics`, one [`DiagnosticKind::LimitReached`]
    /// diagnostic is recorded and further ones are counted, not kept.
    pub fn diag(&mut self, kind: DiagnosticKind, offset: usize, message: impl Into<String>) {
        // Offsets are promised to be char boundaries of the text. A position that lands inside
        // a character (seen once from fuzzing, after recovery restarts around U+FFFD) is moved
        // back to the start of that character.
        let offset = super::floor_char_boundary(self.src, offset.min(self.src.len()));
        crate::error::record_capped(
            &mut self.diagnostics,
            &mut self.diagnostics_dropped,
            self.limits.max_diagnostics,
            kind,
            offset,
            message,
        );
    }

    /// Current position in `src`.
    fn pos(&self) -> usize {
        self.pos.min(self.src.len())
    }

    /// Moves the tokenizer to `pos` (rounded up to a char boundary).
    fn reset_at(&mut self, mut pos: usize) {
        pos = pos.min(self.src.len());
        while !self.src.is_char_boundary(pos) {
            pos += 1;
        }
        self.pos = pos;
    }

    /// The offset of `s` in `src`, when `s` borrows from it.
    fn offset_of(&self, s: &str) -> Option<usize> {
        let base = self.src.as_ptr() as usize;
        let p = s.as_ptr() as usize;
        (p >= base && p + s.len() <= base + self.src.len()).then(|| p - base)
    }

    fn normalize_eols(&self, s: &'a str) -> &'a str {
        super::normalize_newlines(self.arena, s)
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
        if let Some(closed) = self.open.pop() {
            if closed.declares {
                self.ns_cache.clear();
                self.resolver.set_level(self.resolver_level());
            } else if !self.ns_cache.enabled() {
                self.resolver.pop();
            }
        }
        if self.open.is_empty() && self.phase == Phase::InRoot {
            self.phase = Phase::Done;
            self.check_after_root();
        }
    }

    fn check_after_root(&mut self) {
        let pos = self.pos();
        let rest = self.src.get(pos..).unwrap_or("");
        let trimmed = rest.trim_start_matches([' ', '\t', '\n', '\r']);
        if !trimmed.is_empty() && !trimmed.starts_with("<!--") && !trimmed.starts_with("<?") {
            let off = pos + (rest.len() - trimmed.len());
            self.diag(
                DiagnosticKind::ContentAfterRoot,
                off,
                "content after the root element ignored",
            );
        }
    }

    /// Replaces forbidden C0 controls in `s` by U+FFFD (only called when the input has some).
    /// `raw` is the undecoded chunk `s` came from and `raw_offset` its offset, for the
    /// diagnostic.
    fn clean_controls(&mut self, s: &'a str, raw: &str, raw_offset: usize) -> &'a str {
        let Some(first) = find_forbidden_control(s.as_bytes()) else { return s };
        let count = s.bytes().filter(|&b| is_forbidden_control(b)).count();
        let at = raw_offset + find_forbidden_control(raw.as_bytes()).unwrap_or(first);
        let msg = format!("{count} control character(s) not allowed in XML replaced by U+FFFD");
        self.diag(DiagnosticKind::InvalidCharacter, at, msg);
        let mut out =
            bumpalo::collections::String::with_capacity_in(s.len() + 2 * count, self.arena);
        for c in s.chars() {
            if c.is_ascii() && is_forbidden_control(c as u8) {
                out.push('\u{FFFD}');
            } else {
                out.push(c);
            }
        }
        out.into_bump_str()
    }

    /// Opens the element of a start tag (`content` is the tag text after `<`, whose first
    /// `name_len` bytes are the name).
    fn start(&mut self, content: &'a str, name_len: usize, offset: usize) -> Tag<'a> {
        let qname = &content[..name_len];
        let mut attrs_raw = &content[name_len..];
        let mut attr_list: &'a [(&'a str, &'a str)] = &[];
        if attrs_raw.bytes().any(|b| !is_ws(b)) {
            attrs_raw = self.check_attrs(attrs_raw, offset);
            attr_list = self.arena.alloc_slice_copy(&self.attr_list);
        }
        // Names are short: plain loops, not vector searches. The prefix ends at the first
        // `:` (quick-xml's reading), the local name starts after the last.
        let q = qname.as_bytes();
        let first_colon = q.iter().position(|&b| b == b':');
        let local = match first_colon {
            None => qname,
            Some(first) => {
                let last = first + q[first..].iter().rposition(|&b| b == b':').unwrap_or(0);
                &qname[last + 1..]
            }
        };
        // The resolver's level is the number of open elements only where that matters: when a
        // scope that may declare namespaces opens (its bindings get that level) or closes
        // (they are dropped). A tag without declarations changes no binding, so it does not
        // touch the resolver at all.
        let declares = may_declare_namespaces(attrs_raw.as_bytes());
        if !declares {
            if !self.ns_cache.enabled() {
                self.resolver.set_level(self.resolver.level().saturating_add(1));
            }
        } else {
            self.ns_cache.clear();
            self.resolver.set_level(self.resolver_level());
            if self.push_scope(content, name_len, attrs_raw.len(), attr_list).is_err() {
                self.diag(
                    DiagnosticKind::LimitReached,
                    offset,
                    "max_namespace_bindings reached: declaration ignored",
                );
            }
        }
        self.open.push(Open { qname, offset, declares });
        let ns = match first_colon {
            None => self.default_ns(),
            Some(i) => match self.prefix_ns(qname, i) {
                Some(ns) => ns,
                None => {
                    let msg = format!("namespace prefix {:?} is not declared", &qname[..i]);
                    self.diag(DiagnosticKind::UnboundPrefix, offset, msg);
                    Ns::UnboundPrefix
                }
            },
        };
        if self.phase == Phase::BeforeRoot {
            self.phase = Phase::InRoot;
        }
        Tag { ns, local, qname, attrs_raw, offset, attr_list }
    }

    /// Opens a resolver scope for a start tag that may declare namespaces (`content` as in
    /// [`Self::start`]): what `resolver.push` of the tag does — the level up one, then each
    /// `xmlns` / `xmlns:p` attribute bound in document order, stopping at the first binding
    /// the resolver rejects.
    ///
    /// The bindings are read from `attr_list` (the attributes [`Self::check_attrs`] listed,
    /// which cover `kept_len` bytes of attribute text) when that list is exactly what
    /// quick-xml's attribute iterator reads from the tag text: nothing cut, every value
    /// quoted and only whitespace before each name. Then both scanners cut the same names
    /// (a name the reader's scanner ends at `/` or `>` gets no quoted value) and the same
    /// values (up to the matching quote), and whatever follows the last attribute — only
    /// whitespace and `/` — binds nothing for either. Otherwise quick-xml reads the tag.
    fn push_scope(
        &mut self,
        content: &'a str,
        name_len: usize,
        kept_len: usize,
        attr_list: &[(&'a str, &'a str)],
    ) -> Result<(), quick_xml::name::NamespaceError> {
        if !self.ns_cache.enabled()
            || !self.attrs_quoted
            || name_len + kept_len != content.len()
            || !gaps_are_ws(content, name_len, attr_list)
        {
            return self.resolver.push(&BytesStart::from_content(content, name_len));
        }
        self.resolver.set_level(self.resolver.level().saturating_add(1));
        for &(name, value) in attr_list {
            if let Some(prefix) = QName(name).as_namespace_binding() {
                self.resolver.add(prefix, Namespace(value))?;
            }
        }
        Ok(())
    }

    /// The resolver level of the current scope: the number of open elements (at most
    /// `max_depth`, which is below `u16::MAX`).
    fn resolver_level(&self) -> u16 {
        u16::try_from(self.open.len()).unwrap_or(u16::MAX)
    }

    /// The namespace of unprefixed element names in the current scope.
    fn default_ns(&mut self) -> Ns {
        if let Some(ns) = self.ns_cache.default.filter(|_| self.ns_cache.enabled()) {
            return ns;
        }
        let ns = match self.resolver.resolve_prefix(None, true) {
            ResolveResult::Bound(uri) => Ns::from_uri_recovering(uri.0, self.recover),
            ResolveResult::Unbound | ResolveResult::Unknown(_) => Ns::Null,
        };
        self.ns_cache.default = Some(ns);
        ns
    }

    /// The namespace of the prefixed name `qname`, whose prefix ends at its first `:` (at
    /// `colon`), in the current scope; `None` when the prefix has no binding.
    fn prefix_ns(&mut self, qname: &'a str, colon: usize) -> Option<Ns> {
        let prefix = &qname[..colon];
        if let Some(&(_, ns)) =
            self.ns_cache.prefixes.iter().find(|(p, _)| *p == prefix && self.ns_cache.enabled())
        {
            return ns;
        }
        let ns = match self.resolver.resolve_element(QName(qname)).0 {
            ResolveResult::Bound(uri) => Some(Ns::from_uri_recovering(uri.0, self.recover)),
            ResolveResult::Unbound => Some(Ns::Null),
            ResolveResult::Unknown(_) => None,
        };
        // Bounded like the bindings themselves: a document naming ever new prefixes does not
        // grow the cache past the number a scope can declare.
        if self.ns_cache.prefixes.len() < 64 {
            self.ns_cache.prefixes.push((prefix, ns));
        }
        ns
    }

    /// Checks a tag's attributes (unquoted or valueless values, duplicates, references,
    /// control characters, unbound prefixes, limits). Returns `attrs_raw`, cut before the
    /// first attribute over a limit; `self.attr_list` holds the attributes before the cut.
    fn check_attrs(&mut self, attrs_raw: &'a str, offset: usize) -> &'a str {
        let mut scan = Attrs::new(attrs_raw);
        self.attr_list.clear();
        if !self.attr_set.is_empty() {
            self.attr_set.clear();
        }
        let mut count = 0usize;
        // The prefixes `xmlns:*` attributes of this tag declare (filled on first use).
        let mut declared_here: Option<std::collections::HashSet<&'a str>> = None;
        self.attrs_quoted = true;
        loop {
            let before = scan.remaining();
            let Some(a) = scan.next_raw() else { break };
            count += 1;
            let cut_here = || &attrs_raw[..attrs_raw.len() - before.len()];
            if count > self.limits.max_attributes {
                let msg = format!(
                    "max_attributes ({}) reached: further attributes ignored",
                    self.limits.max_attributes
                );
                self.diag(DiagnosticKind::LimitReached, offset, msg);
                return cut_here();
            }
            if a.value.len() > self.limits.max_text_bytes {
                let msg = format!(
                    "attribute {:?} is longer than max_text_bytes ({}): it and the attributes after it are ignored",
                    a.name, self.limits.max_text_bytes
                );
                self.diag(DiagnosticKind::LimitReached, offset, msg);
                return cut_here();
            }
            let at = self.offset_of(a.name).unwrap_or(offset);
            self.attrs_quoted &= a.quoted == Some(true);
            match a.quoted {
                Some(true) => {}
                Some(false) => self.diag(
                    DiagnosticKind::MalformedXml,
                    at,
                    format!("value of attribute {:?} is not quoted", a.name),
                ),
                None => self.diag(
                    DiagnosticKind::MalformedXml,
                    at,
                    format!("attribute {:?} has no value", a.name),
                ),
            }
            // Duplicates: linear for the usual handful, a set beyond.
            let dup = if self.attr_list.len() < 16 {
                self.attr_list.iter().any(|&(n, _)| n == a.name)
            } else {
                if self.attr_set.is_empty() {
                    self.attr_set.extend(self.attr_list.iter().map(|&(n, _)| n));
                }
                !self.attr_set.insert(a.name)
            };
            self.attr_list.push((a.name, a.value));
            if dup {
                self.diag(
                    DiagnosticKind::MalformedXml,
                    at,
                    format!("duplicate attribute {:?}: the first is used", a.name),
                );
            }
            if let Some(colon) = a.name.bytes().position(|b| b == b':') {
                let prefix = &a.name[..colon];
                if prefix != "xmlns" && prefix != "xml" && self.prefix_ns(a.name, colon).is_none() {
                    // Declarations on this same tag are not pushed yet: look for them, all
                    // collected in one scan of the tag (the first time one is needed), so
                    // that many such attributes cost one pass, not one each.
                    let declared = declared_here
                        .get_or_insert_with(|| {
                            Attrs::new(attrs_raw)
                                .filter_map(|(n, _)| n.strip_prefix("xmlns:"))
                                .collect()
                        })
                        .contains(prefix);
                    if !declared {
                        let msg = format!(
                            "namespace prefix {prefix:?} of attribute {:?} is not declared",
                            a.name
                        );
                        self.diag(DiagnosticKind::UnboundPrefix, at, msg);
                    }
                }
            }
            if a.has_amp {
                self.check_attr_refs(a.value);
            }
            if self.has_controls {
                if let Some(i) = find_forbidden_control(a.value.as_bytes()) {
                    let at = self.offset_of(a.value).map_or(offset, |o| o + i);
                    let msg =
                        format!("control character in attribute {:?} replaced by U+FFFD", a.name);
                    self.diag(DiagnosticKind::InvalidCharacter, at, msg);
                }
            }
        }
        attrs_raw
    }

    /// Reports what [`decode_attr_value`] will do with each `&` of a raw attribute value.
    fn check_attr_refs(&mut self, value: &'a str) {
        let base = self.offset_of(value).unwrap_or(0);
        let mut from = 0;
        while let Some(i) = memchr::memchr(b'&', &value.as_bytes()[from..]) {
            let i = from + i;
            let after = &value[i + 1..];
            let at = base + i;
            match after.find(';').filter(|&j| j <= 40) {
                Some(j) => {
                    self.resolve_reported(&after[..j], at);
                    from = i + 2 + j;
                }
                None => {
                    self.diag(
                        DiagnosticKind::BareAmpersand,
                        at,
                        "'&' starts no reference; kept literally",
                    );
                    from = i + 1;
                }
            }
        }
    }

    /// Handles a start or empty-element tag (`lt`: what the tokenizer knows of `<` in it).
    /// `None`: nothing to deliver (skipped).
    fn on_start(
        &mut self,
        content: &'a str,
        name_len: usize,
        offset: usize,
        empty: bool,
        lt: Option<LtCheck>,
    ) -> Option<Event<'a>> {
        // A `<` that starts no tag (`a < b`, `x<3`, `c<d</a>`) is text, as in XML5.
        let lt = lt.unwrap_or_else(|| scan::lt_check(content));
        if lt == LtCheck::InValue {
            self.diag(DiagnosticKind::MalformedXml, offset, "'<' in an attribute value kept");
        }
        if lt == LtCheck::Stray {
            // The `<` (at `offset`) is text; read on right after it.
            let lt = offset;
            self.reset_at(lt + 1);
            if self.open.is_empty() {
                self.diag(
                    DiagnosticKind::MalformedXml,
                    lt,
                    "text outside the root element ignored",
                );
                return None;
            }
            self.diag(DiagnosticKind::MalformedXml, lt, "'<' that starts no tag kept as text");
            return Some(Event::Text(self.src.get(lt..lt + 1).unwrap_or("<")));
        }
        if self.open.len() >= self.limits.max_depth {
            if !self.depth_reported {
                self.depth_reported = true;
                let msg = format!(
                    "nesting deeper than max_depth ({}): deeper elements skipped",
                    self.limits.max_depth
                );
                self.diag(DiagnosticKind::LimitReached, offset, msg);
            }
            if !empty {
                self.skip_depth = 1;
            }
            return None;
        }
        let tag = self.start(content, name_len, offset);
        if empty {
            self.pending_ends = 1;
        }
        Some(Event::Start(tag))
    }

    /// Handles an end tag: closes the innermost open element of that name (and everything
    /// opened inside it), or is ignored.
    fn on_end(&mut self, name: &str, offset: usize) {
        if self.open.last().is_some_and(|o| o.qname == name) {
            self.pending_ends = 1;
            return;
        }
        // `</a junk>`: the name ends at whitespace.
        let name = match name.find([' ', '\t', '\n', '\r']) {
            Some(i) => {
                self.diag(DiagnosticKind::MalformedXml, offset, "junk in end tag ignored");
                &name[..i]
            }
            None => name,
        };
        match self.open.iter().rposition(|o| o.qname == name) {
            Some(i) => {
                let closes = self.open.len() - i;
                if closes > 1 {
                    let inner = self.open.last().map_or("", |o| o.qname);
                    let msg = format!(
                        "end tag </{name}> closes {closes} open elements (innermost <{inner}>)"
                    );
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

    /// The next event of the balanced stream. Not an `Iterator`: the stream never ends
    /// (after the document it yields `Event::Eof` on every call).
    #[allow(clippy::should_implement_trait)]
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
            let offset = self.pos();
            self.last_offset = offset;
            let token = match scan::next(self.src, &mut self.pos, self.arena) {
                Step::Token(token) => token,
                Step::Error { error, at } => {
                    self.recover(error, at.max(offset), offset);
                    continue;
                }
            };
            if self.skip_depth > 0 {
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
                Token::End(name) => self.on_end(name, offset),
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

    /// Decodes a text run from `first` (its first `&` or CR) on: references resolved, line
    /// ends normalized, every repair diagnosed at its byte offset (`offset` is the run's).
    fn decode_text(&mut self, raw: &'a str, first: usize, offset: usize) -> &'a str {
        let bytes = raw.as_bytes();
        let n = bytes.len();
        // One block of slack for the whole-block copies of `copy_to_special`.
        let mut out = bumpalo::collections::String::with_capacity_in(n + block::BLOCK, self.arena);
        out.push_str(&raw[..first]);
        let mut i = first;
        while i < n {
            let j = copy_to_special(&mut out, raw, i);
            if j == n {
                break;
            }
            if bytes[j] == b'\r' {
                // CRLF and lone CR become LF.
                out.push('\n');
                i = j + 1 + usize::from(bytes.get(j + 1) == Some(&b'\n'));
                continue;
            }
            // The references of entity-escaped HTML, read in place: their end is the `;`
            // the search below would find.
            if let Some((c, len)) = common_reference(bytes, j) {
                out.push(c);
                i = j + len;
                continue;
            }
            // A reference runs to the next `;`, unless another `&` comes first (quick-xml's
            // rule, kept so that `a & b; c` reads as it always has).
            let k = reference_end(bytes, j + 1);
            if k == n || bytes[k] == b'&' {
                self.diag(
                    DiagnosticKind::BareAmpersand,
                    offset + j,
                    "'&' starts no reference; kept literally",
                );
                out.push('&');
                i = j + 1;
                continue;
            }
            match &bytes[j + 1..k] {
                [b'l', b't'] => out.push('<'),
                [b'g', b't'] => out.push('>'),
                [b'a', b'm', b'p'] => out.push('&'),
                [b'q', b'u', b'o', b't'] => out.push('"'),
                _ => self.push_reference(&mut out, &raw[j + 1..k], &raw[j..=k], offset + j),
            }
            i = k + 1;
        }
        out.into_bump_str()
    }

    /// Appends what the reference `&name;` (`literal`, at byte `at`) stands for.
    fn push_reference(
        &mut self,
        out: &mut bumpalo::collections::String<'a>,
        name: &str,
        literal: &str,
        at: usize,
    ) {
        // Resolved once: the recovery rules and the spec's reading share the result.
        let resolved = entities::resolve(name);
        if self.recover {
            if let Some(done) = self.push_recovered_reference(out, name, resolved, at) {
                return done;
            }
        }
        match self.report_resolved(name, resolved, at) {
            Resolved::Xml(c) => out.push(c),
            Resolved::Html(a, b) => {
                out.push(a);
                if let Some(b) = b {
                    out.push(b);
                }
            }
            Resolved::InvalidChar => out.push('\u{FFFD}'),
            Resolved::Unknown => out.push_str(literal),
        }
    }

    /// The web recovery rules for a reference in text: a numeric reference to a C1 control
    /// (`&#146;`) is read as the windows-1252 character it stands for in real documents, and
    /// a general entity declared in the document's internal subset is expanded (see
    /// [`super::entities::InternalEntities`]). `None` when neither applies.
    #[cold]
    fn push_recovered_reference(
        &mut self,
        out: &mut bumpalo::collections::String<'a>,
        name: &str,
        resolved: Resolved,
        at: usize,
    ) -> Option<()> {
        match resolved {
            Resolved::Xml(c) => {
                let mapped = entities::c1_to_windows_1252(c)?;
                out.push(mapped);
                self.diag(
                    DiagnosticKind::Recovered,
                    at,
                    format!(
                        "c1_control: &{name}; (C1 control) read as windows-1252 {mapped:?} (U+{:04X})",
                        mapped as u32
                    ),
                );
                Some(())
            }
            Resolved::Unknown if !self.internal_entities.is_empty() => {
                match self.internal_entities.expand(name) {
                    Ok(Some(text)) => {
                        out.push_str(text);
                        self.diag(
                            DiagnosticKind::Recovered,
                            at,
                            format!(
                                "internal_entity: &{name}; expanded from the internal DTD subset"
                            ),
                        );
                        Some(())
                    }
                    Ok(None) => None,
                    Err(why) => {
                        out.push('&');
                        out.push_str(name);
                        out.push(';');
                        self.diag(
                            DiagnosticKind::LimitReached,
                            at,
                            format!("&{name}; not expanded: {why}; kept literally"),
                        );
                        Some(())
                    }
                }
            }
            _ => None,
        }
    }

    /// Resolves the reference `&name;` at byte `at`, recording what text and attribute values
    /// alike do with it when it is not an XML reference (read as HTML, U+FFFD, kept literally).
    fn resolve_reported(&mut self, name: &str, at: usize) -> Resolved {
        self.report_resolved(name, entities::resolve(name), at)
    }

    /// [`Self::resolve_reported`] for a reference already resolved.
    fn report_resolved(&mut self, name: &str, resolved: Resolved, at: usize) -> Resolved {
        match resolved {
            Resolved::Xml(_) => {}
            Resolved::Html(..) => self.diag(
                DiagnosticKind::HtmlEntity,
                at,
                format!("&{name}; is not an XML entity; read as HTML"),
            ),
            Resolved::InvalidChar => self.diag(
                DiagnosticKind::InvalidCharacter,
                at,
                format!("&{name}; is not an XML character"),
            ),
            Resolved::Unknown if is_ref_name(name) => self.diag(
                DiagnosticKind::UnknownEntity,
                at,
                format!("&{name}; is not defined; kept literally"),
            ),
            // `a & b; c` reads `& b;` as a reference that is not one.
            Resolved::Unknown => self.diag(
                DiagnosticKind::BareAmpersand,
                at,
                "'&' starts no reference; kept literally",
            ),
        }
        resolved
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
