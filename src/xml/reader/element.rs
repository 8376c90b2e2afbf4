//! Elements: a start tag opened (its attributes checked and listed, its namespace scope
//! pushed, its name resolved, the depth limit applied), an end tag matched against the open
//! elements (closing the ones opened inside it), an element closed.

use super::state::{Event, Open, Phase, XmlReader};
use super::tag::{is_ws, may_declare_namespaces, Attrs, Tag};
use super::text::find_forbidden_control;
use crate::error::DiagnosticKind;
use crate::xml::ns::Ns;
use crate::xml::scan::{self, LtCheck};

impl<'a> XmlReader<'a> {
    /// Closes the innermost open element (and the namespace scope it opened); closing the
    /// root element ends the document.
    pub(super) fn pop(&mut self) {
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
            self.slow = true;
            self.check_after_root();
        }
    }

    /// Before reading the next event: the scopes of elements closed by the last one end.
    #[inline]
    pub(super) fn close_base_scopes(&self) {
        if let Some(b) = &self.xml_base {
            b.close_deeper(self.open.len());
        }
    }

    /// After opening an element with attributes `attrs` (`(name, raw value)`): its
    /// `xml:base`, if any, opens a scope.
    pub(super) fn open_base_scope(&self, attrs: &[(&'a str, &'a str)]) {
        let Some(b) = &self.xml_base else { return };
        if let Some(&(_, raw)) = attrs.iter().find(|(n, _)| *n == "xml:base") {
            b.push(self.open.len(), super::tag::decode_attr_value(self.arena, raw));
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
        // The prefix ends at the first `:` (quick-xml's reading), the local name starts
        // after the last.
        let colons = colons(self.src.as_bytes(), offset + 1, qname.as_bytes());
        let first_colon = colons.map(|(first, _)| first);
        let local = match colons {
            None => qname,
            Some((_, last)) => &qname[last + 1..],
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
        if self.xml_base.is_some() && !attr_list.is_empty() {
            self.open_base_scope(attr_list);
        }
        let ns = match first_colon {
            None => self.default_ns(),
            Some(i) => match self
                .prefix_ns(qname, i)
                .or_else(|| self.recover_prefix(qname, &qname[..i], offset, false))
            {
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
                    if !declared && self.recover_prefix(a.name, prefix, at, true).is_none() {
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

    /// Reports what [`super::decode_attr_value`] will do with each `&` of a raw attribute value.
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
    pub(super) fn on_start(
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
                self.slow = true;
            }
            return None;
        }
        let tag = self.start(content, name_len, offset);
        if empty {
            self.pending_ends = 1;
            self.slow = true;
        }
        Some(Event::Start(tag))
    }

    /// Handles an end tag: closes the innermost open element of that name (and everything
    /// opened inside it), or is ignored. The end tag of the innermost element closes it at
    /// once and is its [`Event::End`]; others leave their End events pending.
    pub(super) fn on_end(&mut self, name: &str, offset: usize) -> Option<Event<'a>> {
        if self.open.last().is_some_and(|o| o.qname == name) {
            self.pop();
            return Some(Event::End);
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
                self.slow = true;
            }
            None => {
                let msg = format!("end tag </{name}> matches no open element; ignored");
                self.diag(DiagnosticKind::MismatchedEndTag, offset, msg);
            }
        }
        None
    }
}

/// The first and the last `:` of the name `q`, expected at `from` in `bytes` (the input, so
/// that the block after a short name can be read whole).
///
/// NOTE: names are short: one block compare when `q` is where expected and within a block,
/// where two byte loops (the first `:`, the last) cost ~3 instructions a byte of every start
/// tag's name; byte loops otherwise.
#[inline(always)]
pub(super) fn colons(bytes: &[u8], from: usize, q: &[u8]) -> Option<(usize, usize)> {
    if q.len() <= crate::simd::block::BLOCK {
        if let Some(b) = crate::simd::block::at(bytes, from).filter(|b| b.as_ptr() == q.as_ptr()) {
            let m = crate::simd::block::eq_mask(b, [b':']) & ((1u32 << q.len()) - 1);
            return (m != 0)
                .then(|| (m.trailing_zeros() as usize, 31 - m.leading_zeros() as usize));
        }
    }
    let first = q.iter().position(|&b| b == b':')?;
    Some((first, first + q[first..].iter().rposition(|&b| b == b':').unwrap_or(0)))
}
