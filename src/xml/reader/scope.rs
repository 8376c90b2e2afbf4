//! Namespace scopes: what an element or attribute name resolves to. quick-xml's
//! `NamespaceResolver` keeps the bindings; a start tag that may declare namespaces pushes a
//! scope (read from the attribute list the reader already made when that list is exactly
//! what quick-xml would read), and what a prefix resolves to is cached ([`NsCache`]) until
//! such a scope opens or closes.
//!
//! [`NsCache`]: super::state::NsCache

use quick_xml::events::BytesStart;
use quick_xml::name::{Namespace, QName, ResolveResult};

use super::state::XmlReader;
use super::tag::gaps_are_ws;
use crate::xml::ns::{well_known_prefix, Ns};

impl<'a> XmlReader<'a> {
    /// Namespace URI of an element's qualified name in the current scope ("" = null).
    pub fn element_ns_uri(&self, qname: &str) -> &'a str {
        // The prefix ends at the first `:`, as quick-xml reads it. Names are short: a plain
        // loop (`str::find` set up a searcher, ~60 instructions a call).
        let prefix = first_colon(qname).map(|i| &qname[..i]);
        self.cached_uri(prefix, || match self.resolver.resolve_element(QName(qname)).0 {
            ResolveResult::Bound(ns) => self.arena.alloc_str(ns.0),
            ResolveResult::Unknown(prefix) => self.well_known_uri(&prefix),
            ResolveResult::Unbound => "",
        })
    }

    /// The URI `prefix` (`None`: an element name without one) resolves to in the current
    /// scope: from [`NsCache::uris`] or, the first time in this scope, from `resolve`
    /// (then cached, at most 64 prefixes). The resolver's answer depends only on the prefix
    /// and the bindings, and the cache is emptied whenever the bindings may change.
    ///
    /// [`NsCache::uris`]: super::state::NsCache
    #[inline]
    fn cached_uri(&self, prefix: Option<&str>, resolve: impl FnOnce() -> &'a str) -> &'a str {
        if !self.ns_cache.enabled() {
            return resolve();
        }
        let mut uris = self.ns_cache.uris.take();
        let uri = match uris.iter().find(|(p, _)| *p == prefix) {
            Some(&(_, uri)) => uri,
            None => {
                let uri = resolve();
                if uris.len() < 64 {
                    uris.push((prefix.map(|p| &*self.arena.alloc_str(p)), uri));
                }
                uri
            }
        };
        self.ns_cache.uris.set(uris);
        uri
    }

    /// The namespace the `well_known_prefix` rule binds an undeclared `prefix` to ("" when
    /// the rule is off or the prefix is not one it knows).
    fn well_known_uri(&self, prefix: &str) -> &'a str {
        match well_known_prefix(prefix) {
            Some((_, uri)) if self.recover => uri,
            _ => "",
        }
    }

    /// The recovery rule `well_known_prefix`: the namespace of an undeclared `prefix` that
    /// [`WELL_KNOWN_PREFIXES`] names (`None`: the rule is off or does not know it). The
    /// first use of each such prefix in the document records one `recovered` diagnostic
    /// (at `offset`, naming the element or `attribute` `qname`, the prefix and the URI); later
    /// uses record nothing.
    ///
    /// [`WELL_KNOWN_PREFIXES`]: crate::xml::ns::WELL_KNOWN_PREFIXES
    pub(super) fn recover_prefix(
        &mut self,
        qname: &str,
        prefix: &str,
        offset: usize,
        attribute: bool,
    ) -> Option<Ns> {
        if !self.recover {
            return None;
        }
        let (i, uri) = well_known_prefix(prefix)?;
        if self.prefixes_bound & (1 << i) == 0 {
            self.prefixes_bound |= 1 << i;
            let what =
                if attribute { format!("attribute {qname:?}") } else { format!("<{qname}>") };
            let msg = format!(
                "well_known_prefix: {what} read with the undeclared prefix {prefix:?} bound to \
                 {uri} (every use in the document)"
            );
            self.diag(crate::error::DiagnosticKind::Recovered, offset, msg);
        }
        Some(Ns::from_uri(uri))
    }

    /// Namespace URI of an attribute's qualified name in the current scope ("" = null).
    pub fn attr_ns_uri(&self, qname: &str) -> &'a str {
        if qname == "xmlns" || qname.starts_with("xmlns:") {
            return "http://www.w3.org/2000/xmlns/";
        }
        if qname.starts_with("xml:") {
            return "http://www.w3.org/XML/1998/namespace";
        }
        // An unprefixed attribute is in no namespace; a prefixed one resolves its prefix as
        // an element name would (quick-xml's `resolve_prefix` reads `use_default` only for
        // names without a prefix).
        let Some(colon) = first_colon(qname) else { return "" };
        self.cached_uri(Some(&qname[..colon]), || {
            match self.resolver.resolve_attribute(QName(qname)).0 {
                ResolveResult::Bound(ns) => self.arena.alloc_str(ns.0),
                ResolveResult::Unknown(prefix) => self.well_known_uri(&prefix),
                ResolveResult::Unbound => "",
            }
        })
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
    pub(super) fn push_scope(
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
    pub(super) fn resolver_level(&self) -> u16 {
        u16::try_from(self.open.len()).unwrap_or(u16::MAX)
    }

    /// The namespace of unprefixed element names in the current scope.
    pub(super) fn default_ns(&mut self) -> Ns {
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
    pub(super) fn prefix_ns(&mut self, qname: &'a str, colon: usize) -> Option<Ns> {
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
}

/// The index of the first `:` of a name.
#[inline]
fn first_colon(name: &str) -> Option<usize> {
    name.bytes().position(|b| b == b':')
}
