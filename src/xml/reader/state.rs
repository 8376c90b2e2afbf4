//! The reader's state: the [`XmlReader`] struct and the types of its fields, the [`Event`]s
//! it yields, its constructors, and what every part of it uses — the position in the input
//! and the diagnostics list (capped at `max_diagnostics`).
//!
//! The rest of the reader is `impl XmlReader` blocks above this file, one per concern
//! (`scope`, `decode`, `element`, and the event loop in `mod.rs`); the fields are visible to
//! them.

use std::collections::HashSet;

use bumpalo::Bump;
use quick_xml::name::NamespaceResolver;

use super::tag::Tag;
use super::text::find_forbidden_control;
use crate::error::{Diagnostic, DiagnosticKind};
use crate::options::Limits;
use crate::xml::bytes::floor_char_boundary;
use crate::xml::entities;
use crate::xml::ns::Ns;

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

/// Where the reader is in the document: before, inside or after the root element.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    BeforeRoot,
    InRoot,
    Done,
}

/// An open element.
pub(super) struct Open<'a> {
    pub(super) qname: &'a str,
    /// Byte offset of the start tag's `<`.
    pub(super) offset: usize,
    /// Whether its start tag may have declared namespaces (closing it may change the
    /// bindings in scope).
    pub(super) declares: bool,
}

/// What names resolve to in the current scope, so that the resolver is asked once per
/// name prefix and scope rather than once per element: most documents declare their
/// namespaces on the root and then open thousands of elements under them.
///
/// Invariant: every entry is what the resolver answers for the bindings in scope; the cache
/// is emptied whenever those may change (a tag that may declare namespaces is opened or
/// closed). `None`: a prefix with no binding.
#[derive(Default)]
pub(super) struct NsCache<'a> {
    /// The namespace of unprefixed element names (the default namespace).
    pub(super) default: Option<Ns>,
    /// Prefixes (the text before the first `:` of a name, as quick-xml reads it).
    pub(super) prefixes: Vec<(&'a str, Option<Ns>)>,
    /// The namespace URIs [`XmlReader::element_ns_uri`] and [`XmlReader::attr_ns_uri`]
    /// answered, by prefix (`None`: the default namespace of element names), in the arena.
    /// In a `Cell` because those take `&self`; taken out and put back around each look-up.
    pub(super) uris: std::cell::Cell<Vec<(Option<&'a str>, &'a str)>>,
    /// Tests only: ask the resolver every time and keep its level on every tag (the reader
    /// without these shortcuts: the oracle of the differential test).
    #[cfg(test)]
    pub(super) disabled: bool,
}

impl NsCache<'_> {
    pub(super) fn clear(&mut self) {
        self.default = None;
        self.prefixes.clear();
        self.uris.get_mut().clear();
    }

    pub(super) fn enabled(&self) -> bool {
        #[cfg(test)]
        return !self.disabled;
        #[cfg(not(test))]
        true
    }
}

/// The limits the reader itself enforces (a subset of [`Limits`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct ReaderLimits {
    pub(super) max_depth: usize,
    pub(super) max_attributes: usize,
    pub(super) max_text_bytes: usize,
    pub(super) max_diagnostics: usize,
}

/// The reader. Create one per document.
pub struct XmlReader<'a> {
    pub(super) src: &'a str,
    pub(super) arena: &'a Bump,
    /// The tokenizer's position in `src` (always a char boundary).
    pub(super) pos: usize,
    pub(super) resolver: NamespaceResolver,
    pub(super) ns_cache: NsCache<'a>,
    pub(super) open: Vec<Open<'a>>,
    /// Synthetic End events still to deliver (empty elements, recovery).
    pub(super) pending_ends: usize,
    /// Whether the event loop must look at `pending_text`, `pending_ends`, `phase` and
    /// `skip_depth` before reading the next token: set wherever one of them leaves its
    /// usual state (nothing pending, inside the root, not skipping), cleared by
    /// [`XmlReader::next`] once all four are back there ([`XmlReader::is_slow`]). One test
    /// per event instead of four.
    pub(super) slow: bool,
    pub(super) phase: Phase,
    pub(super) limits: ReaderLimits,
    pub(super) depth_reported: bool,
    /// Inside an element deeper than `max_depth`: how many of its elements are open.
    pub(super) skip_depth: usize,
    /// Whether the input holds a forbidden C0 control character anywhere (decided once).
    pub(super) has_controls: bool,
    /// Text recovered from an unclosed CDATA section, delivered before the final Ends.
    pub(super) pending_text: Option<&'a str>,
    /// Offset of the token last read (for diagnostics raised by walkers).
    pub(super) last_offset: usize,
    /// Scratch for the attributes of the tag being checked (copied into the arena as the
    /// tag's list) and duplicate-attribute detection (reused; no per-event allocation).
    pub(super) attr_list: Vec<(&'a str, &'a str)>,
    pub(super) attr_set: HashSet<&'a str>,
    /// Whether every attribute `check_attrs` listed last had a quoted value.
    pub(super) attrs_quoted: bool,
    pub(super) diagnostics_dropped: usize,
    /// Whether the web recovery rules apply ([`Self::set_recover`]).
    pub(crate) recover: bool,
    /// Which prefixes of [`crate::xml::ns::WELL_KNOWN_PREFIXES`] (bit `i`: entry `i`) the
    /// `well_known_prefix` rule bound so far (each recorded once per document).
    pub(super) prefixes_bound: u32,
    /// How many text values the `double_utf8` rule repaired ([`Self::double_utf8`]).
    pub(crate) double_utf8: usize,
    /// The `xml:base` scopes, when tracked ([`Self::track_xml_base`]).
    pub(super) xml_base: Option<std::rc::Rc<super::base::BaseScopes>>,
    /// General entities of the internal DTD subset (recovery only; empty otherwise).
    pub(super) internal_entities: entities::InternalEntities<'a>,
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
            slow: true,
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
            prefixes_bound: 0,
            double_utf8: 0,
            xml_base: None,
            internal_entities: entities::InternalEntities::default(),
            diagnostics: Vec::new(),
        }
    }

    /// How many text values the `double_utf8` recovery rule repaired so far (the caller
    /// records one diagnostic per document).
    pub fn double_utf8(&self) -> usize {
        self.double_utf8
    }

    /// Turns the reader's web recovery rules on or off (default off): UserLand's RSS 2.0
    /// namespaces read as the null namespace, C1-control character references read as
    /// windows-1252, general entities of the internal DTD subset expanded, element text
    /// that is wholly UTF-8 decoded twice read as decoded once ([`Self::child_text`]). Call
    /// before the first event.
    pub fn set_recover(&mut self, on: bool) {
        self.recover = on;
        // What undeclared prefixes resolve to depends on the rules.
        self.ns_cache.clear();
    }

    /// Starts tracking `xml:base` scopes (call before the first event); the returned handle
    /// gives the base in scope as the document is read.
    pub(crate) fn track_xml_base(&mut self) -> std::rc::Rc<super::base::BaseScopes> {
        self.xml_base.get_or_insert_with(Default::default).clone()
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
        let offset = floor_char_boundary(self.src, offset.min(self.src.len()));
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
    pub(super) fn pos(&self) -> usize {
        self.pos.min(self.src.len())
    }

    /// Whether one of the states [`Self::slow`] stands for holds: a pending event, outside
    /// the root element, or skipping elements deeper than the depth limit.
    #[inline(always)]
    pub(super) fn is_slow(&self) -> bool {
        self.pending_text.is_some()
            || self.pending_ends != 0
            || self.phase != Phase::InRoot
            || self.skip_depth != 0
    }

    /// Moves the tokenizer to `pos` (rounded up to a char boundary).
    pub(super) fn reset_at(&mut self, mut pos: usize) {
        pos = pos.min(self.src.len());
        while !self.src.is_char_boundary(pos) {
            pos += 1;
        }
        self.pos = pos;
    }

    /// The offset of `s` in `src`, when `s` borrows from it.
    pub(super) fn offset_of(&self, s: &str) -> Option<usize> {
        let base = self.src.as_ptr() as usize;
        let p = s.as_ptr() as usize;
        (p >= base && p + s.len() <= base + self.src.len()).then(|| p - base)
    }
}
