//! Character and entity references in XML text and attribute values.
//!
//! Owns the decision of what a reference means: the five XML entities, numeric character
//! references, and — recovery for real-world feeds — HTML named character references, which
//! XML does not define. Anything else is kept literally. Nothing here ever expands a
//! DTD-declared entity, so there is no expansion budget to exhaust.

use markup5ever::data::NAMED_ENTITIES;

/// What a reference resolved to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// One of `lt gt amp quot apos` or a valid numeric reference.
    Xml(char),
    /// A numeric reference to a character XML forbids (NUL, surrogate, out of range): U+FFFD.
    InvalidChar,
    /// An HTML named character reference (one or two code points).
    Html(char, Option<char>),
    /// Nobody defines it; the caller keeps `&name;` literally.
    Unknown,
}

/// Resolves the reference whose name (text between `&` and `;`) is `name`.
pub fn resolve(name: &str) -> Resolved {
    match name {
        "lt" => return Resolved::Xml('<'),
        "gt" => return Resolved::Xml('>'),
        "amp" => return Resolved::Xml('&'),
        "quot" => return Resolved::Xml('"'),
        "apos" => return Resolved::Xml('\''),
        _ => {}
    }
    if let Some(num) = name.strip_prefix('#') {
        let parsed = if let Some(hex) = num.strip_prefix('x').or_else(|| num.strip_prefix('X')) {
            parse_radix(hex, 16)
        } else {
            parse_radix(num, 10)
        };
        return match parsed {
            None => Resolved::Unknown,
            Some(cp) => match char::from_u32(cp) {
                Some(c) if is_xml_char(c) => Resolved::Xml(c),
                _ => Resolved::InvalidChar,
            },
        };
    }
    html_named(name)
}

fn parse_radix(digits: &str, radix: u32) -> Option<u32> {
    if digits.is_empty() || digits.len() > 8 {
        // Longer runs are out of range anyway (leading zeros aside, which no one writes).
        return if digits.is_empty() { None } else { Some(u32::MAX) };
    }
    u32::from_str_radix(digits, radix).ok()
}

/// XML 1.0 `Char` production.
pub fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

fn html_named(name: &str) -> Resolved {
    // The table's keys carry the trailing ';'. Names are short; build the key on the stack.
    let mut buf = [0u8; 40];
    let n = name.len();
    if n == 0 || n + 1 > buf.len() || !name.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Resolved::Unknown;
    }
    buf[..n].copy_from_slice(name.as_bytes());
    buf[n] = b';';
    let key = match std::str::from_utf8(&buf[..=n]) {
        Ok(k) => k,
        Err(_) => return Resolved::Unknown,
    };
    match NAMED_ENTITIES.get(key) {
        Some(&(a, b)) => match char::from_u32(a) {
            Some(c) => Resolved::Html(c, if b == 0 { None } else { char::from_u32(b) }),
            None => Resolved::Unknown,
        },
        None => Resolved::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references() {
        assert_eq!(resolve("amp"), Resolved::Xml('&'));
        assert_eq!(resolve("#x41"), Resolved::Xml('A'));
        assert_eq!(resolve("#65"), Resolved::Xml('A'));
        assert_eq!(resolve("#0"), Resolved::InvalidChar);
        assert_eq!(resolve("#xD800"), Resolved::InvalidChar);
        assert_eq!(resolve("#99999999999"), Resolved::InvalidChar);
        assert_eq!(resolve("#"), Resolved::Unknown);
        assert_eq!(resolve("#xZZ"), Resolved::Unknown);
        assert_eq!(resolve("nbsp"), Resolved::Html('\u{A0}', None));
        assert_eq!(resolve("eacute"), Resolved::Html('é', None));
        assert_eq!(resolve("foo"), Resolved::Unknown);
        assert_eq!(resolve(""), Resolved::Unknown);
    }
}
