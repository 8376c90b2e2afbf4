//! Text-level helpers of the reader: forbidden C0 controls (found once per document) and
//! character/entity reference boundaries in text runs.

use crate::simd::block;

/// Whether `b` is a C0 control character XML 1.0 forbids (all but TAB, LF, CR).
#[inline(always)]
pub(super) fn is_forbidden_control(b: u8) -> bool {
    (b < 0x20) & (b != b'\t') & (b != b'\n') & (b != b'\r')
}

/// Position of the first forbidden C0 control character. 128-byte chunks with AVX2 where
/// the CPU has it (`block::control_free_prefix`), then branch-free over 64-byte blocks so
/// the compiler vectorizes it; the clean path pays one pass over the input.
pub fn find_forbidden_control(bytes: &[u8]) -> Option<usize> {
    let mut base = block::control_free_prefix(bytes);
    let mut blocks = bytes[base..].chunks_exact(64);
    for chunk in &mut blocks {
        if chunk.iter().fold(false, |acc, &b| acc | is_forbidden_control(b)) {
            return chunk.iter().position(|&b| is_forbidden_control(b)).map(|i| base + i);
        }
        base += 64;
    }
    blocks.remainder().iter().position(|&b| is_forbidden_control(b)).map(|i| base + i)
}

/// Appends `raw[i..j]` to `out` and returns `j`, the index of the first `&` or CR at or after
/// `i` (`raw.len()` when there is none). `i` must be a char boundary.
///
/// Between the references of entity-escaped HTML the gap is usually shorter than a block:
/// then the block is copied whole (a fixed-size move, no call) and the string cut back to the
/// `&`, a char boundary.
#[inline(always)]
pub(super) fn copy_to_special(
    out: &mut bumpalo::collections::String<'_>,
    raw: &str,
    i: usize,
) -> usize {
    let bytes = raw.as_bytes();
    let j = match block::at(bytes, i) {
        Some(b) => {
            let mask = block::eq_mask(b, [b'&', b'\r']);
            if mask == 0 {
                let from = i + block::BLOCK;
                from + block::find_any(&bytes[from..], [b'&', b'\r']).unwrap_or(bytes.len() - from)
            } else {
                let j = i + mask.trailing_zeros() as usize;
                if let Some(whole) = raw.get(i..i + block::BLOCK) {
                    let len = out.len();
                    out.push_str(whole);
                    out.truncate(len + (j - i));
                    return j;
                }
                j
            }
        }
        None => {
            i + bytes[i..].iter().position(|&b| b == b'&' || b == b'\r').unwrap_or(bytes.len() - i)
        }
    };
    out.push_str(&raw[i..j]);
    j
}

/// `&lt;`, `&gt;`, `&amp;` or `&quot;` at `j` (a `&`): the character it stands for (ASCII)
/// and the reference's length.
///
/// NOTE: entity-escaped HTML is mostly these four: one 4-byte compare tells them apart, and
/// the character is a constant ASCII byte (a byte store, no UTF-8 encoding of a variable
/// `char`).
#[inline(always)]
pub(super) fn common_reference(bytes: &[u8], j: usize) -> Option<(u8, usize)> {
    const LT: u32 = u32::from_le_bytes(*b"&lt;");
    const GT: u32 = u32::from_le_bytes(*b"&gt;");
    const AMP: u32 = u32::from_le_bytes(*b"&amp");
    const QUOT: u32 = u32::from_le_bytes(*b"&quo");
    let word: [u8; 4] = bytes.get(j..j.checked_add(4)?)?.try_into().ok()?;
    match u32::from_le_bytes(word) {
        LT => Some((b'<', 4)),
        GT => Some((b'>', 4)),
        AMP if bytes.get(j + 4) == Some(&b';') => Some((b'&', 5)),
        QUOT if bytes.get(j + 4..j + 6) == Some(b"t;") => Some((b'"', 6)),
        _ => None,
    }
}

/// [`common_reference`] at `j`, its character appended to `out`: the reference's length.
#[inline(always)]
pub(super) fn push_common_reference(
    out: &mut bumpalo::collections::String<'_>,
    bytes: &[u8],
    j: usize,
) -> Option<usize> {
    let (c, len) = common_reference(bytes, j)?;
    out.push(char::from(c));
    Some(len)
}

/// The usual step of entity-escaped HTML, from `i` (a char boundary of `raw`) in one block:
/// when the block at `i` holds a `&` or CR, the first is the `&` of a [`common_reference`],
/// and `out` has a block of spare room, appends the text before the `&` and the
/// reference's character and returns the index after the reference; else appends nothing
/// and returns `None`. What [`copy_to_special`] then [`push_common_reference`] do, without
/// their room checks, char boundary checks and `memcpy`.
///
/// # Safety
/// `i` is a char boundary of `raw`: the bytes from `i` to the `&` are appended unchecked.
#[inline(always)]
pub(super) unsafe fn gap_and_common_reference(
    out: &mut bumpalo::collections::String<'_>,
    raw: &str,
    i: usize,
) -> Option<usize> {
    debug_assert!(raw.is_char_boundary(i));
    let bytes = raw.as_bytes();
    let b = block::at(bytes, i)?;
    let mask = block::eq_mask(b, [b'&', b'\r']);
    if mask == 0 {
        return None;
    }
    let gap = mask.trailing_zeros() as usize;
    let (c, len) = common_reference(bytes, i + gap)?;
    if out.capacity() - out.len() < block::BLOCK {
        return None;
    }
    // SAFETY: `out` has at least `BLOCK` bytes of spare capacity (checked just above): the
    // block store and the byte store (at `o + gap`, `gap < BLOCK`) stay inside its buffer.
    // Only `gap + 1` bytes are counted as written: `raw[i..i + gap]`, which is valid UTF-8
    // because it starts at a char boundary (this function's precondition) and ends at an
    // ASCII `&` (a char boundary too), then the ASCII byte `c`; so `out` stays valid UTF-8.
    // The uncounted bytes past them are spare capacity, never read as the string.
    unsafe {
        let v = out.as_mut_vec();
        let o = v.len();
        let dst = v.as_mut_ptr().add(o);
        std::ptr::write_unaligned(dst.cast::<[u8; block::BLOCK]>(), *b);
        dst.add(gap).write(c);
        v.set_len(o + gap + 1);
    }
    Some(i + gap + len)
}

/// Index of the first `;` or `&` at or after `from` in `bytes` (`bytes.len()` when there is
/// none): where a reference whose `&` is just before `from` ends.
#[inline(always)]
pub(super) fn reference_end(bytes: &[u8], from: usize) -> usize {
    let from = from.min(bytes.len());
    let rest = match block::at(bytes, from) {
        Some(b) => {
            let mask = block::eq_mask(b, [b';', b'&']);
            if mask != 0 {
                return from + mask.trailing_zeros() as usize;
            }
            from + block::BLOCK
        }
        None => from,
    };
    rest + block::find_any(&bytes[rest..], [b';', b'&']).unwrap_or(bytes.len() - rest)
}

/// Whether `name` is a plausible XML name for a reference (`&name;`) or `#` char ref.
pub(super) fn is_ref_name(name: &str) -> bool {
    let b = name.as_bytes();
    match b.first() {
        None => false,
        Some(b'#') => b.len() > 1 && b[1..].iter().all(|c| c.is_ascii_alphanumeric()),
        Some(&c) => {
            (c.is_ascii_alphabetic() || c == b'_' || c == b':' || c >= 0x80)
                && b.iter().all(|&c| {
                    c.is_ascii_alphanumeric() || matches!(c, b'_' | b':' | b'-' | b'.') || c >= 0x80
                })
        }
    }
}
