//! The raw-content reader for plain-text elements (§3.1): references resolved, CDATA
//! unwrapped, the first child element and the first non-hexadecimal escape noted.

use std::borrow::Cow;

use crate::xml::entities::Resolved;

/// The raw content of an element, read for §3.1.
pub struct Raw<'a> {
    /// The character data: references resolved (the five XML entities and numeric
    /// references; other references kept as written), CDATA unwrapped, comments and
    /// processing instructions dropped, the text of child elements kept.
    pub text: Cow<'a, str>,
    /// The first child element's qualified name.
    pub child: Option<&'a str>,
    /// The first way `&`, `<` or `>` was encoded other than by a hexadecimal character
    /// reference (`&amp;`, `&#60;`, `<![CDATA[`), if any.
    pub non_hex: Option<&'a str>,
}

/// Reads the raw content `s` of an element.
pub fn read_raw(s: &str) -> Raw<'_> {
    if memchr::memchr2(b'&', b'<', s.as_bytes()).is_none() {
        return Raw { text: Cow::Borrowed(s), child: None, non_hex: None };
    }
    let mut out = String::with_capacity(s.len());
    let mut child = None;
    let mut non_hex = None;
    let mut i = 0;
    let b = s.as_bytes();
    while i < s.len() {
        let Some(k) = memchr::memchr2(b'&', b'<', &b[i..]) else {
            out.push_str(&s[i..]);
            break;
        };
        out.push_str(&s[i..i + k]);
        i += k;
        let rest = &s[i..];
        if let Some(after) = rest.strip_prefix('&') {
            let Some(semi) = after.find(';').filter(|&e| e <= 32) else {
                out.push('&');
                non_hex.get_or_insert("&");
                i += 1;
                continue;
            };
            let name = &after[..semi];
            let whole = &rest[..semi + 2];
            // XML's references only (the predefined names, numeric references to XML
            // characters), as the XML reader resolves them; anything else stays as written.
            let c = match crate::xml::entities::resolve(name) {
                Resolved::Xml(c) => Some(c),
                Resolved::InvalidChar | Resolved::Html(..) | Resolved::Unknown => None,
            };
            match c {
                Some(c) => {
                    let is_hex = name.starts_with("#x") || name.starts_with("#X");
                    if matches!(c, '&' | '<' | '>') && !is_hex {
                        non_hex.get_or_insert(whole);
                    }
                    out.push(c);
                }
                None => out.push_str(whole),
            }
            i += whole.len();
        } else if let Some(body) = rest.strip_prefix("<![CDATA[") {
            let end = body.find("]]>").unwrap_or(body.len());
            let data = &body[..end];
            if data.contains(['&', '<']) {
                non_hex.get_or_insert("<![CDATA[");
            }
            out.push_str(data);
            i += 9 + (end + 3).min(body.len());
        } else if let Some(body) = rest.strip_prefix("<!--") {
            i += 4 + body.find("-->").map_or(body.len(), |e| e + 3);
        } else if rest.starts_with("<?") {
            i += rest.find("?>").map_or(rest.len(), |e| e + 2);
        } else {
            // A tag: note the first child element, drop the markup, keep its text.
            if child.is_none() && rest.as_bytes().get(1).is_some_and(|c| c.is_ascii_alphabetic()) {
                let n = rest[1..]
                    .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
                    .map_or(rest.len(), |e| e + 1);
                child = Some(&rest[1..n]);
            }
            i += rest.find('>').map_or(rest.len(), |e| e + 1);
        }
    }
    Raw { text: Cow::Owned(out), child, non_hex }
}

/// The length of the comment, CDATA section or processing instruction at the start of `s`
/// (which starts with `<`), when it is one: markup that is no child element.
fn markup_len(s: &str) -> Option<usize> {
    let (close, open) = if s.starts_with("<!--") {
        ("-->", 4)
    } else if s.starts_with("<![CDATA[") {
        ("]]>", 9)
    } else if s.starts_with("<?") {
        ("?>", 2)
    } else {
        return None;
    };
    Some(s[open..].find(close).map_or(s.len(), |i| open + i + close.len()))
}

/// The qualified name of the first child element in the raw content `s`, comments, CDATA
/// sections and processing instructions skipped; without copying the text (a large `content`
/// is scanned, not decoded).
pub fn first_child_element(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'<', &b[i..]) {
        i += k;
        if let Some(n) = markup_len(&s[i..]) {
            i += n;
            continue;
        }
        let rest = &s[i + 1..];
        let end = rest.find(|c: char| c.is_whitespace() || matches!(c, '>' | '/')).unwrap_or(0);
        if end > 0 && !rest.starts_with(['!', '/']) {
            return Some(&rest[..end]);
        }
        i += 1;
    }
    None
}

/// Whether the raw content `s` of an `xhtml` text construct starts, after white space,
/// comments and processing instructions, with a `div` start tag (any prefix: RFC 4287 §3.1.1.3,
/// "the content of atom:text … MUST be a single XHTML div element"; the namespace is the
/// document's business, as the Feed Validator checks it).
pub fn starts_with_div(s: &str) -> bool {
    let mut s = s.trim_start();
    while s.starts_with("<!--") || s.starts_with("<?") {
        let Some(n) = markup_len(s) else { break };
        s = s[n..].trim_start();
    }
    let Some(tag) = s.strip_prefix('<') else { return false };
    let end = tag.find(|c: char| c.is_whitespace() || matches!(c, '>' | '/')).unwrap_or(tag.len());
    let name = &tag[..end];
    end < tag.len() && name.rsplit(':').next() == Some("div") && name.split(':').count() <= 2
}
