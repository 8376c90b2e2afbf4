//! Extraction over the model (issue #7 part 2): plain text of HTML values.

use bumpalo::Bump;

use crate::html::{Html, NodeKind, HTML_NS};

/// Elements whose content is not text a reader sees.
fn is_hidden(local: &str) -> bool {
    matches!(local, "script" | "style" | "template" | "noscript" | "head" | "title")
}

/// Elements that separate words (block-level and line breaks).
fn is_break(local: &str) -> bool {
    matches!(
        local,
        "p" | "br" | "div" | "li" | "ul" | "ol" | "dl" | "dt" | "dd" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6"
            | "tr" | "td" | "th" | "table" | "thead" | "tbody" | "tfoot" | "caption" | "blockquote" | "pre"
            | "hr" | "section" | "article" | "aside" | "header" | "footer" | "nav" | "figure"
            | "figcaption" | "address" | "main" | "details" | "summary" | "img" | "iframe" | "video"
            | "audio" | "option"
    )
}

/// Plain text of an HTML fragment for indexing: the text nodes in document order, script /
/// style / template content left out, a space between block-level elements, and every run of
/// whitespace collapsed to one space; trimmed. Allocates in `arena` (one string).
pub fn text_content<'a>(arena: &'a Bump, html: &Html<'a>) -> &'a str {
    let nodes = html.nodes();
    let mut out = bumpalo::collections::String::new_in(arena);
    let mut pending_space = false;
    let mut i = 0usize;
    // Ends of open "break" elements, to add a separator after them.
    let mut break_ends: Vec<usize> = Vec::new();
    while i < nodes.len() {
        while break_ends.last().is_some_and(|&e| e <= i) {
            break_ends.pop();
            pending_space = true;
        }
        let node = &nodes[i];
        match node.kind {
            NodeKind::Element(el) => {
                let html_el = el.namespace == HTML_NS || el.namespace.is_empty();
                if html_el && is_hidden(el.local) {
                    i = node.end as usize;
                    pending_space = true;
                    continue;
                }
                if html_el && is_break(el.local) {
                    pending_space = true;
                    break_ends.push(node.end as usize);
                }
            }
            NodeKind::Text(t) => push_collapsed(&mut out, t, &mut pending_space),
            _ => {}
        }
        i += 1;
    }
    out.into_bump_str()
}

/// Appends `t` with whitespace runs collapsed; `pending_space` carries a separator owed
/// from before (written only between two words).
pub(crate) fn push_collapsed(out: &mut bumpalo::collections::String<'_>, t: &str, pending_space: &mut bool) {
    for (k, word) in t.split(|c: char| c.is_whitespace()).enumerate() {
        if k > 0 {
            *pending_space = true;
        }
        if word.is_empty() {
            continue;
        }
        if *pending_space && !out.is_empty() {
            out.push(' ');
        }
        *pending_space = false;
        out.push_str(word);
    }
}
