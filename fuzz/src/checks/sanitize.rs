//! Strict sanitizing (`--sanitize strict`): its output, parsed as a browser would, holds
//! nothing unsafe, and sanitizing is a fixed point.

use super::*;

/// Elements strict sanitizing removes (with or without their content) and attributes it
/// drops, as documented in `feedmill::sanitize`.
const UNSAFE_ELEMENTS: &[&str] = &[
    "script",
    "style",
    "iframe",
    "object",
    "embed",
    "applet",
    "frame",
    "frameset",
    "noscript",
    "noembed",
    "noframes",
    "template",
    "base",
    "meta",
    "link",
    "title",
    // Kept: the presentation MathML and safe SVG subset; removed: what inside them can
    // execute, fetch or re-parse differently (compared case-insensitively).
    "foreignobject",
    "annotation-xml",
    "mglyph",
    "malignmark",
    "maction",
    "use",
    "image",
    "feimage",
    "set",
    "handler",
    "listener",
    "xmp",
    "plaintext",
    "input",
    "button",
    "select",
    "textarea",
    "keygen",
    "form",
];

const UNSAFE_ATTRIBUTES: &[&str] =
    &["style", "srcdoc", "formaction", "action", "ping", "http-equiv"];

const URL_ATTRIBUTES: &[&str] = &[
    "href",
    "src",
    "srcset",
    "poster",
    "cite",
    "background",
    "longdesc",
    "lowsrc",
    "dynsrc",
    "usemap",
    "data",
    "codebase",
];

/// The output of strict sanitizing, parsed as a browser would: no unsafe element, no
/// comment, no event handler or unsafe attribute, and every URL attribute's scheme (after
/// removing whitespace, controls and invisible format characters, as a browser ignores them)
/// on the allowlist.
pub fn check_strictly_safe(html: &str) {
    let arena = Bump::new();
    let Some(Text::Html(h)) = feedmill::html::parse_escaped_html_reference(&arena, html) else {
        return;
    };
    for n in h.nodes() {
        match n.kind {
            NodeKind::Comment(_) => panic!("a comment survived strict sanitizing: {html:?}"),
            NodeKind::Element(el) => {
                let local = el.local.to_ascii_lowercase();
                assert!(
                    !UNSAFE_ELEMENTS.contains(&local.as_str()) && !local.starts_with("animate"),
                    "<{}> survived strict sanitizing: {html:?}",
                    el.local
                );
                for a in el.attrs {
                    let name = a.local.to_ascii_lowercase();
                    assert!(
                        !name.starts_with("on") && !UNSAFE_ATTRIBUTES.contains(&name.as_str()),
                        "attribute {name} survived: {html:?}"
                    );
                    if URL_ATTRIBUTES.contains(&name.as_str()) || name == "href" {
                        // Only a srcset is a comma-separated list of URLs; any other URL
                        // attribute is one URL, commas included.
                        let candidates: Vec<&str> = if name.ends_with("srcset") {
                            a.value.split(',').collect()
                        } else {
                            vec![a.value]
                        };
                        for candidate in candidates {
                            let v: String = candidate
                                .chars()
                                .filter(|c| !c.is_whitespace() && !c.is_control() && !matches!(c, '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{AD}'))
                                .collect::<String>()
                                .to_ascii_lowercase();
                            let scheme_end = v.find([':', '/', '?', '#']);
                            // A scheme is an ASCII letter then letters, digits, `+`, `-`, `.`
                            // (URL Standard, scheme start state); anything else before the
                            // first `:` makes the URL relative.
                            let is_scheme = |s: &str| {
                                s.starts_with(|c: char| c.is_ascii_alphabetic())
                                    && s.chars().all(|c| {
                                        c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')
                                    })
                            };
                            if let Some(i) = scheme_end
                                .filter(|&i| v.as_bytes()[i] == b':' && is_scheme(&v[..i]))
                            {
                                let scheme = &v[..i];
                                assert!(
                                    ["http", "https", "mailto", "tel", "ftp"].contains(&scheme),
                                    "{name}={:?} (scheme {scheme:?}) survived strict sanitizing: {html:?}",
                                    a.value
                                );
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// Strict sanitizing of `text` is safe (see [`check_strictly_safe`]) and a fixed point.
pub fn check_strict_sanitizing(text: &str) {
    use feedmill::sanitize::{sanitize_html, SanitizeOptions};
    let opts = SanitizeOptions::default();
    // The lol_html pass computed from the tree, where it applies, is lol_html's output.
    if let Some((lol_html, Some(tree))) = feedmill::sanitize::pass_both_ways(text, &opts) {
        assert_eq!(tree, lol_html, "tree rewrite differs from lol_html for {text:?}");
    }
    let once = sanitize_html(text, &opts);
    // A pass that knows it is the last changes nothing against running every pass.
    assert_eq!(
        feedmill::sanitize::sanitize_html_every_pass(text, &opts),
        once,
        "the settled shortcut changed strict sanitizing of {text:?}"
    );
    check_strictly_safe(&once);
    assert_eq!(
        sanitize_html(&once, &opts),
        once,
        "strict sanitizing is not idempotent for {text:?}"
    );
}
