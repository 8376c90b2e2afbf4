//! Character references (named, numeric, legacy without `;`) and attribute values of the fast
//! tokenizer, decoded as html5ever's tokenizer decodes them.

#[cfg(feature = "strict-sanitize")]
use std::borrow::Cow;

use bumpalo::Bump;
use markup5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};

/// The most frequent `;`-terminated named references of feed content, decoded without the
/// (hashing) lookup in the full table; the same values as the table (see the tests).
#[inline]
pub(super) fn common_entity(name: &str) -> Option<char> {
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{A0}',
        "copy" => '\u{A9}',
        "ndash" => '\u{2013}',
        "mdash" => '\u{2014}',
        "lsquo" => '\u{2018}',
        "rsquo" => '\u{2019}',
        "ldquo" => '\u{201C}',
        "rdquo" => '\u{201D}',
        "hellip" => '\u{2026}',
        _ => return None,
    })
}

/// Decodes a character reference starting at `b[i] == b'&'` as html5ever's tokenizer does
/// (`in_attr`: inside an attribute value). Appends the decoded text via `push` and returns
/// the index after the reference; `Some(i + 1)` with a literal `&` pushed when it is not a
/// reference (the rest is then read as text).
#[inline]
pub(super) fn char_ref(
    text: &str,
    i: usize,
    in_attr: bool,
    push: &mut impl FnMut(&str, Option<char>),
) -> Option<usize> {
    let b = text.as_bytes();
    let n = b.len();
    let j = i + 1;
    match b.get(j) {
        Some(c) if c.is_ascii_alphanumeric() => {
            let mut k = j;
            while k < n && b[k].is_ascii_alphanumeric() {
                k += 1;
            }
            if k < n && b[k] == b';' {
                if let Some(c) = common_entity(&text[j..k]) {
                    push("", Some(c));
                    return Some(k + 1);
                }
                // The table's keys of `;`-terminated names include the `;`.
                if let Some(&(c1, c2)) = NAMED_ENTITIES.get(&text[j..=k]) {
                    if c1 != 0 {
                        push("", char::from_u32(c1));
                        if c2 != 0 {
                            push("", char::from_u32(c2));
                        }
                        return Some(k + 1);
                    }
                }
            }
            // Every name of the table has two characters or more, of which a non-alphanumeric
            // one can only be a final `;` (see the tests): a run of one (`AT&T`, `?a=1&b=2`)
            // starts none, and the prefix walk's hashed look-ups would find that out. Past
            // the look-up of the run + `;` above, the walk can only match a name without `;`
            // inside the run, which starts with one of few pairs.
            if k - j < 2 || !starts_legacy_name(b[j], b[j + 1]) {
                push("&", None);
                return Some(j);
            }
            named_ref_prefix(text, j, in_attr, push)
        }
        Some(b'#') => {
            let mut k = j + 1;
            let hex = matches!(b.get(k), Some(b'x' | b'X'));
            if hex {
                k += 1;
            }
            let ds = k;
            let mut v: u32 = 0;
            while k < n {
                let d = match (b[k] as char).to_digit(if hex { 16 } else { 10 }) {
                    Some(d) => d,
                    None => break,
                };
                v = v.saturating_mul(if hex { 16 } else { 10 }).saturating_add(d);
                k += 1;
            }
            if k == ds {
                // "&#" / "&#x" without digits: not a reference.
                push("&", None);
                return Some(j);
            }
            let c = match v {
                0 | 0xD800..=0xDFFF | 0x11_0000.. => '\u{FFFD}',
                0x80..=0x9F => {
                    C1_REPLACEMENTS[(v - 0x80) as usize].or_else(|| char::from_u32(v))?
                }
                v => char::from_u32(v)?,
            };
            push("", Some(c));
            if k < n && b[k] == b';' {
                k += 1;
            }
            Some(k)
        }
        _ => {
            push("&", None);
            Some(j)
        }
    }
}

/// Whether a name starting with `a b` can be a full match of [`named_ref_prefix`]'s walk
/// inside a run of alphanumerics: such a match is a name the table holds without `;` (the
/// legacy names, `amp`, `eacute`, `frac12`...; a name with `;` ends at the `;`), so its first
/// two characters are one of the pairs of [`LEGACY_PAIRS`]. A filter before the walk's hashed
/// look-ups: a run starting otherwise (`&utm_source`, `&id=`) matches nothing.
#[inline]
fn starts_legacy_name(a: u8, b: u8) -> bool {
    a < 128 && b < 128 && (LEGACY_PAIRS[a as usize] >> b) & 1 != 0
}

/// The first two characters of the table's names without `;`, derived from the table at
/// compile time: bit `b` of entry `a` is set when such a name starts with `a b` (ASCII).
static LEGACY_PAIRS: [u128; 128] = legacy_pairs();

/// [`LEGACY_PAIRS`], from [`NAMED_ENTITIES`]. Its entries are read through phf's `Map::entries`
/// field (public, hidden from phf's docs: the field its `phf_map!` fills), the only way to
/// read the table in a `const`; the tests check the pairs against the table's public
/// iterator.
const fn legacy_pairs() -> [u128; 128] {
    let entries = NAMED_ENTITIES.entries;
    let mut pairs = [0u128; 128];
    let mut i = 0;
    while i < entries.len() {
        let (name, (c1, _)) = entries[i];
        let n = name.as_bytes();
        // An entry with no character is a prefix of longer names, not a name.
        if c1 != 0 && n[n.len() - 1] != b';' {
            assert!(
                n.len() >= 2 && n[0] < 128 && n[1] < 128,
                "a legacy name of two ASCII bytes or more"
            );
            pairs[n[0] as usize] |= 1 << n[1];
        }
        i += 1;
    }
    pairs
}

/// A named reference that is not simply a known name + `;`, from its first name character
/// at `j`: html5ever reads characters while they are a prefix of some name in the table and
/// takes the longest full match, legacy names without `;` included; in an attribute value a
/// match not ending in `;` and followed by `=` or an alphanumeric is not decoded.
#[cold]
pub(super) fn named_ref_prefix(
    text: &str,
    j: usize,
    in_attr: bool,
    push: &mut impl FnMut(&str, Option<char>),
) -> Option<usize> {
    let b = text.as_bytes();
    let mut best = None;
    let mut k = j;
    // Names are ASCII: a non-ASCII byte ends the match (and `text[j..=k]` stays a str).
    while k < b.len() && b[k].is_ascii() {
        match NAMED_ENTITIES.get(&text[j..=k]) {
            None => break,
            Some(&(c1, c2)) => {
                if c1 != 0 {
                    best = Some((k + 1, c1, c2));
                }
                k += 1;
            }
        }
    }
    let Some((end, c1, c2)) = best else {
        push("&", None);
        return Some(j);
    };
    let next = b.get(end).copied();
    if in_attr && b[end - 1] != b';' && next.is_some_and(|c| c == b'=' || c.is_ascii_alphanumeric())
    {
        push("&", None);
        return Some(j);
    }
    push("", char::from_u32(c1));
    if c2 != 0 {
        push("", char::from_u32(c2));
    }
    Some(end)
}

/// The attribute value `text[s..e]` with character references decoded, given the index of
/// its first `&` (`e` when there is none: the value is then borrowed).
pub(super) fn attr_value<'a>(
    arena: &'a Bump,
    text: &'a str,
    s: usize,
    e: usize,
    first: usize,
) -> Option<&'a str> {
    if first >= e {
        return Some(&text[s..e]);
    }
    let mut out = bumpalo::collections::String::with_capacity_in(e - s, arena);
    out.push_str(&text[s..first]);
    decode_attr_refs(text, first, e, &mut |piece: &str, c: Option<char>| {
        out.push_str(piece);
        if let Some(c) = c {
            out.push(c);
        }
    })?;
    Some(out.into_bump_str())
}

/// Decodes `text[first..end]`, an attribute value's rest from its first `&`, handing the
/// decoded text to `push` piece by piece (runs without references as `(run, None)`, what a
/// reference decodes to as [`char_ref`] hands it). A reference never extends past `end`.
/// `None` when [`char_ref`] gives up.
#[inline]
fn decode_attr_refs(
    text: &str,
    first: usize,
    end: usize,
    push: &mut impl FnMut(&str, Option<char>),
) -> Option<()> {
    let b = text.as_bytes();
    let sub = &text[..end];
    let mut i = first;
    while i < end {
        if b[i] == b'&' {
            i = char_ref(sub, i, true, push)?;
        } else {
            let next = memchr::memchr(b'&', &b[i..end]).map_or(end, |p| i + p);
            push(&text[i..next], None);
            i = next;
        }
    }
    Some(())
}

/// `raw` (an attribute value as written in HTML source) with its character references
/// decoded exactly as an HTML parser decodes an attribute value — [`char_ref`] with
/// `in_attr`: the full named-reference table, legacy names without `;` (not when followed by
/// `=` or an alphanumeric), numeric references with the C1 remapping, and U+FFFD for zero,
/// surrogates and values past U+10FFFF. Nothing else is changed (no newline normalization:
/// the caller's value came from a tokenizer or it did not). Borrowed when `raw` has no `&`.
#[cfg(feature = "strict-sanitize")]
pub(crate) fn decode_attribute_references(raw: &str) -> Cow<'_, str> {
    let Some(first) = memchr::memchr(b'&', raw.as_bytes()) else {
        return Cow::Borrowed(raw);
    };
    let mut out = String::with_capacity(raw.len());
    out.push_str(&raw[..first]);
    let decoded = decode_attr_refs(raw, first, raw.len(), &mut |piece: &str, c: Option<char>| {
        out.push_str(piece);
        if let Some(c) = c {
            out.push(c);
        }
    });
    // `char_ref` gives up on nothing (every value it maps is a char); were it to, the value
    // would be kept as written.
    match decoded {
        Some(()) => Cow::Owned(out),
        None => Cow::Borrowed(raw),
    }
}

/// `s` ASCII-lowercased: borrowed when it already is.
#[inline]
pub(super) fn lower<'a>(arena: &'a Bump, s: &'a str) -> &'a str {
    if s.bytes().any(|b| b.is_ascii_uppercase()) {
        let mut t = bumpalo::collections::String::from_str_in(s, arena);
        t.make_ascii_lowercase();
        t.into_bump_str()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `starts_legacy_name` ([`LEGACY_PAIRS`], derived from `NAMED_ENTITIES` in a `const`)
    /// holds for exactly the first two characters of the table's names without `;`, and
    /// `char_ref` with it decodes as the prefix walk alone: every pair of ASCII alphanumerics
    /// and every such name, followed by nothing, `;`, more name characters, `=` or a space, in
    /// text and in an attribute value.
    #[test]
    fn legacy_name_pairs_filter_the_prefix_walk_exactly() {
        let legacy: Vec<&str> = NAMED_ENTITIES
            .entries()
            .filter(|(k, &(c1, _))| c1 != 0 && !k.ends_with(';'))
            .map(|(k, _)| *k)
            .collect();
        let alnum: Vec<u8> = (0u8..128).filter(u8::is_ascii_alphanumeric).collect();
        let mut texts = legacy.iter().map(|n| format!("&{n}")).collect::<Vec<_>>();
        for &a in &alnum {
            for &b in &alnum {
                let want = legacy.iter().any(|n| n.as_bytes()[..2] == [a, b]);
                let pair = format!("{}{}", a as char, b as char);
                let why = "LEGACY_PAIRS vs NAMED_ENTITIES";
                assert_eq!(starts_legacy_name(a, b), want, "{pair}: {why}");
                texts.push(format!("&{}{}", a as char, b as char));
            }
        }
        let decode = |t: &str, in_attr: bool, walk_only: bool| {
            let mut out = String::new();
            let mut push = |s: &str, c: Option<char>| {
                out.push_str(s);
                out.extend(c);
            };
            let end = if walk_only {
                named_ref_prefix(t, 1, in_attr, &mut push)
            } else {
                char_ref(t, 0, in_attr, &mut push)
            };
            (out, end)
        };
        for t in &texts {
            for suffix in ["", ";", "x", "x;", "lig", "acute;", "12", "=", " "] {
                let t = format!("{t}{suffix}");
                for in_attr in [false, true] {
                    assert_eq!(decode(&t, in_attr, false), decode(&t, in_attr, true), "{t}");
                }
            }
        }
    }
}
