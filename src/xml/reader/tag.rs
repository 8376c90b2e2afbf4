//! A start tag and its attributes: [`Tag`], the single scan of its attribute text
//! ([`Attrs`]: quoting, duplicates, names) and attribute value decoding.

use bumpalo::Bump;

use crate::simd::block;
use crate::xml::entities::{self, Resolved};
use crate::xml::ns::Ns;

/// A start tag (or an empty-element tag, which is followed by a synthetic End).
#[derive(Clone, Copy, Debug)]
pub struct Tag<'a> {
    /// The element's namespace, classified ([`Ns::Other`] for one the spec does not name).
    pub ns: Ns,
    /// The local name (the qualified name after its prefix).
    pub local: &'a str,
    /// The qualified name as written (`dc:creator`).
    pub qname: &'a str,
    /// Raw attribute text after the name, undecoded (cut before the first attribute over
    /// a limit).
    pub attrs_raw: &'a str,
    /// Byte offset of the `<`.
    pub offset: usize,
    /// The attributes of `attrs_raw` as `(qualified name, raw value)`, scanned once when the
    /// reader checked them, so that lookups do not scan the tag text again.
    pub(super) attr_list: &'a [(&'a str, &'a str)],
}

impl<'a> Tag<'a> {
    /// The raw (undecoded) value of the first null-namespace attribute named `name`.
    pub fn raw_attr(&self, name: &str) -> Option<&'a str> {
        self.attr_list.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
    }

    /// The decoded value of the first null-namespace attribute named `name`.
    pub fn attr(&self, arena: &'a Bump, name: &str) -> Option<&'a str> {
        self.raw_attr(name).map(|raw| decode_attr_value(arena, raw))
    }

    /// All attributes, in document order, as `(qualified name, raw value)` (what
    /// [`Attrs`] yields for `attrs_raw`).
    pub fn attrs(&self) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        self.attr_list.iter().copied()
    }
}

/// A lenient attribute scanner over raw tag text: quoted, unquoted and valueless values.
/// A repeated attribute is yielded each time; lookups take the first (as HTML does).
#[derive(Clone)]
pub struct Attrs<'a> {
    rest: &'a str,
}

impl<'a> Attrs<'a> {
    /// A scanner over `raw`, the tag text after the element name.
    pub fn new(raw: &'a str) -> Self {
        Attrs { rest: raw }
    }
}

pub(super) use crate::xml::scan::is_ws;

/// `s` without the leading bytes that satisfy `skip` (ASCII bytes only, so the rest starts at
/// a char boundary).
#[inline(always)]
pub(super) fn skip_bytes(s: &str, skip: impl Fn(u8) -> bool) -> &str {
    let n = s.bytes().position(|b| !skip(b)).unwrap_or(s.len());
    &s[n..]
}

/// One scanned attribute.
pub(super) struct RawAttr<'a> {
    pub(super) name: &'a str,
    pub(super) value: &'a str,
    /// `Some(true)` quoted, `Some(false)` unquoted, `None` no `=value` at all.
    pub(super) quoted: Option<bool>,
    /// Whether `value` holds a `&` (noted while looking for its end).
    pub(super) has_amp: bool,
}

impl<'a> Attrs<'a> {
    /// The remaining unscanned text (to cut `attrs_raw` before an attribute).
    pub(super) fn remaining(&self) -> &'a str {
        self.rest
    }

    /// Inlined into the reader's one attribute loop: out of line, saving and restoring the
    /// registers cost ~24 instructions a call (one call per attribute and one per tag).
    #[inline(always)]
    pub(super) fn next_raw(&mut self) -> Option<RawAttr<'a>> {
        loop {
            let s = skip_bytes(self.rest, |b| is_ws(b) || b == b'/');
            if s.is_empty() {
                self.rest = s;
                return None;
            }
            let name_end = attr_name_len(s.as_bytes());
            if name_end == 0 {
                // A stray '=' or '>': skip one byte (ASCII, so a char boundary).
                self.rest = &s[1..];
                continue;
            }
            let name = &s[..name_end];
            let after = skip_bytes(&s[name_end..], is_ws);
            if let Some(v) = after.strip_prefix('=') {
                let v = skip_bytes(v, is_ws);
                match v.as_bytes().first() {
                    Some(&q) if q == b'"' || q == b'\'' => {
                        // The closing quote, noting a `&` on the way.
                        let body = &v[1..];
                        let mut from = 0;
                        let mut has_amp = false;
                        loop {
                            match block::find_any(&body.as_bytes()[from..], [q, b'&']) {
                                Some(i) if body.as_bytes()[from + i] == b'&' => {
                                    has_amp = true;
                                    from += i + 1;
                                }
                                Some(i) => {
                                    let end = from + i;
                                    self.rest = &body[end + 1..];
                                    return Some(RawAttr {
                                        name,
                                        value: &body[..end],
                                        quoted: Some(true),
                                        has_amp,
                                    });
                                }
                                None => {
                                    self.rest = "";
                                    return Some(RawAttr {
                                        name,
                                        value: body,
                                        quoted: Some(false),
                                        has_amp,
                                    });
                                }
                            }
                        }
                    }
                    _ => {
                        let end = v.bytes().position(is_ws).unwrap_or(v.len());
                        self.rest = &v[end..];
                        let value = &v[..end];
                        let has_amp = block::find_byte(value.as_bytes(), b'&').is_some();
                        return Some(RawAttr { name, value, quoted: Some(false), has_amp });
                    }
                }
            } else {
                self.rest = after;
                return Some(RawAttr { name, value: "", quoted: None, has_amp: false });
            }
        }
    }
}

/// Length of the attribute name at the start of `bytes`: up to the first whitespace, `=`,
/// `/` or `>`. Names are short: one block compare finds the end, with bytes up to the space
/// as candidates (a control character among them is no end: the byte loop then goes on).
#[inline(always)]
pub(super) fn attr_name_len(bytes: &[u8]) -> usize {
    let is_end = |b: u8| is_ws(b) || b == b'=' || b == b'/' || b == b'>';
    let mut from = 0;
    if let Some(b) = block::at(bytes, 0) {
        let candidates = block::eq_mask(b, [b'=', b'/', b'>']) | block::lt_mask(b, b' ' + 1);
        if candidates != 0 {
            let i = candidates.trailing_zeros() as usize;
            if is_end(bytes[i]) {
                return i;
            }
            from = i;
        } else {
            from = block::BLOCK;
        }
    }
    from + bytes[from..].iter().position(|&b| is_end(b)).unwrap_or(bytes.len() - from)
}

impl<'a> Iterator for Attrs<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        self.next_raw().map(|a| (a.name, a.value))
    }
}

/// Decodes an attribute value: references resolved (HTML named references too), literal
/// TAB/LF/CR normalized to spaces, as XML attribute-value normalization does, and other C0
/// control characters (forbidden in XML) replaced by U+FFFD.
pub fn decode_attr_value<'a>(arena: &'a Bump, raw: &'a str) -> &'a str {
    if !needs_attr_decoding(raw.as_bytes()) {
        return raw;
    }
    let mut out = bumpalo::collections::String::with_capacity_in(raw.len(), arena);
    let mut rest = raw;
    while let Some(i) = rest.bytes().position(|b| b == b'&' || b < 0x20) {
        out.push_str(&rest[..i]);
        let b = rest.as_bytes()[i];
        if b != b'&' {
            if is_ws(b) {
                // CRLF counts once.
                out.push(' ');
                rest = if b == b'\r' && rest[i + 1..].starts_with('\n') {
                    &rest[i + 2..]
                } else {
                    &rest[i + 1..]
                };
            } else {
                out.push('\u{FFFD}');
                rest = &rest[i + 1..];
            }
            continue;
        }
        let after = &rest[i + 1..];
        match after.find(';').filter(|&j| j <= 40) {
            Some(j) => {
                match entities::resolve(&after[..j]) {
                    Resolved::Xml(c) | Resolved::Html(c, None) => out.push(c),
                    Resolved::Html(a, Some(b)) => {
                        out.push(a);
                        out.push(b);
                    }
                    Resolved::InvalidChar => out.push('\u{FFFD}'),
                    Resolved::Unknown => out.push_str(&rest[i..i + 2 + j]),
                }
                rest = &after[j + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.into_bump_str()
}

/// Whether an attribute value has anything [`decode_attr_value`] rewrites: a `&`, or a byte
/// below 0x20 (TAB, LF, CR and the forbidden controls). Whole blocks first; values are often
/// URLs longer than one. The last bytes (fewer than 16, often the whole value) as one padded
/// block, not a byte loop.
pub(super) fn needs_attr_decoding(bytes: &[u8]) -> bool {
    let flag = |b: &[u8; block::BLOCK]| block::eq_mask(b, [b'&']) | block::lt_mask(b, 0x20);
    let mut i = 0;
    while let Some(b) = block::at(bytes, i) {
        if flag(b) != 0 {
            return true;
        }
        i += block::BLOCK;
    }
    let rest = &bytes[i..];
    flag(&block::tail_block(rest, b'a')) & ((1u32 << rest.len()) - 1) != 0
}

/// Whether a tag's attribute text holds `xmlns` anywhere (then quick-xml reads its
/// declarations). One block compare per 16 bytes: tags are short, and `x` is rare in them.
pub(super) fn may_declare_namespaces(attrs: &[u8]) -> bool {
    let is_xmlns = |i: usize| attrs[i..].starts_with(b"xmlns");
    let mut at = 0;
    while let Some(b) = block::at(attrs, at) {
        let mut xs = block::eq_mask(b, [b'x']);
        while xs != 0 {
            if is_xmlns(at + xs.trailing_zeros() as usize) {
                return true;
            }
            xs &= xs - 1;
        }
        at += block::BLOCK;
    }
    // The last bytes (fewer than 16; often the whole attribute text) as one padded block.
    let rest = attrs.len() - at;
    let mut xs = block::eq_mask(&block::tail_block(&attrs[at..], 0), [b'x']) & ((1u32 << rest) - 1);
    while xs != 0 {
        if is_xmlns(at + xs.trailing_zeros() as usize) {
            return true;
        }
        xs &= xs - 1;
    }
    false
}

/// Whether only whitespace comes before each attribute name of `attr_list` (slices of
/// `content`, each value followed by its closing quote) in the tag text `content`, whose
/// first `name_len` bytes are the element name.
pub(super) fn gaps_are_ws(content: &str, name_len: usize, attr_list: &[(&str, &str)]) -> bool {
    let base = content.as_ptr() as usize;
    let mut from = name_len;
    for &(name, value) in attr_list {
        let start = (name.as_ptr() as usize).wrapping_sub(base);
        match content.as_bytes().get(from..start) {
            Some(gap) if gap.iter().all(|&b| is_ws(b)) => {}
            _ => return false,
        }
        from = (value.as_ptr() as usize).wrapping_sub(base).wrapping_add(value.len() + 1);
    }
    true
}
