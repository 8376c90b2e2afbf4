//! Spec "sanitize" (\[112\]/\[113\]) and "has significant content" (\[114\]/\[129\], NOTES §3, D11–D13)
//! in one linear pre-order pass over a flat node list.
//!
//! Invariants:
//! - Every HTML `img` with `width` exactly `"1"` and `height` exactly `"1"` is removed together
//!   with its subtree, at any depth (D11: follow the seed), except inside HTML template contents
//!   (not DOM descendants).
//! - The children of an HTML void element (`br`, `img`, `source`, …; an XML-built tree may
//!   have them) are never significant: the HTML serialization does not write them.
//! - The output is a well-formed flat list (pre-order, `end` = one past last descendant), even
//!   if the input's `end` values are inconsistent (they are clamped into the parent's range).
//! - No recursion: open elements are kept on an explicit stack.

use bumpalo::Bump;

use crate::model::fragment::serialize::is_void;
use crate::model::fragment::{Attribute, Element, Node, NodeKind, HTML_NS, MATHML_NS, SVG_NS};

/// HTML "space characters", the Infra standard's ASCII whitespace (TAB, LF, FF, CR, SPACE):
/// `u8::is_ascii_whitespace`, the one definition every module uses.
#[inline]
pub(crate) fn is_html_space(b: u8) -> bool {
    b.is_ascii_whitespace()
}

#[inline]
pub(crate) fn has_non_space(s: &str) -> bool {
    s.bytes().any(|b| !is_html_space(b))
}

/// The value of the no-namespace attribute `local` among `attrs`.
fn attr<'a>(attrs: &[Attribute<'a>], local: &str) -> Option<&'a str> {
    attrs.iter().find(|a| a.namespace.is_empty() && a.local == local).map(|a| a.value)
}

fn is_1x1_img(kind: &NodeKind<'_>) -> bool {
    match kind {
        // The local name first: a short compare that rules out almost every element.
        NodeKind::Element(e) => e.local == "img" && e.namespace == HTML_NS && is_1x1(e.attrs),
        _ => false,
    }
}

/// Whether an HTML `img` with these attributes is removed by sanitizing: `width` and
/// `height` exactly `"1"` (the fast tree builder asks as it inserts one).
pub(super) fn is_1x1(attrs: &[Attribute<'_>]) -> bool {
    attr(attrs, "width") == Some("1") && attr(attrs, "height") == Some("1")
}

/// Elements whose whole subtree (themselves included) can't contribute significant content.
fn is_excluding(e: &Element<'_>) -> bool {
    ((e.local == "script" || e.local == "style")
        && (e.namespace == HTML_NS || e.namespace == SVG_NS))
        || (!e.attrs.is_empty() && attr(e.attrs, "hidden").is_some())
}

/// What [`significance_if_clean`] reads of an element: whether its subtree (itself
/// included) is excluded from significant content, and whether it is significant content
/// itself (when not excluded).
#[cfg(feature = "strict-sanitize")]
pub(crate) fn element_significance(e: &Element<'_>) -> (bool, bool) {
    (is_excluding(e), is_significant_element(e))
}

/// "Feed significant content" elements (NOTES §3).
fn is_significant_element(e: &Element<'_>) -> bool {
    // The local name first: a short compare that rules out almost every element.
    match e.local {
        "img" | "iframe" | "embed" | "object" | "video" | "canvas" => e.namespace == HTML_NS,
        "audio" => e.namespace == HTML_NS && attr(e.attrs, "controls").is_some(),
        "input" => {
            e.namespace == HTML_NS
                && !attr(e.attrs, "type").is_some_and(|t| t.eq_ignore_ascii_case("hidden"))
        }
        "svg" => e.namespace == SVG_NS,
        "math" => e.namespace == MATHML_NS,
        _ => false,
    }
}

/// For a flat list with consistent `end`s (the fast tree builder's): its significance when
/// [`sanitize`] would return it unchanged — no HTML 1×1 `img`, no HTML `template` — so the
/// caller can keep the list as it is instead of copying it; `None` when it must be sanitized.
/// The definition the strict tree path's walk, which reads the nodes as it rewrites them
/// ([`CleanSignificance`]), is held to.
#[cfg(test)]
pub(crate) fn significance_if_clean(input: &[Node<'_>]) -> Option<bool> {
    let mut read = CleanSignificance::default();
    read.range(input, 0, input.len()).then_some(read.significant)
}

/// [`significance_if_clean`] read node by node, every node of the list once and in order
/// (a walk reads the nodes it visits and the ranges it skips): whether the nodes read so far
/// are clean, and [`CleanSignificance::significant`] what they give.
#[cfg(any(test, feature = "strict-sanitize"))]
#[derive(Default)]
pub(crate) struct CleanSignificance {
    /// Positions below this are inside an excluding subtree.
    excl_end: usize,
    /// Whether a node read so far is significant content.
    pub(crate) significant: bool,
}

#[cfg(any(test, feature = "strict-sanitize"))]
impl CleanSignificance {
    /// Reads node `i`: false when it is an HTML 1×1 `img` or an HTML `template` (the list
    /// is not clean).
    #[inline]
    pub(crate) fn node(&mut self, i: usize, node: &Node<'_>) -> bool {
        match &node.kind {
            NodeKind::Element(e) => {
                if is_1x1_img(&node.kind) || (e.namespace == HTML_NS && e.local == "template") {
                    return false;
                }
                // Once significant, only cleanliness is left to read.
                if self.significant {
                    return true;
                }
                if i >= self.excl_end && is_excluding(e) {
                    self.excl_end = node.end as usize;
                }
                if i >= self.excl_end && is_significant_element(e) {
                    self.significant = true;
                }
                // Only an XML-built tree gives a void element children: asked of parents only.
                if node.end as usize > i + 1 && i >= self.excl_end && is_void(e) {
                    self.excl_end = node.end as usize; // children never serialized
                }
            }
            NodeKind::Text(t) if !self.significant && i >= self.excl_end && has_non_space(t) => {
                self.significant = true
            }
            _ => {}
        }
        true
    }

    /// Reads the nodes `from..to` of `input`, [`CleanSignificance::node`] each.
    pub(crate) fn range(&mut self, input: &[Node<'_>], from: usize, to: usize) -> bool {
        (from..to).all(|i| self.node(i, &input[i]))
    }
}

/// [`significance_if_clean`] of a list with consistent `end`s that is known to be clean (no
/// HTML 1×1 `img`, no HTML `template`: the fast tree builder reports so), read only up to
/// its first significant node, and past excluded subtrees in one step.
pub(crate) fn significance_of_clean(input: &[Node<'_>]) -> bool {
    let n = input.len();
    let mut i = 0;
    while i < n {
        match &input[i].kind {
            NodeKind::Element(e) => {
                if is_excluding(e) {
                    i = (input[i].end as usize).max(i + 1);
                    continue;
                }
                if is_significant_element(e) {
                    return true;
                }
            }
            NodeKind::Text(t) if has_non_space(t) => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

/// [`sanitize`] of a list with consistent `end`s and no HTML `template` (the fast tree
/// builder's), into a new arena slice: the 1×1 images dropped with their subtrees, every
/// other node's `end` lowered by the number of nodes dropped before it.
///
/// NOTE: two linear passes (a prefix count of the dropped nodes, then the copy) instead of
/// [`sanitize`]'s stack of open elements and per-node clamping; feeds' tracking pixels make
/// this the path of many texts.
pub(crate) fn sanitize_built<'a>(arena: &'a Bump, input: &[Node<'a>]) -> (&'a [Node<'a>], bool) {
    let n = input.len();
    // dropped[k]: how many of input[..k] are dropped.
    let mut dropped: bumpalo::collections::Vec<'a, u32> =
        bumpalo::collections::Vec::with_capacity_in(n + 1, arena);
    let mut count = 0u32;
    let mut i = 0;
    while i < n {
        if is_1x1_img(&input[i].kind) {
            let e = (input[i].end as usize).clamp(i + 1, n);
            while i < e {
                dropped.push(count);
                count += 1;
                i += 1;
            }
        } else {
            dropped.push(count);
            i += 1;
        }
    }
    dropped.push(count);
    let mut out: bumpalo::collections::Vec<'a, Node<'a>> =
        bumpalo::collections::Vec::with_capacity_in(n - count as usize, arena);
    for (i, node) in input.iter().enumerate() {
        if dropped[i + 1] != dropped[i] {
            continue;
        }
        let end = (node.end as usize).clamp(i + 1, n);
        out.push(Node { kind: node.kind, end: (end - dropped[end] as usize) as u32 });
    }
    let out = out.into_bump_slice();
    (out, significance_of_clean(out))
}

/// Sanitizes `input` into a new arena slice; returns it and whether it has significant content.
/// `templates`: sorted input indices of HTML `template` elements whose children are template
/// contents (copied verbatim: neither sanitized nor significant). Empty for XML input.
/// `merge_text`: adjacent sibling Text nodes of the *input* are joined into one (a DOM built by
/// an XML parser never has them; callers may split text at CDATA sections or references).
/// Text nodes that become adjacent by removing an img are never joined.
pub(crate) fn sanitize<'a>(
    arena: &'a Bump,
    input: &[Node<'a>],
    templates: &[u32],
    merge_text: bool,
) -> (&'a [Node<'a>], bool) {
    let n = input.len();
    let mut out: bumpalo::collections::Vec<'a, Node<'a>> =
        bumpalo::collections::Vec::with_capacity_in(n, arena);
    // Open elements: (input end, output index).
    let mut open: bumpalo::collections::Vec<'a, (usize, usize)> =
        bumpalo::collections::Vec::new_in(arena);
    let mut significant = false;
    let mut excl_end = 0usize; // input positions < excl_end are inside an excluding subtree
    let mut verbatim_end = 0usize; // input positions < verbatim_end are template contents
    let mut tpl = templates.iter().copied().peekable();
    // (input index, open-stack depth) of the last Text node pushed.
    let mut prev_text: Option<(usize, usize)> = None;
    let mut i = 0usize;
    while i < n {
        while let Some(&(e, oi)) = open.last() {
            if e > i {
                break;
            }
            out[oi].end = out.len() as u32;
            open.pop();
        }
        let limit = open.last().map_or(n, |&(e, _)| e);
        let node = input[i];
        let end = match node.kind {
            NodeKind::Element(_) => (node.end as usize).clamp(i + 1, limit),
            _ => i + 1, // only elements have children
        };
        let verbatim = i < verbatim_end;
        if !verbatim && is_1x1_img(&node.kind) {
            i = end;
            continue;
        }
        let oi = out.len();
        match &node.kind {
            NodeKind::Element(e) if !verbatim => {
                if i >= excl_end && is_excluding(e) {
                    excl_end = end;
                }
                if !significant && i >= excl_end && is_significant_element(e) {
                    significant = true;
                }
                // Only an XML-built tree gives a void element children: asked of parents only.
                if end > i + 1 && i >= excl_end && is_void(e) {
                    excl_end = end; // children never serialized
                }
                while tpl.peek().is_some_and(|&t| (t as usize) < i) {
                    tpl.next();
                }
                if tpl.peek() == Some(&(i as u32)) {
                    verbatim_end = end;
                }
            }
            NodeKind::Text(t) if !verbatim && !significant && i >= excl_end && has_non_space(t) => {
                significant = true;
            }
            _ => {}
        }
        if let NodeKind::Text(t) = node.kind {
            if merge_text && i > 0 && prev_text == Some((i - 1, open.len())) {
                if let Some(Node { kind: NodeKind::Text(p), .. }) = out.last_mut() {
                    let mut joined =
                        bumpalo::collections::String::with_capacity_in(p.len() + t.len(), arena);
                    joined.push_str(p);
                    joined.push_str(t);
                    *p = joined.into_bump_str();
                    prev_text = Some((i, open.len()));
                    i += 1;
                    continue;
                }
            }
            prev_text = Some((i, open.len()));
        }
        out.push(Node { kind: node.kind, end: oi as u32 + 1 });
        if end > i + 1 {
            open.push((end, oi));
        }
        i += 1;
    }
    let len = out.len() as u32;
    for &(_, oi) in &open {
        out[oi].end = len;
    }
    (out.into_bump_slice(), significant)
}
