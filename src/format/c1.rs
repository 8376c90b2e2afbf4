//! The `c1_control` recovery rule for raw characters: a C1 control (U+0080–U+009F) in a
//! windows-1252-compatible document is what a windows-1252 document converted as ISO-8859-1
//! left behind (`\u{92}` for `’`); it is read as the windows-1252 character (the HTML
//! Standard's table). References (`&#146;`) are mapped by the XML reader.

use bumpalo::Bump;

use crate::xml::entities::c1_to_windows_1252;

/// The document with its C1 controls mapped, the offset of the first one and how many were
/// mapped; `None` (no copy) when there is none to map. One `memchr` pass over the text.
pub fn map_c1<'a>(arena: &'a Bump, text: &'a str) -> Option<(&'a str, usize, usize)> {
    let bytes = text.as_bytes();
    // In UTF-8, U+0080–U+009F are C2 80–C2 9F.
    let is_c1 = |i: usize| bytes.get(i + 1).is_some_and(|b| (0x80..0xA0).contains(b));
    let first = memchr::memchr_iter(0xC2, bytes).find(|&i| is_c1(i))?;
    let mut out = bumpalo::collections::String::with_capacity_in(text.len() + 16, arena);
    let mut count = 0;
    let mut copied = 0;
    for i in memchr::memchr_iter(0xC2, &bytes[first..]).map(|i| i + first) {
        if !is_c1(i) {
            continue;
        }
        let c = text[i..].chars().next().unwrap_or('\u{FFFD}');
        if let Some(m) = c1_to_windows_1252(c) {
            out.push_str(&text[copied..i]);
            out.push(m);
            copied = i + 2;
            count += 1;
        }
    }
    if count == 0 {
        return None;
    }
    out.push_str(&text[copied..]);
    Some((out.into_bump_str(), first, count))
}

#[cfg(test)]
mod tests {
    #[test]
    fn c1_controls_are_mapped() {
        let arena = bumpalo::Bump::new();
        let (t, first, n) = super::map_c1(&arena, "It\u{92}s \u{93}ok\u{94} \u{81}").unwrap();
        assert_eq!((t, first, n), ("It\u{2019}s \u{201C}ok\u{201D} \u{81}", 2, 3));
        assert!(super::map_c1(&arena, "caf\u{E9} \u{A0}").is_none());
    }
}
