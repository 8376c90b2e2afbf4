//! HTML text constructs: spec step \[178\] "parse escaped HTML content", sanitizing and the
//! significant-content test (\[112\]–\[129\]). See NOTES §3.
//!
//! Owns: building fragments — [`parse_escaped_html`] (escaped HTML) and [`finish_fragment`]
//! (Atom XHTML nodes the XML walker cloned). The fragment data types, their equality and
//! serializations are [`crate::model::fragment`]'s, re-exported here ([`Html`], [`Node`],
//! [`NodeKind`], [`Element`], [`Attribute`], the `*_NS` constants): this module depends on
//! the model, never the other way round. `urls`: which attributes of a fragment hold URLs,
//! and the fragment with its relative ones resolved (the recovery rule `html_url`).
//!
//! Invariants:
//! - A fragment is a flat pre-order node list in the per-parse arena; `Node::end` is one past
//!   the node's last descendant, and every `end` lies within its parent's range. Top-level
//!   children are at 0, `nodes\[0\].end`, …
//! - Every fragment handed out is sanitized (no HTML `img` with `width="1"` and `height="1"`)
//!   and has significant content; parse results that are exactly one Text node are returned
//!   as [`Text::Plain`] instead.
//! - Namespace `""` is the null namespace; well-known namespace strings are the `*_NS`
//!   constants (static, not arena-allocated).
//! - Nothing recurses over the tree (parsing, sanitizing, equality, serializing are all
//!   iterative), so nesting depth is bounded only by memory; nothing panics on any input
//!   (html5ever calls are additionally wrapped in `catch_unwind`: a parser panic yields None).
//! - Fast paths, both exactly what tree construction would produce. Input in which no `<` can
//!   open a tag (no `<` followed by an ASCII letter, `!`, `/` or `?`) tokenizes to character
//!   tokens only, so the fragment is at most one Text node:
//!   - without `&`, CR or NUL as well, its data is `text` itself: no html5ever at all, and
//!     the result borrows `text` (zero-copy);
//!   - otherwise its data is decoded (character references, CR/CRLF normalization) by the
//!     fast builder's tokenizer (`fast::decode_text`), or where that gives up by html5ever's
//!     tokenizer alone, NULs dropped as the tree builder does (see `tree::decode_text`).
//! - Input that may hold tags first goes to the exact fast tree builder (`fast`, tag names
//!   interned by `tags`), which covers what feeds contain (misnesting and the adoption
//!   agency, tables of the usual shape, inline SVG, script escapes…) and gives up on the
//!   rest (its docs list what); then to html5ever, whose work is bounded
//!   (`parse_escaped_html_limited`). `parse_escaped_html_reference` is html5ever alone, for
//!   differential tests and fuzzing.

mod attrs;
mod fast;
mod sanitize;
#[cfg(all(test, feature = "strict-sanitize"))]
pub(crate) use sanitize::significance_if_clean;
#[cfg(feature = "strict-sanitize")]
pub(crate) use sanitize::{element_significance, has_non_space, CleanSignificance};
mod tags;
#[cfg(test)]
mod tests;
pub(crate) mod text;
mod tree;
pub(crate) mod urls;

#[cfg(feature = "strict-sanitize")]
pub(crate) use crate::model::fragment::serialize::html_escape;
#[cfg(feature = "strict-sanitize")]
pub(crate) use crate::model::fragment::serialize::is_void;
pub use crate::model::fragment::{Attribute, Element, Html, Node, NodeKind};
#[cfg(any(test, feature = "internals"))]
pub use crate::model::fragment::{HTML_NS, MATHML_NS, SVG_NS, XLINK_NS, XMLNS_NS, XML_NS};
#[cfg(feature = "strict-sanitize")]
pub(crate) use fast::decode_attribute_references;

use bumpalo::Bump;

use crate::model::Text;

/// True when the tokenizer's character output for `text` is `text` itself: no character
/// references, no newline normalization, no NUL handling. (Literal `<`s are the caller's
/// concern, see [`may_open_tag`].)
#[inline]
fn is_plain_run(text: &str) -> bool {
    memchr::memchr3(b'&', b'\r', 0, text.as_bytes()).is_none()
}

/// Whether the tokenizer could leave the data state for anything but a literal `<` somewhere
/// in `text`: a `<` followed by an ASCII letter, `!`, `/` or `?` (tag, comment, end tag,
/// bogus comment). Any other `<` (including at EOF) is emitted as a character.
#[inline]
fn may_open_tag(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memchr_iter(b'<', b).any(|i| {
        b.get(i + 1).is_some_and(|&c| c.is_ascii_alphabetic() || matches!(c, b'!' | b'/' | b'?'))
    })
}

/// Spec step \[178\] "parse escaped HTML content" given the element's child text content `text`
/// (already XML-unescaped by the caller): HTML fragment parsing (context div, no-quirks, scripting
/// DISABLED), sanitize (remove 1x1 img), significance test; None if not significant; Text::Plain(data)
/// when the fragment is exactly one Text node; else Text::Html. All allocations in `arena`.
///
/// Work is bounded (see [`parse_escaped_html_limited`]); on the rare adversarial input that
/// hits the limit the result is that of a prefix of `text`.
///
/// Tags with more than the default [`crate::Limits::max_html_attributes`] attributes cut the
/// text (see [`parse_escaped_html_with`]).
// The parser reaches escaped HTML through `parse_escaped_html_checked`; these three entries
// are the tests' and, with the test-only `internals` feature, public (fuzz targets).
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub fn parse_escaped_html<'a>(arena: &'a Bump, text: &'a str) -> Option<Text<'a>> {
    parse_escaped_html_limited(arena, text).0
}

/// [`parse_escaped_html_limited`] with the default attribute cap.
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub fn parse_escaped_html_limited<'a>(arena: &'a Bump, text: &'a str) -> (Option<Text<'a>>, bool) {
    parse_escaped_html_with(arena, text, crate::Limits::default().max_html_attributes)
}

/// [`parse_escaped_html`], also telling whether the work limit was hit.
///
/// Texts the fast tree builder cannot take go to html5ever, whose tree construction is
/// quadratic in the nesting depth and can create far more nodes than the input has tags
/// (reconstruction of active formatting elements). html5ever is therefore fed the text in
/// 256-byte chunks and stopped after the first chunk at which it has made more than
/// 4 000 000 + 8 × len sink calls (each step of its stack walks is one), created more than
/// 4 096 + len / 2 nodes, or inserted a node deeper than 1 000 levels; the document then
/// ends there, as if the text were cut after that chunk, and the flag is true. The
/// superlinear part of the work is thus bounded to tens of milliseconds; what remains is
/// linear in the input. No text of the real corpus comes near the limit.
///
/// Attribute cap (`max_attributes`, [`crate::Limits::max_html_attributes`]): the text is read
/// only up to the first `<` from which the tokenizer could read a tag (start or end tag) with
/// more than `max_attributes` attributes, duplicates counted; the flag is then true as well.
/// (html5ever's duplicate check makes a tag with n attributes cost n² / 2; the fast builder
/// reads tags exactly and hands such a tag to this cut.) The test is linear and errs only
/// towards cutting: after the part of the text the fast builder has read, every `<` that
/// opens a tag in the data state counts, wherever it is (even inside a comment or an
/// attribute value), which no text of the real corpus comes near.
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub fn parse_escaped_html_with<'a>(
    arena: &'a Bump,
    text: &'a str,
    max_attributes: usize,
) -> (Option<Text<'a>>, bool) {
    let p = parse_escaped_html_checked(arena, text, max_attributes);
    (p.value, p.cut)
}

/// [`parse_escaped_html_with`]'s result, with what the parse learnt of the fragment.
pub(crate) struct EscapedHtml<'a> {
    /// The value.
    pub value: Option<Text<'a>>,
    /// The text was read only in part (see [`parse_escaped_html_with`]).
    pub cut: bool,
    /// An element of the fragment has a URL attribute that may hold a relative URL: `false`
    /// only when the fast tree builder built it and saw none (`urls::may_need_resolving`),
    /// so that the recovery rule `html_url` would not change it.
    pub relative_urls: bool,
    /// The fast tree builder built the tree (`false` for a text without markup and for one
    /// html5ever parsed): such a tree depends on the text's tokens alone, with no work limit
    /// that the text's length moves.
    #[cfg_attr(not(feature = "strict-sanitize"), allow(dead_code))]
    pub built_fast: bool,
}

impl<'a> EscapedHtml<'a> {
    /// The value with `html_urls` (the recovery rule `html_url`) applied, unless the fast tree
    /// builder saw no URL attribute that may hold a relative URL: the rule would walk the
    /// fragment to change nothing. The one skip of every escaped-HTML field.
    #[inline]
    pub(crate) fn value_with_urls(
        self,
        html_urls: impl FnOnce(Option<Text<'a>>) -> Option<Text<'a>>,
    ) -> Option<Text<'a>> {
        if self.relative_urls {
            html_urls(self.value)
        } else {
            self.value
        }
    }
}

/// [`parse_escaped_html_with`], telling also whether the value may hold relative URLs.
#[inline]
pub(crate) fn parse_escaped_html_checked<'a>(
    arena: &'a Bump,
    text: &'a str,
    max_attributes: usize,
) -> EscapedHtml<'a> {
    if may_open_tag(text) {
        return match parse_fast(arena, text, max_attributes) {
            Ok((value, relative_urls)) => {
                EscapedHtml { value, cut: false, relative_urls, built_fast: true }
            }
            Err(read) => {
                let (value, cut) = parse_slow(arena, text, max_attributes, read);
                EscapedHtml { value, cut, relative_urls: true, built_fast: false }
            }
        };
    }
    // A text without markup has no attributes.
    let value = plain_text(arena, text);
    EscapedHtml { value, cut: false, relative_urls: false, built_fast: false }
}

/// [`parse_escaped_html`], and whether the fast tree builder built the tree
/// ([`EscapedHtml::built_fast`]).
#[cfg(feature = "strict-sanitize")]
pub(crate) fn parse_escaped_html_built<'a>(
    arena: &'a Bump,
    text: &'a str,
) -> (Option<Text<'a>>, bool) {
    let p = parse_escaped_html_checked(arena, text, crate::Limits::default().max_html_attributes);
    (p.value, p.built_fast)
}

/// The fast tree builder's [`parse_escaped_html_with`] of a text that may open a tag, with
/// [`fast::Built::relative_urls`] (sanitizing only removes, so it stays true of the
/// result), or `Err(read)` when the builder gives up, having tokenized `text[..read]`
/// exactly.
#[inline(always)]
fn parse_fast<'a>(
    arena: &'a Bump,
    text: &'a str,
    max_attributes: usize,
) -> Result<(Option<Text<'a>>, bool), usize> {
    let mut flat = bumpalo::collections::Vec::new_in(arena);
    let mut read = 0;
    let Some(built) = fast::build_checked(arena, text, &mut flat, max_attributes, &mut read) else {
        return Err(read);
    };
    let value = if built.clean {
        // The common case: nothing to remove, keep the builder's list without a copy.
        sanitize::significance_of_clean(&flat).then(|| single_text_or_html(flat.into_bump_slice()))
    } else {
        let (nodes, significant) = sanitize::sanitize_built(arena, &flat);
        significant.then(|| single_text_or_html(nodes))
    };
    Ok((value, built.relative_urls))
}

/// The html5ever path of [`parse_escaped_html_with`], after the fast builder gave up having
/// read `read` bytes.
fn parse_slow<'a>(
    arena: &'a Bump,
    text: &'a str,
    max_attributes: usize,
    read: usize,
) -> (Option<Text<'a>>, bool) {
    // The builder tokenized `text[..read]` exactly (an offset in the newline-normalized
    // text, which is never past the same place in `text`; `usize::MAX`: nothing read).
    let from = if read > text.len() { 0 } else { read };
    match attrs::first_over_cap(text, from, max_attributes) {
        Some(cut) => {
            let (v, _) = parse_full(arena, &text[..cut], true);
            (v, true)
        }
        None => parse_full(arena, text, true),
    }
}

/// [`parse_escaped_html_with`] of a text without markup: its decoded characters, when
/// significant.
fn plain_text<'a>(arena: &'a Bump, text: &'a str) -> Option<Text<'a>> {
    let data = if is_plain_run(text) {
        text
    } else if let Some(d) = fast::decode_text(arena, text) {
        d
    } else {
        guard(|| tree::decode_text(arena, text))?
    };
    sanitize::has_non_space(data).then_some(Text::Plain(data))
}

/// Test hook (differential fuzzing): [`parse_escaped_html`] computed by html5ever alone, fed
/// in one piece, without fast paths or work limit. Same result as [`parse_escaped_html`] on
/// every input that does not hit the limit.
#[cfg(any(test, feature = "internals"))]
pub fn parse_escaped_html_reference<'a>(arena: &'a Bump, text: &'a str) -> Option<Text<'a>> {
    parse_full(arena, text, false).0
}

/// Defence in depth around html5ever (which asserts internally): a panic inside the parser
/// must not take down a bulk run; the text construct is then treated as not significant.
/// Our own code does not panic; the arena may hold some garbage afterwards, nothing else.
fn guard<R>(f: impl FnOnce() -> R) -> Option<R> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok()
}

/// The html5ever path of [`parse_escaped_html`]: tree construction (with the work limit when
/// `limited`), sanitize, significance. Returns the result and whether the limit was hit.
pub(crate) fn parse_full<'a>(
    arena: &'a Bump,
    text: &str,
    limited: bool,
) -> (Option<Text<'a>>, bool) {
    let mut flat = Vec::new();
    let mut templates = Vec::new();
    let Some(hit) = guard(|| tree::parse_into(arena, text, &mut flat, &mut templates, limited))
    else {
        return (None, false);
    };
    (finish_parsed(arena, &flat, &templates), hit)
}

/// Sanitize + significance + the single-Text-node rule on a parsed flat fragment.
fn finish_parsed<'a>(arena: &'a Bump, flat: &[Node<'a>], templates: &[u32]) -> Option<Text<'a>> {
    let (nodes, significant) = sanitize::sanitize(arena, flat, templates, false);
    significant.then(|| single_text_or_html(nodes))
}

/// A fragment that is exactly one Text node is handed out as plain text.
fn single_text_or_html<'a>(nodes: &'a [Node<'a>]) -> Text<'a> {
    match nodes {
        [Node { kind: NodeKind::Text(t), .. }] => Text::Plain(t),
        _ => Text::Html(Html::from_nodes(nodes)),
    }
}

/// For Atom `type="xhtml"`: the caller (the XML walker) has already built, in the arena, the flat pre-order node
/// list of the deep clones of the xhtml div's children (elements carry their XML namespace URI, prefix, and ALL
/// attributes including xmlns declarations, in document order). Sanitize + significance; return the fragment
/// (always Html, never converted to a string), or None if not significant.
///
/// Adjacent sibling Text nodes in `nodes` (e.g. split at a CDATA section) are joined, as in the
/// DOM the spec clones from; `end` values are trusted only within their parent's range.
pub fn finish_fragment<'a>(arena: &'a Bump, nodes: &[Node<'a>]) -> Option<Html<'a>> {
    let (nodes, significant) = sanitize::sanitize(arena, nodes, &[], true);
    if significant {
        Some(Html::from_nodes(nodes))
    } else {
        None
    }
}
