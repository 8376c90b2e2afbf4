//! The fast tokenizer's scanners: raw text, RCDATA and script data ends, tag names, start and
//! end tags with their attributes (byte-class tables, ASCII lowercasing).

use bumpalo::Bump;

use super::refs::{attr_value, lower};
use crate::html::tags::{self, Tag};
use crate::model::fragment::Attribute;
use crate::simd::block;

/// Scratch vectors live in the per-parse arena: no global-heap allocation per value.
pub(super) type AVec<'a, T> = bumpalo::collections::Vec<'a, T>;

/// After `pre`/`listing`/`textarea`, html5ever drops a newline at the start of the next
/// token: returns the index after it. A reference that may decode to a newline (numeric,
/// `&NewLine;`) is not handled (a parse-error token before it would consume the flag): None.
/// Any other `&` yields something other than a newline first, as the input itself does.
pub(super) fn skip_leading_newline(text: &str, i: usize) -> Option<usize> {
    let rest = &text[i..];
    if rest.starts_with('\n') {
        Some(i + 1)
    } else if rest.starts_with("&#") || rest.starts_with("&NewLine") {
        None
    } else {
        Some(i)
    }
}

/// Whether `b[lt..]` starts with the end tag `</name` (ASCII case-insensitively) followed by
/// whitespace, `/` or `>`: the "appropriate end tag" that ends raw text.
#[inline]
pub(super) fn is_end_tag_of(b: &[u8], lt: usize, name: &str) -> bool {
    let q = lt + 2 + name.len();
    b.get(lt + 1) == Some(&b'/')
        && q < b.len()
        && b[lt + 2..q].eq_ignore_ascii_case(name.as_bytes())
        && CLASS[b[q] as usize] & END_TAG_NAME != 0
}

/// The index after the run of ASCII letters at `k`.
#[inline]
pub(super) fn letters_end(b: &[u8], mut k: usize) -> usize {
    while b.get(k).is_some_and(|c| c.is_ascii_alphabetic()) {
        k += 1;
    }
    k
}

/// Whether the letters `b[s..k]` spell `script` and are followed by whitespace, `/` or `>`
/// (what the double-escape start and end states test).
#[inline]
pub(super) fn script_word(b: &[u8], s: usize, k: usize) -> bool {
    b[s..k].eq_ignore_ascii_case(b"script")
        && b.get(k).is_some_and(|&c| CLASS[c as usize] & END_TAG_NAME != 0)
}

/// Where the content of a `script` element read from `from` ends: the offset of the end tag
/// `</script` that ends it, or EOF. Follows the tokenizer's script data states, including
/// the escaped states that `<!--` opens (in which `-->` returns to script data) and the
/// double-escaped ones that `<script` opens inside those (in which `</script` only returns to
/// the escaped state).
pub(super) fn script_data_end(b: &[u8], from: usize) -> usize {
    let n = b.len();
    let mut i = from;
    loop {
        // Script data state.
        loop {
            let Some(lt) = memchr::memchr(b'<', &b[i..]).map(|p| i + p) else {
                return n;
            };
            if is_end_tag_of(b, lt, "script") {
                return lt;
            }
            i = lt + 1;
            if b[i..].starts_with(b"!--") {
                i += 3;
                break;
            }
        }
        // Escaped (`double`: double-escaped) states; `dashes` counts the `-` just read (up
        // to two: the "dash dash" state, where `>` returns to script data).
        let mut dashes = 2;
        let mut double = false;
        loop {
            let Some(&c) = b.get(i) else {
                return n;
            };
            match c {
                b'-' => {
                    dashes = (dashes + 1).min(2);
                    i += 1;
                }
                b'>' if dashes == 2 => {
                    i += 1;
                    break;
                }
                b'<' => {
                    dashes = 0;
                    let next = b.get(i + 1).copied();
                    if !double && next == Some(b'/') {
                        if is_end_tag_of(b, i, "script") {
                            return i;
                        }
                        // Not it: the letters are text, the next character is read again.
                        i = letters_end(b, i + 2);
                    } else if !double && next.is_some_and(|c| c.is_ascii_alphabetic()) {
                        let k = letters_end(b, i + 1);
                        if script_word(b, i + 1, k) {
                            double = true;
                            i = k + 1;
                        } else {
                            i = k;
                        }
                    } else if double && next == Some(b'/') {
                        let k = letters_end(b, i + 2);
                        if script_word(b, i + 2, k) {
                            double = false;
                            i = k + 1;
                        } else {
                            i = k;
                        }
                    } else {
                        i += 1;
                    }
                }
                _ => {
                    dashes = 0;
                    i += 1;
                }
            }
        }
    }
}

/// Byte classes of the tag tokenizer states (the input has no CR or NUL by then).
pub(super) const C_WS: u8 = 1;
pub(super) const C_SLASH: u8 = 2;
pub(super) const C_GT: u8 = 4;
pub(super) const C_EQ: u8 = 8;
/// Ends a tag name.
pub(super) const END_TAG_NAME: u8 = C_WS | C_SLASH | C_GT;
/// Ends an attribute name.
pub(super) const END_ATTR_NAME: u8 = C_WS | C_SLASH | C_GT | C_EQ;
/// Ends an unquoted attribute value.
pub(super) const END_UNQUOTED: u8 = C_WS | C_GT;

pub(super) static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'\t' as usize] = C_WS;
    t[b'\n' as usize] = C_WS;
    t[0x0C] = C_WS;
    t[b' ' as usize] = C_WS;
    t[b'/' as usize] = C_SLASH;
    t[b'>' as usize] = C_GT;
    t[b'=' as usize] = C_EQ;
    t
};

/// The first index at or after `k` whose byte is in one of the `stop` classes (or `b.len()`).
///
/// NOTE: tag names, attribute names and unquoted values are short: one 16-byte block compare
/// (`simd::block`) usually finds the end, where the byte loop took a table load and a test
/// per byte; the byte loop is left for the last 15 bytes of the text. `stop` is a constant
/// at every call site, so the needles are too.
#[inline(always)]
pub(super) fn scan_until(b: &[u8], mut k: usize, stop: u8) -> usize {
    while let Some(blk) = block::at(b, k) {
        let m = if stop == END_TAG_NAME {
            block::eq_mask(blk, [b'\t', b'\n', 0x0C, b' ', b'/', b'>'])
        } else if stop == END_ATTR_NAME {
            block::eq_mask(blk, [b'\t', b'\n', 0x0C, b' ', b'/', b'>', b'='])
        } else if stop == END_UNQUOTED {
            block::eq_mask(blk, [b'\t', b'\n', 0x0C, b' ', b'>'])
        } else {
            break;
        };
        if m != 0 {
            return k + m.trailing_zeros() as usize;
        }
        k += block::BLOCK;
    }
    while let Some(&c) = b.get(k) {
        if CLASS[c as usize] & stop != 0 {
            break;
        }
        k += 1;
    }
    k
}

/// The first index at or after `k` whose byte is not whitespace (or `b.len()`).
///
/// Most calls (before `>`, an attribute name or `=`, after `=`) skip nothing: a byte above
/// the space, which no whitespace is, settles them without the table load.
#[inline(always)]
pub(super) fn skip_ws(b: &[u8], mut k: usize) -> usize {
    while b.get(k).is_some_and(|&c| c <= b' ' && CLASS[c as usize] == C_WS) {
        k += 1;
    }
    k
}

/// The key [`tags::lookup`] takes for the name `b[s..e]`: [`tags::name_key`] of its first 8
/// bytes with bit 0x20 set in every byte that has bit 0x40 (one branch-free case fold).
///
/// That is not ASCII lowercasing, but it finds the same tags: it maps `A`..=`Z` to `a`..=`z`
/// and leaves digits alone, and the other bytes it changes (`@`, `[`..=`_`, 0xC0..) become
/// bytes that no known tag name has (every one is lowercase letters and digits, checked by
/// the tests). So a byte folds to a letter only if it is that letter in either case, and to a
/// digit only if it is that digit: the key equals a known name's key exactly when the first 8
/// bytes are that name's, ASCII case aside. (The full ASCII lowercasing in SWAR measured
/// ~6 instructions a name more: cli-warc-gz -1.1 M, library-loop -1.2 M with this fold.)
#[inline(always)]
pub(super) fn folded_key(b: &[u8], s: usize, e: usize) -> u64 {
    let len = (e - s).min(8);
    let x = match b.get(s..s + 8) {
        Some(w) => u64::from_le_bytes(w.try_into().unwrap_or([0; 8])),
        None => tags::name_key(&b[s..s + len]),
    };
    // The bytes past the name cleared without a branch on the length (no mask for an empty
    // name, which a tag name never is).
    let x = x & u64::MAX.checked_shr(8 * (8 - len) as u32).unwrap_or(0);
    x | ((x & 0x4040_4040_4040_4040) >> 1)
}

/// Scans a tag name starting at `s` (an ASCII letter) up to whitespace, `/`, `>` or EOF.
/// Returns the index after it, the interned tag and the lowercased name (the tag's own for
/// known tags, borrowed from the input when already lowercase).
#[inline(always)]
pub(super) fn tag_name<'a>(arena: &'a Bump, text: &'a str, s: usize) -> (usize, Tag, &'a str) {
    let b = text.as_bytes();
    let k = scan_until(b, s, END_TAG_NAME);
    let tag = tags::lookup(folded_key(b, s, k), &b[s..k]);
    let name = if tag != Tag::Other { tag.info().name } else { lower(arena, &text[s..k]) };
    (k, tag, name)
}

/// Tokenizes a start tag whose name starts at `s` (after `<`). Returns the index after `>`,
/// the tag, its lowercased name and the self-closing flag; attributes (duplicates dropped,
/// first wins) are left in `attrs`.
pub(super) fn start_tag<'a>(
    arena: &'a Bump,
    text: &'a str,
    s: usize,
    attrs: &mut AVec<'a, Attribute<'a>>,
    max_attrs: usize,
) -> Option<(usize, Tag, &'a str, bool)> {
    let (k, tag, name) = tag_name(arena, text, s);
    let (k, self_closing) = attributes(arena, text, k, attrs, max_attrs)?;
    Some((k, tag, name, self_closing))
}

/// [`attributes`] out of line: for end tags, which rarely have any.
#[inline(never)]
pub(super) fn end_tag_attributes<'a>(
    arena: &'a Bump,
    text: &'a str,
    k: usize,
    attrs: &mut AVec<'a, Attribute<'a>>,
    max_attrs: usize,
) -> Option<(usize, bool)> {
    attributes(arena, text, k, attrs, max_attrs)
}

/// Tokenizes the attributes of a tag from `k` (after its name) into `attrs` (cleared first;
/// duplicates dropped, first wins). Returns the index after `>` and the self-closing flag;
/// `None` (give up) past `max_attrs` attributes, duplicates counted.
/// Inlined into the start-tag path of [`run`](super::run) (one call per start tag).
#[inline(always)]
pub(super) fn attributes<'a>(
    arena: &'a Bump,
    text: &'a str,
    mut k: usize,
    attrs: &mut AVec<'a, Attribute<'a>>,
    max_attrs: usize,
) -> Option<(usize, bool)> {
    attrs.clear();
    let b = text.as_bytes();
    let mut read = 0;
    loop {
        k = skip_ws(b, k);
        match *b.get(k)? {
            b'>' => return Some((k + 1, false)),
            b'/' => {
                k += 1;
                if *b.get(k)? == b'>' {
                    return Some((k + 1, true));
                }
            }
            _ => {
                // The first character is part of the name whatever it is (even `=`).
                read += 1;
                if read > max_attrs {
                    return None;
                }
                let ns = k;
                k = scan_until(b, k + 1, END_ATTR_NAME);
                let aname = lower(arena, &text[ns..k]);
                k = skip_ws(b, k);
                let mut value = "";
                if *b.get(k)? == b'=' {
                    k = skip_ws(b, k + 1);
                    match *b.get(k)? {
                        q @ (b'"' | b'\'') => {
                            // The closing quote, and the first `&` if it comes before.
                            let vs = k + 1;
                            // NOTE: a second round of block compares (bytes 64 to 128) before
                            // the vector search: two in five quoted values (URLs) are longer
                            // than 64 bytes, and most of those end within 128, where
                            // `memchr2`'s set-up cost ~80 instructions a call.
                            let first = match crate::xml::find_near(b, vs, [q, b'&']) {
                                Ok(p) => p,
                                Err(from) => match block::find_in_blocks(b, from, [q, b'&']) {
                                    Ok(p) => p,
                                    Err(from) => from + memchr::memchr2(q, b'&', &b[from..])?,
                                },
                            };
                            let e = if b[first] == q {
                                first
                            } else {
                                first + memchr::memchr(q, &b[first..])?
                            };
                            value = if first == e {
                                &text[vs..e]
                            } else {
                                attr_value(arena, text, vs, e, first)?
                            };
                            k = e + 1;
                        }
                        b'>' => {}
                        _ => {
                            let vs = k;
                            k = scan_until(b, k, END_UNQUOTED);
                            if k == b.len() {
                                return None;
                            }
                            let first = memchr::memchr(b'&', &b[vs..k]).map_or(k, |p| vs + p);
                            value = attr_value(arena, text, vs, k, first)?;
                        }
                    }
                }
                if !attrs.iter().any(|a| a.local == aname) {
                    attrs.push(Attribute { namespace: "", prefix: None, local: aname, value });
                }
            }
        }
    }
}
