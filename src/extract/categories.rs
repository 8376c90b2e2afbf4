//! `categories_normalized` (docs/spec/feed-formats-and-extraction.md, Metadata Extraction
//! Checklist: Categories, "normalize casing"): category terms and labels made comparable and
//! split into their hierarchy.
//!
//! Each term is trimmed, its inner whitespace runs made one space, NFKC-normalized, Unicode
//! full case-folded (`caseless`) and NFKC-normalized again (case folding can leave a string
//! that is not in NFKC); ASCII terms are only lowercased, which is the same result. A term
//! with `/` (the RSS 2.0 `category` hierarchy, `News/World/Europe`) gives its paths,
//! shortest first (`news`, `news/world`, `news/world/europe`; empty segments dropped), unless
//! it holds `://` (a URL is one term). The results are unique, in first-seen order.
//!
//! Bounded output: a term's paths other than the full one are written only while all its
//! paths together stay within [`PATHS_GROWTH`] times its length.

use bumpalo::collections::String as BumpString;
use bumpalo::Bump;
use unicode_normalization::UnicodeNormalization;

use super::unique::Unique;

/// Normalized terms being gathered: unique, in first-seen order ([`Unique`]: many
/// categories cost linear time).
pub(crate) struct Normalized<'b>(Unique<'b, &'b str>);

impl<'b> Normalized<'b> {
    pub(crate) fn new(arena: &'b Bump) -> Self {
        Normalized(Unique::with_capacity_in(0, arena))
    }

    /// The terms, in the arena.
    pub(crate) fn finish(self) -> &'b [&'b str] {
        self.0.finish()
    }

    fn push_unique(&mut self, s: &'b str) {
        if !s.is_empty() {
            self.0.push(s);
        }
    }
}

/// How many times its own length the paths of one hierarchical term may take together (the
/// full path is always written).
pub const PATHS_GROWTH: usize = 4;

/// Adds the normalized forms of `term` to `out` (see the module docs).
pub(crate) fn push_normalized<'b>(arena: &'b Bump, out: &mut Normalized<'b>, term: &str) {
    let norm = normalize(arena, term);
    if norm.is_empty() {
        return;
    }
    if norm.contains('/') && !norm.contains("://") {
        let budget = term.len().saturating_mul(PATHS_GROWTH);
        let mut path = BumpString::with_capacity_in(norm.len(), arena);
        let mut used = 0usize;
        let segments: Vec<&str> =
            norm.split('/').map(str::trim).filter(|s| !s.is_empty()).collect();
        for (i, seg) in segments.iter().enumerate() {
            if !path.is_empty() {
                path.push('/');
            }
            path.push_str(seg);
            let last = i + 1 == segments.len();
            if last || used + path.len() <= budget {
                used += path.len();
                out.push_unique(arena.alloc_str(&path));
            }
        }
    } else {
        out.push_unique(norm);
    }
}

/// Trimmed, whitespace collapsed, NFKC, case-folded, NFKC.
fn normalize<'b>(arena: &'b Bump, term: &str) -> &'b str {
    let mut collapsed = BumpString::with_capacity_in(term.len(), arena);
    for word in term.split(char::is_whitespace).filter(|w| !w.is_empty()) {
        if !collapsed.is_empty() {
            collapsed.push(' ');
        }
        collapsed.push_str(word);
    }
    if collapsed.is_ascii() {
        collapsed.make_ascii_lowercase();
        return collapsed.into_bump_str();
    }
    let nfkc: std::string::String = collapsed.nfkc().collect();
    let folded = caseless::default_case_fold_str(&nfkc);
    let mut out = BumpString::with_capacity_in(folded.len(), arena);
    out.extend(folded.nfkc());
    out.into_bump_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(terms: &[&str]) -> Vec<String> {
        let arena = Bump::new();
        let mut out = Normalized::new(&arena);
        for t in terms {
            push_normalized(&arena, &mut out, t);
        }
        out.finish().iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn case_folding_nfkc_and_whitespace() {
        assert_eq!(norm(&["  Rust   Lang ", "rust lang"]), ["rust lang"]);
        assert_eq!(norm(&["Straße", "STRASSE", "strasse"]), ["strasse"]);
        assert_eq!(norm(&["ＥＣＯＮＯＭＹ", "ﬁnance", "Ⅻ"]), ["economy", "finance", "xii"]);
        assert_eq!(norm(&["ΣΊΣΥΦΟΣ"]), ["σίσυφοσ"]);
        assert_eq!(norm(&["", "   "]), Vec::<String>::new());
    }

    #[test]
    fn hierarchies_become_paths_and_urls_do_not() {
        assert_eq!(
            norm(&["News/World/Europe", "news"]),
            ["news", "news/world", "news/world/europe"]
        );
        assert_eq!(norm(&["/a//b/ "]), ["a", "a/b"]);
        assert_eq!(norm(&["https://example.org/tags/Rust"]), ["https://example.org/tags/rust"]);
        // Past the budget only the full path is written.
        let deep = "a/".repeat(100);
        let paths = norm(&[&deep]);
        assert_eq!(paths.last().unwrap(), &"a/".repeat(100).trim_end_matches('/').to_string());
        let bytes: usize = paths.iter().map(String::len).sum();
        assert!(bytes <= deep.len() * PATHS_GROWTH + deep.len(), "{bytes}");
    }

    #[test]
    fn many_terms_stay_unique_in_first_seen_order() {
        let terms: Vec<String> = (0..100).map(|i| format!("T{}", i % 40)).collect();
        let refs: Vec<&str> = terms.iter().map(String::as_str).collect();
        let out = norm(&refs);
        assert_eq!(out.len(), 40);
        assert_eq!(out[0], "t0");
        assert_eq!(out[39], "t39");
    }
}
