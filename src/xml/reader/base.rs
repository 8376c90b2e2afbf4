//! `xml:base` scopes (XML Base; RFC 3986 §5.1.1: the base URI embedded in the content): the
//! base URI in scope at each point of the document, for the recovery rules `xml_base` and
//! `html_url`.
//!
//! Tracked only when the format layer asks for it (`XmlReader::track_xml_base`; the reader
//! opens and closes scopes in `element`); a reader that does not track pays nothing. A
//! tracking reader looks for `xml:base` only in tags that have attributes, and pushes a scope
//! only on an element that carries it, so the stack holds at most one entry per open element
//! (bounded by `max_depth`).
//!
//! Invariant: the base in scope ([`BaseScopes::current`]) is the one of the element whose
//! event was delivered last — after an element's end tag still that element's, until the next
//! event is read — so that a value read from an element's text or attributes once the
//! element is consumed resolves against the element's own base.

use std::cell::{Cell, RefCell};

use url::Url;

/// The `xml:base` scopes of a document, shared by the reader (which opens and closes them)
/// and the URL resolution of the format layer (which reads the current one).
#[derive(Default)]
pub(crate) struct BaseScopes {
    /// `(depth of the element carrying xml:base, the absolute base in scope from it on)`,
    /// innermost last; depths strictly increase.
    stack: RefCell<Vec<(usize, Url)>>,
    /// `xml:base` values that did not give a usable base (not a URL, or not http(s)): they
    /// are ignored, the outer base staying in scope.
    unusable: Cell<usize>,
    /// Relative `xml:base` values with no absolute base in scope to resolve them against:
    /// ignored too (joining a relative reference onto a relative base is not defined, RFC
    /// 3986 §5.1: the base must be absolute), the relative URLs in their scope being kept
    /// as written (`relative_url`).
    relative: Cell<usize>,
    /// URLs resolved against an `xml:base` (counted by the format layer).
    pub(crate) applied: Cell<usize>,
}

impl BaseScopes {
    /// The base in scope, when an `xml:base` gives one.
    pub(crate) fn current(&self) -> Option<std::cell::Ref<'_, Url>> {
        std::cell::Ref::filter_map(self.stack.borrow(), |s| s.last().map(|(_, u)| u)).ok()
    }

    /// How many `xml:base` values were ignored for not giving an http(s) URL (a relative
    /// one with no absolute base around it is counted by [`BaseScopes::relative`]).
    pub(crate) fn unusable(&self) -> usize {
        self.unusable.get()
    }

    /// How many relative `xml:base` values were ignored for want of an absolute base to
    /// resolve them against.
    pub(crate) fn relative(&self) -> usize {
        self.relative.get()
    }

    /// Opens the scope of an element at `depth` carrying `xml:base="value"` (decoded):
    /// `value` resolved against the base in scope (RFC 3986 §5.1.2; WHATWG parsing), kept
    /// when it is an http(s) URL. An empty value, or one that does not resolve, changes
    /// nothing.
    pub(super) fn push(&self, depth: usize, value: &str) {
        let value = value.trim_matches(['\t', '\n', '\u{C}', '\r', ' ']);
        if value.is_empty() {
            return; // the same-document reference: the outer base.
        }
        let mut stack = self.stack.borrow_mut();
        let joined = match stack.last() {
            Some((_, outer)) => outer.join(value),
            None => Url::parse(value),
        };
        match joined {
            Ok(url) if matches!(url.scheme(), "http" | "https") => stack.push((depth, url)),
            Err(url::ParseError::RelativeUrlWithoutBase) => {
                self.relative.set(self.relative.get() + 1)
            }
            _ => self.unusable.set(self.unusable.get() + 1),
        }
    }

    /// Closes the scopes of the elements deeper than `depth` (the elements closed).
    pub(super) fn close_deeper(&self, depth: usize) {
        let mut stack = self.stack.borrow_mut();
        while stack.last().is_some_and(|(d, _)| *d > depth) {
            stack.pop();
        }
    }
}
