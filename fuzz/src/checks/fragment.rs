//! HTML fragments: their structural invariants, and the documented cases where re-parsing a
//! fragment's HTML serialization does not give an equal fragment.

use super::*;

/// Structural invariants of a fragment: pre-order `end`s nest, and it is sanitized (no HTML
/// `img` with `width="1"` and `height="1"`).
pub fn check_fragment(h: &Html<'_>) {
    let nodes = h.nodes();
    assert!(!nodes.is_empty(), "empty fragment handed out");
    // Stack of open ranges' ends.
    let mut stack: Vec<usize> = vec![nodes.len()];
    // End of the outermost open HTML `template` (ranges nest, so the largest end covers all).
    let mut template_until = 0;
    for (i, n) in nodes.iter().enumerate() {
        while *stack.last().unwrap() <= i {
            stack.pop();
        }
        let end = n.end as usize;
        assert!(
            end > i && end <= *stack.last().unwrap(),
            "node {i}: end {end} outside its parent's range"
        );
        // Template contents are not DOM descendants of the fragment (they live in the
        // template's content fragment), so the spec's sanitize step does not reach them: a 1x1
        // img there is kept by design (found by this target; see fuzz/README.md).
        let in_template = i < template_until;
        match n.kind {
            NodeKind::Element(e) => {
                if e.namespace == HTML_NS && e.local == "template" {
                    template_until = template_until.max(n.end as usize);
                }
                if e.namespace == HTML_NS && e.local == "img" && !in_template {
                    let attr = |name: &str| {
                        e.attrs
                            .iter()
                            .find(|a| a.namespace.is_empty() && a.local == name)
                            .map(|a| a.value)
                    };
                    assert!(
                        !(attr("width") == Some("1") && attr("height") == Some("1")),
                        "unsanitized 1x1 img in a fragment"
                    );
                }
            }
            _ => assert_eq!(end, i + 1, "non-element node {i} has children"),
        }
        stack.push(end);
    }
    assert!(h.is_equal_node(h), "a fragment is not equal to itself");
}

pub(super) const PLAINTEXT: &str = "plaintext element";

pub(super) const CR: &str = "U+000D in the fragment";

pub(super) const REBUILT: &str = "select/table content rebuilt by the tree builder";

pub(super) const SCRIPT_ESCAPE: &str = "script text with <!--";

pub(super) const NESTED_FORM: &str = "a form inside a form";

/// The text children of element node `n` (a node of `nodes`), concatenated.
fn script_text(nodes: &[feedmill::html::Node<'_>], n: &feedmill::html::Node<'_>) -> String {
    let i = nodes.iter().position(|m| std::ptr::eq(m, n)).unwrap();
    let mut out = String::new();
    for m in &nodes[i + 1..n.end as usize] {
        if let NodeKind::Text(t) = m.kind {
            out.push_str(t);
        }
    }
    out
}

const XMLNS_NS: &str = "http://www.w3.org/2000/xmlns/";

/// Why re-parsing a fragment's HTML serialization is not expected to give an `isEqualNode`
/// fragment, or `None` when it is. HTML serialization is not a faithful round trip for every
/// DOM (HTML Standard, "Serializing HTML fragments", warning). Each category below was found by
/// this target (see fuzz/README.md, "Findings"); all are inherent HTML re-parse effects (the
/// one real bug found, `write_html` dropping `xmlns` attributes, is fixed). For adjacent text nodes the
/// weaker property "the HTML serialization is a fixed point of parse + serialize" is asserted;
/// for the others (the value changes at every round trip) nothing is.
pub fn html_roundtrip_exception(h: &Html<'_>) -> Option<&'static str> {
    let nodes = h.nodes();
    // End (node index) of the furthest-reaching `form` seen so far.
    let mut form_end = 0;
    for (i, n) in nodes.iter().enumerate() {
        if let NodeKind::Element(e) = n.kind {
            if e.namespace == HTML_NS && e.local == "form" {
                if i < form_end {
                    // Misnested end tags build a form inside a form (`<form><div></form>` leaves
                    // the form open with the form element pointer cleared, so a later `<form>`
                    // is inserted); re-parsing the serialization, the nested `<form>` start tag
                    // is ignored (the pointer is set). Inherent; nothing asserted.
                    return Some(NESTED_FORM);
                }
                form_end = form_end.max(n.end as usize);
            }
            if e.namespace == HTML_NS
                && e.local == "script"
                && script_text(nodes, n).contains("<!--")
            {
                // Script data with `<!--` enters the tokenizer's (double-)escaped states, where
                // `<script>` ... `</script>` inside the text does not end the element, so the
                // serialized `</script>` re-parses as text and the value grows at every round
                // trip (inherent; HTML cannot serialize such script text). Nothing asserted.
                return Some(SCRIPT_ESCAPE);
            }
            if e.namespace == HTML_NS
                && matches!(
                    e.local,
                    "select"
                        | "table"
                        | "tbody"
                        | "thead"
                        | "tfoot"
                        | "tr"
                        | "td"
                        | "th"
                        | "caption"
                        | "colgroup"
                        | "col"
                )
            {
                // The tree builder's select and table modes (foster parenting, implied end
                // tags, the in-select insertion rules) build trees whose serialization parses
                // to another tree (`<select><p>n<option>a</option></p>` re-parses with the `p`
                // closed before the `option`).
                return Some(REBUILT);
            }
            if e.namespace == HTML_NS && e.local == "plaintext" {
                // `plaintext` has no end tag in the parser: serialized `</plaintext>` (and
                // anything after it) re-parses as its text, so the serialization grows by
                // one `</plaintext>` per round trip: nothing is asserted for such fragments.
                return Some(PLAINTEXT);
            }
        }
    }
    let has_cr = |t: &str| t.contains('\r');
    if nodes.iter().any(|n| match n.kind {
        NodeKind::Text(t) | NodeKind::Comment(t) => has_cr(t),
        NodeKind::Element(e) => e.attrs.iter().any(|a| has_cr(a.value)),
        NodeKind::ProcessingInstruction { data, .. } => has_cr(data),
    }) {
        // A U+000D can only come from a character reference (`&#xd;`); the serializer writes
        // it raw and the parser's input preprocessing turns CR and CRLF into LF. Asserted
        // instead: the re-parsed serialization equals the serialization with newlines
        // normalized.
        return Some(CR);
    }
    // Sibling ranges: node i's next sibling (if any) starts at nodes[i].end.
    for (i, n) in nodes.iter().enumerate() {
        let next = n.end as usize;
        if matches!(n.kind, NodeKind::Text(_))
            && matches!(nodes.get(next).map(|m| m.kind), Some(NodeKind::Text(_)))
        {
            // Only if `next` is a sibling, not the next node after the parent's end: a sibling
            // starts before the parent's end, which holds when some ancestor range contains it.
            if is_sibling(nodes, i, next) {
                // Sanitizing removed a 1x1 img between two text nodes; serialized, the two are
                // one character run, which parses as one Text node.
                return Some("adjacent text nodes");
            }
        }
    }
    None
}

/// Whether node `j` is the next sibling of node `i` (same parent) in the pre-order list.
fn is_sibling(nodes: &[feedmill::html::Node<'_>], i: usize, j: usize) -> bool {
    // The parent of i is the last node p < i with p.end > i; j is a sibling iff it lies in the
    // same parent's range (or both are top-level).
    let parent_end = (0..i)
        .rev()
        .find(|&p| nodes[p].end as usize > i)
        .map_or(nodes.len(), |p| nodes[p].end as usize);
    j < parent_end
}
