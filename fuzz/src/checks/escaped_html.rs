//! The `escaped_html` and `escaped_html_heavy` targets: escaped HTML in an RSS description
//! parses to a sane fragment; heavy: its serializations round-trip.

use super::fragment::{CR, NESTED_FORM, PLAINTEXT, REBUILT, SCRIPT_ESCAPE};
use super::*;

/// An HTML serialization with what re-parsing does to its newlines undone on both sides of a
/// comparison: CRLF and CR become LF (input preprocessing), and the newlines right after a
/// `pre`, `textarea` or `listing` start tag are removed. The tree builder drops one LF there
/// (HTML elements only) and the serializer doubles a leading LF (so it survives), but a text
/// that starts with a CR (from `&#xd;`) is written as is; how many newlines open such an
/// element's text is not asserted.
fn newlines_normalized(html: &str) -> String {
    let html = html.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(html.len());
    let mut rest = html.as_str();
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if rest.starts_with("<!--") {
            // A comment is copied whole (it may hold quotes and tags).
            let end = rest.find("-->").map_or(rest.len(), |i| i + 3);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        }
        let Some(tag_end) = serialized_tag_end(rest) else {
            out.push_str(rest);
            rest = "";
            break;
        };
        let name = &rest[1..rest.find([' ', '>']).unwrap_or(tag_end)];
        let is_newline_eater = matches!(name, "pre" | "textarea" | "listing");
        out.push_str(&rest[..tag_end]);
        rest = &rest[tag_end..];
        if matches!(name, "script" | "style" | "xmp" | "iframe" | "noembed" | "noframes") {
            // Raw text is serialized unescaped: copied up to its end tag (the serializer's
            // list; `noscript` is escaped, fragments being parsed with scripting disabled).
            let close = format!("</{name}");
            let end = rest.find(&close).unwrap_or(rest.len());
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        }
        if is_newline_eater {
            rest = rest.trim_start_matches('\n');
        }
    }
    out.push_str(rest);
    out
}

/// The length of the tag at the start of `html` as the HTML serializer writes it: `<`, the
/// name (no space or `>`), then per attribute a space, its name (the first character any,
/// then none of space, `/`, `>`, `=`; names may hold `"`), `="`, the value (with `"`
/// escaped) and `"`, then `>`. `None` when it does not read so.
fn serialized_tag_end(html: &str) -> Option<usize> {
    let mut i = html.find([' ', '>'])?;
    loop {
        match html.as_bytes()[i] {
            b'>' => return Some(i + 1),
            b' ' => {
                let first = html[i + 1..].chars().next()?;
                let name_rest = i + 1 + first.len_utf8();
                let eq = name_rest + html[name_rest..].find(['=', ' ', '/', '>'])?;
                if html.as_bytes()[eq] != b'=' {
                    return None;
                }
                let value = eq + 1 + html[eq + 1..].strip_prefix('"').map(|_| 1)?;
                i = value + html[value..].find('"')? + 1;
                if i >= html.len() {
                    return None;
                }
            }
            _ => return None,
        }
    }
}

/// HTML serialization of an escaped-HTML result (a plain string is one text node).
fn html_of(t: &Option<Text<'_>>) -> String {
    match t {
        None => String::new(),
        Some(Text::Html(h)) => h.to_html_string(),
        Some(Text::Plain(p)) => {
            let mut out = String::new();
            for c in p.chars() {
                match c {
                    '&' => out.push_str("&amp;"),
                    '\u{a0}' => out.push_str("&nbsp;"),
                    '<' => out.push_str("&lt;"),
                    '>' => out.push_str("&gt;"),
                    c => out.push(c),
                }
            }
            out
        }
    }
}

/// `escaped_html` target: the input as escaped HTML text, parsed once: a plain result has
/// non-whitespace; a fragment is well formed, sanitized, equal to itself and serializes to
/// non-empty HTML and XML.
pub fn check_escaped_html(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let arena = Bump::new();
    match feedmill::html::parse_escaped_html(&arena, &text) {
        None => {}
        Some(Text::Plain(p)) => {
            assert!(
                !p.trim_matches(|c: char| c.is_ascii_whitespace()).is_empty(),
                "insignificant plain text handed out"
            );
        }
        Some(Text::Html(h)) => {
            check_fragment(&h);
            assert!(
                !h.to_xml_string().is_empty() && !h.to_html_string().is_empty(),
                "an Html value serializes to nothing"
            );
        }
    }
}

/// `escaped_html_heavy` target: everything [`check_escaped_html`] asserts, plus strict
/// sanitizing (its output parsed by the html5ever reference parser: nothing unsafe survives;
/// idempotent), determinism, and the re-parse round trip of the HTML serialization.
pub fn check_escaped_html_heavy(data: &[u8]) {
    check_escaped_html(data);
    let text = String::from_utf8_lossy(data);
    check_strict_sanitizing(&text);
    let arena = Bump::new();
    let first = feedmill::html::parse_escaped_html(&arena, &text);
    let arena2 = Bump::new();
    let again = feedmill::html::parse_escaped_html(&arena2, &text);
    match (&first, &again) {
        (None, None) => {}
        (Some(a), Some(b)) => {
            assert!(a.same_text_content(b), "escaped HTML parse is not deterministic")
        }
        _ => panic!("escaped HTML parse is not deterministic"),
    }
    // The light checks (plain text significant, fragment well formed, non-empty
    // serializations) ran above; here the serialization's re-parse round trip.
    if let Some(Text::Html(h)) = first {
        let xml = h.to_xml_string();
        let html = h.to_html_string();
        // Sanitizing an already-sanitized value changes nothing.
        let arena3 = Bump::new();
        let again = feedmill::html::parse_escaped_html(&arena3, &html);
        match (html_roundtrip_exception(&h), &again) {
            (None, Some(Text::Html(h2))) => assert!(
                h.is_equal_node(h2),
                "re-parsing the HTML serialization changed the fragment:\n  before {xml}\n  after  {}",
                h2.to_xml_string()
            ),
            (None, other) => panic!("re-parsing the HTML serialization {html:?} gave {other:?}"),
            // Even "stable after one re-parse" does not hold for select/table content (2
            // of 3,897 corpus inputs, e.g. fuzz/regressions/escaped_html/
            // table-content-not-stable-after-two-reparses): nothing asserted.
            (Some(PLAINTEXT | SCRIPT_ESCAPE | REBUILT | NESTED_FORM), _) => {}
            (Some(CR), _) => {
                assert_eq!(
                    newlines_normalized(&html_of(&again)),
                    newlines_normalized(&html),
                    "re-parsing changed more than CR normalization"
                );
            }
            (Some(why), _) => {
                // (CRs from `&#xd;` are normalized to LF on re-parse, as in the CR category.)
                assert_eq!(
                    newlines_normalized(&html_of(&again)),
                    newlines_normalized(&html),
                    "HTML serialization is not a fixed point ({why})"
                );
            }
        }
    }
}
